"""Paired comparisons of strategies on common random numbers (DESIGN.md property 2).

Every variant plays exactly the baseline's deals (deal ``i`` of the same seed), so the
difference of a per-deal measure has the variance of the difference, not of each run; whole
games (:func:`compare_matches`; with the partnerships exchanged, :mod:`cardsim.match_compare`)
are paired per match the same way.  Runs are chunked and aggregated as partial sums, so memory
stays bounded at any ``n_deals``.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from cardsim import frames
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.rules import digests
from cardsim.runner.files import transform_id
from cardsim.runner.pool import deal_seconds, match_seconds, using
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
    return frames.deals(setup.game, rows_frame(get_game(setup.game).play.simulate_chunk(seed, start, count, setup)),
                        setup.seats)


def chunk_sums(setups, seed, start, count, measure):
    """Worker: sums over deals ``start`` to ``start + count - 1`` of ``seed``, each played under
    every one of ``setups`` (the baseline first): float64[variants, measure columns, 5] holding
    n, Σx, Σx², Σd, Σd² (x the column of ``measure``'s frame of the rows, d = x − baseline's)."""
    base = _as_frame(measure(_rows(setups[0], seed, start, count)), count).to_numpy()
    out = np.zeros((len(setups), base.shape[1], 5))
    for v, setup in enumerate(setups):
        x = base if v == 0 else _as_frame(measure(_rows(setup, seed, start, count)), count).to_numpy()
        d = x - base
        out[v] = np.stack([np.full(x.shape[1], len(x)), x.sum(0), (x * x).sum(0), d.sum(0), (d * d).sum(0)], axis=1)
    return out


def _check_comparison(variants, level, measure, rows: str) -> None:
    """The arguments :func:`compare` and :func:`compare_matches` share; raises OptionError in one
    line (``rows``: what ``measure`` is a function of, for the message)."""
    if not isinstance(variants, dict) or not variants:
        raise OptionError("variants must be a non-empty dict: name -> strategies")
    if "baseline" in variants:
        raise OptionError("'baseline' names the baseline; give the variant another name")
    if not 0 < level < 1:
        raise OptionError(f"level must be between 0 and 1 (e.g. 0.95), got {quote(level)}")
    if not callable(measure):
        raise OptionError(f"measure must be a function of the {rows} (a DataFrame)")


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
    _check_comparison(variants, level, measure, "rows")
    names = ["baseline"] + list(variants)
    runs = [make_run(game, n_deals, seed, s, seats, rules, chunk_size) for s in [baseline, *variants.values()]]
    setups = [r.setup for r in runs]
    columns = list(_as_frame(measure(_rows(setups[0], runs[0].seed, 0, 1)), 1).columns)
    chunks = runs[0].chunks()
    keep = None
    if store is not None:
        keep = ChunkStore(store, dict(runs[0].manifest(), kind="compare", variants=names,
                                      strategies=[list(s.specs) for s in setups],
                                      rule_files=digests(sum((s.specs for s in setups), ())),
                                      measure=transform_id(measure)))
    total = np.zeros((len(setups), len(columns), 5))
    with using(client):
        for part in run_chunks(chunk_sums,
                               [(setups, runs[0].seed, start, count, measure) for _, start, count in chunks],
                               [c for _, _, c in chunks], n_jobs, progress, keep,
                               seconds=deal_seconds(game, runs[0].n * len(setups))):
            total += part  # in chunk order: the same float sums however the run was split or resumed
    return _table(total, names, columns, level, runs[0].manifest())


# ---------------------------------------------------------------- whole games, paired per match
def win_share(matches: pd.DataFrame) -> pd.Series:
    """Seat 0's side's share of each match's win (float64, 0..1): Five Hundred and Vint, team 0's
    (``winner`` 0 → 1, 1 → 0, none → 0.5); 501, seat 0's share among the winners
    (``win_0 / n_winners``; 0.5 for a game without any).  The default measure of
    :func:`compare_matches`."""
    if "winner" in matches:
        w = matches["winner"].to_numpy(dtype=np.float64, na_value=-1.0)
        share = np.where(w < 0, 0.5, (w == 0).astype(np.float64))
    elif "win_0" in matches:
        won = matches["win_0"].to_numpy(dtype=np.float64, na_value=0.0)
        n = matches["n_winners"].to_numpy(dtype=np.float64)
        share = np.where(n > 0, won / np.maximum(n, 1.0), 0.5)
    else:
        raise OptionError("win_share needs a match frame with winner (Five Hundred, Vint) or win_0 (501)")
    return pd.Series(share, index=matches.index, name="win_share")


def _match_sums(setups, seed, start, count, start_state, measure):
    """Sums over one chunk of matches, per setup and measure column: n, Σx, Σx², Σd, Σd²
    (d = x − the first setup's x, match by match)."""
    spec = get_game(setups[0].game)
    base = None
    out = None
    for v, setup in enumerate(setups):
        rows, _ = spec.matches.play(seed, start, count, setup, **start_state)
        x = _as_frame(measure(frames.matches(setup.game, rows, setup.seats)), count).to_numpy()
        if base is None:
            base = x
            out = np.zeros((len(setups), x.shape[1], 5))
        d = x - base
        out[v] = np.stack([np.full(x.shape[1], len(x)), x.sum(0), (x * x).sum(0), d.sum(0), (d * d).sum(0)], axis=1)
    return out


def compare_matches(game, n_matches, baseline, variants: dict, measure: Callable[[pd.DataFrame], object] = win_share,
                    seed=0, seats=None, rules=None, before=None, dealer=None, n_jobs=-1, chunk_size=10_000,
                    level=0.95, store=None, progress=False, client=None) -> pd.DataFrame:
    """Play ``n_matches`` whole matches (:func:`cardsim.play_match`) under ``baseline`` and under each
    of ``variants`` (name → strategies) with the same match seeds, and compare ``measure(matches)``
    match by match: :func:`compare` for games instead of deals.

    Match ``m`` of every line-up deals the same cards in the same order (its deals are keyed by
    ``(seed, m)``) from the same first dealer, so a per-match difference is paired.  ``measure``
    maps a chunk's typed match frame to one number per match (default :func:`win_share`: seat 0's
    side's share of the win, 0..1).  ``before`` and ``dealer`` start every match from that state
    (as :func:`cardsim.play_match`).  Returns the table of :func:`compare` (``variant``,
    ``measure``, ``n``, ``mean``, ``diff``, ``diff_se``, ``diff_lo``, ``diff_hi``,
    ``significant``); units are the measure's.  ``store``: a folder keeping each chunk's sums, so
    the same call resumes.  Raises OptionError / StrategyError for bad arguments.
    """
    _check_comparison(variants, level, measure, "match rows")
    names = ["baseline"] + list(variants)
    runs = [make_run(game, n_matches, seed, s, seats, rules, chunk_size, what="the number of matches")
            for s in [baseline, *variants.values()]]
    setups = [r.setup for r in runs]
    spec = get_game(game)
    if spec.matches is None:
        raise OptionError(f"{spec.name} has no match mode")
    start_state = {k: v for k, v in (("before", before), ("dealer", dealer)) if v is not None}
    # one match first: a bad state or measure is a one-line error before any worker starts
    columns = list(_as_frame(measure(frames.matches(game, spec.matches.play(runs[0].seed, 0, 1, setups[0],
                                                                              **start_state)[0],
                                                    setups[0].seats)), 1).columns)
    chunks = runs[0].chunks()
    keep = None
    if store is not None:
        manifest = dict(runs[0].manifest(), kind="compare_matches", variants=names,
                        strategies=[list(s.specs) for s in setups], rule_files=digests(sum((s.specs for s in setups), ())),
                        measure=transform_id(measure))
        if start_state:
            manifest["start"] = {k: (list(map(int, v)) if k == "before" else int(v)) for k, v in start_state.items()}
        keep = ChunkStore(store, manifest)
    total = np.zeros((len(setups), len(columns), 5))
    with using(client):
        for part in run_chunks(_match_sums, [(setups, runs[0].seed, start, count, start_state, measure)
                                             for _, start, count in chunks],
                               [c for _, _, c in chunks], n_jobs, progress, keep, unit="match",
                               seconds=match_seconds(game, runs[0].n * len(setups), before, setups[0].rules)):
            total += part
    return _table(total, names, columns, level, runs[0].manifest())


def _table(total, names, columns, level, manifest) -> pd.DataFrame:
    """The comparison table of summed chunks ``total`` (float64[variants, measures, 5]: n, Σx, Σx²,
    Σd, Σd²), the baseline first (its differences 0)."""
    n, s, s2, d, d2 = np.moveaxis(total, 2, 0)
    mean, _, _, _ = mean_interval(s, s2, n, level)
    diff, se, lo, hi = mean_interval(d, d2, n, level)
    base = np.repeat(np.arange(len(names)) == 0, len(columns))
    table = pd.DataFrame({
        "variant": pd.Categorical(np.repeat(names, len(columns)), categories=names, ordered=True),
        "measure": np.tile(columns, len(names)),
        "n": n.ravel().astype(np.int64), "mean": mean.ravel(),
        "diff": np.where(base, 0.0, diff.ravel()),
        "diff_se": np.where(base, 0.0, se.ravel()),
        "diff_lo": np.where(base, 0.0, lo.ravel()),
        "diff_hi": np.where(base, 0.0, hi.ravel()),
    })
    table["significant"] = (table.diff_lo > 0) | (table.diff_hi < 0)
    table.attrs.update(manifest)
    return table

