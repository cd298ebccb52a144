"""Every chart cell's verdict under the other player profiles (issue 32, :mod:`cardsim.robust`).

A chart picks per cell a best option under the default players and measures its gain over one
other option (the runner-up, or in 501 looking).  Here that pair of options is replayed under
every other profile of the game (:mod:`cardsim.profiles`) on ``robust_deals`` deals of the
cell (a share of the chart's deals, the first ones: the same deals and strategy randomness as
the chart's own run, common random numbers), and the cell gains the columns
:data:`COLUMNS`:

* ``holds``: the default's best is clearly worse than the other option under no profile (the
  95% interval of best minus other lies wholly below 0 under none);
* ``flips_under``: the profiles under which it is clearly worse, comma-separated ('' if none);
* ``gain_min`` / ``gain_max``: the range of the gain (best minus the other option, the chart's
  units) over the default and every other profile: where it moves, the chart shows the range;
* ``robust_deals``: deals per profile.  Power: with a quarter of the chart's deals the
  interval is twice as wide, so a flip is seen only where the other option is better by about
  twice the chart's own interval half-width or more.
"""
from __future__ import annotations

import numpy as np

from cardsim import profiles as P
from cardsim.robust import profile_summary

COLUMNS = ["holds", "flips_under", "gain_min", "gain_max", "robust_deals"]
GLOSSARY = {
    "holds / flips_under": "the cell's best option replayed under the other player profiles (cardsim profiles GAME; "
                           "docs/profiles.md) against the option its gain is measured against: holds = clearly worse "
                           "under none (95% interval of the paired difference wholly below 0); flips_under = the "
                           "profiles under which it is clearly worse (depends on the players, marked \u2020 in the "
                           "charts)",
    "gain_min / gain_max": "the range of the best option's gain (the chart's units) over the default players and every "
                           "other profile: a gain that holds but shrinks is a different answer from one that stays",
    "robust_deals": "deals per profile in that replay (the first quarter of the cell's deals, the same deals): its "
                    "intervals are about twice as wide as the chart's own",
}
"""The robustness columns for the report's glossaries."""
DEPENDS = "\u2020"
"""The charts' mark of a cell whose best option depends on the players (clearly worse under some profile)."""
SHARE = 0.25
"""The share of a chart cell's deals replayed under each other profile."""
MIN_DEALS = 100


def robust_deals(deals: int) -> int:
    """Deals per profile for a cell of ``deals`` deals: :data:`SHARE` of them, at least
    :data:`MIN_DEALS` (or all, if fewer)."""
    return int(min(deals, max(MIN_DEALS, round(SHARE * deals))))


def others(game: str, names: str | None = None) -> list[P.Profile]:
    """The game's profiles other than ``default``, in their file's order; ``names``: only these
    (comma-separated, as ``--profiles`` gives them).  Raises ProfileError for an unknown name."""
    chosen = P.select(game, None if names is None else [n for n in names.split(",") if n.strip()])
    return [p for p in chosen if p.name != P.DEFAULT]


def summary(sums: dict, options: list[str], best: str, sign: float = 1.0, scale: float = 1.0) -> dict:
    """One profile's replay of a cell: ``sums`` of a question with the two ``options`` (``best``
    among them).  Returns ``gain`` (best minus the other option, times ``scale``, e.g. 100 for
    percentage points; ``sign`` -1 turns a counting-down score round), its 95% interval and
    ``clearly_worse`` (the interval lies wholly below 0)."""
    s = profile_summary(list(options), sums, list(options).index(best), sign)
    return {"gain": scale * s["gain"], "gain_lo": scale * s["gain_lo"], "gain_hi": scale * s["gain_hi"],
            "clearly_worse": bool(s["gain_hi"] < 0)}


def cell_columns(default_gain: float, replays: dict[str, dict], deals: int) -> dict:
    """The :data:`COLUMNS` of one cell from the chart's own gain (default players) and each other
    profile's :func:`summary` (profile name -> summary)."""
    gains = [g for g in [default_gain, *(r["gain"] for r in replays.values())] if g == g]
    flips = [name for name, r in replays.items() if r["clearly_worse"]]
    return {"holds": not flips, "flips_under": ", ".join(flips),
            "gain_min": float(min(gains)) if gains else np.nan, "gain_max": float(max(gains)) if gains else np.nan,
            "robust_deals": int(deals)}


def with_columns(frame, rows: list[dict]):
    """A copy of ``frame`` (a DataFrame of chart rows) with the :data:`COLUMNS` of ``rows`` (one
    :func:`cell_columns` dict per row, in order)."""
    out = frame.copy()
    for col in COLUMNS:
        out[col] = [row[col] for row in rows]
    return out


def depends(row) -> bool:
    """Whether a chart row (a Series or a namedtuple) was replayed and depends on the players:
    False without robustness columns or where ``holds`` is missing."""
    holds = row.get("holds") if hasattr(row, "get") else getattr(row, "holds", None)
    return holds is not None and holds == holds and not bool(holds)


def moves(row, tolerance: float) -> bool:
    """Whether a cell's gain moves across the profiles by more than ``tolerance`` (chart units)."""
    return bool(row["gain_max"] - row["gain_min"] > tolerance)


def range_text(row, fmt: str = "{:+.1f}") -> str:
    """``+1.0..+3.7`` (the gain's range across the profiles), or '' when it is not known."""
    if not (row["gain_min"] == row["gain_min"]):
        return ""
    return f"{fmt.format(row['gain_min'])}..{fmt.format(row['gain_max'])}"


def sentence(frame, what: str, unit: str, n_profiles: int) -> str:
    """One sentence for the Answers: how many of the chart's cells hold under the other profiles,
    which profiles flip the others, and the gains as ranges."""
    if frame is None or not len(frame) or "holds" not in frame:
        return ""
    holds = frame[frame.holds.astype(bool)]
    flips = frame[~frame.holds.astype(bool)]
    by = {}
    for names in flips.flips_under:
        for name in filter(None, (x.strip() for x in str(names).split(","))):
            by[name] = by.get(name, 0) + 1
    text = (f"Replayed under {n_profiles} other player profiles, the {what} holds in {len(holds)} of {len(frame)} "
            f"cells (never clearly beaten)")
    if len(flips):
        text += (" and depends on the players in " + str(len(flips)) + " ("
                 + ", ".join(f"{k} flips {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1])) + ")")
    g = frame[["gain_min", "gain_max"]].dropna()
    if len(g):
        shrink = int(((g.gain_max - g.gain_min) > 0.5 * g.gain_max.abs()).sum())
        text += (f"; the best option's gain moves by more than half across the profiles in {shrink} cells "
                 f"(median range {g.gain_min.median():+.1f} to {g.gain_max.median():+.1f} {unit})")
    return text + "."
