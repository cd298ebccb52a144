"""What every ``cardsim`` command shares: the usage errors, the argument types, the common options
(run set-up, execution), the parser class with one-line errors, and reading JSON Lines records.

Only what building the parser needs is imported here: ``cardsim --help`` (and every command's
--help) then starts in a fraction of a second.  The runner (pandas, numba), the engines and the
analyses are imported by the commands that use them.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from decimal import Decimal, InvalidOperation

from cardsim.games import game_names, is_game
from cardsim.games.base import OptionError, RecordError
from cardsim.strategies.registry import StrategyError
from cardsim.text import clip, quote


_USAGE_ERRORS = {"cardsim.runner.files": "OutputError", "cardsim.deal": "ConditionError"}
"""Usage errors defined in modules the parser does not import: (module, class name)."""


class UsageError(Exception):
    pass


class RejectedInput(Exception):
    """Input data cardsim cannot take (a PBN board the rules refuse): one line, exit code 1, as a
    rejected record."""


def usage_errors() -> tuple[type, ...]:
    """The errors a command reports as one line with exit code 2: OptionError, StrategyError,
    cardsim.runner.files.OutputError and cardsim.deal.ConditionError.  The last two only from modules
    already imported (an error of a module nobody imported cannot have been raised), so that
    catching them imports nothing."""
    found = [getattr(sys.modules[m], name) for m, name in _USAGE_ERRORS.items() if m in sys.modules]
    return (OptionError, StrategyError, *found)


def all_usage_errors() -> tuple[type, ...]:
    """All four errors :func:`usage_errors` names, importing the modules that define them (for
    callers that name them, as ``cardsim.cli.USAGE_ERRORS``); raises ImportError only if cardsim
    is broken."""
    return (OptionError, StrategyError,
            *(getattr(importlib.import_module(m), name) for m, name in _USAGE_ERRORS.items()))


def parse_whole(text: str, low: int, high: int) -> int:
    """``text`` as a whole number (an int) from ``low`` to ``high`` inclusive; ``1e6`` and
    ``1_000_000`` are accepted, since users write large deal counts so.  Raises
    argparse.ArgumentTypeError (one line, naming the range) for anything else."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number")
    # Compared before int(): 1e999999999 is a whole number whose digits would not fit in memory.
    if not low <= value <= high:
        shown = text.strip() if len(text.strip()) <= 40 else quote(text.strip(), 40)  # bare: a number
        raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high:,}, got {shown}")
    return int(value)


def parse_positive(text: str) -> int:
    """An argument type: a count from 1 to :data:`cardsim.runner.run.MAX_DEALS` (deals, seats,
    rounds), as :func:`parse_whole` reads it; argparse.ArgumentTypeError otherwise."""
    from cardsim.runner.run import MAX_DEALS  # local: --help imports every command module

    return parse_whole(text, 1, MAX_DEALS)


def parse_nonnegative(text: str) -> int:
    """An argument type: a whole number from 0 to :data:`cardsim.runner.run.MAX_DEALS` (a deal's
    number, a first deal), as :func:`parse_whole` reads it; argparse.ArgumentTypeError otherwise."""
    from cardsim.runner.run import MAX_DEALS  # local: --help imports every command module

    return parse_whole(text, 0, MAX_DEALS)


def parse_seed(text: str) -> int:
    """An argument type: a run seed, a whole number from 0 to 2**64-1 (one uint64, as
    :func:`cardsim.rng.deal_key` takes it); argparse.ArgumentTypeError otherwise."""
    return parse_whole(text, 0, 2**64 - 1)


def parse_error_rate(text: str) -> float:
    """An argument type: an error rate, as a float (argparse.ArgumentTypeError if not a number);
    its range is :func:`cardsim.sequential.check_error`'s, checked by the command before any deal
    (the parser imports nothing heavy)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a number") from None


def _jobs(text: str) -> int:
    """``--jobs``: -1 (all cores, when the run pays for workers) or 1 to this machine's cores (more
    workers than cores only wait for each other)."""
    cores = os.cpu_count() or 1
    try:
        value = parse_whole(text, -1, cores)
    except argparse.ArgumentTypeError:
        value = 0
    if value == 0:
        shown = text.strip() if len(text.strip()) <= 40 else quote(text.strip(), 40)
        raise argparse.ArgumentTypeError(f"must be -1 (all cores) or a whole number from 1 to {cores} (this "
                                         f"machine's cores), got {shown}")
    return value


def parse_path(text: str) -> str:
    """An argument type: a file or folder path, as given; argparse.ArgumentTypeError if it is empty
    or only spaces."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the path is empty")
    return text


def parse_output_path(text: str) -> str:
    """An argument type: an output file's path (:func:`parse_path`); ``-`` is refused
    (argparse.ArgumentTypeError), since these outputs are files (a dataset, records
    kept beside a run), and a file named ``-`` would be written where standard output was meant."""
    if text.strip() == "-":
        raise argparse.ArgumentTypeError("'-' is not taken here: give a file name (the output is a file, not "
                                         "standard output)")
    return parse_path(text)


def parse_output_or_stdout(text: str) -> str | None:
    """An argument type: an output file's path (:func:`parse_path`), or None for ``-``, standard
    output, as when the option is left out."""
    return None if text.strip() == "-" else parse_path(text)


def parquet_name(path: str, option: str) -> None:
    """UsageError, before any work, for a parquet output whose name is not UTF-8 (a byte such as
    0xFF, which Python keeps as a lone surrogate): pyarrow opens files by UTF-8 names only
    and would fail at the first part.  Text outputs (--records, export -o) take any name."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{option} {quote(os.fsencode(path))}: a file name that is not UTF-8; parquet files are "
                         "written by pyarrow, which takes UTF-8 names only: choose another name") from None


def parse_game(text: str) -> str:
    """An argument type: a registered game's name (``vint``, ``501``, ``500``; any case), lower-cased;
    argparse.ArgumentTypeError naming the games for any other."""
    if not is_game(text.lower()):
        raise argparse.ArgumentTypeError(f"unknown game {quote(text)} (choose from {', '.join(game_names())})")
    return text.lower()


def parse_strategies(items: list[str] | None) -> str | dict[int, str] | None:
    """The ``--strategy`` values as the runner takes them: ``["random"]`` → one spec for all seats;
    ``["1=random", "3=heuristic:aggression=1"]`` → ``{seat: spec}``; none → None (each seat's
    default).  The specs themselves are checked by the strategy registry.  Raises UsageError for a
    seat given twice, or for several values one of which names no seat."""
    if not items:
        return None
    out = {}
    for item in items:
        seat, eq, spec = item.partition("=")
        if eq and seat.strip().isdigit():
            if int(seat) in out:
                raise UsageError(f"--strategy: seat {int(seat)} given more than once")
            out[int(seat)] = spec
        elif len(items) == 1:
            return item
        else:
            raise UsageError(f"--strategy {quote(item)}: write SEAT=NAME[:param=value,...] when giving several")
    return out


def parse_ints(text: str | None, what: str) -> list[int] | None:
    """``"-900,0"`` → ``[-900, 0]`` (the scores of ``--before``, seats of ``--seat``); None → None.
    Raises UsageError naming the option ``what`` if an item is not a whole number."""
    if text is None:
        return None
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"{what} must be whole numbers separated by commas, got {quote(text)}") from None


def add_execution_options(p: argparse.ArgumentParser) -> None:
    """Add --jobs, --progress and --scheduler to the command's parser ``p``: how a long command
    runs (the same result either way)."""
    p.add_argument("--jobs", type=_jobs, default=-1,
                   help="worker processes: -1 = all cores if the run is big enough to pay for starting them, "
                        "else this process (the default); 1 = this process only; N = N workers (at most the "
                        "machine's cores)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar with rate and ETA (default: when standard error is a terminal)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a dask.distributed cluster: tcp://HOST:8786, or 'local' to start "
                        "one on this machine (README: Running on a cluster)")


def add_setup_options(p: argparse.ArgumentParser) -> None:
    """Add a run's set-up options to the command's parser ``p``: --seed, --strategy (repeatable),
    --seats and --rule (repeatable); :func:`parse_strategies` reads --strategy's values."""
    p.add_argument("--seed", type=parse_seed, default=0, help="run seed, 0 to 2**64-1 (default 0)")
    p.add_argument("--strategy", action="append", metavar="[SEAT=]NAME[:p=v,...]",
                   help="strategy for one seat (repeatable), or for every seat without SEAT=")
    p.add_argument("--seats", type=parse_positive, help="number of seats (501: 3 or 4)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="rule option (repeatable)")


class _StoreOnce(argparse.Action):
    """An option that takes one value: given twice, it is an error rather than the last one
    silently winning (``evaluate --where A --where B`` would otherwise answer a question about
    B alone).  Options meant to repeat say so (``action="append"``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given", set())
        if self.dest in seen:
            shown = "/".join(self.option_strings)
            hint = " (put every class in one, separated by commas)" if self.dest == "where" else ""
            parser.error(f"argument {shown}: given more than once{hint}")
        seen.add(self.dest)
        setattr(namespace, self.dest, values)


def given_options(namespace: argparse.Namespace) -> list[str]:
    """The destinations (``"deals"``, ``"games"``) of the one-value options :class:`Parser` has
    read into ``namespace`` so far, sorted; empty before any."""
    return sorted(getattr(namespace, "_given", ()))


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2), as every cardsim error is, and options that
    take one value given once (:class:`_StoreOnce`): every cardsim command's parser, and the
    profiler's."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def _print_message(self, message, file=None):
        # argparse drops a write error of --help or usage (`> /dev/full`) and exits 0: let it
        # reach cardsim.cli.main, which says so in one line.
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):
        # argparse puts the bad value into its own messages whole (an invalid choice, unrecognized
        # arguments): cut them, since a value can be megabytes.
        self.exit(2, f"{self.prog}: error: {clip(message, 200)} (see {self.prog} --help)\n")


def read_jsonl(path: str, limits=None):
    """Yield ``(line number, record or RecordError)`` from a JSON Lines file (docs/RECORDS.md),
    line numbers from 1; UsageError if the file cannot be opened.

    Each line is decoded on its own, so one bad line (not UTF-8, not JSON, nested too deep)
    is reported and the next line is still read; a byte-order mark is ignored.  A line or a
    file over ``limits`` (:data:`cardsim.bounded.RECORDS` if None) ends the reading
    (:func:`_bounded_lines`).
    """
    from cardsim.bounded import open_binary  # local: --help imports every command module

    try:
        handle = open_binary(path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        for number, raw in _bounded_lines(handle, path, limits):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, RecordError("not UTF-8 text")
                continue
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except ValueError as exc:
                yield number, RecordError(f"not valid JSON: {exc}")
            except RecursionError:
                yield number, RecordError("not valid JSON: nested too deeply")


def _bounded_lines(handle, path, limits=None):
    """``(line number, bytes)`` of a records file within ``limits`` (None: :data:`cardsim.bounded.RECORDS`);
    past them RejectedInput (one line, exit code 1): the rest of an endless line cannot be
    skipped, so the reading ends there."""
    from cardsim.bounded import RECORDS, InputTooLarge, lines  # local: --help imports every command module

    try:
        yield from lines(handle, path, limits or RECORDS)
    except InputTooLarge as exc:
        raise RejectedInput(str(exc)) from None

