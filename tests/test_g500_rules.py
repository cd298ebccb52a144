"""Five Hundred rules (docs/RULES.md §3) with exact expected values, engine and slow twin side by side."""
import numpy as np
import pytest

from cardsim.cards import CardError
from cardsim.games.base import RecordError
from cardsim.games.g500 import replay as slow
from cardsim.games.g500.constants import (
    BID_VALUES,
    DECK,
    FULL_EFF,
    NT,
    REMAP,
    UNMAP,
    bid_id,
    bid_str,
    parse_call,
    parse_card,
)
from cardsim.games.g500.rules import (
    card_suit,
    deal_hands,
    game_winner,
    legal_plays,
    remap_hand,
    score_deal,
    trick_winner,
)

S, C, D, H = 0, 1, 2, 3


def eff(token, denom):
    return int(REMAP[denom, parse_card(token)])


def hand_eff(tokens, denom):
    h = 0
    for t in tokens:
        h |= 1 << parse_card(t)
    return int(remap_hand(np.uint64(h), denom))


def engine_winner(tokens, denom, named=None):
    cards = np.array([eff(t, denom) for t in tokens], dtype=np.int64)
    led = card_suit(cards[0], denom)
    if led < 0:
        led = named
    return int(trick_winner(cards, denom, led))


def slow_winner(tokens, trump, named=None):
    cards = [slow.parse_card(t, "play", 0) for t in tokens]
    led = slow.suit_of(cards[0], trump) or named
    powers = [slow.power(c, trump, led) for c in cards]
    return powers.index(max(powers))


# ---------------------------------------------------------------- §3.1 ranking
def test_seed_check_ranking_hearts_trumps():
    # docs/RULES.md §3.7: HJ > LJ > J♥ > J♦ > A♥ > K♥ > Q♥ > 10♥ > … > 4♥
    order = ["HJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"]
    e = [eff(t, H) for t in order]
    assert all(c >> 4 == H for c in e), "all fourteen are in the trump lane"
    assert e == sorted(e, reverse=True) and len(set(e)) == 14
    powers = [slow.power(slow.parse_card(t, "x", 0), "H", "S") for t in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 14
    # the diamond suit then runs A K Q 10 9 … 4 (no jack)
    diamonds = ["AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"]
    e = [eff(t, H) for t in diamonds]
    assert all(c >> 4 == D for c in e) and e == sorted(e, reverse=True)
    lane_d = int(FULL_EFF[H]) >> 16 * D & 0xFFFF
    assert bin(lane_d).count("1") == 10
    assert slow.suit_of(slow.parse_card("JD", "x", 0), "H") == "H"


def test_remap_tables_are_bijections():
    for d in range(5):
        phys = sorted(int(c) for c in DECK)
        effs = sorted(int(REMAP[d, c]) for c in DECK)
        assert len(set(effs)) == 46
        assert sorted(int(UNMAP[d, e]) for e in effs) == phys
        assert bin(int(FULL_EFF[d])).count("1") == 46


@pytest.mark.parametrize("trump", [S, C, D, H])
def test_trump_lane_has_fourteen_cards(trump):
    lane = int(FULL_EFF[trump]) >> (16 * trump) & 0xFFFF
    assert bin(lane).count("1") == 14
    left = trump ^ 1
    lane_left = int(FULL_EFF[trump]) >> (16 * left) & 0xFFFF
    assert bin(lane_left).count("1") == 10


def test_no_trump_order():
    assert engine_winner(["LJ", "HJ", "AS", "KS"], NT, named=S) == 1
    assert slow_winner(["LJ", "HJ", "AS", "KS"], "NT", named="S") == 1
    # A K Q J 10 … 4 in every suit, jacks are ordinary cards
    spades = ["AS", "KS", "QS", "JS", "TS", "9S", "4S"]
    e = [eff(t, NT) for t in spades]
    assert e == sorted(e, reverse=True)
    assert slow.suit_of(slow.parse_card("JC", "x", 0), "NT") == "C"


def test_left_bower_beats_trump_ace():
    # hearts trumps: A♥ led, J♦ (left bower) wins over it
    tokens = ["AH", "JD", "KH", "4H"]
    assert engine_winner(tokens, H) == 1
    assert slow_winner(tokens, "H") == 1
    # and the right bower beats the left
    assert engine_winner(["JD", "AH", "JH", "QH"], H) == 2
    assert slow_winner(["JD", "AH", "JH", "QH"], "H") == 2


def test_left_bower_led_trumps_must_follow():
    # J♦ led with hearts trumps: it leads trumps
    assert card_suit(eff("JD", H), H) == H
    hand = ["4H", "AD", "KD", "5C"]
    legal = int(legal_plays(np.uint64(hand_eff(hand, H)), H, H))
    assert legal == 1 << eff("4H", H), "a heart must follow the left bower"
    # its own suit need not follow: a hand with diamonds but no trumps plays anything
    hand = ["AD", "KD", "5C"]
    h = hand_eff(hand, H)
    assert int(legal_plays(np.uint64(h), H, H)) == h
    # slow twin agrees
    assert slow.suit_of(slow.parse_card("JD", "x", 0), "H") == "H"


def test_no_trump_joker_cannot_be_played_holding_led_suit():
    hand = ["HJ", "5S", "AD"]
    h = hand_eff(hand, NT)
    legal = int(legal_plays(np.uint64(h), NT, S))
    assert legal == 1 << eff("5S", NT)
    # void in the led suit: the joker becomes playable
    legal = int(legal_plays(np.uint64(h), NT, C))
    assert legal == h
    # leading: anything
    assert int(legal_plays(np.uint64(h), NT, -1)) == h


def test_no_trump_led_joker_names_suit_and_hj_beats_lj():
    assert card_suit(eff("LJ", NT), NT) == -1
    # LJ led naming hearts: AH follows and loses, HJ from a void player wins
    tokens = ["LJ", "AH", "HJ", "4H"]
    assert engine_winner(tokens, NT, named=H) == 2
    assert slow_winner(tokens, "NT", named="H") == 2
    # a led joker wins over the named suit's ace
    assert engine_winner(["HJ", "AH", "KH", "4H"], NT, named=H) == 0
    # players must follow the named suit
    h = hand_eff(["AH", "KS"], NT)
    assert int(legal_plays(np.uint64(h), NT, H)) == 1 << eff("AH", NT)


def test_joker_in_trump_contract_is_a_trump():
    assert card_suit(eff("LJ", S), S) == S
    h = hand_eff(["LJ", "AD"], S)
    assert int(legal_plays(np.uint64(h), S, S)) == 1 << eff("LJ", S)
    assert engine_winner(["4D", "AD", "LJ", "JS"], S) == 2
    assert slow_winner(["4D", "AD", "LJ", "JS"], "S") == 2


def test_off_suit_card_never_wins():
    assert engine_winner(["4D", "AC", "AS", "5D"], H) == 3
    assert slow_winner(["4D", "AC", "AS", "5D"], "H") == 3


# ---------------------------------------------------------------- §3.2 deal order
def test_deal_order():
    deck = np.arange(46, dtype=np.int64)  # card "i" = position i, to read the order back
    # use positions as bit indices 0..45 in a uint64 for the check
    hands = np.zeros(4, dtype=np.uint64)
    kitty = int(deal_hands(deck, 1, hands))
    def pos(mask):
        return [i for i in range(64) if mask >> i & 1]
    # dealer 1: seat 2 first
    assert pos(int(hands[2])) == [0, 1, 2, 15, 16, 17, 18, 31, 32, 33]
    assert pos(int(hands[3])) == [3, 4, 5, 19, 20, 21, 22, 34, 35, 36]
    assert pos(int(hands[0])) == [6, 7, 8, 23, 24, 25, 26, 37, 38, 39]
    assert pos(int(hands[1])) == [9, 10, 11, 27, 28, 29, 30, 40, 41, 42]
    assert pos(kitty) == [12, 13, 14, 43, 44, 45]


# ---------------------------------------------------------------- §3.3 bid table
def test_bid_table_and_seed_comparisons():
    table = {6: [40, 60, 80, 100, 120], 7: [140, 160, 180, 200, 220], 8: [240, 260, 280, 300, 320],
             9: [340, 360, 380, 400, 420], 10: [440, 460, 480, 500, 520]}
    for tricks, values in table.items():
        for d, v in enumerate(values):
            b = bid_id(tricks, d)
            assert BID_VALUES[b] == v
            assert slow.bid_value((tricks, ["S", "C", "D", "H", "NT"][d])) == v
            assert parse_call(bid_str(b)) == b
    assert list(BID_VALUES) == sorted(BID_VALUES), "bid numbers are ordered by value"
    # docs/RULES.md §3.7
    assert parse_call("8H") > parse_call("7NT") and BID_VALUES[parse_call("8H")] == 300
    assert BID_VALUES[parse_call("7NT")] == 220
    assert parse_call("6NT") > parse_call("6H")
    assert (BID_VALUES[parse_call("6NT")], BID_VALUES[parse_call("6H")]) == (120, 100)
    assert slow.bid_value((8, "H")) > slow.bid_value((7, "NT"))


# ---------------------------------------------------------------- §3.6 scoring
def test_seed_check_eight_hearts_seven_tricks():
    b = parse_call("8H")
    assert score_deal(b, 7, 0) == (0, 300)      # quebec: defenders +300
    assert score_deal(b, 7, 1) == (-300, 30)    # subtract: declarer's side -300, defenders +30
    assert score_deal(b, 8, 0) == (300, 0)
    assert score_deal(b, 10, 0) == (300, 0)     # no more for extra tricks
    assert score_deal(b, 9, 1) == (300, 10)


def test_game_end():
    assert game_winner(1000, 0, True, 1000) == 0
    assert game_winner(999, 0, True, 1000) == -1
    assert game_winner(500, 1000, False, 1000) == 1
    # both cross (subtract): declarer's side if made, else the defenders
    assert game_winner(1030, 1010, True, 1000) == 0
    assert game_winner(1030, 1010, False, 1000) == 1
    assert game_winner(540, 500, True, 500) == 0


@pytest.mark.parametrize("token", ["5S", "11H", "6X", "NT", "", "PP", "6", "S6"])
def test_engine_call_parser_rejects_unknown_calls(token):
    with pytest.raises(CardError, match="unknown call"):
        parse_call(token)


def test_engine_call_parser_rejects_non_strings():
    with pytest.raises(CardError, match="must be a string"):
        parse_call(6)


def test_slow_twin_rejects_bad_calls_and_cards():
    with pytest.raises(RecordError, match="unknown call '11H'") as exc:
        slow.read_call("11H", 4)
    assert (exc.value.field, exc.value.index) == ("auction", 4)
    with pytest.raises(RecordError, match="unknown card '3S'") as exc:
        slow.parse_card("3S", "hands", 2)
    assert (exc.value.field, exc.value.index) == ("hands", 2)
    assert slow.parse_card("10h", "x", 0) == ("T", "H")
