"""Workers and the options that start them: workers end with the run that started them (kill -9
of the parent), ``--jobs`` outside -1 and 1..cores is one line, and ``export`` of many boards
shows progress and checks the disk as ``simulate -o`` does."""
import os
import signal
import subprocess
import sys
import time
from collections import namedtuple

import psutil
import pytest

from cardsim.cli import main
from cardsim.runner import pool


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


CORES = os.cpu_count() or 1


@pytest.mark.parametrize("jobs", ["0", "-2", str(CORES + 1), "1.5", "many"])
def test_jobs_outside_minus_one_and_one_to_the_cores_is_one_line(jobs, capsys):
    with pytest.raises(SystemExit) as ended:  # argparse's error: before any work
        main(["simulate", "vint", "-n", "10", "--jobs", jobs])
    assert ended.value.code == 2
    err = one_line(capsys.readouterr().err)
    assert f"argument --jobs: must be -1 (all cores) or a whole number from 1 to {CORES} (this machine's cores), " \
           f"got {jobs}" in err


@pytest.mark.parametrize("jobs", ["-1", "1", str(CORES)])
def test_jobs_minus_one_and_one_to_the_cores_are_taken(jobs, capsys):
    assert main(["simulate", "501", "-n", "10", "--jobs", jobs]) == 0


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGKILL")
def test_workers_end_within_seconds_when_their_run_is_killed(tmp_path):
    """kill -9 of `simulate --jobs 2`: its two loky workers notice within seconds (they used to
    idle out after 300 s, finishing the chunks handed to them first)."""
    out = tmp_path / "d"
    # Big enough to keep both workers busy for minutes on a shared machine; killed long before.
    argv = [sys.executable, "-m", "cardsim", "simulate", "vint", "-n", "2000000", "--chunk-size", "20000",
            "--jobs", "2", "-o", str(out)]
    parent = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and parent.poll() is None:
            # loky's workers, started with the interpreter and loky's own code (not its resource tracker)
            workers = [c for c in psutil.Process(parent.pid).children(recursive=True)
                       if "loky" in " ".join(c.cmdline()) and "resource_tracker" not in " ".join(c.cmdline())]
            if len(workers) == 2 and any((out.with_name("d.partial")).glob("part-*.parquet")):
                break
            time.sleep(0.2)
        assert len(workers) == 2 and parent.poll() is None, "the run did not get two working workers in time"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        killed = time.monotonic()
        gone, alive = psutil.wait_procs(workers, timeout=10)
        assert alive == [], f"workers still running 10 s after their parent was killed: {alive}"
        assert time.monotonic() - killed < 10
    finally:
        for p in workers:
            try:
                p.kill()
            except psutil.Error:
                pass
        if parent.poll() is None:
            parent.kill()


def test_a_worker_whose_parent_is_gone_ends_at_its_first_task():
    # The parent died between the worker's start and its first chunk: os.getppid() differs at once.
    code = ("import os; from cardsim.runner.pool import run_guarded; "
            "run_guarded(os.getppid() + 1000000, print, 'played'); print('not ended')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout == ""


def test_run_tasks_runs_here_without_the_parent_watch():
    # Played in this process (jobs 1): nothing to watch, and the watch never ends this process.
    assert list(pool.run_tasks(pow, [(2, 3), (3, 2)], [1, 1], n_jobs=1)) == [8, 9]
    pool.end_with_parent(os.getpid())
    assert pool.watched_parent() is None


def test_export_of_many_boards_shows_progress(tmp_path, capsys):
    out = tmp_path / "b.pbn"
    assert main(["export", "vint", "-n", "12000", "--seed", "3", "--progress", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "12.0k/12.0k" in err and "board/s" in err  # tqdm's bar, in boards
    assert out.read_text().count('[Board "') == 12000


def test_export_checks_the_disk_before_writing(tmp_path, capsys, monkeypatch):
    import shutil

    out = tmp_path / "b.pbn"
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**9, 10**9 - 50_000, 50_000))
    assert main(["export", "vint", "-n", "2000", "--seed", "3", "-o", str(out)]) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"cardsim: error: 2,000 boards need about ") and \
        err.endswith(f"and {out} has 50 kB free; free some space, write elsewhere or export fewer deals")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert main(["export", "vint", "-n", "50", "--seed", "3", "-o", str(out)]) == 0  # 50 boards fit


def test_export_to_a_device_or_standard_output_is_not_checked_against_a_folder(capsys, monkeypatch):
    import shutil

    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 0))  # /dev's "free space"
    assert main(["export", "vint", "-n", "3", "--seed", "3", "-o", "/dev/null"]) == 0
    assert capsys.readouterr().err == "3 vint deals written to /dev/null (PBN)\n"


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_export_to_dev_stdout_that_is_a_pipe_is_written_through():
    # /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]": followed to its end it names no file
    out = subprocess.run([sys.executable, "-m", "cardsim", "export", "vint", "-n", "2", "-o", "/dev/stdout"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count('[Board "') == 2


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGTERM")
def test_sigterm_ends_the_run_as_ctrl_c_does(tmp_path):
    """kill -TERM (timeout, a job scheduler) of `simulate --jobs 2 -o`: one line, exit 143, the
    finished chunks kept; it printed the worker library's warnings of leaked semaphores."""
    out = tmp_path / "d"
    argv = [sys.executable, "-m", "cardsim", "simulate", "vint", "-n", "2000000", "--chunk-size", "20000",
            "--jobs", "2", "-o", str(out)]
    parent = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and parent.poll() is None:
            if any(out.with_name("d.partial").glob("part-*.parquet")):
                break
            time.sleep(0.2)
        assert parent.poll() is None, "the run ended before a chunk was finished"
        parent.send_signal(signal.SIGTERM)
        _, err = parent.communicate(timeout=60)
    finally:
        if parent.poll() is None:
            parent.kill()
    assert parent.returncode == 143
    assert one_line(err) == "cardsim: terminated (finished chunks are kept; run the same command again to resume)"
    assert any(out.with_name("d.partial").glob("part-*.parquet"))
