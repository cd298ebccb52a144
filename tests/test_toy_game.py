"""A game is one package: Duel (tests/toygame/, two seats, eight cards) joins the registry and
every generic path — simulate, records, replay, show, evaluate, double-dummy, the CLI — works on
it without a line elsewhere (docs/adding-a-game.md); tests/test_conformance.py holds it to the
game contract like every other game.

Its numbers are exact: the heuristic ignores its stream, so a deal played from given hands
has one result, computed here by hand from Duel's rules (tests/toygame/rules.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.games import game_names, get_game, register_game, unregister_game
from cardsim.games.base import OptionError

HERE = Path(__file__).parent
ROOT = HERE.parent


@pytest.fixture(scope="module")
def duel():
    sys.path.insert(0, str(HERE))
    register_game("duel", "toygame")
    yield get_game("duel")
    unregister_game("duel")


def test_registered_from_its_package_alone(duel):
    assert duel.name == "duel" and "duel" in game_names()
    assert game_names()[:3] == ("vint", "501", "500")
    with pytest.raises(OptionError, match="built-in"):
        register_game("vint", "toygame")
    with pytest.raises(OptionError, match="defines the game"):
        register_game("other", "toygame")
    with pytest.raises(OptionError, match="does not import"):
        register_game("nowhere", "no_such_package_xyz")
    with pytest.raises(OptionError, match="has no SPEC"):
        register_game("plain", "json")
    with pytest.raises(OptionError, match="module name"):
        register_game("none", None)


def test_generic_commands_on_a_game_with_only_the_required_hooks(duel, capsys):
    from cardsim.cli import main
    from cardsim.profiles import builtin

    assert main(["columns", "duel"]) == 0
    assert "tricks_0" in capsys.readouterr().out
    assert list(builtin("duel")) == ["default"]
    assert main(["profiles", "duel"]) == 0
    assert "default" in capsys.readouterr().out


def test_simulate_and_show(duel):
    # round trip, chunking, rows vs records and refused revokes: tests/test_conformance.py
    df = cardsim.simulate("duel", 3000, seed=4, n_jobs=1)
    assert len(df) == 3000 and set(df.columns) >= {"deal", "dealer", "tricks_0", "tricks_1"}
    assert ((df.tricks_0 + df.tricks_1) == 4).all()
    records = cardsim.records("duel", [0], seed=4)
    assert "trick 4" in duel.play.show(records[0])


def _index(card: str) -> int:
    """Duel's card index (suit * 16 + rank: spades 0, hearts 3; J Q K A ranks 0..3)."""
    return "S..H".index(card[1]) * 16 + "JQKA".index(card[0])


def _heuristic_deal(hands, dealer, first_lead):
    """The play of two heuristic seats from ``hands`` (token lists), the first lead forced:
    a leader leads its highest card by index; a follower plays its lowest card that wins, else
    its lowest card of the suit led, else its lowest card (tests/toygame/strategies.py)."""
    held = [list(h) for h in hands]
    play, leader = [], (dealer + 1) % 2
    for t in range(4):
        follower = 1 - leader
        lead = first_lead if t == 0 else max(held[leader], key=_index)
        same = [c for c in held[follower] if c[1] == lead[1]]
        wins = [c for c in same if _index(c) > _index(lead)]
        follow = min(wins or same or held[follower], key=_index)
        held[leader].remove(lead)
        held[follower].remove(follow)
        play += [lead, follow]
        leader = follower if wins else leader
    return play


def test_evaluate_leads_with_exact_numbers(duel):
    # Seat 0 leads (the dealer is seat 1) with JS QS KS AH; seat 1 holds the rest, AS JH QH KH.
    # A spade lead takes three tricks (AS wins it, seat 1 leads KH into AH, and seat 0's spades
    # then make); the ace of hearts first takes one (KS loses to AS, and the hearts are seat 1's).
    # The heuristic draws nothing from its stream, so each lead has one result: the slow twin's.
    from toygame.replay import replay

    hands = [["JS", "QS", "KS", "AH"], ["AS", "JH", "QH", "KH"]]
    expected = {}
    for lead in hands[0]:
        record = {"game": "duel", "seats": 2, "dealer": 1, "hands": hands, "play": _heuristic_deal(hands, 1, lead)}
        expected[f"lead:{lead}"] = float(replay(record)["tricks"][0])
    table = cardsim.evaluate("duel", seat=0, dealer=1, options=list(expected), hand="JS QS KS AH", n=200, seed=3,
                             n_jobs=1)
    assert dict(zip(table.option, table.score)) == expected
    assert set(table.n) == {200} and set(table.legal) == {1.0}
    assert expected == {"lead:JS": 3.0, "lead:QS": 3.0, "lead:KS": 3.0, "lead:AH": 1.0}  # worked by hand


def test_evaluate_refuses_a_card_of_no_game(duel):
    with pytest.raises(OptionError, match="not a Duel card|lead:CARD"):
        cardsim.evaluate("duel", seat=0, dealer=1, options=["lead:AD", "lead:AS"], hand="AS JS QH JH", n=10)


def test_double_dummy(duel):
    # from rows equals from records: tests/test_conformance.py
    from cardsim.dd import solve_deals

    from toygame.dd import solve

    a = solve_deals("duel", range(40), seed=2)
    assert (a.dd_tricks >= 0).all() and (a.dd_tricks <= 4).all()
    # a leader holding the four aces and kings... the top two of each suit takes every trick
    assert solve([0b1100 | (0b1100 << 48), 0b0011 | (0b0011 << 48)], 0) == 4
    assert solve([0b0011 | (0b0011 << 48), 0b1100 | (0b1100 << 48)], 0) == 0


def test_the_command_line_sees_an_installed_game(tmp_path):
    # An entry point in the group cardsim.games, as an installed distribution declares it.
    dist = tmp_path / "duel_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: duel-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cardsim.games]\nduel = toygame\nduel2 = toygame\n"
                                            "nowhere = no_such_package_xyz\nBad Name = toygame\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(HERE), str(ROOT)])}
    records = tmp_path / "duel.jsonl"

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cardsim", *args], env=env, capture_output=True, text=True,
                              cwd=tmp_path, timeout=600)

    out = cli("simulate", "duel", "-n", "500", "--seed", "9", "--records", str(records), "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert len(records.read_text().splitlines()) == 500
    first = json.loads(records.read_text().splitlines()[0])
    assert first["game"] == "duel"
    out = cli("replay", str(records))
    assert out.returncode == 0, out.stderr
    out = cli("evaluate", "duel", "--seat", "0", "--dealer", "1", "--hand", "AS JS QH JH",
              "--option", "lead:AS", "--option", "lead:JH", "-n", "300")
    assert out.returncode == 0, out.stderr
    assert "lead:AS" in out.stdout and "lead:JH" in out.stdout
    out = cli("dd", "duel", "--deal", "3", "--seed", "9")
    assert out.returncode == 0, out.stderr
    assert "double-dummy" in out.stdout
    out = cli("simulate", "nosuchgame", "-n", "5")
    assert out.returncode == 2 and "duel" in out.stderr and "bad name" not in out.stderr.lower()
    # entry points are held to register_game's checks, in one line
    out = cli("simulate", "duel2", "-n", "5")
    assert out.returncode == 2 and "defines the game 'duel', not 'duel2'" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    out = cli("simulate", "nowhere", "-n", "5")
    assert out.returncode == 2 and "does not import" in out.stderr and "Traceback" not in out.stderr
    out = cli("bench", "--games", "duel")
    assert out.returncode == 2 and "built-in games" in out.stderr
