"""Does a stronger player change the answer?  A few cells of each chart replayed with ``pimc`` card
play on every seat (cardsim.analysis.stronger: the rule that picks the cells, the gaps, the verdict).

Reads the charts the other analyses wrote (``--out``/tables: vint_charts.json, 500_guide.json,
501_game.json and their CSV tables), asks each chosen cell's question with the chart module's own
question builder (the one its replay under other profiles uses), once with ``heuristic`` and once
with ``pimc:worlds=W`` on every seat, and writes one table per game and ``stronger_play.json``.
A game without a ``pimc`` strategy gets the heuristic gaps and the verdict ``not available``.
``--results``: each finished question is kept there, so an interrupted run resumes.
Each game's cells, deals, worlds and units are its module ``analyses/<module>_stronger.py``
(:func:`game_part`); this module never names a game.

    python -m analyses.stronger_play --seed 2026 --jobs -1 --results results --out reports [--quick]
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import time
from pathlib import Path

import pandas as pd

from cardsim._version import __version__
from analyses.common import entry, script_main, write_tables
from cardsim.analysis import stronger as S
from cardsim.games import GAME_NAMES, get_game, package_of
from cardsim.runner.run import make_run
from cardsim.runner.store import analysis_store, run_chunks

TITLE = "Does a stronger player change the answer?"
QUICK_DEALS = 6


def game_part(game: str):
    """The module of ``game``'s cells, ``analyses/<module>_stronger.py`` (``vint_stronger``):
    ``DEALS`` per cell, ``WORLDS`` of its pimc, ``COST`` (a pimc deal against a heuristic one, for
    scheduling), ``SCALE`` and ``UNITS`` of its gaps, ``NOTE`` (after its deals in the notes),
    ``cells(tables, deals) -> (seed, cells)`` and ``sums(args, strategies)``; None for a game
    without one."""
    module = f"analyses.{package_of(game).rsplit('.', 1)[1]}_stronger"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


def section_games() -> list[str]:
    """The games the section asks about: those with a cells module, in the registry's order."""
    return [g for g in GAME_NAMES if game_part(g) is not None]


def _title(game: str) -> str:
    return get_game(game).facts.title


def _read(tables: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(tables / f"{name}.csv")


def _meta(tables: Path, name: str) -> dict | None:
    path = tables / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


# ---------------------------------------------------------------- the cells of each chart
# Each game's cells(tables, deals) returns (seed, cells): a cell is {"cell": label, "options": the
# question's options, "best", "other", "parts": [(the game, question args but the strategies, deals)]}.
def cell_sums(kind: str, args: tuple, strategies: list) -> dict | None:
    """The question sums of one part of a cell with every seat's ``strategies``: the chart
    module's own replay builder, the ``sums`` of the game ``kind``'s cells module (Vint
    analyses.vint_charts.robust_sums, None when the callers cannot be dealt; Five Hundred one
    stratum; 501 look and one blind level)."""
    return game_part(kind).sums(args, strategies)


def _merge(parts: list) -> dict | None:
    parts = [p for p in parts if p is not None]
    return {key: sum(p[key] for p in parts) for key in parts[0]} if parts else None


def plan(tables: Path, quick: bool) -> dict[str, dict]:
    """Per game: seed, deals, worlds, whether pimc is registered and the chosen cells."""
    out = {}
    for game in section_games():
        part = game_part(game)
        deals = QUICK_DEALS if quick else part.DEALS
        seed, cells = part.cells(tables, deals)
        out[game] = {"seed": seed, "deals": deals, "worlds": part.WORLDS, "pimc": S.available(game),
                     "cells": cells}
    return out


def run(args) -> Path:
    started = time.time()
    out = Path(args.out)
    games = plan(out / "tables", args.quick)
    tasks, sizes, slots = [], [], []
    for game, g in games.items():
        spec = get_game(game)
        base = [spec.default_strategy] * spec.default_seats
        specs = [("heuristic", base)] + ([("pimc", [S.pimc_spec(g["worlds"])] * spec.default_seats)] if g["pimc"] else [])
        for i, cell in enumerate(g["cells"]):
            for who, strategies in specs:
                for kind, qargs, n in cell["parts"]:
                    tasks.append((kind, qargs, strategies))
                    sizes.append(n * (game_part(game).COST if who == "pimc" else 1))
                    slots.append((game, i, who))
        print(f"  {_title(game)}: {len(g['cells'])} cells, {g['deals']} deals each"
              + (f", pimc:worlds={g['worlds']} on every seat" if g["pimc"] else ": no pimc strategy (not available)"),
              flush=True)
    store = analysis_store(args.results, "stronger", cell_sums, tasks=tasks)
    parts: dict = {}
    for slot, sums in zip(slots, run_chunks(cell_sums, tasks, sizes, args.jobs, store=store)):
        parts.setdefault(slot, []).append(sums)
    tabs, notes = {}, []
    for game, g in games.items():
        part = game_part(game)
        rows = []
        for i, cell in enumerate(g["cells"]):
            h = _merge(parts[(game, i, "heuristic")])
            cols = (S.compare(h, _merge(parts[(game, i, "pimc")]), cell["options"], cell["best"], cell["other"],
                              scale=part.SCALE) if g["pimc"] else
                    S.not_available(h, cell["options"], cell["best"], cell["other"], scale=part.SCALE))
            rows.append({"cell": cell["cell"], **cols})
        tabs[f"stronger_play_{game}"] = pd.DataFrame(rows, columns=S.COLUMNS)
        notes.append(f"{_title(game)}: " + (f"pimc:worlds={g['worlds']} on every seat, {g['deals']} deals per cell"
                                            + part.NOTE
                                            if g["pimc"] else "no pimc strategy registered: not available")
                     + f"; gaps in {part.UNITS}.")
    seconds = time.time() - started
    written = write_tables(tabs, out)
    method = (f"{TITLE} A few cells of each chart, chosen by a fixed rule ({S.RULE}), are asked again on their "
              "first deals (the chart's own deals and randomness) with the sampled-search player pimc playing the "
              "cards on every seat, the asking seat too (it bids, takes the talon and discards like heuristic); "
              "the gap best minus runner-up is paired over the same deals with its 95% interval, under heuristic "
              "and under pimc. " + " ".join(notes))
    specs = sorted({f"{game} " + (S.pimc_spec(g["worlds"]) if g["pimc"] else "heuristic only")
                    for game, g in games.items()})
    meta = {"game": "all", "title": TITLE, "deals": max(g["deals"] for g in games.values()),
            "deals_unit": "deals per cell (" + ", ".join(f"{_title(k)} {g['deals']}" for k, g in games.items())
                          + "; 501: games played to their end; Five Hundred: rounded up to a whole number per stratum "
                            "of the class)",
            "seed": next((g["seed"] for g in games.values() if g["cells"]), args.seed),
            "source": make_run("vint", 1).manifest()["source"], "cardsim": __version__,
            "strategies": ["heuristic"] + specs, "parameters": {}, "rules": {},
            "tables": list(tabs), "figures": [], "seconds": round(seconds, 1),
            "glossary": GLOSSARY, "notes": [method.removeprefix(TITLE + " ")],
            "answer": S.sentence({_title(k): tabs[f"stronger_play_{k}"] for k in games}), "method": method}
    path = out / "tables" / "stronger_play.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"{TITLE} {len(tasks)} questions in {seconds:.0f} s -> {', '.join(p.name for p in written)}, {path.name}",
          flush=True)
    return path


GLOSSARY = {
    "cell / best / runner_up": "the chart cell and its two options as the chart names them (the best and the "
                               "runner-up; 501: the best and look, or look and the best blind level)",
    "n": "deals compared (both options on the same deals)",
    "heuristic_gap": "best minus runner-up with heuristic on every seat on these deals, paired, with its 95% interval",
    "pimc_gap": "the same with pimc card play on every seat",
    "verdict": "agrees: the pimc gap has the heuristic gap's sign and its interval excludes 0; agrees, not clear: "
               "same sign, interval includes 0; reverses: opposite signs; not available: the game has no pimc yet",
}


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
