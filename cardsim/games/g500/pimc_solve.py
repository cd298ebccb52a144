"""Five Hundred's double-dummy worlds for the sampled-search player (:mod:`.pimc`): one jitted
call per decision solves every sampled world for every legal move with :mod:`cardsim.dd.g500`'s
search.

A module of its own, imported by :func:`.pimc.solve` when a ``pimc`` seat first searches: the
search is compiled when :mod:`cardsim.dd.g500` is imported (an explicit signature, 18 s of a cold
compile), which a run without ``pimc`` seats should not pay.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount
from cardsim.dd import g500 as _dd

from .constants import NT, SUIT_MASK, TRUMP_MASK
from .rules import card_suit

U64 = np.uint64


@jit(inline="always")
def _group(card, denom):
    """The cards ``card`` is ranked against: its lane, or the two jokers in no-trump."""
    if denom == NT and (U64(1) << U64(card)) & TRUMP_MASK[NT]:
        return TRUMP_MASK[NT]
    return SUIT_MASK[denom, card >> 4]


@jit
def solve_worlds(hand, seat, denom, leader, trick, n, led, worlds, codes, keys, bounds, moves, stats):
    """float64[W, L]: the seat's side's double-dummy tricks from the current trick on (this trick
    included) after each move ``codes[j]`` (int64[L], ascending engine codes) in each world.

    ``hand``: the seat's effective cards (uint64); ``trick``: int64[4], its first ``n`` cards played
    from ``leader``; ``led``: the suit led or named (-1 when the seat leads); ``worlds``:
    uint64[W, 3+] the hands of seats ``seat+1, seat+2, seat+3`` (a kitty column is ignored);
    ``keys``/``bounds``: a :func:`cardsim.dd.g500.new_table` table, kept across calls;
    ``moves``: int64[42, MAX_MOVES] scratch; ``stats``: int64[1+] node counter.

    A card equivalent to a higher card of the seat's in that world (the next higher card still
    in a hand or on the table is its own) takes that card's value instead of a search, when
    that card is among ``codes`` (the sampled search may ask for some legal moves only)."""
    n_worlds = worlds.shape[0]
    n_codes = codes.shape[0]
    out = np.zeros((n_worlds, n_codes), dtype=np.float64)
    h = np.zeros(4, dtype=np.uint64)
    tr = np.zeros(4, dtype=np.int64)
    on_table = U64(0)
    for i in range(n):
        on_table |= U64(1) << U64(trick[i])
    left = popcount(U64(hand))
    lead_seat = seat if n == 0 else leader
    guess = (left + 1) // 2  # team 0's tricks: the last value found, across cards and worlds
    for w in range(n_worlds):
        for k in range(3):
            h[(seat + 1 + k) % 4] = worlds[w, k]
        h[seat] = hand
        live = h[0] | h[1] | h[2] | h[3] | on_table
        for j in range(n_codes - 1, -1, -1):  # higher codes first: an equivalent card copies one
            code = codes[j]
            c = code & 0xFF
            named = code >> 8
            above = live & _group(c, denom) & ~((U64(2) << U64(c)) - U64(1))
            if above != U64(0) and (U64(hand) >> U64(lowest_bit(above))) & U64(1):
                twin = lowest_bit(above) | (named << 8)
                copied = False
                for q in range(j + 1, n_codes):
                    if codes[q] == twin:
                        out[w, j] = out[w, q]
                        copied = True
                        break
                if copied:  # else the twin is not asked for (the caller asks some cards only): search
                    continue
            for i in range(n):
                tr[i] = trick[i]
            tr[n] = c
            lead_suit = led
            if n == 0:
                lead_suit = card_suit(c, denom)
                if lead_suit < 0:
                    lead_suit = named
            h[seat] = U64(hand) & ~(U64(1) << U64(c))
            # MTD(f): null-window searches ("team 0 takes at least beta?") stepping from the last
            # card's value, which is this card's value or next to it in most worlds (a binary
            # search over 0..left would spend more searches on far-off questions).
            lo = 0
            hi = left
            g = guess
            while lo < hi:
                beta = g + 1 if g == lo else g
                beta = min(max(beta, lo + 1), hi)
                g = _dd._search(h, tr, np.int64(n + 1), np.int64(lead_seat), np.int64(lead_suit), np.int64(denom),
                            np.int64(beta - 1), np.int64(beta), keys, bounds, moves, stats)
                if g >= beta:
                    lo = g
                else:
                    hi = g
            h[seat] = hand
            guess = lo
            out[w, j] = lo if seat % 2 == 0 else left - lo
    return out
