"""``rules check``'s never-firing rules (docs/rules-files.md, "Testing a system"): impossible
conditions and rules shadowed by earlier rules of the same or a more general context, alone or
between them, decided by the 0/1 program (``cardsim.conditions.program.reachable``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardsim.games.vint import rulefile as R
from cardsim.rules import load
from cardsim.rules.check import never_fire

ROOT = Path(__file__).resolve().parents[1]
NATURAL = ROOT / "examples" / "systems" / "vint-natural.toml"
TRUMPS = ROOT / "examples" / "systems" / "g500-trumps.toml"


def _write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_never_fire_sees_unions_general_contexts_and_system_features(tmp_path):
    path = _write(tmp_path, 'game = "vint"\n'
                  '[[rule]]\nauction = "opening"\ncall = "1NT"\nwhen = "hcp>=15"\n'                 # 2
                  '[[rule]]\nauction = "opening"\ncall = "1C"\nwhen = "hcp<=14, C>=3"\n'           # 6
                  '[[rule]]\nauction = "P P"\ncall = "1D"\nwhen = "hcp=12-16, C>=4"\n'              # 10: #1 + #2
                  '[[rule]]\nauction = "P P"\ncall = "1H"\nwhen = "balanced, S>=6"\n'               # 14: impossible
                  '[[rule]]\nauction = "P"\ncall = "1S"\nwhen = "hcp=16-18, semi_balanced"\n'       # 18: #1 alone
                  '[[rule]]\nauction = ""\ncall = "1S"\nwhen = "hcp=10-14, C<=2, balanced"\n'       # 22: can fire
                  '[[rule]]\nauction = "P P"\ncall = "1H"\nwhen = "hcp=10-14, C<=3, not balanced"\n'  # 26: can fire
                  '[[rule]]\nauction = "... 1NT P"\ncall = "P"\n'                                   # 30
                  '[[rule]]\nauction = "P 1NT P"\ncall = "2S"\nwhen = "S>=5"\n')                    # 33: #8 alone
    idle = never_fire(load(path, "vint"))
    assert [(e.line, r) for e, r in idle] == [
        (10, "the rules before it whose context holds wherever this one's does (#1, #2) take every hand this one "
             "takes between them"),
        (14, "its condition never holds: S>=6, balanced is impossible: no 13-card vint hand meets them together"),
        (18, f"rule #1 ({path}:2) has a context that holds wherever this one's does and takes every hand this one "
             "takes"),
        (33, f"rule #8 ({path}:30) has a context that holds wherever this one's does and takes every hand this one "
             "takes")]
    assert never_fire(load(NATURAL, "vint")) == []
    assert never_fire(load(TRUMPS, "500")) == []


@pytest.mark.parametrize("general,specific,covers", [
    ("opening", "P P", True), ("opening", "", True), ("", "opening", False), ("P P", "opening", False),
    ("... 1NT P", "P 1NT P", True), ("... 1NT P", "1S 1NT P", False), ("... * bid", "1S 1C", True),
    ("... * bid", "1S P", False), ("... bid P", "... 1NT P", True), ("... 1NT P", "... bid P", False),
    ("* *", "P 1S", True), ("* *", "... 1S P", False)])
def test_vint_context_covers(general, specific, covers):
    assert R.context_covers({"auction": general}, {"auction": specific}) is covers


@pytest.mark.parametrize("general,specific,covers", [
    ("any", "none", True), ("none", "none", True), ("none", "partner 7H", False), ("someone *", "partner 7H", True),
    ("someone 7H", "opponent 7H", True), ("partner *", "opponent 7H", False), ("opponent 7H", "opponent *", False),
    ("opponent *", "any", False)])
def test_five_hundred_context_covers(general, specific, covers):
    from cardsim.games.g500 import rulefile as G

    assert G.context_covers({"standing": general}, {"standing": specific}) is covers
