"""Execution at scale: staged datasets, runs that resume after an interruption with exactly the
result of an uninterrupted run, checks made before any work, and dask.distributed clusters."""
import json
import os
import signal
import subprocess
import sys
import time
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim import questions, runner
from cardsim.cli import main
from cardsim.compare import compare
from cardsim.runner import OutputError, make_run, simulate_to_dataset, staging

ROOT = Path(__file__).resolve().parents[1]


def one_line_error(capsys):
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def interrupt_after(monkeypatch, module, name, calls):
    """Make ``module.name`` raise KeyboardInterrupt on its ``calls + 1``-th call (n_jobs=1 runs
    chunks in this process, in order): as if Ctrl-C came while that chunk was playing."""
    real = getattr(module, name)
    seen = []

    def wrapped(*args):
        if len(seen) == calls:
            raise KeyboardInterrupt
        seen.append(1)
        return real(*args)

    monkeypatch.setattr(module, name, wrapped)


def test_unfinished_dataset_is_staged_and_resumes_to_the_same_rows(tmp_path, monkeypatch):
    run = make_run("501", 500, seed=8, chunk_size=100)
    path = tmp_path / "d.parquet"
    interrupt_after(monkeypatch, runner, "_write_part", 2)
    with pytest.raises(KeyboardInterrupt):
        simulate_to_dataset(path, run, n_jobs=1)
    monkeypatch.undo()
    assert not path.exists()  # a reader of the final path cannot take 200 deals for the whole run
    assert sorted(p.name for p in staging(path).glob("part-*")) == ["part-000000.parquet", "part-000001.parquet"]
    (staging(path) / ".tmp-left-by-kill-9.parquet").write_bytes(b"junk")
    simulate_to_dataset(path, run, n_jobs=1)
    assert not staging(path).exists()
    assert json.loads((path / "_manifest.json").read_text())["complete"] is True
    pd.testing.assert_frame_equal(cardsim.read_dataset(path), cardsim.simulate("501", 500, seed=8, n_jobs=1))
    assert simulate_to_dataset(path, run) == path  # complete: nothing to do
    with pytest.raises(OutputError, match="different run"):
        simulate_to_dataset(path, make_run("501", 500, seed=9, chunk_size=100))


def test_in_memory_rows_are_the_engine_rows_with_any_workers():
    spec = cardsim.get_game("vint")
    rows = np.concatenate([spec.simulate_chunk(6, s, 300, spec.setup()) for s in range(0, 900, 300)])
    expected = cardsim.frames.deals("vint", rows)
    for n_jobs in (1, 2):
        pd.testing.assert_frame_equal(cardsim.simulate("vint", 900, seed=6, chunk_size=300, n_jobs=n_jobs), expected)


def test_match_run_killed_mid_way_resumes_to_identical_files(tmp_path):
    out = tmp_path / "games.parquet"
    cmd = [sys.executable, "-m", "cardsim.cli", "simulate", "501", "--matches", "30000", "--seed", "3",
           "--jobs", "1", "-o", str(out)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    while not list(staging(out).glob("chunk-*.pkl")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert staging(out).exists() and not out.exists()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    assert not staging(out).exists()
    matches, deals = cardsim.play_match("501", 30000, seed=3, n_jobs=1)
    for df, path in ((matches, out), (deals, tmp_path / "games-deals.parquet")):
        expected = tmp_path / "expected.parquet"
        df.to_parquet(expected)
        assert path.read_bytes() == expected.read_bytes()


def test_compare_resumes_from_its_store(tmp_path, monkeypatch):
    C = sys.modules["cardsim.compare"]  # cardsim.compare is the function; the module holds _chunk_sums

    kw = dict(seed=4, n_jobs=1, chunk_size=150)
    args = ("vint", 600, "heuristic", {"aggressive": "heuristic:aggression=1"}, lambda df: df.total_0)
    store = tmp_path / "cmp"
    interrupt_after(monkeypatch, C, "_chunk_sums", 2)
    with pytest.raises(KeyboardInterrupt):
        compare(*args, store=store, **kw)
    monkeypatch.undo()
    chunks = sorted(store.glob("chunk-*.pkl"))
    assert len(chunks) == 2
    # A chunk damaged on disk (never by an interruption: chunks are written whole) stops the
    # resume with a one-line error naming the file, not a pickle traceback.
    good = chunks[1].read_bytes()
    chunks[1].write_bytes(good[:len(good) // 2])
    with pytest.raises(OutputError, match=f"{chunks[1].name} is damaged .*remove that file"):
        compare(*args, store=store, **kw)
    chunks[1].write_bytes(good)
    resumed = compare(*args, store=store, **kw)
    pd.testing.assert_frame_equal(resumed, compare(*args, **kw), check_exact=True)
    with pytest.raises(OutputError, match="different run"):
        compare(*args[:3], {"other": "random"}, args[4], store=store, **kw)


def test_evaluate_resumes_and_removes_its_store(tmp_path, monkeypatch):
    kw = dict(seat=0, options=["P", "1S", "1NT"], n=400, seed=2, dealer=0, n_jobs=1, chunk_size=100)
    store = tmp_path / "q"
    interrupt_after(monkeypatch, questions, "_chunk_sums", 3)
    with pytest.raises(KeyboardInterrupt):
        cardsim.evaluate("vint", store=store, **kw)
    monkeypatch.undo()
    assert len(list(store.glob("chunk-*.pkl"))) == 3
    resumed = cardsim.evaluate("vint", store=store, **kw)
    assert not store.exists()
    pd.testing.assert_frame_equal(resumed, cardsim.evaluate("vint", **kw), check_exact=True)


def test_checks_come_before_any_work(tmp_path, capsys, monkeypatch):
    (tmp_path / "a-file").write_text("")
    started = time.perf_counter()
    assert main(["simulate", "501", "--matches", "5000", "-o", str(tmp_path / "a-file" / "g.parquet")]) == 2
    assert "cannot write" in one_line_error(capsys) and time.perf_counter() - started < 5
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(runner.shutil, "disk_usage", lambda path: Usage(10**9, 10**9 - 10**6, 10**6))
    assert main(["simulate", "vint", "-n", "1000000", "-o", str(tmp_path / "big")]) == 2
    assert "GB free" in one_line_error(capsys)
    assert not (tmp_path / "big").exists() and not staging(tmp_path / "big").exists()
    monkeypatch.setattr(runner, "memory_cap", lambda game: 1000)
    assert main(["simulate", "vint", "-n", "5000"]) == 2
    assert "-o" in one_line_error(capsys)
    with pytest.raises(ValueError, match="do not fit in memory"):
        cardsim.simulate("vint", 5000)


def test_a_folder_that_is_no_dataset_is_refused(tmp_path, capsys):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(OutputError, match="not a cardsim dataset"):
        simulate_to_dataset(tmp_path / "mine", make_run("vint", 10))
    # A refused run writes nothing, not even the records asked for beside it.
    argv = ["simulate", "vint", "-n", "10", "--jobs", "1", "--records", str(tmp_path / "r.jsonl"), "-o"]
    assert main(argv + [str(tmp_path / "mine")]) == 2
    assert "not a cardsim dataset" in one_line_error(capsys) and not (tmp_path / "r.jsonl").exists()
    assert main(argv + [str(tmp_path / "d.parquet")]) == 0
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 10


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        yield client


@pytest.mark.parametrize("game", ["vint", "501", "500"])
def test_dask_cluster_rows_equal_one_job(dask_client, game):
    kw = dict(seed=5, chunk_size=250)
    pd.testing.assert_frame_equal(cardsim.simulate(game, 1000, client=dask_client, **kw),
                                  cardsim.simulate(game, 1000, n_jobs=1, **kw))


def test_dask_cluster_dataset_and_aggregate_equal_one_job(dask_client, tmp_path):
    from joblib import parallel_config

    run = make_run("vint", 1000, seed=5, chunk_size=250)
    simulate_to_dataset(tmp_path / "a", run, client=dask_client)
    simulate_to_dataset(tmp_path / "b", run, n_jobs=1)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a"), pd.read_parquet(tmp_path / "b"))
    args = ("501", 1000, "heuristic", {"blind": "heuristic:blind_prob=1"}, lambda df: df.delta_0)
    with parallel_config(backend="dask", client=dask_client):  # the API honours joblib's configuration
        on_cluster = compare(*args, seed=5, chunk_size=250)
    pd.testing.assert_frame_equal(on_cluster, compare(*args, seed=5, chunk_size=250, n_jobs=1), check_exact=True)


@pytest.mark.parametrize("command", [["simulate", "vint", "-n", "5"], ["evaluate", "vint", "--option", "P"]])
def test_long_commands_use_all_cores_and_show_progress_on_a_terminal_by_default(command):
    from cardsim.cli import build_parser

    args = build_parser().parse_args(command)
    assert args.jobs == -1 and args.progress is None and args.scheduler is None
    assert build_parser().parse_args(command + ["--no-progress", "--jobs", "1"]).progress is False


def test_a_small_run_imports_no_parallel_progress_or_parser_library():
    # Start-up target (issue 10): under 1.5 s for ``-n 1000``.  joblib, tqdm and the hand-class
    # parser cost about a fifth of it, and a one-chunk run without a bar needs none of them.
    code = ("import sys, cardsim; df = cardsim.simulate('501', 50, 1); "
            "print(sorted(m for m in ('joblib', 'tqdm', 'lark') if m in sys.modules)); "
            "from cardsim import evaluate; print(callable(evaluate), 'lark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "True True"


def test_quality_command_resumes_from_the_runs_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    argv = ["quality", "501", "-n", "150", "--seed", "3", "--jobs", "1", "--format", "json",
            "--strategies", "heuristic", "random"]
    real_save = runner.ChunkStore.save
    saved = []

    def save_then_stop(self, k, result):
        if len(saved) == 2:
            raise KeyboardInterrupt
        saved.append(k)
        real_save(self, k, result)

    monkeypatch.setattr(runner.ChunkStore, "save", save_then_stop)
    assert main(argv) == 130
    assert "finished chunks are kept" in one_line_error(capsys)
    monkeypatch.undo()
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    (store,) = (tmp_path / "runs").iterdir()
    assert len(list(store.glob("chunk-*.pkl"))) == 2
    assert main(argv) == 0
    resumed = capsys.readouterr().out
    assert not store.exists()  # removed once the table is printed
    assert main(argv) == 0
    assert resumed == capsys.readouterr().out
    assert json.loads(resumed)[0]["deals"] == 150


@pytest.mark.parametrize("argv, kept", [(["simulate", "vint", "-n", "100"], "nothing is kept without -o"),
                                        (["simulate", "vint", "-n", "100", "-o", "x.parquet"], "finished chunks are kept"),
                                        (["replay", "x.jsonl"], "nothing was written")])
def test_ctrl_c_says_what_is_kept(argv, kept, monkeypatch, capsys):
    from cardsim import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, argv[0], interrupted)
    assert main(argv) == 130
    assert kept in one_line_error(capsys)
