"""``cardsim show``: one deal for people (a deal of a run, of a match, or a record).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import sys

import cardsim
from cardsim.cli.common import (UsageError, add_setup_options, parse_game, parse_ints, parse_nonnegative,
                                parse_path, parse_positive, parse_strategies, read_jsonl)
from cardsim.games import GAME_NAMES, get_game
from cardsim.text import clip

NAME = "show"


def add_parser(sub) -> None:
    p = sub.add_parser("show", help="print one deal for people")
    p.add_argument("game", type=parse_game, nargs="?", help=" | ".join(GAME_NAMES))
    p.add_argument("--deal", type=parse_nonnegative, default=0,
                   help="deal number (default 0; with --match: in the match)")
    p.add_argument("--match", type=parse_nonnegative,
                   help="show a deal of this match (501, Vint) as play_match plays it")
    p.add_argument("--before", help="with --match: the scores the match started from (501,250,320)")
    p.add_argument("--dealer", type=parse_nonnegative, help="with --match: who dealt the match's first deal")
    p.add_argument("--record", type=parse_path, help="show a record from this JSON Lines file instead")
    p.add_argument("--line", type=parse_positive, default=1, help="which line of --record (default 1)")
    p.add_argument("--pbn", type=parse_path, metavar="FILE",
                   help="show a board of this PBN file with its auction and play (Vint; docs/pbn.md) instead")
    p.add_argument("--board", help="with --pbn: the board (its Board tag; 1/Closed for one of the boards one per room that share a number, docs/pbn.md); may be left out for a file of one board")
    p.add_argument("--complete-auction", action="store_true",
                   help="with --pbn: end a bridge auction (three passes) with the passes Vint's rule needs")
    p.add_argument("--dd", action="store_true",
                   help="after the deal, every card's double-dummy value and what it cost (0 for a DD-best card), "
                        "and the total cost of each side")
    add_setup_options(p)


def run(args) -> int:
    if args.pbn is not None:
        return _show_pbn(args)
    if args.board is not None or args.complete_auction:
        raise UsageError("--board and --complete-auction go with --pbn")
    if args.record:
        # A record carries its own deal, seed, strategies and rules: options that would pick or
        # play another deal cannot apply, and ignoring them would show the wrong deal silently.
        given = _fixed_options(args)
        if given:
            raise UsageError(f"{', '.join(given)} cannot go with --record (the record fixes its deal; "
                             "choose it with --line)")
        for number, record in read_jsonl(args.record):
            if number == args.line:
                if isinstance(record, Exception):
                    raise record
                cardsim.replay(record)
                if args.game and record["game"] != args.game:
                    raise UsageError(f"line {number} of {args.record} is a {record['game']} record, not {args.game}")
                _print(get_game(record["game"]).play.show(record), record, args.dd)
                return 0
        raise UsageError(f"{args.record} has no record on line {args.line}")
    if not args.game:
        raise UsageError("name a game (or give --record FILE)")
    from cardsim.runner.run import make_run  # local: --help imports every command module

    run = make_run(args.game, 1, args.seed, parse_strategies(args.strategy), args.seats, args.rule)
    spec = get_game(args.game)
    if args.match is not None:
        records = cardsim.match_records(args.game, args.match, run.seed, list(run.setup.specs), run.setup.seats,
                                        args.rule, parse_ints(args.before, "--before"), args.dealer)
        if args.deal >= len(records):
            raise UsageError(f"match {args.match} of seed {run.seed} has {len(records)} deals (0 to {len(records) - 1})")
        _print(spec.play.show(records[args.deal]), records[args.deal], args.dd,
               f"seed {run.seed}, match {args.match}, deal {args.deal} of {len(records)}, "
               f"strategies {', '.join(run.setup.specs)}")
        return 0
    if args.before is not None or args.dealer is not None:
        raise UsageError("--before and --dealer go with --match")
    record = spec.play.make_records(run.seed, [args.deal], run.setup)[0]
    _print(spec.play.show(record), record, args.dd, f"seed {run.seed}, deal {args.deal}, strategies {', '.join(run.setup.specs)}")
    return 0


def _fixed_options(args) -> list[str]:
    """The options that pick or play another deal: given beside a record or a PBN board, which fix
    their deal, they would be ignored silently, so they are refused."""
    return [name for name, value, default in (("--deal", args.deal, 0), ("--seed", args.seed, 0),
                                               ("--match", args.match, None), ("--before", args.before, None),
                                               ("--dealer", args.dealer, None), ("--strategy", args.strategy, None),
                                               ("--seats", args.seats, None), ("--rule", args.rule, None))
            if value != default]


def _show_pbn(args) -> int:
    """A PBN board (with its auction and play) as the game's records show it; PBNError in one line
    for a board the game's rules do not allow (cardsim.pbn.read_records)."""
    from cardsim.pbn import PBNError, PBNUsageError, one_deal, read_records  # local: --help imports every command module

    given = _fixed_options(args) + (["--record"] if args.record else []) + (["--line"] if args.line != 1 else [])
    if given:
        raise UsageError(f"{', '.join(given)} cannot go with --pbn (the board fixes its deal; choose it with --board)")
    game = args.game or "vint"
    board = args.board
    try:
        if board is None:
            board = one_deal(args.pbn, None, game)["board"]  # a file of one board, or an error naming the count
        record = read_records(args.pbn, game, board, complete_auction=args.complete_auction)[0]
    except PBNError as exc:
        print(f"cardsim: error: {clip(str(exc), 300)}", file=sys.stderr)
        # A board the game's rules cannot take is rejected data (1), as in export; anything else is usage (2).
        return 2 if isinstance(exc, PBNUsageError) else 1
    _print(get_game(game).play.show(record), record, args.dd, f"{args.pbn}, board {board}")
    return 0


def _print(text: str, record: dict, dd: bool, head: str | None = None) -> None:
    """``head`` (if any) and the deal's text, then with ``dd`` its double-dummy trace (:mod:`cardsim.dd.trace`); the
    trace is computed first, so that a deal without a trace prints only the one-line error."""
    trace = None
    if dd:
        from cardsim.dd.trace import card_costs, format_trace  # local: --help imports every command module

        trace = format_trace(card_costs(record))
    if head is not None:
        print(head)
    print(text)
    if trace is not None:
        print()
        print(trace)
