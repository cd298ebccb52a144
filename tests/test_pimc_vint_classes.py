"""Vint's classes of equivalent cards for ``pimc`` (cardsim/games/vint/pimc.py ``classes``):
every card of a class has the same double-dummy value in every world, checked by DDS on random
positions (each a world: all four hands known), and the classes the rules give on set hands."""
import numpy as np

from cardsim.games.vint.solver import solve_positions
from cardsim.games.vint import pimc as VP
from cardsim.games.vint.rules import legal_plays
from cardsim.strategies import pimc as G

U = np.uint64
DECK = [16 * s + r for s in range(4) for r in range(13)]


def _position(hands, seat, trump, leader, trick):
    """The :class:`Position` of ``seat`` (to move) with the other hands unseen (a world of it)."""
    led = trick[0] >> 4 if trick else -1
    bits = int(legal_plays(U(hands[seat]), np.int64(led)))
    legal = np.array([c for c in range(64) if bits >> c & 1], dtype=np.int64)
    unseen = 0
    for s in range(4):
        if s != seat:
            unseen |= int(hands[s])
    holders = [(seat + i) % 4 for i in (1, 2, 3)]
    return G.Position(legal=legal, unseen=unseen, counts=np.zeros(3, dtype=np.int64),
                      allowed=np.zeros(3, dtype=U), lead=not trick, declaring=True, fallback=int(legal[0]),
                      context=(int(hands[seat]), seat, trump, leader, list(trick), holders))


def _plain(position):
    """The touching classes alone (no trick cards out of play, no suits held by the seat alone)."""
    hand, _seat, _trump, _leader, trick, _holders = position.context
    on_table = sum(1 << c for c in trick)
    dead = (VP.DECK & ~position.unseen & ~hand & ~on_table) | (~VP.DECK & (2**64 - 1))
    return G.touching_classes(position.legal, hand, dead, lambda c: 0x1FFF << (16 * (c >> 4)))


def _random_position(rng):
    left = int(rng.integers(2, 8))
    cards = rng.permutation(DECK)[:4 * left]
    hands = np.array([sum(1 << int(c) for c in cards[s * left:(s + 1) * left]) for s in range(4)], dtype=U)
    trump, leader = int(rng.integers(0, 5)), int(rng.integers(0, 4))
    trick = []
    for k in range(int(rng.integers(0, 4))):
        s = (leader + k) % 4
        c = int(rng.choice([c for c in range(64) if int(legal_plays(U(hands[s]), np.int64(trick[0] >> 4 if trick
                                                                                         else -1))) >> c & 1]))
        trick.append(c)
        hands[s] &= ~U(1 << c)
    return hands, (leader + len(trick)) % 4, trump, leader, trick


def test_every_card_of_a_class_has_the_same_value_in_random_worlds():
    rng = np.random.default_rng(4747)
    grouped = widened = 0
    for _ in range(1500):
        hands, seat, trump, leader, trick = _random_position(rng)
        position = _position(hands, seat, trump, leader, trick)
        classes = VP.classes(position)
        values = solve_positions(hands[None, :], trump, leader, trick)[0][position.legal]
        assert (values == values[classes]).all(), (hands, seat, trump, leader, trick, classes, values)
        grouped += int((classes != np.arange(len(classes))).sum())
        widened += int(len(np.unique(classes)) < len(np.unique(_plain(position))))
    assert grouped > 500 and widened >= 30, (grouped, widened)  # 703 and 40 at this seed


def test_classes_on_set_hands():
    S, C, D, H = 0, 16, 32, 48  # lanes; rank 0 = the 2 ... 12 = the ace
    # Seat 3 follows to a spade: he holds the 5 and 7; the 6 was played by seat 1 and the king
    # (seat 2) wins so far: both cards lose the trick and the 6 is out of play after it.
    hands = np.array([1 << (C + 1), 1 << (C + 2), 1 << (D + 5), (1 << (S + 3)) | (1 << (S + 5))], dtype=U)
    trick = [S + 0, S + 4, S + 11]  # seat 0 led the 2, seat 1 the 6, seat 2 the king
    position = _position(hands, 3, 4, 0, trick)
    assert VP.classes(position).tolist() == [1, 1]
    assert _plain(position).tolist() == [0, 1]
    # The 6 winning so far (no king): the 7 wins the trick, the 5 does not: apart.
    position = _position(hands, 3, 4, 1, [S + 0, S + 4])
    assert VP.classes(position).tolist() == [0, 1]
    # Seat 0 leads; nobody else has a club or a diamond (hearts trumps): his club, diamond and
    # low club are one class, his hearts (trumps) apart.
    hands = np.array([(1 << (C + 0)) | (1 << (C + 7)) | (1 << (D + 3)) | (1 << (H + 1)),
                      (1 << (S + 1)) | (1 << (S + 2)) | (1 << (H + 5)) | (1 << (S + 9)),
                      (1 << (S + 3)) | (1 << (S + 4)) | (1 << (S + 5)) | (1 << (S + 6)),
                      (1 << (H + 2)) | (1 << (S + 7)) | (1 << (S + 8)) | (1 << (H + 9))], dtype=U)
    position = _position(hands, 0, 3, 0, [])
    assert VP.classes(position).tolist() == [2, 2, 2, 3]
    # In no-trump the same hand: still one class of three (the heart is not alone: others hold hearts).
    assert VP.classes(_position(hands, 0, 4, 0, [])).tolist() == [2, 2, 2, 3]
