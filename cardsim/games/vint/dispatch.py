"""Vint strategy dispatch: every branch from a strategy id to its functions, in one place.

One function per decision, each ``choose_<decision>(strategy, params, streams, seat, view...)`` as in
every game (``docs/adding-a-game.md``):

* ``choose_call(strategy, params, streams, seat, hand, calls, ncalls, current, current_bidder, below, games,
  shown) -> int64`` the call (0 = pass, 1..35 = bid, docs/RULES.md §2.2);
* ``choose_card(strategy, params, streams, seat, hand, declarer, trump, leader, trick, n, played,
  bid_suits, voids, winner, auction) -> int64`` the card index played from ``hand`` (docs/RULES.md §2.3).

``strategy`` is the seat's strategy id; ``params`` (float64[4, N_PARAMS]) holds every seat's row and
``streams`` (uint64[5, 1]) the deal's streams, row ``1 + seat`` the seat's (row 0 is the
shuffle's, never touched here); a branch passes on only ``params[seat]`` / ``streams[1 + seat]``
(rows are sliced per branch because slicing costs a reference count in the hot loop).  The rest
is the seat's view: its ``hand`` (uint64), the ``calls`` so far (int64[ncalls] used), the
standing bid ``current`` and its bidder, the score before the deal (``below``: int64[2], points
below the current line, and ``games``: int64[2], games won, by team, docs/RULES.md §2.7: the
line is on the table for everyone), ``shown`` (int64), what the auction so far showed of each
seat: the denominations it bid and its first (:data:`.rules.SHOWN_BITS`, kept by the engine call
by call, :func:`.rules.shown_calls` from the calls), the contract (``declarer``, ``trump`` 0..4), the trick
so far (``trick[:n]``, led by ``leader``) and ``winner``, the index in it of the card winning so
far (:func:`.rules.trick_winner` of ``trick[:n]``, kept by the engine card by card; 0 when
leading), the cards ``played`` so far (uint64) and, in the
play, what the auction showed: ``bid_suits`` (int64[4]), the first suit each seat bid, −1 for
none (:func:`.rules.first_bid_suits`, computed once a deal), and what the play showed:
``voids`` (int64), bit 4·seat + suit set once that seat has not followed a lead of that suit,
and bit LED_SHIFT + 4·seat + suit (16, :data:`.rules.LED_SHIFT`) once that seat has led that
suit.  An id with no branch raises ``ValueError(UNHANDLED, decision, strategy, seat)`` through
:func:`cardsim.strategies.unhandled.unhandled` (out of line: it keeps the hot path fast), which
the Python surface reports as a :class:`~cardsim.strategies.registry.StrategyError`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.strategies.unhandled import unhandled

from .pimc import pimc_card
from .rulekernel import base_of, rules_call
from .rules import MAX_CALLS, PASS
from .strategies import (GREEDY, HEURISTIC, HEURISTIC_V1, HEURISTIC_V2, HEURISTIC_V3, P_PLAY, PIMC, PLAY_PARTNER_DRAWS,
                         PLAY_HIGH, RANDOM, RULES, greedy_card, play_flags, with_level,
                         heuristic_call, heuristic_call_v1, heuristic_card_v1, heuristic_play, random_call,
                         random_card)


def unread_auction(params):
    """An ``auction`` record for :func:`choose_card` outside a deal (tests, direct calls): no calls,
    marked not readable, so a ``pimc`` seat's worlds match the play only.  ``params``:
    float64[4, N_PARAMS], every seat's row."""
    return (np.zeros(4, dtype=np.int64), np.asarray(params, dtype=np.float64), np.zeros(MAX_CALLS, dtype=np.int64),
            np.int64(0), np.int64(0), np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.int64(0),
            np.zeros(52, dtype=np.int64), np.zeros(13, dtype=np.int64))


@jit(inline="always")
def choose_call(strategy, params, streams, seat, hand, calls, ncalls, current, current_bidder, below, games,
                shown):
    """The call strategy ``strategy`` makes for ``seat`` (0 = pass, 1..35 = bid); ``below``/``games``
    (int64[2] each, by team) are the line before the deal, ``shown`` (int64) what ``calls[:ncalls]``
    showed (:data:`.rules.SHOWN_BITS`).  A ``rules`` seat calls as its file's first rule that holds
    (:func:`.rulekernel.rules_call`), else as its base strategy, whose id the row holds."""
    if strategy == RULES:
        call = rules_call(params[seat], hand, calls, ncalls, current)
        if call >= 0:
            return call
        strategy = base_of(params[seat])
    if strategy == HEURISTIC or strategy == PIMC or strategy == HEURISTIC_V2 or strategy == HEURISTIC_V3:
        return heuristic_call(params[seat], hand, seat, calls, ncalls, current, current_bidder, below, games,
                              shown)
    if strategy == HEURISTIC_V1 or strategy == GREEDY:
        return heuristic_call_v1(params[seat], hand, seat, calls, ncalls, current, current_bidder)
    if strategy == RANDOM:
        return random_call(params[seat], streams[1 + seat], current)
    unhandled("call", strategy, seat)
    return np.int64(PASS)  # not reached: unhandled raised


@jit(inline="always")
def choose_card(strategy, params, streams, seat, hand, declarer, trump, leader, trick, n, played, bid_suits, voids,
                winner, auction):
    """The card (index) strategy ``strategy`` plays from ``hand``; ``trick[:n]`` is on the table,
    ``bid_suits`` (int64[4]) the first suit each seat bid (−1: none), ``voids`` (int64) the
    suits each seat has shown out of (bit 4·seat + suit) and has led (bit LED_SHIFT + 4·seat + suit),
    and ``winner`` (int64) the index in ``trick[:n]`` of the card winning so far (0 when leading).
    ``auction``: the public record, read only by ``pimc:auction=1`` (:func:`.pimc.pimc_card`): the
    tuple ``(ids int64[4], params float64[4, N_PARAMS], calls int64[≥ ncalls], ncalls, dealer,
    below int64[2], games int64[2], readable int64, plays int64[52], winners int64[13])`` — every
    seat's strategy (public in this model: the worlds replay their calls), the calls, the line,
    whether the calls were the strategies' own (0 under a forced contract or call), and the cards
    played so far in order with each completed trick's winner.
    A ``rules`` seat plays as its base strategy."""
    if strategy == RULES:
        strategy = base_of(params[seat])
    if strategy == HEURISTIC or strategy == HEURISTIC_V3 or strategy == HEURISTIC_V2 or strategy == PIMC:
        # One inlined copy of the heuristic's play serves the four, its rules switched by flags
        # (heuristic_v3 plays version 2, heuristic_v2 version 1, heuristic and pimc the version of
        # their `play` parameter): each copy is seconds of a cold compile.
        if strategy == HEURISTIC_V3:
            play = np.int64(PLAY_PARTNER_DRAWS)
        elif strategy == HEURISTIC_V2:
            play = np.int64(0)
        else:
            play = play_flags(params[seat][P_PLAY])
            # Only the declaring side's leads read the contract's level: no scan anywhere else.
            if (play & PLAY_HIGH) and n == 0 and (seat & 1) == (declarer & 1):
                play = with_level(play, auction[2], auction[3])
        card = heuristic_play(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids, play, winner)
        if strategy == PIMC:
            return pimc_card(params[seat], streams[1 + seat], hand, seat, declarer, trump, leader, trick, n, played,
                             bid_suits, voids, card, auction)
        return card
    if strategy == HEURISTIC_V1:
        return heuristic_card_v1(hand, seat, declarer, trump, leader, trick, n, played)
    if strategy == GREEDY:
        return greedy_card(hand, trump, trick, n)
    if strategy == RANDOM:
        return random_card(streams[1 + seat], hand, trick, n)
    unhandled("card", strategy, seat)
    return np.int64(-1)  # not reached: unhandled raised
