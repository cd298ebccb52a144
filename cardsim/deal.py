"""Dealing under conditions: one generic jitted dealer for every game (issue "Ask about a hand").

A deal under conditions is drawn from the exact conditional distribution by rejection: each
attempt deals uniformly the cards that are not given, then keeps the deal if every hand meets
its class.  Everything a deal depends on comes from its OWN random stream, the shuffle stream
``stream(deal_key(seed, i), 0)`` (:mod:`cardsim.rng`), so deal ``i`` under a condition is the
same deal on any machine, in any chunk, under any number of workers.

One attempt, in the order the engines deal (docs/RULES.md §1.2, §2.1, §3.2):

1. the dealer: drawn with ``randbelow(stream, n_draw)`` when it is not given (Vint draws it
   even then and ignores the draw, as its engine does for a rubber's rotating dealer);
2. the deck: the game's base deck without the given cards, in base order, shuffled by
   :func:`cardsim.rng.shuffle` with the same stream;
3. the deal: the shuffled free cards fill, in dealing order, the positions left free once each
   holder's given cards are counted (a holder with ``g`` given cards of ``n`` takes free cards
   at its first ``n - g`` positions);
4. the test: every constraint (a weighted popcount of one holder's cards, see
   :func:`term_sum`) must lie in its range; else the next attempt continues the same stream.

With no given card the first attempt IS the engine's unconditioned deal ``i``: the same dealer
draw, the same Fisher-Yates shuffle of the same base deck, the same dealing order.

Holders are the seats ``0..3`` and :data:`TALON` (4): 501's talon, Five Hundred's kitty.

The arrays a condition compiles to (:func:`cardsim.conditions.compile`) travel as one tuple,
the *plan* (see :func:`deal_conditioned`), so an engine kernel passes one argument through.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from cardsim._jit import jit
from cardsim.cards import popcount
from cardsim.rng import deal_key, randbelow, seed_stream, shuffle

U64 = np.uint64
TALON = 4
"""Holder index of the talon (501) or kitty (Five Hundred)."""
N_HOLDERS = 5
MAX_ATTEMPTS = 1_000_000
"""Default most attempts per deal; past it the deal fails and the caller raises ConditionError."""

# columns of a plan's constraint table (int64[C, 5])
C_HOLDER, C_LO, C_HI, C_START, C_END = range(5)


class ConditionError(ValueError):
    """Conditions that are malformed, impossible, or too rare to sample; a one-line message."""


@dataclass(frozen=True)
class DealLayout:
    """How a game deals, for the generic dealer.

    ``base_deck``: int64[N] card indices before the shuffle; ``holders``: int64[D, N], the
    holder (seat 0..3 or :data:`TALON`) of deal position ``k`` (``deck[k]``, 0 = top) when the
    dealer is ``d``; ``n_draw``: the dealer is ``randbelow(stream, n_draw)``; ``always_draw``:
    the stream draws a dealer even when one is given (Vint).
    """

    game: str
    seats: int
    base_deck: np.ndarray
    holders: np.ndarray
    n_draw: int
    always_draw: bool

    @property
    def sizes(self) -> np.ndarray:
        """int64[D, 5]: cards each holder receives when the dealer is ``d`` (the sitting-out
        4-seat 501 dealer receives 0)."""
        out = np.zeros((self.holders.shape[0], N_HOLDERS), dtype=np.int64)
        for d in range(self.holders.shape[0]):
            out[d] = np.bincount(self.holders[d], minlength=N_HOLDERS)
        return out


def layout_from_dealer(game: str, seats: int, base_deck: np.ndarray, n_draw: int, always_draw: bool,
                       deal_positions: Callable[[int], np.ndarray]) -> DealLayout:
    """A :class:`DealLayout` whose row ``d`` is ``deal_positions(d)`` (int64[N] holders)."""
    holders = np.stack([np.asarray(deal_positions(d), dtype=np.int64) for d in range(n_draw)])
    return DealLayout(game, seats, np.asarray(base_deck, dtype=np.int64), holders, n_draw, always_draw)


def positions_dealt(n_cards: int, hands, talon) -> np.ndarray:
    """Holders (int64[n_cards]) of the deal positions, read from a game's own deal function run
    on the identity deck ``deck[k] = k``: ``hands`` (4 bit sets) and ``talon`` then hold
    positions instead of cards, so the layout can never drift from the engine's order."""
    out = np.full(n_cards, -1, dtype=np.int64)
    for holder, bits in enumerate([*hands, talon]):
        for k in range(n_cards):
            if int(bits) >> k & 1:
                out[k] = holder
    if (out < 0).any():
        raise AssertionError("a deal position went to nobody")
    return out


@dataclass(frozen=True)
class FeatureSet:
    """A game's cards and hand features, as conditions name them.

    ``features``: name -> tuple of terms ``(mask, shift, weight)``; the feature's value on a hand
    ``h`` is ``sum(weight * popcount(h & (h >> shift) & mask))`` (:func:`term_sum`), so a shift
    of 0 counts cards of ``mask`` and a shift of 1 counts pairs of adjacent ranks (501's K+Q).
    ``aliases``: other accepted names; ``lengths``: the four suit-length feature names, S C D H.
    ``parse_card(token) -> int`` raises ValueError; ``card_str(card) -> str``.
    """

    game: str
    ranks: str
    base_deck: np.ndarray
    parse_card: Callable[[str], int]
    card_str: Callable[[int], str]
    features: dict
    aliases: dict = field(default_factory=dict)
    lengths: tuple = ("S", "C", "D", "H")
    doc: str = ""

    def canonical(self, name: str) -> str | None:
        """The feature's own name for ``name`` (case-insensitive), or None if the game has none."""
        folded = {k.lower(): k for k in self.features}
        folded.update({k.lower(): v for k, v in self.aliases.items()})
        return folded.get(name.lower())

    def tables(self) -> tuple:
        """(names, mask uint64[T], shift uint64[T], weight int64[T], start int64[F+1]) of every
        feature, in ``features`` order: feature ``f`` is terms ``start[f] .. start[f+1]-1``."""
        names = tuple(self.features)
        masks, shifts, weights, start = [], [], [], [0]
        for name in names:
            for mask, shift, weight in self.features[name]:
                masks.append(mask)
                shifts.append(shift)
                weights.append(weight)
            start.append(len(masks))
        return (names, np.array(masks, dtype=np.uint64), np.array(shifts, dtype=np.uint64),
                np.array(weights, dtype=np.int64), np.array(start, dtype=np.int64))


# ---------------------------------------------------------------- jitted core
@jit(inline="always")
def term_sum(hand, masks, shifts, weights, start, end):
    """Value of terms ``start .. end-1`` on ``hand`` (uint64): ``sum(w * popcount(h & (h >> s) & m))``."""
    h = U64(hand)
    v = 0
    for t in range(start, end):
        v += weights[t] * popcount(h & (h >> shifts[t]) & masks[t])
    return v


@jit
def meets(hands, talon, cons, masks, shifts, weights):
    """Whether every constraint row of ``cons`` (int64[C, 5]: holder, lo, hi, first term,
    end term) holds for ``hands`` (uint64[≥4]) and ``talon`` (uint64); stops at the first miss."""
    for c in range(cons.shape[0]):
        holder = cons[c, C_HOLDER]
        hand = talon if holder == TALON else hands[holder]
        v = term_sum(hand, masks, shifts, weights, cons[c, C_START], cons[c, C_END])
        if v < cons[c, C_LO] or v > cons[c, C_HI]:
            return False
    return True


@jit(inline="always")
def deal_attempt(dealer, slots, free_deck, fixed, free_bits, state, deck, hands):
    """Shuffle the free cards with ``state`` and deal them into the free slots of ``dealer``'s
    row of ``slots``; returns the talon (uint64)."""
    m = free_deck.shape[0]
    for i in range(m):
        deck[i] = free_deck[i]
    shuffle(deck[:m], state)
    for s in range(4):
        hands[s] = fixed[s]
    for j in range(m):
        holder = slots[dealer, j]
        if holder < TALON:
            hands[holder] |= U64(1) << U64(deck[j])
    return fixed[TALON] | (free_bits & ~(hands[0] | hands[1] | hands[2] | hands[3]))


@jit
def deal_conditioned(key, dealer, plan, max_attempts, state, deck, hands):
    """Deal one deal of key ``key`` under the conditions compiled into ``plan``.

    ``dealer``: the dealer's seat, or −1 to draw it (module docstring, step 1).
    ``plan``: the tuple made by :func:`cardsim.conditions.compile` (``Compiled.plan``) —
    ``(n_draw int64, always_draw int64, allowed int64[D], slots int64[D, M], free_deck int64[M],
    fixed uint64[5], free_bits uint64, cons int64[C, 5], masks uint64[T], shifts uint64[T],
    weights int64[T])``: a dealer ``d`` with ``allowed[d] == 0`` is rejected (4-seat 501: a
    seat with given cards or a class never sits out); ``slots[d, j]`` the holder of the
    ``j``-th free card; ``fixed[h]`` the cards given to holder ``h``; ``free_bits`` the free
    cards; the constraints as in :func:`meets`.
    ``max_attempts`` (int64): the most attempts; ``state`` uint64[1], ``deck`` int64[≥ N] and
    ``hands`` uint64[≥ 4] are scratch and output (``hands[s]`` = seat ``s``'s cards; 0 for a
    4-seat 501 dealer).

    Returns ``(dealer int64, talon uint64, attempts int64)``; on failure (no attempt of the
    first ``max_attempts`` met the conditions) ``(-1, 0, max_attempts)``, and ``(-1, 0, 0)`` at
    once for a given dealer that may not deal (a 4-seat 501 match rotating the deal onto a
    conditioned seat).
    """
    n_draw, always_draw, allowed, slots, free_deck, fixed, free_bits, cons, masks, shifts, weights = plan
    if dealer >= 0 and allowed[dealer] == 0:
        return np.int64(-1), U64(0), np.int64(0)
    seed_stream(state, key, 0)
    for attempt in range(1, max_attempts + 1):
        d = dealer
        if dealer < 0 or always_draw != 0:
            drawn = randbelow(state, n_draw)
            if dealer < 0:
                d = drawn
        if allowed[d] == 0:
            continue
        talon = deal_attempt(d, slots, free_deck, fixed, free_bits, state, deck, hands)
        if meets(hands, talon, cons, masks, shifts, weights):
            return d, talon, np.int64(attempt)
    return np.int64(-1), U64(0), np.int64(max_attempts)


@jit
def deal_range(seed, start, count, dealer, plan, max_attempts, dealers, hands, talons, attempts):
    """Deals ``start .. start+count-1`` of ``seed`` under ``plan`` (:func:`deal_conditioned`).

    Writes ``dealers`` int64[count], ``hands`` uint64[count, 4], ``talons`` uint64[count] and
    ``attempts`` int64[count]; returns the index of the first failed deal, or −1 (then stops).
    """
    state = np.zeros(1, dtype=np.uint64)
    deck = np.zeros(64, dtype=np.int64)
    for i in range(count):
        key = deal_key(seed, start + i)
        d, talon, n = deal_conditioned(key, dealer, plan, max_attempts, state, deck, hands[i])
        dealers[i] = d
        talons[i] = talon
        attempts[i] = n
        if d < 0:
            return i
    return -1


@jit
def count_meeting(hands, talons, plan):
    """How many rows of ``hands`` (uint64[n, 4]) with ``talons`` (uint64[n]) meet the plan's
    constraints: the predicate alone, for the benchmark."""
    cons, masks, shifts, weights = plan[7], plan[8], plan[9], plan[10]
    n = 0
    for i in range(hands.shape[0]):
        if meets(hands[i], talons[i], cons, masks, shifts, weights):
            n += 1
    return n


# ---------------------------------------------------------------- Python layer
@dataclass(frozen=True)
class DealtChunk:
    """Deals made by :func:`deal_chunk`: ``dealers`` int64[n], ``hands`` uint64[n, 4] (bit sets
    in the game's card layout), ``talons`` uint64[n] (0 in Vint), ``attempts`` int64[n] (≥ 1)."""

    dealers: np.ndarray
    hands: np.ndarray
    talons: np.ndarray
    attempts: np.ndarray

    @property
    def acceptance(self) -> float:
        """Deals accepted per attempt: the probability of the classes given the given cards."""
        return len(self.attempts) / float(self.attempts.sum())


def deal_chunk(compiled, seed: int, start: int, count: int, max_attempts: int = MAX_ATTEMPTS) -> DealtChunk:
    """Deals ``start .. start+count-1`` of ``seed`` under ``compiled`` (a
    :class:`cardsim.conditions.Compiled`); raises :class:`ConditionError` naming the
    conditions if a deal finds no match within ``max_attempts`` attempts."""
    dealers = np.zeros(count, dtype=np.int64)
    hands = np.zeros((count, 4), dtype=np.uint64)
    talons = np.zeros(count, dtype=np.uint64)
    attempts = np.zeros(count, dtype=np.int64)
    failed = deal_range(U64(seed), np.int64(start), np.int64(count), np.int64(compiled.dealer), compiled.plan,
                        np.int64(max_attempts), dealers, hands, talons, attempts)
    if failed >= 0:
        raise ConditionError(f"{compiled.game} deal {start + failed} of seed {seed}: no deal in {max_attempts:,} "
                             f"attempts met {compiled.text}; the class is too rare to sample")
    return DealtChunk(dealers, hands, talons, attempts)


def dealing_seconds(compiled, seed: int, n: int, budget: float = 0.5, max_deals: int = 200) -> float:
    """Estimated seconds (one core) to deal ``n`` deals of ``seed`` under ``compiled``: deals
    ``0, 1, …`` are dealt until ``budget`` seconds or ``max_deals`` deals have passed, and their
    time per deal is scaled to ``n``.  A class about one deal in a million takes hours to sample;
    this says so before the run.  Raises :class:`ConditionError` as :func:`deal_chunk` does (a
    deal that finds no match within the attempts)."""
    deal_chunk(compiled, seed, 0, 1)  # loads the compiled dealer; not timed
    start = time.perf_counter()
    k = 1
    while k < min(n, max_deals):
        deal_chunk(compiled, seed, k, 1)
        k += 1
        if time.perf_counter() - start > budget:
            break
    if k == 1:
        return 0.0
    return (time.perf_counter() - start) / (k - 1) * n
