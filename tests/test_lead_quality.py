"""Opening leads against double dummy (issue 31): ``cardsim.games.vint.solver.lead_values`` (every lead's DD
value in one DDS call), ``cardsim.dd.lead_values`` (the same from records) and the lead quality
per strategy (:mod:`cardsim.analysis.lead_quality`, the quality section's figure)."""
from __future__ import annotations

import numpy as np
import pytest

import cardsim
from cardsim.cards import VINT_RANKS, card_str, cards_of, parse_card
from cardsim.games.base import OptionError

from vint_helpers import hand_bits

# A deal where one lead is clearly DD-best.  Seat 3 (left of declarer seat 2) holds nine running
# spades and four small clubs; the declarer holds nine running clubs and four small diamonds, his
# partner nine running diamonds.  In no-trump a spade lead cashes nine spade tricks (partner's
# 5432 fall under them) and then the leader must lead a club: 9 tricks for the defence.  A club
# lead lets the declarer run nine clubs and cross to the diamonds: 0 tricks for the defence.
HANDS = {0: "D:AKQJT9876 H:5432", 1: "S:5432 H:AKQJT9876", 2: "C:AKQJT9876 D:5432", 3: "S:AKQJT9876 C:5432"}


def test_one_call_gives_every_lead_and_the_clear_best():
    from cardsim.games.vint.solver import lead_values

    hands = np.array([[hand_bits(HANDS[s]) for s in range(4)]], dtype=np.uint64)
    nt = lead_values(hands, 2, 4)
    assert nt.shape == (1, 64) and nt.dtype == np.int8
    got = {card_str(c, VINT_RANKS): int(nt[0, c]) for c in np.flatnonzero(nt[0] >= 0)}
    assert set(got) == {card_str(c, VINT_RANKS) for c in cards_of(int(hands[0, 3]))}  # the leader's 13 cards
    assert {t: v for t, v in got.items() if t.endswith("S")} == {r + "S": 9 for r in "AKQJT9876"}
    assert {t: v for t, v in got.items() if t.endswith("C")} == {r + "C": 0 for r in "5432"}
    # In clubs (the declarer's nine trumps) he ruffs the first spade, draws trumps and crosses to
    # the diamonds: no lead takes a trick.
    clubs = lead_values(hands, 2, 1)[0]
    assert clubs[parse_card("AS", VINT_RANKS)] == 0 and clubs[parse_card("2C", VINT_RANKS)] == 0
    with pytest.raises(ValueError, match="13-card"):
        lead_values(hands[:, [0, 1, 2, 2]], 2, 4)  # two seats with the same cards
    with pytest.raises(ValueError, match="denominations 0..4"):
        lead_values(hands, 2, 5)


def test_a_position_asked_twice_is_solved_once_with_the_same_values(monkeypatch):
    # the quality table asks every strategy's leads at once; strategies reaching one contract on a
    # deal ask the same position, which DDS must see once
    import endplay.dds

    from cardsim.games.vint.solver import lead_values

    hands = np.array([[hand_bits(HANDS[s]) for s in range(4)]], dtype=np.uint64)
    other = hands[:, [1, 2, 3, 0]]
    boards = []
    real = endplay.dds.solve_all_boards
    monkeypatch.setattr(endplay.dds, "solve_all_boards", lambda deals: boards.append(len(deals)) or real(deals))
    rows = np.concatenate([hands, other, hands, hands, other])
    got = lead_values(rows, [2, 2, 2, 1, 2], [4, 4, 4, 4, 4])
    assert boards == [3]  # (hands, 2), (other, 2), (hands, 1)
    one = [lead_values(rows[i:i + 1], d, 4)[0] for i, d in enumerate([2, 2, 2, 1, 2])]
    assert np.array_equal(got, np.stack(one)) and got[0, parse_card("AS", VINT_RANKS)] == 9


def test_lead_values_of_records_agree_with_the_per_card_trace():
    records = [r for r in cardsim.records("vint", range(12), seed=5) if r["play"]][:4]
    assert records
    values = cardsim.dd.lead_values(records)
    for rec, v in zip(records, values):
        first = cardsim.dd.card_costs(rec).iloc[0]
        lead = rec["play"][0]
        # the trace's values are the declaring side's tricks: 13 - the defenders'
        assert 13 - v[lead] == first.value_after
        assert 13 - max(v.values()) == first.value_before
        assert sorted(t for t, x in v.items() if x == max(v.values())) == sorted(first.best_cards.split())
    void = [r for r in cardsim.records("vint", range(40), seed=5) if not r["play"]][:1]
    assert cardsim.dd.lead_values(void) == [None] * len(void)


def test_lead_values_errors_are_one_line():
    with pytest.raises(OptionError, match="one game at a time"):
        cardsim.dd.lead_values(cardsim.records("vint", [0], seed=1) + cardsim.records("500", [0], seed=1))
    with pytest.raises(OptionError, match="no double-dummy values of the opening lead"):
        cardsim.dd.lead_values(cardsim.records("500", [0], seed=1))


def test_lead_quality_rows_and_table():
    from cardsim.analysis import lead_quality as LQ

    rows = LQ.deal_rows("vint", 12, seed=3, strategies=["heuristic", "random"])
    assert list(rows.strategy.unique()) == ["heuristic", "random"]
    led = rows[rows.declared]
    assert (led.value <= led.best_value).all() and ((led.best_share > 0) & (led.best_share <= 1)).all()
    assert (rows[~rows.declared].lead == "").all()
    table = LQ.summarize(rows)
    assert list(table.columns) == LQ.COLUMNS
    h = table.iloc[0]
    hl = led[led.strategy == "heuristic"]
    assert h.n == len(hl) and h.dd_best == pytest.approx((hl.value == hl.best_value).mean())
    assert h.lead_cost == pytest.approx((hl.best_value - hl.value).mean())
    assert h.random_lead == pytest.approx(hl.best_share.mean())
    assert h.vs_random == pytest.approx(h.dd_best - h.random_lead)
    assert h.dd_best_lo <= h.dd_best <= h.dd_best_hi
