"""The jitted Vint driver: deal, auction, 13 tricks, score — one row per deal (docs/RULES.md §2).

``run_deal`` is the one implementation of a deal; ``simulate_kernel`` loops it over a range of
deals, ``trace_deal`` runs it for one deal keeping the action trace that records are made of,
and ``match_kernel`` chains deals into rubbers with the below-the-line state carried over.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.games.forced import (CHECK_CALLS, F_CALL, F_IMPLIED, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT,
                                  FORCE_CONTRACT, FORCE_FIRST_CALL, GIVEN_CALLS, IMPLIED_CALLS)
from cardsim.cards import SUITS, popcount, suit_mask
from cardsim.rng import deal_key, match_key, mix64, randbelow, seed_stream, shuffle

from .rules import (LED_SHIFT, MAX_CALL, MAX_CALLS, N_SCORE, N_TRICKS, NT, PASS, S_ABOVE, S_ACES, S_AFTER_BELOW,
                    S_AFTER_GAMES, S_BELOW, S_BID_SLAM, S_CROSSING, S_GAME, S_GAME_WON_BY, S_HONOURS,
                    S_MADE, S_PENALTY, S_RUBBER_WON_BY, S_SLAM, S_TOTAL, S_TRICKS, CLOSING_PASSES,
                    VOID_PASSES, aces_held, call_denomination, call_level, first_bid_suits, high_card_points,
                    beats, honours_held, legal_plays, score_deal, shown_after, trick_value)
from .dispatch import choose_call, choose_card
from .pimc import use_auction_kernel

U64 = np.uint64

_fields = [("deal", "i8"), ("dealer", "i1"), ("declarer", "i1"), ("level", "i1"), ("denomination", "i1"),
           ("value", "i2"), ("void", "?"), ("made", "?"), ("n_calls", "i2")]
for _name, _dt in [("tricks", "i1"), ("below", "i4"), ("above", "i4"), ("slam", "i4"), ("bid_slam", "i4"),
                   ("honours", "i4"), ("aces", "i4"), ("penalty", "i4"), ("game", "i4"), ("total", "i4")]:
    _fields += [(f"{_name}_0", _dt), (f"{_name}_1", _dt)]
_fields += [("game_won_by", "i1"), ("crossing_trick", "i1"), ("rubber_won_by", "i1"),
            ("opener", "i1"), ("opening_level", "i1"), ("opening_denomination", "i1")]
_fields += [(f"hcp_{s}", "i1") for s in range(4)]
_fields += [(f"aces_held_{s}", "i1") for s in range(4)]
_fields += [(f"len_{s}_{suit}", "i1") for s in range(4) for suit in SUITS]
_fields += [("team_aces_0", "i1"), ("team_aces_1", "i1"), ("team_honours_0", "i1"), ("team_honours_1", "i1")]
ROW_DTYPE = np.dtype(_fields)
ROW_DOC = """One row per deal.  ``deal`` its number (within a rubber: its number in the rubber);
``dealer``; ``declarer`` the last bidder (−1 when the deal is void: nobody bid); ``level`` 1..7
and ``denomination`` 0..4 = S C D H NT of the contract (0 and −1 when void); ``value`` the trick
value V (docs/RULES.md §2.4); ``void``; ``made`` (the declarer's side took level + 6 tricks);
``n_calls`` calls in the auction.  By team (``_0`` = seats 0+2, ``_1`` = seats 1+3), in score
points: ``tricks``, ``below`` (tricks × V), ``above`` and its parts ``slam``, ``bid_slam``,
``honours``, ``aces``, ``penalty`` (undertricks, to the defenders), ``game`` (500 or 1000), and
``total`` = below + above.  ``game_won_by``/``rubber_won_by`` team or −1; ``crossing_trick``
1-based, 0 = nobody reached 500.  ``opener`` the seat that made the first bid and
``opening_level``/``opening_denomination`` that bid (−1, 0, −1 when nobody bid).  Hand features:
``hcp_s`` 4-3-2-1 points, ``aces_held_s``, ``len_s_X`` per seat; ``team_aces_t`` and
``team_honours_t`` (trump honours held for the contract's trump, 0 in no-trump or void) per team.
Independent deals start from a clean line."""

RUBBER_DTYPE = np.dtype([("rubber", "i8"), ("deals", "i2"), ("void_deals", "i2"), ("games_0", "i1"),
                         ("games_1", "i1"), ("winner", "i1"), ("points_0", "i4"), ("points_1", "i4"),
                         ("margin", "i4")])
MAX_RUBBER_DEALS = 5000
"""Deal cap per rubber: strategies that never bid would deal void deals forever (a rubber stopped
there gets no winner, -1 in the rows, missing in the frame, and margin 0)."""
MATCH_DOC = """One row per rubber: ``rubber`` its number, ``deals`` (void deals included) and
``void_deals``, games won ``games_0``/``games_1``, ``winner`` (team; missing when the rubber was
stopped unfinished at 5,000 deals, e.g. by strategies that never bid), each team's total above +
below over the rubber ``points_0``/``points_1`` (score points) and ``margin`` = winner's total −
loser's (may be negative, docs/RULES.md §2.7; 0 without a winner).  A rubber started from a given line
(``play_match(before=[below0, below1, games0, games1])``) counts its deals and points from there; its
games are those at its end.  play_match's deal rows carry ``rubber`` first, then
the deal columns, with ``deal`` numbered within the rubber."""

# A rubber played on from a state (rubber_on, match_kernel, given_rubber_kernel): int64 columns of
# the result rows and of rubber_on's tally (RU_WINNER is the rows' alone, RU_ROWS the tally's).
RU_WINNER, RU_MARGIN, RU_DEALS, RU_POINTS0, RU_POINTS1, RU_VOIDS, RU_ROWS = 0, 1, 2, 3, 4, 5, 6
N_RU = 7
ROWS_FULL = -2
"""What :func:`rubber_on` returns when the deal rows it keeps ran out of room."""
CONTINUE_SALT = np.uint64(0x3C6EF372FE94F82B)
"""Salt of the key of a question's rubber played on after the evaluated deal: the continuation is
keyed by the evaluated deal's key alone (``mix64(key ^ CONTINUE_SALT)``), never by the option, so
every option meets the same later deals (common random numbers), and never coincides with the
deal keys of a seed."""

TRACE_PLAYS = 52
BASE_DECK = np.array([s * 16 + r for s in range(4) for r in range(13)], dtype=np.int64)

# info vector written by run_deal
I_NCALLS, I_DECLARER, I_CONTRACT, I_FORCED_OK = 0, 1, 2, 3
N_INFO = 4

# forced vector (int64[F_LEN]) read by run_deal: what a question forces.  Before the seat's
# first call, the first ``forced[F_NPREFIX]`` calls of the auction (from the dealer) are
# ``forced[F_PREFIX:]`` — "partner opened 1NT", "after a pass" — then the seat's option.
MAX_PREFIX = 16
F_LEAD = F_PREFIX + MAX_PREFIX
"""forced[F_LEAD]: the opening lead forced on the declarer's left, as card index + 1 (0: none, so
the all-zero vector still forces nothing; -1: none either, the leader's strategy leads in a lead
question, ``lead:auto``); checked against the leader's hand in run_deal."""
F_LEN = F_LEAD + 1
NO_FORCE = np.zeros(F_LEN, dtype=np.int64)


@jit
def deal_cards(key, dealer, base_deck, deck, hands, state):
    """Shuffle and deal 13 cards each (docs/RULES.md §2.1); returns the dealer (int64).

    The deal's stream first draws a dealer (used when ``dealer`` < 0, as for an independent
    deal; a rubber passes its rotating dealer), then shuffles ``deck`` (int64[52] scratch, reset
    from ``base_deck``).  One card at a time clockwise from the dealer's left: ``deck[k]`` goes
    to seat ``(dealer + 1 + k) % 4``.  ``hands``: uint64[4], overwritten; ``state``: uint64[1]
    scratch for the shuffle's stream (the caller's, so that no deal allocates).
    """
    base_deck, deck, hands, state = borrowed(base_deck), borrowed(deck), borrowed(hands), borrowed(state)
    seed_stream(state, key, 0)
    drawn = randbelow(state, 4)
    if dealer < 0:
        dealer = drawn
    # Element by element: an array assigned to a slice compiles numba's shape-mismatch error
    # (its message formatting: about 2.5 s of a cold compile) for a check that cannot fail here.
    for k in range(52):
        deck[k] = base_deck[k]
    shuffle(deck, state)
    # Four cards a round, one to each seat from the dealer's left, gathered in registers.
    h0, h1, h2, h3 = U64(0), U64(0), U64(0), U64(0)
    for k in range(0, 52, 4):
        h0 |= U64(1) << U64(deck[k])
        h1 |= U64(1) << U64(deck[k + 1])
        h2 |= U64(1) << U64(deck[k + 2])
        h3 |= U64(1) << U64(deck[k + 3])
    hands[(dealer + 1) & 3] = h0
    hands[(dealer + 2) & 3] = h1
    hands[(dealer + 3) & 3] = h2
    hands[dealer & 3] = h3
    return dealer


@jit(inline="always")
def run_auction(dealer, hands, ids, params, streams, calls, forced, below, games):
    """The auction (docs/RULES.md §2.2): the dealer speaks first, 8 passes void the deal, 12 passes
    after a bid end it.  Returns ``(ncalls, declarer, contract, forced_ok)``: the calls made
    (written to ``calls``, int64[MAX_CALLS]), the last bidder (−1 void), the final bid (0 void)
    and ``forced_ok`` (int64): 1 if a forced first call (``forced[F_KIND] == FORCE_FIRST_CALL``)
    was legal when its seat first spoke, else 0 (an illegal one is replaced by the seat's
    strategy's call).  The first ``forced[F_NPREFIX]`` calls are ``forced[F_PREFIX:]`` (checked
    legal by the caller), made as ``forced[F_IMPLIED]`` says (:mod:`cardsim.games.forced`); under
    ``CHECK_CALLS`` the auction stops after them as a void deal and ``forced_ok`` is how many of
    them the callers' strategies made.  ``below``/``games`` (int64[2] each, by team): the line
    before the deal, part of every caller's view, and so is ``shown`` (int64, rules.SHOWN_BITS),
    what the calls so far showed, kept here call by call.
    """
    ncalls = np.int64(0)
    shown = np.int64(0)
    current = np.int64(PASS)
    bidder = np.int64(-1)
    passes = 0
    seat = dealer
    pending = forced[F_KIND] == FORCE_FIRST_CALL
    forced_ok = np.int64(1)
    implied = forced[F_IMPLIED]
    while True:
        if ncalls < forced[F_NPREFIX]:
            call = forced[F_PREFIX + ncalls]
            if implied != GIVEN_CALLS:
                mine = choose_call(ids[seat], params, streams, seat, hands[seat], calls, ncalls, current, bidder, below,
                                   games, shown)
                if mine != call:
                    if implied == CHECK_CALLS:
                        return ncalls, np.int64(-1), np.int64(PASS), ncalls
                    raise ValueError("a strategy did not make the call its hand was dealt for")
        elif implied == CHECK_CALLS:
            return ncalls, np.int64(-1), np.int64(PASS), ncalls
        else:
            call = choose_call(ids[seat], params, streams, seat, hands[seat], calls, ncalls, current, bidder, below,
                               games, shown)
        if pending and seat == forced[F_SEAT] and ncalls >= forced[F_NPREFIX]:
            pending = False
            if forced[F_CALL] == PASS or current < forced[F_CALL] <= MAX_CALL:
                call = forced[F_CALL]
            else:
                forced_ok = 0
        if call != PASS and (call <= current or call > MAX_CALL):
            raise ValueError("strategy made an insufficient or unknown bid")
        calls[ncalls] = call
        ncalls += 1
        shown = shown_after(shown, seat, call)
        if call == PASS:
            passes += 1
            if (current == PASS and passes == VOID_PASSES) or (current != PASS and passes == CLOSING_PASSES):
                break
        else:
            current = call
            bidder = seat
            passes = 0
        seat = (seat + 1) & 3
    return ncalls, bidder, current, forced_ok


@jit(inline="always")
def forced_auction(dealer, declarer, contract, calls):
    """The shortest legal auction in which ``declarer`` bids ``contract`` (docs/RECORDS.md, forced
    contracts): passes from the dealer to the declarer, his bid, then the 12 closing passes.
    Writes ``calls`` and returns their number."""
    n = 0
    seat = dealer
    while seat != declarer:
        calls[n] = PASS
        n += 1
        seat = (seat + 1) & 3
    calls[n] = contract
    n += 1
    for _ in range(CLOSING_PASSES):
        calls[n] = PASS
        n += 1
    return n


@jit(inline="always")
def play_tricks(declarer, trump, hands, ids, params, streams, plays, hand, trick, winners, bid_suits, first, auction):
    """The play (docs/RULES.md §2.3): the declarer's left leads, every hand hidden, follow suit if you
    can, the highest trump (else of the led suit) wins and leads next.  ``hands``: the initial
    hands (uint64[4], not changed); ``plays`` (int64[52]) receives the cards in order,
    ``winners`` (int64[13]) each trick's winning seat; ``hand`` (uint64[4]) and ``trick``
    (int64[4]) are work space; ``bid_suits`` (int64[4]), the first suit each seat bid, is part of
    every seat's view, and so are the suits each seat has shown out of (``voids``, int64 bits
    4·seat + suit: it did not follow a lead of that suit) and the suits each seat has led (the
    same word, bits LED_SHIFT + 4·seat + suit), and the index in the trick of the card winning
    so far (``winner``, kept here card by card: it is also the trick's winner at its end).
    ``first`` >= 0 is the opening lead (a card of the leader's, checked by the caller), -1 lets the
    leader's strategy lead.  ``auction``: the public record a ``pimc`` seat's worlds may read
    (:func:`.dispatch.choose_card`; built by :func:`run_deal`).
    """
    for s in range(4):  # not hand[:] = hands: see deal_cards
        hand[s] = hands[s]
    played = U64(0)
    voids = np.int64(0)
    leader = (declarer + 1) & 3
    for t in range(N_TRICKS):
        win = 0
        for k in range(4):
            seat = (leader + k) & 3
            if first >= 0:  # only the opening lead can be forced; then never again
                card = first
                first = -1
            else:
                card = choose_card(ids[seat], params, streams, seat, hand[seat], declarer, trump,
                                   leader, trick, k, played, bid_suits, voids, win, auction)
            b = U64(1) << U64(card)
            led = -1 if k == 0 else trick[0] >> 4
            if (legal_plays(hand[seat], led) & b) == U64(0):
                raise ValueError("strategy played an illegal card")
            if k == 0:
                voids |= 1 << (LED_SHIFT + 4 * seat + (card >> 4))
            elif (card >> 4) != led:
                voids |= 1 << (4 * seat + led)
            hand[seat] ^= b
            played |= b
            # The card winning so far, kept card by card (strategies recomputing it from
            # the trick at every card cost 3% of a deal).
            if k > 0 and beats(card, trick[win], trump):
                win = k
            trick[k] = card
            plays[4 * t + k] = card
        leader = (leader + win) & 3
        winners[t] = leader


@jit
def run_deal(key, dealer, hands, ids, params, below_before, games_before, streams, calls, plays, score, info,
             scratch_hands, scratch, forced):
    """Auction, play and score one deal whose initial ``hands`` (uint64[4]) are given.

    ``streams``: uint64[5, 1] scratch for the deal's streams (row 0 the shuffle's, row ``1 + seat``
    each seat's, seeded here); ``calls``: int64[MAX_CALLS] and
    ``plays``: int64[52] receive the trace; ``score``: int64[N_SCORE] (see rules.score_deal);
    ``info``: int64[N_INFO] = number of calls, declarer (−1 void), contract call (0 void),
    whether the forced choice was legal; ``scratch_hands`` (uint64[4]) and ``scratch``
    (int64[≥ 21]) are work space, allocated once per chunk by the caller.  ``forced``
    (int64[F_LEN], ``NO_FORCE`` for none): ``FORCE_FIRST_CALL`` makes seat ``forced[F_SEAT]``'s
    first call after the forced prefix ``forced[F_CALL]``; ``FORCE_CONTRACT`` skips the auction, seat ``forced[F_SEAT]``
    declaring the bid ``forced[F_CALL]``; ``forced[F_LEAD]`` (card + 1, 0 for none) is the opening
    lead of the declarer's left (not legal, ``info[I_FORCED_OK]`` 0, where he does not hold it).
    """
    # Borrowed views (cardsim._jit.borrowed): no reference counting at every call and card.
    hands, ids, params, streams = borrowed(hands), borrowed(ids), borrowed(params), borrowed(streams)
    calls, plays, score, info = borrowed(calls), borrowed(plays), borrowed(score), borrowed(info)
    scratch_hands, scratch, forced = borrowed(scratch_hands), borrowed(scratch), borrowed(forced)
    below_before, games_before = borrowed(below_before), borrowed(games_before)
    for s in range(4):
        seed_stream(streams[1 + s], key, 1 + s)
    if forced[F_KIND] == FORCE_CONTRACT:
        ncalls = forced_auction(dealer, forced[F_SEAT], forced[F_CALL], calls)
        bidder = forced[F_SEAT]
        current = forced[F_CALL]
        forced_ok = np.int64(1)
    else:
        ncalls, bidder, current, forced_ok = run_auction(dealer, hands, ids, params, streams, calls, forced,
                                                         below_before, games_before)
    score[:] = 0
    first = forced[F_LEAD] - 1
    if current != PASS and first >= 0 and (hands[(bidder + 1) & 3] >> U64(first)) & U64(1) == U64(0):
        forced_ok = 0  # the leader does not hold the forced lead: his strategy leads
        first = -1
    info[I_NCALLS] = ncalls
    info[I_DECLARER] = bidder
    info[I_CONTRACT] = current
    info[I_FORCED_OK] = forced_ok
    if current == PASS:
        return
    trump = call_denomination(current)
    winners = scratch[4:4 + N_TRICKS]
    bid_suits = scratch[4 + N_TRICKS:8 + N_TRICKS]
    first_bid_suits(calls, ncalls, bidder, bid_suits)
    # The calls were the strategies' own unless a question forced a call, a contract or calls
    # made whatever the hands: only then can a searching seat's worlds read them.
    readable = np.int64(forced[F_KIND] != FORCE_CONTRACT and forced[F_KIND] != FORCE_FIRST_CALL
                        and (forced[F_NPREFIX] == 0 or forced[F_IMPLIED] == IMPLIED_CALLS))
    auction = (ids, params, calls, ncalls, dealer, below_before, games_before, readable, plays, winners)
    play_tricks(bidder, trump, hands, ids, params, streams, plays, scratch_hands, scratch[0:4], winners, bid_suits,
                first, auction)
    score_deal(call_level(current), trump, bidder, winners, hands, below_before, games_before, score)


@jit
def fill_row(rows, i, deal_id, dealer, hands, score, info, calls):
    """Write deal ``i``'s row from its hands, score vector, info and calls (see ROW_DTYPE)."""
    rows, hands, score, info, calls = borrowed(rows), borrowed(hands), borrowed(score), borrowed(info), borrowed(calls)
    r = rows[i]
    r.opener = -1
    r.opening_level = 0
    r.opening_denomination = -1
    for k in range(info[I_NCALLS]):
        if calls[k] != PASS:
            r.opener = (dealer + k) & 3
            r.opening_level = call_level(calls[k])
            r.opening_denomination = call_denomination(calls[k])
            break
    r.deal = deal_id
    r.dealer = dealer
    r.declarer = info[I_DECLARER]
    r.n_calls = info[I_NCALLS]
    contract = info[I_CONTRACT]
    r.void = contract == PASS
    trump = NT
    if contract == PASS:
        r.level = 0
        r.denomination = -1
        r.value = 0
        r.made = False
    else:
        r.level = call_level(contract)
        trump = call_denomination(contract)
        r.denomination = trump
        r.value = trick_value(r.level, trump)
        r.made = score[S_MADE] == 1
    r.tricks_0, r.tricks_1 = score[S_TRICKS], score[S_TRICKS + 1]
    r.below_0, r.below_1 = score[S_BELOW], score[S_BELOW + 1]
    r.above_0, r.above_1 = score[S_ABOVE], score[S_ABOVE + 1]
    r.slam_0, r.slam_1 = score[S_SLAM], score[S_SLAM + 1]
    r.bid_slam_0, r.bid_slam_1 = score[S_BID_SLAM], score[S_BID_SLAM + 1]
    r.honours_0, r.honours_1 = score[S_HONOURS], score[S_HONOURS + 1]
    r.aces_0, r.aces_1 = score[S_ACES], score[S_ACES + 1]
    r.penalty_0, r.penalty_1 = score[S_PENALTY], score[S_PENALTY + 1]
    r.game_0, r.game_1 = score[S_GAME], score[S_GAME + 1]
    r.total_0, r.total_1 = score[S_TOTAL], score[S_TOTAL + 1]
    if contract == PASS:
        r.game_won_by = -1
        r.rubber_won_by = -1
        r.crossing_trick = 0
    else:
        r.game_won_by = score[S_GAME_WON_BY]
        r.rubber_won_by = score[S_RUBBER_WON_BY]
        r.crossing_trick = score[S_CROSSING]
    r.hcp_0, r.hcp_1, r.hcp_2, r.hcp_3 = (high_card_points(hands[0]), high_card_points(hands[1]),
                                          high_card_points(hands[2]), high_card_points(hands[3]))
    aces = U64(0x1000100010001000)
    r.aces_held_0, r.aces_held_1 = popcount(hands[0] & aces), popcount(hands[1] & aces)
    r.aces_held_2, r.aces_held_3 = popcount(hands[2] & aces), popcount(hands[3] & aces)
    r.len_0_S, r.len_0_C = popcount(hands[0] & suit_mask(0)), popcount(hands[0] & suit_mask(1))
    r.len_0_D, r.len_0_H = popcount(hands[0] & suit_mask(2)), popcount(hands[0] & suit_mask(3))
    r.len_1_S, r.len_1_C = popcount(hands[1] & suit_mask(0)), popcount(hands[1] & suit_mask(1))
    r.len_1_D, r.len_1_H = popcount(hands[1] & suit_mask(2)), popcount(hands[1] & suit_mask(3))
    r.len_2_S, r.len_2_C = popcount(hands[2] & suit_mask(0)), popcount(hands[2] & suit_mask(1))
    r.len_2_D, r.len_2_H = popcount(hands[2] & suit_mask(2)), popcount(hands[2] & suit_mask(3))
    r.len_3_S, r.len_3_C = popcount(hands[3] & suit_mask(0)), popcount(hands[3] & suit_mask(1))
    r.len_3_D, r.len_3_H = popcount(hands[3] & suit_mask(2)), popcount(hands[3] & suit_mask(3))
    r.team_aces_0, r.team_aces_1 = aces_held(hands, 0), aces_held(hands, 1)
    r.team_honours_0, r.team_honours_1 = honours_held(hands, 0, trump), honours_held(hands, 1, trump)


@jit
def workspace():
    """Scratch arrays for a loop of deals, allocated once: deck, hands, seat streams, play work
    space (uint64[4], int64[32]), calls, plays, score vector, info, and a forced vector that
    forces nothing."""
    return (np.empty(52, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros((5, 1), dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(32, dtype=np.int64), np.zeros(MAX_CALLS, dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(N_SCORE, dtype=np.int64), np.zeros(N_INFO, dtype=np.int64),
            np.zeros(F_LEN, dtype=np.int64))


@jit
def simulate_kernel(seed, start, count, ids, params, base_deck, rows):
    """Play deals ``start .. start+count-1`` of ``seed`` from a clean line into ``rows``."""
    deck, hands, streams, work_hands, work, calls, plays, score, info, no_force = workspace()
    _simulate_loop(seed, start, count, ids, params, base_deck, rows, np.zeros(2, dtype=np.int64), deck, hands, streams,
                   work_hands, work, calls, plays, score, info, no_force)


@jit
def _simulate_loop(seed, start, count, ids, params, base_deck, rows, zero, deck, hands, streams, work_hands, work,
                   calls, plays, score, info, no_force):
    # Borrowed views (cardsim._jit.borrowed) of the caller's arrays: no reference counting at
    # every deal's calls.
    deck, hands, streams, work_hands, work = borrowed(deck), borrowed(hands), borrowed(streams), borrowed(work_hands), \
        borrowed(work)
    calls, plays, score, info = borrowed(calls), borrowed(plays), borrowed(score), borrowed(info)
    no_force, zero, ids, params = borrowed(no_force), borrowed(zero), borrowed(ids), borrowed(params)
    base_deck, rows = borrowed(base_deck), borrowed(rows)
    for i in range(count):
        key = deal_key(seed, start + i)
        # np.int64(-1), not a bare -1: a literal argument compiles a jitted callee once more.
        # streams[0] is the shuffle's; run_deal seeds the seats' rows 1..4.
        dealer = deal_cards(key, np.int64(-1), base_deck, deck, hands, streams[0])
        run_deal(key, dealer, hands, ids, params, zero, zero, streams, calls, plays, score, info, work_hands, work,
                 no_force)
        fill_row(rows, i, start + i, dealer, hands, score, info, calls)


@jit
def play_given(keys, start, count, dealers, hands, ids, params, below, games, forced, rows, forced_ok):
    """Play deals ``start .. start+count-1`` from given hands into ``rows``.

    ``keys``: uint64[count], the keys that seed each deal's strategy streams (the deal keys of a
    seed, or the accepted attempt's key when calls imply hands, :mod:`cardsim.deal`);
    ``dealers``: int64[count]; ``hands``: uint64[count, 4] (dealt under conditions, see
    :mod:`cardsim.deal`); ``below``/``games``: int64[2], the line before every deal (docs/RULES.md
    §2.7); ``forced``: int64[F_LEN] as for :func:`run_deal`, the same for every deal;
    ``forced_ok``: bool[count] receives whether the forced choice was legal.  Every option of a
    question is played with the same keys, so it meets the same strategy randomness (common
    random numbers).
    """
    deck, hand, streams, work_hands, work, calls, plays, score, info, _ = workspace()
    for i in range(count):
        hand[:] = hands[i]
        run_deal(keys[i], dealers[i], hand, ids, params, below, games, streams, calls, plays, score, info, work_hands,
                 work, forced)
        fill_row(rows, i, start + i, dealers[i], hand, score, info, calls)
        forced_ok[i] = info[I_FORCED_OK] == 1


@jit
def agreed_calls(keys, dealers, hands, ids, params, forced, below, games, agreed):
    """How many of the given calls ``forced[F_PREFIX:]`` (``forced[F_IMPLIED] == CHECK_CALLS``) the
    callers' strategies make with ``hands`` (uint64[n, 4]) and the streams of ``keys``
    (uint64[n]) from the line ``below``/``games`` (int64[2] each), into ``agreed`` (int64[n]): the
    dealer's test when calls imply hands."""
    streams = np.zeros((5, 1), dtype=np.uint64)
    calls = np.zeros(MAX_CALLS, dtype=np.int64)
    for i in range(keys.shape[0]):
        for s in range(4):
            seed_stream(streams[1 + s], keys[i], 1 + s)
        agreed[i] = run_auction(dealers[i], hands[i], ids, params, streams, calls, forced, below, games)[3]


@jit
def auction_made(keys, dealer, hands, ids, params, forced, below, games, made):
    """Whether the strategies ``ids``/``params`` make every call of a whole auction with ``hands``
    (uint64[n, 4], each row a world's initial hands) and the streams of ``keys`` (uint64[n], one
    key per world), into ``made`` (bool[n]).  ``forced``: ``CHECK_CALLS`` with the auction's
    ``forced[F_NPREFIX]`` calls from ``dealer`` as its prefix (any length: :func:`run_auction`
    reads the prefix only); ``below``/``games``: the line before the deal (docs/RULES.md §2.2,
    §2.7).  The test of a ``pimc`` seat's worlds that read the auction (:mod:`.pimc`)."""
    streams = np.zeros((5, 1), dtype=np.uint64)
    calls = np.zeros(MAX_CALLS, dtype=np.int64)
    for i in range(keys.shape[0]):
        for s in range(4):
            seed_stream(streams[1 + s], keys[i], 1 + s)
        # a miss returns the calls made before it, fewer than the prefix; the whole auction all of them
        made[i] = run_auction(dealer, hands[i], ids, params, streams, calls, forced, below, games)[0] == forced[F_NPREFIX]


# The pimc player's worlds that read the auction run this kernel; its glue is below the engine.
use_auction_kernel(auction_made)


@jit
def trace_given(key, dealer, hands, ids, params, below, games, forced, calls, plays, score, info):
    """One deal from given ``hands`` (uint64[4]) keeping its trace, as :func:`play_given` plays it."""
    streams = np.zeros((5, 1), dtype=np.uint64)
    work_hands = np.zeros(4, dtype=np.uint64)
    work = np.zeros(32, dtype=np.int64)
    run_deal(key, dealer, hands, ids, params, below, games, streams, calls, plays, score, info, work_hands, work,
             forced)


@jit
def deal_kernel(seed, start, count, base_deck):
    """Dealing alone, the benchmark baseline: returns an XOR checksum of all hands (uint64)."""
    deck = np.empty(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    state = np.empty(1, dtype=np.uint64)
    check = U64(0)
    for i in range(count):
        key = deal_key(seed, start + i)
        deal_cards(key, np.int64(-1), base_deck, deck, hands, state)
        check ^= hands[0] ^ (hands[1] << U64(1))
    return check


def trace_arrays() -> tuple:
    """Fresh arrays for :func:`trace_deal` to fill: ``(hands uint64[4], calls int64[MAX_CALLS],
    plays int64[52], score int64[N_SCORE], info int64[N_INFO], rows ROW_DTYPE[1])``."""
    return (np.zeros(4, dtype=np.uint64), np.zeros(MAX_CALLS, dtype=np.int64), np.zeros(52, dtype=np.int64),
            np.zeros(N_SCORE, dtype=np.int64), np.zeros(N_INFO, dtype=np.int64), np.zeros(1, dtype=ROW_DTYPE))


@jit
def trace_deal(key, dealer_override, ids, params, below, games, base_deck, hands, calls, plays, score, info, rows,
               forced):
    """Run one deal like simulate_kernel / match_kernel do, keeping its trace; returns the dealer.
    ``forced``: as for :func:`run_deal`."""
    deck = np.empty(52, dtype=np.int64)
    streams = np.zeros((5, 1), dtype=np.uint64)
    work_hands = np.zeros(4, dtype=np.uint64)
    work = np.zeros(32, dtype=np.int64)
    dealer = deal_cards(key, dealer_override, base_deck, deck, hands, streams[0])
    run_deal(key, dealer, hands, ids, params, below, games, streams, calls, plays, score, info, work_hands, work,
             forced)
    fill_row(rows, np.int64(0), np.int64(0), dealer, hands, score, info, calls)
    return dealer


@jit
def match_kernel(seed, start, count, ids, params, base_deck, below0, games0, dealer0, rubber_rows, deal_rows,
                 deal_rubber):
    """Play rubbers ``start .. start+count-1``: deals chained with the line carried over until a
    side wins two games (docs/RULES.md §2.7), or :data:`MAX_RUBBER_DEALS` deals were dealt (winner
    -1); the dealer passes left after every deal, void or not.

    Every rubber starts from the line ``below0``/``games0`` (int64[2] each: points below the line
    and games won, by team; zeros for a new rubber) with ``dealer0`` (int64) dealing first (−1:
    the one its first deal draws).  Rubber ``m`` is :func:`rubber_on` with key ``match_key(seed,
    m)``: deal ``j`` has key ``deal_key(match_key(seed, m), j)``.  ``rubber_rows``
    (RUBBER_DTYPE[count]) receives one row per rubber (its points and deals count from the given
    line on; ``games_0/1`` are the games at its end), ``deal_rows`` (ROW_DTYPE) and
    ``deal_rubber`` (int64) one entry per deal played; zero-length ``deal_rows`` keep no deal rows.
    Returns the number of deal rows written, or −1 when ``deal_rows`` is too small (call again
    with more room).
    """
    deck, hands, streams, work_hands, work, calls, plays, score, info, no_force = workspace()
    below = np.zeros(2, dtype=np.int64)
    games = np.zeros(2, dtype=np.int64)
    tally = np.zeros(N_RU, dtype=np.int64)
    for m in range(count):
        n = tally[RU_ROWS]
        tally[:] = 0
        tally[RU_ROWS] = n
        below[:] = below0
        games[:] = games0
        w = rubber_on(match_key(seed, start + m), dealer0, below, games, ids, params, base_deck, deck, hands, streams,
                      work_hands, work, calls, plays, score, info, no_force, tally, deal_rows, deal_rubber,
                      np.int64(start + m))
        if w == ROWS_FULL:
            return np.int64(-1)
        r = rubber_rows[m]
        r.rubber = start + m
        r.deals = tally[RU_DEALS]
        r.void_deals = tally[RU_VOIDS]
        r.games_0 = games[0]
        r.games_1 = games[1]
        r.winner = w
        r.points_0 = tally[RU_POINTS0]
        r.points_1 = tally[RU_POINTS1]
        r.margin = 0 if w < 0 else (tally[RU_MARGIN] if w == 0 else -tally[RU_MARGIN])
    return tally[RU_ROWS]


@jit
def rubber_on(ckey, dealer, below, games, ids, params, base_deck, deck, hands, streams, work_hands, work, calls,
              plays, score, info, no_force, tally, deal_rows, deal_rubber, rubber):
    """Play a rubber on from the line ``below``/``games`` (int64[2] each, carried over and changed
    here) to its end (docs/RULES.md §2.7), or for :data:`MAX_RUBBER_DEALS` deals; returns the
    rubber's winner (team, int64), −1 when stopped unfinished, or :data:`ROWS_FULL` when
    ``deal_rows`` ran out of room.

    Deal ``j`` has key ``deal_key(ckey, j)``; ``dealer`` (int64) deals deal 0 (−1: the one that
    deal draws, as a rubber's first deal), then the deal passes left after every deal, void or
    not.  ``tally`` (int64[N_RU]) gains team 0's total minus team 1's (above + below, score
    points) at ``RU_MARGIN``, each team's total at ``RU_POINTS0``/``RU_POINTS1``, the deals dealt
    at ``RU_DEALS`` and the void ones at ``RU_VOIDS``.  When ``deal_rows`` (ROW_DTYPE) is not
    empty, deal ``j``'s row (``deal`` = j) is written at ``tally[RU_ROWS]``, which then counts
    up, with ``deal_rubber`` (int64) at the same index set to ``rubber``.  The other arrays are
    :func:`workspace`'s scratch.
    """
    # Borrowed views (cardsim._jit.borrowed): no reference counting at every deal of the rubber.
    below, games, ids, params, base_deck, deck = borrowed(below), borrowed(games), borrowed(ids), borrowed(params), \
        borrowed(base_deck), borrowed(deck)
    hands, streams, work_hands, work, calls, plays = borrowed(hands), borrowed(streams), borrowed(work_hands), \
        borrowed(work), borrowed(calls), borrowed(plays)
    score, info, no_force, tally = borrowed(score), borrowed(info), borrowed(no_force), borrowed(tally)
    deal_rows, deal_rubber = borrowed(deal_rows), borrowed(deal_rubber)
    keep = deal_rows.shape[0] > 0
    j = np.int64(0)
    while j < MAX_RUBBER_DEALS:
        if keep and tally[RU_ROWS] >= deal_rows.shape[0]:
            return np.int64(ROWS_FULL)
        key = deal_key(ckey, j)
        dealer = deal_cards(key, dealer, base_deck, deck, hands, streams[0])
        run_deal(key, dealer, hands, ids, params, below, games, streams, calls, plays, score, info, work_hands, work,
                 no_force)
        if keep:
            n = tally[RU_ROWS]
            fill_row(deal_rows, n, j, dealer, hands, score, info, calls)
            deal_rubber[n] = rubber
            tally[RU_ROWS] = n + 1
        j += 1
        tally[RU_DEALS] += 1
        dealer = (dealer + 1) & 3
        if info[I_CONTRACT] == PASS:
            tally[RU_VOIDS] += 1
            continue
        tally[RU_MARGIN] += score[S_TOTAL] - score[S_TOTAL + 1]
        tally[RU_POINTS0] += score[S_TOTAL]
        tally[RU_POINTS1] += score[S_TOTAL + 1]
        below[0] = score[S_AFTER_BELOW]
        below[1] = score[S_AFTER_BELOW + 1]
        games[0] = score[S_AFTER_GAMES]
        games[1] = score[S_AFTER_GAMES + 1]
        if score[S_RUBBER_WON_BY] >= 0:
            return np.int64(score[S_RUBBER_WON_BY])
    return np.int64(-1)


@jit
def given_rubber_kernel(keys, start, count, dealers, hands_in, ids, params, below0, games0, forced, rows, forced_ok,
                        base_deck, out):
    """:func:`play_given`, each deal then followed by the rest of its rubber.

    Deal ``i`` is played from ``hands_in[i]`` (uint64[count, 4]) by ``dealers[i]`` from the line
    ``below0``/``games0`` (int64[2]) with ``forced`` into ``rows[i]`` and ``forced_ok[i]`` as
    :func:`play_given` plays it; then, unless it ended the rubber, the rubber is played on by the
    strategies (:func:`rubber_on`, key ``mix64(keys[i] ^ CONTINUE_SALT)``, the dealer's left
    dealing next; ``base_deck``: :data:`BASE_DECK`, passed in — a global array is read-only
    in a kernel and would compile :func:`deal_cards` once more).  ``out`` (int64[count, N_RU]) receives the rubber's winner (team, −1 when
    stopped at :data:`MAX_RUBBER_DEALS` deals after the evaluated one), team 0's total minus
    team 1's from the evaluated deal to the rubber's end (score points) and the deals played on.
    """
    deck, hand, streams, work_hands, work, calls, plays, score, info, no_force = workspace()
    below = np.zeros(2, dtype=np.int64)
    games = np.zeros(2, dtype=np.int64)
    tally = np.zeros(N_RU, dtype=np.int64)
    no_rubber = np.zeros(0, dtype=np.int64)  # with rows[:0]: the played-on deals keep no rows
    for i in range(count):
        hand[:] = hands_in[i]
        run_deal(keys[i], dealers[i], hand, ids, params, below0, games0, streams, calls, plays, score, info,
                 work_hands, work, forced)
        fill_row(rows, i, start + i, dealers[i], hand, score, info, calls)
        forced_ok[i] = info[I_FORCED_OK] == 1
        tally[:] = 0
        below[:] = below0
        games[:] = games0
        winner = np.int64(-1)
        if info[I_CONTRACT] != PASS:
            tally[RU_MARGIN] = score[S_TOTAL] - score[S_TOTAL + 1]
            below[0] = score[S_AFTER_BELOW]
            below[1] = score[S_AFTER_BELOW + 1]
            games[0] = score[S_AFTER_GAMES]
            games[1] = score[S_AFTER_GAMES + 1]
            winner = np.int64(score[S_RUBBER_WON_BY])
        if winner < 0:
            winner = rubber_on(mix64(keys[i] ^ CONTINUE_SALT), np.int64((dealers[i] + 1) & 3), below, games, ids,
                               params, base_deck, deck, hand, streams, work_hands, work, calls, plays, score, info,
                               no_force, tally, rows[:0], no_rubber, np.int64(-1))
        out[i, RU_WINNER] = winner
        out[i, RU_MARGIN] = tally[RU_MARGIN]
        out[i, RU_DEALS] = tally[RU_DEALS]
