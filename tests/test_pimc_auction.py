"""Worlds that read the auction (``pimc:auction=1``, cardsim/strategies/pimc.py
``sample_auction_worlds``, Vint's hook ``auction_made``): the accepted worlds follow the exact
conditional given the calls, a seat never sees a hidden card, the fallback and its count, and
the default (``auction=0``) plays as before."""
import dataclasses

import numpy as np
import pytest
from scipy import stats

import cardsim
from cardsim.games import get_game
from cardsim.games.vint import engine as E
from cardsim.games.vint import pimc as VP
from cardsim.games.vint.rules import PASS, call_denomination
from cardsim.strategies import pimc as P

U64 = np.uint64
VINT = get_game("vint")
HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # Vint ranks 0..12 = 2..A (card = suit * 16 + rank)
ZERO2 = np.zeros(2, dtype=np.int64)


def _hcp(hand) -> int:
    return sum(HCP.get(c % 16, 0) for c in range(64) if int(hand) >> c & 1)


def _spades(hand) -> int:
    return (int(hand) & 0x1FFF).bit_count()


def _setup(spec: str):
    strategy, row = VINT.table.registry.resolve(spec)
    return np.full(4, strategy.id, dtype=np.int64), np.tile(row, (4, 1))


def _trace(hands, dealer, ids, params, key=1):
    """The deal played from ``hands`` (uint64[4]) by the engine itself: (calls, declarer, contract)."""
    calls, plays, score, info = (np.zeros(E.MAX_CALLS, dtype=np.int64), np.zeros(52, dtype=np.int64),
                                 np.zeros(E.N_SCORE, dtype=np.int64), np.zeros(E.N_INFO, dtype=np.int64))
    E.trace_given(U64(key), np.int64(dealer), np.asarray(hands, dtype=np.uint64).copy(), ids, params, ZERO2, ZERO2,
                  E.NO_FORCE, calls, plays, score, info)
    return calls[:info[E.I_NCALLS]].tolist(), int(info[E.I_DECLARER]), int(info[E.I_CONTRACT])


def _deal(rng):
    deck = rng.permutation(E.BASE_DECK)
    return np.array([sum(1 << int(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)], dtype=np.uint64)


def _opening_lead(hands, dealer, ids, params):
    """The opening leader's Position (his view and the public auction) in the deal of ``hands``."""
    calls, declarer, contract = _trace(hands, dealer, ids, params)
    seat = (declarer + 1) % 4
    record = (ids, params, np.array(calls + [0] * (E.MAX_CALLS - len(calls)), dtype=np.int64), len(calls), dealer,
              ZERO2, ZERO2, 1, np.zeros(52, dtype=np.int64), np.zeros(13, dtype=np.int64))
    view = (int(hands[seat]), seat, declarer, int(call_denomination(contract)), seat, np.zeros(4, dtype=np.int64), 0, 0, 0, 0,
            record)
    return VP.position(view), calls, declarer


def _one_bid_deal(ids, params, seed):
    """A deal of the default players whose auction has exactly one bid, and its dealer."""
    rng = np.random.default_rng(seed)
    while True:
        hands, dealer = _deal(rng), int(rng.integers(4))
        calls, declarer, _ = _trace(hands, dealer, ids, params)
        if declarer >= 0 and sum(c != PASS for c in calls) == 1:
            return hands, dealer


# ------------------------------------------------------------------ the exact conditional
def test_accepted_worlds_follow_the_exact_conditional_given_the_calls():
    # The default players (heuristic bidding); the opening leader's worlds after a one-bid
    # auction.  The exact conditional computed another way: uniform deals of the 39 unseen cards
    # (numpy's generator), kept where the engine's own auction (trace_given, the whole deal)
    # makes the same calls.
    ids, params = _setup("heuristic")  # pimc bids as heuristic; heuristic plays the traced deals fast
    hands, dealer = _one_bid_deal(ids, params, 11)
    pos, calls, declarer = _opening_lead(hands, dealer, ids, params)
    holders = pos.context[5]
    d = holders.index(declarer)
    worlds, tried, accepted, fell_back = P.sample_auction_worlds(99, pos, 1500, VP.auction_made, budget=400)
    assert not fell_back and accepted >= 1500 and worlds.shape == (1500, 3)
    for w in worlds[:50]:  # each world's hands make the calls
        full = hands.copy()
        for i, s in enumerate(holders):
            full[s] = w[i]
        assert _trace(full, dealer, ids, params)[0] == calls
    got_hcp = np.array([_hcp(w[d]) for w in worlds])
    got_len = np.array([_spades(w[d]) for w in worlds])

    rng = np.random.default_rng(5)
    unseen = np.array([c for c in E.BASE_DECK if not int(hands[(declarer + 1) % 4]) >> int(c) & 1])
    ref_hcp, ref_len, n = [], [], 0
    while len(ref_hcp) < 1500:
        deck = rng.permutation(unseen)
        full = hands.copy()
        for i, s in enumerate(holders):
            full[s] = sum(1 << int(c) for c in deck[13 * i:13 * i + 13])
        n += 1
        if _trace(full, dealer, ids, params)[0] == calls:
            ref_hcp.append(_hcp(full[declarer]))
            ref_len.append(_spades(full[declarer]))
    ref_hcp, ref_len = np.array(ref_hcp), np.array(ref_len)
    se = np.sqrt(got_hcp.var() / len(got_hcp) + ref_hcp.var() / len(ref_hcp))
    assert abs(got_hcp.mean() - ref_hcp.mean()) < 4 * se
    table = np.array([[np.sum(x == k) for k in range(14)] for x in (got_len, ref_len)])
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table)[1] > 0.001
    # the acceptance is the calls' probability, the same both ways (4.5 standard errors)
    p = len(ref_hcp) / n
    assert abs(accepted / tried - p) < 4.5 * np.sqrt(p * (1 - p) / n + p * (1 - p) / tried)
    # and far from the play-only worlds (a random 13 of the 39 cards: 10 points on average)
    plain, _ = P.sample_worlds(U64(99), U64(pos.unseen), pos.counts, pos.allowed, 1500)
    plain_hcp = np.array([_hcp(w[d]) for w in plain])
    assert got_hcp.mean() - plain_hcp.mean() > 10 * se


# ------------------------------------------------------------------ fallback and budget
def test_too_few_accepted_falls_back_to_the_play_only_worlds():
    ids, params = _setup("heuristic")
    hands, dealer = _one_bid_deal(ids, params, 11)
    pos, _, _ = _opening_lead(hands, dealer, ids, params)
    never = lambda position, worlds, keys: np.zeros(len(worlds), dtype=bool)  # noqa: E731
    worlds, tried, accepted, fell_back = P.sample_auction_worlds(5, pos, 16, never, budget=10)
    plain, _ = P.sample_worlds(U64(5), U64(pos.unseen), pos.counts, pos.allowed, 16)
    assert fell_back and accepted == 0 and tried == 160 and (worlds == plain).all()
    # one world in ten accepted: 16 found within a budget of 40 a world, not within 1
    every_tenth = lambda position, worlds, keys: np.arange(len(worlds)) % 10 == 0  # noqa: E731
    assert not P.sample_auction_worlds(5, pos, 16, every_tenth, budget=40)[3]
    assert P.sample_auction_worlds(5, pos, 16, every_tenth, budget=1)[3]


def test_each_world_has_its_own_strategy_streams():
    ids, params = _setup("heuristic")
    hands, dealer = _one_bid_deal(ids, params, 11)
    pos, _, _ = _opening_lead(hands, dealer, ids, params)
    seen = []
    keep = lambda position, worlds, keys: (seen.append(keys.copy()), np.ones(len(worlds), dtype=bool))[1]  # noqa
    P.sample_auction_worlds(5, pos, 16, keep)
    assert len(np.unique(seen[0])) == len(seen[0]) == 128


# ------------------------------------------------------------------ the seat's view only
def _first_search(monkeypatch, hands, dealer, spec):
    """The worlds of the first searched decision of the deal of ``hands``, every seat ``spec``."""
    ids, params = _setup(spec)
    seen = []

    def solve(position, worlds):
        seen.append((position.context[1], worlds.copy()))
        return VP.solve(position, worlds)

    monkeypatch.setattr(VP, "HOOKS", dataclasses.replace(VP.HOOKS, solve=solve))
    _trace(hands, dealer, ids, params, key=3)
    return seen[0]


def test_a_hidden_card_that_does_not_change_the_calls_does_not_change_the_worlds(monkeypatch):
    spec = "pimc:worlds=8,auction=1,search=1,side=2,early=0"  # the defence's leads: the opening lead first
    ids, params = _setup("heuristic")  # the calls pimc makes, traced without searching
    hands, dealer = _one_bid_deal(ids, params, 11)
    calls, declarer, _ = _trace(hands, dealer, ids, params)
    leader = (declarer + 1) % 4
    seat, worlds = _first_search(monkeypatch, hands, dealer, spec)
    assert seat == leader
    # Exchange one card between two other seats (the declarer and the leader's partner) where the
    # auction stays the same: the leader's worlds must not change.
    a, b = declarer, (declarer + 2) % 4
    swapped = None
    for x in range(64):
        for y in range(64):
            if int(hands[a]) >> x & 1 and int(hands[b]) >> y & 1:
                other = hands.copy()
                other[a] ^= U64((1 << x) | (1 << y))
                other[b] ^= U64((1 << x) | (1 << y))
                if _trace(other, dealer, ids, params)[0] == calls:
                    swapped = other
                    break
        if swapped is not None:
            break
    assert swapped is not None
    seat2, worlds2 = _first_search(monkeypatch, swapped, dealer, spec)
    assert seat2 == leader and (worlds2 == worlds).all()
    # the worlds do read the auction: not those of auction=0
    _, plain = _first_search(monkeypatch, hands, dealer, spec.replace("auction=1", "auction=0"))
    assert (plain != worlds).any()


# ------------------------------------------------------------------ in play, and the default
def test_auction_reading_plays_legal_reproducible_deals_and_counts():
    spec = "pimc:worlds=2,auction=1,side=2,search=1"
    before = dataclasses.replace(P.COUNTERS)
    a = cardsim.simulate("vint", 4, seed=5, strategies=[spec] * 4, n_jobs=1)
    read = P.COUNTERS.read - before.read
    assert read > 0 and P.COUNTERS.accepted - before.accepted >= 2 * (read - (P.COUNTERS.fell_back - before.fell_back))
    b = cardsim.simulate("vint", 4, seed=5, strategies=[spec] * 4, chunk_size=2, n_jobs=2)
    assert a.equals(b)
    for record in cardsim.records("vint", range(4), seed=5, strategies=[spec] * 4):
        cardsim.replay(record)  # raises on an illegal card


def test_auction_off_is_the_default_and_reads_nothing():
    assert VINT.table.registry["pimc"].params["auction"] == 0
    assert get_game("501").table.registry["pimc"].params["auction"] == 0  # tests/test_pimc_auction_501.py
    assert get_game("500").table.registry["pimc"].params["auction"] == 0  # tests/test_pimc_auction_500.py
    before = P.COUNTERS.read
    spec = "pimc:worlds=2,side=2,search=1"
    a = cardsim.simulate("vint", 3, seed=8, strategies=[spec] * 4, n_jobs=1)
    b = cardsim.simulate("vint", 3, seed=8, strategies=[spec + ",auction=0"] * 4, n_jobs=1)
    assert a.equals(b) and P.COUNTERS.read == before


def test_a_forced_contract_is_not_read():
    # =3NT skips the auction: the calls are not the strategies', the worlds match the play only
    before = P.COUNTERS.read
    cardsim.evaluate("vint", seat=0, options=["=3NT"], n=2, seed=2, n_jobs=1,
                     strategies=["pimc:worlds=2,auction=1,side=2,search=1"] * 4)
    assert P.COUNTERS.read == before and P.COUNTERS.searched > 0
