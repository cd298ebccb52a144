"""Python entry points of the Vint engine: numpy rows from the jitted kernels."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import grow_until_fits
from cardsim.rng import check_seed

from . import engine
from .line import start_state


MATCH_DEAL_DTYPE = np.dtype([("rubber", "i8")] + engine.ROW_DTYPE.descr)
"""play_match's deal rows: ``rubber`` (the rubber's number) and the deal's ROW_DTYPE fields."""


def simulate_chunk(seed, start, count, setup):
    """Rows (engine.ROW_DTYPE, shape (count,)) of independent deals start..start+count-1."""
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    engine.simulate_kernel(np.uint64(check_seed(seed)), start, count, setup.strategy_ids, setup.params,
                         engine.BASE_DECK, rows)
    return rows


def deal_chunk(seed, start, count):
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(engine.deal_kernel(np.uint64(check_seed(seed)), start, count, engine.BASE_DECK))


def match_left(before, rules=None) -> float:
    """The share of a new rubber's deals still to play from the line ``before`` (for the pool's time
    estimate): about 2.5 games make a rubber; a game up leaves about 1.6, one each 1, less the
    share of the current game the leading side has below the line."""
    values = [int(v) for v in before] + [0, 0]
    b0, b1, g0, g1 = values[:4]
    games = 2.5 if g0 + g1 == 0 else (1.0 if g0 == g1 == 1 else 1.6)
    return max(0.05, min(1.0, (games - max(b0, b1) / 500.0) / 2.5))


def _rubbers(seed, start, count, setup, below, games, dealer, keep_deals):
    """Rubbers ``start..start+count-1`` of ``seed`` from the line ``below``/``games`` (int64[2])
    with ``dealer`` (int64, −1 drawn) dealing first: RUBBER_DTYPE[count], and the deal rows
    ROW_DTYPE[n] with each deal's rubber (int64[n]) — empty unless ``keep_deals``."""
    seed = np.uint64(check_seed(seed))

    def run(capacity):
        rubbers = np.zeros(count, dtype=engine.RUBBER_DTYPE)
        deals = np.zeros(capacity, dtype=engine.ROW_DTYPE)
        rubber_of = np.zeros(capacity, dtype=np.int64)
        n = engine.match_kernel(seed, np.int64(start), np.int64(count), setup.strategy_ids, setup.params,
                                engine.BASE_DECK, below, games, dealer, rubbers, deals, rubber_of)
        return n, (n, rubbers, deals, rubber_of)

    n, rubbers, deals, rubber_of = grow_until_fits(run, max(64, 16 * count) if keep_deals else 0)
    return rubbers, deals[:n], rubber_of[:n]


def play_matches(seed, start, count, setup, before=None, dealer=None):
    """Rubbers ``start..start+count-1``: (rubber rows RUBBER_DTYPE, deal rows ROW_DTYPE + ``rubber``).

    Every rubber starts from the line ``before`` (``[below0, below1, games0, games1]``, by team;
    None: a clean line) with seat ``dealer`` dealing first (None: drawn per rubber), see
    :func:`start_state`; its points and deals count from there on.  From a clean line and a drawn
    dealer, rubber ``m`` is the same whichever way it is asked for.  Raises OptionError for a bad
    state or dealer."""
    below, games, first = start_state(before, dealer)
    rubbers, deals, rubber_of = _rubbers(seed, start, count, setup, below, games, first, True)
    out = np.zeros(len(deals), dtype=MATCH_DEAL_DTYPE)
    out["rubber"] = rubber_of
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
    first (−1: drawn by each rubber's first deal); rows :data:`STATE_RUBBER_DTYPE`.  These are
    :func:`play_matches`' rubbers from the same state (the same kernel, without the deal rows):
    rubber ``m`` is ``play_match``'s rubber ``m`` from ``before=[*below, *games]``."""
    dealer = int(dealer)
    below, games, first = start_state([*below, *games], None if dealer < 0 else dealer)
    rubbers, _, _ = _rubbers(seed, start, count, setup, below, games, first, False)
    rows = np.zeros(count, dtype=STATE_RUBBER_DTYPE)
    rows["rubber"] = rubbers["rubber"]
    rows["winner"] = rubbers["winner"]
    rows["margin_0"] = rubbers["points_0"].astype(np.int64) - rubbers["points_1"]
    rows["deals"] = rubbers["deals"]
    return rows
