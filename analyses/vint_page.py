"""Vint's part of the report page (:mod:`analyses.page`): the bidding charts' cells, the context
chooser, the grids and the words of a cell."""
from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analyses.page import _bool, _csv, _grid_block, _num, _robust, _str
from cardsim.analysis import hand_classes as HC

DEALS = 200000
"""The most deals the suggested ``cardsim evaluate --until-clear`` command may play (it stops as
soon as the best option is clear)."""
HINT = "13 cards, e.g. S:AKT86 H:KQ42 D:- C:K832 (or AS KH 10D …; ♠♥♦♣ work too)"
UNIT = "score points"
"""The unit of a cell's gap in its words."""
GAP_FORMAT = "{:+.0f}"


def in_section(tables: set) -> bool:
    """Whether an analysis with these tables is the section that gets Vint's panel."""
    return "vint_chart_opening" in tables or any(t.startswith("vint_chart_") for t in tables)


def data(out: Path) -> dict | None:
    """Vint: the contexts (chart and calls before) and every chart row's cell with its numbers."""
    from cardsim.analysis.vint.charts import chart_label

    frames = []
    for chart in ("opening", "second", "overcall", "response"):
        t = _csv(out, f"vint_chart_{chart}")
        if t is not None and len(t):
            frames.append(t.assign(chart=chart, after=t["after"].fillna("-").astype(str)))
    if not frames:
        return None
    rows = pd.concat(frames, ignore_index=True)
    cells = HC.vint_cells(rows)
    contexts, out_cells = {}, []
    for cell, r in zip(cells, rows.itertuples(index=False)):
        ctx = f"{cell.context['chart']}|{cell.context['after']}"
        contexts.setdefault(ctx, {"id": ctx, "chart": cell.context["chart"], "after": cell.context["after"],
                                  "label": chart_label(cell.context["chart"], cell.context["after"])
                                  + ("" if cell.context["after"] == "-" else f" (calls before you: {cell.context['after']})"),
                                  "seat": cell.seat, "dealer": cell.dealer})
        out_cells.append({"key": cell.key, "ctx": ctx, "cond": HC.conditions_json("vint", cell.where),
                          "where": cell.where, "label": f"{r.band} points, {r.shape}", "band": str(r.band),
                          "shape": str(r.shape), "best": str(r.best), "runner_up": _str(r.runner_up),
                          "gap": _num(r.gap), "gap_lo": _num(r.gap_lo), "gap_hi": _num(r.gap_hi),
                          "made": _num(r.best_made), "made_lo": _num(r.best_made_lo), "made_hi": _num(r.best_made_hi),
                          "n": _num(r.n), "clear": _bool(r.clear), "options": list(cell.options), **_robust(r)})
    return {"game": "vint", "hand_size": HC.HAND_SIZE["vint"], "unit": "score points", "contexts": list(contexts.values()),
            "cells": out_cells, "deals": DEALS, **HC.features_json("vint")}


def context_html(data: dict, testid: str) -> str:
    """The panel's context chooser: who you are and the calls before you."""
    opts = "".join(f'<option value="{html.escape(c["id"])}">{html.escape(c["label"])}</option>'
                   for c in data["contexts"])
    return f'<label>Who you are, the calls before you <select {testid} name="context">{opts}</select></label>'


def grids(data: dict) -> list[str]:
    """One grid per chart context: shapes by point bands, each cell its best first call."""
    parts = []
    for ctx in data["contexts"]:
        cells = [c for c in data["cells"] if c["ctx"] == ctx["id"]]
        bands = list(dict.fromkeys(c["band"] for c in cells))
        shapes = list(dict.fromkeys(c["shape"] for c in cells))
        at = {(c["shape"], c["band"]): c for c in cells}
        rows = [["shape \\ points"] + bands]
        rows += [[s] + [(at.get((s, b)), f"{s}, {b} points") for b in bands] for s in shapes]
        parts.append(_grid_block(f"{ctx['label']}: best first call", rows, f"grid-vint-{ctx['id']}", "vint"))
    return parts
