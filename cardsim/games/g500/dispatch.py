"""Five Hundred strategy dispatch: strategy id -> strategy function, one function per decision.

The engine asks for every decision through these three functions,
``choose_<decision>(strategy, params, streams, seat, view...)`` as in every game
(``docs/adding-a-game.md``), which call the strategy
registered under ``strategy`` (:mod:`cardsim.games.g500.strategies`) with its seat's view and raise
``ValueError(UNHANDLED, decision, strategy, seat)`` for an id no branch handles (the GameSpec turns
it into a one-line :class:`~cardsim.strategies.registry.StrategyError`): an unknown id never
plays as some other strategy.

Views (DESIGN.md property 3).  Every strategy function of a decision has the signature of its
dispatch function without ``strategy``.  Common arguments:

* ``params``: float64[4, N_PARAMS], every seat's parameter row; a strategy reads only
  ``params[seat, P_*]``.
* ``streams``: uint64[5, 1], the deal's streams (``rng.seed_streams``); a strategy draws only
  from row ``1 + seat``.
* ``seat``: int64 0..3, the seat deciding (teams: seats 0+2 and 1+3).

Decisions:

* ``choose_call(strategy, params, streams, seat, hand, high_bid, high_seat, ours, theirs, scoring,
  target) -> int64`` (docs/RULES.md §3.3):
  ``hand`` the seat's physical hand (uint64, 10 cards), ``high_bid`` the standing bid (bid
  number 0..24, -1 none), ``high_seat`` who made it (-1 none); the game's state, public
  (docs/RULES.md §3.6): ``ours`` and ``theirs`` the seat's side's and the other side's scores
  before the deal (int64 points; negative under subtract scoring), ``scoring`` the rule (0
  quebec, 1 subtract, ``constants.SCORING_*``) and ``target`` the points that win the game
  (int64).  Returns a bid number above ``high_bid`` or -1 (pass).
* ``choose_discard(strategy, params, streams, seat, hand, denom) -> uint64`` (docs/RULES.md §3.4):
  ``hand`` the declarer's 16 cards with the kitty, in the effective layout of the contract's
  denomination ``denom`` (0..3 trump S C D H, 4 no-trump).  Returns the six effective cards
  put away.
* ``choose_card(strategy, params, streams, seat, hand, denom, declarer, leader, trick, n_in_trick,
  led, played, known, decl_tricks, contract_tricks, voids, auction) -> int64`` (docs/RULES.md §3.5): ``hand`` the
  seat's effective cards (uint64), ``declarer`` and ``leader`` seats, ``trick``: int64[4] with
  the effective cards of the trick so far in ``trick[:n_in_trick]`` (play order from
  ``leader``), ``led`` the led (or named) suit, -1 when leading, ``played`` every effective
  card played in earlier tricks and this one (uint64), ``known`` the declarer's own discard (0
  for the others), ``decl_tricks`` tricks won so far by the declarer's side and
  ``contract_tricks`` the tricks bid (6..10), ``voids`` (int64) the public record of the play:
  bit 4·seat + suit once that seat has not followed a lead of that suit (effective suits: a
  bower follows as a trump; a no-trump joker played to a suit lead shows out of it; read by
  ``pimc`` only).  ``auction``: read only by ``pimc:auction=1`` (:func:`.pimc.pimc_card`), the
  public record of the auction and the play, the tuple ``(readable int64, dealer int64, ids
  int64[4], before0, before1, scoring, target, calls int64[MAX_CALLS], ncalls, by_seat uint64[4],
  hands uint64[4])``: whether the calls were the strategies' own (0 under a question's forced
  contract or call, or calls given whatever the hands), every seat's strategy id (public in this
  model, like the rows of ``params``: the worlds replay their calls), the scores and rule the
  bidders saw, the auction's calls (bid numbers, -1 pass), the effective cards each seat has
  played so far (who played which card is public), and the dealt physical hands, of which a
  strategy reads only its own seat's (as it reads only its own row of ``params``).
  :func:`unread_auction` makes one for direct calls.  Returns a legal effective card, and for a joker
  led in no-trump ``card | named_suit << 8``.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.games.g500.constants import MAX_CALLS
from cardsim.games.g500.strategies import (
    HEURISTIC,
    HEURISTIC_V1,
    HEURISTIC_V2,
    HEURISTIC_V3,
    HEURISTIC_V5,
    PIMC,
    RANDOM,
    RULES,
    heuristic_bid,
    heuristic_discard,
    heuristic_play,
    heuristic_play_v5,
    heuristic_play_v1,
    random_bid,
    random_discard,
    random_play,
)
from cardsim.games.g500.pimc import pimc_card
from cardsim.games.g500.rulekernel import NO_RULE, base_of, rules_call
from cardsim.strategies.unhandled import unhandled


@jit(inline="always")
def choose_call(strategy, params, streams, seat, hand, high_bid, high_seat, ours, theirs, scoring, target):
    """Strategy ``strategy``'s call for ``seat`` (docs/RULES.md §3.3); the view is in the module docstring.
    A ``rules`` seat bids as its file's first rule that holds (:func:`.rulekernel.rules_call`), else
    as its base strategy, whose id the row holds."""
    if strategy == RULES:
        call = rules_call(params[seat], hand, seat, high_bid, high_seat)
        if call != NO_RULE:
            return call
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2 or strategy == HEURISTIC_V3
            or strategy == PIMC or strategy == HEURISTIC_V5):
        return heuristic_bid(params, streams, seat, hand, high_bid, high_seat, ours, theirs, scoring, target)
    if strategy == RANDOM:
        return random_bid(params, streams, seat, hand, high_bid, high_seat, ours, theirs, scoring, target)
    unhandled("call", strategy, seat)
    return np.int64(-1)  # not reached: unhandled raised


@jit(inline="always")
def choose_discard(strategy, params, streams, seat, hand, denom):
    """Strategy ``strategy``'s six discards for declarer ``seat`` (docs/RULES.md §3.4); a ``rules``
    seat discards as its base strategy."""
    if strategy == RULES:
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2 or strategy == HEURISTIC_V3
            or strategy == PIMC or strategy == HEURISTIC_V5):
        return heuristic_discard(params, streams, seat, hand, denom)
    if strategy == RANDOM:
        return random_discard(params, streams, seat, hand, denom)
    unhandled("discard", strategy, seat)
    return np.uint64(0)  # not reached


def unread_auction(ids=None):
    """An ``auction`` record for :func:`choose_card` outside a deal (tests, direct calls): no calls,
    marked not readable, so a ``pimc`` seat's worlds match the play only.  ``ids``: int64[4], every
    seat's strategy id (default zeros)."""
    ids = np.zeros(4, dtype=np.int64) if ids is None else np.asarray(ids, dtype=np.int64)
    return (np.int64(0), np.int64(0), ids, np.int64(0), np.int64(0), np.int64(0), np.int64(1000),
            np.zeros(MAX_CALLS, dtype=np.int64), np.int64(0), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64))


@jit(inline="always")
def choose_card(strategy, params, streams, seat, hand, denom, declarer, leader, trick, n_in_trick, led,
                played, known, decl_tricks, contract_tricks, voids, auction):
    """Strategy ``strategy``'s card for ``seat`` (docs/RULES.md §3.5); a ``rules`` seat plays as its
    base strategy."""
    if strategy == RULES:
        strategy = base_of(params[seat])
    if strategy == HEURISTIC:
        return heuristic_play(seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                              decl_tricks, contract_tricks)
    if strategy == HEURISTIC_V5 or strategy == HEURISTIC_V2 or strategy == HEURISTIC_V3:
        return heuristic_play_v5(seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                                 decl_tricks, contract_tricks)
    if strategy == HEURISTIC_V1:
        return heuristic_play_v1(seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                                 decl_tricks, contract_tricks)
    if strategy == RANDOM:
        return random_play(params, streams, seat, hand, denom, declarer, leader, trick, n_in_trick,
                           led, played, known, decl_tricks, contract_tricks)
    if strategy == PIMC:
        return pimc_card(params, streams, seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                         decl_tricks, contract_tricks, voids, auction)
    unhandled("card", strategy, seat)
    return np.int64(0)  # not reached
