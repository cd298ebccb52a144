"""``cardsim strategies``: a game's strategies, their parameters and its rule options.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

from cardsim.cli.common import parse_game
from cardsim.games import get_game

NAME = "strategies"


def add_parser(sub) -> None:
    p = sub.add_parser("strategies", help="list a game's strategies, their parameters and its rule options")
    p.add_argument("game", type=parse_game)


def run(args) -> int:
    spec = get_game(args.game)
    for s in spec.table.registry.strategies():
        default = " (default)" if s.name == spec.table.default_strategy else ""
        print(f"{s.name}{default}: {s.doc}")
        for name, value in s.params.items():
            meaning = s.param_docs.get(name, "")
            span = f" ({s.accepted(name)})" if name in s.bounds or name in s.kinds else ""
            if name in s.tunables:  # what cardsim exploit / tune may move it over
                span += f" [{s.tunables[name].describe()}]"
            print(f"    {name} = {value:g}{span}" + (f"    {meaning}" if meaning else ""))
        if s.table is not None:  # a table's value is long: its default is summarised, not written out
            print(f"    {s.table.name} = {s.table.summary(s.table.default)} (text)    {s.table.doc}")
    if spec.table.rule_options:
        print("rule options (--rule NAME=VALUE):")
        for o in spec.table.rule_options:
            print(f"    {o.name} = {o.default}    {o.doc}")
    else:
        print("rule options: none")
    return 0
