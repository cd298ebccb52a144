"""``cardsim bench`` (also ``python -m cardsim.bench`` and ``make bench``): deals per second and
every speed target, and the benchmark tools (:mod:`cardsim.bench` does the work, :mod:`cardsim.bench.run`
reads these options).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import argparse

from cardsim.cli.common import given_options, parse_game, parse_output_path, parse_path, parse_positive, parse_seed
from cardsim.games import GAME_NAMES

NAME = "bench"

SECTION_HELP = {
    "conditions": "dealing under each game's benchmark class of seat 0, and seat 0's hand given",
    "end-to-end": "simulate -o and the in-memory DataFrame against the all-core engine, and start-up",
    "crossover": "wall time of simulate -o with --jobs 1 and with all cores at a few sizes",
    "pimc": "the sampled-search player's rates; with --against, every seat pimc in both trees taking turns",
    "targets": "every target, before (--against) and now, with the end-to-end section they are judged on",
}
"""``--only``'s sections and what each measures (the keys are :data:`cardsim.bench.run.SECTIONS`)."""


def _built_in_game(text: str) -> str:
    # The benchmark measures commits' trees side by side in fresh interpreters: a game from
    # outside the repository is not in the other commit's tree.
    game = parse_game(text)
    if game not in GAME_NAMES:
        raise argparse.ArgumentTypeError(f"the benchmark measures the built-in games ({', '.join(GAME_NAMES)}), "
                                         f"not {game!r}")
    return game


class _Tools(argparse._SubParsersAction):
    """The tools' subcommands, remembering which of the whole run's options came before the tool's
    name (``options_before_tool``): a tool takes its own options, after its name, and the run
    refuses the others rather than ignore them."""

    def __call__(self, parser, namespace, values, option_string=None):
        before = given_options(namespace)
        super().__call__(parser, namespace, values, option_string)
        namespace.options_before_tool = before


def add_parser(sub) -> None:
    p = sub.add_parser(
        "bench", help="measure deals per second and every speed target (BENCHMARKS.md), and the benchmark tools",
        usage="cardsim bench [--deals N] [--games GAME ...] [--out FILE] [--against COMMIT] [--only SECTION] "
              "[--rounds R]\n       cardsim bench --strategies SPEC ... [--games GAME ...] [--deals N] [--rounds R]"
              "\n       cardsim bench TOOL ...  (TOOL: dd, pimc-record, pimc-time, pimc-profile, rules)",
        description="Without a tool: every section of BENCHMARKS.md measured in turn (engine rates, end to end, "
                    "dealing under conditions, when workers pay, sampled-search play, the targets) and printed; "
                    "--out also writes them to a file, keeping what follows its hand-made notes marker. "
                    "`make bench` runs `python -m cardsim.bench --out BENCHMARKS.md --against AGAINST`. "
                    "A tool (below) measures one thing and prints its lines.")
    p.add_argument("--deals", type=parse_positive, default=1_000_000,
                   help="deals per measurement (default 1,000,000); with --strategies, deals a round")
    p.add_argument("--games", nargs="+", type=_built_in_game, metavar="GAME",
                   help="games to measure (default: all built-in games)")
    p.add_argument("--out", type=parse_output_path, metavar="FILE",
                   help="also write the tables to this Markdown file (with --only: replace that section only)")
    p.add_argument("--against", metavar="COMMIT",
                   help="also measure in this commit of the repository, in its own code (the before column: "
                        "engine rates chunk by chunk in two interpreters taking turns, start-up, --help, cold "
                        "compiles); with the whole run, --only targets and --only pimc")
    p.add_argument("--only", choices=list(SECTION_HELP), metavar="SECTION",
                   help="measure one section only: " + "; ".join(f"{k}: {v}" for k, v in SECTION_HELP.items()))
    p.add_argument("--strategies", nargs="+", metavar="SPEC",
                   help="instead: time these strategy specs (every seat) alternately on one core, best of "
                        "--rounds rounds each, CPU time (e.g. cardsim bench --games 501 --deals 200000 "
                        "--strategies heuristic heuristic_v1)")
    p.add_argument("--rounds", type=parse_positive, default=5,
                   help="rounds with --strategies and with --only pimc --against (default 5)")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", title="tools",
                             description="cardsim bench TOOL --help gives each tool's options",
                             parser_class=type(p), action=_Tools)

    t = tools.add_parser("dd", prog="cardsim bench dd",
                         help="time the double-dummy solvers on real play-start positions, one core (ms and search "
                              "nodes a deal)")
    t.add_argument("--deals", type=parse_positive, default=200, help="deals 0 .. N-1 (default 200)")
    t.add_argument("--seed", type=parse_seed, default=0, help="seed of the deals (default 0)")
    t.add_argument("--games", nargs="+", type=parse_game, metavar="GAME",
                   help="games to solve (default: every game with a solver benchmark)")

    t = tools.add_parser("pimc-record", prog="cardsim bench pimc-record",
                         help="keep the first N searched decisions of real pimc deals in a file (for pimc-time)")
    t.add_argument("game", type=parse_game, help="the game whose deals are played")
    t.add_argument("--decisions", type=parse_positive, default=200, help="decisions to keep (default 200)")
    t.add_argument("--worlds", type=parse_positive, default=8,
                   help="pimc:worlds=W,early=0 in every seat (the search at every trick; default 8)")
    t.add_argument("--seed", type=parse_seed, default=1, help="seed of the first deals (default 1)")
    t.add_argument("-o", "--out", type=parse_output_path, required=True, metavar="FILE", help="the file to write")

    t = tools.add_parser("pimc-time", prog="cardsim bench pimc-time",
                         help="time the solve hook on recorded decisions, alternately against a commit (or "
                              "best-only against exact)")
    t.add_argument("file", type=parse_path, help="decisions written by pimc-record")
    how = t.add_mutually_exclusive_group()
    how.add_argument("--against", metavar="COMMIT", help="the commit whose solve hook is timed beside this tree's")
    how.add_argument("--best-only", action="store_true",
                     help="time solve(..., best_only=True) against the exact solve's argmax, both in this tree")
    t.add_argument("--rounds", type=parse_positive, default=10, help="rounds (default 10)")
    t.add_argument("--chunk", type=parse_positive, default=20, help="decisions a round (default 20)")

    t = tools.add_parser("pimc-profile", prog="cardsim bench pimc-profile",
                         help="where pimc in every seat spends its CPU time, trick by trick")
    t.add_argument("game", type=parse_game, help="the game whose deals are played")
    t.add_argument("--deals", type=parse_positive, default=8, help="deals to play (default 8)")
    t.add_argument("--worlds", type=parse_positive, default=8,
                   help="pimc:worlds=W,early=0 in every seat (the search at every trick; default 8)")
    t.add_argument("--seed", type=parse_seed, default=1, help="seed of the deals (default 1)")

    t = tools.add_parser("rules", prog="cardsim bench rules",
                         help="a rule file's rate against its base strategy (target 50%%), or how fast its implied "
                              "calls are dealt (--implied)")
    t.add_argument("path", type=parse_path, metavar="FILE", help="the rule file")
    t.add_argument("--deals", type=parse_positive, default=20_000, help="deals a chunk (default 20,000)")
    t.add_argument("--rounds", type=parse_positive, default=5, help="alternating rounds (default 5)")
    t.add_argument("--implied", metavar="CALLS",
                   help="instead: time dealing a question after these calls (e.g. \"1NT P\") two ways: from "
                        "the rules' conditions and by plain rejection")
    t.add_argument("--dealer", type=int, default=0, help="with --implied: the dealer's seat (default 0)")
    t.add_argument("--seat", type=int, default=0, help="with --implied: the seat asked (default 0)")


def run(args) -> int:
    from cardsim.bench.run import run as run_bench  # local: --help imports every command module

    return run_bench(args)
