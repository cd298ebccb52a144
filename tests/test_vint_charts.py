"""Vint bidding charts: candidates, best call and gap, the level-stops-paying rule, the generated
answer, and one tiny end-to-end run of analyses/vint_charts.py."""
import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.vint import charts as vc
from cardsim.selection import split_best
from selection_helpers import sums_of


def option_frame(options, scores, diffs, diff_los, diff_his, made=None):
    """A frame shaped like cardsim.questions.table's (rows best first)."""
    k = len(options)
    made = [np.nan] * k if made is None else made
    return pd.DataFrame({"option": options, "n": [1000] * k, "legal": [1.0] * k, "made": made,
                         "made_lo": [m - 0.02 for m in made], "made_hi": [m + 0.02 for m in made],
                         "score": scores, "score_lo": [s - 30 for s in scores], "score_hi": [s + 30 for s in scores],
                         "diff": diffs, "diff_lo": diff_los, "diff_hi": diff_his})


# ------------------------------------------------------------------------------- candidates
def test_cheapest_level_follows_the_denomination_order():
    assert vc.cheapest("S", -1) == 1
    assert vc.cheapest("NT", vc.call_rank("1H")) == 1
    assert vc.cheapest("S", vc.call_rank("1H")) == 2
    assert vc.cheapest("H", vc.call_rank("1H")) == 2
    assert vc.call_rank("7NT") == 34 and vc.call_rank("P") == -1


def test_opening_candidates():
    five_h = vc.one_suiter("H", 5, 5)
    assert vc.candidates((), 0, 0, (13, 15), five_h) == ("P", "1S", "1C", "1D", "1H", "1NT", "2H")
    seven_s = vc.one_suiter("S", 7)
    assert vc.candidates((), 0, 0, (0, 10), seven_s) == ("P", "1S", "1C", "1D", "1H", "1NT", "2S", "3S", "4S")
    assert vc.candidates((), 0, 0, (19, 21), vc.balanced()) == ("P", "1S", "1C", "1D", "1H", "1NT", "2NT", "3NT")


def test_overcall_candidates_skip_the_opponents_suit():
    # Dealer 0 opened 1H; seat 1 (his left-hand opponent) holds 5+ spades.
    assert vc.candidates(("1H",), 0, 1, (13, 15), vc.one_suiter("S", 5)) == ("P", "1NT", "2S", "2C", "2D", "3S")


def test_response_candidates_raise_partner():
    # Partner (seat 2) dealt and opened 1S, seat 3 passed; seat 0 responds.
    got = vc.candidates(("1S", "P"), 2, 0, (6, 9), vc.support("S", 3, 3), "S")
    assert got == ("P", "1C", "1D", "1H", "1NT", "2S", "2NT", "3S", "3NT", "4S")
    nt = vc.candidates(("1NT", "P"), 2, 0, (10, 12), vc.five_plus("H"), "NT")
    assert nt == ("P", "2S", "2C", "2D", "2H", "2NT", "3H", "3NT")


def test_cell_where_and_default_question():
    cell = vc.Cell("response", ("1H", "P"), 2, 0, (10, 12), vc.support("H", 4, None), "seat 2: hcp=12-18, H>=5", "H")
    assert cell.where == "seat 2: hcp=12-18, H>=5; seat 0: hcp=10-12, H>=4"
    # seat 0 calls by its strategy after the same (implied) calls
    assert cell.default_question() == {"seat": 0, "options": ["strategy"], "auction": ("1H", "P")}
    opening = vc.Cell("opening", (), 0, 0, (13, 15), vc.balanced())
    assert opening.default_question() == {"seat": 0, "options": ["strategy"], "auction": ()}
    assert opening.where == "seat 0: hcp=13-15, S=2-4, C=2-4, D=2-4, H=2-4"


def test_chart_cells_give_no_class_to_the_callers_their_calls_imply_their_hands():
    cells = vc.chart_cells()
    assert all(c.others == "" and c.where.startswith(f"seat {c.seat}:") for c in cells)
    assert {c.after for c in cells} == {(), ("P",), ("1S",), ("1H",), ("1S", "P"), ("1H", "P"), ("1NT", "P")}
    from cardsim.questions import question, records
    cell = next(c for c in vc.chart_cells(quick=True) if c.chart == "response")
    d = cell.default_question()
    q = question("vint", d["seat"], d["options"], n=8, seed=3, where=cell.where, dealer=cell.dealer,
                 auction=d["auction"])
    assert q.calls == ("1H", "P")
    for rec in records(q, range(4)):  # partner (seat 2, the dealer) opened 1H by his strategy, seat 3 passed
        assert rec["auction"][:2] == ["1H", "P"] and sum(c.endswith("H") for c in rec["hands"][2]) >= 4


def test_rare_classes_are_left_out():
    assert not vc.rare((13, 15), vc.one_suiter("H", 7))
    assert vc.rare((16, 18), vc.one_suiter("H", 7))
    assert not vc.rare((16, 18), vc.one_suiter("H", 6, 6))
    assert vc.rare((19, 21), vc.two_suiter("S", "H"))
    assert vc.rare((22, None), vc.one_suiter("H", 5, 5)) and not vc.rare((22, None), vc.balanced())


def test_trick_cell_classes_and_options():
    cell = vc.TrickCell("H", 9, ((13, 14), (12, 13)))
    assert cell.where == "seat 0: hcp=13-14, H=5; seat 2: hcp=12-13, H=4"
    assert cell.combined == "25-27" and cell.series == "H 9"
    assert cell.options == ("=1H", "=2H", "=3H", "=4H", "=5H", "=6H", "=7H")


# ------------------------------------------------------------------------------- best and gap
def _split_sums(half0, half1):
    """Sums of two options on 200 deals: per-deal scores (half 0: even deals, half 1: odd) ``half0``
    and ``half1`` = (scores of option 0, scores of option 1), each 100 long."""
    scores = np.zeros((2, 200))
    scores[:, 0::2], scores[:, 1::2] = np.asarray(half0, float), np.asarray(half1, float)
    return sums_of(scores)


def test_best_and_gap_chooses_on_half_0_and_measures_on_half_1():
    # half 0: option 1 ("P") ahead by 10; half 1: option 1 ahead by 3 (differences alternating 2 and 4)
    d1 = np.tile([2.0, 4.0], 50)
    sums = _split_sums((np.zeros(100), np.full(100, 10.0)), (np.zeros(100), d1))
    split = split_best(sums, ["1H", "P"])
    df = option_frame(["P", "1H"], [6.5, 0.0], [0.0, -6.5], [0.0, -7.0], [0.0, -6.0], made=[np.nan, 0.7])
    got = vc.best_and_gap(df, split)
    assert got["best"] == "P" and got["runner_up"] == "1H"
    assert np.isnan(got["best_made"]) and got["best_score"] == 6.5 and got["runner_up_score"] == 0.0
    se = np.sqrt(np.var(d1, ddof=1) / 100)  # 0.1005: sd of the differences over 100 deals
    assert got["gap"] == pytest.approx(3.0) and got["gap_lo"] == pytest.approx(3.0 - 1.959963984540054 * se)
    assert got["p_value"] < 1e-100


def test_best_and_gap_keeps_a_gap_whose_interval_straddles_zero():
    # the gap on half 1 is 0.1 with sd 1.005: p = 0.16, far from clear
    d1 = np.tile([1.1, -0.9], 50)
    got = vc.best_and_gap(option_frame(["1S", "2S"], [1.0, 0.0], [0.0, -1.0], [0.0, -1.1], [0.0, -0.9]),
                          split_best(_split_sums((np.full(100, 2.0), np.zeros(100)), (d1, np.zeros(100))),
                                     ["1S", "2S"]))
    assert got["gap"] == pytest.approx(0.1) and got["gap_lo"] < 0 < got["gap_hi"]
    assert got["p_value"] == pytest.approx(0.159871187, abs=1e-9)  # sf(0.1 / (sd(d1) / 10)), sd = sqrt(100/99)


def test_default_columns_on_the_held_out_half():
    # options 2H, 1H, P; 2H best on half 0; on half 1, 2H - 1H = 100 on every deal pair but one
    scores = np.zeros((3, 200))
    scores[0] = 1000.0
    scores[1] = 900.0
    scores[1, 1] = 1000.0  # one odd deal where 1H does as well
    sums = sums_of(scores)
    split = split_best(sums, ["2H", "1H", "P"])
    got = vc.default_columns(["1H", "1H", "P", "1H"], sums, ["2H", "1H", "P"], split)
    assert got["default"] == "1H" and got["default_share"] == 0.75
    assert got["default_loss"] == pytest.approx(99.0) and got["default_loss_lo"] > 90 and got["default_p"] < 1e-10
    missing = vc.default_columns(["3H"], sums, ["2H", "1H", "P"], split)
    assert missing["default"] == "3H" and np.isnan(missing["default_loss"]) and missing["default_p"] == 1.0
    same = vc.default_columns(["2H"], sums, ["2H", "1H", "P"], split)
    assert (same["default_loss"], same["default_p"]) == (0.0, 1.0)


def test_chart_row_and_tables():
    cell = vc.Cell("opening", (), 0, 0, (13, 15), vc.one_suiter("H", 5, 5))
    k = len(cell.options)
    rng = np.random.default_rng(3)
    scores = rng.normal(0.0, 1.0, size=(k, 1000))
    scores[cell.options.index("1H")] += 5.0
    sums = sums_of(scores)
    df = option_frame(list(cell.options), [0.0] * k, [0.0] * k, [0.0] * k, [0.0] * k)
    df.attrs["acceptance"] = 0.0169
    row = vc.chart_row(cell, df, ["1H"], sums)
    assert row["after"] == "-" and row["band"] == "13-15" and row["shape"] == "5H" and row["long"] == "H"
    assert row["freq"] == 0.0169 and row["n"] == 1000 and row["options"] == k and row["default"] == "1H"
    assert row["best"] == "1H" and row["p_value"] < 1e-10 and "clear" not in row
    tabs = vc.chart_tables([row, row | {"chart": "second", "after": "P"}, row | {"chart": "second", "p_value": 0.5}])
    assert list(tabs) == ["vint_chart_opening", "vint_chart_second"]
    assert len(tabs["vint_chart_second"]) == 2 and "chart" not in tabs["vint_chart_second"]
    assert list(tabs["vint_chart_second"].clear) == [True, False]
    assert list(tabs["vint_chart_opening"].default_worse) == [False]


# ------------------------------------------------------------------------------- levels and tricks
def level_frame(scores, diff_his):
    levels = np.arange(1, len(scores) + 1)
    return pd.DataFrame({"level": levels, "score": scores, "diff_hi": diff_his})


def test_stops_paying_is_the_first_clearly_worse_level_above_the_best():
    # Best at level 2; level 3 is lower but not clearly (interval reaches above 0); level 4 clearly.
    got = vc.stops_paying(level_frame([100, 300, 250, 200, -500, -2000, -4000], [-50, 0, 10, -20, -700, -2100, -4200]))
    assert got[0] == 2 and got[1] == 4.0


def test_stops_paying_missing_when_no_higher_level_is_clearly_worse():
    best, stop = vc.stops_paying(level_frame([100, 150, 140], [-60, 0, 5]))
    assert best == 2 and np.isnan(stop)
    best, stop = vc.stops_paying(level_frame([100, 150, 140, 130, 200, 900, 800], [-9] * 5 + [0, 20]))
    assert best == 6 and np.isnan(stop)


def test_trick_row_mean_tricks_and_made_rates():
    cell = vc.TrickCell("NT", 0, ((13, 14), (12, 13)))
    df = option_frame([f"={lv}NT" for lv in (2, 1, 3)], [300.0, 200.0, -900.0], [0.0, -100.0, -1200.0],
                      [0.0, -130.0, -1300.0], [0.0, -70.0, -1100.0], made=[0.6, 0.9, 0.2])
    levels = vc.level_rows(cell, df)
    assert list(levels.level) == [1, 2, 3] and list(levels.contract) == ["1NT", "2NT", "3NT"]
    tricks = np.array([7, 8, 9, 8] * 10)
    row = vc.trick_row(cell, levels, tricks, 0.01)
    assert row["tricks"] == 8.0 and row["records"] == 40
    assert row["tricks_lo"] < 8.0 < row["tricks_hi"]
    assert (row["made_1"], row["made_2"], row["made_3"]) == (0.9, 0.6, 0.2)
    assert row["best_level"] == 2 and row["stops_paying"] == 3.0 and row["points"] == "25-27"


# ------------------------------------------------------------------------------- the answer
def chart_table(bests, clears, defaults=None, band="13-15"):
    shapes = ["5H", "6S", "bal"]
    longs = ["H", "S", ""]
    k = len(bests)
    defaults = defaults or bests
    loss = [(0.0, 0.0, 0.0) if d == b else (75.0, 31.0, 118.0) for d, b in zip(defaults, bests)]
    return pd.DataFrame({"after": ["-"] * k, "band": [band] * k, "shape": shapes[:k], "long": longs[:k],
                         "partner": [""] * k, "best": bests, "runner_up": ["P"] * k, "gap": [50.0] * k,
                         "gap_lo": [10.0 if c else -10.0 for c in clears], "gap_hi": [90.0] * k, "clear": clears,
                         "default": defaults, "default_loss": [x[0] for x in loss],
                         "default_loss_lo": [x[1] for x in loss], "default_loss_hi": [x[2] for x in loss],
                         "default_worse": [d != b for d, b in zip(defaults, bests)]})


def test_answer_follows_the_numbers():
    tabs = {"vint_chart_opening": chart_table(["1H", "1S", "P"], [True, True, False])}
    text = vc.answer(tabs)
    assert "Dealer: 1 of the long suit with 13-15 (2 of 3 shapes, 2 clear; else pass ×1)." in text
    assert "clear (its gap over the runner-up on deals not used to choose it, 2.5% false discovery rate over each " \
        "chart) in 2 of 3 classes" in text
    assert "opening 13-15 bal: P vs P (+50, -10 to +90)" in text
    assert "differs from the best in 0 of 3 classes, and is clearly worse in 0." in text

    changed = {"vint_chart_opening": chart_table(["2H", "1NT", "P"], [True, False, True], ["1H", "1NT", "P"])}
    text2 = vc.answer(changed)
    assert text2 != text
    assert "Dealer: 2 of the long suit with 13-15 (1 of 3 shapes, 1 clear; else 1NT ×1, pass ×1)." in text2
    assert "differs from the best in 1 of 3 classes, and is clearly worse in 1" in text2
    assert "opening 13-15 5H: it calls 1H, 2H gains 75 (31 to 118)" in text2


def test_answer_describes_responses_and_tricks():
    resp = chart_table(["2H", "P"], [True, True]).assign(after="1H P", partner="H", long="", shape=["H 4+", "H 0-2"])
    tricks = pd.DataFrame({"series": ["H 8", "H 8"], "points": ["19-21", "27-29"], "tricks": [7.8, 9.65],
                           "best_level": [1, 3], "stops_paying": [2.0, np.nan]})
    text = vc.answer({"vint_chart_response": resp, "vint_tricks": tricks})
    assert "Responder to partner's 1H: raise to 2H with 13-15 (1 of 2 shapes, 1 clear; else pass ×1)." in text
    assert ("The declaring side (default play), at 19-21/27-29 combined points (- = no level clearly worse): "
            "H 8: 7.8/9.7 tricks, best level 1/3, stops paying at level 2/-.") in text


def test_describe_calls():
    assert vc.describe("P", "H", "") == "pass"
    assert vc.describe("3H", "H", "") == "3 of the long suit"
    assert vc.describe("1D", "DH", "") == "1 of a long suit"
    assert vc.describe("1NT", "H", "") == "1NT"
    assert vc.describe("3NT", "", "NT") == "3NT"
    assert vc.describe("2S", "", "H") == "2S"


def test_deals_for_caps_candidates():
    from analyses.vint_charts import CANDIDATES_PER_DEAL, MIN_DEALS, deals_for

    assert deals_for(1.0 / CANDIDATES_PER_DEAL, 20_000) == 20_000
    assert deals_for(0.5 / CANDIDATES_PER_DEAL, 20_000) == 10_000
    assert deals_for(1e-6, 20_000) == MIN_DEALS
    assert deals_for(1e-6, 200) == 200


# ------------------------------------------------------------------------------- end to end
def test_tiny_end_to_end_run(tmp_path):
    from analyses.vint_charts import build

    cells = [vc.Cell("opening", (), 0, 0, (13, 15), vc.one_suiter("H", 5, 5)),
             vc.Cell("second", ("P",), 0, 1, (13, 15), vc.balanced(), "seat 0: hcp<=11")]
    tcells = [vc.TrickCell("NT", 0, ((13, 14), (12, 13)))]
    args = SimpleNamespace(n=200, seed=5, jobs=1, out=str(tmp_path), results=str(tmp_path / "results"))
    path = build(args, cells, tcells)
    meta = json.loads(path.read_text())
    # every finished cell is kept, so that an interrupted run resumes
    assert len(list((tmp_path / "results").glob("vint-charts-*/chunk-*.pkl"))) == 3
    assert set(meta) == {"game", "title", "deals", "deals_unit", "cardsim", "seed", "source", "strategies",
                         "parameters", "rules", "tables",
                         "figures", "glossary", "notes", "answer", "method",
                         "legends", "rules_of_thumb", "detail"}
    assert meta["game"] == "vint" and meta["deals"] == 200 and meta["seed"] == 5
    # the report's "In detail": a row per chart, calls before and band; the answer's other sentences as a list
    assert [row[:2] for row in meta["detail"]["tables"][0]["rows"]] == [["Dealer", "13-15"],
                                                                        ["Second hand after a pass", "13-15"]]
    assert all(item in meta["answer"] for item in meta["detail"]["items"])
    assert meta["tables"] == ["vint_chart_opening", "vint_chart_second", "vint_tricks", "vint_tricks_levels"]
    for name in meta["tables"]:
        assert (tmp_path / "tables" / f"{name}.csv").exists() and (tmp_path / "tables" / f"{name}.md").exists()
    for fig in meta["figures"]:
        assert (tmp_path / "figures" / fig).stat().st_size > 0
    assert meta["figures"] == ["vint_chart_opening.png", "vint_chart_second.png", "vint_tricks.png"]
    opening = pd.read_csv(tmp_path / "tables" / "vint_chart_opening.csv")
    assert len(opening) == 1 and opening.n.iloc[0] == 200 and opening.options.iloc[0] == 7
    assert opening.best.iloc[0] in vc.candidates((), 0, 0, (13, 15), vc.one_suiter("H", 5, 5))
    levels = pd.read_csv(tmp_path / "tables" / "vint_tricks_levels.csv")
    assert list(levels.level) == list(range(1, 8))
    assert (np.diff(levels.made) <= 0).all()  # a higher contract in the same denomination is made less often
    tricks = pd.read_csv(tmp_path / "tables" / "vint_tricks.csv")
    assert tricks.records.iloc[0] == 80 and 0 <= tricks.tricks.iloc[0] <= 13
    assert tricks.same_tricks.iloc[0] == 1.0  # the default play does not look at the level
    tables = {name: pd.read_csv(tmp_path / "tables" / f"{name}.csv", keep_default_na=False, na_values=[""])
              for name in meta["tables"]}
    assert meta["answer"].startswith("Dealer: ")
    assert "Second hand after a pass" in meta["answer"]
    assert tables["vint_chart_opening"].best.iloc[0] in meta["answer"] or "long suit" in meta["answer"]
    from rules_helpers import check_rules

    check_rules(meta["rules_of_thumb"], tables, "Vint")
    assert set(meta["legends"]) == set(meta["figures"])


def test_too_many_candidates_raise():
    wide = vc.Shape("x", "H>=5", "SCDH", 7)
    with pytest.raises(ValueError, match="candidates for x"):
        vc.candidates((), 0, 0, (19, 21), wide)


def test_trick_sentence_names_the_points_of_each_series_when_they_differ():
    tricks = pd.DataFrame({"series": ["S 8", "NT"], "points": ["19-21", "28-30"], "tricks": [7.86, 9.23],
                           "best_level": [1, 2], "stops_paying": [2.0, 3.0]})
    text = vc.answer({"vint_tricks": tricks})
    assert text == ("The declaring side (default play) (- = no level clearly worse): S 8 at 19-21 points: 7.9 tricks, "
                    "best level 1, stops paying at level 2; NT at 28-30 points: 9.2 tricks, best level 2, stops "
                    "paying at level 3.")


# ------------------------------------------------------------------------------- rules of thumb
def test_rules_of_thumb_are_rows_of_the_charts_by_worth():
    from rules_helpers import check_rules

    from cardsim.analysis import rules_of_thumb as T

    # 8 clear cells in 6 groups (after) and 1 unclear one; freq x gap orders them
    rows = []
    for k, (after, gap, freq, holds, clear) in enumerate([
            ("-", 300.0, 0.10, True, True), ("-", 200.0, 0.20, False, True), ("-", 50.0, 0.05, True, True),
            ("P", 100.0, 0.01, True, True), ("1S", 80.0, 0.02, True, True), ("1H", 60.0, 0.5, True, True),
            ("1NT", 10.0, 0.3, None, True), ("2C", 40.0, 0.1, True, True), ("-", 500.0, 0.9, True, False)]):
        rows.append({"after": after, "band": "13-15", "shape": ["5H", "bal", "6+S", "H 0-2", "5-5 H+S"][k % 5],
                     "long": "H", "partner": "", "freq": freq, "best": "1H", "runner_up": "P", "gap": gap,
                     "gap_lo": gap / 2, "gap_hi": 1.5 * gap, "clear": clear,
                     "holds": holds, "flips_under": "" if holds in (True, None) else "bold, cautious",
                     "robust_deals": 100})
    tabs = {"vint_chart_overcall": pd.DataFrame(rows)}
    rules = vc.rules(tabs)
    check_rules(rules, tabs, "Vint")
    # no default call, no profile bests: what they settle is only whether a call is close (a gap below the
    # median gap 70 of the eight candidates: rows 2, 5, 6, 7) -- those first, then by worth, two of a group at most
    assert [r["row"] for r in rules] == [5, 7, 6, 2, 1, 4]
    assert [r["worth"] for r in rules] == pytest.approx([30.0, 4.0, 3.0, 2.5, 40.0, 1.6])
    assert [r["close"] for r in rules] == [True] * 4 + [False] * 2
    first = rules[0]
    assert first["text"] == "Second hand after 1H, 13-15 high-card points, exactly five hearts: bid 1H"
    assert first["holds"] == T.HOLDS and first["number"] == "+60 score points a deal over pass [+30, +90]"
    assert rules[2]["holds"] == T.UNTESTED  # holds missing: not replayed
    depends = rules[4]
    assert depends["holds"] == T.DEPENDS and T.holds_text(depends).startswith("\u2020 depends")
    assert "bold, cautious" in T.holds_text(depends)
    # the same table without robustness columns: not replayed
    bare = {"vint_chart_overcall": pd.DataFrame(rows).drop(columns=["holds", "flips_under", "robust_deals"])}
    assert {r["holds"] for r in vc.rules(bare)} == {T.UNTESTED}
    assert vc.rules({"vint_chart_opening": pd.DataFrame(rows).assign(clear=False)}) == []


def test_shape_and_call_words():
    assert vc.shape_words("bal") == "a balanced hand"
    assert vc.shape_words("5H") == "exactly five hearts" and vc.shape_words("6+S") == "six or more spades"
    assert vc.shape_words("5-5 D+H") == "five or more diamonds and hearts"
    assert vc.shape_words("H 0-2") == "0-2 hearts (partner's suit)" and vc.shape_words("S 4+") == "4+ spades (partner's suit)"
    assert vc.shape_words("5+S") == "five or more spades"
    assert vc.call_words("P") == "pass" and vc.call_words("1NT") == "bid 1NT"


def test_every_heatmap_has_a_legend_naming_its_marks():
    names = ["vint_chart_opening.png", "vint_chart_overcall_1S.png", "vint_chart_response_1NT_P.png",
             "vint_tricks.png"]
    legends = vc.legends(names)
    assert set(legends) == set(names)
    assert "opened 1S" in legends["vint_chart_overcall_1S.png"] and "opened 1NT" in legends[names[2]]
    for name in names[:3]:
        for mark in ("bal =", "5H =", "? =", "\u2020 =", "lo..hi", "P = pass", "NT no-trump", "high-card points"):
            assert mark in legends[name]
