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

import numpy as np

from cardsim.games import GAME_NAMES, game_names, get_game, is_game, register_game
from cardsim.games.base import OptionError, RecordError, as_list
from cardsim.strategies.registry import StrategyError
from cardsim.text import quote

# The rest of the API loads on first use (module __getattr__ below): cardsim.runner brings numba
# and cardsim.frames pandas, about half a second, which `cardsim --help` and every ``import
# cardsim.<module>`` (the command line is cardsim.cli) would otherwise pay before anything runs.
_LAZY = {"simulate": "cardsim.runner.run", "make_run": "cardsim.runner.run", "widen": "cardsim.frames",
         "MAX_DEALS": "cardsim.runner.run", "compare": "cardsim.compare", "evaluate": "cardsim.questions",
         "evaluate_until_clear": "cardsim.questions",
         "read_dataset": "cardsim.frames", "hand_str": "cardsim.frames", "decode_hands": "cardsim.frames",
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


def records(game, deal_ids, seed=0, strategies=None, seats=None, rules=None) -> list[dict]:
    """Deal records (docs/RECORDS.md, with ``result``) of deals ``deal_ids`` of ``seed``, as
    :func:`simulate` plays them with the same ``strategies`` / ``seats`` / ``rules``: a list of
    dicts, hands as card tokens.  Raises OptionError for a deal number that is not a whole
    number from 0 to 10**12 - 1, StrategyError for a bad strategy."""
    from cardsim.runner.run import MAX_DEALS, make_run  # local: import cardsim stays light (the runner brings numba)

    spec = get_game(game)
    ids = as_list(deal_ids, "deal_ids (deal numbers)")
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < MAX_DEALS:
            raise OptionError(f"deal numbers must be whole numbers from 0 to {MAX_DEALS - 1:,}, got {quote(i)}")
    run = make_run(game, max(1, len(ids)), seed, strategies, seats, rules)
    return spec.make_records(run.seed, ids, run.setup)


def match_records(game, match, seed=0, strategies=None, seats=None, rules=None, before=None, dealer=None) -> list[dict]:
    """Deal records (docs/RECORDS.md, each with ``before`` and ``source.match``) of every deal of match
    ``match`` of ``seed``, as ``play_match`` plays it (same ``before`` / ``dealer``): any
    game-level number traced to its deals.  Raises OptionError for a game without them."""
    from cardsim.runner.run import MAX_DEALS, make_run  # local: import cardsim stays light (the runner brings numba)

    spec = get_game(game)
    if spec.match_records is None:
        raise OptionError(f"{spec.name} has no match records yet (501 and Vint have)")
    if isinstance(match, bool) or not isinstance(match, (int, np.integer)) or not 0 <= match < MAX_DEALS:
        raise OptionError(f"match numbers are whole numbers from 0 to {MAX_DEALS - 1:,}, got {quote(match)}")
    run = make_run(game, 1, seed, strategies, seats, rules)
    return spec.match_records(run.seed, int(match), run.setup, before=before, dealer=dealer)


def replay(record: dict) -> dict:
    """Validate a record (a dict, docs/RECORDS.md) against the rules (docs/RULES.md) and return its
    ``result`` dict (declarer, contract, tricks, score changes).  Raises RecordError naming the
    field, the action's index and the rule broken."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    game = record.get("game")
    if not isinstance(game, str) or game != game.strip().lower() or not is_game(game):
        raise RecordError(f"unknown game {quote(game)} (known: {', '.join(game_names())})", "game")
    return get_game(game).replay(record)


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
