"""Intervals for the tables: Wilson intervals for rates, normal intervals for means.

Everything works from mergeable sums (counts, sums, sums of squares; DESIGN.md property 6)
so a table over 10^8 deals never needs the rows.  The interval formulas are the libraries'
(statsmodels for Wilson, scipy for the normal quantile).
"""
from __future__ import annotations

import numpy as np

# scipy.stats and statsmodels are imported where they are used: they take longer to import
# than a small simulation takes to run, and most commands never need them.


def wilson(successes, n, level: float = 0.95):
    """Wilson score interval of ``successes / n``; arrays (float64) of lower and upper bounds.

    Where ``n == 0`` both bounds are NaN.  The bounds are exactly 0 with no successes and exactly
    1 with no failures (the formula leaves rounding errors such as 5.6e-17 there).
    """
    from statsmodels.stats.proportion import proportion_confint  # local: statsmodels is slow to import; only this function needs it

    successes = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(successes, safe, alpha=1 - level, method="wilson")
    lo = np.where(successes <= 0, 0.0, np.clip(lo, 0.0, 1.0))
    hi = np.where(successes >= n, 1.0, np.clip(hi, 0.0, 1.0))
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


MIN_N_NORMAL = 30
"""Fewest observations for which a normal interval of a mean is given (below: NaN bounds)."""


def mean_interval(total, total_sq, n, level: float = 0.95):
    """Mean, standard error and normal interval from ``sum``, ``sum of squares`` and ``n``.

    Returns four float64 arrays ``(mean, se, lower, upper)``; NaN where ``n == 0``; the
    standard error where ``n >= 2`` and the bounds where ``n >= MIN_N_NORMAL`` (a normal
    interval on two or three deals would only mislead).
    """
    total = np.asarray(total, dtype=np.float64)
    total_sq = np.asarray(total_sq, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = np.where(n > 1, (total_sq - n * mean**2) / (n - 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    from scipy.stats import norm  # local: scipy is slow to import; only this function needs it

    z = norm.ppf(0.5 + level / 2)
    enough = n >= MIN_N_NORMAL
    return mean, se, np.where(enough, mean - z * se, np.nan), np.where(enough, mean + z * se, np.nan)
