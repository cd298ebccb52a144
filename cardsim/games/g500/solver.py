"""Double-dummy solver for Five Hundred (docs/RULES.md §3.5): the declaring side's maximum tricks.

The position is the one play starts from (docs/RULES.md §3.4): the four ten-card hands after the
declarer has taken the kitty and discarded, the declarer on lead, the contract's denomination
fixed.  All hands are open; the declaring side maximises its tricks, the other side minimises
them.  The search works in the effective layout of the denomination
(:mod:`cardsim.games.g500.constants`) and plays by the engine's own rules functions
(:func:`~cardsim.games.g500.rules.legal_plays`, :func:`~cardsim.games.g500.rules.trick_winner`,
:func:`~cardsim.games.g500.rules.card_suit`), so bowers, jokers and following suit are the
engine's.  A no-trump joker led names a suit (docs/RULES.md §3.5): each of the four names is a move.

Search: alpha-beta on team 0's tricks (seats 0+2) by null windows, and a transposition table
at trick starts with DDS-style partial keys: an entry holds for every position with the same
suit lengths in every hand, leader and denomination whose top cards of each suit, down to the
lowest one the result depended on, are held by the same hands (so a table may be kept across
deals: a stored bound only depends on the position's class).  Sure tricks of both sides bound
each trick start, every legal card is searched but a card equivalent to one searched at the
same node whose holders the result already depends on (:func:`_covered_twin`; other equivalent
cards are not merged: whether two cards are equivalent depends on holders of lower cards that a
class leaves open), moves are ordered as in :func:`_order` (safe winners led first, the lowest
of touching ones, cheapest winners, discards from long suits), and the last trick is played out
directly (every card forced; no table entry).
BENCHMARKS.md ("Double-dummy") has the node counts.
"""
from __future__ import annotations

import numpy as np
from numba import types

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit, popcount
from cardsim.alphabeta import ab_update
from cardsim.games.g500.constants import NT, SUIT_MASK, TRUMP_MASK
from cardsim.games.g500.rules import card_suit, legal_plays, remap_hand, trick_winner

U64 = np.uint64
TT_BITS = 18
"""The transposition table holds 2**TT_BITS entries (about 14 MB; 2**16 to 2**22 all take within 3% of
the same nodes on real deals)."""
WAYS = 4
"""Entries per bucket: the positions with one shape (suit lengths of every hand, leader,
denomination) hash to one bucket of ``WAYS`` consecutive rows, where entries that differ in
the ranks they depend on live side by side (newest first)."""
MAX_MOVES = 40
"""Columns of the move scratch: one node's moves (ten cards, plus three more names for each
no-trump joker led); row 40 holds scratch (the relative hands in columns 0..3, the relevant
cards of the last search in column 4) and row 41 the best move found at each depth."""
_MIX = (U64(0x9E3779B97F4A7C15), U64(0xC2B2AE3D27D4EB4F))
_W = 4
"""Column of ``moves[40]`` through which a search hands its relevant cards to its caller."""


def new_table(bits: int = TT_BITS):
    """A transposition table: ``(keys uint64[2**bits, 6], bounds int16[2**bits, 3])``.

    An entry holds for a class of positions at a trick start: the positions with the shape
    ``keys[:, 4]`` (every hand's length in every suit, :func:`_shape`) and tag ``keys[:, 5]``
    (``1 + leader + 4 * denomination``, plus the jokers' holders in no-trump; 0 = empty) whose
    hands, in relative ranks (:func:`_relative`), agree with ``keys[:, 0:3]`` (hands 0..2) on
    the mask ``keys[:, 3]``: the top cards of each suit whose holders the stored result
    depended on (lower cards only count by number).  ``bounds``: the lower and upper bound of
    team 0's tricks still to come and the best lead found there (relative, 0 = none)."""
    return np.zeros((1 << bits, 6), dtype=np.uint64), np.zeros((1 << bits, 3), dtype=np.int16)


@jit(inline="always")
def _shape(h, denom):
    """Every hand's length in every suit, four bits each (uint64): with the leader, what
    positions must share to be compared rank by rank."""
    x = U64(0)
    for s in range(4):
        for lane_ in range(4):
            x |= U64(popcount(h[s] & SUIT_MASK[denom, lane_])) << U64(16 * s + 4 * lane_)
    return x


@jit(inline="always")
def _tag(h, leader, denom):
    """``1 + leader + 4 * denom``; in no-trump also who holds each joker (their own group)."""
    t = U64(1 + leader + 4 * denom)
    if denom == NT:
        for s in range(4):
            t |= ((h[s] & TRUMP_MASK[NT]) >> U64(14)) << U64(8 + 2 * s)
    return t


@jit(inline="always")
def _bucket(shape, tag, mask):
    x = (shape * _MIX[0]) ^ (tag * _MIX[1])
    x ^= x >> U64(29)
    x *= _MIX[0]
    x ^= x >> U64(32)
    return np.int64(x & U64(mask)) & ~np.int64(WAYS - 1)


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
def _rel_mask(w, out, denom):
    """The relative mask (as :func:`_relative` numbers cards) of the cards of each suit at or
    above the lowest card of ``w`` in that suit: the cards a result depending on ``w`` needs
    held by the same hands (``out``: the cards still in hands)."""
    m = U64(0)
    for lane_ in range(4):
        g = out & SUIT_MASK[denom, lane_]
        ws = w & g
        if ws == U64(0):
            continue
        n = popcount(g)
        k = popcount(g & ~((U64(1) << U64(lowest_bit(ws))) - U64(1)))
        m |= ((U64(1) << U64(k)) - U64(1)) << U64(16 * lane_ + n - k)
    return m


@jit(inline="always")
def _cut_cards(m, out, denom):
    """The inverse of :func:`_rel_mask` in the position with cards ``out``: for each suit
    the lowest card of the top ones that the relative mask ``m`` covers."""
    w = U64(0)
    for lane_ in range(4):
        k = popcount(m & (U64(0xFFFF) << U64(16 * lane_)))
        if k == 0:
            continue
        g = out & SUIT_MASK[denom, lane_]
        for _ in range(popcount(g) - k):
            g &= g - U64(1)
        w |= U64(1) << U64(lowest_bit(g))
    return w


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
def sure_tricks(h, leader, denom):
    """``(leader's side, other side, cards, other cards)``: tricks each side is sure to take
    from a trick start, and the cards each count depends on (as in :func:`_rel_mask`: the
    lowest of the top cards involved in each suit).

    The leader's side: his trumps above every other trump (no-trump: jokers), cashed first,
    then, when the other side has no trump left (or, in a trump contract, none after those
    rounds), his cards above every other card of their suit; or, if more, the trumps of one
    hand of the side (his or his partner's) above every trump of the other side.  The other side:
    the trumps of one of its hands above every trump of the leader's side (each such trump wins
    the trick it is played to for its side, and a hand plays one card a trick).  ``h``: uint64[4]
    the hands in the effective layout of ``denom``; ``leader``: the seat to lead; the counts are
    int64, the card sets uint64 (docs/RULES.md §3.5)."""
    tm = TRUMP_MASK[denom]
    mine = h[leader]
    others = U64(0)
    for s in range(4):
        if s != leader:
            others |= h[s]
    opp = h[(leader + 1) % 4] | h[(leader + 3) % 4]
    w = U64(0)
    top = mine & tm
    if others & tm:
        top &= ~((U64(2) << U64(highest_bit(others & tm))) - U64(1))
    n = popcount(top)
    if top:
        w |= U64(1) << U64(lowest_bit(top))
    # Side winners count once the other side has no trump left: at once, or (trump contract)
    # after the top trumps cashed first have drawn theirs (they must follow to trumps led;
    # no-trump jokers follow no suit, so leading them draws nothing).
    drawn = opp & tm == U64(0)
    if not drawn and denom != NT:
        drawn = popcount(h[(leader + 1) % 4] & tm) <= n and popcount(h[(leader + 3) % 4] & tm) <= n
    if drawn:
        for lane_ in range(4):
            g = SUIT_MASK[denom, lane_] & ~tm
            mg = mine & g
            if mg == U64(0):
                continue
            og = others & g
            if og:
                mg &= ~((U64(2) << U64(highest_bit(og))) - U64(1))
            if mg:
                n += popcount(mg)
                w |= U64(1) << U64(lowest_bit(mg))
    # Trumps of one hand above every trump of the other side: each wins a trick for its side
    # (the partner may overtake it, still the side's trick) and one hand plays one a trick.
    side = (h[leader] | h[(leader + 2) % 4]) & tm
    opps = opp & tm
    other = 0
    w_other = U64(0)
    for k in range(4):
        s = (leader + k) % 4
        rivals = opps if k % 2 == 0 else side
        above = h[s] & tm
        if rivals:
            above &= ~((U64(2) << U64(highest_bit(rivals))) - U64(1))
        count = popcount(above)
        if count == 0:
            continue
        if k % 2 == 0:
            if count > n:
                n = count
                w = U64(1) << U64(lowest_bit(above))
        elif count > other:
            other = count
            w_other = U64(1) << U64(lowest_bit(above))
    return n, other, w, w_other


@jit(inline="always")
def _last_trick(h, leader, denom):
    """``(team 0's tricks, cards it depends on)`` of the last trick, every hand one card: the
    highest trump (no-trump: joker) wins, else the highest card of the leader's lane (a no-trump
    joker led wins whatever suit it names).  The winner's rank counts (as in :func:`search`'s
    trick end) only when another card of its group is in the trick."""
    t = h[0] | h[1] | h[2] | h[3]
    m = t & TRUMP_MASK[denom]
    if m == U64(0):
        m = t & SUIT_MASK[denom, lowest_bit(h[leader]) >> 4]
    wc = U64(1) << U64(highest_bit(m))
    won = 1 if (h[0] | h[2]) & wc else 0
    return won, (wc if popcount(m) >= 2 else U64(0))


@jit(inline="always")
def _covered_twin(hand, rivals, searched, w, lane, c):
    """Whether the search may skip card ``c`` of ``hand`` (uint64, lane mask ``lane``): a card
    already searched at this node (``searched``) is equivalent to it (no card of ``rivals``, the
    other hands' and the trick's, lies between them) **and** the result so far already depends on
    every card of the lane from the lower of the two up (``w``'s lowest card of the lane is at or
    below both), so the table's class of the result fixes who holds them: in every position the
    entry will stand for, the two are equivalent too.  Sound without marking anything new; it
    applies mostly to a card touching the lowest winner searched first (that winner is in ``w``)."""
    wl = w & lane
    if wl == U64(0):
        return False
    cut = lowest_bit(wl)
    if c < cut:
        return False
    o = rivals & lane
    block = hand & lane & ~((U64(1) << U64(cut)) - U64(1))
    above = o & ~((U64(2) << U64(c)) - U64(1))
    if above:
        block &= (U64(1) << U64(lowest_bit(above))) - U64(1)
    below = o & ((U64(1) << U64(c)) - U64(1))
    if below:
        block &= ~((U64(2) << U64(highest_bit(below))) - U64(1))
    return searched & block != U64(0)


@jit(inline="always")
def _groups_of(card, denom):
    """The mask of the cards a card is ranked against: its lane, or the jokers in no-trump."""
    if denom == NT and (U64(1) << U64(card)) & TRUMP_MASK[NT]:
        return TRUMP_MASK[NT]
    return SUIT_MASK[denom, card >> 4]


@jit(inline="always")
def _best(table_cards, denom, led):
    """The card winning the cards on the table so far (uint64 set, not empty)."""
    m = table_cards & TRUMP_MASK[denom]
    if m == U64(0):
        m = table_cards & SUIT_MASK[denom, led]
    return highest_bit(m)


@jit(inline="always")
def _beaters(cards, target, denom, led):
    """The cards of ``cards`` that would beat the card ``target`` in a trick led in ``led``."""
    tm = TRUMP_MASK[denom]
    above = ~((U64(2) << U64(target)) - U64(1))
    if (U64(1) << U64(target)) & tm:
        return cards & tm & above
    return (cards & tm) | (cards & SUIT_MASK[denom, led] & above)


@jit(inline="always")
def _strongest(hand, denom, led):
    """The card of ``hand`` most able to win a trick led in ``led`` (-1: none can)."""
    f = hand & SUIT_MASK[denom, led]
    if f:
        return highest_bit(f)
    if hand & TRUMP_MASK[denom]:
        return highest_bit(hand & TRUMP_MASK[denom])
    return -1


@jit(inline="always")
def _safe_lead(h, seat, lane_mask, denom):
    """Whether neither opponent of ``seat`` can ruff a lead in the lane ``lane_mask``."""
    tm = TRUMP_MASK[denom]
    for k in (1, 3):
        o = h[(seat + k) % 4]
        if o & lane_mask & ~tm == U64(0) and o & tm and lane_mask & tm == U64(0):
            return False
    return True


@jit(inline="always")
def _emit_leads(cards, denom, moves, depth, n):
    """Append the leads of ``cards`` from the highest to ``moves[depth, n:]`` (a no-trump joker
    once per suit it may name); returns the new count."""
    m = cards
    while m:
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


@jit(inline="always")
def _order(legal, pos, leader, seat, led, denom, on_table, trick, moves, depth, h):
    """Write the moves of ``legal`` to ``moves[depth]`` in search order; returns how many.

    A move is ``card + 64 * (named suit + 1)`` (0 = no name).  Leads: winners no opponent can
    ruff, then low cards to the partner's such winners, then the top card of every other suit
    no opponent can ruff, then the rest from the top, suit by suit; a no-trump joker once per
    suit named.  Follows: first the cheapest cards that beat an opponent winning now (none
    for the second hand when his partner, last to play, can top the trick), or, when the
    partner is winning, those that beat what an opponent still to play could add; then the
    lowest card of each other suit, the hand's longest suit first; then the rest from the
    lowest.  ``h``: the hands (the card not yet played)."""
    n = 0
    if pos == 0:
        # A suit an opponent can ruff is led last: winning leads elsewhere are far more often best.
        out = h[0] | h[1] | h[2] | h[3]
        partner = h[(seat + 2) % 4]
        wins = U64(0)
        unders = U64(0)
        tops = U64(0)
        for lane_ in range(4):
            lane_mask = U64(0xFFFF) << U64(16 * lane_)
            g = legal & lane_mask
            if g == U64(0):
                continue
            top = U64(1) << U64(highest_bit(out & lane_mask))
            if g & top and _safe_lead(h, seat, lane_mask, denom):
                # The lowest of the seat's winners above every other card: its touching higher
                # ones are then skipped (:func:`_covered_twin`, the winner is in the result's cards).
                rivals = out & lane_mask & ~h[seat]
                block = g if rivals == U64(0) else g & ~((U64(2) << U64(highest_bit(rivals))) - U64(1))
                wins |= U64(1) << U64(lowest_bit(block))
            elif partner & top and _safe_lead(h, seat, lane_mask, denom):
                unders |= U64(1) << U64(lowest_bit(g))
            elif _safe_lead(h, seat, lane_mask, denom):
                tops |= U64(1) << U64(highest_bit(g))
        n = _emit_leads(wins, denom, moves, depth, n)
        n = _emit_leads(unders, denom, moves, depth, n)
        n = _emit_leads(tops, denom, moves, depth, n)
        return _emit_leads(legal & ~(wins | unders | tops), denom, moves, depth, n)
    best = _best(on_table, denom, led)
    wseat = leader
    for i in range(pos):
        if trick[i] == best:
            wseat = (leader + i) % 4
    partner_wins = (wseat - seat) % 2 == 0
    # The strongest card an opponent still to play could beat the trick's best card with.
    threat = -1
    for q in range(pos + 1, 4):
        s = (leader + q) % 4
        if (s - seat) % 2 == 1:
            st = _strongest(h[s], denom, led)
            if st >= 0 and _beaters(U64(1) << U64(st), best if threat < 0 else threat, denom, led):
                threat = st
    # First the cheapest cards that beat an opponent winning now, or, when the partner is
    # winning, that beat what an opponent still to play could add; then the rest, lowest first.
    first = U64(0)
    if not partner_wins:
        first = _beaters(legal, best, denom, led)
        if pos == 1:
            # Second hand low when the partner, last to play, can beat the lead and whatever
            # the leader's partner could add.
            st = _strongest(h[(seat + 2) % 4], denom, led)
            if st >= 0 and _beaters(U64(1) << U64(st), best if threat < 0 else threat, denom, led):
                first = U64(0)
    elif threat >= 0:
        first = _beaters(legal, threat, denom, led)
    m = first
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        moves[depth, n] = c
        n += 1
    # The rest: the lowest card of each suit first (discards from every suit get tried early).
    rest = legal & ~first
    lows = U64(0)
    for lane_ in range(4):
        g = rest & (U64(0xFFFF) << U64(16 * lane_)) & ~TRUMP_MASK[denom]
        if g:
            lows |= U64(1) << U64(lowest_bit(g))
    # ... from the longest suit first.
    hand = h[seat]
    while lows:
        pick = -1
        longest = -1
        m = lows
        while m:
            c = lowest_bit(m)
            m &= m - U64(1)
            k = popcount(hand & (U64(0xFFFF) << U64(c & 48)))
            if k > longest:
                longest = k
                pick = c
        lows &= ~(U64(1) << U64(pick))
        rest &= ~(U64(1) << U64(pick))
        moves[depth, n] = pick
        n += 1
    m = rest
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        moves[depth, n] = c
        n += 1
    return n

@jit(inline="always")
def _probe(keys, bounds, base, shape, tag, rel, out, denom, lo, hi, w_lo, w_hi, h):
    """Narrow ``(lo, hi)`` (which hold because of the cards ``w_lo``, ``w_hi``) by the entries
    of the bucket at ``base`` that hold the position (relative hands ``rel``): ``(lo, hi,
    w_lo, w_hi, hint)`` with the first stored best lead (absolute, -1 = none); a bound taken
    from an entry comes with its cut cards (:func:`_cut_cards`)."""
    hint = -1
    for e in range(base, base + WAYS):
        if keys[e, 5] != tag or keys[e, 4] != shape:
            continue
        m = keys[e, 3]
        if (rel[0] & m) != keys[e, 0] or (rel[1] & m) != keys[e, 1] or (rel[2] & m) != keys[e, 2]:
            continue
        if bounds[e, 0] > lo:
            lo = np.int64(bounds[e, 0])
            w_lo = _cut_cards(m, out, denom)
        if bounds[e, 1] < hi:
            hi = np.int64(bounds[e, 1])
            w_hi = _cut_cards(m, out, denom)
        if hint < 0 and bounds[e, 2] > 0:
            hint = _absolute_move(np.int64(bounds[e, 2]) - 1, h, denom)
    return lo, hi, w_lo, w_hi, hint


@jit(inline="always")
def _store(keys, bounds, base, shape, tag, rel, m, lo, hi, move):
    """Store bounds for the class of positions ``(shape, tag, rel on m)``: over the entry of
    that class if the bucket has one (keeping the tighter bounds of both), else as the
    bucket's newest entry (the oldest drops)."""
    p0, p1, p2 = rel[0] & m, rel[1] & m, rel[2] & m
    e = base + WAYS - 1
    for i in range(base, base + WAYS):
        if (keys[i, 5] == tag and keys[i, 4] == shape and keys[i, 3] == m and keys[i, 0] == p0
                and keys[i, 1] == p1 and keys[i, 2] == p2):
            e = i
            lo = max(lo, np.int64(bounds[i, 0]))
            hi = min(hi, np.int64(bounds[i, 1]))
            break
    for i in range(e, base, -1):
        for j in range(6):
            keys[i, j] = keys[i - 1, j]
        for j in range(3):
            bounds[i, j] = bounds[i - 1, j]
    keys[base, 0], keys[base, 1], keys[base, 2] = p0, p1, p2
    keys[base, 3], keys[base, 4], keys[base, 5] = m, shape, tag
    bounds[base, 0] = lo
    bounds[base, 1] = hi
    bounds[base, 2] = move


_ZERO = np.int64(0)
_NEG = np.int64(-1)
_I = types.int64
_SEARCH_SIG = _I(types.uint64[::1], types.int64[::1], _I, _I, _I, _I, _I, _I, types.uint64[:, ::1],
                 types.int16[:, ::1], types.int64[:, ::1], types.int64[::1])
"""One compiled signature: numba would otherwise compile the recursion once per literal
argument pattern (slow), and such caches crash when loaded."""


@jit(signature_or_function=_SEARCH_SIG)
def search(h, trick, pos, leader, led, denom, alpha, beta, keys, bounds, moves, stats):
    """Team 0's tricks from the current trick on (this trick included), within ``(alpha, beta)``
    (fail-soft).  ``h``: uint64[4] hands (changed and restored); ``trick``: int64[4] cards of
    this trick so far in play order; ``pos``: cards already on it; ``led``: its suit (named
    suit after a no-trump joker), −1 at a trick start; ``moves``: int64[42, MAX_MOVES] scratch
    (rows 0..39 the moves by cards played, 40 and 41 see :data:`MAX_MOVES`).

    Before returning, writes to ``moves[40, _W]`` the cards the result depends on: a set whose
    lowest card in each suit says that the result holds for every position of the same suit
    lengths whose cards at or above it are held by the same hands (the table stores it as a
    relative mask, :func:`_rel_mask`).  One function, not two, because numba cannot cache
    mutually recursive functions.
    """
    stats[0] += 1
    if pos == 0:
        left = popcount(h[leader])
        if left == 0:
            moves[40, _W] = 0
            return 0
        if left == 1:
            # Every card forced: no table entry (the cheapest positions would push out dearer ones).
            won, w1 = _last_trick(h, leader, denom)
            moves[40, _W] = np.int64(w1)
            return won
        mine, theirs, w_mine, w_theirs = sure_tricks(h, leader, denom)
        if leader % 2 == 0:
            lo, hi, w_lo, w_hi = mine, left - theirs, w_mine, w_theirs
        else:
            lo, hi, w_lo, w_hi = theirs, left - mine, w_theirs, w_mine
        if lo >= beta:
            moves[40, _W] = np.int64(w_lo)
            return lo
        if hi <= alpha:
            moves[40, _W] = np.int64(w_hi)
            return hi
        out = h[0] | h[1] | h[2] | h[3]
        shape = _shape(h, denom)
        tag = _tag(h, leader, denom)
        base = _bucket(shape, tag, keys.shape[0] - 1)
        rel = moves[40, :4].view(np.uint64)
        _relative(h, denom, rel)
        lo, hi, w_lo, w_hi, hint = _probe(keys, bounds, base, shape, tag, rel, out, denom, lo, hi, w_lo, w_hi, h)
        if lo >= beta:
            moves[40, _W] = np.int64(w_lo)
            return lo
        if hi <= alpha:
            moves[40, _W] = np.int64(w_hi)
            return hi
        if lo == hi:
            moves[40, _W] = np.int64(w_lo | w_hi)
            return lo
        a0 = max(alpha, lo)
        b0 = min(beta, hi)
        # At pos -1 ``led`` carries the lead to try first.  np.int64(hint): ``hint`` alone types
        # as Literal[int](-1) on one path of _probe and compiled the recursion a second time.
        v = search(h, trick, _NEG, leader, np.int64(hint), denom, a0, b0, keys, bounds, moves, stats)
        w = U64(moves[40, _W])
        depth = 40 - popcount(out)
        # The search's own bound holds because of its cards alone: store it with them.
        s_lo, s_hi = 0, left
        if v <= a0:
            s_hi = v
        elif v >= b0:
            s_lo = v
        else:
            s_lo = v
            s_hi = v
        # The children used the scratch row: compute the relative hands again.
        _relative(h, denom, rel)
        _store(keys, bounds, base, shape, tag, rel, _rel_mask(w, out, denom), s_lo, s_hi,
               1 + _relative_move(moves[41, depth], h, denom))
        # The caller reads ``v`` against its own window, which the bounds narrowed.
        if a0 > alpha:
            w |= w_lo
        if b0 < beta:
            w |= w_hi
        moves[40, _W] = np.int64(w)
        return v
    if pos == 4:
        w = trick_winner(trick, denom, led)
        nxt = (leader + w) % 4
        won = 1 if nxt % 2 == 0 else 0
        # The next tricks reuse ``trick``: the cards of this one are put back for the callers.
        t0, t1, t2, t3 = trick[0], trick[1], trick[2], trick[3]
        v = won + search(h, trick, _ZERO, nxt, _NEG, denom, alpha - won, beta - won, keys, bounds, moves, stats)
        trick[0], trick[1], trick[2], trick[3] = t0, t1, t2, t3
        # The winner's rank counts when another card of its group (trumps, else the suit led)
        # was in the trick; a lone trump or the lone card of the suit led wins whatever its rank.
        wc = U64(1) << U64(trick[w])
        group = TRUMP_MASK[denom] if wc & TRUMP_MASK[denom] else SUIT_MASK[denom, led]
        played = (U64(1) << U64(t0)) | (U64(1) << U64(t1)) | (U64(1) << U64(t2)) | (U64(1) << U64(t3))
        if popcount(played & group) >= 2:
            moves[40, _W] = np.int64(U64(moves[40, _W]) | wc)
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
    # Every legal card is a move, equivalent ones too, unless the result already depends on the
    # holders of both (:func:`_covered_twin`): merging them otherwise would make a result depend on
    # who holds the cards between them, which the table's classes do not see (a class member
    # where they are not equivalent has a move no one searched: tests/test_dd_pimc_solve.py).
    # Marking every merged card as relevant instead cost 4x the time; searching them costs about
    # 1.4x, their subtrees mostly answered by the table (BENCHMARKS.md).
    legal = legal_plays(hand, denom, led if pos > 0 else -1)
    depth = 40 - popcount(out_cards)
    n = _order(legal, pos, leader, seat, led, denom, on_table, trick, moves, depth, h)
    if hint >= 0:
        for k in range(n):
            if moves[depth, k] == hint:
                moves[depth, k] = moves[depth, 0]
                moves[depth, 0] = hint
                break
    maxing = seat % 2 == 0
    best = -1 if maxing else 99
    alpha0 = alpha
    beta0 = beta
    w_all = U64(0)
    w_best = U64(0)
    searched = U64(0)
    rivals = (out_cards & ~hand) | on_table
    for k in range(n):
        code = moves[depth, k]
        c = code & 63
        named = code >> 6
        cb = U64(1) << U64(c)
        if not (denom == NT and cb & TRUMP_MASK[NT]):
            if _covered_twin(hand, rivals, searched, w_all, SUIT_MASK[denom, c >> 4], c):
                continue
            searched |= cb
        h[seat] = hand & ~cb
        trick[pos] = c
        lead_suit = led
        if pos == 0:
            lead_suit = card_suit(c, denom)
            if lead_suit < 0:
                lead_suit = named - 1
        v = search(h, trick, pos + 1, leader, lead_suit, denom, alpha, beta, keys, bounds, moves, stats)
        h[seat] = hand
        wc = U64(moves[40, _W])
        w_all |= wc
        if (maxing and v > best) or (not maxing and v < best):
            moves[41, depth] = code
            w_best = wc
        best, alpha, beta = ab_update(maxing, v, best, alpha, beta)
        if alpha >= beta:
            break
    # A cut-off needs only the refuting move's reasons; any other result needs all moves'.
    if (maxing and best >= beta0) or (not maxing and best <= alpha0):
        moves[40, _W] = np.int64(w_best)
    else:
        moves[40, _W] = np.int64(w_all)
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
    # The first question near the usual result: the leader (the declarer) takes most tricks.
    mid = hi - 1 if leader % 2 == 0 else 2
    while lo < hi:
        mid = min(max(mid, lo + 1), hi)
        v = search(h, trick, _ZERO, leader, _NEG, denom, mid - 1, mid, keys, bounds, moves, stats)
        if v >= mid:
            lo = v
        else:
            hi = v
        mid = (lo + hi + 1) // 2
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
    tests check :func:`solve_eff` against.  Arguments as :func:`search`."""
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
    legal = legal_plays(hand, denom, led if pos > 0 else -1)
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


# ------------------------------------------------------------------ from a position inside a trick
# Plain Python on purpose (as cardsim.games.g501.solver.mid_trick): a sampled-search player asks for a few
# cards per decision, and the trick's at most three plies cost nothing beside the solve_eff calls.
def mid_trick(hands, trick, pos: int, leader: int, led: int, denom: int, table=None, moves=None, stats=None) -> int:
    """Team 0's double-dummy tricks (int) from a position inside a trick, this trick included.

    ``hands``: uint64[4] hands by seat in the effective layout of ``denom`` (0..3 trump suit,
    4 no-trump; :func:`cardsim.games.g500.rules.remap_hand`), *without* the cards on the trick;
    ``trick``: int64[4] effective cards in play order, the first ``pos`` (0..4) played; ``leader``
    the seat that led it; ``led`` the led suit (a no-trump joker led: the suit named), ignored when
    ``pos`` is 0.  The rest of the trick by plain minimax (seats 0 and 2 maximise), every trick
    after by :func:`solve_eff`; with ``pos`` 0 it is :func:`solve_eff`.  ``table``: ``(keys,
    bounds)`` of :func:`new_table`, ``moves`` int64[42, MAX_MOVES] scratch, ``stats`` int64[1]
    node counter; each made afresh when None.  Raises ValueError for ``pos`` outside 0..4."""
    if not 0 <= pos <= 4:
        raise ValueError(f"mid_trick takes 0 to 4 cards played to the trick, got pos={pos}")
    keys, bounds = new_table() if table is None else table
    moves = np.zeros((42, MAX_MOVES), dtype=np.int64) if moves is None else moves
    stats = np.zeros(1, dtype=np.int64) if stats is None else stats
    h = np.array(hands, dtype=np.uint64)
    if pos == 0:
        return int(solve_eff(h, leader, denom, keys, bounds, moves, stats))
    return _mid_trick(h, np.array(trick, dtype=np.int64), pos, leader, led, denom, keys, bounds, moves, stats)


def _mid_trick(h, trick, pos, leader, led, denom, keys, bounds, moves, stats) -> int:
    if pos == 4:
        nxt = (leader + int(trick_winner(trick, denom, led))) % 4
        won = 1 if nxt % 2 == 0 else 0
        if h[0] == 0:
            return won  # the last trick
        return won + int(solve_eff(h, nxt, denom, keys, bounds, moves, stats))
    seat = (leader + pos) % 4
    legal = int(legal_plays(h[seat], denom, led))
    values = []
    for c in (c for c in range(64) if legal >> c & 1):
        h[seat] &= ~U64(1 << c)
        trick[pos] = c
        values.append(_mid_trick(h, trick, pos + 1, leader, led, denom, keys, bounds, moves, stats))
        h[seat] |= U64(1 << c)
    return max(values) if seat % 2 == 0 else min(values)


def mid_value(h, trick, pos: int, leader: int, led: int, denom: int, keys, bounds, moves, stats) -> int:
    """Team 0's double-dummy tricks (int) from a position inside a trick, this trick included, as
    :func:`mid_trick` but searched by :func:`search` itself (null-window bisection, the table
    shared): the per-card trace (:mod:`cardsim.dd.trace`) asks this for every legal card of all
    40 positions of a deal, where :func:`mid_trick`'s plain minimax of the trick's rest would
    call :func:`solve_eff` once per completion.  Arguments as :func:`mid_trick` (``h`` uint64[4]
    effective hands without the trick's cards, ``trick`` int64[4]; ``pos`` 0..4 cards on it),
    ``moves`` int64[42, MAX_MOVES]; ``h`` and ``trick`` are left as they were."""
    h = np.ascontiguousarray(h, dtype=np.uint64)
    trick = np.ascontiguousarray(trick, dtype=np.int64)
    if pos == 0:
        return int(solve_eff(h, np.int64(leader), np.int64(denom), keys, bounds, moves, stats))
    hi = popcount(int(h[0])) + 1 if pos == 4 else popcount(int(h[(leader + pos) % 4]))
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        v = int(search(h, trick, np.int64(pos), np.int64(leader), np.int64(led), np.int64(denom),
                       np.int64(mid - 1), np.int64(mid), keys, bounds, moves, stats))
        if v >= mid:
            lo = v
        else:
            hi = v
    return lo
