"""Every answer names its rules: the evaluate header, its JSON and ``df.attrs`` carry the rules in
force, defaults included, for every game (a Five Hundred game question played to 1000 said nothing of
the target before)."""
import json

import pytest

from cardsim import questions as E
from cardsim.cli import main
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError

SECTIONS = {"501": "§1", "vint": "§2", "500": "§3"}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_names_its_section_of_the_rules(game):
    force = get_game(game).rules_in_force()
    assert force["text"].endswith(f"docs/RULES.md {SECTIONS[game]}" + ("" if game == "500" else ", no rule options"))
    assert set(force["options"]) == {o.name for o in get_game(game).table.rule_options}
    assert force["defaults"] == list(force["options"])


def test_five_hundred_rules_text_marks_the_defaults():
    spec = get_game("500")
    assert spec.rules_in_force()["text"] == "scoring=quebec (default), target=1000 (default); docs/RULES.md §3"
    force = spec.rules_in_force(spec.parse_rules(["target=500", "scoring=subtract"]))
    assert force == {"options": {"scoring": "subtract", "target": 500}, "defaults": [],
                     "text": "scoring=subtract, target=500; docs/RULES.md §3"}
    with pytest.raises(OptionError, match="unknown 500 rule option 'trump'"):
        spec.rules_in_force({"trump": 1})


@pytest.mark.parametrize("game,options", [("vint", ["P", "1S"]), ("501", ["look", "pass"]), ("500", ["P", "6S"])])
def test_answer_attrs_carry_the_rules(game, options):
    df = E.evaluate(game, seat=0, options=options, n=40, seed=2, n_jobs=1)
    assert df.attrs["rules"] == get_game(game).rules_in_force()["options"]
    assert df.attrs["rules_text"] == get_game(game).rules_in_force()["text"]


GAME_QUESTION = ["evaluate", "500", "--seat", "0", "--where", "jokers=2, trumps_H>=5", "--option", "=8H",
                 "--option", "=6H", "--before", "480,300", "--outcome", "game", "-n", "30", "--seed", "2",
                 "--jobs", "1"]


def test_game_question_says_it_plays_to_1000(capsys):
    # The exact question of the issue: the game is played on to the default target, and now says so.
    assert main(GAME_QUESTION) == 0
    out = capsys.readouterr().out.splitlines()
    assert ("dealer: drawn per deal; before: 480,300; rules: scoring=quebec (default), target=1000 (default); "
            "docs/RULES.md §3") in out
    assert main([*GAME_QUESTION, "--rule", "target=500", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["rules"] == {"scoring": "quebec", "target": 500}
    assert answer["rules_text"] == "scoring=quebec (default), target=500; docs/RULES.md §3"
    assert answer["outcome"] == "game" and {r["option"] for r in answer["options"]} == {"=8H", "=6H"}
    assert answer["dealer"] is None and answer["before"] == [480, 300] and answer["reach"] is None


def test_the_answer_names_its_dealer_and_match_state(capsys):
    # Three dealers gave three answers under one header: the dealer and the score are the question too.
    base = ["evaluate", "vint", "--seat", "0", "--option", "P", "--option", "1NT", "-n", "40", "--jobs", "1"]
    assert main([*base, "--dealer", "1", "--before", "380,300,1,0"]) == 0
    assert ("dealer: seat 1; before: 380,300,1,0; rules: docs/RULES.md §2, no rule options"
            in capsys.readouterr().out.splitlines())
    assert main([*base, "--dealer", "3", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["dealer"] == 3 and answer["before"] is None
    assert main([*base, "--robust", "--profile", "bold", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["dealer"] is None and answer["conditions"] == "no conditions"
    assert answer["strategies"] == ["heuristic"] * 4 and answer["outcome"] == "deal"


def test_until_clear_and_robust_name_the_rules(capsys):
    base = ["evaluate", "500", "--seat", "0", "--option", "P", "--option", "=10NT", "--seed", "1", "--jobs", "1",
            "--rule", "scoring=subtract"]
    assert main([*base, "--until-clear", "--max-deals", "2000", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["rules"] == {"scoring": "subtract", "target": 1000} and "until_clear" in answer
    assert main([*base, "--until-clear", "--max-deals", "2000"]) == 0
    assert "rules: scoring=subtract, target=1000 (default); docs/RULES.md §3" in capsys.readouterr().out
    assert main([*base, "-n", "40", "--robust", "--profile", "bold", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["rules"] == {"scoring": "subtract", "target": 1000}
    assert main([*base, "-n", "40", "--robust", "--profile", "bold"]) == 0
    assert "rules: scoring=subtract, target=1000 (default); docs/RULES.md §3" in capsys.readouterr().out


def test_report_captions_name_the_rules():
    # A caption said "rules default" for every Vint and 501 table: which rules is that?
    from analyses.report import rules_caption

    assert rules_caption({"game": "vint", "rules": {}}) == "rules docs/RULES.md §2, no rule options"
    assert rules_caption({"game": "501"}) == "rules docs/RULES.md §1, no rule options"
    assert rules_caption({"game": "500", "rules": {}}) == (
        "rules scoring=quebec (default), target=1000 (default); docs/RULES.md §3")
    assert rules_caption({"game": "500", "rules": {"scoring": "quebec and subtract"}}) == (
        "rules scoring=quebec and subtract; docs/RULES.md §3")
    assert rules_caption({"game": "whist", "rules": {"x": 1}}) == "rules x=1"
