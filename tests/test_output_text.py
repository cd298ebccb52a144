"""Text that is not UTF-8: a standard output in cp1252 or latin-1 gets letters for the symbols it
lacks (never a UnicodeEncodeError), and output names that are not UTF-8 or nested 2,000 folders
deep are one line (or simply work)."""
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.text import path_text, plain_output

CLI = [sys.executable, "-m", "cardsim"]


def cli(argv, encoding=None, **kwargs):
    env = dict(os.environ)
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run(CLI + argv, capture_output=True, env=env, timeout=300, **kwargs)


def one_line(err: bytes) -> bytes:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and b"Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_the_minus_sign_is_a_hyphen_on_a_legacy_standard_output(encoding):
    out = cli(["columns", "vint"], encoding)  # "declarer the last bidder (−1 when the deal is void"
    assert out.returncode == 0 and out.stderr == b""
    assert b"(-1 when the deal is" in out.stdout


def test_dashes_are_hyphens_on_a_latin_1_standard_output():
    # "Vint deal — …", "Tricks: 7 – 6" (deal 42 as heuristic_v4, the default before the tuned values, plays it)
    out = cli(["show", "vint", "--seed", "7", "--deal", "42", "--strategy", "heuristic_v4"], "latin-1")
    assert out.returncode == 0 and out.stderr == b""
    assert out.stdout.splitlines()[1] == b"Vint deal - dealer: seat 0"
    assert b"Tricks: 7 - 6  (made)" in out.stdout


def test_suit_symbols_in_a_message_are_letters_on_a_cp1252_standard_error():
    out = cli(["simulate", "vint", "-n", "10", "--strategy", "h\u2660\u2665\u2666\u2663"], "cp1252")
    assert out.returncode == 2
    assert b"unknown vint strategy 'hSHDC'" in one_line(out.stderr)


def test_the_letters_handler_itself():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1")
    plain_output(stream)
    stream.write("A\u2660 10\u2665 Q\u2666 2\u2663 \u22123 \u2264 caf\u00e9 x\udcffy \U0001d11e")
    stream.flush()
    # é is latin-1; a name's byte that was not UTF-8 goes back as the byte; what has no plain form is '?'
    assert raw.getvalue() == b"AS 10H QD 2C -3 <= caf\xe9 x\xffy ?"


@pytest.mark.skipif(sys.platform != "linux", reason="file names as bytes")
def test_a_parquet_output_named_with_a_byte_that_is_not_utf8_is_one_line(tmp_path):
    name = os.fsencode(tmp_path) + b"/x\xff.parquet"
    out = cli(["simulate", "vint", "-n", "10", "-o", os.fsdecode(name)])
    assert out.returncode == 2
    assert one_line(out.stderr) == (b"cardsim: error: -o b'" + os.fsencode(tmp_path) + b"/x\\xff.parquet': a file "
                                    b"name that is not UTF-8; parquet files are written by pyarrow, which takes "
                                    b"UTF-8 names only: choose another name")
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(sys.platform != "linux", reason="file names as bytes")
def test_text_outputs_named_with_a_byte_that_is_not_utf8_are_written(tmp_path):
    records = os.fsencode(tmp_path) + b"/r\xff.jsonl"
    out = cli(["simulate", "vint", "-n", "3", "--records", os.fsdecode(records)])
    assert out.returncode == 0 and out.stderr == b""
    assert out.stdout.splitlines()[-1] == b"records of the first 3 deals written to " + records  # the name as given
    assert len(open(records, "rb").read().splitlines()) == 3


def _remove_chain(top: Path) -> None:
    """Remove a chain of single nested folders (and their files) deepest first, without recursion:
    pytest's own clean-up of old temporary folders (shutil.rmtree) recurses once a level and fails
    with a RecursionError on 2,000 levels, in this run or a later one."""
    chain, here = [], top
    while here.is_dir():
        chain.append(here)
        subs = [p for p in here.iterdir() if p.is_dir()]
        for f in here.iterdir():
            if not f.is_dir():
                f.unlink()
        here = subs[0] if subs else here / "-"
    for folder in reversed(chain):
        folder.rmdir()


@pytest.fixture
def deep_folders(tmp_path):
    yield tmp_path
    for top in ("d", "dd"):
        _remove_chain(tmp_path / top)


def test_an_output_2000_folders_deep_is_made_or_one_line(deep_folders):
    # Under PATH_MAX (4096 bytes here): the folders are made, one level at a time (no RecursionError).
    tmp_path = deep_folders
    deep = tmp_path.joinpath(*["d"] * 2000) / "r.jsonl"
    out = cli(["simulate", "vint", "-n", "2", "--records", str(deep)])
    assert out.returncode == 0 and out.stderr == b"" and deep.exists()
    # Over it: the system's answer, one line.
    deeper = tmp_path.joinpath(*["dd"] * 2000) / "r.jsonl"
    out = cli(["simulate", "vint", "-n", "2", "--records", str(deeper)])
    assert out.returncode == 2
    # the path cut in its middle (start and file name kept), so the reason is not cut off with it
    assert one_line(out.stderr).decode() == f"cardsim: error: cannot write {path_text(deeper)}: File name too long"
    assert path_text(deeper).endswith(f"/dd/dd/r.jsonl ({len(str(deeper)):,} characters)")
