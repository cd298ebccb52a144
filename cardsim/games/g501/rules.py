"""501 rules as pure jitted functions on bit sets (docs/RULES.md §1).

Hands are ``uint64`` bit sets (:mod:`cardsim.cards`); trump is a suit index 0..3, or
``NT`` (4) for no-trump.  Nothing here draws randomness or knows about strategies.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import highest_bit, popcount
from cardsim.games.g501.constants import (
    LANE_POINTS, MAX_BID, MIN_BID, NT, RK, RQ, TALON_SIZE, HAND_SIZE,
)

U64 = np.uint64
_LANE6 = U64(63)


@jit(inline="always")
def active_seat(pos, dealer, seats):
    """The ``pos``-th active seat (0..2) from the dealer's left: the speaking order of the auction
    and the first lead (docs/RULES.md §1.2, §1.3); with 4 seats the dealer sits out."""
    s = dealer + 1 + pos
    # dealer < seats and pos <= 2 keep s below 2 * seats: one subtraction instead of a division
    return s - seats if s >= seats else s


@jit(inline="always")
def next_active(seat, dealer, seats):
    """The next active seat clockwise after ``seat`` (the dealer sits out with 4 seats, docs/RULES.md §1.1)."""
    s = seat + 1 if seat + 1 < seats else 0
    if seats == 4 and s == dealer:
        s = s + 1 if s + 1 < seats else 0
    return s


@jit
def deal_hands(deck, dealer, seats, hands):
    """Deal a shuffled 24-card ``deck`` (int64[24], ``deck[0]`` = top) as docs/RULES.md §1.2 settles.

    Seven rounds of one card to each active seat from the dealer's left; in rounds 1-3 one
    card to the talon after the players.  Writes ``hands`` (uint64[4], the dealer's stays 0
    with 4 seats) and returns the talon bit set (uint64).
    """
    for s in range(4):
        hands[s] = U64(0)
    talon = U64(0)
    k = 0
    for rnd in range(HAND_SIZE):
        for i in range(3):
            seat = (dealer + 1 + i) % seats
            hands[seat] |= U64(1) << U64(deck[k])
            k += 1
        if rnd < TALON_SIZE:
            talon |= U64(1) << U64(deck[k])
            k += 1
    return talon


@jit
def hand_points(hand):
    """Card points (A 11, 10 10, K 4, Q 3, J 2, 9 0) in a bit set (int64), docs/RULES.md §1.1."""
    h = U64(hand)
    return (LANE_POINTS[np.int64(h & _LANE6)] + LANE_POINTS[np.int64((h >> U64(16)) & _LANE6)]
            + LANE_POINTS[np.int64((h >> U64(32)) & _LANE6)] + LANE_POINTS[np.int64((h >> U64(48)) & _LANE6)])


@jit
def marriage_suits(hand):
    """Bit mask (bit s = suit s) of the suits where ``hand`` holds both K and Q (docs/RULES.md §1.6)."""
    # bit 16 s of k: the suit's K and Q both held; then the four suit bits gathered into bits 0-3
    h = U64(hand)
    k = (h >> U64(RK)) & (h >> U64(RQ)) & U64(0x0001000100010001)
    return np.int64((k | (k >> U64(15)) | (k >> U64(30)) | (k >> U64(45))) & U64(15))


@jit
def can_declare(hand, card):
    """Whether a lead of ``card`` from ``hand`` (uint64) may declare a marriage: a K or Q whose
    partner is still in the hand (docs/RULES.md §1.6; the caller checks that it is a lead)."""
    r = card & 15
    return (r == RK or r == RQ) and (marriage_suits(hand) >> (card >> 4)) & 1 == 1


@jit
def marriage_value(suit, trump):
    """40 for the trump suit, 20 otherwise; 20 for every suit in no-trump (docs/RULES.md §1.6)."""
    return 40 if suit == trump else 20


@jit
def legal_plays(hand, led_suit, trump):
    """Legal cards (bit set) for ``hand`` on a trick whose led suit is ``led_suit`` (-1 when leading).

    Follow suit; else trump if the contract has a trump suit and one is held (even a losing
    one); else anything.  No obligation to beat or over-trump (docs/RULES.md §1.5).
    """
    h = U64(hand)
    if led_suit < 0:
        return h
    follow = h & (U64(0xFFFF) << U64(16 * led_suit))
    if follow != U64(0):
        return follow
    if trump != NT:
        ruff = h & (U64(0xFFFF) << U64(16 * trump))
        if ruff != U64(0):
            return ruff
    return h


@jit
def beats(card, best, trump):
    """Whether ``card`` beats the trick's current best card ``best`` (the led suit is best's unless trumped)."""
    cs = card >> 4
    bs = best >> 4
    if cs == bs:
        return card > best
    return cs == trump


@jit(inline="always")
def trick_winner(trick, led_suit, trump):
    """The card winning so far among the cards ``trick`` (uint64 bit set, not empty) played to a
    trick led in ``led_suit``: the highest trump if any, else the highest card of the led suit
    (docs/RULES.md §1.5)."""
    if trump != NT:
        trumps = U64(trick) & (U64(0xFFFF) << U64(16 * trump))
        if trumps != U64(0):
            return highest_bit(trumps)
    return highest_bit(U64(trick) & (U64(0xFFFF) << U64(16 * led_suit)))


@jit
def declarer_delta(points, target, blind):
    """Declarer's score change: −target if ``points >= target`` else +target, ×2 if blind (docs/RULES.md §1.7)."""
    d = -target if points >= target else target
    return 2 * d if blind else d


@jit
def valid_bid(bid, current):
    """A bid is an integer ≥ 66, > the current bid and ≤ 220 (docs/RULES.md §1.3)."""
    return bid >= MIN_BID and bid > current and bid <= MAX_BID


@jit
def valid_target(target, bid):
    """A target is a whole number not below the winning bid and ≤ 220 (docs/RULES.md §1.4)."""
    return target >= bid and target <= MAX_BID


@jit
def count_rank(hand, rank):
    """How many cards of trick rank ``rank`` (0 = 9 … 5 = A) ``hand`` holds."""
    return popcount(U64(hand) & (U64(0x0001000100010001) << U64(rank)))

