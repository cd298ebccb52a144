"""Duel's strategies: ``random`` (a uniformly random legal card) and ``heuristic`` (the default:
lead the highest card; follow with the lowest card that wins, else the lowest card).

Adding one: a jitted card function here, a registry line, a branch in :mod:`.dispatch`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import highest_bit, lowest_bit
from cardsim.rng import choose_bit
from cardsim.strategies.registry import Registry

from .rules import legal_plays

RANDOM, HEURISTIC = 0, 1
REGISTRY = Registry("duel")
REGISTRY.add("random", RANDOM, {}, "a uniformly random legal card (the baseline)")
REGISTRY.add("heuristic", HEURISTIC, {"lead_low": 0.0},
             "lead the highest card (lead_low=1: the lowest); follow with the lowest winning card, else the lowest",
             {"lead_low": "1 leads the lowest card instead of the highest"},
             kinds={"lead_low": "bool"})
P_LEAD_LOW = REGISTRY["heuristic"].param_index("lead_low")


@jit
def random_card(params, stream, hand, lead):
    """A uniformly random legal card of ``hand`` (card index); ``lead``: the card led to this
    trick, -1 when the seat leads."""
    return choose_bit(stream, legal_plays(hand, lead // 16 if lead >= 0 else -1))


@jit
def heuristic_card(params, stream, hand, lead):
    """The heuristic's card (card index) from ``hand`` (uint64); ``lead`` as for random_card."""
    if lead < 0:
        return lowest_bit(hand) if params[P_LEAD_LOW] > 0.5 else highest_bit(hand)
    legal = legal_plays(hand, lead // 16)
    winners = legal & ~((np.uint64(1) << np.uint64(lead + 1)) - np.uint64(1)) & (np.uint64(0xFFFF) << np.uint64(16 * (lead // 16)))
    return lowest_bit(winners) if winners != np.uint64(0) else lowest_bit(legal)
