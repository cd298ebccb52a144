"""Vint's rubber equity: who wins the rubber, and by how many points, from a state of the line.

A state is the points each side has below the current line and the games each has won
(docs/RULES.md §2.7: 500 below wins a game, two games win the rubber); the dealer of the next deal
is stated (seat 0 … 3; the dealer speaks first, docs/RULES.md §2.2).  From every state of a grid
and every dealer, whole rubbers are played on by the strategies (:func:`cardsim.games.vint.chunks.
rubbers_from`: ``play_match(before=, dealer=)``'s rubbers without their deal rows; all cores through
:func:`cardsim.runner.store.run_chunks`, resumable through :func:`cardsim.runner.store.analysis_store`
like the 501 game-level runs).  The table
(:func:`equity_table`) gives, per state, side 0's chance of winning the rubber averaged over the
four dealers (and by which side deals first) with its 95% Wilson interval, and the expected
margin — side 0's total minus side 1's, above + below, score points, from the state to the
rubber's end (what was scored before the state is not in it) — with its 95% normal interval.

A rubber stopped unfinished at ``engine.MAX_RUBBER_DEALS`` deals counts half a win to each side
(column ``unfinished``; the default strategies always finish).

Units: points in score points; win probabilities as shares 0..1.  No pandas in the kernels; this
module is the plain-Python layer above them.
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.chart_pipeline import task_seed
from cardsim.analysis.plots import percent_grid, pyplot, save_figure
from cardsim.games import get_game
from cardsim.games.vint.chunks import rubbers_from
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.stats import mean_interval, wilson

GAME = "vint"
BELOW = (0, 100, 200, 300, 400, 480)
"""Points below the line on the grid, each side."""
GAMES = ((0, 0), (1, 0), (0, 1), (1, 1))
"""Games won by (side 0, side 1) on the grid."""
DEALERS = (0, 1, 2, 3)
RUBBERS = 2_000
QUICK_BELOW = (0, 250, 480)
QUICK_RUBBERS = 200

STATE_COLUMNS = ["below_0", "below_1", "games_0", "games_1", "dealer", "rubbers", "unfinished", "deals", "wins_0",
                 "margin_s1", "margin_s2"]
"""One row per state and dealer: ``rubbers`` played, ``unfinished`` of them, ``deals`` played in all,
``wins_0`` side 0's summed share of the win (1 a win, ½ unfinished), ``margin_s1``/``margin_s2`` the
sum and the sum of squares of side 0's margin (score points)."""

EQUITY_COLUMNS = ["below_0", "below_1", "games_0", "games_1", "rubbers", "p_win", "lo", "hi", "margin", "margin_lo",
                  "margin_hi", "p_side0_deals", "p_side1_deals", "deals_per_rubber", "unfinished"]


def states(below=BELOW, games=GAMES) -> list[tuple]:
    """Every state ``(below_0, below_1, games_0, games_1)`` of the grid."""
    return [(b0, b1, g0, g1) for (g0, g1) in games for b0, b1 in itertools.product(below, below)]


def play_cell(state: tuple, dealer: int, rubbers: int, seed: int, strategies=None) -> dict:
    """Play ``rubbers`` rubbers on from ``state`` with ``dealer`` dealing first: one row of the
    states table (:data:`STATE_COLUMNS`)."""
    setup = get_game(GAME).setup(strategies)
    b0, b1, g0, g1 = (int(x) for x in state)
    rows = rubbers_from(seed, 0, rubbers, setup, (b0, b1), (g0, g1), dealer)
    done = rows["winner"] >= 0
    margin = rows["margin_0"].astype(np.float64)
    return {"below_0": b0, "below_1": b1, "games_0": g0, "games_1": g1, "dealer": int(dealer),
            "rubbers": int(rubbers), "unfinished": int((~done).sum()), "deals": int(rows["deals"].sum()),
            "wins_0": float((rows["winner"] == 0).sum() + 0.5 * (~done).sum()),
            "margin_s1": float(margin.sum()), "margin_s2": float((margin * margin).sum())}


def run_states(below=BELOW, games=GAMES, rubbers: int = RUBBERS, seed: int = 0, n_jobs: int = -1, strategies=None,
               log=print, results=None, dealers=DEALERS) -> pd.DataFrame:
    """Play every state of the grid with every dealer, ``rubbers`` each, on ``n_jobs`` cores (-1:
    all).  ``results``: a folder keeping each finished cell, so that the same call resumes.
    Returns the states table (:data:`STATE_COLUMNS`, one row per state and dealer)."""
    tasks = [(s, d, rubbers, task_seed(seed, "vint-equity", s, d), strategies)
             for s in states(below, games) for d in dealers]
    log(f"  vint equity: {len(tasks) // len(dealers)} states x {len(dealers)} dealers x {rubbers:,} rubbers")
    started = time.time()
    store = analysis_store(results, "vint-equity", play_cell, tasks=tasks)
    rows = []
    step = max(1, len(tasks) // 4)
    for i, row in enumerate(run_chunks(play_cell, tasks, [rubbers] * len(tasks), n_jobs, store=store,
                                       unit="rubber"), 1):
        rows.append(row)
        if i % step == 0 or i == len(tasks):
            log(f"    {i}/{len(tasks)} state-dealer cells, {time.time() - started:.0f} s")
    return pd.DataFrame(rows, columns=STATE_COLUMNS)


def equity_table(cells: pd.DataFrame) -> pd.DataFrame:
    """Per state (:data:`EQUITY_COLUMNS`): ``p_win`` side 0's chance of winning the rubber, every
    dealer equally weighted, with its 95% Wilson interval ``lo``/``hi``; ``margin`` side 0's
    expected margin to the rubber's end (score points) with its 95% normal interval;
    ``p_side0_deals``/``p_side1_deals`` the chance when a seat of side 0 (0, 2) / side 1 (1, 3)
    deals first; ``deals_per_rubber`` deals played on; ``unfinished`` rubbers stopped at the cap."""
    keys = ["below_0", "below_1", "games_0", "games_1"]
    c = cells.assign(side=cells.dealer % 2, p=cells.wins_0 / cells.rubbers)
    g = c.groupby(keys, as_index=False)
    out = g.agg(rubbers=("rubbers", "sum"), wins=("wins_0", "sum"), s1=("margin_s1", "sum"), s2=("margin_s2", "sum"),
                deals=("deals", "sum"), unfinished=("unfinished", "sum"), p_win=("p", "mean"))
    out["lo"], out["hi"] = (np.clip(x, 0.0, 1.0) for x in wilson(out.p_win * out.rubbers, out.rubbers.astype(float)))
    out["margin"], _, out["margin_lo"], out["margin_hi"] = mean_interval(out.s1.to_numpy(), out.s2.to_numpy(),
                                                                         out.rubbers.to_numpy(np.float64))
    for side in (0, 1):
        part = c[c.side == side].groupby(keys, as_index=False).agg(**{f"p_side{side}_deals": ("p", "mean")})
        out = out.merge(part, on=keys, how="left")
    out["deals_per_rubber"] = out.deals / out.rubbers
    return out[EQUITY_COLUMNS].sort_values(keys).reset_index(drop=True)


def mirrored(eq: pd.DataFrame) -> pd.DataFrame:
    """The table seen from side 1: each state with the sides swapped, ``p_win`` → 1 − ``p_win``,
    ``margin`` → −``margin`` (intervals turned round); for the symmetry checks (a state and its
    mirror are played separately, so they agree within their intervals)."""
    m = eq.rename(columns={"below_0": "below_1", "below_1": "below_0", "games_0": "games_1", "games_1": "games_0",
                           "p_side0_deals": "p_side1_deals", "p_side1_deals": "p_side0_deals"})
    m["p_win"], m["lo"], m["hi"] = 1 - eq.p_win, 1 - eq.hi, 1 - eq.lo
    for a in ("p_side0_deals", "p_side1_deals"):
        m[a] = 1 - m[a]
    m["margin"], m["margin_lo"], m["margin_hi"] = -eq.margin, -eq.margin_hi, -eq.margin_lo
    return m[EQUITY_COLUMNS].sort_values(["below_0", "below_1", "games_0", "games_1"]).reset_index(drop=True)


def equity_wide(eq: pd.DataFrame, value: str = "p_win") -> pd.DataFrame:
    """The page's form: one row per games won and side 0's points below, one column per side 1's
    points below (``them 300``); ``value`` in percent for ``p_win``, else as it is."""
    scale = 100.0 if value.startswith("p_") else 1.0
    wide = eq.assign(games=eq.games_0.astype(str) + "-" + eq.games_1.astype(str), v=scale * eq[value]).pivot(
        index=["games", "below_0"], columns="below_1", values="v")
    wide.columns = [f"them {c}" for c in wide.columns]
    return wide.reset_index().rename(columns={"below_0": "us"})


def equity_figure(eq: pd.DataFrame, outdir) -> "Path":
    """``vint_equity.png``: side 0's rubber-win probability (%) by the points below the line of
    each side, one panel per games won (dealer averaged)."""
    plt = pyplot()

    grid = sorted(eq.below_0.unique())
    fig, axes = plt.subplots(1, 4, figsize=(15, 4.2), layout="constrained")
    im = None
    for ax, (g0, g1) in zip(axes, GAMES):
        m = np.full((len(grid), len(grid)), np.nan)
        for r in eq[(eq.games_0 == g0) & (eq.games_1 == g1)].itertuples():
            m[grid.index(r.below_0), grid.index(r.below_1)] = 100 * r.p_win
        im = percent_grid(ax, m, grid, "their points below the line", "our points below the line",
                          f"games won: us {g0}, them {g1}")
    fig.colorbar(im, ax=axes, label="rubber won (%)", shrink=0.85)
    fig.suptitle("Vint: probability of winning the rubber from a state of the line (dealer averaged)", fontsize=10)
    return save_figure(fig, Path(outdir) / "vint_equity.png")


def _row(eq, b0, b1, g0, g1):
    hit = eq[(eq.below_0 == b0) & (eq.below_1 == b1) & (eq.games_0 == g0) & (eq.games_1 == g1)]
    return None if hit.empty else hit.iloc[0]


def _pts(x) -> str:
    """Points with a sign, whole (never "-0")."""
    return f"{int(round(float(x))):+,d}"


def _pct(r) -> str:
    return f"{100 * r.p_win:.0f}% ({100 * r.lo:.0f}-{100 * r.hi:.0f}%)"


def disagreements(eq: pd.DataFrame) -> pd.DataFrame:
    """States where the rubber's win and its points point different ways: side 0 is the clear
    favourite to win the rubber (interval above 50%) yet expects to lose points (margin interval
    below 0), or the reverse."""
    win_points_lose = (eq.lo > 0.5) & (eq.margin_hi < 0)
    lose_points_win = (eq.hi < 0.5) & (eq.margin_lo > 0)
    return eq[win_points_lose | lose_points_win]


def answer(eq: pd.DataFrame) -> str:
    """The answers paragraph, from the numbers."""
    top = int(eq.below_0.max())
    parts = []
    clean = _row(eq, 0, 0, 0, 0)
    if clean is not None:
        parts.append(f"From a clean line either side wins the rubber about half the time ({_pct(clean)} for side 0, "
                     f"dealer averaged; {clean.deals_per_rubber:.1f} deals a rubber).")
    up, down = _row(eq, 0, 0, 1, 0), _row(eq, 0, 0, 0, 1)
    if up is not None and down is not None:
        parts.append(f"A game up on a clean line is worth {_pct(up)}, a game down {_pct(down)}; the expected "
                     f"margin to the rubber's end is {_pts(up.margin)} and {_pts(down.margin)} points "
                     f"(95% intervals {_pts(up.margin_lo)} to {_pts(up.margin_hi)} and {_pts(down.margin_lo)} to "
                     f"{_pts(down.margin_hi)}).")
    near = _row(eq, top, 0, 0, 0)
    if near is not None:
        like = f", about what a game up on a clean line gives ({100 * up.p_win:.0f}%)" if up is not None else ""
        parts.append(f"{top} below the line against nothing, no games, gives {_pct(near)}{like}: so close, the next "
                     f"deal's tricks nearly always bring the game.")
    decider = _row(eq, 0, 0, 1, 1)
    if decider is not None:
        parts.append(f"At a game all the next game decides the rubber; from a clean line side 0 wins {_pct(decider)}.")
    odd = disagreements(eq)
    if odd.empty:
        parts.append("In no state of the grid do the rubber's win and the points clearly disagree (a favourite to "
                     "win the rubber with a margin interval below 0, or the reverse).")
    else:
        cells = ", ".join(f"{int(r.below_0)}-{int(r.below_1)} below with games {int(r.games_0)}-{int(r.games_1)} "
                          f"({100 * r.p_win:.0f}% yet {_pts(r.margin)} points)" for r in odd.itertuples())
        parts.append(f"The rubber's win and the points disagree in {len(odd)} state(s): {cells}.")
    return " ".join(parts)


GLOSSARY = {
    "below_0, below_1": "points below the current line of side 0 (seats 0+2) and side 1 (seats 1+3)",
    "games_0, games_1": "games won so far in the rubber (0 or 1 each)",
    "p_win": "side 0's chance of winning the rubber (0-1), the four first dealers averaged; lo/hi its 95% "
             "Wilson interval",
    "margin": "side 0's total minus side 1's (above + below, score points) from the state to the rubber's end; "
              "margin_lo/margin_hi its 95% interval",
    "p_side0_deals, p_side1_deals": "p_win when a seat of side 0 / side 1 deals the next deal (speaks first)",
    "deals_per_rubber": "deals played from the state to the rubber's end (void deals included)",
    "unfinished": "rubbers stopped at 5,000 deals (half a win to each side)",
}
METHOD = ("Vint rubber equity: from each state of the grid (points below the line and games won by each side) "
          "and each of the four first dealers, whole rubbers are played on by the default strategies "
          "(cardsim.games.vint.chunks.rubbers_from, each state and dealer its own seed); p_win is the share won "
          "by side 0 with a 95% Wilson interval, the margin a mean with a 95% normal interval.  Equal states "
          "come out even and mirrored states agree within their intervals (tests/test_vint_rubber.py).")


__all__ = ["states", "play_cell", "run_states", "equity_table", "mirrored", "equity_wide", "equity_figure",
           "answer", "disagreements", "STATE_COLUMNS", "EQUITY_COLUMNS", "GLOSSARY", "METHOD"]
