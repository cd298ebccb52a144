"""Vint hand features for dealing under conditions (docs/RULES.md §2.1, §2.6), and Vint's deal layout.

Cards in the Vint layout of :mod:`cardsim.cards` (ranks ``23456789TJQKA`` at bits 0..12).
Features, each a weighted popcount (:class:`cardsim.deal.FeatureSet`):

* ``hcp``: high-card points A 4, K 3, Q 2, J 1 (0..37 in a hand; 40 in the deck);
* ``aces``, ``kings``, ``queens``, ``jacks``: how many of that rank;
* ``S``, ``C``, ``D``, ``H``: suit lengths;
* ``honours_S`` … ``honours_H``: trump honours A K Q J 10 of that suit held (docs/RULES.md §2.6);
* ``controls``: A 2, K 1 (0..12);
* ``stopper_S`` … ``stopper_H``: 1 when the suit is stopped (A, Kx, Qxx, Jxxx or better), and
  ``stoppers`` the stopped suits (0..4);
* ``quick_tricks``: AK 2, AQ 1½, A 1, KQ 1, Kx ½ a suit, stored in half tricks (0..16; a class
  writes ``quick_tricks>=1.5``);
* ``losers`` (also ``ltc``): the losing-trick count (0..12);
* ``balanced`` (4-3-3-3, 4-4-3-2, 5-3-3-2), ``semi_balanced`` (also 5-4-2-2, 6-3-2-2): 0 or 1;
  ``longest``, ``shortest``: suit lengths; ``shape``: the lengths longest first as one number
  (4432; a class writes ``shape=4-4-3-2``).

The last seven are kinds of :mod:`cardsim.holding` (not sums of card weights), computed in jitted
code from the hand's bit set.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import SUITS, VINT_RANKS, card_str, full_deck, parse_card
from cardsim.deal import FeatureSet, layout_from_dealer, term_sum
from cardsim.holding import BALANCED, LONGEST, LOSERS, QUICK_TRICKS, SEMI_BALANCED, SHAPE, SHORTEST, STOPPER

RANKS = VINT_RANKS
N_CARDS = 52


def _rank_mask(rank: str) -> int:
    return sum(1 << (16 * s + RANKS.index(rank)) for s in range(4))


def _suit_mask(suit: int, ranks: str = RANKS) -> int:
    return sum(1 << (16 * suit + RANKS.index(r)) for r in ranks)


_features = {
    "hcp": ((_rank_mask("A"), 0, 4), (_rank_mask("K"), 0, 3), (_rank_mask("Q"), 0, 2), (_rank_mask("J"), 0, 1)),
    "aces": ((_rank_mask("A"), 0, 1),),
    "kings": ((_rank_mask("K"), 0, 1),),
    "queens": ((_rank_mask("Q"), 0, 1),),
    "jacks": ((_rank_mask("J"), 0, 1),),
}
_features.update({SUITS[s]: ((_suit_mask(s), 0, 1),) for s in range(4)})
_features.update({f"honours_{SUITS[s]}": ((_suit_mask(s, "AKQJT"), 0, 1),) for s in range(4)})
# what natural bidding systems judge a hand by (kinds of cardsim.holding, computed in jitted code)
_ALL_SUITS = sum(_suit_mask(s) for s in range(4))
_features["controls"] = ((_rank_mask("A"), 0, 2), (_rank_mask("K"), 0, 1))
_features.update({f"stopper_{SUITS[s]}": ((_suit_mask(s), STOPPER, 1),) for s in range(4)})
_features["stoppers"] = tuple((_suit_mask(s), STOPPER, 1) for s in range(4))
_features["quick_tricks"] = tuple((_suit_mask(s), QUICK_TRICKS, 1) for s in range(4))
_features["losers"] = tuple((_suit_mask(s), LOSERS, 1) for s in range(4))
_features.update({name: ((_ALL_SUITS, kind, 1),) for name, kind in (
    ("balanced", BALANCED), ("semi_balanced", SEMI_BALANCED), ("longest", LONGEST), ("shortest", SHORTEST),
    ("shape", SHAPE))})

FEATURES = FeatureSet(
    game="vint", ranks=RANKS, base_deck=full_deck(RANKS),
    parse_card=lambda token: parse_card(token, RANKS), card_str=lambda card: card_str(card, RANKS),
    features=_features, aliases={"points": "hcp", "semibalanced": "semi_balanced", "ltc": "losers"},
    scales={"quick_tricks": 2},
    doc="hcp (A4 K3 Q2 J1), aces, kings, queens, jacks, S C D H (lengths), honours_S..honours_H (A K Q J 10), "
        "controls (A2 K1), stopper_S..stopper_H, stoppers, quick_tricks, losers, balanced, semi_balanced, "
        "longest, shortest, shape")
NAMES, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START = FEATURES.tables()
N_FEATURES = len(NAMES)


def layout(seats: int = 4):
    """Vint's deal (docs/RULES.md §2.1): ``deck[k]`` to seat ``(dealer + 1 + k) % 4``; the shuffle stream
    draws a dealer first even when the dealer is given (as ``engine.deal_cards`` does)."""
    return layout_from_dealer("vint", 4, FEATURES.base_deck, 4, True,
                              lambda d: (d + 1 + np.arange(N_CARDS)) % 4)


@jit
def hand_features(hand, out):
    """Every feature of ``hand`` (uint64) into ``out`` (int64[N_FEATURES], in ``NAMES`` order)."""
    for f in range(N_FEATURES):
        out[f] = term_sum(hand, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START[f], TERM_START[f + 1])
