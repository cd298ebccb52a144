"""Paired match comparisons of two strategies in a partnership game: whole matches, not deals.

:func:`cardsim.compare` pairs strategies deal by deal; a strategy that reads the score (bids to the
game, weighs the rubber bonus) shows what it is worth only over whole matches.  :func:`match_compare`
plays ``n`` matches with the variant in one partnership (seats 0 and 2) and the baseline in the
other, then the same matches (the same match seeds: the same deals until the plays diverge) with the
partnerships exchanged, and pairs the two seatings per match: per match, the variant's share of the
win (1, 0, ½ for a match stopped unfinished at the deal cap) and its side's points minus the other
side's, each the mean of the two seatings.  The interval of each mean is the normal one over the
matches (the per-match pairs are independent).  :func:`side_share` gives the share of the wins
alone, as a dict.

Games: Vint (rubbers; points are each side's total above + below over the rubber, docs/RULES.md §2.7)
and Five Hundred (games to the target; points are the final team scores, §3.6).  A match may start
from a given state (``before``/``dealer``, as :func:`cardsim.play_match`): the variant then plays
each side of it once.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.compare import compare_matches, win_share

POINT_COLUMNS = ("points", "score")
"""The match-row columns of each team's points, ``NAME_0``/``NAME_1`` for the first name the game's
match rows have (Vint ``points_0/1``: each side's total over the rubber; Five Hundred ``score_0/1``:
the final team scores)."""


def point_columns(game: str) -> tuple[str, str]:
    """``(team 0's, team 1's)`` points columns of ``game``'s match rows; OptionError for a game
    without two partnerships or without such columns (the game's spec says)."""
    spec = get_game(game)
    names = spec.matches.dtype.names if spec.matches is not None else ()
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
    win0 = win_share(matches).to_numpy()
    margin0 = matches[p0].to_numpy(np.float64) - matches[p1].to_numpy(np.float64)
    return win0, margin0


def team0_measures(matches: pd.DataFrame) -> pd.DataFrame:
    """The two per-match measures of team 0 in a partnership game's match frame: ``win`` (its share
    of the win) and ``margin`` (its points minus the other team's), float64; the measure
    :func:`match_compare` hands to :func:`cardsim.compare.compare_matches`."""
    p0, p1 = next((f"{n}_0", f"{n}_1") for n in POINT_COLUMNS if f"{n}_0" in matches)
    return pd.DataFrame({"win": win_share(matches).to_numpy(),
                         "margin": matches[p0].to_numpy(np.float64) - matches[p1].to_numpy(np.float64)})


def match_compare(game: str, n_matches: int, variant: str, baseline: str, seed=0, rules=None, before=None,
                  dealer=None, n_jobs=1, chunk_size: int = 10_000, level: float = 0.95, store=None,
                  progress=False, client=None) -> pd.DataFrame:
    """The variant against the baseline over ``n_matches`` matches of ``game`` played twice, the
    partnerships exchanged (see the module docstring), through :func:`cardsim.compare.compare_matches`
    (chunked, all cores with ``n_jobs=-1``, resumable with ``store``; ``client``: a dask client).

    ``variant`` / ``baseline``: strategy specs (``"heuristic:game_push=0.5"``); ``seed``,
    ``rules``, ``before``, ``dealer``, ``n_jobs``, ``chunk_size``: as for :func:`cardsim.play_match`
    (both seatings use the same).  Returns one row per measure: ``win`` (the variant's share of
    the matches won, 0..1; 0.5 = even) and ``margin`` (its side's points minus the other side's a
    match, score points), with ``n`` matches, ``mean``, ``se``, ``lo``/``hi`` (normal interval at
    ``level``), ``vs`` (the even value: 0.5 and 0) and ``clear`` (the interval excludes it);
    ``attrs`` hold the run (game, specs, seed, state, the per-seating means).  Raises OptionError
    for a game without two partnerships here, StrategyError / OptionError for bad arguments.
    """
    point_columns(game)  # a game without partnerships is an error before anything is played
    first, swapped = seatings(variant, baseline)
    t = compare_matches(game, n_matches, swapped, {"first": first}, team0_measures, seed=seed, rules=rules,
                        before=before, dealer=dealer, n_jobs=n_jobs, chunk_size=chunk_size, level=level,
                        store=store, progress=progress, client=client)
    # d = team 0's value with the variant there minus with the baseline there: the variant's own value
    # is the even value plus half of d (in the swapped seating team 0's share is 1 − the variant's).
    by = t.set_index(["variant", "measure"])
    rows = []
    for name, even in (("win", 0.5), ("margin", 0.0)):
        r, b = by.loc[("first", name)], by.loc[("baseline", name)]
        lo, hi = even + r.diff_lo / 2, even + r.diff_hi / 2
        rows.append({"measure": name, "n": int(r.n), "mean": even + r["diff"] / 2, "se": r.diff_se / 2,
                     "lo": lo, "hi": hi, "vs": even, "clear": bool(lo > even or hi < even)})
    out = pd.DataFrame(rows)
    first_win, swapped_win = by.loc[("first", "win"), "mean"], by.loc[("baseline", "win"), "mean"]
    first_margin, swapped_margin = by.loc[("first", "margin"), "mean"], by.loc[("baseline", "margin"), "mean"]
    out.attrs.update({"game": game, "variant": variant, "baseline": baseline, "seed": seed, "before": before,
                      "dealer": dealer, "rules": rules, "level": level,
                      "win_first": float(first_win), "win_swapped": float(1.0 - swapped_win),
                      "margin_first": float(first_margin), "margin_swapped": float(-swapped_margin)})
    return out


def side_share(game, n_matches, mine, other, seed=0, rules=None, before=None, dealer=None, n_jobs=-1,
               chunk_size=10_000, level=0.95, store=None, progress=False, client=None) -> dict:
    """The share of games won by the partnership playing ``mine`` against one playing ``other``
    (partnership games: Five Hundred, Vint), paired per match with the seatings swapped: every
    match is played with ``mine`` at seats 0+2 and, on the same match seed, at seats 1+3, so that
    the cards and the first dealer cancel: the ``win`` row of :func:`match_compare` (which also
    gives the points) as a dict.

    Returns ``{"share", "lo", "hi", "se", "n"}``: ``share`` = ½ + ½ · mean(d), d per match the
    team-0 win share with ``mine`` there minus with ``other`` there, and its ``level`` interval
    (normal, from the paired differences).  0.5 = no better than ``other``; ``share − 0.5`` is the
    gain in games won (a share 0..1).  ``before`` (the team scores, ``[s0, s1]``) applies to
    the seats, so the swapped seating starts ``mine`` from ``s1``: give a symmetric state, or
    read the two seatings separately with :func:`cardsim.compare.compare_matches`.  Raises OptionError /
    StrategyError for bad arguments.
    """
    t = match_compare(game, n_matches, mine, other, seed=seed, rules=rules, before=before, dealer=dealer,
                      n_jobs=n_jobs, chunk_size=chunk_size, level=level, store=store, progress=progress,
                      client=client)
    row = t.set_index("measure").loc["win"]
    return {"share": float(row["mean"]), "lo": float(row["lo"]), "hi": float(row["hi"]), "se": float(row["se"]),
            "n": int(row["n"])}
