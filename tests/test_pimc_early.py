"""``pimc``'s cheaper early play (cardsim/strategies/pimc.py, ``early`` and ``early_worlds``): the
first tricks played with the heuristic's card or with fewer worlds, validated by the registry,
reproducible for a seed whatever the chunks and jobs."""
import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim import StrategyError
from cardsim.games import get_game
from cardsim.strategies import pimc as P

GAMES = ("vint", "500", "501")
TRICK = {"vint": 4, "500": 4, "501": 3}
"""Cards to a trick (501: the three players in the play)."""
SEED = 11


def _tricks(record, game, k):
    """The first ``k`` tricks' cards of a record's play, in play order."""
    return record["play"][:k * TRICK[game]]


@pytest.mark.parametrize("game", GAMES)
def test_bad_values_are_one_line_errors(game):
    registry = get_game(game).table.registry
    for bad, said in (("early=-1", "from 0 to 13, got -1"), ("early=14", "from 0 to 13, got 14"),
                      ("early=1.5", "from 0 to 13, got 1.5"), ("early_worlds=257", "from 0 to 256, got 257"),
                      ("early_worlds=-2", "from 0 to 256, got -2"), ("early=x", "is not a number")):
        with pytest.raises(StrategyError, match=said) as err:
            registry.resolve(f"pimc:{bad}")
        assert "\n" not in str(err.value)
    _, row = registry.resolve("pimc:early=2,early_worlds=4")
    pimc = registry["pimc"]
    assert row[pimc.param_index("early")] == 2 and row[pimc.param_index("early_worlds")] == 4
    # the game's own default (tests/test_pimc_defaults.py); early_worlds 0: the heuristic's card there
    assert pimc.params["early"] == {"vint": 4, "501": 1, "500": 3}[game] and pimc.params["early_worlds"] == 0


def test_the_cli_rejects_a_bad_early_in_one_line(capsys):
    from cardsim.cli import main

    assert main(["simulate", "500", "-n", "2", "--strategy", "pimc:early=20"]) == 2
    err = capsys.readouterr().err
    assert "early" in err and "from 0 to 13, got 20" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_decision_in_the_early_tricks_plays_the_fallback_or_fewer_worlds():
    # Hooks whose solver makes card 2 best in every world; the heuristic's card (the fallback) is 1.
    asked = []

    def solve(position, worlds):
        asked.append(len(worlds))
        return np.tile([0.0, 1.0], (len(worlds), 1))[:, :len(position.legal)]

    def position(view):
        return P.Position(legal=np.array([1, 2]), unseen=0x3F << 10, counts=np.array([2, 2, 2]),
                          allowed=np.full(3, 2**64 - 1, dtype=np.uint64), lead=True, declaring=True, fallback=1,
                          trick=view[0])

    vint = get_game("vint").table.registry
    hooks = P.Hooks(position=position, solve=solve, strategy=vint["pimc"])
    row = lambda spec: vint.resolve(spec)[1]
    decide = lambda spec, trick: P.decide(hooks, row(spec), 99, 4 * trick, 0, (trick,), stop=False)
    assert decide("pimc:worlds=6,early=0", 0) == 2 and asked == [6]  # the full search: the first trick searches
    early, searched = P.COUNTERS.early, P.COUNTERS.searched
    assert decide("pimc:worlds=6,early=2", 1) == 1 and asked == [6]  # the second trick is early: no search
    assert (P.COUNTERS.early, P.COUNTERS.searched) == (early + 1, searched)
    assert decide("pimc:worlds=6,early=2", 2) == 2 and asked == [6, 6]  # the third is not
    assert decide("pimc:worlds=6,early=1,early_worlds=3", 0) == 2 and asked == [6, 6, 3]
    assert P.COUNTERS.early == early + 2 and P.COUNTERS.searched == searched + 2
    # the worlds of early_worlds=W are the first W of the same decision's worlds
    key = P.decision_key(99, 0, 0, 0)
    some, _ = P.sample_worlds(np.uint64(key), np.uint64(0x3F << 10), np.array([2, 2, 2]),
                              np.full(3, 2**64 - 1, dtype=np.uint64), np.int64(6))
    few, _ = P.sample_worlds(np.uint64(key), np.uint64(0x3F << 10), np.array([2, 2, 2]),
                             np.full(3, 2**64 - 1, dtype=np.uint64), np.int64(3))
    assert (some[:3] == few).all()


@pytest.mark.parametrize("game", GAMES)
def test_every_trick_early_plays_the_heuristic(game):
    """``early`` at least the tricks of a deal and ``early_worlds=0``: no search, the heuristic's
    card at every decision; in Vint and Five Hundred ``heuristic``'s play card for card (501's
    ``pimc`` starts from ``heuristic_play``, which breaks ties between equal cards of several
    suits by suit index, not by the seat's suit order as ``heuristic`` does)."""
    searched, early = P.COUNTERS.searched, P.COUNTERS.early
    ours = cardsim.records(game, range(6), SEED, "pimc:early=13,early_declaring=-1")
    assert P.COUNTERS.searched == searched and P.COUNTERS.early > early
    plain = cardsim.records(game, range(6), SEED, "heuristic")
    assert sum(len(r["play"]) for r in plain) > 0
    if game != "501":
        assert [r["play"] for r in ours] == [r["play"] for r in plain]
        assert [r["result"] for r in ours] == [r["result"] for r in plain]


@pytest.mark.parametrize("game", GAMES)
def test_the_first_tricks_are_the_heuristics_then_the_search(game):
    searched = P.COUNTERS.searched
    ours = cardsim.records(game, range(4), SEED, "pimc:worlds=2,early=2,early_declaring=-1")
    assert P.COUNTERS.searched > searched  # the later tricks search
    plain = cardsim.records(game, range(4), SEED, "pimc:early=13,early_declaring=-1")
    full = cardsim.records(game, range(4), SEED, "pimc:worlds=2,early=0")
    for a, b in zip(ours, plain):
        assert _tricks(a, game, 2) == _tricks(b, game, 2)
    # the full search plays another card somewhere in those tricks: the early play is not a no-op
    assert any(_tricks(a, game, 2) != _tricks(f, game, 2) for a, f in zip(ours, full))


@pytest.mark.parametrize("game", GAMES)
def test_fewer_worlds_early_are_the_first_tricks_of_that_many_worlds(game):
    ours = cardsim.records(game, range(3), SEED, "pimc:worlds=4,early=1,early_worlds=1,early_declaring=-1")
    one = cardsim.records(game, range(3), SEED, "pimc:worlds=1,early=0")
    for a, b in zip(ours, one):
        assert _tricks(a, game, 1) == _tricks(b, game, 1)


@pytest.mark.parametrize("game", GAMES)
def test_reproducible_for_any_chunks_and_jobs(game):
    spec = "pimc:worlds=2,early=1,early_worlds=1"
    a = cardsim.simulate(game, 4, seed=SEED, strategies=spec, chunk_size=3, n_jobs=1)
    b = cardsim.simulate(game, 4, seed=SEED, strategies=spec, chunk_size=2, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)


# ------------------------------------------------------------------ early_declaring: a count per side
@pytest.mark.parametrize("game", GAMES)
def test_early_declaring_bad_values_are_one_line_errors(game):
    registry = get_game(game).table.registry
    for bad, said in (("early_declaring=-2", "from -1 to 13, got -2"), ("early_declaring=14", "from -1 to 13, got 14"),
                      ("early_declaring=0.5", "from -1 to 13, got 0.5"), ("early_declaring=x", "is not a number")):
        with pytest.raises(StrategyError, match=said) as err:
            registry.resolve(f"pimc:{bad}")
        assert "\n" not in str(err.value)
    pimc = registry["pimc"]
    # off by default (`early` for every seat) but in Five Hundred, whose default is 2 (tests/test_pimc_defaults.py)
    assert pimc.params["early_declaring"] == (2 if game == "500" else -1)
    _, row = registry.resolve("pimc:early=3,early_declaring=2")
    assert row[pimc.param_index("early")] == 3 and row[pimc.param_index("early_declaring")] == 2


def test_the_cli_rejects_a_bad_early_declaring_in_one_line(capsys):
    from cardsim.cli import main

    assert main(["simulate", "500", "-n", "2", "--strategy", "pimc:early=3,early_declaring=-3"]) == 2
    err = capsys.readouterr().err
    assert "early_declaring" in err and "from -1 to 13, got -3" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_early_declaring_counts_the_declaring_sides_tricks_and_early_the_defences():
    # The same fake hooks as above (card 2 best in every world, the heuristic's card 1), once for a
    # seat of the declaring side and once for a defender.
    asked = []

    def solve(position, worlds):
        asked.append(len(worlds))
        return np.tile([0.0, 1.0], (len(worlds), 1))[:, :len(position.legal)]

    def position(view):
        trick, declaring = view
        return P.Position(legal=np.array([1, 2]), unseen=0x3F << 10, counts=np.array([2, 2, 2]),
                          allowed=np.full(3, 2**64 - 1, dtype=np.uint64), lead=True, declaring=declaring,
                          fallback=1, trick=trick)

    five_hundred = get_game("500").table.registry
    hooks = P.Hooks(position=position, solve=solve, strategy=five_hundred["pimc"])

    def decide(spec, trick, declaring):
        return P.decide(hooks, five_hundred.resolve(spec)[1], 99, 4 * trick, 0, (trick, declaring), stop=False)

    spec = "pimc:worlds=6,early=3,early_declaring=2"
    # the declaring side: the heuristic's card in its first two tricks, the search's from the third
    assert [decide(spec, t, True) for t in range(4)] == [1, 1, 2, 2] and asked == [6, 6]
    # the defence: the heuristic's card in the first three tricks (early=3)
    assert [decide(spec, t, False) for t in range(4)] == [1, 1, 1, 2] and asked == [6, 6, 6]
    # -1 is `early` for both sides; 0 searches the declaring side's every trick
    assert [decide("pimc:worlds=6,early=2,early_declaring=-1", t, True) for t in range(3)] == [1, 1, 2]
    # early=0 is the full search for both sides, whatever early_declaring (Five Hundred's default is 2)
    assert [decide("pimc:worlds=6,early=0", t, True) for t in range(3)] == [2, 2, 2]
    assert [decide("pimc:worlds=6,early=0,early_declaring=3", t, True) for t in range(3)] == [2, 2, 2]
    assert [decide("pimc:worlds=6,early=0", t, False) for t in range(3)] == [2, 2, 2]
    assert [decide("pimc:worlds=6,early=2,early_declaring=0", t, True) for t in range(3)] == [2, 2, 2]
    assert [decide("pimc:worlds=6,early=2,early_declaring=0", t, False) for t in range(3)] == [1, 1, 2]
    # early_worlds applies to the declaring side's early tricks too
    asked.clear()
    assert decide("pimc:worlds=6,early=1,early_declaring=3,early_worlds=2", 2, True) == 2 and asked == [2]
    row = five_hundred.resolve(spec)[1]
    st = five_hundred["pimc"]
    assert P.early_tricks(position((0, True)), row, st) == 2 and P.early_tricks(position((0, False)), row, st) == 3


def test_early_declaring_in_play_searches_exactly_where_it_says():
    """Five Hundred, every seat ``pimc:worlds=2,early=3,early_declaring=1``: each decision with a
    choice plays the heuristic's card without a search in the defence's first three tricks and the
    declaring side's first, and searches everywhere else (as ``heuristic``'s first trick shows)."""
    seen = []
    decide = P.decide

    def spy(hooks, row, state, played, seat, view, stop=None):
        position = hooks.position(view)
        before = (P.COUNTERS.searched, P.COUNTERS.equivalent)
        card = decide(hooks, row, state, played, seat, view, stop)
        searched = P.COUNTERS.searched > before[0] or P.COUNTERS.equivalent > before[1]
        if len(position.legal) > 1:
            seen.append((position.declaring, position.trick, searched, card == int(position.fallback)))
        return card

    mp = pytest.MonkeyPatch()
    mp.setattr(P, "decide", spy)
    try:
        ours = cardsim.records("500", range(6), SEED, "pimc:worlds=2,early=3,early_declaring=1")
    finally:
        mp.undo()
    for declaring, trick, searched, heuristics in seen:
        early = trick < (1 if declaring else 3)
        assert searched != early
        if early:
            assert heuristics
    kinds = {(d, t < (1 if d else 3)) for d, t, _, _ in seen}
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}  # every kind was met
    plain = cardsim.records("500", range(6), SEED, "pimc:early=13,early_declaring=-1")
    assert [_tricks(a, "500", 1) for a in ours] == [_tricks(b, "500", 1) for b in plain]


def test_early_declaring_minus_one_is_early_for_every_seat():
    """-1 and a count equal to ``early`` play the same cards; another count does not."""
    spec = "pimc:worlds=2,early=2"
    plain = cardsim.records("500", range(4), SEED, spec + ",early_declaring=-1")
    assert [r["play"] for r in cardsim.records("500", range(4), SEED, spec + ",early_declaring=2")] == \
        [r["play"] for r in plain]
    searched = [r["play"] for r in cardsim.records("500", range(4), SEED, spec + ",early_declaring=0")]
    assert searched != [r["play"] for r in plain]  # the declaring side's first two tricks searched
