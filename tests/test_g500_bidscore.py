"""Five Hundred "bid to the score" (cardsim.analysis.g500.bidscore, analyses/g500_bidscore.py): the
tables have their columns and intervals, the answer and the rules of thumb are read from the rows,
the run resumes from its store, and the quick plan runs end to end."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.g500 import bidscore as B
from cardsim.analysis.g500 import guide as G

QUIET = lambda s: None  # noqa: E731
PLAN = B.Plan((G.Holding("H", 6, 3),), 200, (B.STATES[0], B.STATES[3]), ("quebec",), (500,))


@pytest.fixture(scope="module")
def merged():
    return B.run(PLAN, seed=5, n_jobs=1, log=QUIET)


def test_tables_columns_and_intervals(merged):
    tabs = B.tables(merged)
    assert set(tabs) == {"g500_bidscore", "g500_bidscore_grid", "g500_bidscore_levels"}
    best, levels = tabs["g500_bidscore"], tabs["g500_bidscore_levels"]
    assert list(best.columns) == B.BEST_COLUMNS and len(best) == 2
    assert list(levels.columns) == B.LEVEL_COLUMNS and len(levels) == 2 * len(G.LEVELS)
    assert (levels.deals == PLAN.deals).all() and (best.deals == PLAN.deals).all()
    for lo, mid, hi in (("win_lo", "win", "win_hi"), ("score_lo", "score", "score_hi"), ("made_lo", "made", "made_hi")):
        assert ((levels[lo] <= levels[mid] + 1e-12) & (levels[mid] <= levels[hi] + 1e-12)).all()
    assert levels.win.between(0, 1).all() and levels.win_lo.between(0, 1).all() and levels.win_hi.between(0, 1).all()
    assert ((best.win_lo <= best.win) & (best.win <= best.win_hi)).all()
    assert ((best.margin_lo <= best.margin_pp) & (best.margin_pp <= best.margin_hi)).all()
    # the deal's points do not depend on the score: the same deals give the same per-deal answer in every state
    assert best.deal_best.nunique() == 1 and best.deal_score.nunique() == 1
    same = best[~best.differs]
    assert (same.gain_pp == 0).all() and (same.best == same.deal_best).all()
    diff = best[best.differs]
    assert ((diff.gain_lo <= diff.gain_pp) & (diff.gain_pp <= diff.gain_hi)).all()
    # both near the target: 6♥ (100 points) is enough to win, so no higher level wins more games
    near = best[best.state == "both near"].iloc[0]
    assert near.best == 6 and near.win > 0.9
    grid = tabs["g500_bidscore_grid"]
    assert list(grid.columns) == ["holding", "scoring", "target", "0-0", "both near"] and len(grid) == 1


def test_answer_and_rules_read_the_rows(merged, tmp_path):
    best = B.tables(merged)["g500_bidscore"]
    text = B.answer(best)
    for _, r in best.iterrows():
        assert B.cell_answer(r) in text
    assert f"in {int(best.differs.sum())} of {len(best)} cells" in text
    assert text.endswith("Not replayed under other players.")
    best.to_csv(tmp_path / "t.csv", index=False)
    written = pd.read_csv(tmp_path / "t.csv")
    for rule in B.rules(best):
        row = written.iloc[rule["row"]]
        assert [rule["value"], rule["lo"], rule["hi"]] == pytest.approx([row[c] for c in rule["columns"]])
        assert B.level_label(row.best) in rule["text"] and bool(row.differs) and row.gain_lo > 0


def test_robust_columns(merged):
    from cardsim.analysis import robustness as RB
    from cardsim.profiles import select

    best = B.tables(merged)["g500_bidscore"]
    out = B.run_robust(PLAN, best, seed=5, n_jobs=1, log=QUIET, profiles=[p for p in select("500", ["bold"])
                                                                          if p.name == "bold"])
    assert list(out.columns) == B.BEST_COLUMNS + RB.PAIR_COLUMNS
    assert (out.robust_deals == 50).all()
    assert (out.gain_min <= out.margin_pp + 1e-9).all() and (out.margin_pp <= out.gain_max + 1e-9).all()
    assert "Replayed under" in B.answer(out)


def test_resumes_from_its_store(tmp_path, monkeypatch):
    plan = B.Plan((G.Holding("H", 5, 2),), 40, (B.STATES[1],), ("subtract",), (500,))
    first = B.run(plan, seed=2, n_jobs=1, log=QUIET, results=tmp_path)
    assert [p.name.split("-")[0:2] for p in tmp_path.iterdir()] == [["500", "bidscore"]]
    monkeypatch.setattr(B, "run_question", lambda *a, **k: pytest.fail("a stored stratum was played again"))
    again = B.run(plan, seed=2, n_jobs=1, log=QUIET, results=tmp_path)
    for cell in first:
        for o in ("game", "deal"):
            assert all(np.array_equal(first[cell][o][k], again[cell][o][k]) for k in first[cell][o])


def test_quick_plan_runs(tmp_path):
    from analyses import g500_bidscore as S

    p = B.plan(100, quick=True)
    assert len(p.holdings) == 2 and p.deals == 100 and len(p.states) == 4 and p.targets == (500,)
    assert B.plan(10**6).targets == (500, 1000) and B.plan(10**6).deals == B.DEALS
    code = S.main(["--n", "100", "--seed", "3", "--jobs", "1", "--quick", "--results", str(tmp_path / "r"),
                   "--out", str(tmp_path / "o"), "--profiles", "bold"])
    assert code == 0
    meta = json.loads((tmp_path / "o" / "tables" / "500_bidscore.json").read_text())
    assert meta["tables"] == ["g500_bidscore", "g500_bidscore_grid"] and meta["figures"] == ["g500_bidscore.png"]
    assert set(meta["legends"]) == {"g500_bidscore.png"} and meta["answer"].startswith("Judged by games won")
    best = pd.read_csv(tmp_path / "o" / "tables" / "g500_bidscore.csv")
    assert len(best) == 2 * 4 * 2 and {"holds", "flips_under"} <= set(best.columns)
