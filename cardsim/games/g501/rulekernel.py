"""501's jitted rule-file interpreter (docs/rules-files.md, "501 contexts"): the ``rules``
strategy's blind calls, its calls after looking and its talon decision.

A compiled file sits in the seat's parameter row from :data:`cardsim.strategies.registry.TABLE_START`:
``base id, n_rules, 0``, then each rule ``length, call, condition offset`` and its context::

    stage, position, score_lo, score_hi, lead_lo, lead_hi, bid_lo, bid_hi, seats, others_blind,
    won_blind, target_kind, target_k

followed by its condition (:mod:`cardsim.rule_kernel`).  ``stage``: :data:`BLIND` (before
looking), :data:`LOOKED` or :data:`TALON`; ``position`` 0..2 or −1 (any); the ranges inclusive
(``lead`` = the closest rival's score minus the seat's own, + = ahead, 501 counts down; ``bid``
the current highest bid, 0 before any, at the talon the winning bid); ``seats`` 3, 4 or 0 (any);
``others_blind``/``won_blind`` 0, 1 or −1 (any).  ``call``: :data:`LOOK`, :data:`PASS`, a bid
66..220, :data:`RAISE` (the minimum raise), :data:`ABANDON` or :data:`DECLARE` (target
``estimate + target_k`` or ``bid + target_k`` by ``target_kind``, within the bid and 220,
docs/RULES.md §1.4).  The words and their compiler: :mod:`.rulefile`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.rule_kernel import condition_holds
from cardsim.strategies.registry import TABLE_START

from .constants import LOOK, MAX_BID, MIN_BID
from .features import TERM_MASK, TERM_SHIFT, TERM_START, TERM_WEIGHT
from .strategies import best_trump, choose_gifts, estimate

U64 = np.uint64
PASS = 0
"""A pass (docs/RULES.md §1.3)."""
NO_RULE = -2
"""What the interpreter returns when the base strategy is to decide (LOOK is −1, a pass 0)."""
RAISE, ABANDON, DECLARE = -3, -4, -5
"""Rule calls: the minimum raise (max(66, current bid + 1)); abandon; declare with the rule's target."""
BLIND, LOOKED, TALON = 0, 1, 2
"""The stages of a seat's decisions: before looking (blind calls), after looking, the talon."""
T_ESTIMATE, T_BID = 0, 1
"""A declare rule's target: ``estimate + k`` (the kept eight cards in the trump chosen) or ``bid + k``."""
CTX = 13
"""Numbers in a rule's context."""


@jit(inline="always")
def _in(row, p, x):
    return row[p] <= x <= row[p + 1]


@jit(inline="always")
def _flag(row, p, x):
    f = np.int64(row[p])
    return f < 0 or f == np.int64(x)


@jit(inline="always")
def _context(row, c, stage, position, score, rival, cur, others_blind, won_blind, seats):
    """Whether the context at ``row[c]`` holds for the decision."""
    if np.int64(row[c]) != stage:
        return False
    pos = np.int64(row[c + 1])
    if pos >= 0 and pos != position:
        return False
    if not (_in(row, c + 2, score) and _in(row, c + 4, rival - score) and _in(row, c + 6, cur)):
        return False
    s = np.int64(row[c + 8])
    if s > 0 and s != seats:
        return False
    return _flag(row, c + 9, others_blind) and _flag(row, c + 10, won_blind)


@jit(inline="always")
def _auction_call(call, cur):
    """The concrete auction call of a rule's ``call`` when the current bid is ``cur``: RAISE made
    the minimum raise; NO_RULE when the bid is not allowed there (not above ``cur``, or above 220)."""
    if call == RAISE:
        call = max(MIN_BID, cur + 1)
    if call > 0 and (call <= cur or call < MIN_BID or call > MAX_BID):
        return np.int64(NO_RULE)
    return np.int64(call)


@jit
def rules_find(row, hand, stage, position, score, rival, cur, others_blind, won_blind, seats):
    """The row position of the first rule of the file compiled into ``row`` (float64[N_PARAMS])
    whose context holds at ``stage`` (BLIND, LOOKED, TALON) and whose condition holds for
    ``hand`` (uint64: 7 cards after looking, 10 at the talon; none is read before looking); −1
    when none holds.  ``score``/``rival``: the seat's and its closest rival's scores; ``cur``:
    the current (at the talon the winning) bid; ``others_blind``, ``won_blind``: bools; ``seats``
    3 or 4."""
    n = np.int64(row[TABLE_START + 1])
    pos = TABLE_START + 3
    for _ in range(n):
        if _context(row, pos + 3, stage, position, score, rival, cur, others_blind, won_blind, seats) and (
                stage == BLIND or condition_holds(row, pos + np.int64(row[pos + 2]), hand, TERM_MASK, TERM_SHIFT,
                                                  TERM_WEIGHT, TERM_START)):
            return pos
        pos += np.int64(row[pos])
    return -1


@jit(inline="always")
def rules_blind(row, position, score, rival, cur, seats):
    """The call before looking (LOOK, PASS or a blind bid) of the first BLIND rule that holds;
    NO_RULE when none holds or its bid is not allowed (docs/RULES.md §1.3)."""
    p = rules_find(row, U64(0), BLIND, position, score, rival, cur, False, False, seats)
    if p < 0:
        return np.int64(NO_RULE)
    return _auction_call(np.int64(row[p + 1]), cur)


@jit(inline="always")
def rules_looked(row, hand, position, score, rival, cur, others_blind, seats):
    """The call after looking at ``hand`` (PASS or a bid) of the first LOOKED rule that holds;
    NO_RULE when none holds or its bid is not allowed."""
    p = rules_find(row, hand, LOOKED, position, score, rival, cur, others_blind, False, seats)
    if p < 0:
        return np.int64(NO_RULE)
    return _auction_call(np.int64(row[p + 1]), cur)


@jit
def rules_contract(row, hand, bid, blind):
    """The row position of the first TALON rule that holds for the declarer's ten cards ``hand``
    after winning at ``bid`` (``blind``: he has not looked); −1 when none holds.  Its call
    (``row[p + 1]``) is ABANDON or DECLARE."""
    return rules_find(row, hand, TALON, -1, 0, 0, bid, False, blind, 0)


@jit
def rules_declare(row, p, hand, bid, out):
    """Fill ``out`` (int64[5], dispatch.choose_contract's layout) for the DECLARE rule at
    ``row[p]``: the trump and the two cards given as heuristic chooses them on ``hand`` (uint64,
    10 cards; :func:`.strategies.best_trump`, :func:`.strategies.choose_gifts`), the target the
    rule's (``estimate + k`` of the eight kept in that trump, or ``bid + k``), made a whole
    number within ``bid`` and 220 (docs/RULES.md §1.4)."""
    trump, _ = best_trump(hand)
    g1, g2 = choose_gifts(hand, trump)
    k = row[p + 3 + 12]
    if np.int64(row[p + 3 + 11]) == T_BID:
        target = np.int64(bid + k)
    else:
        target = np.int64(estimate(U64(hand) & ~(U64(1) << U64(g1)) & ~(U64(1) << U64(g2)), trump) + k)
    out[0] = 0
    out[1] = trump
    out[2] = min(MAX_BID, max(bid, target))
    out[3] = g1
    out[4] = g2


@jit(inline="always")
def rules_abandon(out):
    """Fill ``out`` (int64[5]) for an abandoned contract (docs/RULES.md §1.4)."""
    for i in range(5):
        out[i] = 0
    out[0] = 1


@jit(inline="always")
def base_of(row):
    """The base strategy's id stored in a ``rules`` row (float64[N_PARAMS])."""
    return np.int64(row[TABLE_START])


__all__ = ["LOOK", "PASS", "NO_RULE", "RAISE", "ABANDON", "DECLARE", "BLIND", "LOOKED", "TALON", "T_ESTIMATE",
           "T_BID", "CTX", "rules_find", "rules_blind", "rules_looked", "rules_contract", "rules_declare",
           "rules_abandon", "base_of"]
