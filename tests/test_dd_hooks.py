"""Double-dummy from the engine (each game's ``dd.deals`` hook): the same positions as from the
deals' records, without turning card bit sets into tokens and back (the same DD frame, for every
game: tests/test_conformance.py)."""
import numpy as np
import pytest

import cardsim
import cardsim.dd
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


def test_the_bench_line_solves_the_deals_the_default_strategies_play():
    # cardsim.dd plays the deals and hands the rows to the game's hook (play): the 500 line counts
    # the deals of 0..n-1 that were played, as the DD frame of the same deals says
    line = cardsim.dd.bench_line("500", 1, 12)
    played = int(cardsim.dd.solve_deals("500", range(12), 1).declarer.notna().sum())
    assert line.startswith("500: ") and f" ms per deal ({played} played deals, " in line
    assert 0 < played <= 12


def test_a_game_without_the_quality_or_bench_hook_says_so_in_one_line():
    from cardsim.games import register_game, unregister_game

    register_game("duel", "toygame")  # the toy game solves DD but has no quality or bench hook
    try:
        with pytest.raises(cardsim.OptionError, match=r"^duel has no comparison of its play with double dummy$"):
            cardsim.dd.quality_frames("duel", ["random"], 1, [0, 1], None)
        with pytest.raises(cardsim.OptionError, match=r"^no double-dummy benchmark for duel$"):
            cardsim.dd.bench_line("duel", 1, 4)
    finally:
        unregister_game("duel")
