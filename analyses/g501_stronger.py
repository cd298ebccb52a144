"""501's cells of the stronger-player section (:mod:`analyses.stronger_play`): which game-chart
situations are asked again (look against one blind level), and the chart's own replay builder."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyses import stronger_rule as R
from analyses.stronger_play import _meta, _read, piece_seed

PIECE = 25
"""Games of one task (one question of its own seed)."""
FIRST = 200
"""Games of a situation's first look; later looks double it up to :data:`CAP`."""
CAP = 3200
"""Most games of a situation, each played to its end from the situation.  Measured (2026-12-07, 2
cores shared, load about 2): 0.029 CPU-s per question game (both options, every seat
``pimc:worlds=8``, the game's default ``early=1``; the full search 0.079 on the same situation, and
0.13 in an earlier measurement at load 11-16), so a situation at the cap costs some 1.5 CPU-minutes.  Its outcome is a win or a loss, so a
gap of a few pp needs thousands of games: a larger cap than the card-point games'."""
WORLDS = 8
COST = 20
"""Rough cost of a pimc deal against a heuristic one, for the workers' scheduling only."""
SCALE = 100.0
UNITS = "pp of the game's win"
NOTE = " (games played to their end)"


def cells(tables: Path, k: int) -> tuple[int, list[dict]]:
    """501's chosen situations (:func:`analyses.stronger_rule.choose` over the chart's clear
    situations: worth = the gap, pp of the game's win, the chart having no frequency of a
    situation).  The gap is the chart's best minus the option its replay asks against (look, or the
    best blind level where look is best: ``g501_blind_chart.robust_pair``), on the chart's held-out deals."""
    from cardsim.analysis.g501 import blind_chart as B
    from cardsim.analysis.verdicts import LOOK, NO_CLEAR

    meta = _meta(tables, "501_game")
    if meta is None:
        return 0, []
    choices, long = _read(tables, "g501_game_choices"), _read(tables, "g501_game_decisions")
    groups = {k: g for k, g in long.groupby(["own", "lead", "position"], sort=False)}
    rows = []
    for r in choices.itertuples():
        g = groups[(r.own, r.lead, r.position)]
        best, level = B.robust_pair(g)  # the pair the chart's replay under other profiles asks about
        if not level:
            continue
        blind = g[g.option == f"blind:{level}"].iloc[0]  # blind minus look on the held-out deals, pp
        sign = 1.0 if best != LOOK else -1.0
        lo, hi = sorted((sign * blind.gain_half1_lo, sign * blind.gain_half1_hi))
        rows.append({"own": r.own, "lead": r.lead, "position": r.position, "best": best,
                     "runner_up": LOOK if best != LOOK else f"blind:{level}", "level": level,
                     "clear": r.verdict != NO_CLEAR, "gap": sign * blind.gain_half1_pp, "gap_lo": lo, "gap_hi": hi})
    if not rows:
        return meta["seed"], []
    chosen = R.choose(pd.DataFrame(rows), "gap", k=k)
    return meta["seed"], [
        {"cell": f"own {r.own}, lead {int(r.lead):+d}, position {r.position}",
         "options": (LOOK, f"blind:{int(r.level)}"), "best": r.best, "other": r.runner_up,
         "chart_gap": float(r.gap), "chart_lo": float(r.gap_lo), "chart_hi": float(r.gap_hi), "worth": float(r.worth),
         "ask": B.Situation(int(r.own), int(r.lead), int(r.position)), "level": int(r.level),
         "seed": int(meta["seed"])} for r in chosen.itertuples()]


def parts(cell: dict, piece: int) -> list[tuple]:
    """The question of the situation's ``piece``-th :data:`PIECE` games: ``("501", args of
    :func:`sums`, games)``."""
    return [("501", (cell["ask"], cell["level"], PIECE, piece_seed(cell["seed"], piece)), PIECE)]


def sums(args: tuple, strategies: list) -> dict | None:
    """The question sums of one situation: look and one blind level (the chart's replay)."""
    from cardsim.analysis.g501.blind_chart import robust_sums

    return robust_sums(*args, strategies)
