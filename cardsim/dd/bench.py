"""Time the double-dummy solvers on real play-start positions (BENCHMARKS.md, "Double-dummy").

    python -m cardsim.dd.bench [--deals N] [--seed S]

For each game: the records of deals ``0..N-1`` of seed ``S`` (default strategies), their
play-start positions, then one timed pass of the solver over the played ones on one core (the
first deal solved before timing, so compilation is not counted; each game's table starts
empty).  Prints milliseconds per deal and search nodes per deal (501 and 500).
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def _time(solve, n):
    t = time.perf_counter()
    solve()
    return (time.perf_counter() - t) / max(n, 1) * 1000


def main(argv=None) -> int:
    import cardsim
    from cardsim.dd import g500, g501, positions_500, positions_501
    from cardsim.dd.vint import dd_tables
    from cardsim.cards import VINT_RANKS, parse_card

    ap = argparse.ArgumentParser(prog="python -m cardsim.dd.bench")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    n = args.deals

    recs = cardsim.records("vint", range(n), args.seed)
    hands = np.array([[sum(1 << parse_card(t, VINT_RANKS) for t in h) for h in r["hands"]] for r in recs],
                     dtype=np.uint64)
    dd_tables(hands[:1])
    print(f"vint: {_time(lambda: dd_tables(hands), n):.2f} ms per deal (whole 4 x 5 table, DDS CalcAllTables)")

    h, d, t, played = positions_501(cardsim.records("501", range(n), args.seed))
    h, d, t = h[played], d[played], t[played]
    out = np.zeros(len(h), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    g501.solve_batch(h[:1], d[:1], t[:1], *g501.new_table(), out[:1], stats)
    keys, bounds = g501.new_table()
    stats[:] = 0
    ms = _time(lambda: g501.solve_batch(h, d, t, keys, bounds, out, stats), len(h))
    print(f"501: {ms:.2f} ms per deal ({len(h)} played deals, {stats[0] / len(h):,.0f} nodes per deal)")

    h, d, t, played = positions_500(cardsim.records("500", range(n), args.seed))
    h, d, t = h[played], d[played], t[played]
    out = np.zeros(len(h), dtype=np.int64)
    g500.solve_batch(h[:1], d[:1], t[:1], *g500.new_table(12), out[:1], stats)
    keys, bounds = g500.new_table()
    stats[:] = 0
    ms = _time(lambda: g500.solve_batch(h, d, t, keys, bounds, out, stats), len(h))
    print(f"500: {ms:.2f} ms per deal ({len(h)} played deals, {stats[0] / len(h):,.0f} nodes per deal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
