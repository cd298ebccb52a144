"""Five Hundred rules as pure jitted functions (docs/RULES.md §3.2-§3.6).

Play works in the effective layout of the contract's denomination (see
:mod:`cardsim.games.g500.constants`): a trick is a set of effective cards, following suit is
a lane mask and the winner is a highest bit.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit
from cardsim.games.g500.constants import (
    BID_VALUES,
    NT,
    REMAP,
    SCORING_QUEBEC,
    SPECIAL,
    SUIT_MASK,
    TRUMP_MASK,
)

U64 = np.uint64


@jit
def deal_hands(deck, dealer, hands):
    """Deal a shuffled 46-card deck (docs/RULES.md §3.2) into ``hands`` (uint64[4], physical).

    From the dealer's left: 3 to each then 3 to the kitty, 4 to each, 3 to each then 3 to
    the kitty.  Returns the kitty (uint64).
    """
    for s in range(4):
        hands[s] = U64(0)
    kitty = U64(0)
    pos = 0
    for rnd in range(3):
        n = 4 if rnd == 1 else 3
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            for _ in range(n):
                hands[seat] |= U64(1) << U64(deck[pos])
                pos += 1
        if rnd != 1:
            for _ in range(3):
                kitty |= U64(1) << U64(deck[pos])
                pos += 1
    return kitty


@jit
def remap_hand(hand, denom):
    """A physical hand in the effective layout of ``denom`` (0..3 trump suit, 4 no-trump)."""
    h = U64(hand)
    special = h & SPECIAL[denom]
    out = h & ~SPECIAL[denom]
    while special:
        c = lowest_bit(special)
        special &= special - U64(1)
        out |= U64(1) << U64(REMAP[denom, c])
    return out


@jit
def legal_plays(hand, denom, led_suit):
    """Legal effective cards (uint64) of ``hand``; ``led_suit`` -1 when leading (docs/RULES.md §3.5).

    Follow the led (or, for a led no-trump joker, named) suit if possible, else anything.
    No-trump jokers are outside every suit mask, so they are only legal when void or leading.
    """
    if led_suit < 0:
        return hand
    f = hand & SUIT_MASK[denom, led_suit]
    if f:
        return f
    return hand


@jit
def card_suit(card, denom):
    """Effective suit (lane) of an effective card; -1 for a no-trump joker (its leader names one)."""
    if denom == NT and (U64(1) << U64(card)) & TRUMP_MASK[NT]:
        return -1
    return card >> 4


@jit
def trick_winner(cards, denom, led_suit):
    """Index 0..3 (in play order) of the winning card of a four-card trick (docs/RULES.md §3.5).

    ``cards``: the effective cards in play order.  Highest joker / trump (one lane, bit order is
    rank order), else the highest card of the led or named suit.
    """
    t = U64(0)
    for i in range(4):
        t |= U64(1) << U64(cards[i])
    m = t & TRUMP_MASK[denom]
    if m == 0:
        m = t & SUIT_MASK[denom, led_suit]
    w = highest_bit(m)
    for i in range(4):
        if cards[i] == w:
            return i
    return -1


@jit
def contract_level(bid):
    """Tricks a bid number (0..24) contracts for: 6..10 (docs/RULES.md §3.3)."""
    return 6 + bid // 5


@jit
def contract_made(bid, declarer_tricks):
    """Whether the declarer's side, with ``declarer_tricks`` tricks, made ``bid`` (docs/RULES.md §3.6)."""
    return declarer_tricks >= contract_level(bid)


@jit
def score_deal(bid, declarer_tricks, scoring):
    """Deltas ``(declarer side, defenders)`` of a played contract (docs/RULES.md §3.6).

    quebec: made -> declarer side +value, failed -> defenders +value.
    subtract: declarer side +value or -value; defenders +10 per trick they took.
    """
    value = BID_VALUES[bid]
    made = contract_made(bid, declarer_tricks)
    if scoring == SCORING_QUEBEC:
        if made:
            return value, 0
        return 0, value
    d = value if made else -value
    return d, 10 * (10 - declarer_tricks)


@jit
def game_winner(score_decl, score_def, made, target):
    """Winner after a deal, as 0 = declarer's side, 1 = defenders, -1 = nobody yet (docs/RULES.md §3.6).

    A side at or above the target wins; if both are, the declarer's side wins if it made its
    contract, else the defenders.
    """
    a = score_decl >= target
    b = score_def >= target
    if a and b:
        return 0 if made else 1
    if a:
        return 0
    if b:
        return 1
    return -1
