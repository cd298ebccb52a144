"""Duel: a toy game of two seats and eight cards, registered by tests/test_toy_game.py to prove
that a game is one package (docs/adding-a-game.md).  Rules: :mod:`.rules`."""
from __future__ import annotations

from cardsim.games.base import DDHooks, Forcing, GameFacts, GameSpec, Modules, Play, Table

from . import dd, engine, forcing
from .rules import RANKS
from .chunks import deal_chunk, simulate_chunk
from .records import make_records
from .replay import replay as replay_record
from .show import show
from .strategies import REGISTRY

SPEC = GameSpec(
    name="duel",
    doc="Duel: a toy trick game, two seats, eight cards (tests/toygame)",
    table=Table(seat_counts=(2,), registry=REGISTRY, default_strategy="heuristic"),
    play=Play(row_dtype=engine.ROW_DTYPE, simulate_chunk=simulate_chunk, deal_chunk=deal_chunk,
              make_records=make_records, replay=replay_record, show=show, row_doc=engine.ROW_DOC, ranks=RANKS),
    forcing=Forcing(forcing.parse_option, forcing.declares, forcing.parse_before, forcing.play_given,
                    forcing.outcome, forcing.trace_given, forcing.LOWER_IS_BETTER,
                    "lead:CARD (lead:AS): the first leader leads that card; strategy: as the seat's strategy",
                    engine.NO_FORCE, auto_options=forcing.auto_options),
    dd=DDHooks(dd.frame, dd.COLUMNS_DOC, unit="tricks", describe=dd.describe, deals=dd.deals),
    facts=GameFacts("Duel"),
    modules=Modules(features="toygame.features"),
)
