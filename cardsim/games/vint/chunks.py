"""Python entry points of the Vint engine: numpy rows from the jitted kernels."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import grow_until_fits
from cardsim.rng import check_seed

from . import engine


def simulate_chunk(seed, start, count, setup):
    """Rows (engine.ROW_DTYPE, shape (count,)) of independent deals start..start+count-1."""
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    engine.simulate_kernel(np.uint64(check_seed(seed)), start, count, setup.strategy_ids, setup.params,
                         engine.BASE_DECK, rows)
    return rows


def deal_chunk(seed, start, count):
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(engine.deal_kernel(np.uint64(check_seed(seed)), start, count, engine.BASE_DECK))


def play_matches(seed, start, count, setup):
    """Rubbers ``start..start+count-1``: (rubber rows RUBBER_DTYPE, deal rows ROW_DTYPE + ``rubber``)."""
    seed = np.uint64(check_seed(seed))

    def run(capacity):
        rubbers = np.zeros(count, dtype=engine.RUBBER_DTYPE)
        deals = np.zeros(capacity, dtype=engine.ROW_DTYPE)
        rubber_of = np.zeros(capacity, dtype=np.int64)
        n = engine.match_kernel(seed, start, count, setup.strategy_ids, setup.params, engine.BASE_DECK,
                                rubbers, deals, rubber_of)
        return n, (n, rubbers, deals, rubber_of)

    n, rubbers, deals, rubber_of = grow_until_fits(run, max(64, 16 * count))
    deals = deals[:n]
    out = np.zeros(n, dtype=np.dtype([("rubber", "i8")] + engine.ROW_DTYPE.descr))
    out["rubber"] = rubber_of[:n]
    for name in engine.ROW_DTYPE.names:
        out[name] = deals[name]
    return rubbers, out
