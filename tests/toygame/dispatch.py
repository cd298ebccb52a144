"""Duel's strategy dispatch: every branch from a strategy id to its function, in one place.

``choose_card(strategy, params, streams, seat, hand, lead) -> int64``: the card ``seat`` plays
from ``hand`` (uint64); ``lead`` the card led to the trick, -1 when the seat leads.  ``params``
(float64[2, N_PARAMS]) and ``streams`` (uint64[3, 1]: row 0 the deal, row 1 + seat the seat's)
hold every seat's rows; a branch passes on only the seat's.
"""
from __future__ import annotations

from cardsim._jit import jit
from cardsim.strategies.unhandled import unhandled

from .strategies import HEURISTIC, RANDOM, heuristic_card, random_card


@jit(inline="always")
def choose_card(strategy, params, streams, seat, hand, lead):
    """The card strategy ``strategy`` plays for ``seat`` (a card index held in ``hand``)."""
    if strategy == HEURISTIC:
        return heuristic_card(params[seat], streams[1 + seat], hand, lead)
    if strategy == RANDOM:
        return random_card(params[seat], streams[1 + seat], hand, lead)
    unhandled("card", strategy, seat)
    return -1
