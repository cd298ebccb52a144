"""``cardsim simulate``: deals (in memory, or a parquet dataset with ``-o``) or whole matches, and their records.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import cardsim
from cardsim.cli.common import (UsageError, add_execution_options, add_setup_options, parquet_name, parse_game,
                                parse_output_path, parse_positive, parse_strategies)
from cardsim.games import GAME_NAMES, get_game

NAME = "simulate"

IN_MEMORY_LIMIT = 20_000_000
"""Most deals ``simulate`` without ``-o`` holds in memory (about 2 GB of rows)."""


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="simulate deals (or whole matches)")
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("-n", "--deals", type=parse_positive, help="number of deals")
    p.add_argument("--matches", type=parse_positive, help="play this many whole matches instead of deals")
    add_setup_options(p)
    p.add_argument("-o", "--output", type=parse_output_path, help="parquet output: deals go to a dataset directory, matches to two files; unfinished "
                        "work waits in OUTPUT.partial and the same command resumes it")
    p.add_argument("--records", type=parse_output_path, help="write the first deals' records (JSON Lines) here")
    p.add_argument("--records-limit", type=parse_positive, help="how many records (default 1000)")
    p.add_argument("--chunk-size", type=parse_positive, help="deals per chunk (default 100000)")
    add_execution_options(p)


def run(args) -> int:
    from cardsim.runner.dataset import simulate_to_dataset  # local: --help imports every command module
    from cardsim.runner.files import check_output_file, follow_link  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module
    from cardsim.runner.run import DEFAULT_CHUNK, make_run  # local: --help imports every command module

    strategies = parse_strategies(args.strategy)
    if args.output:
        parquet_name(args.output, "-o")
    if (args.deals is None) == (args.matches is None):
        raise UsageError("give exactly one of -n/--deals and --matches")
    if args.matches:
        return _simulate_matches(args, strategies)
    run = make_run(args.game, args.deals, args.seed, strategies, args.seats, args.rule,
                   args.chunk_size or DEFAULT_CHUNK)
    spec = get_game(args.game)
    limit = args.records_limit or 1000
    if args.records_limit and not args.records:
        raise UsageError("--records-limit needs --records FILE")
    if not args.output and args.deals > _in_memory_cap(args.game):
        raise UsageError(f"without -o the rows are held in memory: at most {_in_memory_cap(args.game):,} deals here "
                         "(write larger runs to a dataset with -o PATH)")
    if args.output:
        follow_link(args.output)  # a broken link is refused before a cluster is reached
    if args.records:
        # Checked now, made and written once the run is accepted and done: a refused run (a
        # different run at -o) leaves no records file behind, and an interruption during the
        # long part (the deals, resumable) loses no records work.
        check_output_file(args.records)
    with cluster(args.scheduler):
        if args.output:
            simulate_to_dataset(args.output, run, n_jobs=args.jobs, progress=args.progress)
            print(f"{args.deals} {spec.name} deals (seed {run.seed}) written to {args.output}")
        else:
            df = cardsim.simulate(args.game, args.deals, run.seed, strategies, args.seats, args.rule, n_jobs=args.jobs,
                                  chunk_size=run.chunk_size, progress=args.progress)
            print(f"{len(df)} {spec.name} deals, seed {run.seed}, strategies {', '.join(run.setup.specs)}")
            # percentiles=[]: describe's quartiles are most of its time and not printed; the
            # columns printed are computed the same either way.
            print(df.describe(percentiles=[]).T[["mean", "std", "min", "max"]].to_string())
    if args.records:
        ids = range(min(limit, args.deals))
        records = spec.play.make_records(run.seed, ids, run.setup)
        lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        _write_text(args.records, lines)
        print(f"records of the first {min(limit, args.deals)} deals written to {args.records}")
    return 0


def _write_text(path, text):
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed when complete, so a
    disk that fills leaves no truncated file), creating a missing folder as ``-o`` does;
    OutputError if it cannot."""
    from cardsim.runner.files import atomic_write, check_output_file  # local: --help imports every command module

    atomic_write(check_output_file(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _in_memory_cap(game: str) -> int:
    from cardsim.runner.run import memory_cap  # local: --help imports every command module

    return min(IN_MEMORY_LIMIT, memory_cap(game))


_RUN_FIELDS = ("game", "seed", "n_deals", "seats", "strategies", "rules", "source")
"""What makes two match runs the same run (the chunk size does not change the result)."""


def _same_match_run(path: Path, run) -> bool:
    """Whether the matches file ``path`` was written by ``run`` (its pandas attrs hold the run's
    manifest)."""
    import pyarrow.parquet as pq  # local: --help imports every command module

    try:
        attrs = json.loads(pq.read_schema(path).metadata[b"PANDAS_ATTRS"])
    except Exception:  # not parquet, not ours, or no manifest: the caller refuses it
        return False
    manifest = run.manifest()
    return all(attrs.get(k) == manifest.get(k) for k in _RUN_FIELDS)


def _unfinished(matches) -> int:
    """Matches stopped at the engine's cap on deals, without a winner (501: ``finished`` False;
    Vint and Five Hundred: no ``winner``, missing in the frame)."""
    if "finished" in matches:
        return int((~matches["finished"]).sum())
    if "winner" not in matches:
        return 0
    winner = matches["winner"]
    return int((winner.isna() | winner.lt(0).fillna(False)).sum())


def _simulate_matches(args, strategies) -> int:
    """``simulate --matches``: chunks are kept in ``<out>.partial`` (without -o: in the runs
    folder) until both files are written, so an interrupted run resumes."""
    from cardsim.runner.dataset import staging  # local: --help imports every command module
    from cardsim.runner.files import OutputError, atomic_write, check_output_file, follow_link  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module
    from cardsim.runner.run import make_run, play_matches  # local: --help imports every command module
    from cardsim.runner.store import ChunkStore, manifest_key, runs_dir  # local: --help imports every command module

    for given, option in ((args.records, "--records"), (args.records_limit, "--records-limit"),
                          (args.chunk_size, "--chunk-size")):
        if given:
            raise UsageError(f"{option} works with -n (deals), not with --matches")
    run = make_run(args.game, args.matches, args.seed, strategies, args.seats, args.rule, what="the number of matches")
    out = deals_path = None
    if args.output:
        out = follow_link(args.output)
        deals_path = follow_link(out.with_name(out.stem + "-deals" + (out.suffix or ".parquet")))
        store = staging(out)
        if out.exists() and deals_path.exists() and not store.exists() and _same_match_run(out, run):
            print(f"{args.matches} matches already written to {out} and {deals_path}")
            return 0
        for path in (out, deals_path):
            if path.exists() and not store.exists():
                raise OutputError(f"{path} exists (a different or unreadable match run): remove it or choose "
                                  "another path")
            check_output_file(path)
    else:
        store = runs_dir() / f"matches-{manifest_key(run.manifest())}"
    with cluster(args.scheduler):
        matches, deals = play_matches(args.game, args.matches, args.seed, strategies, args.seats, args.rule,
                                      n_jobs=args.jobs, store=store, progress=args.progress)
    unfinished = _unfinished(matches)
    if unfinished:
        # Such matches stopped at the engine's safety cap on deals: their final scores are no result.
        print(f"cardsim: warning: {unfinished:,} of {len(matches):,} matches ended without a winner at the cap on "
              "deals a match (their final scores are no result); check the strategies (do they ever bid?)", file=sys.stderr)
    if out is not None:
        for df, path in ((deals, deals_path), (matches, out)):
            atomic_write(path, df.to_parquet)  # OutputError, one line, and no truncated file
        ChunkStore.discard(store)
        print(f"{len(matches)} matches ({len(deals)} deals) written to {out} and {deals_path}")
    else:
        ChunkStore.discard(store)
        print(f"{len(matches)} {get_game(args.game).name} matches ({len(deals)} deals), seed {run.seed}, "
              f"strategies {', '.join(run.setup.specs)}; {len(matches) - unfinished} finished")
        print(matches.describe().T.to_string())
    return 0
