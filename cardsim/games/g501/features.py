"""501 hand features for dealing under conditions (docs/RULES.md §1.1, §1.6), and 501's deal layout.

Cards in the 501 layout of :mod:`cardsim.cards` (ranks ``9JQKTA`` at bits 0..5).
Features, each a weighted popcount (:class:`cardsim.deal.FeatureSet`):

* ``points`` (also ``hcp``): card points A 11, 10 10, K 4, Q 3, J 2, 9 0 (120 in the deck);
* ``aces``, ``tens``, ``kings``: how many of that rank;
* ``S``, ``C``, ``D``, ``H``: suit lengths;
* ``marriages``: suits where the hand holds both K and Q (a K+Q pair is a Q bit whose K bit,
  one rank up, is also set: ``popcount(h & (h >> 1) & queens)``).
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import RANKS_501, SUITS, card_str, full_deck, parse_card
from cardsim.deal import TALON, FeatureSet, layout_from_dealer, positions_dealt, term_sum
from cardsim.games.g501.constants import N_CARDS
from cardsim.games.g501.rules import deal_hands

RANKS = RANKS_501


def _rank_mask(rank: str) -> int:
    return sum(1 << (16 * s + RANKS.index(rank)) for s in range(4))


def _suit_mask(suit: int) -> int:
    return sum(1 << (16 * suit + r) for r in range(len(RANKS)))


_features = {
    "points": tuple((_rank_mask(r), 0, p) for r, p in (("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2))),
    "aces": ((_rank_mask("A"), 0, 1),),
    "tens": ((_rank_mask("T"), 0, 1),),
    "kings": ((_rank_mask("K"), 0, 1),),
    "marriages": ((_rank_mask("Q"), 1, 1),),
}
_features.update({SUITS[s]: ((_suit_mask(s), 0, 1),) for s in range(4)})

FEATURES = FeatureSet(
    game="501", ranks=RANKS, base_deck=full_deck(RANKS),
    parse_card=lambda token: parse_card(token, RANKS), card_str=lambda card: card_str(card, RANKS),
    features=_features, aliases={"hcp": "points"},
    doc="points or hcp (A11 T10 K4 Q3 J2), aces, tens, kings, S C D H (lengths), marriages (K+Q pairs)")
NAMES, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START = FEATURES.tables()
N_FEATURES = len(NAMES)


def _positions(dealer: int, seats: int) -> np.ndarray:
    hands = np.zeros(4, dtype=np.uint64)
    talon = deal_hands(np.arange(N_CARDS, dtype=np.int64), np.int64(dealer), np.int64(seats), hands)
    return positions_dealt(N_CARDS, hands, talon)


def layout(seats: int = 3):
    """501's deal (docs/RULES.md §1.2) with 3 or 4 seats, read from ``rules.deal_hands``: the dealer is
    drawn only when not given; a 4-seat dealer receives nothing; :data:`TALON` gets 3 cards."""
    lay = layout_from_dealer("501", seats, FEATURES.base_deck, seats, False, lambda d: _positions(d, seats))
    assert (lay.sizes[:, TALON] == 3).all()
    return lay


@jit
def hand_features(hand, out):
    """Every feature of ``hand`` (uint64) into ``out`` (int64[N_FEATURES], in ``NAMES`` order)."""
    for f in range(N_FEATURES):
        out[f] = term_sum(hand, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START[f], TERM_START[f + 1])
