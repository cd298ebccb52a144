"""The jitted half of the rule-file interpreter that every game shares: a rule's condition on
the hand, read from the compiled rule block (docs/rules-files.md, "How a file is compiled").

A compiled file lives in the table block of the seat's parameter row
(:data:`cardsim.strategies.registry.TABLE_START` on, float64); :mod:`cardsim.rules.compile`
writes it and the game's context matcher (``cardsim/games/<game>/rulefile.py``) walks it.  A
condition, at position ``pos`` of the row, is::

    n_clauses, (feature, lo, hi) * n_clauses, n_cards, (required_lo, required_hi, excluded_lo, excluded_hi) * n_cards

``feature`` is an index into the game's feature table (``cardsim/games/<game>/features.py``:
``TERM_MASK``, ``TERM_SHIFT``, ``TERM_WEIGHT``, ``TERM_START``), so every feature the
conditions module knows works here, computed as the conditioned dealer computes it
(:func:`cardsim.deal.term_sum`); ``lo``/``hi`` are inclusive.  Card masks (uint64) are stored as
two 32-bit halves, each exact in a float64; ``n_cards`` is 0 or 1.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.deal import term_sum

U64 = np.uint64


@jit(inline="always")
def _mask(row, pos):
    """The uint64 card mask stored as two 32-bit halves at ``row[pos]`` (low) and ``row[pos + 1]``."""
    return (U64(np.int64(row[pos + 1])) << U64(32)) | U64(np.int64(row[pos]))


@jit(inline="always")
def condition_holds(row, pos, hand, masks, shifts, weights, start):
    """Whether the condition stored at ``row[pos]`` (float64 row, layout in the module docstring)
    holds for ``hand`` (uint64); the features are the game's term tables (``masks`` uint64[T],
    ``shifts`` uint64[T], ``weights`` int64[T], ``start`` int64[F + 1]).  Stops at the first
    clause that fails."""
    n = np.int64(row[pos])
    p = pos + 1
    for _ in range(n):
        f = np.int64(row[p])
        v = term_sum(hand, masks, shifts, weights, start[f], start[f + 1])
        if v < row[p + 1] or v > row[p + 2]:
            return False
        p += 3
    if np.int64(row[p]) > 0:
        required = _mask(row, p + 1)
        excluded = _mask(row, p + 3)
        h = U64(hand)
        if (h & required) != required or (h & excluded) != U64(0):
            return False
    return True
