"""Duel's numpy entry points (what the spec calls)."""
from __future__ import annotations

import numpy as np

from cardsim.rng import check_seed

from . import engine


def simulate_chunk(seed, start, count, setup):
    """Rows (engine.ROW_DTYPE, shape (count,)) of independent deals start..start+count-1."""
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    engine.simulate_rows(np.uint64(check_seed(seed)), np.int64(start), np.int64(count), setup.strategy_ids,
                         setup.params, rows)
    return rows


def deal_chunk(seed, start, count):
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(engine.deal_only(np.uint64(check_seed(seed)), np.int64(start), np.int64(count)))
