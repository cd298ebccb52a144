"""Paired match comparisons (cardsim/match_compare.py, issue 30): the variant in one partnership and
the baseline in the other, then the partnerships exchanged on the same matches, paired per match."""
import numpy as np
import pytest

import cardsim
from cardsim.games.base import OptionError
from cardsim.match_compare import match_compare, seatings, team0_values


def test_a_strategy_against_itself_is_exactly_even():
    r = match_compare("vint", 60, "heuristic", "heuristic", seed=3).set_index("measure")
    assert r.loc["win", "mean"] == 0.5 and r.loc["margin", "mean"] == 0.0
    assert not r.clear.any() and (r.n == 60).all()


def test_exchanging_variant_and_baseline_mirrors_the_result():
    a = match_compare("vint", 80, "heuristic_v3", "heuristic", seed=5, before=[300, 100, 0, 1], dealer=2)
    b = match_compare("vint", 80, "heuristic", "heuristic_v3", seed=5, before=[300, 100, 0, 1], dealer=2)
    a, b = a.set_index("measure"), b.set_index("measure")
    assert a.loc["win", "mean"] == pytest.approx(1.0 - b.loc["win", "mean"])
    assert a.loc["margin", "mean"] == pytest.approx(-b.loc["margin", "mean"])
    assert a.loc["win", "lo"] <= a.loc["win", "mean"] <= a.loc["win", "hi"]


def test_per_match_values_follow_the_match_rows():
    first, swapped = seatings("heuristic_v3", "heuristic")
    assert first == ["heuristic_v3", "heuristic"] * 2 and swapped == ["heuristic", "heuristic_v3"] * 2
    m, _ = cardsim.play_match("vint", 30, seed=2, strategies=first, n_jobs=1)
    win0, margin0 = team0_values("vint", m)
    assert np.array_equal(win0, (m.winner == 0).to_numpy(np.float64))
    assert np.array_equal(margin0, (m.points_0.astype("int64") - m.points_1.astype("int64")).to_numpy(np.float64))
    r = match_compare("vint", 30, "heuristic_v3", "heuristic", seed=2)
    assert r.attrs["win_first"] == pytest.approx(win0.mean())


def test_games_without_partnerships_are_refused():
    with pytest.raises(OptionError, match="partnership games"):
        match_compare("501", 10, "heuristic", "heuristic_v1")
