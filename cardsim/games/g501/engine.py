"""The jitted 501 engine: one deal from the dealt hands to the score, chunks and matches.

A deal is a chain of phase functions named after docs/RULES.md §1: ``shuffle_and_deal`` (§1.2),
``begin_deal`` (clear the result), ``run_auction`` (§1.3), ``take_talon`` (§1.4: contract or
abandon, then the exchange), ``play_tricks`` (§1.5-§1.6) and ``score_deal`` (§1.7).
``play_deal`` calls them in order from the dealt hands and is the single implementation of a
deal: ``simulate_kernel`` runs it for independent deals (every seat at 501 unless scores are
given), ``match_kernel`` for whole games (§1.8), ``trace_kernel`` with a trace buffer for
``records.make_records``.  The phases are separately callable so that a caller can force an
outcome, e.g. skip ``run_auction`` and call ``take_talon`` with a chosen declarer, bid and
blind flag after ``begin_deal``.

Every phase writes the deal's result vector ``res`` (int64[N_RES], the ``R_*`` offsets below;
per-seat entries at ``R_X + seat``).  Strategies are reached only through
:mod:`cardsim.games.g501.dispatch`.  Scratch arrays are allocated once per chunk
(``make_scratch``); nothing is allocated per deal or per trick.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.games.forced import (CHECK_CALLS, F_CALL, F_IMPLIED, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT,
                                  FORCE_CONTRACT, FORCE_FIRST_CALL, GIVEN_CALLS, IMPLIED_CALLS)
from cardsim.cards import lowest_bit, popcount
from cardsim.games.g501.constants import (
    ABANDON_PENALTY, BLIND_FLAG, DECLARE_FLAG, LOOK, MAX_CALLS, MIN_BID, N_CARDS, NT, RA, RANK_POINTS, RT,
    SEEN_CARDS, SEEN_VOIDS, T_CALLS, T_CONTRACT, T_NCALLS, T_NPLAY, T_PLAY,
)
from cardsim.games.g501.rules import (
    active_seat, can_declare, count_rank, deal_hands, declarer_delta, hand_points, legal_plays,
    marriage_suits, marriage_value, next_active, trick_winner, valid_bid, valid_target,
)
from cardsim.games.g501 import dispatch as D
from cardsim.games.g501.pimc import use_auction_kernel
from cardsim.rng import deal_key, match_key, randbelow, seed_streams, shuffle

U64 = np.uint64
_LANE = U64(0x3F)

# ---- result vector of play_deal (int64[N_RES]): declarer seat (-1 none), winning bid, blind
# (0/1), target, trump (0..3, NT 4, -1 none), abandoned/void/made/played (0/1); per seat s:
# card points won, marriage points, score change, looked (0/1); calls in the auction; blind bids.
R_DECLARER, R_BID, R_BLIND, R_TARGET, R_TRUMP, R_ABANDONED, R_VOID, R_MADE, R_PLAYED = range(9)
R_CARDS = 9
R_MARR = 13
R_DELTA = 17
R_LOOKED = 21
R_NCALLS = 25
R_BLIND_BIDS = 26
R_FORCED_OK = 27
N_RES = 28

# ---- forced vector (int64[F_LEN], cardsim.games.forced): the first F_NPREFIX calls are given
# (trace codes: 0 pass, b, BLIND_FLAG + b); FORCE_FIRST_CALL: at its first turn after them seat
# F_SEAT passes (F_CALL 0), looks (LOOK, then its strategy calls) or bids blind up to F_CALL
# (the minimum raise at each turn while it is <= F_CALL, then it looks); FORCE_CONTRACT: the
# auction is skipped, F_SEAT won it at F_CALL, blind if F_BLIND, with the trump F_TRUMP - 1 and
# the target F_TARGET forced when non-zero (else the declarer's strategy chooses).  A lead
# question (a forced contract) also forces the first card of the play: F_LEAD is the card + 1
# that the first leader, the dealer's left (docs/RULES.md §1.5), leads (0: none; -1: his
# strategy leads, ``lead:auto``), and F_LEADER the seat asking (read by forcing.py only).
MAX_PREFIX = 8
F_BLIND = F_PREFIX + MAX_PREFIX
F_TRUMP = F_BLIND + 1
F_TARGET = F_BLIND + 2
F_LEAD = F_BLIND + 3
F_LEADER = F_BLIND + 4
F_LEN = F_BLIND + 5
NO_FORCE = np.zeros(F_LEN, dtype=np.int64)

SEAT_FIELDS = (
    ("score", "i4"), ("cards", "i2"), ("marr", "i2"), ("delta", "i2"), ("looked", "?"),
    ("hand_pts", "i1"), ("marr_held", "i1"), ("aces_held", "i1"), ("tens_held", "i1"),
)
HEAD_FIELDS = (
    ("dealer", "i1"), ("declarer", "i1"), ("bid", "i2"), ("blind", "?"), ("target", "i2"),
    ("trump", "i1"), ("abandoned", "?"), ("void", "?"), ("played", "?"), ("made", "?"),
    ("blind_bids", "i2"), ("n_calls", "i2"), ("talon_pts", "i1"),
)
ROW_DTYPE = np.dtype(
    [("deal", "i8")] + list(HEAD_FIELDS) + [(f"{name}_{s}", t) for name, t in SEAT_FIELDS for s in range(4)]
)
ROW_DOC = """One row per deal.  ``deal`` its number (within a match: its number in the match);
``dealer``; ``blind`` the auction winner never looked (his result counts double); ``blind_bids``
blind bids made in the auction; ``n_calls`` calls in the auction; ``void`` everybody passed.
``declarer``/``trump`` are -1 when no contract (trump 4 = no-trump);
``bid``/``target`` are 0 when absent; ``made`` is False unless the contract was played and
made; ``played`` = declared and played out.  Per seat ``s`` (0..3; seat 3 unused with 3 seats;
the 4-seat dealer's entries are 0 except his score): ``score_s`` every seat's score before the
deal (501 in independent deals, the running score in matches), ``cards_s`` card points won,
``marr_s`` effective marriage points, ``delta_s`` score change, ``looked_s`` whether that seat
looked at its hand during the auction, and hand features of the 7 dealt cards:
``hand_pts_s`` card points, ``marr_held_s`` K+Q pairs, ``aces_held_s``, ``tens_held_s``.
``talon_pts``: card points in the talon."""

MATCH_DTYPE = np.dtype(
    [("match", "i8"), ("deals", "i4"), ("first_dealer", "i1"), ("finished", "?"), ("n_winners", "i1")]
    + [(f"win_{s}", "?") for s in range(4)] + [(f"final_{s}", "i4") for s in range(4)]
)
MATCH_DOC = """play_match's deal rows carry ``match`` first, then the deal columns.  One row per match: ``deals`` played (void deals included), ``finished`` False only if the
safety cap MAX_MATCH_DEALS stopped it, ``win_s`` whether seat s is among the winners (lowest
score, exact ties share, docs/RULES.md §1.8), ``final_s`` final scores (seat 3 unused with 3 seats)."""
MATCH_DEAL_DTYPE = np.dtype([("match", "i8")] + ROW_DTYPE.descr)
"""Deal rows of matches: ROW_DTYPE with the match id first; ``deal`` = deal number in the match."""
MAX_MATCH_DEALS = 5000


@jit
def make_scratch():
    """Scratch arrays of play_deal, allocated once per chunk: ``(memo float64[4, 2],
    contract_out int64[5], hands_in_play uint64[4], won int64[4], seen uint64[2, 4], calls
    int64[MAX_CALLS])`` (``seen``: the play's public record of each seat, constants.SEEN_CARDS /
    SEEN_VOIDS; ``calls``: the auction's calls in trace codes, kept whether or not the deal is
    traced, for a ``pimc:auction=1`` seat's worlds)."""
    return (np.zeros((4, 2), dtype=np.float64), np.zeros(5, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.int64), np.zeros((2, 4), dtype=np.uint64), np.zeros(MAX_CALLS, dtype=np.int64))


@jit(inline="always")
def begin_deal(res, trace, tracing, memo):
    """Clear ``res`` (no declarer, no trump), the strategies' ``memo`` and the trace counts."""
    for i in range(N_RES):
        res[i] = 0
    res[R_DECLARER] = -1
    res[R_TRUMP] = -1
    for s in range(4):
        memo[s, 0] = 0.0
        memo[s, 1] = 0.0
    if tracing:
        trace[T_NCALLS] = 0
        trace[T_NPLAY] = 0


@jit(inline="always")
def rival_score(scores, seats, seat):
    """The closest rival's score: the lowest of ``scores`` (int64[4]) over the other seats of a
    ``seats``-seat table (a 4-seat game's dealer, sitting out the deal, counts: he wins the game
    like anyone)."""
    low = np.int64(1) << np.int64(62)
    for s in range(seats):
        if s != seat and scores[s] < low:
            low = scores[s]
    return low


@jit
def run_auction(hands0, dealer, seats, sids, params, scores, streams, res, trace, tracing, memo, forced, calls):
    """The auction (docs/RULES.md §1.3): returns ``(declarer, bid, blind)``, declarer -1 when all pass.

    Asks the active seats in turn from the dealer's left until all but one have passed after a
    bid (or all have passed): a seat that has not looked gets ``choose_blind``, then ``choose_call``
    once it has.  Each call also sees the public state: the closest rival's score
    (:func:`rival_score`) and, after looking, whether another seat has bid blind in this deal.
    ``memo`` (float64[4, 2]) is the strategies' per-deal cache, zeroed by begin_deal.
    Writes ``res[R_LOOKED + seat]``, ``res[R_BLIND_BIDS]``, ``res[R_NCALLS]``, ``res[R_VOID]``
    and, when ``tracing``, the calls (constants.T_CALLS).  Raises ValueError for an invalid bid.
    ``forced`` (int64[F_LEN]): given first calls, made as ``forced[F_IMPLIED]`` says
    (:mod:`cardsim.games.forced`), and the forced seat's first-turn action (see the layout
    above); a blind bid that is no longer possible at that turn leaves ``res[R_FORCED_OK]`` 0 and
    the seat's strategy decides.  Under ``CHECK_CALLS`` the auction stops after the given calls
    as if all passed and ``res[R_FORCED_OK]`` is how many of them the callers' strategies made.
    ``calls`` (int64[MAX_CALLS]) receives the first MAX_CALLS calls (trace codes), traced or not.

    Out of line: once a deal, and compiled apart from :func:`play_deal` it takes about
    5 s off 501's cold compile (a 2-3% slower deal: 501 has room to spare, BENCHMARKS.md).
    """
    # Borrowed views (cardsim._jit.borrowed), as in play_deal.
    hands0, sids, params, scores, streams = borrowed(hands0), borrowed(sids), borrowed(params), borrowed(scores), \
        borrowed(streams)
    res, trace, memo, forced, calls = borrowed(res), borrowed(trace), borrowed(memo), borrowed(forced), \
        borrowed(calls)
    res[R_FORCED_OK] = 1
    pending = forced[F_KIND] == FORCE_FIRST_CALL
    blind_seats = 0  # bit s: seat s has bid blind in this deal (public: the strategies' others_blind)
    blind_to = 0
    passed0 = False
    passed1 = False
    passed2 = False
    npassed = 0
    cur = 0
    bidder = -1
    bidder_blind = False
    ncalls = 0
    turn = 0
    while True:
        if npassed == 3 or (bidder >= 0 and npassed == 2):
            break
        pos = turn % 3
        turn += 1
        if (pos == 0 and passed0) or (pos == 1 and passed1) or (pos == 2 and passed2):
            continue
        seat = active_seat(pos, dealer, seats)
        blind = False
        call = LOOK
        decided = False
        if ncalls < forced[F_NPREFIX]:
            if forced[F_IMPLIED] == GIVEN_CALLS:
                code = forced[F_PREFIX + ncalls]
                blind = code >= BLIND_FLAG
                call = code - BLIND_FLAG if blind else code
                if call > 0 and not blind:
                    res[R_LOOKED + seat] = 1
                decided = True
        elif forced[F_IMPLIED] == CHECK_CALLS:
            res[R_FORCED_OK] = ncalls
            return -1, 0, False
        elif pending and seat == forced[F_SEAT]:
            pending = False
            if forced[F_CALL] == 0:
                call = 0
                decided = True
            elif forced[F_CALL] == LOOK:
                res[R_LOOKED + seat] = 1
            elif max(MIN_BID, cur + 1) <= forced[F_CALL] and res[R_LOOKED + seat] == 0:
                # a seat that has looked (its own earlier call in a rebid question) bids blind no more
                blind_to = forced[F_CALL]
                call = max(MIN_BID, cur + 1)
                blind = True
                decided = True
            else:
                res[R_FORCED_OK] = 0
        elif blind_to > 0 and seat == forced[F_SEAT] and res[R_LOOKED + seat] == 0:
            if max(MIN_BID, cur + 1) <= blind_to:
                call = max(MIN_BID, cur + 1)
                blind = True
                decided = True
            else:
                res[R_LOOKED + seat] = 1
        rival = rival_score(scores, seats, seat)
        if not decided and res[R_LOOKED + seat] == 0:
            call = D.choose_blind(sids[seat], params, streams, seat, pos, scores[seat], rival, cur, seats)
            if call == LOOK:
                res[R_LOOKED + seat] = 1
            else:
                blind = True
        if not decided and call == LOOK:
            call = D.choose_call(sids[seat], params, streams, seat, hands0[seat], pos, scores[seat], rival, cur,
                                 (blind_seats & ~(1 << seat)) != 0, memo, seats)
        if call != 0 and not valid_bid(call, cur):
            raise ValueError("a strategy made an invalid bid")
        if call == 0:
            npassed += 1
            if pos == 0:
                passed0 = True
            elif pos == 1:
                passed1 = True
            else:
                passed2 = True
            code = 0
        else:
            cur = call
            bidder = seat
            bidder_blind = blind
            code = call + (BLIND_FLAG if blind else 0)
            if blind:
                res[R_BLIND_BIDS] += 1
                blind_seats |= 1 << seat
        if ncalls < forced[F_NPREFIX] and forced[F_IMPLIED] != GIVEN_CALLS and code != forced[F_PREFIX + ncalls]:
            if forced[F_IMPLIED] == CHECK_CALLS:
                res[R_FORCED_OK] = ncalls
                return -1, 0, False
            raise ValueError("a strategy did not make the call its hand was dealt for")
        if ncalls < MAX_CALLS:
            calls[ncalls] = code
            if tracing:
                trace[T_CALLS + ncalls] = code
        ncalls += 1
    res[R_NCALLS] = ncalls
    if tracing:
        trace[T_NCALLS] = min(ncalls, MAX_CALLS)
    if bidder < 0:
        res[R_VOID] = 1
    return bidder, cur, bidder_blind


@jit(inline="always")
def forced_auction(dealer, seats, declarer, bid, blind, res, trace, tracing):
    """The shortest legal auction in which ``declarer`` wins at ``bid`` (docs/RECORDS.md, forced
    contracts): the active seats before him pass, he bids (blind: without looking), the seats
    after him pass (passes are final, docs/RULES.md §1.3).  Writes the calls, ``res[R_NCALLS]``,
    ``res[R_LOOKED + declarer]`` and ``res[R_BLIND_BIDS]``."""
    for pos in range(3):
        seat = active_seat(pos, dealer, seats)
        if tracing:
            trace[T_CALLS + pos] = 0 if seat != declarer else bid + (BLIND_FLAG if blind else 0)
    res[R_NCALLS] = 3
    res[R_LOOKED + declarer] = 0 if blind else 1
    res[R_BLIND_BIDS] = 1 if blind else 0
    res[R_FORCED_OK] = 1
    if tracing:
        trace[T_NCALLS] = 3


@jit(inline="always")
def force_contract(cout, forced, bid, hand_d):
    """Impose a forced trump and target (``forced[F_TRUMP]``/``forced[F_TARGET]``) on the
    declarer's ``contract`` decision ``cout`` (int64[5]): no abandon, the forced trump, the
    forced target (else his own, at least the bid); if he had chosen to abandon, he gives the
    two cards worth fewest card points (the lowest index first)."""
    if forced[F_TRUMP] > 0:
        if cout[0] == 1:
            cout[2] = bid
            rest = U64(hand_d)
            for k in range(2):
                best = -1
                m = rest
                while m != U64(0):
                    c = lowest_bit(m)
                    m &= m - U64(1)
                    if best < 0 or RANK_POINTS[c & 15] < RANK_POINTS[best & 15]:
                        best = c
                cout[3 + k] = best
                rest &= ~(U64(1) << U64(best))
        cout[0] = 0
        cout[1] = forced[F_TRUMP] - 1
        if cout[2] < bid:
            cout[2] = bid
    if forced[F_TARGET] > 0 and cout[0] == 0:
        cout[2] = forced[F_TARGET]


@jit(inline="always")
def keep_lead(cout, hand_d, lead):
    """A declarer told to lead ``lead`` (a card of his ten, ``hand_d``) keeps it: where his
    strategy's gifts ``cout[3:5]`` include it, he gives instead the card worth fewest card points
    among the others (the lowest index first), so the forced lead stays possible."""
    for k in range(2):
        if cout[3 + k] == lead:
            other = cout[4 - k]
            best = -1
            m = U64(hand_d)
            while m != U64(0):
                c = lowest_bit(m)
                m &= m - U64(1)
                if c != lead and c != other and (best < 0 or RANK_POINTS[c & 15] < RANK_POINTS[best & 15]):
                    best = c
            cout[3 + k] = best


@jit(inline="always")
def score_abandon(res, dealer, seats, declarer, bid, blind):
    """An abandoned contract (docs/RULES.md §1.4): the declarer goes up by his bid (×2 blind), each
    opponent down by ABANDON_PENALTY; writes ``res[R_ABANDONED]`` and the deltas."""
    opp1 = next_active(declarer, dealer, seats)
    res[R_ABANDONED] = 1
    res[R_DELTA + declarer] = (2 if blind else 1) * bid
    res[R_DELTA + opp1] = -ABANDON_PENALTY
    res[R_DELTA + next_active(opp1, dealer, seats)] = -ABANDON_PENALTY


@jit(inline="always")
def exchange(hands0, hand_d, dealer, seats, declarer, gift1, gift2, hp):
    """The exchange (docs/RULES.md §1.4): ``hp`` (uint64[4]) = the hands of the play, 8 cards each:
    the declarer's 10 (``hand_d``) less the cards ``gift1``/``gift2`` given to the first and the
    second opponent clockwise.  Raises ValueError when he does not hold two distinct gifts."""
    g1 = U64(1) << U64(gift1)
    g2 = U64(1) << U64(gift2)
    if g1 == g2 or (hand_d & g1) == U64(0) or (hand_d & g2) == U64(0):
        raise ValueError("a strategy gave away cards it does not hold")
    for s in range(4):
        hp[s] = hands0[s]
    opp1 = next_active(declarer, dealer, seats)
    hp[declarer] = hand_d & ~g1 & ~g2
    hp[opp1] |= g1
    hp[next_active(opp1, dealer, seats)] |= g2


@jit(inline="always")
def take_talon(hands0, talon, dealer, seats, declarer, bid, blind, sids, params, streams, res, trace, tracing, cout, hp,
               forced):
    """Talon, contract and exchange (docs/RULES.md §1.4) for the auction's winner: returns True when
    the contract is played, False when abandoned (then scored here).

    ``declarer``/``bid``/``blind``: the auction's outcome (written to ``res``); the declarer's
    ``contract`` decision on his 10 cards fills ``cout`` (int64[5], dispatch.choose_contract); a
    played contract writes ``res[R_TRUMP]``, ``res[R_TARGET]``, ``res[R_PLAYED]`` and the hands
    of the play into ``hp`` (uint64[4]).  Raises ValueError for an invalid trump or target.
    ``forced``: a forced contract's trump and target override the declarer's (force_contract); with
    a forced trump his gifts and target are chosen for it (dispatch.choose_contract_in).
    """
    res[R_DECLARER] = declarer
    res[R_BID] = bid
    res[R_BLIND] = 1 if blind else 0
    hand_d = hands0[declarer] | U64(talon)
    if forced[F_KIND] == FORCE_CONTRACT and forced[F_TRUMP] > 0:
        # gifts and target for the forced trump: those of his own trump favoured one suit of a
        # hand symmetric between two
        D.choose_contract_in(sids[declarer], params, streams, declarer, hand_d, bid, blind, talon,
                             forced[F_TRUMP] - 1, cout)
    else:
        D.choose_contract(sids[declarer], params, streams, declarer, hand_d, bid, blind, talon, cout)
    if forced[F_KIND] == FORCE_CONTRACT:
        force_contract(cout, forced, bid, hand_d)
    # a lead question's declarer who leads keeps his lead card, the contract forced or reached
    # by the auction (FORCE_REACHED); no other deal forces a lead
    if forced[F_LEAD] > 0 and declarer == active_seat(0, dealer, seats) and cout[0] == 0:
        keep_lead(cout, hand_d, forced[F_LEAD] - 1)
    if tracing:
        for i in range(5):
            trace[T_CONTRACT + i] = cout[i]
    if cout[0] == 1:
        score_abandon(res, dealer, seats, declarer, bid, blind)
        return False
    trump = cout[1]
    target = cout[2]
    if not valid_target(target, bid) or trump < 0 or trump > NT:
        raise ValueError("a strategy declared an invalid trump or target")
    res[R_TRUMP] = trump
    res[R_TARGET] = target
    res[R_PLAYED] = 1
    exchange(hands0, hand_d, dealer, seats, declarer, cout[3], cout[4], hp)
    return True


@jit(inline="always")
def play_tricks(hp, dealer, seats, declarer, trump, sids, params, streams, res, trace, tracing, won, seen, first,
                hands0, talon, scores, cout, calls, readable):
    """The eight tricks (docs/RULES.md §1.5, §1.6) from the hands ``hp`` (uint64[4], emptied card by
    card), the dealer's left leading the first.  Writes ``won`` (int64[4], tricks per seat),
    ``seen`` (uint64[2, 4], every seat's public record, constants.SEEN_CARDS / SEEN_VOIDS; the
    strategies read it as it grows),
    ``res[R_CARDS + seat]`` (card points won) and ``res[R_MARR + seat]`` (marriages declared,
    effective or not) and, when ``tracing``, the cards (constants.T_PLAY).  Raises ValueError
    for an illegal card or a marriage that may not be declared.  ``first`` >= 0 is the first
    lead (a card the leader holds, checked by the caller; a K or Q whose partner he holds
    declares the marriage, docs/RULES.md §1.6), -1 lets his strategy lead.

    For the strategies that read the whole view (:func:`.dispatch.choose_card_rest`) it also passes
    the public record of the auction and the talon, and what the seat alone knows of the deal
    (its dealt hand; the declarer his two gifts): ``hands0`` the dealt hands (uint64[4]; only
    the seat's own row is passed on), ``talon`` (uint64, exposed, docs/RULES.md §1.4),
    ``scores`` (int64[4], before the deal), ``cout`` the contract decision (its gifts passed to
    the declarer only), ``calls`` (int64[MAX_CALLS], :func:`run_auction`'s) and ``readable``
    (int64 0/1: the calls were the strategies' own, not forced by a question)."""
    played = U64(0)
    looked = np.int64(0)  # public: who looked at his hand during the auction
    for s in range(seats):
        if res[R_LOOKED + s] == 1:
            looked |= np.int64(1) << np.int64(s)
    ncalls = res[R_NCALLS]
    for s in range(4):
        won[s] = 0
        seen[SEEN_CARDS, s] = U64(0)
        seen[SEEN_VOIDS, s] = U64(0)
    leader = active_seat(0, dealer, seats)
    opp1 = next_active(declarer, dealer, seats)
    defenders = opp1 + next_active(opp1, dealer, seats)  # the sum of the two defenders' seats
    # each seat's suit order (dispatch.seat_order), 16 bits a seat: drawn once a deal, not per card
    orders = np.int64(0)
    for s in range(seats):
        orders |= D.seat_order(D.play_id(sids[s], params, s), streams[1 + s, 0]) << np.int64(16 * s)
    npl = 0
    for t in range(8):
        seat = leader
        winner = leader
        on_table = U64(0)
        lead = np.int64(-1)
        # the declarer's place in this trick's order (0 = leads): who plays after whom is public
        decl_pos = 0
        s = leader
        while s != declarer:
            s = next_active(s, dealer, seats)
            decl_pos += 1
        for k in range(3):
            hand = hp[seat]
            legal = legal_plays(hand, -1 if k == 0 else lead >> 4, trump)
            sid = D.play_id(sids[seat], params, seat)
            is_decl = seat == declarer
            if not is_decl:
                dvoid = seen[SEEN_VOIDS, declarer]
                # the other defender (the 4-seat dealer's row, the only other one, stays 0)
                pvoid = seen[SEEN_VOIDS, defenders - seat]
            else:
                # the two defenders' (either order: the play functions read them alike)
                dvoid = seen[SEEN_VOIDS, opp1]
                pvoid = seen[SEEN_VOIDS, defenders - opp1]
            if first >= 0:  # only the first lead of the deal can be forced; then never again
                c = first + (DECLARE_FLAG if can_declare(hand, first) else 0)
                first = -1
            else:
                c = D.choose_card_voids(sid, (orders >> np.int64(16 * seat)) & np.int64(0xFFFF), hand, legal, on_table,
                                        lead, trump, played, is_decl, won[seat] > 0, decl_pos, dvoid, pvoid)
                if c == D.NOT_HERE:
                    auction = (readable, dealer, seats, sids, params, scores, calls, ncalls, looked, U64(talon),
                               hands0[seat], cout[3] if is_decl else np.int64(-1),
                               cout[4] if is_decl else np.int64(-1))
                    c = D.choose_card_rest(sid, params, streams, seat, hand, legal, on_table, lead, trump, played,
                                           is_decl, won[seat] > 0, decl_pos, declarer, seen, auction)
            declares = c >= DECLARE_FLAG
            if declares:
                c -= DECLARE_FLAG
            if (legal >> U64(c)) & U64(1) == U64(0):
                raise ValueError("a strategy played an illegal card")
            if declares:
                if k != 0 or not can_declare(hand, c):
                    raise ValueError("a strategy declared a marriage it may not declare")
                res[R_MARR + seat] += marriage_value(c >> 4, trump)
            card = U64(1) << U64(c)
            hp[seat] = hand & ~card
            played |= card
            on_table |= card
            seen[SEEN_CARDS, seat] |= card
            if k > 0 and (c >> 4) != (lead >> 4):
                seen[SEEN_VOIDS, seat] |= _LANE << U64(16 * (lead >> 4))
                if trump != NT and (c >> 4) != trump:
                    seen[SEEN_VOIDS, seat] |= _LANE << U64(16 * trump)
            if k == 0:
                lead = c
            elif trick_winner(on_table, lead >> 4, trump) == c:
                winner = seat
            if tracing:
                trace[T_PLAY + npl] = c + (DECLARE_FLAG if declares else 0)
            npl += 1
            seat = next_active(seat, dealer, seats)
        res[R_CARDS + winner] += hand_points(on_table)
        won[winner] += 1
        leader = winner
    if tracing:
        trace[T_NPLAY] = npl


@jit(inline="always")
def score_deal(res, won, dealer, seats, declarer, target, blind):
    """Score a played deal (docs/RULES.md §1.6-§1.7): marriages of seats that won no trick drop to 0;
    the declarer's delta by :func:`rules.declarer_delta`, each defender down by his deal
    points.  Writes ``res[R_MARR + s]``, ``res[R_MADE]`` and ``res[R_DELTA + s]``."""
    for s in range(4):
        if won[s] == 0:
            res[R_MARR + s] = 0
    pts_d = res[R_CARDS + declarer] + res[R_MARR + declarer]
    res[R_MADE] = 1 if pts_d >= target else 0
    res[R_DELTA + declarer] = declarer_delta(pts_d, target, blind)
    opp1 = next_active(declarer, dealer, seats)
    opp2 = next_active(opp1, dealer, seats)
    res[R_DELTA + opp1] = -(res[R_CARDS + opp1] + res[R_MARR + opp1])
    res[R_DELTA + opp2] = -(res[R_CARDS + opp2] + res[R_MARR + opp2])


@jit
def play_deal(hands0, talon, dealer, seats, sids, params, scores, streams, res, trace, tracing, scratch, forced):
    """Play one 501 deal from the dealt hands (docs/RULES.md §1.3-§1.7); fills ``res`` (int64[N_RES]).

    ``hands0``: uint64[4] dealt hands; ``talon``: uint64; ``sids`` (int64[seats]) /
    ``params`` (float64[seats, N_PARAMS]): the seats' strategy ids and parameter rows;
    ``scores``: int64[4] scores before the deal (read by the blind policies); ``streams``:
    uint64[5, 1] streams (row 1 + seat = that seat's).  When ``tracing`` (a bool, passed typed:
    ``np.bool_(...)`` in jitted callers, see simulate_kernel) the calls, contract
    and cards are written to ``trace`` (int32[TRACE_LEN], constants.T_*).  ``scratch`` is the
    tuple made by ``make_scratch``; ``forced`` (int64[F_LEN], ``NO_FORCE``: nothing) what a
    question forces.  The phases in order: begin_deal, run_auction (or forced_auction),
    take_talon, play_tricks, score_deal.
    """
    # Borrowed views (cardsim._jit.borrowed): no reference counting at every call and card.
    memo, cout, hp, won, seen, calls = scratch
    memo, cout, hp, won, seen, calls = borrowed(memo), borrowed(cout), borrowed(hp), borrowed(won), borrowed(seen), \
        borrowed(calls)
    hands0, sids, params, scores, streams = borrowed(hands0), borrowed(sids), borrowed(params), borrowed(scores), \
        borrowed(streams)
    res, trace, forced = borrowed(res), borrowed(trace), borrowed(forced)
    begin_deal(res, trace, tracing, memo)
    if forced[F_KIND] == FORCE_CONTRACT:
        declarer = forced[F_SEAT]
        bid = forced[F_CALL]
        blind = forced[F_BLIND] == 1
        forced_auction(dealer, seats, declarer, bid, blind, res, trace, tracing)
    else:
        declarer, bid, blind = run_auction(hands0, dealer, seats, sids, params, scores, streams, res, trace, tracing,
                                           memo, forced, calls)
    if declarer < 0:
        return
    if not take_talon(hands0, talon, dealer, seats, declarer, bid, blind, sids, params, streams, res, trace, tracing,
                      cout, hp, forced):
        return
    first = forced[F_LEAD] - 1
    if first >= 0 and (hp[active_seat(0, dealer, seats)] >> U64(first)) & U64(1) == U64(0):
        res[R_FORCED_OK] = 0  # the leader does not hold the forced lead: his strategy leads
        first = -1
    # The calls were the strategies' own unless a question forced a call, a contract or calls made
    # whatever the hands: only then can a searching seat's worlds read them.
    readable = np.int64(forced[F_KIND] != FORCE_CONTRACT and forced[F_KIND] != FORCE_FIRST_CALL
                        and (forced[F_NPREFIX] == 0 or forced[F_IMPLIED] == IMPLIED_CALLS)
                        and res[R_NCALLS] <= MAX_CALLS)
    play_tricks(hp, dealer, seats, declarer, res[R_TRUMP], sids, params, streams, res, trace, tracing, won, seen,
                first, hands0, talon, scores, cout, calls, readable)
    score_deal(res, won, dealer, seats, declarer, res[R_TARGET], blind)


@jit
def _fill_record(res, dealer, scores, hands0, talon, row):
    """Write one deal's columns into ``row``, a ROW_DTYPE or MATCH_DEAL_DTYPE record."""
    row.dealer = dealer
    row.declarer = res[R_DECLARER]
    row.bid = res[R_BID]
    row.blind = res[R_BLIND] != 0
    row.target = res[R_TARGET]
    row.trump = res[R_TRUMP]
    row.abandoned = res[R_ABANDONED] != 0
    row.void = res[R_VOID] != 0
    row.played = res[R_PLAYED] != 0
    row.made = res[R_MADE] != 0
    row.blind_bids = res[R_BLIND_BIDS]
    row.n_calls = res[R_NCALLS]
    row.talon_pts = hand_points(talon)
    row.score_0 = scores[0]
    row.cards_0 = res[R_CARDS + 0]
    row.marr_0 = res[R_MARR + 0]
    row.delta_0 = res[R_DELTA + 0]
    row.looked_0 = res[R_LOOKED + 0] != 0
    h = hands0[0]
    row.hand_pts_0 = hand_points(h)
    row.marr_held_0 = popcount(U64(marriage_suits(h)))
    row.aces_held_0 = count_rank(h, RA)
    row.tens_held_0 = count_rank(h, RT)
    row.score_1 = scores[1]
    row.cards_1 = res[R_CARDS + 1]
    row.marr_1 = res[R_MARR + 1]
    row.delta_1 = res[R_DELTA + 1]
    row.looked_1 = res[R_LOOKED + 1] != 0
    h = hands0[1]
    row.hand_pts_1 = hand_points(h)
    row.marr_held_1 = popcount(U64(marriage_suits(h)))
    row.aces_held_1 = count_rank(h, RA)
    row.tens_held_1 = count_rank(h, RT)
    row.score_2 = scores[2]
    row.cards_2 = res[R_CARDS + 2]
    row.marr_2 = res[R_MARR + 2]
    row.delta_2 = res[R_DELTA + 2]
    row.looked_2 = res[R_LOOKED + 2] != 0
    h = hands0[2]
    row.hand_pts_2 = hand_points(h)
    row.marr_held_2 = popcount(U64(marriage_suits(h)))
    row.aces_held_2 = count_rank(h, RA)
    row.tens_held_2 = count_rank(h, RT)
    row.score_3 = scores[3]
    row.cards_3 = res[R_CARDS + 3]
    row.marr_3 = res[R_MARR + 3]
    row.delta_3 = res[R_DELTA + 3]
    row.looked_3 = res[R_LOOKED + 3] != 0
    h = hands0[3]
    row.hand_pts_3 = hand_points(h)
    row.marr_held_3 = popcount(U64(marriage_suits(h)))
    row.aces_held_3 = count_rank(h, RA)
    row.tens_held_3 = count_rank(h, RT)


@jit
def shuffle_and_deal(key, seats, dealer, deck, hands, streams):
    """The deal (docs/RULES.md §1.2) of deal key ``key``: returns ``(dealer, talon)``.

    Seeds the streams ``streams`` (uint64[5, 1]: row 0 the shuffle's, row 1 + seat each seat's,
    rng.seed_streams); draws the dealer from the shuffle stream when ``dealer < 0``; shuffles
    ``deck`` (int64[24] scratch) and deals ``hands`` (uint64[4]); the talon is a uint64 bit set.
    """
    deck, hands, streams = borrowed(deck), borrowed(hands), borrowed(streams)
    seed_streams(streams, key)
    s0 = streams[0]
    if dealer < 0:
        dealer = randbelow(s0, seats)
    for i in range(N_CARDS):
        deck[i] = 16 * (i // 6) + i % 6
    shuffle(deck, s0)
    talon = deal_hands(deck, dealer, seats, hands)
    return dealer, talon


@jit
def _fill_match(mr, match, deals, first_dealer, finished, scores, seats):
    """Write one match's MATCH_DTYPE record ``mr``: the winners are the seats at the lowest final
    score of a finished match, exact ties share (docs/RULES.md §1.8)."""
    low = scores[0]
    for s in range(1, seats):
        low = min(low, scores[s])
    mr.match = match
    mr.deals = deals
    mr.first_dealer = first_dealer
    mr.finished = finished
    mr.win_0 = finished and scores[0] == low
    mr.win_1 = finished and scores[1] == low
    mr.win_2 = finished and scores[2] == low
    mr.win_3 = finished and seats > 3 and scores[3] == low
    mr.n_winners = mr.win_0 + mr.win_1 + mr.win_2 + mr.win_3
    mr.final_0 = scores[0]
    mr.final_1 = scores[1]
    mr.final_2 = scores[2]
    mr.final_3 = scores[3]


@jit
def simulate_kernel(seed, start, count, seats, sids, params, scores, out):
    """Play deals ``start .. start+count-1`` of ``seed`` independently into ``out`` (ROW_DTYPE[count])."""
    _simulate_loop(seed, start, count, seats, sids, params, scores, out, np.empty(N_CARDS, dtype=np.int64),
                   np.zeros(4, dtype=np.uint64), np.zeros((5, 1), dtype=np.uint64), np.zeros(N_RES, dtype=np.int64),
                   np.zeros(1, dtype=np.int32), make_scratch(), np.zeros(F_LEN, dtype=np.int64))


@jit
def _simulate_loop(seed, start, count, seats, sids, params, scores, out, deck, hands, streams, res, trace, scratch,
                   no_force):
    # Borrowed views (cardsim._jit.borrowed) of the caller's arrays: no reference counting at
    # every deal's calls.
    sids, params, scores, out, deck = borrowed(sids), borrowed(params), borrowed(scores), borrowed(out), \
        borrowed(deck)
    hands, streams, res, trace, no_force = borrowed(hands), borrowed(streams), borrowed(res), borrowed(trace), \
        borrowed(no_force)
    memo, cout, hp, won, seen, calls = scratch
    scratch = (borrowed(memo), borrowed(cout), borrowed(hp), borrowed(won), borrowed(seen), borrowed(calls))
    # np.int64(-1) and np.bool_(False), not bare constants: a literal argument compiles the
    # whole of play_deal once more for its literal type; typed, every kernel and
    # records.match_records (which calls from Python) share one compiled deal.
    for i in range(count):
        key = deal_key(seed, start + i)
        dealer, talon = shuffle_and_deal(key, seats, np.int64(-1), deck, hands, streams)
        play_deal(hands, talon, dealer, seats, sids, params, scores, streams, res, trace, np.bool_(False), scratch, no_force)
        out[i].deal = start + i
        _fill_record(res, dealer, scores, hands, talon, out[i])


@jit
def trace_kernel(seed, deal_ids, seats, sids, params, scores, traces, dealers, hands_out, talons, results):
    """Like simulate_kernel for chosen deal ids, keeping the traces, hands and results."""
    deck = np.empty(N_CARDS, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    streams = np.zeros((5, 1), dtype=np.uint64)
    scratch = make_scratch()
    no_force = np.zeros(F_LEN, dtype=np.int64)
    for i in range(deal_ids.shape[0]):
        key = deal_key(seed, deal_ids[i])
        dealer, talon = shuffle_and_deal(key, seats, np.int64(-1), deck, hands, streams)
        dealers[i] = dealer
        talons[i] = talon
        for s in range(4):
            hands_out[i, s] = hands[s]
        play_deal(hands, talon, dealer, seats, sids, params, scores, streams, results[i], traces[i], np.bool_(True), scratch,
                  no_force)


@jit
def deal_kernel(seed, start, count, seats):
    """Dealing only (dealer + shuffle + hands): the benchmark baseline; returns a checksum."""
    deck = np.empty(N_CARDS, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    streams = np.zeros((5, 1), dtype=np.uint64)
    acc = U64(0)
    for i in range(count):
        key = deal_key(seed, start + i)
        dealer, talon = shuffle_and_deal(key, seats, np.int64(-1), deck, hands, streams)
        acc ^= (hands[0] * U64(3) + hands[1] * U64(5) + hands[2] * U64(7) + talon) + U64(dealer)
    return acc


@jit
def workspace():
    """Work space of a loop of deals, allocated once: deck (int64[24]), hands (uint64[4]),
    streams (uint64[5, 1]), result vector, an empty trace, play_deal's scratch, a forced vector
    that forces nothing, and scores (int64[4])."""
    return (np.empty(N_CARDS, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros((5, 1), dtype=np.uint64),
            np.zeros(N_RES, dtype=np.int64), np.zeros(1, dtype=np.int32), make_scratch(),
            np.zeros(F_LEN, dtype=np.int64), np.zeros(4, dtype=np.int64))


@jit
def match_kernel(seed, start, count, seats, sids, params, start_scores, first_dealer, mrows, drows):
    """Whole games (docs/RULES.md §1.8) for matches ``start .. start+count-1`` into ``mrows``
    (MATCH_DTYPE[count]) and the MATCH_DEAL_DTYPE records ``drows``; returns the number of deal
    rows, or −1 when ``drows`` is too small (base.grow_until_fits calls again with more room).

    Every match starts from ``start_scores`` (int64[4]; 501 each for a new game) with
    ``first_dealer`` dealing first (−1: drawn by the match's first deal)."""
    deck, hands, streams, res, trace, scratch, no_force, scores = workspace()
    nd = 0
    for m in range(count):
        mkey = match_key(seed, start + m)
        for s in range(4):
            scores[s] = start_scores[s] if s < seats else 0
        dealer = first_dealer
        j = 0
        finished = False
        first = -1
        while j < MAX_MATCH_DEALS:
            key = deal_key(mkey, j)
            dealer, talon = shuffle_and_deal(key, seats, dealer, deck, hands, streams)
            if j == 0:
                first = dealer
            play_deal(hands, talon, dealer, seats, sids, params, scores, streams, res, trace, np.bool_(False), scratch,
                      no_force)
            if nd >= drows.shape[0]:
                return -1
            row = drows[nd]
            row.match = start + m
            row.deal = j
            _fill_record(res, dealer, scores, hands, talon, row)
            nd += 1
            finished = apply_deltas(res, scores, seats)
            j += 1
            dealer = (dealer + 1) % seats
            if finished:
                break
        _fill_match(mrows[m], start + m, j, first, finished, scores, seats)
    return nd


@jit(inline="always")
def apply_deltas(res, scores, seats):
    """Add a deal's score changes to ``scores`` (int64[4]); returns whether the game ends
    (somebody at 0 or below after the deal, docs/RULES.md §1.8)."""
    over = False
    for s in range(seats):
        scores[s] += res[R_DELTA + s]
        if scores[s] <= 0:
            over = True
    return over


@jit(inline="always")
def win_shares(scores, seats, finished, shares):
    """Each seat's share of the win (float64[4]): 1/k for the k seats tied at the lowest score of
    a finished game (docs/RULES.md §1.8), 0 for the others and for an unfinished one."""
    low = scores[0]
    for s in range(1, seats):
        low = min(low, scores[s])
    k = 0
    for s in range(seats):
        if finished and scores[s] == low:
            k += 1
    for s in range(4):
        shares[s] = 1.0 / k if s < seats and finished and scores[s] == low else 0.0


@jit
def finish_game(mkey, seats, dealer, scores, sids, params, deck, hands, streams, res, trace, scratch, no_force):
    """Play a game on from ``scores`` (int64[4], updated in place), ``dealer`` dealing next, with
    the strategies alone: deal ``j`` (1, 2, …) has key ``deal_key(mkey, j)``.  Returns whether it
    finished within MAX_MATCH_DEALS deals."""
    over = False
    for s in range(seats):
        if scores[s] <= 0:
            over = True
    j = 1
    while not over and j < MAX_MATCH_DEALS:
        dealer, talon = shuffle_and_deal(deal_key(mkey, j), seats, dealer, deck, hands, streams)
        play_deal(hands, talon, dealer, seats, sids, params, scores, streams, res, trace, np.bool_(False), scratch, no_force)
        over = apply_deltas(res, scores, seats)
        dealer = (dealer + 1) % seats
        j += 1
    return over


@jit
def given_kernel(seed, start, keys, dealers, hands_in, talons, seats, sids, params, scores0, forced, out, ok,
                 play_out, shares):
    """Deals ``start .. start+n-1`` of ``seed`` played from given hands (uint64[n, 4]), talons
    (uint64[n]) and dealers (int64[n]) from the scores ``scores0`` (int64[4]) into ``out``
    (ROW_DTYPE[n]); ``ok`` (bool[n]) whether the forced choice was possible.  The seats' streams
    are seeded from ``keys`` (uint64[n]: the deal keys, or the accepted attempts' keys when calls
    imply hands, :mod:`cardsim.deal`), so every option meets the same strategy randomness.
    With ``play_out`` the game then goes on to its end (:func:`finish_game`, keyed by
    ``rng.match_key(seed, deal number)``, the same for every option) and ``shares``
    (float64[n, 4]) receives each seat's share of the win."""
    deck, hands, streams, res, trace, scratch, no_force, scores = workspace()
    share = np.zeros(4, dtype=np.float64)
    for i in range(dealers.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        play_deal(hands, talons[i], dealers[i], seats, sids, params, scores0, streams, res, trace, np.bool_(False), scratch,
                  forced)
        out[i].deal = start + i
        _fill_record(res, dealers[i], scores0, hands, talons[i], out[i])
        ok[i] = res[R_FORCED_OK] == 1
        if play_out:
            for s in range(4):
                scores[s] = scores0[s]
            apply_deltas(res, scores, seats)
            finished = finish_game(match_key(seed, start + i), seats, (dealers[i] + 1) % seats, scores, sids,
                                   params, deck, hands, streams, res, trace, scratch, no_force)
            win_shares(scores, seats, finished, share)
            for s in range(4):
                shares[i, s] = share[s]


@jit
def agreed_calls(keys, dealers, hands_in, seats, sids, params, scores, forced, agreed):
    """How many of the given calls (``forced[F_IMPLIED] == CHECK_CALLS``) the callers' strategies
    make with the hands ``hands_in`` (uint64[n, 4]), the scores ``scores`` (int64[4]) and the
    streams of ``keys`` (uint64[n]), into ``agreed`` (int64[n]): the dealer's test when calls
    imply hands."""
    deck, hands, streams, res, trace, scratch, no_force, _ = workspace()
    memo = scratch[0]
    for i in range(keys.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        begin_deal(res, trace, np.bool_(False), memo)
        run_auction(hands, dealers[i], seats, sids, params, scores, streams, res, trace, np.bool_(False), memo, forced,
                    scratch[5])
        agreed[i] = res[R_FORCED_OK]


@jit
def auction_made(keys, dealer, hands_in, seats, sids, params, scores, forced, looked, made):
    """Whether the strategies ``sids``/``params`` make every call of a whole auction, and look at
    their hands exactly as the seats did, with the dealt hands ``hands_in`` (uint64[n, 4], each
    row a world) and the streams of ``keys`` (uint64[n], one key per world), into ``made``
    (bool[n]).  ``forced``: ``CHECK_CALLS`` with the whole auction's ``forced[F_NPREFIX]`` calls
    (trace codes) as its prefix; ``looked``: int64, bit ``s`` set when seat ``s`` looked
    (docs/RULES.md §1.3: looking is seen by all, a pass does not say whether blind);
    ``scores``: int64[4] before the deal.  The test of a ``pimc:auction=1`` seat's worlds
    (:mod:`.pimc`).  A world whose auction departs from the calls stops there (``R_NCALLS``
    stays 0); one that makes them all ends where the real one ended."""
    deck, hands, streams, res, trace, scratch, no_force, _ = workspace()
    memo = scratch[0]
    for i in range(keys.shape[0]):
        seed_streams(streams, keys[i])
        for s in range(4):
            hands[s] = hands_in[i, s]
        begin_deal(res, trace, np.bool_(False), memo)
        run_auction(hands, dealer, seats, sids, params, scores, streams, res, trace, np.bool_(False), memo, forced,
                    scratch[5])
        ok = res[R_NCALLS] == forced[F_NPREFIX]
        for s in range(seats):
            if res[R_LOOKED + s] != (looked >> s) & 1:
                ok = False
        made[i] = ok


# The pimc player's worlds that read the auction run this kernel; its glue is below the engine.
use_auction_kernel(auction_made)


@jit
def trace_given(key, dealer, hands_in, talon, seats, sids, params, scores0, forced, trace, res):
    """One deal of :func:`given_kernel` (strategy streams seeded from ``key``) with its trace
    (int32[TRACE_LEN]) and result vector."""
    hands = np.zeros(4, dtype=np.uint64)
    streams = np.zeros((5, 1), dtype=np.uint64)
    scratch = make_scratch()
    seed_streams(streams, key)
    for s in range(4):
        hands[s] = hands_in[s]
    play_deal(hands, talon, dealer, seats, sids, params, scores0, streams, res, trace, np.bool_(True), scratch, forced)
