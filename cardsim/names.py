"""How suits and denominations are written, in one place for every game (docs/RULES.md §2.2,
§3.3, §1.4): a plain module, so that frames, the double-dummy layer and the CLI read them
without importing the jitted card helpers of :mod:`cardsim.cards`."""
from __future__ import annotations

SUITS = "SCDH"
"""Suit letters by suit index (``S=0, C=1, D=2, H=3``, :mod:`cardsim.cards`)."""
DENOMINATIONS = (*SUITS, "NT")
"""Denomination names by denomination index: the four suits by suit index, then no-trump (4)."""
