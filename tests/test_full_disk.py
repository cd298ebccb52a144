"""Outputs on a full disk and damaged dataset files: one line and a non-zero exit, never a
traceback, an exit code 120 or a truncated file left as if complete; a damaged part is found by
its manifest's checksum, named by read_dataset and rewritten by the same command.

A full disk is injected (an OSError(ENOSPC) raised by the writer, /dev/full for standard
output), so the tests run anywhere, without a small file system made for them."""
import errno
import json
import os
import pathlib
import resource
import subprocess
import sys
import zlib

import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.games.base import OptionError
from cardsim.runner import dataset
from cardsim.runner.dataset import part_path, staging
from cardsim.runner.read import read_parts

NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device"
CLI = [sys.executable, "-m", "cardsim"]


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def leftovers(folder: pathlib.Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".tmp-*"))


def full_after(nbytes: int):
    """A writer of ``nbytes`` bytes and then no space left, as a disk that fills while it writes."""
    def write(path, *args, **kwargs):
        with open(path, "wb") as f:
            f.write(b"x" * nbytes)
        raise OSError(errno.ENOSPC, NO_SPACE)
    return write


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [["export", "vint", "--seed", "7", "-n", "3"], ["columns", "vint"]])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_code_2(argv):
    with open("/dev/full", "w") as full:
        out = subprocess.run(CLI + argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert out.returncode == 2
    assert one_line(out.stderr) == f"cardsim: error: cannot write standard output: {NO_SPACE} (what was written " \
                                   "before it is incomplete)"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_replay_to_a_full_standard_output_is_one_line(tmp_path, capsys):
    records = tmp_path / "r.jsonl"
    assert main(["simulate", "501", "-n", "3", "--seed", "4", "--records", str(records)]) == 0
    capsys.readouterr()
    with open("/dev/full", "w") as full:
        out = subprocess.run(CLI + ["replay", str(records)], stdout=full, stderr=subprocess.PIPE, text=True,
                             timeout=300)
    assert out.returncode == 2
    assert f"cannot write standard output: {NO_SPACE}" in one_line(out.stderr)


def test_a_disk_that_fills_during_simulate_o_stops_with_one_line_and_resumes(tmp_path, capsys, monkeypatch):
    path = tmp_path / "d"
    real, calls = dataset.encode_rows, []

    def fills_on_the_third_part(rows, sink):
        calls.append(1)
        if len(calls) == 3:
            # pyarrow's own error: no errno, the reason inside its message
            with open(sink, "wb") as f:
                f.write(b"PAR1 half a part")
            raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")
        real(rows, sink)

    monkeypatch.setattr(dataset, "encode_rows", fills_on_the_third_part)
    argv = ["simulate", "vint", "-n", "500", "--seed", "3", "--chunk-size", "100", "--jobs", "1", "-o", str(path)]
    assert main(argv) == 2
    err = one_line(capsys.readouterr().err)
    assert err == (f"cardsim: error: cannot write {staging(path) / 'part-000002.parquet'}: Error writing bytes to "
                   "file. Detail: [errno 28] No space left on device")
    assert not path.exists()  # nothing passes for the whole run
    assert sorted(p.name for p in staging(path).glob("part-*")) == ["part-000000.parquet", "part-000001.parquet"]
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    assert main(argv) == 0
    pd.testing.assert_frame_equal(cardsim.read_dataset(path), cardsim.simulate("vint", 500, seed=3, n_jobs=1))


@pytest.mark.parametrize("argv", [["simulate", "vint", "-n", "20"],
                                  ["evaluate", "vint", "--seat", "1", "--option", "P", "-n", "50", "--jobs", "1"]])
def test_records_on_a_full_disk_leave_no_truncated_file(tmp_path, capsys, monkeypatch, argv):
    records = tmp_path / "r.jsonl"
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    real = pathlib.Path.write_text

    def fills(self, text, *args, **kwargs):
        if not (self.name.startswith(".tmp-") and self.suffix == ".jsonl"):  # the probe, a run's manifest
            return real(self, text, *args, **kwargs)
        real(self, text[:len(text) // 2], *args, **kwargs)  # half the records reach the disk
        raise OSError(errno.ENOSPC, NO_SPACE)

    monkeypatch.setattr(pathlib.Path, "write_text", fills)
    assert main(argv + ["--records", str(records)]) == 2
    assert one_line(capsys.readouterr().err) == f"cardsim: error: cannot write {records}: {NO_SPACE}"
    assert not records.exists() and leftovers(tmp_path) == []


def test_matches_on_a_full_disk_are_one_line_and_keep_the_finished_chunks(tmp_path, capsys, monkeypatch):
    out = tmp_path / "m.parquet"
    monkeypatch.setattr(pd.DataFrame, "to_parquet", lambda self, path, *a, **k: full_after(100)(path))
    argv = ["simulate", "501", "--matches", "3", "--seed", "2", "--jobs", "1", "-o", str(out)]
    assert main(argv) == 2
    assert one_line(capsys.readouterr().err) == f"cardsim: error: cannot write {tmp_path / 'm-deals.parquet'}: " \
                                                f"{NO_SPACE}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.parquet.partial"]  # no half-written file
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    assert main(argv) == 0
    assert len(pd.read_parquet(out)) == 3


def test_the_chunks_of_a_match_run_on_a_full_disk_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pathlib.Path, "write_bytes", full_after(10))  # ChunkStore.save pickles with it
    assert main(["simulate", "501", "--matches", "3", "--jobs", "1", "-o", str(tmp_path / "m.parquet")]) == 2
    err = one_line(capsys.readouterr().err)
    assert err == f"cardsim: error: cannot write {tmp_path / 'm.parquet.partial' / 'chunk-000000.pkl'}: {NO_SPACE}"
    assert leftovers(tmp_path) == []


def test_the_evaluate_run_store_at_zero_bytes_free(tmp_path, capsys, monkeypatch):
    from collections import namedtuple

    from cardsim.runner import store

    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    argv = ["evaluate", "vint", "--seat", "1", "--option", "P", "-n", "200", "--jobs", "1"]
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(store.shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 0))
    assert main(argv) == 2
    assert one_line(capsys.readouterr().err).startswith(f"cardsim: error: {tmp_path / 'runs'}")
    monkeypatch.undo()
    monkeypatch.setenv("CARDSIM_RUNS", str(tmp_path / "runs"))
    # At 0 bytes free even the empty probe file of the runs folder may not be made.
    monkeypatch.setattr(pathlib.Path, "write_text", full_after(0))
    assert main(argv) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"cardsim: error: cannot write {tmp_path / 'runs'}") and err.endswith(NO_SPACE)
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------ damaged parts
def _made(tmp_path, capsys):
    path = tmp_path / "d"
    argv = ["simulate", "501", "-n", "300", "--seed", "5", "--chunk-size", "100", "--jobs", "1", "-o", str(path)]
    assert main(argv) == 0
    capsys.readouterr()
    return path, argv, cardsim.read_dataset(path)


def _truncate(part):
    part.write_bytes(part.read_bytes()[:-200])


def _garble(part):
    data = bytearray(part.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 8] = bytes(b ^ 0xFF for b in data[middle:middle + 8])  # same size, other bytes
    part.write_bytes(bytes(data))


@pytest.mark.parametrize("damage,why", [(_truncate, "bytes, the manifest says"),
                                        (_garble, "its checksum differs from the manifest's")])
def test_a_damaged_part_is_named_by_read_dataset_and_rewritten_by_the_same_command(tmp_path, capsys, damage, why):
    path, argv, whole = _made(tmp_path, capsys)
    manifest = json.loads((path / "_manifest.json").read_text())
    assert [p["rows"] for p in manifest["parts"]] == [100, 100, 100]
    for k, p in enumerate(manifest["parts"]):  # each part's size and CRC-32, 8 hex digits
        data = part_path(path, k).read_bytes()
        assert p["bytes"] == len(data) and p["crc32"] == f"{zlib.crc32(data):08x}"
    damage(part_path(path, 1))
    with pytest.raises(OptionError) as caught:
        cardsim.read_dataset(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{part_path(path, 1)} is damaged (") and why in message
    assert message.endswith(f"run `cardsim simulate 501 -n 300 --seed 5 --chunk-size 100 -o {path}` to rewrite "
                            "its chunk")
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"{part_path(path, 1)} is damaged" in err and "its chunk is played again" in err
    pd.testing.assert_frame_equal(cardsim.read_dataset(path), whole)
    assert json.loads((path / "_manifest.json").read_text())["parts"] == manifest["parts"]


def test_a_part_pyarrow_cannot_read_is_one_line_even_without_recorded_checksums(tmp_path, capsys):
    path, argv, whole = _made(tmp_path, capsys)
    manifest = json.loads((path / "_manifest.json").read_text())
    del manifest["parts"]  # a dataset written before parts were recorded
    (path / "_manifest.json").write_text(json.dumps(manifest))
    _truncate(part_path(path, 2))
    with pytest.raises(OptionError, match=r"part-000002.parquet is damaged \(it is not readable parquet: .*\); run "
                                          r"`cardsim simulate 501"):
        cardsim.read_dataset(path)
    assert main(argv) == 0  # the footer is gone: found without a checksum too
    assert "part-000002.parquet is damaged (it is not a whole parquet file)" in capsys.readouterr().err
    pd.testing.assert_frame_equal(cardsim.read_dataset(path), whole)


def test_an_unfinished_run_with_a_damaged_part_plays_that_chunk_again(tmp_path, capsys, monkeypatch):
    path = tmp_path / "d"
    from cardsim.runner.run import make_run

    run = make_run("501", 300, seed=5, chunk_size=100)
    real, calls = dataset.write_part, []

    def stop_at_third(*args):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(dataset, "write_part", stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        dataset.simulate_to_dataset(path, run, n_jobs=1)
    monkeypatch.undo()
    _truncate(part_path(staging(path), 0))
    dataset.simulate_to_dataset(path, run, n_jobs=1)
    assert "part-000000.parquet is damaged (it is not a whole parquet file)" in capsys.readouterr().err
    pd.testing.assert_frame_equal(cardsim.read_dataset(path), cardsim.simulate("501", 300, seed=5, n_jobs=1))


def dealers(df):
    """A transform: each chunk's deals by dealer (a part of 4 rows, not of the chunk's deals)."""
    return df.groupby("dealer").size().to_frame("n")


def test_a_transform_dataset_resumes_and_is_not_taken_for_damaged(tmp_path, capsys, monkeypatch):
    from cardsim.runner.run import make_run

    path, run = tmp_path / "agg", make_run("501", 300, seed=5, chunk_size=100)
    real, calls = dataset.write_part, []

    def counted(*args):
        if len(calls) == 2 and not monkeypatch_done:
            raise KeyboardInterrupt
        calls.append(args[1])
        return real(*args)

    monkeypatch_done = False
    monkeypatch.setattr(dataset, "write_part", counted)
    with pytest.raises(KeyboardInterrupt):
        dataset.simulate_to_dataset(path, run, n_jobs=1, transform=dealers)
    monkeypatch_done = True
    dataset.simulate_to_dataset(path, run, n_jobs=1, transform=dealers)
    assert calls == [0, 1, 2]  # the two finished parts kept: aggregates are not short of rows
    dataset.simulate_to_dataset(path, run, n_jobs=1, transform=dealers)
    assert calls == [0, 1, 2] and capsys.readouterr().err == ""  # complete, nothing damaged
    parts = read_parts(path)
    assert [int(p["n"].sum()) for p in parts] == [100, 100, 100]
    _garble(part_path(path, 2))
    with pytest.raises(OptionError, match=r"^\S+part-000002.parquet is damaged \(its checksum differs from the "
                                          r"manifest's\); run the command that made it again$"):
        read_parts(path)


def test_need_and_free_that_round_alike_are_given_in_bytes(tmp_path, capsys, monkeypatch):
    # Seen on a 3 MB disk: "need about 3.1 MB and ... has 3.1 MB free" read as a contradiction.
    from collections import namedtuple

    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(dataset.shutil, "disk_usage", lambda path: Usage(10**9, 10**9 - 3_290_000, 3_290_000))
    monkeypatch.setattr(dataset, "estimated_bytes", lambda run, deals, chunks: 3_000_000)  # x 1.1 = 3,300,000
    assert main(["simulate", "vint", "-n", "100000", "-o", str(tmp_path / "d")]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"cardsim: error: 100,000 vint deals need about 3,300,000 bytes and {tmp_path} has 3,290,000 bytes free; "
        "free some space, write elsewhere or simulate fewer deals")


def test_closed_standard_output_is_one_line():
    # `cardsim replay r.jsonl >&-` ended in an AttributeError traceback (sys.stdout is None).
    out = subprocess.run([*CLI, "show", "vint", "--seed", "1", "--deal", "3"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, pass_fds=(), close_fds=True,
                         preexec_fn=lambda: os.close(1))
    assert out.returncode == 2
    assert out.stderr == "cardsim: error: cannot write standard output: it is closed\n"


@pytest.mark.parametrize("argv", [["--help"], ["evaluate", "--help"]])
def test_help_on_a_full_disk_is_an_error(argv):
    # argparse dropped the write error and exited 0: a help nobody got is not a success.
    with open("/dev/full", "w") as full:
        out = subprocess.run([*CLI, *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert out.returncode == 2
    assert one_line(out.stderr).startswith("cardsim: error: cannot write standard output: No space left on device")


def test_a_huge_manifest_is_not_read_whole(tmp_path):
    """A _manifest.json grown to 3 GB (a sparse file here) was read whole by the re-run and by
    read_dataset: a MemoryError under a memory limit.  It is refused by its size, one line."""
    out = tmp_path / "d.parquet"
    assert main(["simulate", "vint", "-n", "50", "--seed", "1", "-o", str(out), "--jobs", "1"]) == 0
    with open(out / "_manifest.json", "r+b") as handle:
        handle.truncate(3 << 30)
    res = subprocess.run([*CLI, "simulate", "vint", "-n", "50", "--seed", "1", "-o", str(out), "--jobs", "1"],
                         capture_output=True, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                                  NUMBA_NUM_THREADS="1"),  # per-thread reservations count against the cap
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)))
    assert res.returncode == 2
    assert one_line(res.stderr) == (f"cardsim: error: {out}/_manifest.json is unreadable; remove {out} to start "
                                    f"again")
    with pytest.raises(OptionError, match="has no readable _manifest.json: not a cardsim dataset"):
        cardsim.read_dataset(out)
