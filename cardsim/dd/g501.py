"""Double-dummy solver for 501 (docs/RULES.md §1.5-§1.7): the declarer's maximum deal points.

The position is the one play starts from (docs/RULES.md §1.4-§1.5): the three eight-card hands of
the active players after the declarer took the talon and gave one card to each opponent, the
trump fixed (0..3 = S C D H, 4 = no-trump), the first active player left of the dealer on lead.
All hands are open.  The declarer maximises his **deal points** = card points of the tricks he
wins + his **effective** marriages (docs/RULES.md §1.6-§1.7: declared when leading K or Q of a
marriage he holds, 40 in trumps and 20 otherwise, counted only if he wins at least one trick);
the two defenders together minimise them.  Their own marriages do not change the declarer's
points, so they are not searched.  Declaring never costs the declarer anything, so he declares
whenever he leads a K or Q of a marriage.

Players are numbered ``0, 1, 2`` in play order from the first leader (the active seats from the
dealer's left, :func:`cardsim.games.g501.rules.active_seat`).  Legal cards, the trick's best card,
card points and marriages are the engine's own functions (:mod:`cardsim.games.g501.rules`).

Search: fail-soft alpha-beta on points with a transposition table at trick starts keyed on the
three hands, the leader, the declarer, the trump and the marriage state; moves ordered (leads
from the top, followers try the cheapest winning card first).  Cards are *not* merged: two
cards that are equivalent for winning tricks still carry different card points.
"""
from __future__ import annotations

import numpy as np
from numba import types

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit, popcount
from cardsim.games.g501.constants import MARRIAGE_LANE, NT
from cardsim.games.g501 import rules

# The engine's own rule functions, inlined: numba segfaults loading a cached recursive function
# that calls other compiled functions, and inlining also saves a call per node.
can_declare = jit(inline="always")(rules.can_declare.py_func)
hand_points = jit(inline="always")(rules.hand_points.py_func)
legal_plays = jit(inline="always")(rules.legal_plays.py_func)
marriage_value = jit(inline="always")(rules.marriage_value.py_func)
trick_best = jit(inline="always")(rules.trick_best.py_func)
marriage_suits = jit(inline="always")(rules.marriage_suits.py_func)

U64 = np.uint64
TT_BITS = 22
"""The transposition table holds 2**TT_BITS entries (about 160 MB): with 2**18 a whole deal
thrashed it (35 times more nodes on real positions)."""
MOVES_SHAPE = (25, 27)
"""Shape of the int64 move scratch of :func:`solve_position` (see :func:`_search`)."""
_MIX = (U64(0x9E3779B97F4A7C15), U64(0xC2B2AE3D27D4EB4F), U64(0x165667B19E3779F9))


def new_table(bits: int = TT_BITS):
    """A transposition table: ``(keys uint64[2**bits, 4], bounds int16[2**bits, 3])``: the three
    hands and a tag (0 = empty) of a trick start; the lower and upper bound of the declarer's
    points still to come from there, and 1 + the best lead found there (0 = none)."""
    return np.zeros((1 << bits, 4), dtype=np.uint64), np.zeros((1 << bits, 3), dtype=np.int16)


@jit(inline="always")
def _slot(h, tag, mask):
    x = (h[0] * _MIX[0]) ^ (h[1] * _MIX[1]) ^ (h[2] * _MIX[2]) ^ (U64(tag) * _MIX[1])
    x ^= x >> U64(31)
    return np.int64(x & U64(mask))


@jit(inline="always")
def _sure_winners(h, p, trump):
    """Cards of player ``p`` (on lead at a trick start) that win whenever he leads them, cashed
    one after another: his trumps above every other trump still out, and, when neither other
    player holds a trump (in no-trump: always), his cards above every other card of their suit
    still out (a follower must follow suit or, void, ruff: docs/RULES.md §1.5)."""
    others = U64(0)
    for q in range(3):
        if q != p:
            others |= h[q]
    mine = h[p]
    out = U64(0)
    for s in range(4):
        lane_ = U64(0xFFFF) << U64(16 * s)
        if s != trump and trump != NT and others & (U64(0xFFFF) << U64(16 * trump)):
            continue
        m = mine & lane_
        o = others & lane_
        if o:
            m &= ~((U64(2) << U64(highest_bit(o))) - U64(1))
        out |= m
    return out


@jit(inline="always")
def _ceiling(h, decl, trump, pending):
    """An upper bound of the declarer's points to come: every card point still out, the pending
    marriage and every marriage he may still declare."""
    ub = hand_points(h[0] | h[1] | h[2]) + pending
    for s in range(4):
        if (h[decl] >> U64(16 * s)) & MARRIAGE_LANE == MARRIAGE_LANE:
            ub += marriage_value(s, trump)
    return ub


@jit(inline="always")
def _order(legal, pos, leader, p, decl, lead, on_table, trump, moves, depth):
    """Write ``legal``'s cards to ``moves[depth]`` in search order; returns how many.  Leads:
    from the top.  Follows: the cheapest card that takes the lead first, then the others from
    the top when the card winning so far is the player's side's (points for it), else from the
    bottom."""
    n = 0
    if pos == 0:
        m = legal
        while m:
            c = highest_bit(m)
            m &= ~(U64(1) << U64(c))
            moves[depth, n] = c
            n += 1
        return n
    best = trick_best(on_table, lead >> 4, trump)
    bs = best >> 4
    wk = 0
    for k in range(pos):
        if moves[24, k] == best:
            wk = k
    friendly = ((leader + wk) % 3 == decl) == (p == decl)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        cs = c >> 4
        if (cs == bs and c > best) or (cs != bs and cs == trump):
            moves[depth, n] = c
            n += 1
            legal &= ~(U64(1) << U64(c))
    m = legal
    while m:
        if friendly:
            c = highest_bit(m)
        else:
            c = lowest_bit(m)
        m &= ~(U64(1) << U64(c))
        moves[depth, n] = c
        n += 1
    return n


_ZERO = np.int64(0)
_NEG = np.int64(-1)
_I = types.int64
_SEARCH_SIG = _I(types.uint64[::1], _I, _I, _I, _I, _I, types.uint64, _I, _I, _I, _I, types.uint64[:, ::1],
                 types.int16[:, ::1], types.int64[:, ::1], types.int64[::1])
"""One compiled signature: numba would otherwise compile the recursion once per literal
argument pattern (slow), and such caches crash when loaded."""


@jit(signature_or_function=_SEARCH_SIG)
def _search(h, pos, leader, decl, trump, lead, on_table, won, pending, alpha, beta, keys, bounds,
            moves, stats):
    """The declarer's points from the current trick on (this trick included), fail-soft within
    ``(alpha, beta)``.

    ``h``: uint64[3] hands by player (changed and restored); ``pos``: cards on the trick (−1: a
    trick start whose table entry was already probed); ``lead``: the card led (−1 at a trick
    start); ``on_table``: uint64 cards of the trick; ``won``: 1 if the declarer has won a trick;
    ``pending``: marriage points he declared before winning one (they count once he does);
    ``moves``: int64[25, 27] scratch (row ``d`` the moves after ``d`` cards played; row 24
    the trick's cards by position, then from column 3 the best card found at each depth).  One recursive function, since numba cannot cache mutually
    recursive ones.
    """
    stats[0] += 1
    if pos == 0:
        if h[leader] == U64(0):
            return 0
        ub = _ceiling(h, decl, trump, pending)
        lb = 0
        sure = _sure_winners(h, leader, trump)
        if leader == decl:
            # He takes at least his own cards in those tricks, and the pending marriage.
            if sure:
                lb = hand_points(sure) + (pending if won == 0 else 0)
        else:
            # A defender's sure tricks take the declarer's cards in them away from him.
            ub -= hand_points(sure)
        if ub <= alpha:
            return ub
        if lb >= beta:
            return lb
        tag = 1 + leader + 3 * won + 6 * (pending // 20) + 24 * trump + 120 * decl
        slot = _slot(h, tag, keys.shape[0] - 1)
        lo = lb
        hi = ub
        hint = np.int64(-1)
        if keys[slot, 3] == U64(tag) and keys[slot, 0] == h[0] and keys[slot, 1] == h[1] and keys[slot, 2] == h[2]:
            lo = max(lo, np.int64(bounds[slot, 0]))
            hi = min(hi, np.int64(bounds[slot, 1]))
            hint = np.int64(bounds[slot, 2]) - 1
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0 = max(alpha, lo)
        b0 = min(beta, hi)
        # At pos -1 ``lead`` carries the lead to try first (-1: none).
        v = _search(h, _NEG, leader, decl, trump, hint, on_table, won, pending, a0, b0, keys, bounds, moves, stats)
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = v
            hi = v
        keys[slot, 0] = h[0]
        keys[slot, 1] = h[1]
        keys[slot, 2] = h[2]
        keys[slot, 3] = U64(tag)
        bounds[slot, 0] = lo
        bounds[slot, 1] = hi
        bounds[slot, 2] = 1 + moves[24, 3 + 24 - popcount(h[0] | h[1] | h[2])]
        return v
    if pos == 3:
        best = trick_best(on_table, lead >> 4, trump)
        w = leader
        for k in range(3):
            if moves[24, k] == best:
                w = (leader + k) % 3
        gain = 0
        nwon = won
        npend = pending
        if w == decl:
            gain = hand_points(on_table) + (pending if won == 0 else 0)
            nwon = 1
            npend = 0
        # The next tricks reuse ``moves[24]``: this trick's cards are put back for the callers.
        t0, t1, t2 = moves[24, 0], moves[24, 1], moves[24, 2]
        v = gain + _search(h, _ZERO, w, decl, trump, _NEG, U64(0), nwon, npend, alpha - gain, beta - gain,
                           keys, bounds, moves, stats)
        moves[24, 0], moves[24, 1], moves[24, 2] = t0, t1, t2
        return v
    hint = np.int64(-1)
    if pos < 0:
        pos = 0
        hint = lead
    p = (leader + pos) % 3
    hand = h[p]
    legal = legal_plays(hand, -1 if pos == 0 else lead >> 4, trump)
    depth = 24 - popcount(h[0] | h[1] | h[2])
    n = _order(legal, pos, leader, p, decl, lead, on_table, trump, moves, depth)
    if hint >= 0:
        for k in range(n):
            if moves[depth, k] == hint:
                moves[depth, k] = moves[depth, 0]
                moves[depth, 0] = hint
                break
    maxing = p == decl
    best_v = -1 if maxing else 9999
    for k in range(n):
        c = moves[depth, k]
        cb = U64(1) << U64(c)
        h[p] = hand & ~cb
        bonus = 0
        npend = pending
        if pos == 0 and maxing and can_declare(hand, c):
            if won:
                bonus = marriage_value(c >> 4, trump)
            else:
                npend = pending + marriage_value(c >> 4, trump)
        moves[24, pos] = c
        v = bonus + _search(h, pos + 1, leader, decl, trump, c if pos == 0 else lead, on_table | cb, won, npend,
                            alpha - bonus, beta - bonus, keys, bounds, moves, stats)
        h[p] = hand
        if (maxing and v > best_v) or (not maxing and v < best_v):
            moves[24, 3 + depth] = c
        if maxing:
            if v > best_v:
                best_v = v
            if best_v > alpha:
                alpha = best_v
        else:
            if v < best_v:
                best_v = v
            if best_v < beta:
                beta = best_v
        if alpha >= beta:
            break
    return best_v


@jit
def solve_position(hands, decl, trump, keys, bounds, moves, stats):
    """The declarer's double-dummy deal points (int64) from the start of play.

    ``hands``: uint64[3] eight-card hands by player in play order (player 0 leads the first
    trick, docs/RULES.md §1.5); ``decl``: the declarer's player number 0..2; ``trump``: 0..3 or 4 =
    no-trump.  ``moves``: int64[25, 27] scratch; ``stats``: int64[1] node counter."""
    h = hands.copy()
    lo = 0
    hi = _ceiling(h, decl, trump, 0)
    # Null-window tests ("at least g?") halve [lo, hi]; they are far cheaper than one wide window.
    while lo < hi:
        g = (lo + hi + 1) // 2
        v = _search(h, _ZERO, _ZERO, decl, trump, _NEG, U64(0), _ZERO, _ZERO, g - 1, g, keys, bounds, moves, stats)
        if v >= g:
            lo = v
        else:
            hi = v
    return lo


@jit
def solve_batch(hands, decls, trumps, keys, bounds, out, stats):
    """:func:`solve_position` for ``n`` positions: ``hands`` uint64[n, 3], ``decls`` and
    ``trumps`` int64[n]; writes ``out`` int64[n] (card points + effective marriages)."""
    moves = np.zeros(MOVES_SHAPE, dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = solve_position(hands[i], decls[i], trumps[i], keys, bounds, moves, stats)


@jit(signature_or_function=_I(types.uint64[::1], _I, _I, _I, _I, _I, types.uint64, types.int64[::1], _I, _I))
def minimax(h, pos, leader, decl, trump, lead, on_table, trick, won, pending):
    """The declarer's points by plain minimax, no table and no pruning: the reference the tests
    check :func:`_search` against.  ``trick``: int64[3] scratch; other arguments as there."""
    if pos == 3:
        best = trick_best(on_table, lead >> 4, trump)
        w = leader
        for k in range(3):
            if trick[k] == best:
                w = (leader + k) % 3
        gain = 0
        nwon = won
        npend = pending
        if w == decl:
            gain = hand_points(on_table) + (pending if won == 0 else 0)
            nwon = 1
            npend = 0
        t0, t1, t2 = trick[0], trick[1], trick[2]
        v = gain + minimax(h, _ZERO, w, decl, trump, _NEG, U64(0), trick, nwon, npend)
        trick[0], trick[1], trick[2] = t0, t1, t2
        return v
    p = (leader + pos) % 3
    hand = h[p]
    if hand == U64(0):
        return 0
    legal = legal_plays(hand, -1 if pos == 0 else lead >> 4, trump)
    maxing = p == decl
    best_v = -1 if maxing else 9999
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        h[p] = hand & ~(U64(1) << U64(c))
        trick[pos] = c
        # Both choices, declared or not, so that the rule "declaring never hurts" is checked too.
        options = 2 if (pos == 0 and can_declare(hand, c)) else 1
        for o in range(options):
            bonus = 0
            npend = pending
            if o == 1:
                if maxing:
                    if won:
                        bonus = marriage_value(c >> 4, trump)
                    else:
                        npend = pending + marriage_value(c >> 4, trump)
            v = bonus + minimax(h, pos + 1, leader, decl, trump, c if pos == 0 else lead,
                                on_table | (U64(1) << U64(c)), trick, won, npend)
            if (maxing and v > best_v) or (not maxing and v < best_v):
                best_v = v
        h[p] = hand
    return best_v
