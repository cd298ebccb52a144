"""The sampled search's savings in its decision loop (cardsim/strategies/pimc.py ``decide``):
touching cards solved once (exact: the same card as solving every card), the first look at the
best cards (501, Five Hundred) and the sequential rule over worlds (approximate: their wrong-card rate against all the
worlds is at most the stated one).

The decisions are recorded from real play (every seat ``pimc``), then solved again here: each
recorded view is the seat's own, as the engine passed it."""
import dataclasses

import numpy as np
import pytest

import cardsim
from cardsim.games import get_game
from cardsim.strategies import pimc as G

U64 = np.uint64
STATED_ERROR = 0.05
"""The sequential rule's stated error, with the first look before it (501, Five Hundred): at most this share of
searched decisions plays another card than all the worlds would (docs: BENCHMARKS.md, the pimc
section)."""


def record(game, deals, worlds, seed):
    """Every searched decision of ``deals`` deals with ``pimc:worlds=W,early=0`` in every seat (the
    search at every trick, the first tricks' full hands too, whatever the game's default ``early``):
    ``[(hooks, row, state, played, seat, view)]``."""
    calls = []
    original = G.decide

    def spy(hooks, row, state, played, seat, view, stop=None):
        calls.append((hooks, row.copy(), state, played, seat, view))
        return original(hooks, row, state, played, seat, view, stop)

    G.decide = spy
    try:
        spec = get_game(game)
        cardsim.simulate(game, deals, seed=seed, strategies=[f"pimc:worlds={worlds},early=0"] * spec.default_seats,
                         n_jobs=1)
    finally:
        G.decide = original
    return calls


def full_values(hooks, row, state, played, seat, view, worlds):
    """The slow path's inputs of one decision at ``worlds`` worlds: (position, the worlds, float64[W, L]
    every legal card solved in every world)."""
    position = hooks.position(view)
    key = G.decision_key(int(state), int(row[hooks.strategy.param_index("stream")]), played, seat)
    counts = np.asarray(position.counts, dtype=np.int64)
    w, _ = G.sample_worlds(U64(key), U64(position.unseen), counts, np.asarray(position.allowed, dtype=np.uint64),
                           np.int64(worlds))
    w = w[w.any(axis=1) | (counts.sum() == 0)]
    return position, w, np.asarray(hooks.solve(position, w), dtype=np.float64)


# ------------------------------------------------------------------ touching cards
def test_touching_classes_of_a_hand():
    # Spades lane 0..12 (2..A).  The seat holds 2, 4, 5, 9 and J; 3 was played in a completed
    # trick, 6 and 7 are unseen, T is on the current trick (not dead: it may still win or lose).
    legal = np.array([0, 2, 3, 7, 9], dtype=np.int64)
    hand = sum(1 << c for c in legal.tolist())
    dead = 1 << 1
    out = G.touching_classes(legal, hand, dead, lambda c: 0x1FFF)
    assert out.tolist() == [2, 2, 2, 3, 4]  # 2-(3)-4-5 touch; 9 and J are apart from all
    out = G.touching_classes(legal, hand, dead | 1 << 8, lambda c: 0x1FFF)  # T played in a completed trick
    assert out.tolist() == [2, 2, 2, 4, 4]
    # Another suit is never in the class, even adjacent in bits.
    assert G.touching_classes(np.array([12, 16], dtype=np.int64), (1 << 12) | (1 << 16), 0,
                              lambda c: 0x1FFF << (16 * (c >> 4))).tolist() == [0, 1]


@pytest.mark.parametrize("game, deals", [("vint", 2), ("500", 6)])
def test_touching_cards_have_the_same_value_in_every_world(game, deals):
    calls = record(game, deals, 2, seed=3)
    classed = 0
    for hooks, row, state, played, seat, view in calls:
        position, worlds, values = full_values(hooks, row, state, played, seat, view, 6)
        classes = hooks.classes(position)
        assert (values == values[:, classes]).all(), (position.legal, classes, values)
        classed += int((classes != np.arange(len(classes))).sum())
    assert classed >= 20, classed  # the test saw cards to group


@pytest.mark.parametrize("game, deals", [("vint", 2), ("500", 6)])
def test_touching_cards_choose_the_slow_paths_card(game, deals):
    calls = record(game, deals, 2, seed=4)
    for hooks, row, state, played, seat, view in calls:
        plain = dataclasses.replace(hooks, classes=None)
        row6 = row.copy()
        row6[hooks.strategy.param_index("worlds")] = 6
        assert G.decide(hooks, row6, state, played, seat, view, stop=False) == \
            G.decide(plain, row6, state, played, seat, view, stop=False)


@pytest.mark.parametrize("game, deals", [("vint", 1), ("500", 3), ("501", 10)])
def test_solving_some_cards_gives_their_values_in_the_full_solve(game, deals):
    # The loop asks the solver for one card a class and drops cards surely worse: each card asked
    # must get the value it has when every legal card is asked (Five Hundred's solver copied a
    # card's value from a higher equivalent one even when that one was not asked: 0).
    calls = record(game, deals, 2, seed=4)
    for hooks, row, state, played, seat, view in calls:
        position, worlds, values = full_values(hooks, row, state, played, seat, view, 4)
        for drop in range(len(position.legal)):
            keep = [j for j in range(len(position.legal)) if j != drop]
            part = hooks.solve(dataclasses.replace(position, legal=position.legal[keep]), worlds)
            assert (np.asarray(part) == values[:, keep]).all(), (position.legal, drop)


# ------------------------------------------------------------------ the sequential rule
def test_sequential_rule_settles_only_a_sure_lead():
    # Card 0 beats card 1 by a trick in each of 2 worlds of 8: not yet sure; in 6 of 8, sure.
    two = np.array([[5, 4], [6, 5]], dtype=float)
    settled, worse = G.sequential(two, 8, 1.0)
    assert not settled and not worse.any()
    six = np.array([[5, 4], [6, 5]] * 3, dtype=float)
    settled, worse = G.sequential(six, 8, 1.0)
    assert settled and worse.tolist() == [False, True]
    # Cards tied in every world seen, at least 4 and a quarter of them, are settled (the
    # tie-break decides); a mixed lead is not.
    assert not G.sequential(np.array([[3, 3], [4, 4]], dtype=float), 8, 1.0)[0]
    assert G.sequential(np.array([[3, 3], [4, 4]] * 2, dtype=float), 8, 1.0)[0]
    assert not G.sequential(np.array([[3, 3], [4, 4]] * 2, dtype=float), 32, 1.0)[0]
    assert not G.sequential(np.array([[5, 4], [3, 4], [6, 4], [4, 4]], dtype=float), 8, 1.0)[0]
    assert G.sequential(two, 2, 1.0)[0]  # every world seen


def test_the_first_look_settles_on_a_card_best_in_each_of_its_worlds():
    # Card 1 is best in each of the first 6 worlds of 8 (tied with card 2 in world 0), card 0
    # would win the mean over all 8: the first look plays card 1 without solving a value.
    values = np.array([[0, 5, 5], [0, 6, 5], [0, 7, 1], [0, 2, 1], [0, 3, 1], [0, 4, 1]] + [[60, 0, 0]] * 2,
                      dtype=float)
    asked, solved = [], []

    def common(upto):
        asked.append(upto)
        return common_argmax(values[:upto])

    def solve(cols, lo, hi):
        solved.append((lo, hi))
        return values[lo:hi][:, cols]

    best, done = G.choose_classes(solve, common, 8, 3, 1.0)
    assert best.tolist() == [1] and done == 6 and asked == [6] and solved == []
    assert G.first_look(8) == 6 and G.first_look(16) == 8 and G.first_look(32) == 16 and G.first_look(3) == 3
    assert G.first_look(8, 0.75) == 6 and G.first_look(16, 0.75) == 12 and G.first_look(32, 0.75) == 24
    # Without the sequential rule the exact values of all the worlds decide (card 0).
    best, done = G.choose_classes(solve, common, 8, 3, 1.0, stop=False)
    assert best.tolist() == [0] and done == 8 and asked == [6]
    # Card 2 best in world 1: no card is best in each of the first 6, the sequential rule decides
    # (it drops card 0 after two worlds, 5 and 9 behind: one of its wrong cards).
    values[1, 2] = 9
    part, alive, upto = G.settle(lambda cols, lo, hi: values[lo:hi][:, cols], 8, 3, 1.0)
    mean = part[:upto, alive].mean(axis=0)
    before = len(solved)
    best, done = G.choose_classes(solve, common, 8, 3, 1.0)
    assert best.tolist() == alive[mean >= mean.max() - 1e-9].tolist() == [1] and done == upto == 8
    assert asked == [6, 6] and solved[before] == (0, 2)
    # Over all the worlds the first look is exact: the cards best in every world.
    values[:] = [[3, 5, 5]] * 8
    best, done = G.choose_classes(solve, common, 4, 3, 1.0)
    assert best.tolist() == [1, 2] and done == 4


def common_argmax(values):
    """bool[K]: the columns of ``values`` (float64[n, K], the seat's side's values, as a game's
    ``solve`` hook gives them) best in every row: what its ``common`` hook answers."""
    return (values >= values.max(axis=1, keepdims=True)).all(axis=0)


def _rates(game, deals, worlds, seed, record_worlds=2):
    """(decisions, wrong cards, mean loss, share of worlds solved): the sequential rule's card
    against all ``worlds`` worlds' card, on every searched decision of ``deals`` deals."""
    calls = record(game, deals, record_worlds, seed)
    n = wrong = 0
    loss = solved = asked = 0.0
    for hooks, row, state, played, seat, view in calls:
        position, w, values = full_values(hooks, row, state, played, seat, view, worlds)
        legal = np.asarray(position.legal, dtype=np.int64)
        classes = hooks.classes(position) if hooks.classes else np.arange(len(legal))
        reps = np.unique(classes)
        if len(reps) == 1:
            continue
        slow = G.choose(values, legal, position.fallback)
        # The game's first look answers the exact values' common argmax (tests/test_dd_pimc_solve.py).
        common = (None if hooks.common is None else
                  lambda upto: common_argmax(values[:upto][:, reps]))
        best, done = G.choose_classes(lambda cols, lo, hi: values[lo:hi][:, reps[cols]], common, len(w), len(reps),
                                      hooks.unit, look=hooks.look)
        best = reps[best]
        ties = legal[np.isin(classes, best)]
        fast = int(position.fallback) if int(position.fallback) in ties.tolist() else int(ties[0])
        n += 1
        wrong += fast != slow
        means = values.mean(axis=0)
        loss += means[legal.tolist().index(slow)] - means[legal.tolist().index(fast)]
        solved += done
        asked += len(w)
    return n, wrong, loss / n, solved / asked


@pytest.mark.parametrize("game, deals, worlds", [("501", 150, 16), ("500", 12, 16), ("vint", 7, 16)])
def test_the_sequential_rules_wrong_card_rate_is_at_most_the_stated_error(game, deals, worlds):
    n, wrong, loss, share = _rates(game, deals, worlds, seed=7)
    print(f"{game}: {n} decisions at {worlds} worlds, {wrong} wrong cards ({wrong / n:.2%}), "
          f"mean loss {loss:.4f}, {share:.0%} of the worlds solved")
    assert n >= (1000 if game == "501" else 200)
    # The stated error with room for the sampling error of this many decisions (3 standard errors).
    assert wrong / n <= STATED_ERROR + 3 * np.sqrt(STATED_ERROR * (1 - STATED_ERROR) / n)
    assert share < 0.8  # it does stop early
