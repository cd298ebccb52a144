"""501 blind decision chart <-> the ``chart`` strategy's spec.

The report's blind decision chart (:func:`cardsim.analysis.g501.blind_chart.choices`: per situation own
score × lead × auction position, the best option ``look`` or ``blind:L``) can be played by any
seat as the strategy ``chart:cells=…`` (:mod:`cardsim.games.g501.strategies`, ``CHART``): before
looking it bids blind up to the level of its situation's cell, else looks; everything else as
``heuristic``.

* :func:`chart_policy_spec` — a ``choices()`` frame (any grid: the quick report's coarser one
  too) to the spec string, which identifies the policy completely (run manifests and result
  caches key on spec strings);
* :func:`chart_table` — a spec back to one row per cell, for display and tests;
* :func:`nearest_cell` — the cell a game state falls in, as the engine maps it.

The full grid is :data:`~cardsim.games.g501.strategies.CELL_OWN` ×
:data:`~cardsim.games.g501.strategies.CELL_LEADS` × positions 0..2 (126 cells), levels
:data:`~cardsim.games.g501.strategies.CELL_LEVELS`: the report's OWN × LEADS × POSITIONS and
LEVELS.  Units: scores and leads in score points (501 counts down; lead = the closest rival's
score minus own, + = ahead), levels in deal points (bids).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.games.g501.strategies import (
    CELL_LEADS, CELL_LEVELS, CELL_OWN, CELL_POSITIONS, REGISTRY, cells_digits, cells_text,
)
from cardsim.strategies.registry import StrategyError

CHART = REGISTRY["chart"]

LOOK = "look"
TABLE_COLUMNS = ["own", "lead", "position", "level", "best"]
"""Columns of :func:`chart_table`: the cell (own score, lead, auction position), its blind level
(deal points; 0 = look) and the option as ``choices()`` writes it (``look`` / ``blind:L``)."""


def _level(option) -> int:
    """The blind level of a ``choices()`` option (0 for look); ValueError for anything else."""
    text = str(option).strip().lower()
    if text == LOOK:
        return 0
    kind, _, level = text.partition(":")
    if kind != "blind" or not level.isdigit() or int(level) not in CELL_LEVELS:
        raise ValueError(f"best option {option!r} is not 'look' or blind:L with L one of "
                         f"{', '.join(map(str, CELL_LEVELS))}")
    return int(level)


def _nearest(grid, x) -> int:
    """Index of the value of ``grid`` (increasing) nearest to ``x``; exactly midway, the lower one
    (the rule of the engine's ``strategies._nearest``)."""
    i = 0
    while i + 1 < len(grid) and x > 0.5 * (grid[i] + grid[i + 1]):
        i += 1
    return i


def nearest_cell(score: int, rival: int, position: int) -> tuple[int, int, int]:
    """The chart cell ``(own, lead, position)`` of a seat at ``score`` whose closest rival (the
    lowest score of the other seats) is at ``rival``, in auction ``position`` (0..2): the
    nearest own score of CELL_OWN and the nearest lead (``rival - score``) of CELL_LEADS, each
    axis on its own, exactly midway to the lower grid value (own 75 → 50, lead +25 → 0).  The
    same mapping as the engine's ``strategies.chart_cell``.  Raises ValueError for a position
    outside 0..2."""
    if position not in CELL_POSITIONS:
        raise ValueError(f"position must be 0, 1 or 2, got {position!r}")
    return CELL_OWN[_nearest(CELL_OWN, score)], CELL_LEADS[_nearest(CELL_LEADS, rival - score)], int(position)


def nearest_situation(situations, own: int, lead: int) -> int:
    """Index in ``situations`` (a sequence of ``(own, lead)`` score pairs of one auction
    position) of the one nearest ``(own, lead)``: least ``|Δown| + |Δlead|`` (score points), on a
    tie the lower own score, then the lower lead.  How a report's chart answers a situation it
    does not hold (:func:`chart_policy_spec`, the report page's panel)."""
    return min(range(len(situations)), key=lambda i: (abs(situations[i][0] - own) + abs(situations[i][1] - lead),
                                                      situations[i][0], situations[i][1]))


def chart_policy_spec(choices: pd.DataFrame, **params) -> str:
    """The ``chart`` strategy spec that plays ``choices`` (a :func:`blind_chart.choices` frame:
    columns ``own``, ``lead``, ``position``, ``best`` = ``look`` or ``blind:L``, L one of
    CELL_LEVELS) in every cell of the full grid.

    A cell of the full grid not in the frame (a coarser grid, or a situation the chart leaves
    out because the opponents would be at 0 or below) takes the option of the nearest cell of
    the frame in the same position (:func:`nearest_situation`: least ``|Δown| + |Δlead|``, on a
    tie the lower own score, then the lower lead) — on a full product grid, the nearest value on
    each axis, midway to the lower, as :func:`nearest_cell` maps game states.  ``params``: the chart's
    numeric parameters (``margin``, ``abandon``, ``target_margin``, ``contest``, ``press``,
    ``press_score``) appended as ``name=value``.

    Returns ``chart:cells=<6 groups of 21 digits joined by '/'>[,name=value…]`` (digit 0 = look,
    k = blind up to CELL_LEVELS[k-1]).  Raises ValueError (a column missing, a position with no
    row, a cell given twice, an unknown option) or StrategyError (a bad parameter)."""
    missing = [c for c in ("own", "lead", "position", "best") if c not in choices]
    if missing:
        raise ValueError(f"choices frame lacks the column(s) {', '.join(missing)}")
    frame = pd.DataFrame({"own": choices["own"].astype(int), "lead": choices["lead"].astype(int),
                          "position": choices["position"].astype(int),
                          "level": [_level(b) for b in choices["best"]]})
    if frame.duplicated(["own", "lead", "position"]).any():
        raise ValueError("choices frame has a situation (own, lead, position) more than once")
    digits = []
    for own in CELL_OWN:
        for lead in CELL_LEADS:
            for pos in CELL_POSITIONS:
                g = frame[frame.position == pos]
                if g.empty:
                    raise ValueError(f"choices frame has no situation in auction position {pos}")
                level = int(g.level.iloc[nearest_situation(list(zip(g.own, g.lead)), own, lead)])
                digits.append(0 if level == 0 else CELL_LEVELS.index(level) + 1)
    spec = f"{CHART.name}:cells={cells_text(digits)}"
    if params:
        spec += "," + ",".join(f"{k}={v:g}" for k, v in params.items())
    REGISTRY.resolve(spec)  # a bad parameter is a StrategyError here, not in a run
    return spec


def chart_table(spec: str) -> pd.DataFrame:
    """One row per cell of the ``chart`` strategy ``spec`` (:data:`TABLE_COLUMNS`, 126 rows in
    cell order: own score, then lead, then position).  Raises StrategyError (one line) for a spec
    that is not a valid ``chart`` spec."""
    strategy, _ = REGISTRY.resolve(spec)
    if strategy is not CHART:
        raise StrategyError(f"{spec.partition(':')[0].strip()!r} is not the chart strategy")
    text = CHART.table.default
    for item in spec.partition(":")[2].split(","):
        key, _, raw = item.partition("=")
        if key.strip() == CHART.table.name:
            text = raw.strip()
    levels = [0 if k == 0 else CELL_LEVELS[k - 1] for k in cells_digits(text)]
    cells = [(o, lead, p) for o in CELL_OWN for lead in CELL_LEADS for p in CELL_POSITIONS]
    out = pd.DataFrame(cells, columns=["own", "lead", "position"])
    out["level"] = np.asarray(levels, dtype=np.int64)
    out["best"] = [LOOK if lvl == 0 else f"blind:{lvl}" for lvl in levels]
    return out[TABLE_COLUMNS]
