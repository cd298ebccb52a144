"""501 behaviours for player profiles (issue 32): the heuristic's ``contest`` / ``press`` /
``press_score`` parameters, the ``chart`` strategy (blind decision from a decision-chart table)
and the spec helpers of :mod:`cardsim.analysis.g501.policy`.

Deals are played with ``SPEC.play.simulate_chunk`` from given scores (the ``before`` of a question):
the same seed and deal numbers under two strategy line-ups are the same deals with the same
strategy streams, so a change of behaviour shows as a change of row, deal by deal.
"""
import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim import StrategyError
from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis.g501.policy import chart_policy_spec, chart_table, nearest_cell
from cardsim.games import get_game
from cardsim.games.g501 import SPEC
from cardsim.games.g501 import strategies as S
from cardsim.strategies.registry import N_NAMED, N_PARAMS, TABLE_LEN, TABLE_START

SEED = 3201
N = 2000
FIELDS = ["dealer", "declarer", "bid", "blind", "target", "trump", "abandoned", "void", "blind_bids", "n_calls",
          "delta_0", "delta_1", "delta_2"]


def play(strategies, scores=None, seats=3, n=N, seed=SEED):
    """``n`` independent deals from ``scores`` (one per seat; 501 each by default) as a frame of
    the row fields (numpy rows, so that two line-ups compare deal by deal)."""
    rows = SPEC.play.simulate_chunk(seed, 0, n, SPEC.setup(strategies, seats), scores)
    return pd.DataFrame({name: rows[name] for name in rows.dtype.names})


def position(frame, seat, seats=3):
    """Each deal's auction position of ``seat`` (0 = the dealer's left; -1 when it deals at 4 seats)."""
    if seats == 3:
        return (seat - frame.dealer - 1) % 3
    rel = (seat - frame.dealer) % 4
    return np.where(rel == 0, -1, rel - 1)


def cells(**levels):
    """A ``cells`` text: every cell looks except ``levels``, keyed ``c<own>_<lead>_<pos>`` (lead
    ``m50`` for -50) with a blind level of CELL_LEVELS as value."""
    digits = [0] * S.N_CELLS
    for key, level in levels.items():
        own, lead, pos = key[1:].split("_")
        lead = -int(lead[1:]) if lead.startswith("m") else int(lead)
        i = (S.CELL_OWN.index(int(own)) * len(S.CELL_LEADS) + S.CELL_LEADS.index(lead)) * 3 + int(pos)
        digits[i] = S.CELL_LEVELS.index(level) + 1
    return S.cells_text(digits)


# ------------------------------------------------------------------ the parameter row
def test_every_strategy_fits_the_named_part_of_the_row():
    assert (N_NAMED, TABLE_START, N_PARAMS) == (20, 20, 20 + TABLE_LEN) and TABLE_LEN >= S.N_CELLS
    for game in ("vint", "501", "500"):
        for strategy in get_game(game).table.registry.strategies():
            assert len(strategy.params) <= N_NAMED, (game, strategy.name)
            vec = strategy.vector()
            assert vec.shape == (N_PARAMS,)
            if strategy.table is None:
                assert not vec[TABLE_START:].any()  # the table block stays 0 for every other strategy


def test_new_heuristic_parameters_default_to_0_and_sit_after_the_old_eight():
    # 0 in the strategies they were added to (heuristic_v3: the default of then; the tuned default contests);
    # blind_later (issue 46's mixture) last, 1 = the blind probability of every position as before
    assert list(S.REGISTRY["heuristic"].params)[8:] == ["contest", "press", "press_score", "blind_later"]
    for strategy in (S.REGISTRY["heuristic_v3"], S.REGISTRY["heuristic_v1"]):
        assert list(strategy.params)[8:] == ["contest", "press", "press_score", "blind_later"]
        assert [strategy.params[k] for k in ("contest", "press", "press_score", "blind_later")] == [0.0, 0.0, 0.0, 1.0]
    _, vec = SPEC.table.registry.resolve("heuristic_v3")
    assert list(vec[:8]) == [0, 10, 12, 72, -1, 501, 70, 0.15] and not vec[8:11].any() and vec[11] == 1.0
    _, vec = SPEC.table.registry.resolve("heuristic:contest=12.5,press=-4,press_score=150")
    assert list(vec[8:11]) == [12.5, -4, 150]
    with pytest.raises(StrategyError, match="press_score.*whole number"):
        SPEC.table.registry.resolve("heuristic:press_score=99.5")


# ------------------------------------------------------------------ parameters at 0: the same play
@pytest.mark.parametrize("spec", ["heuristic_v3:contest=0,press=0,press_score=100000",
                                  "heuristic_v1:contest=0,press=0,press_score=100000"])
def test_zero_contest_and_press_play_exactly_as_before_even_with_the_gate_open(spec):
    base = spec.partition(":")[0]
    for scores in (None, [120, 60, 300]):
        assert play(spec, scores).equals(play(base, scores))


# ------------------------------------------------------------------ contest
BLINDER = "heuristic:blind_prob=0.5,blind_pos=0"
"""The first speaker bids blind (up to 72) in about half the deals; nobody else ever does."""


def test_contest_raises_the_other_seats_bids_only_in_deals_with_a_blind_bid():
    base = play(BLINDER)
    contest = play(BLINDER + ",contest=15")
    blind = base.blind_bids.to_numpy() > 0
    assert 0.45 < blind.mean() < 0.56  # half of the deals: the first speaker, drawing at its first turn
    # whether someone bids blind is decided before any contest can act: the same deals
    assert ((contest.blind_bids > 0).to_numpy() == blind).all()
    # nobody bid blind: the very same auctions and deals
    assert contest[~blind].equals(base[~blind])
    # somebody bid blind: the others bid on 15 card points further
    b, c = base[blind], contest[blind]
    changed = (b.to_numpy() != c.to_numpy()).any(axis=1)
    assert changed.mean() > 0.3
    assert c.n_calls.sum() > b.n_calls.sum() + 500
    assert (c.bid > b.bid).sum() > 10 * max(1, (c.bid < b.bid).sum())
    assert c.bid.mean() > b.bid.mean() + 5
    # the blind bidder now wins less often: the others contest his blind bid
    assert c.blind.sum() < 0.8 * b.blind.sum()


def test_contest_does_not_react_to_the_seats_own_blind_bid():
    # only seat 0 bids blind, and only seat 0 contests: nothing it does may change
    others = "heuristic:blind_prob=0"
    base = play({0: "heuristic:blind_prob=1", 1: others, 2: others})
    assert (base.blind_bids > 0).mean() > 0.5
    assert play({0: "heuristic:blind_prob=1,contest=40", 1: others, 2: others}).equals(base)
    # while seat 1, contesting, changes deals in which seat 0 bid blind, and only those
    contest = play({0: "heuristic:blind_prob=1", 1: "heuristic:blind_prob=0,contest=40", 2: others})
    differs = (contest.to_numpy() != base.to_numpy()).any(axis=1)
    assert differs.sum() > 100 and (base.blind_bids[differs] > 0).all()


# ------------------------------------------------------------------ press
@pytest.mark.parametrize("seats,scores", [(3, [300, 100, 400]), (4, [300, 400, 450, 100])])
def test_press_changes_bids_only_while_a_rival_is_at_or_below_press_score(seats, scores):
    base = play("heuristic", scores, seats)
    # seat 0's closest rival is at 100 (at 4 seats the dealer sitting out counts too)
    pressing = play({0: "heuristic:press=20,press_score=100"}, scores, seats)
    differs = (pressing.to_numpy() != base.to_numpy()).any(axis=1)
    assert differs.sum() > 100
    assert (pressing.bid - base.bid)[differs].mean() > 0  # it bids harder
    if seats == 4:
        assert differs[(pressing.dealer == 3).to_numpy()].sum() > 20  # the rival dealing counts as well
        assert not differs[(pressing.dealer == 0).to_numpy()].any()  # seat 0 dealing does not bid at all
    # the rival one point above the gate: the play of press 0
    assert play({0: "heuristic:press=20,press_score=99"}, scores, seats).equals(base)
    # the seat at 100 has its closest rival at 300: no press for it
    low = scores.index(100)
    assert play({low: "heuristic:press=20,press_score=299"}, scores, seats).equals(base)
    assert not play({low: "heuristic:press=20,press_score=300"}, scores, seats).equals(base)


def test_press_and_contest_add_up():
    scores = [300, 100, 400]
    both = play({0: BLINDER + ",contest=10,press=10,press_score=100", 1: BLINDER, 2: BLINDER}, scores)
    one = play({0: BLINDER + ",contest=20", 1: BLINDER, 2: BLINDER}, scores)
    press_only = play({0: BLINDER + ",press=20,press_score=100", 1: BLINDER, 2: BLINDER}, scores)
    others_blind = ((one.blind_bids > 0) & (position(one, 0) != 0)).to_numpy()
    # where another seat bid blind 10 + 10 = 20 of contest; where nobody did, 10 of press alone
    assert both[others_blind].equals(one[others_blind]) and not both.equals(one)
    assert not both[~others_blind].equals(press_only[~others_blind])


# ------------------------------------------------------------------ the chart strategy
def test_chart_grid_is_the_reports_grid():
    assert (S.CELL_OWN, S.CELL_LEADS, S.CELL_LEVELS, S.CELL_POSITIONS) == (B.OWN, B.LEADS, B.LEVELS, B.POSITIONS)
    assert S.N_CELLS == 126 and S.REGISTRY["chart"].id == S.CHART == 3


def test_an_all_look_chart_never_bids_blind_and_plays_as_heuristic_without_blinds():
    for scores in (None, [50, 250, 400]):
        chart = play("chart", scores)
        assert (chart.blind_bids == 0).all()
        assert chart.equals(play("heuristic:blind_prob=0", scores))
        assert play(f"chart:cells={S.ALL_LOOK},margin=-5", scores).equals(play("heuristic:blind_prob=0,margin=-5",
                                                                                scores))


def test_a_chart_with_one_blind_cell_bids_blind_there_and_nowhere_else():
    spec = {0: "chart:cells=" + cells(c300_0_1=100), 1: "heuristic:blind_prob=0", 2: "heuristic:blind_prob=0"}
    rows = play(spec, [300, 300, 300])
    pos = position(rows, 0).to_numpy()
    blind = rows.blind_bids.to_numpy() > 0
    # position 1: the first speaker's opening is at most 66, so a blind 67..100 is always possible
    assert (pos == 1).sum() > 500 and blind[pos == 1].all()
    assert not blind[pos != 1].any()
    # the same chart in other cells of the grid: no blind bid anywhere
    for scores in ([400, 400, 400], [300, 350, 350], [300, 250, 400]):
        assert (play(spec, scores).blind_bids == 0).all(), scores


def test_the_chart_bids_blind_up_to_its_level_and_then_looks():
    # position 2, blind:70: at its first turn (the auction's third call: two calls were made
    # before it) it bids the minimum raise blind when that is <= 70, and every later blind bid
    # too, then it looks; it never bids blind in another position.  The others open with random
    # raises of 1..10 (never blind), so that the minimum raise is sometimes above 70 already
    others = "random:p_blind=0,p_pass=0.3"
    setup = SPEC.setup({0: "chart:cells=" + cells(c300_0_2=70), 1: others, 2: others}, 3)
    recs = SPEC.play.make_records(SEED, list(range(400)), setup, [300, 300, 300])
    first_blind = first_look = 0
    for r in recs:
        calls = r["auction"]
        blinds = [c for c in calls if c.upper().startswith("B")]
        if (0 - r["dealer"] - 1) % 3 != 2:
            assert not blinds
            continue
        before = [int(c) for c in calls[:2] if c != "P"]
        nxt = max(66, max(before, default=0) + 1)
        if nxt <= 70:
            first_blind += 1
            assert calls[2].upper() == f"B{nxt}"
            assert all(int(c[1:]) <= 70 for c in blinds)
        else:
            first_look += 1
            assert not blinds
    assert first_blind > 30 and first_look > 30


@pytest.mark.parametrize("scores,blind", [
    ([250, 275, 275], True),    # own 250: midway 200/300 -> 200; lead +25: midway 0/+50 -> 0
    ([251, 276, 276], False),   # own 251 -> 300
    ([250, 276, 276], False),   # lead +26 -> +50
    ([225, 250, 400], True),    # the closest rival (250) sets the lead, not the mean
    ([225, 400, 251], False),   # closest rival at 251: lead +26
    ([151, 226, 176], True),    # own 151 -> 200 (150 is midway 100/200: 100), lead +25
    ([150, 175, 175], False),   # own 150 -> 100
])
def test_a_state_takes_the_nearest_cell_ties_to_the_lower_value(scores, blind):
    spec = {0: "chart:cells=" + cells(c200_0_1=100), 1: "heuristic:blind_prob=0", 2: "heuristic:blind_prob=0"}
    rows = play(spec, scores, n=300)
    pos1 = (position(rows, 0) == 1).to_numpy()
    assert pos1.sum() > 50
    assert ((rows.blind_bids.to_numpy() > 0) == (blind & pos1)).all()
    own, lead, _ = nearest_cell(scores[0], min(scores[1:]), 1)
    assert ((own, lead) == (200, 0)) == blind


def test_the_python_cell_mapping_is_the_engines():
    rng = np.random.default_rng(32)
    for score, rival, pos in zip(rng.integers(-300, 800, 3000), rng.integers(-300, 800, 3000),
                                 rng.integers(0, 3, 3000)):
        own, lead, p = nearest_cell(int(score), int(rival), int(pos))
        i = (S.CELL_OWN.index(own) * len(S.CELL_LEADS) + S.CELL_LEADS.index(lead)) * 3 + p
        assert S.chart_cell(int(score), int(rival), int(pos)) == i
    # every boundary, both sides
    for own_a, own_b in zip(S.CELL_OWN, S.CELL_OWN[1:]):
        mid = (own_a + own_b) / 2
        for x in (int(np.floor(mid)), int(np.ceil(mid)) + (mid == int(mid))):
            assert nearest_cell(x, x, 0)[0] == (own_a if x <= mid else own_b)
    assert nearest_cell(75, 100, 0) == (50, 0, 0) and nearest_cell(76, 101, 2) == (100, 0, 2)
    assert nearest_cell(450, 450, 0)[0] == 400 and nearest_cell(451, 451, 0)[0] == 501
    assert nearest_cell(300, 300 - 150, 0)[1] == -200 and nearest_cell(300, 300 - 149, 0)[1] == -100
    assert nearest_cell(5000, -5000, 1) == (501, -200, 1)


def test_evaluate_the_chart_strategy_is_the_forced_option_of_its_cell():
    # seat 0 in position 1 (dealer 1): the chart's own call is blind:100 there, look elsewhere
    chart = "chart:cells=" + cells(c300_0_1=100)
    common = dict(options=["strategy", "look", "blind:100"], n=300, seed=SEED, before=[300, 300, 300],
                  strategies={0: chart}, n_jobs=1)
    t = cardsim.evaluate("501", seat=0, dealer=1, **common).set_index("option")
    assert t.score["strategy"] == t.score["blind:100"] != t.score["look"]
    t = cardsim.evaluate("501", seat=0, dealer=2, **common).set_index("option")  # position 0: look
    assert t.score["strategy"] == t.score["look"] != t.score["blind:100"]


@pytest.mark.parametrize("text,match", [
    ("0" * 125, "126 digits.*got 125 digits"),
    ("0" * 125 + "7", "got the characters '7'"),
    ("0" * 120 + "abc000", "got the characters 'abc'"),
    ("/".join(["0" * 21] * 5 + ["0" * 20, "0"]), "6 groups of 21"),
    ("", "got 0 digits"),
])
def test_a_malformed_cells_text_is_a_one_line_strategy_error(text, match):
    with pytest.raises(StrategyError, match=match) as info:
        SPEC.setup({0: f"chart:cells={text}"}, 3)
    assert "\n" not in str(info.value) and "'cells' of 'chart'" in str(info.value)
    with pytest.raises(StrategyError, match="given twice"):
        SPEC.table.registry.resolve(f"chart:cells={S.ALL_LOOK},cells={S.ALL_LOOK}")
    with pytest.raises(StrategyError, match="no parameter 'cells'"):
        SPEC.table.registry.resolve(f"heuristic:cells={S.ALL_LOOK}")


def test_cells_texts_with_and_without_slashes_are_the_same_table():
    digits = [(i * 7) % 7 if i % 5 else i % 7 for i in range(S.N_CELLS)]
    text = S.cells_text(digits)
    assert text.count("/") == 5 and len(text) == 131
    _, a = SPEC.table.registry.resolve(f"chart:cells={text}")
    _, b = SPEC.table.registry.resolve(f"chart:cells={text.replace('/', '')}")
    assert (a == b).all()
    levels = [0 if d == 0 else S.CELL_LEVELS[d - 1] for d in digits]
    assert list(a[TABLE_START:TABLE_START + S.N_CELLS]) == levels and not a[TABLE_START + S.N_CELLS:].any()


def test_the_strategy_listing_stays_short():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "cardsim", "strategies", "501"], capture_output=True, text=True,
                         check=True).stdout
    lines = out[out.index("\nchart:") + 1:].splitlines()
    # the name line, then its indented lines up to the next strategy's name or the rule options
    chart = "\n".join(lines[:1 + next(i for i, ln in enumerate(lines[1:]) if not ln.startswith(" "))]) + "\n"
    assert chart.count("\n") == 8  # the name line, six parameters, the table
    assert "cells = all look (text)" in chart and "0" * 21 not in out


# ------------------------------------------------------------------ spec helpers
def _choices(own, leads, best):
    """A choices()-like frame over ``own`` x ``leads`` x positions (opponents above 0 only)
    with ``best(own, lead, position)`` as the option."""
    rows = [{"own": o, "lead": lead, "opp": o + lead, "position": p, "best": best(o, lead, p)}
            for o in own for lead in leads for p in B.POSITIONS if o + lead > 0]
    return pd.DataFrame(rows)


def test_chart_policy_spec_round_trips_a_full_chart():
    def best(o, lead, p):
        return "look" if (o + lead + p) % 3 else f"blind:{B.LEVELS[(o // 50 + p) % len(B.LEVELS)]}"
    frame = _choices(B.OWN, B.LEADS, best)
    spec = chart_policy_spec(frame)
    assert spec.startswith("chart:cells=") and len(spec) == len("chart:cells=") + 131
    table = chart_table(spec)
    assert list(table.columns) == ["own", "lead", "position", "level", "best"] and len(table) == 126
    merged = table.merge(frame, on=["own", "lead", "position"], suffixes=("", "_given"))
    assert len(merged) == len(frame) == 126 - 3 * 6  # the six (own, lead) pairs with opponents at 0 or below
    assert (merged.best == merged.best_given).all()
    # the cells the chart leaves out take the nearest given cell: (50, -50) -> (50, 0) (a tie
    # with (100, -50): the lower own score), (50, -200) -> (50, 0)... (200, -200) -> (200, -100)
    t = table.set_index(["own", "lead", "position"]).best
    f = frame.set_index(["own", "lead", "position"]).best
    for p in B.POSITIONS:
        assert t[(50, -50, p)] == t[(50, -100, p)] == t[(50, -200, p)] == f[(50, 0, p)]
        assert t[(100, -100, p)] == f[(100, -50, p)] and t[(100, -200, p)] == f[(100, -50, p)]
        assert t[(200, -200, p)] == f[(200, -100, p)]
    # and the strategy plays it: the engine's table block is the table's levels
    _, vec = SPEC.table.registry.resolve(spec)
    assert list(vec[TABLE_START:TABLE_START + 126]) == list(table.level)


def test_chart_policy_spec_expands_the_quick_grid_by_nearest_cell():
    quick = _choices(B.QUICK_OWN, B.QUICK_LEADS,
                     lambda o, lead, p: "blind:90" if (o, lead, p) == (300, 0, 1) else "look")
    table = chart_table(chart_policy_spec(quick)).set_index(["own", "lead", "position"])
    blind = table[table.level > 0]
    # of the quick grid's own 100/300/501: 200 is midway (-> 100), 400 nearer 300; of its leads
    # -100/0/+100: -50 is midway (-> -100), 0 and +50 -> 0
    assert sorted(blind.index) == [(own, lead, 1) for own in (300, 400) for lead in (0, 50)]
    assert (blind.level == 90).all()


def test_chart_policy_spec_parameters_and_errors():
    frame = _choices(B.QUICK_OWN, B.QUICK_LEADS, lambda o, lead, p: "blind:150")
    spec = chart_policy_spec(frame, margin=-5, contest=10)
    assert spec.endswith(",margin=-5,contest=10")
    _, vec = SPEC.table.registry.resolve(spec)
    assert vec[S.P_CHART_MARGIN] == -5 and vec[S.P_CHART_CONTEST] == 10
    assert (vec[TABLE_START:TABLE_START + 126] == 150).all()
    with pytest.raises(StrategyError, match="no parameter 'blind_prob'"):
        chart_policy_spec(frame, blind_prob=1)
    with pytest.raises(ValueError, match="'blind:75' is not"):
        chart_policy_spec(frame.assign(best="blind:75"))
    with pytest.raises(ValueError, match="no situation in auction position 2"):
        chart_policy_spec(frame[frame.position < 2])
    with pytest.raises(ValueError, match="more than once"):
        chart_policy_spec(pd.concat([frame, frame.iloc[:1]]))
    with pytest.raises(ValueError, match="lacks the column"):
        chart_policy_spec(frame.drop(columns="best"))
    with pytest.raises(StrategyError, match="not the chart strategy"):
        chart_table("heuristic")
    with pytest.raises(StrategyError, match="'cells' of 'chart'"):
        chart_table("chart:cells=1")
    assert (chart_table("chart").level == 0).all()
