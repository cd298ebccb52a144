"""501's worlds that read the auction and the talon (``pimc:auction=1``, cardsim/games/g501/pimc.py
``auction_context``/``dealt_hands``/``auction_made`` over cardsim/strategies/pimc.py
``sample_auction_worlds``): the accepted worlds follow the exact conditional given the calls,
the looks, the talon and the seat's own gift; the declarer's gifts are placed; a seat never sees
a hidden card; legal, reproducible play with the count of fallbacks; auction=0 plays as before."""
import dataclasses

import numpy as np
from scipy import stats

import cardsim
from cardsim.games import get_game
from cardsim.games.g501 import engine as E
from cardsim.games.g501 import pimc as P
from cardsim.games.g501 import strategies as S
from cardsim.games.g501.constants import (BLIND_FLAG, MAX_CALLS, T_CALLS, T_CONTRACT, T_NCALLS,
                                          TRACE_LEN)
from cardsim.games.g501.rules import active_seat, hand_points, legal_plays, next_active
from cardsim.strategies import pimc as G

U64 = np.uint64
G501 = get_game("501")
SEATS = 3
SCORES = np.full(4, 501, dtype=np.int64)
DECK = [s * 16 + r for s in range(4) for r in range(6)]
BIDDER = "heuristic:blind_prob=0"
"""A simple bidder: the default players' calls, every seat looking first (no blind war: short
auctions whose every call says something of the caller's hand)."""


def _setup(spec):
    strategy, row = G501.table.registry.resolve(spec)
    return np.full(SEATS, strategy.id, dtype=np.int64), np.tile(row, (SEATS, 1))


def _trace(hands, talon, dealer, sids, params, key=1):
    """The deal of ``hands`` (uint64[4] dealt) and ``talon`` as the engine plays it: (calls,
    looked bits, result vector, contract decision [abandon, trump, target, gift1, gift2])."""
    trace = np.zeros(TRACE_LEN, dtype=np.int32)
    res = np.zeros(E.N_RES, dtype=np.int64)
    E.trace_given(U64(key), np.int64(dealer), np.asarray(hands, dtype=np.uint64).copy(), U64(talon), np.int64(SEATS),
                  sids, params, SCORES, E.NO_FORCE, trace, res)
    calls = [int(c) for c in trace[T_CALLS:T_CALLS + trace[T_NCALLS]]]
    looked = sum(1 << s for s in range(SEATS) if res[E.R_LOOKED + s])
    return calls, looked, res, [int(x) for x in trace[T_CONTRACT:T_CONTRACT + 5]]


def _deal(rng):
    deck = rng.permutation(DECK)
    hands = np.array([sum(1 << int(c) for c in deck[7 * s:7 * s + 7]) for s in range(3)] + [0], dtype=np.uint64)
    return hands, sum(1 << int(c) for c in deck[21:24])


def _looked_bid_deal(sids, params, seed):
    """A played deal of ``sids``/``params`` with a short auction (at most six calls: a long blind war
    is rarely replayed by chance) in which a seat bid after looking (its call says something of
    its hand), whose first leader is a defender: (hands, talon, dealer, calls, looked, res, cout)."""
    rng = np.random.default_rng(seed)
    while True:
        hands, talon = _deal(rng)
        dealer = int(rng.integers(SEATS))
        calls, looked, res, cout = _trace(hands, talon, dealer, sids, params)
        declarer = int(res[E.R_DECLARER])
        if (res[E.R_PLAYED] and declarer != active_seat(0, dealer, SEATS) and len(calls) <= 6
                and any(0 < c < BLIND_FLAG for c in calls)):
            return hands, talon, dealer, calls, looked, res, cout


def _play_hands(hands, dealer, declarer, cout):
    """The hands of the play (after the exchange)."""
    hp = hands.copy()
    opp1 = next_active(declarer, dealer, SEATS)
    hp[opp1] |= U64(1 << cout[3])
    hp[next_active(opp1, dealer, SEATS)] |= U64(1 << cout[4])
    return hp


def _first_lead_position(hands, talon, dealer, sids, params, calls, looked, res, cout, read=True):
    """The Position of the first leader's first lead (nothing played yet), and the hands of the
    play; ``read``: with the public record (``auction=1``), else without (``auction=0``)."""
    declarer, trump = int(res[E.R_DECLARER]), int(res[E.R_TRUMP])
    hp = _play_hands(hands, dealer, declarer, cout)
    hp[declarer] = (hands[declarer] | U64(talon)) & ~U64((1 << cout[3]) | (1 << cout[4]))
    seat = leader = active_seat(0, dealer, SEATS)
    decl_pos, s = 0, leader
    while s != declarer:
        s, decl_pos = next_active(s, dealer, SEATS), decl_pos + 1
    hand = hp[seat]
    legal = legal_plays(hand, -1, trump)
    seen = np.zeros((2, 4), dtype=np.uint64)
    view = (U64(hand), U64(legal), U64(0), np.int64(-1), np.int64(trump), U64(0), seat == declarer, False,
            np.int64(decl_pos), np.int64(seat), np.int64(declarer), seen)
    code = S.heuristic_play(*view)
    padded = np.zeros(MAX_CALLS, dtype=np.int64)
    padded[:len(calls)] = calls
    is_decl = seat == declarer
    record = (np.int64(1), np.int64(dealer), np.int64(SEATS), sids, params, SCORES, padded, np.int64(len(calls)),
              np.int64(looked), U64(talon), U64(hands[seat]), np.int64(cout[3] if is_decl else -1),
              np.int64(cout[4] if is_decl else -1))
    return P.position((*view, code, record) if read else (*view, code)), hp


# ------------------------------------------------------------------ the exact conditional
def test_a_defenders_accepted_worlds_follow_the_exact_conditional():
    # The default players' bidding (pimc bids as heuristic); the first leader, a defender, at his
    # first lead.  The exact conditional computed another way: the 14 cards neither his nor the
    # talon's dealt uniformly (numpy) to the declarer and the other defender, kept where his own
    # gift can have come from the declarer's ten, the other defender's gift drawn uniformly from
    # the declarer's other nine cards, and the engine's own auction (trace_given, the whole deal)
    # makes the same calls and looks.
    sids, params = _setup(BIDDER)
    hands, talon, dealer, calls, looked, res, cout = _looked_bid_deal(sids, params, 3)
    declarer = int(res[E.R_DECLARER])
    pos, hp = _first_lead_position(hands, talon, dealer, sids, params, calls, looked, res, cout)
    seat = active_seat(0, dealer, SEATS)
    holders = pos.auction[8]
    d = holders.index(declarer)
    b_seat = holders[1 - d]
    n = 1200
    worlds, tried, accepted, fell_back = G.sample_auction_worlds(99, pos, n, P.auction_made, budget=400)
    assert not fell_back and accepted >= n and worlds.shape == (n, 2)
    for w in worlds:  # the talon's unseen cards: with the declarer, at most one with the other defender
        assert (int(w[1 - d]) & talon).bit_count() <= 1
        assert int(w[d]) | int(w[1 - d]) | int(hp[seat]) == sum(1 << c for c in DECK)
    got_pts = np.array([int(hand_points(U64(w[d]))) for w in worlds])
    got_talon = np.array([(int(w[d]) & talon).bit_count() for w in worlds])

    rng = np.random.default_rng(5)
    gift = (int(hp[seat]) & ~int(hands[seat])).bit_length() - 1  # the card the declarer gave the seat
    rest = [c for c in DECK if not (int(hands[seat]) | talon) >> c & 1]
    ref_pts, ref_talon, key = [], [], 1000
    while len(ref_pts) < n:
        deck = rng.permutation(rest)
        dealt = hands.copy()
        dealt[declarer] = U64(sum(1 << int(c) for c in deck[:7]))
        dealt[b_seat] = U64(sum(1 << int(c) for c in deck[7:]))
        ten = int(dealt[declarer]) | talon
        if not ten >> gift & 1:
            continue
        nine = [c for c in range(64) if (ten & ~(1 << gift)) >> c & 1]
        gb = int(nine[rng.integers(9)])
        key += 1
        c2, l2, _, _ = _trace(dealt, talon, dealer, sids, params, key=key)
        if c2 == calls and l2 == looked:
            now = ten & ~(1 << gift) & ~(1 << gb)
            ref_pts.append(int(hand_points(U64(now))))
            ref_talon.append((now & talon).bit_count())
    ref_pts, ref_talon = np.array(ref_pts), np.array(ref_talon)
    se = np.sqrt(got_pts.var() / n + ref_pts.var() / n)
    assert abs(got_pts.mean() - ref_pts.mean()) < 4 * se
    for got, ref in ((got_pts // 10, ref_pts // 10), (got_talon, ref_talon)):
        values = sorted(set(got) | set(ref))
        table = np.array([[np.sum(x == v) for v in values] for x in (got, ref)])
        table = table[:, table.sum(axis=0) >= 5]
        assert table.shape[1] < 2 or stats.chi2_contingency(table)[1] > 0.001
    # and not the play-only worlds: there the talon's cards are anywhere
    plain, _ = G.sample_worlds(U64(99), U64(pos.unseen), pos.counts, pos.allowed, n)
    plain_talon = np.array([(int(w[d]) & talon).bit_count() for w in plain])
    assert got_talon.mean() - plain_talon.mean() > 0.5


def test_the_declarers_gifts_are_placed_with_their_receivers():
    sids, params = _setup(BIDDER)
    rng = np.random.default_rng(21)
    while True:  # a deal the first leader declares
        hands, talon = _deal(rng)
        dealer = int(rng.integers(SEATS))
        calls, looked, res, cout = _trace(hands, talon, dealer, sids, params)
        if res[E.R_PLAYED] and int(res[E.R_DECLARER]) == active_seat(0, dealer, SEATS) and len(calls) <= 6:
            break
    pos, hp = _first_lead_position(hands, talon, dealer, sids, params, calls, looked, res, cout)
    g1, g2 = cout[3], cout[4]
    assert pos.auction[8] == [next_active(int(res[E.R_DECLARER]), dealer, SEATS),
                              next_active(next_active(int(res[E.R_DECLARER]), dealer, SEATS), dealer, SEATS)]
    assert not int(pos.allowed[1]) >> g1 & 1 and not int(pos.allowed[0]) >> g2 & 1
    worlds, _, _, fell_back = G.sample_auction_worlds(7, pos, 200, P.auction_made, budget=400)
    assert not fell_back
    assert all(int(w[0]) >> g1 & 1 and int(w[1]) >> g2 & 1 for w in worlds)
    # the play-only worlds (auction=0) put them anywhere
    plain_pos, _ = _first_lead_position(hands, talon, dealer, sids, params, calls, looked, res, cout, read=False)
    plain, _ = G.sample_worlds(U64(7), U64(plain_pos.unseen), plain_pos.counts, plain_pos.allowed, 200)
    assert not all(int(w[0]) >> g1 & 1 and int(w[1]) >> g2 & 1 for w in plain)


def test_too_few_accepted_falls_back_to_worlds_with_the_placed_cards():
    sids, params = _setup(BIDDER)
    hands, talon, dealer, calls, looked, res, cout = _looked_bid_deal(sids, params, 3)
    pos, _ = _first_lead_position(hands, talon, dealer, sids, params, calls, looked, res, cout)
    never = lambda position, worlds, keys: np.zeros(len(worlds), dtype=bool)  # noqa: E731
    worlds, tried, accepted, fell_back = G.sample_auction_worlds(5, pos, 8, never, budget=10)
    plain, _ = G.sample_worlds(U64(5), U64(pos.unseen), pos.counts, pos.allowed, 8)
    assert fell_back and accepted == 0 and tried == 80 and (worlds == plain).all()


# ------------------------------------------------------------------ the seat's view only
def _first_search(monkeypatch, hands, talon, dealer, seat, spec):
    """The worlds of ``seat``'s first searched decision when it plays ``spec`` and the others heuristic."""
    sids, params = _setup(BIDDER)
    strategy, row = G501.table.registry.resolve(spec + ",blind_prob=0")
    sids[seat], params[seat] = strategy.id, row
    seen = []

    def solve(position, worlds, best_only=False):
        seen.append(worlds.copy())
        return P.solve(position, worlds, best_only)

    monkeypatch.setattr(P, "HOOKS", dataclasses.replace(P.HOOKS, solve=solve))
    _trace(hands, talon, dealer, sids, params, key=3)
    return seen[0]


def test_a_hidden_card_that_changes_nothing_public_does_not_change_the_worlds(monkeypatch):
    spec = "pimc:worlds=8,auction=1,search=1,side=2,early=0"  # the defence's leads: the first lead first
    sids, params = _setup(BIDDER)
    hands, talon, dealer, calls, looked, res, cout = _looked_bid_deal(sids, params, 3)
    declarer = int(res[E.R_DECLARER])
    seat = active_seat(0, dealer, SEATS)
    other = [s for s in range(SEATS) if s not in (seat, declarer)][0]
    worlds = _first_search(monkeypatch, hands, talon, dealer, seat, spec)
    # Exchange one dealt card between the declarer and the other defender where the calls, the
    # looks, the trump and the seat's own gift stay the same (the target, public, may change: the
    # worlds do not read it, nor the other defender's hidden gift): its worlds must not change.
    swapped = None
    for x in range(64):
        for y in range(64):
            if int(hands[declarer]) >> x & 1 and int(hands[other]) >> y & 1:
                h2 = hands.copy()
                h2[declarer] ^= U64((1 << x) | (1 << y))
                h2[other] ^= U64((1 << x) | (1 << y))
                c2, l2, r2, k2 = _trace(h2, talon, dealer, sids, params)
                mine = 3 if next_active(declarer, dealer, SEATS) == seat else 4
                if (c2, l2, k2[:2], k2[mine]) == (calls, looked, cout[:2], cout[mine]) and \
                        r2[E.R_DECLARER] == declarer:
                    swapped = h2
                    break
        if swapped is not None:
            break
    assert swapped is not None
    assert (_first_search(monkeypatch, swapped, talon, dealer, seat, spec) == worlds).all()
    # the worlds do read the auction and the talon: not those of auction=0
    plain = _first_search(monkeypatch, hands, talon, dealer, seat, spec.replace("auction=1", "auction=0"))
    assert (plain != worlds).any()


# ------------------------------------------------------------------ in play, and the default
def test_auction_reading_plays_legal_reproducible_deals_and_counts():
    spec = "pimc:worlds=2,auction=1,side=2,blind_prob=0"
    before = dataclasses.replace(G.COUNTERS)
    a = cardsim.simulate("501", 6, seed=5, strategies=[spec] * 3, n_jobs=1)
    read = G.COUNTERS.read - before.read
    fell = G.COUNTERS.fell_back - before.fell_back
    assert read > 0 and G.COUNTERS.accepted - before.accepted >= 2 * (read - fell)
    b = cardsim.simulate("501", 6, seed=5, strategies=[spec] * 3, chunk_size=3, n_jobs=2)
    assert a.equals(b)
    for record in cardsim.records("501", range(6), seed=5, strategies=[spec] * 3):
        cardsim.replay(record)  # raises on an illegal card


def test_auction_off_is_the_default_and_plays_as_before():
    assert G501.table.registry["pimc"].params["auction"] == 0
    before = G.COUNTERS.read
    spec = "pimc:worlds=2,side=2"
    a = cardsim.simulate("501", 4, seed=8, strategies=[spec] * 3, n_jobs=1)
    b = cardsim.simulate("501", 4, seed=8, strategies=[spec + ",auction=0"] * 3, n_jobs=1)
    assert a.equals(b) and G.COUNTERS.read == before


def test_a_forced_first_call_is_not_read():
    # blind:80 forces seat 1's first call: the calls are not all the strategies', the worlds match
    # the play (and nothing placed) only
    before_read, before_searched = G.COUNTERS.read, G.COUNTERS.searched
    cardsim.evaluate("501", seat=1, options=["blind:80", "look"], n=2, seed=2, n_jobs=1,
                     strategies=["pimc:worlds=2,auction=1,side=2,search=1"] * 3)
    assert G.COUNTERS.read == before_read and G.COUNTERS.searched > before_searched
