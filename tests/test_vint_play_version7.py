"""Vint card-play version 7 (the default): the declarer's partner leads no suit the declarer has shown out
of for him to ruff, nor as his longest side suit while another will do (``PLAY_NO_LONG_RUFF``), the
declaring side leaves partner's winning card that the last hand can neither follow nor ruff
(``PLAY_SAFE_WINNER``), and at no-trump third hand finesses while four or more cards of the suit are
unseen (``PLAY_NT_FINESSE``; cardsim/games/vint/strategies.py), on hand-made positions against version 6
(``heuristic_v10``), through the engine's dispatch as ``heuristic`` plays them."""
import numpy as np

from cardsim.games.vint import dispatch as D
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import NT, trick_winner

from test_vint_play import (CLUBS, HEARTS, SPADES, bid_suits, card, cards, heuristic_setup, trick_of,
                            void_bits)


def choose(hand, seat, declarer, trump, level, version, trick_cards=(), played=(), voids=0):
    """The card ``seat`` plays to ``trick_cards`` (none: he leads) with card-play ``version`` in
    ``declarer``'s contract (``level`` of ``trump``, the declarer the only bidder); ``voids``: the
    engine's bits of suits shown out of (:func:`test_vint_play.void_bits`)."""
    calls, ncalls, params, record = heuristic_setup(version, (declarer, level, trump), declarer=declarer)
    trick = trick_of(trick_cards)
    n = len(trick_cards)
    winner = int(trick_winner(trick, n, trump)) if n else 0
    leader = (seat + 4 - n) % 4
    seen = int(cards(*played)) | int(cards(*trick_cards))
    return int(D.choose_card(S.HEURISTIC, params, np.zeros((5, 1), dtype=np.uint64), seat, hand, declarer, trump,
                             leader, trick, n, np.uint64(seen), bid_suits(calls, ncalls, declarer), np.int64(voids),
                             np.int64(winner), record))


def test_declarers_partner_leads_no_suit_for_a_ruff_in_the_declarers_hand():
    # 2S by seat 0; the declarer has shown out of clubs (the CA, CK, CQ gone), neither opponent has.
    # Version 6's partner (seat 2) leads his low club for the declarer to ruff; version 7 leads his
    # longest side suit instead (low from D-8-6-4-2): a ruff in the long trump hand wins no trick.
    hand = cards("S5", "S3", "C9", "C4", "D8", "D6", "D4", "D2", "H7", "H5", "H3")
    played = ("CA", "CK", "CQ", "H2")
    voids = void_bits((0, CLUBS))
    assert choose(hand, 2, 0, SPADES, 2, 6, played=played, voids=voids) == card("C4")
    assert choose(hand, 2, 0, SPADES, 2, 7, played=played, voids=voids) == card("D2")
    # Nor as his longest side suit while another will do: with four clubs he leads the hearts (low).
    hand = cards("S5", "S3", "C9", "C8", "C6", "C4", "D8", "D6", "H7", "H5", "H3")
    assert choose(hand, 2, 0, SPADES, 2, 6, played=played, voids=voids) == card("C4")
    assert choose(hand, 2, 0, SPADES, 2, 7, played=played, voids=voids) == card("H3")
    # With no other side suit, a club all the same.
    hand = cards("S5", "S3", "C9", "C8", "C6", "C4")
    assert choose(hand, 2, 0, SPADES, 2, 7, played=played, voids=voids) == card("C4")
    # The declarer still leads a suit his partner has shown out of, for the ruff in the short hand.
    declarer = cards("SA", "SK", "SQ", "SJ", "C9", "C4", "D8", "H7", "H5")
    voids = void_bits((2, CLUBS))
    assert choose(declarer, 0, 0, SPADES, 2, 7, played=played, voids=voids) == card("C4")


# Spades trumps, the declarer seat 0 third to play, void in clubs, to partner's (seat 2) CT over the C2;
# the CK, CQ, CJ are unseen, so the CT is no sure winner, and the declarer holds no side singleton.
HAND = cards("SK", "SQ", "S4", "H9", "H8", "H7", "DJ", "DT", "D5")
TRICK = ("CT", "C2")
PLAYED = ("CA", "C3", "C4", "C5")


def test_the_declaring_side_leaves_partners_card_that_nobody_can_beat():
    # The last hand (seat 1) has shown out of clubs and of spades: version 6 ruffs partner's CT with
    # the S4, version 7 discards (from its shortest side suit, version 5's discard: the D5).
    voids = void_bits((1, CLUBS), (1, SPADES))
    assert choose(HAND, 0, 0, SPADES, 4, 6, TRICK, PLAYED, voids) == card("S4")
    assert choose(HAND, 0, 0, SPADES, 4, 7, TRICK, PLAYED, voids) == card("D5")
    # The last hand out of clubs but perhaps not of spades: he may ruff, so version 7 ruffs as before.
    voids = void_bits((1, CLUBS))
    assert choose(HAND, 0, 0, SPADES, 4, 7, TRICK, PLAYED, voids) == card("S4")
    # The last hand not shown out of clubs: he may hold the CK, as before.
    assert choose(HAND, 0, 0, SPADES, 4, 7, TRICK, PLAYED, void_bits((1, SPADES))) == card("S4")


# No-trump by seat 0; partner (seat 2) leads the C3, seat 3 plays the C5; the declarer third to play
# holds C-A-Q-4 with the CK unseen.
NT_HAND = cards("CA", "CQ", "C4", "SK", "S7", "H9", "H6", "DJ", "D5")
NT_TRICK = ("C3", "C5")


def test_at_no_trump_third_hand_finesses_while_four_or_more_cards_are_unseen():
    # Eight clubs unseen: version 6 plays the CA (third hand high), version 7 the CQ: it wins if seat 3
    # holds the CK, and the CA still wins later if seat 1 does.
    assert choose(NT_HAND, 0, 0, NT, 3, 6, NT_TRICK) == card("CA")
    assert choose(NT_HAND, 0, 0, NT, 3, 7, NT_TRICK) == card("CQ")
    # Three clubs unseen (the CT, CJ, CK): the CK may fall under the CA, so version 7 plays it too.
    played = ("C2", "C6", "C7", "C8", "C9")
    assert choose(NT_HAND, 0, 0, NT, 3, 7, NT_TRICK, played) == card("CA")
    # Four unseen (the C9 back among them): the finesse.
    assert choose(NT_HAND, 0, 0, NT, 3, 7, NT_TRICK, played[:-1]) == card("CQ")
    # In a suit contract (hearts trumps) the master is taken as before: the CA could be ruffed later.
    assert choose(NT_HAND, 0, 0, HEARTS, 3, 7, NT_TRICK) == card("CA")
    # No card between the two (A-K-4): nothing to finesse against, the cheapest sure card, the CK.
    hand = cards("CA", "CK", "C4", "SK", "S7", "H9", "H6", "DJ", "D5")
    assert choose(hand, 0, 0, NT, 3, 7, NT_TRICK) == card("CK")


def test_the_defence_plays_as_before():
    # Seat 1 a defender (declarer seat 0 in 3NT / 4S), in the same positions: versions 6 and 7 agree.
    assert choose(NT_HAND, 1, 0, NT, 3, 7, NT_TRICK) == choose(NT_HAND, 1, 0, NT, 3, 6, NT_TRICK) == card("CA")
    voids = void_bits((2, CLUBS), (2, SPADES))
    assert choose(HAND, 1, 0, SPADES, 4, 7, TRICK, PLAYED, voids) == \
        choose(HAND, 1, 0, SPADES, 4, 6, TRICK, PLAYED, voids)
    hand = cards("S5", "S3", "C9", "C4", "D8", "D6", "D4", "D2", "H7", "H5", "H3")
    voids = void_bits((3, CLUBS))
    assert choose(hand, 1, 0, SPADES, 2, 7, played=("CA", "CK", "CQ", "H2"), voids=voids) == \
        choose(hand, 1, 0, SPADES, 2, 6, played=("CA", "CK", "CQ", "H2"), voids=voids)


def test_version_7_is_the_default_and_version_6_stays_reachable():
    new = S.PLAY_NO_LONG_RUFF | S.PLAY_SAFE_WINNER | S.PLAY_NT_FINESSE
    assert S.PLAY_FLAGS[7] == S.PLAY_FLAGS[6] | new and not S.PLAY_FLAGS[6] & new
    assert int(S.play_flags(7.0)) == S.PLAY_FLAGS[7] and int(S.play_flags(6.0)) == S.PLAY_FLAGS[6]
    assert int(S.PLAY_DEFAULT) == S.PLAY_FLAGS[7]
    assert S.REGISTRY["heuristic"].params["play"] == 7.0 and S.REGISTRY["heuristic_v10"].params["play"] == 6.0
    assert {k: v for k, v in S.REGISTRY["heuristic_v10"].params.items() if k != "play"} == \
        {k: v for k, v in S.REGISTRY["heuristic"].params.items() if k != "play"}
