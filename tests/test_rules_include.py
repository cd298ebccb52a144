"""``include = [...]`` in rule files (docs/rules-files.md, "Including files"): the included files'
rules and tests first, in order, paths relative to the including file; a cycle, a missing file,
another game, another base, a parameter given two values — one-line errors naming file and line."""
from __future__ import annotations

import os

import pytest

from cardsim.cli import main
from cardsim.conditions import parse_hand
from cardsim.games.vint.rules import parse_call
from cardsim.rules import RuleFileError, load, read
from cardsim.rules.twin import fires

OPENINGS = ('[params]\nnt_low = 15\n'
            '[[rule]]\nauction = "opening"\ncall = "1NT"\nwhen = "hcp={nt_low}-17, balanced"\n'
            '[[test]]\nhand = "S:AK4 H:Q73 D:QJ42 C:K86"\nexpect = "1NT"\n')
RESPONSES = ('game = "vint"\n'
             '[[rule]]\nauction = "... 1NT P"\ncall = "P"\nwhen = "hcp<=7"\n')


def _files(tmp_path, **texts):
    for name, text in texts.items():
        path = tmp_path / name.replace("__", "/").replace("_toml", ".toml")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def bits(hand: str) -> int:
    return sum(1 << c for c in parse_hand("vint", hand))


def test_included_rules_come_first_in_order_and_play(tmp_path):
    _files(tmp_path, sys__openings_toml=OPENINGS, sys__responses_toml=RESPONSES,
           main_toml='game = "vint"\ninclude = ["sys/openings.toml", "sys/responses.toml"]\n[params]\nnt_low = 14\n'
                     '[[rule]]\nauction = "opening"\ncall = "1C"\nwhen = "hcp>=12"\n')
    main_path = tmp_path / "main.toml"
    file = read(main_path)
    assert [(e.path, e.line, e.index) for e in file.rules] == [
        (str(tmp_path / "sys" / "openings.toml"), 3, 0), (str(tmp_path / "sys" / "responses.toml"), 2, 1),
        (str(main_path), 5, 2)]
    assert file.params == {"nt_low": 14.0}  # the including file sets its includes' parameters
    assert [t.path for t in file.tests] == [str(tmp_path / "sys" / "openings.toml")]
    assert file.sources == (str(main_path), str(tmp_path / "sys" / "openings.toml"),
                            str(tmp_path / "sys" / "responses.toml"))
    compiled = load(main_path, "vint")
    fourteen = bits("S:AK4 H:Q73 D:QJ42 C:Q86")  # 14 points, balanced: 1NT at nt_low 14, before rule 3's 1C
    assert fires(compiled.file, compiled.values, fourteen, []) == (0, parse_call("1NT"))
    assert fires(compiled.file, compiled.values, bits("S:AK42 H:Q7 D:QJ42 C:Q86"), []) == (0, parse_call("1NT"))
    assert fires(compiled.file, compiled.values, bits("S:AKJ42 H:Q D:QJ42 C:Q86"), []) == (2, parse_call("1C"))
    assert main(["rules", "check", str(main_path)]) == 0


def test_an_edited_include_is_read_again(tmp_path):
    _files(tmp_path, inc_toml=OPENINGS, main_toml='game = "vint"\ninclude = ["inc.toml"]\n')
    main_path = tmp_path / "main.toml"
    assert load(main_path, "vint").values == {"nt_low": 15.0}
    inc = tmp_path / "inc.toml"
    inc.write_text(OPENINGS.replace("nt_low = 15", "nt_low = 16"))
    st = inc.stat()
    os.utime(inc, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))  # a new stamp even on a coarse clock
    assert load(main_path, "vint").values == {"nt_low": 16.0}
    edited = read(main_path).digest
    inc.write_text(OPENINGS)
    assert read(main_path).digest != edited and len(edited) == 64


@pytest.mark.parametrize("texts,where,words", [
    ({"a_toml": 'game = "vint"\ninclude = ["b.toml"]\n' + RESPONSES.split("\n", 1)[1],
      "b_toml": 'game = "vint"\ninclude = ["a.toml"]\n'}, "b.toml:2", "include 'a.toml' makes a cycle (a.toml -> b.toml -> a.toml)"),
    ({"a_toml": 'game = "vint"\ninclude = ["a.toml"]\n'}, "a.toml:2", "include 'a.toml' makes a cycle (a.toml -> a.toml)"),
    ({"a_toml": 'game = "vint"\n\ninclude = ["nope.toml"]\n'}, "a.toml:3", "include 'nope.toml': no such rule file"),
    ({"a_toml": 'game = "vint"\ninclude = ["b.toml"]\n', "b_toml": 'game = "500"\n'}, "b.toml:1",
     "an included file bids for 500, the file including it for vint"),
    ({"a_toml": 'game = "vint"\ninclude = ["b.toml"]\n', "b_toml": 'base = "heuristic:aggression=0"\n'},
     "b.toml:1", "base 'heuristic:aggression=0' differs from the including file's 'heuristic'"),
    ({"a_toml": 'game = "vint"\ninclude = ["b.toml", "c.toml"]\n' + RESPONSES.split("\n", 1)[1],
      "b_toml": '[params]\nx = 1\n', "c_toml": '[params]\nx = 2\n'}, "c.toml:2",
     "parameter x = 2 here and 1 in a file included before"),
    ({"a_toml": 'game = "vint"\ninclude = "b.toml"\n', "b_toml": 'game = "vint"\n'}, "a.toml:1",
     "no [[rule]] in the file or the files it includes"),
    ({"a_toml": 'game = "vint"\ninclude = [3]\n'}, "a.toml:2", "include must be a list of file names in quotes"),
    ({"a_toml": 'game = "vint"\ninclude = ["b.toml"]\n', "b_toml": '[[rule]]\nauction = "opening"\ncall = "9Z"\n'},
     "b.toml:3", "'9Z' is not a Vint call"),
])
def test_bad_includes_are_one_line_errors_naming_file_and_line(tmp_path, texts, where, words):
    _files(tmp_path, **texts)
    with pytest.raises(RuleFileError) as err:
        load(tmp_path / "a.toml", "vint")
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{tmp_path / where.split(':')[0]}:{where.split(':')[1]}: ")
    assert words in message, message


def test_an_include_with_the_same_value_twice_is_fine(tmp_path):
    _files(tmp_path, a_toml='game = "vint"\ninclude = ["b.toml", "c.toml"]\n' + RESPONSES.split("\n", 1)[1],
           b_toml='[params]\nx = 1\n', c_toml='[params]\nx = 1\n')
    assert load(tmp_path / "a.toml", "vint").values == {"x": 1.0}
