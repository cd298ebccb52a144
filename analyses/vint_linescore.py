"""Vint "the score below the line": for a few hands, the best call or level by the line (clean, a
part-score, one game each, 480 below), judged by rubbers won and by points, and where they disagree
(cardsim.analysis.vint.linescore).

``--n`` is an upper bound on the deals per cell (at most L.DEALS); ``--quick``: two hands and
L.QUICK_DEALS deals.  ``--results``: where each finished cell is kept, so an interrupted run
resumes.  ``--profiles``: the player profiles the rubber's best and the points' best are replayed under.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from cardsim._version import __version__
from analyses.common import entry, legends, script_main, strategy_parameters, write_meta, write_tables
from cardsim.analysis import robustness as RB
from cardsim.analysis.vint import linescore as L
from cardsim.runner.run import make_run

TITLE = "Vint: the score below the line"


def run(args, plan: L.Plan | None = None) -> Path:
    """Play the plan, write its tables, figure and ``vint_linescore.json``; returns its path."""
    started = time.time()
    plan = plan or L.plan(args.n, args.quick)
    profiles = RB.others(L.GAME, args.profiles)  # an unknown profile is an error before any work
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: {len(plan.hands)} hands x {len(plan.states)} lines, {plan.deals:,} deals each")
    robust = lambda b: L.run_robust(plan, b, args.seed, args.jobs, log=log, results=args.results,  # noqa: E731
                                    profiles=profiles)
    tabs = L.tables(L.run(plan, args.seed, args.jobs, log=log, results=args.results),
                    robust=robust if profiles else None)
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figures = L.figures(tabs["vint_linescore"], out / "figures")
    manifest = make_run(L.GAME, 1, args.seed).manifest()
    specs = manifest["strategies"]
    meta = {"game": L.GAME, "title": TITLE, "deals": plan.deals, "deals_unit": "deals per hand and line",
            "seed": args.seed, "source": manifest["source"], "cardsim": __version__, "strategies": specs,
            "parameters": strategy_parameters(L.GAME, specs), "rules": {},
            "tables": [t for t in tabs if t != "vint_linescore_levels"], "csv_only": ["vint_linescore_levels"],
            "figures": [p.name for p in figures], "glossary": {**L.GLOSSARY, **(RB.PAIR_GLOSSARY if profiles else {})},
            "notes": L.NOTES,
            "legends": legends(L.LEGENDS, [p.name for p in figures]), "answer": L.answer(tabs["vint_linescore"]),
            "rules_of_thumb": L.rules(tabs["vint_linescore"]), "rules_none": L.RULES_NONE,
            "method": L.METHOD}
    return write_meta(out, "vint_linescore", meta, TITLE, time.time() - started, len(paths) // 2,
                      [p.name for p in figures])


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
