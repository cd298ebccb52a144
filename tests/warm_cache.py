"""Compile the engines' main kernels before the test suite, one process per game.

``make test`` runs this first.  The suite's workers (pytest-xdist) would otherwise compile the
same kernels at the same time on a cold numba cache (a clean clone, as in CI), each doing the
whole work; compiled here once, they load from the cache.  With a warm cache it takes seconds.
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

GAMES = ("500", "vint", "501")  # the slowest to compile first
QUESTION = {"vint": dict(seat=1, options=["P"]), "500": dict(seat=2, options=["P"]),
            "501": dict(seat=0, options=["look"])}
"""A question per game whose one given call (a pass by the dealer (Vint) or his left) implies the
caller's hand: compiles the dealer under conditions, the calls' test and play from given hands."""


def warm(game: str) -> float:
    import cardsim

    start = time.perf_counter()
    cardsim.simulate(game, 20, seed=1, n_jobs=1)
    cardsim.play_match(game, 2, seed=1, n_jobs=1)
    for record in cardsim.records(game, range(3), seed=1):
        cardsim.replay(record)
    # The sampled-search player's own kernels (world sampler, the game's solver over worlds):
    # compiled here once rather than by every test worker that plays pimc.
    seats = cardsim.get_game(game).default_seats
    cardsim.simulate(game, 2, seed=1, strategies=["pimc:worlds=2"] * seats, n_jobs=1)
    dealer = {"vint": 0, "500": 0, "501": 1}[game]
    # a call the default players make (501's never pass their first turn: they bid blind)
    auction = {"vint": ["P"], "500": ["P"], "501": ["B66"]}[game]
    cardsim.evaluate(game, n=20, seed=1, dealer=dealer, auction=auction, n_jobs=1, **QUESTION[game])
    return time.perf_counter() - start


def main() -> int:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=min(len(GAMES), os.cpu_count() or 1)) as pool:
        seconds = dict(zip(GAMES, pool.map(warm, GAMES)))
    print(f"numba cache warmed in {time.perf_counter() - start:.0f} s ("
          + ", ".join(f"{g} {s:.0f} s" for g, s in seconds.items()) + ")", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
