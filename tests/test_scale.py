"""Execution at scale: staged datasets, runs that resume after an interruption with exactly the
result of an uninterrupted run, checks made before any work, and dask.distributed clusters."""
import json
import os
import re
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
from cardsim import questions
from cardsim.runner import dataset, pool
from cardsim.runner import store as chunk_store
from cardsim.runner import run as R
from cardsim.cli import main
from cardsim.compare import compare
from cardsim.runner.dataset import simulate_to_dataset, staging
from cardsim.runner.files import OutputError
from cardsim.runner.run import make_run

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
    interrupt_after(monkeypatch, dataset, "write_part", 2)
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
    rows = np.concatenate([spec.play.simulate_chunk(6, s, 300, spec.setup()) for s in range(0, 900, 300)])
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
    C = sys.modules["cardsim.compare"]  # cardsim.compare is the function; the module holds chunk_sums

    kw = dict(seed=4, n_jobs=1, chunk_size=150)
    args = ("vint", 600, "heuristic", {"aggressive": "heuristic:aggression=1"}, lambda df: df.total_0)
    store = tmp_path / "cmp"
    interrupt_after(monkeypatch, C, "chunk_sums", 2)
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
    interrupt_after(monkeypatch, questions, "chunk_sums", 3)
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
    monkeypatch.setattr(dataset.shutil, "disk_usage", lambda path: Usage(10**9, 10**9 - 10**6, 10**6))
    assert main(["simulate", "vint", "-n", "1000000", "-o", str(tmp_path / "big")]) == 2
    message = one_line_error(capsys)  # sizes in units that show them, not "0.0 GB"
    assert "has 1.0 MB free" in message and re.search(r"need about [1-9][\d.]* MB and", message)
    assert not (tmp_path / "big").exists() and not staging(tmp_path / "big").exists()
    monkeypatch.setattr(R, "memory_cap", lambda game: 1000)
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


@pytest.mark.parametrize("argv", [["--help"], ["simulate", "--help"], ["dd", "--help"], ["evaluate", "--help"]])
def test_help_imports_no_engine_pandas_or_numba(argv):
    # Start-up target (issue 27): `cardsim --help` under 0.5 s.  Building the parsers needs none of
    # the heavy modules; the commands import them.
    code = ("import runpy, sys\nsys.argv = ['cardsim', *sys.argv[1:]]\ntry:\n    runpy.run_module('cardsim', "
            "run_name='__main__')\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
            "heavy = ('numba', 'pandas', 'pyarrow', 'scipy', 'joblib', 'cardsim.deal', 'cardsim.dd')\n"
            "print(sorted(m for m in sys.modules if m in heavy or m.startswith(('cardsim.games.', 'cardsim.runner'))), "
            "file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("usage: cardsim")
    assert out.stderr.strip() == "['cardsim.games.base']"


@pytest.mark.parametrize("game", ["vint", "501"])
def test_a_worker_writing_dataset_parts_imports_no_pandas(game, tmp_path):
    # A worker of `simulate -o` plays and encodes chunks: pandas would be a fifth of its start.
    code = ("import sys, pathlib; from cardsim.runner.dataset import write_part; from cardsim.games import get_game; "
            f"s = get_game({game!r}); write_part(pathlib.Path({str(tmp_path)!r}), 0, s.setup(), 1, 0, 100); "
            "print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    assert len(pd.read_parquet(tmp_path / "part-000000.parquet")) == 100


def test_package_names_load_on_first_use():
    code = ("import sys, cardsim; print('pandas' in sys.modules, 'numba' in sys.modules); "
            "from cardsim.compare import compare; import cardsim.runner.run as R; "
            "print(cardsim.compare is compare, cardsim.simulate is R.simulate, cardsim.MAX_DEALS == R.MAX_DEALS, "
            "set(cardsim.__all__) <= set(dir(cardsim)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["False False", "True True True True"]


def test_quality_command_resumes_from_the_runs_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    argv = ["quality", "501", "-n", "150", "--seed", "3", "--jobs", "1", "--format", "json",
            "--strategies", "heuristic", "random"]
    real_save = chunk_store.ChunkStore.save
    saved = []

    def save_then_stop(self, k, result):
        if len(saved) == 2:
            raise KeyboardInterrupt
        saved.append(k)
        real_save(self, k, result)

    monkeypatch.setattr(chunk_store.ChunkStore, "save", save_then_stop)
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


# --------------------------------------------------------------- when the default starts workers
def _busiest_of_two(n: int, chunk: int) -> int:
    """Deals the busier of 2 workers plays when ``n`` deals in chunks of ``chunk`` go in turn to the
    first free worker: full chunks alternate, and the last (partial) chunk joins the lighter one."""
    full, last = divmod(n, chunk)
    loads = [(full + 1) // 2 * chunk, full // 2 * chunk]
    loads[1 if full % 2 else 0] += last
    return max(loads)


@pytest.mark.parametrize("game", ["vint", "501", "500"])
def test_the_default_starts_two_workers_exactly_when_they_save_more_than_their_start(game):
    from cardsim.bench.crossover import worker_threshold

    d, start = cardsim.get_game(game).play.deal_seconds, pool.WORKER_START_SECONDS
    threshold = worker_threshold(game, 2)
    assert 200_000 < threshold < 2_000_000  # on 2 cores the crossover lies between these (BENCHMARKS.md)
    for n in (threshold - 1, threshold, threshold + 1, 100_000, 1_000_000, 3_000_000):
        pays = (n - _busiest_of_two(n, R.DEFAULT_CHUNK)) * d > start
        assert R.deal_jobs(n, game, -1, cores=2) == (2 if pays else 1), n
    assert R.deal_jobs(threshold - 1, game, -1, cores=2) == 1
    assert R.deal_jobs(threshold, game, -1, cores=2) == 2
    assert R.deal_jobs(threshold, game, -1, cores=1) == 1
    # Asked for by number, workers start however small the run (at most one per chunk).
    assert R.deal_jobs(20_000, game, 2, cores=2) == 1
    assert R.deal_jobs(200_000, game, 2, cores=2) == 2
    assert R.deal_jobs(200_000, game, 3, cores=2, chunk_size=50_000) == 3


def test_choose_jobs_weighs_the_busiest_worker_and_takes_unknown_work_as_large():
    start = pool.WORKER_START_SECONDS
    # Two equal tasks on two workers save half the work.
    assert pool.choose_jobs(-1, [100, 100], 2 * start, cores=2) == 1
    assert pool.choose_jobs(-1, [100, 100], 2 * start * 1.001, cores=2) == 2
    # One task of four times the other: the busiest worker plays 4/5 of the work, 1/5 is saved.
    assert pool.choose_jobs(-1, [400, 100], 4 * start, cores=2) == 1
    assert pool.choose_jobs(-1, [400, 100], 5.01 * start, cores=2) == 2
    assert pool.choose_jobs(-1, [1] * 8, None, cores=4) == 4
    assert pool.choose_jobs(-2, [1] * 8, 100 * start, cores=4) == 3  # all cores but one
    assert pool.choose_jobs(-1, [1], 100 * start, cores=4) == 1
    with pytest.raises(cardsim.OptionError, match="n_jobs must be"):
        pool.choose_jobs(0, [1, 1], 1.0)


def _no_workers(monkeypatch):
    """Make starting local workers, or looking at the machine's load, fail the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the default started workers for a small run")

    monkeypatch.setattr(pool, "workers", refuse)
    monkeypatch.setattr(pool, "free_cores", refuse)


def test_small_runs_play_here_by_default_with_the_same_result(tmp_path, monkeypatch):
    kw = dict(seed=6, chunk_size=300)
    with_workers = cardsim.simulate("vint", 900, n_jobs=2, **kw)
    matches2, _ = cardsim.play_match("501", 20, seed=2, chunk_size=5, n_jobs=2)
    ask = dict(seat=0, options=["P", "1S"], n=200, seed=2, dealer=0, chunk_size=100)
    asked2 = cardsim.evaluate("vint", where="hcp>=12", n_jobs=2, **ask)
    args = ("vint", 400, "heuristic", {"random": "random"}, lambda df: df.total_0)
    compared2 = compare(*args, seed=4, chunk_size=100, n_jobs=2)
    _no_workers(monkeypatch)
    pd.testing.assert_frame_equal(cardsim.simulate("vint", 900, **kw), with_workers)
    simulate_to_dataset(tmp_path / "d", make_run("vint", 900, chunk_size=300, **{"seed": 6}))
    pd.testing.assert_frame_equal(cardsim.read_dataset(tmp_path / "d"), with_workers)
    pd.testing.assert_frame_equal(cardsim.play_match("501", 20, seed=2, chunk_size=5)[0], matches2)
    pd.testing.assert_frame_equal(cardsim.evaluate("vint", where="hcp>=12", **ask), asked2, check_exact=True)
    pd.testing.assert_frame_equal(compare(*args, seed=4, chunk_size=100), compared2, check_exact=True)
    assert main(["simulate", "vint", "-n", "900", "--chunk-size", "300", "--no-progress",
                 "-o", str(tmp_path / "cli")]) == 0


def test_a_big_default_run_plays_here_when_other_processes_keep_the_cores_busy(monkeypatch):
    asked = []

    def sequential(jobs):  # stands in for joblib's Parallel: records the workers asked for
        asked.append(jobs)
        return lambda calls: (f(*a, **k) for f, a, k in calls)

    monkeypatch.setattr(pool, "workers", sequential)
    monkeypatch.setattr(pool.os, "cpu_count", lambda: 2)
    big = 100 * pool.WORKER_START_SECONDS
    monkeypatch.setattr(pool, "free_cores", lambda: 1)
    assert list(pool.run_tasks(abs, [(-1,), (-2,)], [1, 1], seconds=big)) == [1, 2] and asked == []
    monkeypatch.setattr(pool, "free_cores", lambda: 2)
    assert list(pool.run_tasks(abs, [(-1,), (-2,)], [1, 1], seconds=big)) == [1, 2] and asked == [2]
    monkeypatch.setattr(pool, "free_cores", lambda: 1)
    assert list(pool.run_tasks(abs, [(-1,), (-2,)], [1, 1], n_jobs=2, seconds=0.0)) == [1, 2] and asked == [2, 2]


def test_free_cores_leaves_out_what_other_processes_use(monkeypatch):
    import psutil

    Times = namedtuple("Times", "user nice system idle")
    monkeypatch.setattr(pool.time, "sleep", lambda s: None)

    def cores_free(cores, busy):  # ``busy`` CPU seconds of all processes in the 0.1 s watched
        clock = iter([Times(100.0, 0.0, 10.0, 500.0), Times(100.0 + busy, 0.0, 10.0, 500.0)])
        ticks = iter([0.0, 0.1])
        monkeypatch.setattr(psutil, "cpu_times", lambda: next(clock))
        monkeypatch.setattr(pool.time, "perf_counter", lambda: next(ticks))
        return pool.free_cores(cores=cores, window=0.1)

    assert cores_free(4, 0.17) == 2  # 1.7 cores busy elsewhere
    assert cores_free(2, 0.17) == 1  # never fewer than one
    assert cores_free(4, 0.02) == 4
    assert cores_free(2, 0.09) == 1  # most of a core busy: that core is taken


def test_estimates_count_every_play_of_a_deal():
    vint, g501 = cardsim.get_game("vint"), cardsim.get_game("501")
    d = {"vint": vint.play.deal_seconds, "501": g501.play.deal_seconds}
    assert pool.deal_seconds("501", 1000) == pytest.approx(1000 * d["501"])
    assert pool.match_seconds("vint", 10) == pytest.approx(10 * vint.matches.deals_per_match * d["vint"])
    # A 501 game from a state ends sooner, in proportion to its lowest score; never below a deal.
    assert pool.match_seconds("501", 10, [501, 250, 400]) == pytest.approx(
        10 * g501.matches.deals_per_match * 250 / 501 * d["501"])
    assert pool.match_seconds("501", 10, [501, 5, 400]) == pytest.approx(10 * d["501"])
    q = questions.question("vint", options=["P", "1S", "1NT"], n=3000, seed=1, dealer=0, chunk_size=1000)
    assert questions.question_seconds(q) == pytest.approx(3 * 3000 * d["vint"])
    rare = questions.question("vint", options=["P", "1S"], n=3000, seed=1, where="hcp>=20", dealer=0)
    assert questions.question_seconds(rare) > 2 * 3000 * d["vint"]  # dealing under the class costs more
