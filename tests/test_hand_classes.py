"""cardsim.analysis.hand_classes.classify refuses what it cannot answer: a hand that is not a full
hand (the error ``cardsim evaluate`` gives), and a bad game or context (a one-line OptionError
naming the key, the value and what is allowed); harmless variants (case, suit symbols) are taken."""
from __future__ import annotations

import pytest

from cardsim.analysis import hand_classes as HC
from cardsim.conditions import Conditions, compile as compile_conditions
from cardsim.deal import ConditionError
from cardsim.games.base import OptionError

VINT = {"chart": "opening", "after": "-"}
HAND13 = "S:AK86 H:KQ942 C:K83 D:2"
HAND500 = "HJ LJ H:AKQ95 S:A C:K D:4"
G501 = {"own": 300, "opponents": [200, 200], "position": 0}


def _evaluate_message(game: str, hand: str) -> str:
    """The message evaluate's conditions give for ``hand`` at seat 0."""
    with pytest.raises(ConditionError) as e:
        compile_conditions(Conditions(game, hands={0: hand}))
    return str(e.value)


@pytest.mark.parametrize("hand, count", [("S:AKT86 H:KQ42 C:K83 D:-", 12), ("S:AKT86 H:KQ42 C:K832 D:2", 14),
                                         ("", 0), ([0, 1, 2], 3)])
def test_a_hand_that_is_not_full_is_refused(hand, count):
    with pytest.raises(ConditionError) as e:
        HC.classify("vint", hand, VINT)
    assert str(e.value) == f"seat 0 is given {count} cards; a vint hand holds 13"
    if count > 13:  # the very message of cardsim evaluate
        assert str(e.value) == _evaluate_message("vint", hand)


def test_501_hand_may_be_left_out_but_not_short():
    assert HC.classify("501", [], G501) == HC.classify("501", "S:AKT9 H:AQ C:T", G501) != []
    with pytest.raises(ConditionError, match="seat 0 is given 2 cards; a 501 hand holds 7"):
        HC.classify("501", "S:AK", G501)


@pytest.mark.parametrize("hand", [b"S:AK", bytearray(b"S:AK"), {"S": "AK"}])
def test_a_hand_is_text_or_cards(hand):
    with pytest.raises(ConditionError, match="a hand is text .* or a list of card tokens or indices, got"):
        HC.classify("vint", hand, VINT)


@pytest.mark.parametrize("game, context, words", [
    ("vint", {}, ["lacks chart, after"]),
    ("vint", None, ["must be a dict"]),
    ("vint", {"chart": "opening", "after": "-", "trump": "H"}, ["unknown key", "'trump'"]),
    ("vint", {"chart": "openin", "after": "-"}, ["chart 'openin'", "opening, second"]),
    ("vint", {"chart": "opening", "after": "p"}, ["after 'p'", "'-'"]),
    ("vint", {"chart": "opening", "after": ""}, ["after ''", "'-'"]),
    ("vint", {"chart": "response", "after": "1C P"}, ["after '1C P'", "'1H P'"]),
    ("500", {"trump": "H"}, ["lacks scoring"]),
    ("500", {"trump": "hearts", "scoring": "quebec"}, ["trump 'hearts'", "S, C, D, H, NT"]),
    ("500", {"trump": 3, "scoring": "quebec"}, ["trump 3"]),
    ("500", {"trump": "H", "scoring": "Queb"}, ["scoring 'Queb'", "quebec, subtract"]),
    ("501", {"own": "abc", "opponents": [200, 200], "position": 0}, ["own 'abc'", "whole number"]),
    ("501", {"own": float("nan"), "opponents": [200, 200], "position": 0}, ["own nan"]),
    ("501", {"own": -1e30, "opponents": [200, 200], "position": 0}, ["own -1e+30", "above 0"]),
    ("501", {"own": 0, "opponents": [200, 200], "position": 0}, ["own 0", "game is over"]),
    ("501", {"own": 501.7, "opponents": [200, 200], "position": 0}, ["own 501.7"]),
    ("501", {"own": True, "opponents": [200, 200], "position": 0}, ["own True"]),
    ("501", {"own": 300, "opponents": [], "position": 0}, ["opponents []", "two opponents"]),
    ("501", {"own": 300, "opponents": [200, 200, 100], "position": 0}, ["opponents [200, 200, 100]"]),
    ("501", {"own": 300, "opponents": 200, "position": 0}, ["opponents 200"]),
    ("501", {"own": 300, "opponents": [200, -5], "position": 0}, ["opponents -5"]),
    ("501", {"own": 300, "opponents": [200, 200], "position": 3}, ["position 3", "0, 1 or 2"]),
    ("VNT", VINT, ["unknown game 'VNT'", "vint, 501, 500"]),
])
def test_a_bad_context_is_one_clear_line(game, context, words):
    hand = {"vint": HAND13, "500": HAND500}.get(str(game).lower(), [])
    with pytest.raises(OptionError) as e:
        HC.classify(game, hand, context)
    msg = str(e.value)
    assert "\n" not in msg and isinstance(e.value, ValueError)
    for w in words:
        assert w in msg, (w, msg)


def test_harmless_variants_are_taken():
    assert HC.classify("VINT", HAND13, {"chart": "Opening", "after": "-"}) == ["opening|-|13-15|5H"]
    assert HC.classify("vint", HAND13, {"chart": "response", "after": " 1h  p "}) == \
        HC.classify("vint", HAND13, {"chart": "response", "after": "1H P"}) == ["response|1H P|13-15|H 4+"]
    assert HC.classify("vint", "S:AKJ86 H:KQ42 C:K83 D:2", {"chart": "second", "after": "p"}) == \
        HC.classify("vint", "S:AKJ86 H:KQ42 C:K83 D:2", {"chart": "second", "after": "P"})
    want = HC.classify("500", HAND500, {"trump": "H", "scoring": "quebec"})
    assert want == ["H|7|3||||quebec"]
    for trump in ("h", "\u2665", "\u2661", " H "):
        assert HC.classify("500", HAND500, {"trump": trump, "scoring": "Quebec"}) == want
    assert HC.classify("500", HAND500, {"trump": "nt", "scoring": "SUBTRACT"}) == ["NT||||2|2|subtract"]
    # integral floats and numpy integers are scores; above 501 is a real score (a failed contract adds)
    import numpy as np
    assert HC.classify("501", [], {"own": 290.0, "opponents": [np.int64(310), 400], "position": 1}) == ["300|0|1"]
    assert HC.classify("501", [], {"own": 600, "opponents": [200, 200], "position": 2}) != []
