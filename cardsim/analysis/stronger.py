"""Does a stronger player change the answer?  A few chart cells replayed with ``pimc`` card play.

The report's charts (Vint bidding charts, the Five Hundred bid guide, the 501 blind chart) are
answers under the default ``heuristic`` players.  Here a handful of their cells is asked again
with the sampled-search player (:mod:`cardsim.strategies.pimc`) on **every** seat, the asking
seat too: the cell's question is built exactly as the chart's own replay under other profiles
builds it (the chart module's ``robust_sums`` / ``_robust_stratum_sums``, its two options the
chart's best and runner-up), only the strategies change (``["pimc:worlds=W"] * seats``).  A
``pimc`` seat calls, bids, takes the talon and discards the kitty as ``heuristic`` does (same
parameters); only its card play searches.

**The cells** (:func:`select`, the same rule for every game, never by hand): among the cells
the chart calls clear (its own Benjamini–Hochberg verdict; 501: a verdict other than ``no
clear answer``) and that have a runner-up, the :data:`CELLS` with the most deals in the chart
(the hands players meet most: a chart deals a rarer class fewer deals), ties broken by how often
the hands are met (Vint ``freq``: share of random deals meeting the cell's classes; Five
Hundred ``share``: share of hands in the class; 501, whose situations all have the same deals:
nearest the game's start, the highest own score, then the smallest lead either way), then by
the chart's order.  Five Hundred's guide has a row per class and scoring: one cell per class
(its first scoring).

**The check** (:func:`compare`): on the cell's first ``n`` deals (the chart's own deals and
strategy randomness, common random numbers) the gap best minus runner-up is measured twice,
paired, with its 95% normal interval (:func:`cardsim.stats.mean_interval` of the per-deal
differences): under ``heuristic`` everywhere and under ``pimc`` everywhere.  The verdict
(:func:`verdict`): ``agrees`` (the pimc gap has the heuristic gap's sign and its interval
excludes 0), ``agrees, not clear`` (same sign, or either gap exactly 0, and the pimc interval
includes 0 or is not computed: under 30 deals), ``reverses`` (opposite signs; its interval says
how sure), ``no deals`` (no deal compared) and ``not available`` (the game has no ``pimc``
strategy registered).  Power: with 100 deals the interval is about 14 times as wide as with the
chart's 20,000, so ``agrees, not clear`` is the expected verdict for a small gap.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.stats import mean_interval

CELLS = 3
"""Cells checked per game."""
COLUMNS = ["cell", "best", "runner_up", "n", "heuristic_gap", "heuristic_lo", "heuristic_hi", "pimc_gap", "pimc_lo",
           "pimc_hi", "verdict"]
"""The columns of one game's table (gaps in the chart's units, best minus runner-up)."""
AGREES, NOT_CLEAR, REVERSES = "agrees", "agrees, not clear", "reverses"
NO_DEALS, NOT_AVAILABLE = "no deals", "not available"
PIMC = "pimc"
RULE = (f"per game the {CELLS} cells the chart calls clear with the most deals in the chart (the hands players meet "
        "most), ties broken by how often the hands are met (Vint freq, Five Hundred share; 501: nearest the game's "
        "start), one per Five Hundred class")
"""The selection rule in words, for the report."""


class StrongerError(ValueError):
    """A chart table without the columns the selection needs, or a bad argument."""


def pimc_spec(worlds: int) -> str:
    """The strategy spec of the stronger player: ``pimc:worlds=W``.  Raises StrongerError for a
    count outside 1..256 (the strategy's bounds)."""
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= 256:
        raise StrongerError(f"worlds must be a whole number from 1 to 256, got {worlds!r}")
    return f"{PIMC}:worlds={int(worlds)}"


def available(game: str) -> bool:
    """Whether ``game`` has the ``pimc`` strategy registered."""
    from cardsim.games import get_game

    return PIMC in get_game(game).registry.names()


def select(table: pd.DataFrame, clear: str = "clear", deals: str = "n", meet=(), distinct=None,
           k: int = CELLS) -> pd.DataFrame:
    """The cells to check of one chart's ``table``: rows whose ``clear`` column is true and whose
    ``runner_up`` is given, sorted by ``deals`` then by each column of ``meet`` (all
    descending; a stable sort, so the table's order breaks the remaining ties), at most one row
    per value of the ``distinct`` columns (the first), the first ``k``.  Returns those rows
    (index kept).  Raises StrongerError for a missing column."""
    need = [clear, deals, "runner_up", *meet, *(distinct or [])]
    missing = [c for c in need if c not in table]
    if missing:
        raise StrongerError(f"the chart table has no column {', '.join(missing)}")
    runner = table["runner_up"]
    keep = table[table[clear].astype(bool) & runner.notna() & (runner.astype(str) != "")]
    order = keep.sort_values([deals, *meet], ascending=False, kind="stable")
    if distinct:
        order = order.drop_duplicates(list(distinct), keep="first")
    return order.head(k)


def gap(sums: dict | None, best: int, other: int, sign: float = 1.0, scale: float = 1.0) -> dict:
    """Option ``best`` minus option ``other`` (indices into the question's options) over the deals
    where both were legal, from :func:`cardsim.questions.run_question` ``sums`` (keys ``pair_n``,
    ``pair_s1``, ``pair_s2``, float64 ``(k, k)``): ``mean``, 95% ``lo`` / ``hi`` (NaN under 30
    deals) times ``scale`` (100: percentage points), ``sign`` -1 for a counting-down measure;
    ``n`` deals.  All NaN (n 0) when ``sums`` is None (no deals could be dealt)."""
    if sums is None:
        return {"mean": np.nan, "lo": np.nan, "hi": np.nan, "n": 0}
    n = float(sums["pair_n"][best, other])
    mean, _, lo, hi = mean_interval(sign * sums["pair_s1"][best, other], sums["pair_s2"][best, other], n)
    return {"mean": scale * float(mean) + 0.0, "lo": scale * float(lo) + 0.0, "hi": scale * float(hi) + 0.0,
            "n": int(n)}


def verdict(heuristic: float, pimc: float, pimc_lo: float, pimc_hi: float) -> str:
    """Does the pimc gap (``pimc`` with its interval) order the two options as the heuristic gap
    does?  :data:`AGREES`, :data:`NOT_CLEAR`, :data:`REVERSES` or :data:`NO_DEALS` (a gap
    missing), by the rule of the module docstring."""
    if not (heuristic == heuristic and pimc == pimc):
        return NO_DEALS
    if heuristic * pimc < 0:
        return REVERSES
    if heuristic != 0 and pimc != 0 and (pimc_lo > 0 or pimc_hi < 0):  # NaN bounds: neither
        return AGREES
    return NOT_CLEAR


def compare(heuristic_sums: dict | None, pimc_sums: dict | None, options, best: str, other: str,
            sign: float = 1.0, scale: float = 1.0) -> dict:
    """One cell's check from its question sums under ``heuristic`` and under ``pimc`` (options in
    the order ``options``; ``best`` and ``other`` among them): the :data:`COLUMNS` but ``cell``.
    ``n``: the deals the pimc gap was measured on (the heuristic's when pimc did not run)."""
    options = list(options)
    b, o = options.index(best), options.index(other)
    h = gap(heuristic_sums, b, o, sign, scale)
    p = gap(pimc_sums, b, o, sign, scale)
    return {"best": best, "runner_up": other, "n": p["n"] if pimc_sums is not None else h["n"],
            "heuristic_gap": h["mean"], "heuristic_lo": h["lo"], "heuristic_hi": h["hi"],
            "pimc_gap": p["mean"], "pimc_lo": p["lo"], "pimc_hi": p["hi"],
            "verdict": verdict(h["mean"], p["mean"], p["lo"], p["hi"])}


def not_available(heuristic_sums: dict | None, options, best: str, other: str, sign: float = 1.0,
                  scale: float = 1.0) -> dict:
    """A cell's row in a game without ``pimc``: the heuristic gap, the pimc columns missing and
    the verdict :data:`NOT_AVAILABLE`."""
    return compare(heuristic_sums, None, options, best, other, sign, scale) | {"verdict": NOT_AVAILABLE}


def check_cell(ask, options, best: str, other: str, seats: int, worlds: int, base: str = "heuristic",
               sign: float = 1.0, scale: float = 1.0) -> dict:
    """Check one cell in this process: ``ask(strategies)`` returns the question sums of the cell's
    two ``options`` on its first deals with every seat's strategy spec (a list of ``seats``), or
    None when no deal could be dealt; it is asked with ``[base] * seats`` and with
    ``[pimc:worlds=W] * seats``.  Returns :func:`compare`'s columns (no ``cell``)."""
    h = ask([base] * seats)
    return compare(h, ask([pimc_spec(worlds)] * seats), options, best, other, sign, scale)


def sentence(tables: dict[str, pd.DataFrame]) -> str:
    """One sentence for the Answers from the games' tables (game name -> :data:`COLUMNS` frame):
    how many checked cells agree, clearly or not, and which reverse."""
    rows = [(game, r) for game, t in tables.items() for r in t.itertuples() if r.verdict != NOT_AVAILABLE]
    off = [game for game, t in tables.items() if len(t) and (t.verdict == NOT_AVAILABLE).all()]
    if not rows:
        return ("No chart cell was replayed with sampled-search play yet"
                + (f" ({', '.join(off)}: no pimc strategy)" if off else "") + ".")
    counts = {v: sum(r.verdict == v for _, r in rows) for v in (AGREES, NOT_CLEAR, REVERSES, NO_DEALS)}
    text = (f"With sampled-search (pimc) card play on every seat, a chart cell's best option and its runner-up "
            f"come in the same order as with the heuristic players on the same deals in "
            f"{counts[AGREES] + counts[NOT_CLEAR]} of {len(rows)} cells checked ({counts[AGREES]} clearly)")
    flips = [f"{game} {r.cell} ({r.best} vs {r.runner_up})" for game, r in rows if r.verdict == REVERSES]
    if flips:
        text += f"; the order reverses in {len(flips)}: " + "; ".join(flips)
    if off:
        text += f"; {', '.join(off)} not checked (no pimc strategy yet)"
    return text + "."


__all__ = ["CELLS", "COLUMNS", "AGREES", "NOT_CLEAR", "REVERSES", "NO_DEALS", "NOT_AVAILABLE", "RULE",
           "StrongerError", "pimc_spec", "available", "select", "gap", "verdict", "compare", "not_available",
           "check_cell", "sentence"]
