"""Vint judged by the rubber (issue 30): questions with ``outcome="game"`` / ``"margin"`` play the
rubber on after the evaluated deal, the same later deals for every option; rubbers from a given
line (``play_match(before=, dealer=)`` and ``chunks.rubbers_from``, one kernel); malformed
``--before``."""
from __future__ import annotations

import numpy as np
import pytest

import cardsim
from cardsim import questions as E
from cardsim.cli import main
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.games.vint import chunks, engine, forcing, line
from cardsim.stats import mean_interval, wilson

SPEC = get_game("vint")
DEAL_COLUMNS = [n for n in engine.ROW_DTYPE.names]


def _rows(q, j, start=0, count=None):
    count = q.run.n if count is None else count
    dealt = q.deal(start, count)
    return forcing.play_given(q.run.seed, start, dealt, q.run.setup, q.forced[j], q.before)


def test_the_rubber_goes_on_the_same_for_every_option():
    # "P" and the seat's own strategy make the same first call whenever the strategy passes: then
    # the deal is the same, and so must be everything after it (the continuation is keyed by the
    # deal, never by the option).
    q = E.question("vint", seat=0, options=["P", "strategy", "=3NT"], n=120, seed=11, before=[200, 350, 0, 1],
                   outcome="game", dealer=0)
    (a, ok_a), (b, ok_b), (c, _) = (_rows(q, j) for j in range(3))
    same = np.ones(len(a), dtype=bool)
    for name in DEAL_COLUMNS:
        same &= a[name] == b[name]
    assert 20 < same.sum() < len(a)  # both kinds of deal occur
    for name in ("rubber_won_by_0", "rubber_margin_0", "deals_on"):
        assert (a[name][same] == b[name][same]).all()
    assert not (a == c).all()
    # and the deal part is what the deal-only question plays
    qd = E.question("vint", seat=0, options=["P", "strategy", "=3NT"], n=120, seed=11, before=[200, 350, 0, 1],
                    dealer=0)
    d, ok_d = _rows(qd, 0)
    assert d.dtype == engine.ROW_DTYPE and (ok_d == ok_a).all()
    for name in DEAL_COLUMNS:
        assert (d[name] == a[name]).all()
    # played again in other chunks, the same numbers
    again = np.concatenate([_rows(q, 0, 0, 50)[0], _rows(q, 0, 50, 70)[0]])
    assert (again == a).all()


def test_shares_sum_to_one_and_margins_to_zero():
    q = E.question("vint", seat=0, options=["1H", "P"], n=80, seed=3, before=[100, 460, 1, 1], outcome="game")
    rows, _ = _rows(q, 0)
    mine = forcing.outcome(rows, 0, q.before)[2]
    theirs = forcing.outcome(rows, 1, q.before)[2]
    assert np.array_equal(mine + theirs, np.ones(len(rows)))
    assert np.array_equal(mine, forcing.outcome(rows, 2, q.before)[2])
    assert set(np.unique(mine)) <= {0.0, 0.5, 1.0}
    margin = line.State(q.before.below, q.before.games, "margin")
    assert np.array_equal(forcing.outcome(rows, 0, margin)[2], -forcing.outcome(rows, 3, margin)[2])
    # a game each, and side 1 at 460: somebody wins the rubber in the very next game
    assert (mine[rows["rubber_won_by"] == 1] == 0.0).all()


def test_a_made_game_contract_at_480_with_a_game_ends_the_rubber():
    # Side 0 has won a game and is 20 short below the line: its first trick of 3NT (V = 32)
    # carries it to 500, the second game wins the rubber (docs/RULES.md §2.7) and scores 1000.
    q = E.question("vint", seat=0, options=["=3NT"], n=60, seed=5, before=[480, 0, 1, 0], outcome="margin")
    rows, ok = _rows(q, 0)
    assert ok.all() and rows["made"].any()
    made = rows["made"]
    assert (rows["rubber_won_by"][made] == 0).all() and (rows["game_0"][made] == 1000).all()
    assert (rows["deals_on"][made] == 0).all() and (rows["rubber_won_by_0"][made] == 1.0).all()
    # the margin is then the deal's own: nothing is played on
    assert np.array_equal(rows["rubber_margin_0"][made], (rows["total_0"] - rows["total_1"])[made])
    # side 0 takes a trick in every deal here, so the rubber always ends with the deal
    assert (rows["rubber_won_by"] == 0).all()
    df = E.evaluate("vint", seat=1, options=["=3NT"], n=40, seed=5, before=[480, 0, 1, 0], outcome="game", n_jobs=1)
    assert df.score.iloc[0] <= 0.1  # side 1 declaring against a side one trick from the rubber


def test_rubbers_from_a_clean_line_are_play_matches_rubbers():
    setup = SPEC.setup()
    rubbers, _ = SPEC.matches.play(9, 0, 12, setup)
    mine = chunks.rubbers_from(9, 0, 12, setup)
    assert np.array_equal(mine["winner"], rubbers["winner"])
    assert np.array_equal(mine["deals"], rubbers["deals"])
    assert np.array_equal(mine["margin_0"], rubbers["points_0"].astype(np.int64) - rubbers["points_1"])
    part = chunks.rubbers_from(9, 5, 4, setup)
    assert np.array_equal(part, mine[5:9])


@pytest.mark.parametrize("below,games", [((0, 0), (0, 0)), ((300, 300), (1, 1))])
def test_equal_states_are_even(below, games):
    # the dealer alternated over the four seats: equal lines give each side half the rubbers and
    # margin 0, within 99.9% intervals (at 95% one seed in twenty fails by chance: issue 47's card
    # play moved seed 21's share to 0.5 just outside its 95% interval)
    setup = SPEC.setup()
    rows = np.concatenate([chunks.rubbers_from(21, 100 * d, 100, setup, below, games, dealer=d) for d in range(4)])
    assert (rows["winner"] >= 0).all()
    wins = float((rows["winner"] == 0).sum())
    lo, hi = wilson(np.array([wins]), np.array([float(len(rows))]), 0.999)
    assert lo[0] < 0.5 < hi[0]
    m = rows["margin_0"].astype(np.float64)
    mean, _, mlo, mhi = mean_interval(np.array([m.sum()]), np.array([(m * m).sum()]), np.array([float(len(m))]),
                                      0.999)
    assert mlo[0] < 0.0 < mhi[0]


def test_a_game_up_is_worth_more_than_a_game_down():
    setup = SPEC.setup()
    up = chunks.rubbers_from(4, 0, 200, setup, (0, 0), (1, 0))
    down = chunks.rubbers_from(4, 0, 200, setup, (0, 0), (0, 1))
    assert (up["winner"] == 0).mean() > 0.6 > (down["winner"] == 0).mean()


@pytest.mark.parametrize("before,match", [([1, 2, 3], "below0,below1"), ([0, 0, -1, 0], "0 or 1"),
                                          ([0, 0, 2, 0], "two end the rubber"), ([500, 0], "0 to 499"),
                                          ([0, -5], "0 to 499")])
def test_bad_before_is_a_one_line_error(before, match, capsys):
    with pytest.raises(OptionError, match=match):
        E.question("vint", options=["P"], n=10, before=before, outcome="game")
    code = main(["evaluate", "vint", "--option", "P", "-n", "10", "--outcome", "game",
                 "--before", ",".join(str(b) for b in before)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("cardsim: error:")


def test_outcomes_are_the_games_own(capsys):
    assert list(SPEC.forcing.outcome_states()) == ["deal", "game", "margin", "tricks"]
    assert list(get_game("501").forcing.outcome_states()) == ["deal", "game", "points"]
    with pytest.raises(OptionError, match="outcome must be 'deal', 'game', 'margin' or 'tricks' for vint"):
        E.question("vint", options=["P"], n=10, outcome="match")
    assert main(["evaluate", "501", "--option", "look", "-n", "5", "--outcome", "margin"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is for vint" in err


def test_cli_rubber_outcomes_until_clear_and_robust(capsys):
    base = ["evaluate", "vint", "--seat", "0", "--option", "=2H", "--option", "=7NT", "--before", "400,0,1,0",
            "--jobs", "1", "--format", "json"]
    import json

    assert main(base + ["-n", "60", "--outcome", "margin"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(base + ["--until-clear", "--max-deals", "4000", "--outcome", "game"]) == 0
    capsys.readouterr()
    df = E.evaluate_until_clear("vint", seat=0, options=["=2H", "=7NT"], max_deals=4000, seed=2,
                                before=[400, 0, 1, 0], outcome="game", n_jobs=1)
    assert df.attrs["outcome"] == "game" and df.attrs["until_clear"]["clear"]
    assert df.option.iloc[0] == "=2H" and 0.9 < df.score.iloc[0] <= 1.0
    answer = E.evaluate("vint", seat=0, options=["=2H", "=7NT"], n=40, seed=2, before=[400, 0, 1, 0],
                        outcome="game", n_jobs=1, profiles=True)
    assert "default" in answer.tables
    assert answer.tables["default"].attrs["outcome"] == "game"


def test_equity_table_symmetries_and_resume(tmp_path):
    from cardsim.analysis.vint import equity as V

    log = []
    cells = V.run_states(below=(0, 480), rubbers=60, seed=3, n_jobs=1, log=log.append, results=tmp_path)
    assert list(cells.columns) == V.STATE_COLUMNS and len(cells) == 4 * 4 * 4
    again = V.run_states(below=(0, 480), rubbers=60, seed=3, n_jobs=1, log=log.append, results=tmp_path)
    pd_equal = (cells.to_numpy() == again.to_numpy()).all()
    assert pd_equal  # read back from the store, the same numbers
    eq = V.equity_table(cells)
    assert list(eq.columns) == V.EQUITY_COLUMNS and len(eq) == 16
    assert ((eq.lo <= eq.p_win) & (eq.p_win <= eq.hi)).all()
    # a state and its mirror (sides swapped) were played apart: they agree within their intervals
    mirror = V.mirrored(eq)
    assert (mirror.lo <= eq.hi + 1e-12).all() and (eq.lo <= mirror.hi + 1e-12).all()
    assert (mirror.margin_lo <= eq.margin_hi).all() and (eq.margin_lo <= mirror.margin_hi).all()
    # equal states are even
    even = eq[(eq.below_0 == eq.below_1) & (eq.games_0 == eq.games_1)]
    assert ((even.lo < 0.5) & (0.5 < even.hi)).all()
    assert ((even.margin_lo < 0) & (0 < even.margin_hi)).all()
    # 480 with a game against a clean line and no game: side 0 wins
    sure = eq[(eq.below_0 == 480) & (eq.below_1 == 0) & (eq.games_0 == 1) & (eq.games_1 == 0)].iloc[0]
    assert sure.p_win > 0.95
    wide = V.equity_wide(eq)
    assert list(wide.columns) == ["games", "us", "them 0", "them 480"] and len(wide) == 8


def test_play_match_from_a_clean_line_is_play_match():
    plain, plain_deals = cardsim.play_match("vint", 40, seed=8, n_jobs=1)
    clean, clean_deals = cardsim.play_match("vint", 40, seed=8, before=[0, 0, 0, 0], n_jobs=1)
    assert plain.equals(clean) and plain_deals.equals(clean_deals)
    assert clean.attrs["start"] == {"before": [0, 0, 0, 0]}
    # dealer 0 fixed: the rubbers whose first deal drew dealer 0 anyway are the same, deal for deal
    # (a given dealer only overrides the draw, so the shuffles are the same); the others differ
    fixed, fixed_deals = cardsim.play_match("vint", 40, seed=8, before=[0, 0, 0, 0], dealer=0, n_jobs=1)
    assert (fixed_deals[fixed_deals.deal == 0].dealer == 0).all()
    drew0 = plain_deals[(plain_deals.deal == 0) & (plain_deals.dealer == 0)].rubber.to_numpy()
    assert 0 < len(drew0) < 40
    assert fixed[fixed.rubber.isin(drew0)].reset_index(drop=True).equals(
        plain[plain.rubber.isin(drew0)].reset_index(drop=True))
    same = plain_deals[plain_deals.rubber.isin(drew0)].reset_index(drop=True)
    assert fixed_deals[fixed_deals.rubber.isin(drew0)].reset_index(drop=True).equals(same)
    assert not fixed.equals(plain)
    # rubbers_from is the same kernel without the deal rows
    rows = chunks.rubbers_from(8, 0, 40, SPEC.setup(), (0, 0), (0, 0), 0)
    assert np.array_equal(rows["winner"], fixed.winner.to_numpy(np.int64))
    assert np.array_equal(rows["deals"], fixed.deals.to_numpy(np.int64))


def test_play_match_from_a_state_counts_from_there():
    m, d = cardsim.play_match("vint", 60, seed=4, before=[300, 200, 1, 0], dealer=2, n_jobs=1, chunk_size=25)
    assert (d[d.deal == 0].dealer == 2).all()
    assert (m.games_0 + m.games_1 >= 2).all() and ((m.games_0 == 2) | (m.games_1 == 2)).all()
    assert (m.winner.astype(int) == (m.games_1 == 2).astype(int)).all()
    # points and deals count from the given line on: the sums of the rubber's deal rows
    sums = d.groupby("rubber")[["total_0", "total_1"]].sum()
    assert np.array_equal(sums.total_0.to_numpy(np.int64), m.points_0.to_numpy(np.int64))
    assert np.array_equal(d.groupby("rubber").size().to_numpy(), m.deals.to_numpy(np.int64))
    again, _ = cardsim.play_match("vint", 60, seed=4, before=[300, 200, 1, 0], dealer=2, n_jobs=1)
    assert m.equals(again)


def _share(state, dealer, n=300, seed=13):
    m, _ = cardsim.play_match("vint", n, seed=seed, before=list(state), dealer=dealer, n_jobs=1)
    wins = float((m.winner == 0).sum())
    lo, hi = wilson(np.array([wins]), np.array([float(n)]))
    return wins / n, lo[0], hi[0]


def test_one_trick_from_the_game_moves_the_share_the_right_way():
    # 470 below with a game: 30 short, a trick or three of any contract carry side 0 to 500 and
    # the rubber; the same line on side 1's side (side 0 keeping its game) takes most of that back
    clean, _, clean_hi = _share((0, 0, 1, 0), 0)
    near, near_lo, _ = _share((470, 0, 1, 0), 0)
    assert near_lo > clean_hi and near > 0.9
    theirs, _, theirs_hi = _share((0, 470, 1, 0), 0)
    assert theirs_hi < clean


@pytest.mark.parametrize("state", [(200, 300, 1, 0), (480, 0, 0, 1)])
def test_mirrored_states_give_complementary_shares(state):
    # sides swapped and the first dealer moved one seat (the mirrored side deals first): side 0's
    # share from the mirror is side 1's from the state, within the 95% intervals
    b0, b1, g0, g1 = state
    p, lo, hi = _share(state, 0, seed=31)
    q, qlo, qhi = _share((b1, b0, g1, g0), 1, seed=32)
    assert lo <= 1.0 - qlo and 1.0 - qhi <= hi


@pytest.mark.parametrize("before,dealer,match", [
    ([1, 2, 3], None, "below0,below1"), ([0, 0, 0, 0, 0], None, "below0,below1"),
    ([-1, 0, 0, 0], None, "0 to 499"), ([0, 500, 0, 0], None, "0 to 499"),
    ([0, 0, -1, 0], None, "0 or 1"), ([0, 0, 2, 0], None, "two end the rubber"), ([0, 0, 1, 2], None, "0 or 1"),
    ([0, 0, 0.5, 0], None, "whole numbers"), ("0,0,0,0", None, "must be a list"),
    ([0, 0, 0, 0], 4, "dealer must be a seat"), (None, True, "dealer must be a seat")])
def test_bad_play_match_state_is_a_one_line_error(before, dealer, match):
    with pytest.raises(OptionError, match=match) as info:
        cardsim.play_match("vint", 2, before=before, dealer=dealer, n_jobs=1)
    assert "\n" not in str(info.value)


def test_match_left_estimates_the_rest_of_a_rubber():
    left = SPEC.matches.left
    assert left([0, 0, 0, 0]) == 1.0
    assert left([0, 0, 1, 0]) < 1.0 and left([0, 0, 1, 1]) < left([0, 0, 1, 0])
    assert left([480, 0, 1, 1]) == 0.05 < left([0, 0, 1, 1])


@pytest.mark.parametrize("before,dealer", [(None, None), ([300, 420, 1, 0], 3)])
def test_match_records_are_the_rubbers_deals(before, dealer, capsys):
    matches, deals = cardsim.play_match("vint", 3, seed=6, before=before, dealer=dealer, compact=False, n_jobs=1)
    for m in range(3):
        recs = cardsim.match_records("vint", m, seed=6, before=before, dealer=dealer)
        rows = deals[deals.rubber == m]
        assert len(recs) == matches.deals[m] == len(rows)
        assert [r["source"]["match"] for r in recs] == [m] * len(recs)
        line = {"below": [0, 0], "games": [0, 0]} if before is None else {"below": before[:2], "games": before[2:]}
        for rec, (_, row) in zip(recs, rows.iterrows()):
            assert cardsim.replay(rec) == rec["result"]
            assert rec["dealer"] == row.dealer
            assert rec.get("before", {"below": [0, 0], "games": [0, 0]}) == line
            assert rec["result"]["total"] == [int(row.total_0), int(row.total_1)]
            line = rec["result"]["after"]
        assert recs[-1]["result"]["rubber_won_by"] == matches.winner[m]
        assert line["games"] == [int(matches.games_0[m]), int(matches.games_1[m])]
    with pytest.raises(OptionError, match="two end the rubber"):
        cardsim.match_records("vint", 0, before=[0, 0, 2, 0])
    args = ["show", "vint", "--seed", "6", "--match", "1", "--deal", "0"]
    if before is not None:
        args += ["--before", ",".join(map(str, before)), "--dealer", str(dealer)]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("seed 6, match 1, deal 0 of ")
