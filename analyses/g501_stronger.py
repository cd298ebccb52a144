"""501's cells of the stronger-player section (:mod:`analyses.stronger_play`): which game-chart
situations are asked again (look against one blind level), and the chart's own replay builder."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyses.stronger_play import _meta, _read
from cardsim.analysis import stronger as S

DEALS = 100
"""Games per cell, each played to its end from the cell's situation.  501's pimc plays about 20
deals a CPU-second (each game runs about 14 deals), so 100 games keep it near 3 minutes."""
WORLDS = 8
COST = 20
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 100.0
UNITS = "pp of the game's win"
NOTE = " (games played to their end)"


def cells(tables: Path, deals: int) -> tuple[int, list[dict]]:
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


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one situation: look and one blind level (the chart's replay)."""
    from cardsim.analysis.g501_game import robust_sums

    return robust_sums(*args, strategies)
