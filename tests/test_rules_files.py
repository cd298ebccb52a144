"""Rule files (docs/rules-files.md): reading, compiling, the jitted interpreter against the slow
twin, the example system played, and every bad file's one-line FILE:LINE error."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.games import get_game
from cardsim.games.vint import rulefile as R
from cardsim.games.vint.rules import parse_call
from cardsim.rules import RuleFileError, load
from cardsim.rules.check import run_tests
from cardsim.rules.twin import fires
from cardsim.strategies.registry import StrategyError

ROOT = Path(__file__).resolve().parents[1]
NATURAL = ROOT / "examples" / "systems" / "vint-natural.toml"
WILD = ROOT / "tests" / "data" / "rules" / "vint-wildcards.toml"
BIDS = [parse_call(t) for t in ("1S", "1C", "1D", "1H", "1NT", "2S", "2H", "2NT", "3C", "3NT")]


def hand_bits(cards) -> int:
    return sum(1 << (16 * (int(c) // 13) + int(c) % 13) for c in cards)


def random_auction(rng) -> np.ndarray:
    """A legal Vint auction in progress: some passes, then calls that are passes or bids above
    the standing one, drawn mostly from the bids the files name."""
    calls, current = [0] * int(rng.integers(0, 4)), 0
    for _ in range(int(rng.integers(0, 5))):
        if rng.random() < 0.45:
            calls.append(0)
            continue
        above = [b for b in BIDS if b > current] if rng.random() < 0.7 else list(range(current + 1, 36))
        if not above:
            calls.append(0)
            continue
        current = int(rng.choice(above))
        calls.append(current)
    return np.array(calls, dtype=np.int64)


@pytest.mark.parametrize("path,values", [(NATURAL, {}), (NATURAL, {"nt_low": 13}), (WILD, {"low": 5})])
def test_interpreter_agrees_with_the_slow_twin(path, values):
    compiled = load(path, "vint", values)
    row = compiled.row()
    rng = np.random.default_rng(48)
    fired = set()
    for _ in range(3000):
        hand = hand_bits(rng.permutation(52)[:13])
        calls = random_auction(rng)
        current = int(calls.max()) if len(calls) else 0
        got = int(R.rules_call(row, np.uint64(hand), calls, len(calls), current))
        twin = fires(compiled.file, compiled.values, hand, calls)
        want = -1 if twin is None or twin[1] is None else twin[1]
        assert got == want, (path.name, hex(hand), calls.tolist(), twin)
        if twin is not None:
            fired.add(twin[0])
    # The random hands and auctions reach most rules, so the agreement is not only on "none fires".
    assert len(fired) >= len(compiled.file.rules) // 2, sorted(fired)


def test_the_example_system_passes_its_own_tests():
    outcomes = run_tests(load(NATURAL, "vint"))
    assert len(outcomes) == 9
    assert [o.text() for o in outcomes if not o.passed] == []
    assert all(o.rule is not None for o in outcomes)


def test_a_parameter_from_the_spec_moves_the_rule():
    hand = "S:AK4 H:Q73 D:QJ42 C:Q86"  # 14 high-card points, 3-3-4-3
    bits = sum(1 << c for c in cardsim.conditions.parse_hand("vint", hand))
    for spec, want in (("", "1D"), (":nt_low=14", "1NT")):
        strategy, row = get_game("vint").table.registry.resolve(f"rules:{NATURAL}{spec}")
        assert strategy.name == "rules"
        params = np.tile(row, (4, 1))
        ids = np.full(4, strategy.id, dtype=np.int64)
        assert R.call_text(R.choose(ids, params, bits, np.zeros(0, dtype=np.int64))) == want


def test_where_no_rule_holds_the_base_calls_and_plays():
    """A 23-count opens as heuristic does: no rule of the natural system covers it."""
    reg = get_game("vint").table.registry
    _, row = reg.resolve(f"rules:{NATURAL}:base.aggression=1")
    _, base_row = reg.resolve("heuristic:aggression=1")
    assert (row[:16] == base_row[:16]).all()
    bits = sum(1 << c for c in cardsim.conditions.parse_hand("vint", "S:AKQ4 H:AKJ3 D:KQ2 C:K8"))
    ids = np.full(4, reg["rules"].id, dtype=np.int64)
    base_ids = np.full(4, reg["heuristic"].id, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    assert R.choose(ids, np.tile(row, (4, 1)), bits, empty) == R.choose(base_ids, np.tile(base_row, (4, 1)),
                                                                          bits, empty)


def test_the_example_system_plays_deals_legally_and_as_its_rules_say():
    strategies = {0: f"rules:{NATURAL}", 2: f"rules:{NATURAL}"}
    records = cardsim.records("vint", list(range(300)), seed=5, strategies=strategies)
    compiled = load(NATURAL, "vint")
    by_rules = 0
    for rec in records:
        cardsim.replay(rec)  # every call and card legal, the score as recorded
        calls = [parse_call(t) for t in rec["auction"]]
        for i, call in enumerate(calls):
            seat = (rec["dealer"] + i) % 4
            if seat % 2:
                continue
            hand = sum(1 << c for c in cardsim.conditions.parse_hand("vint", " ".join(rec["hands"][seat])))
            twin = fires(compiled.file, compiled.values, hand, np.array(calls[:i], dtype=np.int64))
            if twin is not None and twin[1] is not None:
                assert call == twin[1], (rec["deal"] if "deal" in rec else rec, i)
                by_rules += 1
    assert by_rules >= 250  # 275 of the rules seats' calls on these 300 deals came from the file
    df = cardsim.simulate("vint", 2000, seed=3, strategies=strategies, n_jobs=1)
    assert len(df) == 2000


def _write(tmp_path, text, name="s.toml", mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text)
    return p


GOOD_HEAD = 'game = "vint"\n[params]\nnt_low = 15\n'
GOOD_RULE = '[[rule]]\nauction = "opening"\ncall = "1NT"\nwhen = "hcp={nt_low}-17"\n'


@pytest.mark.parametrize("text,line,words", [
    (GOOD_HEAD + GOOD_RULE + 'colour = "red"\n', 8, "unknown key 'colour'"),
    ('game = "vint"\nsystem = "x"\n' + GOOD_RULE, 2, "unknown key 'system'"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "... 2H"\ncall = "1NT"\n', 10,
     "1NT is never legal after this auction"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "1NT 1S"\ncall = "P"\n', 9, "never happens"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\ncall = "2X"\n', 9, "not a Vint call"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "opening"\ncall = "1H"\nwhen = "hcp>>12"\n', 11,
     "condition 'hcp>>12'"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "opening"\ncall = "1H"\nwhen = "colour>=2"\n', 11,
     "unknown vint feature 'colour'"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "opening"\ncall = "1H"\nwhen = "hcp>={nt_hi}"\n', 11,
     "{nt_hi} is not a parameter of the file"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "open ing"\ncall = "1H"\n', 9, "not a pattern token"),
    (GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "opening"\nwhen = "hcp>=1"\n', 8, "has no call"),
    ('game = "vint"\n[params]\nnt_low = "x"\n' + GOOD_RULE, 3, "must be a number"),
    ('game = "bridge"\n' + GOOD_RULE, 1, "game 'bridge' has no rule files"),
    ('base = "heuristic"\n' + GOOD_RULE, 1, "no game"),
    (GOOD_HEAD, 1, "no [[rule]]"),
    ('game = "vint"\nbase = "clever"\n' + GOOD_RULE, 2, "unknown vint strategy 'clever'"),
    ('game = "vint"\n[[rule]]\ncall = "1NT"\nauction = 3\n', 4, "auction must be a string"),
    ('game = "vint"\n[[rule]\ncall = "1NT"\n', 2, "not valid TOML"),
    ("", 1, "empty rule file"),
    ("# only a comment\n\n", 1, "empty rule file"),
])
def test_bad_files_are_one_line_errors_naming_file_and_line(tmp_path, text, line, words):
    path = _write(tmp_path, text)
    with pytest.raises(RuleFileError) as info:
        load(path, "vint")
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert words in message and "\n" not in message


def test_a_binary_file_a_missing_file_and_a_folder(tmp_path):
    binary = _write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00", "b.toml", "wb")
    with pytest.raises(RuleFileError, match=rf"^{binary}:1: a binary file"):
        load(binary, "vint")
    latin = _write(tmp_path, 'game = "vint"\n# caf\xe9\n'.encode("latin-1"), "l.toml", "wb")
    with pytest.raises(RuleFileError, match=rf"^{latin}:2: not UTF-8 text"):
        load(latin, "vint")
    with pytest.raises(RuleFileError, match=rf"^{tmp_path}/none.toml: no such rule file$"):
        load(tmp_path / "none.toml", "vint")
    with pytest.raises(RuleFileError, match="is a folder"):
        load(tmp_path, "vint")


def test_spec_errors(tmp_path):
    reg = get_game("vint").table.registry
    with pytest.raises(RuleFileError, match=rf"^{NATURAL}:11: parameter 'nt_hi' is not declared in the file"):
        reg.resolve(f"rules:{NATURAL}:nt_hi=14")
    with pytest.raises(StrategyError, match="'nt_low' of .*: 'x' is not a number"):
        reg.resolve(f"rules:{NATURAL}:nt_low=x")
    with pytest.raises(StrategyError, match="rules:PATH"):
        reg.resolve("rules")
    with pytest.raises(RuleFileError, match=r":9: base 'heuristic:.*has no parameter 'boldness'"):
        reg.resolve(f"rules:{NATURAL}:base.boldness=1")
    with pytest.raises(RuleFileError, match=rf"^{NATURAL}:8: the file bids for vint, not 500$"):
        get_game("500").table.registry.resolve(f"rules:{NATURAL}")
    with pytest.raises(RuleFileError, match=rf"^{NATURAL}:8: the file bids for vint, not 501$"):
        get_game("501").table.registry.resolve(f"rules:{NATURAL}")


def test_the_command_line_reports_a_bad_file_in_one_line(tmp_path):
    path = _write(tmp_path, GOOD_HEAD + GOOD_RULE + '[[rule]]\nauction = "... 2H"\ncall = "1NT"\n')
    out = subprocess.run([sys.executable, "-m", "cardsim", "simulate", "vint", "-n", "10", "--strategy",
                          f"rules:{path}", "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}:10: 1NT is never legal" in lines[0], out.stderr


def test_rules_check_runs_the_test_table(tmp_path, capsys):
    from cardsim.cli import main

    assert main(["rules", "check", str(NATURAL)]) == 0
    out = capsys.readouterr().out
    assert "vint, 21 rules, base heuristic, parameters nt_low=15, open_low=12" in out
    assert f"{NATURAL}:146: test #1: 1NT from rule #2 (line 22): ok" in out
    assert out.rstrip().endswith("9 tests: 9 passed, 0 failed")
    # At nt_low=14 the 14-count of test #2 opens 1NT: that test fails, exit code 1.
    assert main(["rules", "check", str(NATURAL), "--param", "nt_low=14"]) == 1
    out = capsys.readouterr().out
    assert f"{NATURAL}:152: test #2: 1NT from rule #2 (line 22): FAILED: expected 1D" in out
    assert out.rstrip().endswith("9 tests: 8 passed, 1 failed")
    bad = _write(tmp_path, GOOD_HEAD + GOOD_RULE + '[[test]]\nhand = "S:AKQ"\nauction = "1NT 1S"\nexpect = "P"\n')
    assert main(["rules", "check", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}:9: hand 'S:AKQ' has 3 cards; a test's hand is a whole hand of 13" in err[0], err
    bad = _write(tmp_path, GOOD_HEAD + GOOD_RULE + '[[test]]\nhand = "S:AKQJT98765432"\nauction = "1NT 1S"\n'
                 'expect = "P"\n')
    assert main(["rules", "check", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}:10: no auction in progress: 1S is not above 1NT" in err[0], err


def test_rules_check_names_the_rules_that_never_fire(tmp_path, capsys):
    from cardsim.cli import main
    from cardsim.rules.check import never_fire

    path = _write(tmp_path, 'game = "vint"\n'
                  '[[rule]]\nauction = "opening"\ncall = "1NT"\nwhen = "hcp>=12"\n'            # 2
                  '[[rule]]\nauction = "opening"\ncall = "2NT"\nwhen = "hcp=15-16, S<=4"\n'    # 6: shadowed
                  '[[rule]]\nauction = "... 1NT P"\ncall = "2NT"\nwhen = "hcp=15-16"\n'        # 10: other context
                  '[[rule]]\nauction = "opening"\ncall = "1H"\nwhen = "S<=4, honours_S>=5"\n'  # 14: impossible
                  '[[rule]]\nauction = "opening"\ncall = "1S"\nwhen = "hcp<=11"\n')            # 18: can fire
    idle = never_fire(load(path, "vint"))
    assert [(e.line, r.split(":")[0]) for e, r in idle] == [(6, f"rule #1 ({path}"), (14, "its condition never holds")]
    assert main(["rules", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:6: rule #2 never fires: rule #1 ({path}:2) has the same context and takes every hand" in out
    assert (f"{path}:14: rule #4 never fires: its condition never holds: S<=4, honours_S>=5 is impossible: no "
            "13-card vint hand meets them together") in out
    assert out.rstrip().endswith("2 rules never fire")
    assert never_fire(load(NATURAL, "vint")) == []


def test_fallbacks_count_the_rules_whose_call_was_illegal(capsys):
    """Only a rule whose pattern has wildcards can hold where its call is illegal (the others are
    refused when the file is read); the engine then lets the base call, and the count says how often."""
    from cardsim.cli import main
    from cardsim.rules.check import fallbacks

    total, by_rules, illegal = fallbacks(f"rules:{WILD}", "vint", 500, seed=0)
    records = cardsim.records("vint", list(range(500)), seed=0, strategies=f"rules:{WILD}")
    assert total == sum(len(r["auction"]) for r in records) and 0 < by_rules < total
    assert illegal and set(illegal) <= {0, 2}  # "... * bid" -> 2NT, "... 1D *" -> 2H
    total, by_rules, illegal = fallbacks(f"rules:{ROOT / 'examples' / 'systems' / 'g500-trumps.toml'}", "500", 300)
    assert illegal and set(illegal) == {7}  # "opponent *" -> 7H, over 7H or more
    assert main(["rules", "check", str(WILD), "--deals", "500"]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert out.startswith("500 deals (seed 0), the file at every seat: ") and "where a rule held but its call" in out


def test_a_rule_file_in_a_profile_and_in_compare():
    from cardsim import compare
    from cardsim.profiles import ProfileError, parse

    profiles = parse("vint", f'[natural]\ndoc = "a natural system"\nothers = "rules:{NATURAL}:nt_low=14"\n', "p.toml")
    assert profiles["natural"].seats == {"others": f"rules:{NATURAL}:nt_low=14"}
    with pytest.raises(ProfileError, match=r"others: .*:11: parameter 'nt_hi' is not declared"):
        parse("vint", f'[natural]\nothers = "rules:{NATURAL}:nt_hi=14"\n', "p.toml")
    # A partnership playing the file against the default players, on the same deals.
    natural = {0: f"rules:{NATURAL}", 2: f"rules:{NATURAL}"}
    t = compare("vint", 400, {}, {"natural": natural}, lambda df: df.total_0, seed=2, n_jobs=1).set_index("variant")
    a = cardsim.simulate("vint", 400, seed=2, n_jobs=1).total_0.astype(float)
    b = cardsim.simulate("vint", 400, seed=2, strategies=natural, n_jobs=1).total_0.astype(float)
    assert t.loc["natural", "n"] == 400 and t.loc["natural", "diff"] == pytest.approx(b.mean() - a.mean())
    assert (a != b).any() and (a == b).any()  # the file changes some deals' calls, not every deal's
