"""Dealing under conditions: one generic jitted dealer for every game.

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
from cardsim.holding import KIND_FIRST, holding_value, kind_range, term_value
from cardsim.rng import deal_key, mix64, randbelow, seed_stream, shuffle

U64 = np.uint64
TALON = 4
"""Holder index of the talon (501) or kitty (Five Hundred)."""
N_HOLDERS = 5
MAX_ATTEMPTS = 1_000_000
"""Default most attempts per deal; past it the deal fails and the caller raises ConditionError."""
CANDIDATES = 1 << 18
"""Most deals tested against the calls in one round of :func:`deal_chunk` (memory: ~56 bytes each)."""
_ATTEMPT_SALT = U64(0xA54FF53A5F1D36F1)

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
    of 0 counts cards of ``mask`` and a shift of 1 counts pairs of adjacent ranks (501's K+Q); a
    ``shift`` of :data:`cardsim.holding.KIND_FIRST` or more names a kind of :mod:`cardsim.holding`
    (a stopper, quick tricks, losers, a shape), the term being ``weight * holding_value(h, mask, kind)``.
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
    scales: dict = field(default_factory=dict)
    """Features counted in parts of a unit: ``{"quick_tricks": 2}`` (its values are half tricks;
    a class text writes ``quick_tricks>=1.5``, the dealer compares 3)."""

    def value(self, name: str, hand) -> int:
        """The feature ``name`` (its own name) on the bit set ``hand`` (an int), in its stored unit,
        exactly as the dealer computes it (:func:`term_sum`)."""
        h = U64(int(hand))
        return int(sum(term_value(h, U64(int(m)), U64(int(s)), np.int64(w)) for m, s, w in self.features[name]))

    def is_flag(self, name: str) -> bool:
        """Whether the feature ``name`` (its own name) is yes/no, 0 or 1 on every hand (``balanced``,
        ``stopper_S``): a class may write it alone (``balanced``) or negated (``not balanced``)."""
        terms = self.features[name]
        return (all(int(s) >= KIND_FIRST and w > 0 for _, s, w in terms)
                and sum(w * kind_range(int(s), int(m))[1] for m, s, w in terms) == 1)

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
    """Value of terms ``start .. end-1`` on ``hand`` (uint64): ``sum(w * popcount(h & (h >> s) & m))``,
    a term whose ``s`` is :data:`cardsim.holding.KIND_FIRST` or more being ``w * holding_value(h, m, s)``
    (a stopper, quick tricks, losers or a shape feature, :mod:`cardsim.holding`)."""
    h = U64(hand)
    v = 0
    for t in range(start, end):
        if shifts[t] >= U64(KIND_FIRST):
            v += weights[t] * holding_value(h, masks[t], np.int64(shifts[t]))
        else:
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
def next_deal(dealer, plan, max_attempts, state, deck, hands):
    """The next attempt of the shuffle stream ``state`` (uint64[1], advanced in place) that meets
    the conditions of ``plan`` (see :func:`deal_conditioned`), at most ``max_attempts`` (int64)
    attempts on.  Returns ``(dealer int64, talon uint64, attempts int64)``: the attempts used,
    the last one the accepted one; ``(-1, 0, max_attempts)`` when none met them."""
    n_draw, always_draw, allowed, slots, free_deck, fixed, free_bits, cons, masks, shifts, weights = plan
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
    4-seat 501 dealer); ``state`` is left where the accepted attempt ended, so that
    :func:`next_deal` can go on with the same stream.

    Returns ``(dealer int64, talon uint64, attempts int64)``; on failure (no attempt of the
    first ``max_attempts`` met the conditions) ``(-1, 0, max_attempts)``, and ``(-1, 0, 0)`` at
    once for a given dealer that may not deal (a 4-seat 501 match rotating the deal onto a
    conditioned seat).
    """
    allowed = plan[2]
    if dealer >= 0 and allowed[dealer] == 0:
        return np.int64(-1), U64(0), np.int64(0)
    seed_stream(state, key, 0)
    return next_deal(dealer, plan, max_attempts, state, deck, hands)


@jit
def deal_range(seed, start, count, dealer, plan, max_attempts, dealers, hands, talons, attempts, states):
    """Deals ``start .. start+count-1`` of ``seed`` under ``plan`` (:func:`deal_conditioned`).

    Writes ``dealers`` int64[count], ``hands`` uint64[count, 4], ``talons`` uint64[count],
    ``attempts`` int64[count] and ``states`` uint64[count] (each deal's shuffle stream after its
    accepted attempt); returns the index of the first failed deal, or −1 (then stops).
    """
    state = np.zeros(1, dtype=np.uint64)
    deck = np.zeros(64, dtype=np.int64)
    for i in range(count):
        key = deal_key(seed, start + i)
        d, talon, n = deal_conditioned(key, dealer, plan, max_attempts, state, deck, hands[i])
        dealers[i] = d
        talons[i] = talon
        attempts[i] = n
        states[i] = state[0]
        if d < 0:
            return i
    return -1


@jit
def deal_candidates(todo, per_deal, dealer, plan, max_attempts, states, attempts, cand_deal, cand_dealer,
                    cand_hands, cand_talon, cand_attempt):
    """Up to ``per_deal`` further deals meeting the conditions for each deal ``todo[j]`` (int64[k],
    indices into ``states``/``attempts``), going on with its shuffle stream ``states[i]``
    (uint64) from attempt ``attempts[i]`` (int64); both are advanced in place.  Writes the
    candidates in order (deal index, dealer, hands uint64[·, 4], talon, attempt number) into the
    ``cand_*`` arrays (room for ``k * per_deal``) and returns how many; a deal stops early when
    its attempts reach ``max_attempts``."""
    state = np.zeros(1, dtype=np.uint64)
    deck = np.zeros(64, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    m = 0
    for j in range(todo.shape[0]):
        i = todo[j]
        state[0] = states[i]
        for _ in range(per_deal):
            left = max_attempts - attempts[i]
            if left <= 0:
                break
            d, talon, n = next_deal(dealer, plan, left, state, deck, hands)
            attempts[i] += n
            if d < 0:
                break
            cand_deal[m] = i
            cand_dealer[m] = d
            for s in range(4):
                cand_hands[m, s] = hands[s]
            cand_talon[m] = talon
            cand_attempt[m] = attempts[i]
            m += 1
        states[i] = state[0]
    return m


@jit
def attempt_keys(keys, attempts, out):
    """The key that seeds the strategies' streams of each attempt: the deal's own key
    ``keys[i]`` (uint64) for its first attempt, a fresh key for attempt ``attempts[i]`` > 1, so that
    every attempt meets fresh strategy randomness (rejection on the calls is then exact for
    strategies that draw random numbers too)."""
    for i in range(keys.shape[0]):
        out[i] = keys[i] if attempts[i] <= 1 else mix64(keys[i] ^ (U64(attempts[i]) * _ATTEMPT_SALT))


@jit
def deal_keys(seed, start, count, out):
    """``out[i] = deal_key(seed, start + i)`` (uint64[count])."""
    for i in range(count):
        out[i] = deal_key(seed, start + i)


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
class Calls:
    """Calls the deal must imply: a deal is kept only if the
    callers' strategies make exactly these calls with their hands.

    ``agreed(keys, dealers, hands, talons) -> int64[n]``: how many of the calls, in order, the
    strategies make for each candidate deal (``keys`` uint64[n] seed the strategies' streams,
    ``dealers`` int64[n], ``hands`` uint64[n, 4], ``talons`` uint64[n]); ``labels``: the calls as
    given (``"1S"``, ``"P"``), named in the errors.
    """

    agreed: Callable
    labels: tuple
    end: bool = False
    """Whether the last label is not a call but the contract the auction must end in (a lead
    question's, ``cardsim.questions``): ``agreed`` counts it as one more agreement."""

    def rarest(self, tested: np.ndarray) -> str:
        """The call least often made by the strategies that reached it, in words, from
        ``tested`` (int64[k + 1]: how many candidates agreed with exactly ``j`` calls)."""
        k = len(self.labels)
        reached = np.array([tested[j:].sum() for j in range(k)])
        made = np.array([tested[j + 1:].sum() for j in range(k)])
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = np.where(reached > 0, made / np.maximum(reached, 1), np.inf)
        j = int(np.argmin(rate))
        if self.end and j == k - 1:
            return (f"the strategies' auction ended in {self.labels[j]} in {int(made[j]):,} of the {int(reached[j]):,} "
                    f"deals tested" + (" whose callers made the calls given" if k > 1 else ""))
        return (f"call {j + 1} of the auction, {self.labels[j]}, was made in {int(made[j]):,} of the "
                f"{int(reached[j]):,} deals that reached it")


@dataclass(frozen=True)
class DealtChunk:
    """Deals made by :func:`deal_chunk`: ``dealers`` int64[n], ``hands`` uint64[n, 4] (bit sets
    in the game's card layout), ``talons`` uint64[n] (0 in Vint), ``attempts`` int64[n] (≥ 1:
    the attempts of the deal's stream up to the accepted one), ``keys`` uint64[n] (the keys
    that seed the strategies' streams: the deal's key, or with calls the accepted attempt's,
    :func:`attempt_keys`) and ``tested`` int64[n] (attempts that met the hand classes and were
    tested against the calls; 0 without calls)."""

    dealers: np.ndarray
    hands: np.ndarray
    talons: np.ndarray
    attempts: np.ndarray
    keys: np.ndarray = None
    tested: np.ndarray = None

    @property
    def acceptance(self) -> float:
        """Deals accepted per attempt: the probability of the classes (and calls) given the given
        cards."""
        return len(self.attempts) / float(self.attempts.sum())



def deal_chunk(compiled, seed: int, start: int, count: int, max_attempts: int = MAX_ATTEMPTS,
               calls: Calls | None = None) -> DealtChunk:
    """Deals ``start .. start+count-1`` of ``seed`` under ``compiled`` (a
    :class:`cardsim.conditions.Compiled`) and, when given, ``calls``: each deal is the first
    attempt of its own stream that meets the hand classes and whose callers make the calls (an
    exact draw from the conditional distribution under the strategy model, by rejection).
    Raises :class:`ConditionError` naming the conditions (or the rarest call) if a deal finds
    no match within ``max_attempts`` attempts, or if ``max_attempts`` candidates of the chunk
    were tested against the calls without one deal accepted."""
    dealers = np.zeros(count, dtype=np.int64)
    hands = np.zeros((count, 4), dtype=np.uint64)
    talons = np.zeros(count, dtype=np.uint64)
    attempts = np.zeros(count, dtype=np.int64)
    states = np.zeros(count, dtype=np.uint64)
    keys = np.zeros(count, dtype=np.uint64)
    failed = deal_range(U64(seed), np.int64(start), np.int64(count), np.int64(compiled.dealer), compiled.plan,
                        np.int64(max_attempts), dealers, hands, talons, attempts, states)
    if failed >= 0:
        raise ConditionError(f"{compiled.game} deal {start + failed} of seed {seed}: no deal in {max_attempts:,} "
                             f"attempts met {compiled.text}; the class is too rare to sample")
    deal_keys(U64(seed), np.int64(start), np.int64(count), keys)
    tested = np.zeros(count, dtype=np.int64)
    if calls is None:
        return DealtChunk(dealers, hands, talons, attempts, keys, tested)
    return _deal_by_calls(compiled, seed, start, max_attempts, calls,
                          DealtChunk(dealers, hands, talons, attempts, keys, tested), states)


def _deal_by_calls(compiled, seed, start, max_attempts, calls: Calls, first: DealtChunk, states) -> DealtChunk:
    """Rejection on the calls, in rounds: every deal still open tests its next candidates (1, 2,
    4, … per round, at most :data:`CANDIDATES` in all) and keeps the first one whose callers make
    the calls.  The candidates of a deal are the attempts of its own stream in order, so the
    result does not depend on the rounds."""
    count = len(first.dealers)
    out = DealtChunk(first.dealers.copy(), first.hands.copy(), first.talons.copy(), first.attempts.copy(),
                     np.zeros(count, dtype=np.uint64), first.tested)
    position = first.attempts.copy()    # where each deal's stream stands
    open_ = np.ones(count, dtype=bool)
    tested_by_calls = np.zeros(len(calls.labels) + 1, dtype=np.int64)
    cand = (np.arange(count, dtype=np.int64), first.dealers, first.hands, first.talons, first.attempts.copy())
    per = 1
    while True:
        idx, c_dealer, c_hands, c_talon, c_attempt = cand
        c_keys = np.zeros(len(idx), dtype=np.uint64)
        attempt_keys(first.keys[idx], c_attempt, c_keys)
        agreed = np.asarray(calls.agreed(c_keys, c_dealer, c_hands, c_talon), dtype=np.int64)
        tested_by_calls += np.bincount(agreed, minlength=len(tested_by_calls))
        good = np.flatnonzero(agreed == len(calls.labels))
        won, first_good = np.unique(idx[good], return_index=True)
        sel = good[first_good]
        out.dealers[won], out.hands[won], out.talons[won] = c_dealer[sel], c_hands[sel], c_talon[sel]
        out.attempts[won], out.keys[won] = c_attempt[sel], c_keys[sel]
        # a deal's tests stop at its accepted candidate; later ones of the same round never happened
        last = np.full(count, np.iinfo(np.int64).max)
        last[won] = c_attempt[sel]
        np.add.at(out.tested, idx[c_attempt <= last[idx]], 1)
        open_[won] = False
        todo = np.flatnonzero(open_)
        if todo.size == 0:
            return out
        if (position[todo] >= max_attempts).any() or (out.tested.sum() >= max_attempts and not (~open_).any()):
            i = int(todo[np.argmax(position[todo])])
            if tested_by_calls.sum() < 1000:
                raise ConditionError(
                    f"{compiled.game} deal {start + i} of seed {seed}: no deal in {max_attempts:,} attempts met "
                    f"{compiled.text}: only {int(tested_by_calls.sum()):,} met the hand classes, of which none had "
                    f"the given calls; the classes are too rare to sample (with the calls on top)")
            contract = calls.end and len(calls.labels) == 1  # a lead question's contract, no calls given
            raise ConditionError(
                f"{compiled.game} deal {start + i} of seed {seed}: the "
                f"{'contract is' if contract else 'given calls are'} too rare under the callers' "
                f"strategies to sample ({calls.rarest(tested_by_calls)}; conditions: {compiled.text}); give hand "
                f"classes that make {'it' if contract else 'them'} likelier, other strategies, or "
                f"--calls-on-random-hands to "
                + ("deal the declaring side at random, the contract declared whatever it holds" if contract
                   else "make the calls whatever the callers hold"))
        per = int(min(per * 2, max(1, CANDIDATES // todo.size)))
        room = todo.size * per
        c_idx = np.zeros(room, dtype=np.int64)
        c_dealer = np.zeros(room, dtype=np.int64)
        c_hands = np.zeros((room, 4), dtype=np.uint64)
        c_talon = np.zeros(room, dtype=np.uint64)
        c_attempt = np.zeros(room, dtype=np.int64)
        m = deal_candidates(todo, np.int64(per), np.int64(compiled.dealer), compiled.plan, np.int64(max_attempts),
                            states, position, c_idx, c_dealer, c_hands, c_talon, c_attempt)
        cand = (c_idx[:m], c_dealer[:m], c_hands[:m], c_talon[:m], c_attempt[:m])


def _load_rounds(compiled) -> None:
    """Load (compile, the first time) :func:`deal_candidates` with the types the rounds use, so that
    no timing includes it."""
    empty = np.zeros(0, dtype=np.int64)
    deal_candidates(empty, np.int64(1), np.int64(compiled.dealer), compiled.plan, np.int64(1),
                    np.zeros(0, dtype=np.uint64), empty, empty, empty, np.zeros((0, 4), dtype=np.uint64),
                    np.zeros(0, dtype=np.uint64), empty)


def dealing_seconds(compiled, seed: int, n: int, budget: float = 0.5, max_deals: int = 200,
                    calls: Calls | None = None) -> float:
    """Estimated seconds (one core) to deal ``n`` deals of ``seed`` under ``compiled`` (and
    ``calls``, see :func:`deal_chunk`): deals
    ``0, 1, …`` are dealt until ``budget`` seconds or ``max_deals`` deals have passed, and their
    time per deal is scaled to ``n``.  A class about one deal in a million takes hours to sample;
    this says so before the run.  Raises :class:`ConditionError` as :func:`deal_chunk` does (a
    deal that finds no match within the attempts)."""
    deal_chunk(compiled, seed, 0, 1, calls=calls)  # loads the compiled dealer; not timed
    if calls is not None:
        _load_rounds(compiled)  # deal 0 may pass at once, before the later rounds' kernel was loaded
    start = time.perf_counter()
    k = 1
    while k < min(n, max_deals):
        deal_chunk(compiled, seed, k, 1, calls=calls)
        k += 1
        if time.perf_counter() - start > budget:
            break
    if k == 1:
        return 0.0
    return (time.perf_counter() - start) / (k - 1) * n
