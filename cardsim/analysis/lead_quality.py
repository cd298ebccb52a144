"""How good are the strategies' opening leads?  Each lead against double dummy.

For each strategy measured, that strategy plays all seats of deals ``0 .. n-1`` (as in
:mod:`cardsim.analysis.quality`), and on every deal with play the opening lead is compared with
the double-dummy (DD) value of every card the leader could have led (the game's
``dd.lead_values`` hook, :class:`cardsim.games.base.DDHooks`; Vint: one DDS SolveBoard per deal
gives every lead's value):

* ``dd_best``: share of opening leads that give up nothing against DD (the lead's value for the
  defenders equals the best lead's), Wilson 95% interval.  Bridge's yardstick: expert leads
  are DD-best about 81% of the time, random leads about 67% (in bridge most leads cost nothing:
  many cards are equivalent, and a cost shows only where the defence could have done better);
* ``lead_cost``: what the lead gave up, mean per lead in the game's unit (Vint: tricks) with a
  95% normal interval;
* ``random_lead``: the floor on the same deals, computed exactly rather than played: the share
  of the leader's cards that are DD-best, averaged over the deals (the chance that a lead drawn
  uniformly from his cards is DD-best), 95% normal interval over the deals.  It is measured on
  each strategy's own deals (the contracts differ by strategy), so compare a strategy's
  ``dd_best`` with its own ``random_lead``;
* ``vs_random``: ``dd_best`` minus ``random_lead``, paired deal by deal (the lead's 0/1 minus the
  deal's share of DD-best cards), 95% normal interval: what the strategy's choice of lead adds
  to a random card's on the same deals.

A deal without play (nobody bid) has no lead and is left out (``n`` counts the leads).  Cost:
one DD solve per deal and strategy (the contract, hence the leader and the trump, depend on the
strategy's auction); Vint solves a position two strategies share once.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis.plots import pyplot, save_figure
from cardsim.analysis.quality import CHUNK  # deals per task, as the quality section's other runs
from cardsim.analysis.quality import check_request, strategy_chunks
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.stats import mean_interval, wilson

COLUMNS = ["strategy", "deals", "n", "dd_best", "dd_best_lo", "dd_best_hi", "lead_cost", "lead_cost_lo",
           "lead_cost_hi", "random_lead", "random_lead_lo", "random_lead_hi", "vs_random", "vs_random_lo",
           "vs_random_hi"]
"""The columns of :func:`summarize`."""

YARDSTICK = {"experts": 0.81, "random": 0.67}
"""Bridge's shares of DD-best opening leads (experts, random leads): the text's yardstick."""


def offered(game) -> bool:
    """Whether ``game`` gives the DD value of every opening lead (its ``dd.lead_values`` hook)."""
    dd = get_game(game).dd
    return dd is not None and dd.lead_values is not None


def lead_chunk(game: str, names: tuple, seed: int, start: int, count: int) -> pd.DataFrame:
    """One task of :func:`deal_rows`: the per-lead rows of deals ``start .. start+count-1`` for
    each strategy in ``names`` (a plain function, so worker processes can run it)."""
    spec = get_game(game)
    if not offered(spec.name):
        raise OptionError(f"{spec.name} has no double-dummy values of the opening lead")
    ids = list(range(start, start + count))
    out = []
    records = {name: cardsim.records(spec.name, ids, seed, name) for name in names}  # result already set
    # one call for every strategy's records, so a hook can solve a position two strategies share once
    every = spec.dd.lead_values([rec for name in names for rec in records[name]])
    for j, name in enumerate(names):
        for deal, rec, values in zip(ids, records[name], every[j * count:(j + 1) * count]):
            if values is None:
                out.append((name, deal, False, "", -1, -1, np.nan))
                continue
            lead = str(rec["play"][0])
            top = max(values.values())
            share = sum(v == top for v in values.values()) / len(values)
            out.append((name, deal, True, lead, values[lead], top, share))
    df = pd.DataFrame(out, columns=["strategy", "deal", "declared", "lead", "value", "best_value", "best_share"])
    return df.astype({"deal": np.int64, "value": np.int64, "best_value": np.int64})


def deal_rows(game, n: int, seed: int = 0, strategies=None, n_jobs: int = 1, progress=False,
              store=None) -> pd.DataFrame:
    """One row per (strategy, deal) of deals ``0 .. n-1`` of ``seed``: ``strategy`` (str), ``deal``
    (int64), ``declared`` (bool: the deal was played), ``lead`` (the opening lead's token, '' without
    play), ``value`` / ``best_value`` (int64, the defenders' DD result after that lead / after the
    best lead, -1 without play), ``best_share`` (float, the share of the leader's cards that are
    DD-best; NaN without play).  ``strategies``: specs (default every registered strategy that is
    not searching or table-driven, :func:`cardsim.analysis.quality.strategy_names`); ``store``: a
    :class:`cardsim.runner.store.ChunkStore` (an interrupted run resumes).  Raises OptionError /
    StrategyError (one line) before any work."""
    game, names = check_request(game, n, strategies)
    if not offered(game):
        raise OptionError(f"{game} has no double-dummy values of the opening lead")
    return strategy_chunks(lead_chunk, game, names, n, seed, n_jobs, progress, store)


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """The lead-quality table of :func:`deal_rows` output: one row per strategy (in the rows'
    order), columns :data:`COLUMNS`; ``deals`` played, ``n`` leads (the base of every share)."""
    out = []
    for name, group in rows.groupby("strategy", sort=False):
        led = group[group.declared]
        n = len(led)
        best = (led.value == led.best_value).to_numpy()
        cost = (led.best_value - led.value).to_numpy(np.float64)
        share = led.best_share.to_numpy(np.float64)
        lo, hi = wilson(int(best.sum()), n) if n else (np.nan, np.nan)
        c_mean, _, c_lo, c_hi = mean_interval(cost.sum(), (cost ** 2).sum(), n)
        r_mean, _, r_lo, r_hi = mean_interval(share.sum(), (share ** 2).sum(), n)
        gain = best - share
        g_mean, _, g_lo, g_hi = mean_interval(gain.sum(), (gain ** 2).sum(), n)
        out.append({"strategy": name, "deals": len(group), "n": n, "dd_best": best.mean() if n else np.nan,
                    "dd_best_lo": float(lo), "dd_best_hi": float(hi), "lead_cost": float(c_mean),
                    "lead_cost_lo": float(c_lo), "lead_cost_hi": float(c_hi), "random_lead": float(r_mean),
                    "random_lead_lo": float(r_lo), "random_lead_hi": float(r_hi), "vs_random": float(g_mean),
                    "vs_random_lo": float(g_lo), "vs_random_hi": float(g_hi)})
    return pd.DataFrame(out, columns=COLUMNS)


def figure(table: pd.DataFrame, path, title: str):
    """A bar per strategy: its share of DD-best opening leads (95% interval), beside the exact
    random-lead floor on its deals; bridge's yardsticks as dashed lines.  Returns ``path``."""
    plt = pyplot()

    t = table.iloc[::-1].reset_index(drop=True)  # the first strategy on top
    y = np.arange(len(t))
    fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(t) + 2.0))
    err = np.vstack([t.dd_best - t.dd_best_lo, t.dd_best_hi - t.dd_best]).clip(min=0)
    ax.barh(y + 0.18, t.dd_best, height=0.36, color="#4a78b0", xerr=err, capsize=3, label="the strategy's lead")
    rerr = np.nan_to_num(np.vstack([t.random_lead - t.random_lead_lo, t.random_lead_hi - t.random_lead])).clip(min=0)
    ax.barh(y - 0.18, t.random_lead, height=0.36, color="#bbbbbb", xerr=rerr, capsize=3,
            label="a random card of the leader (exact, same deals)")
    for yi, v, hi in zip(y, t.dd_best, t.dd_best_hi):
        if v == v:
            ax.text((hi if hi == hi else v) + 0.01, yi + 0.18, f"{100 * v:.0f}%", va="center", fontsize=8)
    for what, v, style, side in (("bridge experts", YARDSTICK["experts"], "--", "left"),
                                 ("bridge random", YARDSTICK["random"], ":", "right")):
        ax.axvline(v, color="#a33", ls=style, lw=1)
        ax.text(v + (0.005 if side == "left" else -0.005), len(t) - 0.4, f"{what} \u2248{100 * v:.0f}%", color="#a33",
                fontsize=7, ha=side)
    ax.set_yticks(y, [f"{s} (n = {n:,})" for s, n in zip(t.strategy, t.n)], fontsize=8)
    ax.set_xlim(0, 1.08)
    ax.set_ylim(-0.7, len(t) - 0.1)
    ax.set_xlabel("share of opening leads that give up no double-dummy trick")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=7, frameon=False)
    fig.tight_layout()
    return save_figure(fig, path)


__all__ = ["deal_rows", "summarize", "figure", "lead_chunk", "offered", "COLUMNS", "YARDSTICK", "CHUNK"]
