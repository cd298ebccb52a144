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
from cardsim.games.base import ContractBands, Forcing, GameSpec

from . import engine, forcing, pimc
from .chunks import MATCH_DEAL_DTYPE, deal_chunk, match_left, play_matches, simulate_chunk
from .records import make_records, match_records
from .replay import replay as replay_record
from .show import show
from .strategies import REGISTRY


SPEC = GameSpec(
    name="vint",
    seat_counts=(4,),
    registry=REGISTRY,
    default_strategy="heuristic",
    row_dtype=engine.ROW_DTYPE,
    simulate_chunk=simulate_chunk,
    deal_chunk=deal_chunk,
    make_records=make_records,
    replay=replay_record,
    show=show,
    play_matches=play_matches,
    match_records=match_records,
    match_dtype=engine.RUBBER_DTYPE,
    match_deal_dtype=MATCH_DEAL_DTYPE,
    match_deal_doc="rubber: the rubber's number (as in the rubber rows).",
    doc="Vint: Russian partnership game, no dummy, both sides score every trick (docs/RULES.md §2)",
    row_doc=engine.ROW_DOC,
    match_doc=engine.MATCH_DOC,
    # Part scores, games (4-5: 3NT-5D decide the game) and slams (6-7) apart (docs/RULES.md §2.4-§2.5).
    contract_bands=ContractBands(((1, 3), (4, 5), (6, 7)), "level"),
    forcing=Forcing(forcing.parse_option, forcing.declares, forcing.parse_before, forcing.play_given,
                    forcing.outcome, forcing.trace_given, forcing.LOWER_IS_BETTER,
                    "P or 1S..7NT: the seat's first call; =CONTRACT (=3NT): the seat declares it, auction skipped; "
                    "=CONTRACT:SEAT (=3NT:2): that seat declares it; lead:CARD/CONTRACT:SEAT: the opening lead",
                    engine.NO_FORCE,
                    agreed_calls=forcing.agreed_calls, auto_options=forcing.auto_options,
                    outcomes=forcing.OUTCOMES, outcome_meanings=forcing.OUTCOME_MEANINGS,
                    lead_groups=forcing.lead_groups, lead_made=forcing.LEAD_MADE,
                    is_lead=forcing.is_lead, reach=forcing.reach, contract_reached=forcing.contract_reached),
    pimc=pimc.HOOKS,
    ranks=VINT_RANKS,
    frames=FRAMES,
    dd=DD,
    facts=FACTS,
    features_module=f"{__name__}.features",
    decisions_module=f"{__name__}.decisions",
    rules_module=f"{__name__}.rulefile",
    pbn_module=f"{__name__}.pbn",
    deal_seconds=5.4e-6,
    deals_per_match=12.2,
    match_left=match_left,
)
