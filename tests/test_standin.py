"""The stand-in arena (cardsim/standin.py, issue 46): an exactly known equilibrium and a planted parameter."""
import itertools

import numpy as np
import pandas as pd
import pytest

from cardsim import rng, standin
from cardsim.games.base import OptionError
from cardsim.strategies.registry import StrategyError


def test_draws_are_cardsim_rng_s_match_keys_and_streams():
    keys = standin.match_keys(12345, 1_000_000, 4)
    assert [int(k) for k in keys] == [int(rng.match_key(np.uint64(12345), 1_000_000 + i)) for i in range(4)]
    for index in (0, 1, 2):
        expected = [rng.uniform(rng.stream(k, index)) for k in keys]
        assert standin.uniforms(keys, index).tolist() == expected


def test_the_equilibrium_is_exact_and_the_game_constant_sum():
    eq = standin.EQUILIBRIUM
    steps = {k: t.step for k, t in standin.STANDIN.tunables.items()}
    for name, sign in itertools.product(steps, (-1, 1)):
        dev = dict(eq, **{name: eq[name] + sign * steps[name]})
        assert standin.win_probability(dev, eq) <= 0.5
        assert standin.win_probability(dev, eq) + standin.win_probability(eq, dev) == pytest.approx(1.0)
    assert standin.win_probability(dict(eq, w=0.7), eq) == 0.5  # w does nothing
    default = standin.arena().point("standin")
    assert default == dict(eq, x=0.3)  # the planted parameter: x four steps below its equilibrium
    assert standin.win_probability(dict(default, x=0.35), default) == pytest.approx(0.535)
    assert standin.win_probability(dict(default, x=0.25), default) == pytest.approx(0.455)


def test_gains_match_the_exact_probabilities():
    a = standin.arena()
    base = a.point("standin")
    t = a.gains(base, [{"x": 0.35}, {"x": 0.25}, {}, {"w": 0.1}], 1_000_000, seed=3, n_jobs=1)
    assert list(t.deviant) == ["standin:x=0.35", "standin:x=0.25", "standin", "standin:w=0.1"]
    assert (t.n == 1_000_000).all() and t.objective.eq("win").all()
    for gain, se, exact in zip(t.gain, t.se, [0.035, -0.045, 0.0, 0.0]):
        assert abs(gain - exact) < 4 * se + 1e-12
    assert t.gain[2] == 0.0 and t.se[2] == 0.0  # the baseline against itself: every match the same
    assert 0.0004 < t.se[3] < 0.0006  # paired half the time: sd 0.5 a match


def test_deterministic_any_jobs_and_resumable(tmp_path):
    a = standin.arena("standin:x=0.5")
    args = (a.point("standin:x=0.5"), [{"x": 0.45}, {"y": 0.45}, {"w": -0.1}], 600_000)
    one = a.gains(*args, seed=9, n_jobs=1)
    pd.testing.assert_frame_equal(one, a.gains(*args, seed=9, n_jobs=2))
    assert not one.gain.equals(a.gains(*args, seed=10, n_jobs=1).gain)
    a.gains(*args, seed=9, n_jobs=1, store=tmp_path / "s")
    chunks = sorted((tmp_path / "s").glob("chunk-*.pkl"))
    assert len(chunks) == 3
    chunks[2].unlink()
    pd.testing.assert_frame_equal(one, a.gains(*args, seed=9, n_jobs=1, store=tmp_path / "s"))


def test_bad_input():
    a = standin.arena()
    with pytest.raises(OptionError, match="no objective 'points'"):
        standin.arena(objective="points")
    with pytest.raises(StrategyError, match="no parameter 'q'"):
        a.spec({"q": 1})
    with pytest.raises(StrategyError, match="outside its tunable range 0 to 1"):
        a.spec({"x": 1.05})
    with pytest.raises(OptionError, match="number of matches"):
        a.gains(a.point("standin"), [{"x": 0.35}], 0, seed=1)
    with pytest.raises(OptionError, match="non-empty list"):
        a.gains(a.point("standin"), [], 10, seed=1)
