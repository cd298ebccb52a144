"""``cardsim tune``: self-play best-response iteration over a strategy's tunable parameters.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import argparse
import json
import sys

from cardsim.cli.common import add_execution_options, parse_game, parse_path, parse_positive, parse_seed, parse_whole
from cardsim.games import GAME_NAMES

NAME = "tune"

EPILOG = """The population plays the point of --strategy in every seat.  For each parameter in turn one side
(a partnership in Vint and Five Hundred, one seat in 501 at every position) deviates one step below
and one step above, on -n whole matches paired with the population's; the population moves to a
deviation whose gain is clear (its lower bound above 0 at exploit's multiplicity-adjusted level).
A sweep without a move is checked with exploit (single steps and random pairs); no clear gain
there ends the search at an equilibrium.  A move back to a point held before ends it as a cycle
(its points are printed); the budget (matches, -n a deviation) ends it as budget.  Each
measurement has its own seed from (--seed, step): the result is the same for any --jobs.
With --store DIR each finished measurement is kept there: the same command resumes (and with a
larger --budget goes on); without it they wait in the runs folder until the result is printed.
docs/tune.md."""


def add_parser(sub) -> None:
    p = sub.add_parser("tune", help="self-play search for the parameters no one-step deviation beats",
                       description="Best-response iteration by coordinates over a strategy's tunable "
                                   "parameters, in self-play; ends at an equilibrium (checked with exploit), "
                                   "a cycle, or the budget.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("--strategy", default="heuristic", metavar="NAME[:p=v,...]",
                   help="the starting point: a strategy with tunable parameters (default heuristic)")
    p.add_argument("--params", metavar="a,b=LO:HI,...",
                   help="the parameters to move, optionally with a range inside the registry's (default: all "
                        "the strategy's tunable parameters; cardsim strategies GAME lists them)")
    p.add_argument("--objective", help="what a deviation gains (default: the game's first; exploit lists them)")
    p.add_argument("--budget", type=parse_positive, metavar="MATCHES",
                   help="matches in all, -n per deviation measured (default: 30 sweeps' worth)")
    p.add_argument("-n", "--matches", type=parse_positive, dest="matches", metavar="MATCHES",
                   help="matches per deviation (default: exploit's)")
    p.add_argument("--seed", type=parse_seed, default=0, help="run seed, 0 to 2**64-1 (default 0)")
    p.add_argument("--pairs", type=lambda t: _nonneg_small(t), default=4,
                   help="random pairs of parameters each exploit check tries (default 4)")
    p.add_argument("--store", type=parse_path, metavar="DIR", help="keep each finished measurement here (resumable)")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text",
                   help="text: the trajectory as it goes and a summary; json: the whole result; csv: the "
                        "trajectory")
    add_execution_options(p)


def _nonneg_small(text: str) -> int:
    return parse_whole(text, 0, 1000)


def run(args) -> int:
    from cardsim.runner.pool import cluster  # local: --help imports every command module
    from cardsim.runner.store import ChunkStore, runs_dir  # local: --help imports every command module
    from cardsim.tune import parse_params, summary, trajectory_csv, tune  # local: --help imports every command module

    params = parse_params(args.params)
    store = args.store
    scratch = None
    if store is None:
        # Unfinished runs wait in the runs folder, keyed by what fixes the result, so that the same
        # command resumes; removed once the result is printed.
        from cardsim._jit import source_hash  # local: --help imports every command module
        from cardsim.runner.files import transform_id  # local: --help imports every command module
        from cardsim.runner.store import manifest_key  # local: --help imports every command module

        key = manifest_key({"source": source_hash(), "code": transform_id(tune), "game": args.game, "strategy": args.strategy, "params": args.params,
                            "objective": args.objective, "n": args.matches, "seed": args.seed, "pairs": args.pairs})
        store = scratch = runs_dir() / f"tune-{key}"
    echo = (lambda line: print(line, flush=True)) if args.format == "text" else None
    with cluster(args.scheduler):
        result = tune(args.game, args.strategy, params=params, objective=args.objective, budget=args.budget,
                      n_matches=args.matches, seed=args.seed, n_jobs=args.jobs, store=store, progress=args.progress,
                      pairs=args.pairs, echo=echo)
    if args.format == "json":
        sys.stdout.write(json.dumps(result.to_dict(), indent=1) + "\n")
    elif args.format == "csv":
        sys.stdout.write(trajectory_csv(result))
    else:
        print("\n".join(summary(result)))
    sys.stdout.flush()
    if scratch is not None:
        ChunkStore.discard(scratch)
    return 0
