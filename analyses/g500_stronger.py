"""Five Hundred's cells of the stronger-player section (:mod:`analyses.stronger_play`): which bid
guide classes are asked again, and the guide's own replay builder (one stratum a part)."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from analyses.stronger_play import _meta, _read
from cardsim.analysis import stronger as S

DEALS = 100
"""Deals per cell.  Five Hundred's pimc plays about 1.7 deals a CPU-second with every seat
searching at 8 worlds, so 100 deals keep the game near 3 minutes."""
WORLDS = 8
COST = 5
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 1.0
UNITS = "score points"
NOTE = ""


def cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
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


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one stratum of a class (the guide's replay under other profiles)."""
    from cardsim.analysis.g500_guide import _robust_stratum_sums

    return _robust_stratum_sums(*args, strategies)
