"""501's chart cells for :mod:`cardsim.analysis.hand_classes`: the game chart's decision
situations (:mod:`cardsim.analysis.g501.blind_chart`), their context (the scores and the auction
position) and the cell a seat's state falls in (the hand does not matter: the chart's decision
is made before looking)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from cardsim.analysis.g501.blind_chart import Situation, situations
from cardsim.analysis.g501.policy import nearest_situation
from cardsim.analysis.hand_classes import ChartCell, bad_context

GAME = "501"
HAND_SIZE = 7
"""Cards in a hand of the charts (501's chart is the 3-seat game: 7 cards a seat)."""
CONTEXT_KEYS = ("own", "opponents", "position")
"""The keys of :func:`cardsim.analysis.hand_classes.classify`'s ``context``."""
NO_CARDS = True
"""Whether a hand of no cards is a question (it is: the chart is read before looking)."""


def g501_key(own, lead, position) -> str:
    return f"{int(own)}|{int(lead)}|{int(position)}"


def g501_cells(rows) -> list[ChartCell]:
    """The cells of ``g501_game_choices`` rows (own score, lead, position)."""
    out = []
    for r in rows.itertuples(index=False):
        sit = Situation(int(r.own), int(r.lead), int(r.position))
        out.append(ChartCell("501", g501_key(r.own, r.lead, r.position),
                             {"own": sit.own, "lead": sit.lead, "position": sit.position}, "", 0, sit.dealer))
    return out


cells = g501_cells


def g501_cell(own: int, opponents, position: int, cells: list[ChartCell]) -> str | None:
    """The key of the cell of ``cells`` nearest a seat at ``own`` with the opponents at
    ``opponents``, in auction ``position``: among the cells of that position, the one with the
    least ``|own - cell own| + |lead - cell lead|`` (score points; lead = the closest rival, the
    lowest opponent, minus own), on a tie the lower own score, then the lower lead
    (:func:`cardsim.analysis.g501.policy.nearest_situation`).  The state itself is measured, not
    first moved to the engine's full grid: a coarse (quick) chart would otherwise answer a cell
    that is not the nearest (own 250, opponents 300/320 went to own 100, lead 0 through the full
    grid's own 200, lead +50).  On the full grid of cells this is the engine's own mapping
    (:func:`cardsim.analysis.g501.policy.nearest_cell`: on a product grid the least sum is the
    nearest value on each axis, midway to the lower).  None when no cell is in that position."""
    own, p = int(own), int(position)
    same = [c for c in cells if c.context["position"] == p]
    if not same:
        return None
    lead = int(min(opponents)) - own
    return same[nearest_situation([(c.context["own"], c.context["lead"]) for c in same], own, lead)].key


def studied_cells() -> list[ChartCell]:
    """Every decision situation of the full report's game chart."""
    return g501_cells(pd.DataFrame([{"own": s.own, "lead": s.lead, "position": s.position} for s in situations()]))


def _score(key: str, value) -> int:
    """A 501 score of a context: a whole number above 0 (at 0 or below the game is over,
    docs/RULES.md §1.8); an integral float (300.0) is taken, 501.7, NaN, text and bools are not."""
    ok = (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))) or \
        (isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer())
    if not ok or value <= 0:
        raise bad_context(GAME, key, value, "a whole number of points above 0 (at 0 or below the game is over)")
    return int(value)


def check_context(context: dict, known: list[ChartCell]) -> dict:
    """``own`` and the two ``opponents`` whole scores above 0 (above 501 is a real score: a failed
    contract adds), ``position`` 0, 1 or 2; OptionError otherwise."""
    opp = context["opponents"]
    if not isinstance(opp, (list, tuple, np.ndarray)) or len(opp) != 2:
        raise bad_context(GAME, "opponents", opp, "a list of the two opponents' scores (501's chart is the 3-seat game)")
    pos = context["position"]
    if isinstance(pos, (bool, np.bool_)) or not isinstance(pos, (int, np.integer)) or pos not in (0, 1, 2):
        raise bad_context(GAME, "position", pos, "0, 1 or 2 (the seat's turn in the auction)")
    return {"own": _score("own", context["own"]),
            "opponents": [_score("opponents", o) for o in opp], "position": int(pos)}


def matching(bits: int, context: dict, cells: list[ChartCell]) -> list[str]:
    """The key of the cell the seat's state falls in (:func:`g501_cell`), or none."""
    key = g501_cell(context["own"], context["opponents"], context["position"], cells)
    return [] if key is None else [key]
