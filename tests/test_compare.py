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
