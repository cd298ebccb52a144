"""501's blind chart played as a policy until it stops changing (cardsim.analysis.g501_fixed, issue 32)."""
from __future__ import annotations

import pandas as pd

from cardsim.analysis import g501_fixed as F
from cardsim.analysis import g501_game as G
from cardsim.analysis.g501_policy import chart_table

SITS = [G.Situation(100, 0, 0), G.Situation(300, 100, 1), G.Situation(300, 0, 2)]
LEVELS = (70, 90)


def test_kind_and_policy_frame():
    assert [F.kind(v) for v in ("blind to 70-90", "look", G.NO_CLEAR)] == ["blind", "look", "unclear"]
    choice = pd.DataFrame({"own": [100, 300, 300], "lead": [0, 100, 0], "position": [0, 1, 2],
                           "best": ["blind:90", "blind:70", "look"], "verdict": ["blind to 90", G.NO_CLEAR, "look"]})
    pol = F.policy_frame(choice)
    assert list(pol.best) == ["blind:90", "look", "look"]  # an unclear cell is played safe
    table = chart_table(F.policy_spec(choice)).set_index(["own", "lead", "position"])
    assert table.loc[(100, 0, 0), "level"] == 90 and table.loc[(300, 100, 1), "level"] == 0


def _start():
    long = G.run_decisions(SITS, LEVELS, 80, 5, n_jobs=1, log=lambda s: None)
    return G.choices(long)


def test_iteration_is_deterministic_and_stops():
    start = _start()
    a = F.iterate(SITS, LEVELS, 60, 5, start, n_jobs=1, max_rounds=3, log=lambda s: None)
    b = F.iterate(SITS, LEVELS, 60, 5, start, n_jobs=1, max_rounds=3, log=lambda s: None)
    pd.testing.assert_frame_equal(a[1], b[1])
    pd.testing.assert_frame_equal(a[0], b[0])
    assert a[2] == b[2]
    rounds = a[1]
    assert 2 <= len(rounds) <= 4 and list(rounds["round"]) == list(range(len(rounds)))
    assert (rounds[["blind_cells", "look_cells", "unclear_cells"]].sum(axis=1) == len(SITS)).all()
    last = rounds.iloc[-1]
    if a[2].startswith("fixed point"):
        assert last.moved == 0
    elif a[2].startswith("cycle"):
        assert last.moved > 0
    else:
        assert a[2] == "not settled after 3 rounds" and len(rounds) == 4
    assert rounds.policy.iloc[1].startswith("chart:cells=")
    assert F.sentence(rounds, a[2], a[0]).startswith("Played as a policy by every seat")


def test_a_settled_chart_stops_after_one_round(monkeypatch):
    """When the recomputed chart's verdict kinds equal the start's, the iteration stops at once."""
    start = _start()
    monkeypatch.setattr(G, "choices", lambda long: start)
    choice, rounds, status = F.iterate(SITS, LEVELS, 40, 5, start, n_jobs=1, max_rounds=3, log=lambda s: None)
    assert status == "fixed point after 1 round" and list(rounds.moved) == [0, 0]


def test_a_position_the_chart_lacks_is_played_looking():
    choice = pd.DataFrame({"own": [100], "lead": [0], "position": [1], "best": ["blind:90"],
                           "verdict": ["blind to 90"]})
    table = chart_table(F.policy_spec(choice))
    assert set(table[table.position == 1].level) == {90} and set(table[table.position != 1].level) == {0}
