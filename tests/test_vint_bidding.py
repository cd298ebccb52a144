"""Vint's default bidding (cardsim/games/vint/strategies.py heuristic_call, issue 12): one hand per
rule, the call expected with the default parameters and the call the same hand makes with the
rule switched off (the parameter at its old value) or under heuristic_v1's bidding
(heuristic_call_v1).  Calls follow docs/RULES.md §2.2: 0 = pass, a bid is level and denomination
S < C < D < H < NT, every bid higher than the last."""
import numpy as np

from cardsim.games.vint import SPEC
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import NT, PASS, bid_call

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)
RANKS = "23456789TJQKA"


def hand(text):
    """uint64 hand from 'SK943 CA4 DAJ43 HQJ5' (suit letter, then its ranks)."""
    out = 0
    for part in text.split():
        s = "SCDH".index(part[0])
        for r in part[1:]:
            out |= 1 << (16 * s + RANKS.index(r))
    assert bin(out).count("1") == 13
    return np.uint64(out)


def params(**changes):
    """heuristic's default parameter row (float64[N_PARAMS]) with ``changes`` applied."""
    p = SPEC.setup("heuristic").params[0].copy()
    for name, value in changes.items():
        p[S.REGISTRY["heuristic"].param_index(name)] = value
    return p


def calls_of(*calls):
    out = np.zeros(64, dtype=np.int64)
    out[:len(calls)] = calls
    return out, len(calls)


def call(h, seat, calls, ncalls, current, bidder, **changes):
    return S.heuristic_call(params(**changes), hand(h), seat, calls, ncalls, current, bidder)


def call_v1(h, seat, calls, ncalls, current, bidder):
    return S.heuristic_call_v1(params()[:4].copy(), hand(h), seat, calls, ncalls, current, bidder)


def test_partner_counts_for_less_once_an_opponent_has_bid():
    # West (seat 3, dealer) opened 1S; North holds 15 high-card points, 4-4-3-2 (no length points).
    # Side strength 15 + contested_points 6 = 21 -> 7.0 tricks; diamonds (4 + a third of the 9
    # outstanding = a 7-card fit) 6.75: no level 1 contract.  Counting partner's usual 7 points
    # (22 -> 7.33, diamonds 7.08) North would overcall 1D; heuristic_v1 (no nt_margin either)
    # overcalls 1NT (7.33 - 0.2 = 7.13).
    calls, n = calls_of(bid_call(1, SPADES))
    h = "SK943 CA4 DAJ43 HQJ5"
    assert call(h, 0, calls, n, bid_call(1, SPADES), 3) == PASS
    assert call(h, 0, calls, n, bid_call(1, SPADES), 3, contested_points=7.0) == bid_call(1, DIAMONDS)
    assert call_v1(h, 0, calls, n, bid_call(1, SPADES), 3) == bid_call(1, NT)
    # Without an opponent's bid the same hand opens (partner's 7 points count).
    calls, n = calls_of()
    assert call(h, 0, calls, n, PASS, -1) != PASS


def test_no_trump_estimate_is_lowered_by_nt_margin():
    # 16 points, 4-3-3-3: (16 + 7) / 3 = 7.67 tricks; no-trump 7.67 - 0.2 - nt_margin 0.5 = 6.97 is
    # below the spades (4 + 3 = 7-card fit) 7.42, so North opens 1S; without the margin no-trump
    # ranks first at 7.47 and North opens 1NT, as heuristic_v1 does.
    calls, n = calls_of()
    h = "SAQ86 CKQ7 DKJ8 HJT2"
    assert call(h, 0, calls, n, PASS, -1) == bid_call(1, SPADES)
    assert call(h, 0, calls, n, PASS, -1, nt_margin=0.0) == bid_call(1, NT)
    assert call_v1(h, 0, calls, n, PASS, -1) == bid_call(1, NT)


def test_partner_holds_few_cards_outside_the_suit_he_bid():
    # South (seat 2, dealer) opened 1H, East passed.  North: six spades, 8 high-card points + 2
    # length points, partner's bid 13: 23 / 3 = 7.67 tricks.  Partner has shown five hearts, so
    # he holds misfit_share 0.2 of the 7 outstanding spades (1.4): a 7.4-card fit, 7.62 tricks,
    # not enough for 2S (8 tricks); counting a third of them (2.33: an 8.33-card fit, 8.08
    # tricks) North bids 2S, as heuristic_v1 does.
    calls, n = calls_of(bid_call(1, HEARTS), PASS)
    h = "SK98732 C43 DKJ7 HJ8"
    assert call(h, 0, calls, n, bid_call(1, HEARTS), 2) == PASS
    assert call(h, 0, calls, n, bid_call(1, HEARTS), 2, misfit_share=1 / 3) == bid_call(2, SPADES)
    assert call_v1(h, 0, calls, n, bid_call(1, HEARTS), 2) == bid_call(2, SPADES)


def test_trump_honours_decide_between_equal_suits():
    # Five diamonds A K Q 10 8 (four honours) and five hearts K Q 10 9 7 (three): the same
    # trick estimate, so heuristic_v1 (ties go to the higher denomination) opens 1H; honours
    # score 20-40 x V to the side holding them (docs/RULES.md §2.6), and honour_weight 0.3 a
    # honour beyond two puts diamonds (+0.6) ahead of hearts (+0.3): 1D.
    calls, n = calls_of()
    h = "S5 C98 DAKQT8 HKQT97"
    assert call(h, 0, calls, n, PASS, -1) == bid_call(1, DIAMONDS)
    assert call(h, 0, calls, n, PASS, -1, honour_weight=0.0) == bid_call(1, HEARTS)
    assert call_v1(h, 0, calls, n, PASS, -1) == bid_call(1, HEARTS)
