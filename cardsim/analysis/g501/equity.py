"""501 match equity: each player's probability of winning the game from a state of scores.

Whole games are played from the state (:func:`cardsim.play_match` with ``before=`` and
``dealer=``; docs/RULES.md §1.8: the lowest score when someone reaches 0 wins, exact ties share
the win).  States that differ by a rotation of the table are the same game seen from another
chair, so only one state of each rotation class is played (:func:`canonical`), once with every
first dealer, and every seat of it is read as a point of view (:func:`viewpoints`).  The tables
(:func:`equity_table`) give, for the player's own score and the opponents' scores, the win
probability averaged over the first dealer and over the seatings of the opponents, and by the
player's auction position in the first deal.  One part of the report's 501 section
(:mod:`cardsim.analysis.g501.game`; the blind chart is :mod:`cardsim.analysis.g501.blind_chart`).

Units: scores in score points (501 counts down); win probabilities as shares 0..1 (the wide
table and the figure in percent); intervals are 95% Wilson.
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis.chart_pipeline import play, task_seed
from cardsim.analysis.plots import percent_grid, pyplot, save_figure
from cardsim.stats import wilson

GAME = "501"
GRID3 = (50, 100, 150, 200, 300, 400, 501)
GRID4 = (100, 200, 300, 501)
GAMES = 10_000
GAMES4 = 4_000

QUICK_GRID3 = (100, 300, 501)
QUICK_GRID4 = (200, 501)
QUICK_GAMES = 300


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
    played = play(play_state, tasks, [games] * len(tasks), n_jobs, name=f"501-equity-{seats}seats", results=results,
                  unit="game")
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


def equity_figure(eq: pd.DataFrame, outdir: Path) -> Path:
    """``g501_game_equity.png``: win probability (%) by own score × best opponent's score, with
    the other opponent at the same score as the best (left) and at the grid's top (right)."""
    plt = pyplot()
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
    save_figure(fig, path)
    return path
