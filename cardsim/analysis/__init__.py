"""pandas pipelines: per-chunk partial aggregates (``summarize``) merged into tables (``tables``)
and charts drawn from the tables (``figures``).

A game's own pipelines are its package here, ``cardsim/analysis/<package>/`` (``vint``, ``g501``,
``g500``: the last part of the game's package name), found from the game by :func:`game_module`,
the one lookup: the package itself is its pipeline (:func:`for_game`), its ``hands`` the cells of
its hand charts (:mod:`cardsim.analysis.hand_classes`).  The shared pipelines sit beside them."""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

import pandas as pd

from cardsim.games import get_game, package_of
from cardsim.games.base import OptionError


def package_name(game: str) -> str:
    """The last part of ``game``'s package name (``"g501"`` for 501): the name of its analysis
    package ``cardsim/analysis/<package>/`` and the prefix of its report scripts
    (``analyses/<package>_page.py``).  Raises OptionError for an unknown game."""
    return package_of(game).rpartition(".")[2]


def find_module(name: str) -> ModuleType | None:
    """The module ``name`` (dotted) imported, or None when it or one of its packages does not
    exist.  A module that exists but fails to import raises as it does."""
    head = ""
    for part in name.split("."):
        head = f"{head}.{part}" if head else part
        if importlib.util.find_spec(head) is None:
            return None
    return importlib.import_module(name)


def game_module(game: str, part: str = "") -> ModuleType | None:
    """``game``'s analysis package, ``cardsim.analysis.<package>`` (:func:`package_name`), or its
    module ``part`` in it (``"hands"``); None when the game has none.  Raises OptionError for an
    unknown game."""
    name = f"{__name__}.{package_name(game)}"
    return find_module(f"{name}.{part}" if part else name)


def for_game(game: str) -> ModuleType:
    """The analysis module of a game (``summarize``, ``tables``, ``figures``): its analysis package
    (:func:`game_module`).  Raises OptionError for an unknown game or one without."""
    module = game_module(game)
    if module is None:
        raise OptionError(f"{get_game(game).name} has no analysis module")
    return module


def merge(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Merge partial aggregates: same index, additive columns (DESIGN.md property 6)."""
    whole = pd.concat(parts)
    return whole.groupby(level=list(range(whole.index.nlevels)), sort=True).sum()
