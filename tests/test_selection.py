"""Honest selection (cardsim.selection) and the chart verdict rules (cardsim.analysis.verdicts):
per-half sums, p-values at their boundaries, the multiple-testing decision, a null chart (all
options equal by construction: at most the stated share called clear), a planted chart (found,
its gain estimated without bias), and each verdict rule just inside and just outside."""
import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis import verdicts as V
from cardsim.analysis.vint import charts as vc
from cardsim.questions import half_sums, merge_sums
from cardsim.selection import (RATE, SelectionError, clear_cells, half_means, p_above, p_below, paired, ranked,
                               split_best)
from cardsim.stats import mean_interval
from selection_helpers import planted, sums_of

Z95 = 1.959963984540054


# ---------------------------------------------------------------- per-half sums
def test_halves_add_up_to_the_whole_and_follow_the_deal_number():
    rng = np.random.default_rng(0)
    scores = rng.integers(-50, 50, size=(4, 101)).astype(float)
    legal = rng.random((4, 101)) < 0.8
    s = sums_of(scores, legal)
    for key in ("legal", "s1", "s2", "pair_n", "pair_s1", "pair_s2"):
        assert np.array_equal(s[f"half_{key}"].sum(axis=0), s[key]), key
    # half 0 = even deal numbers: option 2's legal scores on deals 0, 2, ..., 100
    assert s["half_s1"][0][2] == scores[2, 0::2][legal[2, 0::2]].sum()
    both = legal[0, 1::2] & legal[3, 1::2]
    d = scores[0, 1::2][both] - scores[3, 1::2][both]
    assert (s["half_pair_n"][1][0, 3], s["half_pair_s1"][1][0, 3], s["half_pair_s2"][1][0, 3]) == \
        (both.sum(), d.sum(), (d ** 2).sum())


def test_chunks_merge_to_the_whole_run_whatever_their_start():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(3, 20))
    oks = list(rng.random((3, 20)) < 0.9)
    whole = half_sums(0, oks, list(scores))
    parts = [half_sums(0, [o[:7] for o in oks], [x[:7] for x in scores]),
             half_sums(7, [o[7:] for o in oks], [x[7:] for x in scores])]  # an odd start: parity by deal number
    merged = merge_sums(parts)
    for key, value in whole.items():
        assert np.allclose(merged[key], value), key


def test_merge_keeps_only_the_keys_every_chunk_has():
    old = {"deals": 5, "s1": np.ones(2)}
    new = {"deals": 5, "s1": np.ones(2), "half_s1": np.ones((2, 2))}
    merged = merge_sums([new, old])
    assert set(merged) == {"deals", "s1"} and merged["deals"] == 10
    with pytest.raises(SelectionError, match=r"no per-half keys \(half_legal, half_s1, .*older run; play the "
                                              r"question again$"):
        half_means(merged)


def test_half_means_by_hand():
    import warnings

    s = {key: np.zeros((2, 3)) for key in ("half_legal", "half_s1", "half_s2")}
    s |= {key: np.zeros((2, 3, 3)) for key in ("half_pair_n", "half_pair_s1", "half_pair_s2")}
    s["half_legal"][:] = [[1, 4, 0], [2, 0, 5]]
    s["half_s1"][:] = [[3, 10, 0], [-4, 0, 5]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a never-legal option is NaN, silently
        m = half_means(s, sign=-1.0)
    assert m[0, :2].tolist() == [-3.0, -2.5] and np.isnan(m[0, 2])
    assert m[1, 0] == 2.0 and np.isnan(m[1, 1]) and m[1, 2] == -1.0
    assert half_means(s)[0, :2].tolist() == [3.0, 2.5]  # sign +1 unless told


# ---------------------------------------------------------------- p-values and the rule
def test_p_above_is_the_normal_tail_and_one_where_nothing_is_known():
    assert float(p_above(Z95, 1.0, 30)) == pytest.approx(0.025, rel=1e-12)
    assert float(p_above(0.0, 1.0, 30)) == 0.5
    assert float(p_below(-Z95, 1.0, 30)) == pytest.approx(0.025, rel=1e-12)
    assert float(p_above(5.0, 1.0, 29)) == 1.0  # fewer than MIN_N_NORMAL deals: no interval, no evidence
    assert float(p_above(np.nan, 1.0, 100)) == 1.0 and float(p_above(1.0, np.nan, 100)) == 1.0
    assert float(p_above(2.0, 0.0, 100)) == 0.0 and float(p_above(0.0, 0.0, 100)) == 1.0
    assert float(p_above(-2.0, 0.0, 100)) == 1.0 and float(p_above(0.5, 0.0, 100)) == 0.0
    assert float(p_below(-0.5, 0.0, 100)) == 0.0 and float(p_below(0.5, 0.0, 100)) == 1.0
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert p_above([1.0, 0.0, np.nan], [0.0, 0.0, 1.0], [100, 100, 100]).tolist() == [0.0, 1.0, 1.0]


def test_clear_cells_benjamini_hochberg_and_holm_by_hand():
    p = [0.02, 0.001, 0.5, 0.01]
    # BH at 0.025: sorted 0.001, 0.01, 0.02, 0.5 against 0.00625, 0.0125, 0.01875, 0.025
    assert list(clear_cells(p)) == [False, True, False, True]
    # Holm: 0.001 <= 0.025/4, then 0.01 > 0.025/3 stops
    assert list(clear_cells(p, method="holm")) == [False, True, False, False]
    assert list(clear_cells([0.03, np.nan, 0.0])) == [False, False, True]
    assert clear_cells([]).shape == (0,) and clear_cells([]).dtype == bool
    assert clear_cells([0.001, np.nan, np.nan, np.nan], method="holm").tolist() == [True, False, False, False]
    assert RATE == 0.025


def test_one_cell_is_clear_just_inside_the_rate_and_not_just_outside():
    assert list(clear_cells([RATE])) == [True] and list(clear_cells([RATE * (1 + 1e-9)])) == [False]
    assert list(V.chart_clear([RATE * (1 - 1e-9)])) == [True] and list(V.chart_clear([RATE + 1e-9])) == [False]


def test_clear_cells_refuses_bad_arguments():
    with pytest.raises(SelectionError, match="between 0 and 1"):
        clear_cells([0.1], rate=0.0)
    with pytest.raises(SelectionError, match="between 0 and 1"):
        clear_cells([0.1], rate=1.0)
    with pytest.raises(SelectionError, match="unknown multiple-testing method"):
        clear_cells([0.1], method="fdr_nonsense")


def test_ranked_keeps_option_order_on_ties_and_puts_missing_last():
    assert ranked([1.0, 3.0, 3.0, np.nan, 2.0]) == [1, 2, 4, 0, 3]
    assert ranked([np.nan, 1.0]) == [1, 0]
    assert ranked([0.0] * 40 + [1.0]) == [40] + list(range(40))  # long ties keep option order (stable sort)


# ---------------------------------------------------------------- a cell at the boundary, from sums
def _cell(gap: float, b: float = 1.0) -> dict:
    """Two options on 200 deals: equal on half 0 but option 1 ahead by 1 (so it is chosen);
    on half 1 option 1 minus option 0 alternates gap + b, gap - b (sd b * sqrt(100/99))."""
    scores = np.zeros((2, 200))
    scores[1, 0::2] = 1.0
    scores[1, 1::2] = gap + np.tile([b, -b], 50)
    return sums_of(scores)


def _se(b: float = 1.0) -> float:
    return b * np.sqrt(100 / 99) / 10


@pytest.mark.parametrize("factor, clear", [(1 + 1e-6, True), (1 - 1e-6, False)])
def test_a_gap_is_clear_exactly_when_its_held_out_interval_is_above_zero(factor, clear):
    split = split_best(_cell(Z95 * _se() * factor), ["P", "1H"])
    assert split["best"] == "1H" and split["runner_up"] == "P"
    assert (split["gain_lo"] > 0) == clear
    assert bool(V.chart_clear([split["p_value"]])[0]) == clear
    # a Vint chart of that cell says the same
    row = {"chart": "opening", "gap": split["gain"], "gap_lo": split["gain_lo"], "gap_hi": split["gain_hi"],
           "p_value": split["p_value"], "default_p": 1.0}
    assert bool(vc.chart_tables([row])["vint_chart_opening"].clear[0]) == clear


def test_split_best_reads_the_sign_and_one_option():
    s = _cell(5.0)
    down = split_best(s, ["P", "1H"], sign=-1.0)  # counted down: lower is better
    assert (down["best"], down["best_index"], down["runner_up"], down["runner_up_index"]) == ("P", 0, "1H", 1)
    assert down["gain"] == pytest.approx(5.0) and down["n"] == 100.0  # P gains 5 by counting down
    up = split_best(s, ["P", "1H"])
    assert (up["runner_up_index"], up["gain_se"], up["n"]) == (0, pytest.approx(_se()), 100.0)
    one = sums_of(np.zeros((1, 100)))
    assert split_best(one, ["P"]) == {"best": "P", "best_index": 0, "runner_up": None, "runner_up_index": None,
                                      "gain": pytest.approx(np.nan, nan_ok=True),
                                      "gain_se": pytest.approx(np.nan, nan_ok=True),
                                      "gain_lo": pytest.approx(np.nan, nan_ok=True),
                                      "gain_hi": pytest.approx(np.nan, nan_ok=True), "p_value": 1.0, "n": 0.0}
    g = paired(s, 1, 0)
    assert g["n"] == 100 and g["mean"] == pytest.approx(5.0) and g["se"] == pytest.approx(_se())
    assert g["p_above"] < 1e-100 and g["p_below"] == 1.0
    assert paired(s, 0, 1)["p_below"] < 1e-100 and paired(s, 0, 1)["p_above"] == 1.0


# ---------------------------------------------------------------- 501 verdicts at their boundary
def _decision_frame(blind_gain, blind_lo, blind_hi, look_best=False) -> pd.DataFrame:
    """One 501 situation: look and blind:90; the blind level's held-out gain over looking given
    as (gain, lo, hi) in pp (1000 deals); look is chosen on half 0 when ``look_best``."""
    se = (blind_hi - blind_lo) / (2 * Z95)
    rows = []
    for option, gain, lo, hi, win0 in (("look", 0.0, 0.0, 0.0, 0.30),
                                      ("blind:90", blind_gain, blind_lo, blind_hi, 0.25 if look_best else 0.35)):
        p_gain = 1.0 if option == "look" else float(p_above(gain, se, 1000))
        p_loss = 1.0 if option == "look" else float(p_below(gain, se, 1000))
        rows.append({"own": 300, "lead": 0, "opp": 300, "position": 1, "option": option,
                     "level": 0 if option == "look" else 90, "deals": 1000, "legal": 1.0, "made": 0.5, "win": win0,
                     "win_lo": win0 - 0.02, "win_hi": win0 + 0.02, "gain_pp": gain, "gain_lo": lo, "gain_hi": hi,
                     "diff_best_pp": 0.0, "diff_best_lo": 0.0, "diff_best_hi": 0.0, "win_half0": win0,
                     "rank_half0": 1 if (option == "look") == look_best else 2,
                     "gain_half1_pp": gain, "gain_half1_lo": lo, "gain_half1_hi": hi, "p_gain": p_gain,
                     "p_loss": p_loss})
    return pd.DataFrame(rows, columns=B.DECISION_COLUMNS)


@pytest.mark.parametrize("eps, verdict", [(1e-6, "blind to 90"), (-1e-6, V.NO_CLEAR)])
def test_blind_is_clear_exactly_when_the_gain_interval_is_above_zero(eps, verdict):
    # gain 1.0 pp with lower bound eps: clear just above 0, not just below
    r = B.choices(_decision_frame(1.0, eps, 2.0 - eps)).iloc[0]
    assert r.best == "blind:90" and r.verdict == verdict
    assert (r.p_value < RATE) == (eps > 0)


@pytest.mark.parametrize("eps, verdict", [(1e-6, V.LOOK), (-1e-6, V.NO_CLEAR)])
def test_look_is_clear_exactly_when_every_blind_interval_is_below_zero(eps, verdict):
    r = B.choices(_decision_frame(-1.0, -2.0 + eps, -eps, look_best=True)).iloc[0]
    assert r.best == "look" and r.verdict == verdict and r.gain_pp == 0.0


def test_look_p_is_the_largest_blind_p_and_decision_p_picks_the_test():
    assert V.look_p([0.01, 0.02, 0.001]) == 0.02
    assert V.look_p([0.01, np.nan]) == 1.0 and V.look_p([]) == 1.0
    assert V.decision_p("blind:90", 0.003, [0.5, 0.6]) == 0.003
    assert V.decision_p("look", 0.003, [0.01, 0.02]) == 0.02
    assert V.decision_p("blind:90", np.nan, []) == 1.0
    assert V.blind_verdict("blind:90", True, "90-120") == "blind to 90-120"
    assert V.blind_verdict("look", True, "") == "look"
    assert V.blind_verdict("blind:90", False, "90") == V.NO_CLEAR == V.blind_verdict("look", False, "")


# ---------------------------------------------------------------- null and planted charts
def _chart(rng, cells: int, k: int, n: int, gaps) -> list[dict]:
    out = []
    for c in range(cells):
        best = int(rng.integers(k))
        out.append((best, split_best(sums_of(planted(k, n, best, gaps[c], rng)), range(k))))
    return out


def test_a_null_chart_calls_at_most_the_stated_share_clear():
    # 200 cells of 8 equal options each: every "clear" is chance
    rng = np.random.default_rng(2026)
    cells = _chart(rng, 200, 8, 400, [0.0] * 200)
    clear = V.chart_clear([s["p_value"] for _, s in cells])
    assert clear.sum() <= RATE * len(cells)
    # the held-out gaps of the chosen best over the runner-up are centred on 0 (no winner's curse) ...
    gaps = np.array([s["gain"] for _, s in cells])
    assert abs(gaps.mean()) < 3 * gaps.std() / np.sqrt(len(gaps))


def test_null_charts_rarely_call_any_cell_clear():
    # Benjamini-Hochberg under the complete null: P(any cell clear) <= RATE; 40 charts of 50 cells
    rng = np.random.default_rng(7)
    charts = [V.chart_clear([s["p_value"] for _, s in _chart(rng, 50, 6, 200, [0.0] * 50)]).any() for _ in range(40)]
    assert sum(charts) <= 4  # expected at most 1 (binomial(40, 0.025): 4 or more has probability 0.007)


def test_choosing_and_measuring_on_the_same_deals_would_flatter_the_best():
    # the rule this replaces: best and gap on the same deals
    rng = np.random.default_rng(11)
    gaps = []
    for _ in range(200):
        s = sums_of(planted(8, 400, 0, 0.0, rng))
        means = s["s1"] / s["legal"]
        best, runner = ranked(means)[:2]
        gap, _, _, _ = mean_interval(s["pair_s1"][best, runner], s["pair_s2"][best, runner], s["pair_n"][best, runner])
        gaps.append(gap)
    # all options equal, yet the gap is positive on average (the winner's curse: 0.027, 16 standard errors)
    assert np.mean(gaps) > 5 * np.std(gaps) / np.sqrt(len(gaps))


def test_a_planted_chart_is_found_and_its_gain_estimated_without_bias():
    # 100 cells, half with one option better by 0.7 (se of a held-out gap about 0.1), half null
    rng = np.random.default_rng(5)
    gaps = [0.7 if c % 2 == 0 else 0.0 for c in range(100)]
    cells = _chart(rng, 100, 8, 400, gaps)
    clear = V.chart_clear([s["p_value"] for _, s in cells])
    found = [c for c in range(100) if gaps[c] > 0]
    assert all(clear[c] and cells[c][1]["best_index"] == cells[c][0] for c in found)
    false = sum(clear[c] for c in range(100) if gaps[c] == 0)
    assert false <= max(1, RATE * clear.sum())
    est = np.array([cells[c][1]["gain"] for c in found])
    se = np.array([cells[c][1]["gain_se"] for c in found])
    # each estimate within its interval of the planted gain, and the mean unbiased
    covered = np.mean([cells[c][1]["gain_lo"] <= 0.7 <= cells[c][1]["gain_hi"] for c in found])
    assert covered >= 0.88
    assert abs(est.mean() - 0.7) < 3 * np.sqrt((se ** 2).sum()) / len(est)
