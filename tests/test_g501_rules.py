"""501 rules (docs/RULES.md §1): jitted rule functions and hand-checked deal records with exact scores."""
import copy

import numpy as np
import pytest

from cardsim.cards import parse_card, hand_of
from cardsim.games.base import RecordError
from cardsim.games.g501 import SPEC
from cardsim.games.g501.constants import NT, RANKS
from cardsim.games.g501.rules import (
    beats, deal_hands, declarer_delta, hand_points, legal_plays, marriage_value, trick_winner, valid_bid,
)

S, C, D, H = range(4)


def c(tok):
    return parse_card(tok, RANKS)


def h(*toks):
    return np.uint64(hand_of(c(t) for t in toks))


# ------------------------------------------------------------------ §1.1 cards
def test_card_points_total_120_and_ranks():
    assert hand_points(h("AS", "TS", "KS", "QS", "JS", "9S")) == 30
    deck = np.uint64(hand_of(s * 16 + r for s in range(4) for r in range(6)))
    assert hand_points(deck) == 120
    # trick order A > 10 > K > Q > J > 9
    assert trick_winner(h("KS", "TS", "AS"), S, H) == c("AS")
    assert trick_winner(h("KS", "TS", "QS"), S, H) == c("TS")


# ------------------------------------------------------------------ §1.2 deal order
@pytest.mark.parametrize("seats,dealer", [(3, 2), (3, 0), (4, 3), (4, 1)])
def test_deal_order(seats, dealer):
    deck = np.array([16 * (i // 6) + i % 6 for i in range(24)], dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    talon = deal_hands(deck, dealer, seats, hands)
    order = [(dealer + 1 + i) % seats for i in range(3)]
    # rounds 1-3: three players then the talon (4 cards a round); rounds 4-7: three players
    pos = {}
    k = 0
    for rnd in range(7):
        for i, seat in enumerate(order):
            pos.setdefault(seat, []).append(k)
            k += 1
        if rnd < 3:
            pos.setdefault("talon", []).append(k)
            k += 1
    assert k == 24
    for seat in order:
        assert int(hands[seat]) == hand_of(deck[j] for j in pos[seat])
    assert int(talon) == hand_of(deck[j] for j in pos["talon"])
    if seats == 4:
        assert hands[dealer] == 0


# ------------------------------------------------------------------ §1.3 bids
def test_bid_range():
    assert valid_bid(66, 0) and not valid_bid(65, 0)
    assert valid_bid(220, 100) and not valid_bid(221, 100)
    assert not valid_bid(80, 80) and valid_bid(81, 80)


# ------------------------------------------------------------------ §1.5 play
def test_follow_suit_then_must_trump_even_losing():
    hand = h("9H", "AC", "KD")  # no spades; hearts are trump
    assert legal_plays(hand, S, H) == h("9H")            # must trump with the 9 (it may lose)
    assert legal_plays(h("JS", "9H"), S, H) == h("JS")    # follow suit first
    assert legal_plays(h("AC", "KD"), S, H) == h("AC", "KD")  # no trump: anything
    assert legal_plays(hand, S, NT) == hand               # no-trump: anything
    assert legal_plays(hand, -1, H) == hand               # leading: anything


def test_trick_winner_trump_and_led_suit():
    assert trick_winner(h("AS", "9H", "TS"), S, H) == c("9H")   # lowest trump beats the ace
    assert trick_winner(h("AS", "9H", "TH"), S, H) == c("TH")   # highest trump
    assert trick_winner(h("JS", "AD", "9S"), S, H) == c("JS")   # off-suit ace does not win
    assert trick_winner(h("JS", "AH", "QS"), S, NT) == c("QS")  # no-trump: led suit only
    assert trick_winner(h("JS", "AD"), S, H) == c("JS")         # a partial trick


def test_trick_winner_is_the_card_that_beats_all_before_it():
    """trick_winner on the bit set = the sequential ``beats`` fold over the cards in play order."""
    rng = np.random.default_rng(15)
    deck = [s * 16 + r for s in range(4) for r in range(6)]
    for _ in range(2000):
        cards = [int(x) for x in rng.choice(deck, int(rng.integers(1, 4)), replace=False)]
        trump = int(rng.integers(0, 5))
        best = cards[0]
        for card in cards[1:]:
            if beats(card, best, trump):
                best = card
        assert trick_winner(np.uint64(hand_of(cards)), cards[0] >> 4, trump) == best


# ------------------------------------------------------------------ §1.6/§1.7
def test_marriage_values_and_declarer_delta():
    assert marriage_value(H, H) == 40 and marriage_value(S, H) == 20 and marriage_value(S, NT) == 20
    assert declarer_delta(88, 100, True) == 200
    assert declarer_delta(100, 100, True) == -200
    assert declarer_delta(99, 100, False) == 100
    assert declarer_delta(120, 100, False) == -100


# ------------------------------------------------------------------ concrete records
SEED_EXAMPLE = {
    "game": "501", "seats": 3, "dealer": 2,
    "hands": [["9D", "9H", "AC", "KH", "KS", "QH", "TC"], ["9S", "AH", "AS", "JH", "KD", "QC", "TD"],
              ["9C", "JC", "JD", "QD", "QS", "TH", "TS"]],
    "talon": ["JS", "KC", "AD"], "auction": ["B80", "P", "P"],
    "contract": {"trump": "S", "target": 100, "give": {"1": "9H", "2": "AC"}},
    "play": ["QH+", "JH", "TH", "TS", "KS", "AS", "TD", "JD", "AD", "KC", "QC", "9C", "JS", "9S", "QS",
             "JC", "TC", "AH", "9D", "KD", "QD", "9H", "AC", "KH"],
}

SEED_MADE = {
    "game": "501", "seats": 3, "dealer": 2,
    "hands": [["9S", "AC", "AS", "JD", "KC", "KD", "QD"], ["9C", "9H", "AH", "JS", "KH", "TH", "TS"],
              ["9D", "AD", "JC", "JH", "QC", "QH", "TD"]],
    "talon": ["QS", "TC", "KS"], "auction": ["B80", "P", "P"],
    "contract": {"trump": "S", "target": 100, "give": {"1": "KC", "2": "KS"}},
    "play": ["QD+", "JS", "AD", "9H", "JH", "9S", "KD", "TS", "TD", "AH", "QH", "QS", "AC", "KC", "QC",
             "JD", "9C", "9D", "AS", "TH", "KS", "TC", "KH", "JC"],
}


def test_seed_example_failed_blind():
    """docs/RULES.md §1.9: blind 80, target 100, 68 cards + 20 marriage = 88 < 100 -> 701, 469, 481."""
    r = SPEC.play.replay(SEED_EXAMPLE)
    assert r["declarer"] == 0 and r["contract"] == 80 and r["target"] == 100 and r["blind"] is True
    assert r["trump"] == "S" and r["cards"] == [68, 32, 20] and r["marriages"] == [20, 0, 0]
    assert r["points"] == [88, 32, 20] and r["made"] is False
    assert r["delta"] == [200, -32, -20]
    assert r["after"] == {"scores": [701, 469, 481]}
    assert r["game_over"] is False and r["winners"] == []


def test_seed_example_made_blind():
    """docs/RULES.md §1.9: had A made 100 blind: 501 - 200 = 301."""
    r = SPEC.play.replay(SEED_MADE)
    assert r["points"][0] == 100 and r["marriages"][0] == 20 and r["made"] is True
    assert r["after"]["scores"] == [301, 461, 501]


def test_four_seat_table_dealer_sits_out():
    rec = {
        "game": "501", "seats": 4, "dealer": 3,
        "hands": [["9H", "AC", "AD", "QC", "QD", "TC", "TS"], ["9C", "AH", "AS", "JD", "KS", "QH", "TH"],
                  ["9D", "JC", "JH", "JS", "KD", "KH", "TD"], []],
        "talon": ["KC", "QS", "9S"], "auction": ["P", "68", "70", "P"],
        "contract": {"trump": "C", "target": 72, "give": {"0": "9S", "1": "9D"}},
        "play": ["AD", "9D", "TD", "9H", "AH", "KH", "AS", "QS", "TS", "JD", "KD", "QD", "JS", "9S", "KS",
                 "9C", "JC", "TC", "QC", "TH", "KC", "JH", "AC", "QH"],
        "before": {"scores": [501, 501, 501, 333]},
    }
    r = SPEC.play.replay(rec)
    assert r["declarer"] == 2 and r["contract"] == 70 and r["target"] == 72
    assert r["cards"] == [49, 45, 26, 0] and r["made"] is False
    assert r["delta"] == [-49, -45, 72, 0]
    assert r["after"]["scores"] == [452, 456, 573, 333]
    bad = copy.deepcopy(rec)
    bad["hands"][3] = ["9S"]
    with pytest.raises(RecordError, match="sits out"):
        SPEC.play.replay(bad)


def _abandon(auction, blind):
    rec = copy.deepcopy(SEED_EXAMPLE)
    rec["auction"] = auction
    rec["contract"] = {"abandon": True}
    rec["play"] = []
    r = SPEC.play.replay(rec)
    assert r["abandoned"] is True and r["blind"] is blind and r["made"] is None and r["target"] is None
    return r


def test_abandon_not_blind_and_blind():
    r = _abandon(["P", "75", "P"], False)
    assert r["declarer"] == 1 and r["delta"] == [-25, 75, -25]
    r = _abandon(["P", "B75", "P"], True)
    assert r["delta"] == [-25, 150, -25] and r["after"]["scores"] == [476, 651, 476]
    # blind bid, then a seen raise: no longer blind
    r = _abandon(["B66", "70", "P", "80", "P"], False)
    assert r["declarer"] == 0 and r["delta"] == [80, -25, -25]


def test_all_pass_is_void():
    rec = copy.deepcopy(SEED_EXAMPLE)
    rec["auction"] = ["P", "P", "P"]
    del rec["contract"]
    rec["play"] = []
    r = SPEC.play.replay(rec)
    assert r["declarer"] is None and r["contract"] is None and r["delta"] == [0, 0, 0]
    assert r["after"]["scores"] == [501, 501, 501]


def test_marriage_on_first_lead_effective_on_later_trick():
    rec = {
        "game": "501", "seats": 3, "dealer": 2,
        "hands": [["9S", "AH", "KS", "QH", "QS", "TC", "TD"], ["9C", "9D", "AD", "JC", "JD", "QD", "TH"],
                  ["9H", "AS", "JH", "JS", "KC", "QC", "TS"]],
        "talon": ["KD", "KH", "AC"], "auction": ["P", "70", "P"],
        "contract": {"trump": "H", "target": 70, "give": {"0": "QD", "2": "AC"}},
        "play": ["QS+", "KH", "JS", "9D", "JH", "QD", "TS", "9S", "TH", "KD", "9H", "TD", "KC", "TC", "JC",
                 "KS", "JD", "AS", "QC", "AH", "9C", "QH", "AD", "AC"],
    }
    r = SPEC.play.replay(rec)
    # seat 0 loses the declaring trick to the trump king, wins later: the 20 counts
    assert r["marriages"] == [20, 0, 0] and r["cards"] == [55, 29, 36]
    assert r["delta"] == [-75, 70, -36] and r["made"] is False


def test_marriage_that_never_counts():
    rec = {
        "game": "501", "seats": 3, "dealer": 2,
        "hands": [["9S", "AD", "JD", "JS", "KC", "KH", "QC"], ["9C", "9H", "AC", "KD", "KS", "QD", "TH"],
                  ["9D", "AS", "JC", "JH", "TC", "TD", "TS"]],
        "talon": ["AH", "QS", "QH"], "auction": ["P", "70", "P"],
        "contract": {"trump": "H", "target": 70, "give": {"0": "QD", "2": "KS"}},
        "play": ["QC+", "AC", "JC", "TH", "JH", "KH", "9C", "TC", "KC", "9D", "JD", "KD", "9H", "KS", "QD",
                 "QS", "AS", "9S", "TS", "JS", "QH", "AH", "TD", "AD"],
    }
    r = SPEC.play.replay(rec)
    assert r["cards"][0] == 0 and r["marriages"] == [0, 0, 0] and r["delta"] == [0, -70, -28]


def test_no_trump_marriages_twenty_each():
    rec = {
        "game": "501", "seats": 3, "dealer": 2,
        "hands": [["9D", "9H", "9S", "JH", "QS", "TD", "TS"], ["AH", "AS", "JC", "KC", "QC", "QH", "TH"],
                  ["9C", "AC", "AD", "JD", "KD", "QD", "TC"]],
        "talon": ["KH", "KS", "JS"], "auction": ["P", "70", "P"],
        "contract": {"trump": "NT", "target": 75, "give": {"0": "KS", "2": "AH"}},
        "play": ["QS+", "AS", "AH", "QH+", "QD", "9H", "QC+", "9C", "TS", "TH", "AD", "JH", "JC", "AC", "KS",
                 "JD", "9D", "KH", "KD", "TD", "JS", "9S", "KC", "TC"],
    }
    r = SPEC.play.replay(rec)
    assert r["trump"] == "NT" and r["marriages"] == [20, 40, 0]
    assert r["cards"] == [30, 67, 23] and r["made"] is True and r["delta"] == [-50, -75, -23]


def test_trump_marriage_forty():
    rec = {
        "game": "501", "seats": 3, "dealer": 2,
        "hands": [["9D", "JC", "KD", "QC", "QD", "TC", "TS"], ["9H", "9S", "AC", "KC", "KS", "QH", "TH"],
                  ["9C", "AD", "AH", "JH", "JS", "KH", "TD"]],
        "talon": ["AS", "QS", "JD"], "auction": ["75", "P", "P"],
        "contract": {"trump": "D", "target": 90, "give": {"1": "9D", "2": "TS"}},
        "play": ["QD+", "9D", "AD", "TS", "QS", "KS", "JS", "AS", "9S", "QC", "KC", "9C", "TH", "JH", "KD",
                 "JD", "QH", "TD", "KH", "JC", "9H", "AH", "TC", "AC"],
    }
    r = SPEC.play.replay(rec)
    assert r["marriages"] == [40, 0, 0] and r["points"] == [69, 7, 84] and r["delta"] == [90, -7, -84]


def test_must_trump_with_losing_trump_in_a_record():
    # trick 1 of the seed example: leader QH (hearts), JH, TH.  Trick 2: TS led (trump S)...
    rec = copy.deepcopy(SEED_EXAMPLE)
    # trick 4 (index 9..11): KC led by seat 0; seat 1 follows QC, seat 2 9C. Make seat 1 instead
    # discard while holding a club -> revoke
    rec["play"][10] = "KD"
    with pytest.raises(RecordError, match="follow suit"):
        SPEC.play.replay(rec)


def test_must_trump_rule_enforced_and_losing_trump_accepted():
    # 3 seats, dealer 2, hearts trump; seat 1 void in spades holds only the 9H trump.
    rec = {
        "game": "501", "seats": 3, "dealer": 2,
        "hands": [["AS", "TS", "KS", "QS", "JS", "9S", "AH"], ["9H", "AC", "TC", "KC", "QC", "JC", "9C"],
                  ["TH", "KH", "QH", "JH", "AD", "TD", "KD"]],
        "talon": ["QD", "JD", "9D"], "auction": ["P", "P", "66"],
        "contract": {"trump": "H", "target": 66, "give": {"0": "9D", "1": "JD"}},
        "play": ["AS", "9H", "TH"],
    }
    # seat 0 leads AS; seat 1 must trump with 9H (it loses to TH)
    bad = copy.deepcopy(rec)
    bad["play"][1] = "AC"
    with pytest.raises(RecordError, match="must play a trump"):
        SPEC.play.replay(bad)
    with pytest.raises(RecordError, match="not over"):
        SPEC.play.replay(rec)   # legal so far, only the rest of the deal is missing


def test_game_end_two_at_or_below_zero_lowest_wins_and_tie_shared():
    rec = copy.deepcopy(SEED_EXAMPLE)
    rec["before"] = {"scores": [300, 20, 20]}
    r = SPEC.play.replay(rec)
    assert r["after"]["scores"] == [500, -12, 0]
    assert r["game_over"] is True and r["winners"] == [1]
    rec["before"] = {"scores": [300, 32, 20]}
    r = SPEC.play.replay(rec)
    assert r["after"]["scores"] == [500, 0, 0] and r["game_over"] is True and r["winners"] == [1, 2]
    rec["before"] = {"scores": [300, 33, 21]}
    r = SPEC.play.replay(rec)
    assert r["game_over"] is False and r["winners"] == []
