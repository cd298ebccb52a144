"""Rule files for 501 (docs/rules-files.md, "501 contexts"): the stage/score/position/bid
contexts, the jitted interpreter against the slow twin, the example blind policy played, the
talon's target, bad files."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.cards import SUITS
from cardsim.games import get_game
from cardsim.games.g501 import rulefile as R
from cardsim.games.g501 import rulekernel as K
from cardsim.games.g501.strategies import estimate
from cardsim.rules import RuleFileError, load
from cardsim.rules.check import run_tests
from cardsim.rules.twin import fires

ROOT = Path(__file__).resolve().parents[1]
POLICY = ROOT / "examples" / "systems" / "g501-blind.toml"
DECK = [16 * s + r for s in range(4) for r in range(6)]

# a file whose rules cover every context key and call, so random situations reach each
WIDE = '''game = "501"
[params]
lvl = 95
[[rule]]
stage = "blind"
position = "0"
seats = "4"
lead = "<=-50"
call = "raise"
[[rule]]
stage = "blind"
score = "<=200"
bid = "70-{lvl}"
call = "100"
[[rule]]
stage = "blind"
lead = ">100"
call = "pass"
[[rule]]
stage = "blind"
position = "2"
call = "look"
[[rule]]
others_blind = "yes"
when = "points>=30"
call = "raise"
[[rule]]
position = "1"
seats = "3"
when = "marriages>=1, H>=2"
call = "120"
[[rule]]
score = "300-450"
lead = "-100-0"
when = "aces<=1"
call = "pass"
[[rule]]
stage = "talon"
won_blind = "yes"
when = "points<=45"
call = "abandon"
[[rule]]
stage = "talon"
bid = ">=100"
call = "declare"
target = "bid + 5"
[[rule]]
stage = "talon"
when = "has AS"
call = "declare"
target = "estimate - 10"
'''


def _situation(rng, stage):
    talon = 0
    if stage == K.TALON:
        bid = int(rng.integers(66, 160))
    else:
        bid = 0 if rng.random() < 0.3 else int(rng.integers(66, 221))
    score = int(rng.integers(-50, 700))
    return (stage, int(rng.integers(0, 3)), score, score + int(rng.integers(-250, 250)), bid,
            bool(rng.random() < 0.5), bool(rng.random() < 0.5), int(rng.choice([3, 4])), talon)


def test_interpreter_agrees_with_the_slow_twin(tmp_path):
    path = tmp_path / "wide.toml"
    path.write_text(WIDE)
    compiled = load(path, "501")
    ids = np.full(4, R.STRATEGY_ID, dtype=np.int64)
    params = np.tile(compiled.row(), (4, 1))
    rng = np.random.default_rng(501)
    fired, base = set(), 0
    for i in range(4000):
        stage = (K.BLIND, K.LOOKED, K.TALON)[i % 3]
        cards = rng.choice(DECK, 10, replace=False)
        hand = sum(1 << int(c) for c in cards[:7])
        situation = _situation(rng, stage)
        if stage == K.TALON:
            situation = situation[:8] + (sum(1 << int(c) for c in cards[7:]),)
        twin = fires(compiled.file, compiled.values, hand, situation)
        seen = R.decision_hand(hand, situation)
        st, position, score, rival, bid, others, won, seats, _ = situation
        if stage == K.BLIND:
            got = int(K.rules_blind(params[0], position, score, rival, bid, seats))
        elif stage == K.LOOKED:
            got = int(K.rules_looked(params[0], np.uint64(hand), position, score, rival, bid, others, seats))
        else:
            p = int(K.rules_contract(params[0], np.uint64(seen), bid, won))
            got = K.NO_RULE if p < 0 else int(params[0, p + 1])
        want = K.NO_RULE if twin is None or twin[1] is None else twin[1]
        assert got == want, (hex(hand), situation, twin)
        # the engine's whole decision (base included) is the rule's call whenever a rule holds
        if want != K.NO_RULE:
            assert R.choose(ids, params, hand, situation) == want
            fired.add(twin[0])
        else:
            base += 1
    assert fired == set(range(len(compiled.file.rules))), sorted(fired)
    assert base > 500


def test_the_example_policy_passes_its_own_tests():
    outcomes = run_tests(load(POLICY, "501"))
    assert len(outcomes) == 7
    assert [o.text() for o in outcomes if not o.passed] == []
    # behind by only 80 with behind=80: now the blind bid
    outcomes = run_tests(load(POLICY, "501", {"behind": 50}))
    assert [o.entry.index for o in outcomes if not o.passed] == [3]


@pytest.mark.parametrize("seats", [3, 4])
def test_the_example_policy_plays_as_its_rules_say(seats):
    spec = f"rules:{POLICY}"
    records = cardsim.records("501", list(range(300)), seed=7, strategies={0: spec, 1: spec}, seats=seats)
    compiled = load(POLICY, "501")
    by_rules = 0
    for rec in records:
        cardsim.replay(rec)  # every call, talon choice and card legal, the score as recorded
        for seat, hand, situation, call in R.decisions(rec):
            if seat not in (0, 1):
                continue
            twin = fires(compiled.file, compiled.values, hand, situation)
            if twin is not None and twin[1] is not None:
                assert call == twin[1], (rec, seat, situation)
                by_rules += 1
    assert by_rules >= 300


def test_a_declare_rule_sets_the_target_it_names(tmp_path):
    # the policy's last rule declares every talon its abandon rule leaves: each declared contract's
    # target is max(bid, estimate of the eight kept in the trump - 28), within 220
    from cardsim.conditions import parse_hand

    records = cardsim.records("501", list(range(300)), seed=3, strategies=f"rules:{POLICY}")
    checked = 0
    for rec in records:
        res = rec["result"]
        if res["declarer"] is None or res["abandoned"]:
            continue
        d = res["declarer"]
        ten = sum(1 << c for c in parse_hand("501", " ".join(rec["hands"][d] + rec["talon"])))
        given = sum(1 << c for c in parse_hand("501", " ".join(rec["contract"]["give"].values())))
        trump = 4 if res["trump"] == "NT" else SUITS.index(res["trump"])
        want = min(220, max(res["contract"], int(estimate(np.uint64(ten & ~given), trump) - 28)))
        assert res["target"] == want, (rec, want)
        checked += 1
    assert checked >= 100

    # bid + K: the bid and 15 whatever the hand, never abandoned
    path = tmp_path / "t.toml"
    path.write_text('game = "501"\n[[rule]]\ncall = "declare"\ntarget = "bid + 15"\n')
    records = cardsim.records("501", list(range(100)), seed=3, strategies=f"rules:{path}")
    declared = [r["result"] for r in records if r["result"]["declarer"] is not None]
    assert len(declared) >= 50
    assert all(not r["abandoned"] and r["target"] == min(220, r["contract"] + 15) for r in declared)


def test_rules_check_judges_a_talon_condition_on_ten_cards(tmp_path):
    from cardsim.rules.check import never_fire

    path = tmp_path / "t.toml"
    path.write_text('game = "501"\n[[rule]]\ncall = "declare"\ntarget = "bid + 20"\nwhen = "points>=80"\n'
                    '[[rule]]\ncall = "raise"\nwhen = "points>=80"\n')
    idle = never_fire(load(path, "501"))
    # 80 card points fit in ten cards (the talon rule) but not in the seven held after looking
    assert [(e.index, "points>=80 is impossible" in why) for e, why in idle] == [(1, True)]


def test_a_501_file_is_not_a_vint_strategy():
    with pytest.raises(RuleFileError, match="bids for 501, not vint"):
        get_game("vint").table.registry.resolve(f"rules:{POLICY}")


@pytest.mark.parametrize("text,line,words", [
    ('game = "501"\n[[rule]]\nbid = ">=120"\ncall = "110"\n', 4, "110 is never legal here"),
    ('game = "501"\n[[rule]]\ncall = "60"\n', 3, "not a 501 call"),
    ('game = "501"\n[[rule]]\nstage = "blind"\ncall = "raise"\nwhen = "points>=20"\n', 5, "before looking"),
    ('game = "501"\n[[rule]]\nstage = "looked"\ncall = "look"\n', 4, "look is a call before looking"),
    ('game = "501"\n[[rule]]\ncall = "abandon"\nscore = "<=100"\n', 4, "score is not seen at stage talon"),
    ('game = "501"\n[[rule]]\ncall = "declare"\n', 2, "a declare rule names its target"),
    ('game = "501"\n[[rule]]\ncall = "declare"\ntarget = "estimate * 2"\n', 4, "write estimate - K"),
    ('game = "501"\n[[rule]]\ncall = "pass"\ntarget = "bid"\n', 4, "only a declare rule has a target"),
    ('game = "501"\n[[rule]]\ncall = "pass"\nlead = "behind"\n', 4, "write N, N-M"),
    ('game = "501"\n[[rule]]\ncall = "pass"\nbid = "100-90"\n', 4, "the range is empty"),
    ('game = "501"\n[[rule]]\ncall = "pass"\nseats = "5"\n', 4, "write any, 3, 4"),
    ('game = "501"\n[[rule]]\nstage = "blind"\ncall = "raise"\nothers_blind = "yes"\n', 5,
     "others_blind is not seen at stage blind"),
    ('game = "501"\n[[rule]]\ncall = "pass"\nlead = "<=-{behind}"\n', 4, "{behind} is not a parameter"),
    ('game = "501"\n[[rule]]\ncall = "pass"\nwhen = "trumps>=3"\n', 4, "unknown 501 feature"),
    ('game = "501"\n[[rule]]\ncall = "pass"\ntalon = "S:A"\n', 4, "talon is a test's key"),
])
def test_bad_files(tmp_path, text, line, words):
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError) as info:
        load(path, "501")
    assert str(info.value).startswith(f"{path}:{line}: ") and words in str(info.value), str(info.value)


def test_the_blind_policy_bids_blind_in_whole_games_when_behind():
    # whole games (scores move): the file at seat 0 bids blind by its first rule when 100 behind
    spec = f"rules:{POLICY}"
    compiled = load(POLICY, "501")
    fired = {}
    for match in range(20):
        for rec in cardsim.match_records("501", match, seed=4, strategies={0: spec}):
            cardsim.replay(rec)
            for seat, hand, situation, call in R.decisions(rec):
                if seat != 0:
                    continue
                twin = fires(compiled.file, compiled.values, hand, situation)
                if twin is not None and twin[1] is not None:
                    assert call == twin[1], (rec, situation)
                    fired[twin[0]] = fired.get(twin[0], 0) + 1
    assert fired.get(0, 0) >= 5 and fired.get(1, 0) >= 50, fired  # blind bids when behind, looks otherwise
