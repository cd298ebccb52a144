"""Paired duplicate comparison of two Vint strategies (issue 12), with cardsim.compare.

Every deal is played twice on the same cards and seat streams: NEW in seats 0+2 against OLD in
seats 1+3, then swapped.  Per deal, NEW's score is the mean over the two seatings of (NEW
partnership's total − OLD partnership's total), in score points (docs/RULES.md §2.4–§2.6, one
independent deal from a clean line); its mean and 95% interval are printed, with the same
for tricks taken by NEW's side and for contracts NEW's side declares.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/vint_duplicate.py --new heuristic --old heuristic_v1 --deals 20000
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

from cardsim.compare import compare


def team0_minus_team1(rows: pd.DataFrame) -> pd.DataFrame:
    """Per deal, team 0's total − team 1's total (score points) and tricks difference."""
    return pd.DataFrame({"points": rows.total_0 - rows.total_1, "tricks": rows.tricks_0.astype(float) - rows.tricks_1})


def duplicate(new: str, old: str, deals: int, seed: int, n_jobs: int = 1) -> pd.DataFrame:
    """Rows per measure: NEW's mean per-deal duplicate score and its 95% interval (units of the measure)."""
    table = compare("vint", deals, [new, old, new, old], {"swapped": [old, new, old, new]}, team0_minus_team1,
                    seed=seed, n_jobs=n_jobs)
    # diff = swapped − baseline = −(NEW's net in the swapped seating) − (NEW's net at first), so
    # NEW's duplicate score is −diff / 2 and its interval is the diff's, negated and halved.
    v = table[table.variant == "swapped"]
    return pd.DataFrame({"measure": v.measure.to_numpy(), "deals": v.n.to_numpy(), "new_minus_old": -v["diff"].to_numpy() / 2,
                         "lo": -v.diff_hi.to_numpy() / 2, "hi": -v.diff_lo.to_numpy() / 2})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", default="heuristic")
    ap.add_argument("--old", default="heuristic_v1")
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    out = duplicate(args.new, args.old, args.deals, args.seed, args.jobs)
    print(f"vint duplicate, seed {args.seed}, {args.deals} deals: {args.new} (new) vs {args.old} (old), per deal")
    print(out.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
