"""Bit helpers against plain-Python twins, card parsing, and the counter-based RNG."""
import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy.stats import chisquare

from cardsim import cards, rng
from cardsim.cards import RANKS_501, VINT_RANKS, CardError

u64 = st.integers(0, 2**64 - 1)


@given(u64)
def test_popcount_matches_python(x):
    assert cards.popcount(np.uint64(x)) == bin(x).count("1")


@given(st.integers(1, 2**64 - 1))
def test_lowest_and_highest_bit_match_python(x):
    assert cards.lowest_bit(np.uint64(x)) == (x & -x).bit_length() - 1
    assert cards.highest_bit(np.uint64(x)) == x.bit_length() - 1


@given(u64, st.integers(0, 3))
def test_lane_and_suit_mask(x, s):
    assert cards.lane(np.uint64(x), s) == (x >> (16 * s)) & 0xFFFF
    assert int(cards.suit_mask(s)) == 0xFFFF << (16 * s)


@pytest.mark.parametrize("token,ranks,card", [("AS", VINT_RANKS, 12), ("2c", VINT_RANKS, 16), ("10d", VINT_RANKS, 40),
                                              ("TH", VINT_RANKS, 56), ("9S", RANKS_501, 0), ("AH", RANKS_501, 53)])
def test_parse_and_print_cards(token, ranks, card):
    assert cards.parse_card(token, ranks) == card
    assert cards.card_str(card, ranks) == token.upper().replace("10", "T")


@pytest.mark.parametrize("token", ["", "A", "1S", "AX", "2S ", " 2S", "2 S", "ASS", "A\u017f", "\uff12S", "010S",
                                   "10", "1OS"])
def test_bad_card_tokens(token):
    # docs/RECORDS.md's grammar is exact: no blanks around or inside, ASCII only ('\u017f'.upper() == 'S')
    with pytest.raises(CardError, match="unknown card"):
        cards.parse_card(token, VINT_RANKS)


@pytest.mark.parametrize("token", [None, 12, ["AS"]])
def test_card_tokens_must_be_strings(token):
    with pytest.raises(CardError, match="must be a string"):
        cards.parse_card(token, VINT_RANKS)


def test_card_not_in_the_game_deck():
    with pytest.raises(CardError, match="unknown card '8S'"):
        cards.parse_card("8S", RANKS_501)


def test_hand_round_trip():
    h = cards.hand_of([0, 5, 17, 63])
    assert cards.cards_of(h) == [0, 5, 17, 63]


def test_deal_keys_depend_on_seed_and_deal_only():
    a = rng.deal_key(np.uint64(7), 1000)
    assert a == rng.deal_key(np.uint64(7), 1000)
    assert a != rng.deal_key(np.uint64(8), 1000) and a != rng.deal_key(np.uint64(7), 1001)
    assert len({int(rng.deal_key(np.uint64(1), i)) for i in range(10000)}) == 10000


def test_seat_streams_differ():
    # A uint64 key, as the engines pass it (a Python int above 2**63 would pick whatever
    # signature another test compiled first).
    key = np.uint64(rng.deal_key(np.uint64(3), 4))
    firsts = {int(rng.next_u64(rng.stream(key, i))) for i in range(5)}
    assert len(firsts) == 5


def test_randbelow_is_uniform():
    state = rng.stream(np.uint64(99), 0)
    draws = np.array([rng.randbelow(state, 7) for _ in range(70000)])
    assert draws.min() == 0 and draws.max() == 6
    assert chisquare(np.bincount(draws)).pvalue > 0.001


def test_shuffle_is_uniform_on_small_deck():
    state = rng.stream(np.uint64(5), 0)
    counts = {}
    for _ in range(24000):
        d = np.arange(4)
        rng.shuffle(d, state)
        counts[tuple(d)] = counts.get(tuple(d), 0) + 1
    assert len(counts) == 24
    assert chisquare(list(counts.values())).pvalue > 0.001


def test_choose_bit_picks_only_set_bits_uniformly():
    state = rng.stream(np.uint64(1), 2)
    mask = np.uint64(0b1011_0000_0001)
    picks = np.array([rng.choose_bit(state, mask) for _ in range(8000)])
    assert set(picks.tolist()) == {0, 8, 9, 11}
    assert chisquare(np.unique(picks, return_counts=True)[1]).pvalue > 0.001


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True])
def test_bad_seeds(seed):
    with pytest.raises(ValueError, match="seed"):
        rng.check_seed(seed)
