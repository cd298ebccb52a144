"""Five Hundred constants: card layout, per-trump remap tables, bid table, tokens.

Physical layout (docs/RULES.md §3.1; the layout of the deal, the auction, records and rows)
-------------------------------------------------------------------------------------
A card is ``suit * 16 + rank`` with suits ``S=0, C=1, D=2, H=3`` (:mod:`cardsim.cards`) and
ranks ``456789TJQKA`` at bits 0..10 of each suit lane (so the jack is rank 7).  The two
jokers sit on spare high bits of the spade lane: ``LJ = 14`` and ``HJ = 15``; they belong to
no suit (``PHYS_SUIT_MASK`` leaves them out).  A hand is a ``uint64`` bit set.

Effective layout (the play; one per denomination ``d``: 0..3 = trump S C D H, 4 = no-trump)
-----------------------------------------------------------------------------------------
Each hand is remapped once per deal, after the auction, with ``REMAP[d]`` so that in play
following suit, legal moves and trick winners are plain lane masks and highest-bit
comparisons (DESIGN.md property 5):

* trump ``t``: the trump lane keeps 4..A without its jack at bits 0..6 and 8..10, then the
  **left bower** (jack of the same colour, suit ``t ^ 1``) at bit 11, the **right bower** at
  bit 12, ``LJ`` at 13 and ``HJ`` at 14; the left bower's own suit simply has no bit 7.  The
  left bower is in the trump lane, so it is a trump "for every purpose" by construction.
  ``SUIT_MASK[t, s]`` is the whole lane ``s``; ``TRUMP_MASK[t]`` is the trump lane.
* no-trump: the identity; the jokers stay at bits 14 and 15 of lane 0 but are outside every
  ``SUIT_MASK[4, s]`` (they follow no suit) and form ``TRUMP_MASK[4]`` (the highest joker
  in a trick wins it, HJ over LJ since bit 15 > bit 14).

``UNMAP[d]`` is the inverse table (effective -> physical card) used to print traces.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import CardError, LANE, SUITS
from cardsim.text import quote

U64 = np.uint64
RANKS = "456789TJQKA"
"""Rank letters by rank bit (physical layout)."""
JACK = RANKS.index("J")
LJ = 14
HJ = 15
N_CARDS = 46
N_SEATS = 4
HAND_SIZE = 10
KITTY_SIZE = 6
NT = 4
from cardsim.names import DENOMINATIONS  # noqa: E402,F401
"""Denomination letters by index; the trump suits share the suit index of :mod:`cardsim.cards`."""
N_BIDS = 25
PASS = -1
MAX_CALLS = N_BIDS + N_SEATS  # every non-pass call raises the bid; each seat passes once
N_TRICKS = 10

SCORING_QUEBEC = 0
SCORING_SUBTRACT = 1
SCORINGS = ("quebec", "subtract")

LANE_11 = (1 << len(RANKS)) - 1


def left_suit(trump: int) -> int:
    """The suit of the left bower: the other suit of the trump's colour (S<->C, D<->H)."""
    return trump ^ 1


def _deck() -> np.ndarray:
    cards = [s * LANE + r for s in range(4) for r in range(len(RANKS))] + [LJ, HJ]
    return np.array(cards, dtype=np.int64)


DECK = _deck()
"""The 46 physical cards in canonical order (the deck before the shuffle), int64[46]."""
FULL_DECK = U64(sum(1 << int(c) for c in DECK))


def _tables():
    remap = np.tile(np.arange(64, dtype=np.int64), (5, 1))
    for t in range(4):
        lt = left_suit(t)
        remap[t, t * LANE + JACK] = t * LANE + 12
        remap[t, lt * LANE + JACK] = t * LANE + 11
        remap[t, LJ] = t * LANE + 13
        remap[t, HJ] = t * LANE + 14
    unmap = np.full((5, 64), -1, dtype=np.int64)
    special = np.zeros(5, dtype=np.uint64)
    for d in range(5):
        for c in DECK:
            unmap[d, remap[d, c]] = c
            if remap[d, c] != c:
                special[d] |= U64(1) << U64(int(c))
    suit_mask = np.zeros((5, 4), dtype=np.uint64)
    trump_mask = np.zeros(5, dtype=np.uint64)
    for t in range(4):
        for s in range(4):
            suit_mask[t, s] = U64(0xFFFF) << U64(16 * s)
        trump_mask[t] = suit_mask[t, t]
    for s in range(4):
        suit_mask[NT, s] = U64(LANE_11) << U64(16 * s)
    trump_mask[NT] = (U64(1) << U64(LJ)) | (U64(1) << U64(HJ))
    full_eff = np.zeros(5, dtype=np.uint64)
    for d in range(5):
        for c in DECK:
            full_eff[d] |= U64(1) << U64(int(remap[d, c]))
    return remap, unmap, special, suit_mask, trump_mask, full_eff


REMAP, UNMAP, SPECIAL, SUIT_MASK, TRUMP_MASK, FULL_EFF = _tables()
"""``REMAP[d, phys]`` -> effective card; ``UNMAP[d, eff]`` -> physical card (-1: none);
``SPECIAL[d]``: physical bits that move under ``d`` (jacks of the colour, jokers);
``SUIT_MASK[d, s]``, ``TRUMP_MASK[d]``: effective masks (uint64); ``FULL_EFF[d]``: the whole
deck in the effective layout of ``d``."""

PHYS_SUIT_MASK = np.array([U64(LANE_11) << U64(16 * s) for s in range(4)], dtype=np.uint64)
JOKER_MASK = U64((1 << LJ) | (1 << HJ))


# ---------------------------------------------------------------- bid table (docs/RULES.md §3.3)
def bid_id(tricks: int, denom: int) -> int:
    """Bid number 0..24 of ``tricks`` (6..10) in denomination ``denom`` (0..4); ordered by value."""
    return (tricks - 6) * 5 + denom


def bid_tricks(bid: int) -> int:
    return 6 + bid // 5


def bid_denom(bid: int) -> int:
    return bid % 5


def bid_value(bid: int) -> int:
    """Points of a bid from the (Avondale) bid table: 6♠ = 40 … 10NT = 520 (docs/RULES.md §3.3)."""
    return 40 + 100 * (bid // 5) + 20 * (bid % 5)


BID_VALUES = np.array([bid_value(b) for b in range(N_BIDS)], dtype=np.int64)


def bid_str(bid: int) -> str:
    """Call token: ``"P"`` for a pass, else tricks + denomination (``"8H"``, ``"10NT"``)."""
    if bid < 0:
        return "P"
    return f"{bid_tricks(bid)}{DENOMINATIONS[bid_denom(bid)]}"


def parse_call(token) -> int:
    """Bid number (0..24) of a call token, ``PASS`` (-1) for ``P``.

    The one Five Hundred call parser (records, replay, forcing, show and the double-dummy rows
    read calls through it): the exact grammar of docs/RECORDS.md, Calls (``P``, or ``6``..``10``
    then ``S C D H NT``; either case, ASCII only, nothing else).  Raises CardError for anything
    else.
    """
    if not isinstance(token, str):
        raise CardError(f"call must be a string, got {quote(token)}")
    # ASCII first: str.upper() maps some other letters onto ASCII ones ('ſ' -> 'S').
    t = token.upper() if token.isascii() else ""
    if t == "P":
        return PASS
    for d, name in enumerate(DENOMINATIONS):
        if t.endswith(name) and t[: -len(name)] in ("6", "7", "8", "9", "10"):
            return bid_id(int(t[: -len(name)]), d)
    raise CardError(f"unknown call {quote(token)}")


# ---------------------------------------------------------------- card tokens
def card_str(card: int) -> str:
    """Token of a physical card: ``AS``, ``TD``, ``LJ``, ``HJ``."""
    if card == LJ:
        return "LJ"
    if card == HJ:
        return "HJ"
    return RANKS[card & 15] + SUITS[card >> 4]


def parse_card(token) -> int:
    """Physical card of a token (case-insensitive, ``10`` accepted); raises CardError."""
    if not isinstance(token, str):
        raise CardError(f"card must be a string, got {quote(token)}")
    t = token.strip().upper()
    if t == "LJ":
        return LJ
    if t == "HJ":
        return HJ
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"unknown card {quote(token)}")
    return SUITS.index(t[1]) * LANE + RANKS.index(t[0])


def hand_str(hand: int) -> str:
    """A physical hand for people: jokers, then H D C S with high cards first."""
    hand = int(hand)
    parts = []
    jok = [n for c, n in ((HJ, "HJ"), (LJ, "LJ")) if hand >> c & 1]
    if jok:
        parts.append(" ".join(jok))
    for s in (3, 2, 1, 0):
        rs = "".join(RANKS[r] for r in range(len(RANKS) - 1, -1, -1) if hand >> (16 * s + r) & 1)
        parts.append(SUITS[s] + " " + (rs or "-"))
    return "  ".join(parts)
