"""Every reader of a user's file caps a line and the file (cardsim/bounded.py, README "Input
limits"): an endless input ends in one line and a non-zero exit code, not in the memory killer.

The command-line tests run cardsim in a subprocess whose address space is capped (RLIMIT_AS), so
that a reader that still read a whole line or file into memory would fail there with a
MemoryError traceback (``cardsim replay /dev/zero`` once grew to 23 GB) instead of passing.
"""
from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.bounded import PBN, PROFILES, RECORDS, RECORDS_HELD, InputTooLarge, Limits, lines, size_text

ROOT = Path(__file__).resolve().parent.parent
ADDRESS_SPACE = 3 << 30
"""The subprocess's cap on its address space: room for Python, numpy and numba, far below what
reading /dev/zero whole would take."""
ZERO = "/dev/zero"

needs_dev_zero = pytest.mark.skipif(not Path(ZERO).exists(), reason="no /dev/zero")


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _cardsim(*argv, stdin=None, timeout=300):
    # One thread for the numerical libraries: each thread's reserved stack and buffers count
    # against the address space, so on a machine of many cores they alone could pass the cap.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               NUMBA_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "cardsim", *argv], cwd=ROOT, stdin=stdin, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=_capped, env=env)


def _one_line(proc, code, message):
    assert proc.returncode == code, (proc.returncode, proc.stderr[-2000:])
    assert proc.stderr == f"cardsim: error: {message}\n", proc.stderr[-2000:]


def test_the_limits_as_documented():
    assert (RECORDS.line, RECORDS.file) == (1 << 20, 1 << 30)
    assert (RECORDS_HELD.line, RECORDS_HELD.file) == (1 << 20, 32 << 20)
    assert (PBN.line, PBN.file) == (1 << 20, 16 << 20)
    assert (PROFILES.line, PROFILES.file) == (1 << 20, 1 << 20)
    assert size_text(1 << 20) == "1 MiB (1,048,576 bytes)"
    assert size_text(1 << 30) == "1 GiB (1,073,741,824 bytes)"
    assert size_text(16 << 20) == "16 MiB (16,777,216 bytes)"
    assert size_text(1000) == "1,000 bytes"
    readme = (ROOT / "README.md").read_text()
    for start, line, file in (("| record file (JSON Lines", "1 MiB", "1 GiB"),
                              ("| record file for export --records |", "1 MiB", "32 MiB"),
                              ("| PBN file (", "1 MiB", "16 MiB"), ("| profile file (", "1 MiB", "1 MiB")):
        [row] = [r for r in readme.splitlines() if r.startswith(start)]
        assert f"| {line} | {file} |" in row, row


def test_lines_stop_at_the_line_cap():
    limits = Limits("test file", line=8, file=100)
    got = []
    with pytest.raises(InputTooLarge) as info:
        for number, raw in lines(io.BytesIO(b"1234567\n12345678\n123456789\n"), "t.txt", limits):
            got.append((number, raw))
    # 8 bytes with the line end is the cap itself; 9 is over it.
    assert got == [(1, b"1234567\n")]
    assert str(info.value) == "t.txt: line 2 is longer than 8 bytes, the limit of a line of a test file"


def test_a_line_of_exactly_the_cap_is_read():
    limits = Limits("test file", line=8, file=100)
    assert list(lines(io.BytesIO(b"1234567\n\n1234567"), "t.txt", limits)) == [
        (1, b"1234567\n"), (2, b"\n"), (3, b"1234567")]


def test_lines_stop_at_the_file_cap():
    limits = Limits("test file", line=8, file=20)
    got = []
    with pytest.raises(InputTooLarge) as info:
        for number, raw in lines(io.BytesIO(b"1234567\n" * 4), "-", limits):
            got.append(number)
    assert got == [1, 2]  # 16 bytes; the third line would make 24
    assert str(info.value) == "standard input: more than 20 bytes (at line 3), the limit of a test file"


# ---- each reader of the command line, with an endless line under a memory cap -----------------
@needs_dev_zero
@pytest.mark.parametrize("argv, code, kind", [
    (["replay", ZERO], 1, "record file (JSON Lines)"),
    (["show", "--record", ZERO], 1, "record file (JSON Lines)"),
    (["dd", "--record", ZERO], 1, "record file (JSON Lines)"),
    (["export", "vint", "--records", ZERO], 1, "record file for export --records"),
    (["export", "vint", "--pbn", ZERO], 1, "PBN file"),
    (["show", "--pbn", ZERO], 1, "PBN file"),
    (["evaluate", "vint", "--pbn", ZERO, "--seat", "0", "--option", "P", "-n", "10"], 1, "PBN file"),
    (["evaluate", "vint", "--seat", "0", "--option", "P", "--option", "1S", "-n", "10", "--robust",
      "--profiles-file", ZERO], 2, "profile file"),
    (["profiles", "vint", "--file", ZERO], 2, "profile file"),
])
def test_an_endless_line_is_one_line_error(argv, code, kind):
    proc = _cardsim(*argv)
    _one_line(proc, code, f"{ZERO}: line 1 is longer than 1 MiB (1,048,576 bytes), the limit of a line of a {kind}")
    assert proc.stdout == ""


def test_replay_prints_the_records_before_a_line_over_the_cap(tmp_path):
    """The records before the line over the cap are replayed and printed; the reading ends there
    (the record after it is not read)."""
    import cardsim

    record = cardsim.records("vint", [0], seed=3)[0]
    path = tmp_path / "r.jsonl"
    path.write_bytes(json.dumps(record).encode() + b"\n" + b"x" * (1 << 20) + b"\n" + json.dumps(record).encode())
    proc = _cardsim("replay", str(path))
    _one_line(proc, 1, f"{path}: line 2 is longer than 1 MiB (1,048,576 bytes), the limit of a line of a record "
                       "file (JSON Lines)")
    assert [json.loads(x) for x in proc.stdout.splitlines()] == [cardsim.replay(record)]


def test_endless_lines_from_standard_input_stop_at_the_file_cap():
    """A pipe that never ends, of lines each under the line cap (blank: replay skips them)."""
    writer = subprocess.Popen([sys.executable, "-c",
                               "import sys\nline = b' ' * ((1 << 20) - 1) + b'\\n'\n"
                               "try:\n    while True:\n        sys.stdout.buffer.write(line)\n"
                               "except (BrokenPipeError, OSError):\n    pass\n"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        proc = _cardsim("replay", "-", stdin=writer.stdout)
    finally:
        writer.stdout.close()
        writer.kill()
        writer.wait()
    _one_line(proc, 1, "standard input: more than 1 GiB (1,073,741,824 bytes) (at line 1025), the limit of a "
                       "record file (JSON Lines)")


def test_pbn_file_cap(tmp_path, capsys):
    from cardsim.cli import main

    path = tmp_path / "big.pbn"
    comment = b"%" + b"x" * ((1 << 20) - 2) + b"\n"  # a line of exactly the line cap
    path.write_bytes(comment * 17)
    assert main(["export", "vint", "--pbn", str(path)]) == 1
    assert capsys.readouterr().err == (f"cardsim: error: {path}: more than 16 MiB (16,777,216 bytes) (at line 17), "
                                       "the limit of a PBN file\n")


def test_export_records_file_cap(tmp_path, capsys):
    from cardsim.cli import main

    path = tmp_path / "big.jsonl"
    path.write_bytes((b" " * ((1 << 20) - 1) + b"\n") * 33)  # blank lines of the line cap: skipped, counted
    assert main(["export", "vint", "--records", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"cardsim: error: {path}: more than 32 MiB (33,554,432 bytes) (at line 33), "
                            "the limit of a record file for export --records\n")
    assert captured.out == ""


def test_profile_file_cap(tmp_path, capsys):
    from cardsim.cli import main

    path = tmp_path / "big.toml"
    path.write_bytes(b"# x\n" * ((1 << 18) + 1))  # 4 bytes a line: line 262,145 passes 1 MiB
    assert main(["profiles", "vint", "--file", str(path)]) == 2
    assert capsys.readouterr().err == (f"cardsim: error: {path}: more than 1 MiB (1,048,576 bytes) (at line 262145), "
                                       "the limit of a profile file\n")
    path.write_bytes(b"# x\n" * (1 << 18))  # exactly the cap: read whole, and found to hold no profile
    assert main(["profiles", "vint", "--file", str(path)]) == 2
    assert capsys.readouterr().err == f"cardsim: error: profile file {path}: holds no profiles (a table per profile: [name] ...)\n"
