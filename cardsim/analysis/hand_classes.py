"""Which chart cell a hand falls in: the classification the report page repeats in JavaScript.

The report's three hand charts are grids of *conditions* (docs/conditions.md): a Vint bidding
chart cell is ``hcp=13-15, H=5, S<=4, …`` for the seat after given calls
(:mod:`cardsim.analysis.vint_charts`), a Five Hundred bid-guide cell is ``top_H=2, trumps_H=6``
(:mod:`cardsim.analysis.g500_guide`), and a 501 decision cell is a score state, mapped as the
engine's ``chart`` strategy maps a game's state (:mod:`cardsim.analysis.g501_policy`).  This
module rebuilds each cell of a report table from the analysis's own definitions and decides
membership with the analysis's own condition text, parsed by :mod:`cardsim.conditions` and
evaluated as the dealer does (:func:`cardsim.deal.term_sum`: a feature is
``sum(weight * popcount(h & (h >> shift) & mask))``), so a hand is in a cell exactly when the
dealer would have accepted it for that cell.

* :func:`vint_cells`, :func:`g500_cells`, :func:`g501_cells` — the cells (:class:`ChartCell`) of
  a report's table (a pandas frame read from its CSV);
* :func:`classify` — ``classify(game, hand, context, cells) -> [cell key, …]``: the keys of the
  cells of ``cells`` that the hand (and its context) falls in, in table order; usually one,
  none for a hand outside every studied class, two where classes overlap (Vint's 5+S and 5+H
  responses to 1NT; a Five Hundred holding in the main grid and in the side-aces sweep);
* :func:`conditions_json` — a cell's condition in the plain form the page's script evaluates.

Units: card indices of the game's layout (:mod:`cardsim.cards`); scores in score points.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from cardsim.conditions import cards_given, features_of, parse_class, parse_given

GAMES = ("vint", "500", "501")
HAND_SIZE = {"vint": 13, "500": 10, "501": 7}
"""Cards in a hand of the charts (501's chart is the 3-seat game: 7 cards a seat)."""


@dataclass(frozen=True)
class ChartCell:
    """One cell of a report chart.

    ``key``: unique within the game (the page and the tests name cells by it); ``context``: what
    besides the hand picks the cell (Vint ``{"chart", "after"}``, 500 ``{"trump", "scoring"}``,
    501 ``{"own", "lead", "position"}``); ``where``: the seat's class in the conditions syntax
    ('' for 501, whose cells do not depend on the hand); ``seat`` / ``dealer`` / ``after`` /
    ``options``: the question ``cardsim evaluate`` asks for it."""

    game: str
    key: str
    context: dict
    where: str = ""
    seat: int = 0
    dealer: int | None = None
    after: tuple = ()
    options: tuple = ()
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------- hands and features
def hand_bits(game: str, hand) -> int:
    """The bit set (Python int) of a hand: a hand string (``"S:AKT86 H:KQ42 …"``) or an iterable
    of card tokens or indices.  Raises :class:`cardsim.deal.ConditionError` as the parsers do."""
    out = 0
    # a hand string may write voids (D:-): parse_given reads them (and refuses a card of a void suit)
    for c in (parse_given(game, hand)[0] if isinstance(hand, str) else cards_given(game, hand)):
        out |= 1 << int(c)
    return out


def feature_values(game: str, bits: int) -> dict[str, int]:
    """Every hand feature of ``game`` on the bit set ``bits`` (the dealer's term sums)."""
    bits = int(bits)
    return {name: sum(w * bin(bits & (bits >> s) & m).count("1") for m, s, w in terms)
            for name, terms in _terms(game).items()}


@functools.lru_cache(maxsize=None)
def _terms(game: str) -> dict:
    """The features' terms as Python ints (``(mask, shift, weight)``), read once per game."""
    fs = features_of(game)
    return {name: tuple((int(m), int(s), int(w)) for m, s, w in terms) for name, terms in fs.features.items()}


@functools.lru_cache(maxsize=4096)
def _resolved(game: str, where: str):
    ranges, required, excluded = parse_class(game, where).resolved(game)
    return ranges, sum(1 << int(c) for c in required), sum(1 << int(c) for c in excluded)


def in_class(game: str, bits: int, where: str) -> bool:
    """Whether the hand ``bits`` meets the class ``where`` (one seat's clauses, docs/conditions.md)."""
    if not where:
        return True
    ranges, req, exc = _resolved(game, where)
    values = feature_values(game, bits)
    for name, (lo, hi) in ranges.items():
        v = values[name]
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            return False
    return bits & req == req and not bits & exc


def conditions_json(game: str, where: str) -> dict:
    """``{"ranges": [[feature, lo, hi], …], "req": [card index …], "exc": […]}`` of a class
    (None for an open end): what the page's script tests."""
    if not where:
        return {"ranges": [], "req": [], "exc": []}
    ranges, req, exc = _resolved(game, where)
    bits = lambda m: [i for i in range(64) if m >> i & 1]  # noqa: E731
    return {"ranges": [[n, lo, hi] for n, (lo, hi) in ranges.items()], "req": bits(req), "exc": bits(exc)}


def features_json(game: str) -> dict:
    """The game's cards and features for the page: ``cards`` = ``{token: card index}``,
    ``features`` = ``{name: [[mask as hex, shift, weight], …]}``."""
    fs = features_of(game)
    return {"cards": {fs.card_str(int(c)): int(c) for c in fs.base_deck},
            "features": {n: [[hex(int(m)), int(s), int(w)] for m, s, w in t] for n, t in fs.features.items()}}


# ---------------------------------------------------------------- Vint
def _vint_definitions() -> dict:
    from cardsim.analysis import vint_charts as vc

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
    ``after``, ``band``, ``shape``), rebuilt from :func:`cardsim.analysis.vint_charts.chart_cells`.
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


# ---------------------------------------------------------------- Five Hundred
def _none(v):
    return None if v is None or v != v or v == "" else v


def g500_key(denom, trumps, top, side_aces, jokers, aces, scoring) -> str:
    vals = [denom, trumps, top, side_aces, jokers, aces, scoring]
    return "|".join("" if _none(v) is None else str(int(v)) if isinstance(v, float) else str(v) for v in vals)


def g500_holding(denom: str, trumps, top, side_aces, jokers, aces):
    """The :class:`cardsim.analysis.g500_guide.Holding` of a bids row's class columns in ``denom``."""
    from cardsim.analysis.g500_guide import Holding

    if denom == "NT":
        return Holding("NT", jokers=int(jokers), aces=int(aces))
    label = str(trumps)
    side = _none(side_aces)
    return Holding(denom, int(label.rstrip("+")), int(top), None if side is None else int(side), plus=label.endswith("+"))


def g500_cells(rows) -> list[ChartCell]:
    """The cells of ``g500_guide_bids`` rows, one per class, scoring and trump suit considered: a
    hearts row stands for every suit (the guide's symmetry, module docstring of g500_guide), so it
    gives a cell for each of S C D H with the condition written in that suit (``top_S=2, …``); a
    spades row (the symmetry check) a cell for spades; a no-trump row a cell for NT."""
    from cardsim.analysis.g500_guide import GUIDE_SUIT

    out = []
    for r in rows.itertuples(index=False):
        key = g500_key(r.denom, r.trumps, r.top, r.side_aces, r.jokers, r.aces, r.scoring)
        suits = ["NT"] if r.denom == "NT" else list("SCDH") if r.denom == GUIDE_SUIT else [r.denom]
        for trump in suits:
            h = g500_holding(trump, r.trumps, r.top, r.side_aces, r.jokers, r.aces)
            out.append(ChartCell("500", key, {"trump": trump, "scoring": r.scoring}, h.where(), 0, None, (),
                                 tuple(h.options()), {"row_denom": r.denom}))
    return out


# ---------------------------------------------------------------- 501
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


def g501_cell(own: int, opponents, position: int, cells: list[ChartCell]) -> str | None:
    """The key of the cell of ``cells`` a seat at ``own`` with the opponents at ``opponents`` falls
    in, in auction ``position``: the engine's cell of the full grid
    (:func:`cardsim.analysis.g501_policy.nearest_cell`, the closest rival = the lowest opponent),
    then, as :func:`cardsim.analysis.g501_policy.chart_policy_spec` fills the full grid from a
    report's (possibly coarser) chart, the report cell of that position with the least
    ``|Δown| + |Δlead|``, on a tie the lower own score, then the lower lead.  So the answer is the
    cell whose option the ``chart`` strategy built from this report would play."""
    from cardsim.analysis.g501_policy import nearest_cell

    o, lead, p = nearest_cell(int(own), int(min(opponents)), int(position))
    same = [c for c in cells if c.context["position"] == p]
    if not same:
        return None
    best = min(same, key=lambda c: (abs(c.context["own"] - o) + abs(c.context["lead"] - lead),
                                    c.context["own"], c.context["lead"]))
    return best.key


# ---------------------------------------------------------------- the classifier
def studied_cells(game: str) -> list[ChartCell]:
    """Every cell the full report's chart of ``game`` studies (``make report``), from the analyses'
    definitions: Vint's chart cells, the Five Hundred guide's classes under both scorings, 501's
    decision situations."""
    import pandas as pd

    if game == "vint":
        from cardsim.analysis import vint_charts as vc

        rows = [{"chart": c.chart, "after": " ".join(c.after) or "-", "band": vc.band_label(c.band),
                 "shape": c.shape.name} for c in vc.chart_cells(quick=False)]
        return vint_cells(pd.DataFrame(rows))
    if game == "500":
        from cardsim.analysis.g500_guide import SCORINGS, class_values, guide_classes

        rows = [dict(class_values(h), scoring=s) for h in guide_classes(quick=False) for s in SCORINGS]
        return g500_cells(pd.DataFrame(rows))
    from cardsim.analysis.g501_game import situations

    return g501_cells(pd.DataFrame([{"own": s.own, "lead": s.lead, "position": s.position} for s in situations()]))


def classify(game: str, hand, context: dict, cells: list[ChartCell] | None = None) -> list[str]:
    """The keys of the cells of ``cells`` (one game's; None: :func:`studied_cells`, the full
    report's) that ``hand`` falls in, in their order.

    ``hand``: a hand string or card tokens / indices (a full hand: :data:`HAND_SIZE`);
    ``context``: Vint ``{"chart", "after"}`` (after as the table writes it: ``"1H P"``, ``"-"``);
    500 ``{"trump": S|C|D|H|NT, "scoring": quebec|subtract}``; 501 ``{"own", "opponents":
    [two scores], "position"}`` (the hand does not matter: the chart's decision is made before
    looking).  Raises ConditionError for a hand that does not parse."""
    bits = hand_bits(game, hand)
    cells = studied_cells(game) if cells is None else cells
    if game == "501":
        key = g501_cell(context["own"], context["opponents"], context["position"], cells)
        return [] if key is None else [key]
    want = {"vint": ("chart", "after"), "500": ("trump", "scoring")}[game]
    out = []
    for c in cells:
        if all(str(c.context[k]) == str(context[k]) for k in want) and in_class(game, bits, c.where) \
                and c.key not in out:
            out.append(c.key)
    return out
