"""Five Hundred's jitted rule-file interpreter (docs/rules-files.md): the ``rules`` strategy's bid.

A compiled file sits in the seat's parameter row from :data:`cardsim.strategies.registry.TABLE_START`:
``base id, n_rules, 0``, then each rule ``length, call, condition offset, who, bid`` and its
condition (:mod:`cardsim.rule_kernel`).  ``who`` is who holds the standing bid (:data:`NOBODY`,
:data:`PARTNER`, :data:`OPPONENT`, :data:`SOMEONE`, :data:`ANYONE`), ``bid`` the standing bid
number (0..24) or :data:`ANY_BID`; ``call`` a bid number or :data:`.constants.PASS`.  The
pattern language and its compiler: :mod:`.rulefile`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.rule_kernel import condition_holds
from cardsim.strategies.registry import TABLE_START

from .constants import PASS
from .features import TERM_MASK, TERM_SHIFT, TERM_START, TERM_WEIGHT

NOBODY, PARTNER, OPPONENT, SOMEONE, ANYONE = 0, 1, 2, 3, 4
"""Who holds the standing bid, as a rule names it: nobody has bid, partner (our side),
an opponent, someone (either), or anything (the bid may stand or not)."""
ANY_BID = -1
"""A ``*`` standing bid: any."""
NO_RULE = -2
"""What :func:`rules_call` returns when the base strategy is to bid (PASS is -1)."""


@jit(inline="always")
def _standing_matches(row, p, seat, high_bid, high_seat):
    who = np.int64(row[p])
    if who == ANYONE:
        return True
    if high_seat < 0:
        return who == NOBODY
    if who == NOBODY:
        return False
    side = PARTNER if (high_seat - seat) % 2 == 0 else OPPONENT
    if who != SOMEONE and who != side:
        return False
    bid = np.int64(row[p + 1])
    return bid == ANY_BID or bid == high_bid


@jit
def rules_call(row, hand, seat, high_bid, high_seat):
    """The bid (0..24, or PASS −1) the rule file compiled into ``row`` (float64[N_PARAMS]) makes
    for ``seat`` with ``hand`` (uint64, physical) when ``high_bid`` stands (−1: none), made by
    ``high_seat`` (−1: none): the first rule whose standing pattern and condition hold gives it;
    :data:`NO_RULE` when none holds or its bid is not above ``high_bid`` (then the base bids)."""
    n = np.int64(row[TABLE_START + 1])
    pos = TABLE_START + 3
    for _ in range(n):
        length = np.int64(row[pos])
        if _standing_matches(row, pos + 3, seat, high_bid, high_seat) and condition_holds(
                row, pos + np.int64(row[pos + 2]), hand, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START):
            call = np.int64(row[pos + 1])
            if call != PASS and call <= high_bid:
                return np.int64(NO_RULE)
            return call
        pos += length
    return np.int64(NO_RULE)


@jit(inline="always")
def base_of(row):
    """The base strategy's id stored in a ``rules`` row (float64[N_PARAMS])."""
    return np.int64(row[TABLE_START])
