"""``cardsim bench``: deals per second (cardsim.bench does the work).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import argparse

from cardsim.cli.common import _game, _positive


def _built_in_game(text: str) -> str:
    # The benchmark measures commits' trees side by side in fresh interpreters: a game from
    # outside the repository is not in the other commit's tree.
    from cardsim.games import GAME_NAMES

    game = _game(text)
    if game not in GAME_NAMES:
        raise argparse.ArgumentTypeError(f"the benchmark measures the built-in games ({', '.join(GAME_NAMES)}), "
                                         f"not {game!r}")
    return game

NAME = "bench"


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="measure deals per second (see BENCHMARKS.md)")
    p.add_argument("--deals", type=_positive, default=1_000_000)
    p.add_argument("--out", help="write the Markdown table here as well")
    p.add_argument("--games", nargs="+", type=_built_in_game, help="games to measure (default: all)")
    p.add_argument("--strategies", nargs="+", metavar="SPEC",
                   help="instead: time these strategy specs (every seat) alternately on one core, best of "
                        "--rounds rounds each, CPU time (e.g. cardsim bench --games 501 --deals 200000 "
                        "--strategies heuristic heuristic_v1)")
    p.add_argument("--rounds", type=_positive, default=5, help="rounds with --strategies (default 5)")


def run(args) -> int:
    from cardsim import bench

    argv = ["--deals", str(args.deals)] + (["--out", args.out] if args.out else [])
    argv += ["--games", *args.games] if args.games else []
    argv += ["--strategies", *args.strategies, "--rounds", str(args.rounds)] if args.strategies else []
    return bench.main(argv)
