"""pandas pipelines: per-chunk partial aggregates (``summarize``) merged into tables (``tables``)
and charts drawn from the tables (``figures``), one module per game."""
from __future__ import annotations


import pandas as pd

from cardsim.games import get_game
from cardsim.games.base import OptionError


def for_game(game: str):
    """The analysis module of a game (``summarize``, ``tables``, ``figures``): the one its spec
    names (``modules.analysis``).  Raises OptionError for an unknown game or one without."""
    spec = get_game(game)
    if not spec.modules.offers("analysis"):
        raise OptionError(f"{spec.name} has no analysis module")
    return spec.modules.load("analysis")


def merge(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Merge partial aggregates: same index, additive columns (DESIGN.md property 6)."""
    whole = pd.concat(parts)
    return whole.groupby(level=list(range(whole.index.nlevels)), sort=True).sum()
