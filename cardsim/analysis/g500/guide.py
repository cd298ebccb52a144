"""Five Hundred bid guide: what a holding before the kitty is worth at each level 6-10.

For a class of holdings of the declarer (seat 0) before the kitty — trumps counted with the
jokers and the left bower (``trumps_X``), how many of the top five trumps (``top_X``: HJ, LJ,
right and left bower, ace), optionally the side aces; for no-trump the jokers and the aces —
every contract ``=6X`` … ``=10X`` is played on the same deals (the auction skipped: the seat
declares, takes the kitty, discards by its strategy and leads; docs/RULES.md §3.4-§3.5) under both
scorings (docs/RULES.md §3.6).  The pipeline:

* :func:`guide_classes` — the classes (:class:`Holding`);
* :func:`run_classes` — plays them through the public question API (:mod:`cardsim.questions`)
  and returns the long frame of :data:`LEVEL_COLUMNS` (one row per class, scoring and level);
* :func:`tables` — from that frame: ``g500_guide_bids`` (:func:`bids`: the level with the
  highest mean score per class and scoring, with the paired margin over the runner-up),
  ``g500_guide_minimum`` (:func:`minimum_holding`: the least holding at which each level makes
  at least half the time), ``g500_guide_symmetry`` (:func:`symmetry`: spades vs hearts) and
  ``g500_guide_levels`` (every number);
* :func:`run_openings` — ``g500_guide_openings``: each rule of thumb's bid forced (the guide's
  contract), opened as a first call and passed, on the same deals: what a forced contract
  overstates;
* :func:`answer` — the answer paragraph, generated from those tables; :func:`figures` — the
  recommended-bid heatmaps.

Sampling a class exactly and cheaply.  Rejection alone (deal, keep the hand if it is in the
class) is exact but slow for long trump holdings (a hand with 7 trumps comes once in 240).
The class is therefore split into equally likely strata by WHICH of its counted honours the
hand holds (which of the top five trumps and side aces; which jokers and aces): each stratum
gives those cards to the seat and meets the rest of the class by rejection.  Every stratum
holds the same number of hands of the class, so equal deal counts per stratum sample the class
uniformly; merging the strata's sums is stratified sampling with equal allocation, whose
pooled intervals are, if anything, a little wide.

Units: scores in points per deal, the declarer's side's change minus the defenders'.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis import robustness as RB, rules_of_thumb as T
from cardsim.analysis.chart_pipeline import play, replay_rows, task_seed
from cardsim.analysis.plots import pyplot, save_figure
from cardsim.analysis.robustness import DEPENDS, others, pilot_seed, sentence

from cardsim.analysis.verdicts import chart_clear
from cardsim.cards import SUITS
from cardsim.deal import MAX_ATTEMPTS
from cardsim.games import get_game
from cardsim.profiles import Profile
from cardsim.questions import question, run_question, table
from cardsim.ranking import rank_sums
from cardsim.selection import CHOOSE, half_means, paired, ranked
from cardsim.stats import mean_interval

GAME = "500"
SEAT = 0
LEVELS = (6, 7, 8, 9, 10)
SCORINGS = ("quebec", "subtract")
SUIT_MATE = {"S": "C", "C": "S", "D": "H", "H": "D"}
SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT"}
DECK_SIZE = 46
HAND_SIZE = 10
GUIDE_SUIT = "H"
"""The suit the suit classes are played in; by symmetry it stands for every suit (made rates;
the scores follow the bid table)."""
MAX_CANDIDATES = 60_000_000
"""Most candidate deals one class may cost per scoring: rarer classes get fewer deals."""
MIN_DEALS = 1_000
"""A class that MAX_CANDIDATES would leave with fewer deals than this (and than asked) is left out."""
MIN_ACCEPTANCE = 30 / MAX_ATTEMPTS
"""Rarer strata are left out: a deal failing after MAX_ATTEMPTS candidates (a ConditionError
ending the run) must be out of the question (probability exp(-30) a deal)."""
HALF = 0.5
FAMILY = 0.95
"""Family-wise level of the symmetry check: its intervals hold together over the levels compared."""

LEVEL_COLUMNS = ["denom", "trumps", "top", "side_aces", "jokers", "aces", "holding", "share", "scoring", "level",
                 "deals", "made", "made_lo", "made_hi", "score", "score_lo", "score_hi", "diff", "diff_lo",
                 "diff_hi", "acceptance", "score_half0", "diff_half1", "diff_half1_lo", "diff_half1_hi", "p_half1"]
CLASS_COLUMNS = ["denom", "trumps", "top", "side_aces", "jokers", "aces", "holding"]

GLOSSARY = {
    "denom": "the contract's denomination: H (hearts, standing for any suit), S (the symmetry check), NT",
    "trumps": "cards that would be trumps, counted before the kitty: the suit, the left bower, the jokers "
              "(feature trumps_X; 8+ = 8 to 10)",
    "top": "how many of the top five trumps are among them: HJ, LJ, right bower, left bower, ace (top_X)",
    "side_aces": "aces outside the trump suit (side_aces_X); empty = any number",
    "jokers / aces": "no-trump classes: jokers and aces held",
    "holding": "the class in words",
    "share": "how often a dealt hand is in the class (exact, combinatorial)",
    "scoring": "quebec (made: +value, failed: defenders +value) or subtract (failed: -value; defenders "
               "+10 a trick), docs/RULES.md §3.6",
    "level / best / runner_up": "tricks contracted (6-10) in the class's denomination, the contract forced with "
                                "the auction skipped",
    "deals": "deals played in the class (the same deals for every level and both scorings)",
    "made": "share of deals in which the declarer's side took at least the tricks bid",
    "score": "mean score per deal: the declarer's side's change minus the defenders' (points)",
    "diff": "paired mean difference to the class's best level on the same deals",
    "margin": "best minus runner-up, paired, on the half of the deals not used to choose them (odd deal numbers; "
              "best and runner-up are the highest means on the even ones), with its 95% interval; p_value = its "
              "one-sided p-value; clear = called clear by Benjamini-Hochberg over the table's class-and-scoring "
              "cells at a 2.5% false discovery rate (docs/statistics.md): a clear margin's interval lies above 0",
    "score_half0 / diff_half1 / p_half1": "(levels CSV) the mean score on the even-numbered deals, which chooses "
                                          "the best level; each level minus that best level on the odd-numbered "
                                          "deals, with its 95% interval and the one-sided p-value of the best being "
                                          "better",
    "pays": "whether the best level's mean score is above 0",
    "made_diff_pp / agree": "g500_guide_symmetry: made rate in spades minus hearts (percentage points) with "
                            "its interval (95% over the levels together, Bonferroni); agree = the interval includes 0 "
                            "(suffixes _H, _S: each suit)",
    "acceptance": "share of candidate deals the rejection step kept (after the honours given by stratum)",
    "forced / opening / pass": "g500_guide_openings: a rule of thumb's bid forced with the auction skipped (the "
                               "guide's number), opened as the seat's first call (the auction played on), and "
                               "passing, mean score a deal on the same deals; opening_legal = share of deals on "
                               "which the bid could still be opened",
    "gap / over_pass": "g500_guide_openings: forced minus opened, and opened minus passing (paired, points a deal)",
    "_lo / _hi": "95% interval (Wilson for rates, normal for means)",
}
NOTES = [
    "Hearts stand for every trump suit: the suits are alike but for the bid table, so the made rates "
    "are the same in any suit (checked in spades for one class, g500_guide_symmetry) while the scores "
    "follow each suit's values (docs/RULES.md §3.3).",
    "Each contract is forced with the auction skipped: no opponent bids, the declarer takes the "
    "kitty. A level whose mean score is below 0 loses points on average against the deal not being "
    "played at all; passing instead lets the others bid, which this table does not value. An opening "
    "bid scores less than the same contract forced (the others may overcall or push); "
    "g500_guide_openings measures that gap for the rules of thumb' bids, on the same deals, with "
    "passing beside them.",
    "The holding is the 10 cards before the kitty; partner's hand and the kitty are random given it. "
    "Everything not forced is played by the default heuristic strategies.",
    "Blank cells of the heatmap are holdings that cannot occur (4 trumps hold at most 4 of the top five) or "
    "too rare to deal (a stratum keeping under 3 candidate deals in 100,000); g500_guide_bids lists the classes "
    "played. Rare classes get fewer deals (column deals).",
]
METHOD = ("Five Hundred bid guide: each class of declarer holdings (trumps and top trumps; side aces; for "
          "no-trump jokers and aces) is dealt exactly — the class is split into equally likely strata by "
          "which of its counted honours the hand holds, those cards are given to the seat and the rest of the "
          "class is met by rejection — and every contract from 6 to 10 in that denomination is played with "
          "the auction skipped on the same deals (common random numbers), once under each scoring with the "
          "same seeds. The recommended level is the one with the highest mean score on the even-numbered deals; "
          "its margin over the runner-up is a paired difference on the odd-numbered ones (no winner's curse), with "
          "a 95% interval; a margin is called clear by Benjamini-Hochberg over the guide's cells at a 2.5% false "
          "discovery rate.")


# ---------------------------------------------------------------- classes
@dataclass(frozen=True)
class Holding:
    """A class of declarer holdings before the kitty.

    ``denom``: a suit letter (S C D H) or ``"NT"``.  Suit classes: ``trumps`` (exact count, or
    at least it when ``plus``), ``top`` (0..5), ``side_aces`` (None = any).  No-trump classes:
    ``jokers`` (0..2) and ``aces`` (0..4).
    """

    denom: str
    trumps: int | None = None
    top: int | None = None
    side_aces: int | None = None
    plus: bool = False
    jokers: int | None = None
    aces: int | None = None

    @property
    def is_nt(self) -> bool:
        return self.denom == "NT"

    @property
    def trumps_label(self) -> str:
        return "" if self.is_nt else f"{self.trumps}{'+' if self.plus else ''}"

    def label(self) -> str:
        if self.is_nt:
            return f"{_count(self.jokers, 'joker')}, {_count(self.aces, 'ace')}"
        text = f"{self.trumps_label} trumps, {self.top} top"
        if self.side_aces is not None:
            text += f", {_count(self.side_aces, 'side ace')}"
        return text

    def groups(self) -> list[tuple[tuple[str, ...], int]]:
        """The counted honours: ``(cards, how many held)``, each held exactly (card tokens)."""
        if self.is_nt:
            return [(("HJ", "LJ"), self.jokers), (("AS", "AC", "AD", "AH"), self.aces)]
        x = self.denom
        out = [(("HJ", "LJ", f"J{x}", f"J{SUIT_MATE[x]}", f"A{x}"), self.top)]
        if self.side_aces is not None:
            out.append((tuple(f"A{s}" for s in SUITS if s != x), self.side_aces))
        return out

    def counted(self) -> tuple[int, int, int]:
        """``(cards, least, most)``: the other trumps and how many of them the class holds."""
        if self.is_nt:
            return 0, 0, 0
        low = 14 - 5
        most = HAND_SIZE - self.top if self.plus else self.trumps - self.top
        return low, self.trumps - self.top, most

    def where(self) -> str:
        """The class as a conditions string (docs/conditions.md)."""
        if self.is_nt:
            return f"jokers={self.jokers}, aces={self.aces}"
        x = self.denom
        text = f"top_{x}={self.top}, trumps_{x}{'>=' if self.plus else '='}{self.trumps}"
        if self.side_aces is not None:
            text += f", side_aces_{x}={self.side_aces}"
        return text

    def strata(self) -> list[str]:
        """The given cards of every stratum (hand strings): each choice of the held honours."""
        choices = [itertools.combinations(cards, k) for cards, k in self.groups()]
        return [" ".join(c for part in combo for c in part) for combo in itertools.product(*choices)]

    def _rest(self, free: int) -> int:
        """Ways to fill ``free`` slots outside the counted honours within the class."""
        low, lo, hi = self.counted()
        others = DECK_SIZE - low - sum(len(cards) for cards, _ in self.groups())
        return sum(math.comb(low, c) * math.comb(others, free - c) for c in range(lo, hi + 1) if 0 <= free - c)

    def share(self) -> float:
        """Probability that a dealt hand is in the class."""
        held = sum(k for _, k in self.groups())
        ways = math.prod(math.comb(len(cards), k) for cards, k in self.groups())
        return ways * self._rest(HAND_SIZE - held) / math.comb(DECK_SIZE, HAND_SIZE)

    def acceptance(self) -> float:
        """Share of candidate deals a stratum keeps (its honours given, the rest random)."""
        held = sum(k for _, k in self.groups())
        return self._rest(HAND_SIZE - held) / math.comb(DECK_SIZE - held, HAND_SIZE - held)

    def options(self) -> list[str]:
        return [f"={level}{self.denom}" for level in LEVELS]


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def suit_grid(trumps=(4, 5, 6, 7, 8), tops=range(6), suit=GUIDE_SUIT) -> list[Holding]:
    """Suit classes trumps x top (the last trumps count taken as 'or more'), the possible ones."""
    last = max(trumps)
    return [Holding(suit, t, k, plus=t == last) for t in trumps for k in tops if k <= t and t - k <= 9]


def nt_grid(jokers=(0, 1, 2), aces=range(5)) -> list[Holding]:
    return [Holding("NT", jokers=j, aces=a) for j in jokers for a in aces]


def guide_classes(quick: bool = False) -> list[Holding]:
    """The classes of the guide: hearts trumps x top, a side-aces sweep, one spade class for the
    symmetry check, no-trump jokers x aces (``quick``: fewer of each)."""
    if quick:
        suits = suit_grid(trumps=(5, 6, 7), tops=(1, 2, 3, 4))
        side = [Holding(GUIDE_SUIT, 6, 2, side_aces=a) for a in (0, 2)]
        nt = nt_grid(aces=(1, 3))
    else:
        suits = suit_grid()
        side = [Holding(GUIDE_SUIT, 6, 2, side_aces=a) for a in range(4)]
        nt = nt_grid()
    return suits + side + [Holding("S", 6, 3)] + nt


def deals_for(holding: Holding, n: int, max_candidates: float = MAX_CANDIDATES) -> int:
    """Deals to play in ``holding``: ``n``, fewer where that would cost more than
    ``max_candidates`` candidate deals, 0 (left out) where that leaves under MIN_DEALS or the
    acceptance is under MIN_ACCEPTANCE."""
    if holding.acceptance() < MIN_ACCEPTANCE:
        return 0
    deals = min(n, int(max_candidates * holding.acceptance()))
    return deals if deals >= min(n, MIN_DEALS) else 0


# ---------------------------------------------------------------- running
def _stratum_sums(holding: Holding, given: str, deals: int, seed: int, scoring: str, strategies) -> dict:
    """The question sums of one stratum of a class (its honours ``given``) and ``scoring``: every
    level on ``deals`` deals from ``seed`` (:func:`cardsim.analysis.chart_pipeline.task_seed` of
    the class and stratum: the same deals under both scorings, paired)."""
    q = question(GAME, SEAT, holding.options(), n=deals, seed=seed, hand=given or None, where=holding.where(),
                 strategies=strategies, rules={"scoring": scoring}, chunk_size=max(deals, 1))
    return run_question(q, n_jobs=1)


def _merge(parts: list[dict]) -> dict:
    return {key: sum(p[key] for p in parts) for key in parts[0]}


def class_rows(holding: Holding, scoring: str, sums: dict, strategies=None) -> pd.DataFrame:
    """The :data:`LEVEL_COLUMNS` rows of one class and scoring from its merged question sums."""
    given = holding.strata()[0]
    q = question(GAME, SEAT, holding.options(), n=1, seed=0, hand=given or None, where=holding.where(),
                 strategies=strategies, rules={"scoring": scoring})
    t = table(q, sums)
    out = pd.DataFrame({"level": [int(o[1:-len(holding.denom)]) for o in t.option]})
    for col, value in class_values(holding).items():
        out[col] = value
    out["share"] = holding.share()
    out["scoring"] = scoring
    out["deals"] = t["n"].to_numpy()
    for col in ("made", "made_lo", "made_hi", "score", "score_lo", "score_hi", "diff", "diff_lo", "diff_hi"):
        out[col] = t[col].to_numpy()
    out["acceptance"] = t.attrs["acceptance"]
    # Honest selection (cardsim.selection): the best level is chosen on half 0 of the deals and
    # every level is compared with it on half 1.
    order = [int(o[1:-len(holding.denom)]) for o in q.options]
    score0 = half_means(sums)[CHOOSE]
    best = rank_sums(sums, half=CHOOSE).rows[0]  # docs/statistics.md, "Which option is best"
    held = [paired(sums, j, best) for j in range(len(order))]
    half = pd.DataFrame({"level": order, "score_half0": score0, "diff_half1": [h["mean"] for h in held],
                         "diff_half1_lo": [h["lo"] for h in held], "diff_half1_hi": [h["hi"] for h in held],
                         "p_half1": [h["p_below"] for h in held]})
    half.loc[best, ["diff_half1", "diff_half1_lo", "diff_half1_hi"]] = 0.0
    half.loc[best, "p_half1"] = 1.0
    out = out.merge(half, on="level", how="left")
    return out.sort_values("level")[LEVEL_COLUMNS].reset_index(drop=True)


def class_values(holding: Holding) -> dict:
    """The class columns of ``holding`` (missing values as None)."""
    return {"denom": holding.denom, "trumps": holding.trumps_label, "top": holding.top,
            "side_aces": holding.side_aces, "jokers": holding.jokers, "aces": holding.aces,
            "holding": holding.label()}


def run_classes(classes, n: int, seed: int, n_jobs: int = -1, strategies=None, log=print,
                results=None) -> pd.DataFrame:
    """Play every class (``n`` deals each at most, :func:`deals_for`) under both scorings.
    ``results``: a folder keeping each finished stratum, so that the same call resumes
    (:func:`cardsim.runner.store.analysis_store`).

    Returns the long frame (:data:`LEVEL_COLUMNS`): one row per class, scoring and level, the
    classes in the given order.  ``log`` gets one progress line per class.
    """
    plan = []
    for holding in classes:
        deals = deals_for(holding, n)
        if deals == 0:
            log(f"  {holding.denom} {holding.label()}: left out (share {holding.share():.1e}, too rare to deal)")
            continue
        strata = holding.strata()
        per = -(-deals // len(strata))
        plan.append((holding, [(given, per, task_seed(seed, holding, i)) for i, given in enumerate(strata)]))
    tasks = [(h, given, per, s, scoring, strategies)
             for h, strata in plan for scoring in SCORINGS for given, per, s in strata]
    sums_of = play(_stratum_sums, tasks, [t[2] for t in tasks], n_jobs, name="500-guide", results=results)
    frames, parts = {}, {}
    for (holding, _, _, _, scoring, _), sums in zip(tasks, sums_of):
        parts.setdefault((holding, scoring), []).append(sums)
        if len(parts[(holding, scoring)]) == len(holding.strata()):
            f = class_rows(holding, scoring, _merge(parts.pop((holding, scoring))), strategies)
            frames[(holding, scoring)] = f
            log(f"  {holding.denom} {holding.label()}, {scoring}: {int(f.deals.iloc[0]):,} deals, acceptance "
                f"{f.acceptance.iloc[0]:.2g}, best {_best_text(f)}")
    ordered = [frames[(h, s)] for h, _ in plan for s in SCORINGS]
    if not ordered:
        return pd.DataFrame(columns=LEVEL_COLUMNS)
    return typed(pd.concat(ordered, ignore_index=True))


# ---------------------------------------------------------------- under other players
def robust_stratum_sums(holding: Holding, options: tuple, given: str, deals: int, seed: int, scoring: str,
                        strategies) -> dict:
    """The question sums of ``options`` in one stratum of a class (its honours ``given``) and
    ``scoring`` on ``deals`` deals from ``seed``, with every seat's ``strategies``."""
    q = question(GAME, SEAT, list(options), n=deals, seed=seed, hand=given or None, where=holding.where(),
                 strategies=strategies, rules={"scoring": scoring}, chunk_size=max(deals, 1))
    return run_question(q, n_jobs=1)


PIMC = "pimc:worlds=8"
"""The card play of the guide's extra profile ``pimc`` (partner and opponents, :data:`PIMC_DEALS` deals a cell)."""
PIMC_DEALS = 300
"""Most deals per cell under the ``pimc`` profile (``run_robust(..., pimc=True)``)."""
PIMC_OFF = ("pimc card play in the other seats is not replayed: Five Hundred's pimc plays about 1.7 deals a "
            "CPU-second with every seat searching at 8 worlds (analyses/g500_stronger.py), so the guide's 94 cells "
            "would cost about 25 CPU-hours (a pilot of up to 200 deals of the five levels and 300 deals of about 2.5 "
            "candidates each), far beyond the report's 30 minutes; `make stronger` (the section on a stronger player) "
            "replays 6 of them with pimc on every seat until each verdict decides")
"""Why the report's guide is not replayed under :func:`pimc_profile` (its sentence says so)."""


def pimc_profile():
    """The guide's own card-play profile: partner and both opponents play their cards by ``pimc``
    (:data:`PIMC`); the guide's options skip the auction, so only card play and the kitty act on it."""
    return Profile("pimc", f"partner and opponents play their cards by {PIMC} (a stronger card player)",
                   {"others": PIMC})


def _robust_cell_sums(payload, options, deals, pilot, strategies) -> dict:
    """One class and scoring's question with ``options`` on its first ``deals`` deals, split evenly
    over its strata (each stratum's own seed; ``pilot``: the pilot's own deals), merged: the form
    cardsim.analysis.robustness.replay calls."""
    holding, strata, scoring = payload
    per = max(1, -(-deals // len(strata)))
    return _merge([robust_stratum_sums(holding, tuple(options), given, per, pilot_seed(s) if pilot else s, scoring,
                                       strategies) for given, s in strata])


def run_robust(classes, bid_rows: pd.DataFrame, n: int, seed: int, n_jobs: int = -1, log=print, results=None,
               profiles=None, levels: pd.DataFrame | None = None, pimc: bool = False) -> pd.DataFrame:
    """Each class and scoring's best level (``bid_rows``: :func:`bids`) replayed under the player
    profiles that act on the guide (:func:`cardsim.analysis.robustness.replay`): every level that
    could be best against the best, on the first deals of each stratum (the same deals as the
    guide's own run), as many as 90% power to see a flip the size of the margin needs (80% is
    what "holds" needs).  The guide's contracts skip the auction, so a profile that changes only bidding gives the
    default's numbers and is left out (measured on the pilot deals, not listed by hand);
    ``pimc`` adds :func:`pimc_profile` (card play) on at most :data:`PIMC_DEALS` deals a cell
    (off by default: :data:`PIMC_OFF` says why).
    ``levels``: :func:`run_classes`' frame, whose half-1 differences give the default players'
    candidates (without it, the best and the runner-up only).  Returns ``bid_rows`` with the
    robustness columns (gains in score points)."""
    profiles = RB.others(GAME) if profiles is None else list(profiles)
    if pimc and all(p.name != "pimc" for p in profiles):
        profiles.append(pimc_profile())
    base = [get_game(GAME).table.default_strategy] * 4
    by_label = {(h.denom, h.label()): h for h in classes}
    keys = _class_key(levels) + ["scoring"] if levels is not None else None
    key = lambda values: tuple(None if pd.isna(v) else v for v in values)  # noqa: E731  (NaN keys never match)
    diffs = ({key(k): g for k, g in levels.groupby(keys, sort=False, dropna=False)} if levels is not None else {})
    cells = []
    for r in bid_rows.itertuples():
        h = by_label.get((r.denom, r.holding))
        if h is None or r.runner_up is None or pd.isna(r.runner_up):
            cells.append(None)  # a class not played here, or a single level: nothing to replay
            continue
        options = tuple(h.options())
        best, runner = f"={int(r.best)}{h.denom}", f"={int(r.runner_up)}{h.denom}"
        g = diffs.get(key(getattr(r, k) for k in keys)) if keys else None
        # diff_half1 is the level minus the best: best minus it has lower end -diff_half1_hi
        lo = ({f"={int(lv)}{h.denom}": -hi for lv, hi in zip(g.level, g.diff_half1_hi)} if g is not None else {})
        strata = tuple((given, task_seed(seed, h, k)) for k, given in enumerate(h.strata()))
        deals = -(-deals_for(h, n) // len(strata)) * len(strata)
        sd = RB.sd_of(float(r.margin_lo), float(r.margin_hi), deals / 2)
        cells.append(RB.Cell((h, strata, r.scoring), options, best, float(r.margin), sd,
                             RB.contenders(options, best, runner, runner, lo), deals))
    blank = {"robust_verdict": "", "holds": None, "robust_deals": 0}
    rows = replay_rows(cells, profiles, _robust_cell_sums, base, blank, name="500-robust", n_jobs=n_jobs,
                       results=results, log=log, caps={"pimc": PIMC_DEALS})
    b = bid_rows.copy()
    for col in RB.COLUMNS:
        b[col] = [row.get(col, np.nan if col not in ("robust_verdict",) else "") for row in rows]
    return b


# ---------------------------------------------------------------- forced contract vs opening bid
OPENING_COLUMNS = ["denom", "holding", "scoring", "bid", "deals", "opening_legal", "forced", "forced_lo",
                   "forced_hi", "opening", "opening_lo", "opening_hi", "pass", "pass_lo", "pass_hi", "gap", "gap_lo",
                   "gap_hi", "over_pass", "over_pass_lo", "over_pass_hi"]
"""Columns of :func:`run_openings` (``g500_guide_openings``): a rule's class and scoring, its bid,
the deals played, the share of them on which the bid could still be opened (``opening_legal``:
no one before the seat bid higher), the mean score (points a deal, 95% interval) of the bid
forced (``forced``: the guide's number), opened as the seat's first call (``opening``: the
auction played on by the strategies) and of passing (``pass``), ``gap`` = forced minus opening
and ``over_pass`` = opening minus passing, each paired on the deals where both could be made."""


def opening_options(level: int, denom: str) -> tuple[str, str, str]:
    """The three ways to play a rule's bid: forced with the auction skipped, opened, and a pass."""
    return f"={int(level)}{denom}", f"{int(level)}{denom}", "P"


def run_openings(classes, bid_rows: pd.DataFrame, rules_: list[dict], n: int, seed: int, n_jobs: int = -1,
                 log=print, results=None, strategies=None) -> pd.DataFrame:
    """Each rule of thumb's bid (``rules_``: :func:`rules`, whose ``row`` is a row of ``bid_rows``)
    played in its class and scoring three ways on the guide's own deals (its strata and seeds, up to
    ``n`` deals): forced (the guide's contract), opened as the seat's first call (the auction played
    on by the strategies; a bid the earlier callers have topped cannot be opened), and passed.
    Returns the :data:`OPENING_COLUMNS` frame, one row per rule (empty without rules)."""
    by_label = {(h.denom, h.label()): h for h in classes}
    cells = []
    for rule in rules_:
        r = bid_rows.reset_index(drop=True).iloc[rule["row"]]
        h = by_label[(r.denom, r.holding)]
        strata = h.strata()
        per = -(-deals_for(h, n) // len(strata))
        cells.append((r, h, opening_options(r.best, r.denom), [(g, per, task_seed(seed, h, i))
                                                                for i, g in enumerate(strata)]))
    tasks = [(h, opts, g, per, s, r.scoring, strategies) for r, h, opts, strata in cells for g, per, s in strata]
    if not tasks:
        return pd.DataFrame(columns=OPENING_COLUMNS)
    log(f"  forced contract vs opening bid: {len(cells)} rules, the bid forced, opened and a pass")
    sums_of = iter(play(robust_stratum_sums, tasks, [t[3] for t in tasks], n_jobs, name="500-openings",
                        results=results))
    rows = []
    for r, h, opts, strata in cells:
        sums = _merge([next(sums_of) for _ in strata])
        mean, _, lo, hi = mean_interval(sums["s1"], sums["s2"], sums["legal"])
        row = {"denom": r.denom, "holding": r.holding, "scoring": r.scoring, "bid": opts[1],
               "deals": int(sums["deals"]), "opening_legal": float(sums["legal"][1] / sums["deals"])}
        for j, name in enumerate(("forced", "opening", "pass")):
            row.update({name: float(mean[j]), f"{name}_lo": float(lo[j]), f"{name}_hi": float(hi[j])})
        for name, (a, b) in (("gap", (0, 1)), ("over_pass", (1, 2))):
            m, _, dlo, dhi = (float(x) for x in mean_interval(sums["pair_s1"][a, b], sums["pair_s2"][a, b],
                                                               sums["pair_n"][a, b]))
            row.update({name: m + 0.0, f"{name}_lo": dlo + 0.0, f"{name}_hi": dhi + 0.0})
        rows.append(row)
    return pd.DataFrame(rows, columns=OPENING_COLUMNS)


def _openings_sentence(o: pd.DataFrame | None) -> str:
    """The gap between the guide's forced contracts and the same bids opened, from
    ``g500_guide_openings``: always that the guide's scores are of forced contracts, and where
    measured by how much an opening scores less and whether it beats passing."""
    text = ("Every number of the guide is a forced contract: the auction skipped, no opponent bidding, the "
            "declarer taking the kitty; an opening bid can be overcalled or pushed, so it scores less")
    if o is None or o.empty:
        return text + " (not measured in this run)."
    parts = []
    for r in o.itertuples():
        worse = r.over_pass_hi < 0
        better = r.over_pass_lo > 0
        versus = ("beats passing" if better else "loses to passing" if worse else "is not clearly better than passing")
        bid = _bid(int(str(r.bid)[:-len(r.denom)]), r.denom)
        parts.append(f"{r.holding}{'' if r.denom == GUIDE_SUIT else ' ' + r.denom}, {bid} ({r.scoring}): "
                     f"{r.gap:+.0f} [{r.gap_lo:+.0f}, {r.gap_hi:+.0f}] forced over opened, and opened it {versus} "
                     f"({r.over_pass:+.0f} [{r.over_pass_lo:+.0f}, {r.over_pass_hi:+.0f}])")
    return (text + f". Played on the rules' own deals forced, opened as the first call and passed (points a deal, "
            f"paired, g500_guide_openings): " + "; ".join(parts) + ".")


def typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Whole-number class columns as nullable integers (missing where they do not apply)."""
    frame = frame.copy()
    for col in ("top", "side_aces", "jokers", "aces", "level"):
        if col in frame:
            frame[col] = pd.array([None if pd.isna(v) else int(v) for v in frame[col]], dtype="Int64")
    if "trumps" in frame:
        frame["trumps"] = frame["trumps"].fillna("").astype(str)
    return frame


def _best_text(rows: pd.DataFrame) -> str:
    best = rows.loc[rows.score.idxmax()]
    return f"{int(best.level)}{SYMBOL[best.denom]} ({best.score:+.0f})"


# ---------------------------------------------------------------- tables
def _class_key(frame: pd.DataFrame) -> list[str]:
    return [c for c in CLASS_COLUMNS if c in frame]


def bids(levels: pd.DataFrame) -> pd.DataFrame:
    """The recommended level per class and scoring: the highest mean score on half 0 of the deals.

    Columns: the class columns, ``share``, ``scoring``, ``deals``, ``best``, its ``made`` rate and
    ``score`` (with 95% interval, all deals), ``runner_up`` (the second-highest mean on half 0),
    ``margin`` = best minus runner-up on half 1 of the deals, paired, with its 95% interval and
    one-sided ``p_value``, ``clear`` (Benjamini–Hochberg over every row of the table,
    :func:`cardsim.analysis.verdicts.chart_clear`) and ``pays`` (best score > 0).  Classes keep
    their order in ``levels``; reads the half columns of :data:`LEVEL_COLUMNS`.
    """
    rows = []
    for _, group in levels.groupby(_class_key(levels) + ["scoring"], sort=False, dropna=False):
        # every level is declared with the auction skipped, so legal on every deal: the order of the
        # means on half 0 is the paired ranking level_rows chose by (cardsim.ranking)
        order = group.iloc[ranked(group.score_half0.to_numpy())]
        best, runner = order.iloc[0], order.iloc[1] if len(order) > 1 else None
        row = {c: best[c] for c in _class_key(levels)}
        row.update(share=best.share, scoring=best.scoring, deals=best.deals, best=best.level, made=best.made,
                   score=best.score, score_lo=best.score_lo, score_hi=best.score_hi)
        if runner is not None:
            # diff_half1 is runner-up minus best: the margin is its negative, the interval flipped
            row.update(runner_up=runner.level, margin=-runner.diff_half1 + 0.0, margin_lo=-runner.diff_half1_hi + 0.0,
                       margin_hi=-runner.diff_half1_lo + 0.0, p_value=float(runner.p_half1))
        else:
            row.update(runner_up=None, margin=np.nan, margin_lo=np.nan, margin_hi=np.nan, p_value=1.0)
        row["pays"] = bool(best.score > 0)
        rows.append(row)
    out = typed(pd.DataFrame(rows))
    out.insert(out.columns.get_loc("p_value") + 1, "clear", chart_clear(out.p_value.to_numpy()))
    out["runner_up"] = pd.array([None if pd.isna(v) else int(v) for v in out.runner_up], dtype="Int64")
    out["best"] = pd.array([int(v) for v in out.best], dtype="Int64")
    return out


def _guide_rows(frame: pd.DataFrame, denom: str) -> pd.DataFrame:
    """The rows of the main grid of ``denom``: no side-ace split."""
    rows = frame[frame.denom == denom]
    return rows[rows.side_aces.isna()] if "side_aces" in rows else rows


def _trumps_order(label: str) -> int:
    return int(str(label).rstrip("+"))


def minimum_holding(levels: pd.DataFrame, threshold: float = HALF) -> pd.DataFrame:
    """The least holding at which each level makes at least ``threshold`` of the time.

    Suit rows (the guide suit): for each level and trumps count, the fewest top trumps whose
    class's made rate is at least ``threshold`` (``top`` missing where no class studied
    reaches it).  No-trump rows: for each level and jokers count, the fewest aces.  Made rates
    are read from the first scoring (the play does not depend on the scoring).  Columns:
    ``denom``, ``level``, ``trumps``, ``top``, ``jokers``, ``aces``, ``made``, ``made_lo``,
    ``made_hi``.
    """
    first = levels[levels.scoring == levels.scoring.iloc[0]] if len(levels) else levels
    out = []
    for denom, by, least in ((GUIDE_SUIT, "trumps", "top"), ("NT", "jokers", "aces")):
        rows = _guide_rows(first, denom)
        if rows.empty:
            continue
        counts = sorted(rows[by].unique(), key=_trumps_order if by == "trumps" else int)
        for level in LEVELS:
            for count in counts:
                cls = rows[(rows.level == level) & (rows[by] == count)].sort_values(least)
                hit = cls[cls.made >= threshold]
                row = {"denom": denom, "level": level, "trumps": "", "top": None, "jokers": None, "aces": None,
                       "made": np.nan, "made_lo": np.nan, "made_hi": np.nan}
                row[by] = count
                if len(hit):
                    h = hit.iloc[0]
                    row.update({least: int(h[least]), "made": h.made, "made_lo": h.made_lo, "made_hi": h.made_hi})
                out.append(row)
    return typed(pd.DataFrame(out, columns=["denom", "level", "trumps", "top", "jokers", "aces", "made",
                                             "made_lo", "made_hi"]))


def symmetry(levels: pd.DataFrame) -> pd.DataFrame:
    """Spades vs hearts for the classes played in both (first scoring): per level the made rates,
    their difference spades minus hearts in percentage points (``made_diff_pp``) with a normal
    interval at family-wise level :data:`FAMILY` over the levels compared (Bonferroni: one
    disagreement in five levels would otherwise come by chance about one run in five),
    ``agree`` where it includes 0, and both mean scores."""
    first = levels[levels.scoring == levels.scoring.iloc[0]] if len(levels) else levels
    key = ["trumps", "top", "level"]
    both = _guide_rows(first, GUIDE_SUIT).merge(_guide_rows(first, "S"), on=key, how="inner", suffixes=("_H", "_S"))
    out = both[key].copy()
    for d in ("H", "S"):
        for col in ("made", "made_lo", "made_hi", "score"):
            out[f"{col}_{d}"] = both[f"{col}_{d}"]
    se = np.sqrt(sum(both[f"made_{d}"] * (1 - both[f"made_{d}"]) / both[f"deals_{d}"] for d in ("H", "S")))
    z = symmetry_z(max(len(both), 1))
    diff = both.made_S - both.made_H
    out["made_diff_pp"] = 100 * diff
    out["made_diff_pp_lo"] = 100 * (diff - z * se)
    out["made_diff_pp_hi"] = 100 * (diff + z * se)
    out["agree"] = (out.made_diff_pp_lo <= 0) & (out.made_diff_pp_hi >= 0)
    return typed(out)


def symmetry_z(comparisons: int) -> float:
    """The normal quantile of a two-sided interval at family-wise :data:`FAMILY` over ``comparisons``."""
    from scipy.stats import norm  # local: scipy is slow to import; only this function needs it

    return float(norm.ppf(1 - (1 - FAMILY) / (2 * comparisons)))


def tables(levels: pd.DataFrame, robust=None) -> dict[str, pd.DataFrame]:
    """Every table of the guide from the long frame of :func:`run_classes`; ``robust``: a callable
    turning the bids table into the same with the robustness columns (:func:`run_robust`), or None."""
    b = bids(levels)
    return {"g500_guide_bids": robust(b) if robust else b, "g500_guide_minimum": minimum_holding(levels),
            "g500_guide_symmetry": symmetry(levels), "g500_guide_levels": levels}


def for_writing(tabs: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables as written: missing whole numbers as empty cells (not ``<NA>``)."""
    out = {}
    for name, t in tabs.items():
        t = t.copy()
        for col in t.columns:
            if isinstance(t[col].dtype, pd.Int64Dtype):
                t[col] = pd.Series(["" if pd.isna(v) else int(v) for v in t[col]], index=t.index, dtype=object)
        out[name] = t
    return out


# ---------------------------------------------------------------- the answer
def _bid(level, denom: str) -> str:
    return f"{int(level)}{SYMBOL[denom]}"


def _span(values: list[int]) -> str:
    return f"{values[0]}" if len(values) == 1 else f"{values[0]}–{values[-1]}"


def _runs(rows: pd.DataFrame, by: str, verdict) -> str:
    """``verdict`` of consecutive ``by`` values grouped: 'none pays with 0 top, 6♥ with 1–3'."""
    parts, current, values = [], None, []
    for _, r in rows.sort_values(by).iterrows():
        v = verdict(r)
        if v != current and values:
            parts.append((current, values))
            values = []
        current = v
        values.append(int(r[by]))
    if values:
        parts.append((current, values))
    return ", ".join(f"{v} with {_span(vals)}" for v, vals in parts)


def _verdict(r) -> str:
    return _bid(r.best, r.denom) if r.pays else "none pays"


def _grid_body(b: pd.DataFrame, denom: str, scoring: str) -> str:
    """The recommended level of every class of the main grid of ``denom`` under ``scoring``."""
    rows = _guide_rows(b[b.scoring == scoring], denom)
    if rows.empty:
        return ""
    if denom == "NT":
        groups = [(f"{_count(int(j), 'joker')}", g) for j, g in rows.groupby("jokers", sort=True)]
        return "; ".join(f"{name}: {_runs(g, 'aces', _verdict)} aces" for name, g in groups)
    groups = sorted(rows.groupby("trumps"), key=lambda kv: _trumps_order(kv[0]))
    return "; ".join(f"{t} trumps: {_runs(g, 'top', _verdict)} top" for t, g in groups)


def _grid_sentences(b: pd.DataFrame, denom: str) -> list[str]:
    """One sentence per scoring, or one for all when they recommend alike."""
    scorings = list(dict.fromkeys(b.scoring))
    bodies = {s: _grid_body(b, denom, s) for s in scorings}
    if not any(bodies.values()):
        return []
    what = ("No-trump, best level by jokers and aces" if denom == "NT" else
            "Best level by trumps held and how many of the top five")
    if len(set(bodies.values())) == 1:
        return [f"{what}, under {' and '.join(scorings)} alike: {bodies[scorings[0]]}."]
    return [f"{what}, under {s}: {body}." for s, body in bodies.items() if body]


def _scorings_sentence(b: pd.DataFrame, levels: pd.DataFrame | None = None) -> str:
    """What the scoring changes.  Not the level: both scorings play the same deals with the same
    play, and a contract's subtract score is its quebec score less 10 points for each trick the
    defenders take (docs/RULES.md §3.6), whatever the level, so the levels' paired differences are
    the same under both but for the defenders' tricks changing with the level (the spread of that
    10-a-trick charge over the levels of one class, from ``levels``, is the most they can differ).
    What the scoring does change is whether the best level pays (its mean score above 0)."""
    scorings = list(dict.fromkeys(b.scoring))
    if len(scorings) < 2:
        return ""
    wide = b.pivot_table(index=["denom", "holding"], columns="scoring", values="best", aggfunc="first").dropna()
    same = int((wide.nunique(axis=1) == 1).sum())
    differ = [f"{h}{'' if d == GUIDE_SUIT else ' ' + d}" for (d, h), r in wide.iterrows() if r.nunique() > 1]
    why = ("on the same deals a contract's subtract score is its quebec score less 10 a trick the defenders take, at "
           "every level")
    text = (f"{' and '.join(scorings).capitalize()} recommend the same level in {same} of {len(wide)} classes, "
            + (f"as they must: {why}" if not differ else
               f"not in {'; '.join(differ)}: {why}, so they part only where the defenders' tricks change with the level"))
    spread = _charge_spread(levels, scorings)
    if spread is not None:
        text += f" (that charge differs between the levels of a class by at most {spread:.1f} points a deal)"
    pays = b.pivot_table(index=["denom", "holding"], columns="scoring", values="pays", aggfunc="first").dropna()
    pays = pays[[s for s in scorings if s in pays]].astype(bool)
    counts = ", ".join(f"under {s} in {int(pays[s].sum())}" for s in pays)
    differ = [f"{h}{'' if d == GUIDE_SUIT else ' ' + d}" for (d, h), r in pays.iterrows() if r.nunique() > 1]
    text += f". What the scoring changes is whether the best level pays: {counts} of {len(pays)} classes"
    return text + (f" (pays under one only: {'; '.join(differ)})." if differ else ".")


def _charge_spread(levels: pd.DataFrame | None, scorings: list[str]) -> float | None:
    """The largest difference, within one class, between two levels' mean quebec-minus-subtract
    score (points a deal: 10 a trick the defenders take), or None without both scorings."""
    if levels is None or len(levels) == 0 or not {"quebec", "subtract"} <= set(scorings):
        return None
    wide = levels.pivot_table(index=["denom", "holding", "level"], columns="scoring", values="score",
                              aggfunc="first")
    charge = (wide["quebec"] - wide["subtract"]).dropna().reset_index(name="charge")
    if charge.empty:
        return None
    by_class = charge.groupby(["denom", "holding"]).charge
    return float((by_class.max() - by_class.min()).max())


def _example(b: pd.DataFrame) -> str:
    """One class spelled out under every scoring, with its margin over the runner-up."""
    rows = _guide_rows(b, GUIDE_SUIT)
    if rows.empty:
        return ""
    pick = rows[(rows.trumps == "6") & (rows.top == 3)]
    first = (pick if len(pick) else rows).iloc[0]
    same = rows[(rows.trumps == first.trumps) & (rows.top == first.top)]
    parts = []
    for _, r in same.iterrows():
        text = f"{_bid(r.best, r.denom)} under {r.scoring} ({r.score:+.0f} a deal, made {r.made:.0%}"
        if not pd.isna(r.runner_up):
            sure = "clearly" if r.clear else "not clearly (2.5% false discovery rate over the guide)"
            text += (f"; {r.margin:.1f} points better than {_bid(r.runner_up, r.denom)} "
                     f"[{r.margin_lo:.1f}, {r.margin_hi:.1f}], {sure}")
        parts.append(text + ")")
    return f"With {first.trumps} trumps including {int(first.top)} of the top five, bid " + " and ".join(parts) + "."


def _close_calls(b: pd.DataFrame) -> str:
    rows = b[(b.denom != "S") & b.runner_up.notna()]
    if rows.empty:
        return ""
    close = rows[~rows.clear]
    text = (f"The best level beats the runner-up clearly (its paired margin on deals not used to choose them, 2.5% "
            f"false discovery rate over the guide) in "
            f"{len(rows) - len(close)} of {len(rows)} class-and-scoring cases")
    if close.empty:
        return text + "."
    calls = {}
    for _, r in close.iterrows():
        name = (f"{r.holding}{'' if r.denom == GUIDE_SUIT else ' ' + r.denom} ({_bid(r.best, r.denom)} vs "
                f"{_bid(r.runner_up, r.denom)}")
        calls.setdefault(name, []).append(r.scoring)
    shown = [f"{name}, {' and '.join(scorings)})" for name, scorings in list(calls.items())[:4]]
    more = f" and {len(calls) - 4} more" if len(calls) > 4 else ""
    return text + "; close calls: " + "; ".join(shown) + more + "."


def _minimum_sentence(m: pd.DataFrame) -> str:
    rows = m[m.denom == GUIDE_SUIT]
    if rows.empty:
        return ""
    weakest = min(rows.trumps, key=_trumps_order)
    parts = []
    for level, g in rows.groupby("level", sort=True):
        frontier, least = [], None
        for _, r in sorted(g.iterrows(), key=lambda kv: _trumps_order(kv[1].trumps)):
            if pd.isna(r.top) or (least is not None and int(r.top) >= least):
                continue
            least = int(r.top)
            floor = " (the fewest studied)" if r.trumps == weakest and least == 0 else ""
            frontier.append(f"{r.trumps} trumps with {least} top{floor}")
        name = _bid(level, GUIDE_SUIT)
        parts.append(f"{name} from {' or '.join(frontier)}" if frontier else f"{name} in no class studied")
    # The frontier is read from the point estimates; their intervals (g500_guide_minimum) can
    # reach below one half, so the sentence says "estimated".
    return ("Each level's estimated made rate reaches one half (95% intervals in g500_guide_minimum): "
            + "; ".join(parts) + ".")


def _side_aces_sentence(b: pd.DataFrame) -> str:
    rows = b[(b.denom == GUIDE_SUIT) & b.side_aces.notna()]
    if rows.empty:
        return ""
    first = rows.iloc[0]
    parts = []
    for scoring, g in rows.groupby("scoring", sort=False):
        parts.append(f"{scoring} " + ", ".join(f"{int(r.side_aces)} → {_verdict(r)} ({r.score:+.0f})"
                                                for _, r in g.sort_values("side_aces").iterrows()))
    return (f"Side aces, with {first.trumps} trumps and {int(first.top)} top: " + "; ".join(parts) + ".")


def _symmetry_sentence(s: pd.DataFrame) -> str:
    if s.empty:
        return ""
    cls = s.iloc[0]
    off = s[~s.agree]
    verdict = ("agree with hearts at every level (95% intervals holding over the levels together)" if off.empty else
               f"differ from hearts at level(s) {', '.join(str(int(v)) for v in off.level)} (95% intervals holding "
               f"over the levels together)")
    return (f"Hearts stand for every suit: in spades ({cls.trumps} trumps, {int(cls.top)} top) the made rates "
            f"{verdict}; the scores differ through the bid table.")


def answer(tabs: dict[str, pd.DataFrame]) -> str:
    """The answer paragraph, every number read from the tables of :func:`tables`: the sentences of
    :func:`answer_parts` in one paragraph."""
    return " ".join(answer_parts(tabs))


def answer_parts(tabs: dict[str, pd.DataFrame]) -> list[str]:
    """The answer's sentences (each a short paragraph of its own: the report lists them)."""
    b = tabs["g500_guide_bids"]
    parts = [_example(b)] + _grid_sentences(b, GUIDE_SUIT) + [_scorings_sentence(b, tabs.get("g500_guide_levels"))]
    parts += [_minimum_sentence(tabs["g500_guide_minimum"]), _side_aces_sentence(b)]
    parts += _grid_sentences(b, "NT") + [_close_calls(b), robust_sentence(b),
                                         _symmetry_sentence(tabs["g500_guide_symmetry"]),
                                         _openings_sentence(tabs.get("g500_guide_openings"))]
    return [p for p in parts if p]




def robust_sentence(b: pd.DataFrame) -> str:
    """The Answers' sentence on the robust replay of the bids table ``b`` (a frame with the columns
    of :func:`run_robust`, one row per class): how many best levels hold under the other profiles
    and which profiles did not act (:func:`cardsim.analysis.robustness.sentence`), and, when no
    pimc profile was replayed, why (:data:`PIMC_OFF`); ``""`` for a table without the replay."""
    if "holds" not in b:
        return ""

    text = sentence(b[b.robust_deals > 0], "best level", "score points", len(others(GAME)))
    if text and "robust_verdict" in b and not b.profiles_tested.fillna("").astype(str).str.contains("pimc").any():
        text += f" The guide's contracts skip the auction, so only card play and the kitty can act on them; {PIMC_OFF}."
    return text


# ---------------------------------------------------------------- rules of thumb
def holding_words(r) -> str:
    """A class of the bids table in a player's words."""
    if r.denom == "NT":
        return f"For no-trump, {_count(int(r.jokers), 'joker')} and {_count(int(r.aces), 'ace')}"
    text = f"{r.trumps} trumps, {int(r.top)} of them among the top five"
    if not pd.isna(r.side_aces):
        text += f", {_count(int(r.side_aces), 'side ace')}"
    return "With " + text


FORCED_WORDS = ", if you declare it uncontested"
"""How every rule's advice is qualified: the guide's numbers are those of a forced contract, the
auction skipped (an opening bid that others may overcall scores less, g500_guide_openings)."""


def _scoring_says(r) -> str:
    """What a bids-table row supports, in a rule's words: its best level ("8♥") where that level
    pays and is clearly best, "no level pays", or the level "not clearly" best."""
    if not bool(r.pays):
        return "no level pays"
    bid = _bid(r.best, r.denom)
    return bid if bool(r.clear) or pd.isna(r.runner_up) else f"{bid} not clearly"


def rules(tabs: dict[str, pd.DataFrame]) -> list[dict]:
    """The rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`) from ``g500_guide_bids``: every
    clear class-and-scoring row whose best level pays (mean score above 0) is a candidate, its
    number the margin best minus runner-up (points a deal, 95% interval, on the held-out deals),
    worth = margin x share (points per hand dealt: the gain times how often a hand is in the
    class).  One rule per class: its most valuable scoring (named with the number), the text saying
    what the other scoring's own row supports (:func:`_scoring_says`: "both scorings" only where
    its best level is the same, clear and pays; else "subtract: no level pays", "subtract: 7♥",
    "subtract: 8♥ not clearly"), and that the numbers are of a contract declared uncontested
    (:data:`FORCED_WORDS`); at most two per trump count (no-trump: joker count).  The spade class
    of the symmetry check is left out (hearts stand for every suit).  What a rule settles
    (:data:`cardsim.analysis.rules_of_thumb.RULE`): the profiles whose own best level is the
    runner-up and the previous default's best, where the robust replay wrote them (``best_under``);
    the guide has no default's own level per class."""
    b = tabs["g500_guide_bids"].reset_index(drop=True)
    key = _class_key(b)
    best_of = {}
    for i, r in b.iterrows():
        best_of.setdefault(tuple("" if pd.isna(r[c]) else r[c] for c in key), {})[r.scoring] = _scoring_says(r)
    out = {}
    for i, r in b.iterrows():
        if (r.denom == "S" or not bool(r.clear) or not bool(r.pays) or pd.isna(r.runner_up) or not r.margin > 0
                or not r.share == r.share):
            continue
        cls = tuple("" if pd.isna(r[c]) else r[c] for c in key)
        others = {s: bid for s, bid in best_of[cls].items() if s != r.scoring}
        bid = _bid(r.best, r.denom)
        bests = T.profile_bests(r.get("best_under"))  # each profile's own best level (the robust replay's)
        # another scoring is named only with what its own row says (its best level clear and paying)
        scoring = (f" ({r.scoring} scoring)" if not others else " (both scorings)" if set(others.values()) == {bid}
                   else f" ({r.scoring}; " + ", ".join(f"{s}: {b}" for s, b in others.items()) + ")")
        text = f"{holding_words(r)}: bid {bid}{scoring}{FORCED_WORDS}"
        group = f"NT {r.jokers}" if r.denom == "NT" else f"{r.denom} {r.trumps}"
        rule = T.rule("Five Hundred", text, "g500_guide_bids", i, ("margin", "margin_lo", "margin_hi"),
                      (r.margin, r.margin_lo, r.margin_hi), f"points a deal ({r.scoring})",
                      f"over {_bid(r.runner_up, r.denom)}",
                      "{:+.0f}", r.margin * r.share, "points per hand dealt",
                      "the gain times how often a hand is in the class (points per hand dealt)", group, r,
                      players=T.players_of(r.runner_up, None, bests), moved_from=T.moved_from(r.best, bests))
        if cls not in out or rule["worth"] > out[cls]["worth"]:
            out[cls] = rule
    return T.pick(list(out.values()))


LEGENDS = {
    "g500_guide_bids.png": (
        "The level to bid with a hand before you take the kitty. Suit hands (top; played in hearts): a row is the "
        "trumps you hold, counting the jokers and the left bower (the jack of the same colour), 7+ or 8+ = that "
        "many or more; a column is how many of the five top trumps you hold (the two jokers, the right and the "
        "left bower, the ace of trumps). No-trump hands (bottom): rows = jokers, columns = aces. In a cell: the "
        "level (6 to 10 tricks) with the highest mean score, and that score in points a deal (your side's minus "
        "the defenders'); * = the next best level is not clearly worse; \u2020 = depends on the players: with "
        "other players (another card play) another level is clearly better; \u00b0 = not decidable with them at "
        "this size; (lo..hi) = "
        "the margin over the next best level from the least to the most over the other players (shown where it "
        "moves a lot); grey = no level scores above 0. Columns of panels: quebec scoring (a failed contract gives "
        "its value to the defenders) and subtract scoring (a failed contract's value is taken off your side; the "
        "defenders score 10 a trick)."),
}
"""What each figure shows, in a player's words (the report's figure captions)."""


def _grid(rows: pd.DataFrame, row_col: str, col_col: str):
    ys = sorted(rows[row_col].unique(), key=_trumps_order if row_col == "trumps" else int)
    xs = sorted(int(v) for v in rows[col_col].unique())
    return ys, xs


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """``g500_guide_bids.png``: the recommended level per class (heatmaps: trumps x top trumps in
    hearts, jokers x aces in no-trump), one column per scoring; each cell shows the level and
    its mean score, * where the runner-up is within the 95% interval, grey where no level pays."""
    plt = pyplot()
    from matplotlib.colors import BoundaryNorm, ListedColormap  # local: matplotlib is slow to import; only the figures need it

    b = tabs["g500_guide_bids"]
    scorings = list(dict.fromkeys(b.scoring))
    panels = [(d, by, x) for d, by, x in ((GUIDE_SUIT, "trumps", "top"), ("NT", "jokers", "aces"))
              if not _guide_rows(b, d).empty]
    if not panels or not scorings:
        return []
    cmap = ListedColormap(["#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c"])
    norm = BoundaryNorm([5.5, 6.5, 7.5, 8.5, 9.5, 10.5], cmap.N)
    fig, axes = plt.subplots(len(panels), len(scorings), figsize=(5.2 * len(scorings), 4.2 * len(panels)),
                             squeeze=False)
    for i, (denom, by, across) in enumerate(panels):
        rows = _guide_rows(b, denom)
        ys, xs = _grid(rows, by, across)
        for j, scoring in enumerate(scorings):
            ax = axes[i, j]
            grid = np.full((len(ys), len(xs)), np.nan)
            for _, r in rows[rows.scoring == scoring].iterrows():
                y, x = ys.index(r[by]), xs.index(int(r[across]))
                grid[y, x] = r.best if r.pays else np.nan
                text = f"{int(r.best)}{'*' if not r.clear else ''}{RB.mark(r)}\n{r.score:+.0f}"
                if "gain_min" in r and r.gain_max - r.gain_min > 0.5 * max(abs(r.margin), 1.0):
                    text += f"\n({r.gain_min:+.0f}..{r.gain_max:+.0f})"
                ax.text(x, y, text, ha="center", va="center", fontsize=8,
                        color="white" if r.pays and r.best >= 9 else "black")
                if not r.pays:
                    ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, color="#dddddd", zorder=0))
            ax.imshow(grid, cmap=cmap, norm=norm, origin="lower", aspect="auto")
            ax.set_xticks(range(len(xs)), [str(v) for v in xs])
            ax.set_yticks(range(len(ys)), [str(v) for v in ys])
            ax.set_xlabel("top five trumps held" if denom != "NT" else "aces")
            ax.set_ylabel("trumps held (with jokers, left bower)" if denom != "NT" else "jokers")
            ax.set_title(f"{'hearts (any suit)' if denom != 'NT' else 'no-trump'}, {scoring}", fontsize=10)
    fig.suptitle("Five Hundred: the level with the highest mean score before the kitty\n"
                 "(* runner-up within the 95% interval; grey: no level scores above 0"
                 + (f";\n{DEPENDS} another level is clearly better under a player profile that acts on the guide, "
                    f"{RB.UNDECIDED} not decidable under them at this size;\n"
                    "(lo..hi): its margin's range across the profiles, where it moves by more than half"
                    if "holds" in b else "") + ")", fontsize=10)
    fig.tight_layout()
    return [save_figure(fig, Path(outdir) / "g500_guide_bids.png")]
