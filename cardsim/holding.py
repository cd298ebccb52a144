"""Hand features that are not sums of card weights: how bidding systems judge a suit holding
(stoppers, quick tricks, losing tricks) and a hand's shape (balanced, longest suit, pattern).

A hand feature is a list of terms ``(mask, shift, weight)`` (:class:`cardsim.deal.FeatureSet`).
A ``shift`` below 64 is a bit shift (the term counts ``popcount(h & (h >> shift) & mask)``); a
``shift`` of :data:`KIND_FIRST` or more names one of the *kinds* below instead, and the term is
``weight * holding_value(h, mask, kind)``.  Every kind is computed here, in jitted code, from the
hand's bit set, so the dealer (:func:`cardsim.deal.term_sum`), the games' ``hand_features`` and
the Python side (:func:`term_value`) evaluate one definition.

Suit kinds read one suit: ``mask`` is the suit's cards, contiguous ranks with the ace at its
highest bit, then king, queen and jack below it (Vint, Five Hundred's physical suits;
docs/RULES.md §2.1, §3.1).  Shape kinds read four suits: ``mask`` is the cards of all four,
suit ``s`` in bits ``16 s .. 16 s + 15`` (the layout of :mod:`cardsim.cards`).  Shapes are
written longest first: 4-4-3-2 is any hand with two four-card suits, a three and a two.

* ``STOPPER``: 1 when the suit is stopped: A, K with another card (Kx), Q with two others
  (Qxx), J with three others (Jxxx); else 0;
* ``QUICK_TRICKS``: quick tricks in HALF tricks: AK 4, AQ 3, A 2, KQ 2, Kx 1 (K with another
  card), otherwise 0 (a bare K is 0);
* ``LOSERS``: the losing-trick count (standard LTC): of the suit's first min(length, 3) places,
  one loser for each of A, K, Q (in that order) not held: void 0; singleton A 0, other 1;
  doubleton AK 0, Ax / Kx / AQ / KQ 1, Qx / xx 2; three or more cards 3 − (A, K, Q held);
* ``BALANCED``: 1 for the shapes 4-3-3-3, 4-4-3-2, 5-3-3-2; ``SEMI_BALANCED``: 1 for those and
  5-4-2-2, 6-3-2-2;
* ``LONGEST`` / ``SHORTEST``: the length of the longest / shortest suit;
* ``SHAPE``: the shape as a number, its lengths longest first as digits: 4-4-3-2 is 4432,
  7-3-2-1 is 7321, 10-1-1-1 is 10111.

These are the definitions of docs/conditions.md ("Features of bidding systems"); the report
page's script repeats them (analyses/static/report.js, checked against these by a test).
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import popcount

U64 = np.uint64

KIND_FIRST = 64
"""The first ``shift`` value that names a kind (a bit shift of a uint64 is below 64)."""
STOPPER, QUICK_TRICKS, LOSERS, BALANCED, SEMI_BALANCED, LONGEST, SHORTEST, SHAPE = range(64, 72)
SUIT_KINDS = (STOPPER, QUICK_TRICKS, LOSERS)
SHAPE_KINDS = (BALANCED, SEMI_BALANCED, LONGEST, SHORTEST, SHAPE)
KIND_NAMES = {STOPPER: "stopper", QUICK_TRICKS: "quick tricks (halves)", LOSERS: "losers", BALANCED: "balanced",
              SEMI_BALANCED: "semi-balanced", LONGEST: "longest suit", SHORTEST: "shortest suit",
              SHAPE: "shape"}


def kind_range(kind: int, mask: int) -> tuple[int, int]:
    """Least and most value of one term of ``kind`` on any hand (``mask`` as in the module
    docstring); a suit of more than 13 cards has at most 16 in its lane."""
    if kind in (STOPPER, BALANCED, SEMI_BALANCED):
        return 0, 1
    if kind == QUICK_TRICKS:
        return 0, 4
    if kind == LOSERS:
        return 0, 3
    most = max(bin((int(mask) >> (16 * s)) & 0xFFFF).count("1") for s in range(4))
    if kind in (LONGEST, SHORTEST):
        return 0, most
    if kind == SHAPE:
        return 0, most * 1000 + most * 111
    raise ValueError(f"unknown feature kind {kind}")


@jit(inline="always")
def _suit_value(x, n, ace, kind):
    """``kind`` of a suit holding ``x`` (its cards' bits, ``n`` of them) whose ace is bit ``ace``."""
    a = (x & ace) != 0
    k = (x & (ace >> U64(1))) != 0
    q = (x & (ace >> U64(2))) != 0
    j = (x & (ace >> U64(3))) != 0
    if kind == STOPPER:
        return 1 if a or (k and n >= 2) or (q and n >= 3) or (j and n >= 4) else 0
    if kind == QUICK_TRICKS:
        if a:
            return 4 if k else (3 if q else 2)
        if k:
            return 2 if q else (1 if n >= 2 else 0)
        return 0
    # LOSERS: the first min(n, 3) places are lost unless held by A, K, Q in turn
    losers = 0
    if n >= 1 and not a:
        losers += 1
    if n >= 2 and not k:
        losers += 1
    if n >= 3 and not q:
        losers += 1
    return losers


@jit(inline="always")
def _shape_value(h, mask, kind):
    """``kind`` of the four suit lengths of ``h & mask`` (suit ``s`` in bits 16 s ..)."""
    x = U64(h) & U64(mask)
    a = popcount(x & U64(0xFFFF))
    b = popcount((x >> U64(16)) & U64(0xFFFF))
    c = popcount((x >> U64(32)) & U64(0xFFFF))
    d = popcount((x >> U64(48)) & U64(0xFFFF))
    # sort a >= b >= c >= d (a five-exchange network)
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    if kind == LONGEST:
        return a
    if kind == SHORTEST:
        return d
    if kind == SHAPE:
        return a * 1000 + b * 100 + c * 10 + d
    balanced = ((a == 4 and b == 3 and c == 3 and d == 3) or (a == 4 and b == 4 and c == 3 and d == 2)
                or (a == 5 and b == 3 and c == 3 and d == 2))
    if kind == BALANCED:
        return 1 if balanced else 0
    # SEMI_BALANCED: also 5-4-2-2 and 6-3-2-2
    semi = balanced or (a == 5 and b == 4 and c == 2 and d == 2) or (a == 6 and b == 3 and c == 2 and d == 2)
    return 1 if semi else 0


@jit(inline="always")
def holding_value(h, mask, kind):
    """Value of one term of ``kind`` (one of this module's constants) on the hand ``h`` (uint64):
    a suit kind reads ``h & mask`` (one suit), a shape kind the four suits of ``mask``."""
    if kind >= BALANCED:
        return _shape_value(h, mask, kind)
    m = U64(mask)
    x = U64(h) & m
    return _suit_value(x, popcount(x), m & ~(m >> U64(1)), kind)


@jit
def term_value(hand, mask, shift, weight):
    """One term ``(mask, shift, weight)`` of a feature on ``hand`` (all uint64 but ``weight``
    int64), as :func:`cardsim.deal.term_sum` evaluates it: the Python side's entry."""
    h = U64(hand)
    if shift >= U64(KIND_FIRST):
        return weight * holding_value(h, U64(mask), np.int64(shift))
    return weight * popcount(h & (h >> U64(shift)) & U64(mask))
