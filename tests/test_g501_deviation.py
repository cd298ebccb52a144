"""501's settled blind chart as exploit parameters (cardsim.analysis.g501_deviation, issue 46)."""
from __future__ import annotations

import pandas as pd
import pytest

from cardsim.analysis import g501_deviation as D
from cardsim.analysis.g501_policy import chart_table
from cardsim.strategies.registry import StrategyError

START = [(501, 0, p) for p in range(3)]


def _planted() -> str:
    """Every seat looks, except at the game's start (501, level, every position) where it bids blind
    up to 150: a bad cell that any seat gains by leaving."""
    spec = "chart:margin=5"
    for cell in START:
        spec = D.with_cell(spec, cell, 150)
    return spec


def test_with_cell_and_the_deviations_of_a_cell():
    spec = D.with_cell("chart:margin=5", (300, -50, 2), 90)
    table = chart_table(spec).set_index(["own", "lead", "position"]).level
    assert table[(300, -50, 2)] == 90 and (table.drop((300, -50, 2)) == 0).all()
    assert spec.endswith(",margin=5") and D.with_cell(spec, (300, -50, 2), 0).startswith("chart:cells=000")
    with pytest.raises(ValueError, match="the chart has no cell 300/\\+25/2"):
        D.with_cell(spec, (300, 25, 2), 90)
    with pytest.raises(ValueError, match="level must be 0 \\(look\\) or one of 70, 80"):
        D.with_cell(spec, (300, -50, 2), 95)
    assert D.deviations(0) == [("up", 70)]
    assert D.deviations(70) == [("up", 80), ("down", 0)]
    assert D.deviations(90) == [("up", 100), ("down", 80), ("look", 0)]
    assert D.deviations(150) == [("down", 120), ("look", 0)]


def test_bonferroni_and_verdicts():
    assert D.bonferroni_z(1) == pytest.approx(1.959964, abs=1e-6)
    assert D.bonferroni_z(10) == pytest.approx(2.807034, abs=1e-6)
    assert D.verdict(0.6, 2.0) == "exploitable" and D.verdict(-0.9, 0.5) == "within 0.5 pp"
    assert D.verdict(0.4, 0.6) == "not decided at this size"


def test_cell_frequencies_count_every_seat_of_every_deal():
    freq = D.cell_frequencies("chart", 50, seed=2, n_jobs=1)
    import cardsim

    _, deals = cardsim.play_match("501", 50, seed=2, strategies=["chart"] * 3, seats=3, n_jobs=1)
    assert freq["count"].sum() == 3 * len(deals) and freq.played.sum() == pytest.approx(1.0)
    start = freq.set_index(["own", "lead", "position"])["count"]
    assert all(start[c] >= 50 for c in START)  # every game starts there, each seat in its position
    assert list(freq["count"]) == sorted(freq["count"], reverse=True) and len(freq) == 126


def test_a_planted_bad_cell_is_found_and_the_table_is_deterministic():
    spec = _planted()
    cells = [(501, 0, 0), (300, 0, 1)]
    t = D.deviation_table(spec, 300, seed=3, n_jobs=1, cells=cells, frequency_matches=60)
    assert list(t.columns) == D.COLUMNS and len(t) == 3 and t.attrs["family"] == 3
    top = t.iloc[0]
    assert top.cell == "501/+0/0" and top.policy == "blind:150" and top.verdict == "exploitable"
    assert top.lo_pp > D.TOLERANCE_PP and t.attrs["verdict"] == "exploitable"
    assert t.attrs["exploitability"]["gain_pp"] == top.gain_pp == t.gain_pp.max()
    assert t.gain_pp.is_monotonic_decreasing and (t.n == 300).all()
    # the simultaneous interval is Bonferroni over the 3 deviations
    z = D.bonferroni_z(3)
    assert (t.hi_pp - t.gain_pp).to_numpy() == pytest.approx(z * t.se_pp.to_numpy())
    assert "Bonferroni over the 3 deviations tried: each interval at 98.33% two-sided" in t.attrs["rule"]
    assert t.gain_pp.to_numpy() == pytest.approx(t[["gain_pos0_pp", "gain_pos1_pp", "gain_pos2_pp"]].mean(axis=1))
    again = D.deviation_table(spec, 300, seed=3, n_jobs=2, cells=cells, frequency_matches=60)
    pd.testing.assert_frame_equal(t, again)
    assert "verdict: exploitable" in D.sentence(t)


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="n_matches must be a whole number of games from 1, got 0"):
        D.deviation_table("chart", 0)
    with pytest.raises(StrategyError, match="is not the chart strategy"):
        D.deviation_table("heuristic", 10, cells=[(501, 0, 0)])
    with pytest.raises(ValueError, match="the chart has no cell 501/\\+7/0"):
        D.deviation_table("chart", 10, cells=[(501, 7, 0)], frequency_matches=5, n_jobs=1)
