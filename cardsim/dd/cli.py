"""``cardsim dd GAME --seed S --deal I`` (or ``cardsim dd --record F --line K``): one deal's
double-dummy table, printed for people: what each game's table holds is the command's
description, :data:`cardsim.cli.DD_DESCRIPTION` (``cardsim dd --help``), kept with the parser so
that building it needs no cardsim.dd and its pandas.
"""
from __future__ import annotations

from cardsim.dd import solve_records
from cardsim.games import get_game, replay


def format_dd(record, row) -> str:
    """The text ``cardsim dd`` prints for one record (with ``result``) and its DD row (a
    :func:`cardsim.dd.solve_records` row solved with ``every_denomination``): the game's
    ``describe`` hook (:class:`cardsim.games.base.DDHooks`)."""
    return get_game(record["game"]).dd.describe(record, row)


def run(args, read_jsonl, make_run, strategies, usage_error) -> int:
    """The ``dd`` command (helpers of :mod:`cardsim.cli` passed in, so this module imports no
    private name)."""
    # a --deal beside --record, or a --line without it, would be ignored: say so instead
    if args.record and args.deal is not None:
        raise usage_error("--deal picks a deal of a run; with --record give --line")
    if not args.record and args.line is not None:
        raise usage_error("--line picks a line of --record FILE; give --record, or --deal for a deal of a run")
    args.deal = 0 if args.deal is None else args.deal
    args.line = 1 if args.line is None else args.line
    if args.record:
        found = False
        for number, record in read_jsonl(args.record):
            if number == args.line:
                if isinstance(record, Exception):
                    raise record
                found = True
                break
        if not found:
            raise usage_error(f"{args.record} has no record on line {args.line}")
        # replay first: it rejects a line that is not a JSON object (``[1, 2]``, ``null``) in one line
        result = replay(record)
        record = {**record, "result": result}
        if args.game and record["game"] != args.game:
            raise usage_error(f"line {args.line} of {args.record} is a {record['game']} record, not {args.game}")
        head = f"{args.record}, line {args.line}"
    else:
        if not args.game:
            raise usage_error("name a game (or give --record FILE)")
        run_ = make_run(args.game, 1, args.seed, strategies(args.strategy), args.seats, args.rule)
        record = get_game(args.game).play.make_records(run_.seed, [args.deal], run_.setup)[0]
        head = f"seed {run_.seed}, deal {args.deal}, strategies {', '.join(run_.setup.specs)}"
    row = solve_records([record], every_denomination=True).iloc[0]
    print(head)
    print(get_game(record["game"]).play.show(record))
    print()
    print(format_dd(record, row))
    return 0
