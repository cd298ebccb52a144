"""What every analysis script does: simulate (resumably), aggregate by chunk, write tables and figures.

Only public cardsim APIs are used here (runner, analysis modules), never engine internals.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from cardsim._version import __version__
from cardsim.analysis import for_game, merge
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.runner.dataset import simulate_to_dataset
from cardsim.runner.files import OutputError, transform_id
from cardsim.runner.pool import cluster
from cardsim.runner.read import read_parts
from cardsim.runner.run import make_run
from cardsim.strategies.registry import StrategyError


def parse_args(description: str, argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--n", type=int, default=1_000_000, help="deals to simulate (default 1,000,000)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=-1,
                   help="worker processes: -1 = all cores when that pays (the default; README), 1 = one")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bars (default: when standard error is a terminal)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on a dask.distributed cluster (tcp://HOST:8786, or 'local'); --results must be "
                        "reachable from every worker")
    p.add_argument("--results", default="results", help="where the resumable chunk aggregates go")
    p.add_argument("--out", default="reports", help="report directory (tables/ and figures/ inside)")
    p.add_argument("--quick", action="store_true", help="a small version of the analysis (make report QUICK=1)")
    p.add_argument("--profiles", metavar="NAME,...",
                   help="the player profiles the charts are replayed under (default: every profile of the game but "
                        "default; cardsim profiles GAME)")
    p.add_argument("--strategy", metavar="SPEC",
                   help="the players at every seat (a strategy spec or rules:FILE; default: the game's default "
                        "strategy); analyses/vint_charts.py honours it, the others take only the default")
    args = p.parse_args(argv)
    if args.n <= 0:
        p.error(f"--n must be a positive number of deals, got {args.n}")
    return args


def readable(table):
    """Floats as fixed-point text for the Markdown and HTML tables: shares (columns within 0..1) to 4 decimals,
    everything else to 1 (never 1e-05)."""
    out = table.copy()
    for col in out.columns:
        if out[col].dtype.kind == "f":
            values = out[col].to_numpy()
            share = bool(np.all((values[~np.isnan(values)] >= 0) & (values[~np.isnan(values)] <= 1)))
            out[col] = [("" if np.isnan(v) else f"{v:.4f}" if share else f"{v:,.1f}") for v in values]
    return out


def write_tables(tabs: dict, out: Path) -> list[Path]:
    """Each table as CSV (full precision) and Markdown (rounded) under ``out/tables``."""
    tdir = out / "tables"
    tdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, table in tabs.items():
        table.to_csv(tdir / f"{name}.csv", index=False)
        (tdir / f"{name}.md").write_text(readable(table).to_markdown(index=False, disable_numparse=True) + "\n")
        paths += [tdir / f"{name}.csv", tdir / f"{name}.md"]
    return paths


def write_meta(out: Path, table: str, meta: dict, title: str, seconds: float, tables: int, figures) -> Path:
    """Write an analysis's ``reports/tables/<table>.json`` (``meta``: what the report reads) and
    print what was made: ``tables`` tables and the ``figures`` (names) in ``seconds``."""
    path = out / "tables" / f"{table}.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"{title}: done in {seconds:.0f} s -> {tables} tables, {', '.join([*figures, path.name])}", flush=True)
    return path


def chart_meta(game: str, title: str, seed: int, strategies: list, *, deals: int, deals_unit: str, rules: dict,
               tables: list, figures: list, glossary: dict, notes: list, legends: dict, rules_of_thumb: list,
               answer: str, method: str, detail: dict, csv_only: list | None = None,
               parameters: dict | None = None) -> dict:
    """What a chart analysis's ``reports/tables/<table>.json`` holds for the report, in the order the
    report reads it (cardsim.analysis.chart_pipeline): the run (game, title, deals and their unit,
    seed, the jitted sources' hash, cardsim's version, every seat's strategy spec and its
    parameters, ``parameters`` when the caller has them already, the rules), the tables (and those
    written as CSV only), the figures, the prose (glossary, notes, legends, method), the rules of
    thumb, the answer and the "In detail" part (``{"tables": [...], "items": [...]}``)."""
    meta = {"game": game, "title": title, "deals": deals, "deals_unit": deals_unit, "seed": seed,
            "source": make_run(game, 1, seed).manifest()["source"], "cardsim": __version__,
            "strategies": strategies,
            "parameters": strategy_parameters(game, strategies) if parameters is None else parameters,
            "rules": rules, "tables": tables}
    if csv_only is not None:
        meta["csv_only"] = csv_only
    return meta | {"figures": figures, "glossary": glossary, "notes": notes, "legends": legends,
                   "rules_of_thumb": rules_of_thumb, "answer": answer, "method": method, "detail": detail}


def write_chart_meta(out: Path, table: str, meta: dict, ensure_ascii: bool = False) -> Path:
    """Write :func:`chart_meta`'s ``meta`` to ``out/tables/<table>.json`` (indent 1; non-ASCII
    text as ``\\u`` escapes where ``ensure_ascii``, as the Vint charts have always written it).
    Returns the path."""
    path = Path(out) / "tables" / f"{table}.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=ensure_ascii))
    return path


def legends(known: dict, figures) -> dict:
    """``{figure: legend}`` for the figure names ``figures`` from ``known`` (a module's LEGENDS):
    an exact name, else the longest key the name starts with; a figure without one is left out."""
    out = {}
    for name in figures:
        keys = [k for k in known if name == k or name.startswith(k)]
        if keys:
            out[name] = known[max(keys, key=len)]
    return out


def strategy_parameters(game: str, specs) -> dict:
    """``{spec: {parameter: value}}`` for the strategy specs of a run, every parameter spelled out;
    a rule file's spec (``rules:PATH[:…]``) as ``{"rule_file": PATH, "sha256": hex}`` (its file and
    includes, :func:`cardsim.rules.digests`, as a run's manifest keeps them): its row is a table,
    not named parameters."""
    from cardsim.rules import digests
    from cardsim.rules.compile import split_spec

    registry = get_game(game).table.registry
    out = {}
    for spec in dict.fromkeys(specs):
        files = digests([spec])
        if files:
            out[spec] = {"rule_file": str(split_spec(spec.partition(":")[2])[0]), "sha256": files[spec]}
            continue
        strategy, vector = registry.resolve(spec)
        out[spec] = {name: float(v) for name, v in zip(strategy.params, vector)}
    return out


def strategy_of(args: argparse.Namespace, game: str) -> str:
    """The spec every seat plays in an analysis: ``--strategy``, else ``game``'s default strategy.
    Raises StrategyError (one line) for a spec the game cannot play (an unknown name, a rule file
    of another game or one that does not parse)."""
    spec = getattr(args, "strategy", None) or get_game(game).table.default_strategy
    make_run(game, 1, 0, [spec] * get_game(game).default_seats)  # checks the spec before any work
    return spec


def non_default_strategy(args: argparse.Namespace) -> str | None:
    """The one-line refusal for an analysis that plays only the default players when ``--strategy``
    names another spec (None when it is absent or some game's default)."""
    from cardsim.games import GAME_NAMES

    spec = getattr(args, "strategy", None)
    if spec is None or spec in {get_game(g).table.default_strategy for g in GAME_NAMES}:
        return None
    return (f"--strategy {spec}: this analysis plays the default players only (analyses/vint_charts.py "
            f"takes --strategy)")


def script_main(title: str, run, argv=None) -> int:
    """The ``main`` of an analysis script: parse the common arguments, ``run(args)`` (on the
    cluster of ``--scheduler`` if given), and turn a bad argument or unwritable output into a
    one-line error (exit 2).  These analyses play the default players: a non-default ``--strategy``
    is refused (exit 2) rather than ignored."""
    args = parse_args(title, argv)
    refused = non_default_strategy(args)
    if refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    try:
        with cluster(args.scheduler):
            run(args)
    except (OptionError, StrategyError, OutputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def entry(main) -> int:
    """Run a script's ``main()``; Ctrl-C ends it with one line (exit 130), not a traceback.
    Finished chunks are already on disk (under --results), so the same command resumes."""
    try:
        return main()
    except KeyboardInterrupt:
        print("interrupted: finished chunks are kept; run the same command again to resume",
              file=sys.stderr)
        return 130


def run_analysis(game: str, title: str, args: argparse.Namespace, strategies=None, rules=None) -> Path:
    """Simulate ``args.n`` deals of ``game`` (resuming an interrupted run), build the game's
    tables and figures, and write ``out/tables/<game>.json`` describing them; returns its path."""
    run = make_run(game, args.n, args.seed, strategies, rules=rules)
    module = for_game(game)
    # The hashes of the jitted sources and of the aggregating code are in the name: after a
    # change to either the run starts afresh instead of resuming chunks that older code
    # produced; an edit elsewhere (CLI, report) reuses them.
    summary = transform_id(module.summarize).rsplit("@", 1)[1]
    dataset = Path(args.results) / f"{game}-n{args.n}-seed{args.seed}-{run.manifest()['source']}-{summary}"
    simulate_to_dataset(dataset, run, n_jobs=args.jobs, progress=getattr(args, "progress", None),
                        transform=module.summarize)
    tabs = module.tables(merge(read_parts(dataset)))
    out = Path(args.out)
    tables = write_tables(tabs, out)
    fdir = out / "figures"
    fdir.mkdir(parents=True, exist_ok=True)
    figures = module.figures(tabs, fdir) if hasattr(module, "figures") else []
    parameters = strategy_parameters(game, run.setup.specs)
    meta = {"game": game, "title": title, "deals": args.n, "seed": args.seed, "source": run.manifest()["source"],
            "cardsim": run.manifest()["cardsim"],
            "strategies": list(run.setup.specs), "parameters": parameters, "rules": run.setup.rules,
            "tables": list(tabs), "figures": [p.name for p in figures],
            "glossary": getattr(module, "GLOSSARY", {}), "notes": getattr(module, "NOTES", []),
            "legends": legends(getattr(module, "LEGENDS", {}), [p.name for p in figures])}
    path = out / "tables" / f"{game}.json"
    path.write_text(json.dumps(meta, indent=1))
    print(f"{title}: {args.n:,} deals -> {', '.join(p.name for p in tables + figures)}")
    return path


def main_for(game: str, title: str, argv=None, **kw) -> int:
    return script_main(title, lambda args: run_analysis(game, title, args, **kw), argv)
