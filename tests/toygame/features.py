"""Duel's hand features for dealing under conditions, and its deal layout.

* ``points``: J 1, Q 2, K 3, A 4 (0..16 in a hand; 20 in the deck);
* ``aces``: how many aces;
* ``S``, ``H``: suit lengths.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import card_str, parse_card
from cardsim.deal import FeatureSet, layout_from_dealer

from .rules import BASE_DECK, N_CARDS, RANKS, SUIT_INDICES


def _rank_mask(rank: str) -> int:
    return sum(1 << (16 * s + RANKS.index(rank)) for s in SUIT_INDICES)


def _suit_mask(suit: int) -> int:
    return sum(1 << (16 * suit + r) for r in range(len(RANKS)))


def _card(token: str) -> int:
    card = parse_card(token, RANKS)
    if card // 16 not in SUIT_INDICES:
        raise ValueError(f"{token!r} is not a Duel card (spades and hearts only)")
    return card


FEATURES = FeatureSet(
    game="duel", ranks=RANKS, base_deck=BASE_DECK.copy(), parse_card=_card,
    card_str=lambda card: card_str(card, RANKS),
    features={"points": tuple((_rank_mask(r), 0, w) for r, w in zip(RANKS, (1, 2, 3, 4))),
              "aces": ((_rank_mask("A"), 0, 1),),
              "S": ((_suit_mask(0), 0, 1),), "H": ((_suit_mask(3), 0, 1),)},
    lengths=("S", "H"),
    doc="points (J1 Q2 K3 A4), aces, S H (lengths)")


def layout(seats: int = 2):
    """Duel's deal: ``deck[k]`` to seat ``(dealer + 1 + k) % 2``; a dealer is always drawn first."""
    return layout_from_dealer("duel", 2, BASE_DECK, 2, True, lambda d: (d + 1 + np.arange(N_CARDS)) % 2)
