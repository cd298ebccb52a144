"""A seat's own random order of the four suits, so that no strategy favours a suit by its label.

The rules treat the suits alike wherever they name no suit (docs/RULES.md §1: 501's marriages are
worth by trump or not; the denomination ranks of Vint and Five Hundred matter in their auctions
only), yet a strategy written on bit sets breaks its ties by the suit's index (the lowest card of
equal value, the first suit of equal estimate).  A hand symmetric between two suits then plays
better in one of them.  A strategy that sees its view through a uniformly random relabelling of
the suits and maps its decision back is equivariant under any permutation of the suits: its ties
fall to each suit equally often, and its decisions on non-tied choices are unchanged.

An *order* is a permutation of the suits drawn from a seat's stream word (:func:`order_of`), packed
in an int64: bits ``2s..2s+1`` the label suit ``s`` takes, bits ``8 + 2t..`` the suit that label
``t`` stands for (the inverse).  Cards use the layout of :mod:`cardsim.cards` (``suit * 16 +
rank``, one 16-bit lane per suit); a suit index above 3 (no-trump) is left as it is.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.rng import mix64

U64 = np.uint64
_ORDER_SALT = U64(0x5851F42D4C957F2D)
_LANE_BITS = U64(0xFFFF)

IDENTITY = np.int64(0b11100100 | (0b11100100 << 8))
"""The order that keeps every suit's label (suit s is label s)."""


def _all_orders() -> np.ndarray:
    """The 24 orders (int64[24], packed as the module says), by a Lehmer code: order ``k`` gives
    suit 0 the label ``k % 4``, suit 1 the ``(k // 4) % 3``-th label left, suit 2 the
    ``(k // 12) % 2``-th left, suit 3 the last."""
    out = []
    for k in range(24):
        free, fwd, inv, rest = [0, 1, 2, 3], 0, 0, k
        for s in range(4):
            t = free.pop(rest % (4 - s))
            rest //= 4 - s
            fwd |= t << (2 * s)
            inv |= s << (8 + 2 * t)
        out.append(fwd | inv)
    return np.array(out, dtype=np.int64)


ORDERS = _all_orders()
"""Every suit order, packed (int64[24])."""


@jit(inline="always")
def order_of(word):
    """The suit order (int64, packed as the module says) of a stream word (uint64): one of the 24
    permutations (:data:`ORDERS`), each equally likely over random words.  Reads the word,
    advances nothing."""
    z = mix64(U64(word) ^ _ORDER_SALT)
    return ORDERS[np.int64(((z >> U64(32)) * U64(24)) >> U64(32))]  # uniform 0..23: the top 32 bits, scaled


@jit(inline="always")
def to_label(suit, order):
    """The label of ``suit`` (0..3; a larger index, no-trump, unchanged)."""
    if suit < 0 or suit > 3:
        return suit
    return (order >> (2 * suit)) & 3


@jit(inline="always")
def from_label(label, order):
    """The suit that ``label`` stands for (0..3; a larger index unchanged)."""
    if label < 0 or label > 3:
        return label
    return (order >> (8 + 2 * label)) & 3


@jit(inline="always")
def card_to_label(card, order):
    """``card`` (suit * 16 + rank, -1 none) with its suit relabelled."""
    if card < 0:
        return card
    return 16 * to_label(card >> 4, order) + (card & 15)


@jit(inline="always")
def card_from_label(card, order):
    """The card that relabelled ``card`` stands for (-1 none)."""
    if card < 0:
        return card
    return 16 * from_label(card >> 4, order) + (card & 15)


@jit(inline="always")
def cards_to_label(cards, order):
    """A bit set (uint64, four 16-bit lanes) with each suit's lane moved to its label's."""
    h = U64(cards)
    out = U64(0)
    for s in range(4):
        out |= ((h >> U64(16 * s)) & _LANE_BITS) << U64(16 * ((order >> (2 * s)) & 3))
    return out


@jit(inline="always")
def cards_from_label(cards, order):
    """The inverse of :func:`cards_to_label`."""
    h = U64(cards)
    out = U64(0)
    for t in range(4):
        out |= ((h >> U64(16 * t)) & _LANE_BITS) << U64(16 * ((order >> (8 + 2 * t)) & 3))
    return out
