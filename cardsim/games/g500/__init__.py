"""Five Hundred (docs/RULES.md §3): 46 cards with two jokers, bowers, a 6-card kitty, partnerships.

Modules: :mod:`.constants` (card layout, per-trump remap tables, bid table, tokens),
:mod:`.rules` (deal, legal plays, trick winner, scoring, game end), :mod:`.strategies`
(registry and jitted strategies), :mod:`.dispatch` (strategy id -> strategy, per decision),
:mod:`.engine` (the jitted deal, chunk and match loops), :mod:`.chunks` (numpy entry points),
:mod:`.rows` (row dtypes), :mod:`.records` (docs/RECORDS.md records from traces), :mod:`.replay`
(plain-Python slow twin), :mod:`.show`.

Rule options: ``scoring`` = ``quebec`` (default) | ``subtract``; ``target`` = game target
(positive integer, default 1000).
"""
from __future__ import annotations

from cardsim.games.g500.constants import HJ, LJ, RANKS
from cardsim.games.g500.dd import DD
from cardsim.games.g500.facts import FACTS
from cardsim.games.g500.frames import FRAMES
from cardsim.games.base import Forcing, GameSpec, Matches, Modules, OptionError, Play, RuleOption, Table
from cardsim.games.g500 import engine as E
from cardsim.games.g500 import forcing as _forcing
from cardsim.games.g500 import pimc as _pimc
from cardsim.games.g500 import rows as _rows
from cardsim.games.g500.chunks import deal_chunk, match_left, parse_scoring, parse_target, play_matches, simulate_chunk
from cardsim.games.g500.records import make_records
from cardsim.games.g500.replay import replay as replay_record
from cardsim.games.g500.rows import MATCH_DEAL_DTYPE, MATCH_DTYPE, ROW_DTYPE
from cardsim.games.g500.show import show
from cardsim.games.g500.strategies import REGISTRY

SPEC = GameSpec(
    name="500",
    doc="Five Hundred (docs/RULES.md §3): 4 players in partnerships, 46 cards, bid table, kitty.",
    table=Table(seat_counts=(4,), registry=REGISTRY, default_strategy="heuristic", rule_options=(
        RuleOption("scoring", "quebec", parse_scoring,
                   "quebec: made -> declarer's side +value, failed -> defenders +value; "
                   "subtract: failed -> -value, defenders +10 a trick (docs/RULES.md §3.6)"),
        RuleOption("target", 1000, parse_target, "game target in points (docs/RULES.md §3.6)"),
    )),
    play=Play(row_dtype=ROW_DTYPE, simulate_chunk=simulate_chunk, deal_chunk=deal_chunk,
              make_records=make_records, replay=replay_record, show=show,
              row_doc=_rows.__doc__.split("Fields (per deal)", 1)[-1].split("\n", 2)[-1].strip(),
              ranks=RANKS, jokers=((HJ, "HJ"), (LJ, "LJ")), record_fields=("talon", "discard"), deal_seconds=5.9e-6),
    matches=Matches(play=play_matches, dtype=MATCH_DTYPE, deal_dtype=MATCH_DEAL_DTYPE, doc=_rows.MATCH_DOC,
                    deal_doc=("match: the game's number (as in the match rows); before_0, before_1: the two teams' "
                              "scores before the deal (points, team 0 = seats 0 and 2)."),
                    deals_per_match=8.7, left=match_left),
    forcing=Forcing(_forcing.parse_option, _forcing.declares, _forcing.parse_before, _forcing.play_given,
                    _forcing.outcome, _forcing.trace_given, _forcing.LOWER_IS_BETTER,
                    "P or 6S..10NT: the seat's first call; =CONTRACT (=8H): the seat declares it, auction skipped; "
                    "lead:CARD/CONTRACT:SEAT: the declarer's first lead (the seat declares)",
                    E.NO_FORCE,
                    agreed_calls=_forcing.agreed_calls, auto_options=_forcing.auto_options,
                    game_state=_forcing.game_state, outcomes=_forcing.OUTCOMES,
                    outcome_meanings=_forcing.OUTCOME_MEANINGS, lead_groups=_forcing.lead_groups,
                    lead_made=_forcing.LEAD_MADE,
                    is_lead=_forcing.is_lead, reach=_forcing.reach, contract_reached=_forcing.contract_reached),
    frames=FRAMES,
    dd=DD,
    pimc=_pimc.HOOKS,
    facts=FACTS,
    modules=Modules(features=f"{__name__}.features", rules=f"{__name__}.rulefile"),
)

__all__ = ["SPEC", "simulate_chunk", "deal_chunk", "play_matches", "make_records", "replay_record", "show",
           "OptionError"]
