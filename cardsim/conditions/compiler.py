"""Conditions and their compilation: :class:`Conditions` (given cards and hand classes for one
deal of a game) checked and turned by :func:`compile` into the arrays the jitted dealer takes
(:class:`Compiled`, its ``plan``; :func:`cardsim.deal.deal_chunk` deals with them).

The module is ``compiler``, not ``compile``: a submodule named like the package's function
would be bound over it on the package.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardsim.cards import cards_of
from cardsim.conditions import program
from cardsim.conditions.classes import HandClass, clause_text, parse_class, value_text
from cardsim.conditions.grammar import features_of, game_name, hand_text, layout_of, parse_given
from cardsim.deal import N_HOLDERS, TALON, ConditionError, DealLayout, FeatureSet
from cardsim.holding import KIND_FIRST, kind_range, term_value
from cardsim.text import quote


@dataclass(frozen=True)
class Conditions:
    """What is known or asked about a deal of ``game``.

    ``seats``: table size (None: the game's default; 501 has 3 or 4); ``dealer``: a seat, or
    None to draw it as the engine does; ``hands``: ``{seat: cards}`` given cards (a hand
    string or card tokens / indices), some or all of a hand; ``talon``: given talon (501) or
    kitty (500) cards; ``classes``: ``{seat: HandClass | class string}``.
    In 4-seat 501 the dealer sits out with no cards, so a seat with given cards or a class is
    never the dealer (drawn dealers that are such a seat are rejected).
    """

    game: str
    seats: int | None = None
    dealer: int | None = None
    hands: dict = field(default_factory=dict)
    talon: Any = None
    classes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Compiled:
    """Conditions ready for the jitted dealer.

    ``dealer``: int, −1 = drawn; ``given``: the given cards per holder (5 Python ints, bit
    sets; holder 4 = talon/kitty); ``plan``: the tuple :func:`cardsim.deal.deal_conditioned`
    takes (shapes and dtypes there); ``text``: the conditions in words, for messages.
    """

    game: str
    seats: int
    dealer: int
    given: tuple
    plan: tuple
    text: str
    layout: DealLayout

    @property
    def n_constraints(self) -> int:
        return int(self.plan[7].shape[0])


def _holder_name(h: int) -> str:
    return "the talon" if h == TALON else f"seat {h}"


def _seat(value, seats: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) < seats:
        raise ConditionError(f"{what}: seat {quote(value)} does not exist at a {seats}-seat table")
    return int(value)


def _given_cards(c: Conditions, fs: FeatureSet, sizes: np.ndarray, seats: int) -> tuple[list[int], dict]:
    """Bit sets of given cards per holder, and the void suits written per holder (``{holder:
    ("D",)}``); checks duplicates and hand sizes."""
    given = [0] * N_HOLDERS
    voids: dict[int, tuple] = {}
    owner: dict[int, int] = {}
    items = [(_seat(s, seats, "given cards"), v) for s, v in dict(c.hands).items()]
    if c.talon is not None:
        if sizes[:, TALON].max() == 0:
            raise ConditionError(f"{fs.game} has no talon")
        items.append((TALON, c.talon))
    for holder, value in items:
        cards, void = parse_given(fs.game, value)
        if void:
            voids[holder] = void
        for card in cards:
            if card in owner:
                raise ConditionError(f"card {fs.card_str(card)} is given twice ({_holder_name(owner[card])} "
                                     f"and {_holder_name(holder)})")
            owner[card] = holder
            given[holder] |= 1 << card
        size = int(sizes[:, holder].max())
        if len(cards) > size:
            raise hand_size_error(fs.game, holder, len(cards), size)
    return given, voids


def hand_size_error(game: str, holder: int, count: int, size: int) -> ConditionError:
    """The error for ``holder`` (a seat or :data:`TALON`) given ``count`` cards where a hand (or
    the talon) of ``game`` holds ``size``: ``seat 0 is given 14 cards; a vint hand holds 13``."""
    return ConditionError(f"{_holder_name(holder)} is given {count} cards; a {game_name(game)} "
                          f"{'hand' if holder < TALON else 'talon'} holds {size}")


def _with_voids(fs: FeatureSet, cls: HandClass, suits, holder: int) -> HandClass:
    """``cls`` with the length of every suit of ``suits`` fixed at 0 (a void written ``D:-``)."""
    ranges = cls.resolved(fs.game)[0]
    features = dict(cls.features)
    for suit in suits:
        lo, _ = ranges.get(suit, (None, None))
        if lo:
            raise ConditionError(f"{_holder_name(holder)}: {suit}:- (no {suit}) contradicts "
                                 f"{clause_text(suit, ranges[suit], fs)}")
        features = {k: v for k, v in features.items() if fs.canonical(str(k)) != suit}
        features[suit] = 0
    return dataclasses.replace(cls, features=features)


def _card_weights(fs: FeatureSet, terms) -> dict[int, int] | None:
    """Per-card weight of an additive feature (every shift 0), or None."""
    if any(shift for _, shift, _ in terms):
        return None
    return {int(c): sum(w for m, _, w in terms if m >> int(c) & 1) for c in fs.base_deck}


def _bounds(terms, weights, forced: int, available: list[int], free_slots: int) -> tuple[int, int]:
    """Least and most value of a feature on a hand holding ``forced`` plus ``free_slots`` cards of
    ``available`` (exact for additive features and for a hand with no free card, loose for the
    others; the 0/1 program of :func:`_check_jointly` decides the rest)."""
    if weights is None:
        if free_slots == 0:
            value = sum(int(term_value(np.uint64(forced), np.uint64(m), np.uint64(s), np.int64(w)))
                        for m, s, w in terms)
            return value, value
        ends = [(w * a, w * b) for m, s, w in terms
                for a, b in [kind_range(int(s), int(m)) if s >= KIND_FIRST else (0, bin(m).count("1"))]]
        return sum(min(e) for e in ends), sum(max(e) for e in ends)
    base = sum(weights[c] for c in cards_of(forced))
    ws = sorted(weights[c] for c in available)
    return base + sum(ws[:free_slots]), base + sum(ws[len(ws) - free_slots:])


class _Plan:
    """Constraint rows and their terms, built up seat by seat."""

    def __init__(self):
        self.rows: list[list[int]] = []
        self.masks: list[int] = []
        self.shifts: list[int] = []
        self.weights: list[int] = []

    def add(self, holder: int, lo: int, hi: int, terms) -> None:
        start = len(self.masks)
        for mask, shift, weight in terms:
            self.masks.append(int(mask))
            self.shifts.append(int(shift))
            self.weights.append(int(weight))
        self.rows.append([holder, lo, hi, start, len(self.masks)])


def _seat_constraints(fs: FeatureSet, seat: int, cls: HandClass, given: list[int], size: int, plan: _Plan,
                      required_by: dict) -> str:
    """Check one holder's class against what is given and what other seats' classes require
    (``required_by``: card -> seat, filled in here); add its binding constraints to ``plan``;
    returns the class text.  ``seat`` is a seat or :data:`TALON` (the talon's only class is
    the voids written in its given cards)."""
    ranges, required, excluded = cls.resolved(fs.game)
    label = _holder_name(seat)
    req, exc = sum(1 << c for c in required), sum(1 << c for c in excluded)
    others = sum(given) & ~given[seat]
    for c in required:
        if exc >> c & 1:
            raise ConditionError(f"{label}: {fs.card_str(c)} is both required and excluded")
        if others >> c & 1:
            raise ConditionError(f"{label}: requires {fs.card_str(c)}, which is given to "
                                 f"{_holder_name(next(h for h in range(N_HOLDERS) if given[h] >> c & 1))}")
        if c in required_by:  # else the dealer would look for it in vain, a million times
            raise ConditionError(f"{label}: requires {fs.card_str(c)}, which seat {required_by[c]} also "
                                 f"requires: no deal has both")
        required_by[c] = seat
    for c in excluded:
        if given[seat] >> c & 1:
            raise ConditionError(f"{label}: excludes {fs.card_str(c)}, which it is given")
    forced = given[seat] | req
    free_slots = size - bin(forced).count("1")
    if free_slots < 0:
        raise ConditionError(f"{label}: its given and required cards number {bin(forced).count('1')}; "
                             f"a {fs.game} hand holds {size}")
    available = [int(c) for c in fs.base_deck if not ((sum(given) | req | exc) >> int(c) & 1)]
    if len(available) < free_slots:
        raise ConditionError(f"{label}: too few cards are left to fill the hand after the exclusions")
    if req & ~given[seat]:
        plan.add(seat, bin(req & ~given[seat]).count("1"), bin(req & ~given[seat]).count("1"),
                 [(req & ~given[seat], 0, 1)])
    if exc & ~others:
        plan.add(seat, 0, 0, [(exc & ~others, 0, 1)])
    length_lo = length_hi = 0
    for name in fs.features:
        terms = fs.features[name]
        least, most = _bounds(terms, _card_weights(fs, terms), forced, available, free_slots)
        lo, hi = ranges.get(name, (None, None))
        lo = least if lo is None else lo
        hi = most if hi is None else hi
        if name in fs.lengths:
            length_lo, length_hi = length_lo + max(lo, least), length_hi + min(hi, most)
        if lo > most or hi < least:
            least_text, most_text = (value_text(fs, name, v) for v in (least, most))
            can = least_text if least == most else f"{least_text}-{most_text}"
            raise ConditionError(f"{label}: {clause_text(name, ranges[name], fs)} is impossible: "
                                 f"its hand can only have {name} {can}")
        if name in ranges and (lo > least or hi < most):
            plan.add(seat, lo, hi, terms)
    # Cards in no suit (500's jokers) fill a hand beyond its suit lengths.
    outside = sum(1 for c in available + cards_of(forced) if not _in_a_suit(fs, c))
    if length_lo > size or length_hi + outside < size:
        raise ConditionError(f"{label}: the suit lengths cannot add up to {size} cards")
    _check_card_counts(fs, label, ranges, forced, free_slots, size)
    _check_jointly(fs, label, ranges, forced, available, size)
    return cls.text(fs.game)


def _count_mask(fs: FeatureSet, name: str) -> int | None:
    """The cards a feature counts (each weighs 1), or None for a feature that is not a count."""
    weights = _card_weights(fs, fs.features[name])
    if weights is None or any(w not in (0, 1) for w in weights.values()):
        return None
    return sum(1 << c for c, w in weights.items() if w)


def _check_card_counts(fs: FeatureSet, label: str, ranges: dict, forced: int, free_slots: int, size: int) -> None:
    """Counts of disjoint sets of cards (aces and tens, spades and hearts) whose minimums need more
    cards than the hand has places left: impossible on its face, not merely rare (else the dealer
    would try a million deals in vain, docs/conditions.md)."""
    needs = []
    for name, (lo, _) in ranges.items():
        mask = _count_mask(fs, name) if lo else None
        if mask is not None:
            needs.append((max(lo - bin(mask & forced).count("1"), 0), mask, name))
    taken, total, names = 0, 0, []
    for need, mask, name in sorted(needs, key=lambda t: -t[0]):
        if need and not mask & taken:
            taken |= mask
            total += need
            names.append(clause_text(name, ranges[name], fs))
    if total > free_slots:
        raise ConditionError(f"{label}: {', '.join(names)} is impossible: it needs {total} cards besides those "
                             f"given and a {fs.game} hand of {size} has {free_slots} places left")


def _check_jointly(fs: FeatureSet, label: str, ranges: dict, forced: int, available: list[int], size: int) -> None:
    """No hand meets the clauses together, though each may alone: ``honours_S>=5, S<=4`` (the
    honours of a suit are some of its cards), ``aces=0, side_aces_H>=1``, ``hcp>=20, aces=0,
    kings=0``, ``balanced, S>=6``, ``stoppers=4, hcp<=3``.

    Every feature but 501's marriages is modelled exactly in a small 0/1 integer program
    (:mod:`cardsim.conditions.program`), solved by HiGHS (``scipy.optimize.milp``): "some hand of
    ``size`` cards holding ``forced`` and the rest from ``available`` meets every range".  Only a
    proof of infeasibility is an error; the message names the fewest clauses found that cannot
    hold together."""
    modelled = {name: r for name, r in ranges.items() if program.modelled(fs, name)}
    if not modelled or program.feasible(fs, modelled, forced, available, size):
        return
    names = [name for name in fs.features if name in modelled]  # as the class text orders them
    culprit = next((combo for k in (1, 2) for combo in itertools.combinations(names, k)
                    if not program.feasible(fs, {n: modelled[n] for n in combo}, forced, available, size)), names)
    clauses = ", ".join(clause_text(n, ranges[n], fs) for n in culprit)
    cards = " with its given, required and excluded cards" if forced or len(available) < len(fs.base_deck) else ""
    holder = "talon" if label == _holder_name(TALON) else "hand"
    raise ConditionError(f"{label}: {clauses} is impossible: no {size}-card {fs.game} {holder}{cards} meets "
                         f"{'it' if len(culprit) == 1 else 'them together'}")


def _check_across_seats(fs: FeatureSet, classes: dict) -> None:
    """The seats' minimums of one additive feature cannot add up to more than the whole deck has
    (two seats with seven spades each; 45 high-card points between two hands)."""
    ranges = {seat: cls.resolved(fs.game)[0] for seat, cls in classes.items()}
    for name in fs.features:
        weights = _card_weights(fs, fs.features[name])
        if weights is None or any(w < 0 for w in weights.values()):
            continue
        lows = {seat: r[name][0] for seat, r in ranges.items() if name in r and r[name][0]}
        deck = sum(weights.values())
        if len(lows) > 1 and sum(lows.values()) > deck:
            parts = "; ".join(f"seat {seat}: {clause_text(name, ranges[seat][name], fs)}" for seat in sorted(lows))
            raise ConditionError(f"{parts} is impossible: those hands would hold {sum(lows.values())} {name} "
                                 f"and the deck has {deck}")


def _in_a_suit(fs: FeatureSet, card: int) -> bool:
    return any(m >> card & 1 for s in fs.lengths for m, _, _ in fs.features[s])


def _slots(layout: DealLayout, need: np.ndarray, allowed: np.ndarray, m: int) -> np.ndarray:
    """int64[D, m]: the holder of each free card, in dealing order, for every allowed dealer."""
    slots = np.zeros((layout.holders.shape[0], max(m, 1)), dtype=np.int64)
    for d in range(layout.holders.shape[0]):
        if not allowed[d]:
            continue
        left = need[d].copy()
        j = 0
        for h in layout.holders[d]:
            if left[h] > 0:
                slots[d, j] = h
                left[h] -= 1
                j += 1
        assert j == m
    return slots


def compile(conditions: Conditions) -> Compiled:  # noqa: A001 - the module's verb, as in re.compile
    """Check ``conditions`` and make the arrays the jitted dealer takes (:class:`Compiled`).

    Raises :class:`ConditionError` (one line) for: an unknown game or seat, a bad hand or class
    string, a card the game does not have, a card given twice, more cards than a hand or talon
    holds, an unknown feature, a range with min > max, a class impossible on its face (a range
    outside what the hand can hold given its cards, suit lengths that cannot add up to a hand,
    a required card also excluded, given elsewhere or required by another seat), a given dealer that sits out holding a
    conditioned seat (4-seat 501).
    """
    if not isinstance(conditions, Conditions):
        raise ConditionError(f"compile takes Conditions, got {type(conditions).__name__}")
    game = game_name(conditions.game)
    fs = features_of(game)
    layout = layout_of(game, conditions.seats)
    seats, sizes = layout.seats, layout.sizes
    dealer = -1 if conditions.dealer is None else _seat(conditions.dealer, seats, "dealer")
    given, voids = _given_cards(conditions, fs, sizes, seats)
    classes = {}
    for s, value in dict(conditions.classes).items():
        seat = _seat(s, seats, "class")
        if isinstance(value, str):
            value = parse_class(game, value)
        if not isinstance(value, HandClass):
            raise ConditionError(f"class of seat {seat}: a HandClass or a class string, got {quote(value)}")
        classes[seat] = value
    for holder, suits in voids.items():
        classes[holder] = _with_voids(fs, classes.get(holder, HandClass()), suits, holder)
    conditioned = {s for s in range(seats) if given[s]} | (set(classes) - {TALON})
    need = sizes - np.array([bin(g).count("1") for g in given], dtype=np.int64)[None, :]
    allowed = np.array([(need[d] >= 0).all() and (sizes[d, :4] > 0)[sorted(conditioned)].all()
                        for d in range(sizes.shape[0])], dtype=np.int64)
    if dealer >= 0 and not allowed[dealer]:
        raise ConditionError(f"seat {dealer} deals and sits out in {seats}-seat {game}: it can't be given "
                             f"cards or a class")
    if not allowed.any():
        raise ConditionError(f"in {seats}-seat {game} the dealer sits out: give cards or classes to at most "
                             f"{seats - 1} seats")
    plan = _Plan()
    texts = [f"{_holder_name(h)} given {hand_text(game, cards_of(given[h]))}" for h in range(N_HOLDERS) if given[h]]
    required_by = {}
    for seat in sorted(classes):
        size = int(sizes[:, seat].max())
        texts.append(f"{_holder_name(seat)}: "
                     f"{_seat_constraints(fs, seat, classes[seat], given, size, plan, required_by)}")
    _check_across_seats(fs, {s: cls for s, cls in classes.items() if s != TALON})
    free = [int(c) for c in fs.base_deck if not (sum(given) >> int(c) & 1)]
    free_deck = np.array(free, dtype=np.int64)
    cons = np.array(plan.rows, dtype=np.int64).reshape(-1, 5)
    arrays = (np.int64(layout.n_draw), np.int64(layout.always_draw), allowed,
              _slots(layout, need, allowed, len(free)), free_deck, np.array(given, dtype=np.uint64),
              np.uint64(sum(1 << c for c in free)), cons, np.array(plan.masks, dtype=np.uint64),
              np.array(plan.shifts, dtype=np.uint64), np.array(plan.weights, dtype=np.int64))
    text = "; ".join(texts) or "no conditions"
    return Compiled(game, seats, dealer, tuple(given), arrays, text, layout)
