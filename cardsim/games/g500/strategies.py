"""Five Hundred strategies: registry, jitted bid / discard / play functions and their dispatch.

Every function sees only its seat's view (DESIGN.md property 3): its own hand, the auction so
far (current high bid and who holds it), the contract, the cards played so far (previous
tricks and the current trick), and — for the declarer only — his own discard.

Adding a strategy = one function per decision, one registry line, one dispatch branch.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import highest_bit, lane, lowest_bit, popcount
from cardsim.games.g500.constants import FULL_EFF, JOKER_MASK, NT, SUIT_MASK, TRUMP_MASK
from cardsim.games.g500.rules import legal_moves, remap_hand
from cardsim.rng import GOLDEN, mix64
from cardsim.strategies.registry import Registry

U64 = np.uint64

RANDOM = 0
HEURISTIC = 1

REGISTRY = Registry("500")
REGISTRY.add("random", RANDOM, {}, "random legal play (the baseline): pass or bid on a coin flip, a uniform "
             "higher bid, uniform discard and uniform legal cards")
REGISTRY.add(
    "heuristic",
    HEURISTIC,
    {"margin": 0.0, "partner": 2.6, "kitty": 0.7, "jump": 1.0, "nt_bias": 0.0},
    "values the hand per denomination (jokers, bowers, trump length, side aces, expected kitty "
    "and partner tricks), bids the highest contract it expects to make less `margin` tricks "
    "(jump=1) or the cheapest overcall up to it (jump=0), voids weak side suits in the "
    "discard, draws trumps as declarer, never overtakes partner, ruffs or uses a joker to win",
    {"margin": "safety tricks subtracted from its estimate before bidding",
     "partner": "tricks expected from partner's hand",
     "kitty": "tricks expected from the kitty",
     "jump": "1 = bid the highest contract it expects to make at once; 0 = cheapest overcall up to it",
     "nt_bias": "tricks added to the no-trump estimate"},
    {"margin": (-10, 10), "partner": (0, 10), "kitty": (0, 6), "jump": (0, 1), "nt_bias": (-10, 10)},
)
"""Heuristic parameters: ``margin`` tricks of safety subtracted before bidding; ``partner``
tricks expected from partner; ``kitty`` tricks expected from the kitty; ``jump`` 1 = bid the
highest makeable contract at once, 0 = the cheapest overcall of that denomination;
``nt_bias`` tricks added to the no-trump estimate."""


# ---------------------------------------------------------------- hand valuation
@jit(inline="always")
def estimate_tricks(hand, denom, nt_bias):
    """Tricks a physical ``hand`` expects to take by itself in ``denom`` (float64, heuristic)."""
    if denom == NT:
        v = float(popcount(hand & JOKER_MASK)) + nt_bias
        for s in range(4):
            sl = lane(hand, s) & U64(0x7FF)
            n = popcount(sl)
            a = (sl >> U64(10)) & U64(1)
            k = (sl >> U64(9)) & U64(1)
            q = (sl >> U64(8)) & U64(1)
            if a:
                v += 0.95
            if k:
                v += 0.85 if a else (0.55 if n >= 2 else 0.1)
            if q and n >= 3 and (a or k):
                v += 0.35
            if n >= 5 and (a or k):
                v += 0.7 * (n - 4)
            if not a and not (k and n >= 2):
                v -= 0.3
        return v
    eff = remap_hand(hand, denom)
    tl = lane(eff, denom)
    n_tr = popcount(tl)
    v = 0.0
    missing = 0
    n_top = 0
    for p in range(14, 7, -1):
        if (tl >> U64(p)) & U64(1):
            n_top += 1
            if missing == 0:
                v += 1.0
            elif missing == 1 and n_tr >= 2:
                v += 0.55
            elif missing == 2 and n_tr >= 3:
                v += 0.3
        else:
            missing += 1
    extra = n_tr - max(4, n_top)
    if extra > 0:
        v += 0.8 * extra
    ruff = 0.0
    for s in range(4):
        if s == denom:
            continue
        sl = lane(eff, s)
        n = popcount(sl)
        a = (sl >> U64(10)) & U64(1)
        k = (sl >> U64(9)) & U64(1)
        if a:
            v += 0.9
        if k:
            v += 0.8 if a else (0.45 if n >= 2 else 0.1)
        if n_tr >= 3:
            if n == 0:
                ruff += 0.9
            elif n == 1 and not a:
                ruff += 0.5
            elif n == 2:
                ruff += 0.2
    cap = 0.9 * (n_tr - 2)
    if ruff > cap:
        ruff = cap
    if ruff > 0:
        v += ruff
    return v


@jit(inline="always")
def heuristic_bid(params, seat, hand, high_bid, high_seat):
    margin = params[seat, 0]
    support = params[seat, 1] + params[seat, 2] - margin
    best = -1
    for d in range(5):
        est = estimate_tricks(hand, d, params[seat, 4]) + support
        level = int(np.floor(est))
        if level > 10:
            level = 10
        if level >= 6:
            b = (level - 6) * 5 + d
            if b > best:
                best = b
    if best <= high_bid:
        return -1
    if high_seat >= 0 and high_seat == (seat + 2) % 4:
        return -1
    if params[seat, 3] >= 0.5:
        return best
    d = best % 5
    for level in range(6, 11):
        b = (level - 6) * 5 + d
        if b > high_bid:
            return b
    return best


@jit(inline="always")
def lowest_rank_card(mask):
    """The card of lowest rank (bit within its lane) in a non-empty effective mask."""
    best = -1
    best_rank = 99
    for s in range(4):
        sl = lane(mask, s)
        if sl:
            r = lowest_bit(sl)
            if r < best_rank:
                best_rank = r
                best = s * 16 + r
    return best


@jit
def heuristic_discard(hand, denom):
    """Six effective cards to put away from a 16-card effective hand: void weak side suits
    (no ace), then throw the lowest side cards; trumps and jokers go last."""
    tm = TRUMP_MASK[denom]
    need = 6
    out = U64(0)
    lens = np.zeros(4, dtype=np.int64)
    for s in range(4):
        lens[s] = 99
        if denom != NT and s == denom:
            continue
        sm = hand & SUIT_MASK[denom, s] & ~tm
        lens[s] = popcount(sm)
    for _ in range(4):
        s_best = -1
        for s in range(4):
            if lens[s] < 99 and (s_best < 0 or lens[s] < lens[s_best]):
                s_best = s
        if s_best < 0:
            break
        sm = hand & SUIT_MASK[denom, s_best] & ~tm
        lens[s_best] = 99
        if popcount(sm) <= need and (lane(sm, s_best) >> U64(10)) == U64(0):
            out |= sm
            need -= popcount(sm)
    while need > 0:
        side = hand & ~out & ~tm
        # aces are winners: keep them unless nothing else is left
        aces = U64(0)
        for s in range(4):
            aces |= U64(1 << 10) << U64(16 * s)
        pool = side & ~aces
        if pool == 0:
            pool = side
        if pool == 0:
            pool = hand & ~out
        c = lowest_rank_card(pool)
        out |= U64(1) << U64(c)
        need -= 1
    return out


@jit(inline="always")
def _above(card):
    """Effective bits above ``card`` in its lane."""
    lane_top = U64(0xFFFF) << U64(16 * (card >> 4))
    return lane_top & ~((U64(2) << U64(card)) - U64(1))


@jit(inline="always")
def _beats(card, wc, denom, led):
    """Whether effective ``card`` beats the current winning card ``wc`` (RULES.md §3.5)."""
    tm = TRUMP_MASK[denom]
    cb = U64(1) << U64(card)
    wb = U64(1) << U64(wc)
    if wb & tm:
        return (cb & tm) != 0 and card > wc
    if cb & tm:
        return True
    return (cb & SUIT_MASK[denom, led]) != 0 and card > wc


@jit(inline="always")
def heuristic_play(hand, denom, seat, declarer, leader, trick, n_in_trick, led, played, known,
                   decl_tricks, contract_tricks):
    """An effective card (plus ``named << 8`` for a no-trump joker lead)."""
    tm = TRUMP_MASK[denom]
    unseen = FULL_EFF[denom] & ~hand & ~played & ~known
    my_side_decl = (seat % 2) == (declarer % 2)
    if n_in_trick == 0:
        side = hand & ~tm
        if denom != NT and seat == declarer and (hand & tm) and (unseen & tm):
            top = highest_bit(hand & tm)
            if (unseen & _above(top)) == U64(0):
                return top
            return lowest_bit(hand & tm)
        if side:
            best = -1
            m = side
            while m:
                c = lowest_bit(m)
                m &= m - U64(1)
                if (unseen & _above(c) & SUIT_MASK[denom, c >> 4]) == U64(0):
                    if best < 0 or (c & 15) > (best & 15):
                        best = c
            if best >= 0:
                return best
            s_long = -1
            n_long = -1
            for s in range(4):
                n = popcount(side & SUIT_MASK[denom, s])
                if n > n_long:
                    n_long = n
                    s_long = s
            return lowest_bit(side & SUIT_MASK[denom, s_long])
        c = highest_bit(hand)
        if denom == NT:
            named = 0
            n_best = -1
            for s in range(4):
                n = popcount(unseen & SUIT_MASK[NT, s])
                if n > n_best:
                    n_best = n
                    named = s
            return c | (named << 8)
        if (unseen & _above(c)) == U64(0):
            return c
        return lowest_bit(hand)
    legal = legal_moves(hand, denom, led)
    # the current winner of the trick so far
    w = 0
    for i in range(1, n_in_trick):
        if _beats(trick[i], trick[w], denom, led):
            w = i
    wc = trick[w]
    winner_seat = (leader + w) % 4
    following = (legal & SUIT_MASK[denom, led]) != U64(0) and (legal & ~SUIT_MASK[denom, led]) == U64(0)
    if following:
        low = lowest_bit(legal)
    else:
        cheap = legal & ~tm
        low = lowest_rank_card(cheap if cheap else legal)
    if winner_seat == (seat + 2) % 4:
        return low
    beaters = U64(0)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        if _beats(c, wc, denom, led):
            beaters |= U64(1) << U64(c)
    if beaters == U64(0):
        return low
    last = n_in_trick == 3
    if following and not (beaters & tm):
        if last:
            return lowest_bit(beaters)
        m = beaters
        while m:
            c = lowest_bit(m)
            m &= m - U64(1)
            if (unseen & _above(c) & SUIT_MASK[denom, c >> 4]) == U64(0):
                return c
        return low
    trumps = beaters & tm
    if trumps == U64(0):
        return lowest_bit(beaters)
    if denom == NT:
        c = lowest_bit(trumps)
        sure = last or (unseen & _above(c) & tm) == U64(0)
        if my_side_decl:
            needed = decl_tricks < contract_tricks
        else:
            needed = True
        if sure and needed:
            return c
        if (unseen & _above(highest_bit(trumps)) & tm) == U64(0) and needed:
            return highest_bit(trumps)
        return low
    if last:
        return lowest_bit(trumps)
    # ruff high enough to stay on top of trumps still unseen when it is cheap to do so
    m = trumps
    while m:
        c = lowest_bit(m)
        m &= m - U64(1)
        if (unseen & _above(c)) == U64(0):
            return c
    return lowest_bit(trumps)


# ---------------------------------------------------------------- seat randomness
# Row ``k`` of ``states`` (uint64[5, 1]) is ``rng.stream(key, k)``; these draw from it exactly as
# ``rng.randbelow`` / ``rng.choose_bit`` would, without making an array view per decision.
@jit
def draw_below(states, k, n):
    """Uniform integer in ``[0, n)`` from stream ``k`` (Lemire's method, as ``rng.randbelow``)."""
    nn = U64(n)
    states[k, 0] = states[k, 0] + GOLDEN
    m = (mix64(states[k, 0]) >> U64(32)) * nn
    low = m & U64(0xFFFFFFFF)
    if low < nn:
        threshold = (U64(4294967296) - nn) % nn
        while low < threshold:
            states[k, 0] = states[k, 0] + GOLDEN
            m = (mix64(states[k, 0]) >> U64(32)) * nn
            low = m & U64(0xFFFFFFFF)
    return np.int64(m >> U64(32))


@jit
def draw_bit(states, k, mask):
    """A uniformly chosen set bit of non-zero ``mask`` from stream ``k`` (as ``rng.choose_bit``)."""
    j = draw_below(states, k, popcount(mask))
    m = U64(mask)
    for _ in range(j):
        m &= m - U64(1)
    return lowest_bit(m)


# ---------------------------------------------------------------- dispatch
# ``params`` is the whole float64[4, N_PARAMS] matrix and ``states`` the deal's streams; a
# strategy only reads its own row ``params[seat]`` and stream ``1 + seat``.
@jit(inline="always")
def choose_bid(sid, params, seat, hand, high_bid, high_seat, states):
    """A call: bid number 0..24 above ``high_bid`` or -1 (pass)."""
    if sid == HEURISTIC:
        return heuristic_bid(params, seat, hand, high_bid, high_seat)
    # a coin decides pass or bid, so that random auctions end at every level (and are sometimes
    # thrown in); the bid is uniform over the higher ones
    if high_bid >= 24 or draw_below(states, 1 + seat, 2) == 0:
        return -1
    return high_bid + 1 + draw_below(states, 1 + seat, 24 - high_bid)


@jit(inline="always")
def choose_discard(sid, params, seat, hand, denom, states):
    """Six effective cards (uint64 mask) out of the declarer's 16."""
    if sid == HEURISTIC:
        return heuristic_discard(hand, denom)
    out = U64(0)
    for _ in range(6):
        c = draw_bit(states, 1 + seat, hand & ~out)
        out |= U64(1) << U64(c)
    return out


@jit(inline="always")
def choose_play(sid, params, hand, denom, seat, declarer, leader, trick, n_in_trick, led, played,
                known, decl_tricks, contract_tricks, states):
    """An effective legal card; for a no-trump joker lead, ``card | named_suit << 8``."""
    if sid == HEURISTIC:
        return heuristic_play(hand, denom, seat, declarer, leader, trick, n_in_trick, led, played,
                              known, decl_tricks, contract_tricks)
    c = draw_bit(states, 1 + seat, legal_moves(hand, denom, led))
    if denom == NT and n_in_trick == 0 and (U64(1) << U64(c)) & JOKER_MASK:
        return c | (draw_below(states, 1 + seat, 4) << 8)
    return c
