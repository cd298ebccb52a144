"""The one ranking of a question's options (cardsim.ranking): paired comparisons on shared deals,
used alike by the table, --until-clear, --robust and the charts' choice on half 0."""
import numpy as np
import pytest

from cardsim import ranking as K
from cardsim import robust as R
from cardsim import selection as SEL
from cardsim import sequential as S
from cardsim.questions import half_sums


def _disagreeing(n=200, wobble=0.0):
    """Per-deal scores (n deals, options A, B) where own-deal means and the paired difference
    disagree: A is legal on every deal, B only on the good two fifths.  A's mean over its deals is
    (3/5 x -100 + 2/5 x 200) = 20, B's 150; on the shared deals B - A = 150 - 200 = -50.
    ``wobble``: B's score on the good deals goes up and down by that much in turn (same means)."""
    scores = np.zeros((n, 2))
    legal = np.ones((n, 2), dtype=bool)
    good = np.arange(n) % 5 < 2  # deals 0, 1, 5, 6, 10, 11 ...: as many in either half
    scores[~good, 0], scores[good, 0] = -100.0, 200.0
    scores[good, 1] = 150.0 + wobble * np.resize([1.0, 1.0, -1.0, -1.0], good.sum())
    legal[~good, 1] = False
    return scores, legal


def test_paired_comparison_ranks_above_the_higher_own_deal_mean():
    scores, legal = _disagreeing()
    sums = S.sums_of(scores, legal)
    means = sums["s1"] / sums["legal"]
    assert means.tolist() == [20.0, 150.0]  # by own-deal means B would be first
    r = K.rank_sums(sums)
    assert r.order == (0, 1) and r.best == 0 and r.not_compared == ()
    assert r.position().tolist() == [1.0, 2.0] and r.score.tolist() == [1.0, -1.0]
    # a counting-down score (lower is better) turns the order round
    assert K.rank_sums(sums, sign=-1.0).order == (1, 0)


def test_until_clear_names_the_paired_best_when_nothing_is_clear():
    scores, legal = _disagreeing(wobble=300.0)  # B - A: -50 +- 300 on 80 deals, too wide to be clear
    sums = S.sums_of(scores, legal)
    assert (sums["s1"] / sums["legal"]).tolist() == [20.0, 150.0]
    look = S.judge(sums, 0.001)
    assert not look.clear and look.best == K.rank_sums(sums).best == 0


def test_robust_summary_takes_the_profiles_paired_best_and_runner_up():
    scores, legal = _disagreeing()
    scores = np.column_stack([scores, np.full(200, 10.0)])  # C: always legal, 10 a deal
    legal = np.column_stack([legal, np.ones(200, dtype=bool)])
    sums = S.sums_of(scores, legal)
    sums["s2"] = (np.where(legal, scores, 0.0) ** 2).sum(axis=0)
    # paired: A - C = 10 on 200 deals, B - C = 140 on 80, B - A = -50: A beats B and C, B beats C;
    # (by own-deal means the order would be B, A, C)
    assert K.rank_sums(sums).order == (0, 1, 2)
    s = R.profile_summary(["A", "B", "C"], sums, 2, 1.0)  # the default's best was C
    assert s["best"] == "A" and s["runner_up"] == "A" and s["gain"] == pytest.approx(-10.0)
    assert s["worse"] == pytest.approx(-10.0) and s["worse_hi"] > 0 and not s["clearly_worse"]
    s = R.profile_summary(["A", "B", "C"], sums, 0, 1.0)
    assert s["best"] == "A" and s["runner_up"] == "B" and s["gain"] == pytest.approx(50.0)


def test_chart_choice_on_half_zero_uses_the_paired_ranking():
    scores, legal = _disagreeing()
    sums = half_sums(0, [legal[:, 0], legal[:, 1]], [scores[:, 0], scores[:, 1]])
    assert SEL.half_means(sums)[SEL.CHOOSE].tolist() == [20.0, 150.0]
    split = SEL.split_best(sums, ["A", "B"])
    assert split["best"] == "A" and split["runner_up"] == "B"
    assert split["gain"] == pytest.approx(50.0) and split["n"] == 40.0  # half 1's shared deals


def test_a_cycle_is_ordered_by_the_mean_paired_margin():
    """A, B, C each legal together with one other on 40 deals of their own: A beats B by 10, B beats C
    by 5, C beats A by 1.  Each wins once and loses once; mean margins A (10 - 1) / 2, B (-10 + 5) / 2,
    C (-5 + 1) / 2: order A, C, B."""
    scores = np.zeros((120, 3))
    legal = np.zeros((120, 3), dtype=bool)
    for block, (a, b, d) in enumerate([(0, 1, 10.0), (1, 2, 5.0), (2, 0, 1.0)]):
        rows = slice(40 * block, 40 * block + 40)
        legal[rows, a] = legal[rows, b] = True
        scores[rows, a] = d
    r = K.rank_sums(S.sums_of(scores, legal))
    assert r.order == (0, 2, 1) and r.score.tolist() == [0.0, 0.0, 0.0]


def test_an_option_shared_on_too_few_deals_is_not_compared():
    scores = np.tile([5.0, 100.0, 0.0, 1.0], (200, 1))
    legal = np.ones((200, 4), dtype=bool)
    legal[29:, 1] = False  # B legal on 29 deals: too few to compare with anyone
    legal[:, 2] = False  # C never legal
    r = K.rank_sums(S.sums_of(scores, legal))
    assert r.order == (0, 3) and r.not_compared == (1, 2) and r.rows == [0, 3, 1, 2]
    assert np.isnan(r.position()[[1, 2]]).all()
    names = ["A", "B", "C", "D"]
    assert r.why(1, names) == "legal on 29 deals only, fewer than the 30 needed to rank it"
    assert r.why(2, names) == "never legal"
    legal[29, 1] = True  # 30 shared deals: compared, and first (100 a deal)
    r = K.rank_sums(S.sums_of(scores, legal))
    assert r.order == (1, 0, 3) and r.not_compared == (2,)


def test_of_two_options_sharing_too_few_deals_the_one_legal_more_often_is_ranked():
    scores = np.tile([1.0, 2.0], (100, 1))
    legal = np.zeros((100, 2), dtype=bool)
    legal[:60, 0] = True
    legal[50:, 1] = True  # 10 shared deals; B scores more but is legal on fewer (50)
    r = K.rank_sums(S.sums_of(scores, legal))
    assert r.order == (0,) and r.not_compared == (1,) and r.shared == {1: (0, 10)}
    assert r.first_other(0) == 1 and r.first_other(1) == 0  # a replay of two options always has a runner-up
    assert r.why(1, ["A", "B"]) == "legal together with A on 10 deals, fewer than the 30 needed to compare them"


def test_with_too_few_deals_nothing_is_ranked_and_until_clear_names_no_best():
    scores = np.tile([1.0, 2.0, 3.0], (29, 1))  # every option legal, on 29 deals
    sums = S.sums_of(scores)
    r = K.rank_sums(sums)
    assert r.order == () and r.best == -1 and r.rows == [0, 1, 2]
    look = S.judge(sums, 0.01)
    assert look.best == -1 and not look.clear and np.isnan(look.lower).all()
    assert K.rank_sums(S.sums_of(np.tile([1.0, 2.0, 3.0], (30, 1)))).order == (2, 1, 0)


def test_with_every_option_legal_everywhere_the_order_is_that_of_the_means():
    rng = np.random.default_rng(3)
    scores = rng.integers(-5, 6, size=(300, 8)).astype(float)
    scores[:, 5] = scores[:, 2]  # an exact tie keeps option order
    sums = S.sums_of(scores)
    order = np.argsort(-sums["s1"] / 300, kind="stable")
    assert list(K.rank_sums(sums).order) == [int(i) for i in order]


def test_a_second_outcome_decides_pairs_equal_on_the_first():
    win = np.tile([1.0, 1.0, 0.0], (60, 1))
    points = np.tile([3.0, 7.0, 9.0], (60, 1))
    r = K.rank_sums(S.sums_of(win), then=S.sums_of(points))
    assert r.order == (1, 0, 2)
    sums = half_sums(0, [np.ones(60, dtype=bool)] * 3, list(win.T))
    other = half_sums(0, [np.ones(60, dtype=bool)] * 3, list(points.T))
    assert SEL.split_best_ties(sums, other, ["a", "b", "c"])["best_index"] == 1


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="same k"):
        K.rank(np.ones(3), np.ones((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="at least 1"):
        K.rank(np.ones(2), np.ones((2, 2)), np.zeros((2, 2)), minimum=0)
