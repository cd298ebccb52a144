"""What the games' double-dummy hooks (``cardsim/games/<game>/dd.py``, :class:`cardsim.games.base.DDHooks`)
share, below the games: card tokens as a bit set, a solver's batch over the played positions with
a transposition table kept per process, and one line of a DD table for people.  :mod:`cardsim.dd`
builds the frames from what the hooks return.

No jitted module imports this one, so an edit here leaves the compiled kernels' source hash
(:mod:`cardsim._jit`) as it is.
"""
from __future__ import annotations

import numpy as np


def token_bits(tokens, parse) -> int:
    """The bit set (Python int) of card tokens (a record's hand, talon, discard), each parsed to
    a card index by ``parse`` (which raises for a token that is no card)."""
    h = 0
    for t in tokens:
        h |= 1 << parse(t)
    return h


_TABLES: dict = {}


def solve_played(key: str, solver, hands, decl, denoms, played) -> np.ndarray:
    """DD results (int64[n]) of the played positions with ``solver`` = ``(solve_batch,
    new_table)`` (a game's numba batch solver and its table maker) and the transposition table
    kept under ``key`` (allocated once per process and kept across calls: an entry holds a whole
    position, so entries stay valid from one deal to the next); -1 where ``played`` is False."""
    solve_batch, new_table = solver
    if key not in _TABLES:
        _TABLES[key] = new_table()
    keys, bounds = _TABLES[key]
    out = np.full(len(played), -1, dtype=np.int64)
    idx = np.flatnonzero(played)
    got = np.zeros(len(idx), dtype=np.int64)
    solve_batch(hands[idx], decl[idx], np.asarray(denoms)[idx].astype(np.int64), keys, bounds, got,
                np.zeros(1, dtype=np.int64))
    out[idx] = got
    return out


def table_row(label, values, width=4) -> str:
    """One line of a DD table for people (``cardsim dd``): ``label`` left-aligned in 8
    characters, then each of ``values`` right-aligned in ``width``."""
    return f"{label:<8}" + "".join(f"{v:>{width}}" for v in values)
