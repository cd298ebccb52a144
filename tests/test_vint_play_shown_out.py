"""Vint card-play version 6 (kept in version 7, the default): the declaring side second or third to play, following suit,
when the opponent still to play has shown out of the led suit (cardsim/games/vint/strategies.py
``PLAY_SHOWN_OUT_THIRD``, ``PLAY_SHOWN_OUT_SECOND``), on hand-made positions against version 5
(``heuristic_v9``), through the engine's dispatch as ``heuristic`` plays them."""
import numpy as np

from cardsim.games.vint import dispatch as D
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import NT

from test_vint_play import CLUBS, SPADES, bid_suits, card, cards, heuristic_setup, trick_of


def follow(hand, seat, declarer, trump, version, trick_cards, played=(), shown_out=()):
    """The card ``seat`` plays to ``trick_cards`` with card-play ``version`` in ``declarer``'s
    contract (4 of ``trump``, the declarer the only bidder); ``shown_out``: (seat, suit) pairs of
    suits a seat has not followed."""
    calls, ncalls, params, record = heuristic_setup(version, (declarer, 4, trump), declarer=declarer)
    trick = trick_of(trick_cards)
    winner = max(range(len(trick_cards)), key=lambda i: (trick[i] >> 4 == trick[0] >> 4, trick[i]))
    voids = sum(1 << (4 * s + suit) for s, suit in shown_out)
    leader = (seat + 4 - len(trick_cards)) % 4
    seen = int(cards(*played)) | int(cards(*trick_cards))
    return int(D.choose_card(S.HEURISTIC, params, np.zeros((5, 1), dtype=np.uint64), seat, hand, declarer, trump,
                             leader, trick, len(trick_cards), np.uint64(seen), bid_suits(calls, ncalls, declarer),
                             np.int64(voids), np.int64(winner), record))


# Spades trumps, the declarer seat 0; the CA is gone; seat 1, the last hand to a trick partner (seat 2)
# leads, has shown out of clubs.
HAND = cards("SK", "SQ", "S4", "CK", "CJ", "C4", "H9", "H8", "D5", "DJ")
PLAYED = ("CA", "C7", "C8", "D2")
OUT = ((1, CLUBS),)


def test_third_hand_leaves_partners_card_when_the_last_hand_is_out_of_the_suit():
    # Partner's CT holds the trick, the CQ unseen: version 5 overtakes with the CK (third hand high,
    # the cheapest card above every unseen club); version 6 plays low, the C4: the last hand can beat
    # the CT only by a ruff, which the CK does not stop.
    assert follow(HAND, 0, 0, SPADES, 5, ("CT", "C2"), PLAYED, OUT) == card("CK")
    assert follow(HAND, 0, 0, SPADES, 6, ("CT", "C2"), PLAYED, OUT) == card("C4")
    # Nobody shown out of clubs: version 6 plays as version 5.
    assert follow(HAND, 0, 0, SPADES, 6, ("CT", "C2"), PLAYED) == card("CK")


def test_third_hand_wins_as_cheaply_as_it_can_when_the_last_hand_is_out():
    # Partner led the C3, the defender second played the CT: version 5 takes with the CK (the cheapest
    # card above the unseen CQ), version 6 with the CJ: the CQ cannot be played to this trick.
    assert follow(HAND, 0, 0, SPADES, 5, ("C3", "CT"), PLAYED, OUT) == card("CK")
    assert follow(HAND, 0, 0, SPADES, 6, ("C3", "CT"), PLAYED, OUT) == card("CJ")
    # At no-trump too (the rule reads no trump suit).
    assert follow(HAND, 0, 0, NT, 6, ("C3", "CT"), PLAYED, OUT) == card("CJ")


def test_second_hand_beats_the_lead_cheaply_when_the_next_opponent_is_out():
    # Seat 3 leads the C9; the declarer (seat 0) holds CA-J-4, the CK and CQ unseen; seat 1, third to
    # play, has shown out of clubs, so the unseen clubs are partner's. Version 5 takes with the
    # master (the CA), version 6 with the CJ, the cheapest card that beats the C9.
    hand = cards("SK", "SQ", "CA", "CJ", "C4", "H9", "D5")
    played = ("C2", "C3", "D2", "D3")
    out = ((1, CLUBS),)
    assert follow(hand, 0, 0, SPADES, 5, ("C9",), played, out) == card("CA")
    assert follow(hand, 0, 0, SPADES, 6, ("C9",), played, out) == card("CJ")
    # Nothing that beats the lead (the CA led): its lowest, as before.
    assert follow(hand & ~cards("CA"), 0, 0, SPADES, 6, ("CA",), played, out) == card("C4")


def test_the_defence_plays_as_before():
    # Seat 1 a defender (declarer seat 0), third to play to partner's (seat 3) C3 over seat 0's CT, the
    # last hand (seat 2) out of clubs: versions 5 and 6 agree, for second hand too.
    assert follow(HAND, 1, 0, SPADES, 6, ("C3", "CT"), PLAYED, ((2, CLUBS),)) == \
        follow(HAND, 1, 0, SPADES, 5, ("C3", "CT"), PLAYED, ((2, CLUBS),))
    assert follow(HAND, 1, 0, SPADES, 6, ("C9",), PLAYED, ((2, CLUBS),)) == \
        follow(HAND, 1, 0, SPADES, 5, ("C9",), PLAYED, ((2, CLUBS),))


def test_version_6_stays_reachable_and_version_5_too():
    # Version 7 is the default since (tests/test_vint_play_version7.py); version 6 is heuristic_v10's play.
    assert S.PLAY_FLAGS[6] == S.PLAY_FLAGS[5] | S.PLAY_SHOWN_OUT_THIRD | S.PLAY_SHOWN_OUT_SECOND
    assert not S.PLAY_FLAGS[5] & (S.PLAY_SHOWN_OUT_THIRD | S.PLAY_SHOWN_OUT_SECOND)
    assert int(S.play_flags(6.0)) == S.PLAY_FLAGS[6] and S.PLAY_FLAGS[7] & S.PLAY_FLAGS[6] == S.PLAY_FLAGS[6]
    assert S.REGISTRY["heuristic_v10"].params["play"] == 6.0 and S.REGISTRY["heuristic_v9"].params["play"] == 5.0
