"""501's blind chart: at its first turn of one deal, bid blind up to a level or look, for the game's win.

At its first turn of one deal the player bids blind up to level ``L`` (``blind:L``) or looks
(``look``); the game is then played on to its end by the strategies with the same randomness
for every option (:func:`cardsim.evaluate` with ``outcome="game"``; docs/RULES.md §1.8: the
lowest score when someone reaches 0 wins, exact ties share the win), so the change in game-win
probability is paired deal by deal (:func:`run_decisions`, :func:`choices`).  A situation
(:class:`Situation`, a cell of the chart) is the player's own score, its lead over the opponents
(both at the same score) and its auction position in the deal.  The game's part of the chart
pipeline (:mod:`cardsim.analysis.chart_pipeline`): cells, questions, the robust replay's cells
and sums, the chart tables and figure; the words are in :mod:`cardsim.analysis.g501.prose`.

Units: scores in score points (501 counts down); win probabilities as shares 0..1; gains in
percentage points (pp) of game-win probability.  Intervals are 95% (Wilson for win
probabilities, normal for paired gains).
"""
from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.plots import pyplot, save_figure
from cardsim.analysis import robustness as RB
from cardsim.analysis.chart_pipeline import play, replay_rows, task_seed
from cardsim.analysis.robustness import DEPENDS, pilot_seed
from cardsim.analysis.verdicts import LOOK, NO_CLEAR, blind_verdict, chart_clear, decision_p
from cardsim.games import get_game
from cardsim.questions import question, run_question, table
from cardsim.ranking import rank_sums
from cardsim.selection import CHOOSE, ESTIMATE, half_means, paired, ranked
from cardsim.stats import mean_interval

GAME = "501"
SEAT = 0
"""The player whose decisions are studied (the table is rotated so that every chair is seat 0's)."""

OWN = (50, 100, 200, 300, 400, 501)
LEADS = (-200, -100, -50, 0, 50, 100, 200)
LEVELS = (70, 80, 90, 100, 120, 150)
POSITIONS = (0, 1, 2)
DEALS = 10_000

QUICK_OWN = (100, 300, 501)
QUICK_LEADS = (-100, 0, 100)
QUICK_LEVELS = (70, 90, 120)
QUICK_DEALS = 400


@dataclass(frozen=True)
class Situation:
    """One decision cell: the player's own score, its lead over the opponents (their score minus
    its own: positive = ahead, 501 counts down) and its auction position in the deal."""

    own: int
    lead: int
    position: int

    @property
    def opp(self) -> int:
        return self.own + self.lead

    @property
    def before(self) -> list[int]:
        return [self.own, self.opp, self.opp]

    @property
    def dealer(self) -> int:
        """The dealer that makes seat 0 speak in ``position`` (the dealer's left speaks first)."""
        return (SEAT - 1 - self.position) % 3


def situations(own=OWN, leads=LEADS, positions=POSITIONS) -> list[Situation]:
    """Every situation of the grid in which both opponents' score is above 0 (a game in play)."""
    return [Situation(o, lead, p) for o in own for lead in leads for p in positions if o + lead > 0]


def options(levels=LEVELS) -> list[str]:
    return [LOOK] + [f"blind:{lvl}" for lvl in levels]


def decision_question(sit: Situation, levels, deals: int, seed: int, strategies=None):
    return question(GAME, SEAT, options(levels), n=deals, seed=task_seed(seed, "decision", sit), dealer=sit.dealer,
                    before=sit.before, strategies=strategies, outcome="game", chunk_size=max(deals, 1))


def decision_sums(sit: Situation, levels, deals: int, seed: int, strategies=None) -> dict:
    return run_question(decision_question(sit, levels, deals, seed, strategies), n_jobs=1)


DECISION_COLUMNS = ["own", "lead", "opp", "position", "option", "level", "deals", "legal", "made", "win", "win_lo",
                    "win_hi", "gain_pp", "gain_lo", "gain_hi", "diff_best_pp", "diff_best_lo", "diff_best_hi",
                    "win_half0", "rank_half0", "gain_half1_pp", "gain_half1_lo", "gain_half1_hi", "p_gain", "p_loss",
                    "p_below_best"]


def best_blind(ranks) -> int | None:
    """Index (into the options without ``look``) of the best blind level: the lowest of ``ranks``
    (the options' ranks, :func:`choice_rank`), the first in option order (the lowest level) on a
    tie; None when no blind option was ranked (all NaN).
    One rule for :func:`decision_rows` and :func:`choices`, so that both name the same level."""
    ranks = np.asarray(ranks, dtype=np.float64)
    if ranks.size == 0 or np.isnan(ranks).all():
        return None
    return int(np.nanargmin(ranks))


def choice_rank(rows: pd.DataFrame) -> np.ndarray:
    """The chart's order of one situation's decision rows, float64, lower is better, NaN for an
    option not ranked: ``rank_half0``, the option's rank on half 0 of the deals by paired
    comparisons on the deals where both options were legal (:func:`cardsim.ranking.rank`,
    docs/statistics.md "Which option is best").  A frame written before that column existed is
    ordered by ``win_half0`` (else ``win``) turned round: the same order where every option is
    legal on every deal."""
    if "rank_half0" in rows:
        return rows.rank_half0.to_numpy(dtype=np.float64)
    return -rows["win_half0" if "win_half0" in rows else "win"].to_numpy(dtype=np.float64)


def decision_rows(sit: Situation, levels, sums: dict, seed: int = 0, strategies=None) -> pd.DataFrame:
    """The :data:`DECISION_COLUMNS` rows of one situation from its question sums: per option the
    share of deals it was legal, the made rate of the contracts the player declared, the mean
    win share with its interval, the paired gain over ``look`` in percentage points (over the
    deals where the option was legal) and ``diff_best_pp`` / ``_lo`` / ``_hi``: the option's win
    share minus that of the best blind level (:func:`best_blind`), paired over the deals where
    both were legal, in pp with its 95% interval (0 for the best blind level itself, NaN when no
    blind option was legal).  Honest selection (:mod:`cardsim.selection`): ``win_half0`` is the
    mean win share on half 0 of the deals and ``rank_half0`` the option's rank there by paired
    comparisons (:func:`cardsim.ranking.rank`: 1 = best, NaN = not compared), which chooses the
    best option and the best blind level; ``gain_half1_pp`` / ``_lo`` / ``_hi`` the gain over
    ``look`` on half 1, in pp with its 95% interval, and ``p_gain`` / ``p_loss`` its one-sided p-values of a gain above / below 0;
    ``p_below_best``: the one-sided p-value that the option is worse than the best blind level on
    half 1 (NaN for the best itself or without one) — ``diff_best_*`` include half 0, where the best
    was chosen, so they favour it (winner's curse); a test of whether a level is worse than the
    best reads this column."""
    q = decision_question(sit, levels, 1, seed, strategies)
    t = table(q, sums).set_index("option").loc[list(q.options)]
    look = q.options.index(LOOK)
    gain, _, lo, hi = mean_interval(sums["pair_s1"][:, look], sums["pair_s2"][:, look], sums["pair_n"][:, look])
    sign = -1.0 if q.lower_is_better else 1.0
    win0 = half_means(sums, sign)[CHOOSE]
    rank0 = rank_sums(sums, sign, half=CHOOSE).position()
    held = [paired(sums, j, look, sign=sign) for j in range(len(q.options))]
    blinds = [i for i, o in enumerate(q.options) if o != LOOK]
    top = best_blind(rank0[blinds])
    diff = np.full((3, len(q.options)), np.nan)
    below_best = np.full(len(q.options), np.nan)
    if top is not None:
        b = blinds[top]
        below_best = np.array([np.nan if j == b else paired(sums, j, b, half=ESTIMATE, sign=sign)["p_below"]
                               for j in range(len(q.options))])
        diff[0], _, diff[1], diff[2] = mean_interval(sums["pair_s1"][:, b], sums["pair_s2"][:, b],
                                                     sums["pair_n"][:, b])
        diff[:, b] = 0.0
    out = pd.DataFrame({"option": list(q.options),
                        "level": [0 if o == LOOK else int(o.split(":")[1]) for o in q.options],
                        "deals": t["n"].to_numpy(), "legal": t["legal"].to_numpy(), "made": t["made"].to_numpy(),
                        "win": t["score"].to_numpy(), "win_lo": t["score_lo"].to_numpy(),
                        "win_hi": t["score_hi"].to_numpy(),
                        "gain_pp": 100 * gain, "gain_lo": 100 * lo, "gain_hi": 100 * hi,
                        "diff_best_pp": 100 * diff[0], "diff_best_lo": 100 * diff[1], "diff_best_hi": 100 * diff[2],
                        "win_half0": win0, "rank_half0": rank0, "gain_half1_pp": [100 * h["mean"] for h in held],
                        "gain_half1_lo": [100 * h["lo"] for h in held], "gain_half1_hi": [100 * h["hi"] for h in held],
                        "p_gain": [h["p_above"] for h in held], "p_loss": [h["p_below"] for h in held],
                        "p_below_best": below_best})
    out.loc[look, ["gain_pp", "gain_lo", "gain_hi", "gain_half1_pp", "gain_half1_lo", "gain_half1_hi"]] = 0.0
    out.loc[look, ["p_gain", "p_loss"]] = 1.0
    out.insert(0, "position", sit.position)
    out.insert(0, "opp", sit.opp)
    out.insert(0, "lead", sit.lead)
    out.insert(0, "own", sit.own)
    return out[DECISION_COLUMNS]


def run_decisions(sits, levels, deals: int, seed: int, n_jobs: int = -1, strategies=None, log=print,
                  results=None) -> pd.DataFrame:
    """Play every situation (``deals`` deals each, every option on the same deals, each game played
    to its end); returns the long frame of :data:`DECISION_COLUMNS`, situations in order.
    ``results``: a folder keeping each finished situation, so that the same call resumes."""
    sits = list(sits)
    started = time.time()
    log(f"  blind decision: {len(sits)} situations x {len(levels) + 1} options x {deals:,} deals played to the "
        "game's end")
    frames = []
    step = max(1, len(sits) // 6)
    tasks = [(s, levels, deals, seed, strategies) for s in sits]
    sums_of = play(decision_sums, tasks, [deals] * len(tasks), n_jobs, name="501-decisions", results=results)
    for i, (sit, sums) in enumerate(zip(sits, sums_of), 1):
        frames.append(decision_rows(sit, levels, sums, seed, strategies))
        if i % step == 0 or i == len(sits):
            log(f"    {i}/{len(sits)} situations, {time.time() - started:.0f} s")
    if not frames:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    return pd.concat(frames, ignore_index=True)


CHOICE_COLUMNS = ["own", "lead", "opp", "position", "best", "gain_pp", "gain_lo", "gain_hi", "p_value", "verdict",
                  "win_look", "clear_levels", "levels_as_good", "next_level", "gain_vs_next_pp", "gain_vs_next_lo",
                  "gain_vs_next_hi"]


def as_good_as_best(blinds: pd.DataFrame) -> list[int]:
    """The blind levels as good as the best blind level, sorted: those not clearly worse than it.

    ``blinds``: one situation's blind rows of the decisions frame (``level``, ``rank_half0``: the
    rank on half 0 of the deals, which names the best level (:func:`choice_rank`), ``gain_lo``:
    the lower end of the 95% interval of the level's gain over looking, and ``diff_best_hi``: the
    upper end of the 95% interval of the level's win share minus the best level's, paired on the
    same deals, pp).  Rule: a level is as good as the best unless that interval lies wholly below
    0 (``diff_best_hi < 0``); an interval not computed (NaN, too few deals) does not show a level
    worse.  When the best level clearly beats looking (its ``gain_lo > 0``), a level must clearly
    beat looking too: the range a player is told to bid blind to never holds a level that has
    not been shown to pay.  The best level (difference 0) is always in.  No correction for
    comparing several levels: each comparison is at 95% on its own.  The one place the rule
    lives, so that :func:`choices` can be given another (its ``as_good`` argument).
    """
    top = best_blind(choice_rank(blinds)) if {"rank_half0", "win_half0"} & set(blinds) else None
    must_pay = top is not None and "gain_lo" in blinds and blinds.gain_lo.iloc[top] > 0
    return sorted(int(lvl) for k, (lvl, hi) in enumerate(zip(blinds.level, blinds.diff_best_hi))
                  if k == top or (not hi < 0 and (not must_pay or blinds.gain_lo.iloc[k] > 0)))


def levels_text(chosen, levels) -> str:
    """Blind levels as text: runs of neighbours in ``levels`` (the levels played, any order) as
    ``lo-hi``, runs joined by ', ' (``[90, 100, 120]`` of 70…150 → ``'90-120'``; ``[70, 120]`` of
    70, 90, 120 → ``'70, 120'``, since 90 is not among them); '' if none."""
    order = sorted(int(x) for x in levels)
    runs: list[list[int]] = []
    for lvl in sorted(int(x) for x in chosen):
        if runs and order.index(lvl) == order.index(runs[-1][-1]) + 1:
            runs[-1].append(lvl)
        else:
            runs.append([lvl])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def choices(long: pd.DataFrame, as_good=as_good_as_best) -> pd.DataFrame:
    """The best choice per situation, one row each (:data:`CHOICE_COLUMNS`).

    Honest selection (docs/statistics.md): ``best``: the first option of the ranking on half 0
    of the deals (:func:`choice_rank`: paired comparisons; ``look`` or ``blind:L``); ``gain_pp``:
    best minus look in pp on half 1, paired, with its 95% interval (0 when look is best); ``p_value``: the cell's one-sided p-value
    (:func:`cardsim.analysis.verdicts.decision_p`: the best blind level's gain above 0, or every
    blind level's gain below 0 when look is best, on half 1); ``levels_as_good``: the blind
    levels as good as the best blind level (``as_good``, by default :func:`as_good_as_best`: not
    clearly worse, paired), as text (:func:`levels_text`, e.g. ``90-120``); ``verdict``
    (:func:`cardsim.analysis.verdicts.blind_verdict`): ``blind to <levels_as_good>`` or ``look``
    when the cell is called clear by Benjamini–Hochberg over all the situations of ``long`` (one
    chart) at :data:`cardsim.selection.RATE`, else ``no clear answer``; ``win_look``: the win
    probability when looking; ``clear_levels``: the blind levels whose gain interval over all the
    deals is above 0, each level on its own (lowest-highest, e.g. ``70-120``), empty if none;
    ``next_level``: the runner-up blind level (the next blind level in the ranking on half 0; 0 if only
    one level), ``gain_vs_next_pp`` / ``_lo`` / ``_hi``: the best blind level minus it, paired, in
    pp with its 95% interval (NaN if none).  Reads the decisions frame's columns
    :data:`DECISION_COLUMNS`.
    """
    rows, texts = [], []
    for key, g in long.groupby(["own", "lead", "position"], sort=False):
        g = g.reset_index(drop=True)
        best = g.iloc[ranked(-choice_rank(g))[0]]
        look = g[g.option == LOOK].iloc[0]
        blinds = g[g.option != LOOK].reset_index(drop=True)
        top = best_blind(choice_rank(blinds))
        good = "" if top is None else levels_text(as_good(blinds), blinds.level)
        texts.append(good)
        p = decision_p(best.option, best.p_gain, blinds.p_loss.to_numpy())
        clear = sorted(int(x) for x in blinds.level[blinds.gain_lo > 0])
        rest = blinds.iloc[:0] if top is None else blinds.drop(index=top)
        after = best_blind(choice_rank(rest))
        nxt = None if after is None else rest.iloc[after]
        gain = (0.0, 0.0, 0.0) if best.option == LOOK else (best.gain_half1_pp, best.gain_half1_lo, best.gain_half1_hi)
        rows.append({"own": key[0], "lead": key[1], "opp": int(g.opp.iloc[0]), "position": key[2],
                     "best": best.option, "gain_pp": gain[0], "gain_lo": gain[1], "gain_hi": gain[2], "p_value": p,
                     "verdict": NO_CLEAR, "win_look": look.win, "clear_levels": _levels_text(clear),
                     "levels_as_good": good, "next_level": 0 if nxt is None else int(nxt.level),
                     "gain_vs_next_pp": np.nan if nxt is None else 0.0 - nxt.diff_best_pp,  # 0.0 - x: no -0.0
                     "gain_vs_next_lo": np.nan if nxt is None else 0.0 - nxt.diff_best_hi,
                     "gain_vs_next_hi": np.nan if nxt is None else 0.0 - nxt.diff_best_lo})
    out = pd.DataFrame(rows, columns=CHOICE_COLUMNS)
    sure = chart_clear(out.p_value.to_numpy())
    out["verdict"] = [blind_verdict(b, bool(c), t) for b, c, t in zip(out.best, sure, texts)]
    return out


MOVES_PP = 1.0
"""A gain whose range across the player profiles is wider than this (pp) is shown as a range."""


def robust_note(r) -> str:
    """What a chart cell adds from the profiles: `` [+1.0..+3.7 pp]`` where the best option's gain
    moves across them by more than :data:`MOVES_PP`, `` †(bold)`` where it depends on the
    players (the profiles that flip it) and `` °`` where it is not decidable at this size; ''
    without robustness columns."""
    holds = getattr(r, "holds", None)
    if (holds is None or holds != holds) and not RB.undecided(r):
        return ""
    row = {"gain_min": r.gain_min, "gain_max": r.gain_max}
    note = f" [{RB.range_text(row)} pp]" if r.gain_max - r.gain_min > MOVES_PP else ""
    return note + (f" {DEPENDS}({r.flips_under})" if RB.depends(r) else f" {RB.UNDECIDED}" if RB.undecided(r) else "")


def _levels_text(levels: list[int]) -> str:
    if not levels:
        return ""
    return str(levels[0]) if len(levels) == 1 else f"{levels[0]}-{levels[-1]}"


def chart(choice: pd.DataFrame) -> pd.DataFrame:
    """The page's form of :func:`choices`: one row per own score and lead, one column per
    position, each cell the verdict and the best level's gain over looking (``blind to 90-120:
    +2.9 pp``; ``? blind:90-120 +0.4 pp`` when no clear answer, naming the levels as good as the
    best; ``look``).  With a ``policy`` column (the fixed-point chart: the option every seat played
    there), a clear verdict on the other side of blind/look than the policy adds ``(played: …)``."""
    def cell(r) -> str:
        if r.verdict == NO_CLEAR:
            text = f"? {r.best}" if r.best == LOOK else f"? blind:{r.levels_as_good} {r.gain_pp:+.1f} pp"
        elif r.verdict == LOOK:
            text = LOOK
        else:
            text = f"{r.verdict}: {r.gain_pp:+.1f} pp"
        played = getattr(r, "policy", None)
        if isinstance(played, str) and r.verdict != NO_CLEAR and (r.verdict == LOOK) != (played == LOOK):
            text += f" (played: {played})"
        return text + robust_note(r)

    c = choice.assign(text=[cell(r) for r in choice.itertuples()],
                      col=[f"position {p}" for p in choice.position])
    wide = c.pivot(index=["own", "lead"], columns="col", values="text").reset_index().rename_axis(columns=None)
    opp = choice.drop_duplicates(["own", "lead"]).set_index(["own", "lead"]).opp
    wide.insert(2, "opp", [int(opp[(o, lead)]) for o, lead in zip(wide.own, wide.lead)])
    return wide


# ---------------------------------------------------------------- under other players
def robust_pair(g: pd.DataFrame) -> tuple[str, int]:
    """The two options of one situation replayed under the other profiles: the best option and
    the one its gain is measured against (look when a blind level is best; the best blind level
    when look is best), as ``(best, level)``: the question's options are then look and
    blind:``level``."""
    g = g.reset_index(drop=True)
    best = g.option.iloc[ranked(-choice_rank(g))[0]]  # the chart's choice on half 0 (docs/statistics.md)
    blinds = g[g.option != LOOK].reset_index(drop=True)
    top = best_blind(choice_rank(blinds))
    level = int(best.split(":")[1]) if best != LOOK else (0 if top is None else int(blinds.level.iloc[top]))
    return best, level


def robust_sums(sit: Situation, level: int, deals: int, seed: int, strategies) -> dict:
    """Sums of look and blind:``level`` in ``sit`` on the situation's first ``deals`` deals (the
    same deals and randomness as its chart run) with every seat's ``strategies``."""
    return decision_sums(sit, (level,), deals, seed, strategies)


def robust_cell_sums(payload, options, deals, pilot, strategies) -> dict:
    """One situation's question with ``options`` (look and blind levels, in the chart's order) on
    its first ``deals`` deals (``pilot``: the pilot's own deals): the form
    cardsim.analysis.robustness.replay calls."""
    sit, seed = payload
    levels = tuple(int(o.split(":")[1]) for o in options if o != LOOK)
    return decision_sums(sit, levels, deals, pilot_seed(seed) if pilot else seed, strategies)


def robust_cell(sit: Situation, g: pd.DataFrame, deals: int, seed: int):
    """The :class:`cardsim.analysis.robustness.Cell` of one situation from its decision rows ``g``:
    the chart's best (:func:`robust_pair`), its gain over its reference (looking; the best blind
    level where looking is best) on the held-out deals as the flip size, and the default players'
    candidates (the best, the reference, the runner-up of the ranking and every option whose
    paired interval against the best reaches 0).  None when no blind level was ever legal."""
    g = g.reset_index(drop=True)
    best, level = robust_pair(g)
    if not level:
        return None
    order = ranked(-choice_rank(g))
    runner = g.option.iloc[order[1]] if len(order) > 1 else None
    row = g.set_index("option")
    if best == LOOK:
        ref = f"blind:{level}"
        gap, lo, hi = (-row.loc[ref, "gain_half1_pp"], -row.loc[ref, "gain_half1_hi"], -row.loc[ref, "gain_half1_lo"])
        # look minus a blind level: the level's gain over looking turned round
        low = {o: -row.loc[o, "gain_hi"] / 100 for o in row.index if o != LOOK}
    else:
        ref = LOOK
        gap, lo, hi = (row.loc[best, "gain_half1_pp"], row.loc[best, "gain_half1_lo"], row.loc[best, "gain_half1_hi"])
        low = {o: -row.loc[o, "diff_best_hi"] / 100 for o in row.index if o not in (LOOK, best)}
        low[LOOK] = row.loc[best, "gain_lo"] / 100
    options = tuple(g.option)
    sign = -1.0 if decision_question(sit, LEVELS, 1, seed).lower_is_better else 1.0
    return RB.Cell((sit, seed), options, best, float(gap) / 100, RB.sd_of(lo / 100, hi / 100, deals / 2),
                   RB.contenders(options, best, ref, runner, low), int(deals), sign, SEAT)


def run_robust(sits, long: pd.DataFrame, deals: int, seed: int, n_jobs: int = -1, log=print, results=None,
               profiles=None, base=None) -> pd.DataFrame:
    """Each situation replayed under the player profiles that act on the chart, every option that
    could be best there against the chart's best (:func:`robust_cell`,
    :func:`cardsim.analysis.robustness.replay`; ``profiles``: the profiles, default all of the
    game's but ``default``; ``base``: every seat's spec under the default players, default the
    game's default strategy).  Returns one row per situation: own, lead, position and
    :data:`cardsim.analysis.robustness.COLUMNS` (gains in pp of the game's win)."""
    sits = list(sits)
    profiles = RB.others(GAME) if profiles is None else list(profiles)
    base = list(base or [get_game(GAME).table.default_strategy] * 3)
    groups = {k: g for k, g in long.groupby(["own", "lead", "position"], sort=False)}
    cells = [robust_cell(s, groups[(s.own, s.lead, s.position)], deals, seed) for s in sits]
    started = time.time()
    # a situation where no blind level was ever legal has nothing to weigh: a blank row
    replayed = replay_rows(cells, profiles, robust_cell_sums, base, {"robust_verdict": "", "robust_deals": 0},
                           name="501-robust", n_jobs=n_jobs, results=results, log=log, scale=100.0, fmt="{:+.1f}")
    rows = [{"own": s.own, "lead": s.lead, "position": s.position} | cols for s, cols in zip(sits, replayed)]
    log(f"    done in {time.time() - started:.0f} s")
    return pd.DataFrame(rows, columns=["own", "lead", "position", *RB.COLUMNS])


def with_robust(choice: pd.DataFrame, robust: pd.DataFrame | None) -> pd.DataFrame:
    """:func:`choices` with the robustness columns of :func:`run_robust` joined on the situation."""
    if robust is None or not len(robust):
        return choice
    return choice.merge(robust, on=["own", "lead", "position"], how="left")


def best_blind_rows(long: pd.DataFrame) -> pd.DataFrame:
    """Per situation, the decisions row of its best blind level (:func:`best_blind`)."""
    rows = []
    for _, g in long[long.option != LOOK].groupby(["own", "lead", "position"], sort=False):
        top = best_blind(choice_rank(g))
        if top is not None:
            rows.append(g.iloc[top])
    return pd.DataFrame(rows, columns=long.columns)


# ---------------------------------------------------------------- figures
def cell_label(r) -> str:
    """A heat-map cell's text for one row of :func:`choices`: ``look``; ``B<levels>`` and the
    best level's gain over looking in pp on the next line (``B90-120`` / ``+2.9``: the levels as
    good as the best, one line per run of neighbouring levels); ``?`` and the gain when no clear
    answer."""
    mark = RB.mark(r)
    if getattr(r, "gain_max", np.nan) - getattr(r, "gain_min", np.nan) > MOVES_PP:
        gain = f"{r.gain_min:+.1f}..{r.gain_max:+.1f}"
    else:
        gain = f"{r.gain_pp:+.1f}"
    if r.verdict == NO_CLEAR:
        return f"?{mark}\n{gain}"
    if r.verdict == LOOK:
        return "look" + mark
    return "B" + r.levels_as_good.replace(", ", ",\n") + mark + f"\n{gain}"  # a line per run: cells are narrow


def chart_figure(choice: pd.DataFrame, outdir: Path, name: str = "g501_game_chart.png",
                 heading: str = "501: best first call for the game's win (both opponents at the same score).") -> Path:
    """``g501_game_chart.png``: the best choice per situation, one heatmap per position (own score
    × lead); colour = the best option (look, or the best blind level), text = :func:`cell_label`
    (the levels as good as the best and the best level's gain over looking in pp); hatched grey
    with '?' = no clear answer."""
    plt = pyplot()
    from matplotlib.colors import BoundaryNorm, ListedColormap  # local: matplotlib is slow to import
    from matplotlib.patches import Patch  # local: matplotlib is slow to import

    levels = sorted({int(b.split(":")[1]) for b in choice.best if b != LOOK} | {0})
    owns = sorted(choice.own.unique())
    leads = sorted(choice.lead.unique())
    positions = sorted(choice.position.unique())
    palette = ["#f0f0f0"] + list(plt.get_cmap("YlOrRd")(np.linspace(0.2, 0.9, max(len(levels) - 1, 1))))
    cmap = ListedColormap(palette[:len(levels)])
    norm = BoundaryNorm(np.arange(len(levels) + 1) - 0.5, cmap.N)
    fig, axes = plt.subplots(1, len(positions), figsize=(4.6 * len(positions), 0.55 * len(owns) + 2.2),
                             squeeze=False, layout="constrained")
    for ax, pos in zip(axes[0], positions):
        grid = np.full((len(owns), len(leads)), np.nan)
        for r in choice[choice.position == pos].itertuples():
            y, x = owns.index(r.own), leads.index(r.lead)
            lvl = 0 if r.best == LOOK else int(r.best.split(":")[1])
            if r.verdict == NO_CLEAR:
                ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="#dddddd", hatch="//",
                                           edgecolor="#999999", zorder=2))
            else:
                grid[y, x] = levels.index(lvl)
            ax.text(x, y, cell_label(r), ha="center", va="center", fontsize=7, zorder=3)
        ax.imshow(grid, cmap=cmap, norm=norm, origin="lower", aspect="auto")
        ax.set_xticks(range(len(leads)), [f"{v:+d}" for v in leads])
        ax.set_yticks(range(len(owns)), [str(v) for v in owns])
        ax.set_xlabel("lead: opponents' score − own (+ = ahead)")
        ax.set_ylabel("own score")
        ax.set_title(f"auction position {pos}", fontsize=10)
    title = [heading,
             "B<L>-<H> = bid blind up to any level from L to H: the levels not clearly worse than the best level "
             "(paired, 95% interval) that also clearly beat looking where the best does; colour = the best level; "
             "number = its gain over looking in pp; ? hatched = the 95% interval of that gain includes 0."]
    if "holds" in choice:
        title.append(f"Replayed under the other player profiles: a range lo..hi = the gain's range across them; "
                     f"{DEPENDS} = another option is clearly better under some profile (depends on the players); "
                     f"{RB.UNDECIDED} = not decidable under them at this size.")
    # about 13 characters of 10-point text fit in an inch (11 leaves a margin): a narrow chart keeps its title
    width = int(11 * fig.get_figwidth())
    fig.suptitle("\n".join(textwrap.fill(t, width) for t in title), fontsize=10)
    # the cells name a range of levels, so the colour (the best level) needs its own key
    keys = [Patch(facecolor=palette[i], edgecolor="#999999", label=LOOK if lvl == 0 else f"best level {lvl}")
            for i, lvl in enumerate(levels)]
    fig.legend(handles=keys, loc="outside lower center", ncol=len(keys), fontsize=8, frameon=False)
    path = Path(outdir) / name
    save_figure(fig, path)
    return path
