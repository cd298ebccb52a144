"""Input files read with a bound on each line and on the whole file (README: "Input limits").

Every reader of a user's file (``replay``, ``show --record``, ``dd --record``, ``export
--records``, the PBN readers, ``--profiles-file``) reads through :func:`lines` or
:func:`read_bytes`, so that an endless input (``/dev/zero``, a pipe that never ends, a file of
gigabytes without a line end) ends in one line, :class:`InputTooLarge`, instead of filling the
memory: a line is read at most ``line + 1`` bytes at a time, so memory stays near the line cap
(streaming readers) or the file cap (readers that keep the whole file).

Plain Python, imports nothing heavy.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

__all__ = ["InputTooLarge", "Limits", "RECORDS", "RECORDS_HELD", "PBN", "PROFILES", "size_text", "open_binary", "lines",
           "read_bytes"]

MiB = 1 << 20


class InputTooLarge(ValueError):
    """A line or a file over its :class:`Limits`; the message is one line naming the file, the
    line and the limit in bytes."""


@dataclass(frozen=True)
class Limits:
    """The caps of one kind of input: ``line`` and ``file`` in bytes (a line counts its line
    end); ``kind`` names the input in messages ("record file")."""

    kind: str
    line: int
    file: int


RECORDS = Limits("record file (JSON Lines)", line=1 * MiB, file=1024 * MiB)
"""Deal records (docs/RECORDS.md) read one at a time (``replay``, ``show --record``, ``dd
--record``): a record is about 1 KB on its line (Vint 0.8-1.2 KB), so 1 GiB holds about a
million records."""
RECORDS_HELD = Limits("record file for export --records", line=1 * MiB, file=32 * MiB)
"""Deal records that ``export --records`` keeps until all are checked (it writes all of them or
none): a Vint record replayed, held and written as PBN takes about 20 KB of memory (6,000 records
of 6.4 MB: 125 MB more than the command's start), so 32 MiB (about 30,000 records) about 0.7 GB."""
PBN = Limits("PBN file", line=1 * MiB, file=16 * MiB)
"""PBN files (docs/pbn.md), parsed whole: a Vint board as cardsim writes it is about 0.6 KB and
takes about 24 KB of memory read back to a record (6,000 boards of 3.5 MB: 143 MB more than the
command's start), so 16 MiB (about 28,000 boards) about 0.7 GB."""
PROFILES = Limits("profile file", line=1 * MiB, file=1 * MiB)
"""Player profile files (docs/profiles.md): a profile is one short table."""


def size_text(size: int) -> str:
    """``1048576`` → ``"1 MiB (1,048,576 bytes)"``; a size that is not whole MiB in bytes only."""
    if size % MiB == 0:
        whole = size // MiB
        unit = f"{whole // 1024} GiB" if whole % 1024 == 0 else f"{whole} MiB"
        return f"{unit} ({size:,} bytes)"
    return f"{size:,} bytes"


def open_binary(path):
    """``path`` opened for reading bytes; ``"-"`` is standard input.  OSError as ``open`` raises it."""
    return sys.stdin.buffer if path == "-" else open(path, "rb")


def lines(handle, source, limits: Limits):
    """Yield ``(line number from 1, bytes with the line end)`` from the binary ``handle``.

    Raises :class:`InputTooLarge` for a line longer than ``limits.line`` bytes (before reading
    more of it than that) or when the lines read pass ``limits.file`` bytes; the lines before it
    have been yielded.  ``source`` names the input in the message ("-" as standard input)."""
    shown = "standard input" if source == "-" else str(source)
    total = 0
    number = 0
    while True:
        raw = handle.readline(limits.line + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limits.line:
            raise InputTooLarge(f"{shown}: line {number} is longer than {size_text(limits.line)}, the limit of a line "
                                f"of a {limits.kind}")
        total += len(raw)
        if total > limits.file:
            raise InputTooLarge(f"{shown}: more than {size_text(limits.file)} (at line {number}), the limit of a "
                                f"{limits.kind}")
        yield number, raw


def read_bytes(path, limits: Limits) -> bytes:
    """The whole file as bytes, each line and the total within ``limits``; :class:`InputTooLarge`
    otherwise, OSError if it cannot be opened or read."""
    with open(path, "rb") as handle:
        return b"".join(raw for _, raw in lines(handle, path, limits))
