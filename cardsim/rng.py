"""Counter-based randomness: deal ``i`` of seed ``s`` is a pure function of ``(s, i)``.

DESIGN.md property 1.  A per-deal key is SplitMix64 of the seed and the deal number; the
shuffle and every seat's strategy draw from separate SplitMix64 streams derived from that
key, so a deal is the same on any machine, in any chunk, under any number of workers.
A stream's state is a ``uint64[1]`` array that the draw functions advance in place.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount

U64 = np.uint64
GOLDEN = U64(0x9E3779B97F4A7C15)
MIX1 = U64(0xBF58476D1CE4E5B9)
MIX2 = U64(0x94D049BB133111EB)
"""SplitMix64's two multipliers (uint64), in :func:`mix64`'s order."""
SEAT_SALT = U64(0xD1B54A32D192ED03)
"""uint64: stream ``i`` of a key starts at ``mix64(key ^ ((i + 1) * SEAT_SALT))`` (:func:`stream`)."""
_MASK32 = U64(0xFFFFFFFF)
MATCH_SALT = U64(0x6A09E667F3BCC909)
"""uint64: a match's key is ``mix64(deal_key(seed, match) ^ MATCH_SALT)`` (:func:`match_key`)."""

MAX_SEED = 2**64 - 1


@jit
def mix64(z):
    """SplitMix64 finaliser: a bijective 64-bit hash (uint64 -> uint64)."""
    z = U64(z)
    z = (z ^ (z >> U64(30))) * MIX1
    z = (z ^ (z >> U64(27))) * MIX2
    return z ^ (z >> U64(31))


@jit
def deal_key(seed, deal_id):
    """Key of deal ``deal_id`` (int64 >= 0) of run seed ``seed`` (uint64)."""
    return mix64(mix64(U64(seed) + GOLDEN) ^ (U64(deal_id) * GOLDEN + U64(1)))


@jit
def stream(key, index):
    """A fresh stream state (uint64[1]) for sub-stream ``index`` of ``key``.

    Index 0 is the shuffle; index ``1 + seat`` is that seat's strategy stream.
    """
    s = np.empty(1, dtype=np.uint64)
    s[0] = mix64(U64(key) ^ (U64(index + 1) * SEAT_SALT))
    return s


@jit
def seed_stream(state, key, index):
    """Set ``state`` (uint64[1], reused to avoid allocating in hot loops) to :func:`stream`'s."""
    state[0] = mix64(U64(key) ^ (U64(index + 1) * SEAT_SALT))


@jit
def seed_streams(states, key):
    """Set every row of ``states`` (uint64[k, 1]) so that ``states[i]`` is ``stream(key, i)``:
    row 0 the shuffle, row ``1 + seat`` that seat's strategy stream.  The one way games seed
    their per-deal streams."""
    for i in range(states.shape[0]):
        states[i, 0] = mix64(U64(key) ^ (U64(i + 1) * SEAT_SALT))


@jit
def match_key(seed, match_id):
    """Key of match ``match_id`` of seed ``seed``; its deal ``j`` has key ``deal_key(match_key, j)``.

    Salted so that match keys never coincide with the keys of independent deals.
    """
    return mix64(deal_key(seed, match_id) ^ MATCH_SALT)


@jit
def next_u64(state):
    """Next 64 random bits of a stream (uint64); advances ``state`` in place."""
    state[0] = state[0] + GOLDEN
    return mix64(state[0])


@jit(inline="always")
def _below(position, n):
    """Lemire's exact draw in ``[0, n)`` from a stream at ``position`` (uint64): returns the new
    position and the draw (int64).  :func:`randbelow` and :func:`shuffle` both draw with it."""
    nn = U64(n)
    position = position + GOLDEN
    m = (mix64(position) >> U64(32)) * nn
    low = m & _MASK32
    if low < nn:
        threshold = (U64(4294967296) - nn) % nn
        while low < threshold:
            position = position + GOLDEN
            m = (mix64(position) >> U64(32)) * nn
            low = m & _MASK32
    return position, np.int64(m >> U64(32))


@jit
def randbelow(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's method, exact)."""
    position, value = _below(state[0], n)
    state[0] = position
    return value


@jit
def uniform(state):
    """Uniform float64 in ``[0, 1)`` from 53 random bits."""
    return np.float64(next_u64(state) >> U64(11)) * (1.0 / 9007199254740992.0)


@jit
def shuffle(deck, state):
    """Fisher-Yates shuffle of ``deck`` (1-d int array) in place; uniform over permutations.

    The draws are :func:`randbelow`'s (:func:`_below`), made on a local copy of the stream's
    position: written back to ``state`` once at the end, not through memory at every draw (the
    compiler cannot keep it in a register, since ``deck``'s stores might alias it), which is a
    few percent of a whole deal.  The same draws, the same permutation."""
    position = state[0]
    for i in range(deck.shape[0] - 1, 0, -1):
        position, j = _below(position, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    state[0] = position


@jit
def choose_bit(state, mask):
    """A uniformly chosen set bit index of a non-zero uint64 ``mask``."""
    k = randbelow(state, popcount(mask))
    m = U64(mask)
    for _ in range(k):
        m &= m - U64(1)
    return lowest_bit(m)


def check_seed(seed) -> int:
    """Validate a run seed: an integer in ``[0, 2**64)``; raises ValueError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and 2**64-1, got {seed}")
    return int(seed)
