"""The conditions' 0/1 program: whether some hand meets a class (and none of other classes).

"Some hand of ``size`` cards, holding ``forced`` and the rest from ``available``, has every
feature in its range" is a small 0/1 integer program over which cards the hand holds, decided
by HiGHS (``scipy.optimize.milp``).  Every feature but 501's marriages (pairs of cards) is a
linear function of 0/1 variables there (:func:`modelled`):

* a sum of card weights (hcp, lengths, aces, controls …) of the card variables;
* a suit kind of :mod:`cardsim.holding` (stoppers, quick tricks, losers) of one 0/1 variable per
  type of holding of that suit (:func:`suit_types`: its length up to 4-or-more and which of
  A K Q J it holds), exactly one chosen and tied to the suit's cards;
* a shape kind (balanced, semi-balanced, longest, shortest, shape) of one 0/1 variable per
  vector of the four suit lengths (:func:`length_vectors`), exactly one chosen and tied to the
  suits' card counts.

A kind's value on a type or vector is computed by the dealer's own jitted code
(:func:`cardsim.holding.term_value`) on a holding of it, so the program is exact.

:func:`feasible` answers for one class (the compiler refuses impossible classes with it);
:func:`reachable` for a class after others (a rule that follows other rules fires only on hands
in its class and in none of theirs): "none of theirs" is a disjunction per earlier class (some
clause of it fails), each disjunct switched by a 0/1 variable.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np

from cardsim.cards import cards_of
from cardsim.conditions.classes import HandClass, parse_class
from cardsim.conditions.grammar import features_of, game_name, layout_of
from cardsim.deal import ConditionError, FeatureSet
from cardsim.holding import KIND_FIRST, SUIT_KINDS, term_value


def modelled(fs: FeatureSet, name: str) -> bool:
    """Whether the program models the feature ``name`` exactly: a sum of card weights or of the
    kinds of :mod:`cardsim.holding` (all but 501's marriages, pairs of cards)."""
    return all(int(s) == 0 or int(s) >= KIND_FIRST for _, s, _ in fs.features[name])


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


@functools.lru_cache(maxsize=64)
def suit_types(mask: int) -> tuple:
    """The holdings of one suit (``mask``: its cards, the ace highest) as far as the suit kinds
    can tell them apart: ``(fewest cards, most cards, honours held, a holding of that type)``
    for 0, 1, 2, 3 and 4-or-more cards and every set of A K Q J that fits.  Exact because no suit
    kind of :mod:`cardsim.holding` reads more (a test checks every Vint holding against its type)."""
    cards = _bits(mask)
    honours, low = cards[::-1][:4], cards[:-4]
    out = []
    for n in range(5):
        for k in range(min(n, 4) + 1):
            for held in itertools.combinations(honours, k):
                spots = n - k
                if spots > len(low):
                    continue
                holding = sum(1 << c for c in held) | sum(1 << c for c in low[:spots])
                out.append((n, n if n < 4 else len(cards), sum(1 << c for c in held), holding))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def length_vectors(mask: int, fewest: int, most: int) -> tuple:
    """The suit lengths ``(l0, l1, l2, l3)`` of ``mask``'s four 16-bit lanes that add up to
    ``fewest .. most`` cards, each with a holding of those lengths."""
    lanes = [_bits(mask >> (16 * s) & 0xFFFF) for s in range(4)]
    out = []
    for lengths in itertools.product(*(range(len(lane) + 1) for lane in lanes)):
        if fewest <= sum(lengths) <= most:
            holding = sum(1 << (16 * s + c) for s in range(4) for c in lanes[s][:lengths[s]])
            out.append((lengths, holding))
    return tuple(out)


class _Program:
    """The 0/1 program of one hand: card variables first, auxiliary ones added on demand; rows are
    ``({column: coefficient}, lo, hi)``."""

    def __init__(self, fs: FeatureSet, forced: int, available: list[int], size: int):
        self.fs, self.size, self.forced = fs, size, forced
        self.cards = cards_of(forced) + list(available)
        self.col = {c: i for i, c in enumerate(self.cards)}
        self.width = len(self.cards)
        self.rows: list[tuple[dict, float, float]] = [({i: 1.0 for i in range(self.width)}, size, size)]
        self._choices: dict = {}

    def column(self) -> int:
        self.width += 1
        return self.width - 1

    def cards_in(self, mask: int) -> dict:
        return {self.col[c]: 1.0 for c in self.cards if mask >> c & 1}

    def _choose(self, key, options, ties) -> list[int]:
        """Columns of a one-of-``options`` choice, made once per ``key``; ``ties(columns)`` adds its rows."""
        if key not in self._choices:
            columns = [self.column() for _ in options]
            self.rows.append(({j: 1.0 for j in columns}, 1, 1))
            ties(columns)
            self._choices[key] = columns
        return self._choices[key]

    def _suit(self, mask: int) -> tuple[tuple, list[int]]:
        types = suit_types(mask)

        def ties(columns):
            for honour in _bits(mask)[::-1][:4]:
                row = {self.col[honour]: 1.0} if honour in self.col else {}
                row.update({j: -1.0 for j, t in zip(columns, types) if t[2] >> honour & 1})
                self.rows.append((row, 0, 0))
            length = self.cards_in(mask)
            self.rows.append(({**length, **{j: -float(t[0]) for j, t in zip(columns, types)}}, 0, np.inf))
            self.rows.append(({**length, **{j: -float(t[1]) for j, t in zip(columns, types)}}, -np.inf, 0))
        return types, self._choose(("suit", mask), types, ties)

    def _shape(self, mask: int) -> tuple[tuple, list[int]]:
        outside = sum(1 for c in self.cards if not mask >> c & 1)
        vectors = length_vectors(mask, max(self.size - outside, 0), self.size)

        def ties(columns):
            for s in range(4):
                row = self.cards_in(mask & (0xFFFF << (16 * s)))
                row.update({j: -float(v[0][s]) for j, v in zip(columns, vectors)})
                self.rows.append((row, 0, 0))
        return vectors, self._choose(("shape", mask), vectors, ties)

    def feature(self, name: str) -> dict:
        """The feature's value as ``{column: coefficient}`` (it must be :func:`modelled`)."""
        row: dict = {}
        for m, s, w in self.fs.features[name]:
            m, s = int(m), int(s)
            if s == 0:
                for j in self.cards_in(m):
                    row[j] = row.get(j, 0.0) + w
                continue
            options, columns = self._suit(m) if s in SUIT_KINDS else self._shape(m)
            for j, option in zip(columns, options):
                value = int(term_value(np.uint64(option[-1]), np.uint64(m), np.uint64(s), np.int64(w)))
                row[j] = row.get(j, 0.0) + value
        return row

    def add_ranges(self, ranges: dict) -> None:
        for name, (a, b) in ranges.items():
            self.rows.append((self.feature(name), -np.inf if a is None else a, np.inf if b is None else b))

    def exclude(self, ranges: dict, required: list[int], excluded: list[int]) -> None:
        """The hand is not in the class (``ranges``, ``required`` and ``excluded`` cards): one of
        its clauses fails, each failure a disjunct switched on by a 0/1 variable (big-M rows)."""
        switches = []
        for name, (a, b) in ranges.items():
            row = self.feature(name)
            least, most = sum(min(v, 0.0) for v in row.values()), sum(max(v, 0.0) for v in row.values())
            if a is not None and least <= a - 1:  # value <= a - 1 when switched on
                u = self.column()
                big = most - (a - 1)
                self.rows.append(({**row, u: big}, -np.inf, a - 1 + big))
                switches.append(u)
            if b is not None and most >= b + 1:  # value >= b + 1 when switched on
                u = self.column()
                big = (b + 1) - least
                self.rows.append(({**row, u: -big}, b + 1 - big, np.inf))
                switches.append(u)
        for c in required:  # the card is missing
            if c not in self.col:
                return  # no hand here holds it: no hand is in the class
            if not self.forced >> c & 1:
                u = self.column()
                self.rows.append(({self.col[c]: 1.0, u: 1.0}, -np.inf, 1))
                switches.append(u)
        for c in excluded:  # the card is held
            if c in self.col:
                u = self.column()
                self.rows.append(({self.col[c]: 1.0, u: -1.0}, 0, np.inf))
                switches.append(u)
        self.rows.append(({u: 1.0 for u in switches}, 1, np.inf))

    def solve(self) -> bool:
        """False only when HiGHS proves that no hand meets the rows."""
        # scipy.optimize takes about a second to import: only a class to check pays for it.
        from scipy.optimize import Bounds, LinearConstraint, milp  # local: scipy is slow to import; only this function needs it

        matrix = np.zeros((len(self.rows), self.width))
        for r, (row, _, _) in enumerate(self.rows):
            for j, v in row.items():
                matrix[r, j] = v
        fixed = np.zeros(self.width)
        fixed[:len(self.cards)] = [self.forced >> c & 1 for c in self.cards]
        res = milp(np.zeros(self.width), integrality=np.ones(self.width), bounds=Bounds(fixed, 1.0),
                   constraints=LinearConstraint(matrix, [r[1] for r in self.rows], [r[2] for r in self.rows]),
                   options={"time_limit": 5.0})
        return res.status != 2  # 2: infeasible; a time-out proves nothing


def feasible(fs: FeatureSet, ranges: dict, forced: int, available: list[int], size: int) -> bool:
    """Whether some hand of ``size`` cards, ``forced`` (a bit set) and the rest from ``available``
    (card indices), has every feature of ``ranges`` (``{name: (lo | None, hi | None)}``, each
    :func:`modelled`) in its range; False only when HiGHS proves there is none."""
    program = _Program(fs, forced, available, size)
    program.add_ranges(ranges)
    return program.solve()


def reachable(game, cls, earlier=(), size: int | None = None) -> bool | None:
    """Whether some hand of ``game`` meets the class ``cls`` and none of the classes ``earlier``:
    False means that a rule whose hands are ``cls``, tried after rules whose hands are
    ``earlier``, can never fire (it is impossible, or shadowed by them); None when the program
    cannot decide (a class uses a feature it does not model, 501's ``marriages``, or HiGHS ran
    out of its 5 seconds, which counts as possible inside).

    ``cls`` and each of ``earlier`` (a list, or one class): a class string (docs/conditions.md,
    one seat's clauses) or a :class:`cardsim.conditions.HandClass`; ``size``: the hand's cards (default: a seat's hand in
    the game's first table size: Vint 13, Five Hundred 10, 501 7).  Raises
    :class:`ConditionError` for a bad class."""
    game = game_name(game)
    fs = features_of(game)
    size = int(layout_of(game).sizes[:, 0].max()) if size is None else size

    def resolved(c):
        c = parse_class(game, c) if isinstance(c, str) else c
        if not isinstance(c, HandClass):
            raise ConditionError(f"a class is a string or a HandClass, got {type(c).__name__}")
        return c.resolved(game)

    ranges, required, excluded = resolved(cls)
    others = [resolved(c) for c in ([earlier] if isinstance(earlier, (str, HandClass)) else earlier)]
    if not all(modelled(fs, name) for r, _, _ in [(ranges, 0, 0), *others] for name in r):
        return None
    if set(required) & set(excluded):
        return False
    forced = sum(1 << c for c in required)
    available = [int(c) for c in fs.base_deck if not ((forced | sum(1 << c for c in excluded)) >> int(c) & 1)]
    if len(required) > size or len(required) + len(available) < size:
        return False
    program = _Program(fs, forced, available, size)
    program.add_ranges(ranges)
    for other in others:
        program.exclude(*other)
    return program.solve()
