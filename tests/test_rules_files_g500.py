"""Rule files for Five Hundred (docs/rules-files.md): the standing-bid context, the jitted
interpreter against the slow twin, the example style played, bad files."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.games import get_game
from cardsim.games.g500 import rulefile as R
from cardsim.games.g500.constants import PASS, parse_call
from cardsim.rules import RuleFileError, load
from cardsim.rules.check import run_tests
from cardsim.rules.twin import fires

ROOT = Path(__file__).resolve().parents[1]
STYLE = ROOT / "examples" / "systems" / "g500-trumps.toml"
DECK = [16 * s + r for s in range(4) for r in range(11)] + [14, 15]


def test_interpreter_agrees_with_the_slow_twin():
    compiled = load(STYLE, "500", {"long": 6})
    row = compiled.row()
    rng = np.random.default_rng(500)
    fired = set()
    for _ in range(3000):
        hand = sum(1 << int(c) for c in rng.choice(DECK, 10, replace=False))
        seat = int(rng.integers(0, 4))
        if rng.random() < 0.3:
            bid, high_seat = PASS, -1
        else:
            bid, high_seat = int(rng.integers(0, 25)), int((seat + rng.integers(1, 4)) % 4)
        got = int(R.rules_call(row, np.uint64(hand), seat, bid, high_seat))
        twin = fires(compiled.file, compiled.values, hand, (seat, bid, high_seat))
        want = R.NO_RULE if twin is None or twin[1] is None else twin[1]
        assert got == want, (hex(hand), seat, bid, high_seat, twin)
        if twin is not None:
            fired.add(twin[0])
    assert len(fired) >= len(compiled.file.rules) - 2, sorted(fired)


def test_the_example_style_passes_its_own_tests():
    outcomes = run_tests(load(STYLE, "500"))
    assert len(outcomes) == 4
    assert [o.text() for o in outcomes if not o.passed] == []


def test_the_example_style_plays_deals_legally_and_as_its_rules_say():
    strategies = {0: f"rules:{STYLE}", 2: f"rules:{STYLE}"}
    records = cardsim.records("500", list(range(300)), seed=5, strategies=strategies)
    compiled = load(STYLE, "500")
    by_rules = 0
    for rec in records:
        cardsim.replay(rec)  # every call, discard and card legal, the score as recorded
        high, high_seat = PASS, -1
        seat = (rec["dealer"] + 1) % 4
        out = set()
        for token in rec["auction"]:
            while seat in out:
                seat = (seat + 1) % 4
            call = parse_call(token)
            if seat % 2 == 0:
                hand = sum(1 << c for c in cardsim.conditions.parse_hand("500", " ".join(rec["hands"][seat])))
                twin = fires(compiled.file, compiled.values, hand, (seat, high, high_seat))
                if twin is not None and twin[1] is not None:
                    assert call == twin[1], (rec, seat, token)
                    by_rules += 1
            if call == PASS:
                out.add(seat)
            else:
                high, high_seat = call, seat
            seat = (seat + 1) % 4
    assert by_rules >= 100
    df = cardsim.simulate("500", 2000, seed=3, strategies=strategies, n_jobs=1)
    assert len(df) == 2000


@pytest.mark.parametrize("text,line,words", [
    ('game = "500"\n[[rule]]\nstanding = "opponent 8H"\ncall = "7NT"\n', 4, "7NT is never legal here"),
    ('game = "500"\n[[rule]]\nstanding = "partner 11H"\ncall = "P"\n', 3, "is not a bid"),
    ('game = "500"\n[[rule]]\nstanding = "left 7H"\ncall = "P"\n', 3, "partner / opponent / someone"),
    ('game = "500"\n[[rule]]\ncall = "11H"\n', 3, "not a Five Hundred call"),
    ('game = "500"\n[[rule]]\ncall = "7H"\nwhen = "trumps_Z>=3"\n', 4, "unknown 500 feature 'trumps_Z'"),
    ('game = "500"\n[[rule]]\nauction = "1NT"\ncall = "7H"\n', 3, "unknown key 'auction'"),
])
def test_bad_files(tmp_path, text, line, words):
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError) as info:
        load(path, "500")
    assert str(info.value).startswith(f"{path}:{line}: ") and words in str(info.value), str(info.value)


def test_a_vint_file_is_not_a_five_hundred_strategy():
    with pytest.raises(RuleFileError, match="bids for vint, not 500"):
        get_game("500").table.registry.resolve(f"rules:{ROOT / 'examples' / 'systems' / 'vint-natural.toml'}")
