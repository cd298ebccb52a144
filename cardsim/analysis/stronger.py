"""The stronger player of the report's check "Does a stronger player change the answer?": the
sampled-search spec and whether a game has it.

The check itself (which chart cells, the sequential replay with every seat searching, the
verdicts *agrees* / *reverses* / *not decidable at this size* and their power) lives with the
analyses: ``analyses/stronger_rule.py`` and ``analyses/stronger_play.py`` (``make stronger``,
docs/profiles.md).
"""
from __future__ import annotations

import numpy as np

from cardsim.games import get_game
from cardsim.strategies.pimc import default_early_counts, early_default

PIMC = "pimc"
"""The registry name of the sampled-search player (:mod:`cardsim.strategies.pimc`)."""


class StrongerError(ValueError):
    """A bad argument (a world count outside the strategy's bounds)."""


def pimc_spec(worlds: int) -> str:
    """The strategy spec of the stronger player: ``pimc:worlds=W``.  Raises StrongerError for a
    count outside 1..256 (the strategy's bounds)."""
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= 256:
        raise StrongerError(f"worlds must be a whole number from 1 to 256, got {worlds!r}")
    return f"{PIMC}:worlds={int(worlds)}"


def available(game: str) -> bool:
    """Whether ``game`` has the ``pimc`` strategy registered."""
    return PIMC in get_game(game).table.registry.names()


def default_early(game: str) -> str:
    """The game's plain ``pimc``'s early play as spec parameters (``"early=4"``,
    ``"early=3,early_declaring=2"``, ``"early=0"`` for the full search;
    :func:`cardsim.strategies.pimc.early_default`)."""
    return early_default(get_game(game).table.registry[PIMC])


def early_counts(game: str) -> tuple[int, int]:
    """The first tricks the game's plain ``pimc`` plays by the heuristic's card: (the defence's,
    the declaring side's) (:func:`cardsim.strategies.pimc.early_counts`)."""
    return default_early_counts(get_game(game).table.registry[PIMC])
