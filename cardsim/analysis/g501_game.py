"""501 in the game, not only in the deal: who wins from a score state, and when a blind bid pays.

Two questions, both answered with the game's win (docs/RULES.md §1.8: the lowest score when someone
reaches 0 wins; exact ties share the win) rather than a deal's score change:

* **match equity** — each player's probability of winning the game from a state of scores,
  by playing whole games from it (:func:`cardsim.play_match` with ``before=`` and ``dealer=``).
  States that differ by a rotation of the table are the same game seen from another chair, so
  only one state of each rotation class is played (:func:`canonical`), once with every first
  dealer, and every seat of it is read as a point of view (:func:`viewpoints`).  The tables
  (:func:`equity_table`) give, for the player's own score and the opponents' scores, the win
  probability averaged over the first dealer and over the seatings of the opponents, and by the
  player's auction position in the first deal.
* **the blind decision** — at its first turn of one deal, the player bids blind up to level
  ``L`` (``blind:L``) or looks (``look``); the game is then played on to its end by the
  strategies with the same randomness for every option (:func:`cardsim.evaluate` with
  ``outcome="game"``), so the change in game-win probability is paired deal by deal
  (:func:`run_decisions`, :func:`choices`).  A situation is the player's own score, its lead
  over the opponents (both at the same score) and its auction position in the deal.

Units: scores in score points (501 counts down); win probabilities as shares 0..1; gains in
percentage points (pp) of game-win probability.  Intervals are 95% (Wilson for win
probabilities, normal for paired gains).
"""
from __future__ import annotations

import hashlib
import itertools
import re
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis import robustness as RB
from cardsim.analysis.robustness import DEPENDS

from cardsim.analysis.verdicts import LOOK, NO_CLEAR, blind_verdict, chart_clear, decision_p
from cardsim.questions import question, run_question, table
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.ranking import rank_sums
from cardsim.selection import CHOOSE, ESTIMATE, half_means, paired, ranked
from cardsim.stats import mean_interval, wilson

GAME = "501"
SEAT = 0
"""The player whose decisions are studied (the table is rotated so that every chair is seat 0's)."""

GRID3 = (50, 100, 150, 200, 300, 400, 501)
GRID4 = (100, 200, 300, 501)
OWN = (50, 100, 200, 300, 400, 501)
LEADS = (-200, -100, -50, 0, 50, 100, 200)
LEVELS = (70, 80, 90, 100, 120, 150)
POSITIONS = (0, 1, 2)
GAMES = 10_000
GAMES4 = 4_000
DEALS = 10_000

QUICK_GRID3 = (100, 300, 501)
QUICK_GRID4 = (200, 501)
QUICK_OWN = (100, 300, 501)
QUICK_LEADS = (-100, 0, 100)
QUICK_LEVELS = (70, 90, 120)
QUICK_GAMES = 300
QUICK_DEALS = 400


@dataclass(frozen=True)
class Plan:
    """What one run plays: the equity grids and games per state and first dealer, the decision
    situations and levels and deals per cell."""

    grid3: tuple
    grid4: tuple
    games: int
    games4: int
    own: tuple
    leads: tuple
    levels: tuple
    deals: int
    positions: tuple = POSITIONS


def plan(n: int, quick: bool = False) -> Plan:
    """The report's plan with ``n`` as an upper bound on games and deals per cell."""
    if quick:
        return Plan(QUICK_GRID3, QUICK_GRID4, min(n, QUICK_GAMES), min(n, QUICK_GAMES), QUICK_OWN, QUICK_LEADS,
                    QUICK_LEVELS, min(n, QUICK_DEALS))
    return Plan(GRID3, GRID4, min(n, GAMES), min(n, GAMES4), OWN, LEADS, LEVELS, min(n, DEALS))


def task_seed(seed: int, *key) -> int:
    """An independent seed for one cell (a state and dealer, or a decision situation)."""
    digest = hashlib.sha256("|".join(str(k) for k in (seed,) + key).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


# ---------------------------------------------------------------- match equity
def rotate(state: tuple, dealer: int, r: int) -> tuple[tuple, int]:
    """The table turned by ``r`` chairs: new seat ``j`` is old seat ``j + r``; the dealer follows."""
    k = len(state)
    return tuple(state[(j + r) % k] for j in range(k)), (dealer - r) % k


def canonical(state: tuple) -> tuple:
    """The least rotation of ``state`` (scores by seat): one state per rotation class."""
    return min(rotate(state, 0, r)[0] for r in range(len(state)))


def equity_states(grid, seats: int) -> list[tuple]:
    """Every score state on ``grid`` up to rotation (``seats`` scores each), sorted."""
    return sorted({canonical(s) for s in itertools.product(grid, repeat=seats)})


def play_state(state: tuple, dealer: int, games: int, seed: int, strategies=None) -> dict:
    """Play ``games`` games from ``state`` with first dealer ``dealer``: the sums of every seat's
    share of the win (a tie shares it), unfinished games and deals played."""
    import cardsim

    matches, _ = cardsim.play_match(GAME, games, seed=seed, seats=len(state), before=list(state), dealer=dealer,
                                    strategies=strategies, n_jobs=1, chunk_size=games)
    return state_row(matches, state, dealer)


def state_row(matches: pd.DataFrame, state: tuple, dealer: int) -> dict:
    """One row of the states table from play_match's match rows (``win_s`` bools, ``n_winners``,
    ``finished``, ``deals``): ``wins_s`` = Σ win_s / n_winners over finished games."""
    k = len(state)
    done = matches.finished.to_numpy(bool)
    n_win = np.maximum(matches.n_winners.to_numpy(np.float64), 1.0)
    row = {"seats": k, "dealer": int(dealer), "games": int(len(matches)), "unfinished": int((~done).sum()),
           "deals": int(matches.deals.sum())}
    for s in range(4):
        row[f"s{s}"] = int(state[s]) if s < k else 0
    for s in range(4):
        win = matches[f"win_{s}"].to_numpy(bool) & done if s < k else np.zeros(len(matches), bool)
        row[f"wins_{s}"] = float((win / n_win).sum())
    return row


STATE_COLUMNS = ["seats", "s0", "s1", "s2", "s3", "dealer", "games", "unfinished", "deals", "wins_0", "wins_1",
                 "wins_2", "wins_3"]


def run_equity(grid, seats: int, games: int, seed: int, n_jobs: int = -1, strategies=None, log=print,
               results=None) -> pd.DataFrame:
    """Play every state of ``grid`` (up to rotation) with every first dealer, ``games`` each.
    ``results``: a folder keeping each finished state, so that the same call resumes
    (:func:`cardsim.runner.store.analysis_store`).

    Returns the states table (:data:`STATE_COLUMNS`, one row per state and first dealer; scores
    of absent seats 0): ``wins_s`` is seat s's summed share of the win.
    """
    tasks = [(s, d, games, task_seed(seed, "equity", s, d), strategies)
             for s in equity_states(grid, seats) for d in range(seats)]
    started = time.time()
    log(f"  equity, {seats} seats: {len(tasks) // seats} states x {seats} first dealers x {games:,} games")
    rows = []
    step = max(1, len(tasks) // 4)
    store = analysis_store(results, f"501-equity-{seats}seats", play_state, tasks=tasks)
    played = run_chunks(play_state, tasks, [games] * len(tasks), n_jobs, store=store, unit="game")
    for i, row in enumerate(played, 1):
        rows.append(row)
        if i % step == 0 or i == len(tasks):
            log(f"    {i}/{len(tasks)} state-dealer cells, {time.time() - started:.0f} s")
    return pd.DataFrame(rows, columns=STATE_COLUMNS)


def viewpoints(states: pd.DataFrame) -> pd.DataFrame:
    """Every seat of every played state as a point of view.

    Columns: ``sim`` (the row of ``states``: which games), ``seats``, ``own`` (the seat's score),
    ``opp_1`` … (the opponents' scores clockwise from the seat's left), ``position`` (the seat's
    turn in the first deal's auction: 0 speaks first; with 4 seats 3 = deals and sits the first
    deal out), ``games``, ``wins``.
    """
    out = []
    for sim, r in zip(states.index, states.itertuples(index=False)):
        k = int(r.seats)
        scores = [int(getattr(r, f"s{s}")) for s in range(k)]
        for i in range(k):
            row = {"sim": sim, "seats": k, "own": scores[i]}
            for j in range(1, k):
                row[f"opp_{j}"] = scores[(i + j) % k]
            row.update(position=(i - int(r.dealer) - 1) % k, games=int(r.games), wins=float(getattr(r, f"wins_{i}")))
            out.append(row)
    return pd.DataFrame(out)


def _pooled(v: pd.DataFrame, keys: list[str], cells: pd.DataFrame) -> pd.DataFrame:
    """Mean win share of the cells per ``keys`` with the games behind it (each game once, though
    a symmetric state shows the same games from several chairs) and its Wilson interval."""
    out = cells.groupby(keys, as_index=False).agg(p=("p", "mean"))
    games = v.drop_duplicates(keys + ["sim"]).groupby(keys, as_index=False).games.sum()
    out = out.merge(games, on=keys)
    out["lo"], out["hi"] = wilson(out.p * out.games, out.games)
    return out


def equity_table(states: pd.DataFrame, seats: int) -> pd.DataFrame:
    """Win probability by own score and the opponents' scores (best first, then the others).

    Each seating of the opponents around the player and each first dealer (the player's
    position) is one cell of equal weight: ``p_win`` is the mean of the cells' win shares,
    ``p_pos<p>`` the mean over seatings at position p.  ``games`` counts the games behind the
    row (each once); ``lo``/``hi`` is the 95% Wilson interval over them (likewise
    ``p_pos<p>_lo``/``_hi``).  Columns ``own``, ``best``, ``other`` (3 seats) or ``best``,
    ``second``, ``third`` (4 seats), then ``p_win``, ``lo``, ``hi``, ``games``, ``p_pos0``,
    ``p_pos0_lo``, ``p_pos0_hi``, … .
    """
    v = viewpoints(states[states.seats == seats].reset_index(drop=True))
    opp = [f"opp_{j}" for j in range(1, seats)]
    names = ["best", "other"] if seats == 3 else ["best", "second", "third"]
    ranked = np.sort(v[opp].to_numpy(), axis=1)
    for j, name in enumerate(names):
        v[name] = ranked[:, j]
    keys = ["own"] + names
    cells = v.groupby(keys + opp + ["position"], as_index=False)[["games", "wins"]].sum()
    cells["p"] = cells.wins / cells.games
    out = _pooled(v, keys, cells).rename(columns={"p": "p_win"})
    out = out[keys + ["p_win", "lo", "hi", "games"]]
    pos = _pooled(v, keys + ["position"], cells)
    for p in range(seats):
        part = pos[pos.position == p].rename(columns={"p": f"p_pos{p}", "lo": f"p_pos{p}_lo", "hi": f"p_pos{p}_hi"})
        out = out.merge(part[keys + [f"p_pos{p}", f"p_pos{p}_lo", f"p_pos{p}_hi"]], on=keys, how="left")
    return out.sort_values(keys).reset_index(drop=True)


def equity_wide(eq: pd.DataFrame) -> pd.DataFrame:
    """The page's form of :func:`equity_table`: win probability in percent, one row per own and
    best opponent's score, one column per the other opponent(s)' score(s) (``other 300`` or
    ``others 300/501``); blank where the other is better than the best (no such state)."""
    rest = [c for c in ("other", "second", "third") if c in eq]
    label = (eq[rest[0]].astype(str) if len(rest) == 1 else eq[rest[0]].astype(str) + "/" + eq[rest[1]].astype(str))
    prefix = "other " if len(rest) == 1 else "others "
    wide = eq.assign(col=prefix + label, pct=100 * eq.p_win).pivot(index=["own", "best"], columns="col", values="pct")
    order = sorted(wide.columns, key=lambda c: [int(x) for x in c.split(" ")[1].split("/")])
    return wide[order].reset_index().rename_axis(columns=None)


# ---------------------------------------------------------------- the blind decision
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
    store = analysis_store(results, "501-decisions", decision_sums, tasks=tasks)
    sums_of = run_chunks(decision_sums, tasks, [deals] * len(tasks), n_jobs, store=store)
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


def _robust_cell_sums(payload, options, deals, pilot, strategies) -> dict:
    """One situation's question with ``options`` (look and blind levels, in the chart's order) on
    its first ``deals`` deals (``pilot``: the pilot's own deals): the form
    cardsim.analysis.robustness.replay calls."""
    from cardsim.analysis.robustness import pilot_seed

    sit, seed = payload
    levels = tuple(int(o.split(":")[1]) for o in options if o != LOOK)
    return decision_sums(sit, levels, deals, pilot_seed(seed) if pilot else seed, strategies)


def robust_cell(sit: Situation, g: pd.DataFrame, deals: int, seed: int):
    """The :class:`cardsim.analysis.robustness.Cell` of one situation from its decision rows ``g``:
    the chart's best (:func:`robust_pair`), its gain over its reference (looking; the best blind
    level where looking is best) on the held-out deals as the flip size, and the default players'
    candidates (the best, the reference, the runner-up of the ranking and every option whose
    paired interval against the best reaches 0).  None when no blind level was ever legal."""
    from cardsim.analysis import robustness as RB

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
    from cardsim.analysis import robustness as RB
    from cardsim.games import get_game

    sits = list(sits)
    profiles = RB.others(GAME) if profiles is None else list(profiles)
    base = list(base or [get_game(GAME).default_strategy] * 3)
    groups = {k: g for k, g in long.groupby(["own", "lead", "position"], sort=False)}
    cells = [robust_cell(s, groups[(s.own, s.lead, s.position)], deals, seed) for s in sits]
    started = time.time()
    out = iter(RB.replay([c for c in cells if c is not None], profiles, _robust_cell_sums, base, name="501-robust",
                         n_jobs=n_jobs, results=results, log=log, scale=100.0, fmt="{:+.1f}"))
    rows = []
    for s, c in zip(sits, cells):
        head = {"own": s.own, "lead": s.lead, "position": s.position}
        # no blind level was ever legal: nothing to weigh
        rows.append(head | (next(out) if c is not None else {"robust_verdict": "", "robust_deals": 0}))
    log(f"    done in {time.time() - started:.0f} s")
    return pd.DataFrame(rows, columns=["own", "lead", "position", *RB.COLUMNS])


def with_robust(choice: pd.DataFrame, robust: pd.DataFrame | None) -> pd.DataFrame:
    """:func:`choices` with the robustness columns of :func:`run_robust` joined on the situation."""
    if robust is None or not len(robust):
        return choice
    return choice.merge(robust, on=["own", "lead", "position"], how="left")


def tables(states: pd.DataFrame, long: pd.DataFrame, robust: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """Every table from the states table (:func:`run_equity`, both seat counts), the long
    decision frame (:func:`run_decisions`) and the robustness rows (:func:`run_robust`, or None)."""
    eq3 = equity_table(states, 3)
    choice = with_robust(choices(long), robust)
    out = {"g501_game_chart": chart(choice), "g501_game_equity": equity_wide(eq3)}
    if (states.seats == 4).any():
        out["g501_game_equity4"] = equity_wide(equity_table(states, 4))
    out["g501_game_choices"] = choice
    out["g501_game_decisions"] = long
    out["g501_game_equity_long"] = eq3
    if (states.seats == 4).any():
        out["g501_game_equity4_long"] = equity_table(states, 4)
    out["g501_game_states"] = states
    return out


CSV_ONLY = ["g501_game_choices", "g501_game_decisions", "g501_game_equity_long", "g501_game_equity4_long",
            "g501_game_states", "g501_fixed_choices", "g501_fixed_policies"]


# ---------------------------------------------------------------- the answer
def _pp(x: float) -> str:
    return f"{x:+.1f} pp"


def _ci(lo: float, hi: float) -> str:
    return f"[{lo:+.1f}, {hi:+.1f}]"


def _where(r) -> str:
    return f"at {r.own} against two opponents at {r.opp} (position {r.position})"


def _summary_sentence(c: pd.DataFrame) -> str:
    blind = c.verdict.str.startswith("blind")
    look = c.verdict == LOOK
    unclear = c.verdict == NO_CLEAR
    return (f"Over {len(c)} situations (own score × lead over both opponents × auction position), bidding blind "
            f"at the first turn clearly raises the game-win probability over looking in {int(blind.sum())}, "
            f"looking is clearly better in {int(look.sum())}, and {int(unclear.sum())} give no clear answer "
            "(not called clear: the best option is chosen on half of the deals and its gain over looking measured "
            "on the other half, at a 2.5% false discovery rate over the chart).")


def _level(option: str) -> int:
    return int(option.split(":")[1])


def _ends(levels: str) -> tuple[int, int]:
    """The lowest and highest level of a :func:`levels_text` text."""
    found = [int(x) for x in re.findall(r"\d+", levels)]
    return min(found), max(found)


def _blind_text(levels: str, best: int) -> str:
    """``blind to 120``, or ``blind to 90-120 (best level 120)`` when other levels are as good."""
    return f"blind to {levels}" + ("" if levels == str(best) else f" (best level {best})")


def _situation(c: pd.DataFrame, r) -> pd.Series:
    return c[(c.own == r.own) & (c.lead == r.lead) & (c.position == r.position)].iloc[0]


def _largest_sentence(c: pd.DataFrame) -> str:
    r = c.loc[c.gain_pp.idxmax()]
    if r.gain_pp <= 0:
        return "No blind level beats looking in any situation."
    return (f"Blind pays most {_where(r)}: {_blind_text(r.levels_as_good, _level(r.best))} adds {_pp(r.gain_pp)} "
            f"{_ci(r.gain_lo, r.gain_hi)} of game-win probability (looking wins {100 * r.win_look:.1f}%).")


def _best_blinds(long: pd.DataFrame) -> pd.DataFrame:
    """Per situation, the decisions row of its best blind level (:func:`best_blind`)."""
    rows = []
    for _, g in long[long.option != LOOK].groupby(["own", "lead", "position"], sort=False):
        top = best_blind(choice_rank(g))
        if top is not None:
            rows.append(g.iloc[top])
    return pd.DataFrame(rows, columns=long.columns)


def _hurts_sentence(long: pd.DataFrame, c: pd.DataFrame) -> str:
    """Where blind hurts: the situations in which every blind level is clearly worse than
    looking (the chart's verdict ``look``; named by the levels as good as the best blind level),
    else the most harmful (level, situation) pair (its gain over looking on all the deals, on
    its own)."""
    blinds = long[long.option != LOOK]
    keys = ["own", "lead", "position"]
    every = c[keys].assign(every=(c.verdict == LOOK).to_numpy())
    best = _best_blinds(long).merge(every, on=keys)
    hurt = best[best.every]
    if len(hurt):
        worst = hurt.loc[hurt.gain_pp.idxmin()]
        name = _blind_text(_situation(c, worst).levels_as_good, int(worst.level))
        return (f"Every blind level is clearly worse than looking in {len(hurt)} situation(s); the worst is "
                f"{_where(worst)}, where even {name} costs {_pp(worst.gain_pp)} "
                f"{_ci(worst.gain_lo, worst.gain_hi)}.")
    worst = blinds.loc[blinds.gain_pp.idxmin()]
    if worst.gain_hi < 0:
        there = _situation(best, worst)
        good = _situation(c, worst).levels_as_good
        lo, hi = _ends(good)
        how = "when bid too high" if worst.level > hi else ("when bid too low" if worst.level < lo else
                                                             "at some levels")
        return (f"Blind hurts only {how}: the largest loss is {worst.option} {_where(worst)}, "
                f"{_pp(worst.gain_pp)} {_ci(worst.gain_lo, worst.gain_hi)}; there the best is "
                f"{_blind_text(good, int(there.level))}, {_pp(there.gain_pp)} {_ci(there.gain_lo, there.gain_hi)} "
                "over looking.")
    return "No blind level is clearly worse than looking in any situation studied."


def _lead_text(lead: int) -> str:
    return "level" if lead == 0 else (f"{lead} ahead" if lead > 0 else f"{-lead} behind")


def _lead_sentence(c: pd.DataFrame) -> str:
    """The verdicts by lead over the opponents (every own score and position together)."""
    parts = []
    for lead, g in c.groupby("lead", sort=True):
        blind = int(g.verdict.str.startswith("blind").sum())
        look = int((g.verdict == LOOK).sum())
        counts = f"blind clearly better in {blind} of {len(g)}" + (f", looking in {look}" if look else "")
        parts.append(f"{_lead_text(lead)}: {counts}, gains {g.gain_pp.min():+.1f} to {g.gain_pp.max():+.1f} pp")
    return "By lead over both opponents: " + "; ".join(parts) + "."


def _levels_sentence(c: pd.DataFrame) -> str:
    """How high to go: per own score, the most frequent range of levels as good as the best where
    blind is clearly better, and how often one level alone is best."""
    blind = c[c.verdict.str.startswith("blind")]
    if blind.empty:
        return ""
    parts = []
    for own, g in blind.groupby("own", sort=True):
        counts = g.levels_as_good.value_counts()
        parts.append(f"at {own}: blind to {counts.index[0]} ({counts.iloc[0]} of {len(g)})")
    alone = int((blind.levels_as_good == blind.best.map(lambda b: str(_level(b)))).sum())
    return ("Where blind pays, the levels as good as the best one (not clearly worse on the same deals) are most "
            "often, by own score, " + "; ".join(parts) + f". One level alone is best in {alone} of {len(blind)} "
            "such situations; elsewhere the chart names every level as good as the best.")


def _position_sentence(c: pd.DataFrame) -> str:
    parts = [f"{p} {g.gain_pp.median():+.1f} pp" for p, g in c.groupby("position", sort=True)]
    return "Median gain of the best option over looking by auction position (0 = first speaker): " + \
        ", ".join(parts) + "."


def _equity_sentence(eq: pd.DataFrame) -> str:
    """The seat advantage at the start and what a lead is worth from the middle of the grid."""
    grid = sorted(eq.own.unique())
    top = grid[-1]
    parts = []
    even = eq[(eq.own == top) & (eq.best == top) & (eq.other == top)]
    if len(even):
        e = even.iloc[0]
        pos = ", ".join(f"{100 * e[f'p_pos{p}']:.1f}% [{100 * e[f'p_pos{p}_lo']:.1f}, {100 * e[f'p_pos{p}_hi']:.1f}]"
                        for p in range(3))
        parts.append(f"From {int(top)} each, the players speaking first, second and last in the first deal win "
                     f"{pos} of games.")
    mid = grid[len(grid) // 2]
    cells = []
    for opp in grid:
        row = eq[(eq.own == mid) & (eq.best == opp) & (eq.other == opp)]
        if len(row) and opp != mid:
            r = row.iloc[0]
            cells.append(f"{100 * r.p_win:.1f}% {_lead_text(int(opp - mid))} (both at {int(opp)})")
    if cells:
        parts.append(f"At {int(mid)}, level with both opponents, a player wins 1 game in 3; " + ", ".join(cells) + ".")
    return " ".join(parts)


def _policy_sentence(c: pd.DataFrame, policy: dict | None) -> str:
    """How the default heuristic's own blind policy compares with the chart."""
    if not policy:
        return ""
    prob, level, cur = policy["blind_prob"], policy["blind_level"], policy["blind_cur"]
    text = (f"The default heuristic bids blind with probability {prob:g} when the bid is at most {cur:g}, "
            f"up to {level:g}")
    blind = c[c.verdict.str.startswith("blind")]
    if len(blind) <= len(c) / 2:
        return text + "."
    high = sum(_ends(g)[0] > level for g in blind.levels_as_good)
    verdicts = []
    if prob < 0.5:
        verdicts.append(f"too rarely (blind is clearly better in {len(blind)} of {len(c)} situations)")
    if high:
        verdicts.append(f"too low (every level as good as the best is above {level:g} in {high} of those)")
    return text + (": against these numbers it bids blind " + " and ".join(verdicts) if verdicts else "") + "."


def _robust_sentence(c: pd.DataFrame) -> str:
    """Which verdicts hold under the other player profiles, which depend on them, and how far the
    gains of blind over looking move (ranges), for the situations where blind is clearly best."""
    if "holds" not in c:
        return ""
    from cardsim.analysis.robustness import others, sentence

    text = sentence(c, "best choice", "pp", len(others(GAME)))
    blind = c[c.verdict.str.startswith("blind") & c.gain_min.notna()]
    if len(blind):
        small = blind[blind.gain_min < 0.25 * blind.gain_max]
        text += (f" Where blind is clearly best, its gain over looking falls below a quarter of its highest value "
                 f"under some profile in {len(small)} of {len(blind)} situations; across all of them the smallest "
                 f"gain ranges from {blind.gain_min.min():+.1f} to {blind.gain_min.max():+.1f} pp.")
    return text


def answer(tabs: dict[str, pd.DataFrame], policy: dict | None = None) -> str:
    """The answer paragraph, every number read from the tables of :func:`tables` (``policy``: the
    default heuristic's blind parameters, for the last sentence): :func:`answer_parts` in one paragraph."""
    return " ".join(answer_parts(tabs, policy))


def answer_parts(tabs: dict[str, pd.DataFrame], policy: dict | None = None) -> list[str]:
    """The answer's sentences (each a short paragraph of its own: the report lists them)."""
    c, long = tabs["g501_game_choices"], tabs["g501_game_decisions"]
    parts = [_summary_sentence(c), _largest_sentence(c), _hurts_sentence(long, c), _lead_sentence(c),
             _levels_sentence(c), _position_sentence(c), _robust_sentence(c),
             _equity_sentence(tabs["g501_game_equity_long"]), _policy_sentence(c, policy)]
    return [p for p in parts if p]


# ---------------------------------------------------------------- rules of thumb
SPEAKING = {0: "speaking first", 1: "speaking second", 2: "speaking last"}


def _situation_words(r) -> str:
    lead = "level with them" if r.lead == 0 else (f"{r.lead} ahead" if r.lead > 0 else f"{-r.lead} behind")
    return (f"At {r.own}, both opponents at {r.opp} ({lead}), "
            f"{SPEAKING.get(int(r.position), f'position {r.position}')}")


def rules(tabs: dict[str, pd.DataFrame]) -> list[dict]:
    """The rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`) from the decision chart: every
    situation with a clear verdict is a candidate.  'blind to L-H': its number is the best blind
    level's gain over looking (``g501_game_choices``: gain_pp, held-out deals); 'look': looking's
    gain over the best blind level (``g501_game_decisions``, that level's row: minus its held-out
    gain over looking).  Worth = the gain in game-win chance (pp); how often a score situation
    comes is not measured, so it is not weighted.  What a rule settles
    (:data:`cardsim.analysis.rules_of_thumb.RULE`): the profiles whose own best is the option it
    beats and the previous default's best, where the robust replay wrote them (``best_under``).
    The best of each own score first."""
    from cardsim.analysis import rules_of_thumb as T

    c = tabs["g501_game_choices"].reset_index(drop=True)
    long = tabs["g501_game_decisions"].reset_index(drop=True)
    best_rows = {(r.own, r.lead, r.position): r for _, r in _best_blinds(long).iterrows()}
    unit, order = "pp of game-win chance", "the gain in the chance of winning the game (percentage points)"
    out = []
    for i, r in c.iterrows():
        where = _situation_words(r)
        bests = T.profile_bests(r.get("best_under"))  # each profile's own best option (the robust replay's)
        if str(r.verdict).startswith("blind") and r.gain_pp > 0:
            text = f"{where}: bid blind at your first turn, going on blind up to {r.levels_as_good}"
            out.append(T.rule("501", text, "g501_game_choices", i, ("gain_pp", "gain_lo", "gain_hi"),
                              (r.gain_pp, r.gain_lo, r.gain_hi), unit, "over looking", "{:+.1f}", r.gain_pp,
                              "pp of game-win chance", order, f"own {r.own}", r,
                              players=T.players_of(LOOK, None, bests), moved_from=T.moved_from(r.best, bests)))
        elif r.verdict == LOOK and (r.own, r.lead, r.position) in best_rows:
            b = best_rows[(r.own, r.lead, r.position)]
            if not b.gain_half1_pp < 0:
                continue
            text = f"{where}: look at your cards before you bid"
            out.append(T.rule("501", text, "g501_game_decisions", int(b.name),
                              ("gain_half1_pp", "gain_half1_lo", "gain_half1_hi"),
                              (b.gain_half1_pp, b.gain_half1_lo, b.gain_half1_hi), unit,
                              f"over blind up to {int(b.level)}", "{:+.1f}", -b.gain_half1_pp,
                              "pp of game-win chance", order, f"own {r.own}", r, sign=-1.0,
                              robust_at=("g501_game_choices", i),
                              players=T.players_of(f"blind:{int(b.level)}", None, bests),
                              moved_from=T.moved_from(LOOK, bests)))
    return T.pick(out)


# ---------------------------------------------------------------- figures
CHART_LEGEND = (
    "Whether to bid blind at your first turn of a deal, for the chance of winning the game (3 players). A row is "
    "your score (501 counts down: lower is better), a column the lead: the opponents' score minus yours, both "
    "opponents at the same score (+100 = you are 100 ahead, -100 = 100 behind); a panel is your turn in the "
    "auction (position 0 = first to speak, left of the dealer; 2 = last, the dealer). In a cell: B90-120 = bid "
    "blind at your first turn and go on blind while the bid is at most a limit anywhere from 90 to 120 (those "
    "limits do about as well); look = look at your cards first; the number = how many percentage points (pp) of "
    "game-win chance the best limit adds over looking; ? on hatched grey = no clear answer; lo..hi = that gain "
    "from the least to the most over the other players (more cautious or bolder bidders ...); \u2020 = depends on "
    "the players: with some of them another choice is clearly better; \u00b0 = not decidable with them at this "
    "size. Colour = the best limit.")
LEGENDS = {
    "g501_game_chart.png": CHART_LEGEND,
    # the run's own caption replaces this one (g501_fixed.legend: its rounds, deals and whether it settled)
    "g501_fixed_chart.png": "The same chart when every player at the table follows it (recomputed with every player "
                            "on it; the run's caption says how many rounds, on how many deals, and whether it "
                            "settled). " + CHART_LEGEND,
    "g501_game_equity.png": "Your chance (%) of winning the game with 3 players from a score state: a row is your "
                            "score, a column the better opponent's score (501 counts down: lower is better); left, "
                            "the other opponent at the same score as the better one; right, the other opponent at "
                            "the highest score of the grid. Averaged over who deals first and over the seating.",
}
"""What each figure shows, in a player's words (the report's figure captions)."""


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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

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
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def equity_figure(eq: pd.DataFrame, outdir: Path) -> Path:
    """``g501_game_equity.png``: win probability (%) by own score × best opponent's score, with
    the other opponent at the same score as the best (left) and at the grid's top (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cardsim.analysis.plots import percent_grid

    grid = sorted(eq.own.unique())
    top = max(grid)
    panels = [("other opponent at the best's score", eq[eq.other == eq.best]),
              (f"other opponent at {top}", eq[eq.other == top])]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), layout="constrained")
    for ax, (title, rows) in zip(axes, panels):
        m = np.full((len(grid), len(grid)), np.nan)
        for r in rows.itertuples():
            m[grid.index(r.own), grid.index(r.best)] = 100 * r.p_win
        im = percent_grid(ax, m, grid, "best opponent's score", "own score", title)
    fig.colorbar(im, ax=axes, label="game won (%)", shrink=0.85)
    fig.suptitle("501, 3 players: probability of winning the game from a score state "
                 "(first dealer and seating averaged)", fontsize=10)
    path = Path(outdir) / "g501_game_equity.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    return [chart_figure(tabs["g501_game_choices"], outdir), equity_figure(tabs["g501_game_equity_long"], outdir)]


GLOSSARY = {
    "own / best / other": "the player's score and the opponents' scores, best (lowest) first (score points; 501 "
                          "counts down, the lowest score wins when someone reaches 0)",
    "other 300, others 300/501": "the equity tables' columns: the other opponent's (or, with 4 seats, the other two "
                                 "opponents') score; cells: the player's game-win probability (%)",
    "p_win / lo / hi": "probability of winning the game (a tie shares the win), averaged over the first dealer and "
                       "over the seatings of the opponents, with its 95% Wilson interval",
    "p_pos0 …": "the same by the player's auction position in the first deal (0 speaks first; with 4 seats 3 = "
                "deals and sits out)",
    "lead / opp": "the decision chart's situation: both opponents are at opp = own + lead (lead > 0: the player is "
                  "ahead)",
    "position": "the player's turn in this deal's auction (0 = first speaker, left of the dealer)",
    "best": "look, or blind:L = bid blind (the minimum raise) at the first turn and go on blind while the raise is "
            "at most L, then look",
    "gain_pp / gain_lo / gain_hi": "game-win probability of the best option minus that of looking, paired on the "
                                   "same deals, in percentage points, with its 95% interval; in the chart and "
                                   "choices the best option is chosen on the even-numbered deals (rank_half0: "
                                   "paired comparisons) and its gain measured on the odd-numbered ones "
                                   "(gain_half1_pp: no winner's curse)",
    "verdict / p_value": "'blind to L-H' when a blind level is best and its gain over looking is clearly above 0, "
                         "naming the levels as good as the best (levels_as_good); 'look' when looking is best and "
                         "every blind level's gain is clearly below 0 (p_value: the largest of theirs); otherwise "
                         "'no clear answer'. Clearly = called clear by Benjamini-Hochberg over the chart's "
                         "situations at a 2.5% false discovery rate on the one-sided p_value (docs/statistics.md)",
    "clear_levels": "(choices CSV) the blind levels whose gain over looking has its 95% interval above 0 over all "
                    "the deals, each level on its own (no correction for testing several)",
    "levels_as_good": "(choices CSV) the blind levels as good as the best blind level: not clearly worse, i.e. the "
                      "95% interval of their win minus the best level's, paired on the same deals, does not lie "
                      "wholly below 0 (each level tested on its own, no correction for testing several) and, where "
                      "the best level clearly beats looking, whose own gain over looking is clearly above 0; 'L-H' = "
                      "every level played from L to H, a clearly worse level in between splits it ('70, 120')",
    "position 0 / 1 / 2": "the decision chart's cells: the verdict and the best level's gain ('blind to 90-120: "
                          "+2.9 pp', 'look'); '?' marks no clear answer, followed by the better-looking option "
                          "('? look', or '? blind:70-90 +0.3 pp' with the best level's gain over looking)",
    "next_level / gain_vs_next_pp / _lo / _hi": "(choices CSV) the runner-up blind level (next in the ranking) and "
                                                "the best level's win minus it, paired, in pp with its 95% interval",
    "diff_best_pp / _lo / _hi": "(decisions CSV) the option's win minus the best blind level's, paired on the same "
                                "deals, in pp with its 95% interval",
    "win / win_lo / win_hi": "(decisions CSV) the player's mean share of the game's win after the option",
    "legal / made": "(decisions CSV) share of deals the option could be taken; made rate of the contracts the player "
                    "declared",
}
NOTES = [
    "Game-win probabilities: every game is played to its end by the default heuristic strategies for all "
    "players; the player studied is seat 0, and only its first call of one deal is forced.",
    "Decision situations put both opponents at the same score (own score + lead), so the best opponent is well "
    "defined; other spreads of the opponents are in the equity tables, not the chart.",
    "Equity: each rotation class of a score state is played once with every first dealer and read from every "
    "chair; a row pools its seatings and dealers with equal weight. Games ended unfinished (cap of 5,000 deals) "
    "are counted as won by nobody (column unfinished of g501_game_states).",
]


def notes(tabs: dict[str, pd.DataFrame]) -> list[str]:
    """:data:`NOTES` and what the numbers say about the blind options' legality and unfinished games."""
    long, states = tabs["g501_game_decisions"], tabs["g501_game_states"]
    blinds = long[long.option != LOOK]
    legal = ("in every deal of every situation" if (blinds.legal == 1).all() else
             f"in {100 * blinds.legal.min():.1f}% to {100 * blinds.legal.max():.1f}% of the deals of a situation")
    unfinished = int(states.unfinished.sum())
    return NOTES + [f"A blind option is compared with looking over the deals where it was legal: here {legal} (the "
                    "current bid at the player's first turn was below the level).",
                    f"{unfinished:,} of {int(states.games.sum()):,} equity games ended unfinished."]


METHOD = ("501 in the game: the match-equity tables play whole games (cardsim.play_match) from every score "
          "state of a grid, one state per rotation of the table and once with each first dealer, and read every "
          "seat's share of the win (exact ties share). The decision chart plays, for each situation (own score, "
          "lead over both opponents, auction position), the first call look and blind up to each level on the same "
          "deals with the same strategy randomness; each deal's game is played on to its end (cardsim.evaluate "
          "with outcome='game'), so the gain in game-win probability over looking is a paired difference with a "
          "95% interval. The best option is chosen on the even-numbered deals and its gain over looking measured on "
          "the odd-numbered ones (no winner's curse); a cell's verdict is clear at a 2.5% false discovery rate over "
          "the chart's situations (Benjamini-Hochberg); the best blind level is compared the same way with every other level, and the chart names "
          "every level not clearly worse than it (and, where the best clearly pays, clearly paying too).")
