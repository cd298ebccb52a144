"""``cardsim rules explain`` (docs/rules-files.md, "Explaining a call") and the slow twin on the
system features (``balanced``, stoppers …)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardsim.cli import main
from cardsim.conditions import parse_hand
from cardsim.games.vint import rulefile as R
from cardsim.rules import load
from cardsim.rules.explain import clause_failed, explain, read_situation
from cardsim.rules.twin import fires, holds

ROOT = Path(__file__).resolve().parents[1]
NATURAL = ROOT / "examples" / "systems" / "vint-natural.toml"
TRUMPS = ROOT / "examples" / "systems" / "g500-trumps.toml"


def bits(game: str, hand: str) -> int:
    return sum(1 << c for c in parse_hand(game, hand))


def _write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


# ---------------------------------------------------------------- the slow twin on the system features
def test_the_twin_reads_the_system_features():
    """The features that are kinds of cardsim.holding (not sums of card weights): the twin read
    them as 0 (``balanced`` never held, ``not balanced`` always), so a file using them disagreed
    with the engine."""
    flat = bits("vint", "S:AK4 H:Q73 D:QJ42 C:Q86")  # 14 points, 3-3-4-3, every suit stopped (A, Qxx), 7 losers
    assert holds("vint", "balanced", flat) and not holds("vint", "not balanced", flat)
    assert holds("vint", "stoppers=4, losers=7", flat) and not holds("vint", "stoppers<=3", flat)
    shapely = bits("vint", "S:AKJ9842 H:7 D:QJ4 C:86")
    assert holds("vint", "not balanced, not semi_balanced, longest=7, shortest=1", shapely)


def test_the_interpreter_agrees_with_the_twin_on_system_features(tmp_path):
    path = _write(tmp_path, 'game = "vint"\n'
                  '[[rule]]\nauction = "opening"\ncall = "1NT"\nwhen = "hcp=12-17, balanced"\n'
                  '[[rule]]\nauction = "opening"\ncall = "2NT"\nwhen = "semi_balanced, stoppers>=3"\n'
                  '[[rule]]\nauction = "opening"\ncall = "1H"\nwhen = "losers<=7, quick_tricks>=1.5"\n'
                  '[[rule]]\nauction = "opening"\ncall = "1S"\nwhen = "not balanced, controls>=3"\n')
    compiled = load(path, "vint")
    row, rng, fired = compiled.row(), np.random.default_rng(7), set()
    calls = np.zeros(0, dtype=np.int64)
    for _ in range(2000):
        hand = sum(1 << (16 * (int(c) // 13) + int(c) % 13) for c in rng.permutation(52)[:13])
        got = int(R.rules_call(row, np.uint64(hand), calls, 0, 0))
        twin = fires(compiled.file, compiled.values, hand, calls)
        assert got == (-1 if twin is None else twin[1]), hex(hand)
        if twin is not None:
            fired.add(twin[0])
    assert fired == {0, 1, 2, 3}


# ---------------------------------------------------------------- rules explain
def test_explain_names_the_failed_clause_with_the_hands_value():
    compiled = load(NATURAL, "vint")
    hand = bits("vint", "S:AK4 H:Q73 D:QJ42 C:Q86")  # 14 points, 3-3-4-3
    result = explain(compiled, hand, read_situation(R, "P P"))
    assert [s.text().partition(": ")[2] for s in result.steps] == [
        "rule #1 (2NT) does not fire: its condition fails at hcp=20-21: hcp is 14",
        "rule #2 (1NT) does not fire: its condition fails at hcp=15-17: hcp is 14",
        "rule #3 (1H) does not fire: its condition fails at H>=5: H is 3",
        "rule #4 (1S) does not fire: its condition fails at S>=5: S is 3",
        "rule #5 (1D) fires: its context matches and condition 'hcp=12-21, D>=4' holds"]
    assert (result.rule, result.call, result.by_base) == (4, "1D", False)
    assert result.steps[0].where == f"{NATURAL}:16"
    # nt_low=14: the 1NT rule takes the same hand.
    result = explain(load(NATURAL, "vint", {"nt_low": 14}), hand, read_situation(R, ""))
    assert (result.rule, result.call) == (1, "1NT")
    # After partner's 1S no response rule holds (14 points, three spades): the base calls.
    result = explain(compiled, hand, read_situation(R, "1S P"))
    assert result.rule is None and result.by_base and len(result.steps) == 21
    assert result.steps[0].reason == "its context (auction 'opening') does not match"
    assert result.steps[17].reason == "its condition fails at hcp<=5: hcp is 14"


def test_explain_reads_cards_flags_and_units():
    hand = bits("vint", "S:AK4 H:Q73 D:QJ42 C:Q86")
    assert clause_failed("vint", "hcp>=10, has AS AH, not KS", hand) == "has AS AH: AH not held"
    assert clause_failed("vint", "not KS QD", hand) == "not KS QD: KS QD held"
    assert clause_failed("vint", "balanced, not balanced", hand) == "not balanced: balanced is 1"
    assert clause_failed("vint", "quick_tricks>=3", hand) == "quick_tricks>=3: quick_tricks is 2"  # AK
    kx = bits("vint", "S:AK4 H:K73 D:QJ42 C:Q86")  # AK and Kx: 2.5 quick tricks, written in tricks
    assert clause_failed("vint", "quick_tricks>=3", kx) == "quick_tricks>=3: quick_tricks is 2.5"
    assert clause_failed("vint", "hcp=10-15, balanced", hand) is None


def test_explain_a_rule_whose_call_is_illegal_there():
    compiled = load(ROOT / "tests" / "data" / "rules" / "vint-wildcards.toml", "vint")
    # Rule #1 ("... * bid", 2NT with 9+ points, the ace and not the king of spades) after a 3C
    # overcall: 2NT is not above 3C, so the base calls.
    hand = bits("vint", "S:AQ4 H:Q73 D:QJ42 C:K86")
    result = explain(compiled, hand, read_situation(R, "1S 3C"))
    assert (result.rule, result.by_base) == (0, True)
    assert result.steps[0].reason == ("context and condition hold, but 2NT is illegal in this auction: the base "
                                      "strategy calls instead")
    assert result.call != "2NT"
    result = explain(compiled, hand, read_situation(R, "1S 1C"))
    assert (result.rule, result.by_base, result.call) == (0, False, "2NT")


def test_explain_five_hundred():
    compiled = load(TRUMPS, "500")
    from cardsim.games.g500 import rulefile as G

    hand = bits("500", "HJ S:54 H:AKQ9 D:J C:K4")  # hearts as trumps: 4 + the jack of diamonds + HJ
    result = explain(compiled, hand, read_situation(G, None))
    assert [s.reason for s in result.steps[:2]] == ["its condition fails at trumps_H>=7: trumps_H is 6",
                                                     "its condition fails at trumps_D>=7: trumps_D is 2"]
    assert (result.rule, result.call, result.by_base) == (2, "6H", False)
    # Over an opponent's 8H no overcall rule's bid beats it.
    result = explain(compiled, hand, read_situation(G, "opponent 8H"))
    assert all(not s.fired for s in result.steps[:7])


def test_explain_on_the_command_line(capsys, tmp_path):
    assert main(["rules", "explain", str(NATURAL), "--hand", "S:AK4 H:Q73 D:QJ42 C:Q86", "--auction", "P P"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"call: 1D, rule #5 ({NATURAL}:40)" and len(out) == 6
    assert main(["rules", "explain", str(NATURAL), "--hand", "S:AK4 H:Q73 D:QJ42 C:Q86", "--auction", "1S P"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("no rule holds: the base strategy (heuristic) "
                                                                        "calls ")
    for argv, message in (
            (["--hand", "S:AK4 H:Q73 D:QJ42"], "--hand 'S:AK4 H:Q73 D:QJ42' has 10 cards; a vint hand has 13"),
            (["--hand", "S:AK4 H:Q73 D:QJ42 C:Q8Z"], "--hand 'S:AK4 H:Q73 D:QJ42 C:Q8Z'"),
            (["--hand", "S:AK4 H:Q73 D:QJ42 C:Q86", "--auction", "1NT 1S"], "1S is not above 1NT"),
            (["--hand", "S:AK4 H:Q73 D:QJ42 C:Q86", "--auction", "1NT XX"], "'XX' is not a Vint call"),
            (["--hand", "S:AK4 H:Q73 D:QJ42 C:Q86", "--param", "nt=3"], "parameter 'nt' is not declared")):
        assert main(["rules", "explain", str(NATURAL), *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
    missing = tmp_path / "none.toml"
    assert main(["rules", "explain", str(missing), "--hand", "S:AK4 H:Q73 D:QJ42 C:Q86"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(missing) in err[0]
