"""501's settled blind chart as exploit parameters (cardsim.analysis.g501.deviation, issue 46)."""
from __future__ import annotations

import pandas as pd
import pytest

from cardsim.analysis.g501 import deviation as D
from cardsim.analysis.g501.policy import chart_table
from cardsim.exploit import exploit
from cardsim.games.base import OptionError
from cardsim.strategies.registry import StrategyError

START = [(501, 0, p) for p in range(3)]


def _planted() -> str:
    """Every seat looks, except at the game's start (501, level, every position) where it bids blind
    up to 150: a bad cell that any seat gains by leaving."""
    return D.with_cells("chart:margin=5", dict.fromkeys(START, 150))


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
    assert D.deviations(70) == [("down", 0), ("up", 80)]
    assert D.deviations(90) == [("down", 80), ("up", 100), ("look", 0)]
    assert D.deviations(150) == [("down", 120), ("look", 0)]


def test_the_chart_as_an_arena():
    """The cells are the arena's parameters: digit 0..6, moves one step and to look."""
    spec = D.with_cell("chart:press=5", (300, -50, 2), 90)
    arena = D.ChartArena(spec)
    assert len(arena.tunables) == 126 and arena.objective.name == "win" and arena.objective.tolerance == 0.005
    point = arena.point(spec)
    assert point["300/-50/2"] == 3.0 and point["501/+0/0"] == 0.0
    assert arena.tunables["300/-50/2"].moves(3.0) == [0.0, 2.0, 4.0]  # look, 80, 100
    assert arena.tunables["501/+0/0"].moves(0.0) == [1.0] and arena.tunables["501/+0/0"].moves(6.0) == [0.0, 5.0]
    assert arena.spec({"300/-50/2": 0.0}) == D.with_cell(spec, (300, -50, 2), 0)
    assert arena.spec({}) == spec and arena.spec({"501/+0/1": 6}).endswith(",press=5")
    with pytest.raises(StrategyError, match="the chart has no cell '501/0/0'"):
        exploit(strategy=spec, arena=arena, n_matches=10, params=["501/0/0"], pairs=0)
    with pytest.raises(StrategyError, match="is not the chart strategy"):
        D.ChartArena("heuristic")


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
    cells = [(300, 0, 1), (501, 0, 0)]
    t = D.deviation_table(spec, 300, seed=3, n_jobs=1, cells=cells, frequency_matches=60)
    assert list(t.columns) == D.COLUMNS and len(t) == 3 and t.attrs["family"] == 3
    assert list(t.cell) == ["300/+0/1", "501/+0/0", "501/+0/0"]  # the cells in the order given
    assert list(t.deviation) == ["blind:70", "look", "blind:120"] and list(t.change) == ["up", "look", "down"]
    bad = t[t.cell == "501/+0/0"]
    assert (bad.policy == "blind:150").all() and bad.clear.all() and bad.exceeds.all()
    assert (bad.lo_pp > D.TOLERANCE_PP).all() and t.attrs["verdict"] == "exploitable"
    assert 100 * t.attrs["exploitability"]["gain"] == pytest.approx(t.gain_pp.max())
    assert t.attrs["exploitability"]["param"] == "501/+0/0" and (t.n == 300).all()
    # Bonferroni over the 3 deviations: exploit's rule, its z
    assert (t.hi_pp - t.gain_pp).to_numpy() == pytest.approx(2.393980 * t.se_pp.to_numpy(), rel=1e-5)
    assert "Bonferroni over the family of 3 deviations" in t.attrs["rule"]
    # the gain is the mean of the 3- and 4-seat tables'
    assert t.gain_pp.to_numpy() == pytest.approx(((t.gain_3_pp + t.gain_4_pp) / 2).to_numpy())
    again = D.deviation_table(spec, 300, seed=3, n_jobs=2, cells=cells, frequency_matches=60)
    pd.testing.assert_frame_equal(t, again)
    assert t.attrs["target"] == "missed"
    assert "exploit's verdict: exploitable (a gain clearly above 0 exists); the target of no gain above 0.5 pp: " \
        "missed." in D.sentence(t)


def test_the_target_reads_the_simultaneous_upper_ends():
    """A clear gain below 0.5 pp (501/+0/2 up to 90 at full size: +0.28 [+0.09, +0.47]) meets the
    issue's target (exploit's verdict: within tolerance, the gain marked clear)."""
    t = pd.DataFrame({"lo_pp": [0.09, -0.6], "hi_pp": [0.47, 0.0]})
    assert D.target(t) == "met"
    assert D.target(t.assign(hi_pp=[0.51, 0.0])) == "not decided at this size"
    assert D.target(t.assign(lo_pp=[0.52, -0.6], hi_pp=[0.9, 0.0])) == "missed"


def test_bad_input_is_one_line():
    with pytest.raises(OptionError, match="the number of matches"):
        D.deviation_table("chart", 0, cells=[(501, 0, 0)], frequency_matches=5, n_jobs=1)
    with pytest.raises(StrategyError, match="is not the chart strategy"):
        D.deviation_table("heuristic", 10, cells=[(501, 0, 0)])
    with pytest.raises(ValueError, match="the chart has no cell 501/\\+7/0"):
        D.deviation_table("chart", 10, cells=[(501, 7, 0)], frequency_matches=5, n_jobs=1)
