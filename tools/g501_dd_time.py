"""CPU time and node count of the 501 double-dummy solver on fixed play-start positions (issue 12).

Wall times on a shared machine swing by several times, node counts do not: this times
``cardsim.dd.g501.solve_batch`` by ``time.process_time`` (best of ``--reps``, each pass on a fresh
table, so every pass visits the same nodes) over the played deals ``0 .. n-1`` of ``seed``.
``--check FILE`` solves seeds ``0 .. 4`` at every trump (0..3, 4 = NT) and compares the values
with those saved in FILE (writes it when missing), so a speed-up can show it changes no value.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g501_dd_time.py --deals 200 --seed 0 --reps 5
    PYTHONPATH=$PWD python tools/g501_dd_time.py --check /tmp/values.npy
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

import cardsim
from cardsim.dd import g501, positions_501


def played_positions(n, seed, cache=None):
    """``(hands uint64[k, 3], decl int64[k], trump int64[k])`` of the played deals, kept in the
    directory ``cache`` when given (an edit of any jitted source recompiles the 501 engine that
    makes the records, which takes minutes)."""
    path = cache and os.path.join(cache, f"pos501-{n}-{seed}.npz")
    if path and os.path.exists(path):
        z = np.load(path)
        return z["h"], z["d"], z["t"]
    h, d, t, played = positions_501(cardsim.records("501", range(n), seed))
    h, d, t = h[played], d[played], t[played]
    if path:
        np.savez(path, h=h, d=d, t=t)
    return h, d, t


def solve(h, d, t):
    """``(values int64[k], nodes)`` on a fresh table."""
    out = np.zeros(len(h), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    g501.solve_batch(h, d, t, *g501.new_table(), out, stats)
    return out, int(stats[0])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--check")
    ap.add_argument("--cache", help="a directory to keep the positions in")
    args = ap.parse_args(argv)
    if args.check:
        vals = []
        for seed in range(5):
            h, d, _ = played_positions(args.deals, seed, args.cache)
            for trump in range(5):
                vals.append(solve(h, d, np.full(len(h), trump, dtype=np.int64))[0])
        vals = np.concatenate(vals)
        if os.path.exists(args.check):
            ref = np.load(args.check)
            bad = int((ref != vals).sum())
            print(f"{len(vals)} positions, {bad} values differ from {args.check}")
            return 1 if bad else 0
        np.save(args.check, vals)
        print(f"{len(vals)} values saved to {args.check}")
        return 0
    h, d, t = played_positions(args.deals, args.seed, args.cache)
    solve(h[:1], d[:1], t[:1])
    best = 1e9
    for _ in range(args.reps):
        c = time.process_time()
        _, nodes = solve(h, d, t)
        best = min(best, time.process_time() - c)
    print(f"{len(h)} deals: {best / len(h) * 1000:.3f} ms CPU per deal (best of {args.reps}), "
          f"{nodes / len(h):,.0f} nodes per deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
