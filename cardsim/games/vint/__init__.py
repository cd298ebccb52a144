"""Vint (docs/RULES.md §2): the game's :class:`~cardsim.games.base.GameSpec`."""
from __future__ import annotations

import numpy as np

# hooks lane
from cardsim.cards import VINT_RANKS
from cardsim.games.vint.dd import DD
from cardsim.games.vint.facts import FACTS
from cardsim.games.vint.frames import FRAMES
from cardsim.games.base import ContractBands, Forcing, GameSpec, grow_until_fits
from cardsim.rng import check_seed

from . import engine, forcing, pimc
from .records import make_records
from .replay import replay as replay_record
from .show import show
from .strategies import REGISTRY


def simulate_chunk(seed, start, count, setup):
    """Rows (engine.ROW_DTYPE, shape (count,)) of independent deals start..start+count-1."""
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    engine.simulate_rows(np.uint64(check_seed(seed)), start, count, setup.strategy_ids, setup.params,
                         engine.BASE_DECK, rows)
    return rows


def deal_chunk(seed, start, count):
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(engine.deal_only(np.uint64(check_seed(seed)), start, count, engine.BASE_DECK))


def play_matches(seed, start, count, setup):
    """Rubbers ``start..start+count-1``: (rubber rows RUBBER_DTYPE, deal rows ROW_DTYPE + ``rubber``)."""
    seed = np.uint64(check_seed(seed))

    def run(capacity):
        rubbers = np.zeros(count, dtype=engine.RUBBER_DTYPE)
        deals = np.zeros(capacity, dtype=engine.ROW_DTYPE)
        rubber_of = np.zeros(capacity, dtype=np.int64)
        n = engine.play_rubbers(seed, start, count, setup.strategy_ids, setup.params, engine.BASE_DECK,
                                rubbers, deals, rubber_of)
        return n, (n, rubbers, deals, rubber_of)

    n, rubbers, deals, rubber_of = grow_until_fits(run, max(64, 16 * count))
    deals = deals[:n]
    out = np.zeros(n, dtype=np.dtype([("rubber", "i8")] + engine.ROW_DTYPE.descr))
    out["rubber"] = rubber_of[:n]
    for name in engine.ROW_DTYPE.names:
        out[name] = deals[name]
    return rubbers, out


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
    match_dtype=engine.RUBBER_DTYPE,
    doc="Vint: Russian partnership game, no dummy, both sides score every trick (docs/RULES.md §2)",
    row_doc=engine.ROW_DOC,
    match_doc=engine.MATCH_DOC,
    # Part scores, games (4-5: 3NT-5D decide the game) and slams (6-7) apart (docs/RULES.md §2.4-§2.5).
    contract_bands=ContractBands(((1, 3), (4, 5), (6, 7)), "level"),
    forcing=Forcing(forcing.parse_option, forcing.declares, forcing.parse_before, forcing.play_given,
                    forcing.outcome, forcing.trace_given, forcing.LOWER_IS_BETTER,
                    "P or 1S..7NT: the seat's first call; =CONTRACT (=3NT): the seat declares it, auction skipped",
                    engine.NO_FORCE,
                    agreed_calls=forcing.agreed_calls, auto_options=forcing.auto_options),
    pimc=pimc.HOOKS,
    # hooks lane
    ranks=VINT_RANKS,
    frames=FRAMES,
    dd=DD,
    facts=FACTS,
    # split lane
    features_module=f"{__name__}.features",
    deal_seconds=5.4e-6,
    deals_per_match=12.2,
)
