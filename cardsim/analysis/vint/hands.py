"""Vint's chart cells for :mod:`cardsim.analysis.hand_classes`: the bidding charts' cells
(:mod:`cardsim.analysis.vint.charts`), their context (the chart and the calls before) and the
classification of a hand by the cells' classes."""
from __future__ import annotations

from cardsim.analysis.vint import charts as vc
from cardsim.analysis.hand_classes import ChartCell, bad_context
from cardsim.cards import suit_letters

GAME = "vint"
HAND_SIZE = 13
"""Cards in a hand of the charts."""
CONTEXT_KEYS = ("chart", "after")
"""The keys of :func:`cardsim.analysis.hand_classes.classify`'s ``context``."""
NO_CARDS = False
"""Whether a hand of no cards is a question (it is not: the chart reads the hand)."""


def _vint_definitions() -> dict:
    out = {}
    for cell in vc.chart_cells(quick=False) + vc.chart_cells(quick=True):
        key = vint_key(cell.chart, " ".join(cell.after) or "-", vc.band_label(cell.band), cell.shape.name)
        if key in out and out[key].where != cell.where:
            raise AssertionError(f"two Vint chart cells named {key}")
        out[key] = cell
    return out


def vint_key(chart: str, after: str, band: str, shape: str) -> str:
    return f"{chart}|{after}|{band}|{shape}"


def vint_cells(rows) -> list[ChartCell]:
    """The cells of Vint chart rows (a frame with ``chart`` or the table's name in ``_chart``,
    ``after``, ``band``, ``shape``), rebuilt from :func:`cardsim.analysis.vint.charts.chart_cells`.
    Raises KeyError for a row no chart cell defines."""
    defs = _vint_definitions()
    out = []
    for r in rows.itertuples(index=False):
        key = vint_key(r.chart, str(r.after), str(r.band), str(r.shape))
        cell = defs[key]
        seat_class = cell.where.rsplit(f"seat {cell.seat}: ", 1)[1]
        out.append(ChartCell("vint", key, {"chart": cell.chart, "after": " ".join(cell.after) or "-"}, seat_class,
                             cell.seat, cell.dealer, cell.after, cell.options))
    return out


cells = vint_cells


def studied_cells() -> list[ChartCell]:
    """Every cell of the full report's charts."""
    import pandas as pd  # local: pandas is slow to import; only this function needs it

    rows = [{"chart": c.chart, "after": " ".join(c.after) or "-", "band": vc.band_label(c.band),
             "shape": c.shape.name} for c in vc.chart_cells(quick=False)]
    return vint_cells(pd.DataFrame(rows))


def check_context(context: dict, known: list[ChartCell]) -> dict:
    """The chart (any case) and the calls before (``after``, any spaces, suit symbols) made
    canonical; OptionError for a chart or an ``after`` none of ``known`` has."""
    charts: dict[str, list[str]] = {}
    for c in known:
        afters = charts.setdefault(str(c.context["chart"]), [])
        if str(c.context["after"]) not in afters:
            afters.append(str(c.context["after"]))
    chart = context["chart"]
    ch = chart.strip().lower() if isinstance(chart, str) else None
    if ch not in charts:
        raise bad_context(GAME, "chart", chart, f"one of {', '.join(charts)}")
    after = context["after"]
    af = " ".join(suit_letters(after).upper().split()) if isinstance(after, str) else None
    if af not in charts[ch]:
        raise bad_context(GAME, "after", after, f"one of {', '.join(map(repr, charts[ch]))} (the calls before the "
                                                f"{ch} chart's seat; '-' for none)")
    return {"chart": ch, "after": af}

