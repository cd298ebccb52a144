"""The ``cardsim`` command: simulate, evaluate, compare, show, replay, strategies, columns, profiles, bench, dd,
quality, exploit, tune, rules.

Exit codes: 0 success, 1 data rejected (a record that breaks the rules), 2 usage (bad
arguments, unknown strategy or option, unwritable output).  Errors are one line on stderr.

One module per command (``cardsim.cli.<command>``: ``NAME``, ``add_parser(sub)`` and ``run(args)``),
what they share in :mod:`cardsim.cli.common`.  Building the parser imports every command module
and nothing heavy: each command imports what it needs inside ``run``.
"""
from __future__ import annotations

import argparse
import errno
import gc
import os
import signal
import sys
import threading

from cardsim.cli import (bench, columns, compare, dd, evaluate, exploit, export, profiles, quality, replay, rules,
                         show, simulate, strategies, tune)
from cardsim.cli.common import Parser, RejectedInput, UsageError, all_usage_errors, usage_errors
from cardsim.games.base import RecordError
from cardsim.text import clip, plain_output, quote

_ORDER = (simulate, evaluate, compare, profiles, show, replay, export, strategies, columns, dd, quality, exploit, tune,
          rules, bench)
"""The commands, in the order ``cardsim --help`` lists them."""
COMMANDS = {command.NAME: command.run for command in _ORDER}


def __getattr__(name):
    if name == "USAGE_ERRORS":  # all four, importing their modules (for callers that name them)
        return all_usage_errors()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cardsim", description="Monte Carlo analysis of Vint, 501 and Five Hundred")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in _ORDER:
        command.add_parser(sub)
    return parser


def attach_negative_values(argv: list[str]) -> list[str]:
    """The command line ``argv`` with ``--before -900,0`` written as ``--before=-900,0`` (the rest
    unchanged), as :func:`main` parses it: argparse takes a value that starts with ``-`` and is
    not a plain number (the comma) for an option, so negative scores needed the ``=``."""
    out = []
    i = 0
    while i < len(argv):
        if argv[i] == "--before" and i + 1 < len(argv) and argv[i + 1][:1] == "-" and argv[i + 1][1:2].isdigit():
            out.append(f"--before={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def main(argv=None) -> int:
    if sys.stdout is None:  # started with standard output closed (`>&-`): nowhere to answer
        if sys.stderr is not None:
            print("cardsim: error: cannot write standard output: it is closed", file=sys.stderr)
        return 2
    # A stdout in cp1252 or latin-1 gets S H D C and '-' for the suit symbols and the minus sign,
    # and a file name given with a byte that is not UTF-8 is printed back as that byte.
    plain_output()
    try:
        parser = build_parser()
        args = parser.parse_args(attach_negative_values(sys.argv[1:] if argv is None else list(argv)))
    except KeyboardInterrupt:
        print("cardsim: interrupted while starting (nothing was run)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()  # `--help | head`: the reader went away, not an error of ours
        return 0
    except OSError as err:
        # --help that could not be written (`> /dev/full`): an error, not a silent success.
        _drop_stdout()
        print(f"cardsim: error: {clip(_os_error_line(err))}", file=sys.stderr)
        return 2
    previous = _terminate_as_interrupt()
    try:
        code = COMMANDS[args.command](args)
        # Standard output is flushed here, not at the interpreter's exit: a full disk behind
        # `> file` then fails inside this handling (one line, exit code 2), not as a message
        # about an ignored exception and exit code 120 after an apparently successful run.
        sys.stdout.flush()
        return code
    except RecordError as exc:
        print(f"cardsim: rejected: {clip(exc.describe())}", file=sys.stderr)
        return 1
    except RejectedInput as exc:
        print(f"cardsim: error: {clip(str(exc))}", file=sys.stderr)
        return 1
    except (UsageError, *usage_errors()) as exc:
        print(f"cardsim: error: {clip(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of our output went away (e.g. `| head`): not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as exc:
        print(f"cardsim: {'terminated' if isinstance(exc, Terminated) else 'interrupted'} ({_what_is_kept(args)})",
              file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130
    except OSError as exc:
        # Files are written through atomic_write (OutputError, above); what is left is standard
        # output on a full disk (`> file`, /dev/full) or a system failure while reading or writing.
        _drop_stdout()
        print(f"cardsim: error: {clip(_os_error_line(exc))}", file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a job scheduler) while a command runs: ended as Ctrl-C is,
    workers stopped and finished chunks kept, with one line and exit code 143."""


def _raise_terminated(signum, frame):
    raise Terminated()


def _terminate_as_interrupt():
    """Make SIGTERM end the command as Ctrl-C does (the pool's clean-up runs: no warnings of leaked
    semaphores from the workers' library); returns the handler it replaced, or None where signals
    cannot be set (not the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_terminated)


_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}
"""Errors of a write that failed for want of room (or a failing device)."""


def _os_error_line(exc: OSError) -> str:
    """One line for an OSError that reached :func:`main`: a write error without a file name is
    standard output's (every file cardsim writes is named in its error)."""
    from cardsim.runner.files import os_reason  # local: --help imports every command module

    reason = os_reason(exc)
    if exc.filename is not None:
        return f"{quote(str(exc.filename))}: {reason}"
    if exc.errno in _WRITE_ERRNOS:
        return f"cannot write standard output: {reason} (what was written before it is incomplete)"
    return reason


def _drop_stdout() -> None:
    """Point standard output at /dev/null after its write failed: the interpreter flushes it
    again at exit, which would fail once more and print a second, multi-line message."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (captured, closed)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def process_main() -> int:
    """:func:`main` for a process that ends with the command (the ``cardsim`` script, ``python -m
    cardsim``): the objects left at the end are frozen out of the garbage collector, since the
    interpreter's exit would otherwise walk every object of numba, pandas and pyarrow in its last
    collections, about 0.3 s of a short command, to free memory the process gives back anyway.
    atexit handlers and the flushing of the standard streams run as before."""
    try:
        return main()
    finally:
        gc.freeze()


def _what_is_kept(args) -> str:
    """What an interrupted command leaves for the next run, for its one-line message."""
    resumable = ("evaluate", "compare", "quality", "exploit", "tune")
    if args.command in resumable or (args.command == "simulate" and (args.output or args.matches)):
        return "finished chunks are kept; run the same command again to resume"
    if args.command == "simulate":
        return "nothing is kept without -o: write a dataset with -o PATH to keep finished chunks and resume"
    return "nothing was written"
