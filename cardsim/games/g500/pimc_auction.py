"""Five Hundred's worlds that read the auction (``pimc:auction=1``): the test each candidate world
of :func:`cardsim.strategies.pimc.sample_auction_worlds` must pass.

A world (:func:`.pimc.position`'s hidden holders: the three other seats, left-hand opponent
first, then the kitty) holds the cards each seat has now, in the contract's effective layout.
Its **dealt** hands (:func:`dealt_hands`) are those cards with the cards each seat has played
given back (who played which card is public, docs/RULES.md §3.5), mapped back to the physical
cards the seats bid with; the seat's own dealt hand is the one it was dealt.  The declarer's
dealt hand is not in the world as such: he took the kitty and put six cards away (docs/RULES.md
§3.4), and none of those six is public.  So for any other seat his sixteen cards are his cards in
play, those he played and the kitty holder's six, and which six of the sixteen were the kitty is
unknown: every six alike a priori (the deal is uniform, and his discard depends on his sixteen
cards, not on which of them he was dealt), so each world draws them uniformly from its own key
and the rest is his dealt hand.  Kept where the seats' strategies, dealt those hands, make every
call of the auction (:func:`cardsim.games.g500.engine.auction_made`, each world's seat streams
seeded from its own key, the scores before the deal as the bidders saw them): rejection over
the world and the draw of the kitty together, so the kept worlds follow the exact conditional
given the play and the calls (under the model that the seats bid with the strategies they play).

Not read: the declarer's discard (his strategy is not replayed on the world's sixteen cards) and
his choice of contract beyond his calls.  Nothing is placed: no kitty card is ever public.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount
from cardsim.games.forced import CHECK_CALLS, F_IMPLIED, F_NPREFIX, F_PREFIX
from cardsim.rng import mix64

from .constants import KITTY_SIZE, UNMAP

U64 = np.uint64
_KITTY_SALT = U64(0x2545F4914F6CDD1D)
_STEP = U64(0x9E3779B97F4A7C15)

_AUCTION_KERNEL: list = []
"""The engine's auction kernel (:func:`.engine.auction_made`), handed down by the engine as it
loads (:func:`use_auction_kernel`): the engine imports the dispatch, which imports the glue."""


def use_auction_kernel(kernel) -> None:
    """Give :func:`auction_made` the kernel that runs the auction of given hands,
    :func:`.engine.auction_made` (``kernel(keys uint64[W], dealer, hands uint64[W, 4], ids, params,
    scoring, target, before0, before1, forced, made bool[W])``); the engine calls it once as it
    loads."""
    _AUCTION_KERNEL[:] = [kernel]


def auction_context(record, seat: int, declarer: int, denom: int):
    """``Position.auction`` for :func:`auction_made` from the glue's ``record`` (the public
    ``(readable, dealer, ids, params, before0, before1, scoring, target, calls, ncalls, by_seat)``
    of :func:`.dispatch.choose_card`'s ``auction``, the whole ``params``, and the seat's own dealt
    physical hand ``own``), or None where the calls were not the strategies' own.  Returns
    ``(dealer, forced int64[F_PREFIX + ncalls] the whole auction as a CHECK_CALLS prefix, ids
    int64[4], params float64[4, N_PARAMS], before0, before1, scoring, target, given uint64[4] the
    effective cards each seat has played (copied: the engine's array changes as the play goes
    on), own, seat, declarer, denom)``."""
    readable, dealer, ids, params, before0, before1, scoring, target, calls, ncalls, by_seat, own = record
    if not int(readable):
        return None
    ncalls = int(ncalls)
    forced = np.zeros(F_PREFIX + ncalls, dtype=np.int64)
    forced[F_NPREFIX], forced[F_IMPLIED] = ncalls, CHECK_CALLS
    forced[F_PREFIX:] = np.asarray(calls, dtype=np.int64)[:ncalls]
    return (int(dealer), forced, np.array(ids, dtype=np.int64), np.array(params, dtype=np.float64), int(before0),
            int(before1), int(scoring), int(target), np.array(by_seat, dtype=np.uint64), int(own), int(seat),
            int(declarer), int(denom))


@jit(inline="always")
def _physical(eff, denom):
    """The physical cards (uint64) of the effective cards ``eff`` under ``denom``."""
    out = U64(0)
    m = eff
    while m != U64(0):
        c = lowest_bit(m)
        m &= m - U64(1)
        out |= U64(1) << U64(UNMAP[denom, c])
    return out


@jit(inline="always")
def kitty_draw(sixteen, key):
    """Six of the sixteen cards ``sixteen`` (uint64), uniformly, from ``key`` (uint64): the kitty
    the declarer took in one world (a partial Fisher-Yates over the set bits)."""
    u = mix64(key ^ _KITTY_SALT)
    m = sixteen
    out = U64(0)
    for _ in range(KITTY_SIZE):
        u = mix64(u + _STEP)
        j = np.int64(u % U64(popcount(m)))
        r = m
        for _k in range(j):
            r &= r - U64(1)
        b = r & (~r + U64(1))
        out |= b
        m &= ~b
    return out


@jit
def dealt_hands(worlds, keys, given, own, seat, declarer, denom, out):
    """The dealt physical hands of each world into ``out`` (uint64[W, 4]): ``worlds`` uint64[W, 4]
    the holders' effective cards now (seats ``seat + 1, + 2, + 3``, then the kitty), ``keys``
    uint64[W] the worlds' keys, ``given`` uint64[4] the effective cards each seat has played,
    ``own`` the seat's dealt physical hand.  A seat's dealt hand is its cards now and those it
    played; the declarer's (another seat's view) is his sixteen (those, and the kitty holder's
    six) less six drawn uniformly from the world's key (:func:`kitty_draw`)."""
    for w in range(worlds.shape[0]):
        out[w, seat] = own
        for k in range(3):
            s = (seat + 1 + k) % 4
            eff = worlds[w, k] | given[s]
            if s == declarer:
                sixteen = eff | worlds[w, 3]
                eff = sixteen & ~kitty_draw(sixteen, keys[w])
            out[w, s] = _physical(eff, denom)


def auction_made(position, worlds: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """bool[W]: whether the seats' strategies, dealt each world's hands (:func:`dealt_hands`:
    ``worlds`` uint64[W, 4] the hidden holders of :func:`.pimc.position`), make the whole auction,
    world ``w``'s seat streams seeded from ``keys[w]`` (uint64[W]) as a deal's are (the
    ``Hooks.auction`` of Five Hundred, :func:`.engine.auction_made`)."""
    (made_kernel,) = _AUCTION_KERNEL
    (dealer, forced, ids, params, before0, before1, scoring, target, given, own, seat, declarer,
     denom) = position.auction
    keys = np.asarray(keys, dtype=np.uint64)
    hands = np.zeros((len(worlds), 4), dtype=np.uint64)
    dealt_hands(np.ascontiguousarray(worlds, dtype=np.uint64), keys, given, U64(own), np.int64(seat),
                np.int64(declarer), np.int64(denom), hands)
    made = np.zeros(len(worlds), dtype=np.bool_)
    made_kernel(keys, np.int64(dealer), hands, ids, params, np.int64(scoring), np.int64(target), np.int64(before0),
                np.int64(before1), forced, made)
    return made
