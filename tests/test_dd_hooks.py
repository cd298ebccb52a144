"""Double-dummy from the engine (each game's ``dd.deals`` hook): the same positions as from the
deals' records, without turning card bit sets into tokens and back (the same DD frame, for every
game: tests/test_conformance.py)."""
import numpy as np
import pytest

import cardsim
from cardsim.dd import played_rows
from cardsim.games.g500 import dd as D500
from cardsim.games.g501 import dd as D501
from cardsim.games.vint import dd as DV
from cardsim.runner.run import make_run

IDS = list(range(60)) + [1000, 7, 999_999]  # out of order and repeated: rows come back in this order


@pytest.mark.parametrize("strategies", [None, "random"])
def test_engine_positions_equal_the_records_positions(strategies):
    run = make_run("vint", len(IDS), 3, strategies)
    recs = cardsim.records("vint", IDS, 3, strategies)
    assert (DV.engine_hands(run.seed, IDS) == DV.hands_of(recs)).all()
    assert all((a == b).all() for a, b in zip(DV.row_contracts(played_rows("vint", run.seed, IDS, run.setup)),
                                               DV.contracts(recs)))
    run = make_run("500", len(IDS), 3, strategies)
    recs = cardsim.records("500", IDS, 3, strategies)
    got = D500.row_positions(played_rows("500", run.seed, IDS, run.setup))
    assert all((np.asarray(a) == np.asarray(b)).all() for a, b in zip(got, D500.positions(recs)))
    for seats in (3, 4):
        run = make_run("501", len(IDS), 3, strategies, seats)
        recs = cardsim.records("501", IDS, 3, strategies, seats)
        got = D501.engine_positions(run.seed, IDS, run.setup)[:4]
        assert all((np.asarray(a) == np.asarray(b)).all() for a, b in zip(got, D501.positions(recs)))
