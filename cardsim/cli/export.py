"""``cardsim export``: deals in a format other programs read (PBN, docs/pbn.md), and PBN deals back.

* ``cardsim export vint --seed S -n N [--format pbn] [-o FILE]``: simulated deals as PBN;
* ``cardsim export vint --records FILE.jsonl [-o FILE]``: records (anyone's; each is replayed,
  so a record that breaks the rules is refused) as PBN;
* ``cardsim export vint --pbn FILE [--board K] [--format records|hands]``: PBN deals back as
  docs/RECORDS.md records for ``cardsim replay`` (``records``, the default with ``--pbn``) or as
  given hands, one line per seat in ``evaluate --hand`` syntax (``hands``).

The parser part imports nothing heavy; :func:`run` imports the engine only to simulate.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import sys

import cardsim
from cardsim.cli.common import (RejectedInput, UsageError, add_setup_options, parse_game, parse_output_or_stdout,
                                parse_path, parse_positive, parse_strategies, read_jsonl)
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import RecordError
from cardsim.text import clip, quote

NAME = "export"


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="deals as PBN for bridge programs, and PBN deals back (docs/pbn.md)")
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES) + " (PBN: games dealt as bridge, i.e. vint)")
    p.add_argument("-n", "--deals", type=parse_positive, help="simulated deals to export (with --seed)")
    add_setup_options(p)
    p.add_argument("--records", type=parse_path, metavar="FILE.jsonl",
                   help="export these records (docs/RECORDS.md, any program's) instead of simulating")
    p.add_argument("--pbn", type=parse_path, metavar="FILE", help="read this PBN file instead (to records or hands)")
    p.add_argument("--board", help="with --pbn: only this board (its Board tag; 1/Closed for one of the boards one per room that share "
                        "a number, docs/pbn.md)")
    p.add_argument("--complete-auction", action="store_true",
                   help="with --pbn: end a bridge auction (three passes) with the passes Vint's rule needs "
                        "(12 after the last bid) instead of refusing it")
    p.add_argument("--format", choices=("pbn", "records", "hands"),
                   help="pbn (the default from --seed/--records), records (JSON Lines, the default from --pbn) "
                        "or hands (from --pbn: each seat's cards for evaluate --hand)")
    p.add_argument("-o", "--output", type=parse_output_or_stdout, metavar="FILE",
                   help="write here (default, or -: standard output)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="with -n: a progress bar with rate and ETA (default: when standard error is a terminal)")


BATCH = 5_000
"""Deals made and written at a time: memory stays bounded whatever -n is."""


def _emit(args, text) -> None:
    """Write ``text`` (a string, or an iterable of strings written in turn) to -o, whole or not at all
    (a temporary file renamed at the end), or to standard output."""
    parts = [text] if isinstance(text, str) else text
    if not args.output:
        for part in parts:
            sys.stdout.write(part)
        return
    from cardsim.runner.files import atomic_write, check_output_file  # local: --help imports every command module

    path = check_output_file(args.output)

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as handle:
            for part in parts:
                handle.write(part)

    atomic_write(path, write)  # OutputError (one line) if it cannot, and no file left behind


def run(args) -> int:
    from cardsim.pbn import PBNError, PBNUsageError, mapping  # local: --help imports every command module

    sources = [x for x in (args.deals is not None, args.records is not None, args.pbn is not None) if x]
    if len(sources) != 1:
        raise UsageError("give exactly one source: -n N (with --seed), --records FILE.jsonl or --pbn FILE")
    if (args.board is not None or args.complete_auction) and args.pbn is None:
        raise UsageError("--board and --complete-auction go with --pbn FILE")
    source = args.pbn if args.pbn is not None else args.records
    if args.output and source and os.path.exists(args.output) and os.path.samefile(source, args.output):
        raise UsageError(f"-o {args.output} is the file being read ({source}): writing it would replace the input")
    try:
        mapping(args.game)  # a game without a PBN form is refused before any work
        if args.pbn is not None:
            return _from_pbn(args)
        if args.format not in (None, "pbn"):
            raise UsageError(f"--format {args.format} is for --pbn FILE; deals are exported as --format pbn")
        if args.output:
            from cardsim.runner.files import check_output_file  # local: --help imports every command module

            check_output_file(args.output)
        from cardsim.pbn import boards, header  # local: --help imports every command module

        if args.deals is not None:
            count, event = args.deals, f"cardsim {args.game} seed {args.seed}"
            parts = _simulated(args, event)
            # The first batch is made before anything is written: it sizes the disk check.
            parts = _chain(next(parts, ""), parts)
        else:
            records = _from_records(args)
            if records is None:
                return 1
            count, event = len(records), f"cardsim {args.game}"
            parts = [boards(records, args.game, event)]
        _emit(args, [header(args.game), *parts] if isinstance(parts, list) else _chain(header(args.game), parts))
    except PBNError as exc:
        print(f"cardsim: error: {clip(str(exc), 300)}", file=sys.stderr)
        # A file's content Vint cannot take is rejected data (1); anything else is usage (2).
        return 1 if args.pbn is not None and not isinstance(exc, PBNUsageError) else 2
    if args.output:
        print(f"{count} {args.game} deals written to {args.output} (PBN)", file=sys.stderr)
    return 0


def _chain(first, rest):
    yield first
    yield from rest


def _free_bytes(args) -> int | None:
    """Free bytes where the boards go: -o's folder, or the file system of a standard output
    redirected to a file (``> file``); None for a terminal, a device or a pipe (nothing fills
    that a folder's free space says)."""
    if args.output:
        from cardsim.runner.files import follow_link  # local: --help imports every command module

        target = follow_link(args.output)
        if target.exists() and not target.is_file():
            return None  # a device or a pipe (-o /dev/stdout, /dev/null, a FIFO): written through, not stored
        return shutil.disk_usage(target.parent).free
    try:
        fd = sys.stdout.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        st = os.fstatvfs(fd)
    except (AttributeError, OSError, ValueError):  # captured or closed: not a file
        return None
    return st.f_bavail * st.f_frsize


def _watched(args, boards_of):
    """``boards_of(start, stop)`` for every batch of :data:`BATCH` deals, with a progress bar
    (--progress) and, once the first batch shows how long a board is, the disk checked as
    ``simulate -o`` checks it: OutputError before the rest is made when the estimated text
    (times files.DISK_MARGIN) does not fit in the free space."""
    from cardsim.runner.files import DISK_MARGIN, OutputError, sizes_text  # local: --help imports every command module
    from cardsim.runner.pool import progress_bar  # local: --help imports every command module

    with progress_bar(args.deals, "board", args.progress) as bar:
        for start in range(0, args.deals, BATCH):
            stop = min(args.deals, start + BATCH)
            text = boards_of(start, stop)
            if start == 0:
                free = _free_bytes(args)
                need = len(text.encode()) * args.deals / stop * DISK_MARGIN
                if free is not None and need > free:
                    where = args.output or "standard output's file"
                    need_text, free_text = sizes_text(need, free)
                    raise OutputError(f"{args.deals:,} boards need about {need_text} and {where} has {free_text} "
                                      "free; free some space, write elsewhere or export fewer deals")
            yield text
            bar.update(stop - start)


def _simulated(args, event):
    """The boards of the run's deals, :data:`BATCH` at a time (a generator: the run is checked by
    ``make_run`` before the first is made), with progress and the disk checked (:func:`_watched`)."""
    from cardsim.pbn import boards  # local: --help imports every command module
    from cardsim.runner.run import make_run  # local: --help imports every command module

    run = make_run(args.game, args.deals, args.seed, parse_strategies(args.strategy), args.seats, args.rule,
                   min(args.deals, 10_000))
    spec = get_game(args.game)

    def boards_of(start, stop):
        return boards(spec.play.make_records(run.seed, range(start, stop), run.setup), args.game, event, start + 1)

    return _watched(args, boards_of)


def _from_records(args):
    """The file's records replayed (their ``result`` recomputed); None after reporting rejected lines."""
    from cardsim.bounded import RECORDS_HELD  # local: --help imports every command module

    records, rejected = [], 0
    for number, record in read_jsonl(args.records, RECORDS_HELD):  # all are held: a smaller cap
        try:
            if isinstance(record, Exception):
                raise record
            if not isinstance(record, dict) or str(record.get("game", "")).lower() != args.game:
                game = record.get("game") if isinstance(record, dict) else record
                raise RecordError(f"not a {args.game} record (game {quote(game, 30)})", "game")
            record = dict(record, result=cardsim.replay(record))
        except RecordError as exc:
            rejected += 1
            print(f"{args.records}: line {number}: {clip(exc.describe())}", file=sys.stderr)
            continue
        records.append(record)
    if rejected or not records:
        print(f"{args.records}: {'no records' if not records and not rejected else f'{rejected} records rejected'}; "
              "nothing written", file=sys.stderr)
        return None
    return records


def _from_pbn(args) -> int:
    from cardsim.pbn import hand_text, read_deals, read_records  # local: --help imports every command module

    fmt = args.format or "records"
    if fmt == "pbn":
        raise UsageError("--pbn FILE is read to --format records or hands")
    if args.deals is not None or args.records is not None:
        raise UsageError("--pbn is a source of its own")
    if fmt == "records":
        records = read_records(args.pbn, args.game, args.board, args.complete_auction)
        count = len(records)
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    else:
        deals = read_deals(args.pbn, args.game, args.board)
        count = len(deals)
        text = "".join(f"board {d['board']} dealer {d['dealer']} seat {s}: {hand_text(h)}\n"
                       for d in deals for s, h in enumerate(d["hands"]))
    _emit(args, text)
    if args.output:
        print(f"{count} {args.game} boards of {args.pbn} written to {args.output} ({fmt})", file=sys.stderr)
    return 0


def pbn_given(args):
    """``evaluate --pbn FILE [--board K] [--pbn-hands seat|all]``: with ``seat`` (the default), sets
    ``args.hand`` to the seat's hand on the board and ``args.dealer`` to its dealer (unless given)
    and returns None; with ``all``, returns the :class:`cardsim.conditions.Conditions` of the four
    hands.  UsageError for a board the file does not hold or a clash with --hand / --where,
    RejectedInput (exit code 1) for a board the rules refuse."""
    if args.pbn is None:
        if args.board is not None or args.pbn_hands != "seat":
            raise UsageError("--board and --pbn-hands go with --pbn FILE")
        return None
    from cardsim.pbn import PBNError, PBNUsageError, conditions, hand_text, one_deal  # local: --help imports every command module

    if args.hand is not None:
        raise UsageError("--pbn gives the seat's hand: leave out --hand")
    try:
        if args.pbn_hands == "all":
            if args.where is not None:
                raise UsageError("--pbn-hands all fixes every hand: --where has nothing left to choose")
            if args.dealer is not None:
                raise UsageError("--pbn-hands all takes the dealer from the board: leave out --dealer")
            return conditions(args.pbn, args.board, args.game)
        deal = one_deal(args.pbn, args.board, args.game)
    except PBNError as exc:
        # A board the rules cannot take is rejected data (1), as in show and export; the rest is usage (2).
        raise (UsageError if isinstance(exc, PBNUsageError) else RejectedInput)(str(exc)) from None
    args.hand = hand_text(deal["hands"][args.seat]) if 0 <= args.seat < len(deal["hands"]) else None
    if args.dealer is None:
        args.dealer = deal["dealer"]
    return None
