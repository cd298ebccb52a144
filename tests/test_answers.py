"""The Answers teach what a player does not already know (issue 46): rules rank by what they settle
(rules_of_thumb.RULE), shown with it, and the sections' "In detail" as a short table and a list."""
import pandas as pd
import pytest

from analyses import report as R
from cardsim.analysis import rules_of_thumb as T
from cardsim.analysis.vint import charts as vc


def _cell(after, band, shape, best, runner_up, gap, lo, hi, freq, default, loss=0.0, loss_lo=0.0, loss_hi=0.0,
          clear=True, **kw):
    row = {"after": after, "band": band, "shape": shape, "long": "H" if "H" in shape else "", "partner": "",
           "freq": freq, "best": best, "runner_up": runner_up, "gap": gap, "gap_lo": lo, "gap_hi": hi,
           "clear": clear, "default": default, "default_loss": loss, "default_loss_lo": loss_lo,
           "default_loss_hi": loss_hi, "default_worse": loss_lo > 0, "holds": True, "flips_under": "",
           "gain_min": gap, "gain_max": gap,
           "robust_deals": 100}
    return row | kw


def test_a_weak_hand_pass_against_a_call_nobody_makes_ranks_below_a_close_call_the_players_miss():
    from rules_helpers import check_rules

    rows = [
        # the report's first rule before: a weak-hand pass, the default passes too, the runner-up nobody's call
        _cell("-", "0-10", "bal", "P", "1NT", 331.9, 256.0, 407.9, 0.18, "P"),
        # a close call decided clearly that the default players get wrong (they open 1NT)
        _cell("-", "19-21", "bal", "1H", "1NT", 30.0, 5.0, 55.0, 0.02, "1NT", 30.0, 5.0, 55.0),
        # a large gain over the default's pass (its runner-up 2NT is not clearly worse): it beats their call
        _cell("-", "13-15", "5H", "2H", "2NT", 16.0, -13.0, 45.0, 0.02, "P", 736.0, 648.0, 824.0, clear=False),
        # not clear and the default already calls the best: no rule
        _cell("-", "13-15", "bal", "P", "1NT", 33.0, -26.0, 92.0, 0.05, "P", clear=False),
    ]
    # three situations (at most two rules of one): the weak pass as dealer, the others second hand
    tabs = {"vint_chart_opening": pd.DataFrame(rows[:1]),
            "vint_chart_second": pd.DataFrame(rows[1:]).assign(after="P")}
    rules = vc.rules(tabs)
    check_rules(rules, tabs, "Vint")
    assert [(r["table"], r["row"]) for r in rules] == [("vint_chart_second", 0), ("vint_chart_second", 1),
                                                       ("vint_chart_opening", 0)]
    close, own, weak = rules
    # the median of the three gains (30, 736, 331.9) is 331.9: only the 30 is close
    assert (close["players"], close["close"], close["settles"]) == (T.DEFAULT_PLAYERS, True, 2)
    assert close["number"] == "+30 score points a deal over 1NT [+5, +55]"
    # measured against the default's own call (default_loss), naming the runner-up as not clearly worse
    assert own["columns"] == ["default_loss", "default_loss_lo", "default_loss_hi"] and own["settles"] == 1
    assert own["text"] == ("Second hand after a pass, 13-15 high-card points, exactly five hearts: bid 2H (or 2NT: "
                           "not clearly worse)")
    assert own["number"] == "+736 score points a deal over pass [+648, +824]"
    assert (weak["players"], weak["close"], weak["settles"], weak["settles_text"]) == ("", False, 0, "")
    # by gain x frequency alone (the old order) the weak-hand pass came first
    assert max(rules, key=lambda r: r["worth"]) is weak
    assert close["settles_text"] == "beats the call of the default players; a close call decided clearly"


def test_profile_bests_mark_the_players_call_and_an_answer_that_moved():
    rows = [_cell("-", "0-10", "bal", "P", "1NT", 300.0, 250.0, 350.0, 0.2, "P"),
            _cell("-", "13-15", "5H", "1H", "P", 200.0, 150.0, 250.0, 0.02, "1H",
                  best_under="previous: P; bold: 1H; cautious: P")]
    rules = vc.rules({"vint_chart_opening": pd.DataFrame(rows)})
    assert [r["row"] for r in rules] == [1, 0]
    moved = rules[0]
    # all three: the runner-up pass is the previous default's and cautious's own best, the best moved from
    # pass, and its gain (200) is below the median (250)
    assert moved["players"] == "the previous default, the cautious players" and moved["moved_from"] == "P"
    assert moved["settles"] == 3
    assert moved["settles_text"] == ("beats the call of the previous default, the cautious players; moved from P under "
                                     "the previous default; a close call decided clearly")


def test_profile_bests_read_every_spelling_and_refuse_nonsense():
    assert T.profile_bests(None) == {} and T.profile_bests(float("nan")) == {} and T.profile_bests("") == {}
    assert T.profile_bests({"bold": 7.0, "previous": "8"}) == {"bold": "7", "previous": "8"}
    assert T.profile_bests('{"previous": "blind:90"}') == {"previous": "blind:90"}
    assert T.profile_bests("previous=1H, bold=P") == {"previous": "1H", "bold": "P"}
    with pytest.raises(ValueError, match="cannot read '1H'"):
        T.profile_bests("1H")
    assert T.players_of("P", "P", {"bold": "P", "previous": "1H"}) == "the default players, the bold players"
    # the robust replay's own 'default' entry is not another player (h-robust writes "default=P, bold=1H")
    assert T.players_of("P", None, T.profile_bests("default=P, bold=1H")) == ""
    assert T.players_of("2H", "P", {}) == "" and T.moved_from("1H", {"previous": "1H"}) == ""


def test_a_lone_candidate_is_not_close_and_ties_keep_worth_order():
    one = [T.rule("501", "x", "t", 0, ("a", "b", "c"), (1.0, 0.5, 1.5), "pp", "over looking", "{:+.1f}", 1.0, "pp",
                  "gain", "g", {})]
    assert T.pick(one)[0]["close"] is False
    same = [T.rule("501", f"r{i}", "t", i, ("a", "b", "c"), (v, v / 2, 2 * v), "pp", "over looking", "{:+.1f}", v,
                   "pp", "gain", f"g{i}", {}, players="bold") for i, v in enumerate([5.0, 9.0, 1.0, 3.0])]
    # median 4: 1 and 3 are close (settle 2), then 9 and 5 (settle 1)
    assert [r["value"] for r in T.pick(same)] == [3.0, 1.0, 9.0, 5.0]


def test_the_report_orders_and_labels_the_answers_by_what_they_settle():
    rules = vc.rules({"vint_chart_opening": pd.DataFrame([
        _cell("-", "0-10", "bal", "P", "1NT", 331.9, 256.0, 407.9, 0.18, "P"),
        _cell("-", "19-21", "bal", "1H", "1NT", 30.0, 5.0, 55.0, 0.02, "1NT", 30.0, 5.0, 55.0)]),
        "vint_chart_second": pd.DataFrame([_cell("P", "13-15", "bal", "1NT", "P", 60.0, 20.0, 100.0, 0.05, "1NT",
                                                 best_under="bold: P")])})
    meta = {"title": "Vint bidding charts", "rules_of_thumb": list(reversed(rules))}  # the report re-sorts
    md, body = R.answers([("vint_charts", meta)])
    text = "\n".join(md)
    assert T.RULE.format(order="what the rule is worth (said under each game)") in text
    # the close call the default players miss (settles 2), a call bold players miss (1), the weak pass (0)
    assert text.index("1. **Dealer, 19-21") < text.index("2. **Second hand after a pass, 13-15") < text.index(
        "3. **Dealer, 0-10")
    assert "(settles: beats the call of the default players; a close call decided clearly)" in text
    assert "(settles: beats the call of the bold players)" in text
    html_text = "".join(body)
    assert "data-settles='2'" in html_text and "<span class='settles'>" in html_text


def test_in_detail_is_a_short_table_and_a_list():
    rows = [_cell("-", "0-10", "bal", "P", "1NT", 331.9, 256.0, 407.9, 0.18, "P"),
            _cell("-", "0-10", "5H", "1H", "P", 28.0, -50.0, 106.0, 0.06, "P", clear=False),
            _cell("-", "0-10", "6+H", "P", "1H", 80.0, 2.0, 158.0, 0.02, "P"),
            _cell("P", "13-15", "bal", "1NT", "P", -8.0, -64.0, 49.0, 0.05, "1NT", clear=False)]
    tabs = {"vint_chart_opening": pd.DataFrame(rows[:3]), "vint_chart_second": pd.DataFrame(rows[3:])}
    d = vc.detail(tabs)
    (table,) = d["tables"]
    assert table["columns"] == vc.DETAIL_COLUMNS
    assert table["rows"] == [["Dealer", "0-10", "pass", "2 of 3", "2", "1 of the long suit ×1"],
                             ["Second hand after a pass", "13-15", "1NT", "1 of 1", "0", ""]]
    # the same facts the paragraph gives, in the table's rows and the items
    assert "pass with 0-10 (2 of 3 shapes, 2 clear; else 1 of the long suit ×1)" in vc.answer(tabs)
    assert d["items"][0].startswith("The best call is clear") and len(d["items"]) == 3
    assert d["items"][2].startswith("The default strategy's usual call differs from the best in 1 of 4 classes")
    md, body = R.detail({"detail": d, "answer": vc.answer(tabs)})
    assert md[:2] == ["**In detail.**", ""]
    assert "| seat | points | best call | shapes | clear | otherwise |" in md
    assert "| Dealer | 0-10 | pass | 2 of 3 | 2 | 1 of the long suit ×1 |" in md
    assert sum(line.startswith("- ") for line in md) == 3
    page = "".join(body)
    assert page.count("<table class='detail-table'>") == 1 and page.count("<tr>") == 3 and page.count("<li>") == 3
    # a section without a detail keeps its paragraph; one with neither shows nothing
    assert R.detail({"answer": "Short."}) == (["**In detail.** Short.", ""],
                                              ["<p class='detail'><strong>In detail.</strong> Short.</p>"])
    assert R.detail({}) == ([], [])
    # a long paragraph without a detail becomes the list of its sentences (numbers and † kept whole)
    long = ("From a clean line either side wins the rubber about half the time (50% (46-53%), 12.0 deals). "
            + "A game up is worth 72% (69-75%); the margin is +151. " * 12 + "\u2020 marks a cell that depends.")
    md, body = R.detail({"answer": long})
    items = [line[2:] for line in md if line.startswith("- ")]
    assert len(items) == 14 and items[0].endswith("12.0 deals).") and items[-1] == "\u2020 marks a cell that depends."
    assert " ".join(items) == long and "".join(body).count("<li>") == 14
