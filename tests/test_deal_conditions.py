"""Dealing under conditions (cardsim.conditions, cardsim.deal): exact distributions, determinism,
agreement with the engines' deals, and one-line errors for bad conditions.

Exact probabilities are computed here by generating functions: a hand of ``n`` cards drawn from
a pool where card ``c`` carries weight ``w_c`` has ``[x^v y^n] prod_c (1 + y x^{w_c})`` hands of
value ``v``; the zero-weight cards are counted at once with ``C(zeros, n - k)`` binomials.  With
Python integers the counts, hence the probabilities, are exact.
"""
from __future__ import annotations

from math import comb

import numpy as np
import pytest
from scipy import stats

import cardsim
from cardsim import conditions as C
from cardsim.cards import cards_of, popcount
from cardsim.conditions import ConditionError, Conditions, HandClass
from cardsim.deal import MAX_ATTEMPTS, deal_chunk

SEED = 2024


# ---------------------------------------------------------------- exact counting helpers
def value_counts(weights, zeros: int, n: int) -> dict[int, int]:
    """Number of ``n``-card hands of each value from cards of ``weights`` plus ``zeros`` cards of weight 0."""
    poly = {(0, 0): 1}
    for w in weights:
        nxt = dict(poly)
        for (k, v), count in poly.items():
            if k < n:
                nxt[(k + 1, v + w)] = nxt.get((k + 1, v + w), 0) + count
        poly = nxt
    out: dict[int, int] = {}
    for (k, v), count in poly.items():
        if n - k <= zeros:
            out[v] = out.get(v, 0) + count * comb(zeros, n - k)
    return out


def probability(weights, zeros, n, accept) -> float:
    counts = value_counts(weights, zeros, n)
    return sum(c for v, c in counts.items() if accept(v)) / comb(len(weights) + zeros, n)


def assert_binomial(k: int, n: int, p: float):
    """``k`` successes in ``n`` trials are within 4 standard deviations of ``n p``."""
    z = (k - n * p) / np.sqrt(n * p * (1 - p))
    assert abs(z) < 4, (k, n, p, z)


def tokens(game, bits) -> set[str]:
    fs = C.features_of(game)
    return {fs.card_str(c) for c in cards_of(int(bits))}


def test_generating_function_matches_the_quoted_vint_values():
    vint_honours = [4, 3, 2, 1] * 4
    assert probability(vint_honours, 36, 13, lambda v: v == 10) == pytest.approx(0.09405, abs=5e-6)
    assert probability(vint_honours, 36, 13, lambda v: 15 <= v <= 17) == pytest.approx(0.10096, abs=5e-6)


# ---------------------------------------------------------------- the first attempt is the engine's deal
@pytest.mark.parametrize("game,seats", [("vint", 4), ("501", 3), ("501", 4), ("500", 4)])
def test_no_conditions_reproduce_the_engine_deals(game, seats):
    ids = list(range(300, 324))
    dealt = deal_chunk(C.compile(Conditions(game, seats=seats)), SEED, ids[0], len(ids))
    assert (dealt.attempts == 1).all()
    for i, rec in enumerate(cardsim.records(game, ids, seed=SEED, seats=seats)):
        assert dealt.dealers[i] == rec["dealer"]
        assert [tokens(game, dealt.hands[i, s]) for s in range(seats)] == [set(h) for h in rec["hands"]]
        assert tokens(game, dealt.talons[i]) == set(rec.get("talon", []))


@pytest.mark.parametrize("game,seats,cls", [("vint", 4, "hcp>=13"), ("501", 4, "points>=40"),
                                             ("500", 4, "trumps_S>=4")])
def test_a_first_attempt_that_is_accepted_is_the_engine_deal(game, seats, cls):
    ids = list(range(40))
    dealt = deal_chunk(C.compile(Conditions(game, seats=seats, classes={1: cls})), SEED, 0, len(ids))
    first = np.flatnonzero(dealt.attempts == 1)
    later = np.flatnonzero(dealt.attempts > 1)
    assert len(first) >= 3 and len(later) >= 3
    recs = cardsim.records(game, ids, seed=SEED, seats=seats)
    for i in first:
        assert [tokens(game, dealt.hands[i, s]) for s in range(seats)] == [set(h) for h in recs[i]["hands"]]
    for i in later:  # the engine's deal was rejected, so this one is another
        assert tokens(game, dealt.hands[i, 1]) != set(recs[i]["hands"][1])


def test_a_given_dealer_draws_like_the_engines():
    from cardsim.games.g501.engine import shuffle_and_deal
    from cardsim.games.vint.engine import BASE_DECK, deal_cards
    from cardsim.rng import deal_key

    vint = deal_chunk(C.compile(Conditions("vint", dealer=2)), SEED, 0, 30)
    g501 = deal_chunk(C.compile(Conditions("501", seats=4, dealer=1)), SEED, 0, 30)
    assert (vint.dealers == 2).all() and (g501.dealers == 1).all()
    deck = np.zeros(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    for i in range(30):
        key = np.uint64(deal_key(np.uint64(SEED), i))
        assert deal_cards(key, 2, BASE_DECK, deck, hands, np.zeros(1, dtype=np.uint64)) == 2
        assert (hands == vint.hands[i]).all()
        dealer, talon = shuffle_and_deal(key, 4, 1, deck[:24].copy(), hands, np.zeros((5, 1), dtype=np.uint64))
        assert dealer == 1 and talon == g501.talons[i] and (hands == g501.hands[i]).all()


# ---------------------------------------------------------------- given cards
GIVEN_VINT = "S:AKT86 H:KQ42 C:K832"


@pytest.mark.parametrize("game,seats,hands,talon", [
    ("vint", 4, {0: GIVEN_VINT, 3: "D:AKQ"}, None),
    ("501", 3, {1: "S:AT H:KQ"}, "D:9"),
    ("501", 4, {0: "S:A", 2: "H:KQJ"}, "C:AT"),
    ("500", 4, {2: "HJ S:AK D:J"}, "LJ H:4"),
])
def test_given_cards_are_always_in_place(game, seats, hands, talon):
    compiled = C.compile(Conditions(game, seats=seats, hands=hands, talon=talon))
    dealt = deal_chunk(compiled, SEED, 0, 2000)
    fs = C.features_of(game)
    deck = sum(1 << int(c) for c in fs.base_deck)
    sizes = compiled.layout.sizes
    if game == "501" and seats == 4:  # drawn dealers 0 and 2 are rejected: they would sit out
        assert_binomial(int((dealt.attempts == 1).sum()), 2000, 0.5)
    else:
        assert (dealt.attempts == 1).all()
    for i in range(len(dealt.attempts)):
        d = dealt.dealers[i]
        for seat, text in hands.items():
            given = set(fs.card_str(c) for c in C.parse_hand(game, text))
            assert given <= tokens(game, dealt.hands[i, seat])
        if talon:
            assert set(fs.card_str(c) for c in C.parse_hand(game, talon)) <= tokens(game, dealt.talons[i])
        bits = [int(x) for x in dealt.hands[i]] + [int(dealt.talons[i])]
        assert [bin(b).count("1") for b in bits] == list(sizes[d])
        assert sum(bits) == deck and np.bitwise_or.reduce(bits) == deck  # disjoint and complete
    if seats == 4 and game == "501":  # conditioned seats 0 and 2 never sit out as dealer
        assert set(np.unique(dealt.dealers)) == {1, 3}


def test_given_vint_hand_leaves_the_exact_conditional_distribution():
    """Seat 0 holds S:AKT86 H:KQ42 C:K832.  The other 39 cards (8 spades; honours A A A K Q Q Q J J J J
    = 3 aces, 1 king, 3 queens, 4 jacks; 28 spot cards) are dealt uniformly: seat 1's spade length
    is hypergeometric (39, 8, 13) and seat 2's hcp follows the generating function of those cards."""
    n = 30_000
    dealt = deal_chunk(C.compile(Conditions("vint", hands={0: GIVEN_VINT})), SEED, 0, n)
    assert (dealt.hands[:, 0] == dealt.hands[0, 0]).all()
    spades = np.array([popcount(h & np.uint64(0xFFFF)) for h in dealt.hands[:, 1]])
    expected = stats.hypergeom(39, 8, 13).pmf(np.arange(9))
    chi_square_ok(np.bincount(spades, minlength=9), expected, n)

    from cardsim.games.vint.rules import high_card_points
    hcp = np.array([high_card_points(h) for h in dealt.hands[:, 2]])
    counts = value_counts([4] * 3 + [3] + [2] * 3 + [1] * 4, 28, 13)
    expected = np.array([counts.get(v, 0) for v in range(38)]) / comb(39, 13)
    assert expected.sum() == pytest.approx(1.0, abs=1e-12)
    chi_square_ok(np.bincount(hcp, minlength=38), expected, n)


def chi_square_ok(observed, expected_p, n):
    """Chi-square goodness of fit, cells with fewer than 5 expected merged into their neighbour."""
    obs, exp = [], []
    o_acc = e_acc = 0.0
    for o, p in zip(observed, expected_p):
        o_acc += o
        e_acc += p * n
        if e_acc >= 5:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc = e_acc = 0.0
    obs[-1] += o_acc
    exp[-1] += e_acc
    assert sum(obs) == n
    assert stats.chisquare(obs, exp).pvalue > 1e-3


# ---------------------------------------------------------------- voids
def test_a_void_in_a_given_hand_is_a_length_0_class_met_at_its_exact_rate():
    """S:AKQJT D:- : the other eight cards of seat 0 come from the 34 spades, hearts and clubs of
    the 47 cards left, so a candidate is kept with probability C(34, 8) / C(47, 8)."""
    n = 3000
    compiled = C.compile(Conditions("vint", hands={0: "S:AKQJT D:-"}))
    assert compiled.text == "seat 0 given S:AKQJT; seat 0: D=0"
    dealt = deal_chunk(compiled, SEED, 0, n)
    diamonds = C.features_of("vint").features["D"][0][0]
    assert all(int(h) & diamonds == 0 for h in dealt.hands[:, 0])
    assert all({"AS", "KS", "QS", "JS", "TS"} <= tokens("vint", h) for h in dealt.hands[:, 0])
    assert_binomial(n, int(dealt.attempts.sum()), comb(34, 8) / comb(47, 8))
    # the same question written as a class
    assert C.compile(Conditions("vint", hands={0: "S:AKQJT"}, classes={0: "D=0"})).plan[7].tolist() == \
        compiled.plan[7].tolist()


def test_a_void_is_physical_in_500_and_works_for_the_talon():
    """Five Hundred H:- : no heart, the jack of hearts included; the jokers and J♦ (hearts only once
    hearts are trumps, docs/RULES.md §3.1) are still dealt to the seat.  A void in given talon
    cards holds for the talon."""
    from cardsim.games.g500.constants import JOKER_MASK
    fs = C.features_of("500")
    compiled = C.compile(Conditions("500", hands={1: "HJ H:-"}, talon="D:-"))
    assert compiled.text == "seat 1 given HJ; seat 1: H=0; the talon: D=0"
    dealt = deal_chunk(compiled, SEED, 0, 2000)
    hearts, diamonds = (fs.features[s][0][0] for s in "HD")
    assert all(int(h) & hearts == 0 for h in dealt.hands[:, 1])
    assert all(int(t) & diamonds == 0 for t in dealt.talons)
    assert any(int(h) >> fs.parse_card("JD") & 1 for h in dealt.hands[:, 1])
    assert any(int(h) & int(JOKER_MASK) & ~(1 << fs.parse_card("HJ")) for h in dealt.hands[:, 1])
    dealt = deal_chunk(C.compile(Conditions("501", talon="D:- C:-")), SEED, 0, 500)
    assert {fs_s[1] for t in dealt.talons for fs_s in tokens("501", t)} <= {"S", "H"}


def test_suit_symbols_read_as_letters():
    assert C.parse_hand("vint", "♠:AKT86 A♥ 10♦ ♧:2 ♤:4 ♡:3 ♢:2") == \
        C.parse_hand("vint", "S:AKT86 AH TD C:2 S:4 H:3 D:2")
    assert C.parse_hand("vint", "A♠\ufe0f K♥\ufe0f") == C.parse_hand("vint", "AS KH")  # emoji keyboards
    assert C.parse_given("500", "HJ ♥:AK ♦:-") == C.parse_given("500", "HJ H:AK D:-")
    assert C.cards_given("501", ["A♠", "10♥"]) == C.cards_given("501", ["AS", "TH"])
    for game, text, letters in (("vint", "♥>=5, honours_♠>=3, has A♠ K♣, not Q♦",
                                 "H>=5, honours_S>=3, has AS KC, not QD"),
                                ("500", "trumps_♥>=6, bowers_♦=2", "trumps_H>=6, bowers_D=2")):
        assert C.parse_class(game, text).resolved(game) == C.parse_class(game, letters).resolved(game)
    assert HandClass(required=("A♠",)).resolved("vint")[1] == C.parse_hand("vint", "AS")
    with pytest.raises(ConditionError, match=r"bad hand '♠:AX': unexpected 'X' at column 4"):
        C.parse_hand("vint", "♠:AX")


# ---------------------------------------------------------------- classes: membership and exact acceptance
def test_vint_classes_are_met_at_their_exact_rate():
    from cardsim.games.vint.rules import high_card_points
    vint_honours = [4, 3, 2, 1] * 4
    for text, accept in (("hcp=10", lambda v: v == 10), ("hcp=15-17", lambda v: 15 <= v <= 17)):
        n = 20_000
        dealt = deal_chunk(C.compile(Conditions("vint", classes={3: text})), SEED, 0, n)
        assert all(accept(high_card_points(h)) for h in dealt.hands[:, 3])
        p = probability(vint_honours, 36, 13, accept)
        assert_binomial(int((dealt.attempts == 1).sum()), n, p)
        assert dealt.acceptance == pytest.approx(p, rel=0.03)


def test_501_marriages_are_met_at_their_exact_rate():
    """P(at least one K+Q pair in 7 of 24 cards) by inclusion-exclusion over the 4 suits; with 4
    seats the seat also sits out as dealer one time in 4, which is rejected."""
    from cardsim.games.g501.rules import marriage_suits
    p_none = sum((-1) ** k * comb(4, k) * comb(24 - 2 * k, 7 - 2 * k) for k in range(4)) / comb(24, 7)
    for seats, rate in ((3, 1 - p_none), (4, 0.75 * (1 - p_none))):
        n = 20_000
        dealt = deal_chunk(C.compile(Conditions("501", seats=seats, classes={2: "marriages>=1"})), SEED, 0, n)
        assert all(marriage_suits(h) != 0 for h in dealt.hands[:, 2])
        assert_binomial(int((dealt.attempts == 1).sum()), n, rate)
        assert (dealt.dealers != 2).all() == (seats == 4)


def test_501_points_class_at_its_exact_rate():
    from cardsim.games.g501.rules import hand_points
    n = 20_000
    dealt = deal_chunk(C.compile(Conditions("501", classes={0: HandClass(hcp=(45, None), aces=(1, 2))})),
                       SEED, 0, n)
    assert all(hand_points(h) >= 45 and 1 <= popcount(h & np.uint64(0x0020002000200020)) <= 2
               for h in dealt.hands[:, 0])
    # exact: hands with a aces = C(4, a) x hands of 7 - a cards from the other 20 (9s worth 0)
    total = sum(comb(4, a) * c for a in (1, 2)
                for v, c in value_counts([10, 4, 3, 2] * 4, 4, 7 - a).items() if 11 * a + v >= 45)
    assert_binomial(int((dealt.attempts == 1).sum()), n, total / comb(24, 7))


def test_500_classes_are_met_at_their_exact_rate():
    """trumps_H: 14 cards (11 hearts, J♦, 2 jokers) of 46, hypergeometric; the strength count
    by the generating function of A4 K3 Q2 J1 ×4, HJ 6, LJ 5 and 28 cards worth 0."""
    from cardsim.games.g500.features import FEATURES
    n = 20_000
    dealt = deal_chunk(C.compile(Conditions("500", classes={1: HandClass(trumps={"H": (5, None)})})), SEED, 0, n)
    trumps = FEATURES.features["trumps_H"][0][0]
    assert all(bin(int(h) & trumps).count("1") >= 5 for h in dealt.hands[:, 1])
    assert_binomial(int((dealt.attempts == 1).sum()), n, stats.hypergeom(46, 14, 10).sf(4))

    dealt = deal_chunk(C.compile(Conditions("500", classes={0: "strength>=16"})), SEED, 0, n)
    p = probability([4, 3, 2, 1] * 4 + [6, 5], 28, 10, lambda v: v >= 16)
    assert_binomial(int((dealt.attempts == 1).sum()), n, p)


def test_every_dealt_hand_is_in_its_class():
    from cardsim.games.g500 import features as F500
    classes = {0: "hcp=8-14, H>=3, has AH, not KS", 2: "S<=2, bowers_D>=1, jokers<=1, trumps_D=3-6"}
    dealt = deal_chunk(C.compile(Conditions("500", hands={1: "HJ"}, classes=classes)), SEED, 0, 3000)
    out = np.zeros(F500.N_FEATURES, dtype=np.int64)
    ix = {name: i for i, name in enumerate(F500.NAMES)}
    for h0, h2 in dealt.hands[:, [0, 2]]:
        F500.hand_features(h0, out)
        assert 8 <= out[ix["hcp"]] <= 14 and out[ix["H"]] >= 3
        assert "AH" in tokens("500", h0) and "KS" not in tokens("500", h0)
        F500.hand_features(h2, out)
        assert out[ix["S"]] <= 2 and out[ix["bowers_D"]] >= 1 and out[ix["jokers"]] <= 1
        assert 3 <= out[ix["trumps_D"]] <= 6


def test_features_agree_with_the_engines_own_counts():
    from cardsim.games.g501 import features as F501
    from cardsim.games.g501.rules import hand_points, marriage_suits
    from cardsim.games.vint import features as FV
    from cardsim.games.vint.rules import high_card_points, honours_held
    hands = deal_chunk(C.compile(Conditions("vint")), SEED, 0, 500).hands
    out = np.zeros(FV.N_FEATURES, dtype=np.int64)
    for h in hands[:, 0]:
        FV.hand_features(h, out)
        assert out[FV.NAMES.index("hcp")] == high_card_points(h)
        for s, name in enumerate("SCDH"):
            four = np.array([h, 0, 0, 0], dtype=np.uint64)
            assert out[FV.NAMES.index(f"honours_{name}")] == honours_held(four, 0, s)
    hands = deal_chunk(C.compile(Conditions("501")), SEED, 0, 500).hands
    out = np.zeros(F501.N_FEATURES, dtype=np.int64)
    for h in hands[:, 0]:
        F501.hand_features(h, out)
        assert out[F501.NAMES.index("points")] == hand_points(h)
        assert out[F501.NAMES.index("marriages")] == bin(marriage_suits(h)).count("1")


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("game,conds", [
    ("vint", dict(hands={2: "H:AKQJ"}, classes={0: "hcp>=14, S>=5"})),
    ("501", dict(seats=4, talon="S:A", classes={1: "marriages>=1", 3: "points>=35"})),
    ("500", dict(classes={0: "trumps_H>=6"})),
])
def test_deals_do_not_depend_on_chunking(game, conds):
    compiled = C.compile(Conditions(game, **conds))
    whole = deal_chunk(compiled, SEED, 100, 600)
    parts = [deal_chunk(compiled, SEED, 100 + a, b - a) for a, b in ((0, 1), (1, 250), (250, 600))]
    for name in ("dealers", "hands", "talons", "attempts"):
        assert (getattr(whole, name) == np.concatenate([getattr(p, name) for p in parts])).all()
    again = deal_chunk(C.compile(Conditions(game, **conds)), SEED, 100, 600)
    assert (again.hands == whole.hands).all()
    assert (whole.attempts > 1).any()


# ---------------------------------------------------------------- syntax
def test_hand_and_class_syntax():
    assert C.parse_hand("vint", "s:A1086 h:kq d:- JC") == C.parse_hand("vint", "AS TS 8S 6S KH QH JC")
    assert C.hand_text("vint", C.parse_hand("vint", GIVEN_VINT)) == GIVEN_VINT
    assert C.hand_text("500", C.parse_hand("500", "LJ HJ D:J4")) == "HJ LJ D:J4"
    classes = C.parse_classes("500", "seat 1: hcp=10-15, h>=5, trumps_h>=6, has HJ D:J; seat 3: not AS, S<3", seat=0)
    assert classes[1].resolved("500") == ({"hcp": (10, 15), "H": (5, None), "trumps_H": (6, None)},
                                          C.parse_hand("500", "HJ JD"), [])
    assert classes[3].resolved("500") == ({"S": (None, 2)}, [], C.parse_hand("500", "AS"))
    assert C.parse_classes("vint", "hcp>=12, hcp<15", seat=2)[2].resolved("vint")[0] == {"hcp": (12, 14)}
    for game, text in (("vint", "hcp=15-17, H>=5, aces=1-2, honours_S>=3, has AS KH, not QS"),
                       ("501", "points>=50, marriages=1-2, tens<=1, D<=1"),
                       ("500", "strength=12-20, jokers=2, bowers_H=2, trumps_C<=3, S=0")):
        cls = C.parse_class(game, text)
        assert C.parse_class(game, cls.text(game)).resolved(game) == cls.resolved(game)
    assert HandClass(hcp=(12, None), lengths={"H": 5}).text("vint") == "hcp>=12, H=5"


# ---------------------------------------------------------------- errors
BAD = [
    (lambda: C.parse_classes("vint", "hcp>=", seat=0), r"bad class 'hcp>=': it ends too early"),
    (lambda: C.parse_classes("vint", "hcp>>3", seat=0), r"unexpected '>' at column 5"),
    (lambda: C.parse_classes("vint", "hcp=12 H>=5", seat=0), r"unexpected 'H' at column 8"),
    (lambda: C.parse_classes("vint", "hcp>=12"), r"say which seat"),
    (lambda: C.parse_classes("vint", "seat 1: hcp>=3; seat 1: H=2"), r"seat 1 has two scopes"),
    (lambda: C.parse_classes("vint", "jokers=1", seat=0), r"unknown vint feature 'jokers'"),
    (lambda: C.parse_classes("vint", "marriages>=1", seat=0), r"unknown vint feature 'marriages'"),
    (lambda: C.parse_classes("500", "bowers_X=1", seat=0), r"unknown 500 feature 'bowers_X'"),
    (lambda: C.parse_classes("vint", "hcp=17-15", seat=0), r"'hcp=17-15' is empty \(min > max\)"),
    (lambda: C.parse_classes("vint", "hcp>=15, hcp<=12", seat=0), r"hcp: the clauses leave no value"),
    (lambda: C.parse_hand("501", "S:AK8"), r"'8S' is not a 501 card"),
    (lambda: C.parse_hand("vint", "HJ S:A"), r"'HJ' is not a vint card"),
    (lambda: C.parse_hand("vint", "S:AKA"), r"card AS appears twice"),
    (lambda: C.parse_hand("vint", "S:AK1"), r"bad hand 'S:AK1': unexpected '1'"),
    (lambda: C.parse_hand("vint", "S:- AS KS"), r"hand 'S:- AS KS': S:- says it has no S, yet it is given AS KS"),
    (lambda: C.parse_hand("500", "S:AK D:J ♠:-"), r"S:- says it has no S, yet it is given AS KS$"),
    (lambda: C.compile(Conditions("vint", hands={0: "D:-"}, classes={0: "D>=2"})),
     r"seat 0: D:- \(no D\) contradicts D>=2"),
    (lambda: C.parse_classes("vint", "has AS D:-", seat=0),
     r"seat 0: 'has' clause: a void \(D:-\) is not a card; a class says it as D=0"),
    (lambda: C.compile(Conditions("vint", classes={0: HandClass(excluded="D:-")})), r"a void \(D:-\) is not a card"),
    (lambda: C.compile(Conditions("vint", hands={0: "D:-"}, classes={0: "has AD"})), r"seat 0: D=0 is impossible"),
    (lambda: C.compile(Conditions("bridge")), r"unknown game 'bridge'"),
    (lambda: C.compile(Conditions("vint", hands={0: "AS", 2: "S:KA"})), r"card AS is given twice \(seat 0 and seat 2\)"),
    (lambda: C.compile(Conditions("vint", hands={0: "S:AKQJT98765432 H:A"})), r"seat 0 is given 14 cards; a vint hand holds 13"),
    (lambda: C.compile(Conditions("500", talon="S:AKQJT98")), r"the talon is given 7 cards; a 500 talon holds 6"),
    (lambda: C.compile(Conditions("vint", talon="AS")), r"vint has no talon"),
    (lambda: C.compile(Conditions("vint", hands={4: "AS"})), r"seat 4 does not exist at a 4-seat table"),
    (lambda: C.compile(Conditions("501", classes={3: "points>=10"})), r"seat 3 does not exist at a 3-seat table"),
    (lambda: C.compile(Conditions("501", seats=5)), r"501 is played with 3 or 4 seats, not 5"),
    (lambda: C.compile(Conditions("vint", classes={0: HandClass(hcp=(17, 15))})), r"hcp: the range 17-15 is empty"),
    (lambda: C.compile(Conditions("vint", classes={0: HandClass(hcp="lots")})), r"hcp: a range is a whole number"),
    (lambda: C.compile(Conditions("vint", classes={0: "S>=5, H>=5, D>=4"})), r"seat 0: the suit lengths cannot add up to 13"),
    (lambda: C.compile(Conditions("vint", classes={0: "S<=3, H<=3, D<=3, C<=3"})), r"suit lengths cannot add up"),
    (lambda: C.compile(Conditions("vint", classes={0: "has AS, not AS"})), r"seat 0: AS is both required and excluded"),
    (lambda: C.compile(Conditions("vint", hands={1: "AS"}, classes={0: "has AS"})), r"requires AS, which is given to seat 1"),
    (lambda: C.compile(Conditions("500", talon="AS", classes={0: "has AS"})), r"requires AS, which is given to the talon"),
    (lambda: C.compile(Conditions("500", classes={0: "has HJ", 2: "has HJ"})),
     r"seat 2: requires HJ, which seat 0 also requires: no deal has both"),
    (lambda: C.compile(Conditions("vint", hands={0: "AS"}, classes={0: "not AS"})), r"excludes AS, which it is given"),
    (lambda: C.compile(Conditions("vint", classes={0: "hcp>=38"})), r"seat 0: hcp>=38 is impossible: its hand can only have hcp 0-37"),
    (lambda: C.compile(Conditions("vint", classes={0: "aces=5"})), r"aces=5 is impossible"),
    (lambda: C.compile(Conditions("vint", hands={0: GIVEN_VINT}, classes={0: "hcp<=12"})), r"hcp<=12 is impossible: its hand can only have hcp 15$"),
    (lambda: C.compile(Conditions("vint", hands={1: "AS AH", 2: "AD"}, classes={0: "aces>=2"})), r"aces>=2 is impossible"),
    (lambda: C.compile(Conditions("500", classes={0: "jokers=3"})), r"jokers=3 is impossible"),
    # Counts of disjoint card sets that cannot fit one hand, and minimums that no deck holds
    # between the seats: impossible on their face, not a million attempts and "too rare".
    (lambda: C.compile(Conditions("501", classes={0: "aces=4, tens=4"})),
     r"seat 0: aces=4, tens=4 is impossible: it needs 8 cards besides those given and a 501 hand of 7 has 7"),
    (lambda: C.compile(Conditions("vint", classes={0: "aces=4, kings=4, queens=4, jacks=2"})),
     r"needs 14 cards besides those given and a vint hand of 13 has 13 places left"),
    (lambda: C.compile(Conditions("vint", hands={0: "AS KS QS"}, classes={0: "aces=4, kings=4, queens=4, jacks=2"})),
     r"needs 11 cards besides those given and a vint hand of 13 has 10 places left"),
    # Clauses that each hold alone but not together (a 0/1 integer program over the cards).
    (lambda: C.compile(Conditions("vint", classes={0: "honours_S>=5, S<=4"})),
     r"seat 0: S<=4, honours_S>=5 is impossible: no 13-card vint hand meets them together$"),
    (lambda: C.compile(Conditions("vint", classes={0: "hcp>=20, aces=0, kings=0"})),
     r"seat 0: hcp>=20, aces=0, kings=0 is impossible: no 13-card vint hand meets them together"),
    (lambda: C.compile(Conditions("vint", classes={0: "hcp>=2, S<=2, honours_S=3"})), r"seat 0: S<=2, honours_S=3 is"),
    (lambda: C.compile(Conditions("vint", hands={0: "S:AKQJ"}, classes={0: "honours_S=5, S=4"})),
     r"seat 0: S=4, honours_S=5 is impossible: no 13-card vint hand with its given, required and excluded cards"),
    (lambda: C.compile(Conditions("500", classes={0: "aces=0, side_aces_H>=1"})),
     r"aces=0, side_aces_H>=1 is impossible"),
    (lambda: C.compile(Conditions("500", classes={0: "trumps_H<=1, jokers=2, H>=1"})),
     r"jokers=2, trumps_H<=1 is impossible: no 10-card 500"),
    (lambda: C.compile(Conditions("500", hands={0: "H:-"}, classes={0: "top_H=5"})), r"H=0, top_H=5 is impossible"),
    (lambda: C.compile(Conditions("501", classes={0: "aces=0, points>=53"})), r"points>=53, aces=0 is impossible"),
    (lambda: C.compile(Conditions("vint", classes={0: "S>=7", 2: "S>=7"})),
     r"seat 0: S>=7; seat 2: S>=7 is impossible: those hands would hold 14 S and the deck has 13"),
    (lambda: C.compile(Conditions("vint", classes={0: "hcp>=30", 2: "hcp>=15"})),
     r"those hands would hold 45 hcp and the deck has 40"),
    (lambda: C.compile(Conditions("501", seats=4, dealer=1, hands={1: "AS"})), r"seat 1 deals and sits out"),
    (lambda: C.compile(Conditions("501", seats=4, classes={s: "points>=1" for s in range(4)})), r"at most 3 seats"),
    (lambda: C.compile(Conditions("vint", classes={0: 12})), r"a HandClass or a class string"),
    (lambda: deal_chunk(C.compile(Conditions("vint", classes={0: "hcp>=31"})), SEED, 7, 5, max_attempts=2000),
     r"vint deal 7 of seed 2024: no deal in 2,000 attempts met seat 0: hcp>=31; the class is too rare"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:30] for _, m in BAD])
def test_bad_conditions_raise_one_line_condition_errors(call, message):
    with pytest.raises(ConditionError, match=message) as info:
        call()
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_classes_that_fit_exactly_are_possible():
    """The new checks refuse only what cannot be dealt: 13 honours in one hand, or 13 spades
    between two, still deal."""
    C.compile(Conditions("vint", classes={0: "aces=4, kings=4, queens=4, jacks=1"}))
    C.compile(Conditions("vint", classes={0: "S>=7", 2: "S>=6"}))
    C.compile(Conditions("vint", classes={0: "hcp>=25", 2: "hcp>=15"}))
    C.compile(Conditions("501", classes={0: "aces=4, tens=3"}))
    # clauses that fit together exactly
    C.compile(Conditions("vint", classes={0: "honours_S=5, S<=5"}))
    C.compile(Conditions("vint", classes={0: "hcp>=24, aces=0"}))
    C.compile(Conditions("500", classes={0: "aces=0, side_aces_H=0, trumps_H=10"}))
    C.compile(Conditions("501", classes={0: "aces=0, points>=52"}))


def test_max_attempts_default_is_documented():
    assert MAX_ATTEMPTS == 1_000_000


def test_dealing_seconds_grows_with_the_rarity_of_the_class():
    from cardsim.deal import dealing_seconds

    common = C.compile(Conditions("vint", classes={0: "hcp>=10"}))
    rare = C.compile(Conditions("vint", classes={0: "hcp>=22"}))  # about 1 hand in 1,000
    assert 0 < dealing_seconds(common, SEED, 10_000, budget=0.2) < dealing_seconds(rare, SEED, 10_000, budget=0.2)
    assert dealing_seconds(common, SEED, 1) == 0.0


def test_a_number_too_long_to_read_says_so_not_the_parsers_rule():
    with pytest.raises(ConditionError, match=r"bad class .*: 'Exceeds the limit \(4300 digits\)") as info:
        C.parse_classes("vint", "hcp>=" + "9" * 5000, 0)
    assert "process rule" not in str(info.value) and len(str(info.value)) < 400
