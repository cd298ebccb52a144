"""Vint: which card to lead against no-trump and against a suit contract, by double-dummy leads
(cardsim.analysis.vint.leads): for classes of the leader's hand, the defenders' DD tricks after
each kind of lead, paired on the same deals, and the best lead per class.

``--n`` is an upper bound on the deals per cell (at most L.DEALS); ``--quick``: L.QUICK_DEALS.
``--results``: where each finished task is kept, so an interrupted run resumes.  ``--profiles`` is
accepted and ignored: double-dummy leads involve no player model.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from analyses.common import entry, legends, script_main, write_meta, write_tables
from cardsim._version import __version__
from cardsim.analysis.vint import leads as L
from cardsim.runner.run import make_run

TITLE = "Vint: which card to lead"


def run(args) -> Path:
    """Solve every cell's leads, write the tables, the figure and ``vint_leads.json``; returns its path."""
    started = time.time()
    deals = min(args.n, L.QUICK_DEALS if args.quick else L.DEALS)
    cells = L.cells(args.quick)
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: {len(cells)} cells x {deals:,} deals (double-dummy leads)")
    tabs = L.tables(L.run(cells, deals, args.seed, args.jobs, results=args.results, log=log), cells)
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figures = L.figures(tabs["vint_leads"], tabs["vint_leads_chart"], out / "figures")
    manifest = make_run(L.GAME, 1, args.seed).manifest()
    meta = {"game": L.GAME, "title": TITLE, "deals": deals, "deals_unit": "deals per cell (contract and hand)",
            "seed": args.seed, "source": manifest["source"], "cardsim": __version__,
            "strategies": ["none: double-dummy play after the lead (DDS)"], "parameters": {}, "rules": {},
            "tables": list(tabs), "table_titles": {"vint_leads_chart": "the best lead per contract and hand",
                                                   "vint_leads": "every lead compared, per contract and hand"},
            "figures": [p.name for p in figures], "glossary": L.GLOSSARY, "notes": L.NOTES,
            "legends": legends(L.LEGENDS, [p.name for p in figures]), "answer": L.answer(tabs["vint_leads_chart"]),
            "method": L.METHOD}
    return write_meta(out, "vint_leads", meta, TITLE, time.time() - started, len(paths) // 2,
                      [p.name for p in figures])


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
