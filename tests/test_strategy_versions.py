"""Strategy versions (Registry.add_version): the previous default players stay registered under a name
of their own (Vint and Five Hundred ``heuristic_v4``, 501 ``heuristic_v3``), with the same engine id as
``heuristic`` and the parameter values that were the defaults before the tuned ones, so that
``--strategy heuristic_v4`` plays the old default's deals exactly (test_golden.py pins their digests to
the old default's)."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import cardsim
from cardsim.cli import main
from cardsim.games import get_game, package_of
from cardsim.strategies.registry import Registry, StrategyError

# The previous defaults' parameter values as the docs give them (docs/strategy-quality.md): what the
# kept version must play, whatever heuristic's defaults become.
PREVIOUS = {
    "vint": ("heuristic_v4", {"aggression": 0.0, "partner_points": 7.0, "partner_bid_points": 13.0,
                              "points_per_trick": 3.0, "contested_points": 6.0, "nt_margin": 0.5,
                              "misfit_share": 0.2, "honour_weight": 0.3, "game_push": 0.25, "play": 2.0}),
    "500": ("heuristic_v4", {"margin": 0.0, "partner": 2.6, "kitty": 0.7, "jump": 1.0, "nt_bias": 0.0,
                             "taper": 0.65, "pivot": 5.05, "score": 1.0, "stretch": 1.5, "stretch_sub": 2.0,
                             "near": 0.25}),
    "501": ("heuristic_v3", {"margin": 0.0, "abandon": 10.0, "target_margin": 12.0, "blind_level": 72.0,
                             "blind_pos": -1.0, "blind_score": 501.0, "blind_cur": 70.0, "blind_prob": 0.15,
                             "contest": 0.0, "press": 0.0, "press_score": 0.0, "blind_later": 1.0}),
}
GAMES = list(PREVIOUS)
# The strategy the kept versions are versions of: heuristic, but in 501 heuristic_v5 (heuristic's parameters
# with the card play before issue 47), so that heuristic_v3 and heuristic_v4 keep their old cards too.
BASE = {"vint": "heuristic", "500": "heuristic_v5", "501": "heuristic_v5"}


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


@pytest.mark.parametrize("game", GAMES)
def test_the_previous_default_is_kept_with_its_values(game):
    registry = get_game(game).table.registry
    name, values = PREVIOUS[game]
    kept, heuristic, base = registry[name], registry["heuristic"], registry[BASE[game]]
    assert kept.id == base.id and kept.version_of == BASE[game]
    assert kept.params == values and list(kept.params) == list(heuristic.params) == list(base.params)
    assert kept.params != heuristic.params  # the tuned defaults differ
    if BASE[game] == "heuristic" or game == "500":  # 500's heuristic_v5: the default's values, its earlier card play
        assert base.params == heuristic.params
    else:  # 501's heuristic_v5 keeps the default's values of when its card play was replaced, frozen
        from cardsim.games.g501.strategies import HEURISTIC_V5_PARAMS
        assert base.params == {**heuristic.params, **HEURISTIC_V5_PARAMS} != heuristic.params
    spec = BASE[game] + ":" + ",".join(f"{k}={v!r}" for k, v in values.items())
    assert np.array_equal(registry.resolve(name)[1], registry.resolve(spec)[1])
    assert "before the tuned parameters" in kept.doc


@pytest.mark.parametrize("game", GAMES)
def test_the_defaults_are_the_tuned_values_in_one_place(game):
    # heuristic's defaults are the module's HEURISTIC_DEFAULTS (one line to replace with a tune's
    # result), and what bids like heuristic with its parameters (pimc; 501's chart) shares them.
    spec = get_game(game)
    # Vint's "play" is the card-play version (issue 47), not a tuned bidding parameter
    tuned = {k: v for k, v in spec.table.registry["heuristic"].params.items() if k != "play"}
    strategies = importlib.import_module(package_of(game) + ".strategies")
    assert tuned == {**tuned, **strategies.HEURISTIC_DEFAULTS} and set(strategies.HEURISTIC_DEFAULTS) == set(tuned)
    pimc = spec.table.registry["pimc"].params
    assert {k: pimc[k] for k in tuned} == tuned
    if game == "501":
        chart = spec.table.registry["chart"].params
        assert chart == {k: tuned[k] for k in chart}


@pytest.mark.parametrize("game", GAMES)
def test_the_previous_default_plays_the_old_values_deal_for_deal(game):
    # The same rows as heuristic with the old values spelled out, and different rows from the new default.
    name, values = PREVIOUS[game]
    spelled = BASE[game] + ":" + ",".join(f"{k}={v!r}" for k, v in values.items())
    spec = get_game(game)
    kept = spec.play.simulate_chunk(11, 0, 2000, spec.setup(name))
    assert np.array_equal(kept, spec.play.simulate_chunk(11, 0, 2000, spec.setup(spelled)))
    assert not np.array_equal(kept, spec.play.simulate_chunk(11, 0, 2000, spec.setup("heuristic")))


def test_the_kept_name_is_what_results_record():
    frame = cardsim.simulate("vint", 20, seed=3, strategies="heuristic_v4")
    record = get_game("vint").play.make_records(3, [0], get_game("vint").setup("heuristic_v4"))[0]
    assert record["source"]["strategies"] == ["heuristic_v4"] * 4 and len(frame) == 20


def test_cli_lists_the_versions(capsys):
    assert main(["strategies", "vint"]) == 0
    out = capsys.readouterr().out
    assert "heuristic (default): " in out and "\nheuristic_v4: the default of cardsim 0.1.0" in out
    assert main(["strategies", "501"]) == 0
    assert "\nheuristic_v3: The default of cardsim 0.1.0" in capsys.readouterr().out


def test_a_version_takes_parameters_like_its_strategy():
    registry = get_game("500").table.registry
    assert registry.resolve("heuristic_v4:margin=1")[1][0] == 1.0
    with pytest.raises(StrategyError, match="strategy 'heuristic_v4' has no parameter 'zz'"):
        registry.resolve("heuristic_v4:zz=1")


def test_an_unknown_name_lists_the_kept_versions_as_one_range():
    reg = get_game("vint").table.registry
    with pytest.raises(StrategyError) as err:
        reg["nosuch"]
    text = str(err.value)
    versions = sorted(int(n.rsplit("_v", 1)[1]) for n in reg.names() if n.startswith("heuristic_v"))
    assert versions == list(range(1, len(versions) + 1)) and len(versions) >= 10
    assert f"heuristic, heuristic_v1 .. heuristic_v{versions[-1]}, " in text
    assert "heuristic_v2," not in text and len(text) < 200
    # two versions or fewer are named one by one
    toy = Registry("toy")
    toy.add("base", 0, {"a": 0.5})
    toy.add("other", 1)
    for k in (1, 2):
        toy.add_version(f"base_v{k}", "base", {"a": k / 10}, "an earlier base")
    assert toy.known_text() == "base, base_v1, base_v2, other"
    toy.add_version("base_v3", "base", {"a": 0.3}, "an earlier base")
    assert toy.known_text() == "base, base_v1 .. base_v3, other"
