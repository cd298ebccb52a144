"""Five Hundred bidder whose partner + kitty allowance tapers with its own estimate (issue 32,
docs/notes/strategy-quality-journal.md "The bidder's allowance tapers"): taper 0 bids as before, taper > 0
never bids higher, the bounds are checked; since issue 26 the taper is in the default (0.65 above 5.05,
heuristic_v4's values, which these tests pin; the tuned default tapers 0.75 above 4.8) and heuristic_v2
(an earlier default) bids flat."""
import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim import StrategyError
from cardsim.games.g500 import dispatch as D
from cardsim.games.g500 import strategies as S
from cardsim.games.g500.constants import DECK
from cardsim.strategies.registry import N_PARAMS

H = S.REGISTRY["heuristic_v4"]  # the fitted taper's default: heuristic's id, the values before the tuned ones
V2 = S.REGISTRY["heuristic_v2"]
DENOMINATIONS = {"S": 0, "C": 1, "D": 2, "H": 3, "NT": 4}
STREAMS = np.zeros((5, 1), dtype=np.uint64)


def bits(cards):
    h = 0
    for c in cards:
        h |= 1 << int(c)
    return np.uint64(h)


def bid_number(token):
    """A record's call token (``P``, ``6S`` … ``10NT``) as a bid number, -1 for a pass."""
    if token == "P":
        return -1
    level = int(token.rstrip("SCDHNT"))
    return (level - 6) * 5 + DENOMINATIONS[token[len(str(level)):]]


def call(vector, seat, hand, high=-1, high_seat=-1, sid=S.HEURISTIC):
    params = np.zeros((4, N_PARAMS))
    params[seat] = vector
    return int(D.choose_call(sid, params, STREAMS, seat, hand, high, high_seat, 0, 0, 0, 1000))


def flat_bid_before_issue_32(vector, seat, hand, high, high_seat):
    """The heuristic's call as it was before issue 32 (a flat partner + kitty allowance),
    written again in Python from ``estimate_tricks``: the reference for taper = 0."""
    margin, partner, kitty, jump, nt_bias = (vector[S.P_MARGIN], vector[S.P_PARTNER], vector[S.P_KITTY],
                                             vector[S.P_JUMP], vector[S.P_NT_BIAS])
    support = partner + kitty - margin
    best = -1
    for d in range(5):
        level = min(10, int(np.floor(S.estimate_tricks(hand, d, nt_bias) + support)))
        if level >= 6:
            best = max(best, (level - 6) * 5 + d)
    if best <= high or (high_seat >= 0 and high_seat == (seat + 2) % 4):
        return -1
    if jump >= 0.5:
        return best
    return next(b for b in range(best % 5, 25, 5) if b > high)


def views(rng, n):
    """Bid views: a seat, a hand of 10 dealt cards, a standing bid (or none) by another seat."""
    for _ in range(n):
        seat = int(rng.integers(4))
        hand = bits(rng.choice(DECK, 10, replace=False))
        high = int(rng.integers(-1, 20))
        high_seat = -1 if high < 0 else int((seat + rng.integers(1, 4)) % 4)
        yield seat, hand, high, high_seat


def test_defaults_heuristic_tapers_the_previous_defaults_stay_flat():
    # issue 26: the fitted taper became the default (heuristic_v4 keeps it); heuristic_v2 (the default
    # until issue 26) and heuristic_v1 keep the flat allowance so that their old results reproduce
    # heuristic_v4 is a version of heuristic_v5 (heuristic's bidding, the card play before the no-trump lead rule)
    assert (H.params["taper"], H.params["pivot"]) == (0.65, 5.05) and H.id == S.HEURISTIC_V5
    tuned = S.REGISTRY["heuristic"].params
    assert tuned["taper"] > 0 and (tuned["taper"], tuned["pivot"]) == (S.HEURISTIC_DEFAULTS["taper"],
                                                                       S.HEURISTIC_DEFAULTS["pivot"])
    for old in ("heuristic_v2", "heuristic_v1"):
        assert S.REGISTRY[old].params == dict(H.params, taper=0.0, score=0.0)
    assert S.REGISTRY["heuristic_v3"].params == dict(H.params, score=0.0)  # issue 30: it ignores the score
    assert (H.params["partner"], H.params["kitty"], H.params["margin"]) == (2.6, 0.7, 0.0)


def test_allowance_tapers_above_the_pivot_and_stops_at_zero():
    row = np.zeros((4, N_PARAMS))
    row[1] = H.vector(taper=0.5, pivot=5)
    assert S.allowance(row, 1, 4.0) == pytest.approx(3.3)        # below the pivot: partner + kitty
    assert S.allowance(row, 1, 7.0) == pytest.approx(3.3 - 1.0)  # 2 tricks above: 0.5 x 2 removed
    row[1] = H.vector(taper=1, pivot=0)
    assert S.allowance(row, 1, 2.0) == pytest.approx(1.3)
    assert S.allowance(row, 1, 8.0) == 0.0                       # 3.3 - 8 clipped at 0
    row[1] = V2.vector(pivot=0)                                  # taper 0 (heuristic_v2's): flat
    assert S.allowance(row, 1, 9.0) == pytest.approx(3.3)
    row[1] = H.vector()                                          # the default: 0.65 above 5.05
    assert S.allowance(row, 1, 4.0) == pytest.approx(3.3)
    assert S.allowance(row, 1, 7.05) == pytest.approx(3.3 - 1.3)


def test_a_strong_hand_bids_lower_with_the_taper():
    # HJ LJ, both red jacks, A K Q 10 of hearts, A of spades and clubs: 10.5 tricks in hearts,
    # 7.5 in diamonds, 6.45 in no-trump before partner (2.6) and kitty (0.7)
    hand = bits([15, 14, 3 * 16 + 7, 2 * 16 + 7, 3 * 16 + 10, 3 * 16 + 9, 3 * 16 + 8, 3 * 16 + 6,
                 0 * 16 + 10, 1 * 16 + 10])
    assert [S.estimate_tricks(hand, d, 0.0) for d in (3, 2, 4)] == pytest.approx([10.5, 7.5, 6.45])
    assert call(H.vector(margin=2, taper=0), 1, hand) == 23              # 10.5 + 3.3 - 2: 10 hearts
    assert call(V2.vector(margin=2), 1, hand, sid=S.HEURISTIC_V2) == 23  # the previous default: flat
    # hearts 10.5 + 3.3 - 0.65 x 5.45 - 2 = 8.26: 8 hearts (diamonds 7.21, no-trump 6.84)
    assert call(H.vector(margin=2, taper=0.65, pivot=5.05), 1, hand) == 13
    assert call(H.vector(margin=2), 1, hand) == 13                       # the default since issue 26
    assert call(H.vector(margin=2, taper=0.65, pivot=10), 1, hand) == 23  # pivot above the hand: flat


def test_taper_zero_bids_as_before_issue_32():
    rng = np.random.default_rng(32)
    n_bids = 0
    for i, (seat, hand, high, high_seat) in enumerate(views(rng, 4000)):
        values = {"margin": rng.uniform(-3, 3), "partner": rng.uniform(0, 5), "kitty": rng.uniform(0, 2),
                  "jump": float(i % 2), "nt_bias": rng.uniform(-2, 2), "pivot": rng.uniform(0, 10)}
        vector = V2.vector(**values)
        expected = flat_bid_before_issue_32(vector, seat, hand, high, high_seat)
        assert call(vector, seat, hand, high, high_seat, S.HEURISTIC_V2) == expected, (values, seat, hand, high)
        assert call(H.vector(**values, taper=0), seat, hand, high, high_seat) == expected
        n_bids += expected >= 0
    assert 500 < n_bids < 3500, "the views reach both bids and passes"


@pytest.mark.parametrize("spec, base", [("heuristic_v4:taper=0,pivot=0", "heuristic_v2"),
                                        ("heuristic_v4:taper=0,pivot=10", "heuristic_v2"),
                                        ("heuristic_v2:taper=0.65", "heuristic_v4"),
                                        ("heuristic_v1", "heuristic_v1:taper=0"),
                                        ("heuristic_v1:margin=1,jump=0,taper=0,pivot=3",
                                         "heuristic_v1:margin=1,jump=0")])
def test_taper_zero_plays_the_same_deals(spec, base):
    rows = cardsim.simulate("500", 3000, seed=32, strategies=spec, n_jobs=1)
    ref = cardsim.simulate("500", 3000, seed=32, strategies=base, n_jobs=1)
    pd.testing.assert_frame_equal(rows, ref)
    assert rows.level.notna().sum() > 2000, "most deals are declared (played to the end)"


def test_taper_never_bids_higher_than_the_flat_bidder():
    """With jump = 1 (the default), on the same view, the tapering call is a pass or a bid no
    higher than taper 0's, and it passes whenever taper 0 passes: in every denomination its
    allowance is at most partner + kitty, so each denomination's level is at most the flat one."""
    rng = np.random.default_rng(33)
    lower = 0
    for seat, hand, high, high_seat in views(rng, 4000):
        values = {"margin": rng.uniform(-3, 3), "partner": rng.uniform(0, 5), "kitty": rng.uniform(0, 2),
                  "nt_bias": rng.uniform(-2, 2), "pivot": rng.uniform(0, 10)}
        flat = call(H.vector(**values, taper=0), seat, hand, high, high_seat)
        tapered = call(H.vector(**values, taper=rng.uniform(0, 1)), seat, hand, high, high_seat)
        assert tapered <= flat, (values, seat, hand, high, high_seat)
        lower += tapered < flat
    assert lower > 200, "the taper lowers some calls"


def test_first_bidders_first_bid_is_never_higher_with_the_taper():
    n = 5000
    rows = cardsim.simulate("500", n, seed=34, n_jobs=1)
    first = (rows.dealer.to_numpy() + 1) % 4
    flat, tapered = V2.vector(), H.vector(taper=0.65, pivot=5.05)
    lower = 0
    for i in range(n):
        hand = np.uint64(rows[f"hand_{first[i]}"].iat[i])
        a, b = call(flat, int(first[i]), hand), call(tapered, int(first[i]), hand)
        assert b <= a and (b >= 0) == (a >= 0), i   # a strong hand still bids: 8 tricks or more
        lower += b < a
    assert lower > 50
    # the engine's auction starts with that call
    for strategy, vector in (("heuristic_v2", flat), ("heuristic_v4", tapered)):
        for i, rec in enumerate(cardsim.records("500", list(range(40)), seed=34, strategies=strategy)):
            hand = np.uint64(rows[f"hand_{first[i]}"].iat[i])
            assert bid_number(rec["auction"][0]) == call(vector, int(first[i]), hand), (strategy, i)


@pytest.mark.parametrize("spec, message", [
    ("heuristic:taper=1.5", "parameter 'taper' of 'heuristic' must be a number from 0 to 1, got 1.5"),
    ("heuristic:taper=-0.1", "parameter 'taper' of 'heuristic' must be a number from 0 to 1, got -0.1"),
    ("heuristic_v1:pivot=11", "parameter 'pivot' of 'heuristic_v1' must be a number from 0 to 10, got 11"),
])
def test_taper_and_pivot_bounds(spec, message):
    with pytest.raises(StrategyError) as exc:
        cardsim.simulate("500", 10, strategies=spec, n_jobs=1)
    assert str(exc.value) == message and "\n" not in str(exc.value)
