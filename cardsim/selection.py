"""Honest selection: pick the best option on one half of a cell's deals, measure it on the other.

A chart cell plays up to a dozen options on the same deals and names the best.  Picking the
best and measuring its margin on the same deals overstates small margins (the winner's curse:
the option that looks best is, more often than not, one whose deals happened to go well).  So
:func:`cardsim.questions.run_question` keeps its sums per half of the deals as well (deal
number even: half 0, odd: half 1; keys ``half_legal``, ``half_s1``, ``half_s2`` of shape
``(2, k)`` and ``half_pair_n``, ``half_pair_s1``, ``half_pair_s2`` of shape ``(2, k, k)``), and
a cell's choice is made on half 0 (:func:`cardsim.ranking.rank` of half 0's paired sums, the
one ranking of every table) while its gains are estimated on half 1
(:func:`paired`, :func:`split_best`).  Given half 0, half 1's deals are independent of the
choice, so its paired mean is unbiased and its interval and p-value hold as for a comparison
fixed in advance.

A chart then calls a cell *clear* by a multiple-testing decision over its cells
(:func:`clear_cells`): the family is one chart's cells, the error rate :data:`RATE` one-sided
(a cell is clear only if its held-out 95% interval lies above 0), controlled by
Benjamini–Hochberg (:data:`METHOD`): of the cells a chart calls clear, the expected share
called clear by chance is at most :data:`RATE`.  docs/statistics.md says why.

Every function takes the sums of :func:`cardsim.questions.run_question` (float64 arrays) and
``sign``: -1.0 when the game's measure counts down (the question's ``lower_is_better``), so that
higher is better throughout.
"""
from __future__ import annotations

import numpy as np

from cardsim.ranking import rank_sums
from cardsim.stats import MIN_N_NORMAL, mean_interval

RATE = 0.025
"""Error rate of a chart's "clear" verdicts: one-sided, the share of a 95% two-sided interval
left below its lower end, so one cell alone is clear exactly when its interval lies above 0."""
METHOD = "fdr_bh"
"""The multiple-testing procedure over a chart's cells (a ``statsmodels.stats.multitest``
method name): Benjamini–Hochberg, controlling the false discovery rate at :data:`RATE`."""
HALF_KEYS = ("half_legal", "half_s1", "half_s2", "half_pair_n", "half_pair_s1", "half_pair_s2")
CHOOSE, ESTIMATE = 0, 1
"""The half the choice is made on and the half the gains are estimated on."""


class SelectionError(ValueError):
    """Sums without the per-half keys (an older run's), or a bad argument."""


def _halves(sums: dict) -> None:
    missing = [k for k in HALF_KEYS if k not in sums]
    if missing:
        raise SelectionError(f"the sums have no per-half keys ({', '.join(missing)}): they come from an older run; "
                             "play the question again")


def p_above(mean, se, n):
    """One-sided p-value of "the mean is above 0" (null: mean <= 0), normal approximation.

    float64 array; 1.0 (no evidence) where ``n < MIN_N_NORMAL`` or the mean is missing, as
    :func:`cardsim.stats.mean_interval` gives no interval there; with ``se == 0`` (every
    difference the same) 0.0 when the mean is above 0, else 1.0.  ``p < 0.025`` exactly when the
    95% interval of ``mean_interval`` lies above 0.
    """
    from scipy.stats import norm  # local: scipy is slow to import; only this function needs it

    mean, se, n = (np.asarray(x, dtype=np.float64) for x in (mean, se, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, mean / se, np.where(mean > 0, np.inf, -np.inf))
    p = norm.sf(z)
    return np.where((n >= MIN_N_NORMAL) & np.isfinite(mean) & ~np.isnan(se), p, 1.0)


def p_below(mean, se, n):
    """One-sided p-value of "the mean is below 0": :func:`p_above` of ``-mean``."""
    return p_above(-np.asarray(mean, dtype=np.float64), se, n)


def half_means(sums: dict, sign: float = 1.0) -> np.ndarray:
    """Mean score per half and option, float64 ``(2, k)``; NaN where an option was never legal."""
    _halves(sums)
    n = np.asarray(sums["half_legal"], dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, sign * np.asarray(sums["half_s1"], dtype=np.float64) / n, np.nan)


def ranked(means) -> list[int]:
    """Option indices best first by ``means`` (float[k]); ties keep option order, NaN last."""
    # argsort puts NaN last; "stable" keeps option order among equal means.
    return [int(i) for i in np.argsort(-np.asarray(means, dtype=np.float64), kind="stable")]


def paired(sums: dict, a: int, b: int, half: int = ESTIMATE, sign: float = 1.0) -> dict:
    """Option ``a`` minus option ``b`` on the deals of ``half`` where both were legal.

    Returns ``mean``, ``se``, ``lo``, ``hi`` (95% normal interval, NaN under MIN_N_NORMAL deals),
    ``p_above`` / ``p_below`` (one-sided p-values of a positive / negative mean) and ``n`` (deals).
    """
    _halves(sums)
    n = float(sums["half_pair_n"][half][a, b])
    mean, se, lo, hi = (float(x) for x in mean_interval(sign * sums["half_pair_s1"][half][a, b],
                                                        sums["half_pair_s2"][half][a, b], n))
    return {"mean": mean, "se": se, "lo": lo, "hi": hi, "p_above": float(p_above(mean, se, n)),
            "p_below": float(p_below(mean, se, n)), "n": n}


def split_best(sums: dict, options, sign: float = 1.0) -> dict:
    """The best and runner-up of ``options`` (names in the sums' option order) chosen on half 0,
    and the best's gain over the runner-up estimated on half 1.

    The choice is :func:`cardsim.ranking.rank` of half 0's paired sums (the ranking of every
    table: paired comparisons on the deals where both options were legal); options not compared
    there come after the ranked ones, so they are the runner-up only when fewer than two are ranked.

    Returns ``best``, ``runner_up`` (names; runner-up None with one option), ``best_index``,
    ``runner_up_index``, ``gain``, ``gain_se``, ``gain_lo``, ``gain_hi`` (score units, NaN with one
    option), ``p_value`` (one-sided, null: the best is no better than the runner-up; 1.0 with
    one option) and ``n`` (half-1 deals compared).  Raises SelectionError on sums without halves.
    """
    options = list(options)
    _halves(sums)
    order = rank_sums(sums, sign, half=CHOOSE).rows
    best = order[0]
    out = {"best": options[best], "best_index": best, "runner_up": None, "runner_up_index": None,
           "gain": np.nan, "gain_se": np.nan, "gain_lo": np.nan, "gain_hi": np.nan, "p_value": 1.0, "n": 0.0}
    if len(order) > 1:
        runner = order[1]
        g = paired(sums, best, runner, ESTIMATE, sign)
        out.update(runner_up=options[runner], runner_up_index=runner, gain=g["mean"], gain_se=g["se"],
                   gain_lo=g["lo"], gain_hi=g["hi"], p_value=g["p_above"], n=g["n"])
    return out


def split_best_ties(sums: dict, other: dict, options) -> dict:
    """:func:`split_best` of ``sums`` with pairs equal on half 0 decided by the ``other`` sums there
    (the same deals judged by another outcome, e.g. points beside games won; :func:`cardsim.ranking.rank`
    with ``then``), then by option order.  Returns ``best_index``, ``runner_up_index``, ``runner_up``, ``gain``,
    ``gain_lo``, ``gain_hi``, ``p_value`` (as :func:`split_best`); needs two options or more."""
    _halves(sums)
    _halves(other)
    order = rank_sums(sums, half=CHOOSE, then=other).rows
    best, runner = order[0], order[1]
    g = paired(sums, best, runner, ESTIMATE)
    return {"best_index": best, "runner_up_index": runner, "runner_up": list(options)[runner], "gain": g["mean"],
            "gain_lo": g["lo"], "gain_hi": g["hi"], "p_value": g["p_above"]}


def clear_cells(pvalues, rate: float = RATE, method: str = METHOD) -> np.ndarray:
    """Which cells of one chart are clear: bool array, one per p-value, by ``method`` over them all
    (``statsmodels.stats.multitest.multipletests``: "fdr_bh" Benjamini–Hochberg, "holm", ...) at
    ``rate``.  A missing p-value counts as 1.0 (the cell stays in the family, never clear).
    Raises SelectionError for a rate outside (0, 1) or an unknown method."""
    from statsmodels.stats.multitest import multipletests  # local: statsmodels is slow to import; only this function needs it

    if not 0 < rate < 1:
        raise SelectionError(f"the error rate must be between 0 and 1, got {rate}")
    p = np.asarray(pvalues, dtype=np.float64).ravel()
    if p.size == 0:
        return np.zeros(0, dtype=bool)
    p = np.where(np.isnan(p), 1.0, p)
    try:
        reject = multipletests(p, alpha=rate, method=method)[0]
    except ValueError as exc:
        raise SelectionError(f"unknown multiple-testing method {method!r} ({exc})") from None
    return np.asarray(reject, dtype=bool)


__all__ = ["RATE", "METHOD", "SelectionError", "p_above", "p_below", "half_means", "ranked", "paired",
           "split_best", "clear_cells"]
