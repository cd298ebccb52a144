"""Vint's charts measured against a strategy (``analyses/vint_charts.py --strategy``) and iterated to a
fixed point (``analyses/vint_iterate.py``; docs/rules-files.md, "A chart measured against itself"),
and the analyses that take only the default players refusing another."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pandas as pd
import pytest

from analyses.common import non_default_strategy, strategy_parameters
from analyses.vint_iterate import best_calls, changed, iterate, verdict
from cardsim.rules import digests, load
from cardsim.games import get_game

# Two cells of the quick opening chart (after, band, shape, best): the iteration's round 0
START = [("-", "13-15", "5H", "1H"), ("-", "19-21", "bal", "1D")]


def _start(folder, rows=START):
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame([{"after": a, "band": b, "shape": s, "best": c, "runner_up": "P", "gap": 10.0, "clear": False}
                  for a, b, s, c in rows]).to_csv(folder / "vint_chart_opening.csv", index=False)
    return folder


def test_changed_counts_cells_whose_best_differs_or_that_one_side_lacks():
    a = {("-", "13-15", "5H"): "1H", ("-", "19-21", "bal"): "1D"}
    assert changed(a, dict(a)) == 0
    assert changed(a, {("-", "13-15", "5H"): "1H", ("-", "19-21", "bal"): "2NT"}) == 1
    assert changed(a, {("-", "13-15", "5H"): "P"}) == 2  # one changed, one no longer charted


def test_verdict_fixed_point_cycle_or_go_on():
    x, y, z = {"c": "1H"}, {"c": "P"}, {"c": "2H"}
    assert verdict([x, y]) is None
    assert verdict([x, x]) == "fixed point after 1 round"
    assert verdict([x, y, y]) == "fixed point after 2 rounds"
    assert verdict([x, y, x]) == "cycle of length 2: round 2's best calls are round 0's"
    assert verdict([x, y, z, y]) == "cycle of length 2: round 3's best calls are round 1's"
    assert verdict([x, y, z]) is None


def test_only_a_non_default_strategy_is_refused():
    assert non_default_strategy(SimpleNamespace(strategy=None)) is None
    assert non_default_strategy(SimpleNamespace(strategy="heuristic")) is None
    message = non_default_strategy(SimpleNamespace(strategy="heuristic:margin=10"))
    assert message.startswith("--strategy heuristic:margin=10: ") and "\n" not in message


def test_an_analysis_without_the_option_refuses_it_in_one_line(capsys):
    from analyses.common import main_for

    assert main_for("501", "501 winning-bid bands", ["--n", "10", "--strategy", "heuristic:margin=10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --strategy heuristic:margin=10: ")


@pytest.mark.parametrize("spec, says", [("nosuch", "nosuch"), ("rules:/no/such/file.toml", "/no/such/file.toml")])
def test_the_charts_refuse_a_strategy_vint_cannot_play_in_one_line(spec, says, capsys):
    from analyses.vint_charts import parse_args

    with pytest.raises(SystemExit) as exc:
        parse_args(["--strategy", spec])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


def test_a_rule_files_parameters_are_its_path_and_digest(tmp_path):
    from cardsim.cli import main

    table = _start(tmp_path / "start") / "vint_chart_opening.csv"
    path = tmp_path / "chart.toml"
    assert main(["rules", "from-chart", "vint", "--table", str(table), "-o", str(path)]) == 0
    spec = f"rules:{path}"
    got = strategy_parameters("vint", [spec, "heuristic"])
    assert got[spec] == {"rule_file": str(path), "sha256": digests([spec])[spec]}
    assert len(got[spec]["sha256"]) == 64 and got["heuristic"]["aggression"] == get_game("vint").table.registry["heuristic"].params["aggression"] == 0.5


def test_two_rounds_every_seat_on_the_chart(tmp_path):
    start = _start(tmp_path / "start")
    out = tmp_path / "iterate"
    lines = []
    rounds, end = iterate(start, out, rounds=2, n=200, seed=3, jobs=1, results=str(tmp_path / "results"),
                          log=lines.append)
    chart_0 = load(out / "chart_0.toml", "vint")
    assert [r.values["call"] for r in chart_0.file.rules] == ["1H", "1D"]
    history = [best_calls([start / "vint_chart_opening.csv"])]
    for r in rounds:
        tables = out / f"round_{r.index}" / "tables"
        meta = json.loads((tables / "vint_charts.json").read_text())
        spec = f"rules:{r.played.resolve()}"
        # every seat played the previous round's chart, named with its file's digest
        assert meta["strategies"] == [spec] * 4
        assert meta["parameters"][spec]["sha256"] == digests([spec])[spec]
        assert meta["notes"][0].startswith(f"Players: {spec} at every seat")
        table = pd.read_csv(tables / "vint_chart_opening.csv")
        assert list(zip(table.band, table["shape"])) == [("13-15", "5H"), ("19-21", "bal")]
        # the seat's own call (`default`) is the played chart's, on every hand of the cell
        # (two shapes: a rule per cell, in the table's order)
        assert list(table.default) == [rule.values["call"] for rule in load(r.played, "vint").file.rules]
        assert list(table.default_share) == [1.0, 1.0]
        history.append(dict(zip([("-", b, s) for b, s in zip(table.band, table["shape"])], table.best)))
        assert r.changed == changed(history[-2], history[-1]) and r.cells == 2
        # the next chart makes the round's best calls
        assert [rule.values["call"] for rule in load(r.chart, "vint").file.rules] == list(table.best)
        assert f"round {r.index}: {r.changed} of 2 cells changed" in lines[r.index]
    assert end == (verdict(history) or "no fixed point in 2 rounds")
    assert len(rounds) == (1 if end.startswith("fixed point after 1") else 2)
    # each round's cells are kept under their own key (the chart's digest): a resumed round never mixes players
    assert len(list((tmp_path / "results").glob("vint-charts-*"))) == len(rounds)
