"""Paired comparisons of two card plays for 501 and Five Hundred (issue 12), on the same deals.

The two strategies must bid alike (``heuristic`` and ``heuristic_v1`` do), so every line-up
below plays the same contracts on the same cards and only the card play differs.  Per deal,
the declaring side's result in a line-up minus its result with OLD in every seat:

* 501 (three seats; measure = the declarer's deal points, cards + effective marriages,
  docs/RULES.md §1.5-§1.7; made = target reached):
  ``new declarer``: NEW in the declarer's seat, OLD defenders;
  ``new defenders``: OLD declarer, NEW in both defending seats (a negative value = the defence
  took more points from the declarer);
  ``all new``: NEW everywhere (what changes the quality tool's vs_dd).
* Five Hundred (measure = the declaring side's tricks, docs/RULES.md §3.5-§3.6):
  ``new declaring side``: NEW in the declarer's partnership, OLD defending;
  ``new defenders``: OLD declaring side, NEW defending;
  ``all new``: NEW everywhere;
  ``duplicate``: NEW partnership against OLD, the mean over the two seatings (0+2 then 1+3) of
  NEW's tricks minus OLD's tricks, over every deal (the bridge-style duplicate score).

Each line: mean over declared deals, its 95% normal interval, and the made rates.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g50x_paired.py 501 --deals 100000 --seed 12
    PYTHONPATH=$PWD python tools/g50x_paired.py 500 --deals 100000 --seed 12
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import cardsim
from cardsim.stats import mean_interval


def _line(name, x: np.ndarray, made_new=None, made_old=None) -> dict:
    mean, _, lo, hi = mean_interval(float(x.sum()), float((x * x).sum()), len(x))
    out = {"comparison": name, "n": len(x), "mean": float(mean), "lo": float(lo), "hi": float(hi)}
    if made_new is not None:
        out["made_new"] = float(np.mean(made_new))
        out["made_old"] = float(np.mean(made_old))
    return out


def _sim(game, n, seed, lineup, seats=None, n_jobs=1):
    return cardsim.simulate(game, n, seed=seed, strategies=lineup, seats=seats, n_jobs=n_jobs, compact=False)


def compare_501(new, old, n, seed, n_jobs=1) -> pd.DataFrame:
    """The 501 lines of the module docstring (three seats)."""
    def points(df):
        d = df.declarer.fillna(0).to_numpy(np.int64)
        cards = df[["cards_0", "cards_1", "cards_2"]].fillna(0).to_numpy(np.int64)
        marr = df[["marr_0", "marr_1", "marr_2"]].fillna(0).to_numpy(np.int64)
        i = np.arange(len(df))
        return cards[i, d] + marr[i, d], df.made.fillna(False).to_numpy(bool)

    base = _sim("501", n, seed, [old] * 3, 3, n_jobs)
    played = base.played.to_numpy(bool)
    decl = base.declarer.fillna(-1).to_numpy(np.int64)
    p_old, m_old = points(base)
    p_all, m_all = points(_sim("501", n, seed, [new] * 3, 3, n_jobs))
    p_nd, m_nd = p_old.copy(), m_old.copy()
    p_ndef, m_ndef = p_old.copy(), m_old.copy()
    for s in range(3):
        lone_new = [new if k == s else old for k in range(3)]
        lone_old = [old if k == s else new for k in range(3)]
        at = played & (decl == s)
        p, m = points(_sim("501", n, seed, lone_new, 3, n_jobs))
        p_nd[at], m_nd[at] = p[at], m[at]
        p, m = points(_sim("501", n, seed, lone_old, 3, n_jobs))
        p_ndef[at], m_ndef[at] = p[at], m[at]
    k = played
    rows = [_line("new declarer (old defenders)", (p_nd - p_old)[k], m_nd[k], m_old[k]),
            _line("new defenders (old declarer)", (p_ndef - p_old)[k], m_ndef[k], m_old[k]),
            _line("all new", (p_all - p_old)[k], m_all[k], m_old[k])]
    return pd.DataFrame(rows)


def compare_500(new, old, n, seed, n_jobs=1) -> pd.DataFrame:
    """The Five Hundred lines of the module docstring."""
    def tricks(df):
        return df.decl_tricks.fillna(0).to_numpy(np.int64), df.made.fillna(False).to_numpy(bool)

    base = _sim("500", n, seed, [old] * 4, None, n_jobs)
    declared = base.declarer.notna().to_numpy()
    team = base.declarer.fillna(0).to_numpy(np.int64) % 2
    t_old, m_old = tricks(base)
    t_all, m_all = tricks(_sim("500", n, seed, [new] * 4, None, n_jobs))
    a = _sim("500", n, seed, [new, old, new, old], None, n_jobs)  # NEW in 0+2
    b = _sim("500", n, seed, [old, new, old, new], None, n_jobs)  # NEW in 1+3
    ta, ma = tricks(a)
    tb, mb = tricks(b)
    t_side = np.where(team == 0, ta, tb)
    m_side = np.where(team == 0, ma, mb)
    t_def = np.where(team == 0, tb, ta)
    m_def = np.where(team == 0, mb, ma)
    k = declared
    # duplicate: NEW's tricks minus OLD's in each seating (10 tricks a deal), mean of the two
    dup = ((a.tricks_0 - a.tricks_1).to_numpy(float) + (b.tricks_1 - b.tricks_0).to_numpy(float)) / 2
    rows = [_line("new declaring side (old defenders)", (t_side - t_old)[k], m_side[k], m_old[k]),
            _line("new defenders (old declaring side)", (t_def - t_old)[k], m_def[k], m_old[k]),
            _line("all new", (t_all - t_old)[k], m_all[k], m_old[k]),
            _line("duplicate: new side - old side (tricks)", dup[k])]
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["501", "500"])
    ap.add_argument("--new", default="heuristic")
    ap.add_argument("--old", default="heuristic_v1")
    ap.add_argument("--deals", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    f = compare_501 if args.game == "501" else compare_500
    out = f(args.new, args.old, args.deals, args.seed, args.jobs)
    unit = "deal points" if args.game == "501" else "tricks"
    print(f"{args.game} paired, seed {args.seed}, deals 0..{args.deals - 1}: {args.new} (new) vs {args.old} (old), "
          f"declaring side's {unit} per declared deal, line-up minus all-old")
    print(out.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
