"""Rule files written from a game's chart (``cardsim rules from-chart``, docs/rules-files.md,
"Charts as rule files"): one writer per game with charts, the module named by the game's package
(``cardsim.rules.from_chart.<package>``, :func:`cardsim.analysis.package_name`: :mod:`.vint`,
:mod:`.g501`), found from the game by :func:`writer`.  A game's rule-file part lists the charts it
can be written from (``CHARTS`` of its ``modules.rules`` module)."""
from __future__ import annotations

from types import ModuleType

from cardsim.analysis import find_module, package_name


def writer(game: str) -> ModuleType | None:
    """The writer of ``game``'s rule file from its chart (its ``from_args(args, log) -> (text,
    source)``), or None for a game without one.  Raises OptionError for an unknown game."""
    return find_module(f"{__name__}.{package_name(game)}")
