"""Vint's jitted rule-file interpreter (docs/rules-files.md): the ``rules`` strategy's call.

A compiled file sits in the seat's parameter row from :data:`cardsim.strategies.registry.TABLE_START`:
``base id, n_rules, most tokens of a pattern``, then each rule ``length, call, condition offset, dots, n_tokens,
token * n_tokens`` and its condition (:mod:`cardsim.rule_kernel`); a token is the call number
(0 pass, 1..35 a bid, :mod:`.rules`), :data:`ANY_CALL` or :data:`ANY_BID`; ``dots`` 1 when the
pattern opens with ``...`` (any number of passes first).  The pattern language and its
compiler: :mod:`.rulefile`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.rule_kernel import condition_holds
from cardsim.strategies.registry import TABLE_START

from .features import TERM_MASK, TERM_SHIFT, TERM_START, TERM_WEIGHT
from .rules import PASS

ANY_CALL = -1
"""A ``*`` token: any one call."""
ANY_BID = -2
"""A ``bid`` token: any one bid."""


@jit(inline="always")
def _auction_matches(row, p, calls, ncalls, lead):
    """Whether ``calls[:ncalls]``, whose first ``lead`` calls are passes (and no more), matches
    the compiled pattern at ``row[p]``."""
    ntok = np.int64(row[p + 1])
    k = ncalls - ntok  # the calls the pattern's leading "..." covers: passes only
    if k < 0 or k > lead or (k > 0 and row[p] == 0.0):
        return False
    for i in range(ntok):
        t = np.int64(row[p + 2 + i])
        c = calls[k + i]
        if t >= 0:
            if c != t:
                return False
        elif t == ANY_BID and c == PASS:
            return False
    return True


@jit
def rules_call(row, hand, calls, ncalls, current):
    """The call the rule file compiled into ``row`` (float64[N_PARAMS], the seat's parameter row)
    makes with ``hand`` (uint64) after ``calls[:ncalls]`` (int64, from the dealer's) with the
    standing bid ``current``: the first rule whose auction pattern and condition hold gives it;
    −1 when no rule holds or the rule's bid is not above ``current`` (then the base strategy
    calls, docs/rules-files.md).

    The header's third number is the most tokens of any pattern: an auction with more calls
    after its leading passes matches no rule (most calls of a Vint auction, made after the
    opening), so the rules are not walked at all."""
    lead = np.int64(0)
    while lead < ncalls and calls[lead] == PASS:
        lead += 1
    if ncalls - lead > np.int64(row[TABLE_START + 2]):
        return np.int64(-1)
    n = np.int64(row[TABLE_START + 1])
    pos = TABLE_START + 3
    for _ in range(n):
        length = np.int64(row[pos])
        if _auction_matches(row, pos + 3, calls, ncalls, lead) and condition_holds(
                row, pos + np.int64(row[pos + 2]), hand, TERM_MASK, TERM_SHIFT, TERM_WEIGHT, TERM_START):
            call = np.int64(row[pos + 1])
            if call != PASS and call <= current:
                return np.int64(-1)
            return call
        pos += length
    return np.int64(-1)


@jit(inline="always")
def base_of(row):
    """The base strategy's id stored in a ``rules`` row (float64[N_PARAMS])."""
    return np.int64(row[TABLE_START])
