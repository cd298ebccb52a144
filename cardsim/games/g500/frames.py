"""Five Hundred's typed frame columns (:class:`cardsim.games.base.FrameHooks`, used by :mod:`cardsim.frames`)."""
from __future__ import annotations

from cardsim.games.base import FrameHooks
from cardsim.names import DENOMINATIONS

NT = 4
CONTRACTS = tuple(f"{tricks}{d}" for tricks in range(6, 11) for d in DENOMINATIONS)
"""Five Hundred contracts, bid numbers 0..24 (6S … 10NT, bid-table order, docs/RULES.md §3.3);
also ``cardsim.frames.G500_CONTRACTS``."""


def deals(c, seats: int) -> dict:
    """Typed Five Hundred deal columns (thrown-in deals: everybody passed; docs/RULES.md §3)."""
    from cardsim.typed_columns import (  # local: pandas, which a worker playing chunks never loads
        nullable_bool as _bool, nullable_int as _int, nullable_uint as _uint, ordered_categorical as _cat)

    thrown = c("declarer") < 0
    den = c("denomination")
    out = {"declarer": _int(c("declarer"), thrown), "contract": _cat(c("contract"), CONTRACTS, thrown),
           "denomination": _cat(den, DENOMINATIONS, thrown), "level": _int(c("level"), thrown),
           "value": _int(c("value"), thrown), "decl_tricks": _int(c("decl_tricks"), thrown),
           "made": _bool(c("made"), thrown), "winner": _int(c("winner"), c("winner") < 0),
           # the discard's bit set, unsigned: missing on a thrown-in deal
           "discard": _uint(c("discard"), thrown)}
    for p in range(4):
        out[f"bowers_{p}"] = _int(c(f"bowers_{p}"), thrown | (den == NT))
    return out


def matches(c, seats: int) -> dict:
    """Typed game columns: ``winner`` missing when the deal cap stopped the game."""
    from cardsim.typed_columns import nullable_int  # local: pandas, which a worker playing chunks never loads

    return {"winner": nullable_int(c("winner"), c("winner") < 0)}


FRAMES = FrameHooks(
    deals, matches,
    missing_doc=("Missing (<NA>) on a thrown-in deal (everybody passed): declarer, contract, denomination, "
                 "level, value, decl_tricks, made, discard, bowers_p (bowers also in no-trump), while tricks_0/1 "
                 "stay 0; winner when nobody reached the target.  Categoricals, ordered: denomination S < C < D "
                 "< H < NT, contract 6S < 6C < … < 10NT (bid-table order).  Hand columns hand_0..3, kitty "
                 "(uint64) and discard (UInt64) are bit sets of cards: cardsim.decode_hands(df, seat) spells "
                 "them as record card tokens, cardsim.with_hands(df) adds cards_0..3, kitty_cards, discard_cards."),
    match_missing_doc="winner missing (<NA>) when the deal cap stopped the game before anyone reached the target.",
    hand_columns={0: "hand_0", 1: "hand_1", 2: "hand_2", 3: "hand_3", "kitty": "kitty", "discard": "discard"},
)
