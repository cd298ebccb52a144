"""Deals per second of two Vint strategies, measured alternating in one process (issue 12).

The shared machine is noisy, so each strategy is timed ``--rounds`` times, alternating, on the
same ``--deals`` deals (CPU time of ``simulate_chunk``, one process, after a warm-up that
compiles), and the best round of each is compared.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/vint_speed.py --new heuristic --old heuristic_v1 --deals 200000 --rounds 5
"""
from __future__ import annotations

import argparse
import sys
import time

from cardsim.games.vint import SPEC, simulate_chunk


def rates(new: str, old: str, deals: int, rounds: int, seed: int = 1) -> tuple[float, float]:
    """Best deals per CPU second of ``new`` and ``old`` (all four seats) over ``rounds`` alternations."""
    setups = {name: SPEC.setup(name) for name in (new, old)}
    for setup in setups.values():
        simulate_chunk(seed, 0, 1000, setup)  # compile
    best = {new: 0.0, old: 0.0}
    for _ in range(rounds):
        for name, setup in setups.items():
            t = time.process_time()
            simulate_chunk(seed, 0, deals, setup)
            best[name] = max(best[name], deals / (time.process_time() - t))
    return best[new], best[old]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", default="heuristic")
    ap.add_argument("--old", default="heuristic_v1")
    ap.add_argument("--deals", type=int, default=200000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    new, old = rates(args.new, args.old, args.deals, args.rounds)
    print(f"{args.new}: {new:,.0f} deals/s  {args.old}: {old:,.0f} deals/s  ratio {new / old:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
