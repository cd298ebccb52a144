"""Five Hundred (docs/RULES.md §3): 46 cards with two jokers, bowers, a 6-card kitty, partnerships.

Modules: :mod:`.constants` (card layout, per-trump remap tables, bid table, tokens),
:mod:`.rules` (deal, legal plays, trick winner, scoring, game end), :mod:`.strategies`
(registry and jitted strategies), :mod:`.dispatch` (strategy id -> strategy, per decision),
:mod:`.engine` (the jitted deal, chunk and match loops),
:mod:`.rows` (row dtypes), :mod:`.records` (docs/RECORDS.md records from traces), :mod:`.slow_replay`
(plain-Python slow twin), :mod:`.show`.

Rule options: ``scoring`` = ``quebec`` (default) | ``subtract``; ``target`` = game target
(positive integer, default 1000).
"""
from __future__ import annotations

import numpy as np

# hooks lane
from cardsim.games.g500.constants import HJ, LJ, RANKS
from cardsim.games.g500.dd import DD
from cardsim.games.g500.facts import FACTS
from cardsim.games.g500.frames import FRAMES
from cardsim.games.base import ContractBands, Forcing, GameSpec, OptionError, RuleOption, Setup, grow_until_fits
from cardsim.games.g500 import engine as E
from cardsim.games.g500 import forcing as _forcing
from cardsim.games.g500 import pimc as _pimc
from cardsim.games.g500.constants import SCORINGS
from cardsim.games.g500.records import check_setup, make_records, rule_numbers
from cardsim.games.g500.slow_replay import replay
from cardsim.games.g500 import rows as _rows
from cardsim.games.g500.rows import MATCH_DEAL_DTYPE, MATCH_DTYPE, ROW_DTYPE, fill_rows
from cardsim.games.g500.show import show
from cardsim.games.g500.strategies import REGISTRY
from cardsim.rng import check_seed

MAX_DEALS = 2000
"""Deal cap per match (a match that has not ended by then gets winner -1)."""


def _scoring(text: str) -> str:
    t = text.strip().lower()
    if t not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}")
    return t


def _target(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = 0  # '1.5', 'abc': the message below, not int()'s "invalid literal for int() with base 10"
    if not 0 < v <= 30000:
        raise ValueError("target must be a whole number from 1 to 30000")
    return v


def _kernel_args(setup: Setup):
    check_setup(setup)
    scoring, target = rule_numbers(setup.rules)
    return setup.strategy_ids.astype(np.int64), setup.params.astype(np.float64), scoring, target


def simulate_chunk(seed: int, start: int, count: int, setup: Setup) -> np.ndarray:
    """Independent deals ``start .. start+count-1`` of ``seed``: ROW_DTYPE[count].

    Each deal starts a match (scores 0-0), so ``winner`` is set only when one deal reaches the
    target.  Raises OptionError / ValueError for a bad setup or seed.
    """
    seed_u = np.uint64(check_seed(seed))
    ids, params, scoring, target = _kernel_args(setup)
    res = np.zeros((count, E.R_LEN), dtype=np.int64)
    E.simulate_kernel(seed_u, np.int64(start), np.int64(count), ids, params, scoring, target, res)
    E.check_legal(res)
    rows = np.zeros(count, dtype=ROW_DTYPE)
    return fill_rows(rows, res, np.arange(start, start + count, dtype=np.int64))


def deal_chunk(seed: int, start: int, count: int) -> int:
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(E.deal_kernel(np.uint64(check_seed(seed)), np.int64(start), np.int64(count)))


def play_matches(seed: int, start: int, count: int, setup: Setup):
    """Whole games to the target (docs/RULES.md §3.6), matches ``start .. start+count-1`` of ``seed``.

    The first dealer is drawn per match and the deal passes left after every deal (thrown-in
    deals included).  Returns ``(MATCH_DTYPE[count], MATCH_DEAL_DTYPE[deals])``.
    """
    seed_u = np.uint64(check_seed(seed))
    ids, params, scoring, target = _kernel_args(setup)

    def run(capacity):
        matches = np.zeros(count, dtype=MATCH_DTYPE)
        res = np.zeros((capacity, E.R_LEN), dtype=np.int64)
        deal_match = np.zeros(capacity, dtype=np.int64)
        deal_index = np.zeros(capacity, dtype=np.int64)
        n = E.match_kernel(seed_u, np.int64(start), np.int64(count), ids, params, scoring, target,
                           np.int64(MAX_DEALS), matches, res, deal_match, deal_index)
        return n, (n, matches, res, deal_match, deal_index)

    n, matches, res, deal_match, deal_index = grow_until_fits(run, max(64, 16 * count))
    res = res[:n]
    E.check_legal(res)
    drows = np.zeros(n, dtype=MATCH_DEAL_DTYPE)
    fill_rows(drows, res, deal_index[:n])
    drows["match"] = deal_match[:n]
    drows["before_0"] = res[:, E.R_BEFORE0]
    drows["before_1"] = res[:, E.R_BEFORE1]
    return matches, drows


SPEC = GameSpec(
    name="500",
    seat_counts=(4,),
    registry=REGISTRY,
    default_strategy="heuristic",
    row_dtype=ROW_DTYPE,
    simulate_chunk=simulate_chunk,
    deal_chunk=deal_chunk,
    make_records=make_records,
    replay=replay,
    show=show,
    rule_options=(
        RuleOption("scoring", "quebec", _scoring,
                   "quebec: made -> declarer's side +value, failed -> defenders +value; "
                   "subtract: failed -> -value, defenders +10 a trick (docs/RULES.md §3.6)"),
        RuleOption("target", 1000, _target, "game target in points (docs/RULES.md §3.6)"),
    ),
    play_matches=play_matches,
    match_dtype=MATCH_DTYPE,
    doc="Five Hundred (docs/RULES.md §3): 4 players in partnerships, 46 cards, bid table, kitty.",
    row_doc=_rows.__doc__.split("Fields (per deal)", 1)[-1].split("\n", 2)[-1].strip(),
    match_doc=_rows.MATCH_DOC,
    # 6-7 the common contracts, 8-10 the high ones where the bidder counts on partner and kitty.
    contract_bands=ContractBands(((6, 7), (8, 10)), "level"),
    forcing=Forcing(_forcing.parse_option, _forcing.declares, _forcing.parse_before, _forcing.play_given,
                    _forcing.outcome, _forcing.trace_given, _forcing.LOWER_IS_BETTER,
                    "P or 6S..10NT: the seat's first call; =CONTRACT (=8H): the seat declares it, auction skipped",
                    E.NO_FORCE,
                    agreed_calls=_forcing.agreed_calls, auto_options=_forcing.auto_options),
    pimc=_pimc.HOOKS,
    # hooks lane
    ranks=RANKS,
    jokers=((HJ, "HJ"), (LJ, "LJ")),
    frames=FRAMES,
    dd=DD,
    facts=FACTS,
    # split lane
    features_module=f"{__name__}.features",
    deal_seconds=5.9e-6,
    deals_per_match=8.7,
)

__all__ = ["SPEC", "simulate_chunk", "deal_chunk", "play_matches", "make_records", "replay", "show",
           "OptionError"]
