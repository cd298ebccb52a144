"""Vint (docs/RULES.md §2): the game's :class:`~cardsim.games.base.GameSpec`.

Modules: ``rules`` (jitted rule functions), ``strategies`` (registry + jitted strategy
functions), ``dispatch`` (strategy id -> function, one function per decision), ``engine``
(jitted deal and rubber loops, row dtypes), ``chunks`` (numpy entry points), ``records``
(docs/RECORDS.md records from traces), ``replay`` (the plain-Python slow twin), ``show``.
"""
from __future__ import annotations

from cardsim.cards import VINT_RANKS
from cardsim.games.vint.dd import DD
from cardsim.games.vint.facts import FACTS
from cardsim.games.vint.frames import FRAMES
from cardsim.games.base import Forcing, GameSpec, Matches, Modules, Play, Table

from . import engine, forcing, pimc
from .chunks import MATCH_DEAL_DTYPE, deal_chunk, match_left, play_matches, simulate_chunk
from .records import make_records, match_records
from .replay import replay as replay_record
from .show import show
from .strategies import REGISTRY


SPEC = GameSpec(
    name="vint",
    doc="Vint: Russian partnership game, no dummy, both sides score every trick (docs/RULES.md §2)",
    table=Table(seat_counts=(4,), registry=REGISTRY, default_strategy="heuristic"),
    play=Play(row_dtype=engine.ROW_DTYPE, simulate_chunk=simulate_chunk, deal_chunk=deal_chunk,
              make_records=make_records, replay=replay_record, show=show, row_doc=engine.ROW_DOC,
              ranks=VINT_RANKS, deal_seconds=5.4e-6),
    matches=Matches(play=play_matches, dtype=engine.RUBBER_DTYPE, deal_dtype=MATCH_DEAL_DTYPE,
                    records=match_records, doc=engine.MATCH_DOC,
                    deal_doc="rubber: the rubber's number (as in the rubber rows).",
                    deals_per_match=12.2, left=match_left),
    forcing=Forcing(forcing.parse_option, forcing.declares, forcing.parse_before, forcing.play_given,
                    forcing.outcome, forcing.trace_given, forcing.LOWER_IS_BETTER,
                    "P or 1S..7NT: the seat's first call; =CONTRACT (=3NT): the seat declares it, auction skipped; "
                    "=CONTRACT:SEAT (=3NT:2): that seat declares it; lead:CARD/CONTRACT:SEAT: the opening lead",
                    engine.NO_FORCE,
                    agreed_calls=forcing.agreed_calls, auto_options=forcing.auto_options,
                    outcomes=forcing.OUTCOMES, outcome_meanings=forcing.OUTCOME_MEANINGS,
                    lead_groups=forcing.lead_groups, lead_made=forcing.LEAD_MADE,
                    is_lead=forcing.is_lead, reach=forcing.reach, contract_reached=forcing.contract_reached),
    frames=FRAMES,
    dd=DD,
    pimc=pimc.HOOKS,
    facts=FACTS,
    modules=Modules(features=f"{__name__}.features", pbn=f"{__name__}.pbn", rules=f"{__name__}.rulefile",
                    decisions=f"{__name__}.decisions"),
)
