"""Five Hundred bid guide: for a holding before the kitty, which level (6-10) to bid and how
often each makes, under both scorings (cardsim.analysis.g500.guide).

``--n`` is deals per class, capped at DEFAULT_CAP (the report's 1,000,000 would take hours);
``--quick``: QUICK_DEALS per class and fewer classes.  ``--results``: the folder keeping the
finished strata (a rerun resumes).  After the guide, each rule of thumb's bid is played forced,
opened and passed on its class's deals (``g500_guide_openings``).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from analyses.common import chart_meta, entry, legends, script_main, write_chart_meta, write_tables
from cardsim.analysis.g500 import guide as G
from cardsim.analysis import robustness as RB
from cardsim.runner.run import make_run

TITLE = "Five Hundred bid guide"
DEFAULT_CAP = 20_000
QUICK_DEALS = 1_500


def deals_per_class(n: int, quick: bool) -> int:
    return min(n, QUICK_DEALS if quick else DEFAULT_CAP)


def run(args, classes=None) -> Path:
    """Play the guide's classes, write its tables, figure and ``500_guide.json``; returns its path."""
    started = time.time()
    deals = deals_per_class(args.n, args.quick)
    profiles = RB.others(G.GAME, args.profiles)  # an unknown profile is an error before any work
    classes = G.guide_classes(args.quick) if classes is None else classes
    print(f"{TITLE}: {len(classes)} classes, up to {deals:,} deals each, both scorings", flush=True)
    levels = G.run_classes(classes, deals, args.seed, n_jobs=args.jobs, log=lambda s: print(s, flush=True),
                          results=args.results)
    robust = lambda b: G.run_robust(classes, b, deals, args.seed, n_jobs=args.jobs,  # noqa: E731
                                    log=lambda s: print(s, flush=True), results=args.results, profiles=profiles,
                                    levels=levels)
    tabs = G.tables(levels, robust)
    rules = G.rules(tabs)
    tabs["g500_guide_openings"] = G.run_openings(classes, tabs["g500_guide_bids"], rules, deals, args.seed,
                                                 n_jobs=args.jobs, log=lambda s: print(s, flush=True),
                                                 results=args.results)
    out = Path(args.out)
    paths = write_tables(G.for_writing(tabs), out)
    figures = G.figures(tabs, out / "figures")
    specs = make_run(G.GAME, 1, args.seed).manifest()["strategies"]
    meta = chart_meta(G.GAME, TITLE, args.seed, specs, deals=deals, deals_unit="deals per class",
                      rules={"scoring": " and ".join(G.SCORINGS)},
                      # every (class, scoring, level) row is in the CSV; the page shows the summaries
                      tables=[t for t in tabs if t != "g500_guide_levels"], csv_only=["g500_guide_levels"],
                      figures=[p.name for p in figures], glossary={**G.GLOSSARY, **RB.GLOSSARY}, notes=G.NOTES,
                      legends=legends(G.LEGENDS, [p.name for p in figures]), rules_of_thumb=rules,
                      answer=G.answer(tabs), method=G.METHOD,
                      detail={"tables": [], "items": G.answer_parts(tabs)})  # the report's "In detail": a list
    path = write_chart_meta(out, "500_guide", meta)
    print(f"{TITLE}: {len(levels) // (len(G.LEVELS) * len(G.SCORINGS))} classes in {time.time() - started:.0f} s -> "
          f"{', '.join(p.name for p in paths + figures)}, {path.name}", flush=True)
    return path


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
