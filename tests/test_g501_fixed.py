"""501's blind chart played as a policy until it stops changing (cardsim.analysis.g501_fixed, issue 32)."""
from __future__ import annotations

import pandas as pd

from cardsim.analysis import g501_fixed as F
from cardsim.analysis import g501_game as G
from cardsim.analysis.g501_policy import chart_table

SITS = [G.Situation(100, 0, 0), G.Situation(300, 100, 1), G.Situation(300, 0, 2)]
LEVELS = (70, 90)


def test_kind_first_policy_and_update():
    assert [F.kind(v) for v in ("blind to 70-90", "look", G.NO_CLEAR)] == ["blind", "look", "unclear"]
    choice = pd.DataFrame({"own": [100, 300, 300], "lead": [0, 100, 0], "position": [0, 1, 2],
                           "best": ["blind:90", "blind:70", "look"], "verdict": ["blind to 90", G.NO_CLEAR, "look"]})
    policy = F.first_policy(choice)
    assert policy == {(100, 0, 0): 90, (300, 100, 1): 0, (300, 0, 2): 0}  # an unclear cell starts looking
    table = chart_table(F.policy_spec(policy)).set_index(["own", "lead", "position"])
    assert table.loc[(100, 0, 0), "level"] == 90 and table.loc[(300, 100, 1), "level"] == 0
    # the next round: only clear verdicts move a cell; a cell clearly blind again takes its new level
    after = choice.assign(best=["blind:70", "blind:90", "blind:70"], verdict=[G.NO_CLEAR, "blind to 90", "blind to 70"])
    assert F.update(policy, after) == {(100, 0, 0): 90, (300, 100, 1): 90, (300, 0, 2): 70}
    after = choice.assign(best=["look", "look", "blind:80"], verdict=["look", G.NO_CLEAR, "blind to 80"])
    assert F.update(policy, after) == {(100, 0, 0): 0, (300, 100, 1): 0, (300, 0, 2): 80}


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
    assert rounds.policy_blind.between(0, len(SITS)).all()
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
    """When the recomputed chart's clear verdicts agree with the policy, the iteration stops at once."""
    start = _start()
    monkeypatch.setattr(G, "choices", lambda long: start)
    choice, rounds, status = F.iterate(SITS, LEVELS, 40, 5, start, n_jobs=1, max_rounds=3, log=lambda s: None)
    assert status == "fixed point after 1 round" and list(rounds.moved) == [0, 0]
    assert list(choice.policy) == [f"blind:{v}" if v else "look" for v in F.first_policy(start).values()]


def test_a_position_the_policy_lacks_is_played_looking():
    table = chart_table(F.policy_spec({(100, 0, 1): 90}))
    assert set(table[table.position == 1].level) == {90} and set(table[table.position != 1].level) == {0}


def test_the_fixed_chart_caption_says_what_was_run():
    """The caption said "recomputed until it no longer changes, or for a fixed number of rounds"
    whatever happened, and not the deals: it now names the rounds and the deals per situation, and
    "until it no longer changed" only at a fixed point."""
    two = pd.DataFrame({"round": [0, 1, 2]})
    settled = F.legend("fixed point after 2 rounds", two, 2500, "MARKS")
    assert settled == ("The same chart when every player at the table follows it: recomputed with every player on "
                       "it, 2 rounds after the chart against the default players, 2,500 deals per situation a round, "
                       "until it no longer changed (fixed point after 2 rounds). MARKS")
    capped = F.legend("not settled after 2 rounds", two, 2500, "MARKS")
    assert "no longer changed" not in capped and capped.startswith(
        "The same chart when every player at the table follows it: recomputed with every player on it, 2 rounds "
        "after the chart against the default players, 2,500 deals per situation a round; it did not settle "
        "(not settled after 2 rounds: the most rounds the report plays), the last round shown.")
    cycle = F.legend("cycle of period 1", pd.DataFrame({"round": [0, 1]}), 100, "")
    assert "1 round after" in cycle and "no longer changed" not in cycle and "(cycle of period 1)" in cycle
    assert "until it no longer changes" not in G.LEGENDS["g501_fixed_chart.png"]
