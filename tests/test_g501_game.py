"""501 in the game: the match-equity pipeline (rotations, points of view, pooling) on hand-built
frames with exact values and its symmetries on played games, the blind-decision pipeline, the
generated answer, the moment-of-choice table, and a tiny end-to-end run."""
import json

import numpy as np
import pandas as pd
import pytest

import cardsim
from analyses import g501_game as script
from analyses.common import parse_args
from cardsim.analysis import g501
from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis.g501 import equity as E
from cardsim.analysis.g501 import game as G
from cardsim.analysis.g501 import prose as P
from cardsim.analysis import verdicts as V
from cardsim.analysis.g501 import deviation as D
from cardsim.selection import p_above, p_below
from cardsim.stats import mean_interval, wilson

Z95 = 1.959963984540054


# ---------------------------------------------------------------- rotations
def test_rotation_moves_scores_and_dealer_together():
    assert E.rotate((100, 200, 300), 0, 1) == ((200, 300, 100), 2)
    assert E.rotate((100, 200, 300, 400), 3, 2) == ((300, 400, 100, 200), 1)
    assert E.canonical((300, 100, 200)) == (100, 200, 300)
    assert E.canonical((300, 200, 100)) == (100, 300, 200)  # the other seating is another class
    assert E.equity_states((100, 300, 501), 3) == sorted(E.equity_states((100, 300, 501), 3))
    assert len(E.equity_states((100, 300, 501), 3)) == 11  # (27 + 2*3) / 3
    assert len(E.equity_states((200, 501), 4)) == 6  # (16 + 2 + 2*2) / 4
    assert len(E.equity_states(E.GRID3, 3)) == (7 ** 3 + 2 * 7) // 3


# ---------------------------------------------------------------- equity pipeline, exact values
def test_state_row_shares_tied_wins():
    matches = pd.DataFrame({"win_0": [True, True, False, False, True], "win_1": [False, True, True, False, False],
                            "win_2": [False, False, False, True, False], "win_3": [False] * 5,
                            "n_winners": [1, 2, 1, 1, 1], "finished": [True, True, True, True, False],
                            "deals": [3, 4, 5, 6, 5000]})
    row = E.state_row(matches, (100, 200, 300), 1)
    assert (row["games"], row["unfinished"], row["deals"], row["dealer"]) == (5, 1, 5018, 1)
    assert (row["wins_0"], row["wins_1"], row["wins_2"], row["wins_3"]) == (1.5, 1.5, 1.0, 0.0)
    assert (row["s0"], row["s1"], row["s2"], row["s3"]) == (100, 200, 300, 0)


def _states() -> pd.DataFrame:
    """Grid (100, 200), 3 seats, 10 games per state and dealer, hand-chosen wins (each row sums to 10)."""
    wins = {(100, 100, 100): [(4, 3, 3), (2, 5, 3), (3, 3, 4)],
            (100, 100, 200): [(5, 4, 1), (6, 2, 2), (3, 5, 2)],
            (100, 200, 200): [(8, 1, 1), (7, 2, 1), (9, 0.5, 0.5)],
            (200, 200, 200): [(3, 3, 4), (4, 3, 3), (3, 4, 3)]}
    rows = []
    for state, by_dealer in wins.items():
        for d, w in enumerate(by_dealer):
            rows.append({"seats": 3, "s0": state[0], "s1": state[1], "s2": state[2], "s3": 0, "dealer": d, "games": 10,
                         "unfinished": 0, "deals": 40, "wins_0": w[0], "wins_1": w[1], "wins_2": w[2], "wins_3": 0.0})
    return pd.DataFrame(rows, columns=E.STATE_COLUMNS)


def test_viewpoints_read_every_chair_with_its_position():
    v = E.viewpoints(_states())
    assert len(v) == 12 * 3
    # state (100, 100, 200), dealer 0: seat 2 has seat 0 on its left, speaks second (position 1)
    r = v[(v.sim == 3) & (v.own == 200)].iloc[0]
    assert (r.opp_1, r.opp_2, r.position, r.wins) == (100, 100, 1, 1.0)
    # dealer 2's left is seat 0: it speaks first
    assert v[(v.sim == 5) & (v.opp_1 == 100) & (v.own == 100)].iloc[0].position == 0


def test_equity_table_pools_seatings_and_dealers_with_equal_weight():
    eq = E.equity_table(_states(), 3).set_index(["own", "best", "other"])
    # own 100 against {100, 200}: seats 0 and 1 of (100, 100, 200) are the two seatings, 3 dealers each
    r = eq.loc[(100, 100, 200)]
    assert r.p_win == pytest.approx((5 + 4 + 6 + 2 + 3 + 5) / 60)
    assert r.games == 30  # the same 30 games seen from both chairs count once
    lo, hi = wilson(r.p_win * 30, 30)
    assert (r.lo, r.hi) == (pytest.approx(float(lo)), pytest.approx(float(hi)))
    # position 0: seat 0 when dealer 2, seat 1 when dealer 0
    assert r.p_pos0 == pytest.approx((3 / 10 + 4 / 10) / 2)
    assert eq.loc[(200, 100, 100)].p_win == pytest.approx((1 + 2 + 2) / 30)
    assert eq.loc[(100, 200, 200)].p_win == pytest.approx(24 / 30)
    # all equal: every chair of the same games, exactly a third
    assert eq.loc[(100, 100, 100)].p_win == pytest.approx(1 / 3) and eq.loc[(100, 100, 100)].games == 30
    assert eq.loc[(100, 100, 100)].p_pos2 == pytest.approx((4 + 5 + 4) / 30)


def _sum_over_players(eq: pd.DataFrame, scores: tuple) -> float:
    """Each player's row of a state's scores, summed: 1 when the win is shared out exactly."""
    t = eq.set_index(["own", "best", "other"])
    total = 0.0
    for i, own in enumerate(scores):
        others = sorted(scores[:i] + scores[i + 1:])
        total += t.loc[(own, others[0], others[1])].p_win
    return total


def test_players_win_probabilities_sum_to_one():
    eq = E.equity_table(_states(), 3)
    for scores in [(100, 100, 100), (100, 100, 200), (100, 200, 200), (200, 200, 200)]:
        assert _sum_over_players(eq, scores) == pytest.approx(1.0)


def test_wide_table_puts_the_other_opponent_in_columns():
    w = E.equity_wide(E.equity_table(_states(), 3))
    assert list(w.columns) == ["own", "best", "other 100", "other 200"]
    assert w.set_index(["own", "best"]).loc[(100, 100), "other 200"] == pytest.approx(100 * 25 / 60)
    assert np.isnan(w.set_index(["own", "best"]).loc[(100, 200), "other 100"])  # other < best: no such row


# ---------------------------------------------------------------- equity on played games
@pytest.fixture(scope="module")
def played():
    grid = (150, 400)
    return pd.concat([E.run_equity(grid, 3, 1500, 11, n_jobs=1, log=lambda s: None),
                      E.run_equity((300,), 4, 800, 11, n_jobs=1, log=lambda s: None)], ignore_index=True)


def test_played_shares_sum_to_the_finished_games(played):
    assert (played.unfinished == 0).all()
    total = played[["wins_0", "wins_1", "wins_2", "wins_3"]].sum(axis=1)
    assert np.allclose(total, played.games)
    assert (played[played.seats == 3].wins_3 == 0).all()
    eq = E.equity_table(played, 3)
    for scores in [(150, 150, 400), (150, 400, 400), (150, 150, 150)]:
        assert _sum_over_players(eq, scores) == pytest.approx(1.0)


def test_equal_scores_give_equal_win_probability(played):
    for seats, score in ((3, 150), (3, 400), (4, 300)):
        rows = played[(played.seats == seats) & (played.s0 == score) & (played.s1 == score)
                      & (played.s2 == score) & (played.s3 == (score if seats == 4 else 0))]
        assert sorted(rows.dealer) == list(range(seats))
        games = rows.games.sum()
        for s in range(seats):
            # each seat, averaged over the first dealer; ten intervals are checked, so each at
            # 1 - 0.05 / 10 (Bonferroni): at 95% each, one in three fair runs would fail somewhere
            lo, hi = wilson(rows[f"wins_{s}"].sum(), games, level=0.995)
            assert lo <= 1 / seats <= hi


def test_a_rotated_table_is_the_same_game():
    # seat 0 at 150 in (150, 400, 250) with dealer 0 is seat 1 of (250, 150, 400) with dealer 1
    a = E.play_state((150, 400, 250), 0, 3000, 21)
    b = E.play_state((250, 150, 400), 1, 3000, 22)
    pa, pb = a["wins_0"] / 3000, b["wins_1"] / 3000
    assert pa != pb  # independent games
    se = np.sqrt(pa * (1 - pa) / 3000 + pb * (1 - pb) / 3000)
    assert abs(pa - pb) < 3.5 * se


def test_lower_score_wins_more(played):
    eq = E.equity_table(played, 3).set_index(["own", "best", "other"])
    assert eq.loc[(150, 400, 400)].lo > 0.5 > eq.loc[(400, 150, 150)].hi


# ---------------------------------------------------------------- the decision pipeline
def test_situations_and_dealers():
    sits = B.situations((50, 300), (-100, 0), (0, 1, 2))
    assert [(s.own, s.lead) for s in sits[::3]] == [(50, 0), (300, -100), (300, 0)]  # opponents at -50: no game
    assert [s.dealer for s in sits[:3]] == [2, 1, 0]  # the dealer's left speaks first
    assert sits[3].before == [300, 200, 200]
    assert B.options((70, 90)) == ["look", "blind:70", "blind:90"]


def _sums(k: int, n: int, s1, s2, pair_s1, pair_s2) -> dict:
    """Sums with each half holding half of every total."""
    full = {"legal": np.full(k, float(n)), "s1": np.asarray(s1, float), "s2": np.asarray(s2, float),
            "pair_n": np.full((k, k), float(n)), "pair_s1": np.asarray(pair_s1, float),
            "pair_s2": np.asarray(pair_s2, float)}
    return {"deals": n, "attempts": float(n), "declared": np.full(k, n / 2), "made": np.full(k, n / 4), **full,
            **{f"half_{key}": np.stack([v / 2, v / 2]) for key, v in full.items()}}


def test_decision_rows_give_the_paired_gain_over_look_in_pp():
    sit = B.Situation(300, -100, 1)
    n = 100
    # options look, blind:70, blind:90: win shares 30, 36, 33 of 100; per-deal differences to look
    pair_s1 = np.array([[0, -6, -3], [6, 0, 3], [3, -3, 0]])
    pair_s2 = np.array([[0, 10, 9], [10, 0, 7], [9, 7, 0]])
    sums = _sums(3, n, [30, 36, 33], [30, 36, 33], pair_s1, pair_s2)
    rows = B.decision_rows(sit, (70, 90), sums)
    assert list(rows.option) == ["look", "blind:70", "blind:90"] and list(rows.level) == [0, 70, 90]
    assert (rows.own == 300).all() and (rows.opp == 200).all() and (rows.position == 1).all()
    assert list(rows.win) == pytest.approx([0.30, 0.36, 0.33])
    mean, _, lo, hi = mean_interval(6.0, 10.0, n)
    r = rows.set_index("option").loc["blind:70"]
    assert (r.gain_pp, r.gain_lo, r.gain_hi) == (pytest.approx(100 * mean), pytest.approx(100 * lo),
                                                  pytest.approx(100 * hi))
    assert r.gain_pp == pytest.approx(6.0) and r.made == pytest.approx(0.5)
    assert tuple(rows.set_index("option").loc["look", ["gain_pp", "gain_lo", "gain_hi"]]) == (0, 0, 0)
    # every option against the best blind level (blind:70, the highest win share), paired
    mean, _, lo, hi = mean_interval(-3.0, 7.0, n)
    r = rows.set_index("option").loc["blind:90"]
    assert (r.diff_best_pp, r.diff_best_lo, r.diff_best_hi) == (pytest.approx(100 * mean), pytest.approx(100 * lo),
                                                               pytest.approx(100 * hi))
    assert r.diff_best_pp == pytest.approx(-3.0)
    assert rows.set_index("option").loc["look", "diff_best_pp"] == pytest.approx(-6.0)
    assert tuple(rows.set_index("option").loc["blind:70", ["diff_best_pp", "diff_best_lo", "diff_best_hi"]]) == \
        (0, 0, 0)


def test_whether_a_level_is_worse_than_the_best_is_read_on_the_half_that_did_not_choose_it():
    """Half 0 (50 deals) makes blind:70 the best by 6 points over blind:90; on half 1 the two are
    level.  ``diff_best`` (every deal) says blind:90 is 3 pp worse; ``p_below_best`` reads half 1
    only: 0.5, no evidence, where the winner's curse of half 0 would have moved a policy off 90."""
    sit = B.Situation(300, -100, 1)
    h0 = _sums(3, 50, [15, 18, 15], [15, 18, 15], [[0, -3, 0], [3, 0, 3], [0, -3, 0]],
               [[0, 5, 5], [5, 0, 5], [5, 5, 0]])
    h1 = _sums(3, 50, [15, 16, 16], [15, 16, 16], [[0, -1, -1], [1, 0, 0], [1, 0, 0]],
               [[0, 5, 5], [5, 0, 5], [5, 5, 0]])
    keys = ("legal", "s1", "s2", "pair_n", "pair_s1", "pair_s2")
    sums = {"deals": 100, "attempts": 100.0, "declared": np.full(3, 50.0), "made": np.full(3, 25.0),
            **{k: h0[k] + h1[k] for k in keys}, **{f"half_{k}": np.stack([h0[k], h1[k]]) for k in keys}}
    rows = B.decision_rows(sit, (70, 90), sums).set_index("option")
    assert rows.loc["blind:90", "diff_best_pp"] == pytest.approx(-3.0)
    assert rows.loc["blind:90", "p_below_best"] == pytest.approx(0.5)
    assert np.isnan(rows.loc["blind:70", "p_below_best"])
    from cardsim.selection import p_below
    mean, se, _, _ = mean_interval(-1.0, 5.0, 50)  # look against blind:70 on half 1
    assert rows.loc["look", "p_below_best"] == pytest.approx(float(p_below(mean, se, 50))) == pytest.approx(0.3287, abs=1e-4)
    from cardsim.analysis.g501 import fixed as F
    assert F.level_p(rows.reset_index().iloc[2]) == pytest.approx(0.5)


def test_best_blind_takes_the_first_ranked_and_the_lowest_level_on_a_tie():
    assert B.best_blind([3.0, 1.0, 2.0]) == 1
    assert B.best_blind([1.0, np.nan, 1.0]) == 0
    assert B.best_blind([np.nan, np.nan]) is None and B.best_blind([]) is None


def _half_p(gain, lo, hi) -> dict:
    """The one-sided p-values of a held-out gain whose 95% interval is [lo, hi] (1000 deals)."""
    se = (hi - lo) / (2 * Z95)
    return {"p_gain": float(p_above(gain, se, 1000)), "p_loss": float(p_below(gain, se, 1000))}


def _long(cells) -> pd.DataFrame:
    """A decisions frame: cells = {(own, lead, position): [(option, win, gain, lo, hi[, diff]), ...]}.
    ``diff`` = (pp, lo, hi): the option minus the best blind level (highest win); when not given,
    its gain minus the best's gain, with an interval of ± 1.5 pp (0 for the best itself)."""
    rows = []
    for (own, lead, pos), opts in cells.items():
        blinds = [o for o in opts if o[0] != "look"]
        top = max(blinds, key=lambda o: o[1])
        # every option legal on every deal: the paired ranking is the order of the wins
        rank = {o[0]: 1 + sum(p[1] > o[1] for p in opts) for o in opts}
        for option, win, gain, lo, hi, *given in opts:
            d = gain - top[2]
            diff = given[0] if given else ((0.0, 0.0, 0.0) if option == top[0] else (d, d - 1.5, d + 1.5))
            rows.append({"own": own, "lead": lead, "opp": own + lead, "position": pos, "option": option,
                         "level": 0 if option == "look" else int(option.split(":")[1]), "deals": 1000, "legal": 1.0,
                         "made": 0.6, "win": win, "win_lo": win - 0.02, "win_hi": win + 0.02, "gain_pp": gain,
                         "gain_lo": lo, "gain_hi": hi, "diff_best_pp": diff[0], "diff_best_lo": diff[1],
                         "diff_best_hi": diff[2], "win_half0": win, "rank_half0": rank[option], "gain_half1_pp": gain,
                         "gain_half1_lo": lo, "gain_half1_hi": hi, **_half_p(gain, lo, hi)})
    return pd.DataFrame(rows, columns=B.DECISION_COLUMNS)


LOOK0 = ("look", 0.30, 0.0, 0.0, 0.0)
CELLS = {
    (200, 0, 0): [LOOK0, ("blind:70", 0.35, 5.0, 4.0, 6.0), ("blind:120", 0.42, 12.0, 10.0, 14.0)],
    (200, 100, 0): [("look", 0.55, 0.0, 0.0, 0.0), ("blind:70", 0.54, -1.0, -2.0, -0.5),
                    ("blind:120", 0.50, -5.0, -6.5, -3.5)],
    (501, 0, 1): [LOOK0, ("blind:70", 0.31, 1.0, -0.5, 2.5), ("blind:120", 0.305, 0.5, -1.0, 2.0)],
    (501, -100, 2): [LOOK0, ("blind:70", 0.33, 3.0, 2.0, 4.0), ("blind:120", 0.32, 2.0, 0.5, 3.5)],
}


def test_choices_pick_the_best_and_say_how_sure():
    c = B.choices(_long(CELLS)).set_index(["own", "lead", "position"])
    r = c.loc[(200, 0, 0)]
    assert (r.best, r.gain_pp, r.verdict, r.clear_levels, r.win_look) == ("blind:120", 12.0, "blind to 120", "70-120",
                                                                           0.30)
    assert (c.loc[(200, 100, 0)].best, c.loc[(200, 100, 0)].verdict) == ("look", "look")
    assert c.loc[(200, 100, 0)].gain_pp == 0.0
    assert (c.loc[(501, 0, 1)].best, c.loc[(501, 0, 1)].verdict) == ("blind:70", V.NO_CLEAR)
    assert c.loc[(501, 0, 1)].clear_levels == ""
    # blind:120 is 1.0 pp [-2.5, +0.5] below blind:70 on the same deals: as good, the verdict names both
    assert c.loc[(501, -100, 2)].verdict == "blind to 70-120" and c.loc[(501, -100, 2)].clear_levels == "70-120"
    assert (r.levels_as_good, r.next_level, r.gain_vs_next_pp, r.gain_vs_next_lo, r.gain_vs_next_hi) == \
        ("120", 70, 7.0, 5.5, 8.5)  # blind:70 is clearly worse than blind:120
    assert c.loc[(200, 100, 0)].levels_as_good == "70"  # look is best; the best blind level alone
    # look best but one blind level not clearly worse: no clear answer
    unsure = dict(CELLS)
    unsure[(200, 100, 0)] = [CELLS[(200, 100, 0)][0], ("blind:70", 0.54, -1.0, -2.0, 0.5),
                             CELLS[(200, 100, 0)][2]]
    assert B.choices(_long(unsure)).set_index(["own", "lead", "position"]).loc[(200, 100, 0)].verdict == V.NO_CLEAR


def test_choices_follow_the_paired_ranking_not_the_own_deal_means():
    """Blind levels are legal on different deals (only while the bidding is below them): the chart
    takes its order from ``rank_half0`` (paired comparisons on half 0), not from ``win_half0``.
    Here blind:70 has the highest own-deal win on half 0 but blind:120 beats it where both were legal."""
    cells = {(501, -100, 2): [("look", 0.30, 0.0, 0.0, 0.0), ("blind:70", 0.36, 3.0, 2.0, 4.0),
                              ("blind:120", 0.33, 4.0, 3.0, 5.0)]}
    long = _long(cells)
    long["rank_half0"] = [3, 2, 1]  # look, blind:70, blind:120
    r = B.choices(long).iloc[0]
    assert r.best == "blind:120" and r.next_level == 70 and r.gain_pp == 4.0
    assert B.robust_pair(long) == ("blind:120", 120)
    assert B.best_blind(B.choice_rank(long[long.option != "look"])) == 1
    # a blind level not compared (rank NaN) is never the best blind level
    long["rank_half0"] = [1.0, np.nan, 2.0]
    assert B.choices(long).iloc[0].best == "look" and B.robust_pair(long) == ("look", 120)


def test_the_page_names_the_first_ranked_blind_level_as_runner_up_to_look(tmp_path):
    """The report page's 501 cell (analyses/g501_page.py): with look best, the runner-up is the
    best blind level of the ranking (rank_half0), not the one of the highest win on half 0."""
    from analyses import g501_page

    cells = {(200, 100, 0): [("look", 0.55, 0.0, 0.0, 0.0), ("blind:70", 0.54, -1.0, -2.0, -0.5),
                             ("blind:120", 0.50, -5.0, -6.5, -3.5)]}
    long = _long(cells)
    long["rank_half0"] = [1, 3, 2]  # blind:120 beats blind:70 on the deals both were legal
    (tmp_path / "tables").mkdir()
    long.to_csv(tmp_path / "tables" / "g501_game_decisions.csv", index=False)
    B.choices(long).to_csv(tmp_path / "tables" / "g501_game_choices.csv", index=False)
    cell = g501_page.data(tmp_path)["cells"][0]
    assert cell["best"] == "look" and cell["runner_up"] == "blind:120" and cell["gap"] == 5.0


def test_chart_is_one_row_per_situation_one_column_per_position():
    w = B.chart(B.choices(_long(CELLS))).set_index(["own", "lead"])
    assert list(w.columns) == ["opp", "position 0", "position 1", "position 2"]
    assert w.loc[(200, 0), "position 0"] == "blind to 120: +12.0 pp"
    assert w.loc[(200, 100), "position 0"] == "look"
    assert w.loc[(501, 0), "position 1"] == "? blind:70-120 +1.0 pp"
    assert w.loc[(501, -100), "position 2"] == "blind to 70-120: +3.0 pp"
    assert pd.isna(w.loc[(501, 0), "position 0"]) and w.loc[(501, -100), "opp"] == 401



def _tie(hi120=0.4, gain90=(7.0, 5.5, 8.5)) -> pd.DataFrame:
    """One situation whose best level, blind:90, ties with blind:120 (-0.5 pp [-1.4, ``hi120``] on the
    same deals) and is clearly better than blind:70 (-4.0 pp [-5.5, -2.5])."""
    cell = [LOOK0, ("blind:70", 0.33, 3.0, 2.0, 4.0, (-4.0, -5.5, -2.5)), ("blind:90", 0.37) + gain90,
            ("blind:120", 0.365, 6.5, 5.0, 8.0, (-0.5, -1.4, hi120))]
    return _long({(300, 0, 1): cell})


def test_levels_as_good_as_the_best_are_named_as_a_range():
    r = B.choices(_tie()).iloc[0]
    assert (r.best, r.levels_as_good, r.verdict, r.clear_levels) == ("blind:90", "90-120", "blind to 90-120", "70-120")
    # the best level against the runner-up (blind:120): best minus it, the interval turned round
    assert (r.next_level, r.gain_vs_next_pp, r.gain_vs_next_lo, r.gain_vs_next_hi) == (120, 0.5, -0.4, 1.4)
    assert B.cell_label(r) == "B90-120\n+7.0"
    assert B.chart(B.choices(_tie())).iloc[0]["position 1"] == "blind to 90-120: +7.0 pp"
    text = P.answer({"g501_game_choices": B.choices(_tie()), "g501_game_decisions": _tie(),
                     "g501_game_equity_long": E.equity_table(_states(), 3)})
    assert ("Blind pays most at 300 against two opponents at 300 (position 1): blind to 90-120 (best level 90) adds "
            "+7.0 pp [+5.5, +8.5]") in text
    assert "at 300: blind to 90-120 (1 of 1). One level alone is best in 0 of 1 such situations" in text
    assert "Blind hurts" not in text and "blind:" not in text


def test_a_level_is_as_good_until_its_interval_is_wholly_below_zero():
    assert B.choices(_tie(hi120=0.0)).iloc[0].levels_as_good == "90-120"  # [-1.4, 0.0] holds 0
    r = B.choices(_tie(hi120=-0.01)).iloc[0]
    assert (r.levels_as_good, r.verdict) == ("90", "blind to 90")
    assert (r.next_level, r.gain_vs_next_lo) == (120, 0.01)  # still the runner-up, now clearly behind
    assert B.choices(_tie(hi120=np.nan)).iloc[0].levels_as_good == "90-120"  # no interval: not shown worse
    blinds = _tie(hi120=-0.01).query("option != 'look'")
    assert B.as_good_as_best(blinds) == [90]


def test_a_level_in_the_range_must_pay_when_the_best_does():
    # blind:120 ties with the best (blind:90) but its own gain over looking, [-0.1, +8.0], holds 0:
    # a player told "blind to 90-120" could bid to 120, which has not been shown to pay
    cell = [LOOK0, ("blind:90", 0.37, 7.0, 5.5, 8.5), ("blind:120", 0.365, 4.0, -0.1, 8.0, (-0.5, -1.4, 0.4))]
    r = B.choices(_long({(300, 0, 1): cell})).iloc[0]
    assert (r.levels_as_good, r.verdict) == ("90", "blind to 90")
    cell[2] = ("blind:120", 0.365, 4.0, 0.01, 8.0, (-0.5, -1.4, 0.4))  # just above 0: it pays, it is in
    assert B.choices(_long({(300, 0, 1): cell})).iloc[0].levels_as_good == "90-120"
    # when the best itself is not clear against looking, the range is only "not worse than the best"
    cell = [LOOK0, ("blind:90", 0.37, 1.0, -0.5, 2.5), ("blind:120", 0.365, 0.5, -1.0, 2.0, (-0.5, -1.4, 0.4))]
    assert B.choices(_long({(300, 0, 1): cell})).iloc[0].levels_as_good == "90-120"


def test_levels_not_next_to_each_other_are_not_joined():
    assert B.levels_text([90, 100, 120], (70, 80, 90, 100, 120, 150)) == "90-120"
    assert B.levels_text([120, 70], (70, 90, 120)) == "70, 120"
    assert B.levels_text([70], (70, 90)) == "70" and B.levels_text([], (70, 90)) == ""
    # the best is blind:120; blind:70 ties with it, blind:90 between them is clearly worse
    r = B.choices(_long({(300, 0, 1): [LOOK0, ("blind:70", 0.36, 6.0, 4.5, 7.5, (-1.0, -2.0, 0.1)),
                                        ("blind:90", 0.30, 0.0, -1.0, 1.0, (-7.0, -8.0, -6.0)),
                                        ("blind:120", 0.37, 7.0, 5.5, 8.5)]})).iloc[0]
    assert (r.best, r.levels_as_good, r.verdict) == ("blind:120", "70, 120", "blind to 70, 120")
    assert B.cell_label(r) == "B70,\n120\n+7.0"


def test_looking_as_good_as_the_best_level_is_no_clear_answer():
    r = B.choices(_tie(gain90=(0.4, -0.6, 1.4))).iloc[0]
    assert (r.best, r.levels_as_good, r.verdict) == ("blind:90", "90-120", V.NO_CLEAR)
    assert B.cell_label(r) == "?\n+0.4"
    assert B.chart(B.choices(_tie(gain90=(0.4, -0.6, 1.4)))).iloc[0]["position 1"] == "? blind:90-120 +0.4 pp"


def test_the_rule_for_levels_as_good_can_be_swapped():
    every = B.choices(_tie(), as_good=lambda blinds: sorted(blinds.level)).iloc[0]
    assert (every.levels_as_good, every.verdict) == ("70-120", "blind to 70-120")


def test_blind_hurting_at_one_level_names_the_best_levels_there():
    long = _long({(300, 0, 0): [LOOK0, ("blind:70", 0.34, 4.0, 2.0, 6.0), ("blind:90", 0.335, 3.5, 2.0, 5.0),
                                ("blind:120", 0.25, -5.0, -7.0, -3.0)]})
    text = P.hurts_sentence(long, B.choices(long))
    assert text == ("Blind hurts only when bid too high: the largest loss is blind:120 at 300 against two opponents "
                    "at 300 (position 0), -5.0 pp [-7.0, -3.0]; there the best is blind to 70-90 (best level 70), "
                    "+4.0 pp [+2.0, +6.0] over looking.")

# ---------------------------------------------------------------- the answer
def _tabs(cells=CELLS) -> dict:
    long = _long(cells)
    return {"g501_game_choices": B.choices(long), "g501_game_decisions": long,
            "g501_game_equity_long": E.equity_table(_states(), 3)}


POLICY = {"blind_prob": 0.15, "blind_level": 72.0, "blind_cur": 70.0}


def test_answer_follows_the_numbers():
    text = P.answer(_tabs(), POLICY)
    assert text.startswith("Over 4 situations (own score × lead over both opponents × auction position), bidding "
                           "blind at the first turn clearly raises the game-win probability over looking in 2, "
                           "looking is clearly better in 1, and 1 give no clear answer")
    assert ("Blind pays most at 200 against two opponents at 200 (position 0): blind to 120 adds +12.0 pp "
            "[+10.0, +14.0] of game-win probability (looking wins 30.0%).") in text
    assert ("Every blind level is clearly worse than looking in 1 situation(s); the worst is at 200 against two "
            "opponents at 300 (position 0), where even blind to 70 costs -1.0 pp [-2.0, -0.5].") in text
    assert "100 ahead: blind clearly better in 0 of 1, looking in 1, gains +0.0 to +0.0 pp" in text
    assert ("Where blind pays, the levels as good as the best one (not clearly worse on the same deals) are most "
            "often, by own score, at 200: blind to 120 (1 of 1); at 501: blind to 70-120 (1 of 1). One level alone "
            "is best in 1 of 2 such situations") in text
    assert "blind:" not in text  # every blind level named in the answer is a range of levels as good as the best
    assert "by auction position (0 = first speaker): 0 +6.0 pp, 1 +1.0 pp, 2 +3.0 pp." in text
    assert "At 200, level with both opponents, a player wins 1 game in 3; 16.7% 100 behind (both at 100)." in text
    assert text.endswith("up to 72.")  # blind clear in 2 of 4: no verdict on the default policy
    # blind:120 now loses where it won: the text follows
    flipped = dict(CELLS)
    flipped[(200, 0, 0)] = [LOOK0, ("blind:70", 0.35, 5.0, 4.0, 6.0), ("blind:120", 0.20, -10.0, -12.0, -8.0)]
    other = P.answer(_tabs(flipped), POLICY)
    assert other != text
    assert "Blind pays most at 200 against two opponents at 200 (position 0): blind to 70 adds +5.0 pp" in other
    # blind clear nearly everywhere and above the default level: the default policy is called timid
    bold = dict(CELLS)
    bold[(501, 0, 1)] = [LOOK0, ("blind:70", 0.31, 1.0, 0.5, 1.5), ("blind:120", 0.34, 4.0, 2.0, 6.0)]
    assert P.answer(_tabs(bold), POLICY).endswith(
        "up to 72: against these numbers it bids blind too rarely (blind is clearly better in 3 of 4 situations) "
        "and too low (every level as good as the best is above 72 in 2 of those).")
    assert "default heuristic" not in P.answer(_tabs())


def test_notes_say_how_often_blind_was_legal_and_games_unfinished():
    tabs = {"g501_game_decisions": _long(CELLS), "g501_game_states": _states()}
    text = P.notes(tabs)
    assert "here in every deal of every situation" in text[-2] and text[-1] == "0 of 120 equity games ended unfinished."
    tabs["g501_game_decisions"].loc[1, "legal"] = 0.875
    tabs["g501_game_states"].loc[0, "unfinished"] = 2
    text = P.notes(tabs)
    assert "here in 87.5% to 100.0% of the deals of a situation" in text[-2]
    assert text[-1] == "2 of 120 equity games ended unfinished."


def test_figures_are_drawn(tmp_path):
    paths = G.figures(_tabs(), tmp_path)
    assert [p.name for p in paths] == ["g501_game_chart.png", "g501_game_equity.png"]
    assert all(p.stat().st_size > 10_000 for p in paths)


# ---------------------------------------------------------------- moment of choice (deal level)
def test_moment_prefixes_set_the_dealer_and_the_options():
    assert [g501.moment_dealer(p) for p in ([], ["P"], ["P", "75"])] == [2, 1, 0]
    assert g501.current_bid(["B66", "70"]) == 70 and g501.current_bid(["P", "P"]) == 0
    assert g501.moment_options(["P", "75"], (70, 80, 90)) == ["look", "blind:80", "blind:90"]


def test_moment_table_pairs_each_level_with_look():
    t = g501.moment_table(600, 3, prefixes=([], ["P", "66"], ["P", "75"]), levels=(70, 90), n_jobs=1)
    assert list(t.auction) == ["-", "-", "-", "P 66", "P 66", "P 66", "P 75", "P 75"]
    assert list(t.option) == ["look", "blind:70", "blind:90", "look", "blind:70", "blind:90", "look", "blind:90"]
    # the default players bid blind at every first turn (blind_prob 1), so neither a first-turn pass
    # nor a looked 66 or 75 is a call they make: both prefixes are made on any hands
    assert list(t.hands) == ["-"] * 3 + ["random"] * 5
    assert list(t.position) == [0, 0, 0, 2, 2, 2, 2, 2] and list(t.current_bid) == [0] * 3 + [66] * 3 + [75] * 2
    assert (t.legal == 1.0).all() and (t.n == 600).all()
    for prefix, implied in ((["P", "66"], False), (["P", "75"], False)):
        df = cardsim.evaluate("501", seat=0, options=["look", "blind:90"], n=600, seed=3, dealer=0, auction=prefix,
                              n_jobs=1, calls_imply_hands=implied).set_index("option")
        rows = t[t.auction == " ".join(prefix)].set_index("option")
        # evaluate's score and diff are higher-is-better (the score change's sign turned); delta is the change
        assert rows.loc[["look", "blind:90"], "delta"].to_numpy() == pytest.approx(
            -df.loc[["look", "blind:90"], "score"].to_numpy())
        best = df.index[0]
        sign = -1 if best == "look" else 1  # evaluate's diff is the option minus the best, in gained points
        other = "blind:90" if best == "look" else "look"
        assert rows.loc["blind:90", "diff"] == pytest.approx(sign * df.loc[other, "diff"])
        assert rows.loc["look", "diff"] == 0 and rows.pays.dtype == bool


# ---------------------------------------------------------------- end to end
def test_tiny_run_writes_the_page(tmp_path):
    plan = G.Plan(grid3=(200, 501), grid4=(501,), games=60, games4=40, own=(200,), leads=(0, 100), levels=(70, 90),
                  deals=80, positions=(0, 2))
    args = parse_args("game", ["--n", "500", "--seed", "5", "--jobs", "1", "--out", str(tmp_path),
                               "--results", str(tmp_path / "results")])
    meta = json.loads(script.run(args, plan).read_text())
    assert set(meta) == {"game", "title", "deals", "deals_unit", "seed", "source", "cardsim", "strategies",
                         "parameters", "rules", "tables", "csv_only", "figures", "glossary", "notes", "answer",
                         "method", "legends", "rules_of_thumb", "detail"}
    assert (meta["game"], meta["deals"], meta["seed"]) == ("501", 80, 5)
    assert meta["tables"] == ["g501_game_chart", "g501_game_equity", "g501_game_equity4", "g501_fixed_chart",
                              "g501_fixed_rounds", "g501_fixed_deviations"]
    assert meta["figures"] == ["g501_game_chart.png", "g501_game_equity.png", "g501_fixed_chart.png"]
    assert meta["answer"].startswith("Over 4 situations") and "heuristic" in meta["parameters"]
    assert meta["detail"]["tables"] == [] and " ".join(meta["detail"]["items"]) == meta["answer"]  # the report's list
    for name in meta["tables"] + meta["csv_only"]:
        assert (tmp_path / "tables" / f"{name}.csv").exists()
    states = pd.read_csv(tmp_path / "tables" / "g501_game_states.csv")
    assert len(states) == 4 * 3 + 1 * 4 and set(states[states.seats == 3].games) == {60}
    assert set(states[states.seats == 4].games) == {40}
    long = pd.read_csv(tmp_path / "tables" / "g501_game_decisions.csv")
    assert len(long) == 4 * 3 and (long.deals == 80).all() and set(long.position) == {0, 2}
    assert (long.win.between(0, 1)).all()
    # every situation's best blind level (first ranked on half 0 of the deals) is the one the others are compared with
    blinds = long[long.option != "look"]
    tops = blinds.loc[blinds.groupby(["own", "lead", "position"]).rank_half0.idxmin()]
    assert len(tops) == 4 and (tops.diff_best_pp == 0).all() and (tops.diff_best_hi == 0).all()
    choices = pd.read_csv(tmp_path / "tables" / "g501_game_choices.csv", dtype={"levels_as_good": str})
    assert set(choices.levels_as_good) <= {"70", "90", "70-90"} and set(choices.next_level) <= {70, 90}
    from rules_helpers import check_rules

    written = {n: pd.read_csv(tmp_path / "tables" / f"{n}.csv") for n in ("g501_game_choices", "g501_game_decisions")}
    check_rules(meta["rules_of_thumb"], written, "501")
    assert set(meta["legends"]) == set(meta["figures"])
    # the fixed-point chart's caption: its rounds' deals (5%, 10%, 25% of the 80, at least 20), whether it settled
    fixed = meta["legends"]["g501_fixed_chart.png"]
    assert "20 deals per situation a round" in fixed and "(the fixed-point chart: 20 a round)" in meta["deals_unit"]
    rounds = pd.read_csv(tmp_path / "tables" / "g501_fixed_rounds.csv")
    last = rounds.iloc[-1]
    settled = last.moved == 0 and last.relevelled == 0 and last.kind == "confirm"
    assert ("until it no longer changed (fixed point" in fixed) == settled == ("reaches a fixed point" in meta["answer"])
    assert rounds.seconds.iloc[1:].gt(0).all() and rounds.seconds.iloc[0] > 0  # every round's time, the chart's too
    # the deviation table: the quick sizes are not taken (no --quick), but n=500 caps the games per position
    dev = pd.read_csv(tmp_path / "tables" / "g501_fixed_deviations.csv")
    assert (dev.n == 500).all() and len(dev.cell.unique()) == D.TOP and (dev.lo_pp <= dev.gain_pp).all()
    chart = "the settled chart" if settled else "the last round's chart"
    assert f"One seat deviating from {chart} in one situation" in meta["answer"]


def test_plan_caps_the_counts():
    assert G.plan(1_000_000) == G.Plan(E.GRID3, E.GRID4, E.GAMES, E.GAMES4, B.OWN, B.LEADS, B.LEVELS, B.DEALS)
    quick = G.plan(250, quick=True)
    assert (quick.games, quick.deals, quick.grid3) == (250, 250, E.QUICK_GRID3)


# ---------------------------------------------------------------- resuming (issue 10)
class _Interrupted:
    """Wraps a task function: raises KeyboardInterrupt (as Ctrl-C would) once ``stop_after`` calls
    have finished; counts the calls.  One object for both runs, so both name the same store."""

    def __init__(self, fn, stop_after):
        self.fn, self.stop_after, self.calls = fn, stop_after, 0
        self.__module__, self.__qualname__ = fn.__module__, fn.__qualname__

    def __call__(self, *args):
        if self.stop_after is not None and self.calls == self.stop_after:
            raise KeyboardInterrupt
        self.calls += 1
        return self.fn(*args)


def test_equity_states_resume_after_an_interruption(tmp_path, monkeypatch):
    quiet = lambda s: None  # noqa: E731
    whole = E.run_equity((150, 400), 3, 60, 5, n_jobs=1, log=quiet)
    wrapped = _Interrupted(E.play_state, stop_after=3)
    monkeypatch.setattr(E, "play_state", wrapped)
    with pytest.raises(KeyboardInterrupt):
        E.run_equity((150, 400), 3, 60, 5, n_jobs=1, log=quiet, results=tmp_path)
    wrapped.stop_after, wrapped.calls = None, 0
    resumed = E.run_equity((150, 400), 3, 60, 5, n_jobs=1, log=quiet, results=tmp_path)
    pd.testing.assert_frame_equal(resumed, whole)
    assert wrapped.calls == len(whole) - 3  # the three finished states were read, not played again
    wrapped.calls = 0
    E.run_equity((150, 400), 3, 60, 5, n_jobs=1, log=quiet, results=tmp_path)
    assert wrapped.calls == 0


def test_moment_table_resumes_by_prefix(tmp_path, monkeypatch):
    args = dict(prefixes=([], ["P", "75"]), levels=(70, 90), n_jobs=1)
    whole = g501.moment_table(300, 3, **args)
    first = g501.moment_table(300, 3, **args, results=tmp_path)
    pd.testing.assert_frame_equal(first, whole)

    def no_play(*a, **k):
        raise AssertionError("a finished prefix was played again")

    monkeypatch.setattr(g501, "run_question", no_play)  # where moment_table finds it
    pd.testing.assert_frame_equal(g501.moment_table(300, 3, **args, results=tmp_path), whole)


# ---------------------------------------------------------------- rules of thumb
def test_rules_of_thumb_are_rows_of_the_chart_by_worth():
    from rules_helpers import check_rules

    from cardsim.analysis import rules_of_thumb as T

    tabs = _tabs()
    c = tabs["g501_game_choices"]
    robust = c[["own", "lead", "position"]].assign(holds=[True, False, True, True], flips_under=["", "bold", "", ""],
                                                  gain_min=1.0, gain_max=2.0, robust_deals=100)
    tabs["g501_game_choices"] = B.with_robust(c, robust)
    rules = P.rules(tabs)
    check_rules(rules, tabs, "501")
    # a rule for each situation with a clear verdict: blind (its gain over looking) or look (over the best blind level)
    kinds = [r["table"] for r in rules]
    assert kinds.count("g501_game_choices") == int(c.verdict.str.startswith("blind").sum())
    assert kinds.count("g501_game_decisions") == int((c.verdict == "look").sum()) == 1
    # the largest gain (12 pp) is not a close call: the close ones (below the median gain) come first (T.RULE)
    top = max(rules, key=lambda r: r["worth"])
    assert not top["close"] and rules.index(top) == sum(r["close"] for r in rules)
    assert top["text"] == ("At 200, both opponents at 200 (level with them), speaking first: bid blind at your first "
                           "turn, going on blind up to 120")
    assert top["number"] == "+12.0 pp of game-win chance over looking [+10.0, +14.0]" and top["holds"] == T.HOLDS
    look = next(r for r in rules if r["table"] == "g501_game_decisions")
    # looking's gain over the best blind level (blind:70: -1.0 pp [-2.0, -0.5] over looking), turned round
    assert (look["value"], look["lo"], look["hi"], look["sign"]) == (1.0, 0.5, 2.0, -1.0)
    assert look["text"].endswith("100 ahead), speaking first: look at your cards before you bid")
    assert look["versus"] == "over blind up to 70" and look["holds"] == T.DEPENDS and look["flips_under"] == "bold"
    assert look["holds_table"] == "g501_game_choices"
    assert {r["holds"] for r in P.rules(_tabs())} == {T.UNTESTED}  # no robustness columns: not replayed


def test_chart_figures_have_legends():
    for name in ("g501_game_chart.png", "g501_fixed_chart.png", "g501_game_equity.png"):
        assert name in P.LEGENDS
    for mark in ("B90-120", "look =", "pp", "? on hatched", "lo..hi", "\u2020 =", "position 0", "lead"):
        assert mark in P.LEGENDS["g501_game_chart.png"]
