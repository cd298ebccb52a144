"""Five Hundred's part of the report page (:mod:`analyses.page`): the bid guide's cells, the
trump and scoring choosers, the grids and the words of a cell."""
from __future__ import annotations

from pathlib import Path

from analyses.page import _bool, _csv, _grid_block, _num, _pivot, _robust, _str
from cardsim.analysis import hand_classes as HC

DEALS = 200000
"""The most deals the suggested ``cardsim evaluate --until-clear`` command may play (it stops as
soon as the best option is clear)."""
HINT = "10 cards, e.g. HJ S:AKJ95 H:Q4 C:K8 D:4 (HJ / LJ = high / low joker)"
UNIT = "points"
"""The unit of a cell's gap in its words."""
GAP_FORMAT = "{:+.0f}"


def in_section(tables: set) -> bool:
    """Whether an analysis with these tables is the section that gets Five Hundred's panel."""
    return "g500_guide_bids" in tables


def data(out: Path) -> dict | None:
    """Five Hundred: every bids row (class and scoring) with its condition in each trump suit it
    stands for; made-rate intervals from the levels table."""
    bids = _csv(out, "g500_guide_bids")
    if bids is None or not len(bids):
        return None
    levels = _csv(out, "g500_guide_levels")
    cells = HC.g500_cells(bids)
    by_key: dict = {}
    for c in cells:
        by_key.setdefault(c.key, {})[c.context["trump"]] = HC.conditions_json("500", c.where)
    out_cells = []
    for r in bids.itertuples(index=False):
        key = HC.g500_key(r.denom, r.trumps, r.top, r.side_aces, r.jokers, r.aces, r.scoring)
        made_lo = made_hi = None
        if levels is not None:
            m = levels[(levels.holding == r.holding) & (levels.denom == r.denom) & (levels.scoring == r.scoring)
                       & (levels.level == r.best)]
            if len(m):
                made_lo, made_hi = _num(m.made_lo.iloc[0]), _num(m.made_hi.iloc[0])
        runner = _num(r.runner_up)
        out_cells.append({"key": key, "conds": by_key[key], "scoring": r.scoring, "denom": r.denom,
                          "trumps": _str(r.trumps), "top": _num(r.top), "side_aces": _num(r.side_aces),
                          "jokers": _num(r.jokers), "aces": _num(r.aces), "label": str(r.holding), "best": int(r.best), "runner_up": runner,
                          "gap": _num(r.margin), "gap_lo": _num(r.margin_lo), "gap_hi": _num(r.margin_hi),
                          "made": _num(r.made), "made_lo": made_lo, "made_hi": made_hi, "n": _num(r.deals),
                          "score": _num(r.score), "clear": _bool(r.clear), "pays": _bool(r.pays), **_robust(r)})
    return {"game": "500", "hand_size": HC.HAND_SIZE["500"], "unit": "points", "scorings": list(dict.fromkeys(bids.scoring)),
            "cells": out_cells, "deals": DEALS, **HC.features_json("500")}


def context_html(data: dict, testid: str) -> str:
    """The panel's context choosers: the trump suit considered and the scoring."""
    suits = "".join(f'<option value="{s}">{n}</option>' for s, n in
                    (("H", "hearts ♥"), ("D", "diamonds ♦"), ("C", "clubs ♣"), ("S", "spades ♠"), ("NT", "no trumps")))
    scor = "".join(f'<option value="{s}">{s}</option>' for s in data["scorings"])
    return (f'<label>Trump suit you consider <select {testid} name="trump">{suits}</select></label> '
            f'<label>Scoring <select data-testid="scoring-500" name="scoring">{scor}</select></label>')


def grids(data: dict) -> list[str]:
    """Per scoring and denomination: trumps by top cards (no trumps: jokers by aces), then the
    holdings by side aces; each cell its best level."""
    parts = []
    for scoring in data["scorings"]:
        for denom in dict.fromkeys(c["denom"] for c in data["cells"]):
            cells = [c for c in data["cells"] if c["scoring"] == scoring and c["denom"] == denom]
            name = "no trumps" if denom == "NT" else f"{denom} (standing for every suit)" if denom == "H" else denom
            if denom == "NT":
                parts.append(_grid_block(f"{name}, {scoring} scoring: best level", _pivot(
                    cells, "jokers", "aces", "jokers \\ aces", lambda r, c: f"{r} jokers, {c} aces"),
                    f"grid-500-{denom}-{scoring}", "500"))
                continue
            main = [c for c in cells if c["side_aces"] is None]
            side = [c for c in cells if c["side_aces"] is not None]
            parts.append(_grid_block(f"{name}, {scoring} scoring: best level", _pivot(
                main, "trumps", "top", "trumps \\ top", lambda r, c: f"{r} trumps, {c} top"),
                f"grid-500-{denom}-{scoring}", "500"))
            if side:
                parts.append(_grid_block(f"{name}, {scoring} scoring, by side aces: best level", _pivot(
                    side, "label", "side_aces", "holding \\ side aces", lambda r, c: str(r), key_of=lambda c:
                    c["label"].rsplit(",", 1)[0]), f"grid-500-{denom}-{scoring}-side", "500"))
    return parts
