"""Deals per second of two strategies of one game, measured alternately in one process (issue 12).

On a machine shared with other work a rate drifts from minute to minute; alternating the two
strategies, round after round, and keeping each one's best round compares them under the same
load.  One core (``simulate_chunk`` in this process), the game's default rules and seats.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g50x_speed.py 501 --new heuristic --old heuristic_v1 --deals 200000 --rounds 5
"""
from __future__ import annotations

import argparse
import sys
import time

from cardsim.games import get_game


def rates(game: str, names: list[str], n: int, rounds: int, chunk: int = 50_000) -> dict:
    """Best deals/s of each strategy in ``names`` (all seats) over ``rounds`` alternating rounds."""
    spec = get_game(game)
    setups = {name: spec.setup(name) for name in names}
    for setup in setups.values():
        spec.simulate_chunk(1, 0, 2000, setup)  # compile / load from cache outside the timing
    best = {name: float("inf") for name in names}
    for _ in range(rounds):
        for name, setup in setups.items():
            t = time.perf_counter()
            for s in range(0, n, chunk):
                spec.simulate_chunk(12345, s, min(chunk, n - s), setup)
            best[name] = min(best[name], time.perf_counter() - t)
    return {name: n / sec for name, sec in best.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["vint", "501", "500"])
    ap.add_argument("--new", default="heuristic")
    ap.add_argument("--old", default="heuristic_v1")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    r = rates(args.game, [args.new, args.old], args.deals, args.rounds)
    change = r[args.new] / r[args.old] - 1
    print(f"{args.game}: {args.new} {r[args.new]:,.0f}/s, {args.old} {r[args.old]:,.0f}/s, "
          f"change {change:+.1%} (best of {args.rounds} alternating rounds of {args.deals:,} deals, one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
