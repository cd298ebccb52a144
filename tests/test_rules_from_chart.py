"""``cardsim rules from-chart``: 501's blind chart as a rule file plays as the chart strategy before
looking, passes ``rules check`` and plays deals (docs/rules-files.md, "Charts as rule files")."""
from __future__ import annotations

import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis.g501.policy import chart_policy_spec
from cardsim.cli import main
from cardsim.games.g501 import rulekernel as K
from cardsim.games.g501.strategies import N_CELLS, REGISTRY, cells_text, chart_blind
from cardsim.rules.from_chart import g501 as F
from cardsim.rules import load
from cardsim.rules.check import never_fire, run_tests

# a fixture chart on the quick report's grid (own 100/300/501 x lead -100/0/+100 x position)
CHOICES = pd.DataFrame(
    [(own, lead, pos, best) for own, row in ((100, ("look", "look", "blind:70")),
                                            (300, ("blind:90", "look", "look")),
                                            (501, ("blind:120", "blind:90", "look")))
     for lead, best in zip((-100, 0, 100), row) for pos in (0, 1, 2)],
    columns=["own", "lead", "position", "best"])
CHOICES.loc[(CHOICES.own == 501) & (CHOICES.lead == -100) & (CHOICES.position == 2), "best"] = "look"


def _random_cells(seed: int) -> str:
    rng = np.random.default_rng(seed)
    return cells_text([int(k) if rng.random() < 0.3 else 0 for k in rng.integers(1, 7, N_CELLS)])


def _agree(path, cells: str, n: int, seed: int) -> int:
    row = load(path, "501").row()
    _, chart_row = REGISTRY.resolve(f"chart:cells={cells}")
    rng = np.random.default_rng(seed)
    blind = 0
    for _ in range(n):
        position, seats = int(rng.integers(0, 3)), int(rng.choice([3, 4]))
        score = int(rng.integers(-100, 700))
        rival = score + int(rng.integers(-300, 300))
        cur = 0 if rng.random() < 0.4 else int(rng.integers(66, 221))
        got = int(K.rules_blind(row, position, score, rival, cur, seats))
        want = int(chart_blind(chart_row, position, score, rival, cur))
        assert got == want, (position, score, rival, cur)
        blind += want > 0
    return blind


def test_a_chart_file_bids_blind_exactly_as_the_chart_strategy(tmp_path):
    for seed in (1, 2):
        cells = _random_cells(seed)
        path = tmp_path / f"c{seed}.toml"
        path.write_text(F.rule_file(F.levels_of_cells(cells), "a random chart"))
        assert _agree(path, cells, 4000, seed) > 400
    # the grid's edges, where the nearest cell changes (ties to the lower value)
    cells = _random_cells(3)
    path = tmp_path / "c3.toml"
    path.write_text(F.rule_file(F.levels_of_cells(cells), "a random chart"))
    row = load(path, "501").row()
    _, chart_row = REGISTRY.resolve(f"chart:cells={cells}")
    for score in (75, 76, 150, 151, 450, 451):
        for lead in (-150, -149, -75, -74, -25, -24, 25, 26, 75, 76, 150, 151):
            for pos in (0, 1, 2):
                assert (int(K.rules_blind(row, pos, score, score + lead, 0, 3))
                        == int(chart_blind(chart_row, pos, score, score + lead, 0))), (score, lead, pos)


def test_the_fixture_chart_as_a_file_passes_check_and_plays(tmp_path):
    levels = F.levels_of_choices(CHOICES)
    spec = chart_policy_spec(CHOICES)
    assert levels == F.levels_of_cells(spec.partition("cells=")[2])
    assert sum(lv > 0 for lv in levels) > 20 and set(levels) == {0, 70, 90, 120}
    table = tmp_path / "choices.csv"
    CHOICES.to_csv(table, index=False)
    path = tmp_path / "chart.toml"
    assert main(["rules", "from-chart", "501", "--table", str(table), "-o", str(path)]) == 0
    compiled = load(path, "501")
    assert [o.text() for o in run_tests(compiled) if not o.passed] == []
    assert len(run_tests(compiled)) == 2
    assert never_fire(compiled) == []
    assert main(["rules", "check", str(path)]) == 0
    _agree(path, spec.partition("cells=")[2], 2000, 5)
    # played at every seat: every record legal, the same blind bids as the chart strategy's
    mine = cardsim.records("501", list(range(200)), seed=9, strategies=f"rules:{path}")
    theirs = cardsim.records("501", list(range(200)), seed=9, strategies=spec)
    for a, b in zip(mine, theirs):
        cardsim.replay(a)
        assert a["auction"] == b["auction"] and a["result"]["delta"] == b["result"]["delta"]


def test_from_chart_errors_are_one_line(tmp_path, capsys):
    assert main(["rules", "from-chart", "500", "--cells", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "500 has no chart to write as a rule file" in err[0], err
    assert main(["rules", "from-chart", "501", "--table", "a.csv", "--table", "b.csv"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "501's blind chart is one table" in err[0], err
    assert main(["rules", "from-chart", "501", "--chart", "opening"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--chart 'opening': 501's chart is blind" in err[0], err
    assert main(["rules", "from-chart", "501", "--cells", "012"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"must be {N_CELLS} digits" in err[0], err
    bad = tmp_path / "bad.csv"
    CHOICES.assign(best="blind:75").to_csv(bad, index=False)
    assert main(["rules", "from-chart", "501", "--table", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'blind:75' is not 'look' or blind:L" in err[0], err
    assert main(["rules", "from-chart", "501", "--table", str(tmp_path / "none.csv")]) == 2
    assert "cannot read the chart's table" in capsys.readouterr().err
