"""Paired comparisons: same deals for every variant, exact differences."""
import numpy as np

import cardsim
from cardsim.analysis import g501
from cardsim.compare import compare


def test_identical_variant_differs_by_exactly_zero_and_diff_is_paired():
    t = compare("vint", 3000, "heuristic", {"same": "heuristic", "bold": "heuristic:aggression=1"},
                lambda df: df.total_0 - df.total_1, seed=4, chunk_size=1000)
    same = t[t.variant == "same"].iloc[0]
    assert same["diff"] == 0 and same.diff_se == 0 and not same.significant
    base = cardsim.simulate("vint", 3000, seed=4)
    bold = cardsim.simulate("vint", 3000, seed=4, strategies="heuristic:aggression=1")
    d = (bold.total_0 - bold.total_1).astype(float) - (base.total_0 - base.total_1).astype(float)
    row = t[t.variant == "bold"].iloc[0]
    assert row.n == 3000
    assert np.isclose(row["diff"], d.mean())
    assert np.isclose(row.diff_se, d.std(ddof=1) / np.sqrt(3000))
    assert np.isclose(t[t.variant == "baseline"].iloc[0]["mean"], (base.total_0 - base.total_1).mean())


def test_blind_sweep_table():
    variants = g501.blind_variants(levels=(70, 90), positions=(-1, 0))
    t = g501.blind_table(compare("501", 2000, {0: "heuristic:blind_prob=0"}, variants, g501.blind_measure, seed=2))
    assert list(t.position) == ["never blind", "any", "any", "0", "0"]
    assert t.blind_won.iloc[0] == 0 and (t.blind_won.iloc[1:] > 0).all()
    base = cardsim.simulate("501", 2000, seed=2, strategies={0: "heuristic:blind_prob=0"})
    assert np.isclose(t.delta.iloc[0], base.delta_0.mean())
    assert (t.n == 2000).all()


import pytest  # noqa: E402

from cardsim.games.base import OptionError  # noqa: E402


@pytest.mark.parametrize("kwargs,text", [
    ({"variants": {"x": "random"}, "measure": lambda df: df.total_0[df.declarer == 0]}, "one per deal"),
    ({"variants": {"x": "random"}, "measure": lambda df: df.total_0.where(df.made.fillna(False))}, "NaN"),
    ({"variants": {"x": "random"}, "measure": lambda df: df.made}, "fillna"),
    ({"variants": {"baseline": "random"}, "measure": lambda df: df.total_0}, "'baseline' names"),
    ({"variants": ["random"], "measure": lambda df: df.total_0}, "non-empty dict"),
    ({"variants": {"x": "random"}, "measure": lambda df: df.total_0, "level": 95}, "between 0 and 1"),
])
def test_compare_rejects_bad_arguments(kwargs, text):
    with pytest.raises(OptionError, match=text):
        compare("vint", 500, "heuristic", seed=1, **kwargs)


def test_501_blind_policy_never_bids_above_220():
    df = cardsim.simulate("501", 3000, seed=1, strategies="heuristic:blind_level=300,blind_cur=300,blind_prob=1")
    assert df.bid.max() <= 220 and df.blind.any()


# ---------------------------------------------------------------- whole games (compare_matches, side_share)
from cardsim.compare import compare_matches, win_share  # noqa: E402
from cardsim.match_compare import side_share  # noqa: E402


def test_compare_matches_is_paired_per_match():
    rules = {"target": 500}
    t = compare_matches("500", 400, "heuristic", {"same": "heuristic", "bold": "heuristic:margin=-1"}, seed=6,
                        rules=rules, chunk_size=150, n_jobs=1)
    same = t[t.variant == "same"].iloc[0]
    assert same["diff"] == 0 and same.diff_se == 0 and not same.significant
    base, _ = cardsim.play_match("500", 400, seed=6, rules=rules, n_jobs=1)
    bold, _ = cardsim.play_match("500", 400, seed=6, strategies="heuristic:margin=-1", rules=rules, n_jobs=1)
    d = win_share(bold) - win_share(base)
    row = t[t.variant == "bold"].iloc[0]
    assert row.n == 400 and np.isclose(row["diff"], d.mean()) and np.isclose(row.diff_se, d.std(ddof=1) / 20)
    assert np.isclose(t[t.variant == "baseline"].iloc[0]["mean"], win_share(base).mean())


def test_compare_matches_from_a_state_and_other_games():
    t = compare_matches("500", 50, "heuristic", {"x": "heuristic:margin=1"}, seed=2, before=[400, 300], dealer=1,
                        rules={"target": 500}, n_jobs=1)
    m, _ = cardsim.play_match("500", 50, seed=2, before=[400, 300], dealer=1, rules={"target": 500}, n_jobs=1)
    assert np.isclose(t.iloc[0]["mean"], win_share(m).mean())
    vint, _ = cardsim.play_match("vint", 5, seed=1, n_jobs=1)
    assert set(win_share(vint)) <= {0.0, 0.5, 1.0}
    g501, _ = cardsim.play_match("501", 20, seed=1, n_jobs=1)
    share = win_share(g501)
    assert share.between(0, 1).all() and np.isclose(share.sum() + sum(
        (g501[f"win_{s}"].astype(float) / g501.n_winners).sum() for s in (1, 2)), 20)


def test_side_share_swaps_the_seatings():
    same = side_share("500", 200, "heuristic", "heuristic", seed=1, rules={"target": 500}, n_jobs=1)
    assert same["share"] == 0.5 and same["lo"] == same["hi"] == 0.5 and same["n"] == 200
    r = side_share("500", 300, "heuristic:margin=3", "heuristic", seed=1, rules={"target": 500}, n_jobs=1)
    a, _ = cardsim.play_match("500", 300, seed=1, rules={"target": 500}, n_jobs=1,
                              strategies=["heuristic:margin=3", "heuristic"] * 2)
    b, _ = cardsim.play_match("500", 300, seed=1, rules={"target": 500}, n_jobs=1,
                              strategies=["heuristic", "heuristic:margin=3"] * 2)
    mine = (win_share(a) + 1 - win_share(b)) / 2  # the cautious side's share, each match
    assert np.isclose(r["share"], mine.mean()) and r["lo"] < r["share"] < r["hi"]
    assert r["hi"] < 0.5  # three tricks of safety lose games


@pytest.mark.parametrize("kwargs,text", [
    ({"variants": {}}, "non-empty dict"),
    ({"variants": {"baseline": "random"}}, "names the baseline"),
    ({"variants": {"x": "random"}, "measure": lambda m: m.deals[m.deals > 3]}, "one per"),
    ({"variants": {"x": "random"}, "level": 1.5}, "between 0 and 1"),
])
def test_compare_matches_errors(kwargs, text):
    with pytest.raises(OptionError, match=text):
        compare_matches("500", 20, "heuristic", n_jobs=1, **kwargs)
