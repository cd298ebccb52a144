"""Strategy versions (Registry.add_version): a registered name with the same engine id as the strategy
it copies and default parameter values of its own."""
from __future__ import annotations

import pytest

from cardsim.strategies.registry import Registry


def _toy() -> Registry:
    r = Registry("toy")
    r.add("base", 1, {"a": 1.0, "b": 2.0}, "the base", {"a": "meaning of a"}, {"a": (0, 5)}, {"b": "int"})
    return r


def test_a_version_is_the_same_engine_strategy_with_its_own_defaults():
    r = _toy()
    v = r.add_version("base_v1", of="base", params={"a": 3.0}, doc="the old one")
    base = r["base"]
    assert (v.id, v.version_of, v.doc, v.params) == (1, "base", "the old one", {"a": 3.0, "b": 2.0})
    assert (v.param_docs, v.bounds, v.kinds) == (base.param_docs, base.bounds, base.kinds)
    assert base.params == {"a": 1.0, "b": 2.0} and base.version_of is None
    assert r.names() == ["base", "base_v1"]
    strategy, vec = r.resolve("base_v1")
    assert strategy is v and list(vec[:2]) == [3.0, 2.0]
    assert list(r.resolve("base_v1:b=4")[1][:2]) == [3.0, 4.0]
    assert list(r.resolve("base:a=3")[1]) == list(vec)


@pytest.mark.parametrize("kwargs, message", [
    (dict(name="base", of="base", params={}), "already registered"),
    (dict(name="v", of="nope", params={}), "unknown toy strategy 'nope'"),
    (dict(name="v", of="base", params={"c": 1.0}), "'base' has no parameter 'c'"),
    (dict(name="v", of="base", params={"a": 9.0}), "parameter 'a' of 'base' must be a number from 0 to 5"),
    (dict(name="v", of="base", params={"b": 2.5}), "must be a whole number"),
])
def test_add_version_errors(kwargs, message):
    r = _toy()
    with pytest.raises(ValueError, match=message):
        r.add_version(doc="", **kwargs)
    assert r.names() == ["base"]


def test_a_new_strategy_still_may_not_take_a_versions_id():
    r = _toy()
    r.add_version("base_v1", of="base", params={}, doc="")
    with pytest.raises(ValueError, match="already registered"):
        r.add("other", 1)


