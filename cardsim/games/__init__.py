"""The games cardsim knows, by the name used in records and on the command line."""
from __future__ import annotations

import importlib

from cardsim.games.base import GameSpec, OptionError
from cardsim.text import quote

_MODULES = {"vint": "cardsim.games.vint", "501": "cardsim.games.g501", "500": "cardsim.games.g500"}
GAME_NAMES = tuple(_MODULES)


def package_of(name) -> str:
    """The package of a game (``"cardsim.games.vint"``: its ``profiles.toml`` and modules);
    raises OptionError for an unknown game."""
    return _MODULES[get_game(name).name]


def get_game(name) -> GameSpec:
    """The :class:`GameSpec` of ``"vint"``, ``"501"`` or ``"500"``; raises OptionError otherwise."""
    key = str(name).strip().lower()
    if key not in _MODULES:
        raise OptionError(f"unknown game {quote(name)} (known: {', '.join(GAME_NAMES)})")
    return importlib.import_module(_MODULES[key]).SPEC
