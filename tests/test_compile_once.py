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

import numba
import numpy as np
import pytest

import cardsim
from cardsim.dd import g500 as dd500
from cardsim.dd import positions_500

HEAVY = {
    "500": ["engine.play_deal", "engine.run_deal"],
    "501": ["engine.play_deal", "engine.shuffle_and_deal"],
    "vint": ["engine.run_deal", "engine.deal_cards", "engine.fill_row"],
}
QUESTION = {
    "vint": dict(seat=0, options=["P", "1S"], n=20, seed=5, dealer=1),
    "500": dict(seat=2, hand="HJ LJ H:AKQJT98 D:J", options=["=10H", "=10NT"], n=20, seed=1),
    "501": dict(seat=0, options=["blind:70", "look"], n=20, seed=9, dealer=1, auction=["B75"]),
}


def signatures(stem: str) -> list[str]:
    """The argument types of each compiled version of ``stem`` (e.g. "engine.play_deal") in
    numba's cache index files (``<stem>-<line>.py311.nbi``: a pickled numba version, then the
    pickled ``(source stamp, {(signature, target, ...): file})``)."""
    out = []
    for path in sorted(Path(numba.config.CACHE_DIR).rglob(f"{stem}-*.nbi")):
        with open(path, "rb") as f:
            pickle.load(f)
            _, overloads = pickle.loads(f.read())
        # The folder says which package the module is in: vint_..., g500_..., g501_..., dd_...
        out += [f"{path.parent.name.split('_')[0]} {key[0]}" for key in overloads]
    return out


@pytest.mark.parametrize("game", ["vint", "500", "501"])
def test_every_entry_point_shares_one_compiled_deal(game):
    cardsim.simulate(game, 5, seed=1, n_jobs=1)
    for record in cardsim.records(game, range(2), seed=1):
        cardsim.replay(record)
    cardsim.play_match(game, 1, seed=1, n_jobs=1)
    if game == "501":
        cardsim.match_records(game, 0, seed=1)
    cardsim.evaluate(game, n_jobs=1, **QUESTION[game])
    package = {"vint": "vint", "500": "g500", "501": "g501"}[game]
    for stem in HEAVY[game]:
        found = [s for s in signatures(stem) if s.startswith(package + " ")]
        assert len(found) == 1, (stem, found)


def test_500_double_dummy_search_is_compiled_once():
    h, d, t, played = positions_500(cardsim.records("500", range(3), 0))
    out = np.zeros(int(played.sum()), dtype=np.int64)
    dd500.solve_batch(h[played], d[played], t[played], *dd500.new_table(12), out, np.zeros(1, dtype=np.int64))
    found = signatures("g500._search")
    assert len(found) == 1, found
    assert "Literal" not in found[0]
