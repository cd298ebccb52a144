"""The jitted Five Hundred deal: dealing, auction, kitty, ten tricks, score (RULES.md §3).

:func:`run_deal` plays one deal from its key and writes a fixed-size int64 result vector
(indices ``R_*``) and, when the trace buffer is non-empty, every action (indices ``T_*``).
The same function drives independent deals (:func:`simulate_kernel`), records
(:func:`trace_kernel`) and matches (:func:`match_kernel`), so records can never disagree with
the rows.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount
from cardsim.games.g500.constants import (
    DECK,
    SCORING_QUEBEC,
    UNMAP,
)
from cardsim.games.g500.rules import (
    card_suit,
    deal_hands,
    game_winner,
    legal_moves,
    remap_hand,
    score_deal,
    trick_winner,
)
from cardsim.games.g500.dispatch import choose_bid, choose_discard, choose_play
from cardsim.rng import _SEAT_SALT, deal_key, mix64, randbelow, shuffle

U64 = np.uint64

# result vector
R_DEALER, R_DECLARER, R_BID, R_TRICKS0, R_TRICKS1, R_MADE = 0, 1, 2, 3, 4, 5
R_DELTA0, R_DELTA1, R_Q0, R_Q1, R_S0, R_S1 = 6, 7, 8, 9, 10, 11
R_WINNER, R_NCALLS, R_HAND0, R_KITTY, R_DISCARD, R_ILLEGAL = 12, 13, 14, 18, 19, 20
R_BEFORE0, R_BEFORE1 = 21, 22
R_LEN = 24
# trace vector
T_CALLS, T_PLAY, T_NAMED = 0, 32, 72
TRACE_LEN = 112

MATCH_SALT = U64(0x5A17E5A1D0C0FFEE)
"""Separates match keys from the keys of independent deals of the same seed."""


@jit
def seed_streams(states, key):
    """Fill ``states`` (uint64[5, 1]) so that ``states[i]`` equals ``rng.stream(key, i)``."""
    for i in range(5):
        states[i, 0] = mix64(U64(key) ^ (U64(i + 1) * _SEAT_SALT))


@jit
def run_deal(key, dealer, ids, params, scoring, target, before0, before1,
             deck, hands, eff, states, trick, trace, res):
    """Play one deal; ``dealer`` -1 draws it from the shuffle stream (independent deals).

    Writes ``res`` (int64[R_LEN]) and, if ``trace.shape[0] > 0``, ``trace`` (int64[TRACE_LEN]):
    calls, physical cards played, named suits of no-trump joker leads.
    """
    tracing = trace.shape[0] > 0
    seed_streams(states, key)
    if dealer < 0:
        dealer = randbelow(states[0], 4)
    for i in range(deck.shape[0]):
        deck[i] = DECK[i]
    shuffle(deck, states[0])
    kitty = deal_hands(deck, dealer, hands)
    for i in range(R_LEN):
        res[i] = 0
    res[R_DEALER] = dealer
    for s in range(4):
        res[R_HAND0 + s] = np.int64(hands[s])
    res[R_KITTY] = np.int64(kitty)
    res[R_BEFORE0] = before0
    res[R_BEFORE1] = before1
    # auction (RULES.md §3.3): passes are final
    high = -1
    high_seat = -1
    passed = 0
    n_calls = 0
    seat = (dealer + 1) % 4
    while True:
        n_active = 4 - popcount(U64(passed))
        if n_active == 0 or (n_active == 1 and high >= 0):
            break
        if passed & (1 << seat):
            seat = (seat + 1) % 4
            continue
        call = choose_bid(ids[seat], params, states, seat, hands[seat], high, high_seat)
        if call <= high or call > 24:
            if call >= 0:
                res[R_ILLEGAL] += 1
            call = -1
        if tracing:
            trace[T_CALLS + n_calls] = call
        n_calls += 1
        if call < 0:
            passed |= 1 << seat
        else:
            high = call
            high_seat = seat
        seat = (seat + 1) % 4
    res[R_NCALLS] = n_calls
    if high < 0:
        res[R_DECLARER] = -1
        res[R_BID] = -1
        res[R_MADE] = -1
        res[R_WINNER] = -1
        return
    denom = high % 5
    declarer = high_seat
    res[R_DECLARER] = declarer
    res[R_BID] = high
    for s in range(4):
        eff[s] = remap_hand(hands[s], denom)
    # kitty and discard (RULES.md §3.4)
    full = eff[declarer] | remap_hand(kitty, denom)
    disc = choose_discard(ids[declarer], params, states, declarer, full, denom)
    if popcount(disc) != 6 or (disc & ~full) != U64(0):
        res[R_ILLEGAL] += 1
        disc = U64(0)
        m = full
        for _ in range(6):
            b = lowest_bit(m)
            disc |= U64(1) << U64(b)
            m &= m - U64(1)
    eff[declarer] = full & ~disc
    pd = U64(0)
    m = disc
    while m:
        b = lowest_bit(m)
        m &= m - U64(1)
        pd |= U64(1) << U64(UNMAP[denom, b])
    res[R_DISCARD] = np.int64(pd)
    # play (RULES.md §3.5)
    contract_tricks = 6 + high // 5
    played = U64(0)
    tricks0 = 0
    tricks1 = 0
    leader = declarer
    k = 0
    for t in range(10):
        led = -1
        for i in range(4):
            seat = (leader + i) % 4
            decl_tricks = tricks0 if declarer % 2 == 0 else tricks1
            known = disc if seat == declarer else U64(0)
            code = choose_play(ids[seat], params, states, seat, eff[seat], denom, declarer, leader,
                               trick, i, led, played, known, decl_tricks, contract_tricks)
            c = code & 0xFF
            named = code >> 8
            legal = legal_moves(eff[seat], denom, led)
            if c > 63 or ((U64(1) << U64(c)) & legal) == U64(0):
                res[R_ILLEGAL] += 1
                c = lowest_bit(legal)
            if i == 0:
                led = card_suit(c, denom)
                if led < 0:
                    if named < 0 or named > 3:
                        res[R_ILLEGAL] += 1
                        named = 0
                    led = named
                    if tracing:
                        trace[T_NAMED + k] = named
                elif tracing:
                    trace[T_NAMED + k] = -1
            elif tracing:
                trace[T_NAMED + k] = -1
            if tracing:
                trace[T_PLAY + k] = UNMAP[denom, c]
            k += 1
            trick[i] = c
            eff[seat] &= ~(U64(1) << U64(c))
            played |= U64(1) << U64(c)
        w = trick_winner(trick, denom, led)
        leader = (leader + w) % 4
        if leader % 2 == 0:
            tricks0 += 1
        else:
            tricks1 += 1
    res[R_TRICKS0] = tricks0
    res[R_TRICKS1] = tricks1
    dteam = declarer % 2
    dt = tricks0 if dteam == 0 else tricks1
    made = dt >= contract_tricks
    res[R_MADE] = 1 if made else 0
    qa, qb = score_deal(high, dt, 0)
    sa, sb = score_deal(high, dt, 1)
    res[R_Q0 + dteam] = qa
    res[R_Q0 + 1 - dteam] = qb
    res[R_S0 + dteam] = sa
    res[R_S0 + 1 - dteam] = sb
    if scoring == SCORING_QUEBEC:
        res[R_DELTA0] = res[R_Q0]
        res[R_DELTA1] = res[R_Q1]
    else:
        res[R_DELTA0] = res[R_S0]
        res[R_DELTA1] = res[R_S1]
    after0 = before0 + res[R_DELTA0]
    after1 = before1 + res[R_DELTA1]
    g = game_winner(after0 if dteam == 0 else after1, after1 if dteam == 0 else after0, made, target)
    if g < 0:
        res[R_WINNER] = -1
    elif g == 0:
        res[R_WINNER] = dteam
    else:
        res[R_WINNER] = 1 - dteam


@jit
def _scratch():
    deck = np.empty(46, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    eff = np.empty(4, dtype=np.uint64)
    states = np.empty((5, 1), dtype=np.uint64)
    trick = np.empty(4, dtype=np.int64)
    return deck, hands, eff, states, trick


@jit
def simulate_kernel(seed, start, count, ids, params, scoring, target, out):
    """Independent deals ``start .. start+count-1`` of ``seed`` into ``out`` (int64[count, R_LEN])."""
    deck, hands, eff, states, trick = _scratch()
    no_trace = np.empty(0, dtype=np.int64)
    for i in range(count):
        key = deal_key(U64(seed), start + i)
        run_deal(key, -1, ids, params, scoring, target, 0, 0, deck, hands, eff, states, trick,
                 no_trace, out[i])


@jit
def trace_kernel(seed, deal_ids, ids, params, scoring, target, before0, before1, out, traces):
    """Like :func:`simulate_kernel` for chosen deal numbers, with action traces."""
    deck, hands, eff, states, trick = _scratch()
    for i in range(deal_ids.shape[0]):
        key = deal_key(U64(seed), deal_ids[i])
        run_deal(key, -1, ids, params, scoring, target, before0, before1, deck, hands, eff, states, trick,
                 traces[i], out[i])


@jit
def match_key(seed, match_id):
    """Key of match ``match_id`` of ``seed``; deal ``j`` of the match uses ``deal_key(match key, j)``."""
    return mix64(deal_key(U64(seed), match_id) ^ MATCH_SALT)


@jit
def match_kernel(seed, start, count, ids, params, scoring, target, max_deals, matches, deals,
                 deal_match, deal_index):
    """Whole matches ``start .. start+count-1`` (RULES.md §3.6), dealer rotating left.

    ``matches``: int64[count, 7] (match, winner, deals, score0, score1, thrown-in deals, first
    dealer); ``deals``: int64[capacity, R_LEN].  Stops before a match whose deals would not fit;
    returns ``(matches done, deal rows written)``.
    """
    deck, hands, eff, states, trick = _scratch()
    no_trace = np.empty(0, dtype=np.int64)
    first = np.empty(1, dtype=np.uint64)
    n_rows = 0
    cap = deals.shape[0]
    for m in range(count):
        if n_rows + max_deals > cap:
            return m, n_rows
        mk = match_key(seed, start + m)
        first[0] = mix64(mk ^ _SEAT_SALT)
        dealer = randbelow(first, 4)
        first_dealer = dealer
        s0 = 0
        s1 = 0
        thrown = 0
        winner = -1
        j = 0
        while j < max_deals:
            row = deals[n_rows]
            run_deal(deal_key(mk, j), dealer, ids, params, scoring, target, s0, s1, deck, hands,
                     eff, states, trick, no_trace, row)
            deal_match[n_rows] = start + m
            deal_index[n_rows] = j
            n_rows += 1
            j += 1
            if row[R_DECLARER] < 0:
                thrown += 1
            s0 += row[R_DELTA0]
            s1 += row[R_DELTA1]
            dealer = (dealer + 1) % 4
            if row[R_WINNER] >= 0:
                winner = row[R_WINNER]
                break
        matches[m, 0] = start + m
        matches[m, 1] = winner
        matches[m, 2] = j
        matches[m, 3] = s0
        matches[m, 4] = s1
        matches[m, 5] = thrown
        matches[m, 6] = first_dealer
    return count, n_rows


@jit
def deal_kernel(seed, start, count):
    """Dealing only (dealer, shuffle, hands and kitty): the benchmark baseline; a checksum."""
    deck, hands, eff, states, trick = _scratch()
    acc = U64(0)
    for i in range(count):
        key = deal_key(U64(seed), start + i)
        seed_streams(states, key)
        dealer = randbelow(states[0], 4)
        for j in range(46):
            deck[j] = DECK[j]
        shuffle(deck, states[0])
        kitty = deal_hands(deck, dealer, hands)
        acc ^= hands[0] + (hands[1] * U64(3)) + (kitty * U64(7)) + U64(dealer)
    return acc


def check_legal(res) -> None:
    """Raise ValueError if a strategy made an illegal move in any deal of ``res`` (int64[n, R_LEN]).

    The jitted loop replaces an illegal move by a legal one so that it can finish; a strategy
    that needs that is a bug, never a result.
    """
    bad = res[:, R_ILLEGAL] > 0
    if bad.any():
        raise ValueError(f"a strategy made {int(res[bad, R_ILLEGAL].sum())} illegal moves "
                         f"(first in the deal at index {int(bad.argmax())} of this chunk)")
