"""Which chart cell a hand falls in: the classification the report page repeats in JavaScript.

The report's three hand charts are grids of *conditions* (docs/conditions.md): a Vint bidding
chart cell is ``hcp=13-15, H=5, S<=4, …`` for the seat after given calls
(:mod:`cardsim.analysis.vint.charts`), a Five Hundred bid-guide cell is ``top_H=2, trumps_H=6``
(:mod:`cardsim.analysis.g500.guide`), and a 501 decision cell is a score state, mapped as the
engine's ``chart`` strategy maps a game's state (:mod:`cardsim.analysis.g501.policy`).  This
module rebuilds each cell of a report table from the analysis's own definitions and decides
membership with the analysis's own condition text, parsed by :mod:`cardsim.conditions` and
evaluated as the dealer does (:func:`cardsim.deal.term_sum`: a feature is
``sum(weight * popcount(h & (h >> shift) & mask))``, or a kind of :mod:`cardsim.holding`), so a
hand is in a cell exactly when the dealer would have accepted it for that cell.

* ``vint_cells``, ``g500_cells``, ``g501_cells`` — the cells (:class:`ChartCell`) of a report's
  table (a pandas frame read from its CSV), each in its game's chart module
  (``cardsim/analysis/<module>_hands.py``, :func:`chart_module`; found here too);
* :func:`classify` — ``classify(game, hand, context, cells) -> [cell key, …]``: the keys of the
  cells of ``cells`` that the hand (and its context) falls in, in table order; usually one,
  none for a hand outside every studied class, two where classes overlap (Vint's 5+S and 5+H
  responses to 1NT; a Five Hundred holding in the main grid and in the side-aces sweep);
* :func:`conditions_json` — a cell's condition in the plain form the page's script evaluates.

Units: card indices of the game's layout (:mod:`cardsim.cards`); scores in score points.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from cardsim.conditions import cards_given, features_of, game_name, hand_size_error, parse_class, parse_given
from cardsim.deal import ConditionError
from cardsim.analysis import game_module
from cardsim.games import GAME_NAMES
from cardsim.games.base import OptionError
from cardsim.text import quote


def chart_module(game: str):
    """The module of ``game``'s chart cells, ``cardsim/analysis/<package>/hands.py``
    (``cardsim.analysis.vint.hands``): ``HAND_SIZE``, ``CONTEXT_KEYS``, ``NO_CARDS`` (whether a hand of no cards is
    a question), ``cells(rows)``, ``studied_cells()``, ``check_context(context, known)`` and,
    where a hand is not simply in the cells' classes, ``matching(bits, context, cells)``
    (:func:`matching_classes` otherwise), found by :func:`cardsim.analysis.game_module`; None for a
    game without hand charts."""
    return game_module(game, "hands")


def chart_games() -> tuple[str, ...]:
    """The games with hand charts, in the registry's order."""
    return tuple(g for g in GAME_NAMES if chart_module(g) is not None)


class _PerGame(Mapping):
    """``{game: an attribute of its chart module}`` for the games with hand charts."""

    def __init__(self, attribute: str):
        self._attribute = attribute

    def __getitem__(self, game):
        if game not in chart_games():
            raise KeyError(game)
        return getattr(chart_module(game), self._attribute)

    def __iter__(self):
        return iter(chart_games())

    def __len__(self):
        return len(chart_games())


HAND_SIZE = _PerGame("HAND_SIZE")
"""Cards in a hand of the charts, per game (501's chart is the 3-seat game: 7 cards a seat)."""
CONTEXT_KEYS = _PerGame("CONTEXT_KEYS")
"""The keys of :func:`classify`'s ``context``, per game."""


def __getattr__(name):
    # The cells of one game's table (vint_cells, g500_key, g501_cell …) live in its chart module;
    # they are found here too, as before the modules were split by game.
    for game in chart_games():
        module = chart_module(game)
        if hasattr(module, name) and not name.startswith("_"):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """Every hand feature of ``game`` on the bit set ``bits``, in its stored unit (quick tricks in
    halves), computed by the dealer's own code (``FeatureSet.value``)."""
    fs = features_of(game)
    return {name: fs.value(name, bits) for name in fs.features}


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


# ---------------------------------------------------------------- the classifier
def studied_cells(game: str) -> list[ChartCell]:
    """Every cell the full report's chart of ``game`` studies (``make report``), from the analyses'
    definitions: Vint's chart cells, the Five Hundred guide's classes under both scorings, 501's
    decision situations (the game's chart module's ``studied_cells``)."""
    return chart_module(game).studied_cells()


@functools.lru_cache(maxsize=None)
def _studied(game: str) -> tuple:
    return tuple(studied_cells(game))


def bad_context(game: str, key: str, value, allowed: str) -> OptionError:
    """The one-line error of a context value: names the key, the value given and what is allowed."""
    return OptionError(f"{game} context: {key} {quote(value)} is not {allowed}")


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
    games = chart_games()
    if name not in games:
        raise OptionError(f"unknown game {quote(game)} for the hand charts (known: {', '.join(games)})")
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
    return game, chart_module(game).check_context(context, known)


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
    module = chart_module(game)
    # 501's chart is read before looking: no cards is a question too, a part of a hand is not
    if bin(bits).count("1") != module.HAND_SIZE and not (module.NO_CARDS and not bits):
        raise hand_size_error(game, 0, bin(bits).count("1"), module.HAND_SIZE)
    cells = list(_studied(game)) if cells is None else cells
    if hasattr(module, "matching"):
        return module.matching(bits, context, cells)
    return matching_classes(game, bits, context, cells, module.CONTEXT_KEYS)


def matching_classes(game: str, bits: int, context: dict, cells, keys) -> list[str]:
    """The keys of the cells (:class:`ChartCell`) of the context (``keys``: the context's names)
    whose class the hand ``bits`` meets, in order, each once: a chart module's ``matching`` unless
    it has its own (501's chart is read from the scores, not the hand)."""
    out = []
    for c in cells:
        if all(str(c.context[k]) == str(context[k]) for k in keys) and in_class(game, bits, c.where) \
                and c.key not in out:
            out.append(c.key)
    return out
