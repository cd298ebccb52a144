"""The jitted Five Hundred deal: dealing, auction, kitty, ten tricks, score (docs/RULES.md §3).

One deal is five phases, each a function named after its docs/RULES.md section:
:func:`deal_cards` (§3.2), :func:`run_auction` (§3.3), :func:`take_kitty` (§3.4),
:func:`play_tricks` (§3.5) and :func:`score_contract` (§3.6).  :func:`play_deal` plays a deal
from given hands and kitty (auction onwards), :func:`play_contract` from a given declarer and
bid (kitty onwards), and :func:`run_deal` deals from the deal's key and calls
:func:`play_deal`.  Every phase writes into one fixed-size int64 result vector (indices
``R_*``) and, when the trace buffer is non-empty, every action (indices ``T_*``).
The same :func:`run_deal` drives independent deals (:func:`simulate_kernel`), records
(:func:`trace_kernel`) and matches (:func:`match_kernel`), so records can never disagree with
the rows.

Shared arguments of the phases: ``ids`` int64[4] strategy id per seat, ``params``
float64[4, N_PARAMS], ``streams`` uint64[5, 1] the deal's streams (``rng.seed_streams``: row 0
the shuffle, row ``1 + seat`` that seat's strategy), ``hands`` uint64[4] physical hands,
``eff`` uint64[4] the hands in the contract's effective layout
(:mod:`cardsim.games.g500.constants`), ``trick`` int64[4] scratch, ``trace`` int64[TRACE_LEN]
or int64[0] (no trace), ``res`` int64[R_LEN].  Bids are bid numbers 0..24
(``(tricks - 6) * 5 + denomination``), -1 a pass.

Every phase is inlined into :func:`play_deal`: a call that is not inlined passes a dozen
arrays, and each costs a reference-count pair per call (about 7% of the deal's time when the
three phases that ask the strategies were separate functions).  ``play_deal`` itself is one
compiled function that every kernel calls, so the engine is compiled once, not per kernel.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.games.forced import (CHECK_CALLS, F_CALL, F_IMPLIED, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT,
                                  FORCE_CONTRACT, FORCE_FIRST_CALL, GIVEN_CALLS, IMPLIED_CALLS)
from cardsim.cards import lowest_bit, popcount
from cardsim.games.g500.constants import (
    DECK,
    FULL_EFF,
    MAX_CALLS,
    NT,
    REMAP,
    SCORING_QUEBEC,
    SUIT_MASK,
    TRUMP_MASK,
    UNMAP,
)
from cardsim.games.g500.dispatch import choose_call, choose_discard, choose_card
from cardsim.games.g500.pimc_auction import use_auction_kernel
from cardsim.games.g500.rules import (
    card_suit,
    contract_level,
    contract_made,
    deal_hands,
    game_winner,
    legal_plays,
    remap_hand,
    score_deal,
    trick_winner,
)
from cardsim.rng import deal_key, match_key, randbelow, seed_stream, seed_streams, shuffle

U64 = np.uint64

# result vector (int64[R_LEN]): seats, bid numbers, tricks, points, physical bit sets as int64
R_DEALER, R_DECLARER, R_BID, R_TRICKS0, R_TRICKS1, R_MADE = 0, 1, 2, 3, 4, 5
R_DELTA0, R_DELTA1, R_Q0, R_Q1, R_S0, R_S1 = 6, 7, 8, 9, 10, 11
R_WINNER, R_NCALLS, R_HAND0, R_KITTY, R_DISCARD = 12, 13, 14, 18, 19
R_BEFORE0, R_BEFORE1 = 20, 21
R_FORCED_OK = 22
R_LEN = 23
# trace vector (int64[TRACE_LEN]): calls from T_CALLS, physical cards from T_PLAY, named suits
# of the cards led from T_NAMED (-1 none)
T_CALLS, T_PLAY, T_NAMED = 0, 32, 72
TRACE_LEN = 112
# forced vector (int64[F_LEN]) read by the auction: what a question forces (cardsim evaluate).
# The first ``forced[F_NPREFIX]`` calls of the auction (from the dealer's left) are
# ``forced[F_PREFIX:]``; then seat ``forced[F_SEAT]``'s first call is ``forced[F_CALL]``
# (FORCE_FIRST_CALL), or the auction is skipped with that seat declaring that bid
# (FORCE_CONTRACT).  All zeros forces nothing.  A lead question (a forced contract) also forces
# the declarer's first lead (docs/RULES.md §3.4): ``forced[F_LEAD]`` is the physical card + 1 (0:
# none; -1: his strategy leads, ``lead:auto``), ``forced[F_NAMED]`` the suit + 1 a joker led in
# no-trump names (docs/RULES.md §3.5; 0 otherwise).
MAX_PREFIX = 8
F_LEAD = F_PREFIX + MAX_PREFIX
F_NAMED = F_LEAD + 1
F_LEN = F_LEAD + 2
NO_FORCE = np.zeros(F_LEN, dtype=np.int64)


@jit(inline="always")
def deal_cards(dealer, deck, hands, shuffle_state):
    """Shuffle and deal (docs/RULES.md §3.2); returns ``(dealer, kitty)`` (int64, uint64).

    ``dealer`` < 0 draws the dealer from ``shuffle_state`` (uint64[1], the deal's stream 0)
    before the shuffle (an independent deal); a match passes its rotating dealer.  ``deck``
    (int64[46] scratch) is reset to the canonical order and shuffled; ``hands`` (uint64[4])
    receive the physical hands.
    """
    if dealer < 0:
        dealer = randbelow(shuffle_state, 4)
    for i in range(deck.shape[0]):
        deck[i] = DECK[i]
    shuffle(deck, shuffle_state)
    return dealer, deal_hands(deck, dealer, hands)


@jit(inline="always")
def start_result(dealer, hands, kitty, before0, before1, res):
    """Clear ``res`` and write what is known before the auction: dealer, hands, kitty, and the
    team scores before the deal (points)."""
    for i in range(R_LEN):
        res[i] = 0
    res[R_DEALER] = dealer
    for s in range(4):
        res[R_HAND0 + s] = np.int64(hands[s])
    res[R_KITTY] = np.int64(kitty)
    res[R_BEFORE0] = before0
    res[R_BEFORE1] = before1


@jit(inline="always")
def run_auction(dealer, ids, params, streams, hands, scoring, target, before0, before1, trace, res, forced, calls):
    """The auction (docs/RULES.md §3.3): left of the dealer first, passes final; returns
    ``(bid, declarer)``, ``(-1, -1)`` when all four pass.

    Every caller sees the game's state (docs/RULES.md §3.6, public): its side's score and the
    other side's before the deal (``before0``/``before1`` are teams 0 and 1), the run's
    ``scoring`` and ``target``.

    A strategy's call that is not a pass (negative) and does not outbid raises ValueError, as
    in every game (a strategy bug is an error, never a corrected result).  Writes
    ``res[R_NCALLS]`` and the calls at ``trace[T_CALLS:]``.  ``forced``
    (int64[F_LEN]): the given first calls, made as ``forced[F_IMPLIED]`` says
    (:mod:`cardsim.games.forced`), and the seat's forced first call; a forced call that is not
    legal when its seat first speaks leaves ``res[R_FORCED_OK]`` 0 and the strategy calls.  Under
    ``CHECK_CALLS`` the auction stops after the given calls, returns ``(-1, -1)`` and leaves in
    ``res[R_FORCED_OK]`` how many of them the callers' strategies made.  ``calls`` (int64[MAX_CALLS])
    receives the calls made, traced or not: a ``pimc:auction=1`` seat's worlds read them.
    """
    tracing = trace.shape[0] > 0
    high = np.int64(-1)
    high_seat = np.int64(-1)
    passed = 0
    n_calls = 0
    seat = (dealer + 1) % 4
    pending = forced[F_KIND] == FORCE_FIRST_CALL
    res[R_FORCED_OK] = 1
    while True:
        n_active = 4 - popcount(U64(passed))
        if n_active == 0 or (n_active == 1 and high >= 0):
            break
        if passed & (1 << seat):
            seat = (seat + 1) % 4
            continue
        prefix = n_calls < forced[F_NPREFIX]
        if not prefix and forced[F_IMPLIED] == CHECK_CALLS:
            res[R_FORCED_OK] = n_calls
            return np.int64(-1), np.int64(-1)
        # one call site of choose_call: every inlined copy is typed and compiled again
        mine = np.int64(-1)
        if not prefix or forced[F_IMPLIED] != GIVEN_CALLS:
            ours = before0 if seat % 2 == 0 else before1
            theirs = before1 if seat % 2 == 0 else before0
            mine = choose_call(ids[seat], params, streams, seat, hands[seat], high, high_seat, ours, theirs,
                               scoring, target)
        if prefix:
            call = forced[F_PREFIX + n_calls]
            if forced[F_IMPLIED] != GIVEN_CALLS:
                if mine < 0:
                    mine = -1  # every negative call is a pass
                if mine != call:
                    if forced[F_IMPLIED] == CHECK_CALLS:
                        res[R_FORCED_OK] = n_calls
                        return np.int64(-1), np.int64(-1)
                    raise ValueError("a strategy did not make the call its hand was dealt for")
        else:
            call = mine
            if pending and seat == forced[F_SEAT]:
                pending = False
                if forced[F_CALL] < 0 or high < forced[F_CALL] <= 24:
                    call = forced[F_CALL]
                else:
                    res[R_FORCED_OK] = 0
        if call > 24 or (call >= 0 and call <= high):
            raise ValueError("a strategy made an insufficient or unknown bid")
        if call < 0:
            call = -1  # every negative call is a pass
        calls[n_calls] = call
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
    return high, high_seat


@jit(inline="always")
def forced_auction(dealer, declarer, bid, trace, res):
    """The shortest legal auction in which ``declarer`` bids ``bid`` (docs/RECORDS.md, forced
    contracts): the players from the dealer's left to the declarer pass, he bids, the others
    pass (passes are final, docs/RULES.md §3.3).  Writes the calls and ``res[R_NCALLS]`` (4)."""
    tracing = trace.shape[0] > 0
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        if tracing:
            trace[T_CALLS + k] = bid if seat == declarer else -1
    res[R_NCALLS] = 4
    res[R_FORCED_OK] = 1


@jit(inline="always")
def throw_in(res):
    """All four passed (docs/RULES.md §3.3): no declarer, no contract, no score."""
    res[R_DECLARER] = -1
    res[R_BID] = -1
    res[R_MADE] = -1
    res[R_WINNER] = -1


@jit
def keep_lead(full, disc, keep, denom):
    """The discard ``disc`` (effective, uint64) with the card ``keep`` kept: a declarer told to
    lead a card his strategy puts away discards in its place the nearest card of its run of
    touching cards (in the trick order of ``denom``; cards that do not exist in this denomination
    skipped) that he keeps, so that leading any card of a run leaves the same hand in play, ranks
    apart; where he keeps none of the run, his lowest kept card by rank, a side card before a
    trump (the lowest index on ties).  ``full``: his sixteen cards."""
    kept = full & ~disc
    joker = denom == NT and (TRUMP_MASK[NT] >> U64(keep)) & U64(1) != U64(0)
    base = keep - (keep & 15)
    mask = TRUMP_MASK[NT] if joker else SUIT_MASK[denom, keep >> 4]
    real = FULL_EFF[denom] & mask
    swap = -1
    for step in (1, -1):
        c = keep + step
        while swap < 0 and base <= c < base + 16:
            b = U64(1) << U64(c)
            if real & b != U64(0):
                if full & b == U64(0):
                    break  # a card he does not hold: the run ends
                if kept & b != U64(0):
                    swap = c
            c += step
    if swap < 0:
        pool = kept & ~TRUMP_MASK[denom]
        if pool == U64(0):
            pool = kept
        m = pool
        while m != U64(0):
            c = lowest_bit(m)
            m &= m - U64(1)
            if swap < 0 or (c & 15) < (swap & 15):
                swap = c
    return (disc & ~(U64(1) << U64(keep))) | (U64(1) << U64(swap))


@jit(inline="always")
def take_kitty(declarer, denom, ids, params, streams, kitty, eff, res, keep):
    """The declarer takes the kitty and puts six cards away (docs/RULES.md §3.4); returns the
    discard (uint64, effective layout of ``denom``).

    ``eff[declarer]`` becomes his ten remaining cards; ``kitty`` is physical.  A discard that
    is not six of his cards raises ValueError.  Writes the physical discard to
    ``res[R_DISCARD]``.  ``keep`` >= 0 is a card (effective) he must keep, the first lead a
    question forces (:func:`keep_lead`).
    """
    full = eff[declarer] | remap_hand(kitty, denom)
    disc = choose_discard(ids[declarer], params, streams, declarer, full, denom)
    if keep >= 0 and (disc >> U64(keep)) & U64(1) != U64(0):
        disc = keep_lead(full, disc, keep, denom)
    if popcount(disc) != 6 or (disc & ~full) != U64(0):
        raise ValueError("a strategy made an illegal discard")
    eff[declarer] = full & ~disc
    pd = U64(0)
    m = disc
    while m:
        b = lowest_bit(m)
        m &= m - U64(1)
        pd |= U64(1) << U64(UNMAP[denom, b])
    res[R_DISCARD] = np.int64(pd)
    return disc


@jit(inline="always")
def play_tricks(declarer, bid, disc, ids, params, streams, eff, trick, trace, res, first, auction):
    """Ten tricks (docs/RULES.md §3.5), the declarer leading first; returns the tricks won by team
    0 (seats 0+2) and team 1 (int64, int64) and writes them to ``res``.

    ``eff`` (uint64[4], effective layout of ``bid``'s denomination) is emptied card by card;
    ``disc`` is the declarer's discard, which only he sees.  An illegal card (or a missing or
    bad named suit of a no-trump joker lead) raises ValueError.  Writes the physical cards at
    ``trace[T_PLAY:]`` and the named suits (-1 none) at ``trace[T_NAMED:]``.  ``first`` >= 0 is
    the declarer's first lead, coded as a strategy's card (effective card + 256 × named suit):
    it replaces the card his strategy chooses (asked all the same); -1 lets his strategy lead.

    ``auction``: the public record of the auction for the strategies that read it
    (:func:`.dispatch.choose_card`'s ``auction``, made by :func:`play_contract`); its ``by_seat``
    (uint64[4], each seat's effective cards played) is filled here card by card.
    """
    tracing = trace.shape[0] > 0
    denom = bid % 5
    contract_tricks = contract_level(bid)
    by_seat = auction[9]
    for s in range(4):
        by_seat[s] = U64(0)
    played = U64(0)
    tricks0 = np.int64(0)
    tricks1 = np.int64(0)
    leader = declarer
    voids = np.int64(0)
    k = 0
    for t in range(10):
        led = np.int64(-1)
        for i in range(4):
            seat = (leader + i) % 4
            decl_tricks = tricks0 if declarer % 2 == 0 else tricks1
            known = disc if seat == declarer else U64(0)
            code = choose_card(ids[seat], params, streams, seat, eff[seat], denom, declarer, leader,
                               trick, i, led, played, known, decl_tricks, contract_tricks, voids, auction)
            if k == 0 and first >= 0:
                # the forced first lead replaces the declarer's own choice (asked all the same: a branch
                # around the inlined strategy measured up to 2% slower on every deal, a replaced result not)
                code = first
            c = code & 0xFF
            named = code >> 8
            legal = legal_plays(eff[seat], denom, led)
            if c > 63 or ((U64(1) << U64(c)) & legal) == U64(0):
                raise ValueError("a strategy played an illegal card")
            if i == 0:
                led = card_suit(c, denom)
                if led < 0:
                    if named < 0 or named > 3:
                        raise ValueError("a strategy led a no-trump joker without naming a suit")
                    led = named
                    if tracing:
                        trace[T_NAMED + k] = named
                elif tracing:
                    trace[T_NAMED + k] = -1
            else:
                if card_suit(c, denom) != led:  # public: the seat has none of the suit led
                    voids |= np.int64(1) << np.int64(4 * seat + led)
                if tracing:
                    trace[T_NAMED + k] = -1
            if tracing:
                trace[T_PLAY + k] = UNMAP[denom, c]
            k += 1
            trick[i] = c
            eff[seat] &= ~(U64(1) << U64(c))
            played |= U64(1) << U64(c)
            by_seat[seat] |= U64(1) << U64(c)
        w = trick_winner(trick, denom, led)
        leader = (leader + w) % 4
        if leader % 2 == 0:
            tricks0 += 1
        else:
            tricks1 += 1
    res[R_TRICKS0] = tricks0
    res[R_TRICKS1] = tricks1
    return tricks0, tricks1


@jit(inline="always")
def score_contract(declarer, bid, tricks0, tricks1, scoring, target, before0, before1, res):
    """Score a played contract (docs/RULES.md §3.6) into ``res``: ``R_MADE``, the deltas under both
    scorings (``R_Q*`` quebec, ``R_S*`` subtract) and under the run's ``scoring``
    (``R_DELTA*``), and ``R_WINNER`` (the team at or over ``target`` points from
    ``before0``/``before1``, -1 none)."""
    dteam = declarer % 2
    dt = tricks0 if dteam == 0 else tricks1
    made = contract_made(bid, dt)
    res[R_MADE] = 1 if made else 0
    qa, qb = score_deal(bid, dt, 0)
    sa, sb = score_deal(bid, dt, 1)
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


@jit(inline="always")
def play_contract(declarer, bid, ids, params, scoring, target, before0, before1, hands, kitty,
                  eff, streams, trick, calls, by_seat, trace, res, forced):
    """Everything after the auction for ``declarer`` (seat) and ``bid`` (0..24): kitty,
    tricks, score (docs/RULES.md §3.4-§3.6).  ``res`` must already hold :func:`start_result`'s
    fields; ``hands`` (physical) are left as dealt.  ``forced[F_LEAD]``: the declarer's first
    lead (kept through the discard; where he holds it neither dealt nor in the kitty,
    ``res[R_FORCED_OK]`` 0 and his strategy leads).  ``calls`` (int64[MAX_CALLS]): the auction's
    calls (:func:`run_auction`); ``by_seat`` (uint64[4]) scratch for the cards each seat plays:
    with ``hands`` and the scores, the public record the card decisions get (:func:`play_tricks`)."""
    res[R_DECLARER] = declarer
    res[R_BID] = bid
    denom = bid % 5
    for s in range(4):
        eff[s] = remap_hand(hands[s], denom)
    first = np.int64(-1)
    if forced[F_LEAD] > 0:
        first = REMAP[denom, forced[F_LEAD] - 1]
        if ((eff[declarer] | remap_hand(kitty, denom)) >> U64(first)) & U64(1) == U64(0):
            res[R_FORCED_OK] = 0
            first = -1
    disc = take_kitty(declarer, denom, ids, params, streams, kitty, eff, res, first)
    if first >= 0 and forced[F_NAMED] > 0:
        first += 256 * (forced[F_NAMED] - 1)
    # The calls are the strategies' own unless a question forced a call or a contract, or gave
    # calls made whatever the hands: only then can a searching seat's worlds read them.
    readable = np.int64(forced[F_KIND] != FORCE_CONTRACT and forced[F_KIND] != FORCE_FIRST_CALL
                        and (forced[F_NPREFIX] == 0 or forced[F_IMPLIED] == IMPLIED_CALLS))
    auction = (readable, res[R_DEALER], ids, before0, before1, scoring, target, calls, res[R_NCALLS], by_seat, hands)
    tricks0, tricks1 = play_tricks(declarer, bid, disc, ids, params, streams, eff, trick, trace, res, first, auction)
    score_contract(declarer, bid, tricks0, tricks1, scoring, target, before0, before1, res)


@jit
def play_deal(dealer, hands, kitty, ids, params, scoring, target, before0, before1, eff, streams,
              trick, calls, by_seat, trace, res, forced):
    """Play a deal from given physical ``hands`` (uint64[4], 10 cards each) and ``kitty``
    (uint64, 6 cards): auction, then :func:`play_contract` or a throw-in (docs/RULES.md §3.3-§3.6).
    ``streams`` must be seeded (``rng.seed_streams(streams, key)``); ``forced``: int64[F_LEN]
    (``NO_FORCE``: nothing forced), a forced contract skips the auction.  ``calls`` (int64[MAX_CALLS])
    and ``by_seat`` (uint64[4]): scratch for the public record of the auction and the play
    (:func:`play_contract`)."""
    # Borrowed views (cardsim._jit.borrowed): no reference counting at every bid and card.
    hands, ids, params = borrowed(hands), borrowed(ids), borrowed(params)
    eff, streams, calls, by_seat = borrowed(eff), borrowed(streams), borrowed(calls), borrowed(by_seat)
    trick, trace, res, forced = borrowed(trick), borrowed(trace), borrowed(res), borrowed(forced)
    start_result(dealer, hands, kitty, before0, before1, res)
    # one call site of play_contract: every inlined copy is typed and compiled again
    if forced[F_KIND] == FORCE_CONTRACT:
        declarer = forced[F_SEAT]
        bid = forced[F_CALL]
        forced_auction(dealer, declarer, bid, trace, res)
    else:
        bid, declarer = run_auction(dealer, ids, params, streams, hands, scoring, target, before0, before1, trace,
                                    res, forced, calls)
        if bid < 0:
            throw_in(res)
            return
    play_contract(declarer, bid, ids, params, scoring, target, before0, before1, hands, kitty,
                  eff, streams, trick, calls, by_seat, trace, res, forced)


@jit
def run_deal(key, dealer, ids, params, scoring, target, before0, before1,
             deck, hands, eff, streams, trick, calls, by_seat, trace, res, forced):
    """Play the deal of ``key`` (uint64); ``dealer`` -1 draws it from the shuffle stream
    (independent deals).  Seeds ``streams`` from ``key``, deals (:func:`deal_cards`) and plays
    (:func:`play_deal`); ``before0``/``before1`` are the team scores before the deal.
    """
    ids, params, deck, hands, eff = borrowed(ids), borrowed(params), borrowed(deck), borrowed(hands), borrowed(eff)
    streams, trick, trace, res, forced = borrowed(streams), borrowed(trick), borrowed(trace), borrowed(res), \
        borrowed(forced)
    calls, by_seat = borrowed(calls), borrowed(by_seat)
    seed_streams(streams, key)
    dealer, kitty = deal_cards(dealer, deck, hands, streams[0])
    play_deal(dealer, hands, kitty, ids, params, scoring, target, before0, before1, eff, streams,
              trick, calls, by_seat, trace, res, forced)


@jit
def _scratch():
    deck = np.empty(46, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    eff = np.empty(4, dtype=np.uint64)
    streams = np.empty((5, 1), dtype=np.uint64)
    trick = np.empty(4, dtype=np.int64)
    calls = np.zeros(MAX_CALLS, dtype=np.int64)
    by_seat = np.zeros(4, dtype=np.uint64)
    no_force = np.zeros(F_LEN, dtype=np.int64)
    return deck, hands, eff, streams, trick, calls, by_seat, no_force


@jit
def simulate_kernel(seed, start, count, ids, params, scoring, target, out):
    """Independent deals ``start .. start+count-1`` of ``seed`` into ``out`` (int64[count, R_LEN])."""
    deck, hands, eff, streams, trick, calls, by_seat, no_force = _scratch()
    _simulate_loop(seed, start, count, ids, params, scoring, target, out, deck, hands, eff, streams, trick, calls,
                   by_seat, no_force, np.empty(0, dtype=np.int64))


@jit
def _simulate_loop(seed, start, count, ids, params, scoring, target, out, deck, hands, eff, streams, trick, calls,
                   by_seat, no_force, no_trace):
    # Borrowed views (cardsim._jit.borrowed) of the caller's arrays: no reference counting at
    # every deal's calls.
    ids, params, out, deck, hands = borrowed(ids), borrowed(params), borrowed(out), borrowed(deck), borrowed(hands)
    eff, streams, trick, no_force, no_trace = borrowed(eff), borrowed(streams), borrowed(trick), borrowed(no_force), \
        borrowed(no_trace)
    calls, by_seat = borrowed(calls), borrowed(by_seat)
    # np.int64(...), not bare literals: a literal argument would compile run_deal and play_deal
    # once more, for its literal type (numba specializes on Literal[int]).
    for i in range(count):
        key = deal_key(U64(seed), start + i)
        run_deal(key, np.int64(-1), ids, params, scoring, target, np.int64(0), np.int64(0), deck, hands, eff,
                 streams, trick, calls, by_seat, no_trace, out[i], no_force)


@jit
def trace_kernel(seed, deal_ids, ids, params, scoring, target, before0, before1, out, traces):
    """Like :func:`simulate_kernel` for chosen deal numbers, with action traces."""
    deck, hands, eff, streams, trick, calls, by_seat, no_force = _scratch()
    for i in range(deal_ids.shape[0]):
        key = deal_key(U64(seed), deal_ids[i])
        run_deal(key, np.int64(-1), ids, params, scoring, target, before0, before1, deck, hands, eff, streams, trick,
                 calls, by_seat, traces[i], out[i], no_force)


MAX_MATCH_DEALS = 2000
"""Deal cap of a game (a match, or a game played on after a question's deal): a game not over
by then has no winner (winner -1; a played-on game's share is then 0.5 each, a draw)."""


@jit
def finish_game(gkey, dealer, ids, params, scoring, target, s0, s1, deals_done, deck, hands, eff, streams, trick,
                calls, by_seat, no_trace, res, no_force):
    """Play a game on with the strategies alone from the team scores ``s0``/``s1`` (no side at the
    target), ``dealer`` dealing next and ``deals_done`` deals played: deal ``j`` (``deals_done``,
    ``deals_done + 1``, …) has key ``deal_key(gkey, j)`` and the deal passes left after every deal
    (docs/RULES.md §3.2, §3.6).  Returns ``(winner, deals)``: the winning team (-1 when the game
    reached MAX_MATCH_DEALS deals) and the deals played in all."""
    j = deals_done
    while j < MAX_MATCH_DEALS:
        run_deal(deal_key(gkey, j), dealer, ids, params, scoring, target, s0, s1, deck, hands, eff, streams, trick,
                 calls, by_seat, no_trace, res, no_force)
        j += 1
        s0 += res[R_DELTA0]
        s1 += res[R_DELTA1]
        dealer = (dealer + 1) % 4
        if res[R_WINNER] >= 0:
            return res[R_WINNER], j
    return np.int64(-1), j


@jit
def given_kernel(keys, start, dealers, hands_in, kitties, ids, params, scoring, target, before0, before1,
                 forced, out, traces, play_out, shares):
    """Deals ``start .. start+n-1`` played from given physical hands (``hands_in`` uint64[n, 4]),
    kitties (uint64[n]) and dealers (int64[n]) into ``out`` (int64[n, R_LEN]); the seats' streams
    are seeded from ``keys`` (uint64[n]: the deal keys, or the accepted attempts' keys when calls
    imply hands, :mod:`cardsim.deal`), the same for every option of a question.  ``traces``:
    int64[n, TRACE_LEN], or int64[n, 0] for none; ``forced``: int64[F_LEN].

    With ``play_out`` (np.bool_) the game then goes on to its end (:func:`finish_game`, the
    dealer passing left, the strategies forcing nothing) and ``shares`` (float64[n, 2]) receives
    each team's share of the win: 1 / 0, or 0.5 each for a game that hits the deal cap.  The
    game's later deals are keyed by ``rng.match_key(keys[i], 0)`` (deal ``j`` has key
    ``deal_key(that, j)``, j = 1, 2, …): from the evaluated deal's key, never from the option, so
    every option meets the same continuation (common random numbers)."""
    deck, hands, eff, streams, trick, calls, by_seat, no_force = _scratch()
    no_trace = np.empty(0, dtype=np.int64)
    res = np.zeros(R_LEN, dtype=np.int64)
    for i in range(dealers.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        play_deal(dealers[i], hands, U64(kitties[i]), ids, params, scoring, target, before0, before1, eff,
                  streams, trick, calls, by_seat, traces[i], out[i], forced)
        if play_out:
            winner = out[i, R_WINNER]
            if winner < 0:
                winner, _ = finish_game(match_key(keys[i], np.int64(0)), (dealers[i] + 1) % 4, ids, params, scoring,
                                        target, before0 + out[i, R_DELTA0], before1 + out[i, R_DELTA1], np.int64(1),
                                        deck, hands, eff, streams, trick, calls, by_seat, no_trace, res, no_force)
            for t in range(2):
                shares[i, t] = 0.5 if winner < 0 else (1.0 if winner == t else 0.0)


@jit
def agreed_calls(keys, dealers, hands_in, ids, params, scoring, target, before0, before1, forced, agreed):
    """How many of the given calls (``forced[F_IMPLIED] == CHECK_CALLS``) the callers' strategies
    make with the hands ``hands_in`` (uint64[n, 4]) and the streams of ``keys`` (uint64[n]), into
    ``agreed`` (int64[n]): the dealer's test when calls imply hands.  The callers see the scores
    ``before0``/``before1`` under ``scoring`` to ``target``, as in the deals then played."""
    deck, hands, eff, streams, trick, calls, _, _ = _scratch()
    res = np.zeros(R_LEN, dtype=np.int64)
    no_trace = np.empty(0, dtype=np.int64)
    for i in range(keys.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        run_auction(dealers[i], ids, params, streams, hands, scoring, target, before0, before1, no_trace, res,
                    forced, calls)
        agreed[i] = res[R_FORCED_OK]


@jit
def auction_made(keys, dealer, hands_in, ids, params, scoring, target, before0, before1, forced, made):
    """Whether the strategies ``ids``/``params`` make every call of a whole auction with the dealt
    physical hands ``hands_in`` (uint64[n, 4], each row a world) and the streams of ``keys``
    (uint64[n], one key per world), into ``made`` (bool[n]): the test of a ``pimc:auction=1``
    seat's worlds (:mod:`.pimc_auction`).  ``forced``: ``CHECK_CALLS`` with the whole auction's
    ``forced[F_NPREFIX]`` calls as its prefix; the callers see the scores ``before0``/``before1``
    under ``scoring`` to ``target``, as in the deal.  An auction that departs from the calls stops
    there (``res[R_NCALLS]`` not written); one that makes them all ends where the real one ended
    (the same calls leave the same bidders and the same bid)."""
    deck, hands, eff, streams, trick, calls, _, _ = _scratch()
    res = np.zeros(R_LEN, dtype=np.int64)
    no_trace = np.empty(0, dtype=np.int64)
    for i in range(keys.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        res[R_NCALLS] = -1
        run_auction(dealer, ids, params, streams, hands, scoring, target, before0, before1, no_trace, res,
                    forced, calls)
        made[i] = res[R_NCALLS] == forced[F_NPREFIX]


# The pimc player's worlds that read the auction run this kernel; its glue is below the engine.
use_auction_kernel(auction_made)


@jit
def match_kernel(seed, start, count, ids, params, scoring, target, max_deals, matches, deals,
                 deal_match, deal_index):
    """:func:`match_from` from 0-0, the first dealer drawn per match."""
    return match_from(seed, start, count, ids, params, scoring, target, max_deals, matches, deals, deal_match,
                      deal_index, np.int64(0), np.int64(0), np.int64(-1))


@jit
def match_from(seed, start, count, ids, params, scoring, target, max_deals, matches, deals, deal_match, deal_index,
               before0, before1, first_dealer):
    """Whole matches ``start .. start+count-1`` (docs/RULES.md §3.2, §3.6): deal ``j`` of match ``m``
    has key ``deal_key(rng.match_key(seed, m), j)``; the first dealer is drawn from stream 0 of
    the match key (``rng.stream(match key, 0)``) unless ``first_dealer`` (int64, -1 drawn) is a
    seat, and the deal passes left after every deal (thrown-in deals
    included) until a team reaches ``target`` points or ``max_deals`` deals are played.

    Every match starts from the team scores ``before0``/``before1`` (int64; 0-0 for a new game;
    no side at the target).  ``matches``: MATCH_DTYPE[count] (:mod:`cardsim.games.g500.rows`), filled by field name;
    ``deals``: int64[capacity, R_LEN] result vectors, with ``deal_match`` and ``deal_index``
    (int64[capacity]) the match and the deal's number in it.  Returns the deal rows written,
    or -1 when ``capacity`` is too small (``base.grow_until_fits`` calls again with more room).
    """
    deck, hands, eff, streams, trick, calls, by_seat, no_force = _scratch()
    no_trace = np.empty(0, dtype=np.int64)
    draw = np.empty(1, dtype=np.uint64)
    n_rows = 0
    for m in range(count):
        mk = match_key(seed, start + m)
        seed_stream(draw, mk, 0)
        dealer = randbelow(draw, 4)  # drawn even when given: the stream is the match's alone
        if first_dealer >= 0:
            dealer = first_dealer
        first = dealer
        s0 = before0
        s1 = before1
        thrown = 0
        winner = -1
        j = 0
        while j < max_deals:
            if n_rows >= deals.shape[0]:
                return -1
            row = deals[n_rows]
            run_deal(deal_key(mk, j), dealer, ids, params, scoring, target, s0, s1, deck, hands,
                     eff, streams, trick, calls, by_seat, no_trace, row, no_force)
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
        r = matches[m]
        r.match = start + m
        r.winner = winner
        r.deals = j
        r.score_0 = s0
        r.score_1 = s1
        r.thrown_in = thrown
        r.first_dealer = first
    return n_rows


@jit
def deal_kernel(seed, start, count):
    """Dealing only (dealer, shuffle, hands and kitty): the benchmark baseline; a checksum."""
    deck, hands, eff, streams, trick, _, _, no_force = _scratch()
    acc = U64(0)
    for i in range(count):
        key = deal_key(U64(seed), start + i)
        seed_streams(streams, key)
        dealer, kitty = deal_cards(-1, deck, hands, streams[0])
        acc ^= hands[0] + (hands[1] * U64(3)) + (kitty * U64(7)) + U64(dealer)
    return acc
