"""Conditions on a deal: given cards and hand classes, their text syntax, their compilation.

Players ask "what should I bid with THIS hand?".  A :class:`Conditions` names, for one game:

* **given cards**: some or all cards of any seat, and in 501 and Five Hundred of the talon /
  kitty; the other cards are dealt uniformly from the rest (the exact conditional
  distribution);
* **hand classes** (:class:`HandClass`) per seat: ranges of the game's hand features
  (high-card points, suit lengths, aces, jokers, bowers, trumps, marriages … listed by
  ``cardsim.games.<game>.features``) and cards required or excluded.  A deal is kept only
  when every seat is in its class (rejection, :mod:`cardsim.deal`), so the acceptance rate
  (accepted / attempts) is the probability of the classes given the given cards.

:func:`compile` checks the conditions (raising :class:`ConditionError`, one line, for anything
malformed or impossible on its face) and makes the arrays the jitted dealer takes
(:class:`Compiled`, its ``plan``); :func:`cardsim.deal.deal_chunk` deals with them.

Text syntax (docs/conditions.md; parsed by a lark grammar, never ``eval``)
---------------------------------------------------------------------------
A **hand** is a list of suit groups and single cards, separated by spaces (or commas)::

    S:AKT86 H:KQ42 C:K832        suit letter S H D C, a colon, ranks high to low or in any order
    S:A1086 D:-                  "10" is accepted for T; "D:-" says the hand has no diamonds (a void)
    AS KH 10D                    single cards, rank then suit
    HJ LJ S:AK                   Five Hundred's jokers: HJ (high) and LJ (low)
    ♠:AKT86 A♥ 10♦               suit symbols ♠ ♥ ♦ ♣ (and ♤ ♡ ♢ ♧) for the letters, anywhere

Ranks are the game's: Vint ``AKQJT98765432``, 501 ``ATKQJ9``, Five Hundred ``AKQJT987654``;
case does not matter.  A void (``D:-``) is a class clause of its holder, the suit's length 0
(``D=0``), so no card of that suit is dealt to it; giving cards of a void suit is an error.  A
suit is the physical one of the hand syntax: in Five Hundred ``H:-`` means no heart, the jack
of hearts included, and says nothing of the jokers or the jack of diamonds, which belong to
no suit until a trump is named (docs/RULES.md §3.1; ``trumps_H=0`` asks for no prospective
heart trump).

A **class** is a list of clauses separated by commas; ``;`` separates seat scopes, each
optionally opened by ``seat N:`` (a scope without one applies to the default seat given to
:func:`parse_classes`)::

    hcp=15-17, H>=5, S<=3          a range, at least, at most (also > and <)
    aces=1-2, jokers=2             an exact value or a range
    trumps_H>=5, bowers_H=2        Five Hundred, per prospective trump suit
    marriages>=1                   501
    has AS KH, not QS              cards required / excluded (same card syntax as a hand)
    seat 0: hcp>=12; seat 2: hcp<=6, S>=4

Feature names are case-insensitive (``h>=5`` = ``H>=5``); clauses on the same feature
intersect (``hcp>=12, hcp<=14`` = ``hcp=12-14``).
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from lark import Lark, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardsim.cards import SUITS, cards_of, suit_letters
from cardsim.deal import N_HOLDERS, TALON, ConditionError, DealLayout, FeatureSet
from cardsim.games import GAME_NAMES, get_game
from cardsim.text import quote

HAND_SUITS = "SHDC"
"""The order suits are written in (hands and descriptions)."""


def game_name(game) -> str:
    key = str(game).strip().lower()
    if key not in GAME_NAMES:
        raise ConditionError(f"unknown game {quote(game)} (known: {', '.join(GAME_NAMES)})")
    return key


def _features_module(name: str):
    """The module the spec of game ``name`` names for its hand features (``features_module``)."""
    return importlib.import_module(get_game(name).features_module)


def features_of(game) -> FeatureSet:
    """The :class:`cardsim.deal.FeatureSet` of ``game`` ("vint", "501" or "500")."""
    return _features_module(game_name(game)).FEATURES


def layout_of(game, seats: int | None = None) -> DealLayout:
    """The :class:`cardsim.deal.DealLayout` of ``game`` at ``seats`` seats (default: the game's first)."""
    name = game_name(game)
    counts = get_game(name).seat_counts
    seats = counts[0] if seats is None else seats
    if seats not in counts:
        raise ConditionError(f"{name} is played with {' or '.join(map(str, counts))} seats, not {quote(seats)}")
    return _features_module(name).layout(seats)


# ---------------------------------------------------------------- the grammar
_GRAMMAR = r"""
classes: scope (";" scope)* ";"?
scope: seat? clause ("," clause)*
seat: "seat"i INT ":"
?clause: compare | between | has | hasnot
compare: NAME CMP INT
between: NAME "=" INT ("-" INT)?
has: "has"i item+
hasnot: "not"i item+
hand: (item ","?)*
?item: group | CARD | JOKER
group: SUIT ":" (RANKSTR | VOID)
VOID: "-"
CMP: ">=" | "<=" | ">" | "<"
NAME: /[a-z][a-z_]*/i
INT: /[0-9]+/
SUIT: /[shdc]/i
RANKSTR: /(10|[2-9tjqka])+/i
CARD: /(10|[2-9tjqka])[shdc]/i
JOKER: /[hl]j/i
%ignore /\s+/
"""


@functools.cache
def _parser() -> Lark:
    # Built on first use: building the LALR tables takes about 70 ms, which every ``cardsim``
    # command would otherwise pay at start-up.
    return Lark(_GRAMMAR, parser="lalr", start=["classes", "hand"])


class _Tree(Transformer):
    """Parse tree -> plain tuples: scopes ``(seat | None, [clause])``, clauses
    ``("range", name, lo, hi, text)`` / ``("has" | "not", [token])``, card tokens ``"AS"``."""

    def classes(self, scopes):
        return list(scopes)

    def scope(self, items):
        if items and isinstance(items[0], int):
            return items[0], list(items[1:])
        return None, list(items)

    def seat(self, items):
        return int(items[0])

    def compare(self, items):
        name, op, value = str(items[0]), str(items[1]), int(items[2])
        lo, hi = {">=": (value, None), ">": (value + 1, None), "<=": (None, value), "<": (None, value - 1)}[op]
        return ("range", name, lo, hi, f"{name}{op}{value}")

    def between(self, items):
        name, lo = str(items[0]), int(items[1])
        hi = int(items[2]) if len(items) > 2 else lo
        text = f"{name}={lo}" + (f"-{hi}" if len(items) > 2 else "")
        return ("range", name, lo, hi, text)

    def has(self, items):
        return ("has", _flatten(items))

    def hasnot(self, items):
        return ("not", _flatten(items))

    def hand(self, items):
        return _flatten(items)

    def group(self, items):
        suit = str(items[0]).upper()
        ranks = str(items[1]).upper()
        if ranks == "-":
            return [("void", suit)]
        return [("T" if r == "10" else r) + suit for r in re.findall(r"10|.", ranks)]


def _flatten(items) -> list:
    """Card tokens ``"AS"`` and void markers ``("void", "D")``, in the order written."""
    out = []
    for item in items:
        if isinstance(item, list):
            out.extend(item)
        else:
            out.append(item if isinstance(item, tuple) else str(item).upper())
    return out


def _parse(text, start: str, what: str):
    if not isinstance(text, str):
        raise ConditionError(f"{what} must be a string, got {quote(text)}")
    letters = suit_letters(text)
    try:
        return _Tree().transform(_parser().parse(letters, start=start))
    except UnexpectedInput as exc:
        hint = ""
        if start == "classes":
            hint = ("; a clause is FEATURE OP VALUE (hcp>=12, H=4-5, aces=1; features: docs/conditions.md), "
                    "has CARDS or not CARDS")
        raise ConditionError(f"bad {what} {quote(text, 60)}: {_unexpected(exc, letters)}{hint}") from None
    except LarkError as exc:
        # a transformer's own error (a number too long for int()) is wrapped by lark: say that one
        reason = getattr(exc, "orig_exc", None) or exc
        raise ConditionError(f"bad {what} {quote(text)}: {quote(str(reason).splitlines()[0])}") from None


def _unexpected(exc: UnexpectedInput, text: str) -> str:
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return "it ends too early"
    column = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected {quote(text[exc.pos_in_stream], 20)} at column {column}"
    if isinstance(exc, UnexpectedToken):
        return f"unexpected {quote(str(exc.token), 20)} at column {column}"
    return str(exc).splitlines()[0]


# ---------------------------------------------------------------- cards
def _card(fs: FeatureSet, token) -> int:
    if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
        card = int(token)
        if card not in set(int(c) for c in fs.base_deck):
            raise ConditionError(f"{quote(token)} is not a {fs.game} card index")
        return card
    try:
        return fs.parse_card(suit_letters(token))
    except ValueError:
        raise ConditionError(f"{quote(token)} is not a {fs.game} card") from None


def parse_hand(game, text) -> list[int]:
    """Card indices (the game's layout) of a hand string such as ``"S:AKT86 H:KQ42 C:K832"``;
    its voids (``D:-``) are checked but not returned (:func:`parse_given` returns them).

    Raises :class:`ConditionError` for bad syntax, a card the game does not have, a card
    written twice, or a card of a suit written void."""
    return parse_given(game, text)[0]


def parse_given(game, value) -> tuple[list[int], tuple[str, ...]]:
    """``(card indices, void suit letters)`` of given cards: a hand string (``"S:AKQJT D:-"`` gives
    the five spades and ``("D",)``), or an iterable of card tokens or indices (no voids).

    Raises :class:`ConditionError` for bad syntax, a card the game does not have, a card
    written twice, or a card given in a suit written void (``"S:- AS"``)."""
    fs = features_of(game)
    if not isinstance(value, str):
        return cards_given(game, value), ()
    items = _parse(value, "hand", "hand")
    cards = _distinct(fs, [_card(fs, t) for t in items if not isinstance(t, tuple)], quote(value))
    voids = tuple(dict.fromkeys(suit for _, suit in (t for t in items if isinstance(t, tuple))))
    for suit in voids:
        inside = [c for c in cards if _suit_cards(fs, suit) >> c & 1]
        if inside:
            raise ConditionError(f"hand {quote(value)}: {suit}:- says it has no {suit}, yet it is given "
                                 f"{' '.join(fs.card_str(c) for c in inside)}")
    return cards, voids


def _suit_cards(fs: FeatureSet, suit: str) -> int:
    """The cards of a suit (the bit set its length feature counts)."""
    return sum(m for m, _, _ in fs.features[suit])


def _no_voids(items, where: str) -> list:
    for t in items:
        if isinstance(t, tuple):
            raise ConditionError(f"{where}: a void ({t[1]}:-) is not a card; a class says it as {t[1]}=0")
    return items


def _distinct(fs: FeatureSet, cards: list[int], where: str) -> list[int]:
    seen = set()
    for c in cards:
        if c in seen:
            raise ConditionError(f"card {fs.card_str(c)} appears twice in {where}")
        seen.add(c)
    return cards


def cards_given(game, value) -> list[int]:
    """Card indices of given cards: a hand string, or an iterable of card tokens or indices."""
    fs = features_of(game)
    if isinstance(value, str):
        return _distinct(fs, [_card(fs, t) for t in _no_voids(_parse(value, "hand", "hand"), quote(value))],
                         quote(value))
    try:
        items = list(value)
    except TypeError:
        raise ConditionError(f"cards must be a hand string or a list of cards, got {quote(value)}") from None
    return _distinct(fs, [_card(fs, t) for t in items], "the cards given")


def hand_text(game, cards) -> str:
    """A hand string of card indices, as :func:`parse_hand` reads it (``"HJ S:AK H:- …"``,
    empty suits left out)."""
    fs = features_of(game)
    cards = sorted(int(c) for c in cards)
    parts = [fs.card_str(c) for c in reversed(cards) if c >> 4 == 0 and c & 15 >= len(fs.ranks)]
    for suit in HAND_SUITS:
        s = SUITS.index(suit)
        ranks = [fs.ranks[c & 15] for c in reversed(cards) if c >> 4 == s and c & 15 < len(fs.ranks)]
        if ranks:
            parts.append(f"{suit}:{''.join(ranks)}")
    return " ".join(parts)


# ---------------------------------------------------------------- hand classes
Range = tuple  # (lo | None, hi | None)


def _as_range(value, label: str) -> Range:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value), int(value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool)) for v in value):
        lo, hi = (None if v is None else int(v) for v in value)
        if lo is not None and hi is not None and lo > hi:
            raise ConditionError(f"{label}: the range {lo}-{hi} is empty (min > max)")
        return lo, hi
    raise ConditionError(f"{label}: a range is a whole number or (min, max) with None for no limit, got {quote(value)}")


def _intersect(a: Range, b: Range, label: str) -> Range:
    lo = a[0] if b[0] is None else b[0] if a[0] is None else max(a[0], b[0])
    hi = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    if lo is not None and hi is not None and lo > hi:
        raise ConditionError(f"{label}: the clauses leave no value (min {lo} > max {hi})")
    return lo, hi


def _range_text(name: str, r: Range) -> str:
    lo, hi = r
    if lo is not None and hi is not None:
        return f"{name}={lo}" if lo == hi else f"{name}={lo}-{hi}"
    if lo is not None:
        return f"{name}>={lo}"
    return f"{name}<={hi}" if hi is not None else ""


@dataclass(frozen=True)
class HandClass:
    """A class of hands for one seat.  Every range is a whole number (exact) or ``(min, max)``
    with ``None`` for no limit; ``None`` for the field means unconstrained.

    ``hcp``: the game's high-card count (Vint 4-3-2-1; 501 card points; Five Hundred the
    strength count of :mod:`cardsim.games.g500.features`); ``lengths``: ``{"H": (5, 13)}``;
    ``aces``; ``jokers`` (500); ``bowers`` / ``trumps``: ``{"H": 2}`` per prospective trump suit
    (500); ``marriages`` (501); ``required`` / ``excluded``: card tokens or indices;
    ``features``: any other feature by name (``{"kings": (2, None), "honours_H": 3}``).
    """

    hcp: Any = None
    lengths: dict = field(default_factory=dict)
    aces: Any = None
    jokers: Any = None
    bowers: dict = field(default_factory=dict)
    trumps: dict = field(default_factory=dict)
    marriages: Any = None
    required: tuple = ()
    excluded: tuple = ()
    features: dict = field(default_factory=dict)

    def named_ranges(self) -> list[tuple[str, Any]]:
        """(feature name as written, range as written) of every constrained feature."""
        out = [(name, getattr(self, name)) for name in ("hcp", "aces", "jokers", "marriages")
               if getattr(self, name) is not None]
        for label, table in (("", self.lengths), ("bowers_", self.bowers), ("trumps_", self.trumps),
                             ("", self.features)):
            if not isinstance(table, dict):
                raise ConditionError(f"HandClass: lengths, bowers, trumps and features are dicts, got {quote(table)}")
            out += [(f"{label}{key}", value) for key, value in table.items() if value is not None]
        return out

    def resolved(self, game) -> tuple[dict, list[int], list[int]]:
        """``({canonical feature: (lo, hi)}, required card indices, excluded card indices)``;
        raises ConditionError for a feature the game does not have or an empty range."""
        fs = features_of(game)
        ranges: dict = {}
        for name, value in self.named_ranges():
            canon = fs.canonical(str(name))
            if canon is None:
                raise ConditionError(f"unknown {fs.game} feature {quote(name)} (known: {', '.join(fs.features)})")
            r = _as_range(value, name)
            ranges[canon] = _intersect(ranges[canon], r, canon) if canon in ranges else r
        return ranges, cards_given(game, self.required), cards_given(game, self.excluded)

    def text(self, game) -> str:
        """The class in the text syntax (:func:`parse_class` reads it back to an equal class)."""
        fs = features_of(game)
        ranges, required, excluded = self.resolved(game)
        parts = [_range_text(name, ranges[name]) for name in fs.features if name in ranges]
        parts = [p for p in parts if p]
        if required:
            parts.append("has " + " ".join(fs.card_str(c) for c in required))
        if excluded:
            parts.append("not " + " ".join(fs.card_str(c) for c in excluded))
        return ", ".join(parts) or "any hand"


def _class_of(game, clauses, label: str) -> HandClass:
    fs = features_of(game)
    ranges: dict = {}
    required: list[int] = []
    excluded: list[int] = []
    for clause in clauses:
        if clause[0] == "range":
            _, name, lo, hi, text = clause
            canon = fs.canonical(name)
            if canon is None:
                raise ConditionError(f"{label}: unknown {fs.game} feature {quote(name, 30)} in {quote(text, 30)} "
                                     f"(known: {', '.join(fs.features)})")
            if lo is not None and hi is not None and lo > hi:
                raise ConditionError(f"{label}: {quote(text)} is empty (min > max)")
            ranges[canon] = _intersect(ranges[canon], (lo, hi), f"{label}: {canon}") if canon in ranges else (lo, hi)
        else:
            try:
                cards = [_card(fs, t) for t in _no_voids(clause[1], f"'{clause[0]}' clause")]
            except ConditionError as exc:
                raise ConditionError(f"{label}: {exc}") from None
            (required if clause[0] == "has" else excluded).extend(cards)
    return HandClass(features=ranges, required=tuple(fs.card_str(c) for c in required),
                     excluded=tuple(fs.card_str(c) for c in excluded))


def parse_classes(game, text, seat: int | None = None) -> dict[int, HandClass]:
    """Hand classes by seat from a class string (module docstring); scopes without ``seat N:``
    apply to ``seat``.  Raises :class:`ConditionError` for bad syntax, an unknown feature, an
    unknown card, an empty range, a scope without a seat when ``seat`` is None, or a seat
    written in two scopes."""
    game = game_name(game)
    out: dict[int, HandClass] = {}
    for scope_seat, clauses in _parse(text, "classes", "class"):
        who = seat if scope_seat is None else scope_seat
        if who is None:
            raise ConditionError(f"class {quote(text)}: say which seat it is for ('seat N: ...')")
        if who in out:
            raise ConditionError(f"class {quote(text)}: seat {who} has two scopes; join them with commas")
        out[who] = _class_of(game, clauses, f"seat {who}")
    return out


def parse_class(game, text) -> HandClass:
    """One hand class from comma-separated clauses (no ``seat N:`` scope)."""
    parsed = _parse(text, "classes", "class")
    if len(parsed) != 1 or parsed[0][0] is not None:
        raise ConditionError(f"class {quote(text)}: one class without 'seat N:' scopes was expected")
    return _class_of(game, parsed[0][1], "class")


# ---------------------------------------------------------------- conditions and compilation
@dataclass(frozen=True)
class Conditions:
    """What is known or asked about a deal of ``game``.

    ``seats``: table size (None: the game's default; 501 has 3 or 4); ``dealer``: a seat, or
    None to draw it as the engine does; ``hands``: ``{seat: cards}`` given cards (a hand
    string or card tokens / indices), some or all of a hand; ``talon``: given talon (501) or
    kitty (500) cards; ``classes``: ``{seat: HandClass | class string}``.
    In 4-seat 501 the dealer sits out with no cards, so a seat with given cards or a class is
    never the dealer (drawn dealers that are such a seat are rejected).
    """

    game: str
    seats: int | None = None
    dealer: int | None = None
    hands: dict = field(default_factory=dict)
    talon: Any = None
    classes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Compiled:
    """Conditions ready for the jitted dealer.

    ``dealer``: int, −1 = drawn; ``given``: the given cards per holder (5 Python ints, bit
    sets; holder 4 = talon/kitty); ``plan``: the tuple :func:`cardsim.deal.deal_conditioned`
    takes (shapes and dtypes there); ``text``: the conditions in words, for messages.
    """

    game: str
    seats: int
    dealer: int
    given: tuple
    plan: tuple
    text: str
    layout: DealLayout

    @property
    def n_constraints(self) -> int:
        return int(self.plan[7].shape[0])


def _holder_name(h: int) -> str:
    return "the talon" if h == TALON else f"seat {h}"


def _seat(value, seats: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) < seats:
        raise ConditionError(f"{what}: seat {quote(value)} does not exist at a {seats}-seat table")
    return int(value)


def _given_cards(c: Conditions, fs: FeatureSet, sizes: np.ndarray, seats: int) -> tuple[list[int], dict]:
    """Bit sets of given cards per holder, and the void suits written per holder (``{holder:
    ("D",)}``); checks duplicates and hand sizes."""
    given = [0] * N_HOLDERS
    voids: dict[int, tuple] = {}
    owner: dict[int, int] = {}
    items = [(_seat(s, seats, "given cards"), v) for s, v in dict(c.hands).items()]
    if c.talon is not None:
        if sizes[:, TALON].max() == 0:
            raise ConditionError(f"{fs.game} has no talon")
        items.append((TALON, c.talon))
    for holder, value in items:
        cards, void = parse_given(fs.game, value)
        if void:
            voids[holder] = void
        for card in cards:
            if card in owner:
                raise ConditionError(f"card {fs.card_str(card)} is given twice ({_holder_name(owner[card])} "
                                     f"and {_holder_name(holder)})")
            owner[card] = holder
            given[holder] |= 1 << card
        size = int(sizes[:, holder].max())
        if len(cards) > size:
            raise hand_size_error(fs.game, holder, len(cards), size)
    return given, voids


def hand_size_error(game: str, holder: int, count: int, size: int) -> ConditionError:
    """The error for ``holder`` (a seat or :data:`TALON`) given ``count`` cards where a hand (or
    the talon) of ``game`` holds ``size``: ``seat 0 is given 14 cards; a vint hand holds 13``."""
    return ConditionError(f"{_holder_name(holder)} is given {count} cards; a {game_name(game)} "
                          f"{'hand' if holder < TALON else 'talon'} holds {size}")


def _with_voids(fs: FeatureSet, cls: HandClass, suits, holder: int) -> HandClass:
    """``cls`` with the length of every suit of ``suits`` fixed at 0 (a void written ``D:-``)."""
    ranges = cls.resolved(fs.game)[0]
    features = dict(cls.features)
    for suit in suits:
        lo, _ = ranges.get(suit, (None, None))
        if lo:
            raise ConditionError(f"{_holder_name(holder)}: {suit}:- (no {suit}) contradicts "
                                 f"{_range_text(suit, ranges[suit])}")
        features = {k: v for k, v in features.items() if fs.canonical(str(k)) != suit}
        features[suit] = 0
    return dataclasses.replace(cls, features=features)


def _card_weights(fs: FeatureSet, terms) -> dict[int, int] | None:
    """Per-card weight of an additive feature (every shift 0), or None."""
    if any(shift for _, shift, _ in terms):
        return None
    return {int(c): sum(w for m, _, w in terms if m >> int(c) & 1) for c in fs.base_deck}


def _bounds(terms, weights, forced: int, available: list[int], free_slots: int) -> tuple[int, int]:
    """Least and most value of a feature on a hand holding ``forced`` plus ``free_slots`` cards of
    ``available`` (exact for additive features, loose for the others)."""
    if weights is None:
        return 0, sum(w * bin(m).count("1") for m, _, w in terms)
    base = sum(weights[c] for c in cards_of(forced))
    ws = sorted(weights[c] for c in available)
    return base + sum(ws[:free_slots]), base + sum(ws[len(ws) - free_slots:])


class _Plan:
    """Constraint rows and their terms, built up seat by seat."""

    def __init__(self):
        self.rows: list[list[int]] = []
        self.masks: list[int] = []
        self.shifts: list[int] = []
        self.weights: list[int] = []

    def add(self, holder: int, lo: int, hi: int, terms) -> None:
        start = len(self.masks)
        for mask, shift, weight in terms:
            self.masks.append(int(mask))
            self.shifts.append(int(shift))
            self.weights.append(int(weight))
        self.rows.append([holder, lo, hi, start, len(self.masks)])


def _seat_constraints(fs: FeatureSet, seat: int, cls: HandClass, given: list[int], size: int, plan: _Plan,
                      required_by: dict) -> str:
    """Check one holder's class against what is given and what other seats' classes require
    (``required_by``: card -> seat, filled in here); add its binding constraints to ``plan``;
    returns the class text.  ``seat`` is a seat or :data:`TALON` (the talon's only class is
    the voids written in its given cards)."""
    ranges, required, excluded = cls.resolved(fs.game)
    label = _holder_name(seat)
    req, exc = sum(1 << c for c in required), sum(1 << c for c in excluded)
    others = sum(given) & ~given[seat]
    for c in required:
        if exc >> c & 1:
            raise ConditionError(f"{label}: {fs.card_str(c)} is both required and excluded")
        if others >> c & 1:
            raise ConditionError(f"{label}: requires {fs.card_str(c)}, which is given to "
                                 f"{_holder_name(next(h for h in range(N_HOLDERS) if given[h] >> c & 1))}")
        if c in required_by:  # else the dealer would look for it in vain, a million times
            raise ConditionError(f"{label}: requires {fs.card_str(c)}, which seat {required_by[c]} also "
                                 f"requires: no deal has both")
        required_by[c] = seat
    for c in excluded:
        if given[seat] >> c & 1:
            raise ConditionError(f"{label}: excludes {fs.card_str(c)}, which it is given")
    forced = given[seat] | req
    free_slots = size - bin(forced).count("1")
    if free_slots < 0:
        raise ConditionError(f"{label}: its given and required cards number {bin(forced).count('1')}; "
                             f"a {fs.game} hand holds {size}")
    available = [int(c) for c in fs.base_deck if not ((sum(given) | req | exc) >> int(c) & 1)]
    if len(available) < free_slots:
        raise ConditionError(f"{label}: too few cards are left to fill the hand after the exclusions")
    if req & ~given[seat]:
        plan.add(seat, bin(req & ~given[seat]).count("1"), bin(req & ~given[seat]).count("1"),
                 [(req & ~given[seat], 0, 1)])
    if exc & ~others:
        plan.add(seat, 0, 0, [(exc & ~others, 0, 1)])
    length_lo = length_hi = 0
    for name in fs.features:
        terms = fs.features[name]
        least, most = _bounds(terms, _card_weights(fs, terms), forced, available, free_slots)
        lo, hi = ranges.get(name, (None, None))
        lo = least if lo is None else lo
        hi = most if hi is None else hi
        if name in fs.lengths:
            length_lo, length_hi = length_lo + max(lo, least), length_hi + min(hi, most)
        if lo > most or hi < least:
            can = f"{least}" if least == most else f"{least}-{most}"
            raise ConditionError(f"{label}: {_range_text(name, ranges[name])} is impossible: "
                                 f"its hand can only have {name} {can}")
        if name in ranges and (lo > least or hi < most):
            plan.add(seat, lo, hi, terms)
    # Cards in no suit (500's jokers) fill a hand beyond its suit lengths.
    outside = sum(1 for c in available + cards_of(forced) if not _in_a_suit(fs, c))
    if length_lo > size or length_hi + outside < size:
        raise ConditionError(f"{label}: the suit lengths cannot add up to {size} cards")
    _check_card_counts(fs, label, ranges, forced, free_slots, size)
    _check_jointly(fs, label, ranges, forced, available, size)
    return cls.text(fs.game)


def _count_mask(fs: FeatureSet, name: str) -> int | None:
    """The cards a feature counts (each weighs 1), or None for a feature that is not a count."""
    weights = _card_weights(fs, fs.features[name])
    if weights is None or any(w not in (0, 1) for w in weights.values()):
        return None
    return sum(1 << c for c, w in weights.items() if w)


def _check_card_counts(fs: FeatureSet, label: str, ranges: dict, forced: int, free_slots: int, size: int) -> None:
    """Counts of disjoint sets of cards (aces and tens, spades and hearts) whose minimums need more
    cards than the hand has places left: impossible on its face, not merely rare (else the dealer
    would try a million deals in vain, docs/conditions.md)."""
    needs = []
    for name, (lo, _) in ranges.items():
        mask = _count_mask(fs, name) if lo else None
        if mask is not None:
            needs.append((max(lo - bin(mask & forced).count("1"), 0), mask, name))
    taken, total, names = 0, 0, []
    for need, mask, name in sorted(needs, key=lambda t: -t[0]):
        if need and not mask & taken:
            taken |= mask
            total += need
            names.append(_range_text(name, ranges[name]))
    if total > free_slots:
        raise ConditionError(f"{label}: {', '.join(names)} is impossible: it needs {total} cards besides those "
                             f"given and a {fs.game} hand of {size} has {free_slots} places left")


def _check_jointly(fs: FeatureSet, label: str, ranges: dict, forced: int, available: list[int], size: int) -> None:
    """No hand meets the clauses together, though each may alone: ``honours_S>=5, S<=4`` (the
    honours of a suit are some of its cards), ``aces=0, side_aces_H>=1``, ``hcp>=20, aces=0,
    kings=0``.

    Every feature that is a sum of card weights (all but 501's marriages) is a linear function
    of which cards the hand holds, so "some hand of ``size`` cards holding ``forced`` and the
    rest from ``available`` meets every range" is a small 0/1 integer program, solved by HiGHS
    (``scipy.optimize.milp``).  Only a proof of infeasibility is an error; the message names the
    fewest clauses found that cannot hold together."""
    linear = {name: r for name, r in ranges.items() if _card_weights(fs, fs.features[name]) is not None}
    if not linear or _feasible(fs, linear, forced, available, size):
        return
    names = [name for name in fs.features if name in linear]  # as the class text orders them
    culprit = next((combo for k in (1, 2) for combo in itertools.combinations(names, k)
                    if not _feasible(fs, {n: linear[n] for n in combo}, forced, available, size)), names)
    clauses = ", ".join(_range_text(n, ranges[n]) for n in culprit)
    cards = " with its given, required and excluded cards" if forced or len(available) < len(fs.base_deck) else ""
    holder = "talon" if label == _holder_name(TALON) else "hand"
    raise ConditionError(f"{label}: {clauses} is impossible: no {size}-card {fs.game} {holder}{cards} meets "
                         f"{'it' if len(culprit) == 1 else 'them together'}")


def _feasible(fs: FeatureSet, ranges: dict, forced: int, available: list[int], size: int) -> bool:
    """Whether some hand of ``size`` cards, ``forced`` and the rest from ``available``, has every
    (linear) feature of ``ranges`` in its range (False only when HiGHS proves there is none)."""
    # scipy.optimize takes about a second to import: only a class to check pays for it.
    from scipy.optimize import Bounds, LinearConstraint, milp

    cards = cards_of(forced) + list(available)
    rows, lo, hi = [np.ones(len(cards))], [size], [size]
    for name, (a, b) in ranges.items():
        weights = _card_weights(fs, fs.features[name])
        rows.append(np.array([weights[c] for c in cards], dtype=np.float64))
        lo.append(-np.inf if a is None else a)
        hi.append(np.inf if b is None else b)
    fixed = np.array([forced >> c & 1 for c in cards], dtype=np.float64)
    res = milp(np.zeros(len(cards)), integrality=np.ones(len(cards)), bounds=Bounds(fixed, 1.0),
               constraints=LinearConstraint(np.array(rows), lo, hi), options={"time_limit": 5.0})
    return res.status != 2  # 2: infeasible; a time-out proves nothing


def _check_across_seats(fs: FeatureSet, classes: dict) -> None:
    """The seats' minimums of one additive feature cannot add up to more than the whole deck has
    (two seats with seven spades each; 45 high-card points between two hands)."""
    ranges = {seat: cls.resolved(fs.game)[0] for seat, cls in classes.items()}
    for name in fs.features:
        weights = _card_weights(fs, fs.features[name])
        if weights is None or any(w < 0 for w in weights.values()):
            continue
        lows = {seat: r[name][0] for seat, r in ranges.items() if name in r and r[name][0]}
        deck = sum(weights.values())
        if len(lows) > 1 and sum(lows.values()) > deck:
            parts = "; ".join(f"seat {seat}: {_range_text(name, ranges[seat][name])}" for seat in sorted(lows))
            raise ConditionError(f"{parts} is impossible: those hands would hold {sum(lows.values())} {name} "
                                 f"and the deck has {deck}")


def _in_a_suit(fs: FeatureSet, card: int) -> bool:
    return any(m >> card & 1 for s in fs.lengths for m, _, _ in fs.features[s])


def _slots(layout: DealLayout, need: np.ndarray, allowed: np.ndarray, m: int) -> np.ndarray:
    """int64[D, m]: the holder of each free card, in dealing order, for every allowed dealer."""
    slots = np.zeros((layout.holders.shape[0], max(m, 1)), dtype=np.int64)
    for d in range(layout.holders.shape[0]):
        if not allowed[d]:
            continue
        left = need[d].copy()
        j = 0
        for h in layout.holders[d]:
            if left[h] > 0:
                slots[d, j] = h
                left[h] -= 1
                j += 1
        assert j == m
    return slots


def compile(conditions: Conditions) -> Compiled:  # noqa: A001 - the module's verb, as in re.compile
    """Check ``conditions`` and make the arrays the jitted dealer takes (:class:`Compiled`).

    Raises :class:`ConditionError` (one line) for: an unknown game or seat, a bad hand or class
    string, a card the game does not have, a card given twice, more cards than a hand or talon
    holds, an unknown feature, a range with min > max, a class impossible on its face (a range
    outside what the hand can hold given its cards, suit lengths that cannot add up to a hand,
    a required card also excluded, given elsewhere or required by another seat), a given dealer that sits out holding a
    conditioned seat (4-seat 501).
    """
    if not isinstance(conditions, Conditions):
        raise ConditionError(f"compile takes Conditions, got {type(conditions).__name__}")
    game = game_name(conditions.game)
    fs = features_of(game)
    layout = layout_of(game, conditions.seats)
    seats, sizes = layout.seats, layout.sizes
    dealer = -1 if conditions.dealer is None else _seat(conditions.dealer, seats, "dealer")
    given, voids = _given_cards(conditions, fs, sizes, seats)
    classes = {}
    for s, value in dict(conditions.classes).items():
        seat = _seat(s, seats, "class")
        if isinstance(value, str):
            value = parse_class(game, value)
        if not isinstance(value, HandClass):
            raise ConditionError(f"class of seat {seat}: a HandClass or a class string, got {quote(value)}")
        classes[seat] = value
    for holder, suits in voids.items():
        classes[holder] = _with_voids(fs, classes.get(holder, HandClass()), suits, holder)
    conditioned = {s for s in range(seats) if given[s]} | (set(classes) - {TALON})
    need = sizes - np.array([bin(g).count("1") for g in given], dtype=np.int64)[None, :]
    allowed = np.array([(need[d] >= 0).all() and (sizes[d, :4] > 0)[sorted(conditioned)].all()
                        for d in range(sizes.shape[0])], dtype=np.int64)
    if dealer >= 0 and not allowed[dealer]:
        raise ConditionError(f"seat {dealer} deals and sits out in {seats}-seat {game}: it can't be given "
                             f"cards or a class")
    if not allowed.any():
        raise ConditionError(f"in {seats}-seat {game} the dealer sits out: give cards or classes to at most "
                             f"{seats - 1} seats")
    plan = _Plan()
    texts = [f"{_holder_name(h)} given {hand_text(game, cards_of(given[h]))}" for h in range(N_HOLDERS) if given[h]]
    required_by = {}
    for seat in sorted(classes):
        size = int(sizes[:, seat].max())
        texts.append(f"{_holder_name(seat)}: "
                     f"{_seat_constraints(fs, seat, classes[seat], given, size, plan, required_by)}")
    _check_across_seats(fs, {s: cls for s, cls in classes.items() if s != TALON})
    free = [int(c) for c in fs.base_deck if not (sum(given) >> int(c) & 1)]
    free_deck = np.array(free, dtype=np.int64)
    cons = np.array(plan.rows, dtype=np.int64).reshape(-1, 5)
    arrays = (np.int64(layout.n_draw), np.int64(layout.always_draw), allowed,
              _slots(layout, need, allowed, len(free)), free_deck, np.array(given, dtype=np.uint64),
              np.uint64(sum(1 << c for c in free)), cons, np.array(plan.masks, dtype=np.uint64),
              np.array(plan.shifts, dtype=np.uint64), np.array(plan.weights, dtype=np.int64))
    text = "; ".join(texts) or "no conditions"
    return Compiled(game, seats, dealer, tuple(given), arrays, text, layout)


__all__ = ["ConditionError", "HandClass", "Conditions", "Compiled", "compile", "parse_hand", "parse_class",
           "parse_classes", "hand_text", "cards_given", "features_of", "layout_of"]
