"""The text syntax of conditions: the lark grammar of hands and hand classes, card tokens, and
the game facts they are read against (a game's hand features, its deal layout).

A hand (``S:AKT86 H:KQ42 AS 10D HJ``) and the clauses of a class (``hcp=15-17, H>=5, has AS``)
are parsed by one LALR grammar (never ``eval``), built on first use; :func:`parse_hand`,
:func:`parse_given` and :func:`cards_given` turn card tokens into the game's card numbers
(docs/conditions.md).
"""
from __future__ import annotations

import functools
import importlib
import re
from fractions import Fraction

import numpy as np
from lark import Lark, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardsim.cards import SUITS, suit_letters
from cardsim.deal import ConditionError, DealLayout, FeatureSet
from cardsim.games import game_names, get_game, is_game
from cardsim.text import quote


HAND_SUITS = "SHDC"
"""The order suits are written in (hands and descriptions)."""


def game_name(game) -> str:
    key = str(game).strip().lower()
    if not is_game(key):
        raise ConditionError(f"unknown game {quote(game)} (known: {', '.join(game_names())})")
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


_GRAMMAR = r"""
classes: scope (";" scope)* ";"?
scope: seat? clause ("," clause)*
seat: "seat"i INT ":"
?clause: compare | between | pattern | flag | notflag | has | hasnot
compare: NAME CMP NUMBER
between: NAME "=" NUMBER ("-" NUMBER)?
pattern: NAME "=" NUMBER "-" NUMBER "-" NUMBER "-" NUMBER
flag: NAME
notflag: "not"i FLAG
has: "has"i item+
hasnot: "not"i item+
hand: (item ","?)*
?item: group | CARD | JOKER
group: SUIT ":" (RANKSTR | VOID)
VOID: "-"
CMP: ">=" | "<=" | ">" | "<"
NAME: /[a-z][a-z_]*(-[a-z_]+)*/i
FLAG: /(?!((10|[2-9tjqka])[shdc]|[hl]j)+\b)[a-z][a-z_]+(-[a-z_]+)*/i
INT: /[0-9]+/
NUMBER: /[0-9]+(\.[0-9]+)?/
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
    ``("compare", name, op, value, text)``, ``("between", name, lo, hi, text)`` (values are
    :class:`fractions.Fraction`, as written: ``1.5``), ``("pattern", name, [lengths], text)``
    (``shape=4-4-3-2``), ``("flag", name, yes, text)`` (``balanced`` / ``not balanced``) and
    ``("has" | "not", [token])``, card tokens ``"AS"``."""

    def classes(self, scopes):
        return list(scopes)

    def scope(self, items):
        if items and isinstance(items[0], int):
            return items[0], list(items[1:])
        return None, list(items)

    def seat(self, items):
        return int(items[0])

    def compare(self, items):
        name, op, value = str(items[0]), str(items[1]), Fraction(str(items[2]))
        return ("compare", name, op, value, f"{name}{op}{items[2]}")

    def between(self, items):
        name, lo = str(items[0]), Fraction(str(items[1]))
        hi = Fraction(str(items[2])) if len(items) > 2 else lo
        text = f"{name}={items[1]}" + (f"-{items[2]}" if len(items) > 2 else "")
        return ("between", name, lo, hi, text)

    def pattern(self, items):
        name, lengths = str(items[0]), [Fraction(str(i)) for i in items[1:]]
        return ("pattern", name, lengths, f"{name}={'-'.join(map(str, items[1:]))}")

    def flag(self, items):
        return ("flag", str(items[0]), True, str(items[0]))

    def notflag(self, items):
        return ("flag", str(items[0]), False, f"not {items[0]}")

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


def parse_tree(text, start: str, what: str):
    """``text`` read by the condition grammar from its rule ``start``, as plain tuples
    (:class:`_Tree`): ``"classes"`` → ``[(seat | None, [clause])]``, one scope per ``;``-part;
    ``"hand"`` → card tokens ``"AS"`` and void markers ``("void", "D")`` in the order written.
    Suit symbols are read as letters first.  Raises ConditionError (one line, naming ``what``,
    the column and the token) for text that is not a string or does not parse."""
    if not isinstance(text, str):
        raise ConditionError(f"{what} must be a string, got {quote(text)}")
    letters = suit_letters(text)
    try:
        return _Tree().transform(_parser().parse(letters, start=start))
    except UnexpectedInput as exc:
        hint = ""
        if start == "classes":
            hint = "; a clause is FEATURE OP VALUE (hcp>=12), balanced, not balanced or has/not CARDS"
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


def card_index(fs: FeatureSet, token) -> int:
    """The game's card number (an int of ``fs.base_deck``) of a card ``token``: a card text
    (``"AS"`` or ``"A♠"``, in the game's ranks) or a card number itself.  Raises ConditionError
    naming the token when it is not a card of the game ``fs`` describes."""
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
    items = parse_tree(value, "hand", "hand")
    cards = _distinct(fs, [card_index(fs, t) for t in items if not isinstance(t, tuple)], quote(value))
    voids = tuple(dict.fromkeys(suit for _, suit in (t for t in items if isinstance(t, tuple))))
    for suit in voids:
        inside = [c for c in cards if suit_cards(fs, suit) >> c & 1]
        if inside:
            raise ConditionError(f"hand {quote(value)}: {suit}:- says it has no {suit}, yet it is given "
                                 f"{' '.join(fs.card_str(c) for c in inside)}")
    return cards, voids


def suit_cards(fs: FeatureSet, suit: str) -> int:
    """The cards of a suit (the bit set its length feature counts)."""
    return sum(m for m, _, _ in fs.features[suit])


def refuse_voids(items: list, where: str) -> list:
    """``items`` (:func:`parse_tree`'s card tokens) unchanged when none is a void marker
    (``D:-``); otherwise ConditionError at ``where``: a void is a suit length, written in a class
    as ``D=0``, not a card to hold or deal."""
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
        return _distinct(fs, [card_index(fs, t) for t in refuse_voids(parse_tree(value, "hand", "hand"), quote(value))],
                         quote(value))
    try:
        items = list(value)
    except TypeError:
        raise ConditionError(f"cards must be a hand string or a list of cards, got {quote(value)}") from None
    return _distinct(fs, [card_index(fs, t) for t in items], "the cards given")


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
