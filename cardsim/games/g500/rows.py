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
from cardsim.names import SUITS


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
MATCH_DOC = """play_match's deal rows carry ``match`` first, then the deal columns, then the team
scores before the deal ``before_0``/``before_1``.  One row per match: winning team (-1 if the deal cap was hit), deals played (thrown-in
deals included), final team scores, thrown-in deals, first dealer."""


U11 = np.uint64(0x7FF)
U4 = np.uint64(0xF)
UJ = np.uint64(JACK)


@jit(inline="always")
def _features(r, p, h, jacks):
    """Hand features of seat ``p`` (0..3; 4 = the kitty) into record ``r``: jokers, bowers,
    length and honours per suit."""
    # numba needs field names spelt out; the four seats and the kitty share this code through ``p``.
    jokers = popcount(h & JOKER_MASK)
    bowers = popcount(h & jacks)
    ls = popcount(lane(h, 0) & U11)
    lc = popcount(lane(h, 1) & U11)
    ld = popcount(lane(h, 2) & U11)
    lh = popcount(lane(h, 3) & U11)
    hs = np.int64((lane(h, 0) >> UJ) & U4)
    hc = np.int64((lane(h, 1) >> UJ) & U4)
    hd = np.int64((lane(h, 2) >> UJ) & U4)
    hh = np.int64((lane(h, 3) >> UJ) & U4)
    if p == 0:
        r.jokers_0, r.bowers_0 = jokers, bowers
        r.len_0_S, r.len_0_C, r.len_0_D, r.len_0_H = ls, lc, ld, lh
        r.high_0_S, r.high_0_C, r.high_0_D, r.high_0_H = hs, hc, hd, hh
    elif p == 1:
        r.jokers_1, r.bowers_1 = jokers, bowers
        r.len_1_S, r.len_1_C, r.len_1_D, r.len_1_H = ls, lc, ld, lh
        r.high_1_S, r.high_1_C, r.high_1_D, r.high_1_H = hs, hc, hd, hh
    elif p == 2:
        r.jokers_2, r.bowers_2 = jokers, bowers
        r.len_2_S, r.len_2_C, r.len_2_D, r.len_2_H = ls, lc, ld, lh
        r.high_2_S, r.high_2_C, r.high_2_D, r.high_2_H = hs, hc, hd, hh
    elif p == 3:
        r.jokers_3, r.bowers_3 = jokers, bowers
        r.len_3_S, r.len_3_C, r.len_3_D, r.len_3_H = ls, lc, ld, lh
        r.high_3_S, r.high_3_C, r.high_3_D, r.high_3_H = hs, hc, hd, hh
    else:
        r.kitty_jokers = jokers
        r.kitty_len_S, r.kitty_len_C, r.kitty_len_D, r.kitty_len_H = ls, lc, ld, lh
        r.kitty_high_S, r.kitty_high_C, r.kitty_high_D, r.kitty_high_H = hs, hc, hd, hh


@jit
def _fill(rows, res, deal_numbers):
    for i in range(res.shape[0]):
        x = res[i]
        r = rows[i]
        bid = x[E.R_BID]
        has = bid >= 0
        decl = x[E.R_DECLARER]
        r.deal = deal_numbers[i]
        r.dealer = x[E.R_DEALER]
        r.declarer = decl
        r.contract = bid
        r.denomination = bid % 5 if has else -1
        r.level = 6 + bid // 5 if has else 0
        r.value = BID_VALUES[bid] if has else 0
        r.n_calls = x[E.R_NCALLS]
        r.tricks_0, r.tricks_1 = x[E.R_TRICKS0], x[E.R_TRICKS1]
        r.decl_tricks = (x[E.R_TRICKS0] if decl % 2 == 0 else x[E.R_TRICKS1]) if has else 0
        r.made = x[E.R_MADE] == 1
        r.delta_0, r.delta_1 = x[E.R_DELTA0], x[E.R_DELTA1]
        r.quebec_0, r.quebec_1 = x[E.R_Q0], x[E.R_Q1]
        r.subtract_0, r.subtract_1 = x[E.R_S0], x[E.R_S1]
        r.winner = x[E.R_WINNER]
        r.hand_0, r.hand_1 = np.uint64(x[E.R_HAND0]), np.uint64(x[E.R_HAND0 + 1])
        r.hand_2, r.hand_3 = np.uint64(x[E.R_HAND0 + 2]), np.uint64(x[E.R_HAND0 + 3])
        r.kitty = np.uint64(x[E.R_KITTY])
        r.discard = np.uint64(x[E.R_DISCARD])
        # The bowers of the trump suit: its jack and the jack of the same colour (suit ^ 1).
        jacks = np.uint64(0)
        if has and bid % 5 < 4:
            t = bid % 5
            jacks = (np.uint64(1) << np.uint64(16 * t + JACK)) | (np.uint64(1) << np.uint64(16 * (t ^ 1) + JACK))
        for p in range(4):
            _features(r, p, np.uint64(x[E.R_HAND0 + p]), jacks)
        _features(r, 4, np.uint64(x[E.R_KITTY]), jacks)


def fill_rows(rows, res, deal_numbers):
    """Fill structured ``rows`` (ROW_DTYPE or MATCH_DEAL_DTYPE) from ``res`` (int64[n, R_LEN])."""
    if rows.shape[0] == 0:
        return rows
    _fill(rows, res, np.asarray(deal_numbers, dtype=np.int64))
    return rows
