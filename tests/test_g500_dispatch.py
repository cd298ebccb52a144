"""Five Hundred strategy dispatch: parameter positions, dispatch == strategy, unknown ids raise."""
import dataclasses
import re

import numpy as np
import pytest

from cardsim import StrategyError
from cardsim.games import get_game
from cardsim.games.g500 import dispatch as D
from cardsim.games.g500 import pimc as P
from cardsim.games.g500 import strategies as S
from cardsim.games.g500.constants import DECK, NT
from cardsim.games.g500.rules import card_suit, legal_plays, remap_hand, trick_winner
from cardsim.strategies.pimc import PARAMS as PIMC_PARAMS
from cardsim.strategies.registry import N_PARAMS, UNHANDLED

SPEC = get_game("500")
N_VIEWS = 300

# Each registered strategy's own function per decision; a new registry entry must be added here.
FUNCTIONS = {
    # the play view ends with the public voids and the auction's record, which only pimc reads
    "random": (S.random_bid, S.random_discard, lambda params, streams, *view: S.random_play(params, streams, *view[:-2])),
    # the heuristic's card play reads no parameters and no stream (it is on the hot path)
    "heuristic": (S.heuristic_bid, S.heuristic_discard, lambda params, streams, *view: S.heuristic_play(*view[:-2])),
    "heuristic_v1": (S.heuristic_bid, S.heuristic_discard,
                     lambda params, streams, *view: S.heuristic_play_v1(*view[:-2])),
    "heuristic_v2": (S.heuristic_bid, S.heuristic_discard, lambda params, streams, *view: S.heuristic_play_v5(*view[:-2])),
    "heuristic_v3": (S.heuristic_bid, S.heuristic_discard, lambda params, streams, *view: S.heuristic_play_v5(*view[:-2])),
    # the card play before the rules found with pimc (heuristic_v2 .. heuristic_v5)
    "heuristic_v5": (S.heuristic_bid, S.heuristic_discard, lambda params, streams, *view: S.heuristic_play_v5(*view[:-2])),
    # a version of heuristic_v5 (Registry.add_version): the same id, hence the same functions
    "heuristic_v4": (S.heuristic_bid, S.heuristic_discard, lambda params, streams, *view: S.heuristic_play_v5(*view[:-2])),
    # bids and discards like heuristic; its card comes from its own glue
    "pimc": (S.heuristic_bid, S.heuristic_discard, P.pimc_card),
}


def bits(cards):
    h = 0
    for c in cards:
        h |= 1 << int(c)
    return np.uint64(h)


def cards(mask):
    m = int(mask)
    return [i for i in range(64) if m >> i & 1]


def seat_params(rng, strategy):
    """float64[4, N_PARAMS]: each seat's vector with parameters drawn within their bounds."""
    params = np.zeros((4, N_PARAMS), dtype=np.float64)
    for seat in range(4):
        # pimc's own parameters (after its heuristic's) are drawn last: a few worlds keep 600 searches quick
        values = {n: rng.uniform(*strategy.bounds[n]) for n in strategy.params if n not in PIMC_PARAMS}
        values.update({n: float(rng.integers(strategy.bounds[n][0], min(strategy.bounds[n][1], 3) + 1))
                       for n in PIMC_PARAMS if n in strategy.params})
        # whole-number and yes/no parameters take whole values
        values.update({n: float(round(values[n])) for n in strategy.kinds})
        params[seat] = strategy.vector(**values)
    return params


def bid_views(rng, n):
    """Auction views with the game's state: both sides' scores (some near or past the target, some
    negative as under subtract scoring), the scoring rule and the target."""
    for _ in range(n):
        seat = int(rng.integers(4))
        hand = bits(rng.choice(DECK, 10, replace=False))
        high = int(rng.integers(-1, 25))
        high_seat = -1 if high < 0 else int((seat + rng.integers(1, 4)) % 4)
        target = int(rng.choice([500, 1000]))
        ours, theirs = (int(x) for x in rng.integers(-target // 2, target, size=2) // 10 * 10)
        yield seat, hand, high, high_seat, ours, theirs, int(rng.integers(2)), target


def discard_views(rng, n):
    for _ in range(n):
        denom = int(rng.integers(5))
        yield int(rng.integers(4)), np.uint64(remap_hand(bits(rng.choice(DECK, 16, replace=False)), denom)), denom


def play_views(rng, n):
    """Seat views in the middle of random deals: some tricks played at random, a trick in progress."""
    for _ in range(n):
        deck = rng.permutation(DECK)
        denom = int(rng.integers(5))
        declarer = int(rng.integers(4))
        hands = [int(remap_hand(bits(deck[10 * s:10 * s + 10]), denom)) for s in range(4)]
        full = cards(hands[declarer] | int(remap_hand(bits(deck[40:]), denom)))
        known = int(bits(rng.choice(full, 6, replace=False)))
        hands[declarer] = int(bits(full)) & ~known
        played = 0
        tricks = [0, 0]
        leader = declarer
        trick = np.zeros(4, dtype=np.int64)
        n_full = int(rng.integers(10))
        n_in_trick = int(rng.integers(4))
        for t in range(n_full + 1):
            led = -1
            for i in range(4 if t < n_full else n_in_trick):
                seat = (leader + i) % 4
                c = int(rng.choice(cards(legal_plays(np.uint64(hands[seat]), denom, led))))
                if i == 0:
                    led = int(card_suit(c, denom))
                    if led < 0:
                        led = int(rng.integers(4))
                trick[i] = c
                hands[seat] &= ~(1 << c)
                played |= 1 << c
            if t < n_full:
                leader = (leader + int(trick_winner(trick, denom, led))) % 4
                tricks[leader % 2] += 1
        seat = (leader + n_in_trick) % 4
        yield (seat, np.uint64(hands[seat]), denom, declarer, leader, trick.copy(), n_in_trick,
               led if n_in_trick else -1, np.uint64(played), np.uint64(known if seat == declarer else 0),
               tricks[declarer % 2], 6 + int(rng.integers(5)), np.int64(0), D.unread_auction())


# ---------------------------------------------------------------- (a) parameter positions
def test_parameter_constants_follow_the_registry_order():
    heuristic = S.REGISTRY["heuristic"]
    assert list(heuristic.params) == ["margin", "partner", "kitty", "jump", "nt_bias", "taper", "pivot", "score",
                                      "stretch", "stretch_sub", "near"]
    for i, name in enumerate(heuristic.params):
        assert getattr(S, "P_" + name.upper()) == i


def test_heuristic_reads_its_parameters_by_name():
    # HJ LJ, both red jacks, A K Q 10 of hearts, A of spades and clubs: 10.5 tricks in hearts
    # (7.5 in diamonds, 6.45 in no-trump) before partner (2.6) and kitty (0.7) are added
    hand = bits([15, 14, 3 * 16 + 7, 2 * 16 + 7, 3 * 16 + 10, 3 * 16 + 9, 3 * 16 + 8, 3 * 16 + 6,
                 0 * 16 + 10, 1 * 16 + 10])
    h = S.REGISTRY["heuristic_v4"]  # heuristic's id, with the previous default's partner 2.6 and kitty 0.7
    streams = np.zeros((5, 1), dtype=np.uint64)

    def bid(high=-1, **values):
        params = np.zeros((4, N_PARAMS))
        params[1] = h.vector(**{"taper": 0, **values})  # the flat allowance of the sums above
        return int(D.choose_call(S.HEURISTIC, params, streams, 1, hand, high, -1 if high < 0 else 0, 0, 0, 0, 1000))

    assert bid() == 23 and bid(jump=1) == 23  # 10 hearts at once
    assert bid(jump=0) == 3                   # the cheapest heart bid: 6 hearts
    assert bid(jump=0, high=7) == 8           # over 7 diamonds: 7 hearts
    assert bid(margin=10) == -1               # ten tricks of safety: pass
    assert bid(partner=0, kitty=0) == 23      # 10.5 alone
    assert bid(partner=0, kitty=0, margin=3) == 8   # 7.5: 7 hearts
    assert bid(nt_bias=10) == 24              # 6.45 + 10 + 3.3 in no-trump: 10NT


# ---------------------------------------------------------------- (b) dispatch == strategy
def same_decision(strategy_id, own, dispatched, params, streams, *view):
    s1, s2 = streams.copy(), streams.copy()
    a = dispatched(strategy_id, params, s1, *view)
    b = own(params, s2, *view)
    assert a == b, view
    assert (s1 == s2).all(), "both calls draw the same numbers from the seat's stream"
    return a


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_dispatch_gives_each_strategy_its_own_decisions(name):
    # rules plays a file (its dispatch is checked against the slow twin in test_rules_files_g500.py)
    assert set(FUNCTIONS) == {s.name for s in S.REGISTRY.strategies() if not s.file}, "every strategy is checked"
    strategy = S.REGISTRY[name]
    bid, discard, play = FUNCTIONS[name]
    rng = np.random.default_rng(500 + strategy.id)
    params = seat_params(rng, strategy)
    streams = rng.integers(0, 2**63, size=(5, 1)).astype(np.uint64)
    calls = set()
    for view in bid_views(rng, N_VIEWS):
        calls.add(int(same_decision(strategy.id, bid, D.choose_call, params, streams, *view)))
    assert -1 in calls and len(calls) > 3, "the views reach passes and several bids"
    for seat, hand, denom in discard_views(rng, N_VIEWS):
        out = same_decision(strategy.id, discard, D.choose_discard, params, streams, seat, hand, denom)
        assert bin(int(out)).count("1") == 6 and int(out) & ~int(hand) == 0
    n_follow = 0
    for view in play_views(rng, N_VIEWS):
        code = int(same_decision(strategy.id, play, D.choose_card, params, streams, *view))
        hand, denom, led = view[1], view[2], view[7]
        assert int(legal_plays(hand, denom, led)) >> (code & 0xFF) & 1
        n_follow += view[6] > 0
    assert 0 < n_follow < N_VIEWS, "leads and follows both checked"


def test_random_strategy_uses_only_its_seat_stream():
    rng = np.random.default_rng(7)
    streams = rng.integers(0, 2**63, size=(5, 1)).astype(np.uint64)
    before = streams.copy()
    hand = np.uint64(remap_hand(bits(rng.choice(DECK, 16, replace=False)), NT))
    D.choose_discard(S.RANDOM, np.zeros((4, N_PARAMS)), streams, 2, hand, NT)
    assert (streams[[0, 1, 2, 4]] == before[[0, 1, 2, 4]]).all() and streams[3] != before[3]


# ---------------------------------------------------------------- (c) unregistered ids raise
def unknown_at(seat):
    ids = np.ones(4, dtype=np.int64)
    ids[seat] = 99
    return dataclasses.replace(SPEC.setup(), strategy_ids=ids)


@pytest.mark.parametrize("seat", [0, 2])
def test_unregistered_id_raises_strategy_error(seat):
    message = re.escape(f"500: no dispatch branch handles strategy id 99 (seat {seat}, decision 'call')")
    with pytest.raises(StrategyError, match=message):
        SPEC.play.simulate_chunk(3, 0, 10, unknown_at(seat))
    with pytest.raises(StrategyError, match=message):
        SPEC.play.make_records(3, [0], unknown_at(seat))
    with pytest.raises(StrategyError, match=message):
        SPEC.matches.play(3, 0, 2, unknown_at(seat))


def test_every_decision_raises_for_an_unregistered_id():
    params = np.zeros((4, N_PARAMS))
    streams = np.zeros((5, 1), dtype=np.uint64)
    hand = np.uint64(0xFFFF)
    trick = np.zeros(4, dtype=np.int64)
    with pytest.raises(ValueError, match=UNHANDLED) as exc:
        D.choose_call(99, params, streams, 1, hand, -1, -1, 0, 0, 0, 1000)
    assert exc.value.args == (UNHANDLED, "call", 99, 1)
    with pytest.raises(ValueError, match=UNHANDLED) as exc:
        D.choose_discard(99, params, streams, 2, hand, 0)
    assert exc.value.args == (UNHANDLED, "discard", 99, 2)
    with pytest.raises(ValueError, match=UNHANDLED) as exc:
        D.choose_card(-1, params, streams, 3, hand, 0, 3, 3, trick, 0, -1, np.uint64(0), np.uint64(0), 0, 6, 0,
                      D.unread_auction())
    assert exc.value.args == (UNHANDLED, "card", -1, 3)


# ---------------------------------------------------------------- match buffer protocol
def test_match_kernel_asks_for_room_and_matches_do_not_depend_on_it():
    from cardsim.games.g500 import engine as E
    from cardsim.games.g500.rows import MATCH_DTYPE

    setup = SPEC.setup(rules=["target=500"])
    matches, deals = SPEC.matches.play(4, 0, 12, setup)

    def kernel(capacity):
        m = np.zeros(12, dtype=MATCH_DTYPE)
        res = np.zeros((capacity, E.R_LEN), dtype=np.int64)
        n = E.match_kernel(np.uint64(4), 0, 12, setup.strategy_ids, setup.params, 0, 500, 2000, m, res,
                           np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64))
        return n, m

    assert kernel(len(deals) - 1)[0] == -1, "one row short: the kernel asks for more room"
    n, m = kernel(len(deals))
    assert n == len(deals) and m.tobytes() == matches.tobytes()
    assert (matches["deals"] > 1).all() and matches["deals"].sum() == len(deals)
