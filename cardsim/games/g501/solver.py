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

Search: one fail-soft principal variation search on the whole window of points (the first move
of a node on the node's window, the later ones on a null window first, :func:`_research`), with
a transposition table at trick starts (2**16 entries of 24 bytes) keyed on the three hands, the
leader, the declarer, the trump and the marriage state.  At a trick start: the table's bounds,
else bounds from quick tricks and master trumps (:func:`trick_start_bounds`; an entry's bounds
lie within those); the last three tricks by nested alpha-beta loops (:func:`_three_tricks`), the
last two inside them (and at the end of a trick whose next one is the seventh) by a plain inline
minimax.
Moves: the table's best lead, else the best card found last at the same depth, first; then leads
by rank from the aces down, followers the cheapest winning card first.  Cards equivalent for
winning tricks (:func:`_twins`) are not merged, since their card points differ, but bounded:
when the side winning the trick is settled only the better twin is searched
(:func:`_dominated`), otherwise a twin is skipped when a searched one's value plus the point
difference misses the window.
The recursion gets its arrays as pointers to their data (:func:`_data`): numba passes an array
as several words and changes its reference count at each call, which took half a node's time.
"""
from __future__ import annotations

import numpy as np
from numba import types
from numba.core.extending import intrinsic

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit, popcount
from cardsim.alphabeta import ab_update
from cardsim.games.g501.constants import MARRIAGE_LANE, NT, RANK_POINTS, RK, RQ
from cardsim.games.g501 import rules

# The engine's own rule functions, inlined: numba segfaults loading a cached recursive function
# that calls other compiled functions, and inlining also saves a call per node.
can_declare = jit(inline="always")(rules.can_declare.py_func)
hand_points = jit(inline="always")(rules.hand_points.py_func)
legal_plays = jit(inline="always")(rules.legal_plays.py_func)
marriage_value = jit(inline="always")(rules.marriage_value.py_func)
trick_winner = jit(inline="always")(rules.trick_winner.py_func)
marriage_suits = jit(inline="always")(rules.marriage_suits.py_func)

U64 = np.uint64
TT_BITS = 16
"""The transposition table holds 2**TT_BITS entries (1.5 MB).  A real deal stores a few thousand
trick starts: 2**16 entries take 0.7% more nodes than 2**22 and run 2.5 times faster (the table
stays in the cache).  Before the slot hash mixed its bits, 2**18 entries thrashed."""
PIMC_TT_BITS = 14
"""The ``pimc`` player's table (:mod:`cardsim.games.g501.pimc`, one a process, kept across its
decisions) holds 2**PIMC_TT_BITS entries (384 kB, within a core's L2 cache): a decision searches
a few hundred nodes a card and world, so the probe's cache misses, not lost entries, cost.  On
300 recorded decisions (8 worlds) 2**14 entries search 1.3% more nodes than 2**16 and run about
1.2 times as fast; in real play (every seat ``pimc:worlds=8``, the two tables alternately in one
process) 1.13 times (BENCHMARKS.md, "501's sampled search three times faster?").  The values do not depend on it:
entries are exact positions."""
MOVES_SHAPE = (25, 27)
"""Shape of the int64 move scratch of :func:`solve_position` (see :func:`_search`)."""
_MW = MOVES_SHAPE[1]
_ROW24 = 24 * _MW
"""Where row 24 of the move scratch starts (the search gets it as a pointer, :func:`_data`)."""
_BY_RANK = np.array([sum(1 << 4 * (5 - r) for r in range(6) if lane6 >> r & 1) for lane6 in range(64)],
                    dtype=np.uint64)
"""A 6-bit suit lane's ranks ``r`` as bits ``4 * (5 - r)``: four suits side by side, the aces
first (:func:`_order`)."""
_MIX = (U64(0x9E3779B97F4A7C15), U64(0xC2B2AE3D27D4EB4F))


def new_table(bits: int = TT_BITS):
    """A transposition table: ``(keys uint64[2**bits, 2], bounds int16[2**bits, 4])``: a trick
    start (:func:`_key`; 0 = empty); the lower and upper bound of the declarer's points still to
    come from there, 1 + the best lead found there (0 = none), and an unused column (rows of 8
    bytes)."""
    return np.zeros((1 << bits, 2), dtype=np.uint64), np.zeros((1 << bits, 4), dtype=np.int16)


@jit(inline="always")
def _packed(hand):
    """The 24 card bits of ``hand`` (uint64, four 6-bit lanes) side by side."""
    return ((hand & U64(63)) | ((hand >> U64(10)) & U64(63 << 6)) | ((hand >> U64(20)) & U64(63 << 12))
            | ((hand >> U64(30)) & U64(63 << 18)))


@jit(inline="always")
def _key(h, tag):
    """A trick start in two words: hands 0 and 1 and the ``tag`` (>= 1), then hand 2.  Sixteen
    bytes instead of 32 keep the table in the core's cache (its probe was the slowest step)."""
    return _packed(h[0]) | (_packed(h[1]) << U64(24)) | (U64(tag) << U64(48)), _packed(h[2])


@jit(inline="always")
def _tag(leader, decl, trump, won, pending):
    """A trick start's state besides the hands as one number >= 1 (< 2**10, :func:`_key`)."""
    return 1 + leader + 3 * won + 6 * (pending // 20) + 48 * trump + 240 * decl


@jit(inline="always")
def _slot(k0, k1, mask):
    # The key's bits are card bits, so the sum is put through splitmix64's finaliser.
    x = (k0 * _MIX[0]) ^ (k1 * _MIX[1])
    x ^= x >> U64(30)
    x *= U64(0xBF58476D1CE4E5B9)
    x ^= x >> U64(27)
    x *= U64(0x94D049BB133111EB)
    x ^= x >> U64(31)
    return np.int64(x & U64(mask))


def _cheapest_table():
    """int64[64, 7]: the card points of the ``k`` cheapest cards (all of them if fewer) of each
    6-bit suit lane; ranks and card points rise together (docs/RULES.md §1.1)."""
    t = np.zeros((64, 7), dtype=np.int64)
    for lane6 in range(64):
        ranks = [r for r in range(6) if lane6 >> r & 1]
        for k in range(7):
            t[lane6, k] = sum(int(RANK_POINTS[r]) for r in ranks[:k])
    return t


CHEAPEST = _cheapest_table()


@jit(inline="always")
def _cash(h, p, trump):
    """Tricks player ``p``, on lead at a trick start, wins whatever the others do by cashing
    winners one after another: ``(cards, points)``, his cards that win and the card points the
    two others must add to those tricks at the least.

    His winners are his trumps above every other trump still out; when the others hold no trump
    (in no-trump: always), or no more trumps than those winners draw, also his cards above every
    other card of their suit.  A follower must follow suit (docs/RULES.md §1.5), so on ``k``
    winners of a suit he plays at least his ``k`` cheapest cards of it (all of them if fewer),
    whenever he plays them; his other cards are discards worth 0 at the least."""
    mine = h[p]
    o1 = h[(p + 1) % 3]
    o2 = h[(p + 2) % 3]
    others = o1 | o2
    out = U64(0)
    drawn = True
    if trump != NT:
        tl = U64(0xFFFF) << U64(16 * trump)
        m = mine & tl
        o = others & tl
        if o:
            m &= ~((U64(2) << U64(highest_bit(o))) - U64(1))
        out |= m
        kt = popcount(m)
        drawn = popcount(o1 & tl) <= kt and popcount(o2 & tl) <= kt
    pts = 0
    for s in range(4):
        sh = U64(16 * s)
        if s != trump:
            if not drawn:
                continue
            m = mine & (U64(0xFFFF) << sh)
            o = others & (U64(0xFFFF) << sh)
            if o:
                m &= ~((U64(2) << U64(highest_bit(o))) - U64(1))
            out |= m
        k = popcount((out >> sh) & U64(0xFFFF))
        if k:
            pts += CHEAPEST[np.int64((o1 >> sh) & U64(63)), k] + CHEAPEST[np.int64((o2 >> sh) & U64(63)), k]
    return out, pts


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
def _floor(h, decl, trump, won, pending, sure, forced):
    """A lower bound of the declarer's points to come when he is on lead with the winners
    ``sure`` (forcing ``forced`` points from the others, :func:`_cash`): he cashes them, declaring
    the marriages among them, then leads a K or Q of his best other marriage, which counts since
    he has won a trick (docs/RULES.md §1.6)."""
    if sure == U64(0) and won == 0:
        return 0
    cashed = 0
    best = 0
    for s in range(4):
        sh = U64(16 * s)
        if (h[decl] >> sh) & MARRIAGE_LANE == MARRIAGE_LANE:
            v = marriage_value(s, trump)
            if (sure >> sh) & MARRIAGE_LANE:
                cashed += v
            elif v > best:
                best = v
    return hand_points(sure) + forced + pending + cashed + best


@jit(inline="always")
def _masters(h, decl, trump):
    """``(mine, theirs)``: the declarer's trumps above every defender's trump, and the defenders'
    trumps above every trump of his.  A trump above every other trump out wins the trick it is
    played to, and every card is played by the end (docs/RULES.md §1.5)."""
    if trump == NT:
        return U64(0), U64(0)
    tl = U64(0xFFFF) << U64(16 * trump)
    mine = h[decl] & tl
    theirs = (h[0] | h[1] | h[2]) & ~h[decl] & tl
    m = mine
    t = theirs
    if theirs:
        m &= ~((U64(2) << U64(highest_bit(theirs))) - U64(1))
    if mine:
        t &= ~((U64(2) << U64(highest_bit(mine))) - U64(1))
    return m, t


@jit(inline="always")
def trick_start_bounds(h, leader, decl, trump, won, pending):
    """``(lower, upper)`` int64 bounds of the declarer's points to come at a trick start: player
    ``leader`` on lead, ``h`` uint64[3] the hands by player, ``won`` and ``pending`` as in
    :func:`_search`.  Upper: every point out and every marriage he may declare
    (:func:`_ceiling`), less the points the defenders surely take (their master trumps, or the
    leading defender's cashed winners with the cards they force, :func:`_cash`).  Lower: his
    master trumps (:func:`_masters`), or on lead his cashed winners with the cards they force and
    his marriages (:func:`_floor`)."""
    ub = _ceiling(h, decl, trump, pending)
    sure, forced = _cash(h, leader, trump)
    mine, theirs = _masters(h, decl, trump)
    lb = 0
    if mine:
        lb = hand_points(mine) + pending
    cut = hand_points(theirs)
    if leader == decl:
        lb = max(lb, _floor(h, decl, trump, won, pending, sure, forced))
    elif sure:
        cut = max(cut, hand_points(sure) + forced)
    return lb, ub - cut


@jit(inline="always")
def _last_trick(h, leader, decl, trump, pending):
    """The declarer's points from the last trick (one card in each hand)."""
    cards = h[0] | h[1] | h[2]
    best = trick_winner(cards, lowest_bit(h[leader]) >> 4, trump)
    if (h[decl] >> U64(best)) & U64(1):
        return hand_points(cards) + pending
    return 0


@jit(inline="always")
def _two_tricks(h, leader, decl, trump, won, pending):
    """The declarer's points from the last two tricks (two cards in each hand), by plain
    minimax: at most eight ways to play the first of them, the last one follows."""
    ps = ((leader + 1) % 3, (leader + 2) % 3)
    hand0 = h[leader]
    best0 = -1 if leader == decl else 9999
    m0 = hand0
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - U64(1)
        led = c0 >> 4
        bonus = 0
        npend = pending
        if leader == decl and can_declare(hand0, c0):
            if won:
                bonus = marriage_value(led, trump)
            else:
                npend = pending + marriage_value(led, trump)
        best1 = -1 if ps[0] == decl else 9999
        m1 = legal_plays(h[ps[0]], led, trump)
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - U64(1)
            best2 = -1 if ps[1] == decl else 9999
            m2 = legal_plays(h[ps[1]], led, trump)
            while m2:
                c2 = lowest_bit(m2)
                m2 &= m2 - U64(1)
                trick = (U64(1) << U64(c0)) | (U64(1) << U64(c1)) | (U64(1) << U64(c2))
                b = trick_winner(trick, led, trump)
                w = leader if b == c0 else (ps[0] if b == c1 else ps[1])
                v = bonus
                pend = npend
                if w == decl:
                    v += hand_points(trick) + pend
                    pend = 0
                rest = (h[0] | h[1] | h[2]) & ~trick
                last = trick_winner(rest, lowest_bit(h[w] & ~trick) >> 4, trump)
                if (h[decl] >> U64(last)) & U64(1):
                    v += hand_points(rest) + pend
                if (ps[1] == decl and v > best2) or (ps[1] != decl and v < best2):
                    best2 = v
            if (ps[0] == decl and best2 > best1) or (ps[0] != decl and best2 < best1):
                best1 = best2
        if (leader == decl and best1 > best0) or (leader != decl and best1 < best0):
            best0 = best1
    return best0


@jit(inline="always")
def _three_tricks(h, leader, decl, trump, won, pending, alpha, beta, hint):
    """The declarer's points from the last three tricks (three cards in each hand), fail-soft
    within ``(alpha, beta)``: nested loops over the first trick's cards with alpha-beta cut-offs,
    the last two tricks by :func:`_two_tricks`; ``(value, the best lead)``.  ``h`` is changed and
    restored."""
    ps1 = (leader + 1) % 3
    ps2 = (leader + 2) % 3
    max0 = leader == decl
    max1 = ps1 == decl
    max2 = ps2 == decl
    hand0 = h[leader]
    hand1 = h[ps1]
    hand2 = h[ps2]
    best0 = -1 if max0 else 9999
    lead_best = -1
    a0 = alpha
    b0 = beta
    m0 = hand0
    first = hint >= 0 and (hand0 >> U64(hint)) & U64(1) == U64(1)
    while m0:
        if first:
            c0 = hint
            first = False
        else:
            c0 = lowest_bit(m0)
        m0 &= ~(U64(1) << U64(c0))
        led = c0 >> 4
        bonus = 0
        npend = pending
        if max0 and can_declare(hand0, c0):
            if won:
                bonus = marriage_value(led, trump)
            else:
                npend = pending + marriage_value(led, trump)
        h[leader] = hand0 & ~(U64(1) << U64(c0))
        a1 = a0 - bonus
        b1 = b0 - bonus
        best1 = -1 if max1 else 9999
        m1 = legal_plays(hand1, led, trump)
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - U64(1)
            h[ps1] = hand1 & ~(U64(1) << U64(c1))
            a2 = a1
            b2 = b1
            best2 = -1 if max2 else 9999
            m2 = legal_plays(hand2, led, trump)
            while m2:
                c2 = lowest_bit(m2)
                m2 &= m2 - U64(1)
                h[ps2] = hand2 & ~(U64(1) << U64(c2))
                trick = (U64(1) << U64(c0)) | (U64(1) << U64(c1)) | (U64(1) << U64(c2))
                b = trick_winner(trick, led, trump)
                w = leader if b == c0 else (ps1 if b == c1 else ps2)
                v = 0
                nwon = won
                pend = npend
                if w == decl:
                    v = hand_points(trick) + npend
                    nwon = 1
                    pend = 0
                v += _two_tricks(h, w, decl, trump, nwon, pend)
                best2, a2, b2 = ab_update(max2, v, best2, a2, b2)
                if a2 >= b2:
                    break
            h[ps2] = hand2
            best1, a1, b1 = ab_update(max1, best2, best1, a1, b1)
            if a1 >= b1:
                break
        h[ps1] = hand1
        v0 = bonus + best1
        if (max0 and v0 > best0) or (not max0 and v0 < best0):
            lead_best = c0
        best0, a0, b0 = ab_update(max0, v0, best0, a0, b0)
        if a0 >= b0:
            break
    h[leader] = hand0
    return best0, lead_best


@jit(inline="always")
def _twins(hand, live, c, c2, p, decl):
    """Whether cards ``c`` and ``c2`` of ``hand`` (same suit) are equivalent for the rest of the
    play: no card ``live`` (in a hand or on the trick) of another player lies between them, and
    swapping them cannot make or break a marriage of the declarer (a K or Q against another rank
    while he holds both).  Then the values after playing one or the other differ by at most the
    difference of their card points: the same play wins the same tricks, one of those two cards
    moving from one trick to another."""
    lo = min(c, c2)
    hi = max(c, c2)
    between = ((U64(1) << U64(hi)) - U64(1)) & ~((U64(2) << U64(lo)) - U64(1))
    if between & live & ~hand:
        return False
    if p == decl and (hand >> U64(16 * (c >> 4))) & MARRIAGE_LANE == MARRIAGE_LANE:
        kq = (c & 15) == RK or (c & 15) == RQ
        kq2 = (c2 & 15) == RK or (c2 & 15) == RQ
        if kq != kq2:
            return False
    return True


@jit(inline="always")
def _trick_side(h, c, pos, leader, decl, lead, on_table, trump, moves):
    """Whose side wins the current trick if player ``(leader + pos) % 3`` plays ``c`` now,
    whatever the players after him play: 1 the declarer, 0 the defenders, -1 not settled yet.
    Settled when no player still to play who is against the side winning it so far holds a
    legal card that beats the best card (such a player cannot beat a card that beats it either,
    docs/RULES.md §1.5)."""
    cb = U64(1) << U64(c)
    led = c >> 4 if pos == 0 else lead >> 4
    best = trick_winner(on_table | cb, led, trump)
    o = (leader + pos) % 3
    for k in range(pos):
        if moves[_ROW24 + k] == best:
            o = (leader + k) % 3
    side = 1 if o == decl else 0
    for k in range(pos + 1, 3):
        q = (leader + k) % 3
        if (1 if q == decl else 0) != side:
            if trick_winner(legal_plays(h[q], led, trump) | (U64(1) << U64(best)), led, trump) != best:
                return -1
    return side


@jit(inline="always")
def _trick_end(trick, led, trump, leader, p, decl, won, pending, moves):
    """The end of the trick ``trick`` (uint64, its three cards; the first two by position in
    ``moves[24]``, the last played by ``p``): ``(winner, the declarer's points from it, won,
    pending)`` after it (docs/RULES.md §1.5-§1.7: marriage points declared before his first
    trick count when he wins one)."""
    w = p
    best = trick_winner(trick, led, trump)
    for j in range(2):
        if moves[_ROW24 + j] == best:
            w = (leader + j) % 3
    if w == decl:
        return w, hand_points(trick) + pending, np.int64(1), np.int64(0)
    return w, np.int64(0), won, pending


@jit(inline="always")
def _dominated(h, hand, live, c, pos, p, leader, decl, lead, on_table, trump, moves):
    """Whether another card of ``hand`` equivalent to ``c`` (:func:`_twins`) is at least as good
    for player ``p`` when the trick's side is settled (:func:`_trick_side`): the two win the same
    tricks, so the one with more points is better in a trick his side wins (the other one moves
    to a later trick, where it is worth at most the same) and the one with fewer points in a trick
    the other side wins."""
    side = _trick_side(h, c, pos, leader, decl, lead, on_table, trump, moves)
    if side < 0:
        return False
    up = side == (1 if p == decl else 0)
    lane_ = U64(0xFFFF) << U64(16 * (c >> 4))
    if up:
        cand = hand & lane_ & ~((U64(2) << U64(c)) - U64(1))
    else:
        cand = hand & lane_ & ((U64(1) << U64(c)) - U64(1))
    while cand:
        c2 = lowest_bit(cand) if up else highest_bit(cand)
        cand &= ~(U64(1) << U64(c2))
        lo = min(c, c2)
        hi = max(c, c2)
        between = ((U64(1) << U64(hi)) - U64(1)) & ~((U64(2) << U64(lo)) - U64(1))
        if between & live & ~hand:
            return False
        if _twins(hand, live, c, c2, p, decl):
            return True
    return False


@jit(inline="always")
def _order(legal, pos, leader, p, decl, lead, on_table, trump, moves, depth, h):
    """Write ``legal``'s cards to ``moves[depth]`` in search order; returns how many.  Leads:
    by rank from the aces down, trumps last in each rank (a third fewer nodes than from the top
    of each suit in turn).  Follows: the cheapest card that takes the lead first, then the others
    from the top when the card winning so far is the player's side's (points for it), else from
    the bottom; a defender second to the declarer's lead whose partner can beat it plays from the
    top at once.  ``h``: uint64[3] hands by player."""
    n = 0
    if pos == 0:
        # The cards rank by rank from the aces down, suits in the order trump + 1, trump + 2,
        # trump + 3, trump (no-trump: 0..3): bit 4 * (5 - rank) + j for the j-th suit.
        first = 0 if trump == NT else trump + 1
        order = U64(0)
        for j in range(4):
            order |= _BY_RANK[np.int64((legal >> U64(16 * ((first + j) & 3))) & U64(63))] << U64(j)
        while order:
            b = lowest_bit(order)
            order &= order - U64(1)
            moves[_MW * depth + n] = 16 * ((first + (b & 3)) & 3) + 5 - (b >> 2)
            n += 1
        return n
    best = trick_winner(on_table, lead >> 4, trump)
    bs = best >> 4
    wk = 0
    for k in range(pos):
        if moves[_ROW24 + k] == best:
            wk = k
    friendly = ((leader + wk) % 3 == decl) == (p == decl)
    points_first = False
    if pos == 1 and not friendly and p != decl:
        # The declarer led: when the defender behind can beat his card, the trick is the
        # defenders' whatever this one plays, so points first (3% fewer nodes).
        q = (leader + 2) % 3
        points_first = trick_winner(legal_plays(h[q], lead >> 4, trump) | (U64(1) << U64(best)), lead >> 4,
                                  trump) != best
    m = legal if not points_first else U64(0)
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        cs = c >> 4
        if (cs == bs and c > best) or (cs != bs and cs == trump):
            moves[_MW * depth + n] = c
            n += 1
            legal &= ~(U64(1) << U64(c))
    m = legal
    while m:
        if friendly or points_first:
            c = highest_bit(m)
        else:
            c = lowest_bit(m)
        m &= ~(U64(1) << U64(c))
        moves[_MW * depth + n] = c
        n += 1
    return n


@jit(inline="always")
def _store(keys, bounds, slot, k0, k1, a0, b0, lo, hi, v, move):
    """Write the trick start ``(k0, k1)`` (:func:`_key`) to the table's ``slot``: the bounds ``(lo, hi)`` it
    had, narrowed by the fail-soft result ``v`` of a search within ``(a0, b0)``, and the best lead
    ``move`` (-1 = none)."""
    if v <= a0:
        hi = min(hi, v)
    elif v >= b0:
        lo = max(lo, v)
    else:
        lo = v
        hi = v
    keys[2 * slot] = k0
    keys[2 * slot + 1] = k1
    bounds[4 * slot] = lo
    bounds[4 * slot + 1] = hi
    bounds[4 * slot + 2] = 1 + move


@jit(inline="always")
def _research(maxing, v, wa, wb, alpha, beta):
    """Principal variation search: after a child searched within ``(wa, wb)`` returned ``v``,
    whether it must be searched again and in which window.  A later move is first searched on a
    null window at the side's bound (``wb = alpha + 1`` for the maximiser, ``wa = beta - 1`` for
    the minimiser); when it beats that bound without reaching the other one its fail-soft result
    is one bound of its value, and the search again from there gives the value."""
    if maxing and wb < beta and wb <= v < beta:
        return True, v - 1, beta
    if not maxing and wa > alpha and alpha < v <= wa:
        return True, alpha, v + 1
    return False, wa, wb


@intrinsic
def _data(typingctx, arr):
    """A pointer to the data of the C-contiguous array ``arr`` (its elements in row-major order),
    valid while ``arr`` lives, i.e. during the search it is passed to."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None  # a typing error: the search indexes the data row by row
    def codegen(context, builder, sig, args):
        return context.make_array(arr)(context, builder, value=args[0]).data
    return types.CPointer(arr.dtype)(arr), codegen


_ZERO = np.int64(0)
_NEG = np.int64(-1)
_I = types.int64
_SEARCH_SIG = _I(types.CPointer(types.uint64), _I, _I, _I, _I, _I, types.uint64, _I, _I, _I, _I,
                 types.CPointer(types.uint64), types.CPointer(types.int16), _I, types.CPointer(types.int64),
                 types.CPointer(types.int64))
"""One compiled signature: numba would otherwise compile the recursion once per literal
argument pattern (slow), and such caches crash when loaded.  The arrays come as pointers to
their data (:func:`_data`): an array argument is several words and a reference count that
numba increments and decrements at each call."""


@jit(signature_or_function=_SEARCH_SIG)
def _search(h, pos, leader, decl, trump, lead, on_table, won, pending, alpha, beta, keys, bounds, mask,
            moves, stats):
    """The declarer's points from the current trick on (this trick included), fail-soft within
    ``(alpha, beta)``.

    The arrays come as pointers to their data (:func:`_data`). ``h``: uint64[3] hands by player
    (changed and restored); ``pos``: cards on the trick (0..2);
    ``lead``: the card led (−1 at a trick start); ``on_table``: uint64 cards of the trick;
    ``won``: 1 if the declarer has won a trick; ``pending``: marriage points he declared before
    winning one (they count once he does); ``moves``: int64[25, 27] scratch (row ``d`` the moves
    after ``d`` cards played in columns 0..7 and their values in columns 10..17; row 24 the
    trick's cards by position, then from column 3 the best card found at each depth); ``keys``,
    ``bounds``: the table (:func:`new_table`) of ``mask + 1`` entries.  One
    recursive function, since numba cannot cache mutually recursive ones; one call per position
    (``stats[0]`` counts them) of the first five tricks and per start of the sixth (its three
    tricks by :func:`_three_tricks`), the trick's end settled by the caller.
    """
    stats[0] += 1
    slot = np.int64(-1)
    hint = np.int64(-1)
    a0 = alpha
    b0 = beta
    lo = np.int64(0)
    hi = np.int64(0)
    k0 = U64(0)
    k1 = U64(0)
    if pos == 0:
        if h[leader] == U64(0):
            return 0
        if popcount(h[leader]) == 1:
            return _last_trick(h, leader, decl, trump, pending)
        if popcount(h[leader]) == 2:
            return _two_tricks(h, leader, decl, trump, won, pending)
        k0, k1 = _key(h, _tag(leader, decl, trump, won, pending))
        slot = _slot(k0, k1, mask)
        if keys[2 * slot] == k0 and keys[2 * slot + 1] == k1:
            # An entry's bounds already lie within the trick start's own (:func:`_store`).
            lo = np.int64(bounds[4 * slot])
            hi = np.int64(bounds[4 * slot + 1])
            hint = np.int64(bounds[4 * slot + 2]) - 1
        else:
            lo, hi = trick_start_bounds(h, leader, decl, trump, won, pending)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        a0 = alpha
        b0 = beta
        if popcount(h[leader]) == 3:
            best_v, lead_best = _three_tricks(h, leader, decl, trump, won, pending, alpha, beta, hint)
            _store(keys, bounds, slot, k0, k1, a0, b0, lo, hi, best_v, lead_best)
            return best_v
    p = (leader + pos) % 3
    hand = h[p]
    led = -1 if pos == 0 else lead >> 4
    legal = legal_plays(hand, led, trump)
    live = h[0] | h[1] | h[2] | on_table
    depth = 24 - popcount(h[0] | h[1] | h[2])
    n = _order(legal, pos, leader, p, decl, lead, on_table, trump, moves, depth, h)
    if hint < 0:
        # The best card found last at this depth (in a sibling's search) first.
        hint = moves[_ROW24 + 3 + depth]
    if hint >= 0:
        for k in range(n):
            if moves[_MW * depth + k] == hint:
                for j in range(k, 0, -1):
                    moves[_MW * depth + j] = moves[_MW * depth + j - 1]
                moves[_MW * depth + 0] = hint
                break
    maxing = p == decl
    if pos == 2 and popcount(hand) >= 4:
        # Enhanced transposition cut-off: a trick start after this trick whose table entry
        # already refutes the window settles this position before any search.
        for k in range(n):
            c = moves[_MW * depth + k]
            cb = U64(1) << U64(c)
            w, gain, nwon, npend = _trick_end(on_table | cb, led, trump, leader, p, decl, won, pending, moves)
            h[p] = hand & ~cb
            e0, e1 = _key(h, _tag(w, decl, trump, nwon, npend))
            h[p] = hand
            e = _slot(e0, e1, mask)
            if keys[2 * e] == e0 and keys[2 * e + 1] == e1:
                if maxing and gain + bounds[4 * e] >= beta:
                    return gain + np.int64(bounds[4 * e])
                if not maxing and gain + bounds[4 * e + 1] <= alpha:
                    return gain + np.int64(bounds[4 * e + 1])
    best_v = -1 if maxing else 9999
    searched = False
    for k in range(n):
        c = moves[_MW * depth + k]
        if _dominated(h, hand, live, c, pos, p, leader, decl, lead, on_table, trump, moves):
            # Never a bound for a twin's skip below: the twin that dominates it is searched.
            moves[_MW * depth + 10 + k] = 9999 if maxing else -9999
            continue
        # A card equivalent to one already searched is worth the latter's value within their
        # point difference (:func:`_twins`): skip it when that cannot reach the window.
        skip = False
        for j in range(k):
            c2 = moves[_MW * depth + j]
            if c2 >> 4 == c >> 4 and _twins(hand, live, c, c2, p, decl):
                d = abs(RANK_POINTS[c & 15] - RANK_POINTS[c2 & 15])
                v2 = moves[_MW * depth + 10 + j]
                if maxing and v2 + d <= alpha:
                    skip = True
                    best_v = max(best_v, v2 + d)
                    moves[_MW * depth + 10 + k] = v2 + d
                    break
                if not maxing and v2 - d >= beta:
                    skip = True
                    best_v = min(best_v, v2 - d)
                    moves[_MW * depth + 10 + k] = v2 - d
                    break
        if skip:
            continue
        cb = U64(1) << U64(c)
        h[p] = hand & ~cb
        bonus = 0
        npend = pending
        if pos == 0 and maxing and can_declare(hand, c):
            if won:
                bonus = marriage_value(c >> 4, trump)
            else:
                npend = pending + marriage_value(c >> 4, trump)
        moves[_ROW24 + pos] = c
        wa = alpha
        wb = beta
        if searched and beta - alpha > 1:
            if maxing:
                wb = alpha + 1
            else:
                wa = beta - 1
        searched = True
        if pos < 2:
            again = True
            while again:
                v = bonus + _search(h, pos + 1, leader, decl, trump, c if pos == 0 else lead, on_table | cb, won, npend,
                                    wa - bonus, wb - bonus, keys, bounds, mask, moves, stats)
                again, wa, wb = _research(maxing, v, wa, wb, alpha, beta)
        else:
            w, gain, nwon, npend = _trick_end(on_table | cb, led, trump, leader, p, decl, won, pending, moves)
            left = popcount(h[w])
            if left <= 2:
                # The last two tricks inline: a call would cost more than their minimax.
                if left == 2:
                    v = gain + _two_tricks(h, w, decl, trump, nwon, npend)
                elif left == 1:
                    v = gain + _last_trick(h, w, decl, trump, npend)
                else:
                    v = gain
            else:
                # The next tricks reuse ``moves[24]``: this trick's cards are put back afterwards.
                t0, t1 = moves[_ROW24 + 0], moves[_ROW24 + 1]
                again = True
                while again:
                    v = gain + _search(h, _ZERO, w, decl, trump, _NEG, U64(0), nwon, npend, wa - gain, wb - gain,
                                       keys, bounds, mask, moves, stats)
                    moves[_ROW24 + 0], moves[_ROW24 + 1], moves[_ROW24 + 2] = t0, t1, c
                    again, wa, wb = _research(maxing, v, wa, wb, alpha, beta)
        h[p] = hand
        moves[_MW * depth + 10 + k] = v
        if (maxing and v > best_v) or (not maxing and v < best_v):
            moves[_ROW24 + 3 + depth] = c
        best_v, alpha, beta = ab_update(maxing, v, best_v, alpha, beta)
        if alpha >= beta:
            break
    if slot >= 0:
        _store(keys, bounds, slot, k0, k1, a0, b0, lo, hi, best_v, moves[_ROW24 + 3 + depth])
    return best_v


@jit
def solve_position(hands, decl, trump, keys, bounds, moves, stats):
    """The declarer's double-dummy deal points (int64) from the start of play.

    ``hands``: uint64[3] eight-card hands by player in play order (player 0 leads the first
    trick, docs/RULES.md §1.5); ``decl``: the declarer's player number 0..2; ``trump``: 0..3 or 4 =
    no-trump.  ``moves``: int64[25, 27] scratch; ``stats``: int64[1] node counter."""
    h = hands.copy()
    # One search on the whole window: with the table's bounds and the best moves of earlier
    # siblings tried first it visits fewer nodes than a bisection by null windows (1.3 times
    # fewer on the benchmark deals; MTD(f) from the middle of the range took twice the bisection's).
    return _search(_data(h), _ZERO, _ZERO, decl, trump, _NEG, U64(0), _ZERO, _ZERO, _NEG, np.int64(9999),
                   _data(keys), _data(bounds), keys.shape[0] - 1, _data(moves), _data(stats))


@jit
def search_from(hands, leader, decl, trump, won, pending, alpha, beta, keys, bounds, moves, stats):
    """The declarer's points to come from a trick start (int64, fail-soft within ``(alpha,
    beta)``: at most ``alpha`` means at most that, at least ``beta`` at least that): ``hands``
    uint64[3] by player, ``leader`` on lead, ``won`` 1 if the declarer has won a trick,
    ``pending`` the marriage points he declared before (docs/RULES.md §1.6); the rest as in
    :func:`solve_position`.  What the tests check against :func:`minimax`."""
    h = hands.copy()
    return _search(_data(h), _ZERO, leader, decl, trump, _NEG, U64(0), won, pending, alpha, beta,
                   _data(keys), _data(bounds), keys.shape[0] - 1, _data(moves), _data(stats))


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
        best = trick_winner(on_table, lead >> 4, trump)
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


# ------------------------------------------------------------------ from a position inside a trick
# Plain Python on purpose: a sampled-search player asks for a handful of cards per decision, and the
# trick's at most three plies cost nothing beside the search_from calls they end in.
def declare(got: int, pending: int, won: int, suit: int, trump: int) -> tuple[int, int]:
    """The declarer's ``(got, pending)`` deal points after he declares the marriage of ``suit``
    (0..3; ``trump`` 0..3 or 4 = no-trump): counted at once when he has won a trick (``won``
    true), else pending until he wins one (docs/RULES.md §1.6)."""
    value = int(rules.marriage_value(suit, trump))
    return (got + value, pending) if won else (got, pending + value)


def take(got: int, pending: int, trick: int) -> tuple[int, int]:
    """The declarer's ``(got, pending)`` after he wins ``trick`` (the bit set of its three cards):
    its card points and his pending marriages (docs/RULES.md §1.6-§1.7)."""
    return got + int(rules.hand_points(np.uint64(trick))) + pending, 0


def mid_trick(hands, leader: int, decl: int, trump: int, won: int, pending: int, got: int, cards,
              table=None, moves=None, stats=None) -> int:
    """The declarer's double-dummy deal points (int) of the whole deal from a position inside a
    trick: ``got`` the points he already has (cards won, marriages counted), ``cards`` the card
    numbers (0..63, docs/RULES.md §1.1 layout) already played to the current trick in play
    order (0..3 of them, led by ``leader``; three: the trick is complete and goes to its winner),
    ``hands`` uint64[3] by player *without* those cards;
    ``won`` 1 if the declarer has won a trick, ``pending`` the marriage points he declared before
    winning one.  The rest of the trick is searched card by card by plain minimax (the declarer
    declares whenever he leads a marriage card, as :func:`solve_position` assumes), every trick
    after by :func:`search_from`.  With no card on the trick it is ``got`` + :func:`search_from`.

    ``table``: ``(keys, bounds)`` of :func:`new_table`, ``moves`` int64 :data:`MOVES_SHAPE`
    scratch, ``stats`` int64[1] node counter; each made afresh when None (pass them to reuse the
    table across calls of one deal).  Raises ValueError for more than three cards on the trick."""
    cards = [int(c) for c in cards]
    if len(cards) > 3:
        raise ValueError(f"mid_trick takes 0 to 3 cards played to the trick, got {len(cards)}")
    keys, bounds = new_table() if table is None else table
    moves = np.zeros(MOVES_SHAPE, dtype=np.int64) if moves is None else moves
    stats = np.zeros(1, dtype=np.int64) if stats is None else stats
    return _mid_trick(np.asarray(hands, dtype=np.uint64), leader, decl, trump, won, pending, got, cards,
                      keys, bounds, moves, stats)


def _mid_trick(h, leader, decl, trump, won, pending, got, cards, keys, bounds, moves, stats) -> int:
    pos = len(cards)
    if pos == 3:
        trick = sum(1 << c for c in cards)
        best = int(rules.trick_winner(np.uint64(trick), cards[0] >> 4, trump))
        w = (leader + cards.index(best)) % 3
        if w == decl:
            (got, pending), won = take(got, pending, trick), 1
        return got + int(search_from(h, w, decl, trump, won, pending, -1, 9999, keys, bounds, moves, stats))
    p = (leader + pos) % 3
    if h[p] == 0:
        return got  # the deal is over
    legal = int(rules.legal_plays(h[p], -1 if pos == 0 else cards[0] >> 4, trump))
    values = []
    for c in (c for c in range(64) if legal >> c & 1):
        g, pe = got, pending
        if pos == 0 and p == decl and rules.can_declare(h[p], c):
            g, pe = declare(g, pe, won, c >> 4, trump)
        hh = h.copy()
        hh[p] &= ~np.uint64(1 << c)
        values.append(_mid_trick(hh, leader, decl, trump, won, pe, g, cards + [c], keys, bounds, moves, stats))
    return max(values) if p == decl else min(values)


@jit(inline="always")
def _put_trick(mp, trick, n, c):
    """The current trick's cards in play order, ``trick[:n]`` then ``c``, into the ``moves`` row the
    search reads them from (``mp``: the scratch as a pointer; the search writes that row too)."""
    for k in range(n):
        mp[_ROW24 + k] = trick[k]
    mp[_ROW24 + n] = c


@jit(inline="always")
def _card_start(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending, h, mp):
    """The search's start after player ``me`` plays ``c`` now in world ``w`` (the per-card set-up
    of :func:`solve_cards`, :func:`best_cards` and :func:`common_best`): sets ``h`` (uint64[3]) to
    the world's hands less ``c`` and the trick's row of ``mp`` (:func:`_put_trick`); returns
    ``(off, pos, leader, lead, on_table, won, pending)``: the declarer's points already settled
    (the marriage he declares with a K or Q led once he has won a trick; when ``c`` ends the
    trick, its cards and pending marriage if he wins it, :func:`_trick_end`) and :func:`_search`'s
    arguments from there, so that the points to come are ``off`` plus the search's value.
    ``pending``: the marriage points declared before his first trick, in this world."""
    cb = U64(1) << U64(c)
    h[0] = hands[w, 0]
    h[1] = hands[w, 1]
    h[2] = hands[w, 2]
    h[me] &= ~cb
    off = np.int64(0)
    npend = pending
    if n == 0 and me == decl and can_declare(hands[w, me], c):
        if won:
            off = marriage_value(c >> 4, trump)
        else:
            npend += marriage_value(c >> 4, trump)
    _put_trick(mp, trick, n, c)
    if n < 2:
        lead = c if n == 0 else trick[0]
        return off, np.int64(n + 1), leader, lead, on_table | cb, won, npend
    wnr, gain, nwon, npend = _trick_end(on_table | cb, trick[0] >> 4, trump, leader, me, decl, won, npend, mp)
    return gain, _ZERO, wnr, _NEG, U64(0), nwon, npend


@jit
def solve_cards(hands, me, legal, leader, decl, trump, won, pending, trick, keys, bounds, moves, stats, out):
    """The declarer's double-dummy points to come after each card player ``me`` may play now, in
    each of ``W`` worlds, one call for a sampled-search decision (:mod:`cardsim.games.g501.pimc`).

    ``hands``: uint64[W, 3] each world's hands by player in play order, player ``me`` holding the
    cards of ``legal`` (int64[L]) and none of the trick's; ``trick``: int64[n] the cards already
    played to the current trick in play order (n = 0..2, led by player ``leader``, so that
    ``me == (leader + n) % 3``); ``won``: 1 if the declarer (player ``decl``) has won a trick;
    ``pending``: int64[W], the marriage points he declared before winning one, per world.  Writes
    ``out`` int64[W, L]: the points he gets from this trick (its cards, plus the marriage
    ``me`` declares with a K or Q led as declarer, as :func:`solve_position` assumes he does) to
    the end of the deal.  The rest of the trick and the tricks after it by :func:`_search` on the
    whole window (exact values), sharing the table ``(keys, bounds)`` (:func:`new_table`), the
    ``moves`` scratch (:data:`MOVES_SHAPE`) and ``stats`` (int64[1] node counter)."""
    n = trick.shape[0]
    on_table = U64(0)
    for k in range(n):
        on_table |= U64(1) << U64(trick[k])
    h = np.empty(3, dtype=np.uint64)
    mp = _data(moves)
    mask = keys.shape[0] - 1
    for w in range(hands.shape[0]):
        for j in range(legal.shape[0]):
            off, pos, ldr, lead, table, won1, npend = _card_start(hands, w, me, legal[j], n, trick, on_table, leader,
                                                                  decl, trump, won, pending[w], h, mp)
            out[w, j] = off + _search(_data(h), pos, ldr, decl, trump, lead, table, won1, npend, _NEG,
                                      np.int64(9999), _data(keys), _data(bounds), mask, mp, _data(stats))


@jit
def best_cards(hands, me, legal, leader, decl, trump, won, pending, trick, keys, bounds, moves, stats, out):
    """Which cards reach the best double-dummy value for player ``me`` in each world: writes
    ``out`` int64[W, L] 1 where ``legal[j]`` gives the declarer the most points of all of ``me``'s
    cards (``me`` the declarer) or the fewest (``me`` a defender), else 0 — the argmax set of
    :func:`solve_cards`' row.  Arguments as :func:`solve_cards`.

    The null-window search: the previous world's best card's exact value first, then
    each other card asked only whether it reaches the best so far (one null-window search; a
    second only when it does, to see whether it beats it; an exact one only for a card that does)."""
    n = trick.shape[0]
    on_table = U64(0)
    for k in range(n):
        on_table |= U64(1) << U64(trick[k])
    h = np.empty(3, dtype=np.uint64)
    mp = _data(moves)
    mask = keys.shape[0] - 1
    maxing = me == decl
    n_cards = legal.shape[0]
    first = 0
    for w in range(hands.shape[0]):
        best = np.int64(0)
        have = False
        start = first
        for step in range(n_cards):
            j = start if step == 0 else (step - 1 if step - 1 < start else step)
            c = legal[j]
            off, pos0, ldr, lead0, table0, won0, npend = _card_start(hands, w, me, c, n, trick, on_table, leader,
                                                                     decl, trump, won, pending[w], h, mp)
            # Windows on the search's own value (the declarer's points after ``off``).
            if not have:
                a, b = _NEG, np.int64(9999)
            else:
                x = best - off
                a, b = (x - 1, x) if maxing else (x, x + 1)
            g = _search(_data(h), pos0, ldr, decl, trump, lead0, table0, won0, npend, a, b, _data(keys),
                        _data(bounds), mask, mp, _data(stats))
            if not have:
                best, have = off + g, True
                out[w, j] = 1
                continue
            x = best - off
            reaches = g >= x if maxing else g <= x
            out[w, j] = 0
            if not reaches:
                continue
            better = g > x if maxing else g < x
            if not better:
                a, b = (x, x + 1) if maxing else (x - 1, x)
                _put_trick(mp, trick, n, c)
                g = _search(_data(h), pos0, ldr, decl, trump, lead0, table0, won0, npend, a, b, _data(keys),
                            _data(bounds), mask, mp, _data(stats))
                better = g > x if maxing else g < x
            if better:
                # Its exact value: a window open on the far side of the old best.
                a, b = (x, np.int64(9999)) if maxing else (_NEG, x)
                _put_trick(mp, trick, n, c)
                g = _search(_data(h), pos0, ldr, decl, trump, lead0, table0, won0, npend, a, b, _data(keys),
                            _data(bounds), mask, mp, _data(stats))
                best = off + g
                for q in range(n_cards):
                    out[w, q] = 0
                first = j
            out[w, j] = 1


@jit(inline="always")
def _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending, a, b, h, keys, bounds,
                mask, mp, stats):
    """The declarer's points to come after player ``me`` plays ``c`` now in world ``w`` (this
    trick's cards and the marriage he declares with it included, as :func:`solve_cards` counts
    them), fail-soft within ``(a, b)`` on that total.  ``h``: uint64[3] scratch; ``mp``: the
    ``moves`` scratch as a pointer; the rest as in :func:`solve_cards`."""
    off, pos, ldr, lead, table, won1, npend = _card_start(hands, w, me, c, n, trick, on_table, leader, decl, trump,
                                                          won, pending, h, mp)
    return off + _search(_data(h), pos, ldr, decl, trump, lead, table, won1, npend, a - off, b - off, _data(keys),
                         _data(bounds), mask, mp, _data(stats))


@jit
def common_best(hands, me, legal, leader, decl, trump, won, pending, trick, keys, bounds, moves, stats, out):
    """The cards of player ``me`` that reach the best double-dummy value in **every** world: writes
    ``out`` int64[L] 1 for those (the intersection of :func:`best_cards`' rows: the most points
    for the declarer, the fewest for a defender, docs/RULES.md §1.5-§1.7), 0 elsewhere, and
    returns how many (int64; 0 when no card is best in every world).  Arguments as
    :func:`solve_cards`.

    The question a sampled-search decision asks first (:func:`cardsim.strategies.pimc.decide`):
    world by world, the cards best in every world so far are searched first (the first one's
    exact value, the others as in :func:`best_cards`), then each other card is asked only
    whether it beats them (one null-window search); one that does ends the search at once (no
    card is best in every world), and so does a world that leaves no common card."""
    n = trick.shape[0]
    on_table = U64(0)
    for k in range(n):
        on_table |= U64(1) << U64(trick[k])
    h = np.empty(3, dtype=np.uint64)
    mp = _data(moves)
    mask = keys.shape[0] - 1
    maxing = me == decl
    n_cards = legal.shape[0]
    at = np.zeros(n_cards, dtype=np.int64)
    order = np.empty(n_cards, dtype=np.int64)
    for j in range(n_cards):
        out[j] = 1
    count = n_cards
    top = np.int64(9999)
    for w in range(hands.shape[0]):
        # The common cards so far first, then the others.
        k = 0
        for j in range(n_cards):
            if out[j]:
                order[k] = j
                k += 1
        n_common = k
        for j in range(n_cards):
            if not out[j]:
                order[k] = j
                k += 1
        for j in range(n_cards):
            at[j] = 0
        best = np.int64(0)
        for step in range(n_cards):
            j = order[step]
            c = legal[j]
            if step == 0:
                best = _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending[w], _NEG,
                                   top, h, keys, bounds, mask, mp, stats)
                at[j] = 1
                continue
            if step >= n_common:
                # Not best in an earlier world: does it beat the common cards' best here?  Not
                # when a twin of it is at least as good in this world (:func:`_dominated`): that
                # twin is a common card (no better than the best) or is asked here itself.
                for q in range(3):
                    h[q] = hands[w, q]
                for q in range(n):
                    mp[_ROW24 + q] = trick[q]
                if _dominated(h, hands[w, me], hands[w, 0] | hands[w, 1] | hands[w, 2] | on_table, c, n, me, leader,
                              decl, trick[0] if n else _NEG, on_table, trump, mp):
                    continue
                a, b = (best, best + 1) if maxing else (best - 1, best)
                g = _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending[w], a, b, h,
                                keys, bounds, mask, mp, stats)
                if (maxing and g > best) or (not maxing and g < best):
                    for q in range(n_cards):
                        out[q] = 0
                    return np.int64(0)
                continue
            # A common card: does it reach the best so far, and does it beat it (as best_cards)?
            a, b = (best - 1, best) if maxing else (best, best + 1)
            g = _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending[w], a, b, h,
                            keys, bounds, mask, mp, stats)
            if (maxing and g < best) or (not maxing and g > best):
                continue
            better = g > best if maxing else g < best
            if not better:
                a, b = (best, best + 1) if maxing else (best - 1, best)
                g = _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending[w], a, b, h,
                                keys, bounds, mask, mp, stats)
                better = g > best if maxing else g < best
            if better:
                a, b = (best, top) if maxing else (_NEG, best)
                best = _card_value(hands, w, me, c, n, trick, on_table, leader, decl, trump, won, pending[w], a, b,
                                   h, keys, bounds, mask, mp, stats)
                for q in range(n_cards):
                    at[q] = 0
            at[j] = 1
        count = 0
        for j in range(n_cards):
            out[j] = out[j] & at[j]
            count += out[j]
        if count == 0:
            return np.int64(0)
    return np.int64(count)
