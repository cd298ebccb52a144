"""What the benchmarks share: the seed, the best-of-runs rate, the joblib fan-out over chunks and
the chunk tasks the workers run, and the progress line."""
from __future__ import annotations

import sys
import time

from joblib import Parallel, delayed

from cardsim.games import get_game

SEED = 12345
"""The seed of every benchmark's deals (deal ``i`` of seed 12345, as in BENCHMARKS.md)."""


def deal_task(game: str, start: int, count: int) -> int:
    """Deal ``count`` deals of ``game`` from deal ``start`` (dealing only); returns the checksum."""
    return get_game(game).play.deal_chunk(SEED, start, count)


def sim_task(game: str, setup, start: int, count: int) -> int:
    """Play ``count`` complete deals of ``game`` from deal ``start`` with ``setup``; returns the
    number of rows (the rows themselves are thrown away)."""
    return len(get_game(game).play.simulate_chunk(SEED, start, count, setup))


def best_rate(fn, n: int, repeats: int = 3) -> float:
    """Deals per second of ``fn`` (which plays ``n`` deals): the best of ``repeats`` runs, wall
    time, since on a shared machine the slower runs measure the neighbours."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def parallel(n_jobs: int, task, n: int, chunk: int, *args) -> None:
    """``task(*args, start, count)`` over deals ``0 .. n-1`` in chunks of ``chunk``, on ``n_jobs``
    joblib (loky) workers."""
    Parallel(n_jobs=n_jobs)(delayed(task)(*args, s, min(chunk, n - s)) for s in range(0, n, chunk))


def progress(message: str) -> None:
    """One indented progress line on standard error (standard output carries the tables)."""
    print(f"  {message}", file=sys.stderr, flush=True)
