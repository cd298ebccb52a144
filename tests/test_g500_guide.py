"""Five Hundred bid guide: the new hand features, the class arithmetic, the pipeline on hand-built
frames with exact values, the generated answer, and a tiny end-to-end run."""
import json
from math import comb

import numpy as np
import pandas as pd
import pytest

from analyses import g500_guide as script
from analyses.common import parse_args
from cardsim.analysis.g500 import guide as G
from cardsim.analysis.g500.guide import Holding
from cardsim.conditions import Conditions, compile as compile_conditions
from cardsim.deal import deal_chunk
from cardsim.games.g500 import features as F
from cardsim.games.g500.constants import card_str
from cardsim.selection import p_below


# ---------------------------------------------------------------- features
def _tokens(hand) -> set[str]:
    h = int(hand)
    return {card_str(c) for c in range(64) if h >> c & 1}


def test_top_and_side_aces_match_a_python_count_on_random_hands():
    hands = deal_chunk(compile_conditions(Conditions("500")), 11, 0, 400).hands
    out = np.zeros(F.N_FEATURES, dtype=np.int64)
    seen_top, seen_side = set(), set()
    for hand in hands.reshape(-1):
        cards = _tokens(hand)
        F.hand_features(hand, out)
        for x, mate in (("S", "C"), ("C", "S"), ("D", "H"), ("H", "D")):
            top = len(cards & {"HJ", "LJ", f"J{x}", f"J{mate}", f"A{x}"})
            side = len(cards & {f"A{s}" for s in "SCDH" if s != x})
            assert out[F.NAMES.index(f"top_{x}")] == top
            assert out[F.NAMES.index(f"side_aces_{x}")] == side
            seen_top.add(top)
            seen_side.add(side)
    assert seen_top >= {0, 1, 2, 3} and seen_side == {0, 1, 2, 3}


def test_top_class_keeps_only_hands_with_that_many_top_trumps():
    dealt = deal_chunk(compile_conditions(Conditions("500", classes={0: "top_S=4, side_aces_S<=1"})), 3, 0, 200)
    for hand in dealt.hands[:, 0]:
        cards = _tokens(hand)
        assert len(cards & {"HJ", "LJ", "JS", "JC", "AS"}) == 4
        assert len(cards & {"AC", "AD", "AH"}) <= 1


# ---------------------------------------------------------------- classes
def test_class_shares_are_exact_and_sum_to_one():
    assert G.Holding("H", 6, 3).share() == pytest.approx(comb(5, 3) * comb(9, 3) * comb(32, 4) / comb(46, 10))
    every_suit_class = [Holding("H", t, k) for t in range(11) for k in range(6) if k <= t and t - k <= 9]
    assert sum(h.share() for h in every_suit_class) == pytest.approx(1.0)
    assert sum(h.share() for h in G.nt_grid()) == pytest.approx(1.0)
    plus = Holding("H", 8, 4, plus=True).share()
    assert plus == pytest.approx(sum(Holding("H", t, 4).share() for t in (8, 9, 10)))
    sides = sum(Holding("H", 6, 2, side_aces=a).share() for a in range(4))
    assert sides == pytest.approx(Holding("H", 6, 2).share())


def test_strata_give_every_choice_of_the_counted_honours():
    strata = Holding("H", 6, 2).strata()
    assert len(strata) == 10 and len(set(strata)) == 10
    assert all(len(s.split()) == 2 and set(s.split()) <= {"HJ", "LJ", "JH", "JD", "AH"} for s in strata)
    assert len(Holding("S", 6, 2, side_aces=1).strata()) == 10 * 3
    assert Holding("NT", jokers=1, aces=2).strata()[0] == "HJ AS AC"
    assert len(Holding("NT", jokers=1, aces=2).strata()) == 2 * 6
    assert Holding("H", 5, 0).strata() == [""]
    assert Holding("D", 8, 3, side_aces=2, plus=True).where() == "top_D=3, trumps_D>=8, side_aces_D=2"
    # given the honours, the rest: 3 low trumps of 9, 4 of the 32 plain cards, from 43 cards
    assert Holding("H", 6, 3).acceptance() == pytest.approx(comb(9, 3) * comb(32, 4) / comb(43, 7))


def test_rare_classes_get_fewer_deals_or_none():
    common, rare = Holding("H", 6, 3), Holding("H", 8, 0, plus=True)
    assert G.deals_for(common, 20_000) == 20_000
    capped = G.deals_for(Holding("H", 8, 2, plus=True), 20_000)
    assert capped == int(G.MAX_CANDIDATES * Holding("H", 8, 2, plus=True).acceptance()) and capped < 20_000
    assert G.deals_for(rare, 20_000) == 0
    assert G.deals_for(rare, 20) == 0 and G.deals_for(common, 20) == 20
    # 8+ trumps with 1 top: ~2e-5 of candidates; a deal could fail after MAX_ATTEMPTS
    assert Holding("H", 8, 1, plus=True).acceptance() < G.MIN_ACCEPTANCE < Holding("H", 7, 0).acceptance()
    assert G.deals_for(Holding("H", 8, 1, plus=True), 100) == 0 and G.deals_for(Holding("H", 7, 0), 100) == 100


# ---------------------------------------------------------------- pipeline on hand-built frames
def _class_rows(holding, scoring, made, score, half_width=5.0, deals=1000):
    """LEVEL_COLUMNS rows of one class: made and score per level 6..10; diff to the best level."""
    best = max(score)
    rows = pd.DataFrame({"level": list(G.LEVELS), "made": made, "score": score})
    for col, value in G.class_values(holding).items():
        rows[col] = value
    rows["share"] = holding.share()
    rows["scoring"] = scoring
    rows["deals"] = deals
    rows["made_lo"], rows["made_hi"] = rows.made - 0.02, rows.made + 0.02
    rows["score_lo"], rows["score_hi"] = rows.score - 10, rows.score + 10
    rows["diff"] = rows.score - best
    is_best = rows["diff"] == 0
    rows["diff_lo"] = np.where(is_best, 0.0, rows["diff"] - half_width)
    rows["diff_hi"] = np.where(is_best, 0.0, rows["diff"] + half_width)
    rows["acceptance"] = 0.5
    # the halves as the whole: score_half0 chooses the same best, diff_half1 is diff
    rows["score_half0"] = rows.score
    rows["diff_half1"], rows["diff_half1_lo"], rows["diff_half1_hi"] = rows["diff"], rows.diff_lo, rows.diff_hi
    rows["p_half1"] = np.where(is_best, 1.0, p_below(rows["diff"], half_width / 1.959963984540054, deals))
    return rows[G.LEVEL_COLUMNS]


MADE_63 = [0.98, 0.93, 0.80, 0.52, 0.20]
MADE_62 = [0.97, 0.88, 0.62, 0.30, 0.08]
MADE_53 = [0.95, 0.80, 0.45, 0.20, 0.05]


def _levels(score_63=(96, 171, 181, 15, -301), half_width=5.0):
    parts = [
        _class_rows(Holding("H", 5, 3), "quebec", MADE_53, (90, 120, -10, -240, -450)),
        _class_rows(Holding("H", 6, 2), "quebec", MADE_62, (94, 152, 72, -160, -420)),
        _class_rows(Holding("H", 6, 3), "quebec", MADE_63, score_63, half_width),
        _class_rows(Holding("H", 5, 3), "subtract", MADE_53, (70, 100, -30, -260, -470)),
        _class_rows(Holding("H", 6, 2), "subtract", MADE_62, (80, 138, 58, -174, -434)),
        _class_rows(Holding("H", 6, 3), "subtract", MADE_63, [s - 16 for s in score_63], half_width),
        _class_rows(Holding("S", 6, 3), "quebec", [0.97, 0.92, 0.79, 0.54, 0.20], (38, 119, 137, 26, -268)),
        _class_rows(Holding("NT", jokers=0, aces=1), "quebec", [0.6, 0.3, 0.1, 0.0, 0.0],
                    (-10, -150, -300, -400, -500)),
        _class_rows(Holding("NT", jokers=2, aces=3), "quebec", [0.99, 0.9, 0.6, 0.3, 0.1],
                    (118, 176, 64, -200, -400)),
    ]
    return G.typed(pd.concat(parts, ignore_index=True))


def test_bids_pick_the_highest_mean_and_the_margin_over_the_runner_up():
    b = G.bids(_levels())
    r = b[(b.denom == "H") & (b.trumps == "6") & (b.top == 3) & (b.scoring == "quebec")].iloc[0]
    assert (r.best, r.runner_up, r.score, r.made) == (8, 7, 181, 0.80)
    assert (r.margin, r.margin_lo, r.margin_hi) == (10, 5, 15)
    assert r.clear and r.pays
    assert len(b) == 9 and list(b.scoring[:3]) == ["quebec"] * 3
    nt0 = b[(b.denom == "NT") & (b.jokers == 0)].iloc[0]
    assert (nt0.best, nt0.runner_up, bool(nt0.pays)) == (6, 7, False)
    close = G.bids(_levels(half_width=12.0))
    assert not close[(close.denom == "H") & (close.trumps == "6") & (close.top == 3)].clear.any()


def test_minimum_holding_is_the_fewest_top_trumps_making_half_the_time():
    m = G.minimum_holding(_levels())
    suit = m[m.denom == "H"].set_index(["level", "trumps"])
    assert suit.loc[(8, "6"), "top"] == 2 and suit.loc[(8, "6"), "made"] == 0.62
    assert pd.isna(suit.loc[(8, "5"), "top"])  # 45%: below half
    assert suit.loc[(9, "6"), "top"] == 3 and suit.loc[(9, "6"), "made"] == 0.52
    assert pd.isna(suit.loc[(10, "6"), "top"])
    nt = m[m.denom == "NT"].set_index(["level", "jokers"])
    assert nt.loc[(6, 0), "aces"] == 1 and pd.isna(nt.loc[(7, 0), "aces"]) and nt.loc[(8, 2), "aces"] == 3


def test_symmetry_compares_made_rates_in_percentage_points():
    s = G.symmetry(_levels()).set_index("level")
    assert list(s.index) == list(G.LEVELS)
    assert s.loc[9, "made_diff_pp"] == pytest.approx(2.0)
    se = np.sqrt(0.52 * 0.48 / 1000 + 0.54 * 0.46 / 1000)
    assert s.loc[9, "made_diff_pp_hi"] == pytest.approx(100 * (0.02 + G.symmetry_z(5) * se))
    assert s.agree.all()
    assert G.symmetry_z(5) == pytest.approx(2.5758, abs=1e-4)  # 0.01 in each of 5 tests


def test_answer_follows_the_numbers():
    levels = _levels()
    text = G.answer(G.tables(levels))
    assert text.startswith("With 6 trumps including 3 of the top five, bid 8♥ under quebec (+181 a deal, made 80%; "
                           "10.0 points better than 7♥ [5.0, 15.0], clearly)")
    assert "5 trumps: 7♥ with 3 top; 6 trumps: 7♥ with 2, 8♥ with 3 top" in text
    assert "under quebec and subtract alike" in text
    assert "8♥ from 6 trumps with 2 top" in text and "10♥ in no class studied" in text
    assert "0 jokers: none pays with 1 aces; 2 jokers: 7NT with 3 aces" in text
    assert "agree with hearts at every level" in text
    # 7♥ now scores more than 8♥ with 6 trumps and 3 top: the text follows
    flipped = G.answer(G.tables(_levels(score_63=(96, 190, 181, 15, -301))))
    assert "bid 7♥ under quebec (+190 a deal, made 93%; 9.0 points better than 8♥" in flipped
    assert "6 trumps: 7♥ with 2–3 top" in flipped and flipped != text
    # a margin whose interval includes 0 is called close
    close = G.answer(G.tables(_levels(half_width=12.0)))
    assert "not clearly" in close and "close calls: 6 trumps, 3 top (8♥ vs 7♥, quebec and subtract)" in close
    # a made rate far from hearts' in spades is reported
    far = levels.copy()
    far.loc[(far.denom == "S") & (far.level == 9), ["made", "made_lo", "made_hi"]] = [0.70, 0.67, 0.73]
    assert "differ from hearts at level(s) 9 " in G.answer(G.tables(far))


def test_heatmap_is_drawn(tmp_path):
    paths = G.figures(G.tables(_levels()), tmp_path)
    assert paths == [tmp_path / "g500_guide_bids.png"] and paths[0].stat().st_size > 10_000


# ---------------------------------------------------------------- end to end
def test_tiny_run_writes_the_guide(tmp_path):
    classes = [Holding("H", 6, 3), Holding("NT", jokers=1, aces=2)]
    args = parse_args("guide", ["--n", "200", "--seed", "5", "--jobs", "1", "--out", str(tmp_path),
                                "--results", str(tmp_path / "results")])
    path = script.run(args, classes)
    meta = json.loads(path.read_text())
    assert path.name == "500_guide.json"
    assert set(meta) == {"game", "title", "deals", "deals_unit", "seed", "source", "cardsim", "strategies",
                         "parameters", "rules", "tables", "csv_only", "figures", "glossary", "notes", "answer",
                         "method", "legends", "rules_of_thumb", "detail"}
    assert (meta["game"], meta["deals"], meta["deals_unit"], meta["seed"]) == ("500", 200, "deals per class", 5)
    assert meta["tables"] == ["g500_guide_bids", "g500_guide_minimum", "g500_guide_symmetry", "g500_guide_openings"]
    openings = pd.read_csv(tmp_path / "tables" / "g500_guide_openings.csv")
    assert len(openings) == len(meta["rules_of_thumb"]) and list(openings.columns) == G.OPENING_COLUMNS
    assert ("forced over opened" in meta["answer"]) == bool(len(openings))
    assert meta["csv_only"] == ["g500_guide_levels"]
    assert meta["figures"] == ["g500_guide_bids.png"] and meta["answer"].startswith("With 6 trumps including 3")
    # the report's "In detail" lists the answer's sentences (the paragraph is them joined)
    assert meta["detail"]["tables"] == [] and " ".join(meta["detail"]["items"]) == meta["answer"]
    levels = pd.read_csv(tmp_path / "tables" / "g500_guide_levels.csv")
    assert len(levels) == 2 * 2 * 5
    # 6H/3 top: 10 strata of 20 deals; NT 1 joker 2 aces: 12 strata of 17
    assert sorted(levels.deals.unique()) == [200, 204]
    q, s = levels[levels.scoring == "quebec"], levels[levels.scoring == "subtract"]
    assert (q.made.to_numpy() == s.made.to_numpy()).all()  # same deals, and the play ignores the scoring
    # quebec: +value when made, -value when failed, so the mean is (2 made - 1) value
    values = {"H": 100, "NT": 120}
    expect = [(2 * r.made - 1) * (values[r.denom] + 100 * (r.level - 6)) for r in q.itertuples()]
    assert np.allclose(q.score, expect)
    acc = levels.groupby("denom").acceptance.first()
    for h in classes:
        p, deals = h.acceptance(), levels[levels.denom == h.denom].deals.iloc[0]
        assert abs(acc[h.denom] - p) < 5 * p * np.sqrt((1 - p) / deals)
    bids = pd.read_csv(tmp_path / "tables" / "g500_guide_bids.csv")
    assert len(bids) == 4 and set(bids.best) <= set(G.LEVELS)
    from rules_helpers import check_rules

    check_rules(meta["rules_of_thumb"], {"g500_guide_bids": bids}, "Five Hundred")
    assert set(meta["legends"]) == set(meta["figures"])


# ---------------------------------------------------------------- rules of thumb
def test_rules_of_thumb_are_rows_of_the_bids_table_by_worth():
    from rules_helpers import check_rules

    from cardsim.analysis import rules_of_thumb as T

    b = G.bids(_levels())
    tabs = {"g500_guide_bids": b.assign(holds=[True] * (len(b) - 1) + [False],
                                        flips_under=[""] * (len(b) - 1) + ["bold"], gain_min=1.0, gain_max=2.0,
                                        robust_deals=[100] * (len(b) - 2) + [0, 100])}
    rules = G.rules(tabs)
    check_rules(rules, tabs, "Five Hundred")
    # candidates: clear rows whose best level pays, hearts and no-trump (the spade check is left out)
    rows = tabs["g500_guide_bids"]
    candidates = rows[(rows.denom != "S") & rows.clear & rows.pays]
    assert 0 < len(rules) <= min(T.MAX_RULES, len(candidates))
    assert all(rows.loc[r["row"], "denom"] != "S" for r in rules)
    for r in rules:
        row = rows.loc[r["row"]]
        assert r["worth"] == pytest.approx(row.margin * row.share)
    r63 = next(r for r in rules if r["row"] == rows.index[(rows.trumps == "6") & (rows.top == 3)
                                                         & (rows.scoring == "quebec")][0])
    assert r63["text"] == "With 6 trumps, 3 of them among the top five: bid 8♥ (both scorings), if you declare it uncontested"
    assert r63["number"] == "+10 points a deal (quebec) over 7♥ [+5, +15]"
    nt = [r for r in rules if "no-trump" in r["text"]]
    assert nt and nt[0]["text"] == ("For no-trump, 2 jokers and 3 aces: bid 7NT (quebec scoring), if you declare it "
                                    "uncontested")
    assert len({r["text"].split(": bid")[0] for r in rules}) == len(rules)  # one rule per class
    # a class whose scorings bid different levels says so
    split = rows.copy()
    at = split.index[(split.trumps == "6") & (split.top == 3) & (split.scoring == "subtract")][0]
    split.loc[at, "best"] = 7
    r63 = next(r for r in G.rules({"g500_guide_bids": split}) if r["text"].startswith("With 6 trumps, 3"))
    assert r63["text"].endswith("bid 8♥ (quebec; subtract: 7♥), if you declare it uncontested")
    assert nt[0]["holds"] == T.DEPENDS  # the last row: clearly beaten under 'bold'
    assert G.rules({"g500_guide_bids": b})[0]["holds"] == T.UNTESTED


def _nt10_levels():
    """_levels() with the class of the report's false rule: no-trump, 1 joker and 0 aces, whose best
    level (6NT) pays under quebec and not under subtract."""
    nt10 = Holding("NT", jokers=1, aces=0)
    made = [0.55, 0.25, 0.08, 0.01, 0.0]
    return G.typed(pd.concat([_levels(), _class_rows(nt10, "quebec", made, (12, -130, -270, -380, -470)),
                              _class_rows(nt10, "subtract", made, (-15, -158, -299, -410, -500))],
                             ignore_index=True))


def test_a_rule_names_a_scoring_only_with_what_its_own_row_says():
    """The report said "For no-trump, 1 joker and 0 aces: bid 6NT (both scorings)" where 6NT pays
    under quebec only (subtract's pays column false): the other scoring is named with its own
    row's verdict, and the rule says its numbers are of a contract declared uncontested."""
    b = G.bids(_nt10_levels())
    at = b.index[(b.denom == "NT") & (b.jokers == 1) & (b.aces == 0)]
    assert list(b.loc[at, "pays"]) == [True, False] and list(b.loc[at, "best"]) == [6, 6]
    rules = G.rules({"g500_guide_bids": b})
    nt = [r for r in rules if r["text"].startswith("For no-trump, 1 joker and 0 aces")]
    assert [r["text"] for r in nt] == ["For no-trump, 1 joker and 0 aces: bid 6NT (quebec; subtract: no level "
                                       "pays), if you declare it uncontested"]
    assert not any("(both scorings)" in r["text"] and "1 joker" in r["text"] for r in rules)
    # the other scoring's best level not clearly best: said so
    unclear = b.copy()
    unclear.loc[(unclear.trumps == "6") & (unclear.top == 3) & (unclear.scoring == "subtract"), "clear"] = False
    r63 = next(r for r in G.rules({"g500_guide_bids": unclear}) if r["text"].startswith("With 6 trumps, 3"))
    assert r63["text"] == ("With 6 trumps, 3 of them among the top five: bid 8♥ (quebec; subtract: 8♥ not clearly), "
                           "if you declare it uncontested")


def test_scorings_sentence_says_the_same_level_is_by_construction_and_compares_pays():
    """"Quebec and subtract recommend the same level in 47 of 47 classes" is true by construction;
    the sentence says why and compares what the scoring changes: whether the best level pays."""
    text = G.answer(G.tables(_nt10_levels()))
    assert ("Quebec and subtract recommend the same level in 4 of 4 classes, as they must: on the same deals a "
            "contract's subtract score is its quebec score less 10 a trick the defenders take, at every level (that "
            "charge differs between the levels of a class by at most 3.0 points a deal). What the scoring changes is "
            "whether the best level pays: under quebec in 4, under subtract in 3 of 4 classes (pays under one only: "
            "1 joker, 0 aces NT).") in text
    # subtract preferring 7♥ with 6 trumps and 3 top (its 10-a-trick charge 40 points lower at 7♥ than at 8♥)
    levels = _nt10_levels()
    at = (levels.scoring == "subtract") & (levels.trumps == "6") & (levels.top == 3) & (levels.level == 7)
    levels.loc[at, ["score", "score_half0"]] = 195.0
    parted = G.answer(G.tables(levels))
    assert ("Quebec and subtract recommend the same level in 3 of 4 classes, not in 6 trumps, 3 top: on the same "
            "deals a contract's subtract score is its quebec score less 10 a trick the defenders take, at every level, "
            "so they part only where the defenders' tricks change with the level (that charge differs between the "
            "levels of a class by at most 40.0 points a deal).") in parted
    plain = G.answer(G.tables(_levels()))
    assert "at most 0.0 points a deal" in plain and "under quebec in 3, under subtract in 3 of 3 classes." in plain


def test_openings_sentence_reads_the_openings_table():
    o = pd.DataFrame([{"denom": "NT", "holding": "1 joker, 0 aces", "scoring": "quebec", "bid": "6NT", "deals": 4000,
                       "opening_legal": 0.97, "forced": 30.0, "forced_lo": 25.0, "forced_hi": 35.0, "opening": 4.0,
                       "opening_lo": 0.0, "opening_hi": 8.0, "pass": 6.0, "pass_lo": 4.0, "pass_hi": 8.0, "gap": 26.0,
                       "gap_lo": 22.0, "gap_hi": 30.0, "over_pass": -2.0, "over_pass_lo": -6.0, "over_pass_hi": 2.0}],
                     columns=G.OPENING_COLUMNS)
    tabs = G.tables(_levels())
    assert "forced contract" in G.answer(tabs) and "(not measured in this run)." in G.answer(tabs)
    o = pd.concat([o, o.assign(denom="H", holding="5 trumps, 2 top", bid="7H", gap=8.0, gap_lo=3.0, gap_hi=13.0,
                                over_pass=118.0, over_pass_lo=108.0, over_pass_hi=128.0)], ignore_index=True)  # 7♥ beats passing
    tabs["g500_guide_openings"] = o
    assert "; 5 trumps, 2 top, 7♥ (quebec): +8 [+3, +13] forced over opened, and opened it beats passing" in \
        G.answer(tabs)
    assert ("1 joker, 0 aces NT, 6NT (quebec): +26 [+22, +30] forced over opened, and opened it is not clearly "
            "better than passing (-2 [-6, +2])") in G.answer(tabs)


def test_openings_are_played_on_the_guides_own_deals():
    """run_openings plays a rule's bid forced, opened and passed on the guide's deals: the forced
    score is exactly the guide's number for that level and scoring, and the paired gaps are the
    differences of the means where every option was legal."""
    cls = Holding("NT", jokers=1, aces=0)
    levels = G.run_classes([cls], 240, 3, n_jobs=1, log=lambda s: None)
    b = G.bids(levels)
    rows = [int(i) for i in b.index]
    o = G.run_openings([cls], b, [{"row": i} for i in rows], 240, 3, n_jobs=1, log=lambda s: None)
    assert list(o.scoring) == list(b.scoring) and list(o.bid) == [f"{int(v)}NT" for v in b.best]
    for (_, r), (_, bid_row) in zip(o.iterrows(), b.iterrows()):
        guide = levels[(levels.scoring == r.scoring) & (levels.level == bid_row.best)].iloc[0]
        assert r.deals == guide.deals == 240 and r.forced == pytest.approx(guide.score, abs=1e-9)
        assert r.gap_lo < r.gap < r.gap_hi
        if r.opening_legal == 1.0:
            assert r.gap == pytest.approx(r.forced - r.opening)
            assert r.over_pass == pytest.approx(r.opening - r["pass"])


def test_the_guide_figure_has_a_legend():
    for mark in ("7+", "top trumps", "jokers", "left bower", "* =", "\u2020 =", "(lo..hi)", "grey", "quebec",
                 "subtract"):
        assert mark in G.LEGENDS["g500_guide_bids.png"]


def test_robust_replay_keeps_only_the_profiles_that_act_on_forced_contracts():
    """The guide's contracts skip the auction: the bidding-only profiles (cautious, bold, flat) give
    the default's numbers on every pilot deal and are left out; heuristic_v1 (the old card play)
    acts (issue 46)."""
    from cardsim.analysis import robustness as RB

    classes = [Holding("H", 6, 3)]
    levels = G.run_classes(classes, 200, 5, n_jobs=1, log=lambda s: None)
    b = G.bids(levels)
    out = G.run_robust(classes, b, 200, 5, n_jobs=1, log=lambda s: None, levels=levels)
    assert set(RB.COLUMNS) <= set(out.columns) and len(out) == len(b) == 2
    for r in out.itertuples():
        assert r.profiles_tested == "heuristic_v1" and r.profiles_not_acting == "previous, cautious, bold, flat"
        assert r.best_under.startswith("heuristic_v1=") and f"={int(r.best)}H" in r.candidates.split(", ")
        assert r.robust_verdict in (RB.R.HOLDS, RB.R.DEPENDS, RB.R.UNDECIDED) and 0 <= r.power <= 1
    assert "not previous, cautious, bold, flat, which give the default's numbers" in G.robust_sentence(out)
