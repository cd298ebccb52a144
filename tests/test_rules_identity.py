"""A run's identity holds a rule file's content (docs/rules-files.md, "How a file is compiled"):
resuming into a store or dataset after the file or one of its includes was edited refuses,
instead of playing the two halves with two systems."""
from __future__ import annotations

from pathlib import Path

import pytest

import cardsim
from cardsim.rules import digests
from cardsim.runner.files import OutputError
from cardsim.runner.run import make_run

NATURAL = Path(__file__).resolve().parents[1] / "examples" / "systems" / "vint-natural.toml"


def _system(tmp_path, nt_low=15):
    inc = tmp_path / "openings.toml"
    inc.write_text(f'[params]\nnt_low = {nt_low}\n[[rule]]\nauction = "opening"\ncall = "1NT"\n'
                   'when = "hcp={nt_low}-17, balanced"\n')
    main = tmp_path / "main.toml"
    main.write_text('game = "vint"\ninclude = ["openings.toml"]\n')
    return main


def test_the_manifest_holds_the_files_digest(tmp_path):
    main = _system(tmp_path)
    spec = f"rules:{main}:nt_low=14"
    m = make_run("vint", 10, 0, {0: spec, 2: spec}).manifest()
    assert m["rule_files"] == {spec: cardsim.rules.read(main).digest} and len(m["rule_files"][spec]) == 64
    assert "rule_files" not in make_run("vint", 10, 0).manifest()  # other runs' manifests are unchanged
    before = digests([spec, "heuristic"])
    _system(tmp_path, nt_low=16)  # only the included file changes
    assert digests([spec, "heuristic"]) != before and list(before) == [spec]


def test_resuming_a_store_after_an_edit_refuses(tmp_path):
    main = _system(tmp_path)
    spec = {0: f"rules:{main}", 2: f"rules:{main}"}
    store = tmp_path / "store"
    first = cardsim.play_match("vint", 3, seed=1, strategies=spec, store=store, n_jobs=1, chunk_size=2)[0]
    again = cardsim.play_match("vint", 3, seed=1, strategies=spec, store=store, n_jobs=1, chunk_size=2)[0]
    assert first.equals(again)  # unchanged: the same run resumes
    _system(tmp_path, nt_low=14)
    with pytest.raises(OutputError, match=r"holds a different run \(it differs in rule_files"):
        cardsim.play_match("vint", 3, seed=1, strategies=spec, store=store, n_jobs=1, chunk_size=2)
