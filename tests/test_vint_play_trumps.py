"""Vint card-play version 4 (issue 47, the default): the declaring side's trump leads, each rule on
a hand-made position against version 3 (``heuristic_v6``), and the contract's level as the rules
read it (cardsim/games/vint/strategies.py ``with_level``, docs/strategy-quality.md)."""
import numpy as np

from cardsim.games.vint import dispatch as D
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import PASS

from test_vint_play import HEARTS, SPADES, auction, bid_suits, card, cards, heuristic_setup, trick_of


def lead(hand, seat, declarer, trump, level, version, played=(), voids=0):
    """The card ``seat`` leads with card-play ``version`` in ``declarer``'s contract of ``level`` in
    ``trump`` (the declarer the only bidder), through the engine's dispatch as ``heuristic``
    plays it, with the auction's record (the level read from it)."""
    calls, ncalls, params, record = heuristic_setup(version, (declarer, level, trump), declarer=declarer)
    trick = trick_of(())
    return int(D.choose_card(S.HEURISTIC, params, np.zeros((5, 1), dtype=np.uint64), seat, hand, declarer, trump,
                             seat, trick, 0, cards(*played), bid_suits(calls, ncalls, declarer), np.int64(voids),
                             np.int64(0), record))


def test_with_level_reads_the_last_bid():
    calls, n = auction((1, 1, SPADES), (2, 2, HEARTS), (1, 5, SPADES), declarer=1)
    flags = S.with_level(np.int64(S.PLAY_FLAGS[4]), calls, n)
    assert flags >> S.PLAY_LEVEL_SHIFT == 5 and flags & ((1 << S.PLAY_LEVEL_SHIFT) - 1) == S.PLAY_FLAGS[4]
    # Fewer closing passes than a finished auction has: the last bid is still found.
    assert S.with_level(np.int64(0), calls, n - 10) >> S.PLAY_LEVEL_SHIFT == 5
    # No bid (a view outside a deal): the flags unchanged, so no level rule fires.
    assert S.with_level(np.int64(S.PLAY_FLAGS[4]), np.full(8, PASS, dtype=np.int64), 8) == S.PLAY_FLAGS[4]
    assert S.PLAY_FLAGS[4] & S.PLAY_HIGH and not S.PLAY_FLAGS[3] & (S.PLAY_HIGH | S.PLAY_TRUMPS_LAST)
    assert int(S.play_flags(4.0)) == S.PLAY_FLAGS[4] and int(S.play_flags(3.0)) == S.PLAY_FLAGS[3]


def test_declarer_keeps_his_trumps_while_none_is_unseen():
    # Hearts trumps, every heart but the declarer's A-5 played: version 3 cashed a trump (the H5,
    # as good as the ace: the master of his shortest suit); version 4 keeps them and leads his long
    # diamonds (low), at any level.
    others_hearts = [f"H{r}" for r in "2346789TJQK"]
    hand = cards("HA", "H5", "SK", "S4", "D9", "D7", "D6")
    for level in (1, 4):
        assert lead(hand, 0, 0, HEARTS, level, 3, played=others_hearts) == card("H5")
        assert lead(hand, 0, 0, HEARTS, level, 4, played=others_hearts) == card("D6")
    # A trump still unseen: he draws it with the ace, as before.
    assert lead(hand, 0, 0, HEARTS, 4, 4, played=others_hearts[:-1]) == card("HA")


def test_declarers_partner_draws_trumps_from_two_in_a_high_contract():
    # Spades trumps, none played; the declarer's partner (seat 2) holds S8-S3 and the HA. Version 3
    # (and version 4 below level 4) cashes the ace, which an outstanding trump may ruff; at level 4
    # he leads his lowest trump.
    hand = cards("S8", "S3", "HA", "H7", "D9", "D4", "C6")
    assert lead(hand, 2, 0, SPADES, 4, 3) == card("HA")
    assert lead(hand, 2, 0, SPADES, 3, 4) == card("HA")
    assert lead(hand, 2, 0, SPADES, 4, 4) == card("S3")
    assert lead(hand, 2, 0, SPADES, 6, 4) == card("S3")
    # Four trumps or fewer unseen (seven played): the side master again.
    played = ("S2", "S4", "S5", "S6", "S7", "S9", "ST")
    assert lead(hand, 2, 0, SPADES, 4, 4, played=played) == card("HA")
    # A defender on lead is unchanged.
    assert lead(hand, 1, 0, SPADES, 4, 4) == lead(hand, 1, 0, SPADES, 4, 3)


def test_declarer_keeps_low_trumps_when_two_are_unseen_in_a_high_contract():
    # Spades trumps; the SA and SK are the only trumps unseen; the declarer holds Q-8-5-3. Version 3
    # led low (the S3), drawing what may be partner's trumps; at level 5 version 4 leads the top of
    # his heart doubleton.
    played = ("S2", "S4", "S6", "S7", "S9", "ST", "SJ")
    hand = cards("SQ", "S8", "S5", "S3", "HK", "H7", "D4")
    assert lead(hand, 0, 0, SPADES, 5, 3, played=played) == card("S3")
    assert lead(hand, 0, 0, SPADES, 3, 4, played=played) == card("S3")
    assert lead(hand, 0, 0, SPADES, 5, 4, played=played) == card("HK")
    # Three unseen (the SJ too): he still draws.
    assert lead(hand, 0, 0, SPADES, 5, 4, played=played[:-1]) == card("S3")


def test_heuristic_card_outside_a_deal_reads_no_level():
    # heuristic_card (no auction) plays version 4 without the level rules: the partner of the
    # second test cashes his ace.
    hand = cards("S8", "S3", "HA", "H7", "D9", "D4", "C6")
    calls, n = auction((0, 4, SPADES), declarer=0)
    trick = np.zeros(4, dtype=np.int64)
    assert S.heuristic_card(hand, 2, 0, SPADES, 2, trick, 0, np.uint64(0), bid_suits(calls, n, 0), 0) == card("HA")
