"""Does a stronger player change the answer?  A few cells of each chart replayed with ``pimc`` card
play on every seat (cardsim.analysis.stronger: the rule that picks the cells, the gaps, the verdict).

Reads the charts the other analyses wrote (``--out``/tables: vint_charts.json, 500_guide.json,
501_game.json and their CSV tables), asks each chosen cell's question with the chart module's own
question builder (the one its replay under other profiles uses), once with ``heuristic`` and once
with ``pimc:worlds=W`` on every seat, and writes one table per game and ``stronger_play.json``.
A game without a ``pimc`` strategy gets the heuristic gaps and the verdict ``not available``.
``--results``: each finished question is kept there, so an interrupted run resumes.

    python -m analyses.stronger_play --seed 2026 --jobs -1 --results results --out reports [--quick]
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import pandas as pd

from cardsim._version import __version__
from analyses.common import entry, script_main, write_tables
from cardsim.analysis import stronger as S
from cardsim.games import get_game
from cardsim.runner.run import make_run
from cardsim.runner.store import analysis_store, run_chunks

TITLE = "Does a stronger player change the answer?"
GAMES = ("vint", "501", "500")
NAMES = {"vint": "Vint", "501": "501", "500": "Five Hundred"}
DEALS = {"vint": 60, "501": 100, "500": 100}
"""Deals per cell (501: games, each played to its end from the cell's situation).  Budget: the
whole step in about 6 minutes on 2 cores.  Vint's pimc solves every world through DDS: measured
(4 worlds, every seat, on a machine loaded ~6x) about 1.3 s of CPU per deal played, 2.6 s per
question deal (two options), so a 100-deal cell took ~4.3 CPU-minutes and three cells on two
cores would take ~9 minutes; 60 deals keeps Vint near 5.  Re-measure on a quiet machine (the
brief's estimate was 0.3-0.7 s a deal): at 0.5 s, 100 deals fit.  Five Hundred's pimc plays about
1.7 deals a CPU-second with every seat searching at 8 worlds and 501's about 20 (each of its
games runs about 14 deals), so 100 deals and 100 games keep each near 3 minutes."""
WORLDS = {"vint": 4, "501": 8, "500": 8}
QUICK_DEALS = 6
SEATS = {"vint": 4, "501": 3, "500": 4}
COST = {"vint": 50, "501": 20, "500": 5}
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = {"vint": 1.0, "501": 100.0, "500": 1.0}
UNITS = {"vint": "score points", "501": "pp of the game's win", "500": "score points"}


def _read(tables: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(tables / f"{name}.csv")


def _meta(tables: Path, name: str) -> dict | None:
    path = tables / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


# ---------------------------------------------------------------- the cells of each chart
# Each returns (seed, cells): a cell is {"cell": label, "options": the question's options,
# "best", "other", "parts": [(builder kind, question args but the strategies, deals)]}.
def vint_cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
    from cardsim.analysis import vint_charts as vc

    meta = _meta(tables, "vint_charts")
    if meta is None:
        return 0, []
    frames = [_read(tables, t).assign(chart=t.removeprefix("vint_chart_"))
              for t in meta["tables"] if t.startswith("vint_chart_")]
    if not frames:
        return meta["seed"], []
    chosen = S.select(pd.concat(frames, ignore_index=True), "clear", "n", ["freq"])
    by_key = {(c.chart, " ".join(c.after) or "-", vc.band_label(c.band), c.shape.name): c
              for c in vc.chart_cells(False) + vc.chart_cells(True)}
    out = []
    for r in chosen.itertuples():
        cell = by_key.get((r.chart, r.after, r.band, r.shape))
        if cell is None:  # a chart table written by another version of the cells: nothing to ask
            print(f"  Vint: no cell {r.chart} {r.after} {r.band} {r.shape} in the charts' cells; left out", flush=True)
            continue
        n = min(deals, int(r.n))
        label = f"{r.chart}{'' if r.after == '-' else ' after ' + r.after}: {r.band} {r.shape}"
        out.append({"cell": label, "options": (r.best, r.runner_up), "best": r.best, "other": r.runner_up,
                    "parts": [("vint", (cell, (r.best, r.runner_up), n, meta["seed"]), n)]})
    return meta["seed"], out


def g500_cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
    from cardsim.analysis import g500_guide as G

    meta = _meta(tables, "500_guide")
    if meta is None:
        return 0, []
    bids = _read(tables, "g500_guide_bids")
    chosen = S.select(bids, "clear", "deals", ["share"], distinct=["denom", "holding"])
    by_label = {(h.denom, h.label()): h for h in G.guide_classes(False) + G.guide_classes(True)}
    seed = meta["seed"]
    out = []
    for r in chosen.itertuples():
        h = by_label.get((r.denom, r.holding))
        if h is None:
            print(f"  Five Hundred: no class {r.denom} {r.holding} in the guide's classes; left out", flush=True)
            continue
        best, other = f"={int(r.best)}{h.denom}", f"={int(r.runner_up)}{h.denom}"
        strata = h.strata()
        per = max(1, math.ceil(min(deals, int(r.deals)) / len(strata)))  # the first deals of every stratum
        parts = [("500", (h, (best, other), given, per, G.task_seed(seed, h, i), r.scoring), per)
                 for i, given in enumerate(strata)]
        out.append({"cell": f"{G.SYMBOL[h.denom]} {r.holding} ({r.scoring})", "options": (best, other),
                    "best": best, "other": other, "parts": parts})
    return seed, out


def g501_cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
    from cardsim.analysis import g501_game as G
    from cardsim.analysis.verdicts import NO_CLEAR

    meta = _meta(tables, "501_game")
    if meta is None:
        return 0, []
    choices, long = _read(tables, "g501_game_choices"), _read(tables, "g501_game_decisions")
    groups = {k: g for k, g in long.groupby(["own", "lead", "position"], sort=False)}
    rows = []
    for r in choices.itertuples():
        g = groups[(r.own, r.lead, r.position)]
        best, level = G.robust_pair(g)  # the pair the chart's replay under other profiles asks about
        other = (G.LOOK if best != G.LOOK else f"blind:{level}") if level else None
        rows.append({"own": r.own, "lead": r.lead, "position": r.position, "best": best, "runner_up": other,
                     "level": level, "clear": r.verdict != NO_CLEAR, "deals": int(g.deals.iloc[0]),
                     "near": -abs(int(r.lead))})
    if not rows:
        return meta["seed"], []
    chosen = S.select(pd.DataFrame(rows), "clear", "deals", ["own", "near"])
    out = []
    for r in chosen.itertuples():
        sit = G.Situation(int(r.own), int(r.lead), int(r.position))
        n = min(deals, int(r.deals))
        out.append({"cell": f"own {r.own}, lead {int(r.lead):+d}, position {r.position}",
                    "options": (G.LOOK, f"blind:{int(r.level)}"), "best": r.best, "other": r.runner_up,
                    "parts": [("501", (sit, int(r.level), n, meta["seed"]), n)]})
    return meta["seed"], out


CELLS = {"vint": vint_cells, "501": g501_cells, "500": g500_cells}


def cell_sums(kind: str, args: tuple, strategies: list) -> dict | None:
    """The question sums of one part of a cell with every seat's ``strategies``: the chart
    module's own replay builder (Vint analyses.vint_charts.robust_sums, None when the callers
    cannot be dealt; Five Hundred one stratum; 501 look and one blind level)."""
    if kind == "vint":
        from analyses.vint_charts import robust_sums

        return robust_sums(*args, strategies)
    if kind == "500":
        from cardsim.analysis.g500_guide import _robust_stratum_sums

        return _robust_stratum_sums(*args, strategies)
    from cardsim.analysis.g501_game import robust_sums

    return robust_sums(*args, strategies)


def _merge(parts: list) -> dict | None:
    parts = [p for p in parts if p is not None]
    return {key: sum(p[key] for p in parts) for key in parts[0]} if parts else None


def plan(tables: Path, quick: bool) -> dict[str, dict]:
    """Per game: seed, deals, worlds, whether pimc is registered and the chosen cells."""
    out = {}
    for game in GAMES:
        deals = QUICK_DEALS if quick else DEALS[game]
        seed, cells = CELLS[game](tables, deals)
        out[game] = {"seed": seed, "deals": deals, "worlds": WORLDS[game], "pimc": S.available(game),
                     "cells": cells}
    return out


def run(args) -> Path:
    started = time.time()
    out = Path(args.out)
    games = plan(out / "tables", args.quick)
    tasks, sizes, slots = [], [], []
    for game, g in games.items():
        base = [get_game(game).default_strategy] * SEATS[game]
        specs = [("heuristic", base)] + ([("pimc", [S.pimc_spec(g["worlds"])] * SEATS[game])] if g["pimc"] else [])
        for i, cell in enumerate(g["cells"]):
            for who, strategies in specs:
                for kind, qargs, n in cell["parts"]:
                    tasks.append((kind, qargs, strategies))
                    sizes.append(n * (COST[game] if who == "pimc" else 1))
                    slots.append((game, i, who))
        print(f"  {NAMES[game]}: {len(g['cells'])} cells, {g['deals']} deals each"
              + (f", pimc:worlds={g['worlds']} on every seat" if g["pimc"] else ": no pimc strategy (not available)"),
              flush=True)
    store = analysis_store(args.results, "stronger", cell_sums, tasks=tasks)
    parts: dict = {}
    for slot, sums in zip(slots, run_chunks(cell_sums, tasks, sizes, args.jobs, store=store)):
        parts.setdefault(slot, []).append(sums)
    tabs, notes = {}, []
    for game, g in games.items():
        rows = []
        for i, cell in enumerate(g["cells"]):
            h = _merge(parts[(game, i, "heuristic")])
            cols = (S.compare(h, _merge(parts[(game, i, "pimc")]), cell["options"], cell["best"], cell["other"],
                              scale=SCALE[game]) if g["pimc"] else
                    S.not_available(h, cell["options"], cell["best"], cell["other"], scale=SCALE[game]))
            rows.append({"cell": cell["cell"], **cols})
        tabs[f"stronger_play_{game}"] = pd.DataFrame(rows, columns=S.COLUMNS)
        notes.append(f"{NAMES[game]}: " + (f"pimc:worlds={g['worlds']} on every seat, {g['deals']} deals per cell"
                                          + (" (games played to their end)" if game == "501" else "")
                                          if g["pimc"] else "no pimc strategy registered: not available")
                     + f"; gaps in {UNITS[game]}.")
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
            "deals_unit": "deals per cell (" + ", ".join(f"{NAMES[k]} {g['deals']}" for k, g in games.items())
                          + "; 501: games played to their end; Five Hundred: rounded up to a whole number per stratum "
                            "of the class)",
            "seed": next((g["seed"] for g in games.values() if g["cells"]), args.seed),
            "source": make_run("vint", 1).manifest()["source"], "cardsim": __version__,
            "strategies": ["heuristic"] + specs, "parameters": {}, "rules": {},
            "tables": list(tabs), "figures": [], "seconds": round(seconds, 1),
            "glossary": GLOSSARY, "notes": [method.removeprefix(TITLE + " ")],
            "answer": S.sentence({NAMES[k]: tabs[f"stronger_play_{k}"] for k in games}), "method": method}
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
