"""Quick A/B of 501 card plays against double-dummy on fixed deals, the DD values cached (issue 12).

``heuristic`` and ``heuristic_v1`` bid, declare and give alike, so a declared deal has the same
contract, hands and double-dummy value (:func:`cardsim.dd.solve_deals`, docs/RULES.md §1.5-§1.7)
whatever card play is measured: the DD values of deals ``0 .. n-1`` of ``seed`` are solved once
and kept in ``--cache`` (a .npy file of int64[n], -1 where the deal was not played); each run
then only plays the deals (``cardsim.simulate``, three seats, the strategy in every seat).

Prints, per strategy: vs_dd (the declarer's deal points minus DD, mean per declared deal, 95%
interval) and the paired difference against the first strategy named (same deals, so a much
narrower interval than the two vs_dd intervals suggest).

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g501_ab.py --deals 2000 --seed 12 heuristic_v1 heuristic
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

import cardsim
from cardsim.dd import solve_deals
from cardsim.stats import mean_interval

LAST_DEF_MARR = 0.0


def dd_points(n: int, seed: int, cache: str | None) -> np.ndarray:
    """int64[n]: the declarer's DD deal points of deals ``0 .. n-1`` (-1 where not played)."""
    if cache and os.path.exists(cache):
        dd = np.load(cache)
        if len(dd) >= n:
            return dd[:n]
    df = solve_deals("501", list(range(n)), seed, ["heuristic_v1"] * 3, 3)
    dd = df.dd_points.to_numpy(np.int64, na_value=-1)
    if cache:
        np.save(cache, dd)
    return dd


def played_points(name: str, n: int, seed: int) -> np.ndarray:
    """int64[n]: the declarer's deal points (cards + effective marriages) in play, -1 where not played."""
    df = cardsim.simulate("501", n, seed=seed, strategies=[name] * 3, seats=3, n_jobs=1, compact=False)
    d = df.declarer.fillna(0).to_numpy(np.int64)
    cards = df[["cards_0", "cards_1", "cards_2"]].fillna(0).to_numpy(np.int64)
    marr = df[["marr_0", "marr_1", "marr_2"]].fillna(0).to_numpy(np.int64)
    i = np.arange(len(df))
    played = df.played.to_numpy(bool)
    global LAST_DEF_MARR
    LAST_DEF_MARR = float((marr.sum(1) - marr[i, d])[played].mean())
    return np.where(played, cards[i, d] + marr[i, d], -1)


def _fmt(x: np.ndarray) -> str:
    mean, _, lo, hi = mean_interval(float(x.sum()), float((x * x).sum()), len(x))
    return f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("strategies", nargs="+")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--cache", default=None, help=".npy file keeping the DD values between runs")
    args = ap.parse_args(argv)
    dd = dd_points(args.deals, args.seed, args.cache)
    k = dd >= 0
    first = None
    for name in args.strategies:
        pts = played_points(name, args.deals, args.seed)
        if not np.array_equal(pts >= 0, k):
            raise SystemExit(f"{name} does not play the same deals as heuristic_v1 (bids differently?)")
        diff = (pts - dd)[k].astype(np.float64)
        line = f"{name}: {k.sum()} declared deals, vs_dd {_fmt(diff)}"
        if first is None:
            first = pts
        else:
            line += f"; minus {args.strategies[0]}: {_fmt((pts - first)[k].astype(np.float64))}"
        print(line + f"; defenders' marriages {LAST_DEF_MARR:.2f} a deal", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
