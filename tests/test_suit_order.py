"""cardsim.suit_order: a seat's random order of the suits (the 501 strategies' tie-breaks)."""
from __future__ import annotations

import itertools

import numpy as np
from scipy.stats import chisquare

from cardsim import suit_order as SO
from cardsim.rng import mix64

U64 = np.uint64


def _perm(order):
    return tuple(int(SO.to_label(s, order)) for s in range(4))


def test_every_order_is_a_permutation_with_its_inverse_and_all_24_are_equally_likely():
    counts = {}
    for i in range(24_000):
        order = int(SO.order_of(U64(mix64(U64(i)))))
        p = _perm(order)
        assert sorted(p) == [0, 1, 2, 3]
        assert [int(SO.from_label(p[s], order)) for s in range(4)] == [0, 1, 2, 3]
        counts[p] = counts.get(p, 0) + 1
    assert set(counts) == set(itertools.permutations(range(4)))
    assert chisquare(list(counts.values())).pvalue > 1e-4


def test_cards_and_suits_move_with_their_lane_and_no_trump_stays():
    order = int(SO.order_of(U64(12345)))
    rng = np.random.default_rng(7)
    for _ in range(200):
        cards = U64(int(rng.integers(0, 2**63)) & 0x3F003F003F003F)
        moved = SO.cards_to_label(cards, order)
        assert SO.cards_from_label(moved, order) == cards
        for c in range(64):
            if int(cards) >> c & 1:
                assert int(moved) >> int(SO.card_to_label(c, order)) & 1
                assert SO.card_from_label(SO.card_to_label(c, order), order) == c
    assert SO.to_label(4, order) == 4 and SO.from_label(4, order) == 4  # no-trump
    assert SO.card_to_label(-1, order) == -1 and SO.card_from_label(-1, order) == -1
    assert _perm(int(SO.IDENTITY)) == (0, 1, 2, 3)
    assert SO.cards_to_label(U64(0x0000_0001_0002_0004), SO.IDENTITY) == U64(0x0000_0001_0002_0004)
