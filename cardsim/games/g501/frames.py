"""501's typed frame columns (:class:`cardsim.games.base.FrameHooks`, used by :mod:`cardsim.frames`)."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import FrameHooks
from cardsim.names import DENOMINATIONS


def deals(c, seats: int) -> dict:
    """Typed 501 deal columns (3 or 4 seats; docs/RULES.md §1)."""
    from cardsim.typed_columns import (  # local: pandas, which a worker playing chunks never loads
        nullable_bool as _bool, nullable_int as _int, ordered_categorical as _cat)

    void = c("declarer") < 0
    played = c("played")
    out = {"declarer": _int(c("declarer"), void), "bid": _int(c("bid"), c("bid") <= 0),
           "blind": _bool(c("blind"), void), "target": _int(c("target"), c("target") <= 0),
           "trump": _cat(c("trump"), DENOMINATIONS, c("trump") < 0),
           "abandoned": _bool(c("abandoned"), void),
           # As in the records: a contract given up (abandoned) was not played, so neither made nor failed.
           "made": _bool(c("made"), ~played)}
    dealer = c("dealer")
    for s in range(4):
        absent = np.full(len(void), s >= seats)
        # With four at the table the dealer sits out: no cards, no bid, no play (docs/RULES.md §1.1).
        out_of_deal = absent | ((seats == 4) & (dealer == s))
        out[f"score_{s}"] = _int(c(f"score_{s}"), absent)
        out[f"delta_{s}"] = _int(c(f"delta_{s}"), absent)
        out[f"looked_{s}"] = _bool(c(f"looked_{s}"), out_of_deal)
        for name in ("cards", "marr", "hand_pts", "marr_held", "aces_held", "tens_held"):
            out[f"{name}_{s}"] = _int(c(f"{name}_{s}"), out_of_deal)
    return out


def matches(c, seats: int) -> dict:
    """Typed game columns: seat 3's missing at a 3-seat table."""
    from cardsim.typed_columns import nullable_bool, nullable_int  # local: pandas, which a worker playing chunks never loads

    n = len(c("match"))
    out = {}
    for s in range(4):
        absent = np.full(n, s >= seats)
        out[f"win_{s}"] = nullable_bool(c(f"win_{s}"), absent)
        out[f"final_{s}"] = nullable_int(c(f"final_{s}"), absent)
    return out


FRAMES = FrameHooks(
    deals, matches,
    missing_doc=("Missing (<NA>) when everybody passed: declarer, blind, abandoned; made when the contract "
                 "was not played out (everybody passed, or it was abandoned: as in the records); bid, target, "
                 "trump when absent (target and trump also for an abandoned contract); looked_s, cards_s, "
                 "marr_s and the hand features of seat s when it held no cards (the 4-seat dealer, "
                 "docs/RULES.md §1.1); every seat-3 column at a 3-seat table.  Counts stay numbers (cards_s is "
                 "0 on a deal not played).  trump is an ordered categorical S < C < D < H < NT."),
    match_missing_doc="win_3 and final_3 missing (<NA>) at a 3-seat table.",
)
