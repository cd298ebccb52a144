"""Vint: which card to lead, against no-trump and against a suit contract.

A lead chart by double-dummy leads, the bridge yardstick: for each cell (a contract and a class
of the leader's hand) deals are drawn where the declaring side holds what that contract needs and
the leader's hand is in the class (docs/conditions.md: the class's top cards given, the rest by
rejection), and on every deal DDS gives the defenders' double-dummy tricks after each card the
leader could lead (:func:`cardsim.games.vint.solver.lead_values`, one SolveBoard per deal).  A few lead
*kinds* are then compared on the same deals (paired):

* ``top``: the top card of the class's suit (the top of a sequence, the ace from AK, the honour
  of Kxxx / Qxxx, the top of xxx, a singleton, the top of a doubleton);
* ``low``: fourth best of the class's suit (the lowest card from three or two);
* ``other``: fourth best of the leader's longest other suit (not the class's suit, not trumps;
  ties go to the suit with more high-card points), the lowest card from three or fewer;
* ``trump``: the lowest trump (suit contracts; every suit class holds one to three trumps).

Double-dummy leads measure a lead against perfect play by everyone afterwards, with every hand
seen: they are the standard measure of leads in bridge, cheap (no strategy plays a card), and
they need no player model, so the player profiles of the other charts do not enter here.  They
favour aggressive leads a little (declarer never misguesses after a passive lead).

Per cell the best kind is chosen on the even-numbered deals and its gain over the runner-up
measured on the odd ones; a cell is clear by Benjamini-Hochberg over the chart
(:func:`cardsim.analysis.verdicts.chart_clear`).  Each kind also gets its mean defenders' tricks
(all deals, 95% interval) and its paired difference to the cell's best kind.

Contracts (declarer seat 2, the leader seat 3 on his left; the auction is not played, the
contract is placed): ``3NT`` with a 15-17 balanced declarer opposite 10-15 balanced; ``4H`` with a
five-card or longer heart suit and 12-18 points opposite three or more hearts and 8-13.

Units: tricks of the defending side (0..13).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.chart_pipeline import seed_of
from cardsim.analysis.plots import frame_cell, pyplot, save_figure
from cardsim.analysis.verdicts import chart_clear
from cardsim.conditions import Conditions, compile as compile_conditions, parse_classes
from cardsim.games.vint.solver import lead_values
from cardsim.deal import deal_chunk
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.selection import p_above
from cardsim.stats import mean_interval

GAME = "vint"
DECLARER = 2
LEADER = (DECLARER + 1) % 4
DEALS = 600
"""Deals per cell of the full chart (about 0.06 s of DDS each)."""
QUICK_DEALS = 16
CHUNK = 250
"""Deals per task (a task is kept in the results folder once done)."""
SYMBOL = {"S": "\u2660", "C": "\u2663", "D": "\u2666", "H": "\u2665", "NT": "NT"}
SUITS = "SCDH"
"""cardsim's suit order (cardsim.cards): S C D H = 0..3."""
KINDS = ("top", "low", "other", "trump")
KIND_TEXT = {"top": "top of the suit", "low": "4th best of the suit (low from 2-3)",
             "other": "4th best of the longest other suit", "trump": "a low trump"}


@dataclass(frozen=True)
class Contract:
    name: str
    denomination: int
    """0..4 = S C D H NT."""
    where: str
    """The declaring side's classes (docs/conditions.md)."""
    text: str


CONTRACTS = (
    Contract("3NT", 4, "seat 2: hcp=15-17, S=2-4, H=2-5, D=2-5, C=2-5; seat 0: hcp=10-15, S=2-4, H=2-5, D=2-5, C=2-5",
             "3NT: declarer 15-17 balanced, dummy 10-15 balanced"),
    Contract("4H", 3, "seat 2: hcp=12-18, H>=5; seat 0: hcp=8-13, H>=3",
             "4\u2665: declarer 5+ hearts and 12-18, dummy 3+ hearts and 8-13"),
)


@dataclass(frozen=True)
class Holding:
    """A class of the leader's hand: ``given`` its cards placed (exact, no rejection), ``where``
    the rest of its class, ``suit`` the class's suit, ``top`` / ``low`` the words for those
    leads, ``suit_only``: asked against the suit contract only."""

    key: str
    label: str
    suit: str
    given: str
    where: str
    top: str
    low: str | None
    suit_only: bool = False


HOLDINGS = (
    Holding("KQJx", "\u2660KQJx(+)", "S", "S:KQJ", "S>=4, not AS", "\u2660K (top of the sequence)", "4th best \u2660"),
    Holding("QJTx", "\u2660QJTx(+)", "S", "S:QJT", "S>=4, not S:AK", "\u2660Q (top of the sequence)",
            "4th best \u2660"),
    Holding("AKxx", "\u2660AKxx(+)", "S", "S:AK", "S>=4", "\u2660A (from AK)", "4th best \u2660"),
    Holding("Kxxx", "\u2660Kxxx", "S", "S:K", "S=4, not S:AQJT", "\u2660K (the honour)", "4th best \u2660"),
    Holding("Qxxx", "\u2660Qxxx", "S", "S:Q", "S=4, not S:AKJT", "\u2660Q (the honour)", "4th best \u2660"),
    Holding("xxx", "\u2660xxx (no honour)", "S", "", "S=3, not S:AKQJT", "top \u2660 (top of nothing)", "low \u2660"),
    Holding("x", "\u2663x (singleton)", "C", "", "C=1, not AC", "the singleton \u2663", None, suit_only=True),
    Holding("xx", "\u2663xx (doubleton)", "C", "", "C=2, not C:AK", "top \u2663 (of the doubleton)", "low \u2663",
            suit_only=True),
)
TRUMPS_HELD = "H=1-3"
"""Against the suit contract the leader holds one to three trumps (so a trump lead exists)."""


@dataclass(frozen=True)
class Cell:
    contract: Contract
    holding: Holding

    @property
    def kinds(self) -> tuple:
        trump = self.contract.denomination < 4
        return tuple(k for k in KINDS
                     if not (k == "low" and self.holding.low is None) and not (k == "trump" and not trump))

    def option(self, kind: str) -> str:
        """The lead of ``kind`` in this cell, in words."""
        return {"top": self.holding.top, "low": self.holding.low, "other": "4th best of the longest other suit",
                "trump": "a low trump"}[kind]

    @property
    def where(self) -> str:
        mine = self.holding.where + (f", {TRUMPS_HELD}" if self.contract.denomination < 4 else "")
        return f"{self.contract.where}; seat {LEADER}: {mine}"


def cells(quick: bool = False) -> list[Cell]:
    """Every cell of the chart: the no-trump contract with the long-suit holdings, the suit
    contract with every holding."""
    return [Cell(c, h) for c in CONTRACTS for h in HOLDINGS if not (h.suit_only and c.denomination == 4)]


def task_seed(seed: int, cell: Cell) -> int:
    """The seed of a cell's deals (the same whatever the chart's size)."""
    return seed_of(GAME, "leads", seed, cell.contract.name, cell.holding.key)


# ---------------------------------------------------------------- which card each kind leads
def _suit_cards(hand: int, suit: int) -> list[int]:
    """Card indices of ``suit`` in ``hand``, highest first."""
    bits = (hand >> (16 * suit)) & 0xFFFF
    return [16 * suit + r for r in range(15, -1, -1) if bits >> r & 1]


def _fourth(cards: list[int]) -> int:
    return cards[3] if len(cards) >= 4 else cards[-1]


def lead_card(hand: int, kind: str, suit: int, trump: int) -> int:
    """The card (index) the leader leads for ``kind`` (:data:`KINDS`) holding ``hand`` (bit set),
    the class's suit ``suit`` and trump ``trump`` (0..3, 4 = no-trump); -1 where he has none."""
    if kind == "top":
        cards = _suit_cards(hand, suit)
        return cards[0] if cards else -1
    if kind == "low":
        cards = _suit_cards(hand, suit)
        return _fourth(cards) if cards else -1
    if kind == "trump":
        cards = _suit_cards(hand, trump) if trump < 4 else []
        return cards[-1] if cards else -1
    others = [s for s in range(4) if s != suit and s != trump and _suit_cards(hand, s)]
    if not others:
        return -1
    hcp = lambda s: sum(max(0, (c & 15) - 8) for c in _suit_cards(hand, s))  # noqa: E731 - A 4 K 3 Q 2 J 1
    best = max(others, key=lambda s: (len(_suit_cards(hand, s)), hcp(s), -s))
    return _fourth(_suit_cards(hand, best))


# ---------------------------------------------------------------- the work
def cell_task(cell: Cell, seed: int, start: int, count: int) -> pd.DataFrame:
    """Deals ``start .. start+count-1`` of one cell: per deal (``deal`` int64) the defenders' DD
    tricks after each kind's lead (int8 columns named by kind, -1 where the leader has no such
    card), ``best`` (int8, after the best lead of all his cards) and ``best_cards`` (int8, how many
    of his cards reach it)."""
    given = {LEADER: cell.holding.given} if cell.holding.given else {}
    cond = Conditions(GAME, hands=given, classes=parse_classes(GAME, cell.where))
    dealt = deal_chunk(compile_conditions(cond), task_seed(seed, cell), start, count)
    values = lead_values(dealt.hands, DECLARER, cell.contract.denomination)
    # cardsim's denominations S C D H NT = 0..4 are its suits 0..3 (cardsim.cards) and no-trump
    suit, trump = SUITS.index(cell.holding.suit), cell.contract.denomination
    out = {"deal": np.arange(start, start + count, dtype=np.int64)}
    for kind in cell.kinds:
        col = np.full(count, -1, dtype=np.int8)
        for i in range(count):
            c = lead_card(int(dealt.hands[i, LEADER]), kind, suit, trump)
            if c >= 0:
                col[i] = values[i, c]
        out[kind] = col
    out["best"] = values.max(axis=1).astype(np.int8)
    out["best_cards"] = (values == out["best"][:, None]).sum(axis=1).astype(np.int8)
    return pd.DataFrame(out)


def run(cells_: list[Cell], deals: int, seed: int, n_jobs: int = -1, results=None, log=print) -> dict:
    """``{(contract, holding key): per-deal frame}`` of every cell on ``deals`` deals, the tasks on
    all cores; ``results``: a folder keeping each finished task (an interrupted run resumes)."""
    tasks = [(c, seed, s, min(CHUNK, deals - s)) for c in cells_ for s in range(0, deals, CHUNK)]
    store = analysis_store(results, "vint_leads", cell_task, deals=deals, seed=seed,
                           cells=[(c.contract.name, c.holding.key, c.where, c.holding.given) for c in cells_])
    parts = list(run_chunks(cell_task, tasks, [t[-1] for t in tasks], n_jobs, False, store,
                            seconds=0.08 * deals * len(cells_)))
    out: dict = {}
    for (c, *_), part in zip(tasks, parts):
        key = (c.contract.name, c.holding.key)
        out[key] = part if key not in out else pd.concat([out[key], part], ignore_index=True)
    log(f"vint leads: {len(cells_)} cells x {deals:,} deals")
    return out


# ---------------------------------------------------------------- tables
def _interval(x: np.ndarray) -> tuple:
    x = np.asarray(x, dtype=np.float64)
    mean, se, lo, hi = mean_interval(x.sum(), (x ** 2).sum(), len(x))
    return float(mean), float(se), float(lo), float(hi)


def tables(per_cell: dict, cells_: list[Cell]) -> dict:
    """The chart's tables from :func:`run`'s frames: ``vint_leads`` (one row per cell and lead kind)
    and ``vint_leads_chart`` (one row per cell: its best lead and gain); columns in
    :data:`GLOSSARY`."""
    long, chart = [], []
    for cell in cells_:
        df = per_cell[(cell.contract.name, cell.holding.key)]
        kinds = [k for k in cell.kinds if (df[k] >= 0).all()]  # every deal of the cell has each kind's card
        even = (df.deal % 2 == 0).to_numpy()
        means_even = {k: df[k].to_numpy()[even].mean() for k in kinds}
        order = sorted(kinds, key=lambda k: (-means_even[k], kinds.index(k)))
        best, runner = order[0], order[1]
        for k in kinds:
            v = df[k].to_numpy(np.float64)
            m, _, lo, hi = _interval(v)
            d, _, dlo, dhi = _interval(v - df[best].to_numpy(np.float64))
            long.append({"contract": cell.contract.name, "hand": cell.holding.label, "kind": k,
                         "lead": cell.option(k), "deals": len(df), "tricks": m, "tricks_lo": lo, "tricks_hi": hi,
                         "vs_best": d, "vs_best_lo": dlo if k != best else 0.0, "vs_best_hi": dhi if k != best else 0.0,
                         "dd_best": float((df[k] == df.best).mean()), "best": k == best})
        gain = (df[best] - df[runner]).to_numpy(np.float64)[~even]
        g, se, glo, ghi = _interval(gain)
        ceiling, _, _, _ = _interval(df.best.to_numpy(np.float64))
        chart.append({"contract": cell.contract.name, "hand": cell.holding.label, "best": cell.option(best),
                      "best_kind": best, "runner_up": cell.option(runner), "gain": g, "gain_lo": glo, "gain_hi": ghi,
                      "p_value": float(p_above(g, se, len(gain))), "n": int(len(gain)),
                      "tricks_best": float(df[best].mean()), "ceiling": ceiling,
                      "best_dd_best": float((df[best] == df.best).mean()), "deals": len(df)})
    chart_df = pd.DataFrame(chart)
    chart_df.insert(list(chart_df.columns).index("p_value") + 1, "clear", chart_clear(chart_df.p_value.to_numpy()))
    return {"vint_leads_chart": chart_df, "vint_leads": pd.DataFrame(long)}


def answer(chart: pd.DataFrame) -> str:
    """The section's answer in words, from the chart's rows: per contract, each hand's best lead
    with its gain over the next lead (tricks, 95% interval) and whether it is clear."""
    parts = []
    for contract, rows in chart.groupby("contract", sort=False):
        items = []
        for r in rows.itertuples():
            interval = f" [{r.gain_lo:+.2f}, {r.gain_hi:+.2f}]" if r.gain_lo == r.gain_lo else ""
            if r.gain > 0:
                items.append(f"{r.hand}: {r.best}, {r.gain:+.2f} tricks{interval} over {r.runner_up}"
                             f"{'' if r.clear else ' (not clear)'}")
            else:  # picked on the even deals, no better on the odd ones
                items.append(f"{r.hand}: {r.best} or {r.runner_up} ({r.gain:+.2f} tricks{interval}, no clear best)")
        parts.append(f"Against {contract_name(contract)} lead: " + "; ".join(items) + ".")
    return (" ".join(parts) + " Each gain is the defenders' double-dummy tricks after the best lead minus after the "
            "next best, 95% interval, on deals not used to pick the best; not clear: the interval does not "
            "exclude no gain (Benjamini-Hochberg over the chart). Double-dummy leads: the rest is played with "
            "every hand open, so no player profile enters.")


def contract_name(contract: str) -> str:
    """``3NT``, ``4\u2665`` for people."""
    return contract if contract.endswith("NT") else contract[:-1] + SYMBOL[contract[-1]]


def figures(long: pd.DataFrame, chart: pd.DataFrame, outdir, name: str = "vint_leads.png") -> list:
    """One panel per contract: rows the leader's hands, columns the lead kinds; each cell the
    defenders' mean DD tricks and the paired difference to the row's best lead (shade), the best
    boxed (``*``: not clear)."""
    plt = pyplot()

    if long.empty:
        return []
    contracts = list(dict.fromkeys(long.contract))
    rows_max = long.groupby("contract").hand.nunique().max()
    fig, axes = plt.subplots(1, len(contracts), figsize=(5.2 * len(contracts), 0.62 * rows_max + 2.2), squeeze=False)
    for ax, contract in zip(axes[0], contracts):
        rows = long[long.contract == contract]
        hands_ = list(dict.fromkeys(rows.hand))
        kinds = [k for k in KINDS if k in set(rows.kind)]
        m = np.full((len(hands_), len(kinds)), np.nan)
        for y, x in np.argwhere(np.ones_like(m, dtype=bool)):
            if not ((rows.hand == hands_[y]) & (rows.kind == kinds[x])).any():
                ax.text(x, y, "\u2014", ha="center", va="center", fontsize=8, color="#888")
        for r in rows.itertuples():
            y, x = hands_.index(r.hand), kinds.index(r.kind)
            m[y, x] = r.vs_best
            clear = bool(chart[(chart.contract == contract) & (chart.hand == r.hand)].clear.iloc[0])
            mark = "" if clear or not r.best else "*"
            ax.text(x, y, f"{r.tricks:.2f}{mark}\n{'best' if r.best else f'{r.vs_best:+.2f}'}", ha="center",
                    va="center", fontsize=8, fontweight="bold" if r.best else "normal")
            if r.best:
                frame_cell(ax, x, y)
        ax.imshow(np.ma.masked_invalid(-m), cmap="Reds", vmin=0, vmax=1.2, aspect="auto")
        ticks = [KIND_TEXT[k].replace(" of the ", "\nof the ").replace(" (", "\n(") for k in kinds]
        ax.set_xticks(range(len(kinds)), ticks, fontsize=7)
        ax.set_yticks(range(len(hands_)), hands_, fontsize=8)
        ax.set_title(f"against {contract_name(contract)}: "
                     "defenders' DD tricks", fontsize=9)
    fig.suptitle("Vint: which card to lead (double-dummy leads; shade: tricks lost to the best lead)", fontsize=10)
    fig.tight_layout()
    return [save_figure(fig, Path(outdir) / name)]


GLOSSARY = {
    "contract": "the contract placed (declarer seat 2, the leader seat 3 on his left): 3NT (15-17 balanced opposite "
                "10-15 balanced) or 4H (5+ hearts and 12-18 opposite 3+ hearts and 8-13); against 4H the leader "
                "holds one to three trumps",
    "hand": "the leader's class: the holding in the class's suit (spades; clubs for the short suits), the rest of "
            "his hand random",
    "kind / lead": "the lead compared: top of the class's suit; its 4th best (low from two or three); 4th best of "
                   "his longest other suit (not trumps; ties to the stronger suit); a low trump",
    "tricks": "the defenders' double-dummy tricks after that lead, mean over the cell's deals, 95% interval",
    "vs_best": "the lead's tricks minus the cell's best lead's on the same deals (paired), 95% interval",
    "dd_best": "share of deals where the lead gives up nothing against the best card the leader could have led",
    "best / runner_up / gain": "the chart: the lead with the most defenders' tricks on the even-numbered deals, the "
                               "next one, and the best's gain over it on the odd deals (tricks, 95% interval)",
    "p_value / clear": "one-sided p-value of the gain; clear by Benjamini-Hochberg over the chart's cells (2.5%)",
    "tricks_best / ceiling / best_dd_best": "the best lead's mean tricks; the mean tricks after the DD-best card "
                                            "(the most any lead could take); the share of deals where the best "
                                            "kind is also a DD-best card",
}
NOTES = [
    "Double-dummy leads: after the lead every hand is open and both sides play perfectly (DDS), so the chart "
    "does not depend on the strategies or the player profiles; it slightly favours active leads (a declarer "
    "never misguesses).",
    "The contract is placed, not bid: the deals are those where the declaring side holds what the contract "
    "needs (its classes) and the leader's hand is in the class; the leader's partner is unconstrained.",
]
LEGENDS = {
    "vint_leads.png": "For each hand of the leader (rows) and lead (columns): the defenders' mean double-dummy tricks "
                      "after that lead and, below, the difference to the best lead of that hand on the same deals "
                      "(the redder, the more the lead gives away). The best lead is boxed; * marks a best lead that "
                      "is not clearly better than the next one. The best is chosen on half of the deals and its gain "
                      "measured on the other half, so another lead may show a slightly higher mean over all of "
                      "them; \u2014: no such lead (a singleton has no low card).",
}
METHOD = ("Vint: which card to lead. Double-dummy leads (the standard measure of leads in bridge): deals where "
          "the contract suits the declaring side's hands and the leader's hand is in the class, every lead "
          "valued by DDS with all hands open afterwards; the lead kinds are paired on the same deals, the best "
          "chosen on the even deals and its gain measured on the odd ones.")
