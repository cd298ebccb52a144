"""Five Hundred in the game, not only in the deal: who wins from a score state.

Game equity: the chance that team 0 (seats 0 and 2) wins the game (docs/RULES.md §3.6: a side at
or above the target after a deal wins; when both cross in one deal under ``subtract`` the
declarer's side wins if it made its contract) from the team scores ``(s0, s1)``, for both
scorings (``quebec``, ``subtract``) and both targets (500, 1000), with team 0 or team 1 dealing
first (``first`` 0: seat 0 deals the first deal, so seat 1 of team 1 bids first; ``first`` 1:
seat 1 deals) and averaged over the two.  Every cell is whole games played by the strategies
from that state (:func:`cardsim.play_match` with ``before=`` and ``dealer=``), every cell with
its own seed (:func:`task_seed`), on all cores, each finished cell kept in the results folder
so that the same call resumes (:func:`cardsim.runner.store.analysis_store`).

A game that reaches the engine's deal cap (2000 deals, never seen with the default strategies)
counts as half a win for each side, so the two sides' shares always sum to 1.

Units: scores in points; win probabilities as shares 0..1 with 95% Wilson intervals
(:func:`cardsim.stats.wilson`).
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis.plots import pyplot, save_figure
from cardsim.analysis.chart_pipeline import seed_of
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.stats import wilson

GAME = "500"
SCORINGS = ("quebec", "subtract")
TARGETS = (500, 1000)
FRACTIONS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9)
"""The grid of team scores as shares of the target (500: 0, 100, …, 450; 1000: 0, 200, …, 900)."""
SUBTRACT_LOW = -0.2
"""Under ``subtract`` a side can be below 0: the grid also has −0.2 × target."""
QUICK_FRACTIONS = (0.0, 0.4, 0.8)
GAMES = 20_000
QUICK_GAMES = 400
STATE_COLUMNS = ["scoring", "target", "s0", "s1", "first", "games", "wins_0", "wins_1", "unfinished", "deals"]


@dataclass(frozen=True)
class Plan:
    """What one run plays: the score grid as shares of the target, and games per cell."""

    fractions: tuple
    games: int
    scorings: tuple = SCORINGS
    targets: tuple = TARGETS


def plan(n: int, quick: bool = False) -> Plan:
    """The report's plan with ``n`` as an upper bound on the games per cell."""
    if quick:
        return Plan(QUICK_FRACTIONS, min(n, QUICK_GAMES))
    return Plan(FRACTIONS, min(n, GAMES))


def task_seed(seed: int, *key) -> int:
    """An independent seed for one cell (scoring, target, state and first dealer)."""
    return seed_of(GAME, seed, *key)


def grid(scoring: str, target: int, fractions=FRACTIONS) -> tuple[int, ...]:
    """The team scores of the grid under ``scoring`` and ``target`` (points, sorted)."""
    fr = tuple(fractions) + ((SUBTRACT_LOW,) if scoring == "subtract" else ())
    return tuple(sorted({int(round(f * target)) for f in fr}))


def cells(p: Plan) -> list[tuple]:
    """Every cell of plan ``p``: ``(scoring, target, s0, s1, first)``, ``first`` the first dealer's team."""
    return [(sc, t, a, b, first) for sc in p.scorings for t in p.targets
            for a, b in itertools.product(grid(sc, t, p.fractions), repeat=2) for first in (0, 1)]


def play_cell(scoring: str, target: int, s0: int, s1: int, first: int, games: int, seed: int,
              strategies=None) -> dict:
    """Play ``games`` games from the team scores ``(s0, s1)`` with seat ``first`` (0 or 1, so team
    ``first``) dealing first, under ``scoring`` and ``target``: one row of the states table
    (:data:`STATE_COLUMNS`; ``wins_t`` team t's games won, ``unfinished`` games at the deal cap)."""
    matches, _ = cardsim.play_match(GAME, games, seed=seed, before=[s0, s1], dealer=first, strategies=strategies,
                                    rules={"scoring": scoring, "target": target}, n_jobs=1, chunk_size=games)
    winner = matches.winner.to_numpy(dtype="float64", na_value=-1.0)
    return {"scoring": scoring, "target": int(target), "s0": int(s0), "s1": int(s1), "first": int(first),
            "games": int(len(matches)), "wins_0": int((winner == 0).sum()), "wins_1": int((winner == 1).sum()),
            "unfinished": int((winner < 0).sum()), "deals": int(matches.deals.sum())}


def run_equity(p: Plan, seed: int, n_jobs: int = -1, strategies=None, log=print, results=None) -> pd.DataFrame:
    """Play every cell of plan ``p`` (:func:`cells`), ``p.games`` games each, on all cores
    (``n_jobs``); ``results``: a folder keeping each finished cell, so that the same call resumes.
    Returns the states table (:data:`STATE_COLUMNS`, one row per cell)."""
    tasks = [c + (p.games, task_seed(seed, *c), strategies) for c in cells(p)]
    started = time.time()
    log(f"  Five Hundred equity: {len(tasks)} cells (scoring x target x s0 x s1 x first dealer) x {p.games:,} games")
    store = analysis_store(results, "500-equity", play_cell, tasks=tasks)
    rows = []
    step = max(1, len(tasks) // 4)
    for i, row in enumerate(run_chunks(play_cell, tasks, [p.games] * len(tasks), n_jobs, store=store, unit="game"),
                            1):
        rows.append(row)
        if i % step == 0 or i == len(tasks):
            log(f"    {i}/{len(tasks)} cells, {time.time() - started:.0f} s")
    return pd.DataFrame(rows, columns=STATE_COLUMNS)


def equity_table(states: pd.DataFrame) -> pd.DataFrame:
    """Team 0's chance of winning the game by scoring, target, ``s0``, ``s1`` and first dealer
    (``first`` 0 or 1: that team deals first; ``"both"``: the two pooled, each first dealer
    with its own games): ``n`` games, ``p0`` with its 95% interval ``p0_lo``/``p0_hi`` (a game at
    the deal cap counts half), ``deals`` the mean deals to the end."""
    keys = ["scoring", "target", "s0", "s1"]
    both = states.groupby(keys, as_index=False)[["games", "wins_0", "wins_1", "unfinished", "deals"]].sum()
    both["first"] = "both"
    t = pd.concat([states.assign(first=states["first"].astype(str)), both], ignore_index=True)
    t["n"] = t["games"].astype(np.int64)
    won = t["wins_0"] + 0.5 * t["unfinished"]
    t["p0"] = won / t["n"]
    lo, hi = wilson(won.to_numpy(np.float64), t["n"].to_numpy(np.float64))
    t["p0_lo"], t["p0_hi"] = lo, hi
    t["deals"] = t["deals"] / t["n"]
    order = {"0": 0, "1": 1, "both": 2}
    t = t.sort_values(keys + ["first"], key=lambda c: c.map(order) if c.name == "first" else c)
    return t[keys + ["first", "n", "p0", "p0_lo", "p0_hi", "deals", "unfinished"]].reset_index(drop=True)


def game_equity(n: int = GAMES, seed: int = 0, quick: bool = False, n_jobs: int = -1, strategies=None,
                results=None, log=print) -> pd.DataFrame:
    """The Five Hundred game-equity table (:func:`equity_table`) of the report's plan with at most
    ``n`` games per cell: team 0's chance of winning from each grid state, both scorings, both
    targets, with team 0 or team 1 dealing first and both pooled, with n and 95% intervals."""
    return equity_table(run_equity(plan(n, quick), seed, n_jobs, strategies, log, results))


def wide(eq: pd.DataFrame, scoring: str, target: int, first="both") -> pd.DataFrame:
    """One grid of ``eq`` (:func:`equity_table`) as a table: rows ``s0``, columns ``s1``, cells p0."""
    g = eq[(eq.scoring == scoring) & (eq.target == target) & (eq["first"] == str(first))]
    return g.pivot(index="s0", columns="s1", values="p0")


def figures(eq: pd.DataFrame, outdir: Path, name: str = "g500_equity.png") -> list[Path]:
    """A heat map per scoring and target of team 0's chance of winning (first dealer pooled)."""
    plt = pyplot()

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    scorings = [s for s in SCORINGS if (eq.scoring == s).any()]
    targets = [t for t in TARGETS if (eq.target == t).any()]
    fig, axes = plt.subplots(len(scorings), len(targets), figsize=(4.2 * len(targets), 3.8 * len(scorings)),
                             squeeze=False, layout="constrained")
    for i, sc in enumerate(scorings):
        for j, t in enumerate(targets):
            ax = axes[i][j]
            w = wide(eq, sc, t)
            im = ax.imshow(w.to_numpy(np.float64), origin="lower", vmin=0, vmax=1, cmap="RdBu")
            ax.set_xticks(range(len(w.columns)), [str(c) for c in w.columns], fontsize=7)
            ax.set_yticks(range(len(w.index)), [str(c) for c in w.index], fontsize=7)
            for (r, c), v in np.ndenumerate(w.to_numpy(np.float64)):
                ax.text(c, r, f"{v:.2f}", ha="center", va="center", fontsize=6)
            ax.set_xlabel("team 1's score")
            if j == 0:
                ax.set_ylabel("team 0's score")
            ax.set_title(f"{sc}, to {t}", fontsize=9)
    fig.colorbar(im, ax=axes, shrink=0.6, label="team 0 wins the game")
    path = outdir / name
    save_figure(fig, path, dpi=110)
    return [path]


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def answer(eq: pd.DataFrame) -> str:
    """The section's answers in words, from the table's numbers only."""
    both = eq[eq["first"] == "both"]
    out = []
    for sc in SCORINGS:
        for t in TARGETS:
            g = both[(both.scoring == sc) & (both.target == t)]
            if g.empty:
                continue
            hi = int(g.s0.max())
            lead = g[(g.s0 == hi) & (g.s1 == 0)]
            even = g[(g.s0 == g.s1) & (g.s0 == hi)]
            parts = []
            if len(lead):
                r = lead.iloc[0]
                parts.append(f"at {hi} to 0 team 0 wins {_pct(r.p0)} ({_pct(r.p0_lo)}-{_pct(r.p0_hi)})")
            if len(even):
                r = even.iloc[0]
                parts.append(f"level at {hi} each {_pct(r.p0)} ({_pct(r.p0_lo)}-{_pct(r.p0_hi)})")
            g0 = eq[(eq.scoring == sc) & (eq.target == t) & (eq["first"] == "0")].set_index(["s0", "s1"])
            g1 = eq[(eq.scoring == sc) & (eq.target == t) & (eq["first"] == "1")].set_index(["s0", "s1"])
            gap = (g0.p0 - g1.p0).mean()
            parts.append(f"team 0 dealing the first deal rather than team 1 moves its chance by {round(100 * gap, 1) + 0.0:+.1f} "
                         "points on average over the grid")
            out.append(f"{sc}, to {t}: " + "; ".join(parts) + ".")
    return " ".join(out)


def tables(states: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The section's tables: ``g500_equity`` (long: every cell and first dealer, :func:`equity_table`)
    and one grid per scoring and target (``g500_equity_<scoring>_<target>``: rows team 0's score,
    columns team 1's, team 0's chance with the first dealer pooled)."""
    eq = equity_table(states)
    out = {"g500_equity": eq}
    for sc in SCORINGS:
        for t in TARGETS:
            if ((eq.scoring == sc) & (eq.target == t)).any():
                w = wide(eq, sc, t).round(4)
                w.columns = [f"s1={c}" for c in w.columns]
                out[f"g500_equity_{sc}_{t}"] = w.reset_index()
    return out


GLOSSARY = {
    "s0, s1": "the team scores before the first deal played (points; team 0 = seats 0 and 2)",
    "first": "the team whose player deals the first deal (0: seat 0, 1: seat 1); both: the two pooled",
    "n": "games played from the state",
    "p0": "team 0's share of the games won (a game at the 2,000-deal cap would count half; none did unless "
          "`unfinished` says so)",
    "p0_lo, p0_hi": "95% Wilson interval of p0",
    "deals": "mean deals to the end of the game",
    "s1=…": "in a grid: team 0's chance of winning with team 1 at that score (first dealer pooled)",
}
LEGENDS = {"g500_equity.png": "Team 0's chance of winning the game (blue high, red low) by team 0's score (rows) and "
                              "team 1's (columns), for each scoring and target, the first dealer pooled."}
NOTES = ["The games are played by the default strategies, which do not read the score: the equity is that of "
         "players who bid each hand on its merits.",
         "Equal states give 0.5 with the first dealer pooled (a symmetry the tests check within the intervals)."]
METHOD = ("Five Hundred game equity: for each scoring and target, every pair of team scores on the grid (shares "
          "0, 0.2, 0.4, 0.6, 0.8 and 0.9 of the target; under subtract also -0.2) is played on to the end of the game "
          "by cardsim.play_match with before=[s0, s1], once with seat 0 and once with seat 1 dealing first, each "
          "cell with its own seed; intervals are 95% Wilson.")
