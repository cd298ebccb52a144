"""A run's identity holds a rule file's content (docs/rules-files.md, "How a file is compiled"):
resuming into a store or dataset after the file or one of its includes was edited refuses,
instead of playing the two halves with two systems; a store keyed by its manifest is a new one."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import cardsim
from cardsim.rules import digests, with_digests
from cardsim.runner.files import OutputError
from cardsim.runner.run import make_run
from cardsim.runner.store import ChunkStore, analysis_store, manifest_key
from cardsim.tune import tune

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


def test_stores_keyed_by_a_spec_anywhere_hold_the_files_contents(tmp_path):
    """A store whose manifest names a rule file outside a run's strategies (a tuning run's
    ``strategy``, an analysis's tasks) keys and checks it by the file's contents too."""
    main = _system(tmp_path)
    spec = f"rules:{main}"
    tuning = {"kind": "tune", "game": "vint", "strategy": spec, "start": {"nt_low": 15.0}}
    key = manifest_key(tuning)
    assert with_digests(tuning)["rule_files"] == {spec: cardsim.rules.read(main).digest}
    ChunkStore(tmp_path / "tune", tuning).save(0, "a step measured with nt_low 15")
    analysis = analysis_store(tmp_path / "results", "x", _system, tasks=[(spec, 10)])
    _system(tmp_path, nt_low=16)  # the included file changes
    assert manifest_key(tuning) != key
    with pytest.raises(OutputError, match=r"holds a different run \(it differs in rule_files"):
        ChunkStore(tmp_path / "tune", tuning)
    assert analysis_store(tmp_path / "results", "x", _system, tasks=[(spec, 10)]).path != analysis.path
    # a manifest naming no rule file keeps its key (stores left by earlier runs still resume),
    # and a string that only looks like a spec names no file
    plain = {"kind": "tune", "strategy": "heuristic", "note": "rules: none"}
    assert manifest_key(plain) == hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()[:16]
    assert with_digests(plain) is plain


def test_tune_does_not_reuse_steps_measured_with_an_older_file(tmp_path):
    """The failure this guards against: a tuning run's finished steps were kept by the spec's text
    only, so the same ``tune`` after an edit read them back as if measured with the new file."""
    path = tmp_path / "sys.toml"
    text = ('game = "vint"\n[params]\nnt_low = {{value = 15, range = [13, 17], step = 1}}\n[[rule]]\n'
            'auction = "opening"\ncall = "1NT"\nwhen = "hcp={{nt_low}}-{hi}, balanced"\n')
    path.write_text(text.format(hi=17))
    kwargs = dict(n_matches=4, budget=8, seed=2, n_jobs=1, store=tmp_path / "steps")
    first = tune("vint", f"rules:{path}", **kwargs)
    again = tune("vint", f"rules:{path}", **kwargs)  # unchanged: the kept steps are read back
    assert first.trajectory.equals(again.trajectory)
    path.write_text(text.format(hi=18))
    with pytest.raises(OutputError, match="differs in rule_files"):
        tune("vint", f"rules:{path}", **kwargs)
