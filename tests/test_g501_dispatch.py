"""501 strategy dispatch (g501/dispatch.py): parameter constants, routing, and unhandled ids.

Every registered strategy must reach its own functions through the dispatch (same decision,
same stream state afterwards), and an id with no branch must stop the run with a
StrategyError naming the game, the seat and the decision instead of playing as another one.
"""
import dataclasses

import numpy as np
import pytest

from cardsim import StrategyError
from cardsim.games.g501 import SPEC
from cardsim.games.g501 import dispatch as D
from cardsim.games.g501 import strategies as S
from cardsim import suit_order as SO
from cardsim.games.g501.constants import DECLARE_FLAG, LOOK, MAX_BID, MIN_BID, NT, SEEN_CARDS, SEEN_VOIDS
from cardsim.games.g501.rules import legal_plays, trick_winner
from cardsim.strategies.registry import N_PARAMS, UNHANDLED

N_VIEWS = 300
DECK = [s * 16 + r for s in range(4) for r in range(6)]
U64 = np.uint64


def bits(cards):
    return U64(sum(1 << int(c) for c in cards))


def random_params(strategy, rng):
    """A parameter vector of ``strategy`` with every parameter drawn inside its bounds (so that
    every branch of its policies is reached), clipped to a useful range for unbounded ones."""
    values = {}
    for name, default in strategy.params.items():
        lo, hi = strategy.bounds.get(name, (default - 10, default + 10))
        lo, hi = max(lo, -250.0), min(hi, 250.0)
        values[name] = float(rng.uniform(lo, hi)) if rng.random() < 0.7 else float(default)
        if name in strategy.kinds:  # whole-number parameters take whole values
            values[name] = float(round(values[name]))
    vec = strategy.vector(**values)
    if strategy.table is not None:  # the chart: a random level in every cell, so that both answers occur
        strategy.with_table(vec, "".join(str(d) for d in rng.integers(0, 7, S.N_CELLS)))
    return vec


def table(strategy, seat, rng):
    """Strategy ids (int64[3]) and parameters (float64[3, N_PARAMS]) with ``strategy`` at ``seat``."""
    params = np.zeros((3, N_PARAMS))
    params[seat] = random_params(strategy, rng)
    sids = np.full(3, 99, dtype=np.int64)
    sids[seat] = strategy.id
    if strategy is S.PIMC_STRATEGY:  # few worlds: each costs a double-dummy solve per legal card
        params[seat, strategy.param_index("worlds")] = min(params[seat, strategy.param_index("worlds")], 3)
    return sids, params


def fresh_streams(rng):
    return rng.integers(0, 2**63, size=(5, 1), dtype=np.uint64)


def random_play_view(rng):
    """A reachable play position: three random 8-card hands, random legal cards for a random
    number of plays; returns the view of the seat to play next: ``(seat, hand, legal, trick
    (bit set of the cards on the table), led (-1 when leading), trump, played, is_declarer,
    won_any, decl_pos, declarer, seen)``, ``seen`` (uint64[2, 4]) kept as the engine keeps it."""
    deck = rng.permutation(DECK)
    hands = [bits(deck[8 * i:8 * i + 8]) for i in range(3)]
    trump = int(rng.integers(0, 5))
    seat = int(rng.integers(0, 3))
    declarer = int(rng.integers(0, 3))
    seen = np.zeros((2, 4), dtype=np.uint64)
    played = trick = U64(0)
    led, winner, leader = -1, seat, seat
    won = [0, 0, 0]
    for n in range(int(rng.integers(0, 24))):
        legal = legal_plays(hands[seat], -1 if led < 0 else led >> 4, trump)
        c = int(rng.choice([c for c in DECK if int(legal) >> c & 1]))
        hands[seat] &= ~(U64(1) << U64(c))
        played |= U64(1) << U64(c)
        trick |= U64(1) << U64(c)
        seen[SEEN_CARDS, seat] |= U64(1) << U64(c)
        if led >= 0 and c >> 4 != led >> 4:
            seen[SEEN_VOIDS, seat] |= U64(0x3F << (16 * (led >> 4)))
            if trump != NT and c >> 4 != trump:
                seen[SEEN_VOIDS, seat] |= U64(0x3F << (16 * trump))
        if led < 0:
            led, winner, leader = c, seat, seat
        elif trick_winner(trick, led >> 4, trump) == c:
            winner = seat
        seat = (seat + 1) % 3
        if n % 3 == 2:
            seat, trick, led, leader = winner, U64(0), -1, winner
            won[seat] += 1
    legal = U64(legal_plays(hands[seat], -1 if led < 0 else led >> 4, trump))  # uint64, as in the engine
    decl_pos = (declarer - leader) % 3
    return (seat, hands[seat], legal, trick, led, trump, played, seat == declarer, won[seat] > 0, decl_pos,
            declarer, seen)


# ------------------------------------------------------------------ (a) parameter constants
def _own_parameters():
    """Strategies with their own constants: heuristic_v1, heuristic_v2, heuristic_v5, heuristic_v7, heuristic_v8,
    heuristic_v9, pimc and the versions of heuristic
    (heuristic_v3: heuristic's id) bid with heuristic's functions, so they read the same vector through
    heuristic's P_* constants (pimc's own four parameters are read by name in cardsim.strategies.pimc)."""
    return [st for st in S.REGISTRY.strategies()
            if st.name not in ("heuristic_v1", "heuristic_v2", "heuristic_v5", "heuristic_v7", "heuristic_v8",
                               "heuristic_v9", "pimc")
            and st.version_of is None]


def test_heuristic_v1_and_v2_have_heuristic_parameters():
    # heuristic's parameters, at the values of the previous default (heuristic_v3), which they keep
    heuristic = S.REGISTRY["heuristic"]
    for old in (S.REGISTRY["heuristic_v1"], S.REGISTRY["heuristic_v2"]):
        assert old.params == S.REGISTRY["heuristic_v3"].params and list(old.params) == list(heuristic.params)
        assert old.bounds == heuristic.bounds and old.kinds == heuristic.kinds
    assert (heuristic.id, S.REGISTRY["heuristic_v1"].id, S.REGISTRY["heuristic_v2"].id) == (
        S.HEURISTIC, S.HEURISTIC_V1, S.HEURISTIC_V2) == (1, 2, 5)


def _const(strategy, name):
    """``P_<PARAM>`` for heuristic's parameters, ``P_<STRATEGY>_<PARAM>`` for the others' (random's
    ``p_pass`` -> ``P_RANDOM_PASS``)."""
    if strategy.name == "heuristic":
        return f"P_{name.upper()}"
    return f"P_{strategy.name.upper()}_{name.upper().removeprefix('P_')}"


def test_parameter_constants_follow_the_registry_order():
    checked = 0
    for strategy in _own_parameters():
        for name in strategy.params:
            const = _const(strategy, name)
            assert getattr(S, const) == strategy.param_index(name), const
            checked += 1
    assert checked == 23
    # no constant left over from a renamed or removed parameter
    consts = {n for n in dir(S) if n.startswith("P_") and isinstance(getattr(S, n), int)}
    assert consts == {_const(st, p) for st in _own_parameters() for p in st.params}


# ------------------------------------------------------------------ (b) dispatch == the strategy's function
def _direct_blind(strategy, p, rng, position, score, rival, cur):
    if (strategy.id in (S.HEURISTIC, S.HEURISTIC_V5, S.HEURISTIC_V7, S.HEURISTIC_V8, S.HEURISTIC_V9, S.HEURISTIC_V1,
                        S.HEURISTIC_V2)
            or strategy is S.PIMC_STRATEGY):
        return S.heuristic_blind(p, rng, position, score, cur)
    if strategy.id == S.CHART:
        return S.chart_blind(p, position, score, rival, cur)
    return S.random_blind(p, rng, cur)


def _direct_open(strategy, p, rng, hand, rival, cur, others_blind, memo):
    if (strategy.id in (S.HEURISTIC, S.HEURISTIC_V5, S.HEURISTIC_V7, S.HEURISTIC_V8, S.HEURISTIC_V9, S.HEURISTIC_V1,
                        S.HEURISTIC_V2)
            or strategy is S.PIMC_STRATEGY):
        return S.heuristic_open(p, hand, cur, memo, rival, others_blind)
    if strategy.id == S.CHART:
        return S.chart_open(p, hand, cur, memo, rival, others_blind)
    return S.random_open(p, rng, cur)


def _seat_order(strategy, rng):
    """The suit order the dispatch sees the heuristic family's view through (cardsim.suit_order):
    drawn from the seat's stream word, which it reads without advancing; the identity for the
    legacy heuristic_v1 and heuristic_v2."""
    if strategy.id in (S.HEURISTIC_V1, S.HEURISTIC_V2):
        return SO.IDENTITY
    return SO.order_of(rng[0])


def _contract_back(out, order):
    if out[0] == 0:
        out[1] = SO.from_label(out[1], order)
        out[3], out[4] = SO.card_from_label(out[3], order), SO.card_from_label(out[4], order)


def _direct_contract(strategy, p, rng, hand, bid, out):
    if strategy.id == S.RANDOM:
        return S.random_contract(p, rng, hand, bid, out)
    order = _seat_order(strategy, rng)
    if strategy.id == S.CHART:
        S.chart_contract(p, SO.cards_to_label(hand, order), bid, out)
    else:
        S.heuristic_contract(p, SO.cards_to_label(hand, order), bid, out)
    _contract_back(out, order)


def _direct_play(strategy, p, rng, view):
    seat, hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, declarer, seen = view
    if strategy is S.PIMC_STRATEGY:
        from cardsim.games.g501.pimc import pimc_card
        return pimc_card(p, rng, hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, seat, declarer,
                         seen, D.unread_auction(p[None]))
    if strategy.id == S.RANDOM:
        return S.random_play(p, rng, hand, legal, led)
    if strategy.id == S.HEURISTIC_V1:
        return S.heuristic_play_v1(hand, legal, trick, led, trump, played, is_decl, won_any)
    if is_decl:
        # the declarer reads the two defenders' voids (the sitting-out dealer's row is 0): the first row that
        # has one, and the others together
        rows = [seen[SEEN_VOIDS, s] for s in range(4) if s != declarer and seen[SEEN_VOIDS, s] != 0]
        dvoid = U64(rows[0]) if rows else U64(0)
        pvoid = U64(np.bitwise_or.reduce(rows[1:])) if len(rows) > 1 else U64(0)
    else:
        dvoid = seen[SEEN_VOIDS, declarer]
        pvoid = U64(np.bitwise_or.reduce([seen[SEEN_VOIDS, s] for s in range(4) if s not in (seat, declarer)]))
    # heuristic_v5 and heuristic_v2 (and its versions v3, v4) keep the card play before issue 47, heuristic_v7
    # (and its version v6) issue 47's first rules, heuristic_v8 its first and second, heuristic_v9 its first three
    play = S.heuristic_play_voids
    if strategy.id in (S.HEURISTIC_V5, S.HEURISTIC_V2):
        play = S.heuristic_play_voids_v5
    elif strategy.id == S.HEURISTIC_V7:
        play = S.heuristic_play_voids_v7
    elif strategy.id == S.HEURISTIC_V8:
        play = S.heuristic_play_voids_v8
    elif strategy.id == S.HEURISTIC_V9:
        play = S.heuristic_play_voids_v9
    return play(hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, dvoid, pvoid,
                _seat_order(strategy, rng))


# rules plays a file (its dispatch is checked against the slow twin in test_rules_files_g501.py)
PLAIN = [s.name for s in S.REGISTRY.strategies() if not s.file]


def _cur_bid(rng):
    return 0 if rng.random() < 0.3 else int(rng.integers(MIN_BID, MAX_BID + 1))


@pytest.mark.parametrize("name", PLAIN)
def test_auction_dispatch_calls_the_strategys_own_functions(name):
    strategy = S.REGISTRY[name]
    rng = np.random.default_rng(501 + strategy.id)
    blinds = looks = bids = 0
    for _ in range(N_VIEWS):
        seat = int(rng.integers(0, 3))
        sids, params = table(strategy, seat, rng)
        streams = fresh_streams(rng)
        own = streams[1 + seat].copy()
        position, score, cur = int(rng.integers(0, 3)), int(rng.integers(-100, 700)), _cur_bid(rng)
        rival, others_blind = int(rng.integers(-100, 700)), bool(rng.random() < 0.5)
        got = D.choose_blind(sids[seat], params, streams, seat, position, score, rival, cur, 3)
        assert got == _direct_blind(strategy, params[seat], own, position, score, rival, cur)
        assert streams[1 + seat, 0] == own[0]
        blinds += got > 0
        looks += got == LOOK

        hand = bits(rng.choice(DECK, 7, replace=False))
        memo = np.zeros((4, 2))
        memo_own = np.zeros(2)
        got = D.choose_call(sids[seat], params, streams, seat, hand, position, score, rival, cur, others_blind, memo,
                            3)
        assert got == _direct_open(strategy, params[seat], own, hand, rival, cur, others_blind, memo_own)
        assert streams[1 + seat, 0] == own[0]
        assert list(memo[seat]) == list(memo_own) and not memo[np.arange(4) != seat].any()
        bids += got > 0
    # the views reach every kind of answer, so the comparison means something
    assert blinds > 0 and looks > 0 and bids > 0


def _declarer_view(strategy, rng):
    """A random declarer's view after the talon: ``(seat, strategy ids, params, streams, the
    seat's own stream copied, hand of 10 cards, talon (3 of them), winning bid, blind)``."""
    seat = int(rng.integers(0, 3))
    sids, params = table(strategy, seat, rng)
    streams = fresh_streams(rng)
    own = streams[1 + seat].copy()
    cards = rng.choice(DECK, 10, replace=False)
    hand, talon = bits(cards), bits(cards[:3])
    bid, blind = int(rng.integers(MIN_BID, MAX_BID + 1)), bool(rng.random() < 0.5)
    return seat, sids, params, streams, own, hand, talon, bid, blind


@pytest.mark.parametrize("name", PLAIN)
def test_contract_dispatch_calls_the_strategys_own_function(name):
    strategy = S.REGISTRY[name]
    rng = np.random.default_rng(5010 + strategy.id)
    abandons = declared = 0
    for _ in range(N_VIEWS):
        seat, sids, params, streams, own, hand, talon, bid, blind = _declarer_view(strategy, rng)
        out = np.full(5, -7, dtype=np.int64)
        out_own = np.full(5, -7, dtype=np.int64)
        D.choose_contract(sids[seat], params, streams, seat, hand, bid, blind, talon, out)
        _direct_contract(strategy, params[seat], own, hand, bid, out_own)
        assert list(out) == list(out_own)
        assert streams[1 + seat, 0] == own[0]
        if out[0]:
            abandons += 1
            assert list(out[1:]) == [0, 0, 0, 0]
        else:
            declared += 1
            assert 0 <= out[1] <= NT and bid <= out[2] <= MAX_BID
            assert out[3] != out[4] and int(hand) >> int(out[3]) & 1 and int(hand) >> int(out[4]) & 1
    assert abandons > 0 and declared > 0


@pytest.mark.parametrize("name", PLAIN)
def test_contract_in_a_forced_trump_chooses_for_that_trump(name):
    """choose_contract_in (a question forcing the trump): the heuristic family and the chart give
    the two cards choose_gifts picks for the forced trump (in the seat's suit order) and never
    abandon, with the target of
    their estimate in it; the random strategy makes its own (trump-free) draw, as choose_contract."""
    strategy = S.REGISTRY[name]
    rng = np.random.default_rng(5020 + strategy.id)
    for _ in range(N_VIEWS):
        seat, sids, params, streams, own, hand, talon, bid, blind = _declarer_view(strategy, rng)
        trump = int(rng.integers(0, 5))
        out = np.full(5, -7, dtype=np.int64)
        D.choose_contract_in(sids[seat], params, streams, seat, hand, bid, blind, talon, trump, out)
        if strategy.id == S.RANDOM:
            want = np.full(5, -7, dtype=np.int64)
            S.random_contract(params[seat], own, hand, bid, want)
            assert list(out) == list(want) and streams[1 + seat, 0] == own[0]
            continue
        # the gifts of the seat's suit order (cardsim.suit_order), mapped back to the real suits
        order = _seat_order(strategy, own)
        g1, g2 = (SO.card_from_label(g, order) for g in S.choose_gifts(SO.cards_to_label(hand, order),
                                                                        SO.to_label(trump, order)))
        kept = int(hand) & ~(1 << int(g1)) & ~(1 << int(g2))
        margin = params[seat, strategy.param_index("target_margin")]
        target = min(MAX_BID, max(bid, int(S.estimate(U64(kept), trump) - margin)))
        assert list(out) == [0, trump, target, g1, g2]
        assert streams[1 + seat, 0] == own[0]  # no draw


@pytest.mark.parametrize("name", PLAIN)
def test_play_dispatch_calls_the_strategys_own_function(name):
    strategy = S.REGISTRY[name]
    rng = np.random.default_rng(50100 + strategy.id)
    leads = follows = 0
    for _ in range(N_VIEWS):
        view = random_play_view(rng)
        seat, hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, declarer, seen = view
        sids, params = table(strategy, seat, rng)
        streams = fresh_streams(rng)
        own = streams[1 + seat].copy()
        got = D.choose_card(sids[seat], params, streams, seat, hand, legal, trick, led, trump, played, is_decl, won_any,
                     decl_pos, declarer, seen, D.unread_auction(params))
        assert got == _direct_play(strategy, params[seat], own, view)
        assert streams[1 + seat, 0] == own[0]
        card = got - DECLARE_FLAG if got >= DECLARE_FLAG else got
        assert int(legal) >> int(card) & 1
        leads += led < 0
        follows += led >= 0
    assert leads > 0 and follows > 0


# ------------------------------------------------------------------ (c) unhandled ids
def test_an_unregistered_id_stops_simulate_with_a_strategy_error():
    setup = dataclasses.replace(SPEC.setup(), strategy_ids=np.array([99, 1, 1]))
    with pytest.raises(StrategyError, match=r"501.*99.*seat 0"):
        SPEC.play.simulate_chunk(7, 0, 10, setup)
    with pytest.raises(StrategyError, match=r"501.*99.*seat 0.*'blind'"):
        SPEC.play.make_records(7, [0, 1], setup)
    with pytest.raises(StrategyError, match=r"501.*99.*seat 0"):
        SPEC.matches.play(7, 0, 2, setup)


def test_every_dispatch_function_names_its_decision_for_an_unhandled_id():
    params = np.zeros((3, N_PARAMS))
    streams = np.zeros((5, 1), dtype=np.uint64)
    hand = bits(DECK[:10])
    calls = {
        "blind": lambda: D.choose_blind(np.int64(99), params, streams, 2, 0, 501, 501, 0, 3),
        "call": lambda: D.choose_call(np.int64(99), params, streams, 2, hand, 0, 501, 501, 0, False, np.zeros((4, 2)),
                                      3),
        "contract": lambda: D.choose_contract(np.int64(99), params, streams, 2, hand, 70, False, bits(DECK[:3]),
                                       np.zeros(5, dtype=np.int64)),
        "contract ": lambda: D.choose_contract_in(np.int64(99), params, streams, 2, hand, 70, False, bits(DECK[:3]),
                                                  0, np.zeros(5, dtype=np.int64)),
        "card": lambda: D.choose_card(np.int64(99), params, streams, 2, hand, hand, U64(0), -1, 0, U64(0), False, False, 0, 0,
                           np.zeros((2, 4), dtype=np.uint64), D.unread_auction(params)),
    }
    for decision, call in calls.items():
        with pytest.raises(ValueError) as info:
            call()
        assert info.value.args == (UNHANDLED, decision.strip(), 99, 2)
