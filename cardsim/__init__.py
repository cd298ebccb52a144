"""cardsim: Monte Carlo strategy analysis for Vint, Five Hundred and 501.

>>> import cardsim
>>> df = cardsim.simulate("vint", 10_000, seed=1)
>>> df.groupby("level").made.mean()

``simulate`` plays independent deals (one row each), ``play_match`` whole matches, ``evaluate``
plays every option of one seat on the same deals dealt under conditions (a given hand, hand
classes), ``evaluate_until_clear`` does so in rounds until one option is clearly best
(docs/statistics.md), ``compare`` compares strategies deal by deal, ``exploit`` measures what the best
one-step parameter change gains against a strategy (docs/exploit.md), ``records`` returns deal records
(docs/RECORDS.md) and ``replay`` validates and scores one.  ``read_dataset`` reads a dataset
written by ``cardsim simulate -o``; ``hand_str`` / ``decode_hands`` / ``with_hands`` spell hand
bit sets as cards.

Every frame is typed (:mod:`cardsim.frames`): missing values are ``<NA>`` (never -1), ``made``
is a nullable ``boolean`` missing on deals nobody declared, denominations, trumps and contracts
are ordered categoricals.  ``cardsim columns GAME`` lists every column.
"""
from __future__ import annotations

from cardsim._version import __version__

import importlib
import sys
import types

from cardsim.games import GAME_NAMES, game_names, get_game, register_game, replay
from cardsim.games.base import OptionError, RecordError
from cardsim.strategies.registry import StrategyError

# The rest of the API loads on first use (module __getattr__ below): cardsim.runner brings numba
# and cardsim.frames pandas, about half a second, which `cardsim --help` and every ``import
# cardsim.<module>`` (the command line is cardsim.cli) would otherwise pay before anything runs.
_LAZY = {"simulate": "cardsim.runner.run", "make_run": "cardsim.runner.run", "widen": "cardsim.frames",
         "records": "cardsim.runner.run", "match_records": "cardsim.runner.run",
         "MAX_DEALS": "cardsim.runner.run", "compare": "cardsim.compare", "evaluate": "cardsim.questions",
         "evaluate_until_clear": "cardsim.questions",
         "read_dataset": "cardsim.runner.read", "hand_str": "cardsim.frames", "decode_hands": "cardsim.frames",
         "with_hands": "cardsim.frames"}


def play_match(game, n_matches, seed=0, strategies=None, seats=None, rules=None, n_jobs=-1, chunk_size=10_000,
               compact=True, before=None, dealer=None, **options):
    """Play ``n_matches`` whole matches: Vint rubbers (docs/RULES.md §2.7), 501 games to zero (§1.8),
    Five Hundred games to the target (§3.6).  Returns ``(matches, deals)``, two typed DataFrames.

    Arguments: ``game`` (``"vint"``, ``"501"``, ``"500"``); ``n_matches`` a whole number from 1;
    ``seed``; ``strategies``, ``seats``, ``rules`` as for :func:`simulate`; ``n_jobs`` worker
    processes (-1 = all cores if the run pays for starting them, the default; at most one per chunk,
    :func:`cardsim.runner.pool.choose_jobs`); ``chunk_size`` matches per task; ``compact=False`` widens integer
    columns to 64 bits; ``before`` (501: one score per seat, e.g. ``[300, 250, 320]``; Five
    Hundred: the two team scores ``[s0, s1]``; Vint: the line ``[below0, below1, games0, games1]``,
    points below the line and games won by team) and ``dealer`` (the first dealer's seat) start
    every match from that state (a Vint rubber's points and deals then count from there).

    ``matches``: one row per match (Vint: ``rubber``, ``deals``, ``games_0/1``, ``winner``,
    ``points_0/1``, ``margin`` in score points; 501: ``deals``, ``win_s``, ``final_s`` scores;
    Five Hundred: ``winner``, ``score_0/1`` points, ``thrown_in``).  ``deals``: one row per deal
    played, the deal columns of :func:`simulate` with the match id first (``rubber`` / ``match``)
    and ``deal`` numbered within the match.  ``cardsim columns GAME`` documents every column,
    its dtype and unit.  Match ``m`` depends on ``(seed, m)`` only; ``df.attrs`` holds the run's
    manifest.  Raises OptionError / StrategyError (ValueError, one-line messages) for bad
    arguments.
    """
    from cardsim.runner.run import play_matches  # local: import cardsim stays light (the runner brings numba)

    return play_matches(game, n_matches, seed, strategies, seats, rules, n_jobs=n_jobs, chunk_size=chunk_size,
                        compact=compact, before=before, dealer=dealer, **options)


__all__ = ["simulate", "play_match", "evaluate", "evaluate_until_clear", "compare", "match_records", "records", "replay", "read_dataset",
           "hand_str", "decode_hands", "with_hands", "widen", "get_game", "GAME_NAMES", "game_names", "register_game", "OptionError",
           "RecordError", "StrategyError"]


def __getattr__(name):
    # First use of a lazy name: its module is imported and the name kept here, so the next use is
    # a plain attribute.  evaluate's module holds the hand-class parser; quality is the module
    # itself, cardsim.analysis.quality (cardsim.quality.quality, README "How good is a strategy?").
    if name == "quality":
        return importlib.import_module("cardsim.analysis.quality")
    if name == "exploit":  # the module, callable as its function: cardsim.exploit(game, ...)
        return importlib.import_module("cardsim.exploit")
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"quality", "exploit"})


class _Package(types.ModuleType):
    """The package's module type: ``cardsim.compare`` is the function even after its module
    ``cardsim.compare`` is imported (``from cardsim.compare import ...``), which sets the
    package's attribute of that name to the module.  The eager import used to rebind it."""

    def __setattr__(self, name, value):
        if name == "compare" and isinstance(value, types.ModuleType):
            value = value.compare
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
