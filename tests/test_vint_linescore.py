"""Vint "the score below the line" (cardsim.analysis.vint.linescore, analyses/vint_linescore.py): the
tables have their columns and intervals, the answer is read from the rows, the run resumes from its
store, and the quick plan runs end to end."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.vint import charts as V
from cardsim.analysis.vint import linescore as L

QUIET = lambda s: None  # noqa: E731
PLAN = L.Plan((L.levels("H", 8, V.TRICK_POINTS[1]),), 120, (L.STATES[0], L.STATES[3]))


@pytest.fixture(scope="module")
def merged():
    return L.run(PLAN, seed=4, n_jobs=1, log=QUIET)


def test_tables_columns_and_intervals(merged):
    tabs = L.tables(merged)
    assert set(tabs) == {"vint_linescore", "vint_linescore_grid", "vint_linescore_levels"}
    best, levels = tabs["vint_linescore"], tabs["vint_linescore_levels"]
    assert list(best.columns) == L.BEST_COLUMNS and len(best) == 2
    assert list(levels.columns) == L.LEVEL_COLUMNS and len(levels) == 2 * 7
    assert list(levels.option[:7]) == [f"{k}\u2665" for k in range(1, 8)]
    for lo, mid, hi in (("win_lo", "win", "win_hi"), ("points_lo", "points", "points_hi")):
        assert ((levels[lo] <= levels[mid] + 1e-9) & (levels[mid] <= levels[hi] + 1e-9)).all()
        assert ((best[lo] <= best[mid] + 1e-9) & (best[mid] <= best[hi] + 1e-9)).all()
    assert levels.win.between(0, 1).all() and (levels.deals == PLAN.deals).all()
    assert ((best.margin_lo <= best.margin_pp) & (best.margin_pp <= best.margin_hi)).all()
    same = best[~best.disagree]
    assert (same.best == same.points_best).all() and (same.gain_pp == 0).all()
    # 480 below: any contract makes a game at once, so the rubber's share is the same at every level and
    # the tie goes to the level with the most points: rubber and points agree
    line = best[best.state == "480 below"].iloc[0]
    assert not line.disagree and line.best == line.points_best
    assert list(tabs["vint_linescore_grid"].columns) == ["hand", "clean", "480 below"]


def test_answer_reads_the_rows(merged):
    best = L.tables(merged)["vint_linescore"]
    text = L.answer(best)
    for _, r in best.iterrows():
        assert L.cell_answer(r) in text
    assert f"differently in {int(best.disagree.sum())} of {len(best)}" in text
    assert text.endswith("Not replayed under other players.")
    changed = int(best.points_best.iloc[1] != best.points_best.iloc[0])  # 480 below against clean
    assert text.startswith("Away from a clean line the score changes the best call or level in "
                           f"{int(best.best.iloc[1] != best.best.iloc[0])} of 1 hand-and-line cells by the rubber "
                           f"and in {changed} by points.")


def test_resumes_from_its_store(tmp_path, monkeypatch):
    plan = L.Plan((L.levels("H", 8, V.TRICK_POINTS[1]),), 40, (L.STATES[2],))
    first = L.run(plan, seed=2, n_jobs=1, log=QUIET, results=tmp_path)
    assert [p.name.startswith("vint-linescore-") for p in tmp_path.iterdir()] == [True]
    monkeypatch.setattr(L, "run_question", lambda *a, **k: pytest.fail("a stored cell was played again"))
    again = L.run(plan, seed=2, n_jobs=1, log=QUIET, results=tmp_path)
    for cell in first:
        for o in L.OUTCOMES:
            assert all(np.array_equal(first[cell][o][k], again[cell][o][k]) for k in first[cell][o])


def test_quick_plan_runs(tmp_path):
    from analyses import vint_linescore as S

    p = L.plan(60, quick=True)
    assert len(p.hands) == 2 and p.deals == 60 and len(p.states) == 4
    assert S.main(["--n", "60", "--seed", "3", "--jobs", "1", "--quick", "--results", str(tmp_path / "r"),
                   "--out", str(tmp_path / "o"), "--profiles", "bold"]) == 0
    meta = json.loads((tmp_path / "o" / "tables" / "vint_linescore.json").read_text())
    assert meta["tables"] == ["vint_linescore", "vint_linescore_grid"] and meta["figures"] == ["vint_linescore.png"]
    assert set(meta["legends"]) == {"vint_linescore.png"} and meta["answer"].startswith("Away from a clean line")
    best = pd.read_csv(tmp_path / "o" / "tables" / "vint_linescore.csv")
    assert len(best) == 2 * 4 and {"holds", "flips_under", *L.POINTS_COLUMNS} <= set(best.columns)
    from rules_helpers import check_rules

    tables = {t: pd.read_csv(tmp_path / "o" / "tables" / f"{t}.csv") for t in meta["tables"]}
    check_rules(meta["rules_of_thumb"], tables, "Vint")


def test_robust_columns(merged):
    from cardsim.analysis import robustness as RB
    from cardsim.profiles import select

    best = L.tables(merged)["vint_linescore"]
    bold = [p for p in select("vint", ["bold"]) if p.name == "bold"]
    out = L.run_robust(PLAN, best, seed=4, n_jobs=1, log=QUIET, profiles=bold)
    assert list(out.columns) == L.BEST_COLUMNS + RB.PAIR_COLUMNS + L.POINTS_COLUMNS
    assert (out.robust_deals == RB.robust_deals(PLAN.deals)).all()
    assert (out.gain_min <= out.margin_pp + 1e-9).all() and (out.margin_pp <= out.gain_max + 1e-9).all()
    assert ((out.points_gain_min <= out.points_gap + 1e-9) & (out.points_gap <= out.points_gain_max + 1e-9)).all()
    assert "Replayed under" in L.answer(out)


def _row(**kw):
    """A vint_linescore row: a hand on a clean line or 80 below, the best by points and its gap."""
    base = dict(zip(L.BEST_COLUMNS, [None] * len(L.BEST_COLUMNS)))
    base.update(hand="declaring \u2660 8-card fit, 19-21 points together", below1=0, games0=0, games1=0,
                points_runner_up="3\u2660", points_clear=True)
    base.update(kw)
    return base


def test_rules_are_the_cells_where_the_line_changes_the_points_best():
    from cardsim.analysis import rules_of_thumb as T

    best = pd.DataFrame([
        _row(state="clean", below0=0, points_best="3\u2660", points_gap=40.0, points_gap_lo=10.0, points_gap_hi=70.0),
        _row(state="part-score 80", below0=80, points_best="2\u2660", points_gap=55.0, points_gap_lo=20.0,
             points_gap_hi=90.0, points_holds=False, points_flips_under="bold", points_gain_min=-5.0,
             points_gain_max=55.0, robust_deals=100),
        _row(state="game all", below0=0, games0=1, games1=1, points_best="3\u2660", points_gap=30.0,
             points_gap_lo=5.0, points_gap_hi=55.0),  # the clean line's choice: no rule
        _row(state="480 below", below0=480, points_best="1\u2660", points_gap=90.0, points_gap_lo=-5.0,
             points_gap_hi=185.0),  # not clear: no rule
    ])
    rules = L.rules(best)
    assert len(rules) == 1
    r = rules[0]
    assert r["text"] == ("Declaring \u2660 8-card fit, 19-21 points together, at part-score 80 (80-0 below, games 0-0): "
                         "2\u2660 (on a clean line 3\u2660)")
    assert (r["value"], r["lo"], r["hi"], r["row"]) == (55.0, 20.0, 90.0, 1)
    assert r["number"] == "+55 points over 3\u2660 [+20, +90]"
    assert r["holds"] == T.DEPENDS and r["flips_under"] == "bold" and r["holds_prefix"] == "points_"
    # without the points' replay the verdict is "not replayed", whatever the rubber's replay said
    plain = best.drop(columns=[c for c in L.POINTS_COLUMNS if c in best]).assign(holds=True, robust_deals=100)
    assert L.rules(plain)[0]["holds"] == T.UNTESTED
