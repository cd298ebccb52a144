"""A strategy bug is an error, never a silently corrected result."""
import types

import numpy as np
import pytest

from cardsim.games.g500 import dispatch as D500
from cardsim.games.g500 import engine as E500
from cardsim.games.g500.constants import NT


def _with_strategy(func, **dispatch):
    """The plain-Python body of the jitted engine function ``func``, its dispatch functions
    replaced by ``dispatch`` (a buggy strategy no registry holds)."""
    py = func.py_func
    return types.FunctionType(py.__code__, {**py.__globals__, **dispatch}, py.__name__, py.__defaults__)


def _table():
    ids = np.ones(4, dtype=np.int64)
    params = np.zeros((4, 8))
    streams = np.zeros((5, 1), dtype=np.uint64)
    res = np.zeros(E500.R_LEN, dtype=np.int64)
    return ids, params, streams, res


def test_five_hundred_raises_on_an_insufficient_bid():
    ids, params, streams, res = _table()
    hands = np.array([0xFFC, 0xFFC << 16, 0xFFC << 32, 0xFFC << 48], dtype=np.uint64)
    auction = _with_strategy(E500.run_auction, choose_call=lambda *a: np.int64(3))  # 3 again after a 3
    with pytest.raises(ValueError, match="insufficient or unknown bid"):
        auction(np.int64(0), ids, params, streams, hands, np.int64(0), np.int64(1000), np.int64(0), np.int64(0),
                np.zeros(0, dtype=np.int64), res, E500.NO_FORCE.copy(), np.zeros(E500.MAX_CALLS, dtype=np.int64))


def test_five_hundred_raises_on_an_illegal_discard():
    ids, params, streams, res = _table()
    eff = np.array([0x3FF, 0, 0, 0], dtype=np.uint64)
    kitty = np.uint64(0x3F << 16)
    take = _with_strategy(E500.take_kitty, choose_discard=lambda *a: np.uint64(0x1F))  # five cards
    with pytest.raises(ValueError, match="illegal discard"):
        take(np.int64(0), np.int64(NT), ids, params, streams, kitty, eff, res, np.int64(-1))


def test_five_hundred_raises_on_an_illegal_card():
    ids, params, streams, res = _table()
    eff = np.array([0x3FF, 0x3FF << 16, 0x3FF << 32, 0x3FF << 48], dtype=np.uint64)
    # seat 0 leads its lowest card; seat 1 then plays a card it does not hold
    card = _with_strategy(E500.play_tricks, choose_card=lambda sid, p, s, seat, *a: np.int64(0 if seat == 0 else 5))
    with pytest.raises(ValueError, match="illegal card"):
        card(np.int64(0), np.int64(5), np.uint64(0), ids, params, streams, eff, np.zeros(4, dtype=np.int64),
             np.zeros(0, dtype=np.int64), res, np.int64(-1), D500.unread_auction())
