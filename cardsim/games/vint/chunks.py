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


STATE_RUBBER_DTYPE = np.dtype([("rubber", "i8"), ("winner", "i1"), ("margin_0", "i8"), ("deals", "i4")])
"""Rubbers played on from a given line (:func:`rubbers_from`): ``rubber`` its number, ``winner``
(team, −1 when stopped unfinished at ``engine.MAX_RUBBER_DEALS`` deals), ``margin_0`` team 0's
total minus team 1's over the deals played (score points, above + below; the earlier deals'
points are not in it) and ``deals`` played (void deals included)."""


def rubbers_from(seed, start, count, setup, below=(0, 0), games=(0, 0), dealer=-1) -> np.ndarray:
    """Rubbers ``start..start+count-1`` of ``seed`` played on by the strategies from ``below``
    points below the line and ``games`` won (by team, docs/RULES.md §2.7) with ``dealer`` dealing
    first (−1: drawn by each rubber's first deal); rows :data:`STATE_RUBBER_DTYPE`.  From a clean
    line and a drawn dealer, rubber ``m`` is :func:`play_matches`' rubber ``m``."""
    out = np.zeros((count, engine.N_RU), dtype=np.int64)
    engine.state_rubbers(np.uint64(check_seed(seed)), np.int64(start), np.int64(count), setup.strategy_ids,
                         setup.params, engine.BASE_DECK, np.asarray(below, dtype=np.int64), np.asarray(games, dtype=np.int64),
                         np.int64(dealer), out)
    rows = np.zeros(count, dtype=STATE_RUBBER_DTYPE)
    rows["rubber"] = np.arange(start, start + count)
    rows["winner"] = out[:, engine.RU_WINNER]
    rows["margin_0"] = out[:, engine.RU_MARGIN]
    rows["deals"] = out[:, engine.RU_DEALS]
    return rows
