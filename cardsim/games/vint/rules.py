"""Vint rules as pure jitted functions (docs/RULES.md §2): calls, legal plays, trick winner, scoring.

Cards use the Vint layout of :mod:`cardsim.cards` (ranks ``23456789TJQKA`` at bits 0..12 of
each suit lane, suits ``S C D H`` = 0..3).  Denominations are numbered like the suits, with
no-trump = 4, which is also their rank order (docs/RULES.md §2.2: spades < clubs < diamonds <
hearts < no-trump).

A call is an int: 0 = pass, ``1 + 5 * (level - 1) + denomination`` = a bid (1 = 1S … 35 = 7NT),
so one bid is higher than another exactly when its number is larger.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import SUITS, VINT_RANKS, CardError, highest_bit, popcount, suit_mask
from cardsim.text import quote

U64 = np.uint64
RANKS = VINT_RANKS
N_SEATS = 4
N_TRICKS = 13
NT = 4
from cardsim.names import DENOMINATIONS  # noqa: E402,F401
PASS = 0
MAX_CALL = 35
VOID_PASSES = 8
"""Consecutive passes that void a deal in which nobody has bid (docs/RULES.md §2.2)."""
CLOSING_PASSES = 12
"""Consecutive passes after a bid that end the auction (docs/RULES.md §2.2)."""
GAME_THRESHOLD = 500
MAX_CALLS = 512
"""Upper bound on calls in one auction: 35 bids each followed by at most 11 passes, plus 12."""
LED_SHIFT = 16
"""The play view's ``voids`` word (int64): bit 4·seat + suit once a seat has not followed a lead
of that suit, bit LED_SHIFT + 4·seat + suit once it has led that suit (engine.play_tricks)."""

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
ACES = U64((1 << ACE) | (1 << (16 + ACE)) | (1 << (32 + ACE)) | (1 << (48 + ACE)))
KINGS = ACES >> U64(1)
QUEENS = ACES >> U64(2)
JACKS = ACES >> U64(3)
HONOURS_LANE = U64(0b11111 << TEN)
"""A K Q J 10 of one suit, in lane 0 (docs/RULES.md §2.6)."""

# Indices into the jitted score vector (see ``score_deal``): two entries (team 0, team 1) each
# unless noted.
S_TRICKS, S_BELOW, S_ABOVE, S_SLAM, S_BID_SLAM, S_HONOURS, S_ACES, S_PENALTY, S_GAME, S_TOTAL = range(0, 20, 2)
S_GAME_WON_BY, S_CROSSING, S_RUBBER_WON_BY = 20, 21, 22
S_AFTER_BELOW, S_AFTER_GAMES = 23, 25
S_MADE = 27
N_SCORE = 28


@jit(inline="always")
def bid_call(level, denomination):
    """Call number of a bid (int64); ``level`` 1..7, ``denomination`` 0..4."""
    return np.int64(1 + 5 * (level - 1) + denomination)


@jit(inline="always")
def call_level(call):
    return np.int64((call - 1) // 5 + 1)


@jit(inline="always")
def call_denomination(call):
    return np.int64((call - 1) % 5)


def parse_call(token) -> int:
    """Call number of a call token: 0 (``PASS``) for ``P``, :func:`bid_call` for ``1S`` … ``7NT``.

    The one Vint call parser (records, replay, forcing and show read calls through it): the exact
    grammar of docs/RECORDS.md, Calls (``P``, or a level ``1``..``7`` then ``S C D H NT``; either
    case, ASCII only, nothing else).  Raises CardError for anything else.
    """
    if not isinstance(token, str):
        raise CardError(f"call must be a string, got {quote(token)}")
    # ASCII first: str.upper() maps some other letters onto ASCII ones ('ſ' -> 'S').
    t = token.upper() if token.isascii() else ""
    if t == "P":
        return PASS
    if len(t) >= 2 and "1234567".find(t[0]) >= 0 and t[1:] in DENOMINATIONS:
        return int(bid_call(int(t[0]), DENOMINATIONS.index(t[1:])))
    raise CardError(f"unknown call {quote(token)}")


@jit(inline="always")
def trick_value(level, denomination):
    """V = base + 10 × (level − 1), base S 4, C 6, D 8, H 10, NT 12 (docs/RULES.md §2.4); score points."""
    return np.int64(4 + 2 * denomination + 10 * (level - 1))


@jit(inline="always")
def legal_plays(hand, led_suit):
    """Cards ``hand`` (uint64) may play to a trick whose led suit is ``led_suit`` (−1 = leading).

    Follow suit if you can, otherwise any card (docs/RULES.md §2.3).
    """
    if led_suit < 0:
        return U64(hand)
    follow = U64(hand) & suit_mask(led_suit)
    if follow != U64(0):
        return follow
    return U64(hand)


@jit(inline="always")
def beats(card, best, trump):
    """``card`` takes the trick from ``best``, the card winning it so far (docs/RULES.md §2.3): a
    higher card of ``best``'s suit, or a trump over a card of another suit (``trump``: 0..3 or NT).
    The one statement of the rule: :func:`trick_winner` and the engine's card-by-card winner
    (engine.play_tricks) both apply it."""
    if (card >> 4) == (best >> 4):
        return card > best
    return (card >> 4) == trump


@jit(inline="always")
def trick_winner(trick, n, trump):
    """Index (0..n-1, in play order) of the card winning the first ``n`` cards of ``trick``.

    ``trick``: int64 card indices in play order, ``trick[0]`` led; ``trump``: 0..3 or NT.
    The highest trump wins, else the highest card of the led suit (docs/RULES.md §2.3).
    """
    best = 0
    for i in range(1, n):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


@jit(inline="always")
def first_bid_suits(calls, ncalls, declarer, out):
    """Write to ``out`` (int64[4]) the first suit (0..3) each seat bid in the finished auction
    ``calls[:ncalls]``, −1 for a seat that bid no suit (no-trump names none).

    The declarer made the last bid (docs/RULES.md §2.2), which fixes who made every call without
    knowing the dealer; every seat hears the auction, so this is part of every seat's view.
    """
    out[:] = -1
    last = ncalls - 1
    while last >= 0 and calls[last] == PASS:
        last -= 1
    for i in range(last + 1):
        if calls[i] != PASS:
            who = (declarer - (last - i)) & 3
            d = call_denomination(calls[i])
            if d < NT and out[who] < 0:
                out[who] = d


SHOWN_BITS = 8
"""The auction view's ``shown`` word (int64) gives each seat ``SHOWN_BITS`` bits from bit
SHOWN_BITS·seat: bits 0..4 the denominations (S C D H NT = 0..4) it has bid, bits 5..7 the
denomination of its first bid + 1 (0: it has not bid).  The engine keeps it call by call
(:func:`shown_after`), so a strategy reads what the auction showed without reading the auction."""


@jit(inline="always")
def shown_after(shown, seat, call):
    """``shown`` (int64, :data:`SHOWN_BITS`) once ``seat`` has made ``call`` (a pass shows nothing)."""
    if call == PASS:
        return shown
    d = call_denomination(call)
    at = SHOWN_BITS * seat
    if ((shown >> (at + 5)) & 7) == 0:
        shown |= (d + 1) << (at + 5)
    return shown | (np.int64(1) << (at + d))


@jit(inline="always")
def shown_calls(calls, ncalls, seat):
    """The ``shown`` word (int64, :data:`SHOWN_BITS`) of the auction ``calls[:ncalls]`` (int64)
    as heard by ``seat``, whose turn is call ``ncalls``: call ``i`` was made by seat
    ``(seat − (ncalls − i)) mod 4``.  What the engine's running word holds at that turn."""
    shown = np.int64(0)
    for i in range(ncalls):
        shown = shown_after(shown, (seat - (ncalls - i)) & 3, calls[i])
    return shown


@jit(inline="always")
def first_denomination(shown, seat):
    """The denomination (0..4, int64) of ``seat``'s first bid in ``shown``; −1 if it has not bid."""
    return ((shown >> (SHOWN_BITS * seat + 5)) & 7) - 1


@jit(inline="always")
def denominations_bid(shown, seat):
    """The denominations ``seat`` has bid in ``shown``: a bit set (int64), bit d for denomination d."""
    return (shown >> (SHOWN_BITS * seat)) & 31


@jit
def honours_held(hands, team, trump):
    """Trump honours (A K Q J 10, docs/RULES.md §2.6) in the team's initial hands; 0 in no-trump."""
    if trump >= NT:
        return np.int64(0)
    both = U64(hands[team]) | U64(hands[team + 2])
    return popcount(both & (HONOURS_LANE << U64(16 * trump)))


@jit
def aces_held(hands, team):
    """Aces in the team's initial hands (int64)."""
    return popcount((U64(hands[team]) | U64(hands[team + 2])) & ACES)


@jit(inline="always")
def high_card_points(hand):
    """4-3-2-1 high-card points of a hand (int64)."""
    h = U64(hand)
    return 4 * popcount(h & ACES) + 3 * popcount(h & KINGS) + 2 * popcount(h & QUEENS) + popcount(h & JACKS)


@jit
def score_deal(level, denomination, declarer, trick_winners, hands, below_before, games_before, out):
    """Score one played Vint deal (docs/RULES.md §2.4–§2.7) into ``out`` (int64[N_SCORE]).

    ``trick_winners``: int64[13], the seat that won each trick in play order; ``hands``:
    uint64[4] initial hands; ``below_before``/``games_before``: int64[2] rubber state.
    Layout of ``out`` (score points unless noted; pairs are team 0, team 1): S_TRICKS (tricks),
    S_BELOW (this deal), S_ABOVE, S_SLAM, S_BID_SLAM, S_HONOURS, S_ACES, S_PENALTY, S_GAME,
    S_TOTAL, then S_GAME_WON_BY (team or −1), S_CROSSING (1-based trick, 0 = none),
    S_RUBBER_WON_BY (team or −1), S_AFTER_BELOW and S_AFTER_GAMES (pairs), S_MADE (0/1).
    """
    out[:] = 0
    v = trick_value(level, denomination)
    dteam = declarer & 1
    below0 = below_before[0]
    below1 = below_before[1]
    game_won_by = -1
    for t in range(N_TRICKS):
        team = trick_winners[t] & 1
        out[S_TRICKS + team] += 1
        out[S_BELOW + team] += v
        if team == 0:
            below0 += v
            running = below0
        else:
            below1 += v
            running = below1
        # The trick that first carries a side to 500 decides the game (docs/RULES.md §2.7).
        if game_won_by < 0 and running >= GAME_THRESHOLD:
            game_won_by = team
            out[S_CROSSING] = t + 1
    for team in range(2):
        tricks = out[S_TRICKS + team]
        if tricks == 13:
            out[S_SLAM + team] = 1000
        elif tricks == 12:
            out[S_SLAM + team] = 500
    dtricks = out[S_TRICKS + dteam]
    if level == 6 and dtricks >= 12:
        out[S_BID_SLAM + dteam] = 3000
    elif level == 7 and dtricks == 13:
        out[S_BID_SLAM + dteam] = 5000
    if denomination < NT:
        for team in range(2):
            h = honours_held(hands, team, denomination)
            if h >= 3:
                out[S_HONOURS + team] = (h - 1) * 10 * v
    a0 = aces_held(hands, 0)
    a1 = aces_held(hands, 1)
    if a0 > a1:
        out[S_ACES] = 10 * v * a0
    elif a1 > a0:
        out[S_ACES + 1] = 10 * v * a1
    else:
        more = 0 if out[S_TRICKS] > out[S_TRICKS + 1] else 1
        out[S_ACES + more] = 20 * v
    short = level + 6 - dtricks
    if short > 0:
        pen = 500 * level * short
        if level == 6:
            pen += 3000
        elif level == 7:
            pen += 5000
        out[S_PENALTY + 1 - dteam] = pen
    else:
        out[S_MADE] = 1
    out[S_AFTER_GAMES] = games_before[0]
    out[S_AFTER_GAMES + 1] = games_before[1]
    out[S_GAME_WON_BY] = game_won_by
    out[S_RUBBER_WON_BY] = -1
    if game_won_by >= 0:
        out[S_AFTER_GAMES + game_won_by] += 1
        if out[S_AFTER_GAMES + game_won_by] >= 2:
            out[S_GAME + game_won_by] = 1000
            out[S_RUBBER_WON_BY] = game_won_by
        else:
            out[S_GAME + game_won_by] = 500
    else:
        out[S_AFTER_BELOW] = below0
        out[S_AFTER_BELOW + 1] = below1
    for team in range(2):
        above = (out[S_SLAM + team] + out[S_BID_SLAM + team] + out[S_HONOURS + team]
                 + out[S_ACES + team] + out[S_PENALTY + team] + out[S_GAME + team])
        out[S_ABOVE + team] = above
        out[S_TOTAL + team] = above + out[S_BELOW + team]


@jit
def master_of(suit, unplayed):
    """The highest card of ``suit`` not yet played (card index), or −1; ``unplayed``: uint64."""
    rest = U64(unplayed) & suit_mask(suit)
    if rest == U64(0):
        return np.int64(-1)
    return highest_bit(rest)
