"""Five Hundred's double-dummy worlds for the sampled-search player (:mod:`.pimc`): one jitted
call per decision solves every sampled world for every legal move (:func:`solve_worlds`), or asks
only which moves are best in every world (:func:`common_best`), with :mod:`cardsim.games.g500.solver`'s
search.

A module of its own, imported by :func:`.pimc.solve` when a ``pimc`` seat first searches: the
search is compiled when :mod:`cardsim.games.g500.solver` is imported (an explicit signature, 18 s of a cold
compile), which a run without ``pimc`` seats should not pay.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount
from cardsim.games.g500 import solver as _dd

from .constants import NT, SUIT_MASK, TRUMP_MASK
from .rules import card_suit

U64 = np.uint64


@jit(inline="always")
def _group(card, denom):
    """The cards ``card`` is ranked against: its lane, or the two jokers in no-trump."""
    if denom == NT and (U64(1) << U64(card)) & TRUMP_MASK[NT]:
        return TRUMP_MASK[NT]
    return SUIT_MASK[denom, card >> 4]


@jit(inline="always")
def _play(h, tr, hand, seat, trick, n, led, denom, code):
    """Play the move ``code`` (``card | named << 8``) of the seat (its cards ``hand``) as the
    ``n``-th card of ``trick``: takes it out of ``h[seat]``, writes the trick to ``tr`` and
    returns the suit led (a no-trump joker lead: the named suit).  The caller puts ``hand`` back."""
    c = code & 0xFF
    for i in range(n):
        tr[i] = trick[i]
    tr[n] = c
    lead_suit = led
    if n == 0:
        lead_suit = card_suit(c, denom)
        if lead_suit < 0:
            lead_suit = code >> 8
    h[seat] = U64(hand) & ~(U64(1) << U64(c))
    return lead_suit


@jit(inline="always")
def _seat_world(h, worlds, w, seat, hand):
    """Seat world ``w``'s hands in ``h`` (uint64[4]): ``worlds[w]`` (seats ``seat+1, +2, +3``) and
    the seat's ``hand``."""
    for k in range(3):
        h[(seat + 1 + k) % 4] = worlds[w, k]
    h[seat] = hand


@jit(inline="always")
def _window(h, tr, pos, lead_seat, lead_suit, denom, a, b, keys, bounds, moves, stats):
    """Team 0's tricks after the move :func:`_play` made (``pos`` cards on the trick), fail-soft
    within ``(a, b)``: :func:`cardsim.games.g500.solver.search` with its arguments' types."""
    return _dd.search(h, tr, np.int64(pos), np.int64(lead_seat), np.int64(lead_suit), np.int64(denom), np.int64(a),
                      np.int64(b), keys, bounds, moves, stats)


@jit(inline="always")
def _exact(h, tr, pos, lead_seat, lead_suit, denom, lo, hi, g, keys, bounds, moves, stats):
    """Team 0's exact tricks in ``lo .. hi`` (known bounds) after the move :func:`_play` made:
    MTD(f), null-window searches ("team 0 takes at least beta?") stepping from the guess ``g``
    (the last value found is this one or next to it in most worlds: a binary search over the
    range would spend more searches on far-off questions)."""
    while lo < hi:
        beta = g + 1 if g == lo else g
        beta = min(max(beta, lo + 1), hi)
        g = _window(h, tr, pos, lead_seat, lead_suit, denom, beta - 1, beta, keys, bounds, moves, stats)
        if g >= beta:
            lo = g
        else:
            hi = g
    return lo


@jit
def solve_worlds(hand, seat, denom, leader, trick, n, led, worlds, codes, keys, bounds, moves, stats):
    """float64[W, L]: the seat's side's double-dummy tricks from the current trick on (this trick
    included) after each move ``codes[j]`` (int64[L], ascending engine codes) in each world.

    ``hand``: the seat's effective cards (uint64); ``trick``: int64[4], its first ``n`` cards played
    from ``leader``; ``led``: the suit led or named (-1 when the seat leads); ``worlds``:
    uint64[W, 3+] the hands of seats ``seat+1, seat+2, seat+3`` (a kitty column is ignored);
    ``keys``/``bounds``: a :func:`cardsim.games.g500.solver.new_table` table, kept across calls;
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
        _seat_world(h, worlds, w, seat, hand)
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
            lead_suit = _play(h, tr, hand, seat, trick, n, led, denom, code)
            guess = _exact(h, tr, n + 1, lead_seat, lead_suit, denom, 0, left, guess, keys, bounds, moves, stats)
            h[seat] = hand
            out[w, j] = guess if seat % 2 == 0 else left - guess
    return out


@jit
def common_best(hand, seat, denom, leader, trick, n, led, worlds, codes, keys, bounds, moves, stats, out):
    """The moves that reach the best double-dummy value for the seat's side in **every** world:
    writes ``out`` int64[L] 1 for those (the intersection of the argmax sets of
    :func:`solve_worlds`' rows: the most tricks for the seat's side from the current trick on,
    docs/RULES.md §3.5), 0 elsewhere, and returns how many (int64; 0 when no move is best in
    every world).  Arguments as :func:`solve_worlds`.

    The first look of a sampled-search decision (:func:`cardsim.strategies.pimc.choose_classes`),
    null windows instead of exact values: world by world, the moves best in every world so far are
    searched first (the first one's exact value by MTD(f) from the last world's best, the others
    only asked whether they reach it, and whether they beat it; an exact value only for one that
    does), then each other move is asked only whether it beats them (one null-window search); one
    that does ends the look at once (no move is best in every world), and so does a world that
    leaves no common move.  Team 0 (seats 0 and 2) maximises its tricks, team 1 minimises them."""
    n_worlds = worlds.shape[0]
    n_codes = codes.shape[0]
    h = np.zeros(4, dtype=np.uint64)
    tr = np.zeros(4, dtype=np.int64)
    at = np.zeros(n_codes, dtype=np.int64)
    order = np.empty(n_codes, dtype=np.int64)
    left = popcount(U64(hand))
    lead_seat = seat if n == 0 else leader
    maxing = seat % 2 == 0
    for j in range(n_codes):
        out[j] = 1
    count = n_codes
    guess = (left + 1) // 2
    for w in range(n_worlds):
        _seat_world(h, worlds, w, seat, hand)
        # The common moves so far first, then the others.
        k = 0
        for j in range(n_codes):
            if out[j]:
                order[k] = j
                k += 1
        n_common = k
        for j in range(n_codes):
            if not out[j]:
                order[k] = j
                k += 1
        for j in range(n_codes):
            at[j] = 0
        best = np.int64(0)
        for step in range(n_codes):
            j = order[step]
            lead_suit = _play(h, tr, hand, seat, trick, n, led, denom, codes[j])
            if step == 0:
                best = _exact(h, tr, n + 1, lead_seat, lead_suit, denom, 0, left, guess, keys, bounds, moves, stats)
                guess = best
                h[seat] = hand
                at[j] = 1
                continue
            if step >= n_common:
                # Not best in an earlier world: does it beat the common moves' best here?
                a, b = (best, best + 1) if maxing else (best - 1, best)
                g = _window(h, tr, n + 1, lead_seat, lead_suit, denom, a, b, keys, bounds, moves, stats)
                h[seat] = hand
                if (maxing and g > best) or (not maxing and g < best):
                    for q in range(n_codes):
                        out[q] = 0
                    return np.int64(0)
                continue
            # A common move: does it reach the best so far, and does it beat it?
            a, b = (best - 1, best) if maxing else (best, best + 1)
            g = _window(h, tr, n + 1, lead_seat, lead_suit, denom, a, b, keys, bounds, moves, stats)
            if (maxing and g < best) or (not maxing and g > best):
                h[seat] = hand
                continue
            better = g > best if maxing else g < best
            if not better:
                a, b = (best, best + 1) if maxing else (best - 1, best)
                g = _window(h, tr, n + 1, lead_seat, lead_suit, denom, a, b, keys, bounds, moves, stats)
                better = g > best if maxing else g < best
            if better:
                # Its exact value, between the bound just found and the far end.
                if maxing:
                    best = _exact(h, tr, n + 1, lead_seat, lead_suit, denom, g, left, g, keys, bounds, moves, stats)
                else:
                    best = _exact(h, tr, n + 1, lead_seat, lead_suit, denom, 0, g, g, keys, bounds, moves, stats)
                guess = best
                for q in range(n_codes):
                    at[q] = 0
            h[seat] = hand
            at[j] = 1
        count = 0
        for j in range(n_codes):
            out[j] = out[j] & at[j]
            count += out[j]
        if count == 0:
            return np.int64(0)
    return np.int64(count)
