"""The solvers as ``pimc`` calls them (issue 47): Vint's binary DDS batch against endplay's own
``Deal`` path, the Five Hundred and 501 tables kept across calls never answering for a position
that differs in one card (the fixed-position benchmark: tests/test_bench_pimc_hooks.py)."""

import numpy as np
import pytest

from cardsim.cards import RANKS_501, SUITS, VINT_RANKS, full_deck
from cardsim.games.g500 import solver as D500
from cardsim.games.g501 import solver as D501
from cardsim.games.vint.solver import DDS_STRAIN, pbn_deal, solve_positions
from cardsim.games.g500.constants import FULL_EFF
from cardsim.games.g500.pimc_solve import common_best as common500
from cardsim.games.g500.pimc_solve import solve_worlds
from cardsim.games.g500.rules import card_suit
from cardsim.games.g500.rules import legal_plays as legal500
from cardsim.games.g501.rules import can_declare
from cardsim.games.g501.rules import legal_plays as legal501
from cardsim.games.vint.rules import legal_plays as legal_vint

U = np.uint64


def _cards(x):
    return [c for c in range(64) if int(x) >> c & 1]


# ---------------------------------------------------------------- Vint
def _endplay_values(hands, trump, leader, trick):
    """The previous glue, endplay ``Deal`` objects from PBN text and ``solve_all_boards``: the
    side to move's tricks after each card (int8[64], −1 not playable)."""
    from endplay.dds import solve_all_boards
    from endplay.types import Deal, Denom, Player

    full = [int(h) for h in hands]
    for k, c in enumerate(trick):
        full[(leader + k) % 4] |= 1 << c
    deal = Deal.from_pbn(pbn_deal(full))
    deal.trump = Denom(DDS_STRAIN[trump])
    deal.first = Player(leader)
    for c in trick:
        deal.play(SUITS[c >> 4] + VINT_RANKS[c & 15])
    data = solve_all_boards([deal])[0]._data
    out = np.full(64, -1, dtype=np.int8)
    for i in range(data.cards):
        suit = (0, 3, 2, 1)[data.suit[i]]
        held = (1 << data.rank[i]) | data.equals[i]
        for rank in range(2, 15):
            if held >> rank & 1:
                out[16 * suit + rank - 2] = data.score[i]
    return out


def _vint_positions(rng, n):
    """``n`` random Vint positions: 13 − k cards a hand, 0..3 legal cards on the trick."""
    deck = np.array([16 * s + r for s in range(4) for r in range(13)])
    out = []
    for i in range(n):
        left = int(rng.integers(1, 9)) if i % 10 else 13  # whole hands are the slow ones
        cards = rng.permutation(deck)[:4 * left]
        hands = np.array([sum(1 << int(c) for c in cards[s * left:(s + 1) * left]) for s in range(4)], dtype=U)
        trump, leader = int(rng.integers(0, 5)), int(rng.integers(0, 4))
        trick = []
        for k in range(int(rng.integers(0, 4))):
            s = (leader + k) % 4
            led = -1 if not trick else trick[0] >> 4
            c = int(rng.choice(_cards(legal_vint(U(hands[s]), np.int64(led)))))
            trick.append(c)
            hands[s] &= ~U(1 << c)
        out.append((hands, trump, leader, trick))
    return out


def test_vint_binary_batch_equals_endplays_deal_path():
    """The same DDS values as endplay's own objects give, with 0..3 cards on the trick, every
    denomination and hand size; one call for many positions of one trick."""
    rng = np.random.default_rng(47)
    for hands, trump, leader, trick in _vint_positions(rng, 40):
        got = solve_positions(hands[None, :], trump, leader, trick)[0]
        assert (got == _endplay_values(hands, trump, leader, trick)).all(), (hands, trump, leader, trick)
    # The worlds of one decision in one call (more than a batch of boards: two DDS calls).
    deal = rng.permutation(np.array([16 * s + r for s in range(4) for r in range(13)]))[:24]
    seat, trump = 2, 1
    mine = sum(1 << int(c) for c in deal[:6])
    worlds = []
    for _ in range(210):
        rest = rng.permutation(deal[6:])
        w = [sum(1 << int(c) for c in rest[6 * k:6 * (k + 1)]) for k in range(3)]
        worlds.append([w[0], w[1], mine, w[2]])
    worlds = np.array(worlds, dtype=U)
    got = solve_positions(worlds, trump, seat)
    for w in (0, 99, 200, 209):
        assert (got[w] == _endplay_values(worlds[w], trump, seat, [])).all()


def test_vint_binary_batch_known_values_and_bad_input():
    # Two cards each: seats 0..2 hold the 2, 3, 4 of spades and of clubs, seat 3 the ♠A and ♣5.
    hands = np.array([[1 << 16 | 1 << 0, 1 << 1 | 1 << 17, 1 << 2 | 1 << 18, 1 << 12 | 1 << 19]], dtype=U)
    # No-trump, seat 3 leads: either card first, both tricks are his.
    got = solve_positions(hands, 4, 3)[0]
    assert got[12] == 2 and got[19] == 2
    assert (got[[c for c in range(64) if c not in (12, 19)]] == -1).all()
    # Spades trump, seat 0 to lead: whatever he leads, seat 3 (♠A) takes one trick; ♣5 the other.
    got = solve_positions(hands, 0, 0)[0]
    assert got[0] == 0 and got[16] == 0
    with pytest.raises(ValueError, match="trump 0..4"):
        solve_positions(hands, 5, 0)
    with pytest.raises(ValueError, match="at most 3 cards"):
        solve_positions(hands, 0, 0, [1, 2, 3, 4])


# ---------------------------------------------------------------- a table kept across calls
def _swapped(rng, h, a, b):
    """``h`` with one card of hand ``a`` exchanged for one of hand ``b`` (None if either is empty)."""
    if not h[a] or not h[b]:
        return None
    x, y = int(rng.choice(_cards(h[a]))), int(rng.choice(_cards(h[b])))
    g = h.copy()
    g[a] = (g[a] & ~U(1 << x)) | U(1 << y)
    g[b] = (g[b] & ~U(1 << y)) | U(1 << x)
    return g


def test_500_kept_table_answers_a_one_card_swap_afresh():
    """Pairs of positions that differ only by one card exchanged between two hands (the same suit
    lengths, often the same shape class of the table), solved one after the other through the
    pimc glue's kernel with one table for all: each value equals plain minimax."""
    rng = np.random.default_rng(470)
    keys, bounds = D500.new_table(10)  # small: buckets are shared and overwritten
    moves, stats = np.zeros((42, D500.MAX_MOVES), dtype=np.int64), np.zeros(1, dtype=np.int64)
    checked = 0
    for i in range(300):
        denom, seat = int(rng.integers(0, 5)), int(rng.integers(0, 4))
        ntr = int(rng.integers(2, 5))
        cards = rng.permutation(_cards(FULL_EFF[denom]))[:4 * ntr]
        h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(4)], dtype=U)
        a, b = rng.choice(4, 2, replace=False)
        for pos in (h, _swapped(rng, h, int(a), int(b))):
            if pos is None:
                continue
            codes = []
            for c in _cards(legal500(U(pos[seat]), np.int64(denom), np.int64(-1))):
                codes.extend([c | k << 8 for k in range(4)] if card_suit(c, denom) < 0 else [c])
            codes = np.array(sorted(codes), dtype=np.int64)
            worlds = np.array([[pos[(seat + 1 + k) % 4] for k in range(3)]], dtype=U)
            got = solve_worlds(U(pos[seat]), np.int64(seat), np.int64(denom), np.int64(seat), np.zeros(4, np.int64),
                               np.int64(0), np.int64(-1), worlds, codes, keys, bounds, moves, stats)
            for j, code in enumerate(codes):
                c, named = int(code) & 0xFF, int(code) >> 8
                hh = pos.copy()
                hh[seat] &= ~U(1 << c)
                trick = np.array([c, 0, 0, 0], dtype=np.int64)
                led = card_suit(c, denom)
                t0 = D500.minimax_eff(hh, trick, 1, seat, named if led < 0 else led, denom)
                assert got[0, j] == (t0 if seat % 2 == 0 else ntr - t0), (i, pos, seat, denom, code)
                checked += 1
    assert checked > 1500


def test_501_kept_table_answers_a_one_card_swap_afresh():
    """As for Five Hundred, with 501's kernel (``solve_cards``, card points and marriages)."""
    rng = np.random.default_rng(471)
    deck = full_deck(RANKS_501)
    keys, bounds = D501.new_table(8)
    moves, stats = np.zeros(D501.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)
    checked = 0
    for i in range(300):
        ntr = int(rng.integers(2, 5))
        cards = rng.permutation(deck)[:3 * ntr]
        h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(3)], dtype=U)
        decl, trump = int(rng.integers(0, 3)), int(rng.integers(0, 5))
        a, b = rng.choice(3, 2, replace=False)
        for pos in (h, _swapped(rng, h, int(a), int(b))):
            if pos is None:
                continue
            legal = np.array(_cards(legal501(pos[0], -1, trump)), dtype=np.int64)
            out = np.zeros((1, len(legal)), dtype=np.int64)
            D501.solve_cards(pos[None, :], np.int64(0), legal, np.int64(0), np.int64(decl), np.int64(trump),
                             np.int64(0), np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64), keys, bounds,
                             moves, stats, out)
            for j, c in enumerate(legal):
                g, pe = 0, 0
                if decl == 0 and can_declare(pos[0], c):
                    g, pe = D501.declare(g, pe, 0, int(c) >> 4, trump)
                hh = pos.copy()
                hh[0] &= ~U(1 << int(c))
                t3 = np.array([int(c), 0, 0], dtype=np.int64)
                ref = g + D501.minimax(hh, 1, 0, decl, trump, int(c), U(1 << int(c)), t3, 0, pe)
                assert out[0, j] == ref, (i, pos, decl, trump, int(c))
                checked += 1
    assert checked > 1000


# ---------------------------------------------------------------- null windows: the best cards only
def _argmax_set(values):
    return (values >= values.max(axis=1, keepdims=True)).astype(np.float64)


def test_501_best_only_equals_the_full_solves_argmax():
    """``best_cards`` (null windows) against ``solve_cards``' argmax (the most points for the
    declarer, the fewest for a defender), 0 to 2 cards on the trick, marriages pending or not, on
    4,000 worlds of random deals (5 to 8 cards a hand)."""
    rng = np.random.default_rng(4701)
    deck = full_deck(RANKS_501)
    keys, bounds = D501.new_table(14)
    moves, stats = np.zeros(D501.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)
    differ = checked = 0
    for i in range(200):
        ntr = int(rng.integers(5, 9))
        cards = rng.permutation(deck)[:3 * ntr]
        h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(3)], dtype=U)
        leader, decl, trump = (int(x) for x in rng.integers(0, [3, 3, 5]))
        won = int(rng.integers(0, 2))
        tr = []
        for j in range(i % 3):
            p = (leader + j) % 3
            tr.append(int(rng.choice(_cards(legal501(h[p], -1 if j == 0 else tr[0] >> 4, trump)))))
            h[p] &= ~U(1 << tr[-1])
        me = (leader + len(tr)) % 3
        legal = np.array(_cards(legal501(h[me], -1 if not tr else tr[0] >> 4, trump)), dtype=np.int64)
        others = [p for p in range(3) if p != me]
        rest = [c for p in others for c in _cards(h[p])]
        sizes = [int(h[p]).bit_count() for p in others]
        worlds = np.repeat(h[None, :], 20, axis=0)
        for w in range(1, 20):
            perm = rng.permutation(rest)
            worlds[w, others[0]] = sum(1 << int(c) for c in perm[:sizes[0]])
            worlds[w, others[1]] = sum(1 << int(c) for c in perm[sizes[0]:])
        pending = np.full(20, 0 if won else int(rng.choice([0, 20, 40])), dtype=np.int64)
        full = np.zeros((20, len(legal)), dtype=np.int64)
        best = np.zeros((20, len(legal)), dtype=np.int64)
        args = (worlds, np.int64(me), legal, np.int64(leader), np.int64(decl), np.int64(trump), np.int64(won), pending,
                np.array(tr, dtype=np.int64), keys, bounds, moves, stats)
        D501.solve_cards(*args, full)
        D501.best_cards(*args, best)
        seat_values = full if me == decl else -full
        assert (best == _argmax_set(seat_values)).all(), (i, h, me, decl, trump, tr)
        checked += 20
        differ += int((full.max(axis=1) != full.min(axis=1)).sum())
    assert checked == 4000 and differ > 1000


def test_501_common_best_equals_the_intersection_of_the_argmax_sets():
    """``common_best`` (the cards best in every world, null windows, stopping at the first world
    that leaves none) against the intersection of ``solve_cards``' argmax sets over the same worlds,
    0 to 2 cards on the trick, marriages pending or not: 1 to 8 worlds of 300 random positions
    (5 to 8 cards a hand), on one kept table."""
    rng = np.random.default_rng(4703)
    deck = full_deck(RANKS_501)
    keys, bounds = D501.new_table(14)
    moves, stats = np.zeros(D501.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)
    outcomes = {True: 0, False: 0}
    several = 0
    for i in range(300):
        ntr = int(rng.integers(5, 9))
        cards = rng.permutation(deck)[:3 * ntr]
        h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(3)], dtype=U)
        leader, decl, trump = (int(x) for x in rng.integers(0, [3, 3, 5]))
        won = int(rng.integers(0, 2))
        tr = []
        for j in range(i % 3):
            p = (leader + j) % 3
            tr.append(int(rng.choice(_cards(legal501(h[p], -1 if j == 0 else tr[0] >> 4, trump)))))
            h[p] &= ~U(1 << tr[-1])
        me = (leader + len(tr)) % 3
        legal = np.array(_cards(legal501(h[me], -1 if not tr else tr[0] >> 4, trump)), dtype=np.int64)
        others = [p for p in range(3) if p != me]
        rest = [c for p in others for c in _cards(h[p])]
        sizes = [int(h[p]).bit_count() for p in others]
        n_worlds = 1 + i % 8
        worlds = np.repeat(h[None, :], n_worlds, axis=0)
        for w in range(1, n_worlds):
            perm = rng.permutation(rest)
            worlds[w, others[0]] = sum(1 << int(c) for c in perm[:sizes[0]])
            worlds[w, others[1]] = sum(1 << int(c) for c in perm[sizes[0]:])
        pending = np.full(n_worlds, 0 if won else int(rng.choice([0, 20, 40])), dtype=np.int64)
        full = np.zeros((n_worlds, len(legal)), dtype=np.int64)
        common = np.full(len(legal), 7, dtype=np.int64)
        args = (worlds, np.int64(me), legal, np.int64(leader), np.int64(decl), np.int64(trump), np.int64(won), pending,
                np.array(tr, dtype=np.int64), keys, bounds, moves, stats)
        count = D501.common_best(*args, common)
        D501.solve_cards(*args, full)
        want = _argmax_set(full if me == decl else -full).all(axis=0)
        assert common.tolist() == want.astype(np.int64).tolist(), (i, h, me, decl, trump, tr)
        assert count == want.sum()
        outcomes[bool(want.any())] += 1
        several += int(want.sum() > 1)
    assert min(outcomes.values()) >= 50 and several >= 10, (outcomes, several)


def _random_500_decision(rng, n_on_trick, n_worlds):
    """A random Five Hundred decision: ``(hand, seat, denom, leader, trick int64[4], n, led, worlds
    uint64[W, 3], codes int64[L])``, 3 to 8 cards a hand, ``n_on_trick`` cards already played to
    the trick by legal plays (a no-trump joker led names a random suit), world 0 the dealt layout
    and the others the same hidden cards shuffled among the three other seats (the same counts)."""
    denom = int(rng.integers(0, 5))
    ntr = int(rng.integers(3, 9))
    cards = rng.permutation(_cards(FULL_EFF[denom]))[:4 * ntr]
    h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(4)], dtype=U)
    leader = int(rng.integers(0, 4))
    trick = np.zeros(4, dtype=np.int64)
    led = -1
    for k in range(n_on_trick):
        p = (leader + k) % 4
        c = int(rng.choice(_cards(legal500(h[p], np.int64(denom), np.int64(led)))))
        if k == 0:
            led = card_suit(c, denom)
            led = int(rng.integers(0, 4)) if led < 0 else led
        trick[k] = c
        h[p] &= ~U(1 << c)
    seat = (leader + n_on_trick) % 4
    codes = []
    for c in _cards(legal500(h[seat], np.int64(denom), np.int64(led if n_on_trick else -1))):
        codes.extend([c | k << 8 for k in range(4)] if n_on_trick == 0 and card_suit(c, denom) < 0 else [c])
    others = [(seat + 1 + k) % 4 for k in range(3)]
    rest = [c for p in others for c in _cards(h[p])]
    sizes = [int(h[p]).bit_count() for p in others]
    worlds = np.zeros((n_worlds, 3), dtype=U)
    for w in range(n_worlds):
        perm = rest if w == 0 else rng.permutation(rest)
        at = 0
        for k in range(3):
            worlds[w, k] = sum(1 << int(c) for c in perm[at:at + sizes[k]])
            at += sizes[k]
    return (U(h[seat]), np.int64(seat), np.int64(denom), np.int64(leader), trick, np.int64(n_on_trick),
            np.int64(led), worlds, np.array(sorted(codes), dtype=np.int64))


def test_500_common_best_equals_the_intersection_of_the_argmax_sets():
    """Five Hundred's first look (``common_best``: the moves best in every world, null windows,
    stopping at the first world that leaves none) against the intersection of the argmax sets of
    ``solve_worlds``' exact values (themselves checked against plain minimax above) over the same
    worlds: 0 to 3 cards on the trick, trump and no-trump contracts (bowers, jokers, joker leads
    naming a suit), 2 to 8 worlds of 1,200 random decisions (3 to 8 cards a hand); the look on one
    small kept table, the reference on a fresh one each time."""
    rng = np.random.default_rng(4705)
    keys, bounds = D500.new_table(12)
    moves, stats = np.zeros((42, D500.MAX_MOVES), dtype=np.int64), np.zeros(1, dtype=np.int64)
    outcomes = {True: 0, False: 0}
    several = 0
    for i in range(1200):
        args = _random_500_decision(rng, i % 4, 2 + i % 7)
        codes = args[-1]
        if len(codes) < 2:
            continue
        full = solve_worlds(*args, *D500.new_table(12), np.zeros((42, D500.MAX_MOVES), dtype=np.int64),
                            np.zeros(1, dtype=np.int64))
        want = _argmax_set(full).all(axis=0)
        got = np.full(len(codes), 7, dtype=np.int64)
        count = common500(*args, keys, bounds, moves, stats, got)
        assert got.tolist() == want.astype(np.int64).tolist(), (i, args)
        assert count == want.sum()
        outcomes[bool(want.any())] += 1
        several += int(want.sum() > 1)
    assert min(outcomes.values()) >= 100 and several >= 100, (outcomes, several)


@pytest.mark.parametrize("game, decisions", [("501", 60), ("500", 60)])
def test_the_common_hook_on_recorded_real_decisions(game, decisions):
    """The games' ``common`` hooks (501: ``cardsim.games.g501.solver.common_best``, Five Hundred:
    ``cardsim.games.g500.pimc_solve.common_best``) on decisions recorded
    from real ``pimc`` deals, each on its first 1, 4 and 8 worlds: the cards in the argmax set of
    every world of the exact solve."""
    from cardsim.bench import pimc_hooks
    from cardsim.games import get_game

    hooks = get_game(game).pimc
    seen = {True: 0, False: 0}
    for position, worlds in pimc_hooks.record(game, decisions, 8, 12):
        full = hooks.solve(position, worlds)
        for upto in (1, 4, 8):
            want = _argmax_set(full[:upto]).all(axis=0)
            assert (hooks.common(position, worlds[:upto]) == want).all()
            seen[bool(want.any())] += 1
    assert min(seen.values()) >= 20, seen


def test_vint_best_only_marks_the_argmax():
    """DDS asked only for the best cards (``best_only``) marks the same cards as the exact values'
    argmax, 0..3 cards on the trick."""
    rng = np.random.default_rng(4702)
    for hands, trump, leader, trick in _vint_positions(rng, 30):
        full = solve_positions(hands[None, :], trump, leader, trick)[0]
        best = solve_positions(hands[None, :], trump, leader, trick, best_only=True)[0]
        assert ((best >= 0) == (full == full.max())).all(), (hands, trump, leader, trick)
        assert (best[best >= 0] == full.max()).all()


def test_the_solve_hooks_best_only_on_recorded_real_decisions(tmp_path):
    """501's ``solve`` hook with ``best_only`` against its own exact values' argmax, on decisions
    recorded from real ``pimc`` deals (the old call, without the keyword, unchanged).  Five
    Hundred has no ``best_only``: its search is not exact on every position (the test below)."""
    from cardsim.bench import pimc_hooks
    from cardsim.games import get_game

    for game, decisions in (("501", 60),):
        solve = get_game(game).pimc.solve
        rows = 0
        for position, worlds in pimc_hooks.record(game, decisions, 8, 11):
            full = solve(position, worlds)
            assert (solve(position, worlds, best_only=True) == _argmax_set(full)).all()
            rows += len(worlds)
        assert rows >= 8 * decisions - 8


def _as_bridge(hands):
    """Five Hundred effective hands of a trump contract without jokers as Vint (bridge) hands:
    each lane's cards renumbered by their order from the top (ace down), the trump lane as
    hearts, so that DDS solves the same play."""
    everyone = 0
    for x in hands:
        everyone |= int(x)
    new = {}
    for lane in range(4):
        ranks = [r for r in range(16) if everyone >> (16 * lane + r) & 1]
        for i, r in enumerate(ranks):
            new[16 * lane + r] = 16 * lane + 13 - len(ranks) + i
    return np.array([[sum(1 << new[c] for c in _cards(x)) for x in hands]], dtype=U)


def _lanes(*rows):
    """Five Hundred effective hands from each seat's ranks by lane."""
    return np.array([sum(1 << (16 * lane + r) for lane, ranks in enumerate(x) for r in ranks) for x in rows], dtype=U)


# Two six-card trick starts, hearts trumps (effective lane 3, no jokers out), seat 3 on lead, that
# differ only in seat 3's lowest trump: the 10 of the lane (TEN) or its 6 (SIX).
_TEN = _lanes(([1, 4, 7, 9], [], [9], [8]), ([2, 3], [3, 5], [5], [9]), ([], [2, 6, 7, 8, 9], [2], []),
              ([6, 8, 10], [], [], [10, 12, 13]))
_SIX = _TEN.copy()
_SIX[3] = _lanes(([6, 8, 10], [], [], [6, 12, 13]))[0]


def _solve500(hands, table):
    return D500.solve_eff(hands.copy(), 3, 3, *table, np.zeros((42, D500.MAX_MOVES), dtype=np.int64),
                          np.zeros(1, dtype=np.int64))


def test_500_one_card_pair_alone_agrees_with_dds():
    """Each of the pair alone (a fresh table): seats 0 and 2 take 2 tricks against the 10, 1
    against the 6 (DDS's values: the play is bridge's here, follow the lane, the trump lane wins)."""
    for hands, want in ((_TEN, 2), (_SIX, 1)):
        v = solve_positions(_as_bridge(hands), 3, 3)[0].max()  # seat 3's side, seat 3 to lead
        assert 6 - v == want
        assert _solve500(hands, D500.new_table(12)) == want


def test_500_kept_table_does_not_answer_a_one_card_change_with_a_stale_entry():
    """The collision the kept table must not have, found on a real pimc decision: solving TEN
    first, then SIX on the same table gives TEN's 2 where SIX's value is 1 (DDS; plain minimax,
    ``minimax_eff``, also gives 1, in 8 minutes: too slow to run here)."""
    table = D500.new_table(12)
    assert _solve500(_TEN, table) == 2
    assert _solve500(_SIX, table) == 1


def test_500_one_search_from_a_fresh_table_agrees_with_dds():
    """The trick start one trick before the pair (seven cards, seat 2 on lead): its subtrees
    include TEN and SIX, so one search on a fresh table (what ``cardsim dd`` does) meets the
    collision; DDS, and the search of each child trick start alone, give seats 0 and 2 one trick."""
    hands = _lanes(([1, 4, 7, 9], [4], [9], [8]), ([2, 3], [1, 3, 5], [5], [9]), ([], [0, 2, 6, 7, 8, 9], [2], []),
                   ([6, 8, 10], [], [], [6, 10, 12, 13]))
    assert solve_positions(_as_bridge(hands), 3, 2)[0].max() == 1  # seat 2's side, seat 2 to lead
    got = D500.solve_eff(hands, 2, 3, *D500.new_table(12), np.zeros((42, D500.MAX_MOVES), dtype=np.int64),
                         np.zeros(1, dtype=np.int64))
    assert got == 1


def _random_bridge_positions(rng, count):
    """``count`` trick starts with 5..8 cards a hand in the effective layout of ``denom`` (trump
    lane ``denom`` with both bowers, or no-trump) and no joker out, so that Five Hundred's play is
    bridge's: ``(hands uint64[4], denom, leader)``."""
    for _ in range(count):
        denom = int(rng.integers(0, 5))
        deck = np.array([16 * lane + r for lane in range(4) for r in range(13 if lane == denom else 11)])
        n = int(rng.integers(5, 9))
        cards = rng.permutation(deck)[:4 * n]
        hands = np.array([sum(1 << int(c) for c in cards[n * s:n * (s + 1)]) for s in range(4)], dtype=U)
        yield hands, denom, int(rng.integers(0, 4))


def _dds_team0(hands, denom, leader):
    """Team 0's tricks by DDS (lanes as Vint's suits, the same denomination index)."""
    leader_side = int(solve_positions(_as_bridge(hands), denom, leader)[0].max())
    return leader_side if leader % 2 == 0 else int(hands[0]).bit_count() - leader_side


def _swap_one(rng, hands):
    """``hands`` with one card of one hand exchanged for one card of another."""
    a, b = rng.choice(4, size=2, replace=False)
    ca = int(rng.choice(_cards(hands[a])))
    cb = int(rng.choice(_cards(hands[b])))
    out = hands.copy()
    out[a] = U(int(hands[a]) & ~(1 << ca) | 1 << cb)
    out[b] = U(int(hands[b]) & ~(1 << cb) | 1 << ca)
    return out


def _g500_team0(hands, denom, leader, table):
    return int(D500.solve_eff(hands.copy(), leader, denom, *table, np.zeros((42, D500.MAX_MOVES), dtype=np.int64),
                              np.zeros(1, dtype=np.int64)))


def test_500_random_positions_agree_with_dds_on_fresh_and_kept_tables():
    """300 random trick starts of 5..8 cards a hand without jokers (trump lanes and no-trump)
    each followed by the same position with one card exchanged between two hands: the search
    gives DDS's tricks on a fresh table and on one small table kept over all 600 in sequence
    (a stored entry must hold for every position of its class, docs/RULES.md §3.5).  The search
    before the fix was wrong on about one position in 1,500 (none of these 600): the ones found
    are pinned below."""
    rng = np.random.default_rng(4747)
    kept = D500.new_table(10)  # small: many classes share a bucket
    differ = 0
    for hands, denom, leader in _random_bridge_positions(rng, 300):
        pair = (hands, _swap_one(rng, hands))
        want = [_dds_team0(x, denom, leader) for x in pair]
        differ += want[0] != want[1]
        for x, v in zip(pair, want):
            assert _g500_team0(x, denom, leader, D500.new_table(10)) == v, (x, denom, leader)
            assert _g500_team0(x, denom, leader, kept) == v, (x, denom, leader, "kept table")
    assert differ > 30  # the swaps change the value often enough to be a test of the table


# Trick starts where the search before the fix (50ef676) was wrong on a fresh table, found among
# 12,000 random positions like the test's above (about one in 1,500): ``(hands, denom, leader, team 0's
# tricks by DDS)``.  In each, merged equivalent cards hid a move of a position of the same class.
_WRONG_BEFORE = (
    ((36310272006227072, 76574525244309568, 297237575424409858, 19140916891615276), 2, 1, 2),
    ((47287796091585032, 3856880631844, 5633901875691650, 292128030721), 2, 0, 2),
    ((47287796091585032, 3856880631844, 1130302248321155, 4503891755401216), 2, 0, 1),
    ((112592194069595152, 281500752806274, 19140435897352228, 2252349587915272), 4, 1, 7),
    ((112592194069595152, 281500753854848, 19140435897352228, 2252349586866698), 4, 1, 7),
    ((151433554675367940, 297242557569040520, 54044432512651296, 72059793066558209), 0, 2, 2),
    ((1157427311847539716, 20267302129762402, 36591746991783960, 648799872857932288), 3, 1, 4),
    ((72622897635525128, 145241465944080400, 22518006727574564, 288230926311358529), 1, 2, 2),
)


@pytest.mark.parametrize("hands, denom, leader, want", _WRONG_BEFORE)
def test_500_positions_the_search_got_wrong_agree_with_dds(hands, denom, leader, want):
    """The search gives DDS's tricks on each position it once got wrong (every one of them
    wrong on a fresh table while the search merged equivalent cards)."""
    hands = np.array(hands, dtype=U)
    assert _dds_team0(hands, denom, leader) == want
    assert _g500_team0(hands, denom, leader, D500.new_table(12)) == want


def test_500_last_tricks_played_out_equal_minimax():
    """The search plays the last trick out directly (no moves, no table): trick starts of one and
    two cards a hand, every contract (bowers, jokers, a no-trump joker led), every leader, on one
    kept table, against plain minimax."""
    rng = np.random.default_rng(4706)
    table = D500.new_table(8)
    jokers_led = 0
    for i in range(1500):
        denom, ntr, leader = int(rng.integers(0, 5)), 1 + i % 2, int(rng.integers(0, 4))
        cards = rng.permutation(_cards(FULL_EFF[denom]))[:4 * ntr]
        h = np.array([sum(1 << int(c) for c in cards[s * ntr:(s + 1) * ntr]) for s in range(4)], dtype=U)
        want = D500.minimax_eff(h.copy(), np.zeros(4, dtype=np.int64), 0, leader, -1, denom)
        assert _g500_team0(h, denom, leader, table) == want, (h, denom, leader)
        jokers_led += int(any(card_suit(c, denom) < 0 for c in _cards(h[leader])))
    assert jokers_led >= 20, jokers_led


def test_501_pimc_table_size_does_not_change_the_values():
    """The ``pimc`` player's smaller table (``PIMC_TT_BITS``, chosen for speed) answers exactly what
    the full-size one does, on decisions recorded from real deals, each table kept across them."""
    from cardsim.bench import pimc_hooks
    from cardsim.games.g501 import pimc as GP

    assert D501.PIMC_TT_BITS == 14 and GP.solver_scratch()[0].shape[0] == 1 << D501.PIMC_TT_BITS
    tables = {bits: D501.new_table(bits) for bits in (D501.PIMC_TT_BITS, D501.TT_BITS)}
    moves, stats = np.zeros(D501.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)
    n = 0
    for position, worlds in pimc_hooks.record("501", 60, 8, 13):
        got = {}
        for bits, (keys, bounds) in tables.items():
            args = list(GP.kernel_args(position, worlds))
            args[9:13] = keys, bounds, moves, stats
            out = np.zeros((len(worlds), len(position.legal)), dtype=np.int64)
            D501.solve_cards(*args, out)
            got[bits] = out
        assert (got[D501.PIMC_TT_BITS] == got[D501.TT_BITS]).all()
        n += out.size
    assert n >= 60 * 8 * 2
