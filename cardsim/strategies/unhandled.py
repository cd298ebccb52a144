"""The error a jitted dispatch raises for a strategy id it has no branch for.

Kept out of line on purpose: an exception with arguments raised inside the inlined dispatch of
the per-card loop cost about 4% of Vint's deal rate; called here, only the cold branch pays.
"""
from __future__ import annotations

from cardsim._jit import jit
from cardsim.strategies.registry import UNHANDLED


@jit
def unhandled(decision, sid, seat):
    """Raise ``ValueError(UNHANDLED, decision, sid, seat)`` (see :mod:`cardsim.strategies.registry`):
    strategy id ``sid`` of ``seat`` has no dispatch branch for ``decision`` (a short name such as
    ``"call"``).  Never returns normally for a real seat (``seat >= 0``)."""
    if seat >= 0:
        raise ValueError(UNHANDLED, decision, sid, seat)
    return 0
