"""501's part of the report page (:mod:`analyses.page`): the game chart's decision cells, the
score and position inputs, the grids and the words of a cell."""
from __future__ import annotations

from pathlib import Path

from analyses.page import _csv, _grid_block, _num, _robust, _str
from cardsim.analysis import hand_classes as HC

DEALS = 20000
"""The most deals the suggested ``cardsim evaluate --until-clear`` command may play (it stops as
soon as the best option is clear; 501 plays each deal's game to its end, so fewer)."""
HINT = "7 cards (ranks A T K Q J 9), e.g. S:AT H:KQ D:9 C:AJ — optional: the chart is read before you look"
UNIT = "pp"
"""The unit of a cell's gap in its words: percentage points of the game-win probability."""
GAP_FORMAT = "{:+.1f}"


def in_section(tables: set) -> bool:
    """Whether an analysis with these tables is the section that gets 501's panel."""
    return "g501_game_chart" in tables


def data(out: Path) -> dict | None:
    """501: every decision cell (own score, lead, position) with its verdict; made rate and deals
    of the best option from the decisions table; the runner-up is looking when a blind level is
    best, else the best blind level (its gain over looking, turned round, is the gap)."""
    choices = _csv(out, "g501_game_choices")
    if choices is None or not len(choices):
        return None
    dec = _csv(out, "g501_game_decisions")
    cells = HC.g501_cells(choices)
    out_cells = []
    levels = sorted(int(v) for v in dec.level.unique() if v) if dec is not None else []
    for cell, r in zip(cells, choices.itertuples(index=False)):
        g = dec[(dec.own == r.own) & (dec.lead == r.lead) & (dec.position == r.position)] if dec is not None else None
        made = n = None
        runner, gap, lo, hi = "look", _num(r.gain_pp), _num(r.gain_lo), _num(r.gain_hi)
        if g is not None and len(g):
            b = g[g.option == r.best]
            if len(b):
                made, n = _num(b.made.iloc[0]), _num(b.deals.iloc[0])
            if r.best == "look":
                blinds = g[g.option != "look"]
                from cardsim.analysis.g501.blind_chart import best_blind, choice_rank

                first = best_blind(choice_rank(blinds))  # the chart's best blind level
                if first is not None:
                    top = blinds.iloc[first]
                    runner = str(top.option)
                    gap, lo, hi = _num(-top.gain_half1_pp), _num(-top.gain_half1_hi), _num(-top.gain_half1_lo)
        out_cells.append({"key": cell.key, "own": int(r.own), "lead": int(r.lead), "opp": int(r.opp),
                          "position": int(r.position), "dealer": cell.dealer, "best": str(r.best),
                          "verdict": str(r.verdict), "levels_as_good": _str(r.levels_as_good),
                          "runner_up": runner, "gap": gap, "gap_lo": lo, "gap_hi": hi, "made": made, "n": n,
                          "win_look": _num(r.win_look), **_robust(r)})
    return {"game": "501", "hand_size": HC.HAND_SIZE["501"], "unit": "pp of game-win probability", "cells": out_cells,
            "levels": levels,
            "deals": DEALS, **HC.features_json("501")}


def context_html(data: dict, testid: str) -> str:
    """The panel's context inputs: the three scores and the auction position."""
    pos = "".join(f'<option value="{p}">{w}</option>' for p, w in
                  ((0, "0: first to speak (dealer's left)"), (1, "1: second"), (2, "2: third (the dealer)")))
    num = 'type="number" inputmode="numeric" min="1" max="1000" step="1"'
    return (f'<label>Your score <input {num} value="300" data-testid="own-501" name="own"></label> '
            f'<label>Opponent on your left <input {num} value="300" data-testid="left-501" name="left"></label> '
            f'<label>Opponent on your right <input {num} value="300" data-testid="right-501" name="right"></label> '
            f'<label>Your position <select data-testid="position-501" name="position">{pos}</select></label>')


def grids(data: dict) -> list[str]:
    """One grid per auction position: own score by lead, each cell its best first call."""
    parts = []
    for pos in sorted({c["position"] for c in data["cells"]}):
        cells = [c for c in data["cells"] if c["position"] == pos]
        owns = sorted({c["own"] for c in cells})
        leads = sorted({c["lead"] for c in cells})
        at = {(c["own"], c["lead"]): c for c in cells}
        rows = [["own \\ lead"] + [f"{v:+d}" for v in leads]]
        rows += [[str(o)] + [(at.get((o, v)), f"own {o}, lead {v:+d}") for v in leads] for o in owns]
        parts.append(_grid_block(f"Auction position {pos}: best first call", rows, f"grid-501-{pos}", "501"))
    return parts


def best_words(c: dict) -> str:
    return f"blind to {c['levels_as_good']}" if c["best"] != "look" and c.get("levels_as_good") else str(c["best"])


def verdict_words(c: dict) -> str:
    return c["verdict"]


def cell_label(c: dict) -> tuple[str, bool]:
    """A grid cell's text (look, or the blind level B70) and whether its answer is sure."""
    label = "look" if c["best"] == "look" else f"B{c['levels_as_good'] or c['best'].split(':')[1]}"
    return label, not c["verdict"].startswith("no clear")
