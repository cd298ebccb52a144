"""The rule of the stronger-play check (analyses/stronger_play.py, ``make stronger``): which chart
cells it replays with ``pimc`` on every seat, when it stops replaying one, and what it calls the
result.  Pure functions of tables and numbers; no game is named here.

**Cells** (:func:`choose`): among the cells the chart calls clear (its own Benjamini–Hochberg
verdict) that have a runner-up and a positive gap, the :data:`CELLS` whose best call is worth
most to a player: ``worth`` = how often the hand comes × the chart's gap (best minus runner-up on
the chart's held-out deals), i.e. what playing the runner-up instead costs per deal dealt; a
chart without frequencies (501: situations) ranks by the gap alone.  Ties keep the chart's order.

**Stopping** (:func:`looks`, :func:`decides`): a cell is played in looks of doubling size
(``first``, ``2·first`` … deals, the last at the cap), fixed before any deal, and stops at the
first look where its pimc interval (best minus runner-up, paired over the same deals) *excludes 0*
or is *narrower than the chart's own gap*.  Every interval is at level ``1 − ERROR / looks``
(:func:`level`: Bonferroni over the planned looks), so whatever look a cell stops at, the chance
that its interval ever excludes a true pimc gap is at most :data:`ERROR` (two-sided; a false
"reverses" at most half that).

**Verdict** (:func:`verdict`): *agrees* — the pimc interval lies above 0 (the chart's best stays
clearly best), or it is narrower than the chart's gap and reaches no further below 0 than that
gap (no reversal as large as the chart's gap, at the power to see one); *reverses* — the pimc
interval lies below 0 (the runner-up is clearly better with pimc: only then); *not decidable at
this size* — the cap came first.  **Power** (:func:`power`): the chance that the final look would
have shown a reversal as large as the chart's gap (true pimc gap = −gap) as *reverses*.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from cardsim.sequential import schedule
from cardsim.stats import MIN_N_NORMAL, mean_interval

CELLS = 6
"""Cells checked per game."""
ERROR = 0.05
"""Per cell: the chance that some look's interval excludes the true pimc gap (two-sided), spread
equally over the planned looks."""

AGREES, REVERSES, UNDECIDED = "agrees", "reverses", "not decidable at this size"
NO_DEALS, NOT_AVAILABLE = "no deals", "not available"
BY_SIGN = "interval excludes 0"
BY_WIDTH = "interval narrower than the chart's gap"
AT_CAP = "cap reached"

RULE = (f"per game the {CELLS} cells the chart calls clear whose best call is worth most to a player: how often the "
        "hand comes times the chart's gap over the runner-up (501, whose situations carry no frequency: the gap), one "
        "per Five Hundred class")
"""The selection rule in words, for the report."""


class RuleError(ValueError):
    """A chart table without the columns the selection needs, or a bad number."""


def choose(table: pd.DataFrame, gap: str, meet: str | None = None, clear: str = "clear", distinct=None,
           k: int = CELLS) -> pd.DataFrame:
    """The cells to check of one chart ``table``: the rows whose ``clear`` is true, whose
    ``runner_up`` is given and whose ``gap`` (the chart's best minus runner-up, > 0) is finite and
    positive, with a column ``worth`` = ``meet`` × ``gap`` (``gap`` alone when ``meet`` is None),
    sorted by ``worth`` descending (stable: the table's order breaks ties), at most one row per
    value of the ``distinct`` columns (the first), the first ``k``.  Returns those rows (index
    kept).  Raises RuleError for a missing column or ``k`` < 1."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise RuleError(f"the cells per game must be a whole number from 1, got {k!r}")
    need = [clear, gap, "runner_up", *([meet] if meet else []), *(distinct or [])]
    missing = [c for c in need if c not in table]
    if missing:
        raise RuleError(f"the chart table has no column {', '.join(missing)}")
    runner = table["runner_up"]
    g = pd.to_numeric(table[gap], errors="coerce")
    keep = table[table[clear].astype(bool) & runner.notna() & (runner.astype(str) != "") & (g > 0)].copy()
    weight = pd.to_numeric(keep[meet], errors="coerce") if meet else 1.0
    keep["worth"] = weight * pd.to_numeric(keep[gap], errors="coerce")
    order = keep[keep["worth"].notna()].sort_values("worth", ascending=False, kind="stable")
    if distinct:
        order = order.drop_duplicates(list(distinct), keep="first")
    return order.head(int(k))


def looks(first: int, cap: int) -> tuple[int, ...]:
    """The planned looks of one cell, in deals: ``first``, ``2·first`` … below ``cap``, then
    ``cap`` (:func:`cardsim.sequential.schedule`).  Raises OptionError (a ValueError) for a
    number below 1."""
    return schedule(int(cap), int(first)) if first <= cap else (int(cap),)


def level(n_looks: int, error: float = ERROR) -> float:
    """The level of every interval of a cell played in ``n_looks`` planned looks: ``1 − error /
    n_looks``."""
    if n_looks < 1 or not 0 < error < 1:
        raise RuleError(f"looks must be at least 1 and the error in (0, 1), got {n_looks!r} and {error!r}")
    return 1.0 - error / n_looks


def interval(sums: dict | None, best: int, other: int, lvl: float, scale: float = 1.0) -> dict:
    """Option ``best`` minus option ``other`` (indices into the question's options) over the deals
    where both were legal, from question sums (``pair_n``, ``pair_s1``, ``pair_s2``: float64 ``(k,
    k)``, :func:`cardsim.questions.run_question`), times ``scale`` (100: percentage points):
    ``mean``, ``lo`` / ``hi`` at level ``lvl`` (NaN under 30 deals), ``sd`` of one deal's
    difference, ``n`` deals.  All NaN (n 0) when ``sums`` is None (no deal could be dealt)."""
    if sums is None:
        return {"mean": np.nan, "lo": np.nan, "hi": np.nan, "sd": np.nan, "n": 0}
    n = float(sums["pair_n"][best, other])
    mean, se, lo, hi = mean_interval(sums["pair_s1"][best, other], sums["pair_s2"][best, other], n, level=lvl)
    return {"mean": scale * float(mean) + 0.0, "lo": scale * float(lo) + 0.0, "hi": scale * float(hi) + 0.0,
            "sd": scale * float(se) * math.sqrt(n) + 0.0 if n > 1 else np.nan, "n": int(n)}


def decides(lo: float, hi: float, chart_gap: float) -> str | None:
    """Why a cell may stop at this look: :data:`BY_SIGN` (the interval ``[lo, hi]`` excludes 0),
    :data:`BY_WIDTH` (it is narrower than the chart's gap ``chart_gap`` > 0), or None (play on;
    also for an interval not computed, NaN)."""
    if not (lo == lo and hi == hi):
        return None
    if lo > 0 or hi < 0:
        return BY_SIGN
    if hi - lo < chart_gap:
        return BY_WIDTH
    return None


def verdict(lo: float, hi: float, chart_gap: float, n: int) -> tuple[str, str]:
    """``(verdict, decided by)`` of a cell whose pimc gap (best minus runner-up) has the interval
    ``[lo, hi]`` on ``n`` deals at its last look, the chart's gap being ``chart_gap`` (> 0):
    :data:`REVERSES` only when ``hi < 0``; :data:`AGREES` when ``lo > 0``, or when the interval is
    narrower than ``chart_gap`` (then it reaches less than the chart's gap below 0: no reversal
    that large); else :data:`UNDECIDED` (:data:`AT_CAP`; also with deals but no interval: under
    30); :data:`NO_DEALS` when no deal was compared (``n`` 0)."""
    if n == 0:
        return NO_DEALS, ""
    why = decides(lo, hi, chart_gap)
    if why is None:
        return UNDECIDED, AT_CAP
    if why == BY_SIGN:
        return (REVERSES if hi < 0 else AGREES), why
    return AGREES, why


def power(sd: float, n: int, chart_gap: float, lvl: float) -> float:
    """The chance that an interval at level ``lvl`` on ``n`` deals of per-deal spread ``sd`` lies
    wholly below 0 when the true pimc gap is ``−chart_gap`` (a reversal as large as the chart's
    gap): ``Φ(chart_gap·√n / sd − z)``, z the level's two-sided normal quantile; NaN without a
    spread or under 30 deals (no interval)."""
    from scipy.stats import norm

    if not (sd == sd) or sd <= 0 or n < MIN_N_NORMAL:
        return np.nan
    z = norm.ppf(0.5 + lvl / 2)
    return float(norm.cdf(chart_gap * math.sqrt(n) / sd - z))


def sentence(game: str, table: pd.DataFrame) -> str:
    """One sentence for a game's Answers from its check table (columns ``cell``, ``best``,
    ``runner_up``, ``verdict`` and the intervals ``heuristic_lo/hi``, ``pimc_lo/hi``): how many
    checked cells agree, reverse (each named with both intervals) or are not decidable; '' when
    no cell was checked with pimc."""
    rows = table[~table.verdict.isin([NOT_AVAILABLE])]
    if rows.empty:
        return ""
    count = {v: int((rows.verdict == v).sum()) for v in (AGREES, REVERSES, UNDECIDED, NO_DEALS)}
    parts = [f"{count[AGREES]} agree"]
    parts.append(f"{count[REVERSES]} reverse" + ("" if not count[REVERSES] else ": " + "; ".join(
        f"{r.cell}: {r.runner_up} beats {r.best} (pimc {r.pimc_gap:+.3g} [{r.pimc_lo:+.3g}, {r.pimc_hi:+.3g}], "
        f"heuristic {r.heuristic_gap:+.3g} [{r.heuristic_lo:+.3g}, {r.heuristic_hi:+.3g}])"
        for r in rows[rows.verdict == REVERSES].itertuples())))
    parts.append(f"{count[UNDECIDED]} not decidable at this size")
    if count[NO_DEALS]:
        parts.append(f"{count[NO_DEALS]} without deals")
    return (f"{game}: with pimc card play on every seat, of {len(rows)} chart cells checked "
            + ", ".join(parts) + ".")


__all__ = ["CELLS", "ERROR", "AGREES", "REVERSES", "UNDECIDED", "NO_DEALS", "NOT_AVAILABLE", "BY_SIGN", "BY_WIDTH",
           "AT_CAP", "RULE", "RuleError", "choose", "looks", "level", "interval", "decides", "verdict", "power",
           "sentence"]
