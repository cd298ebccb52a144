"""Deviation gains and arenas (cardsim/deviation.py, issue 46) and the tunable parameters of the registry."""
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from cardsim.compare import compare_matches
from cardsim.deviation import arena, deviation_gains, objectives
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.match_compare import match_compare
from cardsim.runner.files import OutputError
from cardsim.strategies.registry import Registry, StrategyError, Tunable


# ------------------------------------------------------------------------------- tunables
def test_the_heuristics_declare_the_issue_s_tunables():
    vint = get_game("vint").table.registry["heuristic"].tunables
    assert list(vint) == ["aggression", "partner_points", "partner_bid_points", "points_per_trick",
                          "contested_points", "nt_margin", "misfit_share", "honour_weight", "game_push"]
    assert vint["aggression"] == Tunable("aggression", -3.0, 3.0, 0.25, "real")
    assert get_game("500").table.registry["heuristic"].tunables["jump"] == Tunable("jump", 0.0, 1.0, 1.0, "bool")
    g501 = get_game("501").table.registry["heuristic"].tunables
    assert g501["blind_score"] == Tunable("blind_score", -500.0, 501.0, 50.0, "int")
    assert g501["blind_later"] == Tunable("blind_later", 0.0, 1.0, 0.1, "real")
    assert len(g501) == 12 and len(get_game("500").table.registry["heuristic"].tunables) == 11
    # strategies that bid like heuristic declare the same (those of their parameters they have)
    assert get_game("vint").table.registry["pimc"].tunables == vint
    assert "game_push" not in get_game("vint").table.registry["heuristic_v3"].tunables
    assert list(get_game("vint").table.registry["greedy"].tunables) == list(vint)[:4]
    assert get_game("500").table.registry["heuristic_v1"].tunables == get_game("500").table.registry["heuristic"].tunables
    assert set(get_game("501").table.registry["chart"].tunables) == {"margin", "abandon", "target_margin", "contest",
                                                                "press", "press_score"}
    assert get_game("501").table.registry["random"].tunables == {}


def test_a_tunable_moves_one_step_inside_its_range():
    t = Tunable("blind_score", -500.0, 501.0, 50.0, "int")
    assert t.moves(501.0) == [451.0] and t.moves(0.0) == [-50.0, 50.0]
    assert Tunable("misfit_share", 0.0, 0.5, 0.05).moves(0.2) == [0.15, 0.25]
    assert t.describe() == "tunable -500 to 501, step 50"
    with pytest.raises(StrategyError, match="outside its tunable range -500 to 501"):
        t.check(600.0, "heuristic")


@pytest.mark.parametrize("tunables,text", [
    ({"b": (0, 1, 0.1)}, "not its parameters"),
    ({"a": (0, 1, 0)}, "step > 0"),
    ({"a": (-5, 1, 0.5)}, "bounds"),  # the range must lie inside the parameter's bounds
    ({"a": (0.5, 1, 0.1)}, "default"),  # the default must lie inside the range
    ({"n": (0, 4, 0.5)}, "whole"),
])
def test_bad_tunable_declarations_are_refused(tunables, text):
    with pytest.raises(ValueError, match=text):
        Registry("x").add("s", 0, {"a": 0.2, "n": 1.0}, bounds={"a": (-1, 1)}, kinds={"n": "int"},
                          tunables=tunables)


def test_strategies_lists_range_and_step():
    out = subprocess.run([sys.executable, "-m", "cardsim", "strategies", "vint"], capture_output=True, text=True,
                         check=True).stdout
    assert "aggression = 0 (a number from -13 to 13) [tunable -3 to 3, step 0.25]" in out


# ------------------------------------------------------------------------------ objectives
def test_each_game_declares_its_objectives_default_first():
    assert list(objectives("vint")) == ["points", "win"] and objectives("vint")["points"].tolerance == 25.0
    assert list(objectives("500"))[0] == "win" and objectives("500")["win"].tolerance == 0.005
    assert list(objectives("501")) == ["win"]
    assert objectives("vint")["points"].columns() == ["win_gain"]
    assert objectives("500")["win"].columns() == ["gain_quebec", "gain_subtract"]
    assert objectives("501")["win"].columns() == ["gain_3", "gain_4"]


# ------------------------------------------------------------------------------- gains
@pytest.mark.parametrize("game", ["vint", "500", "501"])
def test_a_spec_against_itself_gains_exactly_zero(game):
    t = deviation_gains(game, "heuristic", ["heuristic", "heuristic_v1"], 40, seed=3, n_jobs=1)
    assert list(t.deviant) == ["heuristic", "heuristic_v1"] and (t.n == 40).all()
    row = t.iloc[0]
    assert row.gain == 0.0 and row.se == 0.0
    assert all(row[c] == 0.0 for c in objectives(game)[t.objective[0]].columns())


def test_vint_gain_is_match_compare_s_paired_margin():
    t = deviation_gains("vint", "heuristic", ["heuristic:aggression=0.25"], 150, seed=7, n_jobs=1)
    m = match_compare("vint", 150, "heuristic:aggression=0.25", "heuristic", seed=7).set_index("measure")
    assert t.gain[0] == pytest.approx(m.loc["margin", "mean"], abs=1e-9)
    assert t.se[0] == pytest.approx(m.loc["margin", "se"], rel=1e-9)
    assert t.win_gain[0] == pytest.approx(m.loc["win", "mean"] - 0.5, abs=1e-12)


def test_vint_quarter_trick_bolder_gains_clearly():
    # issue 46's table: +508 points a rubber [+480, +536] on 20,000 rubbers, against the default of
    # then (heuristic_v4; the tuned default took that step)
    t = deviation_gains("vint", "heuristic_v4", ["heuristic_v4:aggression=0.25"], 800, seed=11, n_jobs=1)
    assert t.gain[0] - 3 * t.se[0] > 0 and 300 < t.gain[0] < 700
    assert t.win_gain[0] > 0.05  # the issue's 62.2% of rubbers


def test_five_hundred_averages_its_two_scorings():
    t = deviation_gains("500", "heuristic", ["heuristic:margin=1"], 120, seed=2, n_jobs=1)
    for scoring in ("quebec", "subtract"):
        m = match_compare("500", 120, "heuristic:margin=1", "heuristic", seed=2,
                          rules={"scoring": scoring}).set_index("measure")
        assert t[f"gain_{scoring}"][0] == pytest.approx(m.loc["win", "mean"] - 0.5, abs=1e-12)
    assert t.gain[0] == pytest.approx((t.gain_quebec[0] + t.gain_subtract[0]) / 2, abs=1e-12)
    assert t.gain[0] < 0  # a trick more cautious: 24.8% of games in issue 46


def _seat_shares(seats):
    def measure(m: pd.DataFrame) -> pd.DataFrame:
        won = np.stack([m[f"win_{s}"].to_numpy(np.float64, na_value=0.0) for s in range(seats)], axis=1)
        n = won.sum(1, keepdims=True)
        return pd.DataFrame(np.where(n > 0, won / np.maximum(n, 1), 1 / seats), columns=[f"s{s}" for s in range(seats)])
    return measure


def test_501_rotates_the_deviating_seat_through_every_position_and_averages_the_tables():
    deviant, base, n = "heuristic:margin=10", "heuristic", 60
    t = deviation_gains("501", base, [deviant], n, seed=4, n_jobs=1)
    per_table = []
    for seats in (3, 4):
        variants = {f"p{s}": [deviant if k == s else base for k in range(seats)] for s in range(seats)}
        c = compare_matches("501", n, [base] * seats, variants, _seat_shares(seats), seed=4, seats=seats, n_jobs=1)
        c = c.set_index(["variant", "measure"])
        per_table.append(np.mean([c.loc[(f"p{s}", f"s{s}"), "diff"] for s in range(seats)]))
        assert t[f"gain_{seats}"][0] == pytest.approx(per_table[-1], abs=1e-12)
    assert t.gain[0] == pytest.approx(np.mean(per_table), abs=1e-12)


def test_deterministic_for_a_seed_and_the_same_for_any_jobs():
    args = ("500", "heuristic", ["heuristic:margin=-1", "heuristic:kitty=1"], 300)
    one = deviation_gains(*args, seed=5, n_jobs=1, chunk_size=100)
    two = deviation_gains(*args, seed=5, n_jobs=2, chunk_size=100)
    pd.testing.assert_frame_equal(one, two)
    other = deviation_gains(*args, seed=6, n_jobs=1, chunk_size=100)
    assert not np.array_equal(one.gain, other.gain)


def test_resumes_from_a_store(tmp_path):
    args = ("500", "heuristic", ["heuristic:margin=-1"], 300)
    whole = deviation_gains(*args, seed=8, n_jobs=1, chunk_size=100)
    deviation_gains(*args, seed=8, n_jobs=1, chunk_size=100, store=tmp_path / "s")
    chunks = sorted((tmp_path / "s").glob("chunk-*.pkl"))
    assert len(chunks) == 3
    chunks[1].unlink()  # as if the run had stopped before this chunk
    resumed = deviation_gains(*args, seed=8, n_jobs=1, chunk_size=100, store=tmp_path / "s")
    pd.testing.assert_frame_equal(whole, resumed)
    assert chunks[1].exists()
    with pytest.raises(OutputError):  # the store holds another run
        deviation_gains("500", "heuristic", ["heuristic:margin=1"], 300, seed=8, n_jobs=1, chunk_size=100,
                        store=tmp_path / "s")


@pytest.mark.parametrize("kwargs,error,text", [
    ({"objective": "points"}, OptionError, "501 has no objective 'points' \\(objectives: win\\)"),
    ({"deviants": []}, OptionError, "non-empty list"),
    ({"deviants": ["heuristic:nope=1"]}, StrategyError, "no parameter 'nope'"),
    ({"n_matches": 0}, OptionError, "number of matches"),
])
def test_bad_arguments_are_one_line_errors(kwargs, error, text):
    args = {"game": "501", "baseline": "heuristic", "deviants": ["heuristic:margin=5"], "n_matches": 10, **kwargs}
    with pytest.raises(error, match=text):
        deviation_gains(**args)


# ------------------------------------------------------------------------------- arenas
def test_an_arena_maps_points_and_specs():
    a = arena("vint", "heuristic:aggression=0.75")
    assert a.objective.name == "points" and list(a.tunables)[0] == "aggression"
    p = a.point("heuristic:aggression=0.75")
    assert p["aggression"] == 0.75 and p["game_push"] == 0.0  # the tuned default's
    assert a.spec(p) == "heuristic:aggression=0.75"
    assert a.spec({"aggression": 0.5, "nt_margin": 0.5}) == "heuristic:nt_margin=0.5"  # 0.5 is the default
    assert arena("vint", "pimc:worlds=8").spec({"aggression": 0.75}) == "pimc:worlds=8,aggression=0.75"
    with pytest.raises(StrategyError, match="'worlds' of 'pimc' is not tunable"):
        arena("vint", "pimc").spec({"worlds": 4})
    with pytest.raises(StrategyError, match="no parameter 'bogus'"):
        a.spec({"bogus": 1})
    with pytest.raises(StrategyError, match="outside its tunable range -3 to 3"):
        arena("vint", "heuristic:aggression=5")
    with pytest.raises(StrategyError, match="no tunable parameters"):
        arena("vint", "random")
    with pytest.raises(OptionError, match="no objective 'score'"):
        arena("500", objective="score")


def test_arena_gains_are_deviation_gains_of_the_specs():
    a = arena("500")
    g = a.gains(a.point("heuristic"), [{"margin": 1.0}, {}], 50, seed=1, n_jobs=1)
    d = deviation_gains("500", "heuristic", ["heuristic:margin=1", "heuristic"], 50, seed=1, n_jobs=1)
    pd.testing.assert_frame_equal(g, d)
