"""examples/systems/vint-heuristic-openings.toml: the default Vint player's openings as a rule file
(docs/rules-files.md, "A file that opens as heuristic does").  Where a rule holds, its call is
heuristic's own, at the default parameters and with the parameters moved; the hands no rule takes
are exactly the classes the file says it leaves out; played at every seat it deals out records
identical to heuristic's."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.games import get_game
from cardsim.games.vint import rulefile as R
from cardsim.rules import load
from cardsim.rules.check import never_fire, run_tests
from cardsim.rules.twin import feature_value
from cardsim.conditions import features_of

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "examples" / "systems" / "vint-heuristic-openings.toml"
OPENINGS = [(), ("P",), ("P", "P"), ("P", "P", "P")]  # nobody has bid: the first call of each seat


def hand_bits(cards) -> int:
    return sum(1 << (16 * (int(c) // 13) + int(c) % 13) for c in cards)


def every_seat(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """The engine's strategy ids (int64[4]) and parameter rows (float64[4, N_PARAMS]) of ``spec`` at every seat."""
    strategy, row = get_game("vint").table.registry.resolve(spec)
    return np.full(4, strategy.id, dtype=np.int64), np.tile(row, (4, 1))


def left_out(hand: int) -> str | None:
    """The class of hands the file leaves to its base (its header's list), or None."""
    fs = features_of("vint")
    lengths = sorted((feature_value(fs.features[s], hand) for s in "SCDH"), reverse=True)
    if lengths[1] >= 5:
        return "two suits of five or more"
    if lengths[0] >= 7:
        return "a seven-card suit or longer"
    if lengths[0] == 5 and feature_value(fs.features["hcp"], hand) >= 11:
        five = next(s for s in "SCDH" if feature_value(fs.features[s], hand) == 5)
        if feature_value(fs.features[f"honours_{five}"], hand) <= 2 and any(
                feature_value(fs.features[f"honours_{s}"], hand) >= 4 for s in "SCDH" if s != five):
            return "a five-card suit with two honours or fewer beside a four-honour suit"
    return None


def test_the_file_passes_check():
    compiled = load(FILE, "vint")
    outcomes = run_tests(compiled)
    assert len(outcomes) == 6 and all(o.passed for o in outcomes), [o.text() for o in outcomes if not o.passed]
    assert never_fire(compiled) == []
    # the thresholds are heuristic's at its defaults: 13 for 1NT and a four-card suit, 11 a five-card one
    assert compiled.whens[0] == "longest=4, hcp<=12"
    assert compiled.whens[9] == "balanced, longest=4, hcp>=13"


@pytest.mark.parametrize("values", [{}, {"aggression": 1.25}, {"aggression": -0.5, "partner_points": 6},
                                    {"points_per_trick": 2.75, "aggression": 0}])
def test_where_a_rule_holds_its_call_is_heuristics(values):
    """On 6,000 random hands (the first call with nobody having bid, every position alike):
    every call a rule makes is heuristic's with the same parameters, and the hands no rule takes
    are the classes the file leaves out (at the defaults: exactly those)."""
    compiled = load(FILE, "vint", values)
    row = compiled.row()
    ids, params = every_seat("heuristic" + (":" + ",".join(f"{k}={v}" for k, v in values.items()) if values else ""))
    rng = np.random.default_rng(4800 + len(values))
    ruled = unruled = 0
    for i in range(6000):
        hand = hand_bits(rng.permutation(52)[:13])
        calls = np.array([0] * (i % 4), dtype=np.int64)
        mine = int(R.rules_call(row, np.uint64(hand), calls, len(calls), 0))
        theirs = R.choose(ids, params, hand, calls)  # the engine's own call decision
        if mine >= 0:
            ruled += 1
            assert mine == theirs, (values, hand, R.call_text(mine), R.call_text(theirs))
        else:
            unruled += 1
        if not values:  # at the defaults the hands no rule takes are exactly the classes left out
            assert (mine < 0) == (left_out(hand) is not None), hand
    # the classes left out are about one hand in eleven (two-suiters, seven-card suits, the honours case)
    assert ruled > 0.89 * 6000 and unruled > 0


def test_played_by_every_seat_the_records_are_heuristics():
    deals = list(range(1500))
    mine = cardsim.records("vint", deals, seed=21, strategies=f"rules:{FILE}")
    theirs = cardsim.records("vint", deals, seed=21, strategies="heuristic")
    assert [r["auction"] for r in mine] == [r["auction"] for r in theirs]
    assert [r["result"] for r in mine] == [r["result"] for r in theirs]
    # with the parameters moved in the file and in its base together, as heuristic's
    mine = cardsim.records("vint", deals[:500], seed=22,
                           strategies=f"rules:{FILE}:aggression=1.25,base.aggression=1.25")
    theirs = cardsim.records("vint", deals[:500], seed=22, strategies="heuristic:aggression=1.25")
    assert [r["auction"] for r in mine] == [r["auction"] for r in theirs]
