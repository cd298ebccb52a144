"""How good are the strategies?  Each strategy's play measured against double-dummy.

For each strategy measured (by default every strategy the game registers, ``random`` the floor),
that strategy plays ALL seats of the same deals (same seed, deal ids ``0 .. n-1``), and every
declared deal is compared with its double-dummy (DD) value (:mod:`cardsim.dd`):

* ``vs_dd``: the declaring side's result minus the DD result of the same contract, mean per
  declared deal with a 95% normal interval (``vs_dd_lo``, ``vs_dd_hi``).  Vint and Five
  Hundred: tricks; 501: the declarer's deal points (cards + effective marriages, docs/RULES.md
  §1.5-§1.7).  It measures both sides' play at once: declarer's mistakes push it down, the
  defenders' mistakes push it up (the same strategy defends), so 0 is "plays like DD on both
  sides", not an upper bound.
* ``dd_makeable``: share of declared contracts the DD result reaches (Vint: level + 6 tricks;
  500: level tricks; 501: the target); ``made``: share made in play.  Wilson 95% intervals.
* Vint only (the whole DD table is solved: 4 declarers x 5 denominations, docs/RULES.md §2.3):
  ``right_side``: share of declared deals where the declaring side is the side with the better
  DD result, i.e. its best DD tricks (max over its two declarers and the five denominations) are
  at least the other side's best (ties count as found); ``best_denomination``: share where the
  contract's denomination gives the declarer the most DD tricks of the five.  In 501 (one
  declarer against two) and Five Hundred (the other side never sees the kitty) the other side
  has no DD result from the same position, so these columns are NaN there.

Cost: the DD solver dominates (Vint: DDS, one table per deal for all strategies; 501 and 500:
one solve per deal and strategy, since the talon / kitty change hands with the auction).
What each game measures is its spec's ``dd.quality`` hook (:class:`cardsim.games.base.DDHooks`).
"""
from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd

from cardsim.dd import quality_frames
from cardsim.games import get_game
from cardsim.games.base import OptionError, as_list
from cardsim.names import DENOMINATIONS
from cardsim.runner.run import check_run_seed
from cardsim.runner.store import run_chunks
from cardsim.stats import mean_interval, wilson
from cardsim.text import quote

CHUNK = 50
"""Deals per task: small, since one DD solve of a 501 deal can take a second."""

BY = ("band", "denomination", "level")
"""Columns the longer table can be split by (``cardsim quality --by band,denomination``):
``band`` the contract's height band of the game (:class:`cardsim.games.base.ContractBands` on
its spec: Vint levels 1-3, 4-5, 6-7; Five Hundred 6-7, 8-10; 501 targets 66-99, 100-119,
120-220 card points)."""

SUMMARY_COLUMNS = ["strategy", "deals", "n", "vs_dd", "vs_dd_lo", "vs_dd_hi", "dd_makeable", "dd_makeable_lo",
                   "dd_makeable_hi", "made", "made_lo", "made_hi", "right_side", "right_side_lo",
                   "right_side_hi", "best_denomination"]
"""Columns of :func:`quality`'s table (after the ``by`` columns): ``deals`` played, ``n``
declared (the base of every mean and rate)."""

def unit(game) -> str:
    """The unit of ``vs_dd`` of ``game`` (``"tricks"``, 501 ``"deal points"``): its DD hooks' ``unit``."""
    return _hooks(game).unit


def _hooks(game):
    spec = get_game(game)
    if spec.dd is None or spec.dd.quality is None:
        raise OptionError(f"{spec.name} has no double-dummy quality measurement")
    return spec.dd


def strategy_names(game) -> list[str]:
    """Every registered strategy of ``game`` (``cardsim strategies GAME``), ``random`` first, but
    those played from a table (501's ``chart``): without its table such a strategy is another
    strategy with one decision switched off, and with one it is measured by the analysis that
    made the table; and but the searching ones (``pimc``): ask for them by name, on a few
    hundred deals; and but ``rules``, which is a file's strategy (``rules:PATH``)."""
    names = [s.name for s in get_game(game).table.registry.strategies()
             if s.table is None and not s.search and not s.file]
    return sorted(names, key=lambda s: s != "random")


def check_request(game, n, strategies) -> tuple[str, list[str]]:
    """The game's name and the strategy specs measured (default every registered one).  Raises
    OptionError (n not a positive whole number, no strategy, a strategy named twice) or
    StrategyError (an unknown strategy or parameter), before any work."""
    spec = get_game(game)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise OptionError(f"n must be a positive whole number of deals, got {quote(n)}")
    names = strategy_names(spec.name) if strategies is None else as_list(strategies, "strategies (specs)")
    if not names:
        raise OptionError("name at least one strategy")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise OptionError(f"each strategy once: {', '.join(repeated)} named more than once")
    for name in names:
        spec.table.registry.resolve(name)  # StrategyError (one line) for an unknown name or parameter
    return spec.name, names


# ---------------------------------------------------------------- per-deal rows
def comparison_rows(game, name, ids, played, den, level, height, got, dd, made, makeable, right=None,
                    best=None) -> pd.DataFrame:
    """The per-deal rows of one strategy (:func:`deal_rows` columns) from its arrays, each [n]:
    ``played`` bool, ``den`` denomination / trump code, ``level`` the column's value, ``height``
    what the contract asks (the band's measure), ``got`` / ``dd`` the result in play / DD,
    ``made`` / ``makeable`` bool, ``right`` / ``best`` bool or None (NaN: the game has none)."""
    nan = np.full(len(ids), np.nan)
    return pd.DataFrame({
        "strategy": name, "deal": np.asarray(ids, dtype=np.int64), "declared": played,
        "band": get_game(game).facts.contract_bands.of(height, played), "height": np.where(played, height, 0),
        "denomination": np.where(played, den, -1).astype(np.int8), "level": np.where(played, level, 0),
        "result": got, "dd": dd, "made": made & played, "dd_makeable": makeable & played,
        "right_side": nan if right is None else right.astype(float),
        "best_denomination": nan if best is None else best.astype(float)})


def deal_chunk(game: str, names: tuple, seed: int, start: int, count: int) -> pd.DataFrame:
    """Per-deal comparison rows of deals ``start .. start+count-1`` for each strategy in ``names``
    (one task of :func:`deal_rows`; a plain function so worker processes can run it)."""
    ids = list(range(start, start + count))
    frames = quality_frames(game, names, seed, ids, functools.partial(comparison_rows, game))
    return pd.concat(frames, ignore_index=True)


def deal_rows(game, n: int, seed: int = 0, strategies=None, n_jobs: int = 1, progress=False, store=None) -> pd.DataFrame:
    """One row per (strategy, deal) for deals ``0 .. n-1`` of ``seed``: ``strategy`` (str),
    ``deal`` (int64), ``declared`` (bool), ``band`` (ordered categorical of the game's
    contract band labels, ``"1-3"`` …; missing when undeclared), ``height`` (int64, the band's
    measure: Vint and Five Hundred the level, 501 the target in card points; 0 undeclared), ``denomination`` (int8 code S C D H NT = 0..4; 501 the
    trump; -1 undeclared), ``level`` (Vint 1..7, 500 6..10, 501 the target's lower ten in points),
    ``result`` / ``dd`` (int64, the declaring side's tricks or the 501 declarer's deal points in
    play / double-dummy), ``made`` / ``dd_makeable`` (bool), ``right_side`` /
    ``best_denomination`` (float 0/1, Vint only).  ``store``: a :class:`cardsim.runner.store.ChunkStore`
    keeping finished chunks (an interrupted run resumes)."""
    game, names = check_request(game, n, strategies)
    return strategy_chunks(deal_chunk, game, names, n, seed, n_jobs, progress, store)


def strategy_chunks(chunk, game: str, names: list, n: int, seed, n_jobs, progress, store) -> pd.DataFrame:
    """``chunk(game, names, seed, start, count)`` (a plain function: worker processes run it) over
    deals ``0 .. n-1`` in chunks of :data:`CHUNK` (``store`` keeps finished ones), its rows
    concatenated and ordered by strategy (as ``names``) and deal.  Raises OptionError for a bad
    seed."""
    seed = check_run_seed(seed)
    tasks = [(game, tuple(names), seed, s, min(CHUNK, n - s)) for s in range(0, n, CHUNK)]
    parts = list(run_chunks(chunk, tasks, [t[-1] for t in tasks], n_jobs, progress, store))
    df = pd.concat(parts, ignore_index=True)
    order = {name: i for i, name in enumerate(names)}
    return df.sort_values(["strategy", "deal"], key=lambda s: s.map(order) if s.name == "strategy" else s,
                          kind="stable", ignore_index=True)


# ---------------------------------------------------------------- tables
def _rate(values: pd.Series, prefix: str) -> dict:
    v = values.dropna()
    if len(v) == 0:
        return {prefix: np.nan, f"{prefix}_lo": np.nan, f"{prefix}_hi": np.nan}
    lo, hi = wilson(v.sum(), len(v))
    return {prefix: float(v.mean()), f"{prefix}_lo": float(lo), f"{prefix}_hi": float(hi)}


def _summary(group: pd.DataFrame) -> dict:
    dec = group[group.declared]
    diff = (dec.result - dec.dd).to_numpy(np.float64)
    mean, _, lo, hi = mean_interval(diff.sum(), (diff ** 2).sum(), len(diff))
    out = {"deals": len(group), "n": len(dec), "vs_dd": float(mean), "vs_dd_lo": float(lo), "vs_dd_hi": float(hi)}
    out.update(_rate(dec.dd_makeable.astype(float), "dd_makeable"))
    out.update(_rate(dec.made.astype(float), "made"))
    out.update(_rate(dec.right_side, "right_side"))
    out["best_denomination"] = float(dec.best_denomination.mean()) if dec.best_denomination.notna().any() else np.nan
    return out


def check_by(by) -> list[str]:
    """``by`` as a list, each a column of :data:`BY` named once; OptionError otherwise."""
    by = as_list(by, "by (column names)")
    bad = [b for b in by if b not in BY]
    if bad:
        raise OptionError(f"by takes {', '.join(BY)} (comma-separated), got {quote(', '.join(bad))}")
    repeated = sorted({b for b in by if by.count(b) > 1})
    if repeated:
        raise OptionError(f"by names each column once: {', '.join(repeated)} given more than once")
    return by


def check_levels(game, levels):
    """The contract heights ``levels`` keeps (``cardsim quality --level``) as ``(low, high)``, both
    inclusive, in the measure of the game's contract bands (Vint and Five Hundred: the contract's
    level, ``"4-7"`` or ``"4"``; 501: the target in card points, ``"100-119"``); None keeps every
    contract.  ``levels``: None, a string ``"L"`` or ``"L-H"``, a whole number, or a pair.  Raises
    OptionError (one line) for anything else, a range that runs backwards, or one that holds no
    height the game's contracts can have (:class:`cardsim.games.base.ContractBands`)."""
    if levels is None:
        return None
    bands = get_game(game).facts.contract_bands
    if isinstance(levels, str):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", levels)
        if m is None:
            raise OptionError(f"level takes a {bands.measure} or a range LOW-HIGH of whole numbers (e.g. "
                              f"{bands.labels[-1]}), got {quote(levels)}")
        lo, hi = int(m[1]), int(m[2] if m[2] is not None else m[1])
    else:
        pair = (levels, levels) if isinstance(levels, (int, np.integer)) else tuple(levels) \
            if isinstance(levels, (tuple, list)) else ()
        if len(pair) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in pair):
            raise OptionError(f"level takes a {bands.measure} or a pair (low, high) of whole numbers, got "
                              f"{quote(levels)}")
        lo, hi = int(pair[0]), int(pair[1])
    if lo > hi:
        raise OptionError(f"level range {lo}-{hi} runs backwards: write {hi}-{lo}")
    first, last = bands.bands[0][0], bands.bands[-1][1]
    if hi < first or lo > last:
        raise OptionError(f"{get_game(game).name} contracts have {bands.measure}s {first}-{last}: "
                          f"level {lo}-{hi} holds none")
    return lo, hi


def summarize(rows: pd.DataFrame, by=(), levels=None) -> pd.DataFrame:
    """The quality table of :func:`deal_rows` output: one row per strategy (and per value of the
    ``by`` columns, a subset of :data:`BY`, counting declared deals only), columns
    :data:`SUMMARY_COLUMNS`; ``denomination`` as its letter, ``band`` an ordered categorical of
    the game's band labels (bands without a declared deal have no row).  ``levels``: ``(low,
    high)`` from :func:`check_levels`, or None: only the declared deals whose ``height`` lies in
    it count (``n`` and every mean and rate; ``deals`` still counts every deal played)."""
    by = check_by(by)
    if levels is not None:
        rows = rows.assign(declared=rows.declared & rows.height.between(levels[0], levels[1]))
    if by:
        rows = rows[rows.declared]
    keys = ["strategy"] + by
    out = []
    for key, group in rows.groupby(keys, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        out.append({**dict(zip(keys, key)), **_summary(group)})
    table = pd.DataFrame(out, columns=keys + SUMMARY_COLUMNS[1:])
    if "denomination" in by:
        table["denomination"] = [DENOMINATIONS[int(d)] for d in table.denomination]
    if "band" in by:
        table["band"] = pd.Categorical(table.band, rows.band.cat.categories, ordered=True)
    if by:
        order = {name: i for i, name in enumerate(dict.fromkeys(rows.strategy))}
        table = table.sort_values(keys, key=lambda s: s.map(order) if s.name == "strategy" else s.map(
            {d: i for i, d in enumerate(DENOMINATIONS)}) if s.name == "denomination" else s, ignore_index=True)
    if not by:
        # Keep the strategies that declared nothing (all passed everywhere) visible.
        table = table.set_index("strategy").reindex(list(dict.fromkeys(rows.strategy))).reset_index()
    return table


def quality(game, n: int, seed: int = 0, strategies=None, by=(), n_jobs: int = 1, progress=False,
            store=None, levels=None) -> pd.DataFrame:
    """Strategy quality against double-dummy on deals ``0 .. n-1`` of ``seed`` (module docstring):
    a DataFrame with one row per strategy (``strategies``: specs, each playing every seat;
    default every registered strategy of the game) and per ``by`` group, columns
    :data:`SUMMARY_COLUMNS`; ``levels`` (:func:`check_levels`: ``"4-7"``, ``4``, ``(4, 7)``)
    keeps the declared contracts of those heights only (every deal is still solved).  Raises
    OptionError for a bad game / n / ``by`` / ``levels``, StrategyError for an unknown strategy
    (one-line messages)."""
    check_by(by)  # before the (slow) run
    levels = check_levels(game, levels)
    table = summarize(deal_rows(game, n, seed, strategies, n_jobs, progress, store), by, levels)
    table.attrs.update({"game": get_game(game).name, "deals": n, "seed": seed,
                        "unit": unit(game)})
    return table


__all__ = ["quality", "check_request", "check_by", "check_levels", "deal_rows", "summarize", "strategy_names", "deal_chunk", "SUMMARY_COLUMNS", "BY", "unit",
           "comparison_rows"]
