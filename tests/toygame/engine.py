"""Duel's jitted engine: deal, play, rows (docs in :mod:`.rules`)."""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.games.forced import F_PREFIX
from cardsim.rng import deal_key, randbelow, seed_streams, shuffle

from .dispatch import choose_card
from .rules import BASE_DECK, HAND_SIZE, N_CARDS, N_TRICKS, legal_plays, trick_winner

ROW_DTYPE = np.dtype([("deal", "i8"), ("dealer", "i1"), ("lead", "i1"), ("tricks_0", "i1"), ("tricks_1", "i1")])
ROW_DOC = """One row per deal: ``deal`` its number, ``dealer`` (seat 0 or 1), ``lead`` the first card
led (card index, suit * 16 + rank), ``tricks_0`` and ``tricks_1`` the tricks each seat won (0..4)."""
N_STREAMS = 3
F_LEAD = F_PREFIX
"""forced[F_LEAD]: the card the first leader must lead, -1 for none (the forced vector's common
entries come first, :mod:`cardsim.games.forced`; Duel has no calls to give)."""
F_LEN = F_LEAD + 1
NO_FORCE = np.zeros(F_LEN, dtype=np.int64)
NO_FORCE[F_LEAD] = -1
ILLEGAL_FORCE = -2
"""What run_deal returns when the forced lead is not the first leader's card."""


@jit
def deal_cards(streams, dealer, deck, hands):
    """Deal from the shuffle stream ``streams[0]``: a dealer (always drawn, kept when ``dealer``
    >= 0 is given), the shuffle, ``deck[k]`` to seat ``(dealer + 1 + k) % 2``.  Returns the dealer."""
    drawn = randbelow(streams[0], 2)
    if dealer < 0:
        dealer = drawn
    deck[:] = BASE_DECK
    shuffle(deck, streams[0])
    hands[0] = np.uint64(0)
    hands[1] = np.uint64(0)
    for k in range(N_CARDS):
        seat = (dealer + 1 + k) % 2
        hands[seat] |= np.uint64(1) << np.uint64(deck[k])
    return dealer


@jit
def play(dealer, hands, strategies, params, streams, forced_lead, plays, tricks):
    """Play the four tricks from ``hands`` (uint64[2], consumed); ``plays`` (int64[8]) gets the
    cards in order, ``tricks`` (int64[2]) the tricks won.  Returns 0, or ILLEGAL_FORCE when the
    forced lead is not a card of the first leader."""
    leader = (dealer + 1) % 2
    tricks[0] = 0
    tricks[1] = 0
    for t in range(N_TRICKS):
        if t == 0 and forced_lead >= 0:
            if hands[leader] & (np.uint64(1) << np.uint64(forced_lead)) == np.uint64(0):
                return ILLEGAL_FORCE
            lead = forced_lead
        else:
            lead = choose_card(strategies[leader], params, streams, leader, hands[leader], -1)
        follower = 1 - leader
        follow = choose_card(strategies[follower], params, streams, follower, hands[follower], lead)
        if legal_plays(hands[follower], lead // 16) & (np.uint64(1) << np.uint64(follow)) == np.uint64(0):
            raise ValueError("cardsim: a Duel strategy played an illegal card")
        hands[leader] &= ~(np.uint64(1) << np.uint64(lead))
        hands[follower] &= ~(np.uint64(1) << np.uint64(follow))
        plays[2 * t] = lead
        plays[2 * t + 1] = follow
        leader = leader if trick_winner(lead, follow) == 0 else follower
        tricks[leader] += 1
    return 0


@jit
def fill_row(rows, i, deal_id, dealer, plays, tricks):
    rows[i]["deal"] = deal_id
    rows[i]["dealer"] = dealer
    rows[i]["lead"] = plays[0]
    rows[i]["tricks_0"] = tricks[0]
    rows[i]["tricks_1"] = tricks[1]


@jit
def simulate_rows(seed, start, count, strategies, params, rows):
    """Rows of independent deals ``start .. start + count - 1`` of ``seed`` into ``rows``."""
    streams = np.zeros((N_STREAMS, 1), dtype=np.uint64)
    deck = np.zeros(N_CARDS, dtype=np.int64)
    hands = np.zeros(2, dtype=np.uint64)
    plays = np.zeros(2 * N_TRICKS, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    for i in range(count):
        seed_streams(streams, deal_key(seed, start + i))
        dealer = deal_cards(streams, -1, deck, hands)
        play(dealer, hands, strategies, params, streams, -1, plays, tricks)
        fill_row(rows, i, start + i, dealer, plays, tricks)


@jit
def deal_only(seed, start, count):
    """Dealing only (the benchmark baseline); a checksum of the hands."""
    streams = np.zeros((N_STREAMS, 1), dtype=np.uint64)
    deck = np.zeros(N_CARDS, dtype=np.int64)
    hands = np.zeros(2, dtype=np.uint64)
    check = np.uint64(0)
    for i in range(count):
        seed_streams(streams, deal_key(seed, start + i))
        deal_cards(streams, -1, deck, hands)
        check ^= hands[0]
    return check


@jit
def play_given(keys, start, dealers, hands, strategies, params, forced, rows, ok):
    """Deals played from given ``hands`` (uint64[n, 2]) and ``dealers`` (int64[n]), the seats'
    streams seeded from ``keys`` (uint64[n]); ``ok[i]`` False where the forced lead was not legal
    (the strategies then lead as they would)."""
    streams = np.zeros((N_STREAMS, 1), dtype=np.uint64)
    work = np.zeros(2, dtype=np.uint64)
    plays = np.zeros(2 * N_TRICKS, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    for i in range(keys.shape[0]):
        seed_streams(streams, keys[i])
        work[:] = hands[i, :2]
        ok[i] = play(dealers[i], work, strategies, params, streams, forced[F_LEAD], plays, tricks) == 0
        if not ok[i]:
            seed_streams(streams, keys[i])
            work[:] = hands[i, :2]
            play(dealers[i], work, strategies, params, streams, -1, plays, tricks)
        fill_row(rows, i, start + i, dealers[i], plays, tricks)


@jit
def trace(key, dealer, given, hands, strategies, params, forced_lead, deck, plays, tricks):
    """One deal with its trace: dealt from ``key`` (``given`` False; ``hands`` gets the deal and
    ``deck`` the dealing order) or from ``hands`` (``given`` True).  Returns the dealer."""
    streams = np.zeros((N_STREAMS, 1), dtype=np.uint64)
    seed_streams(streams, key)
    if not given:
        dealer = deal_cards(streams, dealer, deck, hands)
    work = hands.copy()
    if play(dealer, work, strategies, params, streams, forced_lead, plays, tricks) != 0:
        seed_streams(streams, key)
        work = hands.copy()
        play(dealer, work, strategies, params, streams, -1, plays, tricks)
    return dealer
