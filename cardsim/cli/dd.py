"""``cardsim dd``: one deal's double-dummy table (cardsim.dd.cli does the work).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

from cardsim.cli.common import (UsageError, add_setup_options, parse_game, parse_nonnegative, parse_path,
                                parse_positive, parse_strategies, read_jsonl)
from cardsim.games import GAME_NAMES

NAME = "dd"

DD_HELP = "print one deal's double-dummy table (Vint tricks, 501 points, Five Hundred tricks)"
DD_DESCRIPTION = """\
* Vint: the whole table, tricks of the declarer's side for each declarer seat (rows) and
  denomination (columns), the seat on the declarer's left leading (docs/RULES.md §2.3).
* 501: the declarer's maximum deal points (card points + effective marriages, docs/RULES.md
  §1.5-§1.7) in each trump, from the hands after the talon and the gifts.
* Five Hundred: the declaring side's maximum tricks in each denomination from the hands after
  the kitty and the discard, the declarer leading (docs/RULES.md §3.4-§3.5).

Then the contract played: its DD result against what it needed and what the play took.
"""
"""``cardsim dd --help``: what cardsim.dd.cli prints (here, so the parser needs no cardsim.dd and its pandas)."""


def add_parser(sub) -> None:
    p = sub.add_parser("dd", help=DD_HELP, description=DD_DESCRIPTION)
    p.add_argument("game", type=parse_game, nargs="?", help=" | ".join(GAME_NAMES))
    p.add_argument("--deal", type=parse_nonnegative, help="deal number (default 0)")
    p.add_argument("--record", type=parse_path, help="solve a record from this JSON Lines file instead")
    p.add_argument("--line", type=parse_positive, help="which line of --record (default 1)")
    add_setup_options(p)


def run(args) -> int:
    from cardsim.dd import cli as dd_cli  # local: --help imports every command module
    from cardsim.runner.run import make_run  # local: --help imports every command module

    return dd_cli.run(args, read_jsonl, make_run, parse_strategies, UsageError)
