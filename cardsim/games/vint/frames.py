"""Vint's typed frame columns (:class:`cardsim.games.base.FrameHooks`, used by :mod:`cardsim.frames`)."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import FrameHooks
from cardsim.names import DENOMINATIONS

NT = 4
CONTRACTS = tuple(f"{level}{d}" for level in range(1, 8) for d in DENOMINATIONS)
"""Vint contracts from 1S to 7NT, in bidding order (docs/RULES.md §2.2); also
``cardsim.frames.VINT_CONTRACTS``."""


def deals(c, seats: int) -> dict:
    """Typed Vint deal columns (void deals: nobody bid; docs/RULES.md §2)."""
    from cardsim.typed_columns import (  # local: pandas, which a worker playing chunks never loads
        nullable_bool as _bool, nullable_int as _int, ordered_categorical as _cat)

    void = c("declarer") < 0
    den = c("denomination")
    out = {"declarer": _int(c("declarer"), void), "level": _int(c("level"), void),
           "denomination": _cat(den, DENOMINATIONS, void),
           "contract": _cat((c("level").astype(np.int64) - 1) * 5 + den, CONTRACTS, void),
           "value": _int(c("value"), void), "made": _bool(c("made"), void)}
    for t in (0, 1):
        out[f"team_honours_{t}"] = _int(c(f"team_honours_{t}"), void | (den == NT))
    for name in ("game_won_by", "rubber_won_by", "opener"):
        out[name] = _int(c(name), c(name) < 0)
    out["crossing_trick"] = _int(c("crossing_trick"), c("crossing_trick") <= 0)
    nobody = c("opener") < 0
    out["opening_level"] = _int(c("opening_level"), nobody)
    out["opening_denomination"] = _cat(c("opening_denomination"), DENOMINATIONS, nobody)
    return out


def matches(c, seats: int) -> dict:
    """Typed rubber columns: ``winner`` missing when no team won the rubber."""
    from cardsim.typed_columns import nullable_int  # local: pandas, which a worker playing chunks never loads

    return {"winner": nullable_int(c("winner"), c("winner") < 0)}


FRAMES = FrameHooks(
    deals, matches, derived={"contract": "denomination"},
    missing_doc=("Missing (<NA>) on a void deal (nobody bid): declarer, level, denomination, contract, value, "
                 "made, team_honours_0/1 (also in no-trump), while counts stay numbers (tricks_0/1 are 0); "
                 "game_won_by / rubber_won_by when no game or rubber was won; crossing_trick when nobody "
                 "reached 500; opener, opening_level, opening_denomination when nobody bid.  Categoricals "
                 "(ordered S < C < D < H < NT): denomination, opening_denomination; contract 1S < 1C < … < 7NT (the frame adds it; not stored)."),
    match_missing_doc="winner missing (<NA>) when no team won the rubber.",
)
