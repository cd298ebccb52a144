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
import math
from dataclasses import dataclass, field

import numpy as np

from cardsim.cards import suit_letters
from cardsim.conditions import cards_given, features_of, game_name, hand_size_error, parse_class, parse_given
from cardsim.deal import ConditionError
from cardsim.games.base import OptionError
from cardsim.text import quote

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
    of card tokens or indices.  Raises :class:`cardsim.deal.ConditionError` as the parsers do, and
    for bytes or a mapping (``list(b"S:AK")`` would be four numbers, a dict's keys cards)."""
    if isinstance(hand, (bytes, bytearray, memoryview, dict)):
        raise ConditionError(f"a hand is text (\"S:AKT86 H:KQ42 …\") or a list of card tokens or indices, "
                             f"got {type(hand).__name__} {quote(hand)}")
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
    from cardsim.analysis.g501_policy import nearest_cell, nearest_situation

    o, lead, p = nearest_cell(int(own), int(min(opponents)), int(position))
    same = [c for c in cells if c.context["position"] == p]
    if not same:
        return None
    return same[nearest_situation([(c.context["own"], c.context["lead"]) for c in same], o, lead)].key


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


@functools.lru_cache(maxsize=None)
def _studied(game: str) -> tuple:
    return tuple(studied_cells(game))


CONTEXT_KEYS = {"vint": ("chart", "after"), "500": ("trump", "scoring"), "501": ("own", "opponents", "position")}
"""The keys of :func:`classify`'s ``context``, per game."""
TRUMPS = ("S", "C", "D", "H", "NT")


def _bad(game: str, key: str, value, allowed: str) -> OptionError:
    return OptionError(f"{game} context: {key} {quote(value)} is not {allowed}")


def _score(game: str, key: str, value) -> int:
    """A 501 score of a context: a whole number above 0 (at 0 or below the game is over,
    docs/RULES.md §1.8); an integral float (300.0) is taken, 501.7, NaN, text and bools are not."""
    ok = (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))) or \
        (isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer())
    if not ok or value <= 0:
        raise _bad(game, key, value, "a whole number of points above 0 (at 0 or below the game is over)")
    return int(value)


def check_context(game, context, cells: list[ChartCell] | None = None) -> tuple[str, dict]:
    """``(game, context)`` made canonical for :func:`classify`, or :class:`cardsim.games.base.OptionError`
    (one line naming the key, the value given and what is allowed) for anything else.

    ``game``: vint, 500 or 501 in any case.  Harmless variants are taken where unambiguous: a
    chart, trump, scoring or auction in any case, suit symbols (``♥`` = ``H``), the calls of
    ``after`` separated by any spaces (``"1h  p"`` = ``"1H P"``); the values allowed are those
    of the full report's cells and of ``cells``.  501: ``own`` and the two ``opponents`` whole
    scores above 0 (above 501 is a real score: a failed contract adds), ``position`` 0, 1 or 2."""
    try:
        name = game_name(game)
    except ConditionError:
        name = None
    if name not in GAMES:
        raise OptionError(f"unknown game {quote(game)} for the hand charts (known: {', '.join(GAMES)})")
    game = name
    keys = CONTEXT_KEYS[game]
    if not isinstance(context, dict):
        raise OptionError(f"{game} context must be a dict with the keys {', '.join(keys)}, got {quote(context)}")
    missing = [k for k in keys if k not in context]
    extra = [k for k in context if k not in keys]
    if missing or extra:
        what = f"lacks {', '.join(map(str, missing))}" if missing else \
            f"has the unknown key(s) {', '.join(map(quote, extra))}"
        raise OptionError(f"{game} context {what}: it takes {', '.join(keys)}, got {quote(context)}")
    known = list(_studied(game)) + list(cells or ())
    if game == "501":
        opp = context["opponents"]
        if not isinstance(opp, (list, tuple, np.ndarray)) or len(opp) != 2:
            raise _bad(game, "opponents", opp, "a list of the two opponents' scores (501's chart is the 3-seat game)")
        pos = context["position"]
        if isinstance(pos, (bool, np.bool_)) or not isinstance(pos, (int, np.integer)) or pos not in (0, 1, 2):
            raise _bad(game, "position", pos, "0, 1 or 2 (the seat's turn in the auction)")
        return game, {"own": _score(game, "own", context["own"]),
                      "opponents": [_score(game, "opponents", o) for o in opp], "position": int(pos)}
    if game == "500":
        trump = context["trump"]
        t = suit_letters(trump).strip().upper() if isinstance(trump, str) else None
        if t not in TRUMPS:
            raise _bad(game, "trump", trump, "one of S, C, D, H, NT (or ♠ ♣ ♦ ♥)")
        scorings = list(dict.fromkeys(str(c.context["scoring"]) for c in known))
        sc = context["scoring"]
        s_ = sc.strip().lower() if isinstance(sc, str) else None
        if s_ not in scorings:
            raise _bad(game, "scoring", sc, f"one of {', '.join(scorings)}")
        return game, {"trump": t, "scoring": s_}
    charts: dict[str, list[str]] = {}
    for c in known:
        afters = charts.setdefault(str(c.context["chart"]), [])
        if str(c.context["after"]) not in afters:
            afters.append(str(c.context["after"]))
    chart = context["chart"]
    ch = chart.strip().lower() if isinstance(chart, str) else None
    if ch not in charts:
        raise _bad(game, "chart", chart, f"one of {', '.join(charts)}")
    after = context["after"]
    af = " ".join(suit_letters(after).upper().split()) if isinstance(after, str) else None
    if af not in charts[ch]:
        raise _bad(game, "after", after, f"one of {', '.join(map(repr, charts[ch]))} (the calls before the "
                                         f"{ch} chart's seat; '-' for none)")
    return game, {"chart": ch, "after": af}


def classify(game: str, hand, context: dict, cells: list[ChartCell] | None = None) -> list[str]:
    """The keys of the cells of ``cells`` (one game's; None: :func:`studied_cells`, the full
    report's) that ``hand`` falls in, in their order.

    ``hand``: a hand string or card tokens / indices (a full hand: :data:`HAND_SIZE`);
    ``context``: Vint ``{"chart", "after"}`` (after as the table writes it: ``"1H P"``, ``"-"``);
    500 ``{"trump": S|C|D|H|NT, "scoring": quebec|subtract}``; 501 ``{"own", "opponents":
    [two scores], "position"}`` (the hand does not matter: the chart's decision is made before
    looking; an empty hand is taken).  Raises ConditionError for a hand that does not parse or
    is not a full hand (the message ``cardsim evaluate`` gives), OptionError
    (:func:`check_context`) for a bad game or context."""
    game, context = check_context(game, context, cells)
    bits = hand_bits(game, hand)
    # 501's chart is read before looking: no cards is a question too, a part of a hand is not
    if bin(bits).count("1") != HAND_SIZE[game] and not (game == "501" and not bits):
        raise hand_size_error(game, 0, bin(bits).count("1"), HAND_SIZE[game])
    cells = list(_studied(game)) if cells is None else cells
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
