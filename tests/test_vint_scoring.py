"""Every scoring element of docs/RULES.md §2.4–§2.7 with exact values, through both the jitted
scorer and the plain-Python replay scorer (tests/vint_helpers.score_both)."""
import json
from pathlib import Path

import pytest

from cardsim.games.vint.replay import replay
from cardsim.games.vint.rules import bid_call, trick_value
from vint_helpers import cards, score_both, winners_for

NO_HONOURS = [set(), set(), set(), set()]
# Aces split 2-2 and no honours anywhere unless a test says otherwise.
ACES_22 = [cards("AS AC"), cards("AD AH"), set(), set()]


def test_trick_values_rules_2_4():
    assert trick_value(3, 1) == 26  # 3 clubs
    assert trick_value(7, 4) == 72  # 7 no-trump
    assert [trick_value(1, d) for d in range(5)] == [4, 6, 8, 10, 12]


def test_bid_order_rules_2_2():
    # spades < clubs < diamonds < hearts < no-trump, level first
    assert bid_call(1, 4) < bid_call(2, 0)
    assert bid_call(3, 0) < bid_call(3, 1) < bid_call(3, 2) < bid_call(3, 3) < bid_call(3, 4)


def test_seed_example_rules_2_8_record():
    record = json.loads(Path(__file__).with_name("data").joinpath("vint_seed_2_8.jsonl").read_text())
    result = replay(record)
    assert result["contract"] == "3C" and result["tricks"] == [8, 5]
    assert result["below"] == [208, 130]
    assert result["bonuses"]["honours"] == [780, 0]
    assert result["bonuses"]["aces"] == [780, 0]
    assert result["bonuses"]["penalty"] == [0, 1500]
    assert result["total"] == [1768, 1630]
    assert result["total"][0] - result["total"][1] == 138
    assert result["game_won_by"] is None and result["crossing_trick"] is None


def test_seed_example_rules_2_8_scorer():
    hands = [cards("AC KC QC AS AD"), set(), cards("JC"), set()]
    r = score_both(3, 1, 0, winners_for(8), hands)
    assert r["total"] == [1768, 1630]


def test_slam_by_defenders():
    # 1S by seat 0; the defenders take 12: their slam 500, penalty 500 x 1 x 6.
    r = score_both(1, 0, 0, [0] + [1] * 12, ACES_22)
    assert r["bonuses"]["slam"] == [0, 500]
    assert r["bonuses"]["penalty"] == [0, 3000]
    assert r["bonuses"]["aces"] == [0, 80]  # 2-2: the side with more tricks scores 20 x V
    assert r["below"] == [4, 48]


def test_grand_slam_bid_and_made():
    r = score_both(7, 4, 2, [2] * 13, ACES_22)
    assert r["bonuses"]["slam"] == [1000, 0] and r["bonuses"]["bid_slam"] == [5000, 0]
    assert r["bonuses"]["aces"] == [20 * 72, 0]
    assert r["below"] == [13 * 72, 0]
    # 936 below also wins the game (first game: 500 above), at the 7th trick (7 x 72 = 504).
    assert r["bonuses"]["game"] == [500, 0] and r["crossing_trick"] == 7
    assert r["total"] == [13 * 72 + 6000 + 1440 + 500, 0]


def test_six_bid_thirteen_taken():
    r = score_both(6, 3, 1, [1] * 13, NO_HONOURS[:2] + [cards("AS AC AD"), cards("AH")])
    assert r["bonuses"]["slam"] == [0, 1000] and r["bonuses"]["bid_slam"] == [0, 3000]
    v = trick_value(6, 3)
    assert r["bonuses"]["aces"] == [30 * v, 0]  # defenders hold 3 aces: 10 x V each
    assert r["bonuses"]["penalty"] == [0, 0]


def test_six_bid_twelve_taken_keeps_bonus():
    r = score_both(6, 0, 0, winners_for(12), ACES_22)
    assert r["bonuses"]["slam"] == [500, 0] and r["bonuses"]["bid_slam"] == [3000, 0]


def test_seven_with_twelve_keeps_plain_slam_and_fails():
    r = score_both(7, 2, 0, winners_for(12), ACES_22)
    assert r["bonuses"]["slam"] == [500, 0]
    assert r["bonuses"]["bid_slam"] == [0, 0]
    assert r["bonuses"]["penalty"] == [0, 500 * 7 * 1 + 5000]


def test_six_failed_penalty():
    r = score_both(6, 4, 1, winners_for(3), ACES_22)  # seats 1+3 take 10 of 12 needed
    assert r["bonuses"]["penalty"] == [500 * 6 * 2 + 3000, 0]


@pytest.mark.parametrize("held,factor", [(2, 0), (3, 20), (4, 30), (5, 40)])
def test_trump_honours(held, factor):
    honours = ["AH", "KH", "QH", "JH", "TH"]
    hands = [cards(" ".join(honours[:held])), cards(" ".join(honours[held:])), set(), set()]
    r = score_both(2, 3, 0, winners_for(8), hands)
    v = trick_value(2, 3)
    team1 = {3: 20, 4: 30, 5: 40}.get(5 - held, 0)
    assert r["bonuses"]["honours"] == [factor * v, team1 * v]


def test_honours_split_between_partners():
    r = score_both(1, 1, 0, winners_for(7), [cards("AC KC"), set(), cards("TC"), set()])
    assert r["bonuses"]["honours"] == [20 * 6, 0]


def test_no_trump_has_no_honours_only_aces():
    hands = [cards("AS KS QS JS TS AH AD"), set(), set(), set()]
    r = score_both(1, 4, 0, winners_for(7), hands)
    assert r["bonuses"]["honours"] == [0, 0]
    assert r["bonuses"]["aces"] == [30 * 12, 0]


def test_four_aces():
    r = score_both(1, 0, 1, winners_for(6), [cards("AS AH"), set(), cards("AD AC"), set()])
    assert r["bonuses"]["aces"] == [40 * 4, 0]


def test_aces_two_two_goes_to_side_with_more_tricks():
    r = score_both(1, 0, 0, winners_for(6), ACES_22)
    assert r["bonuses"]["aces"] == [0, 20 * 4]
    r = score_both(1, 0, 0, winners_for(7), ACES_22)
    assert r["bonuses"]["aces"] == [20 * 4, 0]


def test_made_contract_has_no_penalty():
    r = score_both(2, 2, 3, winners_for(5), ACES_22)  # seats 1+3 take 8 = 2 + 6
    assert r["bonuses"]["penalty"] == [0, 0]


def test_crossing_500_when_both_sides_pass_it():
    # 2NT (V = 22): from 460 / 480 below, seats 1+3 win trick 1 (502) before 0+2 reach 500.
    winners = [1, 0, 0] + [0] * 10
    r = score_both(2, 4, 0, winners, ACES_22, below=(460, 480))
    assert r["game_won_by"] == 1 and r["crossing_trick"] == 1
    assert r["bonuses"]["game"] == [0, 500]
    assert r["below"] == [12 * 22, 22]  # the deal is scored in full
    assert r["after"] == {"below": [0, 0], "games": [0, 1]}


def test_crossing_trick_is_the_one_that_reaches_500():
    winners = [1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]  # seats 0+2 reach 480 + 3 x 8 = 504 at trick 5
    r = score_both(1, 2, 1, winners, ACES_22, below=(480, 0))
    assert r["crossing_trick"] == 5 and r["game_won_by"] == 0


def test_below_points_carry_over_without_game():
    r = score_both(1, 0, 0, winners_for(7), ACES_22, below=(300, 120))
    assert r["game_won_by"] is None
    assert r["after"] == {"below": [300 + 28, 120 + 24], "games": [0, 0]}


def test_second_game_gives_1000_and_the_rubber():
    r = score_both(3, 4, 0, winners_for(10), ACES_22, below=(200, 0), games=(1, 1))
    assert r["game_won_by"] == 0 and r["bonuses"]["game"] == [1000, 0]
    assert r["rubber_won_by"] == 0
    assert r["after"]["games"] == [2, 1]


def test_first_game_gives_500():
    r = score_both(3, 4, 0, winners_for(10), ACES_22, below=(200, 0), games=(0, 1))
    assert r["bonuses"]["game"] == [500, 0] and r["rubber_won_by"] is None
