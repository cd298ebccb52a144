"""The interval functions of cardsim.stats pinned to values computed by hand from the formulas
(z = 1.959963984540054, the 97.5% normal quantile), so that a changed level or formula fails."""
import numpy as np
import pytest

from cardsim.stats import MIN_N_NORMAL, mean_interval, wilson

Z95 = 1.959963984540054
Z90 = 1.6448536269514722


def test_wilson_matches_the_score_interval_by_hand():
    # (p + z^2/2n) / (1 + z^2/n) -+ z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)
    lo, hi = wilson([3, 50, 0, 10, 0], [10, 100, 10, 10, 0])
    assert lo[:2] == pytest.approx([0.10779126740630099, 0.4038315303659956], rel=1e-12)
    assert hi[:2] == pytest.approx([0.6032218525388546, 0.5961684696340044], rel=1e-12)
    # no successes: exactly 0 below; no failures: exactly 1 above
    assert lo[2] == 0.0 and hi[2] == pytest.approx(0.2775327998628892, rel=1e-12)
    assert hi[3] == 1.0 and lo[3] == pytest.approx(0.7224672001371107, rel=1e-12)
    assert np.isnan(lo[4]) and np.isnan(hi[4])
    # one success: the formula, not 0; one deal: bounds, not NaN
    lo, hi = wilson([1, 0, 1], [10, 1, 1])
    assert list(lo) == pytest.approx([0.017876213095072868, 0.0, 0.20654931437723745], rel=1e-12)
    assert list(hi) == pytest.approx([0.4041500267952385, 0.7934506856227626, 1.0], rel=1e-12)
    # the formula leaves 2.8e-17 for no successes in 7: set to exactly 0
    assert float(wilson(0, 7)[0]) == 0.0


def test_wilson_at_another_level():
    lo, hi = wilson(3, 10, level=0.90)
    p, n, z = 0.3, 10, Z90
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (float(lo), float(hi)) == (pytest.approx(centre - half, rel=1e-12), pytest.approx(centre + half, rel=1e-12))


def test_mean_interval_matches_the_normal_interval_by_hand():
    # 30 values summing to 60 with squares summing to 200: mean 2, variance (200 - 30*4)/29 = 80/29
    mean, se, lo, hi = mean_interval(60.0, 200.0, 30)
    assert float(mean) == 2.0
    assert float(se) == pytest.approx(0.3032392174315614, rel=1e-12)  # sqrt(80/29/30)
    assert float(lo) == pytest.approx(1.405662055134029, rel=1e-12)   # 2 - Z95 * se
    assert float(hi) == pytest.approx(2.5943379448659707, rel=1e-12)
    assert float(lo) == pytest.approx(2.0 - Z95 * float(se), rel=1e-15)


def test_mean_interval_at_90_percent_is_narrower():
    _, se, lo, _ = mean_interval(60.0, 200.0, 30, level=0.90)
    assert float(lo) == pytest.approx(1.5012158733737702, rel=1e-12)  # 2 - Z90 * se
    assert float(lo) == pytest.approx(2.0 - Z90 * float(se), rel=1e-15)


def test_mean_interval_gives_bounds_from_min_n_normal_on():
    assert MIN_N_NORMAL == 30
    mean, se, lo, hi = mean_interval(58.0, 196.0, 29)  # one value fewer: a mean and se, no bounds
    assert float(mean) == 2.0 and np.isfinite(se) and np.isnan(lo) and np.isnan(hi)
    _, se1, _, _ = mean_interval(5.0, 13.0, 2)  # values 2 and 3: variance 0.5
    assert float(se1) == pytest.approx(0.5, rel=1e-15)
    mean0, se0, lo0, _ = mean_interval(0.0, 0.0, 0)
    assert np.isnan(mean0) and np.isnan(se0) and np.isnan(lo0)
    meanone, seone, _, _ = mean_interval(3.0, 9.0, 1)
    assert float(meanone) == 3.0 and np.isnan(seone)
    assert np.isnan(mean_interval(5.0, 25.0, 0)[0])  # no observations: no mean, whatever the sums say


def test_empty_cells_give_nan_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(wilson(0, 0)[0]) and np.isnan(wilson(0, 0)[1])
        assert all(np.isnan(x) for x in mean_interval(0.0, 0.0, 0)) and np.isnan(mean_interval(3.0, 9.0, 1)[1])
        # sums that are not a sample's (a nonzero total of no values, a variance from one value) divide by 0
        assert np.isnan(mean_interval(5.0, 25.0, 0)[0]) and np.isnan(mean_interval(3.0, 10.0, 1)[1])


def test_mean_interval_arrays_and_rounding_below_zero_variance():
    # identical values: the variance may come out a hair below 0; the se is then 0, not NaN
    mean, se, lo, hi = mean_interval(np.array([30 * 0.1, 60.0]), np.array([30 * 0.01, 200.0]), np.array([30, 30]))
    assert se[0] == pytest.approx(0.0, abs=1e-9) and lo[0] == pytest.approx(0.1) and hi[0] == pytest.approx(0.1)
    assert mean[1] == 2.0 and lo[1] == pytest.approx(1.405662055134029, rel=1e-12)
