"""Five Hundred's cells of the stronger-player section (:mod:`analyses.stronger_play`): which bid
guide classes are asked again, and the guide's own replay builder (one stratum a part)."""
from __future__ import annotations

import math
from pathlib import Path

from analyses import stronger_rule as R
from analyses.stronger_play import _meta, _read, piece_seed

PIECE = 20
"""Deals of one piece of a cell, split evenly over the class's strata (rounded up per stratum)."""
FIRST = 100
"""Deals of a cell's first look; later looks double it up to :data:`CAP`."""
CAP = 800
"""Most deals of a cell.  Measured (2026-12-07, 2 cores shared, load about 2) 0.11 CPU-s per
question deal of a no-trump class (both options, every seat the game's plain ``pimc`` at 8 worlds,
``early=3,early_declaring=2``; 1.9 with ``early=0``, the full search), so a cell at the cap costs
about 1.5 CPU-minutes and one decided at the first look about 11 CPU-seconds (docs/profiles.md)."""
WORLDS = 8
COST = 5
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 1.0
UNITS = "score points"
NOTE = " (rounded up to a whole number per stratum of the class)"


def cells(tables: Path, k: int) -> tuple[int, list[dict]]:
    """Five Hundred's chosen classes (:func:`analyses.stronger_rule.choose` over the guide's bids:
    worth = ``share`` × ``margin``, one scoring per class: the first)."""
    from cardsim.analysis.g500 import guide as G
    from cardsim.analysis.chart_pipeline import task_seed

    meta = _meta(tables, "500_guide")
    if meta is None:
        return 0, []
    bids = _read(tables, "g500_guide_bids")
    chosen = R.choose(bids, "margin", "share", distinct=["denom", "holding"], k=k)
    by_label = {(h.denom, h.label()): h for h in G.guide_classes(False) + G.guide_classes(True)}
    seed = meta["seed"]
    out = []
    for r in chosen.itertuples():
        h = by_label.get((r.denom, r.holding))
        if h is None:
            print(f"  Five Hundred: no class {r.denom} {r.holding} in the guide's classes; left out", flush=True)
            continue
        best, other = f"={int(r.best)}{h.denom}", f"={int(r.runner_up)}{h.denom}"
        out.append({"cell": f"{G.SYMBOL[h.denom]} {r.holding} ({r.scoring})", "options": (best, other),
                    "best": best, "other": other, "chart_gap": float(r.margin), "chart_lo": float(r.margin_lo),
                    "chart_hi": float(r.margin_hi), "worth": float(r.worth), "ask": h, "scoring": r.scoring,
                    "seeds": [task_seed(seed, h, i) for i in range(len(h.strata()))]})
    return seed, out


def parts(cell: dict, piece: int) -> list[tuple]:
    """The questions of the cell's ``piece``-th piece: one per stratum of the class, each
    :data:`PIECE` / strata deals (rounded up) of the stratum's own seed (the first piece: the
    guide's first deals of the stratum)."""
    h = cell["ask"]
    strata = h.strata()
    per = max(1, math.ceil(PIECE / len(strata)))
    return [("500", (h, cell["options"], given, per, piece_seed(cell["seeds"][i], piece), cell["scoring"]), per)
            for i, given in enumerate(strata)]


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one stratum of a class (the guide's replay under other profiles)."""
    from cardsim.analysis.g500.guide import robust_stratum_sums

    return robust_stratum_sums(*args, strategies)
