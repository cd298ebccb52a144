"""``cardsim dd GAME --seed S --deal I`` (or ``cardsim dd --record F --line K``): one deal's
double-dummy table, printed for people: what each game's table holds is the command's
description, :data:`cardsim.cli.DD_DESCRIPTION` (``cardsim dd --help``), kept with the parser so
that building it needs no cardsim.dd and its pandas.
"""
from __future__ import annotations

import pandas as pd

from cardsim.dd import DENOMS


def _row(label, values, width=4):
    return f"{label:<8}" + "".join(f"{v:>{width}}" for v in values)


def format_dd(record, row) -> str:
    """The text ``cardsim dd`` prints for one record (with ``result``) and its DD row (a
    :func:`cardsim.dd.solve_records` row solved with ``every_denomination``)."""
    game = record["game"]
    lines = []
    if game == "vint":
        lines.append("Double-dummy tricks of the declarer's side (rows: declarer's seat, the seat on his left "
                     "leads; docs/RULES.md §2.3)")
        lines.append(_row("seat", DENOMS))
        for s in range(4):
            lines.append(_row(f"  {s}", [int(row[f"dd_{s}_{d}"]) for d in DENOMS]))
        if pd.isna(row.declarer):
            lines.append("no contract: every player passed")
        else:
            need = int(row.level) + 6
            lines.append(f"contract {record['result']['contract']} by seat {row.declarer}: DD {row.dd_tricks} tricks "
                         f"(needs {need}: {'makeable' if row.dd_made else 'not makeable'}); "
                         f"played: {row.decl_tricks} tricks, {'made' if row.decl_tricks >= need else 'down'}")
        return "\n".join(lines)
    if game == "501":
        if pd.isna(row.declarer):
            return "no play: every player passed or the declarer abandoned"
        lines.append("The declarer's double-dummy deal points (card points + effective marriages, docs/RULES.md "
                     "§1.5-§1.7)")
        lines.append("from the hands after the talon and the gifts, the first active seat left of the dealer "
                     "leading, by trump:")
        lines.append(_row("trump", DENOMS, 5))
        lines.append(_row("points", [int(row[f"dd_points_{d}"]) for d in DENOMS], 5))
        lines.append(f"contract: trump {row.trump}, target {row.target}, by seat {row.declarer}: "
                     f"DD {row.dd_points} points ({'reaches' if row.dd_made else 'short of'} the target); "
                     f"played: {row.points} points, {'made' if row.points >= row.target else 'failed'}")
        return "\n".join(lines)
    if pd.isna(row.declarer):
        return "no play: the deal was thrown in"
    lines.append("The declaring side's double-dummy tricks from the hands after the kitty and the discard, "
                 f"seat {row.declarer} leading (docs/RULES.md §3.5), by denomination:")
    lines.append(_row("denom", DENOMS))
    lines.append(_row("tricks", [int(row[f"dd_tricks_{d}"]) for d in DENOMS]))
    lines.append(f"contract {record['result']['contract']} by seat {row.declarer}: DD {row.dd_tricks} tricks "
                 f"(needs {row.level}: {'makeable' if row.dd_made else 'not makeable'}); "
                 f"played: {row.decl_tricks} tricks, {'made' if row.decl_tricks >= row.level else 'down'}")
    return "\n".join(lines)


def run(args, read_jsonl, make_run, strategies, usage_error) -> int:
    """The ``dd`` command (helpers of :mod:`cardsim.cli` passed in, so this module imports no
    private name)."""
    import cardsim
    from cardsim.dd import solve_records
    from cardsim.games import get_game

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
        result = cardsim.replay(record)
        record = {**record, "result": result}
        if args.game and record["game"] != args.game:
            raise usage_error(f"line {args.line} of {args.record} is a {record['game']} record, not {args.game}")
        head = f"{args.record}, line {args.line}"
    else:
        if not args.game:
            raise usage_error("name a game (or give --record FILE)")
        run_ = make_run(args.game, 1, args.seed, strategies(args.strategy), args.seats, args.rule)
        record = get_game(args.game).make_records(run_.seed, [args.deal], run_.setup)[0]
        head = f"seed {run_.seed}, deal {args.deal}, strategies {', '.join(run_.setup.specs)}"
    row = solve_records([record], every_denomination=True).iloc[0]
    print(head)
    print(get_game(record["game"]).show(record))
    print()
    print(format_dd(record, row))
    return 0
