"""Double-dummy solver for Five Hundred (docs/RULES.md §3.5): the declaring side's maximum tricks.

The position is the one play starts from (docs/RULES.md §3.4): the four ten-card hands after the
declarer has taken the kitty and discarded, the declarer on lead, the contract's denomination
fixed.  All hands are open; the declaring side maximises its tricks, the other side minimises
them.  The search works in the effective layout of the denomination
(:mod:`cardsim.games.g500.constants`) and plays by the engine's own rules functions
(:func:`~cardsim.games.g500.rules.legal_moves`, :func:`~cardsim.games.g500.rules.trick_winner`,
:func:`~cardsim.games.g500.rules.card_suit`), so bowers, jokers and following suit are the
engine's.  A no-trump joker led names a suit (docs/RULES.md §3.5): each of the four names is a move.

Search: alpha-beta on team 0's tricks (seats 0+2), a transposition table at trick starts keyed
on the four hands, the leader and the denomination (so a table may be kept across deals: a
stored bound only depends on the position), equivalent cards merged (two cards of one hand that
are adjacent in the order of the cards still out, in one suit, are interchangeable), and
moves ordered cheap-winner first.
"""
from __future__ import annotations

import numpy as np
from numba import types

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit, popcount
from cardsim.games.g500.constants import NT, SUIT_MASK, TRUMP_MASK
from cardsim.games.g500.rules import card_suit, legal_moves, remap_hand, trick_winner

U64 = np.uint64
TT_BITS = 22
"""The transposition table holds 2**TT_BITS entries (about 190 MB; 2**20 took twice the nodes)."""
MAX_MOVES = 40
"""Columns of the move scratch: one node's moves (ten cards, plus three more names for each
no-trump joker led), and row 41 the best move found at each depth."""
_MIX = (U64(0x9E3779B97F4A7C15), U64(0xC2B2AE3D27D4EB4F), U64(0x165667B19E3779F9), U64(0x27D4EB2F165667C5))


def new_table(bits: int = TT_BITS):
    """A transposition table: ``(keys uint64[2**bits, 5], bounds int16[2**bits, 3])``.

    A key row holds the four hands in relative ranks (:func:`_relative`) and ``1 + leader * 8 +
    denomination`` (0 = empty); a bound row the lower and upper bound of team 0's tricks still
    to come from that trick start and the best lead found there (relative, 0 = none)."""
    return np.zeros((1 << bits, 5), dtype=np.uint64), np.zeros((1 << bits, 3), dtype=np.int16)


@jit(inline="always")
def _slot(h, tag, mask):
    x = (h[0] * _MIX[0]) ^ (h[1] * _MIX[1]) ^ (h[2] * _MIX[2]) ^ (h[3] * _MIX[3]) ^ (U64(tag) * _MIX[0])
    x ^= x >> U64(29)
    return np.int64(x & U64(mask))


@jit(inline="always")
def _relative(h, denom, rel):
    """The hands ``h`` with every suit's cards renumbered by their order among the cards still
    out (into ``rel``, uint64[4]): positions that differ only in which cards were played have
    the same value (tricks are all that count), so they share table entries.  No-trump jokers
    keep their own bits, so they are never renumbered into the spade suit."""
    for s in range(4):
        rel[s] = U64(0)
    for lane_ in range(4):
        g = SUIT_MASK[denom, lane_]
        m = (h[0] | h[1] | h[2] | h[3]) & g
        k = U64(16 * lane_)
        while m:
            c = U64(lowest_bit(m))
            m &= m - U64(1)
            b = U64(1) << c
            for s in range(4):
                if h[s] & b:
                    rel[s] |= U64(1) << k
            k += U64(1)
    if denom == NT:
        for s in range(4):
            rel[s] |= h[s] & TRUMP_MASK[NT]


@jit(inline="always")
def _relative_move(code, h, denom):
    """A lead ``card + 64 * (named + 1)`` with the card renumbered as :func:`_relative` does."""
    c = code & 63
    if denom == NT and (U64(1) << U64(c)) & TRUMP_MASK[NT]:
        return code
    lane_ = c >> 4
    below = (h[0] | h[1] | h[2] | h[3]) & SUIT_MASK[denom, lane_] & ((U64(1) << U64(c)) - U64(1))
    return (code & ~63) + 16 * lane_ + popcount(below)


@jit(inline="always")
def _absolute_move(code, h, denom):
    """The inverse of :func:`_relative_move` in the position ``h`` (−1 if it names no card)."""
    c = code & 63
    if denom == NT and (U64(1) << U64(c)) & TRUMP_MASK[NT]:
        return code
    lane_ = c >> 4
    m = (h[0] | h[1] | h[2] | h[3]) & SUIT_MASK[denom, lane_]
    for _ in range(c & 15):
        m &= m - U64(1)
    if m == U64(0):
        return -1
    return (code & ~63) + lowest_bit(m)


@jit(inline="always")
def _quick_tricks(h, leader, denom):
    """Tricks the leader is sure to take by cashing his top cards, from a trick start: his
    trumps (no-trump: jokers) above every other trump still out, plus, when the other side has
    no trump left, his cards above every other card of their suit still out."""
    tm = TRUMP_MASK[denom]
    mine = h[leader]
    others = U64(0)
    for s in range(4):
        if s != leader:
            others |= h[s]
    opp = h[(leader + 1) % 4] | h[(leader + 3) % 4]
    n = 0
    top = mine & tm
    if others & tm:
        top &= ~((U64(2) << U64(highest_bit(others & tm))) - U64(1))
    n += popcount(top)
    if opp & tm == U64(0):
        for lane_ in range(4):
            g = SUIT_MASK[denom, lane_] & ~tm
            mg = mine & g
            if mg == U64(0):
                continue
            og = others & g
            if og:
                mg &= ~((U64(2) << U64(highest_bit(og))) - U64(1))
            n += popcount(mg)
    return n


@jit(inline="always")
def _groups_of(card, denom):
    """The mask of the cards a card is ranked against: its lane, or the jokers in no-trump."""
    if denom == NT and (U64(1) << U64(card)) & TRUMP_MASK[NT]:
        return TRUMP_MASK[NT]
    return SUIT_MASK[denom, card >> 4]


@jit(inline="always")
def _distinct(legal, hand, out_cards, denom):
    """``legal`` without cards equivalent to a higher legal card of the same hand: a card is
    dropped when the next higher card still out in its group is the hand's own."""
    keep = U64(0)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        g = _groups_of(c, denom)
        above = out_cards & g & ~((U64(2) << U64(c)) - U64(1))
        if above != U64(0) and (hand >> U64(lowest_bit(above))) & U64(1):
            continue
        keep |= U64(1) << U64(c)
    return keep


@jit(inline="always")
def _best(table_cards, denom, led):
    """The card winning the cards on the table so far (uint64 set, not empty)."""
    m = table_cards & TRUMP_MASK[denom]
    if m == U64(0):
        m = table_cards & SUIT_MASK[denom, led]
    return highest_bit(m)


@jit(inline="always")
def _order(legal, pos, leader, seat, led, denom, on_table, trick, moves, depth):
    """Write the moves of ``legal`` to ``moves[depth]`` in search order; returns how many.

    A move is ``card + 64 * (named suit + 1)`` (0 = no name).  Leads: high cards first, a
    no-trump joker once per suit named.  Follows: when the partner is not winning, the cheapest
    winning cards first, then the rest from the lowest; when he is, from the lowest."""
    n = 0
    if pos == 0:
        # The top card of each suit first (winners and forcing cards), then the rest from the top.
        tops = U64(0)
        for lane_ in range(4):
            g = legal & (U64(0xFFFF) << U64(16 * lane_))
            if g:
                tops |= U64(1) << U64(highest_bit(g))
        m = tops
        while True:
            if m == U64(0):
                if tops == U64(0):
                    break
                m = legal & ~tops
                tops = U64(0)
                continue
            c = highest_bit(m)
            m &= ~(U64(1) << U64(c))
            if card_suit(c, denom) < 0:
                for s in range(4):
                    moves[depth, n] = c + 64 * (s + 1)
                    n += 1
            else:
                moves[depth, n] = c
                n += 1
        return n
    best = _best(on_table, denom, led)
    wseat = leader
    for i in range(pos):
        if trick[i] == best:
            wseat = (leader + i) % 4
    partner_wins = (wseat - seat) % 2 == 0
    if not partner_wins:
        trumps_best = (U64(1) << U64(best)) & TRUMP_MASK[denom] != U64(0)
        beaters = legal & TRUMP_MASK[denom] & ~((U64(2) << U64(best)) - U64(1))
        if not trumps_best:
            beaters = (legal & TRUMP_MASK[denom]) | (legal & SUIT_MASK[denom, led] & ~((U64(2) << U64(best)) - U64(1)))
        m = beaters
        while m:
            c = lowest_bit(m)
            m &= m - U64(1)
            moves[depth, n] = c
            n += 1
        legal &= ~beaters
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        moves[depth, n] = c
        n += 1
    return n


_ZERO = np.int64(0)
_NEG = np.int64(-1)
_I = types.int64
_SEARCH_SIG = _I(types.uint64[::1], types.int64[::1], _I, _I, _I, _I, _I, _I, types.uint64[:, ::1],
                 types.int16[:, ::1], types.int64[:, ::1], types.int64[::1])
"""One compiled signature: numba would otherwise compile the recursion once per literal
argument pattern (slow), and such caches crash when loaded."""


@jit(signature_or_function=_SEARCH_SIG)
def _search(h, trick, pos, leader, led, denom, alpha, beta, keys, bounds, moves, stats):
    """Team 0's tricks from the current trick on (this trick included), within ``(alpha, beta)``
    (fail-soft).  ``h``: uint64[4] hands (changed and restored); ``trick``: int64[4] cards of
    this trick so far in play order; ``pos``: cards already on it; ``led``: its suit (named
    suit after a no-trump joker), −1 at a trick start; ``moves``: int64[42, MAX_MOVES] scratch (rows 0..39 the moves by cards played, 40 the
    relative hands of a trick start).
    One function, not two, because numba cannot cache mutually recursive functions.
    """
    stats[0] += 1
    if pos == 0:
        left = popcount(h[leader])
        if left == 0:
            return 0
        qt = _quick_tricks(h, leader, denom)
        if leader % 2 == 0:
            if qt >= beta:
                return qt
        elif left - qt <= alpha:
            return left - qt
        tag = 1 + leader * 8 + denom
        mask = keys.shape[0] - 1
        rel = moves[40, :4].view(np.uint64)
        _relative(h, denom, rel)
        slot = _slot(rel, tag, mask)
        lo = 0
        hi = left
        if leader % 2 == 0:
            lo = qt
        else:
            hi = left - qt
        hint = -1
        if (keys[slot, 4] == U64(tag) and keys[slot, 0] == rel[0] and keys[slot, 1] == rel[1]
                and keys[slot, 2] == rel[2] and keys[slot, 3] == rel[3]):
            lo = max(lo, np.int64(bounds[slot, 0]))
            hi = min(hi, np.int64(bounds[slot, 1]))
            if bounds[slot, 2] > 0:
                hint = _absolute_move(np.int64(bounds[slot, 2]) - 1, h, denom)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0 = max(alpha, lo)
        b0 = min(beta, hi)
        # At pos -1 ``led`` carries the lead to try first.
        v = _search(h, trick, _NEG, leader, hint, denom, a0, b0, keys, bounds, moves, stats)
        depth = 40 - popcount(h[0] | h[1] | h[2] | h[3])
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = v
            hi = v
        # The children used the scratch row: compute the relative hands again.
        _relative(h, denom, rel)
        for i in range(4):
            keys[slot, i] = rel[i]
        keys[slot, 4] = U64(tag)
        bounds[slot, 0] = lo
        bounds[slot, 1] = hi
        bounds[slot, 2] = 1 + _relative_move(moves[41, depth], h, denom)
        return v
    if pos == 4:
        w = trick_winner(trick, denom, led)
        nxt = (leader + w) % 4
        won = 1 if nxt % 2 == 0 else 0
        # The next tricks reuse ``trick``: the cards of this one are put back for the callers.
        t0, t1, t2, t3 = trick[0], trick[1], trick[2], trick[3]
        v = won + _search(h, trick, _ZERO, nxt, _NEG, denom, alpha - won, beta - won, keys, bounds, moves, stats)
        trick[0], trick[1], trick[2], trick[3] = t0, t1, t2, t3
        return v
    # Expand one card of the trick (pos -1: the trick start, after the table was probed).
    hint = -1
    if pos < 0:
        pos = 0
        hint = led
        led = -1
    seat = (leader + pos) % 4
    hand = h[seat]
    out_cards = h[0] | h[1] | h[2] | h[3]
    on_table = U64(0)
    for i in range(pos):
        on_table |= U64(1) << U64(trick[i])
    legal = _distinct(legal_moves(hand, denom, led if pos > 0 else -1), hand, out_cards | on_table, denom)
    depth = 40 - popcount(out_cards)
    n = _order(legal, pos, leader, seat, led, denom, on_table, trick, moves, depth)
    if hint >= 0:
        for k in range(n):
            if moves[depth, k] == hint:
                moves[depth, k] = moves[depth, 0]
                moves[depth, 0] = hint
                break
    maxing = seat % 2 == 0
    best = -1 if maxing else 99
    for k in range(n):
        code = moves[depth, k]
        c = code & 63
        named = code >> 6
        cb = U64(1) << U64(c)
        h[seat] = hand & ~cb
        trick[pos] = c
        lead_suit = led
        if pos == 0:
            lead_suit = card_suit(c, denom)
            if lead_suit < 0:
                lead_suit = named - 1
        v = _search(h, trick, pos + 1, leader, lead_suit, denom, alpha, beta, keys, bounds, moves, stats)
        h[seat] = hand
        if (maxing and v > best) or (not maxing and v < best):
            moves[41, depth] = code
        if maxing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


@jit
def solve_eff(eff, leader, denom, keys, bounds, moves, stats):
    """Team 0's double-dummy tricks (int64) from a trick start: ``eff`` uint64[4] equal-sized
    hands in the effective layout of ``denom`` (0..3 trump suit, 4 no-trump), ``leader`` on lead.

    Iterated null-window searches (each a yes/no question "at least k?") share the table."""
    h = eff.copy()
    trick = np.zeros(4, dtype=np.int64)
    lo = 0
    hi = popcount(h[leader])
    while lo < hi:
        mid = (lo + hi + 1) // 2
        v = _search(h, trick, _ZERO, leader, _NEG, denom, mid - 1, mid, keys, bounds, moves, stats)
        if v >= mid:
            lo = v
        else:
            hi = v
    return lo


@jit
def solve_batch(hands, declarers, denoms, keys, bounds, out, stats):
    """Declaring side's double-dummy tricks (docs/RULES.md §3.5) for ``n`` positions.

    ``hands``: uint64[n, 4] *physical* ten-card hands as play starts (the declarer's after his
    discard); ``declarers``: int64[n] (he leads, docs/RULES.md §3.4); ``denoms``: int64[n], 0..3 trump
    S C D H, 4 no-trump.  Writes ``out`` (int64[n]): tricks 0..10 of the declarer's side.
    """
    moves = np.zeros((42, MAX_MOVES), dtype=np.int64)
    eff = np.zeros(4, dtype=np.uint64)
    for i in range(hands.shape[0]):
        d = denoms[i]
        for s in range(4):
            eff[s] = remap_hand(hands[i, s], d)
        t0 = solve_eff(eff, declarers[i], d, keys, bounds, moves, stats)
        out[i] = t0 if declarers[i] % 2 == 0 else popcount(eff[0]) - t0


@jit(signature_or_function=_I(types.uint64[::1], types.int64[::1], _I, _I, _I, _I))
def minimax_eff(h, trick, pos, leader, led, denom):
    """Team 0's tricks by plain minimax (no pruning, no table, no merging): the reference the
    tests check :func:`solve_eff` against.  Arguments as :func:`_search`."""
    if pos == 4:
        w = trick_winner(trick, denom, led)
        nxt = (leader + w) % 4
        t0, t1, t2, t3 = trick[0], trick[1], trick[2], trick[3]
        v = (1 if nxt % 2 == 0 else 0) + minimax_eff(h, trick, _ZERO, nxt, _NEG, denom)
        trick[0], trick[1], trick[2], trick[3] = t0, t1, t2, t3
        return v
    seat = (leader + pos) % 4
    hand = h[seat]
    if hand == U64(0):
        return 0
    legal = legal_moves(hand, denom, led if pos > 0 else -1)
    maxing = seat % 2 == 0
    best = -1 if maxing else 99
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        h[seat] = hand & ~(U64(1) << U64(c))
        trick[pos] = c
        names = 1
        if pos == 0 and card_suit(c, denom) < 0:
            names = 4
        for s in range(names):
            lead_suit = led
            if pos == 0:
                lead_suit = card_suit(c, denom)
                if lead_suit < 0:
                    lead_suit = s
            v = minimax_eff(h, trick, pos + 1, leader, lead_suit, denom)
            if (maxing and v > best) or (not maxing and v < best):
                best = v
        h[seat] = hand
    return best
