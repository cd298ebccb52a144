"""501's blind chart played as a policy until it stops changing (cardsim.analysis.g501.fixed, issues 32, 46)."""
from __future__ import annotations

import pandas as pd
import pytest

from cardsim.analysis.g501 import fixed as F
from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis.g501 import prose as P
from cardsim.analysis import verdicts as V
from cardsim.analysis.g501.policy import chart_table
from cardsim.strategies.registry import StrategyError

SITS = [B.Situation(100, 0, 0), B.Situation(300, 100, 1), B.Situation(300, 0, 2)]
LEVELS = (70, 90)


def _long(cells: dict) -> pd.DataFrame:
    """A decisions frame of cells ``{(own, lead, position): {level: diff_best_hi, ...}}``: look
    and those blind levels, the best blind level the first with difference 0 (rank 1); each
    difference's interval is 2 pp wide (``diff_best_pp`` = hi - 1)."""
    rows = []
    for (own, lead, pos), levels in cells.items():
        rows.append({"own": own, "lead": lead, "opp": own + lead, "position": pos, "option": "look", "level": 0,
                     "rank_half0": len(levels) + 1.0, "diff_best_hi": float("nan")})
        order = sorted(levels, key=lambda lvl: levels[lvl] != 0.0)
        for lvl, hi in levels.items():
            rows.append({"own": own, "lead": lead, "opp": own + lead, "position": pos, "option": f"blind:{lvl}",
                         "level": lvl, "rank_half0": order.index(lvl) + 1.0,
                         "diff_best_pp": hi - 1.0 if hi else 0.0, "diff_best_lo": hi - 2.0 if hi else 0.0,
                         "diff_best_hi": hi})
    return pd.DataFrame(rows)


def test_kind_first_state_and_update():
    assert [F.kind(v) for v in ("blind to 70-90", "look", V.NO_CLEAR)] == ["blind", "look", "unclear"]
    choice = pd.DataFrame({"own": [100, 300, 300], "lead": [0, 100, 0], "position": [0, 1, 2],
                           "best": ["blind:90", "blind:70", "look"], "verdict": ["blind to 90", V.NO_CLEAR, "look"]})
    long = _long({(100, 0, 0): {70: -1.0, 90: 0.0}, (300, 100, 1): {70: 0.0, 90: 2.0},
                  (300, 0, 2): {70: 1.0, 90: 0.0}})
    blind, level = F.first_state(choice, long)
    # an unclear cell starts looking; a look cell keeps its best blind level to be tested against
    assert blind == {(100, 0, 0): True, (300, 100, 1): False, (300, 0, 2): False}
    assert level == {(100, 0, 0): 90, (300, 100, 1): 70, (300, 0, 2): 90}
    assert F.first_policy(choice) == {(100, 0, 0): 90, (300, 100, 1): 0, (300, 0, 2): 0}
    table = chart_table(F.policy_spec(F.policy_of(blind, level))).set_index(["own", "lead", "position"])
    assert table.loc[(100, 0, 0), "level"] == 90 and table.loc[(300, 100, 1), "level"] == 0
    # the next round: only clear verdicts move a cell between blind and look; a level moves only when it is
    # clearly worse than the best level played (Benjamini-Hochberg over the cells whose level is not the best:
    # here p = 0.16 for (100, 0, 0) and 0.00005 for (300, 0, 2), of 2 tested)
    after = choice.assign(verdict=[V.NO_CLEAR, "blind to 70-90", "blind to 90"])
    later = _long({(100, 0, 0): {80: 0.0, 90: 0.5, 100: 1.0}, (300, 100, 1): {70: 0.3, 80: 0.0},
                   (300, 0, 2): {80: 0.0, 90: -1.0, 100: 1.0}})
    assert F.level_p(later.iloc[2]) == pytest.approx(0.1635, abs=1e-4)  # (100, 0, 0) at 90
    assert F.level_p(later[later.own == 300].iloc[-2]) == pytest.approx(4.5e-5, abs=1e-5)
    new_blind, new_level, changes, contested = F.update(blind, level, after, later)
    assert new_blind == {(100, 0, 0): True, (300, 100, 1): True, (300, 0, 2): True}
    assert new_level == {(100, 0, 0): 90, (300, 100, 1): 70, (300, 0, 2): 80}
    assert changes == ["300/+100/1: look->blind:70", "300/+0/2: look->blind:80"]
    assert contested == {(100, 0, 0), (300, 100, 1), (300, 0, 2)}  # unclear, moved, moved
    # a look cell's level (the one it is tested against) moves by the same rule and says so
    unclear = choice.assign(verdict=[V.NO_CLEAR] * 3)
    _, moved_level, changes, _ = F.update(blind, level, unclear, later)
    assert changes == ["300/+0/2: look, tested at 90->80"] and moved_level[(300, 0, 2)] == 80
    # a clear look turns a blind cell look; a settled cell is not contested
    after = choice.assign(verdict=["look", "look", "look"])
    new_blind, _, changes, contested = F.update(blind, level, after, _long({k: {level[k]: 0.0} for k in level}))
    assert new_blind == dict.fromkeys(blind, False) and changes == ["100/+0/0: blind:90->look"]
    assert contested == {(100, 0, 0)}


def test_a_confirmation_round_changes_only_what_is_clear_for_the_whole_chart():
    """Three look cells whose best option is blind:90 with one-sided p-values 0.01, 0.02, 0.024: at
    the rate 0.025 Benjamini-Hochberg calls all three clear (the chart's verdicts, a search round's
    rule), Holm none (0.01 > 0.025 / 3), so a confirmation round keeps every cell looking and
    contests them all, where a search round turns all three blind."""
    from cardsim.selection import clear_cells

    p = [0.01, 0.02, 0.024]
    assert list(clear_cells(p)) == [True] * 3 and list(clear_cells(p, method="holm")) == [False] * 3
    cells = [(s.own, s.lead, s.position) for s in SITS]
    blind, level = dict.fromkeys(cells, False), dict.fromkeys(cells, 90)
    choice = pd.DataFrame({"own": [c[0] for c in cells], "lead": [c[1] for c in cells],
                           "position": [c[2] for c in cells], "best": ["blind:90"] * 3,
                           "verdict": ["blind to 90"] * 3, "p_value": p})
    long = _long({k: {70: 1.0, 90: 0.0} for k in cells})  # 90 the best level: no level moves
    assert F.round_kinds(choice) == ["blind"] * 3 and F.round_kinds(choice, "holm") == ["unclear"] * 3
    searched, _, changes, _ = F.update(blind, level, choice, long)
    assert all(searched.values()) and len(changes) == 3
    confirmed, kept, changes, contested = F.update(blind, level, choice, long, F.CONFIRM_METHOD)
    assert confirmed == blind and kept == level and changes == [] and contested == set(cells)
    # the same family-wise rule for levels: level 90 worse than the best, 70, with p = 0.01, 0.02, 0.024
    his = [-0.187, -0.048, -0.0087]
    lv = _long({k: {70: 0.0, 90: hi} for k, hi in zip(cells, his)})
    assert [F.level_p(lv[(lv.own == k[0]) & (lv.lead == k[1]) & (lv.position == k[2]) & (lv.level == 90)].iloc[0])
            for k in cells] == pytest.approx(p, abs=5e-4)
    unclear = choice.assign(verdict=[V.NO_CLEAR] * 3, p_value=0.5)
    assert F.update(blind, level, unclear, lv)[1] == dict.fromkeys(cells, 70)
    assert F.update(blind, level, unclear, lv, F.CONFIRM_METHOD)[1] == level


def test_the_fixed_chart_marks_a_verdict_the_policy_kept_against():
    """In the fixed-point chart a clear verdict on the other side of blind/look than the option
    every seat played says so; agreeing and unclear cells do not."""
    choice = pd.DataFrame({"own": [100, 100, 100], "lead": [0, 0, 0], "opp": [100, 100, 100], "position": [0, 1, 2],
                           "best": ["blind:90", "blind:90", "look"], "gain_pp": [1.0, 1.0, 0.0],
                           "levels_as_good": ["90", "90", ""],
                           "verdict": ["blind to 90", "blind to 90", V.NO_CLEAR],
                           "policy": ["look", "blind:90", "blind:80"]})
    row = B.chart(choice).iloc[0]
    assert row["position 0"] == "blind to 90: +1.0 pp (played: look)"
    assert row["position 1"] == "blind to 90: +1.0 pp" and row["position 2"] == "? look"
    assert "(played:" not in B.chart(choice.drop(columns="policy")).iloc[0]["position 0"]


def test_neighbours_and_schedule():
    assert F.neighbours(90, B.LEVELS) == (80, 90, 100) and F.neighbours(70, B.LEVELS) == (70, 80)
    assert F.neighbours(150, B.LEVELS) == (120, 150) and F.neighbours(95, (70, 90, 120)) == (70, 90, 120)
    assert [F.schedule(10_000, "search", k) for k in (1, 2, 3)] == [500, 1000, 1000]
    assert F.schedule(10_000, "confirm") == 2500 and F.schedule(80, "search") == F.MIN_DEALS
    assert F.schedule(10, "confirm") == 10  # never more than the chart's own deals


def test_find_cycle_and_the_cells_that_alternate():
    assert F.find_cycle(["a", "b", "c"]) is None
    assert F.find_cycle(["a", "b", "c", "b"]) == (1, 2)
    assert F.find_cycle(["a", "a"]) == (0, 1)
    assert F.find_cycle(["a", "b", "c", "d", "b"]) == (1, 3)
    policies = [{(1, 0, 0): 90, (2, 0, 0): 0, (3, 0, 0): 70}, {(1, 0, 0): 90, (2, 0, 0): 80, (3, 0, 0): 70},
                {(1, 0, 0): 90, (2, 0, 0): 0, (3, 0, 0): 0}]
    assert F.alternating(policies) == [(2, 0, 0), (3, 0, 0)] and F.alternating(policies[:1]) == []


class _Scripted:
    """Stands in for a round's play: records what each round replays and answers with the verdicts
    ``verdict(round, cell, policy level)`` says (every blind level equally good)."""

    def __init__(self, verdict):
        self.verdict, self.calls = verdict, []

    def play(self, sits, levels, level, deals, seed, spec, n_jobs=-1, results=None):
        policy = chart_table(spec).set_index(["own", "lead", "position"]).level
        cells = [(s.own, s.lead, s.position) for s in sits]
        self.calls.append({"cells": cells, "deals": deals, "options": {k: F.neighbours(level[k], levels)
                                                                      for k in cells}})
        self.policy = {k: int(policy[k]) for k in cells}
        return _long({k: dict.fromkeys(F.neighbours(level[k], levels), 0.0) for k in cells})

    def choices(self, long):
        r = len(self.calls)
        rows = []
        for k, g in long.groupby(["own", "lead", "position"], sort=False):
            v = self.verdict(r, k, self.policy[k])
            best = "look" if v != "blind" else f"blind:{int(g.level[g.level > 0].iloc[0])}"
            rows.append({"own": k[0], "lead": k[1], "opp": k[0] + k[1], "position": k[2], "best": best,
                         "verdict": {"blind": "blind to 70", "look": "look"}.get(v, V.NO_CLEAR),
                         "p_value": 0.5 if v == "unclear" else 1e-6})
        return pd.DataFrame(rows)


def _start(verdicts):
    return pd.DataFrame({"own": [s.own for s in SITS], "lead": [s.lead for s in SITS],
                         "position": [s.position for s in SITS],
                         "best": ["blind:90" if v == "blind" else "look" for v in verdicts],
                         "verdict": ["blind to 90" if v == "blind" else v if v == "look" else V.NO_CLEAR
                                     for v in verdicts]})


def test_later_rounds_replay_only_the_contested_cells(monkeypatch):
    """Round 1 replays every cell on 5% of the deals; a later search round only the cells whose
    verdict was unclear or changed their policy, on 10%; a search round changing nothing is
    followed by a confirmation round of every cell on 25%, which ends it at a fixed point."""
    a, b, c = [(s.own, s.lead, s.position) for s in SITS]

    def verdict(r, cell, level):
        if cell == a:
            return "blind"
        if cell == b:  # unclear in round 1, settled afterwards
            return "unclear" if r == 1 else "look"
        return "blind"  # c: turns blind in round 1

    script = _Scripted(verdict)
    monkeypatch.setattr(F, "play_round", script.play)
    monkeypatch.setattr(B, "choices", script.choices)
    choice, rounds, status = F.iterate(SITS, B.LEVELS, 10_000, 5, _start(["blind", "unclear", "look"]), 1,
                                       log=lambda s: None, start_seconds=12.0)
    assert [call["cells"] for call in script.calls] == [[a, b, c], [b, c], [a, b, c]]
    assert [call["deals"] for call in script.calls] == [500, 1000, 2500]
    assert script.calls[0]["options"][a] == (80, 90, 100)  # the cell's level and its neighbours only
    assert status == "fixed point after 3 rounds"
    assert list(rounds.kind) == ["chart", "search", "search", "confirm"] and list(rounds.cells) == [3, 3, 2, 3]
    # c had no blind level in round 0 (no decisions given): the middle of the levels
    assert list(rounds.moved) == [0, 1, 0, 0] and rounds.moved_cells.iloc[1] == "300/+0/2: look->blind:100"
    assert rounds.seconds.iloc[0] == 12.0 and (rounds.seconds.iloc[1:] >= 0).all()
    assert list(choice["round"]) == [3, 3, 3] and list(choice.policy) == ["blind:90", "look", "blind:100"]
    assert chart_table(rounds.attrs["policy"]).set_index(["own", "lead", "position"]).level[c] == 100


def test_a_cell_that_always_contradicts_its_policy_is_a_cycle(monkeypatch):
    """A cell whose verdict is always the opposite of what the table plays flips every round: the
    iteration reports a cycle of period 2 and names the cell, instead of running to its budget."""
    a, b, c = [(s.own, s.lead, s.position) for s in SITS]
    script = _Scripted(lambda r, cell, level: ("look" if level else "blind") if cell == c else "blind")
    monkeypatch.setattr(F, "play_round", script.play)
    monkeypatch.setattr(B, "choices", script.choices)
    choice, rounds, status = F.iterate(SITS, B.LEVELS, 10_000, 5, _start(["blind", "blind", "look"]), 1,
                                       log=lambda s: None)
    assert status == "cycle of period 2 (cells alternating: 300/+0/2)"
    # the search rounds repeating on 1,000 deals are no answer: a confirmation round of every cell on
    # 2,500 follows; it flips the cell too, and the next search round repeats the one before it
    assert list(rounds.kind) == ["chart", "search", "search", "search", "confirm"]
    assert list(rounds.moved.iloc[1:]) == [1, 1, 1, 1]
    assert [call["cells"] for call in script.calls] == [[a, b, c], [c], [c], [a, b, c]]
    assert [call["deals"] for call in script.calls] == [500, 1000, 1000, 2500]
    assert "did not settle" in F.legend(status, rounds, "") and "(cycle of period 2" in F.legend(status, rounds, "")


class _Alternating(_Scripted):
    """Every cell clearly blind; in confirmation rounds (2,500 deals) cell ``a``'s level is clearly
    worse than the other of 90 and 100, in search rounds the levels are even: its level goes back
    and forth between 90 and 100, one confirmation round at a time."""

    def play(self, sits, levels, level, deals, seed, spec, n_jobs=-1, results=None):
        long = super().play(sits, levels, level, deals, seed, spec, n_jobs, results)
        a = (SITS[0].own, SITS[0].lead, SITS[0].position)
        if deals < 2500 or a not in self.policy:
            return long
        other = 100 if level[a] == 90 else 90
        rows = {k: dict.fromkeys(F.neighbours(level[k], levels), 0.0) for k in self.policy}
        rows[a] = {lvl: (0.0 if lvl == other else -2.0) for lvl in F.neighbours(level[a], levels)}
        return _long(rows)


def test_levels_that_go_back_and_forth_in_confirmation_rounds_end_it(monkeypatch):
    """A confirmation round that moves no cell between blind and look, and moves a level back to
    one the cell held before, ends the iteration: blind and look have settled, the level cycles."""
    script = _Alternating(lambda r, cell, level: "blind")
    monkeypatch.setattr(F, "play_round", script.play)
    monkeypatch.setattr(B, "choices", script.choices)
    choice, rounds, status = F.iterate(SITS, B.LEVELS, 10_000, 5, _start(["blind"] * 3), 1, log=lambda s: None)
    assert list(rounds.kind) == ["chart", "search", "confirm", "search", "confirm"]
    assert list(rounds.moved_cells.iloc[1:]) == ["", "100/+0/0: blind:90->blind:100", "",
                                                 "100/+0/0: blind:100->blind:90"]
    assert status == ("levels alternating after 4 rounds: blind and look settled; 1 cell went back to a level "
                      "held before (100/+0/0 100->90)")
    assert "blind and look settled, the levels of a few cells did not" in F.legend(status, rounds, "")
    assert "settles between blind and look but not in every level" in F.sentence(rounds, status, choice)


def test_the_round_budget(monkeypatch):
    """A cell flipping on a varying schedule is no cycle until its state repeats: with the budget
    smaller than that, the status says it did not settle."""
    script = _Scripted(lambda r, cell, level: ("look" if level else "blind"))
    monkeypatch.setattr(F, "play_round", script.play)
    monkeypatch.setattr(B, "choices", script.choices)
    _, rounds, status = F.iterate(SITS, B.LEVELS, 10_000, 5, _start(["blind", "blind", "look"]), 1,
                                  max_rounds=1, log=lambda s: None)
    assert status == "not settled after 1 rounds" and len(rounds) == 2


def _real_start():
    long = B.run_decisions(SITS, LEVELS, 80, 5, n_jobs=1, log=lambda s: None)
    return B.choices(long), long


def test_iteration_is_deterministic():
    start, long = _real_start()
    a = F.iterate(SITS, LEVELS, 400, 5, start, n_jobs=1, long=long, max_rounds=3, log=lambda s: None)
    b = F.iterate(SITS, LEVELS, 400, 5, start, n_jobs=2, long=long, max_rounds=3, log=lambda s: None)
    pd.testing.assert_frame_equal(a[1].drop(columns="seconds"), b[1].drop(columns="seconds"))
    pd.testing.assert_frame_equal(a[0], b[0])
    assert a[2] == b[2] and a[1].attrs["policy"] == b[1].attrs["policy"]
    rounds = a[1]
    assert list(rounds["round"]) == list(range(len(rounds))) and list(rounds.deals.iloc[1:2]) == [F.MIN_DEALS]
    assert (rounds[["blind_cells", "look_cells", "unclear_cells"]].sum(axis=1) == rounds.cells).all()
    assert rounds.policy.iloc[1].startswith("chart:cells=")
    assert F.sentence(rounds, a[2], a[0]).startswith("Played as a policy by every seat")


def test_the_policy_bids_after_looking_as_the_players_given():
    """The chart is computed against the players of the spec given, not today's default: the
    policy's spec carries their bidding parameters."""
    spec = F.policy_spec({(100, 0, 0): 90}, "heuristic:margin=10,press=5")
    assert ",margin=10," in spec and ",press=5," in spec
    default = F.chart_params(None)
    from cardsim.games.g501.strategies import REGISTRY

    assert default == {p: REGISTRY["heuristic"].params[p] for p in F.CHART_PARAMS}
    with pytest.raises(StrategyError, match="heuristic-like players; 'random' has no margin"):
        F.chart_params("random")


def test_a_position_the_policy_lacks_is_played_looking():
    table = chart_table(F.policy_spec({(100, 0, 1): 90}))
    assert set(table[table.position == 1].level) == {90} and set(table[table.position != 1].level) == {0}


def test_the_fixed_chart_caption_says_what_was_run():
    """The caption names the rounds and their deals per situation, and "until it no longer
    changed" only at a fixed point."""
    three = pd.DataFrame({"round": [0, 1, 2, 3], "deals": [10_000, 500, 1000, 2500]})
    settled = F.legend("fixed point after 3 rounds", three, "MARKS")
    assert settled == ("The same chart when every player at the table follows it: recomputed with every player on "
                       "it, 3 rounds after the chart against the given players (look and the cell's level and its "
                       "neighbours; 500 to 2,500 deals per situation a round, the contested cells only until a round "
                       "replays them all), until it no longer changed (fixed point after 3 rounds). A cell marked "
                       "(played: …) is one whose verdict (the chart's rule) is on the other side of blind/look than "
                       "what every seat plays there: its contradiction is not clear for the whole chart (Holm), so "
                       "the policy kept it. MARKS")
    capped = F.legend("not settled after 3 rounds", three, "MARKS")
    assert "no longer changed" not in capped
    assert "(not settled after 3 rounds: the most rounds the report plays)" in capped
    one = F.legend("cycle of period 1", three.iloc[:2], "")
    assert "1 round after" in one and "500 deals per situation" in one and "(cycle of period 1)" in one
    assert "until it no longer changes" not in P.LEGENDS["g501_fixed_chart.png"]
