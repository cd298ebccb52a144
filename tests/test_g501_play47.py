"""501's card play of issue 47: each rule on the position it was found on (with pimc as oracle),
the card heuristic plays there and the card heuristic_v5 (the play before issue 47) plays."""
import numpy as np

from cardsim.cards import parse_card
from cardsim.games.g501 import strategies as S
from cardsim.games.g501.constants import DECLARE_FLAG, RANKS
from cardsim.games.g501.rules import legal_plays
from cardsim.suit_order import IDENTITY

U64 = np.uint64
SPADES, CLUBS, DIAMONDS, HEARTS, NT = 0, 1, 2, 3, 4


def card(token):
    """Card index of a suit-first token ("CT" = ten of clubs)."""
    return parse_card(token[1] + token[0], RANKS)


def cards(*tokens):
    return U64(sum(1 << card(t) for t in tokens))


def both(hand, trick_cards, trump, played_before=(), is_decl=True, won_any=True, decl_pos=0):
    """(heuristic's card, heuristic_v5's card) for the seat holding ``hand`` after ``trick_cards``
    (play order, the first led), ``played_before`` from earlier tricks; no seat has shown a void."""
    hand = cards(*hand)
    trick = cards(*trick_cards)
    led = card(trick_cards[0]) if trick_cards else -1
    played = trick | cards(*played_before)
    legal = legal_plays(hand, -1 if led < 0 else led >> 4, trump)
    args = (hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, U64(0), U64(0), IDENTITY)
    return S.heuristic_play_voids(*args), S.heuristic_play_voids_v5(*args)


def test_the_declarer_ruffs_without_breaking_his_trump_marriage():
    # spades trump; last to play on C9 CT, void in clubs, he holds SQ SK ST: the ten wins and keeps
    # the marriage (40) to declare on his next lead; v5 ruffed with its lowest trump, the queen
    new, old = both(["SQ", "SK", "ST"], ["C9", "CT"], SPADES, won_any=False, decl_pos=2)
    assert (new, old) == (card("ST"), card("SQ"))


def test_without_masters_the_declarer_declares_with_the_king_that_wins():
    # hearts trump; the HA and HT are gone, so his HK wins the trick it declares (v5 led the queen)
    played = ["HA", "HT", "C9", "S9", "SJ", "D9"]
    new, old = both(["HK", "HQ", "CJ", "DJ"], [], HEARTS, played_before=played)
    assert (new, old) == (card("HK") + DECLARE_FLAG, card("HQ") + DECLARE_FLAG)


def test_the_declarer_last_to_play_wins_with_his_lowest_winner():
    # last on C9 CQ with CA CK: the king takes the trick as surely and the ace stays a master
    new, old = both(["CA", "CK", "D9"], ["C9", "CQ"], HEARTS, decl_pos=2)
    assert (new, old) == (card("CK"), card("CA"))


def test_only_the_declarer_keeps_his_marriage_when_he_discards():
    # hearts trump, the C9 led, no club and no trump: the lowest card is the SQ of a marriage; the
    # declarer now discards the DA instead, a defender (for whom keeping it lost, docs/pimc.md) the SQ
    new, old = both(["SQ", "SK", "DA"], ["C9"], HEARTS, decl_pos=1)
    assert (new, old) == (card("DA"), card("SQ"))
    new, old = both(["SQ", "SK", "DA"], ["C9"], HEARTS, is_decl=False, decl_pos=0)
    assert new == old == card("SQ")


# ---- issue 47's second rules (the declarer reads the defenders' shown voids when he ruffs second; the
# defenders lead trumps): heuristic against heuristic_v7, issue 47's first play

def _lane(*suits):
    return U64(sum(0x3F << (16 * s) for s in suits))


def against_v7(hand, trick_cards, trump, played_before=(), is_decl=True, won_any=True, decl_pos=0, dvoid=(),
               pvoid=()):
    """(heuristic's card, heuristic_v7's card) for the seat holding ``hand``, as :func:`both`, with
    ``dvoid``/``pvoid`` the suits shown out of (a defender: the declarer's and the other defender's; the
    declarer: the two defenders')."""
    hand = cards(*hand)
    trick = cards(*trick_cards)
    led = card(trick_cards[0]) if trick_cards else -1
    played = trick | cards(*played_before)
    legal = legal_plays(hand, -1 if led < 0 else led >> 4, trump)
    args = (hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, _lane(*dvoid), _lane(*pvoid),
            IDENTITY)
    return S.heuristic_play_voids(*args), S.heuristic_play_voids_v7(*args)


def test_the_declarer_second_to_play_ruffs_low_when_the_third_hand_follows():
    # spades trump, a defender leads the C9; the declarer, out of clubs, holds the SA (the master) and the S9.
    # No defender has shown out of clubs, so the third hand must follow and cannot overruff: the S9 wins
    # as surely and the SA stays; v7 ruffed with the master
    new, old = against_v7(["SA", "S9", "DJ"], ["C9"], SPADES, decl_pos=1)
    assert (new, old) == (card("S9"), card("SA"))
    # the third hand has shown out of clubs (and not of spades): he must ruff and may overruff, so the master
    new, old = against_v7(["SA", "S9", "DJ"], ["C9"], SPADES, decl_pos=1, pvoid=[CLUBS])
    assert new == old == card("SA")
    # ... unless he has shown out of spades too: he cannot ruff
    new, old = against_v7(["SA", "S9", "DJ"], ["C9"], SPADES, decl_pos=1, pvoid=[CLUBS, SPADES])
    assert (new, old) == (card("S9"), card("SA"))


def test_a_defender_leads_his_lowest_trump_while_trumps_are_out():
    # hearts trump, trumps out (the HA, HT among them): the defender holds the CA, a side master, and the H9 and
    # HK.  He leads the H9, which takes a trump from the declarer; v7 cashed the CA first
    new, old = against_v7(["CA", "H9", "HK", "DJ"], [], HEARTS, is_decl=False, decl_pos=1)
    assert (new, old) == (card("H9"), card("CA"))
    # no trump out any more (the defender holds the last ones): he cashes the CA as before
    played = ["HA", "HT", "HQ", "HJ"]
    new, old = against_v7(["CA", "H9", "HK", "DJ"], [], HEARTS, played_before=played, is_decl=False, decl_pos=1)
    assert new == old == card("CA")
    # in no-trump there is no trump to lead
    new, old = against_v7(["CA", "H9", "HK", "DJ"], [], NT, is_decl=False, decl_pos=1)
    assert new == old == card("CA")


# ---- issue 47's third rules (found with pimc as oracle on 200 deals of seed 47 played by heuristic_v8's card play):
# heuristic against heuristic_v8, the play before them

def against_v8(hand, trick_cards, trump, played_before=(), is_decl=True, won_any=True, decl_pos=0, dvoid=(),
               pvoid=()):
    """(heuristic's card, heuristic_v8's card) for the seat holding ``hand``, as :func:`against_v7`."""
    hand = cards(*hand)
    trick = cards(*trick_cards)
    led = card(trick_cards[0]) if trick_cards else -1
    played = trick | cards(*played_before)
    legal = legal_plays(hand, -1 if led < 0 else led >> 4, trump)
    args = (hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, _lane(*dvoid), _lane(*pvoid),
            IDENTITY)
    return S.heuristic_play_voids(*args), S.heuristic_play_voids_v8(*args)


def test_the_declarer_last_to_play_wins_with_his_lowest_winner_outside_his_marriage():
    # clubs trump, the defenders lead the C9 and follow with the CJ; last to play, he holds CQ CK CT CA. The CT wins
    # as surely and keeps the marriage (40) to declare on his next lead; v8 won with its lowest winner, the CQ
    new, old = against_v8(["SQ", "HA", "DT", "DA", "CQ", "CK", "CT", "CA"], ["C9", "CJ"], CLUBS, won_any=False,
                          decl_pos=2)
    assert (new, old) == (card("CT"), card("CQ"))
    # without the marriage the lowest winner, as before
    new, old = against_v8(["SQ", "HA", "DT", "DA", "CQ", "CJ", "CT", "CA"], ["C9", "CK"], CLUBS, won_any=False,
                          decl_pos=2)
    assert new == old == card("CT")

    # a side suit the same way: on S9 SJ with SQ SK SA (hearts trump) the SA wins and keeps the 20 of spades
    new, old = against_v8(["SQ", "SK", "SA", "DT", "HA"], ["S9", "SJ"], HEARTS, decl_pos=2)
    assert (new, old) == (card("SA"), card("SQ"))
    # when his only winners are the marriage's K and Q, the lowest of them, as before
    new, old = against_v8(["SQ", "SK", "DT", "HA"], ["S9", "SJ"], HEARTS, decl_pos=2)
    assert new == old == card("SQ")


# ---- issue 47's fourth rules (found with pimc as oracle on 150 deals of seed 47 played by heuristic_v9's card play):
# heuristic against heuristic_v9, the play before them

def against_v9(hand, trick_cards, trump, played_before=(), is_decl=True, won_any=True, decl_pos=0, dvoid=(),
               pvoid=()):
    """(heuristic's card, heuristic_v9's card) for the seat holding ``hand``, as :func:`against_v7`."""
    hand = cards(*hand)
    trick = cards(*trick_cards)
    led = card(trick_cards[0]) if trick_cards else -1
    played = trick | cards(*played_before)
    legal = legal_plays(hand, -1 if led < 0 else led >> 4, trump)
    args = (hand, legal, trick, led, trump, played, is_decl, won_any, decl_pos, _lane(*dvoid), _lane(*pvoid),
            IDENTITY)
    return S.heuristic_play_voids(*args), S.heuristic_play_voids_v9(*args)


def test_the_declarer_cashes_the_master_of_his_marriage_suit_before_declaring_it():
    # clubs trump, the CT unseen: the CK does not win, so v9 declared with the CQ and gave the lead (and the CT
    # or the CA's trick) to the defenders; he leads the CA, wins, and declares on his next lead
    new, old = against_v9(["CJ", "CQ", "CK", "CA", "DK"], [], CLUBS)
    assert (new, old) == (card("CA"), card("CQ") + DECLARE_FLAG)
    # a side marriage the same way: spades K-Q with the SA, diamonds trump
    new, old = against_v9(["SQ", "SK", "SA", "CA", "DQ"], [], DIAMONDS)
    assert (new, old) == (card("SA"), card("SQ") + DECLARE_FLAG)
    # with the CA and CT gone the CK wins the trick it declares: declared at once, as before
    new, old = against_v9(["C9", "CQ", "CK", "DK"], [], CLUBS, played_before=["CA", "CT", "S9", "SJ", "D9", "DJ"])
    assert new == old == card("CK") + DECLARE_FLAG
    # no master in the suit: declared with the Q, as before
    new, old = against_v9(["CJ", "CQ", "CK", "DA"], [], CLUBS)
    assert new == old == card("CQ") + DECLARE_FLAG


def test_a_defender_leads_his_master_trump_before_his_low_trumps():
    # hearts trump, trumps out: he holds the HK and the HA (a master); v9 led the HK, his lowest trump, which the
    # declarer's HT may win
    new, old = against_v9(["ST", "CQ", "CK", "HK", "HA"], [], HEARTS, is_decl=False, decl_pos=1)
    assert (new, old) == (card("HA"), card("HK"))
    # the HT is a master once the HA is gone
    new, old = against_v9(["ST", "CQ", "H9", "HT"], [], HEARTS, played_before=["HA", "S9", "SJ"], is_decl=False,
                          decl_pos=1)
    assert (new, old) == (card("HT"), card("H9"))
    # no master trump: the lowest trump, as before
    new, old = against_v9(["ST", "CQ", "HJ", "HK"], [], HEARTS, is_decl=False, decl_pos=1)
    assert new == old == card("HJ")
