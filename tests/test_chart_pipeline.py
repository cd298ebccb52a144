"""The chart pipeline (cardsim.analysis.chart_pipeline) under the Vint charts, the Five Hundred guide
and 501's blind chart: the seeds each task gets, running and resuming tasks, the replay's rows."""
from __future__ import annotations

from cardsim.analysis import chart_pipeline as CP, robustness as RB
from cardsim.analysis.g500.guide import Holding
from cardsim.analysis.g501.blind_chart import Situation

CALLS = []


def _square(x: int, size: int) -> int:
    CALLS.append(x)
    return x * x + size


def test_task_seed_is_the_seed_the_charts_always_dealt_with():
    # the values the 501 chart and the Five Hundred guide computed with their own task_seed before
    # the pipeline (commit aa5c11b): the report's deals do not move
    assert CP.task_seed(2026, "decision", Situation(100, -100, 2)) == 4039210148310206098
    assert CP.task_seed(7, "equity", (100, 300, 501), 1) == 5123029266732407154
    holding = Holding("H", 5, 1)
    assert CP.task_seed(2026, holding, 3) == 8700954534377934139
    # another key part, another seed; the seed stays below 2**63
    assert CP.task_seed(2026, holding, 4) != CP.task_seed(2026, holding, 3)
    assert 0 <= CP.task_seed(2026, holding, 4) < 2 ** 63


def test_play_runs_every_task_in_order_and_resumes_from_the_results_folder(tmp_path):
    tasks = [(3, 1), (1, 2), (2, 3)]
    CALLS.clear()
    assert list(CP.play(_square, tasks, [1, 2, 3], 1, name="squares", results=tmp_path)) == [10, 3, 7]
    assert CALLS == [3, 1, 2]
    CALLS.clear()
    assert list(CP.play(_square, tasks, [1, 2, 3], 1, name="squares", results=tmp_path)) == [10, 3, 7]
    assert CALLS == []  # every task read back, none played again
    # other tasks are another store: played afresh
    assert list(CP.play(_square, tasks[:1], [1], 1, name="squares", results=tmp_path)) == [10]
    assert CALLS == [3]


def test_replay_rows_gives_a_row_without_a_cell_its_own_blank(monkeypatch):
    seen = {}

    def replay(cells, profiles, sums_fn, base, **kw):
        seen.update(cells=list(cells), kw=kw)
        return [{"robust_verdict": f"cell {c}"} for c in cells]

    monkeypatch.setattr(RB, "replay", replay)
    blank = {"robust_verdict": "", "robust_deals": 0}
    rows = CP.replay_rows([None, "a", None, "b"], [], _square, ["heuristic"] * 3, blank, name="t", scale=100.0)
    assert rows == [blank, {"robust_verdict": "cell a"}, blank, {"robust_verdict": "cell b"}]
    assert seen == {"cells": ["a", "b"], "kw": {"name": "t", "scale": 100.0}}
    rows[0]["robust_deals"] = 5  # each blank row is a copy: filling one fills no other
    assert rows[2]["robust_deals"] == 0 and blank["robust_deals"] == 0


def test_chart_meta_keeps_the_report_order_and_the_vint_escapes(tmp_path):
    import json

    from analyses.common import chart_meta, write_chart_meta

    fields = dict(deals=300, deals_unit="deals per class", rules={}, tables=["t"], figures=["f.png"],
                  glossary={"gap": "g"}, notes=["n"], legends={"f.png": "\u2020 = depends"}, rules_of_thumb=[],
                  answer="a \u00d7 b", method="m", detail={"tables": [], "items": []})
    meta = chart_meta("501", "T", 7, ["heuristic"] * 3, csv_only=["c"], **fields)
    assert list(meta) == ["game", "title", "deals", "deals_unit", "seed", "source", "cardsim", "strategies",
                          "parameters", "rules", "tables", "csv_only", "figures", "glossary", "notes", "legends",
                          "rules_of_thumb", "answer", "method", "detail"]
    assert list(meta["parameters"]) == ["heuristic"] and meta["seed"] == 7
    assert "csv_only" not in chart_meta("501", "T", 7, ["heuristic"] * 3, parameters={"p": {}}, **fields)
    (tmp_path / "tables").mkdir()
    plain = write_chart_meta(tmp_path, "plain", meta).read_text()
    escaped = write_chart_meta(tmp_path, "escaped", meta, ensure_ascii=True).read_text()
    assert "a \u00d7 b" in plain and "a \\u00d7 b" in escaped and json.loads(plain) == json.loads(escaped) == meta
