"""Five Hundred contract tables: how often each contract is reached and made, and what it
scores under both scorings (docs/RULES.md §3.6) from one simulation.

Units: score points per deal, by side (declarer's side, defenders); ``net`` = declarer's side
minus defenders.  Every row of the deal table carries the deltas under both scorings
(``quebec_0/1``, ``subtract_0/1``), so one run gives both.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.plots import pyplot, save_figure
from cardsim.stats import mean_interval, wilson
from cardsim.names import DENOMINATIONS

KEYS = ["contract"]
SCORES = ("quebec", "subtract")

GLOSSARY = {
    "n": "deals in the row; thrown in = all four passed (docs/RULES.md §3.3)",
    "contract": "the final contract: tricks and denomination (6S = six spades, six tricks with spades trumps; S "
                "spades, C clubs, D diamonds, H hearts, NT no-trump)",
    "reached": "share of all deals that ended in this contract",
    "made": "share of those contracts in which the declarer's side took at least the tricks bid",
    "decl_tricks": "mean tricks taken by the declarer's side",
    "quebec_decl / quebec_def": "mean score change of the declarer's side / the defenders under the "
                                "default scoring (made: declarer's side +value; failed: defenders +value)",
    "subtract_decl / subtract_def": "the same under scoring=subtract (failed: declarer's side -value; "
                                    "defenders +10 a trick in every deal)",
    "*_net": "declarer's side minus defenders (quebec_net equals subtract_decl: +value made, -value failed)",
    "_lo / _hi": "95% interval (Wilson for shares, normal for means)",
}
NOTES = ["Higher is better for every score column.",
         "Both scorings come from the same simulated deals (the bidding does not depend on the scoring).",
         "The figure shows contracts reached at least 200 times."]
LEGENDS = {
    "g500_contracts.png": "Top: how often the declarer's side makes its contract, by the contract: 6S = six "
                          "spades, i.e. six tricks with spades as trumps; S spades, C clubs, D diamonds, H hearts, "
                          "NT no-trump; bars = 95% intervals. Bottom: the declarer's side's points minus the "
                          "defenders' a deal under the two scorings: quebec (a failed contract gives its value to "
                          "the defenders) and subtract (a failed contract's value is taken off the declarer's side; "
                          "the defenders score 10 a trick).",
}
"""What each figure shows, in a player's words (the report's figure captions)."""


def _name(bid: int) -> str:
    return "thrown in" if bid < 0 else f"{6 + bid // 5}{DENOMINATIONS[bid % 5]}"


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """Partial sums per contract (bid number 0..24; -1 = thrown in) of one chunk of deal rows.

    Columns (additive): ``deals``, ``made``, ``tricks``/``tricks_sq`` (declarer's side tricks),
    and for each scoring ``s`` in quebec, subtract: sums and sums of squares of the declarer
    side's change ``s_decl``, the defenders' ``s_def`` and ``s_net``.
    """
    # The aggregates' key is the stored bid number: the contract's category code, -1 when thrown in.
    bid = rows["contract"].cat.codes.to_numpy(np.int64)
    dteam = rows["declarer"].to_numpy(np.int64, na_value=0) % 2
    frame = {"contract": bid, "deals": np.ones(len(rows), dtype=np.int64),
             "made": rows["made"].fillna(False).to_numpy(np.int64)}
    t = rows["decl_tricks"].to_numpy(np.float64, na_value=0.0)
    frame["tricks"], frame["tricks_sq"] = t, t * t
    for s in SCORES:
        d = np.stack([rows[f"{s}_0"].to_numpy(), rows[f"{s}_1"].to_numpy()], axis=1).astype(np.float64)
        idx = np.arange(len(rows))
        decl = d[idx, dteam]
        dfn = d[idx, 1 - dteam]
        for col, v in (("decl", decl), ("def", dfn), ("net", decl - dfn)):
            frame[f"{s}_{col}"] = v
            frame[f"{s}_{col}_sq"] = v * v
    return pd.DataFrame(frame).groupby(KEYS).sum()


def _table(frame: pd.DataFrame, total: float, labels) -> pd.DataFrame:
    t = pd.DataFrame({"contract": labels})
    n = frame["deals"].to_numpy(np.float64)
    played = np.array([lab != "thrown in" for lab in labels])
    t["n"] = n.astype(np.int64)
    t["reached"] = n / total
    t["reached_lo"], t["reached_hi"] = wilson(n, np.full_like(n, total))
    made = frame["made"].to_numpy(np.float64)
    lo, hi = wilson(made, n)
    t["made"] = np.where(played, made / np.where(n > 0, n, 1), np.nan)
    t["made_lo"] = np.where(played, lo, np.nan)
    t["made_hi"] = np.where(played, hi, np.nan)
    mean, _, _, _ = mean_interval(frame["tricks"], frame["tricks_sq"], n)
    t["decl_tricks"] = np.where(played, mean, np.nan)
    for s in SCORES:
        for col in ("decl", "def", "net"):
            mean, _, lo, hi = mean_interval(frame[f"{s}_{col}"], frame[f"{s}_{col}_sq"], n)
            t[f"{s}_{col}"] = mean
            if col != "def":
                t[f"{s}_{col}_lo"], t[f"{s}_{col}_hi"] = lo, hi
    return t


def tables(merged: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``g500_contracts``: one row per contract reached (and ``thrown in``): n, reach and make
    rates with 95% Wilson intervals, mean declarer tricks, mean score of the declarer's side,
    the defenders and the net under ``quebec`` and ``subtract`` with 95% normal intervals.
    ``g500_denominations``: the same by denomination (all levels together)."""
    merged = merged.sort_index()
    total = float(merged["deals"].sum())
    contracts = _table(merged, total, [_name(int(b)) for b in merged.index])
    bid = merged.index.to_numpy()
    den = np.where(bid < 0, -1, bid % 5)
    by_den = merged.groupby(den).sum().sort_index()
    dens = _table(by_den, total, ["thrown in" if d < 0 else DENOMINATIONS[int(d)] for d in by_den.index])
    return {"g500_contracts": contracts, "g500_denominations": dens}


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """Make rate per contract (95% intervals) and mean net score under both scorings, for
    contracts reached at least 200 times."""
    plt = pyplot()

    t = tabs["g500_contracts"]
    t = t[(t.contract != "thrown in") & (t.n >= 200)]
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    if len(t):
        x = np.arange(len(t))
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
        a1.errorbar(x, t.made, yerr=[t.made - t.made_lo, t.made_hi - t.made], fmt="o", capsize=2)
        a1.set_ylabel("made rate (95% CI)")
        a1.set_ylim(0, 1)
        a2.bar(x - 0.2, t.quebec_net, width=0.4, label="quebec")
        a2.bar(x + 0.2, t.subtract_net, width=0.4, label="subtract")
        a2.axhline(0, color="k", lw=0.5)
        a2.set_ylabel("mean net score (declarer side - defenders)")
        a2.legend()
        a2.set_xticks(x, t.contract, rotation=90)
        fig.suptitle("Five Hundred: contracts with the default strategies")
        fig.tight_layout()
        path = outdir / "g500_contracts.png"
        save_figure(fig, path)
        paths.append(path)
    return paths
