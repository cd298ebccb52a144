"""501's chart cells for :mod:`cardsim.analysis.hand_classes`: the game chart's decision
situations (:mod:`cardsim.analysis.g501_game`), their context (the scores and the auction
position) and the cell a seat's state falls in (the hand does not matter: the chart's decision
is made before looking)."""
from __future__ import annotations

import math

import numpy as np

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
    from cardsim.analysis.g501_game import Situation

    out = []
    for r in rows.itertuples(index=False):
        sit = Situation(int(r.own), int(r.lead), int(r.position))
        out.append(ChartCell("501", g501_key(r.own, r.lead, r.position),
                             {"own": sit.own, "lead": sit.lead, "position": sit.position}, "", 0, sit.dealer))
    return out


cells = g501_cells


def g501_cell(own: int, opponents, position: int, cells: list[ChartCell]) -> str | None:
    """The key of the cell of ``cells`` a seat at ``own`` with the opponents at ``opponents`` falls
    in, in auction ``position``: the engine's cell of the full grid
    (:func:`cardsim.analysis.g501_policy.nearest_cell`, the closest rival = the lowest opponent),
    then, as :func:`cardsim.analysis.g501_policy.chart_policy_spec` fills the full grid from a
    report's (possibly coarser) chart, the report cell of that position with the least
    ``|Δown| + |Δlead|``, on a tie the lower own score, then the lower lead.  So the answer is the
    cell whose option the ``chart`` strategy built from this report would play."""
    from cardsim.analysis.g501_policy import nearest_cell, nearest_situation

    o, lead, p = nearest_cell(int(own), int(min(opponents)), int(position))
    same = [c for c in cells if c.context["position"] == p]
    if not same:
        return None
    return same[nearest_situation([(c.context["own"], c.context["lead"]) for c in same], o, lead)].key


def studied_cells() -> list[ChartCell]:
    """Every decision situation of the full report's game chart."""
    import pandas as pd

    from cardsim.analysis.g501_game import situations

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
