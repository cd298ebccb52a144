"""The sampled-search player (cardsim/strategies/pimc.py) and Vint's hooks (cardsim/games/vint/pimc.py):
consistent worlds, the mean rule, the seat's view only, legal and reproducible play."""
import inspect

import numpy as np
import pytest

import cardsim
from cardsim import StrategyError
from cardsim.games import get_game
from cardsim.games.vint import dispatch as D
from cardsim.games.vint import pimc as VP
from cardsim.games.vint import strategies as S
from cardsim.games.vint.rules import legal_plays, trick_winner
from cardsim.strategies import pimc as P

U64 = np.uint64
VINT = get_game("vint")


def _bits(cards):
    return sum(1 << c for c in cards)


# ------------------------------------------------------------------ the sampler
def test_worlds_keep_counts_and_voids():
    unseen = _bits(range(0, 13)) | _bits(range(16, 29))  # 26 cards: spades and clubs
    counts = np.array([10, 9, 7], dtype=np.int64)
    allowed = np.array([~_bits(range(16, 29)) & (2**64 - 1), 2**64 - 1, 2**64 - 1], dtype=np.uint64)  # 0: no clubs
    worlds, counted = P.sample_worlds(U64(12345), U64(unseen), counts, allowed, 50)
    assert worlds.shape == (50, 3) and counted > 45  # 10 spades of 13 for holder 0: uniform deals rarely fit
    for w in worlds:
        assert [int(h).bit_count() for h in w] == [10, 9, 7]
        assert int(w[0] | w[1] | w[2]) == unseen and not int(w[0] & w[1]) and not int(w[1] & w[2])
        assert not int(w[0]) & _bits(range(16, 29))
    again, _ = P.sample_worlds(U64(12345), U64(unseen), counts, allowed, 50)
    assert (again == worlds).all()
    other, _ = P.sample_worlds(U64(12346), U64(unseen), counts, allowed, 50)
    assert (other != worlds).any()


def test_worlds_are_uniform_over_the_consistent_layouts():
    # Four cards, holders of 2 and 2, holder 0 may not hold card 3: the consistent layouts are the
    # three with card 3 at holder 1, each as likely: card 0 goes to holder 0 in 2 of 3.
    counts = np.array([2, 2], dtype=np.int64)
    allowed = np.array([0b0111, 0b1111], dtype=np.uint64)
    worlds, counted = P.sample_worlds(U64(7), U64(0b1111), counts, allowed, 6000)
    assert counted == 0 and not (worlds[:, 0] & U64(8)).any()
    share = ((worlds[:, 0] & U64(1)) > 0).mean()
    assert abs(share - 2 / 3) < 0.025  # 4.4 standard errors


def test_counted_worlds_are_uniform_too():
    # Holder 0 (10 cards) may hold only spades: 10 of the 13 unseen spades, every choice alike, and
    # the other 16 cards split 9/7 uniformly between holders 1 and 2.
    spades, clubs = _bits(range(0, 13)), _bits(range(16, 29))
    counts = np.array([10, 9, 7], dtype=np.int64)
    allowed = np.array([spades, 2**64 - 1, 2**64 - 1], dtype=np.uint64)
    worlds, counted = P.sample_worlds(U64(3), U64(spades | clubs), counts, allowed, 4000)
    assert counted > 3900 and all(int(w[0]) & ~spades == 0 for w in worlds)
    for card, holder, p in ((0, 0, 10 / 13), (12, 0, 10 / 13), (16, 1, 9 / 16), (28, 2, 7 / 16), (5, 1, 3 / 13 * 9 / 16)):
        share = ((worlds[:, holder] >> U64(card)) & U64(1)).mean()
        assert abs(share - p) < 4.5 * np.sqrt(p * (1 - p) / 4000), (card, holder, share, p)


def test_a_layout_no_uniform_deal_finds_is_still_consistent():
    # Holder 0 may hold only 3 named cards and must hold 3 of 40: uniform deals almost never fit.
    unseen = (1 << 40) - 1
    counts = np.array([3, 37], dtype=np.int64)
    allowed = np.array([0b111, unseen], dtype=np.uint64)
    worlds, counted = P.sample_worlds(U64(1), U64(unseen), counts, allowed, 3)
    assert (worlds[:, 0] == U64(0b111)).all() and (worlds[:, 1] == U64(unseen & ~0b111)).all()
    assert counted == 3
    impossible, _ = P.sample_worlds(U64(1), U64(0b11), np.array([2, 0], dtype=np.int64),
                                    np.array([0b01, 0b11], dtype=np.uint64), 2)
    assert not impossible.any()


# ------------------------------------------------------------------ the rule
def test_the_mean_not_the_vote_and_ties_to_the_fallback():
    legal = np.array([3, 9], dtype=np.int64)
    # Card 3 is best by one in 3 worlds of 5 and three worse in 2: it wins the vote, 9 the mean.
    values = np.array([[5, 4], [5, 4], [5, 4], [2, 5], [2, 5]], dtype=float)
    assert P.choose(values, legal, 3) == 9
    assert P.choose(np.ones((4, 2)), legal, 9) == 9 and P.choose(np.ones((4, 2)), legal, 3) == 3
    assert P.choose(np.ones((4, 2)), legal, 60) == 3  # a fallback that is not among the best: lowest card


def test_a_card_every_world_agrees_on_is_played():
    legal = np.array([1, 2, 5], dtype=np.int64)
    rng = np.random.default_rng(0)
    for _ in range(200):
        values = rng.integers(0, 8, (7, 3)).astype(float)
        values[:, 2] = values.max(axis=1) + rng.integers(0, 2, 7)  # card 5 at least as good in each world
        chosen = P.choose(values, legal, int(rng.choice(legal)))
        assert (values[:, legal.tolist().index(chosen)] == values.max(axis=1)).all()  # best in every world


def test_search_and_side_parameters():
    st = S.PIMC_STRATEGY
    pos = P.Position(legal=np.array([1, 2]), unseen=0, counts=np.zeros(3, dtype=np.int64),
                     allowed=np.zeros(3, dtype=np.uint64), lead=True, declaring=False, fallback=1)
    row = lambda **kw: VINT.table.registry.resolve("pimc:" + ",".join(f"{k}={v}" for k, v in kw.items()))[1]
    assert P.searches(pos, row(), st)
    assert P.searches(pos, row(search=1), st) and not P.searches(pos, row(search=2), st)
    assert P.searches(pos, row(side=2), st) and not P.searches(pos, row(side=1), st)


# ------------------------------------------------------------------ registry
def test_pimc_is_registered_with_heuristics_parameters_first():
    assert VINT.pimc is VP.HOOKS and VINT.pimc.strategy is VINT.table.registry["pimc"]
    pimc, heuristic = VINT.table.registry["pimc"], VINT.table.registry["heuristic"]
    assert list(pimc.params)[:len(heuristic.params)] == list(heuristic.params)
    assert list(pimc.params)[len(heuristic.params):] == ["worlds", "stream", "search", "side", "early", "early_worlds",
                                                              "early_declaring", "auction"]
    assert pimc.search and not heuristic.search and "pimc" not in cardsim.quality.strategy_names("vint")
    _, vec = VINT.table.registry.resolve("pimc:worlds=32,aggression=1")
    assert vec[pimc.param_index("worlds")] == 32 and vec[S.P_AGGRESSION] == 1
    for bad in ("pimc:worlds=0", "pimc:worlds=2.5", "pimc:search=3", "pimc:side=-1", "pimc:depth=2", "pimc:auction=2"):
        with pytest.raises(StrategyError):
            VINT.table.registry.resolve(bad)


def test_cli_lists_pimc_and_rejects_bad_parameters(capsys):
    from cardsim.cli import main

    assert main(["strategies", "vint"]) == 0
    out = capsys.readouterr().out
    assert "pimc:" in out and "worlds = 16" in out and "side = 0" in out
    assert main(["simulate", "vint", "-n", "2", "--strategy", "pimc:worlds=0"]) == 2
    err = capsys.readouterr().err
    assert "worlds" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bound_messages_print_whole_numbers_in_full(capsys):
    """The stream bound is 2**31 - 1: printed with %g it read "from 0 to 2.14748e+09, got
    2.14748e+09" for 2**31, a bound and a value that looked equal."""
    from cardsim.cli import main

    with pytest.raises(StrategyError, match=r"must be a whole number from 0 to 2147483647, got 2147483648$"):
        VINT.table.registry.resolve("pimc:stream=2147483648")
    with pytest.raises(StrategyError, match=r"from 1 to 256, got 2\.5$"):
        VINT.table.registry.resolve("pimc:worlds=2.5")
    assert main(["strategies", "vint"]) == 0
    assert "stream = 0 (a whole number from 0 to 2147483647)" in capsys.readouterr().out


# ------------------------------------------------------------------ Vint's hooks
def _mid_deal():
    """A Vint position after 1 trick and 2 cards: seat 3 (declarer 0, hearts) to play; seat 2 showed
    out of clubs in trick 1."""
    hand = _bits([0, 1, 2, 17, 18, 33, 34, 35, 49, 50, 51, 52])  # 12 cards
    first = [16 + 12, 0 + 5, 16 + 3, 16 + 11]  # by seats 1, 2, 3, 0: seat 2 discards a spade on clubs
    trick = np.zeros(4, dtype=np.int64)
    trick[0], trick[1] = 48 + 12, 48 + 7  # seat 1 leads the heart ace, seat 2 follows
    played = _bits(first) | _bits(trick[:2].tolist())
    voids = 1 << (4 * 2 + 1)  # seat 2 showed out of clubs
    return hand, played, trick, voids


def test_position_counts_and_allowed_from_the_view():
    hand, played, trick, voids = _mid_deal()
    pos = VP.position((U64(hand), 3, 0, 3, 1, trick, 2, U64(played), voids, 49))
    assert pos.context[5] == [0, 1, 2]  # holders: left-hand opponent first
    assert pos.counts.tolist() == [12, 11, 11]  # seat 0 has not played to this trick, 1 and 2 have
    assert pos.unseen == VP.DECK & ~hand & ~played and int(pos.unseen).bit_count() == 34
    assert pos.legal.tolist() == [49, 50, 51, 52] and not pos.lead and not pos.declaring
    assert int(pos.allowed[0]) == VP.DECK and int(pos.allowed[1]) == VP.DECK
    assert int(pos.allowed[2]) == VP.DECK & ~(0xFFFF << 16)  # seat 2 is void in clubs


def test_solve_gives_the_known_result_on_a_last_trick():
    # One card each left: seat 0 holds the ace of spades, the others small spades; spades trump.
    pos = P.Position(legal=np.array([12]), unseen=_bits([0, 1, 2]), counts=np.array([1, 1, 1]),
                     allowed=np.full(3, VP.DECK, dtype=np.uint64), lead=True, declaring=True, fallback=12,
                     context=(1 << 12, 0, 0, 0, [], [1, 2, 3]))
    worlds = np.array([[1, 2, 4], [4, 1, 2]], dtype=np.uint64)
    assert VP.solve(pos, worlds).tolist() == [[1.0], [1.0]]


def test_the_decision_reads_only_the_seats_view():
    # The glue's arguments are heuristic's view plus the seat's own row and stream, nothing else
    # (and heuristic's card on that view, its fallback).
    glue = inspect.signature(VP.pimc_card.py_func).parameters
    view = inspect.signature(S.heuristic_card.py_func).parameters
    # ... and the public auction record (calls, strategies, cards played: read only by auction=1)
    assert list(glue) == ["row", "rng"] + list(view) + ["fallback", "auction"]
    # The same view and key give the same card, whatever the hidden hands are (they are never passed):
    # two deals that agree on seat 3's hand and the public play so far.
    hand, played, trick, voids = _mid_deal()
    row = VINT.table.registry.resolve("pimc:worlds=6")[1]
    view = (U64(hand), 3, 0, 3, 1, trick, 2, U64(played), voids, 49)
    cards = {P.decide(VP.HOOKS, row, 99, int(played).bit_count(), 3, view) for _ in range(3)}
    assert len(cards) == 1 and cards <= {49, 50, 51, 52}


# Legal, replayed, reproducible for any chunks and jobs, bidding as heuristic: tests/test_conformance.py


def test_pimc_outside_its_side_plays_heuristics_card():
    hand, played, trick, voids = _mid_deal()
    params = np.zeros((4, len(VINT.table.registry.resolve("pimc")[1])))
    params[3] = VINT.table.registry.resolve("pimc:side=1")[1]  # seat 3 defends here: no search
    streams = np.zeros((5, 1), dtype=np.uint64)
    suits = np.full(4, -1, dtype=np.int64)
    got = D.choose_card(S.PIMC, params, streams, 3, U64(hand), 0, 3, 1, trick, 2, U64(played), suits, voids,
                        trick_winner(trick, 2, 3), D.unread_auction(params))
    assert got == S.heuristic_card(U64(hand), 3, 0, 3, 1, trick, 2, U64(played), suits, voids)
    assert int(legal_plays(U64(hand), 3)) >> int(got) & 1


def test_pimc_works_wherever_a_strategy_does(tmp_path):
    spec = "pimc:worlds=1,side=1"  # the declaring side searches, one world: cheap
    answer = cardsim.evaluate("vint", seat=0, options=["1S", "P"], n=3, seed=2, strategies=[spec] * 4, n_jobs=1)
    assert sorted(answer["option"].tolist()) == ["1S", "P"] and answer["n"].tolist() == [3, 3]
    table = cardsim.compare("vint", 3, "heuristic", {"pimc": spec}, lambda df: df.tricks_0, seed=2, n_jobs=1)
    assert table["n"].tolist() == [3, 3]
    rows = cardsim.quality.quality("vint", 3, seed=2, strategies=[spec])
    assert rows["strategy"].tolist() == [spec] and int(rows["deals"].iloc[0]) == 3
    matches, deals = cardsim.play_match("vint", 1, seed=2, strategies=[spec] * 4, n_jobs=1)
    assert len(matches) == 1 and len(deals) >= 2
    profiles = tmp_path / "p.toml"
    profiles.write_text(f'[searching]\ndoc = "opponents who search"\nopponents = "{spec}"\n')
    robust = cardsim.evaluate("vint", seat=0, options=["1S", "P"], n=3, seed=2, n_jobs=1,
                              profiles=["searching"], profiles_file=str(profiles))
    assert list(robust.tables) == ["default", "searching"]
    assert robust.strategies["searching"][1] == spec and robust.strategies["searching"][0] == "heuristic"


@pytest.mark.parametrize("module", ["cardsim.games.g500.solver", "cardsim.games.g501.solver", "cardsim.games.vint.solver"])
def test_each_solver_imports_first(module):
    # A game's pimc glue imports its solver, which imports the game: neither may need the other
    # to be loaded first (a fresh interpreter, the solver module before anything else).
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
