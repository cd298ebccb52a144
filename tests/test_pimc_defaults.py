"""Each game's own defaults of ``pimc``'s search parameters (cardsim/strategies/pimc.py
``register``'s ``defaults``, checked by ``Registry.add``): Vint ``early=4``, 501 ``early=1``, Five
Hundred ``early=3,early_declaring=2``; ``pimc:early=0`` is the full search everywhere; a bad
default is refused at registration."""
import numpy as np
import pytest

import cardsim
from cardsim.games import get_game
from cardsim.strategies import pimc as P
from cardsim.strategies.registry import Registry

SEED = 11
TRICK = {"vint": 4, "500": 4, "501": 3}
"""Cards to a trick (501: the three players in the play)."""
EARLY = {"vint": 4, "501": 1, "500": 3}
"""The defaults of ``early`` the games register (docs/pimc.md, "A cheaper first trick")."""
DECLARING = {"vint": -1, "501": -1, "500": 2}
"""The defaults of ``early_declaring`` (-1: ``early`` for the declaring side too)."""
OWN = {g: f"early={EARLY[g]}" + (f",early_declaring={DECLARING[g]}" if DECLARING[g] >= 0 else "") for g in EARLY}
"""Each game's default as an explicit spec's parameters."""
BOTH_SIDES = {g: EARLY[g] if DECLARING[g] < 0 else min(EARLY[g], DECLARING[g]) for g in EARLY}
"""First tricks every seat plays with the heuristic's card by default."""


@pytest.mark.parametrize("game", EARLY)
def test_each_game_registers_its_own_early_and_keeps_the_rest(game):
    pimc = get_game(game).table.registry["pimc"]
    assert pimc.params["early"] == EARLY[game] and pimc.params["early_declaring"] == DECLARING[game]
    for name, value in P.PARAMS.items():  # every other search parameter keeps the shared default
        if name not in ("early", "early_declaring"):
            assert pimc.params[name] == value, name
    _, row = get_game(game).table.registry.resolve("pimc")
    assert row[pimc.param_index("early")] == EARLY[game]
    _, row = get_game(game).table.registry.resolve("pimc:early=0")
    assert row[pimc.param_index("early")] == 0


@pytest.mark.parametrize("game", ("vint", "501"))
def test_early_0_is_the_row_of_the_search_registered_without_defaults(game):
    """``pimc:early=0`` resolves to exactly the row the registration without the game's defaults
    gave plain ``pimc``: the full search of every trick, as before the defaults moved."""
    spec = get_game(game)
    registry = spec.table.registry
    bare = Registry(game)
    old = P.register(bare, registry["pimc"].id, registry["heuristic"], reads_auction=True)
    assert old.params["early"] == 0
    for extra in ("", ",worlds=8", ",worlds=8,side=2,auction=1"):
        now = registry.resolve("pimc:early=0" + extra)[1]
        before = bare.resolve("pimc:" + extra.lstrip(","))[1]
        np.testing.assert_array_equal(now, before)


@pytest.mark.parametrize("game", EARLY)
def test_plain_pimc_plays_the_heuristics_first_tricks_and_early_0_searches_them(game):
    k = BOTH_SIDES[game]
    plain = cardsim.records(game, range(4), SEED, "pimc:worlds=2")
    explicit = cardsim.records(game, range(4), SEED, f"pimc:worlds=2,{OWN[game]}")
    assert [r["play"] for r in plain] == [r["play"] for r in explicit]
    assert [r["result"] for r in plain] == [r["result"] for r in explicit]
    heuristic = cardsim.records(game, range(4), SEED, "pimc:early=13,early_declaring=-1")  # the heuristic's card at every trick
    for a, b in zip(plain, heuristic):
        assert a["play"][:k * TRICK[game]] == b["play"][:k * TRICK[game]]
    searched = P.COUNTERS.searched
    full = cardsim.records(game, range(4), SEED, "pimc:worlds=2,early=0")
    assert P.COUNTERS.searched > searched
    # the full search plays another card somewhere in those first tricks: the default is not a no-op
    assert any(a["play"][:k * TRICK[game]] != f["play"][:k * TRICK[game]] for a, f in zip(plain, full))


def test_five_hundreds_early_0_is_the_full_search_whatever_its_early_declaring():
    """In Five Hundred ``early=0`` searches the declaring side's first tricks too, although the
    game's default ``early_declaring`` is 2: it plays exactly ``early=0,early_declaring=-1``."""
    full = cardsim.records("500", range(3), SEED, "pimc:worlds=2,early=0")
    assert [r["play"] for r in full] == [
        r["play"] for r in cardsim.records("500", range(3), SEED, "pimc:worlds=2,early=0,early_declaring=-1")]
    spec = get_game("500").table.registry
    _, row = spec.resolve("pimc:early=0")
    assert row[spec["pimc"].param_index("early_declaring")] == 2  # the row keeps it; early=0 overrides


@pytest.mark.parametrize("defaults, said", [
    ({"early": 14}, r"default early=14 of 'pimc' \(toy\) is outside its bounds: early must be a whole number "
                    r"from 0 to 13"),
    ({"early": 1.5}, r"default early=1.5 of 'pimc' \(toy\) is outside its bounds"),
    ({"worlds": 0}, r"default worlds=0 of 'pimc' \(toy\) is outside its bounds: worlds must be a whole number "
                    r"from 1 to 256"),
    ({"depth": 2}, r"pimc defaults for toy: 'depth' not among the search's parameters \(worlds, stream"),
    ({"auction": 1}, r"'auction' not among"),  # a game whose hooks do not read the auction has none
])
def test_a_bad_default_is_refused_at_registration(defaults, said):
    toy = Registry("toy")
    base = toy.add("heuristic", 0, {"margin": 0.0}, "toy", {"margin": "m"}, {"margin": (-5, 5)})
    with pytest.raises(ValueError, match=said) as err:
        P.register(toy, 1, base, defaults=defaults)
    assert "\n" not in str(err.value) and "pimc" not in toy.names()


def test_any_registration_with_a_default_outside_its_bounds_is_refused():
    toy = Registry("toy")
    with pytest.raises(ValueError, match=r"default margin=7 of 'h' \(toy\) is outside its bounds: margin must be "
                                         r"a number from -5 to 5"):
        toy.add("h", 0, {"margin": 7.0}, "toy", {"margin": "m"}, {"margin": (-5, 5)})
    with pytest.raises(ValueError, match="default n=2.5 of 'h' .* a whole number from 0 to 9"):
        toy.add("h", 0, {"n": 2.5}, "toy", {"n": "n"}, {"n": (0, 9)}, {"n": "int"})


def test_the_listing_shows_each_games_default(capsys):
    from cardsim.cli import main

    for game, k in EARLY.items():
        assert main(["strategies", game]) == 0
        out = capsys.readouterr().out
        pimc = out[out.index("\npimc:"):]
        assert f"    early = {k} (a whole number from 0 to 13)" in pimc
        assert "the default is the game's" in pimc


def test_the_default_early_play_is_named_as_a_spec():
    from cardsim.analysis.stronger import default_early

    assert {g: default_early(g) for g in EARLY} == {"vint": "early=4", "501": "early=1",
                                                    "500": "early=3,early_declaring=2"}
    toy = Registry("toy")
    base = toy.add("heuristic", 0, {"margin": 0.0}, "toy", {"margin": "m"}, {"margin": (-5, 5)})
    assert P.early_default(P.register(toy, 1, base)) == "early=0"
    toy = Registry("toy")
    base = toy.add("heuristic", 0, {"margin": 0.0}, "toy", {"margin": "m"}, {"margin": (-5, 5)})
    # a declaring-side count beside early=0 is not played (early=0 is the full search): not named
    assert P.early_default(P.register(toy, 1, base, defaults={"early_declaring": 2})) == "early=0"
