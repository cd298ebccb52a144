"""The stronger-play check (cardsim.analysis.stronger, analyses/stronger_play.py): which chart cells
are replayed with pimc card play, the verdict at its boundaries, a tiny real Vint run, and the
report's section."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis import stronger as S

Z = 1.959963984540054


def _pair_sums(d: float, sd: float, n: int = 400) -> dict:
    """Sums of two options whose per-deal difference (option 0 minus option 1) has mean d, sd sd."""
    pm = np.array([[0.0, d], [-d, 0.0]])
    s2 = (pm ** 2 + sd ** 2 * (n - 1) / n) * n
    return {"pair_n": np.full((2, 2), float(n)), "pair_s1": pm * n, "pair_s2": s2}


def test_select_clear_cells_with_the_most_deals_then_the_most_met():
    chart = pd.DataFrame({
        "cell": ["a", "b", "c", "d", "e", "f", "g"],
        "n": [20_000, 20_000, 20_000, 30_000, 20_000, 5_000, 20_000],
        "freq": [0.05, 0.20, 0.10, 0.50, 0.30, 0.90, 0.10],
        "clear": [True, True, True, False, True, True, True],
        "runner_up": ["1H", "1NT", "P", "P", None, "2S", "P"],
    })
    chosen = S.select(chart, "clear", "n", ["freq"])
    # d: most deals but not clear; e: no runner-up; f: met most but fewer deals; c before g: chart order
    assert list(chosen.cell) == ["b", "c", "g"]
    assert list(S.select(chart, "clear", "n", ["freq"], k=5).cell) == ["b", "c", "g", "a", "f"]


def test_select_one_row_per_class_and_missing_columns():
    bids = pd.DataFrame({"denom": ["NT", "NT", "H", "H"], "holding": ["1 joker", "1 joker", "6 trumps", "6 trumps"],
                         "scoring": ["quebec", "subtract"] * 2, "deals": [1500] * 4, "share": [0.2, 0.2, 0.1, 0.1],
                         "clear": [True, True, False, True], "runner_up": [7, 7, 8, 8]})
    chosen = S.select(bids, "clear", "deals", ["share"], distinct=["denom", "holding"])
    assert list(zip(chosen.holding, chosen.scoring)) == [("1 joker", "quebec"), ("6 trumps", "subtract")]
    with pytest.raises(S.StrongerError, match="no column freq"):
        S.select(bids, "clear", "deals", ["freq"])


@pytest.mark.parametrize("h, p, lo, hi, expected", [
    (5.0, 3.0, 0.01, 6.0, S.AGREES),
    (5.0, 3.0, 0.0, 6.0, S.NOT_CLEAR),  # the interval touches 0: not clear
    (5.0, 3.0, -0.01, 6.0, S.NOT_CLEAR),
    (-5.0, -3.0, -6.0, -0.01, S.AGREES),  # both below 0 (the chart's ordering, counted the other way)
    (5.0, -0.5, -1.0, 0.1, S.REVERSES),
    (5.0, -3.0, -6.0, -0.01, S.REVERSES),
    (5.0, 0.0, -1.0, 1.0, S.NOT_CLEAR),  # no gap at all is not a reversal
    (0.0, 3.0, 1.0, 5.0, S.NOT_CLEAR),  # no heuristic gap on these deals: nothing to agree with clearly
    (5.0, 3.0, np.nan, np.nan, S.NOT_CLEAR),  # under 30 deals: no interval
    (5.0, np.nan, np.nan, np.nan, S.NO_DEALS),
])
def test_verdict_at_its_boundaries(h, p, lo, hi, expected):
    assert S.verdict(h, p, lo, hi) == expected


@pytest.mark.parametrize("d, expected", [(Z * 0.5 + 0.01, S.AGREES), (Z * 0.5 - 0.01, S.NOT_CLEAR),
                                         (-0.01, S.REVERSES)])
def test_compare_pairs_the_gap_and_scales_it(d, expected):
    # sd 10 over 400 deals: se 0.5; options listed runner-up first, so best is index 1 (gap = -pair[0,1])
    heuristic, pimc = _pair_sums(-2.0, 10.0), _pair_sums(-d, 10.0)
    row = S.compare(heuristic, pimc, ["look", "blind:90"], "blind:90", "look", scale=100.0)
    assert row["verdict"] == expected and row["n"] == 400
    assert row["heuristic_gap"] == pytest.approx(200.0)
    assert row["pimc_gap"] == pytest.approx(100 * d)
    assert row["pimc_lo"] == pytest.approx(100 * (d - Z * 0.5)) and row["pimc_hi"] == pytest.approx(100 * (d + Z * 0.5))
    off = S.not_available(heuristic, ["look", "blind:90"], "blind:90", "look", scale=100.0)
    assert off["verdict"] == S.NOT_AVAILABLE and off["heuristic_gap"] == pytest.approx(200.0)
    assert np.isnan(off["pimc_gap"]) and off["n"] == 400


def test_pimc_spec_bounds():
    assert S.pimc_spec(4) == "pimc:worlds=4"
    for bad in (0, 257, 2.5, True):
        with pytest.raises(S.StrongerError, match="worlds must be"):
            S.pimc_spec(bad)


def test_tiny_real_vint_run():
    """Two deals of a Vint opening cell at one world: the chart's replay builder with heuristic,
    then pimc, on every seat."""
    from analyses.vint_charts import robust_sums
    from cardsim.analysis import vint_charts as vc

    assert S.available("vint")
    cell = vc.Cell("opening", (), 0, 0, (13, 15), vc.balanced())
    asked = []

    def ask(strategies):
        asked.append(list(strategies))
        return robust_sums(cell, ("1NT", "P"), 2, 2026, strategies)

    row = S.check_cell(ask, ("1NT", "P"), "1NT", "P", seats=4, worlds=1)
    assert asked == [["heuristic"] * 4, ["pimc:worlds=1"] * 4]
    assert ["cell", *row] == S.COLUMNS
    assert row["n"] == 2 and row["best"] == "1NT" and row["runner_up"] == "P"
    h = robust_sums(cell, ("1NT", "P"), 2, 2026, ["heuristic"] * 4)
    assert row["heuristic_gap"] == pytest.approx(h["pair_s1"][0, 1] / 2)
    assert np.isnan(row["pimc_lo"]) and row["verdict"] in (S.NOT_CLEAR, S.REVERSES)  # 2 deals: no interval


def test_report_renders_the_section(tmp_path):
    from analyses import report, stronger_play
    from analyses.common import write_tables

    vint = pd.DataFrame([
        {"cell": "opening: 13-15 bal", "best": "1NT", "runner_up": "P", "n": 100, "heuristic_gap": 40.0,
         "heuristic_lo": 10.0, "heuristic_hi": 70.0, "pimc_gap": 55.0, "pimc_lo": 20.0, "pimc_hi": 90.0,
         "verdict": S.AGREES},
        {"cell": "overcall after 1S: 11-12 5H", "best": "2H", "runner_up": "P", "n": 100, "heuristic_gap": 12.0,
         "heuristic_lo": -5.0, "heuristic_hi": 29.0, "pimc_gap": -8.0, "pimc_lo": -30.0, "pimc_hi": 14.0,
         "verdict": S.REVERSES}], columns=S.COLUMNS)
    g500 = pd.DataFrame([{"cell": "NT 1 joker, 1 ace (quebec)", "best": "=6NT", "runner_up": "=7NT", "n": 300,
                          "heuristic_gap": 30.0, "heuristic_lo": 20.0, "heuristic_hi": 40.0, "pimc_gap": np.nan,
                          "pimc_lo": np.nan, "pimc_hi": np.nan, "verdict": S.NOT_AVAILABLE}], columns=S.COLUMNS)
    tabs = {"stronger_play_vint": vint, "stronger_play_501": pd.DataFrame(columns=S.COLUMNS),
            "stronger_play_500": g500}
    write_tables(tabs, tmp_path)
    answer = S.sentence({"Vint": vint, "501": tabs["stronger_play_501"], "Five Hundred": g500})
    assert answer == ("With sampled-search (pimc) card play on every seat, a chart cell's best option and its runner-up "
                      "come in the same order as with the heuristic players on the same deals in 1 of 2 cells checked "
                      "(1 clearly); the order reverses in 1: Vint overcall after 1S: 11-12 5H (2H vs P); Five Hundred "
                      "not checked (no pimc strategy yet).")
    meta = {"game": "all", "title": stronger_play.TITLE, "deals": 300, "deals_unit": "deals per cell at most",
            "seed": 7, "strategies": ["heuristic", "vint pimc:worlds=4"], "parameters": {}, "rules": {},
            "tables": list(tabs), "figures": [], "glossary": stronger_play.GLOSSARY, "notes": ["method"],
            "answer": answer, "method": stronger_play.TITLE + " method."}
    (tmp_path / "tables" / "stronger_play.json").write_text(json.dumps(meta))
    md, page = report.build(tmp_path)
    assert "## Does a stronger player change the answer?" in md
    assert "<h2 id='section-stronger_play'>Does a stronger player change the answer?</h2>" in page
    # the long answer is the section's first paragraph; the Answers hold only rules of thumb
    section = md[md.index("## Does a stronger player"):]
    assert section.split("\n\n")[1].startswith("**In detail.** With sampled-search")
    assert "<p class='detail'><strong>In detail.</strong> With sampled-search" in page
    for name in tabs:  # report.md names the CSV files; the page folds the tables
        assert f"`tables/{name}.csv`" in section
    assert "<td>overcall after 1S: 11-12 5H</td>" in page and "reverses" in page and "not available" in page
    assert "<details class='tables' id='tables-stronger_play'>" in page
    assert page.count("<table") == 3
