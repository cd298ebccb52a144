"""Five Hundred in the game: who wins from a score state, under both scorings and both targets
(cardsim.analysis.g500.equity).

``--n`` is an upper bound on the games per cell (state and first dealer; at most G.GAMES);
``--quick`` plays a coarser grid with at most G.QUICK_GAMES per cell.  ``--results``: where each
finished cell is kept, so an interrupted run resumes.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from cardsim._version import __version__
from analyses.common import entry, legends, script_main, strategy_parameters, write_meta, write_tables
from cardsim.analysis.g500 import equity as G
from cardsim.runner.run import make_run

TITLE = "Five Hundred: who wins the game from a score state?"


def run(args, plan: G.Plan | None = None) -> Path:
    """Play the equity grid, write its tables, figure and ``500_equity.json``; returns its path."""
    started = time.time()
    plan = plan or G.plan(args.n, args.quick)
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: scores at {', '.join(map(str, plan.fractions))} of the target, {plan.games:,} games per cell")
    tabs = G.tables(G.run_equity(plan, args.seed, args.jobs, log=log, results=args.results))
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figures = G.figures(tabs["g500_equity"], out / "figures")
    manifest = make_run(G.GAME, 1, args.seed).manifest()
    specs = manifest["strategies"]
    meta = {"game": G.GAME, "title": TITLE, "deals": plan.games, "deals_unit": "games per state and first dealer",
            "seed": args.seed, "source": manifest["source"], "cardsim": __version__, "strategies": specs,
            "parameters": strategy_parameters(G.GAME, specs),
            "rules": {"scoring": " and ".join(plan.scorings), "target": " and ".join(map(str, plan.targets))},
            "tables": [t for t in tabs if t != "g500_equity"], "csv_only": ["g500_equity"],
            "figures": [p.name for p in figures], "glossary": G.GLOSSARY, "notes": G.NOTES,
            "legends": legends(G.LEGENDS, [p.name for p in figures]), "answer": G.answer(tabs["g500_equity"]),
            "method": G.METHOD}
    return write_meta(out, "500_equity", meta, TITLE, time.time() - started, len(paths) // 2,
                      [p.name for p in figures])


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
