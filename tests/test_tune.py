"""cardsim tune (cardsim/tune.py, issue 46): the stand-in's known equilibrium from several starts, a
variant whose best responses alternate (a cycle), the budget, determinism, any jobs, resuming after
kill -9, the outputs and bad input."""
import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from cardsim import standin
from cardsim.cli import main
from cardsim.games.base import OptionError
from cardsim.runner.files import OutputError
from cardsim.strategies.registry import StrategyError
from cardsim.tune import measurement_seed, tune

N = 200_000
"""Matches a deviation on the stand-in (its exploit default).  The se of a one-step gain is then
about 0.11 pp (half the matches paired with the population's), the family of 16 deviations puts z
at 2.96, so a step is clear above about 0.34 pp and one gaining 0.75 pp is missed with probability
below 1e-4.  A step towards the equilibrium from d steps away gains CURVATURE · step² · (2d − 1):
x 0.5 pp · (2d − 1), y 0.25 pp · (2d − 1), z 0.31 pp · (2d − 1).  From two steps away every
parameter gains at least 0.75 pp, so the search ends **within one step** of the equilibrium in x,
y and z (the tolerance asserted); u, v and w have no effect (any value is an equilibrium)."""
EFFECTIVE = ("x", "y", "z")
STEP = {"x": 0.05, "y": 0.05, "z": 0.25}


def _exact_best_gain(point: dict, name: str) -> float:
    """The exact gain of the better one-step deviation of ``name`` against the population at ``point``."""
    t = standin.arena().tunables[name]
    return max(standin.win_probability(dict(point, **{name: v}), point) - 0.5 for v in t.moves(point[name]))


@pytest.mark.parametrize("start", ["standin", "standin:x=0,y=1,z=0,w=1", "standin:x=1,y=0,z=4,u=1,v=-1"])
def test_finds_the_equilibrium_within_one_step_from_several_starts(start):
    r = tune(None, start, arena=standin.arena(), n_matches=N, seed=3, n_jobs=1)
    assert r.ended == "equilibrium" and r.cycle is None
    for name in EFFECTIVE:
        assert abs(r.point[name] - standin.EQUILIBRIUM[name]) <= STEP[name] + 1e-12, (start, r.point)
        assert _exact_best_gain(r.point, name) <= 0.005  # the objective's tolerance, 0.5 pp
    assert r.exploit is not None and not r.exploit.clear.any()
    assert r.spec == standin.arena().spec(r.point) and r.start == standin.arena().point(start)
    # every move was a clear gain, and the trajectory ends at the point
    t = r.trajectory
    assert (t[t.moved].lo > 0).all() and t.point.iloc[-1] == r.point
    assert r.used == N * len(t[t.kind == "step"]) + N * len(r.exploit)


def test_the_planted_start_moves_x_up_and_nothing_else_first():
    r = tune(None, "standin", arena=standin.arena(), n_matches=N, seed=1, n_jobs=1)
    first = r.trajectory.iloc[:2]
    assert first.param.tolist() == ["x", "x"] and first.value.tolist() == [0.25, 0.35]
    assert first.moved.tolist() == [False, True]
    assert first.gain.iloc[1] == pytest.approx(0.035, abs=4 * first.se.iloc[1])  # 2·(0.2² − 0.15²), exact
    assert r.point["x"] in (0.45, 0.5, 0.55)


K, MID = 16.0, 0.525
"""The cycling variant: on x, p(a; b) = 0.5 − K · (a_x − b_x) · (b_x − MID).  Against a population at
x = 0.5 one step up gains K · 0.05 · 0.025 = 2 pp (one step down loses as much); against x = 0.55 one
step down gains 2 pp: the best responses alternate between 0.5 and 0.55, a 2-cycle.  y, z, u, v, w
are the stand-in's."""


class CyclingArena(standin.StandinArena):
    """The stand-in with x's best responses alternating (:data:`K`); independent draws per deviant."""

    def gains(self, baseline, deviants, n_matches, seed, n_jobs=-1, store=None, progress=False):
        keys = standin.match_keys(seed, 0, n_matches)
        base_won = standin.uniforms(keys, 0) < 0.5
        rows = []
        for i, d in enumerate(deviants):
            others = {k: v for k, v in d.items() if k != "x"}
            p = standin.win_probability(dict(others, x=baseline["x"]), baseline)
            p -= K * (d["x"] - baseline["x"]) * (baseline["x"] - MID)
            g = (standin.uniforms(keys, 1 + i) < p).astype(np.float64) - base_won
            rows.append({"deviant": self.spec(d), "objective": "win", "n": n_matches, "gain": g.mean(),
                         "se": g.std(ddof=1) / np.sqrt(n_matches)})
        return pd.DataFrame(rows)


def _cycling(spec="standin:x=0.5"):
    base = standin.arena(spec)
    return CyclingArena(base.game, base.strategy, base.objective, base.tunables, base.registry, base._fixed)


@pytest.mark.parametrize("start", ["standin:x=0.5", "standin"])
def test_a_two_cycle_is_reported_as_a_cycle(start):
    r = tune(None, start, arena=_cycling(start), params=["x", "y", "z"], n_matches=100_000, seed=2, n_jobs=1)
    assert r.ended == "cycle"
    eq = dict(standin.arena().point("standin:x=0.5"))
    assert r.cycle == [dict(eq, x=0.5), dict(eq, x=0.55)]
    assert r.point == dict(eq, x=0.5)  # the move that closed the cycle
    assert r.exploit is None  # a cycle ends the search before any sweep without a move


def test_the_budget_ends_the_search_and_a_larger_budget_resumes_it(tmp_path):
    kwargs = {"arena": standin.arena(), "n_matches": N, "seed": 4, "n_jobs": 1}
    short = tune(None, "standin:x=0.1", budget=7 * N, store=tmp_path / "s", **kwargs)
    assert short.ended == "budget" and short.used <= 7 * N
    assert short.trajectory.step.max() == 2  # x (2 values), y (2), z (2), u: would pass 7 · N
    whole = tune(None, "standin:x=0.1", **kwargs)
    resumed = tune(None, "standin:x=0.1", store=tmp_path / "s", **kwargs)
    pd.testing.assert_frame_equal(resumed.trajectory, whole.trajectory)
    assert resumed.to_dict() == whole.to_dict()


def test_deterministic_for_a_seed():
    kwargs = {"arena": standin.arena(), "n_matches": 50_000, "params": "x,y", "n_jobs": 1}
    one = tune(None, "standin:x=0.2,y=0.6", seed=7, **kwargs)
    pd.testing.assert_frame_equal(one.trajectory, tune(None, "standin:x=0.2,y=0.6", seed=7, **kwargs).trajectory)
    other = tune(None, "standin:x=0.2,y=0.6", seed=8, **kwargs)
    assert not one.trajectory.gain.iloc[:2].equals(other.trajectory.gain.iloc[:2])
    assert measurement_seed(7, 0) != measurement_seed(7, 1) != measurement_seed(8, 0)
    assert measurement_seed(7, 3) == measurement_seed(7, 3) < 2**64


def test_the_same_result_with_any_number_of_jobs_on_a_real_game():
    # 1,001 matches a deviation: two chunks (deviation.CHUNK = 1000), so two workers share them
    kwargs = {"params": ["margin"], "n_matches": 1001, "budget": 4004, "seed": 5}
    one = tune("500", n_jobs=1, **kwargs)
    two = tune("500", n_jobs=2, **kwargs)
    pd.testing.assert_frame_equal(one.trajectory, two.trajectory)
    assert one.to_dict() == two.to_dict()
    assert len(one.trajectory) >= 2 and one.objective.name == "win"


KILLED = """
import json, os, signal, sys
from cardsim import standin
from cardsim.tune import tune

store, kill_at = sys.argv[1], int(sys.argv[2])
arena = standin.arena()
calls = 0
measure = arena.gains


def gains(*args, **kwargs):
    global calls
    calls += 1
    if calls == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)  # kill -9 before the measurement ends
    return measure(*args, **kwargs)


arena.gains = gains
r = tune(None, "standin:x=0.2,y=0.6,z=3", arena=arena, n_matches=100_000, seed=6, store=store, n_jobs=1)
print(json.dumps({"calls": calls, "result": r.to_dict()}))
"""


def test_resumes_after_kill_9_with_the_same_result(tmp_path):
    script = tmp_path / "killed.py"
    script.write_text(KILLED)
    store = tmp_path / "store"
    killed = subprocess.run([sys.executable, str(script), str(store), "5"], capture_output=True, text=True)
    assert killed.returncode == -9 and not killed.stdout
    assert len(list(store.glob("chunk-*.pkl"))) == 4  # the four finished steps are kept
    resumed = subprocess.run([sys.executable, str(script), str(store), "0"], capture_output=True, text=True,
                             check=True)
    out = json.loads(resumed.stdout)
    whole = tune(None, "standin:x=0.2,y=0.6,z=3", arena=standin.arena(), n_matches=100_000, seed=6, n_jobs=1)
    assert out["result"] == json.loads(json.dumps(whole.to_dict()))
    steps = int((whole.trajectory.kind == "step").groupby(whole.trajectory.step).any().sum())
    assert out["calls"] == steps - 4  # the kept steps were replayed, not measured again
    assert whole.ended == "equilibrium"


def test_a_store_of_another_run_is_refused(tmp_path):
    kwargs = {"arena": standin.arena(), "n_matches": 20_000, "budget": 40_000, "n_jobs": 1, "store": tmp_path / "s"}
    tune(None, "standin", seed=1, **kwargs)
    with pytest.raises(OutputError, match="holds a different run"):
        tune(None, "standin", seed=2, **kwargs)


def _exit_code(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def test_json_gives_the_whole_result_and_csv_the_trajectory(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    # from the previous default (margin 0), so the values tried are fixed whatever the default becomes
    args = ["tune", "500", "--strategy", "heuristic_v4", "--params", "margin", "-n", "30", "--budget", "60",
            "--jobs", "1", "--seed", "1"]
    assert _exit_code(args + ["--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ended"] == "budget" and out["used"] == 60 and out["n_matches"] == 30
    assert out["objective"]["name"] == "win" and out["objective"]["tolerance"] == 0.005
    assert [r["param"] for r in out["trajectory"]] == ["margin", "margin"]
    assert {"point", "spec", "start", "cycle", "exploit", "rule", "z", "params", "seed"} <= set(out)
    assert not list((tmp_path / "runs").glob("tune-*"))  # the waiting steps are removed once printed
    assert _exit_code(args + ["--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "step,sweep,kind,param,from_value,value,gain,se,lo,hi,moved,point"
    table = pd.read_csv(io.StringIO(text))
    assert table.param.tolist() == ["margin", "margin"] and table.value.tolist() == [-0.25, 0.25]
    assert table.gain.tolist() == [r["gain"] for r in out["trajectory"]]
    assert table.point[0] == ("margin=0,partner=2.6,kitty=0.7,jump=1,nt_bias=0,taper=0.65,pivot=5.05,score=1,"
                              "stretch=1.5,stretch_sub=2,near=0.25")


def test_text_prints_the_trajectory_and_the_point(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    assert _exit_code(["tune", "500", "--strategy", "heuristic_v4", "--params", "margin", "-n", "30", "--budget", "60",
                       "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("step   0 (sweep 0) margin 0 -> -0.25: ")
    assert "ended: budget, after 60 of 60 matches (30 a deviation, seed 0)" in out
    assert "Bonferroni over the family of 2 deviations" in out and "point: heuristic_v4" in out


@pytest.mark.parametrize("args,text", [
    (["500", "--params", "bogus"], "strategy 'heuristic' has no parameter 'bogus' (tunable: margin"),
    (["500", "--strategy", "pimc", "--params", "worlds"], "parameter 'worlds' of 'pimc' is not tunable"),
    (["500", "--params", "margin=-9:0"], "the range -9:0 of 'margin' is not inside the registry's -3:3"),
    (["500", "--params", "margin=1"], "a range is written name=LO:HI"),
    (["500", "--params", "margin,margin"], "'margin' given twice"),
    (["500", "--strategy", "heuristic:margin=2", "--params", "margin=-1:1"], "the start margin=2 is outside the "
                                                                              "range -1:1"),
    (["500", "--strategy", "heuristic:margin=5"], "'margin' of 'heuristic' is 5, outside its tunable range"),
    (["501", "--objective", "points"], "501 has no objective 'points' (objectives: win)"),
    (["500", "--budget", "0"], "argument --budget: must be a whole number from 1"),
    (["500", "-n", "0"], "must be a whole number from 1"),
    (["500", "-n", "-5"], "must be a whole number from 1"),
    (["vint", "--strategy", "random"], "'random' of vint has no tunable parameters"),
])
def test_bad_input_is_a_one_line_error_with_exit_2(args, text, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    assert _exit_code(["tune", *args]) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1


def test_an_unwritable_store_is_a_one_line_error(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert _exit_code(["tune", "500", "--params", "margin", "-n", "10", "--store", str(tmp_path / "file" / "s")]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and err.count("\n") == 1


@pytest.mark.parametrize("kwargs,error,text", [
    ({"params": ["bogus"]}, StrategyError, "no parameter 'bogus'"),
    ({"params": {"x": (0.2, 1.5)}}, OptionError, "not inside the registry's 0:1"),
    ({"params": []}, OptionError, "no parameters to tune"),
    ({"budget": 0}, OptionError, "the budget must be a whole number above 0"),
    ({"n_matches": -1}, OptionError, r"\(-n\) must be a whole number above 0"),
    ({"objective": "points"}, OptionError, "the arena's objective is 'win', not 'points'"),
    ({"pairs": -1}, OptionError, "pairs must be a whole number >= 0"),
    ({"level": 1.0}, OptionError, "level must be between 0 and 1"),
])
def test_bad_input_is_a_clear_exception_from_the_library(kwargs, error, text):
    with pytest.raises(error, match=text):
        tune(None, "standin", arena=standin.arena(), **kwargs)


def test_ctrl_c_says_the_finished_steps_are_kept(monkeypatch, capsys):
    from cardsim import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, "tune", interrupted)
    assert main(["tune", "500"]) == 130
    err = capsys.readouterr().err
    assert "finished chunks are kept; run the same command again to resume" in err and err.count("\n") == 1
