"""``cardsim quality``: each strategy's play against double-dummy.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import sys

from cardsim.cli.common import add_execution_options, parse_game, parse_positive, parse_seed
from cardsim.games import GAME_NAMES

NAME = "quality"


def add_parser(sub) -> None:
    p = sub.add_parser("quality", help="each strategy's play against double-dummy (vs_dd, made, DD-makeable)",
                       description="Every strategy (default: all the game registers) plays all seats of the same "
                                   "deals 0..N-1; each declared deal is compared with its double-dummy result. "
                                   "vs_dd: the declaring side's tricks (501: the declarer's deal points) minus DD, "
                                   "mean per declared deal with a 95% interval; dd_makeable / made: shares of "
                                   "declared contracts; Vint also right_side (the declaring side has the better "
                                   "best DD result) and best_denomination.  DD costs more than playing: per "
                                   "declared deal and strategy about 0.1 s in Vint, under 1 ms in 501 and "
                                   "about 6 ms in Five Hundred (BENCHMARKS.md).  Intervals need 30 declared "
                                   "deals; below that they print as NaN.")
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("-n", "--deals", type=parse_positive, required=True, help="deals per strategy (the same for all)")
    p.add_argument("--seed", type=parse_seed, default=0, help="run seed (default 0)")
    p.add_argument("--strategies", nargs="+", metavar="NAME[:p=v,...]", help="strategies to measure (default: all)")
    p.add_argument("--by", help="split declared deals by any of band, denomination, level, comma-separated "
                                "(a longer table); band: the game's contract height bands (Vint levels 1-3, "
                                "4-5, 6-7; Five Hundred 6-7, 8-10; 501 targets 66-99, 100-119, 120-220)")
    p.add_argument("--level", metavar="L[-H]",
                   help="count only the declared contracts of these heights, e.g. 4-7 or 4 (Vint and Five Hundred "
                        "the level; 501 the target in card points, e.g. 100-119); every deal is still solved")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    add_execution_options(p)


def run(args) -> int:
    from cardsim.analysis.quality import CHUNK, check_by, check_levels, check_request, deal_chunk, quality  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module
    from cardsim.runner.store import ChunkStore, analysis_store, runs_dir  # local: --help imports every command module

    by = [b.strip() for b in args.by.split(",") if b.strip()] if args.by else []
    game, names = check_request(args.game, args.deals, args.strategies)
    check_by(by)
    check_levels(game, args.level)
    # Finished chunks wait in the runs folder until the table is printed (DD makes a quality run
    # long): the same command after an interruption resumes from them.
    store = analysis_store(runs_dir(), "quality", deal_chunk, game=game, strategies=names,
                           deals=args.deals, seed=args.seed, chunk=CHUNK)
    with cluster(args.scheduler):
        df = quality(args.game, args.deals, args.seed, args.strategies, by, n_jobs=args.jobs, progress=args.progress,
                     store=store, levels=args.level)
    ChunkStore.discard(store.path)
    if args.format == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif args.format == "json":
        sys.stdout.write(df.to_json(orient="records", double_precision=6) + "\n")
    else:
        only = f", contracts at {args.level.strip()} only" if args.level else ""
        print(f"{df.attrs['game']}: {args.deals:,} deals, seed {args.seed}{only}; vs_dd in {df.attrs['unit']} per declared "
              "deal (declaring side minus double-dummy), n = declared deals")
        print(df.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return 0
