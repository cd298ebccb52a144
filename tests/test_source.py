"""The ``source`` of simulated records (docs/RECORDS.md): it regenerates the record; replay ignores it
unless it is not an object."""
import json

import pytest

import cardsim
from cardsim.games.base import RecordError

RUNS = [
    ("vint", {"strategies": ["heuristic", "random", "greedy", "heuristic:aggression=1"]}),
    ("501", {}),
    ("501", {"seats": 4, "strategies": ["random", "heuristic", "random", "heuristic:blind_prob=1"]}),
    ("500", {"strategies": "random", "rules": {"scoring": "subtract", "target": 500}}),
    ("500", {}),
]


@pytest.mark.parametrize("game,kwargs", RUNS)
def test_source_regenerates_the_record(game, kwargs):
    recs = cardsim.records(game, [5, 0, 17], seed=31, **kwargs)
    assert [r["source"]["deal"] for r in recs] == [5, 0, 17]
    for rec in recs:
        rec = json.loads(json.dumps(rec))  # as read back from a .jsonl file
        src = rec["source"]
        assert src["cardsim"] == cardsim.__version__ and src["seed"] == 31
        assert len(src["strategies"]) == rec["seats"]
        again = cardsim.records(game, [src["deal"]], seed=src["seed"], strategies=src["strategies"],
                                rules=src["rules"], seats=rec["seats"])
        assert again == [rec]


def test_source_names_the_rule_options_as_json_values():
    rec = cardsim.records("500", [1], seed=2, rules=["scoring=subtract", "target=750"])[0]
    assert rec["source"]["rules"] == {"scoring": "subtract", "target": 750}
    assert rec["source"]["strategies"] == ["heuristic"] * 4


@pytest.mark.parametrize("game", ["vint", "501", "500"])
@pytest.mark.parametrize("bad", [5, "seed 1", ["x"], True])
def test_replay_rejects_a_source_that_is_not_an_object(game, bad):
    rec = cardsim.records(game, [0], seed=4)[0]
    rec["source"] = bad
    with pytest.raises(RecordError, match="source must be an object") as exc:
        cardsim.replay(rec)
    assert exc.value.field == "source" and exc.value.index is None


@pytest.mark.parametrize("game", ["vint", "501", "500"])
def test_replay_ignores_the_content_of_source(game):
    rec = cardsim.records(game, [0], seed=4)[0]
    for source in ({}, {"seed": "not even a number", "by": "hand"}):
        rec["source"] = source
        assert cardsim.replay(rec) == rec["result"]
    del rec["source"]
    assert cardsim.replay(rec) == rec["result"]
    rec["source"] = None  # null means absent (docs/RECORDS.md Strictness)
    assert cardsim.replay(rec) == rec["result"]
