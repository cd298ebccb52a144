"""Vint's cells of the stronger-player section (:mod:`analyses.stronger_play`): which chart cells
are asked again, and the chart's own replay builder that asks them."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyses import stronger_rule as R
from analyses.stronger_play import _meta, _read, piece_seed

PIECE = 20
"""Deals of one task (one question of its own seed)."""
FIRST = 100
"""Deals of a cell's first look; later looks double it up to :data:`CAP`."""
CAP = 800
"""Most deals of a cell.  Vint's pimc solves every world through DDS, from the fifth trick on (the
game's default ``early=4``: the heuristic's cards before): measured (2026-12-07, 2 cores shared,
load about 2) 0.15 CPU-s per question deal (both options, every seat ``pimc:worlds=8``; 0.155 and
0.144 on two chart cells, where the full search at 4 worlds, this check's spec before, took 1.22
and 0.87, and 1.65 in an earlier measurement at load 11-16), so a cell at the cap costs some 2
CPU-minutes and one decided at the first look about 15 seconds."""
WORLDS = 8
"""8, not 4: Vint's default ``early=4`` was measured at 8 worlds (stronger than the full search
with card-play version 6, not measurably different in tricks with version 7: docs/pimc.md), and
at 8 it is still several times cheaper than the full search at 4."""
COST = 50
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 1.0
UNITS = "score points"
NOTE = ""


def cells(tables: Path, k: int) -> tuple[int, list[dict]]:
    """Vint's chosen cells (:func:`analyses.stronger_rule.choose` over every chart table: worth =
    ``freq`` × ``gap``, points per deal dealt)."""
    from cardsim.analysis.vint import charts as vc

    meta = _meta(tables, "vint_charts")
    if meta is None:
        return 0, []
    frames = [_read(tables, t).assign(chart=t.removeprefix("vint_chart_"))
              for t in meta["tables"] if t.startswith("vint_chart_")]
    if not frames:
        return meta["seed"], []
    chosen = R.choose(pd.concat(frames, ignore_index=True), "gap", "freq", k=k)
    by_key = {(c.chart, " ".join(c.after) or "-", vc.band_label(c.band), c.shape.name): c
              for c in vc.chart_cells(False) + vc.chart_cells(True)}
    out = []
    for r in chosen.itertuples():
        cell = by_key.get((r.chart, r.after, r.band, r.shape))
        if cell is None:  # a chart table written by another version of the cells: nothing to ask
            print(f"  Vint: no cell {r.chart} {r.after} {r.band} {r.shape} in the charts' cells; left out", flush=True)
            continue
        label = f"{r.chart}{'' if r.after == '-' else ' after ' + r.after}: {r.band} {r.shape}"
        out.append({"cell": label, "options": (r.best, r.runner_up), "best": r.best, "other": r.runner_up,
                    "chart_gap": float(r.gap), "chart_lo": float(r.gap_lo), "chart_hi": float(r.gap_hi),
                    "worth": float(r.worth), "ask": cell, "seed": int(meta["seed"])})
    return meta["seed"], out


def parts(cell: dict, piece: int) -> list[tuple]:
    """The question of the cell's ``piece``-th :data:`PIECE` deals: ``("vint", args of
    :func:`sums`, deals)``."""
    return [("vint", (cell["ask"], cell["options"], PIECE, piece_seed(cell["seed"], piece)), PIECE)]


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one piece (analyses.vint_charts.robust_sums; None when the callers
    cannot be dealt)."""
    from analyses.vint_charts import robust_sums

    return robust_sums(*args, strategies)
