"""A forced trump is played as well in one suit as in another (issue "Right answers to every
question"): on a hand symmetric between two suits, the contract forced in either suit scores the
same, in every pair of suits and in all three games.

`cardsim evaluate 501 --seat 0 --hand "S:AT9 H:AT9 D:K" --option =100/S/100 --option =100/H/100
-n 40000 --seed 31` called hearts clearly better by 3.8 [2.7, 5.0] points: the forced contract
kept the gifts the declarer's strategy had chosen for its own trump.  Now the gifts and target
are chosen for the forced trump (g501 dispatch.choose_contract_in).  That left spades better by
1.3 [0.3, 2.3]: the 501 strategies broke ties by the suit's index (equal gifts, equal cards to
lead or throw).  They now decide through the seat's own random suit order (cardsim.suit_order),
so in 501 the play on a deal with its suits swapped is the mirror image of the play on the deal
when each seat's order is the mirrored one: the test of that is exact, deal by deal.

Five Hundred and Vint keep the statistical check: the paired difference between the two suits,
on the same deals with fixed seeds, lies within a family-wise 95% interval of 0 (Bonferroni over
every pair of suits of the three games).
"""
from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest
from scipy.stats import norm

import cardsim
from cardsim import questions as Q
from cardsim.deal import DealtChunk
from cardsim.rng import seed_stream
from cardsim.suit_order import order_of

SUITS = "SCDH"
PAIRS = list(itertools.combinations(SUITS, 2))
FAMILY = 0.95
Z = float(norm.ppf(1 - (1 - FAMILY) / (2 * 3 * len(PAIRS))))
"""Two-sided normal quantile of each interval: family-wise 95% over the 18 comparisons (about 2.99)."""


def _hand(game: str, x: str, y: str) -> str:
    """A hand the same in ``x`` and ``y`` (the other suits' cards fixed under swapping them)."""
    rest = [s for s in SUITS if s not in (x, y)]
    if game == "501":
        return f"{x}:AT9 {y}:AT9 {rest[0]}:K"
    if game == "500":
        # no jacks: a swap of x and y (and of their colour mates, both empty) keeps the hand
        return f"{x}:AKQ97 {y}:AKQ97"
    return f"{x}:AKQJ2 {y}:AKQJ2 {rest[0]}:543"


QUESTIONS = {
    # game: (options of a trump, outcome, deals)
    "501": (lambda t: f"=100/{t}/100", "deal", 20_000),
    "500": (lambda t: f"=7{t}", "tricks", 4_000),
    "vint": (lambda t: f"=4{t}", "tricks", 4_000),
}


@pytest.mark.parametrize("game", sorted(QUESTIONS))
@pytest.mark.parametrize("x, y", PAIRS)
def test_a_symmetric_hand_scores_the_same_in_either_forced_trump(game, x, y):
    option, outcome, n = QUESTIONS[game]
    df = cardsim.evaluate(game, seat=0, hand=_hand(game, x, y), options=[option(x), option(y)], n=n, seed=31,
                          outcome=outcome, n_jobs=1).set_index("option")
    worse = df.index[1]
    diff, lo, hi = df.loc[worse, ["diff", "diff_lo", "diff_hi"]]
    se = (hi - lo) / (2 * norm.ppf(0.975))
    assert abs(diff) <= Z * se, (game, x, y, df[["score", "diff", "diff_lo", "diff_hi"]].to_dict())


def test_the_failing_501_question_no_longer_favours_hearts():
    """The exact question of the report, at a size a test affords (10,000 deals, seed 31): before
    the fix hearts scored 3.8 points a deal more than spades (40,000 deals)."""
    df = cardsim.evaluate("501", seat=0, hand="S:AT9 H:AT9 D:K", options=["=100/S/100", "=100/H/100"], n=10_000,
                          seed=31, n_jobs=1).set_index("option")
    assert (df.legal == 1.0).all() and (df.n == 10_000).all()
    lo, hi = df.loc[df.index[1], ["diff_lo", "diff_hi"]]
    assert lo <= 0 <= hi, df


def test_a_forced_trump_gets_the_gifts_chosen_for_it():
    """Deal by deal, the declarer of ``=100/S/100`` and ``=100/H/100`` gives the two cards his
    strategy chooses for that trump from his ten (strategies.choose_gifts, seen through his suit
    order: cardsim.suit_order, drawn from his stream word), and the records replay."""
    from cardsim import questions as E
    from cardsim import suit_order as SO
    from cardsim.cards import RANKS_501, parse_card
    from cardsim.games.g501 import strategies as S
    from cardsim.rng import stream

    def gifts(ten, trump, order):
        return {int(SO.card_from_label(c, order))
                for c in S.choose_gifts(SO.cards_to_label(np.uint64(ten), order), SO.to_label(trump, order))}

    q = E.question("501", seat=0, hand="S:AT9 H:AT9 D:K", options=["=100/S/100", "=100/H/100"], n=40, seed=31)
    differ = 0
    for option, trump in ((0, "S"), (1, "H")):
        for i, rec in enumerate(E.records(q, range(40), option=option)):
            assert rec["contract"]["trump"] == trump and rec["contract"]["target"] == 100
            order = SO.order_of(stream(q.deal(i, 1).keys[0], 1)[0])  # seat 0's stream word
            ten = sum(1 << parse_card(c, RANKS_501) for c in rec["hands"][0] + rec["talon"])
            want = gifts(ten, "SCDH".index(trump), order)
            given = {parse_card(c, RANKS_501) for c in rec["contract"]["give"].values()}
            assert given == want, rec
            own = gifts(ten, SO.from_label(S.best_trump(SO.cards_to_label(np.uint64(ten), order))[0], order), order)
            differ += own != want  # deals where the old gifts (for his own trump) were others
            assert cardsim.replay(rec) == rec["result"]
    assert differ > 10


# ------------------------------------------------------------------ 501: mirrored deals, exactly
@numba.njit
def _seat_orders(keys, seats):
    """Each seat's suit order (its forward byte: the label of each suit, 2 bits a suit) as the
    501 dispatch draws it from the seat's fresh stream word (a forced contract skips the auction,
    so no draw comes before), for deal keys ``keys`` (uint64[n]) -> int64[n, seats]."""
    out = np.zeros((keys.shape[0], seats), dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(keys.shape[0]):
        for s in range(seats):
            seed_stream(state, keys[i], 1 + s)
            out[i, s] = order_of(state[0]) & 0xFF
    return out


RANK_BITS = {"501": 0x3F, "500": 0x7FF, "vint": 0x1FFF}
"""The rank bits of a suit's lane (500: 4..A; its jokers sit above them in the spade lane and stay)."""


def _swap_lanes(hands, a, b, game="501"):
    """Bit sets (uint64 array) with the cards of suits ``a`` and ``b`` exchanged."""
    h, m = np.asarray(hands, dtype=np.uint64), np.uint64(RANK_BITS[game])
    la, lb = (h >> np.uint64(16 * a)) & m, (h >> np.uint64(16 * b)) & m
    rest = h & ~((m << np.uint64(16 * a)) | (m << np.uint64(16 * b)))
    return rest | (la << np.uint64(16 * b)) | (lb << np.uint64(16 * a))


def _mirror_keys(keys, seats, a, b):
    """For every deal key, a key whose seat orders are the mirror of its own (the label of suit t
    is the label the original gave to suit t with a and b swapped): found among 2**19 keys, about
    38 for each of the 24**3 triples of orders."""
    swap = list(range(4))
    swap[a], swap[b] = b, a
    pool = np.arange(1, 2**19 + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    codes = _seat_orders(pool, seats)
    table = dict(zip((sum(codes[:, s] << (8 * s) for s in range(seats))).tolist(), pool.tolist()))
    want = [sum(sum(((int(f) >> (2 * swap[t])) & 3) << (2 * t) for t in range(4)) << (8 * s)
                for s, f in enumerate(row)) for row in _seat_orders(np.asarray(keys, dtype=np.uint64), seats)]
    return np.array([table[w] for w in want], dtype=np.uint64)


def _mirrored_rows(strategy, x, y, n):
    """The rows of deals 0..n-1 of seed 31 (seat 0 holding :func:`_hand`) with the trump forced in
    ``x``, and of the same deals with suits ``x`` and ``y`` swapped in every hand and the talon,
    ``y`` forced and each seat's suit order mirrored."""
    hand = _hand("501", x, y)
    q = Q.question("501", seat=0, hand=hand, options=[f"=100/{x}/100", f"=100/{y}/100"], n=n, seed=31,
                   strategies=strategy)
    a, b = SUITS.index(x), SUITS.index(y)
    dealt = q.deal(0, n)
    seats = q.run.setup.seats
    mirrored = DealtChunk(dealt.dealers, _swap_lanes(dealt.hands, a, b), _swap_lanes(dealt.talons, a, b),
                          dealt.attempts, _mirror_keys(dealt.keys, seats, a, b), dealt.tested)
    play = q.spec.forcing.play_given
    rows, _ = play(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    mirror, _ = play(q.run.seed, 0, mirrored, q.run.setup, q.forced[1], q.before)
    assert (rows["trump"] == a).all() and (mirror["trump"] == b).all() and rows["played"].all()
    return rows, mirror


@pytest.mark.parametrize("strategy", ["heuristic", "chart"])
@pytest.mark.parametrize("x, y", PAIRS)
def test_501_mirrored_deals_play_exactly_the_same(strategy, x, y):
    """On a deal and its mirror (:func:`_mirrored_rows`) every column of the result (each seat's
    card points, marriages and score change, made, target) is the same, deal by deal.  Before the
    seat orders (ties by the suit's index) 337 of 4,000 deals of S/H differed."""
    rows, mirror = _mirrored_rows(strategy, x, y, 1_500)
    for column in rows.dtype.names:
        if column != "trump":
            assert (rows[column] == mirror[column]).all(), column
    # the deals differ from one another (the equality is not trivial): made and set, many card counts
    assert 0 < rows["made"].mean() < 1 and len(set(rows["cards_0"])) > 20


def test_501_the_declarers_own_trump_is_the_mirror_on_mirrored_deals():
    """``=100`` (the declarer chooses the trump, gifts and target; he may abandon) on a deal and on its
    mirror with S and H swapped and each seat's order mirrored: the trump is the mirror image
    (S <-> H, the others kept) and every other column is equal, deal by deal.  Spades and hearts tie
    in his estimate on this hand, so the seat's order decides between them."""
    n = 1_500
    q = Q.question("501", seat=0, hand="S:AT9 H:AT9 D:K", options=["=100"], n=n, seed=31)
    dealt = q.deal(0, n)
    seats = q.run.setup.seats
    mirrored = DealtChunk(dealt.dealers, _swap_lanes(dealt.hands, 0, 3), _swap_lanes(dealt.talons, 0, 3),
                          dealt.attempts, _mirror_keys(dealt.keys, seats, 0, 3), dealt.tested)
    play = q.spec.forcing.play_given
    rows, _ = play(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    mirror, _ = play(q.run.seed, 0, mirrored, q.run.setup, q.forced[0], q.before)
    swap = np.array([3, 1, 2, 0, 4])  # trump S C D H NT -> its mirror
    trump = rows["trump"].astype(int)
    assert (np.where(trump >= 0, swap[trump], trump) == mirror["trump"]).all()
    for column in rows.dtype.names:
        if column != "trump":
            assert (rows[column] == mirror[column]).all(), column
    assert (trump == 0).sum() > 100 and (trump == 3).sum() > 100  # both suits of the tie are declared


def test_501_legacy_heuristic_v2_still_favours_a_suit_by_its_label():
    """heuristic_v2 (the default before the suit orders, kept to reproduce old results) breaks ties
    by the suit's index: the same mirrored comparison finds deals that differ (the check can fail)."""
    rows, mirror = _mirrored_rows("heuristic_v2", "S", "H", 1_500)
    assert (rows["cards_0"] != mirror["cards_0"]).sum() > 20


# ------------------------------------------------------------------ 500 and Vint: mirrored deals
def _mirrored_tricks(game, x, y, n):
    """Tricks of seat 0's side on deals 0..n-1 of seed 31 with the contract forced in ``x``, and on the
    same deals with suits ``x`` and ``y`` swapped, forced in ``y`` (the same strategy streams)."""
    option = QUESTIONS[game][0]
    q = Q.question(game, seat=0, hand=_hand(game, x, y), options=[option(x), option(y)], n=n, seed=31,
                   outcome="tricks")
    a, b = SUITS.index(x), SUITS.index(y)
    dealt = q.deal(0, n)
    mirrored = DealtChunk(dealt.dealers, _swap_lanes(dealt.hands, a, b, game), _swap_lanes(dealt.talons, a, b, game),
                          dealt.attempts, dealt.keys, dealt.tested)
    play = q.spec.forcing.play_given
    rows, _ = play(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    mirror, _ = play(q.run.seed, 0, mirrored, q.run.setup, q.forced[1], q.before)
    return rows["tricks_0"], mirror["tricks_0"]


@pytest.mark.parametrize("x, y", [("S", "C"), ("D", "H")])
def test_500_mirrored_deals_take_the_same_tricks(x, y):
    """Five Hundred: swapping a suit with its colour mate is a symmetry of the deck and the bowers
    (the only ones: the black suits have no 4).  Its strategies break ties by the suit index, yet a
    swap of two neighbouring indices keeps every other suit's place in that order, so a deal and its
    mirror take exactly the same tricks, deal by deal."""
    rows, mirror = _mirrored_tricks("500", x, y, 2_000)
    assert (rows == mirror).all() and len(set(rows)) > 4


@pytest.mark.xfail(strict=True, reason="Vint's heuristic breaks ties by the suit index (the first differing "
                   "card is mostly the opening lead: 37 of 75 differing deals of 2,000): not equivariant under "
                   "S/H, whose indices are not neighbours (S/C and D/H deals play alike)")
def test_vint_mirrored_deals_take_the_same_tricks():
    rows, mirror = _mirrored_tricks("vint", "S", "H", 2_000)
    assert (rows == mirror).all()
