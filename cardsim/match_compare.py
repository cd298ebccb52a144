"""Paired match comparisons of two strategies in a partnership game (issue 30): whole matches, not deals.

:func:`cardsim.compare` pairs strategies deal by deal; a strategy that reads the score (bids to the
game, weighs the rubber bonus) shows what it is worth only over whole matches.  :func:`match_compare`
plays ``n`` matches with the variant in one partnership (seats 0 and 2) and the baseline in the
other, then the same matches (the same match seeds: the same deals until the plays diverge) with the
partnerships exchanged, and pairs the two seatings per match: per match, the variant's share of the
win (1, 0, ½ for a match stopped unfinished at the deal cap) and its side's points minus the other
side's, each the mean of the two seatings.  The interval of each mean is the normal one over the
matches (the per-match pairs are independent).

Games: Vint (rubbers; points are each side's total above + below over the rubber, docs/RULES.md §2.7)
and Five Hundred (games to the target; points are the final team scores, §3.6).  A match may start
from a given state (``before``/``dealer``, as :func:`cardsim.play_match`): the variant then plays
each side of it once.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.games.base import OptionError
from cardsim.stats import mean_interval

POINT_COLUMNS = ("points", "score")
"""The match-row columns of each team's points, ``NAME_0``/``NAME_1`` for the first name the game's
match rows have (Vint ``points_0/1``: each side's total over the rubber; Five Hundred ``score_0/1``:
the final team scores)."""


def point_columns(game: str) -> tuple[str, str]:
    """``(team 0's, team 1's)`` points columns of ``game``'s match rows; OptionError for a game
    without two partnerships or without such columns (the game's spec says)."""
    from cardsim.games import get_game

    spec = get_game(game)
    names = spec.match_dtype.names if spec.match_dtype is not None else ()
    if spec.facts is None or not spec.facts.partnerships or spec.default_seats != 4:
        raise OptionError(f"match_compare is for the partnership games, not {spec.name}")
    for name in POINT_COLUMNS:
        if f"{name}_0" in names and f"{name}_1" in names:
            return f"{name}_0", f"{name}_1"
    raise OptionError(f"{spec.name}'s match rows have no team points ({', '.join(POINT_COLUMNS)})")


def seatings(variant: str, baseline: str) -> tuple[list, list]:
    """The two line-ups: the variant in seats 0 and 2, then in seats 1 and 3."""
    return [variant, baseline, variant, baseline], [baseline, variant, baseline, variant]


def team0_values(game: str, matches: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Team 0's share of the win (float64: 1, 0, or ½ when the match has no winner) and team 0's
    points minus team 1's (float64, score points), one per match row, in the rows' order."""
    p0, p1 = point_columns(game)
    winner = matches["winner"].astype("float64").fillna(-1.0).to_numpy()
    win0 = np.where(winner < 0, 0.5, (winner == 0).astype(np.float64))
    margin0 = matches[p0].to_numpy(np.float64) - matches[p1].to_numpy(np.float64)
    return win0, margin0


def match_compare(game: str, n_matches: int, variant: str, baseline: str, seed=0, rules=None, before=None,
                  dealer=None, n_jobs=1, chunk_size: int = 10_000, level: float = 0.95) -> pd.DataFrame:
    """The variant against the baseline over ``n_matches`` matches of ``game`` played twice, the
    partnerships exchanged (see the module docstring).

    ``variant`` / ``baseline``: strategy specs (``"heuristic:stop_at_game=1"``); ``seed``,
    ``rules``, ``before``, ``dealer``, ``n_jobs``, ``chunk_size``: as for :func:`cardsim.play_match`
    (both seatings use the same).  Returns one row per measure: ``win`` (the variant's share of
    the matches won, 0..1; 0.5 = even) and ``margin`` (its side's points minus the other side's a
    match, score points), with ``n`` matches, ``mean``, ``se``, ``lo``/``hi`` (normal interval at
    ``level``), ``vs`` (the even value: 0.5 and 0) and ``clear`` (the interval excludes it);
    ``attrs`` hold the run (game, specs, seed, state, the per-seating means).  Raises OptionError
    for a game without two partnerships here, StrategyError / OptionError for bad arguments.
    """
    from cardsim import play_match

    point_columns(game)  # a game without partnerships is an error before anything is played
    first, swapped = seatings(variant, baseline)
    kw = dict(seed=seed, rules=rules, before=before, dealer=dealer, n_jobs=n_jobs, chunk_size=chunk_size)
    a, _ = play_match(game, n_matches, strategies=first, **kw)
    b, _ = play_match(game, n_matches, strategies=swapped, **kw)
    key = "rubber" if "rubber" in a.columns else "match"
    a, b = a.sort_values(key).reset_index(drop=True), b.sort_values(key).reset_index(drop=True)
    if not np.array_equal(a[key].to_numpy(), b[key].to_numpy()):
        raise AssertionError("the two seatings played different matches")
    win_a, margin_a = team0_values(game, a)
    win_b0, margin_b0 = team0_values(game, b)
    win = (win_a + (1.0 - win_b0)) / 2.0          # the variant is team 0, then team 1
    margin = (margin_a - margin_b0) / 2.0
    rows = []
    for name, x, even in (("win", win, 0.5), ("margin", margin, 0.0)):
        mean, se, lo, hi = mean_interval(np.array([x.sum()]), np.array([(x * x).sum()]),
                                         np.array([float(len(x))]), level)
        rows.append({"measure": name, "n": len(x), "mean": float(mean[0]), "se": float(se[0]), "lo": float(lo[0]),
                     "hi": float(hi[0]), "vs": even, "clear": bool(lo[0] > even or hi[0] < even)})
    out = pd.DataFrame(rows)
    out.attrs.update({"game": game, "variant": variant, "baseline": baseline, "seed": seed, "before": before,
                      "dealer": dealer, "rules": rules, "level": level,
                      "win_first": float(win_a.mean()), "win_swapped": float(1.0 - win_b0.mean()),
                      "margin_first": float(margin_a.mean()), "margin_swapped": float(-margin_b0.mean())})
    return out
