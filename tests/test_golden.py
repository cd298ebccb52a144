"""The golden digests (tests/golden/*.json) still describe what the engine plays.

A failure here means the rows, matches or records of a fixed run changed.  If that was meant,
run ``make golden`` and say why in the commit message; otherwise the change broke something.
"""
import json

import pytest

import golden_digests as G


def _diff(old, new, where=""):
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new)):
            out += _diff(old.get(k), new.get(k), f"{where}/{k}")
        return out
    return [] if old == new else [where]


@pytest.mark.parametrize("game", ["vint", "501", "500"])
def test_golden_digests_unchanged(game):
    stored = G.load(game)
    fresh = json.loads(json.dumps(G.compute(game)))
    changed = _diff(stored, fresh)
    assert not changed, f"{game}: golden entries changed: {changed[:12]} (make golden if meant)"


def test_golden_covers_every_variant_and_records():
    for game in ("vint", "501", "500"):
        doc = G.load(game)
        assert set(doc["simulate"]) == set(G.VARIANTS[game])
        assert set(doc["play_match"]) == set(G.MATCH_VARIANTS[game])
        for recs in doc["records"].values():
            assert len(recs) == 5
            assert all(json.loads(r)["game"] == game and "result" in json.loads(r) for r in recs)
        assert all(len(d) == 64 for d in doc["simulate"].values())


def test_digest_sees_a_one_byte_change():
    import numpy as np
    a = np.zeros(3, dtype=[("x", "i1"), ("y", "i2")])
    b = a.copy()
    b["y"][2] = 1
    assert G._digest(a) != G._digest(b)
    assert G._digest(a) != G._digest(a.astype([("x", "i2"), ("y", "i2")]))
