"""Cards as bits: layout, bit helpers, parsing and printing.

Layout (DESIGN.md property 5): a card is the integer ``suit * 16 + rank``; a hand is a
``uint64`` bit set with one 16-bit lane per suit.  Suits are indexed ``S=0, C=1, D=2, H=3``
(so Vint's denomination index equals its suit index, docs/RULES.md §2.2).  Rank indices are
game-specific and run from the lowest trick rank (bit 0) upwards, so that the most
significant bit of a lane is always the highest card of that suit in its game:

* Vint: ``23456789TJQKA`` (docs/RULES.md §2.1),
* 501: ``9JQKTA`` (trick order A > 10 > K > Q > J > 9, docs/RULES.md §1.1),
* Five Hundred: its own module defines the joker bits and per-trump remaps (docs/RULES.md §3.1).

Jitted helpers take and return ``np.uint64`` (hands) or ``np.int64`` (card and bit indices).
"""
from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from cardsim._jit import jit
from cardsim.text import quote

from cardsim.names import DENOMINATIONS, SUITS  # noqa: F401 - cards.SUITS is the usual spelling
LANE = 16
N_SUITS = 4
U64 = np.uint64
LANE_MASK = U64(0xFFFF)

SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
"""Suit symbols (filled and outline) and the letters they stand for in what users type."""
# Emoji keyboards follow a symbol with a variation selector (U+FE0F, U+FE0E): it is dropped.
_SYMBOL_TABLE = str.maketrans({**SUIT_SYMBOLS, "\ufe0f": None, "\ufe0e": None})

VINT_RANKS = "23456789TJQKA"
RANKS_501 = "9JQKTA"


class CardError(ValueError):
    """A card token that does not name a card of the game."""


# ---------------------------------------------------------------- bit helpers (jitted)
@jit
def popcount(x):
    """Number of set bits of a uint64 (SWAR; LLVM lowers it to ``popcnt``)."""
    x = U64(x)
    x = x - ((x >> U64(1)) & U64(0x5555555555555555))
    x = (x & U64(0x3333333333333333)) + ((x >> U64(2)) & U64(0x3333333333333333))
    x = (x + (x >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * U64(0x0101010101010101)) >> U64(56))


@jit
def lowest_bit(x):
    """Index of the least significant set bit of a non-zero uint64 (int64)."""
    return np.int64(trailing_zeros(U64(x)))


@jit
def highest_bit(x):
    """Index of the most significant set bit of a non-zero uint64 (int64)."""
    return np.int64(63 - leading_zeros(U64(x)))


@jit
def bit(card):
    """The one-card bit set of card index ``card``."""
    return U64(1) << U64(card)


@jit
def suit_mask(suit):
    """All 16 bits of a suit's lane."""
    return LANE_MASK << U64(16 * suit)


@jit
def suit_of(card):
    return np.int64(card) >> 4


@jit
def rank_of(card):
    return np.int64(card) & 15


@jit
def lane(hand, suit):
    """The 16-bit lane of ``suit`` in ``hand``, shifted down to bits 0..15 (uint64)."""
    return (U64(hand) >> U64(16 * suit)) & LANE_MASK


# ---------------------------------------------------------------- parsing and printing
def suit_letters(text):
    """``text`` with every suit symbol (:data:`SUIT_SYMBOLS`: ``♠♥♦♣`` and ``♤♡♢♧``) replaced by
    its letter ``S H D C`` (``"A♠ 1♥ =7♦"`` -> ``"AS 1H =7D"``); anything that is not a string
    is returned as it is.

    The one place where what a user types (hands, classes, card tokens, calls and options of
    ``cardsim evaluate``) learns the symbols: every such parser calls it first, and quotes the
    text as written in its errors.  Records (docs/RECORDS.md) keep their exact letter grammar:
    :func:`parse_card` does not call it."""
    return text.translate(_SYMBOL_TABLE) if isinstance(text, str) else text


def full_deck(ranks: str) -> np.ndarray:
    """Card indices of a deck with the given ranks in every suit, shape (4*len(ranks),), int64."""
    return np.array([s * LANE + r for s in range(N_SUITS) for r in range(len(ranks))], dtype=np.int64)


def parse_card(token: str, ranks: str) -> int:
    """Card index of a token such as ``AS``, ``TD``, ``10d`` (docs/RECORDS.md, Cards).

    The grammar is exact: one rank letter of ``ranks`` (or ``10`` for ``T``) then one suit
    letter of ``S H D C``, either case, nothing else (no blanks, no other characters).
    Raises :class:`CardError` for anything that is not a card of a game with ``ranks``.
    """
    if not isinstance(token, str):
        raise CardError(f"card must be a string, got {quote(token)}")
    # ASCII first: str.upper() maps some other letters onto ASCII ones ('ſ' -> 'S').
    t = token.upper() if token.isascii() else ""
    if t.startswith("10") and "T" in ranks:
        t = "T" + t[2:]
    if len(t) != 2 or ranks.find(t[0]) < 0 or SUITS.find(t[1]) < 0:
        raise CardError(f"unknown card {quote(token)}")
    return SUITS.index(t[1]) * LANE + ranks.index(t[0])


def card_str(card: int, ranks: str) -> str:
    """Token of card index ``card``: rank then suit, upper case (``"TD"``)."""
    return ranks[card & 15] + SUITS[card >> 4]


def cards_of(hand: int) -> list[int]:
    """Card indices in a bit set, ascending."""
    hand = int(hand)
    out = []
    while hand:
        low = hand & -hand
        out.append(low.bit_length() - 1)
        hand ^= low
    return out


def hand_of(cards) -> int:
    """Bit set (Python int) of an iterable of card indices."""
    h = 0
    for c in cards:
        h |= 1 << int(c)
    return h


def hand_str(hand: int, ranks: str) -> str:
    """A hand for people: suits high to low in index order reversed (H D C S), high cards first."""
    parts = []
    for s in reversed(range(N_SUITS)):
        rs = [ranks[c & 15] for c in cards_of(hand) if c >> 4 == s]
        parts.append(SUITS[s] + " " + ("".join(reversed(rs)) or "-"))
    return "  ".join(parts)


# ---------------------------------------------------------------- lane helpers (jitted)
@jit(inline="always")
def bits_above(card):
    """The bits of ``card``'s lane above ``card`` (uint64): in every game's layout, the cards
    of its suit that outrank it."""
    return suit_mask(np.int64(card) >> 4) & ~((U64(2) << U64(card)) - U64(1))
