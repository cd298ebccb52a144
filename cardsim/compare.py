"""Paired comparisons of strategies on common random numbers (DESIGN.md property 2).

Every variant plays exactly the baseline's deals (deal ``i`` of the same seed), so the
difference of a per-deal measure has the variance of the difference, not of each run.  Runs
are chunked and aggregated as partial sums, so memory stays bounded at any ``n_deals``.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from cardsim import frames
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.runner.files import transform_id
from cardsim.runner.pool import deal_seconds, using
from cardsim.runner.run import DEFAULT_CHUNK, make_run, rows_frame
from cardsim.runner.store import ChunkStore, run_chunks
from cardsim.stats import mean_interval
from cardsim.text import quote


def _as_frame(values, n_rows: int) -> pd.DataFrame:
    """The measure's output as float64 columns, one value per deal; raises OptionError otherwise."""
    try:
        if isinstance(values, pd.DataFrame):
            frame = values.astype(np.float64)
        else:
            frame = pd.DataFrame({getattr(values, "name", None) or "value": np.asarray(values, dtype=np.float64)})
    except (TypeError, ValueError) as exc:
        raise OptionError(f"the measure must return numbers, one per deal: {exc}") from None
    if len(frame) != n_rows:
        raise OptionError(f"the measure returned {len(frame)} values for {n_rows} deals: it must give one per "
                          "deal (use 0/1 indicators or products rather than filtering rows)")
    if frame.isna().to_numpy().any():
        raise OptionError("the measure returned missing values (NaN / <NA>) for some deals: give every deal a "
                          "number (a column missing on deals nobody declared, such as made, needs "
                          ".fillna(False) or .fillna(0))")
    return frame


def _rows(setup, seed, start, count) -> pd.DataFrame:
    """The typed frame (:mod:`cardsim.frames`) of deals ``start .. start+count-1`` under ``setup``."""
    return frames.deals(setup.game, rows_frame(get_game(setup.game).simulate_chunk(seed, start, count, setup)),
                        setup.seats)


def _chunk_sums(setups, seed, start, count, measure):
    """Sums over one chunk, per variant and measure column: n, Σx, Σx², Σd, Σd² (d = x − baseline)."""
    base = _as_frame(measure(_rows(setups[0], seed, start, count)), count).to_numpy()
    out = np.zeros((len(setups), base.shape[1], 5))
    for v, setup in enumerate(setups):
        x = base if v == 0 else _as_frame(measure(_rows(setup, seed, start, count)), count).to_numpy()
        d = x - base
        out[v] = np.stack([np.full(x.shape[1], len(x)), x.sum(0), (x * x).sum(0), d.sum(0), (d * d).sum(0)], axis=1)
    return out


def compare(game, n_deals, baseline, variants: dict, measure: Callable[[pd.DataFrame], object], seed=0,
            seats=None, rules=None, n_jobs=-1, chunk_size=DEFAULT_CHUNK, level=0.95, store=None, progress=False,
            client=None) -> pd.DataFrame:
    """Play ``n_deals`` deals under ``baseline`` and under each of ``variants`` (name → strategies,
    in any form ``simulate`` takes) and compare ``measure(rows)`` deal by deal.

    ``measure`` maps a chunk's rows (the typed frame :func:`cardsim.simulate` returns, ``cardsim
    columns GAME``) to one number per deal (a Series, e.g. ``lambda df: df.delta_0``) or to
    several (a DataFrame, one column each): every deal must get a number (filtering rows would
    break the pairing; use 0/1 indicators instead, and fill columns missing on undeclared deals:
    ``df.made.fillna(False)``).  Returns one row per variant (``variant`` an ordered categorical,
    the baseline first) and measure: ``n``, ``mean``, ``diff`` (mean paired difference variant −
    baseline), ``diff_se``, ``diff_lo``/``diff_hi`` (normal interval at ``level``) and
    ``significant`` (the interval excludes 0).  Units are the measure's.  ``n_jobs``,
    ``client``: as for :func:`cardsim.simulate`.  ``store``: a folder keeping each chunk's sums
    (kept afterwards), so the same call after an interruption resumes and a repeated call
    reads them; the measure is identified by its name and a hash of its module's source.
    Raises OptionError / StrategyError for bad arguments (a measure returning missing values
    included), OutputError when ``store`` holds another comparison.
    """
    if not isinstance(variants, dict) or not variants:
        raise OptionError("variants must be a non-empty dict: name -> strategies")
    if "baseline" in variants:
        raise OptionError("'baseline' names the baseline; give the variant another name")
    if not 0 < level < 1:
        raise OptionError(f"level must be between 0 and 1 (e.g. 0.95), got {quote(level)}")
    if not callable(measure):
        raise OptionError("measure must be a function of the rows (a DataFrame)")
    names = ["baseline"] + list(variants)
    runs = [make_run(game, n_deals, seed, s, seats, rules, chunk_size) for s in [baseline, *variants.values()]]
    setups = [r.setup for r in runs]
    columns = list(_as_frame(measure(_rows(setups[0], runs[0].seed, 0, 1)), 1).columns)
    chunks = runs[0].chunks()
    keep = None
    if store is not None:
        keep = ChunkStore(store, dict(runs[0].manifest(), kind="compare", variants=names,
                                      strategies=[list(s.specs) for s in setups], measure=transform_id(measure)))
    total = np.zeros((len(setups), len(columns), 5))
    with using(client):
        for part in run_chunks(_chunk_sums, [(setups, runs[0].seed, start, count, measure) for _, start, count in chunks],
                               [c for _, _, c in chunks], n_jobs, progress, keep,
                               seconds=deal_seconds(game, runs[0].n * len(setups))):
            total += part  # in chunk order: the same float sums however the run was split or resumed
    n, s, s2, d, d2 = np.moveaxis(total, 2, 0)
    mean, _, _, _ = mean_interval(s, s2, n, level)
    diff, se, lo, hi = mean_interval(d, d2, n, level)
    base = np.arange(len(names)) == 0
    table = pd.DataFrame({
        "variant": pd.Categorical(np.repeat(names, len(columns)), categories=names, ordered=True),
        "measure": np.tile(columns, len(names)),
        "n": n.ravel().astype(np.int64), "mean": mean.ravel(),
        "diff": np.where(np.repeat(base, len(columns)), 0.0, diff.ravel()),
        "diff_se": np.where(np.repeat(base, len(columns)), 0.0, se.ravel()),
        "diff_lo": np.where(np.repeat(base, len(columns)), 0.0, lo.ravel()),
        "diff_hi": np.where(np.repeat(base, len(columns)), 0.0, hi.ravel()),
    })
    table["significant"] = (table.diff_lo > 0) | (table.diff_hi < 0)
    table.attrs.update(runs[0].manifest())
    return table
