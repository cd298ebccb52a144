"""The command line and the runner: exit codes, one-line errors, datasets that resume."""
import contextlib
import json
import shutil
import socket
import struct
import threading
import time

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.runner.dataset import part_path, simulate_to_dataset
from cardsim.runner.files import OutputError
from cardsim.runner.run import make_run


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines and "Traceback" not in err
    return lines[-1]


@pytest.mark.parametrize("argv,text", [
    (["simulate", "vint", "-n", "10", "--strategy", "nosuch"], "unknown vint strategy 'nosuch'"),
    (["simulate", "vint", "-n", "10", "--strategy", "heuristic:bogus=1"], "has no parameter 'bogus'"),
    (["simulate", "vint", "-n", "10", "--strategy", "heuristic:aggression=x"], "is not a number"),
    (["simulate", "vint", "-n", "10", "--strategy", "7=random"], "seat 7 does not exist"),
    (["simulate", "501", "-n", "10", "--strategy", "heuristic:blind_prob=5"], "must be a number from 0 to 1, got 5"),
    (["simulate", "500", "-n", "10", "--strategy", "heuristic:jump=2"], "must be 0 or 1 (no / yes), got 2"),
    (["simulate", "500", "-n", "10", "--strategy", "heuristic:jump=0.5"], "must be 0 or 1 (no / yes), got 0.5"),
    (["simulate", "501", "-n", "10", "--strategy", "heuristic:blind_pos=0.5"],
     "'blind_pos' of 'heuristic' must be a whole number from -1 to 2, got 0.5"),
    (["simulate", "501", "-n", "10", "--strategy", "random:max_raise=2.5"], "must be a whole number from 1 to 154"),
    (["simulate", "vint", "-n", "10", "--strategy", "heuristic:aggression=1,aggression=2"], "given twice"),
    (["simulate", "vint", "-n", "30000000"], "at most 20,000,000 deals"),
    (["simulate", "vint", "-n", "10", "--rule", "scoring=quebec"], "unknown vint rule option"),
    (["simulate", "vint", "-n", "10", "--seats", "3"], "played with 4 seats"),
    (["simulate", "vint", "-n", "10", "-o", "/proc/nope/out.parquet"], "cannot write"),
    (["simulate", "vint", "-n", "10", "--records", "/proc/nope/r.jsonl"], "cannot write"),
    (["simulate", "vint", "-n", "10", "--records", "/proc/r.jsonl"],
     "cannot write /proc/r.jsonl: the folder /proc does not take new files"),
    (["simulate", "vint"], "exactly one of -n/--deals and --matches"),
    (["replay", "/nonexistent/file.jsonl"], "cannot read"),
    (["simulate", "vint", "--matches", "3", "--records", "r.jsonl"], "--records works with -n"),
    (["simulate", "vint", "-n", "5", "--records-limit", "3"], "--records-limit needs --records"),
    (["simulate", "vint", "-n", "2000000", "--chunk-size", "1"],
     "at most 1,000,000 deals in chunks of that size (a larger chunk size, where the command takes one, allows more)"),
    # evaluate has no --chunk-size: the message must not send the user to one alone
    (["evaluate", "vint", "--option", "P", "-n", "2.1e10"], "at most 20,000,000,000 deals in chunks of that size"),
    (["show", "vint", "--record", "/nonexistent.jsonl"], "cannot read"),
])
def test_usage_errors_exit_2_with_one_line(capsys, argv, text):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert text in one_line_error(err)


@pytest.mark.parametrize("argv", [["simulate", "vint", "-n", "0"], ["simulate", "vint", "-n", "-5"],
                                  ["simulate", "nosuchgame", "-n", "5"], ["show", "vint", "--deal", "-1"],
                                  ["show", "vint", "--deal", "99999999999999999999999"],
                                  ["simulate", "vint", "-n", str(10**30)], ["simulate", "vint", "-n", "5", "-o", ""],
                                  ["simulate", "vint", "-n", "5", "--seed", str(2**64)]])
def test_argument_errors_exit_2_with_one_line(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "error:" in err


def test_simulate_records_replay_round_trip(tmp_path, capsys):
    records = tmp_path / "r.jsonl"
    code, out, _ = run_cli(capsys, "simulate", "vint", "-n", "30", "--seed", "9", "--records", str(records),
                           "--records-limit", "12", "-o", str(tmp_path / "d.parquet"))
    assert code == 0
    lines = records.read_text().splitlines()
    assert len(lines) == 12
    code, out, err = run_cli(capsys, "replay", str(records))
    assert code == 0 and err.strip() == "all 12 records valid"
    results = [json.loads(x) for x in out.splitlines()]
    assert results == [json.loads(x)["result"] for x in lines]
    df = pd.read_parquet(tmp_path / "d.parquet")
    assert len(df) == 30 and sorted(df.deal) == list(range(30))


def test_replay_names_line_action_and_rule_and_goes_on(tmp_path, capsys):
    good = cardsim.records("vint", [0, 1], seed=3)
    bad = json.loads(json.dumps(good[1]))
    i = 5
    bad["play"][i] = "ZZ"
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([json.dumps(good[0]), "{not json", json.dumps(bad), json.dumps(good[1])]) + "\n")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 1
    assert len(out.splitlines()) == 2  # the two good records are still scored
    assert "line 2: not valid JSON" in err
    assert f"line 3: play[{i}]: unknown card 'ZZ' (docs/RECORDS.md Cards)" in err
    assert "2 of 4 records rejected" in err and "Traceback" not in err


def test_show_prints_a_deal(capsys):
    code, out, _ = run_cli(capsys, "show", "vint", "--seed", "3", "--deal", "2")
    assert code == 0
    assert "seat 0:" in out and "Auction (dealer first)" in out and "trick 13" in out


def test_show_a_record_from_a_file(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(cardsim.records("vint", [4], seed=1)[0]) + "\n")
    code, out, _ = run_cli(capsys, "show", "--record", str(path))
    assert code == 0 and ("Contract:" in out or "void" in out)
    # The record fixes its deal: an option that picks another deal is refused, not ignored.
    code, _, err = run_cli(capsys, "show", "--record", str(path), "--deal", "5", "--seed", "2")
    assert code == 2 and "--deal, --seed cannot go with --record" in err


def test_a_rule_option_given_twice_is_refused(capsys):
    code, _, err = run_cli(capsys, "simulate", "500", "-n", "10", "--rule", "scoring=subtract", "--rule",
                           "scoring=quebec")
    assert code == 2 and "rule option 'scoring' given more than once" in err
    code, _, err = run_cli(capsys, "simulate", "500", "-n", "10", "--strategy", "0=random", "--strategy", "0=greedy")
    assert code == 2 and "seat 0 given more than once" in err


def test_strategies_lists_registry(capsys):
    code, out, _ = run_cli(capsys, "strategies", "vint")
    assert code == 0 and "heuristic (default)" in out and "aggression = 0" in out
    assert "rule options: none" in out
    code, out, _ = run_cli(capsys, "strategies", "500")
    assert "scoring = quebec" in out and "jump = 1" in out


def test_columns_documents_every_game(capsys):
    for game in ("vint", "501", "500"):
        code, out, _ = run_cli(capsys, "columns", game)
        assert code == 0 and "Deal rows" in out and "Match rows" in out
        spec = cardsim.get_game(game)
        assert all(name in out for name in spec.play.row_dtype.names)


def test_match_output_is_not_overwritten(tmp_path, capsys):
    out = tmp_path / "games.parquet"
    code, _, _ = run_cli(capsys, "simulate", "501", "--matches", "3", "-o", str(out))
    assert code == 0 and out.exists() and (tmp_path / "games-deals.parquet").exists()
    code, _, err = run_cli(capsys, "simulate", "501", "--matches", "3", "--seed", "2", "-o", str(out))
    assert code == 2 and "exists" in one_line_error(err)


def test_finished_match_run_rerun_says_written(tmp_path, capsys):
    out = tmp_path / "new" / "games.parquet"  # a missing folder is created, as for datasets
    code, _, _ = run_cli(capsys, "simulate", "501", "--matches", "3", "-o", str(out))
    written = out.read_bytes()
    code, stdout, _ = run_cli(capsys, "simulate", "501", "--matches", "3", "-o", str(out))
    assert code == 0 and "3 matches already written" in stdout and out.read_bytes() == written


def test_records_to_a_missing_folder_are_written(tmp_path, capsys):
    path = tmp_path / "a" / "b" / "r.jsonl"
    code, _, _ = run_cli(capsys, "simulate", "vint", "-n", "4", "--records", str(path))
    assert code == 0 and len(path.read_text().splitlines()) == 4
    (tmp_path / "file").write_text("")
    code, _, err = run_cli(capsys, "simulate", "vint", "-n", "4", "--records", str(tmp_path / "file" / "r.jsonl"))
    assert code == 2 and "is a file, not a folder" in one_line_error(err)


@pytest.mark.parametrize("text,deals", [("1e3", 1000), ("2_000", 2000), ("1E2", 100)])
def test_deal_counts_in_scientific_notation(tmp_path, capsys, text, deals):
    code, _, _ = run_cli(capsys, "simulate", "501", "-n", text, "--jobs", "1", "-o", str(tmp_path / "d"))
    assert code == 0 and len(cardsim.read_dataset(tmp_path / "d")) == deals


@pytest.mark.parametrize("text", ["1.5", "1e-3", "nan", "inf", "ten"])
def test_deal_counts_that_are_not_whole(capsys, text):
    with pytest.raises(SystemExit):
        main(["simulate", "vint", "-n", text])
    assert f"{text!r} is not a whole number" in capsys.readouterr().err



@pytest.mark.parametrize("argv, name", [
    (["evaluate", "vint", "--option", "P", "-n", "20", "--where", "hcp=15-17", "--where", "S>=5"], "--where"),
    (["evaluate", "vint", "--option", "P", "-n", "20", "--hand", "S:AK", "--hand", "H:AK"], "--hand"),
    (["evaluate", "501", "--option", "look", "-n", "20", "--talon", "AS KS QS", "--talon", "AH KH QH"], "--talon"),
    (["evaluate", "vint", "--option", "P", "-n", "20", "--dealer", "0", "--auction", "1S", "--auction", "P"],
     "--auction"),
    (["simulate", "vint", "-n", "10", "-n", "20"], "-n/--deals"),
])
def test_an_option_of_one_value_given_twice_is_refused(capsys, argv, name):
    """Not the last one silently answering: `--where A --where B` asked about B alone."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert f"argument {name}: given more than once" in err and len(err.strip().splitlines()) == 1


def test_an_output_named_like_a_staging_folder_is_refused(tmp_path, capsys):
    """``x.partial`` is where an unfinished run of ``x`` is staged: a dataset written there would
    read as unfinished and be taken over by the next run of ``x``."""
    out = tmp_path / "x.partial"
    code, _, err = run_cli(capsys, "simulate", "vint", "-n", "10", "--jobs", "1", "-o", str(out))
    assert code == 2 and "a name ending in .partial is where unfinished runs are kept" in err
    assert not out.exists()


def test_a_second_run_writing_the_same_output_is_refused(tmp_path, capsys):
    """Two runs staging the same output would remove each other's unfinished files: while one
    holds it (its lock, here taken by hand as a live run holds it), the other stops with one line;
    once it is free the same command runs, and the finished dataset keeps no lock file."""
    import fcntl

    out = tmp_path / "d.parquet"
    staging = tmp_path / "d.parquet.partial"
    staging.mkdir()
    (staging / ".tmp-live.parquet").write_bytes(b"a live writer's unfinished chunk")
    with open(staging / ".lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, _, err = run_cli(capsys, "simulate", "vint", "-n", "10", "--jobs", "1", "-o", str(out))
        assert code == 2 and f"another cardsim run is writing {out} now" in err
        assert (staging / ".tmp-live.parquet").exists()  # not taken for a dead writer's leftovers
    code, _, _ = run_cli(capsys, "simulate", "vint", "-n", "10", "--jobs", "1", "-o", str(out))
    assert code == 0 and len(pd.read_parquet(out)) == 10
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def test_a_finished_store_is_free_for_another_run(tmp_path):
    """A run holds its chunk store only while it writes: once finished, another process (here a
    second lock on the same file, which flock refuses while the first is held) may take it."""
    import fcntl

    matches, _ = cardsim.play_match("501", 3, seed=1, store=tmp_path / "s", n_jobs=1)
    assert len(matches) == 3
    with open(tmp_path / "s" / ".lock", "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)

def test_dataset_resumes_after_interruption(tmp_path):
    run = make_run("vint", 250, seed=17, chunk_size=100)
    path = tmp_path / "ds.parquet"
    simulate_to_dataset(path, run)
    full = pd.read_parquet(path).sort_values("deal").reset_index(drop=True)
    part_path(path, 1).unlink()  # as if the run had stopped before chunk 1 was written
    manifest = json.loads((path / "_manifest.json").read_text())
    assert manifest.pop("complete") is True
    (path / "_manifest.json").write_text(json.dumps(manifest))
    simulate_to_dataset(path, run)
    again = pd.read_parquet(path).sort_values("deal").reset_index(drop=True)
    pd.testing.assert_frame_equal(full, again)
    assert len(again) == 250
    expected = cardsim.simulate("vint", 250, seed=17)
    np.testing.assert_array_equal(again.total_0.to_numpy(), expected.total_0.to_numpy())


def test_dataset_of_another_run_is_refused(tmp_path):
    path = tmp_path / "ds"
    simulate_to_dataset(path, make_run("vint", 20, seed=1))
    with pytest.raises(OutputError, match="different run"):
        simulate_to_dataset(path, make_run("vint", 20, seed=2))
    shutil.rmtree(path)


@pytest.mark.parametrize("kwargs,text", [({"n_deals": 0}, "whole number from 1"), ({"n_deals": 2.5}, "whole number from 1"),
                                         ({"n_deals": 5, "seed": -1}, "seed"),
                                         ({"n_deals": 5, "strategies": ["random"] * 3}, "3 strategies")])
def test_api_rejects_bad_arguments(kwargs, text):
    with pytest.raises(ValueError, match=text):
        cardsim.simulate("vint", **kwargs)


def test_replay_survives_bad_lines(tmp_path, capsys):
    good = json.dumps(cardsim.records("vint", [0], seed=3)[0]).encode()
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + good + b"\n" + b"[" * 100_000 + b"\n" + b"\xff\xfe bad\n" + good + b"\n")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 1 and len(out.splitlines()) == 2  # the BOM line and the last line
    assert "line 2: not valid JSON" in err and "line 3: not UTF-8 text" in err and "Traceback" not in err


def test_dataset_files_are_readable_by_others(tmp_path):
    import os
    import stat
    path = simulate_to_dataset(tmp_path / "ds", make_run("vint", 10, seed=1))
    old = os.umask(0)
    os.umask(old)
    for f in path.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o666 & ~old


@pytest.mark.parametrize("call,text", [
    (lambda: cardsim.records("vint", [-1]), "deal numbers"),
    (lambda: cardsim.records("vint", [1.5]), "deal numbers"),
    (lambda: cardsim.simulate("vint", 10, strategies=5), "strategies must be"),
    (lambda: cardsim.simulate("vint", 10, n_jobs="2"), "n_jobs"),
    (lambda: cardsim.simulate("vint", 10, seats="4"), "seats must be"),
    (lambda: cardsim.play_match("vint", 0), "number of matches"),
    # A string, a dict or a number where a list belongs: list() would take characters or keys
    # and answer another question without a word.
    (lambda: cardsim.records("vint", 42), "deal_ids .* must be a list, got int"),
    (lambda: cardsim.records("vint", "42"), "deal_ids .* must be a list, got str"),
    (lambda: cardsim.simulate("500", 10, rules="scoring=subtract"), "rules .* must be a list, got str"),
    (lambda: cardsim.play_match("501", 3, before={1: 300, 2: 250, 3: 320}, dealer=0),
     r"before \(one score per seat\) must be a list, got dict"),
    (lambda: cardsim.evaluate("501", options=["look"], before={1: 300, 2: 250, 3: 320}, n=50),
     "before .* must be a list, got dict"),
    (lambda: cardsim.evaluate("500", options=["P"], before="0,0", n=50), "before .* must be a list, got str"),
    (lambda: cardsim.evaluate("vint", options=["P"], before={0: 1, 1: 2}, n=50), "must be a list, got dict"),
    (lambda: cardsim.evaluate("vint", options=None, n=50), "options must be a list, got NoneType"),
    (lambda: cardsim.evaluate("vint", options=["P"], where=["hcp>=12"], n=50), "where must be a string"),
    (lambda: cardsim.simulate("vint", 10, strategies={0: 3}), "seat 0's strategy must be a string"),
    (lambda: cardsim.simulate("vint", 10, strategies={0: {"name": "random"}}), "seat 0's strategy must be a string"),
    (lambda: cardsim.quality.quality("501", 5, "1"), "seed must be an integer"),
    (lambda: cardsim.quality.quality("vint", 5, strategies="heuristic"), "strategies .* must be a list, got str"),
    (lambda: cardsim.quality.quality("vint", 5, by="level"), r"by \(column names\) must be a list, got str"),
    (lambda: cardsim.evaluate("vint", options=["P"], auction={"1S": 1}, dealer=0, n=40),
     r"auction \(calls\) must be a list, got dict"),
])
def test_api_type_errors_are_clear(call, text):
    with pytest.raises(ValueError, match=text):
        call()


def test_python_dash_m_cardsim_runs_the_cli():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "cardsim", "simulate", "vint", "-n", "0"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "cardsim simulate: error: argument -n/--deals: must be a whole number from 1 to 1,000,000,000,000, "
        "got 0 (see cardsim simulate --help)"]


def test_negative_before_needs_no_equals_sign(capsys):
    # argparse reads "-900,0" (not a plain number) as an option unless it is attached with "="
    # (a negative team score is a state under subtract scoring only, docs/RULES.md §3.6)
    spaced = run_cli(capsys, "evaluate", "500", "--option", "P", "-n", "50", "--rule", "scoring=subtract",
                     "--before", "-900,0")
    attached = run_cli(capsys, "evaluate", "500", "--option", "P", "-n", "50", "--rule", "scoring=subtract",
                       "--before=-900,0")
    assert spaced[0] == 0 and spaced[1] == attached[1]
    assert run_cli(capsys, "evaluate", "500", "--option", "P", "-n", "50", "--before", "-9x")[0] == 2


def test_show_500_names_the_teams_scores(tmp_path, capsys):
    rec = cardsim.records("500", [0], seed=1)[0]
    rec["before"] = {"scores": [-120, 40]}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    code, out, err = run_cli(capsys, "show", "--record", str(path))
    assert code == 0, err
    assert "scores before: team 0 -120, team 1 40" in out


def test_workers_are_born_ignoring_ctrl_c():
    # Ctrl-C reaches the whole process group; a worker still importing printed its own traceback.
    # A fresh interpreter: workers reused from other tests may have started before the rule.
    import subprocess
    import sys

    # The child starts from Python's own handler: a child spawned while this (xdist) process is
    # inside another test's pool start would inherit SIG_IGN, and Python keeps an inherited SIG_IGN.
    code = ("import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from cardsim.runner.pool import run_tasks\n"
            "def f(i): return signal.getsignal(signal.SIGINT) == signal.SIG_IGN\n"
            "if __name__ == '__main__':\n"
            "    print(list(run_tasks(f, [(i,) for i in range(4)], [1] * 4, n_jobs=2)), "
            "signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[True,", "True,", "True,", "True]", "True"]  # the parent still takes Ctrl-C


def test_ctrl_c_while_the_command_imports_is_one_line(monkeypatch, capsys):
    import builtins

    import cardsim_cli

    real = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "cardsim.cli":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert cardsim_cli.main() == 130
    assert capsys.readouterr().err == "cardsim: interrupted while starting (nothing was run)\n"


def test_evaluate_warns_before_dealing_a_rare_class_for_long(monkeypatch, capsys):
    from cardsim.cli import evaluate

    monkeypatch.setattr(evaluate, "SLOW_DEALING", 0.0)  # every class counts as slow to deal
    code, out, err = run_cli(capsys, "evaluate", "vint", "--option", "P", "-n", "40", "--where", "hcp>=12")
    assert code == 0 and "warning: the conditions are rare; dealing 40 deals alone will take about" in err
    code, out, err = run_cli(capsys, "evaluate", "vint", "--option", "P", "-n", "40")
    assert code == 0 and "warning" not in err  # no conditions: nothing to estimate


# ------------------------------------------------------------ outputs that are broken symbolic links
def _broken_links(tmp_path):
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "x")
    (tmp_path / "loop_a").symlink_to(tmp_path / "loop_b")
    (tmp_path / "loop_b").symlink_to(tmp_path / "loop_a")
    (tmp_path / "gone_dir").symlink_to(tmp_path / "no_such_folder")


@pytest.mark.parametrize("output,why", [
    ("dangling", "it is a symbolic link to"), ("loop_a", "it is a symbolic link that loops"),
    ("gone_dir/d.parquet", "gone_dir is a symbolic link to")])
@pytest.mark.parametrize("argv", [
    ["simulate", "vint", "-n", "1000", "-o", "{}"],
    ["simulate", "vint", "--matches", "2", "-o", "{}"],
    ["simulate", "vint", "-n", "10", "--records", "{}"],
    ["simulate", "vint", "-n", "10", "-o", "{}.ok", "--records", "{}"],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--records", "{}"],
])
def test_an_output_through_a_broken_link_is_refused_before_anything_is_played(tmp_path, capsys, monkeypatch,
                                                                              argv, output, why):
    _broken_links(tmp_path)
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    for module in ("run", "dataset", "store"):  # each binds run_tasks at import
        monkeypatch.setattr(f"cardsim.runner.{module}.run_tasks", lambda *a, **k: pytest.fail("played deals"))
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _, err = run_cli(capsys, *[a.format(tmp_path / output) for a in argv])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert why in one_line_error(err) and "remove the link or choose another path" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .partial folder, no file, no runs folder


def test_outputs_through_a_link_to_an_existing_folder_or_file_land_at_its_target(tmp_path, capsys):
    (tmp_path / "real").mkdir()
    (tmp_path / "data").symlink_to(tmp_path / "real")
    (tmp_path / "r.jsonl").write_text("")
    (tmp_path / "records").symlink_to(tmp_path / "r.jsonl")
    code, _, err = run_cli(capsys, "simulate", "vint", "-n", "40", "--seed", "3", "--jobs", "1",
                           "-o", str(tmp_path / "data"), "--records", str(tmp_path / "records"))
    assert code == 0, err
    assert (tmp_path / "data").is_symlink() and (tmp_path / "real" / "_manifest.json").exists()
    assert not list(tmp_path.glob("*.partial"))
    pd.testing.assert_frame_equal(cardsim.read_dataset(tmp_path / "data"),
                                  cardsim.simulate("vint", 40, seed=3, n_jobs=1))
    assert (tmp_path / "records").is_symlink() and len((tmp_path / "r.jsonl").read_text().splitlines()) == 40


# ------------------------------------------------------------ --scheduler at something that is no scheduler
@contextlib.contextmanager
def _listener(answer):
    """A TCP server on 127.0.0.1 that accepts every connection, sends ``answer`` (bytes, possibly
    empty) and then says nothing; yields its address."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop, conns = threading.Event(), []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conns.append(conn)
            if answer:
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in conns:
            conn.close()
        server.close()


def _closed_port():
    with socket.create_server(("127.0.0.1", 0)) as s:
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize("answer", [
    b"",                                                 # accepts and says nothing: the handshake never comes
    b"HTTP/1.1 400 Bad Request\r\n\r\n" + b"\xff" * 4096,  # garbage: a frame length of exabytes
    struct.pack("<Q", 1 << 30),                          # a plausible 1 GiB frame that never arrives
    None,                                                # nothing listens (connection refused)
])
def test_a_scheduler_address_where_no_dask_scheduler_answers_is_one_line_in_bounded_time(capsys, monkeypatch,
                                                                                         answer):
    monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", "1")
    with contextlib.ExitStack() as stack:
        address = _closed_port() if answer is None else stack.enter_context(_listener(answer))
        start = time.monotonic()
        code, _, err = run_cli(capsys, "simulate", "vint", "-n", "10", "--scheduler", address)
        elapsed = time.monotonic() - start
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "dask scheduler" in one_line_error(err) and f" at '{address}'" in err
    assert elapsed < 8


def test_a_real_scheduler_passes_the_check_and_the_timeout_is_configurable(monkeypatch):
    from distributed import LocalCluster

    from cardsim.runner.pool import CONNECT_TIMEOUT, cluster, connect_timeout

    assert connect_timeout() == CONNECT_TIMEOUT == 10
    monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", "2.5")
    assert connect_timeout() == 2.5
    for bad in ("0", "-1", "soon", "inf"):
        monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", bad)
        with pytest.raises(cardsim.OptionError, match="CARDSIM_CONNECT_TIMEOUT must be a number of seconds above 0"):
            connect_timeout()
    monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", "5")
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", scheduler_port=0,
                      dashboard_address="127.0.0.1:0") as local:
        with cluster(local.scheduler_address) as client:
            assert client.scheduler.address == local.scheduler_address


# ------------------------------------------------------------ a huge value in an error message
def test_quote_shortens_and_says_how_long():
    from cardsim.text import clip, quote

    assert quote("AS") == "'AS'" and quote(5) == "5" and quote(None) == "None"
    long = quote("x" * 10_000_000)
    assert long == "'" + "x" * 99 + "…' (10,000,000 characters)"
    assert quote(list(range(100_000))) == "[0, 1, 2, 3, 4, 5, 6, 7, ...] (list of 100,000 items)"
    assert quote([1, 2]) == "[1, 2]" and quote({"a": "x" * 1000}).startswith("{'a': 'xxx")
    assert len(quote({"a": "x" * 1000})) < 110
    shown = quote("\x00" * 1000)  # escapes count in the shown part
    assert len(shown) < 130 and shown.endswith("…' (1,000 characters)")
    assert quote("\x00" * 30).endswith("…' (30 characters)")
    assert quote(10 ** 5000) == "<int>"  # more digits than Python prints: no error while reporting one
    assert clip("y" * 50, 10) == "yyyyyyyyyy… (50 characters)" and clip("short") == "short"


HUGE = "X" * 10_000_000


@pytest.mark.parametrize("argv", [
    ["evaluate", "vint", "--option", "P", "-n", "10", "--hand", HUGE],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--hand", "S:AK" + "Q" * 1_000_000],
    ["evaluate", "501", "--option", "look", "-n", "10", "--talon", HUGE],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--where", HUGE],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--where", "hcp>=1, has " + HUGE],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--where", HUGE + "=3"],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--dealer", "0", "--auction", HUGE],
    ["evaluate", "501", "--option", "look", "-n", "10", "--dealer", "0", "--auction", HUGE],
    ["evaluate", "500", "--option", "P", "-n", "10", "--dealer", "0", "--auction", HUGE],
    ["evaluate", "vint", "--option", HUGE, "-n", "10"],
    ["evaluate", "501", "--option", HUGE, "-n", "10"],
    ["evaluate", "501", "--option", "blind:" + "1" * 1_000_000, "-n", "10"],
    ["evaluate", "500", "--option", HUGE, "-n", "10"],
    ["evaluate", "501", "--option", "look", "-n", "10", "--before", HUGE],
    ["evaluate", "vint", "--option", "P", "-n", "10", "--format", HUGE],
    ["simulate", "vint", "-n", "10", "--strategy", HUGE],
    ["simulate", "vint", "-n", "10", "--strategy", "heuristic:aggression=" + HUGE],
    ["simulate", "500", "-n", "10", "--rule", "scoring=" + HUGE],
    ["simulate", "vint", "-n", "1" * 1_000_000],
    ["simulate", "vint", "-n", "10", HUGE],
    ["simulate", "vint", "-n", "10", "--scheduler", HUGE],
    ["quality", "vint", "-n", "1", "--by", HUGE],
])
def test_a_huge_value_gives_a_short_error_line(capsys, argv):
    try:
        code, _, err = run_cli(capsys, *argv)
    except SystemExit as exc:  # argparse's own errors
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert len(err) < 300, err[:400]
    assert "characters)" in err  # the size of what was cut


@pytest.mark.parametrize("game", ["vint", "501", "500"])
def test_replay_of_a_record_with_a_huge_value_gives_a_short_line(tmp_path, capsys, game):
    # A value of a million characters: as large as a record's line may be (1 MiB, README "Input
    # limits"; a longer line ends the reading, tests/test_bounded_reads.py).
    huge = HUGE[:1_000_000]
    plain = json.loads(json.dumps(cardsim.records(game, [0], seed=4)[0]))
    rec = json.loads(json.dumps(plain))
    seat = next(s for s, hand in enumerate(rec["hands"]) if hand)
    rec["hands"][seat][0] = huge
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(dict(plain, game=huge)) + "\n")
    code, _, err = run_cli(capsys, "replay", str(path))
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 3 and "2 of 2 records rejected" in lines[2]
    assert lines[0].startswith(f"{path}: line 1: hands[{seat}]: ") and lines[1].startswith(f"{path}: line 2: game: ")
    assert all(len(line) < 300 + len(str(path)) and "characters)" in line for line in lines[:2])


# ------------------------------------------------------------ replay: docs/RECORDS.md Strictness
def test_replay_enforces_the_strictness_cases_line_by_line(tmp_path, capsys):
    g501 = json.loads(json.dumps(cardsim.records("501", [0], seed=4, seats=3)[0]))
    g500 = json.loads(json.dumps(cardsim.records("500", [0], seed=4)[0]))
    vint = json.loads(json.dumps(cardsim.records("vint", [0], seed=4)[0]))
    lines = [
        dict(g501, discard=["9S"] * 6),         # 2: Five Hundred's field in a 501 record
        dict(g500, contract={"abandon": True}),  # 3: 501's field in a Five Hundred record
        dict(vint, talon=[]),                    # 4: a talon in Vint
        dict(vint, comment="x"),                 # 5: an unknown key
        dict(vint, source=None),                 # 6: null source means absent: valid
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [g501] + lines) + "\n")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 1
    assert [json.loads(x) for x in out.splitlines()] == [g501["result"], vint["result"]]
    assert err.splitlines() == [
        f"{path}: line 2: discard: a field of Five Hundred records, which 501 records do not have "
        "(docs/RECORDS.md Strictness)",
        f"{path}: line 3: contract: a field of 501 records, which Five Hundred records do not have "
        "(docs/RECORDS.md Strictness)",
        f"{path}: line 4: talon: a field of 501 and Five Hundred records, which Vint records do not have "
        "(docs/RECORDS.md Strictness)",
        f"{path}: line 5: unknown field 'comment': annotations from other programs belong in source "
        "(docs/RECORDS.md Strictness)",
        "4 of 6 records rejected"]


def test_an_output_that_is_a_device_or_a_pipe_is_written_through_not_replaced(tmp_path, capsys):
    """-o /dev/full fails as the device does (no space), and stays a device; a named pipe is
    written through to its reader and stays a pipe (a rename would put a plain file in its place)."""
    import os
    import stat

    if os.path.exists("/dev/full"):
        assert main(["export", "vint", "--seed", "7", "-n", "2", "-o", "/dev/full"]) == 2
        err = capsys.readouterr().err.strip()
        assert "cannot write /dev/full" in err and "\n" not in err
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    fifo = tmp_path / "deals.pbn"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert main(["export", "vint", "--seed", "7", "-n", "2", "-o", str(fifo)]) == 0
    reader.join(timeout=60)
    assert got and got[0].count('[Board "') == 2
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("argv", [["simulate", "vint", "-n", "5", "--records", "-"],
                                  ["simulate", "vint", "-n", "5", "-o", "-"],
                                  ["evaluate", "vint", "--option", "P", "-n", "5", "--records", "-"]])
def test_a_dash_is_no_output_file(capsys, argv, tmp_path, monkeypatch):
    # `--records -` wrote a file named '-' where standard output was meant (from a tester's report).
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and not (tmp_path / "-").exists()
    assert "'-' is not taken here: give a file name" in capsys.readouterr().err


def test_export_dash_is_standard_output_and_never_its_own_input(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "vint", "-n", "3", "--records", "r.jsonl"]) == 0
    capsys.readouterr()
    assert main(["export", "vint", "--records", "r.jsonl", "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("% PBN 2.1") and not (tmp_path / "-").exists()
    before = (tmp_path / "r.jsonl").read_text()
    code, _, err = run_cli(capsys, "export", "vint", "--records", "r.jsonl", "-o", "r.jsonl")
    assert code == 2 and "is the file being read (r.jsonl): writing it would replace the input" in one_line_error(err)
    assert (tmp_path / "r.jsonl").read_text() == before
