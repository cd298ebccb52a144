"""Row dtypes of Five Hundred and their construction from engine result vectors.

One row per deal (flat scalar fields, compact dtypes).  Hand features are computed with
vectorised numpy from the dealt hands after the jitted loop, once per chunk.

Fields (per deal)
-----------------
``deal`` (int64; within a match: the deal's number in the match), ``dealer``, ``declarer``
(-1: thrown in), ``contract`` (bid number 0..24 = (tricks-6)*5 + denomination, -1 none),
``denomination`` (0..3 trump S C D H, 4 NT, -1), ``level`` (tricks bid, 0 none), ``value`` (bid table
points, 0 none), ``n_calls`` (number of calls), ``tricks_0``/``tricks_1`` (by team; team 0 =
seats 0+2), ``decl_tricks``, ``made``, ``delta_0``/``delta_1`` (score change under the run's
``scoring``), ``quebec_0/1`` and ``subtract_0/1`` (the change under each scoring),
``winner`` (team that reached the target, -1 none; a lone deal starts from 0-0), the
physical bit sets ``hand_0..3``, ``kitty``, ``discard`` (uint64, layout of
:mod:`cardsim.games.g500.constants`), and per seat ``p``: ``jokers_p``, ``bowers_p`` (bowers of
the contract's trump suit, 0 in no-trump or thrown in), ``len_p_X`` and ``high_p_X`` for suits
``X`` in ``SCDH`` (physical suit length: jokers excluded, a jack counted in its printed suit even
when it is a bower; honours held as a bit mask A=8 K=4 Q=2 J=1);
``kitty_jokers``, ``kitty_len_X``, ``kitty_high_X`` (the kitty the declarer takes).
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lane, popcount
from cardsim.games.g500 import engine as E
from cardsim.games.g500.constants import BID_VALUES, JACK, JOKER_MASK

SUITS = "SCDH"


def _fields():
    f = [("deal", np.int64), ("dealer", np.int8), ("declarer", np.int8), ("contract", np.int8),
         ("denomination", np.int8), ("level", np.int8), ("value", np.int16), ("n_calls", np.int8),
         ("tricks_0", np.int8), ("tricks_1", np.int8), ("decl_tricks", np.int8), ("made", np.bool_),
         ("delta_0", np.int16), ("delta_1", np.int16), ("quebec_0", np.int16), ("quebec_1", np.int16),
         ("subtract_0", np.int16), ("subtract_1", np.int16), ("winner", np.int8)]
    f += [(f"hand_{p}", np.uint64) for p in range(4)]
    f += [("kitty", np.uint64), ("discard", np.uint64)]
    for p in range(4):
        f += [(f"jokers_{p}", np.int8), (f"bowers_{p}", np.int8)]
        f += [(f"len_{p}_{x}", np.int8) for x in SUITS]
        f += [(f"high_{p}_{x}", np.int8) for x in SUITS]
    f += [("kitty_jokers", np.int8)]
    f += [(f"kitty_len_{x}", np.int8) for x in SUITS]
    f += [(f"kitty_high_{x}", np.int8) for x in SUITS]
    return f


ROW_DTYPE = np.dtype(_fields())
MATCH_DEAL_DTYPE = np.dtype([("match", np.int64)] + _fields() + [("before_0", np.int32), ("before_1", np.int32)])
"""Deal rows of matches: ``match`` id, the row fields (``deal`` = number within the match),
and the team scores before the deal."""
MATCH_DTYPE = np.dtype([("match", np.int64), ("winner", np.int8), ("deals", np.int16),
                        ("score_0", np.int32), ("score_1", np.int32), ("thrown_in", np.int16),
                        ("first_dealer", np.int8)])
MATCH_DOC = """One row per match: winning team (-1 if the deal cap was hit), deals played (thrown-in
deals included), final team scores, thrown-in deals, first dealer."""


ROW_NAMES = ROW_DTYPE.names


@jit
def _put(buf, off, size, value):
    """Write the low ``size`` bytes of int64 ``value`` little-endian at ``buf[off:]``."""
    v = np.int64(value)
    for b in range(size):
        buf[off + b] = np.uint8((v >> (8 * b)) & 0xFF)


@jit
def pack_rows(res, deal_numbers, out, offs, sizes):
    """Fill the bytes ``out`` (uint8[n, itemsize]) of rows from ``res`` (int64[n, R_LEN]).

    ``offs``/``sizes``: byte offset and size of every field of ROW_DTYPE (in ROW_NAMES order)
    inside the target dtype, so the same code fills plain and match deal rows.
    """
    for i in range(res.shape[0]):
        r = res[i]
        buf = out[i]
        bid = r[E.R_BID]
        has = bid >= 0
        decl = r[E.R_DECLARER]
        vals = (deal_numbers[i], r[E.R_DEALER], decl, bid, bid % 5 if has else -1,
                6 + bid // 5 if has else 0, BID_VALUES[bid] if has else 0, r[E.R_NCALLS],
                r[E.R_TRICKS0], r[E.R_TRICKS1],
                (r[E.R_TRICKS0] if decl % 2 == 0 else r[E.R_TRICKS1]) if has else 0,
                1 if r[E.R_MADE] == 1 else 0, r[E.R_DELTA0], r[E.R_DELTA1], r[E.R_Q0], r[E.R_Q1],
                r[E.R_S0], r[E.R_S1], r[E.R_WINNER],
                r[E.R_HAND0], r[E.R_HAND0 + 1], r[E.R_HAND0 + 2], r[E.R_HAND0 + 3],
                r[E.R_KITTY], r[E.R_DISCARD])
        k = 0
        for v in vals:
            _put(buf, offs[k], sizes[k], v)
            k += 1
        jacks = np.uint64(0)
        if has and bid % 5 < 4:
            t = bid % 5
            jacks = (np.uint64(1) << np.uint64(16 * t + JACK)) | (np.uint64(1) << np.uint64(16 * (t ^ 1) + JACK))
        for p in range(5):
            h = np.uint64(r[E.R_HAND0 + p] if p < 4 else r[E.R_KITTY])
            _put(buf, offs[k], sizes[k], popcount(h & JOKER_MASK))
            k += 1
            if p < 4:
                _put(buf, offs[k], sizes[k], popcount(h & jacks))
                k += 1
            for s in range(4):
                _put(buf, offs[k], sizes[k], popcount(lane(h, s) & np.uint64(0x7FF)))
                k += 1
            for s in range(4):
                _put(buf, offs[k], sizes[k], np.int64((lane(h, s) >> np.uint64(JACK)) & np.uint64(0xF)))
                k += 1


def layout(dtype):
    """Byte offsets and sizes (int64 arrays) of the ROW_DTYPE fields inside ``dtype``."""
    offs = np.array([dtype.fields[n][1] for n in ROW_NAMES], dtype=np.int64)
    sizes = np.array([dtype.fields[n][0].itemsize for n in ROW_NAMES], dtype=np.int64)
    return offs, sizes


def fill_rows(rows, res, deal_numbers):
    """Fill structured ``rows`` (ROW_DTYPE or MATCH_DEAL_DTYPE) from ``res`` (int64[n, R_LEN])."""
    if rows.shape[0] == 0:
        return rows
    offs, sizes = layout(rows.dtype)
    out = rows.view(np.uint8).reshape(rows.shape[0], rows.dtype.itemsize)
    pack_rows(res, np.asarray(deal_numbers, dtype=np.int64), out, offs, sizes)
    return rows
