"""Vint's cells of the stronger-player section (:mod:`analyses.stronger_play`): which chart cells
are asked again, and the chart's own replay builder that asks them."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyses.stronger_play import _meta, _read
from cardsim.analysis import stronger as S

DEALS = 60
"""Deals per cell.  Vint's pimc solves every world through DDS: measured (4 worlds, every seat, on
a machine loaded ~6x) about 1.3 s of CPU per deal played, 2.6 s per question deal (two options),
so a 100-deal cell took ~4.3 CPU-minutes and three cells on two cores would take ~9 minutes; 60
deals keeps Vint near 5.  Re-measure on a quiet machine (the brief's estimate was 0.3-0.7 s a
deal): at 0.5 s, 100 deals fit."""
WORLDS = 4
COST = 50
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 1.0
UNITS = "score points"
NOTE = ""


def cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
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


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one cell (analyses.vint_charts.robust_sums; None when the callers
    cannot be dealt)."""
    from analyses.vint_charts import robust_sums

    return robust_sums(*args, strategies)
