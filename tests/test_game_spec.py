"""The shape of the game contract (docs/DESIGN.md, "The spec's hooks"): a handful of hook groups
on :class:`~cardsim.games.base.GameSpec`, each reached one way, and the named modules loaded only
through :meth:`~cardsim.games.base.Modules.load`."""
from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import (MODULE_KINDS, GameSpec, Matches, Modules, OptionError, Play, RecordError, Table)
from cardsim.games.fields import check_fields
from cardsim.strategies.registry import StrategyError

GROUPS = {"table": Table, "play": Play, "matches": Matches, "modules": Modules}


def test_the_spec_is_a_handful_of_fields():
    names = [f.name for f in dataclasses.fields(GameSpec)]
    assert names == ["name", "doc", "table", "play", "matches", "forcing", "frames", "dd", "pimc", "facts",
                     "modules"]
    assert len(names) <= 12


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_built_in_game_fills_the_groups(game):
    spec = get_game(game)
    for field, kind in GROUPS.items():
        assert isinstance(getattr(spec, field), kind), (game, field)
    assert spec.play.row_dtype.names[:2] == ("deal", "dealer")
    assert spec.table.seat_counts[0] == spec.default_seats
    assert spec.facts.contract_bands is not None and spec.matches.deals_per_match > 0


def test_a_named_module_is_imported_only_when_loaded():
    modules = Modules(features="cardsim_no_such_module_for_this_test")
    assert modules.offers("features") and not modules.offers("pbn")
    assert "cardsim_no_such_module_for_this_test" not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        modules.load("features")
    with pytest.raises(OptionError, match="the game has no pbn module"):
        modules.load("pbn")
    with pytest.raises(ValueError, match="unknown module kind 'feature'"):
        modules.offers("feature")


def test_the_built_in_games_name_their_modules():
    """Which game offers which kind of module (tests/test_conformance.py checks that each loads)."""
    offered = {kind: [g for g in GAME_NAMES if get_game(g).modules.offers(kind)] for kind in MODULE_KINDS}
    assert offered == {"features": ["vint", "501", "500"], "pbn": ["vint"], "rules": ["vint", "501", "500"],
                       "decisions": ["vint"]}


def test_a_game_names_only_modules_of_its_own_package():
    """What stands above the games finds the game's part itself: no spec names an analysis or a
    chart writer, and the lookups find them from the game's package name."""
    from cardsim.analysis import find_module, for_game, game_module
    from cardsim.games import package_of
    from cardsim.rules.from_chart import writer

    for game in GAME_NAMES:
        spec = get_game(game)
        named = [getattr(spec.modules, kind) for kind in MODULE_KINDS if spec.modules.offers(kind)]
        assert named and all(name.startswith(package_of(game) + ".") for name in named), (game, named)
    assert [game_module(g).__name__ for g in GAME_NAMES] == ["cardsim.analysis.vint", "cardsim.analysis.g501",
                                                             "cardsim.analysis.g500"]
    assert for_game("500") is game_module("500") and game_module("vint", "hands").__name__ == "cardsim.analysis.vint.hands"
    assert [w and w.__name__ for w in map(writer, GAME_NAMES)] == ["cardsim.rules.from_chart.vint",
                                                                   "cardsim.rules.from_chart.g501", None]
    assert find_module("cardsim.analysis.no_such_game.hands") is None and find_module("cardsim.analysis.nope") is None


def test_match_entry_points_report_an_unhandled_strategy_in_one_line():
    """The spec wraps ``matches.play`` and ``matches.records`` as it wraps ``play.simulate_chunk``."""
    spec = get_game("501")
    setup = dataclasses.replace(spec.setup(), strategy_ids=np.array([99, 1, 1]))
    for call in (lambda: spec.play.simulate_chunk(7, 0, 10, setup), lambda: spec.matches.play(7, 0, 2, setup),
                 lambda: spec.matches.records(7, 0, setup)):
        with pytest.raises(StrategyError, match="strategy id 99") as err:
            call()
        assert "\n" not in str(err.value)


def test_each_game_names_its_own_record_fields_and_title():
    """The fields a record may carry beyond the common ones come from the game's spec."""
    own = {g: (get_game(g).play.record_fields, get_game(g).facts.title) for g in GAME_NAMES}
    assert own == {"vint": ((), "Vint"), "501": (("talon", "contract"), "501"),
                   "500": (("talon", "discard"), "Five Hundred")}


def test_a_field_of_another_game_is_named_from_that_games_spec():
    """check_fields reads each game's fields and title from its spec: a game that adds a field
    is named as its owner, in the order the specs are given, with no table to update."""
    vint, g501 = get_game("vint"), get_game("501")
    duel = dataclasses.replace(vint, name="duel", play=dataclasses.replace(vint.play, record_fields=("kitty", "talon")),
                               facts=dataclasses.replace(vint.facts, title="Duel"))

    def refused(record, spec, games):
        with pytest.raises(RecordError) as err:
            check_fields(record, spec, games)
        return err.value.field, err.value.message, err.value.rule

    assert refused({"game": "vint", "kitty": []}, vint, [vint, g501, duel]) == (
        "kitty", "a field of Duel records, which Vint records do not have", "docs/RECORDS.md Strictness")
    assert refused({"game": "vint", "talon": []}, vint, [vint, g501, duel])[1] == (
        "a field of 501 and Duel records, which Vint records do not have")
    assert refused({"game": "vint", "kitty": []}, vint, [vint, g501]) == (
        None, "unknown field 'kitty': annotations from other programs belong in source", "docs/RECORDS.md Strictness")
    check_fields({"game": "duel", "kitty": [], "talon": []}, duel, [])


def test_a_broken_installed_game_does_not_hide_a_record_error(monkeypatch):
    """A record with a stray field is refused with a RecordError even when another registered
    game's package no longer imports: the record checks read only the games that load."""
    import types

    from cardsim.games import game_names, loadable_specs, register_game, unregister_game

    package = types.ModuleType("cardsim_broken_game_for_this_test")
    package.SPEC = dataclasses.replace(get_game("vint"), name="broken")
    monkeypatch.setitem(sys.modules, package.__name__, package)
    register_game("broken", package.__name__)
    try:
        monkeypatch.delitem(sys.modules, package.__name__)  # installed, then broken
        assert "broken" in game_names()
        assert [s.name for s in loadable_specs()] == list(GAME_NAMES)
        with pytest.raises(RecordError) as err:
            get_game("vint").play.replay({"game": "vint", "talon": []})
        assert (err.value.field, err.value.message) == (
            "talon", "a field of 501 and Five Hundred records, which Vint records do not have")
        with pytest.raises(OptionError, match="does not import"):
            get_game("broken")
    finally:
        unregister_game("broken")
