"""The verdict rules of the report's three charts, in one place (docs/statistics.md).

Each chart cell has its choice made on half 0 of its deals and its gain measured on half 1
(:mod:`cardsim.selection`); the rules here turn the held-out gains into one p-value per cell and
the p-values of one chart into its "clear" cells:

* Vint bidding charts and the Five Hundred bid guide: the best option beats the runner-up —
  the one-sided p-value of the best-minus-runner-up gain on half 1
  (:func:`cardsim.selection.split_best`, :func:`cardsim.selection.p_above`);
* 501 blind decision chart (:func:`decision_p`): bid blind (a blind level is best on half 0)
  when that level's gain over looking is above 0 on half 1; look (looking is best on half 0)
  when every blind level's gain over looking is below 0 on half 1 — :func:`look_p`, the
  largest of their one-sided p-values (an intersection-union test: all must be shown, so no
  correction within the cell); :func:`blind_verdict` words it;
* :func:`chart_clear`: the cells of one chart called clear, Benjamini–Hochberg at
  :data:`cardsim.selection.RATE` over the chart's cells (:func:`cardsim.selection.clear_cells`).
"""
from __future__ import annotations

import numpy as np

from cardsim.selection import clear_cells

LOOK = "look"
NO_CLEAR = "no clear answer"


def look_p(p_losses) -> float:
    """p-value that looking beats every blind level, from each blind level's one-sided p-value of
    a gain over looking below 0 (``p_losses``): the largest of them (1.0 with no blind level)."""
    p = np.asarray(p_losses, dtype=np.float64)
    p = np.where(np.isnan(p), 1.0, p)
    return float(np.max(p)) if p.size else 1.0


def decision_p(best: str, p_gain_best: float, p_losses) -> float:
    """The p-value of a 501 chart cell: with a blind option best, that its gain over looking is
    above 0 (``p_gain_best``); with ``look`` best, :func:`look_p` of the blind levels."""
    if best == LOOK:
        return look_p(p_losses)
    return 1.0 if np.isnan(p_gain_best) else float(p_gain_best)


def chart_clear(pvalues) -> np.ndarray:
    """The clear cells of one chart (bool array, one per p-value): Benjamini–Hochberg over the
    chart's cells at the one-sided rate :data:`cardsim.selection.RATE`."""
    return clear_cells(pvalues)  # the defaults are the charts' rule: RATE, METHOD


def blind_verdict(best: str, clear: bool, levels: str) -> str:
    """The 501 chart's words for a cell: ``blind to <levels>`` when a blind option is best and the
    cell is clear, ``look`` when looking is best and the cell is clear, else ``no clear answer``."""
    if not clear:
        return NO_CLEAR
    return LOOK if best == LOOK else f"blind to {levels}"


__all__ = ["LOOK", "NO_CLEAR", "look_p", "decision_p", "chart_clear", "blind_verdict"]
