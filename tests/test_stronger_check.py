"""The stronger-play check that decides (analyses/stronger_rule.py, analyses/stronger_play.py,
``make stronger``): the verdict from given intervals, the rule that chooses the cells, the looks and
their level, the sequential replay (stops a decided cell, resumes, any jobs), the Makefile target
and the report with and without the check."""
from __future__ import annotations

import json
import os
import subprocess
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyses import stronger_rule as R

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- the verdict from given intervals
@pytest.mark.parametrize("lo, hi, gap, expected", [
    (0.5, 40.0, 30.0, (R.AGREES, R.BY_SIGN)),  # above 0: the best stays clearly best, however wide
    (-40.0, -0.5, 30.0, (R.REVERSES, R.BY_SIGN)),  # below 0: the runner-up is clearly better
    (-10.0, 19.0, 30.0, (R.AGREES, R.BY_WIDTH)),  # spans 0, width 29 < 30: no reversal as large as the gap
    (-25.0, 4.0, 30.0, (R.AGREES, R.BY_WIDTH)),  # point estimate below 0, yet no reversal of 30 fits
    (-10.0, 20.0, 30.0, (R.UNDECIDED, R.AT_CAP)),  # width 30 = the gap: not narrower
    (-300.0, 250.0, 30.0, (R.UNDECIDED, R.AT_CAP)),  # today's +-300 intervals: not decidable, not "reverses"
    (-8.0, 0.0, 30.0, (R.AGREES, R.BY_WIDTH)),  # touching 0 does not exclude it
])
def test_verdict_from_given_intervals(lo, hi, gap, expected):
    assert R.verdict(lo, hi, gap, 400) == expected


def test_verdict_without_an_interval():
    assert R.verdict(np.nan, np.nan, 30.0, 20) == (R.UNDECIDED, R.AT_CAP)  # deals, but under 30: no interval
    assert R.verdict(np.nan, np.nan, 30.0, 0) == (R.NO_DEALS, "")


def test_reverses_only_where_the_interval_says_so():
    # the old rule called these three "reverses" on the point estimates' signs (heuristic > 0 > pimc)
    for lo, hi in [(-320.0, 280.0), (-150.0, 90.0), (-61.0, 12.0)]:
        assert R.verdict(lo, hi, 40.0, 100)[0] == R.UNDECIDED
    assert R.verdict(-61.0, -12.0, 40.0, 100)[0] == R.REVERSES


def test_decides_is_the_stopping_rule():
    assert R.decides(1.0, 9.0, 2.0) == R.BY_SIGN
    assert R.decides(-3.0, 1.0, 5.0) == R.BY_WIDTH
    assert R.decides(-3.0, 2.0, 5.0) is None  # width 5, gap 5
    assert R.decides(np.nan, np.nan, 5.0) is None


# ---------------------------------------------------------------- the cells
def test_choose_ranks_clear_cells_by_frequency_times_gap():
    chart = pd.DataFrame({
        "cell": ["a", "b", "c", "d", "e", "f", "g", "h"],
        "freq": [0.10, 0.02, 0.50, 0.90, 0.30, 0.05, 0.20, 0.25],
        "gap": [100.0, 900.0, 10.0, 500.0, 40.0, 400.0, -5.0, 48.0],
        "clear": [True, True, True, False, True, True, True, True],
        "runner_up": ["1H", "1NT", "P", "P", None, "2S", "P", "P"],
    })
    chosen = R.choose(chart, "gap", "freq", k=3)
    # worth: a 10, b 18, c 5, f 20, h 12; d not clear, e no runner-up, g a negative gap
    assert list(chosen.cell) == ["f", "b", "h"]
    assert list(chosen.worth) == pytest.approx([20.0, 18.0, 12.0])
    assert list(R.choose(chart, "gap", "freq").cell) == ["f", "b", "h", "a", "c"]  # the 6 asked, 5 qualify


def test_choose_without_frequency_ranks_by_the_gap_and_keeps_one_row_per_class():
    bids = pd.DataFrame({"denom": ["NT", "NT", "H", "H", "S"], "holding": ["1 joker", "1 joker", "6", "6", "7"],
                         "margin": [30.0, 50.0, 80.0, 80.0, 20.0], "clear": [True, True, True, True, True],
                         "runner_up": [7, 7, 8, 8, 9]})
    chosen = R.choose(bids, "margin", distinct=["denom", "holding"], k=6)
    assert list(zip(chosen.denom, chosen.margin)) == [("H", 80.0), ("NT", 50.0), ("S", 20.0)]
    assert list(chosen.index) == [2, 1, 4]  # ties keep the table's order: the first H row
    with pytest.raises(R.RuleError, match="no column share"):
        R.choose(bids, "margin", "share")
    with pytest.raises(R.RuleError, match="whole number from 1"):
        R.choose(bids, "margin", k=0)


# ---------------------------------------------------------------- looks, level, interval, power
def test_looks_double_up_to_the_cap_and_share_the_error():
    assert R.looks(100, 800) == (100, 200, 400, 800)
    assert R.looks(100, 600) == (100, 200, 400, 600)
    assert R.looks(20, 20) == (20,)
    assert R.level(4) == pytest.approx(0.9875)


def test_interval_at_the_looks_level_and_power():
    from scipy.stats import norm

    n, d, sd = 400, -6.0, 50.0
    # per-deal differences of option 0 minus option 1 with mean d and sample sd exactly sd
    sums = {"pair_n": np.full((2, 2), float(n)), "pair_s1": np.array([[0.0, d], [-d, 0.0]]) * n,
            "pair_s2": np.full((2, 2), n * d * d + sd * sd * (n - 1))}
    got = R.interval(sums, 1, 0, 0.9875, scale=1.0)  # best is option 1: gap = +6
    z = norm.ppf(0.5 + 0.9875 / 2)
    assert got["n"] == n and got["mean"] == pytest.approx(6.0) and got["sd"] == pytest.approx(sd)
    assert got["lo"] == pytest.approx(6.0 - z * sd / 20) and got["hi"] == pytest.approx(6.0 + z * sd / 20)
    assert R.power(sd, n, 10.0, 0.9875) == pytest.approx(norm.cdf(10.0 * 20 / sd - z))
    assert np.isnan(R.power(np.nan, n, 10.0, 0.95)) and np.isnan(R.power(sd, 29, 10.0, 0.95))
    assert R.interval(None, 0, 1, 0.95)["n"] == 0


def test_sentence_names_each_reversal_with_both_intervals():
    table = pd.DataFrame([
        {"cell": "opening: 13-15 bal", "best": "1NT", "runner_up": "P", "verdict": R.AGREES,
         "heuristic_gap": 40.0, "heuristic_lo": 10.0, "heuristic_hi": 70.0, "pimc_gap": 55.0, "pimc_lo": 20.0,
         "pimc_hi": 90.0},
        {"cell": "overcall after 1S: 11-12 5H", "best": "2H", "runner_up": "P", "verdict": R.REVERSES,
         "heuristic_gap": 12.0, "heuristic_lo": 2.0, "heuristic_hi": 22.0, "pimc_gap": -18.0, "pimc_lo": -30.0,
         "pimc_hi": -6.0},
        {"cell": "response: 6-9 4S", "best": "2S", "runner_up": "P", "verdict": R.UNDECIDED,
         "heuristic_gap": 5.0, "heuristic_lo": -5.0, "heuristic_hi": 15.0, "pimc_gap": -4.0, "pimc_lo": -40.0,
         "pimc_hi": 32.0}])
    assert R.sentence("Vint", table) == (
        "Vint: with pimc card play on every seat, of 3 chart cells checked 1 agree, 1 reverse: overcall after 1S: "
        "11-12 5H: P beats 2H (pimc -18 [-30, -6], heuristic +12 [+2, +22]), 1 not decidable at this size.")
    assert R.sentence("Vint", table.assign(verdict=R.NOT_AVAILABLE)) == ""


# ---------------------------------------------------------------- the sequential replay
def _fake_part(gaps: dict):
    """A game's cells module whose cells' per-deal differences are +-spread around a known gap
    (``gaps``: name -> (gap, spread); the cell "flip" has the opposite gap under pimc): each
    piece's sums depend only on its seed and strategies (deterministic)."""
    def sums(args, strategies):
        name, piece_seed, n = args
        rng = np.random.default_rng(piece_seed % (2 ** 32))
        gap, spread = gaps[name]
        shift = gap if strategies[0] == "heuristic" or name != "flip" else -gap
        d = shift + rng.choice([-spread, spread], n)
        return {"pair_n": np.full((2, 2), float(n)), "pair_s1": np.array([[0.0, d.sum()], [-d.sum(), 0.0]]),
                "pair_s2": np.full((2, 2), float((d * d).sum()))}

    def parts(cell, piece):
        from analyses.stronger_play import piece_seed

        return [("vint", (cell["cell"], piece_seed(cell["seed"], piece), 25), 25)]

    return types.SimpleNamespace(PIECE=25, FIRST=50, CAP=400, WORLDS=1, COST=1, SCALE=1.0, UNITS="points", NOTE="",
                                 sums=sums, parts=parts)


def _fake_games(part, gaps):
    cells = [{"cell": name, "options": ("A", "B"), "best": "A", "other": "B", "chart_gap": 60.0, "chart_lo": 30.0,
              "chart_hi": 90.0, "worth": 1.0, "seed": 11} for name in gaps]
    looks = R.looks(part.FIRST, part.CAP)
    return {"vint": {"seed": 11, "looks": looks, "pieces": [n // part.PIECE for n in looks],
                     "level": R.level(len(looks)), "worlds": 1, "pimc": True, "cells": cells}}


def test_replay_stops_each_cell_when_it_decides_and_resumes_the_same(tmp_path, monkeypatch):
    from analyses import stronger_play as SP

    gaps = {"big": (80.0, 100.0), "flip": (80.0, 100.0), "none": (0.0, 100.0), "wide": (0.0, 300.0)}
    part = _fake_part(gaps)
    monkeypatch.setattr(SP, "game_part", lambda game: part)
    rows = SP.replay(_fake_games(part, gaps), tmp_path / "results", 1, log=lambda *a, **k: None)
    by = {rows[k]["cell"]: rows[k] for k in rows}
    assert by["big"]["verdict"] == R.AGREES and by["big"]["looks"] == 1 and by["big"]["n"] == 50
    assert by["flip"]["verdict"] == R.REVERSES and by["flip"]["pimc_hi"] < 0 < by["flip"]["heuristic_lo"]
    # no gap, spread 100: the width 2 z 100 / sqrt(n) (z = 2.50 at 98.75%) is below the chart's 60 from
    # n = 70 on, so the cell stops at the look of 100 deals; with spread 300 only from n = 625: the cap, 400
    assert (by["none"]["looks"], by["none"]["n"], by["none"]["verdict"]) == (2, 100, R.AGREES)
    assert by["none"]["decided_by"] == R.BY_WIDTH and by["none"]["power"] > 0.9
    assert (by["wide"]["looks"], by["wide"]["n"], by["wide"]["verdict"]) == (4, 400, R.UNDECIDED)
    # power to see a reversal of 60 at 400 deals of spread 300: Phi(60 * 20 / 300 - z)
    assert by["wide"]["decided_by"] == R.AT_CAP and by["wide"]["power"] == pytest.approx(0.933, abs=0.005)
    stores = sorted(p.name.split("-")[1] for p in (tmp_path / "results").iterdir())
    assert stores == ["look1", "look2", "look3", "look4"]
    # resumed from the kept pieces (no piece is asked again) and with another number of jobs: the same rows
    monkeypatch.setattr(part, "sums", lambda *a: pytest.fail("a kept piece was asked again"))
    again = SP.replay(_fake_games(part, gaps), tmp_path / "results", 2, log=lambda *a, **k: None)
    assert again == rows


# ---------------------------------------------------------------- make stronger and the report
def _make_n(target: str) -> str:
    env = dict(os.environ, MAKEFLAGS="")
    return subprocess.run(["make", "-n", "-C", str(ROOT), target], capture_output=True, text=True, env=env,
                          check=True).stdout


def test_every_game_searches_at_8_worlds_and_the_notes_name_its_default_early():
    from analyses import stronger_play as SP

    assert {g: SP.game_part(g).WORLDS for g in SP.section_games()} == {"vint": 8, "500": 8, "501": 8}
    assert SP._early_note("vint") == " (the game's default early=4: heuristic's cards to the first 4 tricks)"
    assert SP._early_note("501") == " (the game's default early=1: heuristic's cards to the first trick)"
    assert SP._early_note("500") == (" (the game's default early=3,early_declaring=2: heuristic's cards to the "
                                     "defence's first 3 tricks and the declaring side's first 2 tricks)")


def test_make_stronger_runs_the_analysis_and_make_report_does_not():
    assert "-m analyses stronger_play " in _make_n("stronger")
    report = _make_n("report")
    assert "stronger_play" not in report.replace("stronger_play.json", "")  # the page may read its tables
    assert "-m analyses g500_guide " in report or "-m analyses report " in report
    from analyses import ANALYSES

    own = {a.script: a.target for a in ANALYSES if a.target != "report"}
    assert own == {"stronger_play": "stronger"}
    assert "-m analyses stronger_play " in subprocess.run(
        ["make", "-n", "-C", str(ROOT), "stronger", "QUICK=1"], capture_output=True, text=True, check=True).stdout


def _tables(tmp_path, with_stronger: bool):
    from analyses import stronger_play
    from analyses.common import write_tables

    vint = pd.DataFrame([{"cell": "opening: 13-15 bal", "best": "1NT", "runner_up": "P", "worth": 4.0,
                          "chart_gap": 40.0, "chart_lo": 30.0, "chart_hi": 50.0, "n": 200, "looks": 2,
                          "heuristic_gap": 12.0, "heuristic_lo": 2.0, "heuristic_hi": 22.0, "pimc_gap": -18.0,
                          "pimc_lo": -30.0, "pimc_hi": -6.0, "power": 0.97, "verdict": R.REVERSES,
                          "decided_by": R.BY_SIGN}], columns=stronger_play.COLUMNS)
    quality = {"game": "all", "title": "How good are the strategies?", "deals": 10, "seed": 7,
               "strategies": ["heuristic"], "parameters": {}, "rules": {}, "tables": [], "figures": [],
               "answer": "Quality.", "method": ""}
    (tmp_path / "tables").mkdir(parents=True, exist_ok=True)
    (tmp_path / "tables" / "quality.json").write_text(json.dumps(quality))
    if with_stronger:
        write_tables({"stronger_play_vint": vint}, tmp_path)
        meta = {"game": "all", "title": stronger_play.TITLE, "deals": 800, "deals_unit": "deals per cell at most",
                "seed": 7, "strategies": ["heuristic", "vint pimc:worlds=4"], "parameters": {}, "rules": {},
                "tables": ["stronger_play_vint"], "figures": [], "glossary": stronger_play.GLOSSARY,
                "notes": ["method"], "sentences": {"Vint": R.sentence("Vint", vint)},
                "answer": R.sentence("Vint", vint), "method": stronger_play.TITLE + " method."}
        (tmp_path / "tables" / "stronger_play.json").write_text(json.dumps(meta))


def test_report_without_the_check_says_how_to_get_it(tmp_path):
    from analyses import report, stronger_play

    _tables(tmp_path, with_stronger=False)
    md, page = report.build(tmp_path)
    assert f"## {stronger_play.TITLE}\n\n{stronger_play.NOT_RUN}\n" in md
    assert "`make stronger`" in stronger_play.NOT_RUN and "make report" in stronger_play.NOT_RUN
    assert "<h2 id='section-stronger_play'>Does a stronger player change the answer?</h2>" in page
    # in its place in the report's order (analyses/analyses.txt): before the quality section, which was made
    assert md.index(f"## {stronger_play.TITLE}") < md.index("## How good are the strategies?") < md.index("## Method")


def test_report_after_the_check_shows_it_and_its_reversal_in_the_answers(tmp_path):
    from analyses import report, stronger_play

    _tables(tmp_path, with_stronger=True)
    rules = {"game": "vint", "title": "Vint bidding charts", "deals": 10, "seed": 7, "strategies": ["heuristic"],
             "parameters": {}, "rules": {}, "tables": [], "figures": [], "answer": "Charts.", "method": "",
             "rules_of_thumb": []}
    (tmp_path / "tables" / "vint_charts.json").write_text(json.dumps(rules))
    os.utime(tmp_path / "tables" / "vint_charts.json", (1, 1))  # the charts older than the check
    md, page = report.build(tmp_path)
    assert stronger_play.NOT_RUN not in md and "<td>opening: 13-15 bal</td>" in page
    answers = md[md.index("## Answers"):md.index("\n## ", md.index("## Answers"))]
    assert ("*Does a stronger player change the answer?* Vint: with pimc card play on every seat, of 1 chart cells "
            "checked 0 agree, 1 reverse: opening: 13-15 bal: P beats 1NT (pimc -18 [-30, -6], heuristic +12 [+2, "
            "+22]), 0 not decidable at this size.") in answers
    assert stronger_play.STALE not in md
    os.utime(tmp_path / "tables" / "vint_charts.json")  # the charts rebuilt since: the section says so
    md, _ = report.build(tmp_path)
    assert f"*{stronger_play.STALE}*" in md[md.index(f"## {stronger_play.TITLE}"):]
