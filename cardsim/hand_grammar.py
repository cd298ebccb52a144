"""The text of hands and hand classes, read against a game's hand features
(:class:`cardsim.deal.FeatureSet`): the lark grammar of hands (``S:AKT86 H:KQ42 AS 10D HJ``)
and of the clauses of a class (``hcp=15-17, H>=5, has AS``), one LALR grammar (never ``eval``)
built on first use, and the card tokens of a hand as the game's card numbers (docs/conditions.md).

It needs no game registry: a game's own modules (its rule file's records and tests) read hands
with their ``FEATURES``; :mod:`cardsim.conditions.grammar` gives the same by a game's name.
"""
from __future__ import annotations

import functools
import re
from fractions import Fraction

import numpy as np
from lark import Lark, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardsim.cards import SUITS, suit_letters
from cardsim.deal import ConditionError, FeatureSet
from cardsim.text import quote


HAND_SUITS = "SHDC"
"""The order suits are written in (hands and descriptions)."""


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


def parse_text(text, start: str, what: str):
    """The parse of ``text`` from the grammar's rule ``start`` (``"hand"``: card tokens ``"AS"``
    and void markers ``("void", "D")`` in the order written; ``"classes"``: scopes, see
    :class:`_Tree`); raises ConditionError in one line naming ``what`` for text that does not
    parse or is not a string."""
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
    """The card number of ``token`` (a card token such as ``"AS"``, ``"10D"``, ``"HJ"``, or a
    card index) in ``fs``'s game; raises ConditionError for a card the game does not have."""
    if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
        card = int(token)
        if card not in set(int(c) for c in fs.base_deck):
            raise ConditionError(f"{quote(token)} is not a {fs.game} card index")
        return card
    try:
        return fs.parse_card(suit_letters(token))
    except ValueError:
        raise ConditionError(f"{quote(token)} is not a {fs.game} card") from None


def suit_cards(fs: FeatureSet, suit: str) -> int:
    """The cards of a suit (the bit set its length feature counts)."""
    return sum(m for m, _, _ in fs.features[suit])


def no_voids(items, where: str) -> list:
    """``items`` (a parsed hand) when it writes no void; raises ConditionError naming ``where``."""
    for t in items:
        if isinstance(t, tuple):
            raise ConditionError(f"{where}: a void ({t[1]}:-) is not a card; a class says it as {t[1]}=0")
    return items


def distinct(fs: FeatureSet, cards: list[int], where: str) -> list[int]:
    """``cards`` when none is written twice; raises ConditionError naming the card and ``where``."""
    seen = set()
    for c in cards:
        if c in seen:
            raise ConditionError(f"card {fs.card_str(c)} appears twice in {where}")
        seen.add(c)
    return cards


def parse_hand(fs: FeatureSet, text) -> list[int]:
    """Card indices (the layout of ``fs``'s game) of a hand string such as ``"S:AKT86 H:KQ42 C:K832"``;
    its voids (``D:-``) are checked but not returned (:func:`parse_given` returns them).

    Raises :class:`ConditionError` for bad syntax, a card the game does not have, a card
    written twice, or a card of a suit written void."""
    return parse_given(fs, text)[0]


def parse_given(fs: FeatureSet, value) -> tuple[list[int], tuple[str, ...]]:
    """``(card indices, void suit letters)`` of given cards: a hand string (``"S:AKQJT D:-"`` gives
    the five spades and ``("D",)``), or an iterable of card tokens or indices (no voids).

    Raises :class:`ConditionError` for bad syntax, a card the game does not have, a card
    written twice, or a card given in a suit written void (``"S:- AS"``)."""
    if not isinstance(value, str):
        return cards_given(fs, value), ()
    items = parse_text(value, "hand", "hand")
    cards = distinct(fs, [card_index(fs, t) for t in items if not isinstance(t, tuple)], quote(value))
    voids = tuple(dict.fromkeys(suit for _, suit in (t for t in items if isinstance(t, tuple))))
    for suit in voids:
        inside = [c for c in cards if suit_cards(fs, suit) >> c & 1]
        if inside:
            raise ConditionError(f"hand {quote(value)}: {suit}:- says it has no {suit}, yet it is given "
                                 f"{' '.join(fs.card_str(c) for c in inside)}")
    return cards, voids


def cards_given(fs: FeatureSet, value) -> list[int]:
    """Card indices of given cards: a hand string, or an iterable of card tokens or indices."""
    if isinstance(value, str):
        return distinct(fs, [card_index(fs, t) for t in no_voids(parse_text(value, "hand", "hand"), quote(value))],
                         quote(value))
    try:
        items = list(value)
    except TypeError:
        raise ConditionError(f"cards must be a hand string or a list of cards, got {quote(value)}") from None
    return distinct(fs, [card_index(fs, t) for t in items], "the cards given")


def hand_text(fs: FeatureSet, cards) -> str:
    """A hand string of card indices, as :func:`parse_hand` reads it (``"HJ S:AK H:- …"``,
    empty suits left out)."""
    cards = sorted(int(c) for c in cards)
    parts = [fs.card_str(c) for c in reversed(cards) if c >> 4 == 0 and c & 15 >= len(fs.ranks)]
    for suit in HAND_SUITS:
        s = SUITS.index(suit)
        ranks = [fs.ranks[c & 15] for c in reversed(cards) if c >> 4 == s and c & 15 < len(fs.ranks)]
        if ranks:
            parts.append(f"{suit}:{''.join(ranks)}")
    return " ".join(parts)
