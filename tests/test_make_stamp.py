"""The Makefile's run stamp: `make report STRATEGY=rules:FILE` rebuilds the tables when the rule file's
contents change, not only when the spec's text does (the stamp's name hashes both)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _stamp(*args: str) -> str:
    out = subprocess.run(["make", "-pn", "-C", str(ROOT), "report", *args], capture_output=True, text=True,
                         check=True).stdout
    return next(line.split(":=", 1)[1].strip() for line in out.splitlines() if line.startswith("RUN_STAMP :="))


def test_the_stamp_follows_the_rule_file_contents(tmp_path):
    rules = tmp_path / "system.toml"
    shutil.copy(ROOT / "examples" / "systems" / "vint-heuristic-openings.toml", rules)
    plain = _stamp()
    before = _stamp(f"STRATEGY=rules:{rules}")
    assert before != plain and "-strategy-" in before
    assert _stamp(f"STRATEGY=rules:{rules}") == before  # the same file: the same stamp
    rules.write_text(rules.read_text() + "\n# an edit\n")
    assert _stamp(f"STRATEGY=rules:{rules}") != before


def test_a_spec_without_a_file_is_keyed_by_its_text():
    assert _stamp("STRATEGY=heuristic:aggression=0.25") != _stamp("STRATEGY=heuristic:aggression=0.5")
    assert _stamp("STRATEGY=heuristic:aggression=0.25") == _stamp("STRATEGY=heuristic:aggression=0.25")
