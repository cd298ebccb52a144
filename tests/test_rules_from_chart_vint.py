"""``cardsim rules from-chart vint``: the report's Vint opening and response charts as a rule file
(docs/rules-files.md, "Charts as rule files"): it passes ``rules check``, makes each cell's best
call on hands of the cell, plays legal deals, and its errors are one line, exit 2."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.analysis.vint.charts import band_label, chart_cells
from cardsim.cli import main
from cardsim.conditions import Conditions, compile
from cardsim.deal import deal_chunk
from cardsim.games.vint import rulefile as R
from cardsim.rules.from_chart import vint as F
from cardsim.rules import load
from cardsim.rules.check import never_fire, run_tests
from cardsim.rules.twin import holds

# The quick report's charts (make report QUICK=1), their best calls as that report found them:
# after, band, shape, best
QUICK = {
    "opening": [("-", "0-10", "bal", "P"), ("-", "0-10", "5H", "P"), ("-", "0-10", "6S", "P"),
                ("-", "13-15", "bal", "P"), ("-", "13-15", "5H", "1H"), ("-", "13-15", "6S", "2S"),
                ("-", "19-21", "bal", "1D"), ("-", "19-21", "5H", "2H"), ("-", "19-21", "6S", "3S")],
    "second": [("P", "13-15", "bal", "P"), ("P", "13-15", "5H", "1H")],
    "overcall": [("1S", "13-15", "bal", "P"), ("1S", "13-15", "5H", "1H")],
    "response": [("1H P", "6-9", "H 0-2", "P"), ("1H P", "6-9", "H 4+", "2H"), ("1H P", "10-12", "H 0-2", "1NT"),
                 ("1H P", "10-12", "H 4+", "1NT")],
}
# Responses to 1NT (full charts): five or more spades and five or more hearts share the 5-5 hands
NT_RESPONSES = [("1NT P", "6-9", "5+S", "2S"), ("1NT P", "6-9", "5+H", "2H"), ("1NT P", "6-9", "bal", "P")]


def _frame(rows) -> pd.DataFrame:
    return pd.DataFrame([{"after": a, "band": b, "shape": s, "long": "", "partner": "", "best": c, "runner_up": "P",
                          "gap": 10.0, "clear": False} for a, b, s, c in rows])


def _write(tmp_path, charts: dict) -> list[str]:
    paths = []
    for name, rows in charts.items():
        path = tmp_path / f"vint_chart_{name}.csv"
        _frame(rows).to_csv(path, index=False)
        paths.append(str(path))
    return paths


def _cells(charts: dict) -> list:
    """(after calls, the cell's class text, best) for every row, from the charts' own cell definitions."""
    known = {(" ".join(c.after) or "-", band_label(c.band), c.shape.name): c
             for c in chart_cells(quick=False) + chart_cells(quick=True)}
    out = []
    for rows in charts.values():
        for a, b, s, best in rows:
            cell = known[(a, b, s)]
            out.append((tuple(cell.after), cell.where.partition(": ")[2], best))
    return out


def test_the_quick_charts_as_a_file_pass_check_and_make_each_cells_best_call(tmp_path, capsys):
    tables = _write(tmp_path, QUICK)
    path = tmp_path / "charts.toml"
    args = ["rules", "from-chart", "vint", "-o", str(path)]
    for t in tables:
        args += ["--table", t]
    assert main(args) == 0
    assert "rules from the tables" in capsys.readouterr().out
    compiled = load(path, "vint")
    # 17 cells, 17 rules: no two adjacent bands of one shape have one best call in the quick charts
    assert len(compiled.file.rules) == 17
    outcomes = run_tests(compiled)
    assert len(outcomes) == 17 and all(o.passed for o in outcomes), [o.text() for o in outcomes if not o.passed]
    assert never_fire(compiled) == []
    assert main(["rules", "check", str(path)]) == 0
    # the engine's call on hands dealt in each cell, after the cell's calls: the cell's best
    row = compiled.row()
    for k, (after, where, best) in enumerate(_cells(QUICK)):
        calls = np.array([R.read_call(t) for t in after], dtype=np.int64)
        hands = deal_chunk(compile(Conditions("vint", dealer=0, classes={0: where})), 100 + k, 0, 40).hands[:, 0]
        for h in hands:
            assert holds("vint", where, int(h))
            got = int(R.rules_call(row, np.uint64(h), calls, len(calls), int(calls.max()) if len(calls) else 0))
            assert got == R.read_call(best), (after, where, best, R.call_text(got))


def test_played_by_every_seat_each_call_in_a_cell_is_the_cells_best(tmp_path):
    tables = _write(tmp_path, {"opening": QUICK["opening"], "second": QUICK["second"]})
    path = tmp_path / "charts.toml"
    assert main(["rules", "from-chart", "vint", "--table", tables[0], "--table", tables[1], "-o", str(path)]) == 0
    cells = _cells({"opening": QUICK["opening"], "second": QUICK["second"]})
    records = cardsim.records("vint", list(range(400)), seed=11, strategies=f"rules:{path}")
    applied = 0
    for rec in records:
        cardsim.replay(rec)  # every call legal, the deal scores
        for seat, hand, before, call in R.decisions(rec):
            text = tuple(R.call_text(int(c)) for c in before)
            for after, where, best in cells:
                if text == after and holds("vint", where, hand):
                    assert call == R.read_call(best), (rec["deal"], text, where)
                    applied += 1
    # the dealer's first call is in a cell when his hand is in one of the nine (0-10, 13-15, 19-21 x bal, 5H, 6S)
    assert applied > 100


def test_overlapping_cells_the_first_takes_the_shared_hands(tmp_path):
    """Five or more spades and five or more hearts after 1NT P share the 5-5 hands in the majors:
    the file's first rule (the table's first cell) takes them, and the header says so."""
    path = tmp_path / "nt.csv"
    _frame(NT_RESPONSES).to_csv(path, index=False)
    out = tmp_path / "nt.toml"
    assert main(["rules", "from-chart", "vint", "--table", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert "# Rules #1 and #2 share hands (5+S and 5+H after 1NT P): rule #1 takes them" in text
    row = load(out, "vint").row()
    calls = np.array([R.read_call("1NT"), 0], dtype=np.int64)
    both = deal_chunk(compile(Conditions("vint", classes={0: "hcp=6-9, S>=5, H>=5"})), 3, 0, 30).hands[:, 0]
    hearts = deal_chunk(compile(Conditions("vint", classes={0: "hcp=6-9, S<=4, H>=5"})), 4, 0, 30).hands[:, 0]
    assert {R.call_text(int(R.rules_call(row, np.uint64(h), calls, 2, int(calls.max())))) for h in both} == {"2S"}
    assert {R.call_text(int(R.rules_call(row, np.uint64(h), calls, 2, int(calls.max())))) for h in hearts} == {"2H"}


def test_the_full_charts_cells_have_classes_and_merge():
    """Every cell of the report's full charts is known with its class; bands merge only when adjacent
    with one call."""
    cells = [F.ChartCell(c.chart, tuple(c.after), tuple(c.band), c.shape.name, c.shape.clause, "P")
             for c in chart_cells(quick=False)]
    runs = F.merged(cells)
    # one rule per context and shape when every best is a pass
    assert len(runs) == len({(c.after, c.shape, c.clause) for c in cells})
    alternating = [F.ChartCell(c.chart, c.after, c.band, c.shape, c.clause, "P" if i % 2 else "1NT")
                   for i, c in enumerate(c for c in cells if c.chart == "opening" and c.shape == "bal")]
    assert [len(r) for r in F.merged(alternating)] == [1] * len(alternating)


def _err(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_from_chart_vint_errors_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no reports/tables here
    assert main(["rules", "from-chart", "vint"]) == 2
    assert "no Vint chart table yet (reports/tables/vint_chart_opening.csv" in _err(capsys)
    assert main(["rules", "from-chart", "chess"]) == 2
    assert "chess" in _err(capsys)
    assert main(["rules", "from-chart", "500"]) == 2
    assert "500 has no chart to write as a rule file (games with charts: vint, 501)" in _err(capsys)
    assert main(["rules", "from-chart", "vint", "--cells", "0"]) == 2
    assert "--cells is 501's blind chart" in _err(capsys)
    assert main(["rules", "from-chart", "vint", "--chart", "closing"]) == 2
    assert "--chart 'closing': Vint's charts are opening, second, overcall, response" in _err(capsys)
    bad = tmp_path / "bad.csv"
    _frame([("-", "0-10", "bal", "P"), ("-", "0-10", "9H", "P")]).to_csv(bad, index=False)
    assert main(["rules", "from-chart", "vint", "--table", str(bad)]) == 2
    assert "row 3: after '-', band '0-10', shape '9H' is no cell of the Vint charts" in _err(capsys)
    _frame([("-", "0-10", "bal", "8NT")]).to_csv(bad, index=False)
    assert main(["rules", "from-chart", "vint", "--table", str(bad)]) == 2
    assert "row 2: best '8NT' is not a Vint call" in _err(capsys)
    pd.DataFrame({"after": ["-"], "band": ["0-10"]}).to_csv(bad, index=False)
    assert main(["rules", "from-chart", "vint", "--table", str(bad)]) == 2
    assert "no column shape, best" in _err(capsys)
    assert main(["rules", "from-chart", "vint", "--table", str(tmp_path / "none.csv")]) == 2
    assert "cannot read the chart's table" in _err(capsys)


def test_a_chart_too_big_for_a_strategy_row_is_one_line(tmp_path, capsys, monkeypatch):
    """The full opening chart with every band's call different from its neighbours' (nothing
    merges: 63 rules) takes more numbers than a strategy row of 1,024 holds (today's row of 4,096
    holds it: then it is written)."""
    import cardsim.rules.compile as C
    import cardsim.strategies.registry as R

    cells = [c for c in chart_cells(quick=False) if c.chart == "opening"]
    bands = sorted({c.band[0] for c in cells})
    rows = [("-", band_label(c.band), c.shape.name, c.options[-1] if bands.index(c.band[0]) % 2 else "P")
            for c in cells]
    path = tmp_path / "big.csv"
    _frame(rows).to_csv(path, index=False)
    assert main(["rules", "from-chart", "vint", "--table", str(path), "-o", str(tmp_path / "big.toml")]) == 0
    assert (tmp_path / "big.toml").read_text().count("[[rule]]") == 63
    capsys.readouterr()
    monkeypatch.setattr(R, "TABLE_LEN", 1024)
    monkeypatch.setattr(C, "TABLE_LEN", 1024)
    assert main(["rules", "from-chart", "vint", "--table", str(path)]) == 2
    err = _err(capsys)
    assert "the charts make 63 rules, 1083 numbers, and a strategy row holds 1024: write fewer charts" in err, err


def test_the_compact_clauses_hold_the_same_hands():
    """compact's shorter clauses against the charts' own, both ways, by the 0/1 program: no hand
    meets one and not the other."""
    from cardsim.conditions import reachable

    clauses = {c.shape.clause for c in chart_cells(quick=False)}
    changed = {c: F.compact(c) for c in clauses if F.compact(c) != c}
    assert changed["S=2-4, C=2-4, D=2-4, H=2-4"] == "longest=4, shortest>=2"
    assert changed["H=5, S<=4, C<=4, D<=4"] == "H=5, shape<=5440"
    assert changed["S=6, C<=4, D<=4, H<=4"] == "S=6, shape<=6430"
    assert len(changed) == 9  # balanced, and five and six cards in each of four suits
    for long, short in changed.items():
        assert reachable("vint", short, earlier=[long]) is False, short
        assert reachable("vint", long, earlier=[short]) is False, long
    # what stays as the chart wrote it: six or more (seven or more) cards, five or more, two-suiters
    assert F.compact("H>=6, S<=4, C<=4, D<=4") == "H>=6, S<=4, C<=4, D<=4"
    assert reachable("vint", "H>=6, shape<=6430", earlier=["H>=6, S<=4, C<=4, D<=4"]) is False
    assert reachable("vint", "H>=6, S<=4, C<=4, D<=4", earlier=["H>=6, shape<=6430"]) is True  # 7-4-1-1


def test_adjacent_bands_with_one_call_share_a_rule(tmp_path):
    rows = [("-", "0-10", "bal", "P"), ("-", "11-12", "bal", "P"), ("-", "13-15", "bal", "1NT"),
            ("-", "16-18", "bal", "1NT"), ("-", "19-21", "bal", "P"), ("-", "0-10", "5H", "P")]
    path = tmp_path / "o.csv"
    _frame(rows).to_csv(path, index=False)
    out = tmp_path / "o.toml"
    assert main(["rules", "from-chart", "vint", "--table", str(path), "-o", str(out)]) == 0
    compiled = load(out, "vint")
    assert compiled.whens == ("hcp=0-12, longest=4, shortest>=2", "hcp=13-18, longest=4, shortest>=2",
                              "hcp=19-21, longest=4, shortest>=2", "hcp=0-10, H=5, shape<=5440")
    assert [R.call_text(c) for c in compiled.calls] == ["P", "1NT", "P", "P"]
    assert all(o.passed for o in run_tests(compiled)) and main(["rules", "check", str(out)]) == 0


def test_charts_not_named_are_written_while_they_fit(tmp_path, capsys, monkeypatch):
    """The report's four full charts, the opening chart passing throughout (its bands merge) and the
    others with a different call in every band: they fit one row of today's size together; in a row of
    1,024 numbers opening and second fit, overcall and response are left out, said on stderr and in
    the header; naming a set too big is an error."""
    import cardsim.rules.compile as C
    import cardsim.strategies.registry as R

    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports" / "tables").mkdir(parents=True)
    for chart in ("opening", "second", "overcall", "response"):
        cells = [c for c in chart_cells(quick=False) if c.chart == chart]
        bands = sorted({c.band[0] for c in cells})
        rows = [(" ".join(c.after) or "-", band_label(c.band), c.shape.name,
                 "P" if chart == "opening" or bands.index(c.band[0]) % 2 == 0 else c.options[-1]) for c in cells]
        _frame(rows).to_csv(F.table_path(chart), index=False)
    assert main(["rules", "from-chart", "vint", "-o", "every.toml"]) == 0
    assert "Left out" not in capsys.readouterr().err
    assert "# Charts: opening, second, overcall, response; 173 cells" in (tmp_path / "every.toml").read_text()
    assert all(o.passed for o in run_tests(load(tmp_path / "every.toml", "vint")))
    monkeypatch.setattr(R, "TABLE_LEN", 1024)
    monkeypatch.setattr(C, "TABLE_LEN", 1024)
    assert main(["rules", "from-chart", "vint", "-o", "all.toml"]) == 0
    note = ("Left out, too big for one strategy row with the charts above: the overcall, response charts "
            "(write them with --chart into another file).")
    assert note in capsys.readouterr().err
    text = (tmp_path / "all.toml").read_text()
    assert f"# {note}" in text and "# Charts: opening, second; 96 cells" in text
    compiled = load(tmp_path / "all.toml", "vint")
    assert all(o.passed for o in run_tests(compiled))
    assert main(["rules", "from-chart", "vint", "--chart", "second", "--chart", "overcall"]) == 2
    assert "write fewer charts" in _err(capsys)
    assert main(["rules", "from-chart", "vint", "--chart", "response", "-o", "response.toml"]) == 0
    assert load(tmp_path / "response.toml", "vint").file.rules[0].values["auction"] == "1S P"
