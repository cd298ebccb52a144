"""Vint by the rubber: the chance of winning the rubber, and the expected margin in points, from a
grid of states of the line (cardsim.analysis.vint.equity).

``--n`` is an upper bound on the rubbers per state and first dealer (at most V.RUBBERS);
``--quick`` plays a coarser grid (V.QUICK_BELOW) with at most V.QUICK_RUBBERS each.
``--results``: where each finished state and dealer is kept, so an interrupted run resumes.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from cardsim._version import __version__
from analyses.common import entry, script_main, strategy_parameters, write_meta, write_tables
from cardsim.analysis.vint import equity as V
from cardsim.runner.run import make_run

TITLE = "Vint: who wins the rubber from the score below the line?"


def run(args) -> Path:
    """Play the grid, write the tables, the heat map and ``vint_equity.json``; returns its path."""
    started = time.time()
    below = V.QUICK_BELOW if args.quick else V.BELOW
    rubbers = min(args.n, V.QUICK_RUBBERS if args.quick else V.RUBBERS)
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: below the line {', '.join(map(str, below))} each side x games won x 4 dealers, "
        f"{rubbers:,} rubbers each")
    cells = V.run_states(below, V.GAMES, rubbers, args.seed, args.jobs, log=log, results=args.results)
    eq = V.equity_table(cells)
    tabs = {"vint_equity": V.equity_wide(eq), "vint_equity_margin": V.equity_wide(eq, "margin"),
            "vint_equity_long": eq, "vint_equity_states": cells}
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figure = V.equity_figure(eq, out / "figures")
    manifest = make_run(V.GAME, 1, args.seed).manifest()
    specs = manifest["strategies"]
    meta = {"game": V.GAME, "title": TITLE, "deals": rubbers,
            "deals_unit": "rubbers per state and first dealer, each played to its end",
            "seed": args.seed, "source": manifest["source"], "cardsim": __version__, "strategies": specs,
            "parameters": strategy_parameters(V.GAME, specs), "rules": {},
            "tables": ["vint_equity", "vint_equity_margin"], "csv_only": ["vint_equity_long", "vint_equity_states"],
            "table_titles": {"vint_equity": "side 0's rubber-win probability (%), rows: games won (us-them) and our "
                                            "points below, columns: their points below",
                             "vint_equity_margin": "side 0's expected margin to the rubber's end (score points)"},
            "figures": [figure.name], "glossary": V.GLOSSARY,
            "legends": {figure.name: "Side 0's chance (%) of winning the rubber from each state of the line, one "
                                     "panel per games won; the four first dealers averaged."},
            "notes": [], "answer": V.answer(eq), "method": V.METHOD}
    return write_meta(out, "vint_equity", meta, TITLE, time.time() - started, len(paths) // 2, [figure.name])


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
