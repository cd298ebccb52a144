"""Five Hundred hand features for dealing under conditions (docs/RULES.md §3.1), and its deal layout.

Physical cards of :mod:`cardsim.games.g500.constants` (ranks ``456789TJQKA`` at bits 0..10,
``LJ`` and ``HJ`` at bits 14 and 15 of lane 0, in no suit).  Features, each a weighted popcount
(:class:`cardsim.deal.FeatureSet`):

* ``hcp`` (also ``strength``): a strength count A 4, K 3, Q 2, J 1 in every suit, plus the
  high joker 6 and the low joker 5 (51 in the deck).  The jacks count 1 whatever the trump:
  it is a count of the physical hand, made before any trump is named;
* ``aces``, ``jokers``: how many aces / jokers;
* ``S``, ``C``, ``D``, ``H``: physical suit lengths (the jacks in their own suit, 11 cards each;
  the jokers in none);
* ``bowers_X`` for each suit X: jacks of X's colour held (the right and left bowers if X were
  trumps: ``bowers_H`` counts J♥ and J♦), 0..2;
* ``trumps_X``: the cards that would be trumps with X trumps: the suit X, the other jack of
  its colour and both jokers (``trumps_H``: hearts + J♦ + HJ + LJ, 14 cards);
* ``top_X``: the top five trumps with X trumps held (HJ, LJ, the right and left bowers, the
  ace of X; ``top_H`` counts HJ LJ J♥ J♦ A♥), 0..5;
* ``side_aces_X``: aces outside X (``side_aces_H``: A♠ A♣ A♦), 0..3;
* of the physical suits, ranked as in no-trump (A K Q J 10 …; docs/RULES.md §3.1), the jokers
  not counted: ``controls`` (A 2, K 1), ``stopper_X`` (1 when X is stopped: A, Kx, Qxx, Jxxx or
  better), ``stoppers`` (0..4) and ``quick_tricks`` (AK 2, AQ 1½, A 1, KQ 1, Kx ½ a suit, stored
  in half tricks; a class writes ``quick_tricks>=1.5``), as in :mod:`cardsim.holding`.
  Balanced shapes and the losing-trick count are 13-card measures with no Five Hundred
  meaning (10 cards, jokers in no suit) and are not offered.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import SUITS
from cardsim.deal import TALON, FeatureSet, layout_from_dealer, positions_dealt, term_sum
from cardsim.games.g500.constants import DECK, HJ, JACK, JOKER_MASK, LJ, N_CARDS, RANKS, card_str, parse_card
from cardsim.games.g500.rules import deal_hands
from cardsim.holding import QUICK_TRICKS, STOPPER


def _rank_mask(rank: str) -> int:
    return sum(1 << (16 * s + RANKS.index(rank)) for s in range(4))


def _suit_mask(suit: int) -> int:
    return sum(1 << (16 * suit + r) for r in range(len(RANKS)))


def _jack(suit: int) -> int:
    return 1 << (16 * suit + JACK)


def _ace(suit: int) -> int:
    return 1 << (16 * suit + RANKS.index("A"))


_features = {
    "hcp": ((_rank_mask("A"), 0, 4), (_rank_mask("K"), 0, 3), (_rank_mask("Q"), 0, 2), (_rank_mask("J"), 0, 1),
            (1 << HJ, 0, 6), (1 << LJ, 0, 5)),
    "aces": ((_rank_mask("A"), 0, 1),),
    "jokers": ((int(JOKER_MASK), 0, 1),),
}
_features.update({SUITS[s]: ((_suit_mask(s), 0, 1),) for s in range(4)})
_features.update({f"bowers_{SUITS[s]}": ((_jack(s) | _jack(s ^ 1), 0, 1),) for s in range(4)})
_features.update({f"trumps_{SUITS[s]}": ((_suit_mask(s) | _jack(s ^ 1) | int(JOKER_MASK), 0, 1),) for s in range(4)})
_features.update({f"top_{SUITS[s]}": ((int(JOKER_MASK) | _jack(s) | _jack(s ^ 1) | _ace(s), 0, 1),) for s in range(4)})
_features.update({f"side_aces_{SUITS[s]}": ((_rank_mask("A") & ~_ace(s), 0, 1),) for s in range(4)})
# of the physical suits, ranked as in no-trump (A K Q J at the top; kinds of cardsim.holding)
_features["controls"] = ((_rank_mask("A"), 0, 2), (_rank_mask("K"), 0, 1))
_features.update({f"stopper_{SUITS[s]}": ((_suit_mask(s), STOPPER, 1),) for s in range(4)})
_features["stoppers"] = tuple((_suit_mask(s), STOPPER, 1) for s in range(4))
_features["quick_tricks"] = tuple((_suit_mask(s), QUICK_TRICKS, 1) for s in range(4))

FEATURES = FeatureSet(
    game="500", ranks=RANKS, base_deck=DECK.copy(), parse_card=parse_card, card_str=card_str,
    features=_features, aliases={"strength": "hcp"}, scales={"quick_tricks": 2},
    doc="hcp or strength (A4 K3 Q2 J1, HJ 6, LJ 5), aces, jokers, S C D H (lengths), bowers_X, trumps_X, top_X, "
        "side_aces_X, controls (A2 K1), stopper_X, stoppers, quick_tricks (physical suits)")
NAMES, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START = FEATURES.tables()
N_FEATURES = len(NAMES)


def _positions(dealer: int) -> np.ndarray:
    hands = np.zeros(4, dtype=np.uint64)
    kitty = deal_hands(np.arange(N_CARDS, dtype=np.int64), np.int64(dealer), hands)
    return positions_dealt(N_CARDS, hands, kitty)


def layout(seats: int = 4):
    """Five Hundred's deal (docs/RULES.md §3.2), read from ``rules.deal_hands``: 10 cards a seat and 6
    to the kitty (:data:`TALON`); the dealer is drawn only when not given."""
    lay = layout_from_dealer("500", 4, FEATURES.base_deck, 4, False, _positions)
    assert (lay.sizes[:, TALON] == 6).all()
    return lay


@jit
def hand_features(hand, out):
    """Every feature of ``hand`` (uint64) into ``out`` (int64[N_FEATURES], in ``NAMES`` order)."""
    for f in range(N_FEATURES):
        out[f] = term_sum(hand, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START[f], TERM_START[f + 1])
