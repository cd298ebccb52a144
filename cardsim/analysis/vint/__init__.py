"""Vint contract tables: how often each contract is reached and made, and what it scores.

Units: score points (above + below, docs/RULES.md §2.5–§2.6) per deal, by side.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.plots import pyplot, save_figure
from cardsim.stats import mean_interval, wilson
from cardsim.names import DENOMINATIONS

GLOSSARY = {
    "n": "deals in the row",
    "contract": "the final contract: level and denomination (1S = one spade, seven tricks with spades trumps; S "
                "spades, C clubs, D diamonds, H hearts, NT no-trump); void = nobody bid",
    "reached": "share of all deals that ended in this contract (void = nobody bid, docs/RULES.md §2.2)",
    "made": "vint_contracts / vint_levels: share of those contracts that took level + 6 tricks or more; "
            "vint_openings: share of the openings after which the opener's side declared AND made its contract",
    "declarer_score / defenders_score": "mean points (above + below the line) the declarer's side / the "
                                        "defenders wrote in the deal, from a clean line",
    "net_score": "declarer's side minus defenders, per deal: positive = the declaring side gained",
    "hcp_band / opening": "the opener's 4-3-2-1 high-card points and his opening bid (the first bid of the deal)",
    "share_of_band": "share of the openings in that points band made with this bid",
    "opener_net": "the opener's side minus the other side, per deal",
    "declares": "share of deals in which the opener's side won the auction",
    "_lo / _hi": "95% interval (Wilson for shares, normal for means)",
}
NOTES = ["Higher is better for every score column: both sides score in Vint.",
         "The figure shows contracts reached at least 200 times."]
LEGENDS = {
    "vint_made_by_contract.png": "How often the declaring side makes its contract, by the contract it played: 1S = "
                                 "one spade, i.e. seven tricks with spades as trumps (level + 6 tricks); S spades, "
                                 "C clubs, D diamonds, H hearts, NT no-trump. Every player bids and plays by the "
                                 "default strategy; the bars are 95% intervals.",
}
"""What each figure shows, in a player's words (the report's figure captions)."""


HCP_BANDS = [(0, 10), (11, 12), (13, 14), (15, 16), (17, 19), (20, 37)]


def _band(hcp):
    for lo, hi in HCP_BANDS:
        if lo <= hcp <= hi:
            return f"{lo}-{hi}"
    raise ValueError(hcp)


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """Partial sums of one chunk of deal rows, indexed by (table, a, b).

    * ``("contract", level, denomination)`` (void deals: (0, −1)): ``deals``, ``made``, and sum /
      sum of squares of the declarer side's total (``decl``), the defenders' (``def``) and the
      difference (``net``), in score points;
    * ``("opening", opener's high-card points, opening call)`` (call = 5 × (level − 1) +
      denomination): ``deals``, ``declares`` (the opener's side won the auction), ``made``
      (... and made its contract), ``open_net`` / ``open_net_sq`` (the opener's side's total
      minus the other side's).
    """
    n = len(rows)
    idx = np.arange(n)
    totals = rows[["total_0", "total_1"]].to_numpy(np.int64)
    void = rows.void.to_numpy()
    dteam = rows.declarer.to_numpy(np.int64, na_value=0) % 2  # void deals: no team, masked below
    decl = np.where(void, 0, totals[idx, dteam]).astype(np.float64)
    dfn = np.where(void, 0, totals[idx, 1 - dteam]).astype(np.float64)
    contract = pd.DataFrame({
        # The aggregates' keys are the stored codes: level 0 and denomination -1 (category code) = void.
        "table": "contract", "a": rows.level.to_numpy(np.int64, na_value=0),
        "b": rows.denomination.cat.codes.to_numpy(np.int64),
        "deals": 1, "made": rows.made.fillna(False).to_numpy(np.int64),
        "decl": decl, "decl_sq": decl ** 2, "def": dfn, "def_sq": dfn ** 2,
        "net": decl - dfn, "net_sq": (decl - dfn) ** 2,
    }).groupby(["table", "a", "b"]).sum()
    r = rows[rows.opener.notna().to_numpy()]
    opener = r.opener.to_numpy(np.int64)
    oteam = opener % 2
    k = np.arange(len(r))
    hcp = r[[f"hcp_{s}" for s in range(4)]].to_numpy()[k, opener]
    ot = r[["total_0", "total_1"]].to_numpy(np.int64)
    onet = (ot[k, oteam] - ot[k, 1 - oteam]).astype(np.float64)
    # Somebody opened, so somebody declared: declarer and made have values on these deals.
    declares = (r.declarer.to_numpy(np.int64) % 2 == oteam)
    opening = pd.DataFrame({
        "table": "opening", "a": hcp.astype(np.int64),
        "b": 5 * (r.opening_level.to_numpy(np.int64) - 1) + r.opening_denomination.cat.codes.to_numpy(np.int64),
        "deals": 1, "declares": declares.astype(np.int64), "made": (declares & r.made.to_numpy(bool)).astype(np.int64),
        "open_net": onet, "open_net_sq": onet ** 2,
    }).groupby(["table", "a", "b"]).sum()
    return pd.concat([contract, opening]).fillna(0)


def _contract_name(level, denomination):
    return "void" if level == 0 else f"{level}{DENOMINATIONS[denomination]}"


def _contract_tables(merged: pd.DataFrame) -> dict[str, pd.DataFrame]:
    total = merged.deals.sum()
    out = {}
    for name, frame in (("vint_contracts", merged),
                        ("vint_levels", merged.groupby(level="a").sum())):
        t = pd.DataFrame(index=frame.index)
        if name == "vint_contracts":
            t.insert(0, "contract", [_contract_name(lv, d) for lv, d in frame.index])
        else:
            t.insert(0, "contract", ["void" if lv == 0 else f"level {lv}" for lv in frame.index])
        t["n"] = frame.deals.astype(np.int64)
        t["reached"] = frame.deals / total
        t["reached_lo"], t["reached_hi"] = wilson(frame.deals, total)
        played = frame.index.get_level_values("a") > 0
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


def _opening_table(merged: pd.DataFrame, min_n: int = 100) -> pd.DataFrame:
    frame = merged.reset_index()
    frame["hcp_band"] = frame.a.map(_band)
    frame["opening"] = [f"{b // 5 + 1}{DENOMINATIONS[b % 5]}" for b in frame.b]
    g = frame.groupby(["hcp_band", "opening"], sort=False)[["deals", "declares", "made", "open_net",
                                                           "open_net_sq"]].sum()
    band_total = g.groupby(level="hcp_band").deals.transform("sum")
    t = pd.DataFrame(index=g.index)
    t["n"] = g.deals.astype(np.int64)
    t["share_of_band"] = g.deals / band_total
    t["declares"] = g.declares / g.deals
    t["made"] = g.made / g.deals
    t["made_lo"], t["made_hi"] = wilson(g.made, g.deals)
    mean, se, lo, hi = mean_interval(g.open_net, g.open_net_sq, g.deals)
    t["opener_net"], t["opener_net_lo"], t["opener_net_hi"] = mean, lo, hi
    t = t.reset_index()
    order = {f"{lo}-{hi}": i for i, (lo, hi) in enumerate(HCP_BANDS)}
    t = t[t.n >= min_n]
    t = t.assign(_o=t.hcp_band.map(order), _c=[int(o[0]) * 5 + DENOMINATIONS.index(o[1:]) for o in t.opening])
    return t.sort_values(["_o", "_c"]).drop(columns=["_o", "_c"]).reset_index(drop=True)


def tables(merged: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``vint_contracts``: one row per contract (and ``void``) with n, reach and make rates
    (95% Wilson intervals) and mean scores (95% normal intervals); ``vint_levels``: the same by
    level; ``vint_openings``: by the opener's high-card points and his opening bid, how often
    his side declares and makes a contract and its mean net score (openings seen ≥ 100 times)."""
    tabs = _contract_tables(merged.xs("contract", level="table"))
    tabs["vint_openings"] = _opening_table(merged.xs("opening", level="table"))
    return tabs


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """Make rate per contract with its 95% interval, for contracts reached at least 200 times."""
    plt = pyplot()

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
    save_figure(fig, path, dpi=110)
    return [path]
