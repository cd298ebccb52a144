"""Vint's default card play (cardsim/games/vint/strategies.py heuristic_card, issue 12) on
hand-made positions, each checked against what heuristic_v1 (the old default) does there."""
import numpy as np

from cardsim.games.vint import dispatch as D
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import LED_SHIFT, NT, PASS, beats, bid_call, first_bid_suits, trick_winner

SUITS = "SCDH"
RANKS = "23456789TJQKA"
SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


def card(text):
    """'HK' -> the card index of the king of hearts (suit lane 16·s + rank)."""
    return SUITS.index(text[0]) * 16 + RANKS.index(text[1])


def cards(*texts):
    """uint64 bit set of the cards named, e.g. cards('HK', 'H4')."""
    out = 0
    for t in texts:
        out |= 1 << card(t)
    return np.uint64(out)


def auction(*bids, declarer):
    """calls (int64[64]) and ncalls of an auction: ``bids`` as (seat, level, denomination) in order,
    the last by ``declarer``, passes in between, 12 closing passes; the dealer is the first bidder."""
    calls = np.zeros(64, dtype=np.int64)
    n = 0
    seat = bids[0][0]
    for who, level, den in bids:
        while seat != who:
            calls[n] = PASS
            n += 1
            seat = (seat + 1) % 4
        calls[n] = bid_call(level, den)
        n += 1
        seat = (seat + 1) % 4
    assert bids[-1][0] == declarer
    return calls, n + 12



def heuristic_setup(version, *bids, declarer):
    """What the engine's dispatch reads for ``heuristic`` with card-play ``version`` after the
    auction ``bids`` (as :func:`auction`): calls, ncalls, the four seats' parameters (float64[4, N])
    and the auction's record with the calls in it."""
    calls, ncalls = auction(*bids, declarer=declarer)
    params = np.tile(S.REGISTRY.resolve("heuristic")[1], (4, 1))
    params[:, S.P_PLAY] = version
    record = D.unread_auction(params)
    return calls, ncalls, params, record[:2] + (calls, np.int64(ncalls)) + record[4:]


def trick_of(trick_cards):
    """The trick so far as the engine holds it: int64[4], the cards in playing order, zeros after."""
    trick = np.zeros(4, dtype=np.int64)
    for i, t in enumerate(trick_cards):
        trick[i] = card(t)
    return trick

def play(hand, seat, declarer, trump, leader, trick_cards, played=(), calls=None, voids=0):
    trick = np.zeros(4, dtype=np.int64)
    for i, t in enumerate(trick_cards):
        trick[i] = card(t)
    seen = int(cards(*played)) | int(cards(*trick_cards))
    if calls is None:
        calls = auction((declarer, 1, trump), declarer=declarer)
    new = S.heuristic_card(hand, seat, declarer, trump, leader, trick, len(trick_cards), np.uint64(seen),
                           bid_suits(*calls, declarer), voids)
    old = S.heuristic_card_v1(hand, seat, declarer, trump, leader, trick, len(trick_cards), np.uint64(seen))
    return new, old


def bid_suits(calls, ncalls, declarer):
    out = np.zeros(4, dtype=np.int64)
    first_bid_suits(calls, ncalls, declarer, out)
    return out


def test_first_bid_suits_reads_who_bid_from_the_declarers_last_bid():
    assert list(bid_suits(*auction((0, 1, SPADES), (3, 1, DIAMONDS), (0, 2, SPADES), declarer=0), 0)) == \
        [SPADES, -1, -1, DIAMONDS]
    # A no-trump bid names no suit; partner's later suit counts; the auction may start with passes.
    calls, n = auction((1, 1, NT), (3, 2, CLUBS), (1, 2, HEARTS), declarer=1)
    calls = np.concatenate([[PASS, PASS], calls[:-2]])
    assert list(bid_suits(calls, n + 2, 1)) == [-1, HEARTS, -1, CLUBS]


def test_defender_leads_partners_bid_suit():
    # Seat 3 bid diamonds; declarer 0 plays 2S; seat 1 leads the top of his diamond doubleton,
    # where the old play led low from its first longest suit (clubs).
    hand = cards("S5", "HK", "HJ", "H7", "H6", "H3", "D8", "D4", "C9", "C7", "C5", "C3", "C2")
    new, old = play(hand, 1, 0, SPADES, 1, [], calls=auction((0, 1, SPADES), (3, 1, DIAMONDS), (0, 2, SPADES),
                                                             declarer=0))
    assert new == card("D8")
    assert old == card("C2")


def test_third_hand_plays_high_when_partners_card_is_not_sure():
    # Partner (seat 1) led the H4, second hand played the H2: partner wins for now, but the
    # fourth hand may hold the queen.  Third hand plays the king (cheapest card beating every
    # unseen heart); the old play ducked with the H3.
    hand = cards("HA", "HK", "H3", "S2", "C2")
    new, old = play(hand, 3, 0, NT, 1, ["H4", "H2"])
    assert new == card("HK")
    assert old == card("H3")


def test_third_hand_plays_cheapest_of_equal_cards():
    # K-Q-5 third hand after a low lead, the ace unseen: the queen does what the king does.
    hand = cards("HK", "HQ", "H5", "S2")
    new, _ = play(hand, 3, 0, NT, 1, ["H4", "H2"])
    assert new == card("HQ")


def test_fourth_hand_does_not_overtake_partner():
    # Partner's king wins the trick; fourth hand holds the ace and keeps it.
    hand = cards("HA", "H3", "S2")
    new, old = play(hand, 0, 1, NT, 1, ["H4", "HK", "H5"])
    assert new == card("H3") == old


def test_no_ruff_of_partners_sure_winner():
    # Spades are trumps; partner (seat 1) cashes the HA, second hand plays low; third hand is void
    # in hearts: the old play ruffed only when partner was not winning, but the new one also
    # discards when partner's card is the master and leaves the trump at home.
    hand = cards("S3", "D9", "D2", "C7")
    new, _ = play(hand, 3, 0, SPADES, 1, ["HA", "H5"])
    assert new == card("D2")


def test_ruffs_partners_card_when_it_can_be_beaten():
    # The declarer (seat 1) led the H8 and higher hearts are unseen: his partner, third hand and
    # void in hearts, ruffs (a defender would leave it: test_third_hand_void_leaves_partners_winning_card).
    hand = cards("S3", "D9", "D2", "C7", "C6")
    new, old = play(hand, 3, 1, SPADES, 1, ["H8", "H5"])
    assert new == card("S3")
    assert old == card("D2")
    # With a side singleton that is not a master (the C7) he discards it instead (card-play version
    # 5, issue 47: the void is a ruff later, and partner may well hold the trick).
    assert play(cards("S3", "D9", "D2", "C7"), 3, 1, SPADES, 1, ["H8", "H5"])[0] == card("C7")


def test_discard_keeps_a_winner():
    # Every club above the 3 has been played: the C3 is a winner.  The old play threw it (lowest
    # rank); the new one throws the D9.
    played = ["C" + r for r in RANKS[2:]]
    hand = cards("C3", "D9")
    new, old = play(hand, 2, 0, NT, 0, ["H4", "H6"], played=played)
    assert new == card("D9")
    assert old == card("C3")


def void_bits(*pairs):
    """``voids`` bits for (seat, suit) pairs: the seat has shown out of the suit."""
    out = 0
    for seat, suit in pairs:
        out |= 1 << (4 * seat + suit)
    return out


def test_declarer_does_not_lead_a_low_trump_from_two():
    # Declarer 0 at hearts with H7 H5 (the higher trumps unseen) leads his spade master instead
    # of giving up trump control (the old play led the low trump).
    hand = cards("H7", "H5", "SA", "S9", "S4", "D8", "D6", "D3")
    new, old = play(hand, 0, 0, HEARTS, 0, [], played=("H2", "H3", "H4", "H6", "C2", "C3", "C4", "C5", "C6",
                                                          "C7", "C8", "C9", "CT", "CJ", "CQ", "CK", "CA",
                                                          "S2", "S3", "S5"))
    assert new == card("SA")
    assert old == card("H5")


def test_declarer_stops_drawing_trumps_when_both_opponents_showed_out():
    # Both opponents (1, 3) have shown out of hearts; the unseen hearts are partner's: declarer
    # leads a side suit, not the master trump the old play (and the new without voids) draws.
    hand = cards("HA", "HK", "HQ", "D5", "S2")
    played = ("H2", "H3", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "CT", "CJ")
    new, old = play(hand, 0, 0, HEARTS, 0, [], played=played, voids=void_bits((1, HEARTS), (3, HEARTS)))
    assert new in (card("D5"), card("S2"))
    assert old == card("HA")
    assert play(hand, 0, 0, HEARTS, 0, [], played=played)[0] == card("HQ")


def test_declaring_side_leads_a_suit_partner_can_ruff():
    # Partner (seat 2) has shown out of clubs, not of trumps, and neither opponent has: the
    # declarer leads a low club for partner to ruff before drawing trumps.
    hand = cards("HA", "HK", "HQ", "H9", "CK", "C4", "D7")
    new, old = play(hand, 0, 0, HEARTS, 0, [], played=("CA", "CQ", "C2", "C3"), voids=void_bits((2, CLUBS)))
    assert new == card("C4")
    assert old == card("HA")


def test_declaring_side_second_hand_covers_only_with_a_master():
    # At no-trump a defender (seat 1) leads the HJ; declarer's partner (seat 2) holds K-5 with the
    # ace unseen: he plays low (the king may win later over the queen), where the old play covered.
    hand = cards("HK", "H5", "S2", "C3")
    new, old = play(hand, 2, 0, NT, 1, ["HJ"])
    assert new == card("H5")
    assert old == card("HK")
    # With the ace the cover is sure, and it is made.
    assert play(cards("HA", "H5", "S2"), 2, 0, NT, 1, ["HJ"])[0] == card("HA")
    # A defender still covers: the declarer led the HJ.
    assert play(hand, 1, 0, NT, 0, ["HJ"])[0] == card("HK")


def test_declaring_side_at_no_trump_keeps_a_short_ace():
    # Declarer at no-trump with A-4 of spades (spades unseen) and K-Q-J-5-3 of hearts: he sets up
    # his long suit (the cheapest of the K-Q-J), keeping the ace as an entry, where the old play
    # cashed the ace.
    hand = cards("SA", "S4", "HK", "HQ", "HJ", "H5", "H3", "D7", "D5", "D2", "C8", "C6", "C2")
    new, old = play(hand, 0, 0, NT, 0, [])
    assert new == card("HJ")
    assert old == card("SA")


def test_declaring_side_cashes_its_shortest_master_suit_first():
    # Declarer's partner (seat 2, hearts trumps) holds the masters of spades (five cards) and
    # diamonds (two): he cashes the short suit's ace, keeping the long suit's for control, where
    # the old play (and a defender) cashed the longest suit's.
    hand = cards("SA", "S7", "S6", "S5", "S4", "DA", "D3", "C2", "C5")
    new, old = play(hand, 2, 0, HEARTS, 2, [])
    assert new == card("DA")
    assert old == card("SA")
    assert play(hand, 1, 0, HEARTS, 1, [])[0] == card("SA")


def test_declarers_partner_leads_a_singleton_to_ruff():
    # Declarer's partner (seat 2, hearts trumps) with two trumps, no master and a singleton
    # diamond leads the diamond (to ruff the suit later), not low from his longest suit as the
    # declarer with the same hand does.
    hand = cards("H7", "H4", "SK", "S8", "S6", "S3", "D9", "CQ", "C8", "C5")
    new, old = play(hand, 2, 0, HEARTS, 2, [])
    assert new == card("D9")
    assert old == card("S3")
    assert play(hand, 0, 0, HEARTS, 0, [])[0] == card("S3")


def led_bits(*pairs):
    """``voids`` bits (LED_SHIFT + 4·seat + suit) for (seat, suit) pairs: the seat has led the suit."""
    out = 0
    for seat, suit in pairs:
        out |= 1 << (LED_SHIFT + 4 * seat + suit)
    return out


def test_declarer_and_defenders_return_the_suit_partner_led():
    # Hearts trumps, declarer 0 out of trumps, no master: partner (seat 2) led diamonds earlier,
    # so the declarer returns them (top of his doubleton) instead of low from his long spades.
    hand = cards("D8", "D4", "S7", "S5", "S3", "C6")
    played = ("D2", "D3", "D5", "D6")
    new, old = play(hand, 0, 0, HEARTS, 0, [], played=played, voids=led_bits((2, DIAMONDS)))
    assert new == card("D8")
    assert old == card("S3")
    # A defender (seat 1) returns his partner's (seat 3) suit as well.
    assert play(hand, 1, 0, HEARTS, 1, [], played=played, voids=led_bits((3, DIAMONDS)))[0] == card("D8")
    # Not into an opponent who has shown out of it (a ruff), and not the opponents' suit.
    assert play(hand, 0, 0, HEARTS, 0, [], played=played,
                voids=led_bits((2, DIAMONDS)) | void_bits((1, DIAMONDS)))[0] == card("S3")
    assert play(hand, 0, 0, HEARTS, 0, [], played=played, voids=led_bits((1, DIAMONDS)))[0] == card("S3")
    # The declarer's partner does not return the declarer's suit (it gained nothing).
    assert play(hand, 2, 0, HEARTS, 2, [], played=played, voids=led_bits((0, DIAMONDS)))[0] == card("S3")


def test_declarer_continues_the_side_suit_he_led():
    # Declarer 0 (hearts trumps, none left) led spades before; with no master and nothing led by
    # partner he continues them (top of his doubleton), not low from his longest suit.
    hand = cards("S7", "S5", "D8", "D4", "D3", "C6")
    new, old = play(hand, 0, 0, HEARTS, 0, [], played=("S2", "S3", "S4", "S8"), voids=led_bits((0, SPADES)))
    assert new == card("S7")
    assert old == card("D3")
    assert play(hand, 0, 0, HEARTS, 0, [], played=("S2", "S3", "S4", "S8"))[0] == card("D3")


def test_third_hand_keeps_high_cards_under_partners_led_honour():
    # At no-trump the declarer (seat 0) leads the SQ (the SK unseen), second hand plays low: his
    # partner (third hand) keeps his ace.  The default before this rule put it on (third hand
    # high unless partner's card is sure); heuristic_v1 never overtakes a winning partner.
    hand = cards("SA", "S5", "S2", "D7")
    new, old = play(hand, 2, 0, NT, 0, ["SQ", "S3"])
    assert new == card("S2")
    assert old == card("S2")
    # Partner's card is a jack or higher: a led ten still gets third hand's ace.
    assert play(hand, 2, 0, NT, 0, ["ST", "S3"])[0] == card("SA")
    # A defender does the same under his partner's honour.
    assert play(hand, 1, 0, NT, 3, ["SQ", "S3"])[0] == card("S2")
    # Under a low card led, third hand still plays high.
    assert play(hand, 2, 0, NT, 0, ["S9", "S3"])[0] == card("SA")


def test_declaring_side_takes_a_master_second_hand_in_a_suit_contract():
    # Hearts trumps; a defender (seat 1) leads the S4 and declarer's partner (seat 2) holds A-7:
    # he takes the ace (ducked, it may be ruffed later), where "second hand low" and the old play
    # ducked.  A king with the ace unseen is no master: low.  At no-trump, and for a defender, second
    # hand stays low (docs/notes/strategy-quality-journal.md, seventh step: the defence gains nothing by it).
    hand = cards("SA", "S7", "H5", "C3")
    new, old = play(hand, 2, 0, HEARTS, 1, ["S4"])
    assert new == card("SA")
    assert old == card("S7")
    assert play(cards("SK", "S7", "H5"), 2, 0, HEARTS, 1, ["S4"])[0] == card("S7")
    assert play(cards("SK", "S7", "H5"), 2, 0, HEARTS, 1, ["S4"], played=("SA",))[0] == card("SK")
    assert play(hand, 2, 0, NT, 1, ["S4"])[0] == card("S7")
    assert play(hand, 1, 0, HEARTS, 0, ["S4"])[0] == card("S7")


def test_declarers_partner_cashes_masters_before_the_declarers_suit():
    # The declarer (seat 0) bid diamonds, then hearts; his partner (seat 2) holds the club ace:
    # he cashes it before leading the declarer's diamonds.  A defender (seat 1) whose partner bid
    # diamonds leads the suit first.
    calls = auction((0, 1, DIAMONDS), (0, 2, HEARTS), declarer=0)
    hand = cards("CA", "C6", "C5", "D9", "D4", "S8", "S3")
    new, _ = play(hand, 2, 0, HEARTS, 2, [], calls=calls)
    assert new == card("CA")
    defence = auction((3, 1, DIAMONDS), (0, 1, HEARTS), declarer=0)
    assert play(hand, 1, 0, HEARTS, 1, [], calls=defence)[0] == card("D9")


def _v3(hand, seat, declarer, trump, leader, played=(), voids=0):
    """The lead of heuristic_v3 .. heuristic_v5 (``play`` 2, the default until issue 47) in the
    same position as :func:`play`."""
    calls = auction((declarer, 1, trump), declarer=declarer)
    return S.heuristic_card_v3(hand, seat, declarer, trump, leader, np.zeros(4, dtype=np.int64), 0,
                               cards(*played), bid_suits(*calls, declarer), voids)


def test_declarers_partner_at_no_trump_keeps_a_short_master():
    # Issue 47: at no-trump the declarer's partner, like the declarer, keeps a short ace as an
    # entry and sets up his long suit (the HJ); the play before (heuristic_v5, play 2) cashed it,
    # which set up the defenders' kings: 3NT with all four aces between the pair made 25% of the
    # time against 42% with two (docs/strategy-quality.md).
    hand = cards("SA", "S4", "HK", "HQ", "HJ", "H5", "H3", "D7", "D5", "D2", "C8", "C6", "C2")
    assert play(hand, 2, 0, NT, 2, [])[0] == card("HJ")
    assert _v3(hand, 2, 0, NT, 2) == card("SA")
    assert play(hand, 0, 0, NT, 0, [])[0] == card("HJ")
    # In a suit contract he still cashes it (no entry problem while trumps can take the lead).
    assert play(hand, 2, 0, DIAMONDS, 2, [])[0] == card("SA")


def test_declarers_partner_at_no_trump_returns_the_declarers_suit():
    # Issue 47: at no-trump the declarer (seat 0) led diamonds; his partner (seat 2), with no
    # master, returns them (top of his doubleton) instead of leading low from his long spades, as
    # heuristic_v5 (play 2) did.  In a suit contract he does not (it gained nothing there).
    hand = cards("D8", "D4", "S7", "S5", "S3", "C6")
    played = ("D2", "D3", "D5", "D6")
    voids = led_bits((0, DIAMONDS))
    assert play(hand, 2, 0, NT, 2, [], played=played, voids=voids)[0] == card("D8")
    assert _v3(hand, 2, 0, NT, 2, played=played, voids=voids) == card("S3")
    assert play(hand, 2, 0, HEARTS, 2, [], played=played, voids=voids)[0] == card("S3")
    # Not into a defender who has shown out of it.
    assert play(hand, 2, 0, NT, 2, [], played=played, voids=voids | void_bits((1, DIAMONDS)))[0] == card("S3")


def test_third_hand_void_leaves_partners_winning_card():
    # Hearts trumps.  A defender (seat 3), void in spades, sees partner's S9 win over the S3 with
    # higher spades unseen: he discards the C4 and keeps his trump, where the previous default
    # ruffed.  The declaring side keeps ruffing partner's low card, but not his honour.
    hand = cards("H5", "C7", "C4", "D9")
    assert play(hand, 3, 0, HEARTS, 1, ["S9", "S3"])[0] == card("C4")
    # (Since card-play version 5, issue 47, holding a side singleton that is not a master, the D9, it
    # discards it instead, keeping the trump for a ruff; without one it ruffs.)
    assert play(hand, 2, 0, HEARTS, 0, ["S9", "S3"])[0] == card("D9")
    assert play(hand | cards("D8"), 2, 0, HEARTS, 0, ["S9", "S3"])[0] == card("H5")
    # (It discards: since card-play version 5, issue 47, from its shortest side suit, the D9.)
    assert play(hand, 2, 0, HEARTS, 0, ["SJ", "S3"])[0] == card("D9")


def _v2(hand, seat, declarer, trump, leader, played=(), voids=0):
    """heuristic_v2's lead (the default until issue 26) in the same position as :func:`play`."""
    calls = auction((declarer, 1, trump), declarer=declarer)
    return S.heuristic_card_v2(hand, seat, declarer, trump, leader, np.zeros(4, dtype=np.int64), 0,
                               cards(*played), bid_suits(*calls, declarer), voids)


def test_declarers_partner_with_four_trumps_draws_them():
    # Issue 26: the declarer (seat 0) plays in spades; his partner (seat 2), on lead with four
    # trumps and the heart ace, leads a trump (his lowest: the ace and king are unseen) where
    # heuristic_v2 cashed the ace, which an opponent may ruff.
    hand = cards("SQ", "S8", "S5", "S3", "HA", "H7", "D9", "D4", "C6")
    new, _ = play(hand, 2, 0, SPADES, 2, [])
    assert new == card("S3")
    assert _v2(hand, 2, 0, SPADES, 2) == card("HA")
    # With the trump master (the ace and king played) he leads it.
    played = ("SA", "SK", "C2", "C3", "C4", "C5", "C7", "C8")
    assert play(hand, 2, 0, SPADES, 2, [], played=played)[0] == card("SQ")
    # Three trumps: no change (he cashes the ace); both opponents out of trumps: no trump lead.
    three = cards("SQ", "S8", "S5", "HA", "H7", "D9", "D4", "C6")
    assert play(three, 2, 0, SPADES, 2, [])[0] == card("HA")
    assert play(hand, 2, 0, SPADES, 2, [], voids=void_bits((1, SPADES), (3, SPADES)))[0] == card("HA")
    # The declarer's own trump leads and the defence are unchanged.
    assert play(hand, 0, 0, SPADES, 0, [])[0] == _v2(hand, 0, 0, SPADES, 0)
    assert play(hand, 1, 0, SPADES, 1, [])[0] == _v2(hand, 1, 0, SPADES, 1)


def test_trick_winner_follows_the_rule_card_by_card():
    # docs/RULES.md §2.3: the highest trump wins, else the highest card of the led suit.
    hearts_trump = [card("SK"), card("SA"), card("H2"), card("HJ")]  # SA beats SK, H2 ruffs, HJ over-ruffs
    assert [bool(beats(hearts_trump[i], hearts_trump[i - 1], HEARTS)) for i in range(1, 4)] == [True, True, True]
    assert [trick_winner(np.array(hearts_trump), n, HEARTS) for n in range(1, 5)] == [0, 1, 2, 3]
    # A discard never wins, nor a lower card of the led suit; in no-trump nothing ruffs.
    t = np.array([card("DQ"), card("CA"), card("D3"), card("H2")])
    assert not beats(card("CA"), card("DQ"), HEARTS) and not beats(card("D3"), card("DQ"), HEARTS)
    assert trick_winner(t, 4, HEARTS) == 3 and trick_winner(t, 4, NT) == 0 and trick_winner(t, 4, SPADES) == 0
    # Under a trump already played, a lower trump does not win.
    assert not beats(card("H5"), card("H9"), HEARTS) and trick_winner(np.array([card("D2"), card("H9"),
                                                                                   card("H5"), card("DA")]), 4, HEARTS) == 1
