"""What partner and the kitty add to a Five Hundred declarer's own tricks, and a tapering bidder
(issue 32).

The flat bidder (``heuristic_v2``, the default until issue 26, which made the taper fitted here
``heuristic``'s default) values its hand per denomination (``strategies.estimate_tricks``, its
"own" estimate) and adds a flat ``partner + kitty`` allowance (2.6 + 0.7 = 3.3 tricks).  This
tool measures, on its natural auctions (all seats ``heuristic_v2``, scoring quebec), what the
allowance really is: for every declared deal, the declaring side's tricks less the declarer's
own estimate in the contract's denomination (before the allowance), grouped by that estimate.  It fits a line ``added = a - taper * own`` (OLS, statsmodels) and turns it
into the bidder's parameters: ``taper`` = minus the slope, ``pivot`` = the own estimate at which
the line equals the flat allowance (below it the bidder keeps the flat allowance, so that
the tapering bidder never bids higher than the flat one; docs/strategy-quality.md).

Then, on other deals (``--compare-seed``), it plays ``heuristic:taper=T,pivot=P`` (the fit,
rounded to 0.05, or ``--taper`` / ``--pivot``; ``--also SPEC`` adds others) against the
flat bidder on the same deals: made rate by level (6-7 against 8-10), the declaring side's
mean score (quebec: the bid's value when made; net: plus or minus the value), and a duplicate
(the partnership's score minus the flat one's, the mean of its two seatings, per deal, quebec
and subtract).

Usage (from the worktree; about a minute and a half on one core once compiled)::

    PYTHONPATH=$PWD python tools/g500_allowance.py --deals 200000 --seed 32 --compare-seed 33
"""
from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

import cardsim
from cardsim.games.g500 import strategies as S
from cardsim.stats import mean_interval, wilson

FLAT_SPEC = "heuristic_v2"
"""The flat bidder (taper 0): the default until issue 26, the baseline of every comparison here."""
FLAT = S.REGISTRY[FLAT_SPEC].params["partner"] + S.REGISTRY[FLAT_SPEC].params["kitty"]
BINS = [-np.inf, 2, 3, 4, 5, 6, 7, 8, np.inf]


def own_estimates(df: pd.DataFrame) -> np.ndarray:
    """float64[n]: the declarer's own estimate in the contract's denomination, per declared row
    (``nt_bias`` 0, the default; the jitted ``estimate_tricks`` called from Python)."""
    decl = df.declarer.to_numpy(np.int64)
    denom = df.denomination.cat.codes.to_numpy(np.int64)
    hands = np.stack([df[f"hand_{s}"].to_numpy(np.uint64) for s in range(4)], axis=1)
    hand = hands[np.arange(len(df)), decl]
    return np.array([S.estimate_tricks(np.uint64(h), int(d), 0.0) for h, d in zip(hand, denom)])


def interval(x: np.ndarray) -> tuple[float, float, float]:
    mean, _, lo, hi = mean_interval(float(x.sum()), float((x * x).sum()), len(x))
    return float(mean), float(lo), float(hi)


def measure(n: int, seed: int):
    import statsmodels.api as sm

    df = cardsim.simulate("500", n, seed=seed, strategies=FLAT_SPEC, n_jobs=1, compact=False)
    d = df[df.declarer.notna()]
    own = own_estimates(d)
    added = d.decl_tricks.to_numpy(np.float64) - own
    fit = sm.OLS(added, sm.add_constant(own)).fit()
    a, slope = fit.params
    (a_lo, a_hi), (s_lo, s_hi) = fit.conf_int()
    taper = -slope
    pivot = (a - FLAT) / taper
    print(f"# {n:,} deals of seed {seed}, {FLAT_SPEC} (flat): {len(d):,} declared\n")
    rows = []
    for band, g in pd.DataFrame({"own": own, "added": added, "level": d.level.to_numpy(np.int64),
                                 "made": d.made.to_numpy(bool)}).groupby(pd.cut(own, BINS, right=False),
                                                                          observed=True):
        m, lo, hi = interval(g.added.to_numpy())
        mo = float(g.own.mean())
        rule = max(0.0, FLAT - taper * max(0.0, mo - pivot))
        rows.append({"own estimate": str(band), "declared": len(g), "mean own": f"{mo:.2f}",
                     "partner + kitty added": f"{m:.2f} [{lo:.2f}, {hi:.2f}]",
                     "line": f"{a + slope * mo:.2f}", "tapered rule": f"{rule:.2f}",
                     "mean level": f"{g.level.mean():.2f}", "made": f"{g.made.mean():.1%}"})
    print(pd.DataFrame(rows).to_markdown(index=False))
    print(f"\nOLS over the {len(d):,} declared deals: added = {a:.3f} [{a_lo:.3f}, {a_hi:.3f}] "
          f"{slope:+.3f} [{s_lo:+.3f}, {s_hi:+.3f}] x own  (R^2 {fit.rsquared:.3f}, "
          f"residual sd {np.sqrt(fit.scale):.2f} tricks)")
    print(f"-> taper = {taper:.3f}, pivot = {pivot:.2f} (where the line equals partner + kitty = {FLAT:g})\n")
    return taper, pivot


def line_up(df: pd.DataFrame) -> dict:
    d = df[df.declarer.notna()]
    team = d.declarer.to_numpy(np.int64) % 2
    q = np.stack([d.quebec_0.to_numpy(np.float64), d.quebec_1.to_numpy(np.float64)], axis=1)
    own_score = q[np.arange(len(d)), team]
    net = own_score - q[np.arange(len(d)), 1 - team]
    level = d.level.to_numpy(np.int64)
    made = d.made.to_numpy(bool)
    out = {"declared": f"{len(d):,}"}
    for name, sel in (("6-7", level <= 7), ("8-10", level >= 8)):
        k, m = int(made[sel].sum()), int(sel.sum())
        lo, hi = wilson(k, m)
        out[f"contracts {name}"] = f"{m / len(d):.1%}"
        out[f"made {name}"] = f"{k / m:.1%} [{float(lo):.1%}, {float(hi):.1%}]"
    out["made"] = f"{made.mean():.1%}"
    out["mean level 8-10"] = f"{level[level >= 8].mean():.2f}"
    m, lo, hi = interval(own_score)
    out["declaring side's score"] = f"{m:.1f} [{lo:.1f}, {hi:.1f}]"
    m, lo, hi = interval(net)
    out["net (its − defenders')"] = f"{m:.1f} [{lo:.1f}, {hi:.1f}]"
    return out


def compare(n: int, seed: int, specs: list[str]):
    runs = {FLAT_SPEC: cardsim.simulate("500", n, seed=seed, strategies=FLAT_SPEC, n_jobs=1, compact=False)}
    print(f"# {n:,} deals of seed {seed}, the same deals in every line-up\n")
    dup = {}
    for spec in specs:
        runs[spec] = cardsim.simulate("500", n, seed=seed, strategies=spec, n_jobs=1, compact=False)
        a, b = (cardsim.simulate("500", n, seed=seed, strategies=seats, n_jobs=1, compact=False)
                for seats in ([spec, FLAT_SPEC] * 2, [FLAT_SPEC, spec] * 2))
        for scoring in ("quebec", "subtract"):
            x = 0.5 * ((a[f"{scoring}_0"].to_numpy(np.float64) - a[f"{scoring}_1"].to_numpy(np.float64))
                       + (b[f"{scoring}_1"].to_numpy(np.float64) - b[f"{scoring}_0"].to_numpy(np.float64)))
            m, lo, hi = interval(x)
            dup.setdefault(spec, {})[scoring] = f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]"
    table = pd.DataFrame([{"line-up (all four seats)": k, **line_up(v)} for k, v in runs.items()])
    print(table.to_markdown(index=False))
    print("\nDuplicate against four flat bidders: the partnership's score minus the flat one's, points per "
          "deal (mean of its two seatings, thrown-in deals count 0):\n")
    print(pd.DataFrame([{"partnership": k, **v} for k, v in dup.items()]).to_markdown(index=False))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=32, help="seed of the measured deals")
    ap.add_argument("--compare-seed", type=int, default=33, help="seed of the compared deals")
    ap.add_argument("--taper", type=float, help="taper to compare (default: the fit, rounded to 0.05)")
    ap.add_argument("--pivot", type=float, help="pivot to compare (default: the fit, rounded to 0.05)")
    ap.add_argument("--also", action="append", default=[], metavar="SPEC",
                    help="another strategy spec to compare (repeatable)")
    args = ap.parse_args(argv)
    taper, pivot = measure(args.deals, args.seed)
    taper = args.taper if args.taper is not None else round(taper / 0.05) * 0.05
    pivot = args.pivot if args.pivot is not None else round(pivot / 0.05) * 0.05
    compare(args.deals, args.compare_seed, [f"heuristic:taper={taper:.2f},pivot={pivot:.2f}", *args.also])


if __name__ == "__main__":
    main()
