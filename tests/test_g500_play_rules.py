"""Five Hundred declaring-side card play of the default ``heuristic`` (issue 12, docs/RULES.md
§3.5): each rule on a position, the card it must play, and heuristic_v1 (the old play) playing
its old card on the same position.  Cards are physical tokens (``JH``, ``LJ``) remapped to the
contract's effective layout."""
import numpy as np

from cardsim.games.g500 import strategies as S
from cardsim.games.g500.constants import NT, REMAP, parse_card

U64 = np.uint64
HEARTS = 3


def eff(token, denom):
    return int(REMAP[denom, parse_card(token)])


def mask(tokens, denom):
    return U64(sum(1 << eff(t, denom) for t in tokens))


def play(seat, hand, trick_cards, leader, denom=HEARTS, declarer=0, played_before=(), known=(),
         decl_tricks=0, contract_tricks=7):
    """Both plays' effective cards for ``seat`` holding ``hand`` after ``trick_cards`` (play
    order from ``leader``), ``played_before`` played in earlier tricks."""
    trick = np.zeros(4, dtype=np.int64)
    for i, t in enumerate(trick_cards):
        trick[i] = eff(t, denom)
    played = mask(list(trick_cards) + list(played_before), denom)
    led = trick[0] >> 4 if trick_cards else -1
    args = (seat, mask(hand, denom), denom, declarer, leader, trick, len(trick_cards), led, played,
            mask(known, denom), decl_tricks, contract_tricks)
    return S.heuristic_play(*args), S.heuristic_play_v1(*args)


def test_third_hand_high_in_trumps_over_partners_beatable_trump():
    # hearts; the declarer (seat 0) led the 5H, the left opponent won it with the 6H; partner,
    # third, holds the right bower (JH) and the 9H, with the jokers and the left bower unseen:
    # the right bower makes the fourth hand spend a joker or the left bower (v1: the 9H)
    new, old = play(2, ["JH", "9H", "4S"], ["5H", "6H"], leader=0)
    assert new == eff("JH", HEARTS)
    assert old == eff("9H", HEARTS)
    # the same over the declarer's 5H still winning (the 4H under it): v1 gave its lowest trump
    new, old = play(2, ["JH", "9H", "4S"], ["5H", "4H"], leader=0)
    assert new == eff("JH", HEARTS)
    assert old == eff("9H", HEARTS)


def test_third_hand_wins_a_trump_trick_with_its_lowest_master():
    # the jokers and the left bower are gone, the left opponent's TH beats the 5H: partner wins
    # with its lowest master, the right bower (as before)
    new, old = play(2, ["JH", "9H", "4S"], ["5H", "TH"], leader=0, played_before=["HJ", "LJ", "JD", "4C"])
    assert new == old == eff("JH", HEARTS)


def test_declarers_partner_leads_trumps_while_trumps_are_unseen():
    # hearts, declarer seat 0; partner (seat 2) on lead with the AH and side cards, the bowers and
    # jokers unseen: a low trump back towards the declarer (v1 led its side master, the AS)
    new, old = play(2, ["AH", "6H", "AS", "4C"], [], leader=2)
    assert new == eff("6H", HEARTS)
    assert old == eff("AS", HEARTS)


def test_declarers_partner_leads_its_master_trump():
    new, _ = play(2, ["HJ", "6H", "AS", "4C"], [], leader=2)
    assert new == eff("HJ", HEARTS)


def test_defender_does_not_lead_trumps():
    # the same hand on defence (declarer seat 1) cashes its side master as before
    new, old = play(2, ["AH", "6H", "AS", "4C"], [], leader=2, declarer=1)
    assert new == old == eff("AS", HEARTS)


def test_declarers_partner_without_unseen_trumps_leads_side_cards():
    every_other_trump = ["HJ", "LJ", "JH", "JD", "KH", "QH", "TH", "9H", "8H", "7H", "5H", "4H"]
    new, old = play(2, ["AH", "6H", "AS", "4C"], [], leader=2, played_before=every_other_trump)
    assert new == old == eff("AS", HEARTS)


def test_declarer_stops_drawing_when_the_last_unseen_trump_outranks_his():
    # hearts, the declarer (seat 0) holds the KH and 6H; every trump but the high joker is out:
    # a trump lead would only give the joker a trick with two of his side's trumps; he cashes
    # his side master instead (v1 led the 6H)
    out = ["LJ", "JH", "JD", "AH", "QH", "TH", "9H", "8H", "7H", "5H", "4H"]
    new, old = play(0, ["KH", "6H", "AS", "4C"], [], leader=0, played_before=out)
    assert new == eff("AS", HEARTS)
    assert old == eff("6H", HEARTS)


def test_declarer_still_draws_two_unseen_trumps_above_his():
    out = ["JH", "JD", "AH", "QH", "TH", "9H", "8H", "7H", "5H", "4H"]
    new, old = play(0, ["KH", "6H", "AS", "4C"], [], leader=0, played_before=out)
    assert new == old == eff("6H", HEARTS)


def test_declarer_draws_the_last_trump_with_his_master():
    out = ["HJ", "LJ", "JH", "JD", "AH", "QH", "TH", "9H", "8H", "7H", "4H"]
    new, old = play(0, ["KH", "6H", "AS", "4C"], [], leader=0, played_before=out)
    assert new == old == eff("KH", HEARTS)


# ---- the declaring side's no-trump lead found with pimc (docs/pimc.md, "Five Hundred's declaring side")
NT_HAND = ["AS", "5C", "6C", "AH", "KH", "QH", "9H", "6H", "7D", "8D"]


def nt_lead(seat, hand, declarer=0, played_before=()):
    """heuristic's and heuristic_v5's leads in no-trump (the effective layout is the physical one)."""
    trick = np.zeros(4, dtype=np.int64)
    args = (seat, mask(hand, NT), NT, declarer, seat, trick, 0, -1, mask(played_before, NT), U64(0), 0, 7)
    return S.heuristic_play(*args), S.heuristic_play_v5(*args)


def test_declarer_in_no_trump_cashes_the_master_of_his_longest_suit():
    # two masters, the singleton AS and the AH of five hearts: the AH (heuristic_v5 the highest-ranked
    # master, the aces tied, the lower lane: the AS)
    new, old = nt_lead(0, NT_HAND)
    assert new == eff("AH", NT)
    assert old == eff("AS", NT)


def test_declarers_partner_in_no_trump_cashes_its_longest_suits_master_too():
    new, old = nt_lead(2, NT_HAND)
    assert new == eff("AH", NT) and old == eff("AS", NT)


def test_defender_in_no_trump_keeps_the_highest_ranked_master():
    new, old = nt_lead(1, NT_HAND)
    assert new == old == eff("AS", NT)


def test_a_long_suit_without_its_master_is_not_led_from_the_top():
    # the AH unseen: the hearts' KH is no master, so the one master, the AS, as before
    hand = ["AS", "5C", "6C", "KH", "QH", "JH", "9H", "6H", "7D", "8D"]
    new, old = nt_lead(0, hand)
    assert new == old == eff("AS", NT)
    # once the AH is played the KH is the master of the longest suit, and it goes first
    new, old = nt_lead(0, hand, played_before=["AH", "4H", "5H", "7H"])
    assert new == eff("KH", NT) and old == eff("AS", NT)


def test_no_master_leads_low_from_the_longest_suit_as_before():
    hand = ["KS", "5C", "6C", "KH", "QH", "JH", "9H", "6H", "7D", "8D"]
    new, old = nt_lead(0, hand)
    assert new == old == eff("6H", NT)


def test_the_previous_card_play_is_kept_as_heuristic_v5():
    assert S.REGISTRY["heuristic_v5"].id == S.HEURISTIC_V5 != S.HEURISTIC
    # heuristic_v4 is a version of heuristic_v5: the same id, so it keeps the previous card play too
    assert S.REGISTRY["heuristic_v4"].id == S.HEURISTIC_V5
    assert S.PLAY_RULES == S.NT_LONG_MASTER
