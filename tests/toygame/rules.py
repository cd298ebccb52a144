"""Duel's rules as pure jitted functions (the toy game of tests/test_toy_game.py).

Duel: two seats, eight cards (spades and hearts, ranks J Q K A), four cards each.  The seat on
the dealer's left leads the first trick; a seat follows suit when it can; the highest card of
the suit led wins the trick, and its winner leads the next.  Each seat scores one point per
trick (0..4).  Cards use cardsim's layout (:mod:`cardsim.cards`): ``suit * 16 + rank``, spades
suit 0, hearts suit 3, ranks J Q K A at bits 0..3.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit

RANKS = "JQKA"
SUIT_INDICES = (0, 3)
"""Duel's two suits by cardsim suit index: spades and hearts."""
N_CARDS = 8
HAND_SIZE = 4
N_TRICKS = 4
BASE_DECK = np.array([s * 16 + r for s in SUIT_INDICES for r in range(len(RANKS))], dtype=np.int64)
LANE_MASK = np.uint64(0xFFFF)


@jit(inline="always")
def legal_plays(hand, led_suit):
    """The cards of ``hand`` (uint64) that may be played to a trick led in ``led_suit`` (-1: the
    seat leads): the cards of that suit if it holds any, else the whole hand."""
    if led_suit < 0:
        return hand
    suit = hand & (LANE_MASK << np.uint64(16 * led_suit))
    return suit if suit != np.uint64(0) else hand


@jit(inline="always")
def trick_winner(lead, follow):
    """0 when the card ``lead`` wins the trick against ``follow``, 1 when ``follow`` wins:
    ``follow`` wins only in the suit led and higher."""
    if follow // 16 == lead // 16 and follow > lead:
        return 1
    return 0
