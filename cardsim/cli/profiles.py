"""``cardsim profiles``: a game's player profiles.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

from cardsim.cli.common import parse_game, parse_path
from cardsim.games import GAME_NAMES

NAME = "profiles"


def add_parser(sub) -> None:
    p = sub.add_parser("profiles", help="list a game's player profiles (who sits in the seats a question does "
                                        "not fix)")
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("--file", type=parse_path, metavar="FILE", help="also the profiles of this TOML or JSON file")


def run(args) -> int:
    from cardsim import profiles as P  # local: --help imports every command module

    for p in P.available(args.game, args.file).values():
        seats = "; ".join(f"{k} = {v}" for k, v in p.seats.items()) or "every seat as the run gives it"
        print(f"{p.name}: {p.doc}" + ("" if p.source == "built in" or p.source.startswith("cardsim/") else
                                      f" (from {p.source})"))
        print(f"    {seats}")
    return 0
