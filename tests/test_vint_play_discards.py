"""Vint card-play version 5 (issue 47, kept in version 6, the default): the declaring side's discards in a suit
contract (cardsim/games/vint/strategies.py ``_discard_short``, ``PLAY_SINGLETON_DISCARD``), on hand-made positions against
version 4 (``heuristic_v8``), through the engine's dispatch as ``heuristic`` plays them."""
import numpy as np

from cardsim.games.vint import dispatch as D
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import NT

from test_vint_play import DIAMONDS, SPADES, bid_suits, card, cards, heuristic_setup, trick_of


def third_hand(hand, seat, declarer, trump, version, bids, trick_cards, played=()):
    """The card ``seat`` plays third to ``trick_cards`` (led by his partner) with card-play
    ``version`` after the auction ``bids`` ((seat, level, denomination), the last the contract's)."""
    calls, ncalls, params, record = heuristic_setup(version, *bids, declarer=declarer)
    trick = trick_of(trick_cards)
    leader = (seat + 4 - len(trick_cards)) % 4
    seen = int(cards(*played)) | int(cards(*trick_cards))
    # The card winning so far: the leader's ace of the led suit in these positions.
    return int(D.choose_card(S.HEURISTIC, params, np.zeros((5, 1), dtype=np.uint64), seat, hand, declarer, trump,
                             leader, trick, len(trick_cards), np.uint64(seen), bid_suits(calls, ncalls, declarer),
                             np.int64(0), np.int64(0), record))


# The declarer (seat 0, spades trumps) is void in clubs; his partner leads the master AC and the
# defender second plays low: the declarer does not ruff partner's sure winner, he discards.
HAND = cards("SK", "SQ", "S4", "H9", "H8", "H7", "H3", "D5", "DJ", "DT")
CONTRACT = ((0, 4, SPADES),)
TRICK = ("CA", "C2")


def test_the_declaring_side_discards_from_its_shortest_side_suit():
    # Version 4 discards the lowest worthless card (the H3 of four hearts); version 5 a diamond, the
    # shorter suit (three cards against four), towards a void to ruff in: its lowest, the D5.
    assert third_hand(HAND, 0, 0, SPADES, 4, CONTRACT, TRICK) == card("H3")
    assert third_hand(HAND, 0, 0, SPADES, 5, CONTRACT, TRICK) == card("D5")
    # Length first, rank second: the doubleton D-J-T goes before three low hearts (version 4: the H3).
    hand = cards("SK", "SQ", "S4", "H9", "H8", "H3", "DJ", "DT")
    assert third_hand(hand, 0, 0, SPADES, 4, CONTRACT, TRICK) == card("H3")
    assert third_hand(hand, 0, 0, SPADES, 5, CONTRACT, TRICK) == card("DT")


def test_it_keeps_the_suit_partner_bid_and_a_suit_headed_by_a_master():
    # Partner (seat 2) bid diamonds first: his length; version 5 discards from the hearts instead.
    bids = ((2, 1, DIAMONDS), (0, 4, SPADES))
    assert third_hand(HAND, 0, 0, SPADES, 5, bids, TRICK) == card("H3")
    # Diamonds headed by the ace (a master): kept, so again the H3.
    hand = cards("SK", "SQ", "S4", "H9", "H8", "H7", "H3", "D5", "DA", "DT")
    assert third_hand(hand, 0, 0, SPADES, 5, CONTRACT, TRICK) == card("H3")


def test_no_change_without_a_trump_at_no_trump_or_in_defence():
    # No trump left in hand: nothing to ruff with later, version 4's discard (the H3).
    no_trumps = cards("H9", "H8", "H7", "H3", "D5", "DJ", "DT", "D9", "D8", "D7")
    assert third_hand(no_trumps, 0, 0, SPADES, 5, CONTRACT, TRICK) == \
        third_hand(no_trumps, 0, 0, SPADES, 4, CONTRACT, TRICK)
    # At no-trump (the spades are a side suit here) and for a defender (seat 1, partner of the
    # seat 3 leader): version 4's card.
    for seat, declarer, trump, contract in ((0, 0, NT, ((0, 3, NT),)), (1, 0, SPADES, CONTRACT)):
        assert third_hand(HAND, seat, declarer, trump, 5, contract, TRICK) == \
            third_hand(HAND, seat, declarer, trump, 4, contract, TRICK)
    assert S.PLAY_FLAGS[5] == S.PLAY_FLAGS[4] | S.PLAY_DISCARD_SHORT | S.PLAY_SINGLETON_DISCARD
    assert not S.PLAY_FLAGS[4] & S.PLAY_DISCARD_SHORT
    assert int(S.play_flags(5.0)) == S.PLAY_FLAGS[5] and S.PLAY_DEFAULT & S.PLAY_FLAGS[5] == S.PLAY_FLAGS[5]
    assert S.REGISTRY["heuristic_v9"].params["play"] == 5.0 and S.REGISTRY["heuristic_v8"].params["play"] == 4.0


def test_third_hand_discards_a_singleton_rather_than_ruff_partners_low_card():
    # Partner (seat 2) leads the C5 (higher clubs unseen), the defender plays the C2; the declarer,
    # void in clubs, holds the singleton D5. Version 4 ruffs partner's low card (the S4); version 5
    # discards the D5, a void for a ruff later, while partner may well hold the trick.
    hand = cards("SK", "SQ", "S4", "H9", "H8", "H7", "H3", "D5", "HT", "HJ")
    assert third_hand(hand, 0, 0, SPADES, 4, CONTRACT, ("C5", "C2")) == card("S4")
    assert third_hand(hand, 0, 0, SPADES, 5, CONTRACT, ("C5", "C2")) == card("D5")
    # No singleton (D5-D4), or a singleton master (the DA): it ruffs as before.
    for other in (cards("D4"), np.uint64(0)):
        h = hand | other if other else (hand & ~cards("D5")) | cards("DA")
        assert third_hand(h, 0, 0, SPADES, 5, CONTRACT, ("C5", "C2")) == card("S4")
    # A defender third to play (seat 1, his partner seat 3 leads) ruffs as version 4 does.
    assert third_hand(hand, 1, 0, SPADES, 5, CONTRACT, ("C5", "C2")) == \
        third_hand(hand, 1, 0, SPADES, 4, CONTRACT, ("C5", "C2"))
    assert S.PLAY_FLAGS[5] & S.PLAY_SINGLETON_DISCARD and not S.PLAY_FLAGS[4] & S.PLAY_SINGLETON_DISCARD
