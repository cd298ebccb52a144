"""The double-dummy solvers timed on real play-start positions (BENCHMARKS.md, "Double-dummy").

For each game with a solver benchmark (its spec's ``dd.bench`` hook,
:class:`cardsim.games.base.DDHooks`): the play-start positions of deals ``0 .. n-1`` of a seed as
the engine plays them (default strategies), then one timed pass of the solver over the played ones
on one core (the first deal solved before timing, so compilation is not counted; each game's table
starts empty).  Each game's line gives milliseconds per deal, and search nodes per deal where its
solver counts them.
"""
from __future__ import annotations

from cardsim.dd import bench_line
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError


def benchmarked_games() -> list[str]:
    """The built-in games whose spec has a solver benchmark (``dd.bench``), in the registry's order."""
    return [name for name in GAME_NAMES if _bench_hook(name) is not None]


def _bench_hook(game: str):
    hooks = get_game(game).dd
    return None if hooks is None else hooks.bench


def lines(games, seed: int, deals: int):
    """Each of ``games``' benchmark line (its hook's own words) for deals ``0 .. deals-1`` of
    ``seed``, yielded as each game finishes (Vint's DDS takes a while).  Raises OptionError, before
    solving anything, for a game without a solver benchmark."""
    missing = [game for game in games if _bench_hook(game) is None]
    if missing:
        raise OptionError(f"no double-dummy benchmark for {', '.join(missing)} (games with one: "
                          f"{', '.join(benchmarked_games())})")
    for game in games:
        yield bench_line(game, seed, deals)
