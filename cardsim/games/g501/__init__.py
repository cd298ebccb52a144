"""501 (docs/RULES.md §1): three players (four with the dealer sitting out), blind bidding, talon,
marriages, counting down from 501.

Modules: ``constants`` (ranks, points, trace layout), ``rules`` (jitted rule functions),
``strategies`` (registry + jitted strategy functions), ``dispatch`` (strategy id -> function,
one function per decision), ``engine`` (jitted deal loop), ``chunks``
(numpy entry points), ``records`` (docs/RECORDS.md records from traces), ``replay`` (the
plain-Python slow twin), ``show`` (text for people).
"""
from __future__ import annotations

from cardsim.cards import RANKS_501
from cardsim.games.g501.dd import DD
from cardsim.games.g501.facts import FACTS
from cardsim.games.g501.frames import FRAMES
from cardsim.games.base import Forcing, GameSpec, Matches, Modules, Play, Table
from cardsim.games.g501 import forcing as _forcing
from cardsim.games.g501 import pimc as _pimc
from cardsim.games.g501.engine import NO_FORCE
from cardsim.games.g501.chunks import deal_chunk, play_matches, simulate_chunk
from cardsim.games.g501.engine import MATCH_DEAL_DTYPE, MATCH_DOC, MATCH_DTYPE, ROW_DOC, ROW_DTYPE
from cardsim.games.g501.records import make_records, match_records
from cardsim.games.g501.replay import replay as replay_record
from cardsim.games.g501.show import show
from cardsim.games.g501.strategies import REGISTRY

SPEC = GameSpec(
    name="501",
    doc="501 (Russian): bid for the talon, blind bids double, count down from 501 (docs/RULES.md §1).",
    table=Table(seat_counts=(3, 4), registry=REGISTRY, default_strategy="heuristic", rule_options=()),
    play=Play(row_dtype=ROW_DTYPE, simulate_chunk=simulate_chunk, deal_chunk=deal_chunk,
              make_records=make_records, replay=replay_record, show=show, row_doc=ROW_DOC,
              ranks=RANKS_501, record_fields=("talon", "contract"), deal_seconds=3.7e-6),
    matches=Matches(play=play_matches, dtype=MATCH_DTYPE, deal_dtype=MATCH_DEAL_DTYPE, records=match_records,
                    doc=MATCH_DOC, deal_doc="match: the game's number (as in the match rows).",
                    deals_per_match=13.9, start_score=501),
    forcing=Forcing(_forcing.parse_option, _forcing.declares, _forcing.parse_before, _forcing.play_given,
                    _forcing.outcome, _forcing.trace_given, _forcing.lower_is_better,
                    "blind:L, look, pass: the seat's first turn; =L / =L!: it won the auction at L (looked / blind), "
                    "=L/TRUMP[/TARGET] also forces trump and target; "
                    "lead:CARD/BID/TRUMP:DECLARER: the first lead (the dealer's left leads)", NO_FORCE,
                    _forcing.game_state,
                    agreed_calls=_forcing.agreed_calls, auto_options=_forcing.auto_options,
                    outcomes=_forcing.OUTCOMES, outcome_meanings=_forcing.OUTCOME_MEANINGS,
                    lead_groups=_forcing.lead_groups, lead_made=_forcing.LEAD_MADE,
                    is_lead=_forcing.is_lead, reach=_forcing.reach, contract_reached=_forcing.contract_reached),
    frames=FRAMES,
    dd=DD,
    pimc=_pimc.HOOKS,
    facts=FACTS,
    modules=Modules(features=f"{__name__}.features", rules=f"{__name__}.rulefile"),
)

__all__ = ["SPEC"]
