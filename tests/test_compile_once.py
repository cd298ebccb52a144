"""Each engine's deal is compiled once, whatever entry point plays it.

A jitted function called with a bare constant (``f(x, 0)``, ``f(x, True)``, or a module-level
numpy scalar) is compiled again for that constant's literal type (``Literal[int](0)``), with
everything it inlines; the 500 and 501 engines and the Five Hundred double-dummy search were
each compiled two or three times that way, which made a cold ``make test`` run over its 10
minutes.  This test plays every kind of run (simulate, records and replay, matches, a question)
and then reads the numba cache index of the heavy functions: one compiled signature each.
"""
import pickle
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.games.g500 import solver as dd500
from cardsim.games.g500.dd import positions as positions_500
from cardsim.games.g500 import engine as g500_engine
from cardsim.games.g500 import strategies as g500_strategies
from cardsim.games.g501 import engine as g501_engine
from cardsim.games.g501 import strategies as g501_strategies
from cardsim.games.vint import engine as vint_engine
from cardsim.games.vint import strategies as vint_strategies

HEAVY = {
    "500": [g500_engine.play_deal, g500_engine.run_deal],
    "501": [g501_engine.play_deal, g501_engine.run_auction, g501_engine.shuffle_and_deal, g501_engine.agreed_calls],
    "vint": [vint_engine.run_deal, vint_engine.deal_cards, vint_engine.fill_row, vint_engine.agreed_calls],
}
# The strategy functions the deals call out of line (docs/adding-a-game.md, "Compile time"):
# the deal must not call them with a literal type.  Other tests call some of them from Python
# with their own argument types (another entry in the shared index), so only literals are checked.
OUT_OF_LINE = {
    "500": [g500_strategies.heuristic_bid, g500_strategies.score_bid, g500_strategies.heuristic_lead,
            g500_strategies.declaring_side_lead],
    "501": [g501_strategies.heuristic_card, g501_strategies.last_in_seventh, g501_strategies.heuristic_play_v1],
    "vint": [vint_strategies.heuristic_bid, vint_strategies.heuristic_call_v1, vint_strategies.lead_with_bid_suits,
             vint_strategies.heuristic_lead_v1],
}
QUESTION = {
    "vint": dict(seat=0, options=["P", "1S"], n=20, seed=5, dealer=1, auction=["P", "P", "P"]),
    "500": dict(seat=2, hand="HJ LJ H:AKQJT98 D:J", options=["=10H", "=10NT"], n=20, seed=1),
    "501": dict(seat=0, options=["blind:70", "look"], n=20, seed=9, dealer=1, auction=["B66"]),
}


def signatures(kernel) -> list[str]:
    """The argument types of each compiled version of the jitted ``kernel`` in its own numba
    cache index (``<qualname>-<line>.py311.nbi``: a pickled numba version, then the pickled
    ``(source stamp, {(signature, target, ...): file})``).  Only this checkout's index is read:
    numba names the folder after the source file's absolute path, so another clone of the same
    sources (same cache directory, since it is keyed on their hash) keeps its own index."""
    path = Path(kernel._cache._cache_file._index_path)
    if not path.is_file():
        return []
    with open(path, "rb") as f:
        pickle.load(f)
        _, overloads = pickle.loads(f.read())
    return [str(key[0]) for key in overloads]


@pytest.mark.parametrize("game", ["vint", "500", "501"])
def test_every_entry_point_shares_one_compiled_deal(game):
    cardsim.simulate(game, 5, seed=1, n_jobs=1)
    for record in cardsim.records(game, range(2), seed=1):
        cardsim.replay(record)
    cardsim.play_match(game, 1, seed=1, n_jobs=1)
    if game in ("501", "vint"):
        cardsim.match_records(game, 0, seed=1)
    cardsim.evaluate(game, n_jobs=1, **QUESTION[game])
    if game == "vint":  # the rubber played on after a question's deal, and rubbers from a given line
        from cardsim.games.vint.chunks import rubbers_from

        cardsim.evaluate(game, n_jobs=1, outcome="game", before=[300, 200, 1, 0], **QUESTION[game])
        rubbers_from(1, 0, 2, cardsim.get_game(game).setup(), (100, 0), (0, 1), 2)
        cardsim.play_match(game, 1, seed=1, n_jobs=1, before=[100, 0, 0, 1], dealer=2)
        cardsim.match_records(game, 0, seed=1, before=[100, 0, 0, 1], dealer=2)
    for kernel in HEAVY[game]:
        found = signatures(kernel)
        assert len(found) == 1, (kernel.__name__, found)
    for function in OUT_OF_LINE[game]:
        found = signatures(function)
        assert found, function.__name__
        assert not any("Literal" in sig for sig in found), (function.__name__, found)


def test_500_double_dummy_search_is_compiled_once():
    h, d, t, played = positions_500(cardsim.records("500", range(3), 0))
    out = np.zeros(int(played.sum()), dtype=np.int64)
    dd500.solve_batch(h[played], d[played], t[played], *dd500.new_table(12), out, np.zeros(1, dtype=np.int64))
    found = signatures(dd500.search)
    assert len(found) == 1, found
    assert "Literal" not in found[0]
