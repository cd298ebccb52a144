"""cardsim: Monte Carlo strategy analysis for Vint, Five Hundred and 501.

>>> import cardsim
>>> df = cardsim.simulate("vint", 10_000, seed=1)
>>> df.groupby("level").made.mean()

``simulate`` plays independent deals (one row each), ``play_match`` whole matches, ``evaluate``
plays every option of one seat on the same deals dealt under conditions (a given hand, hand
classes), ``records`` returns deal records (RECORDS.md) and ``replay`` validates and scores one.
"""
from __future__ import annotations

__version__ = "0.1.0"

import numpy as np

from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError, RecordError
from cardsim.runner import MAX_DEALS, make_run, widen
from cardsim.runner import play_matches as play_match
from cardsim.runner import simulate
from cardsim.questions import evaluate
from cardsim.strategies.registry import StrategyError


def records(game, deal_ids, seed=0, strategies=None, seats=None, rules=None) -> list[dict]:
    """RECORDS.md records (with ``result``) of deals ``deal_ids`` of ``seed``, as ``simulate`` plays them."""
    spec = get_game(game)
    ids = list(deal_ids)
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < MAX_DEALS:
            raise OptionError(f"deal numbers must be whole numbers from 0 to {MAX_DEALS - 1:,}, got {i!r}")
    run = make_run(game, max(1, len(ids)), seed, strategies, seats, rules)
    return spec.make_records(run.seed, ids, run.setup)


def match_records(game, match, seed=0, strategies=None, seats=None, rules=None, before=None, dealer=None) -> list[dict]:
    """RECORDS.md records (each with ``before`` and ``source.match``) of every deal of match
    ``match`` of ``seed``, as ``play_match`` plays it (same ``before`` / ``dealer``): any
    game-level number traced to its deals.  Raises OptionError for a game without them."""
    spec = get_game(game)
    if spec.match_records is None:
        raise OptionError(f"{spec.name} has no match records yet (501 has)")
    if isinstance(match, bool) or not isinstance(match, (int, np.integer)) or not 0 <= match < MAX_DEALS:
        raise OptionError(f"match numbers are whole numbers from 0 to {MAX_DEALS - 1:,}, got {match!r}")
    run = make_run(game, 1, seed, strategies, seats, rules)
    return spec.match_records(run.seed, int(match), run.setup, before=before, dealer=dealer)


def replay(record: dict) -> dict:
    """Validate a record against RULES.md and return its result; raises RecordError."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    game = record.get("game")
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r} (known: {', '.join(GAME_NAMES)})", "game")
    return get_game(game).replay(record)


__all__ = ["simulate", "play_match", "evaluate", "match_records", "records", "replay", "widen", "get_game", "GAME_NAMES", "OptionError",
           "RecordError", "StrategyError"]
