"""Vint contract tables: how often each contract is reached and made, and what it scores.

Units: score points (above + below, RULES.md §2.5–§2.6) per deal, by side.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.stats import mean_interval, wilson

DENOMINATIONS = ["S", "C", "D", "H", "NT"]
KEYS = ["level", "denomination"]


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """Partial sums per (level, denomination) of one chunk of deal rows; void deals are (0, -1).

    Columns: ``deals``, ``made``, and sum / sum of squares of the declarer side's total
    (``decl``), the defenders' (``def``) and the difference (``net``), in score points.
    """
    dteam = (rows.declarer.to_numpy() % 2).astype(np.int64)
    totals = rows[["total_0", "total_1"]].to_numpy(np.int64)
    idx = np.arange(len(rows))
    decl = np.where(rows.void, 0, totals[idx, dteam])
    dfn = np.where(rows.void, 0, totals[idx, 1 - dteam])
    net = decl - dfn
    frame = pd.DataFrame({
        "level": rows.level.astype(np.int64), "denomination": rows.denomination.astype(np.int64),
        "deals": 1, "made": rows.made.astype(np.int64),
        "decl": decl.astype(np.float64), "decl_sq": decl.astype(np.float64) ** 2,
        "def": dfn.astype(np.float64), "def_sq": dfn.astype(np.float64) ** 2,
        "net": net.astype(np.float64), "net_sq": net.astype(np.float64) ** 2,
    })
    return frame.groupby(KEYS).sum()


def _contract_name(level, denomination):
    return "void" if level == 0 else f"{level}{DENOMINATIONS[denomination]}"


def tables(merged: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``vint_contracts``: one row per contract (and ``void``) with n, reach and make rates
    (95% Wilson intervals) and mean scores (95% normal intervals); ``vint_levels``: the same by level."""
    total = merged.deals.sum()
    out = {}
    for name, frame in (("vint_contracts", merged),
                        ("vint_levels", merged.groupby(level="level").sum())):
        t = pd.DataFrame(index=frame.index)
        if name == "vint_contracts":
            t.insert(0, "contract", [_contract_name(lv, d) for lv, d in frame.index])
        else:
            t.insert(0, "contract", ["void" if lv == 0 else f"level {lv}" for lv in frame.index])
        t["n"] = frame.deals.astype(np.int64)
        t["reached"] = frame.deals / total
        t["reached_lo"], t["reached_hi"] = wilson(frame.deals, total)
        played = frame.index.get_level_values("level") > 0
        t["made"] = np.where(played, frame.made / frame.deals, np.nan)
        lo, hi = wilson(frame.made, frame.deals)
        t["made_lo"], t["made_hi"] = np.where(played, lo, np.nan), np.where(played, hi, np.nan)
        for col, label in (("decl", "declarer_score"), ("def", "defenders_score"), ("net", "net_score")):
            mean, se, lo, hi = mean_interval(frame[col], frame[col + "_sq"], frame.deals)
            t[label] = mean
            if col == "net":
                t["net_lo"], t["net_hi"] = lo, hi
        out[name] = t.reset_index(drop=True)
    return out


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """Make rate per contract with its 95% interval, for contracts reached at least 200 times."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = tabs["vint_contracts"]
    t = t[(t.contract != "void") & (t.n >= 200)]
    fig, ax = plt.subplots(figsize=(10, 4))
    x = np.arange(len(t))
    ax.bar(x, t.made, color="#4a7ab5")
    ax.errorbar(x, t.made, yerr=[t.made - t.made_lo, t.made_hi - t.made], fmt="none", ecolor="black", lw=1)
    ax.set_xticks(x, t.contract, rotation=90)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share made")
    ax.set_title("Vint: contracts made (default strategies, 95% Wilson intervals)")
    fig.tight_layout()
    path = Path(outdir) / "vint_made_by_contract.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]
