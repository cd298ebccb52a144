"""pandas pipelines: per-chunk partial aggregates (``summarize``) merged into tables (``tables``)
and charts drawn from the tables (``figures``), one module per game."""
from __future__ import annotations

import importlib

import pandas as pd

_MODULES = {"vint": "cardsim.analysis.vint", "501": "cardsim.analysis.g501", "500": "cardsim.analysis.g500"}


def for_game(game: str):
    """The analysis module of a game (``summarize``, ``tables``, ``figures``)."""
    return importlib.import_module(_MODULES[game])


def merge(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Merge partial aggregates: same index, additive columns (DESIGN.md property 6)."""
    whole = pd.concat(parts)
    return whole.groupby(level=list(range(whole.index.nlevels)), sort=True).sum()
