"""Five Hundred "bid to the score": for a few holdings, the level that wins the most games from
each score state under both scorings, and where it differs from the per-deal answer
(cardsim.analysis.g500.bidscore).

``--n`` is an upper bound on the deals per class (at most B.DEALS); ``--quick``: two classes and
B.QUICK_DEALS deals.  ``--results``: where each finished stratum is kept, so an interrupted run
resumes.  ``--profiles``: the player profiles the best levels are replayed under.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from cardsim._version import __version__
from analyses.common import entry, legends, script_main, strategy_parameters, write_meta, write_tables
from cardsim.analysis.g500 import bidscore as B
from cardsim.analysis import robustness as RB
from cardsim.runner.run import make_run

TITLE = "Five Hundred: bid to the score"


def run(args, plan: B.Plan | None = None) -> Path:
    """Play the plan, write its tables, figure and ``500_bidscore.json``; returns its path."""
    started = time.time()
    plan = plan or B.plan(args.n, args.quick)
    profiles = RB.others(B.GAME, args.profiles)  # an unknown profile is an error before any work
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: {len(plan.holdings)} classes x {len(plan.states)} states x {len(plan.scorings)} scorings, "
        f"{plan.deals:,} deals per class")
    merged = B.run(plan, args.seed, args.jobs, log=log, results=args.results)
    robust = lambda b: B.run_robust(plan, b, args.seed, args.jobs, log=log, results=args.results,  # noqa: E731
                                    profiles=profiles)
    tabs = B.tables(merged, robust=robust if profiles else None)
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figures = B.figures(tabs["g500_bidscore"], out / "figures")
    manifest = make_run(B.GAME, 1, args.seed).manifest()
    specs = manifest["strategies"]
    meta = {"game": B.GAME, "title": TITLE, "deals": plan.deals, "deals_unit": "deals per class and cell",
            "seed": args.seed, "source": manifest["source"], "cardsim": __version__, "strategies": specs,
            "parameters": strategy_parameters(B.GAME, specs),
            "rules": {"scoring": " and ".join(plan.scorings), "target": " and ".join(map(str, plan.targets))},
            "tables": [t for t in tabs if t != "g500_bidscore_levels"], "csv_only": ["g500_bidscore_levels"],
            "figures": [p.name for p in figures], "glossary": {**B.GLOSSARY, **(RB.PAIR_GLOSSARY if profiles else {})},
            "notes": B.NOTES, "legends": legends(B.LEGENDS, [p.name for p in figures]),
            "rules_of_thumb": B.rules(tabs["g500_bidscore"]), "answer": B.answer(tabs["g500_bidscore"]),
            "method": B.METHOD}
    return write_meta(out, "500_bidscore", meta, TITLE, time.time() - started, len(paths) // 2,
                      [p.name for p in figures])


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
