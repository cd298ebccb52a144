"""Row dtypes of Five Hundred and their construction from engine result vectors.

One row per deal (flat scalar fields, compact dtypes).  Hand features are computed with
vectorised numpy from the dealt hands after the jitted loop, once per chunk.

Fields (per deal)
-----------------
``deal`` (int64; within a match: the deal's number in the match), ``dealer``, ``declarer``
(-1: thrown in), ``contract`` (bid number 0..24 = (tricks-6)*5 + denomination, -1 none),
``denom`` (0..3 trump S C D H, 4 NT, -1), ``level`` (tricks bid, 0 none), ``value`` (bid table
points, 0 none), ``calls`` (number of calls), ``tricks_0``/``tricks_1`` (by team; team 0 =
seats 0+2), ``decl_tricks``, ``made``, ``delta_0``/``delta_1`` (score change under the run's
``scoring``), ``quebec_0/1`` and ``subtract_0/1`` (the change under each scoring),
``winner`` (team that reached the target, -1 none; a lone deal starts from 0-0), the
physical bit sets ``hand_0..3``, ``kitty``, ``discard`` (uint64, layout of
:mod:`cardsim.games.g500.constants`), and per seat ``p``: ``jokers_p``, ``bowers_p`` (bowers of
the contract's trump suit, 0 in no-trump or thrown in), ``len_p_X`` and ``high_p_X`` for suits
``X`` in ``SCDH`` (length without the jokers; honours held as a bit mask A=8 K=4 Q=2 J=1);
``kitty_jokers``, ``kitty_len_X``, ``kitty_high_X`` (the kitty the declarer takes).
"""
from __future__ import annotations

import numpy as np

from cardsim.games.g500 import engine as E
from cardsim.games.g500.constants import BID_VALUES, HJ, JACK, LJ

SUITS = "SCDH"


def _fields():
    f = [("deal", np.int64), ("dealer", np.int8), ("declarer", np.int8), ("contract", np.int8),
         ("denom", np.int8), ("level", np.int8), ("value", np.int16), ("calls", np.int8),
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
"""One row per match: winning team (-1 if the deal cap was hit), deals played (thrown-in
deals included), final team scores, thrown-in deals, first dealer."""


def _features(rows, hand, prefix_len, prefix_high, prefix_jok):
    one = np.uint64(1)
    rows[prefix_jok] = ((hand >> np.uint64(LJ)) & one).astype(np.int8) + ((hand >> np.uint64(HJ)) & one).astype(np.int8)
    for s, x in enumerate(SUITS):
        ln = (hand >> np.uint64(16 * s)) & np.uint64(0x7FF)
        rows[f"{prefix_len}{x}"] = np.bitwise_count(ln).astype(np.int8)
        rows[f"{prefix_high}{x}"] = ((ln >> np.uint64(JACK)) & np.uint64(0xF)).astype(np.int8)


def fill_rows(rows, res, deal_numbers):
    """Fill structured ``rows`` (ROW_DTYPE or MATCH_DEAL_DTYPE) from ``res`` (int64[n, R_LEN])."""
    rows["deal"] = deal_numbers
    rows["dealer"] = res[:, E.R_DEALER]
    decl = res[:, E.R_DECLARER]
    bid = res[:, E.R_BID]
    has = bid >= 0
    rows["declarer"] = decl
    rows["contract"] = bid
    rows["denom"] = np.where(has, bid % 5, -1)
    rows["level"] = np.where(has, 6 + bid // 5, 0)
    rows["value"] = np.where(has, BID_VALUES[np.maximum(bid, 0)], 0)
    rows["calls"] = res[:, E.R_NCALLS]
    t0, t1 = res[:, E.R_TRICKS0], res[:, E.R_TRICKS1]
    rows["tricks_0"] = t0
    rows["tricks_1"] = t1
    rows["decl_tricks"] = np.where(has, np.where(decl % 2 == 0, t0, t1), 0)
    rows["made"] = res[:, E.R_MADE] == 1
    rows["delta_0"] = res[:, E.R_DELTA0]
    rows["delta_1"] = res[:, E.R_DELTA1]
    rows["quebec_0"] = res[:, E.R_Q0]
    rows["quebec_1"] = res[:, E.R_Q1]
    rows["subtract_0"] = res[:, E.R_S0]
    rows["subtract_1"] = res[:, E.R_S1]
    rows["winner"] = res[:, E.R_WINNER]
    hands = res[:, E.R_HAND0:E.R_HAND0 + 4].view(np.uint64)
    for p in range(4):
        rows[f"hand_{p}"] = hands[:, p]
    kitty = res[:, E.R_KITTY].view(np.uint64)
    rows["kitty"] = kitty
    rows["discard"] = res[:, E.R_DISCARD].view(np.uint64)
    trump = np.where(has & (bid % 5 < 4), bid % 5, 0).astype(np.uint64)
    jacks = (np.uint64(1) << (trump * np.uint64(16) + np.uint64(JACK))) | (
        np.uint64(1) << ((trump ^ np.uint64(1)) * np.uint64(16) + np.uint64(JACK)))
    jacks = np.where(has & (bid % 5 < 4), jacks, np.uint64(0))
    for p in range(4):
        _features(rows, hands[:, p], f"len_{p}_", f"high_{p}_", f"jokers_{p}")
        rows[f"bowers_{p}"] = np.bitwise_count(hands[:, p] & jacks).astype(np.int8)
    _features(rows, kitty, "kitty_len_", "kitty_high_", "kitty_jokers")
    return rows
