"""A forced trump is played as well in one suit as in another (issue "Right answers to every
question"): on a hand symmetric between two suits, the contract forced in either suit scores the
same, in every pair of suits and in all three games.

`cardsim evaluate 501 --seat 0 --hand "S:AT9 H:AT9 D:K" --option =100/S/100 --option =100/H/100
-n 40000 --seed 31` called hearts clearly better by 3.8 [2.7, 5.0] points: the forced contract
kept the gifts the declarer's strategy had chosen for its own trump.  Now the gifts and target
are chosen for the forced trump (g501 dispatch.choose_contract_in).

The play's own tie-breaks follow the suit order (the lowest card index first), so the outcomes
are not exactly equal under a suit permutation; the check is statistical: the paired difference
between the two suits, on the same deals with fixed seeds, lies within a family-wise 95%
interval of 0 (Bonferroni over every pair of suits of the three games).
"""
from __future__ import annotations

import itertools

import pytest
from scipy.stats import norm

import cardsim

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
    strategy chooses for that trump from his ten (strategies.choose_gifts), and the records replay."""
    from cardsim import questions as E
    from cardsim.cards import RANKS_501, parse_card
    from cardsim.games.g501 import strategies as S

    q = E.question("501", seat=0, hand="S:AT9 H:AT9 D:K", options=["=100/S/100", "=100/H/100"], n=40, seed=31)
    differ = 0
    for option, trump in ((0, "S"), (1, "H")):
        for rec in E.records(q, range(40), option=option):
            assert rec["contract"]["trump"] == trump and rec["contract"]["target"] == 100
            ten = sum(1 << parse_card(c, RANKS_501) for c in rec["hands"][0] + rec["talon"])
            want = {int(c) for c in S.choose_gifts(ten, "SCDH".index(trump))}
            given = {parse_card(c, RANKS_501) for c in rec["contract"]["give"].values()}
            assert given == want, rec
            own = {int(c) for c in S.choose_gifts(ten, S.best_trump(ten)[0])}
            differ += own != want  # deals where the old gifts (for his own trump) were others
            assert cardsim.replay(rec) == rec["result"]
    assert differ > 10
