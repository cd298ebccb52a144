"""Every chart cell's verdict under the other player profiles (:mod:`cardsim.robust`).

A chart picks per cell a best option under the default players and measures its gain over one
other option (its *reference*: the runner-up, or in 501 looking).  :func:`replay` asks, per cell
and profile, whether another option could be better there, with a stated power:

1. **Profiles that act** (:func:`acting`): a pilot of up to :data:`PILOT` deals per cell (every option,
   on deals of their own: :func:`pilot_seed`) is played under the default players and under each
   profile; a profile whose sums equal the default's in every cell changes nothing the chart's
   decisions read (e.g. a bidding-only profile on the Five Hundred guide's forced contracts) and
   is left out, named in ``not_acting`` with that reason.
2. **Candidates** per cell and acting profile (:func:`contenders` and the pilot): the chart's best,
   its reference, its runner-up, every option whose default-players 95% paired interval of best
   minus it reaches 0 (not clearly worse than the best), and every option the profile's pilot
   does not show clearly worse than the best (so an option far behind under the default players
   but ahead under the profile is replayed too).
3. **Deals** per cell (:func:`planned_deals`): enough that a flip the size of the chart's own gap
   (best minus reference, default players) would be seen with :data:`PLAN` (90%, so that the 80%
   a verdict needs is reached though the spread is an estimate) at 95% —
   ``((1.96 + 1.28) sd / gap)²``, ``sd`` the chart's own per-deal standard deviation of that
   difference, or the profile's pilot's largest spread of best minus a candidate where that is
   larger (so the power holds against every candidate) — at least :data:`MIN_DEALS`, at most
   :data:`BUDGET` (half) of the cell's own deals (the same deals: the first ones, common random
   numbers) and a profile's cap (``caps``, e.g. fewer for a costly card-play profile).
4. **Verdict** (:func:`cardsim.robust.judge`): each candidate against the best, paired, 95%
   interval each; *depends on the players* where some candidate is clearly better under some
   profile, *holds* where none is and the power (the lowest over the profiles and candidates,
   from the replays' own standard errors) reaches 80%, else *not decidable at this size*.

The cell gains the columns :data:`COLUMNS`:

* ``robust_verdict``: ``holds`` / ``depends on the players`` / ``not decidable at this size``;
* ``power``: the chance the replay had of seeing a flip the size of the chart's gap (0..1);
* ``best_under``: each acting profile's own best option among the candidates (``bold=P, cautious=1H``);
* ``flips``: where it depends, per profile the option clearly better and its gain over the
  chart's best with its 95% interval, in the chart's units (``bold: P +424 [+361, +487]``);
* ``holds``: True (holds), False (depends) or missing (not decidable, or not replayed);
  ``flips_under``: the profiles under which some candidate is clearly better ('' if none);
* ``gain_min`` / ``gain_max``: the range of the best option's gain over the best other candidate
  (the chart's units) over the default and every acting profile;
* ``robust_deals``: deals per profile in the replay; ``candidates``: the options replayed (the
  default-players set; ``+X (bold)`` for one the pilot added under a profile);
  ``profiles_tested``: the acting profiles; ``profiles_not_acting``: those left out (the default's
  numbers on every pilot deal of the chart).

:func:`summary` / :func:`cell_columns` (a pair of options on a share of the deals, the charts' earlier
rule) remain for the score analyses (``g500_bidscore``, ``vint_linescore``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from cardsim import profiles as P
from cardsim import robust as R
from cardsim.robust import profile_summary
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.selection import paired

PAIR_COLUMNS = ["holds", "flips_under", "gain_min", "gain_max", "robust_deals"]
"""The columns of :func:`cell_columns` (the pair replay of the score analyses)."""
COLUMNS = ["robust_verdict", "power", "best_under", "flips", "holds", "flips_under", "gain_min", "gain_max",
           "robust_deals", "candidates", "profiles_tested", "profiles_not_acting"]
"""The columns :func:`replay` adds to a chart cell."""
GLOSSARY = {
    "robust_verdict / power": "the cell's answer replayed under the player profiles that act on the chart (cardsim "
                              "profiles GAME; docs/profiles.md): every option that could be best under a profile "
                              "(candidates) against the chart's best, paired, 95% interval each. holds = no "
                              "candidate clearly better under any acting profile, with power (the chance of seeing "
                              "an option better by the chart's own gap) at least 80%; depends on the players "
                              "(\u2020) = some candidate clearly better under some profile; not decidable at this "
                              "size = none clearly better but power below 80%",
    "best_under / flips": "each acting profile's own best option among the candidates; where the cell depends on "
                          "the players, per profile the option clearly better and its gain over the chart's best "
                          "with its 95% interval (the chart's units)",
    "holds / flips_under": "holds = True where the verdict is holds, False where it depends on the players, empty "
                           "where it is not decidable or not replayed; flips_under = the profiles under which some "
                           "candidate is clearly better",
    "gain_min / gain_max": "the range of the best option's gain over the best other candidate (the chart's units) "
                           "over the default players and every acting profile: a gain that holds but shrinks is a "
                           "different answer from one that stays",
    "robust_deals / candidates / profiles_tested / profiles_not_acting": "deals per profile in the replay (the cell's "
                                                   "first deals, as many as 90% power needs (planned above the 80% "
                                                   "a verdict needs), from the spread, within the budget); the "
                                                   "options replayed (+X (profile): added by that profile's "
                                                   "pilot); the profiles that act on the chart, and those "
                                                   "that do not (the default's numbers on every pilot deal of the "
                                                   "chart: they cannot change its answers)",
}
"""The robustness columns for the report's glossaries."""
PAIR_GLOSSARY = {
    "holds / flips_under": "the best option replayed under the other player profiles against the option its gain "
                           "is measured against, on a quarter of the deals: holds = clearly worse under none (95% "
                           "interval of the paired difference wholly below 0); flips_under = the profiles under "
                           "which it is clearly worse (\u2020)",
    "gain_min / gain_max": "the range of the best option's gain (the chart's units) over the default players and "
                           "every other profile",
    "robust_deals": "deals per profile in that replay (the first quarter of the cell's deals, the same deals): its "
                    "intervals are about twice as wide as the chart's own",
}
"""The glossary of the pair replay (:func:`cell_columns`), for the score analyses."""
DEPENDS = "\u2020"
"""The charts' mark of a cell whose best option depends on the players (clearly worse under some profile)."""
UNDECIDED = "\u00b0"
"""The charts' mark of a cell whose replay was not decidable at its size (power below 80%)."""


def mark(row) -> str:
    """A chart cell's mark from its replay: :data:`DEPENDS`, :data:`UNDECIDED` or ''."""
    return DEPENDS if depends(row) else UNDECIDED if undecided(row) else ""
SHARE = 0.25
"""The share of a score analysis's deals replayed under each other profile (:func:`robust_deals`)."""
MIN_DEALS = 100
"""Fewest deals per profile in a replay."""
BUDGET = 0.5
"""Most deals per profile in a chart's replay, as a share of the cell's own deals: at the cap, three
candidates under three profiles play 4.5 times the cell's deals (the charts' earlier rule: two options
on a quarter of the deals, 1.5 times; the chart itself, one play per option: 8 to 12 times); a cell
whose gap needs more is not decidable at this size."""
PILOT = 200
"""Most deals per cell and profile of the pilot (every option, deals of their own): it tells which
profiles act on the chart, adds the options a profile could make best and gives their spread."""
PLAN = 0.90
"""The power a replay's deals are planned for: above the 80% a verdict "holds" needs, since the
spread it plans from is itself an estimate (the pilot's, the chart's)."""
MIN_PILOT = 50
"""Fewest deals of a pilot (or all the cell's deals, if fewer); between the two, a tenth of the
cell's deals (:func:`pilot_deals`)."""


def pilot_deals(deals: int) -> int:
    """The pilot's deals for a cell of ``deals`` deals: a tenth of them, at least :data:`MIN_PILOT`
    (or all, if fewer), at most :data:`PILOT`."""
    return int(min(deals, max(MIN_PILOT, min(PILOT, deals // 10))))


def robust_deals(deals: int) -> int:
    """Deals per profile for a cell of ``deals`` deals: :data:`SHARE` of them, at least
    :data:`MIN_DEALS` (or all, if fewer)."""
    return int(min(deals, max(MIN_DEALS, round(SHARE * deals))))


def others(game: str, names: str | None = None) -> list[P.Profile]:
    """The game's profiles other than ``default``, in their file's order; ``names``: only these
    (comma-separated, as ``--profiles`` gives them).  Raises ProfileError for an unknown name."""
    chosen = P.select(game, None if names is None else [n for n in names.split(",") if n.strip()])
    return [p for p in chosen if p.name != P.DEFAULT]


def pilot_seed(seed: int) -> int:
    """The seed of a cell's pilot deals: independent of ``seed``'s deals (a hash), so an option the
    pilot adds is tested on deals that did not choose it."""
    return int.from_bytes(hashlib.sha256(f"{seed}|robust-pilot".encode()).digest()[:8], "little") >> 1


@dataclass(frozen=True)
class Cell:
    """One chart cell as :func:`replay` asks it again.

    ``payload``: the chart's own arguments to its sums function (picklable: what deals the cell
    plays); ``options``: every option of the cell (names, in the question's order); ``best``: the
    chart's best; ``gap``: the chart's own gain of the best over its reference (runner-up, or 501's
    look), default players, in the sums' units (the flip size); ``sd``: the per-deal standard
    deviation of that difference (sums' units); ``contenders``: the default-players candidates
    (:func:`contenders`); ``deals``: the cell's own deals (the most a replay plays); ``sign``: -1
    for a counting-down score; ``seat``: the asking seat (a profile changes the others)."""

    payload: tuple
    options: tuple
    best: str
    gap: float
    sd: float
    contenders: tuple
    deals: int
    sign: float = 1.0
    seat: int = 0


def contenders(options, best: str, reference: str | None, runner_up: str | None, lo: dict) -> tuple:
    """The default players' candidate set of a cell: ``best``, ``reference`` (the option the chart
    measures the best against), ``runner_up`` and every option whose 95% paired interval of best
    minus it reaches 0 (``lo``: option -> lower end of that interval, default players; NaN: not
    known, the option is kept): the options the default players cannot tell from the best.  In
    ``options`` order."""
    keep = {best, reference, runner_up}
    keep |= {o for o, v in lo.items() if not v > 0}
    return tuple(o for o in options if o in keep)


def default_view(sums: dict, options, best: str, reference: str | None, runner_up: str | None,
                 sign: float = 1.0) -> dict:
    """What :func:`replay` needs of a cell from the chart's own sums (default players): ``contenders``
    (:func:`contenders`, from the paired intervals of best minus each option on the held-out half
    of the deals, :func:`cardsim.selection.paired`) and ``sd``: the per-deal standard deviation of
    best minus ``reference`` there (NaN without a reference)."""
    options = list(options)
    b = options.index(best)
    lo = {o: paired(sums, b, j, sign=sign)["lo"] for j, o in enumerate(options) if j != b}
    sd = float("nan")
    if reference is not None and reference in options and reference != best:
        g = paired(sums, b, options.index(reference), sign=sign)
        sd = float(g["se"] * np.sqrt(g["n"])) if g["n"] > 1 else float("nan")
    return {"contenders": contenders(options, best, reference, runner_up, lo), "sd": sd}


def sd_of(lo: float, hi: float, n: float) -> float:
    """The per-deal standard deviation behind a 95% normal interval ``[lo, hi]`` of a mean over
    ``n`` deals (``(hi - lo) / (2 × 1.96) × √n``); NaN when unknown."""
    if not (lo == lo and hi == hi and n > 0):
        return float("nan")
    return float((hi - lo) / (2 * R.Z_LEVEL) * np.sqrt(n))


def planned_deals(cell: Cell, cap: int | None = None, sd: float | None = None) -> int:
    """Deals per profile for ``cell``: :func:`cardsim.robust.deals_for_power` of its gap and spread
    (:data:`PLAN`, 90% power at 95%; ``sd``: a larger spread to plan for, e.g. a candidate's in a profile's pilot,
    else the cell's own), at least :data:`MIN_DEALS` (or all the cell's deals, if fewer), at most
    :data:`BUDGET` of the cell's own deals and ``cap`` (a profile's budget); the most allowed where
    the gap or spread is unknown or the gap is 0."""
    top = max(min(cell.deals, MIN_DEALS), int(BUDGET * cell.deals))
    top = int(top if cap is None else min(top, cap))
    spread = cell.sd
    if sd is not None and sd == sd:
        spread = max(sd, spread) if spread == spread else sd
    need = R.deals_for_power(cell.gap, spread, PLAN)
    if not need == need or need == np.inf:
        return top
    return int(min(top, max(MIN_DEALS, need)))


def acting(pilots: dict[str, list], default: str = P.DEFAULT) -> tuple[list[str], list[str]]:
    """Which profiles act on a chart: ``pilots`` maps profile name -> the pilot sums of every cell
    (None where the profile's players could not deal the cell), ``default`` among them.  A profile
    acts when its sums differ from the default's in some cell (:func:`cardsim.robust.same_sums`).
    Returns ``(acting, not_acting)`` names in ``pilots``' order, ``default`` in neither."""
    base = pilots[default]
    yes, no = [], []
    for name, sums in pilots.items():
        if name == default:
            continue
        same = all(a is not None and b is not None and R.same_sums(a, b) for a, b in zip(sums, base))
        (no if same else yes).append(name)
    return yes, no


def pilot_candidates(cell: Cell, sums: dict | None) -> tuple:
    """The options a profile's pilot (``sums``: every option of ``cell``) does not show clearly
    worse than the chart's best (the 95% interval of best minus the option reaches 0), in option
    order; () without sums."""
    if sums is None or cell.best not in cell.options:
        return ()
    options = list(cell.options)
    rivals = R.rivals(options, sums, options.index(cell.best), cell.sign)
    return tuple(r["option"] for r in rivals if not r["gain_lo"] > 0)


def pilot_sd(cell: Cell, sums: dict | None, options) -> float:
    """The largest per-deal standard deviation of best minus an option of ``options`` in a
    profile's pilot (``sums``: every option of ``cell``), NaN when none is known: the spread a
    profile's replay plans its deals for, so that the power holds against every candidate."""
    if sums is None or cell.best not in cell.options:
        return float("nan")
    every = list(cell.options)
    rivals = R.rivals(every, sums, every.index(cell.best), cell.sign, [every.index(o) for o in options])
    sds = [r["se"] * np.sqrt(r["n"]) for r in rivals if r["se"] == r["se"] and r["n"] > 1]
    return float(max(sds)) if sds else float("nan")


def replay(cells: list[Cell], profiles: list, sums_fn, base: list[str], *, name: str, n_jobs: int = -1,
           results=None, log=print, caps: dict | None = None, scale: float = 1.0, fmt: str = "{:+.0f}") -> list[dict]:
    """Every cell's :data:`COLUMNS` (the module's docstring): the pilot, the acting profiles, the
    candidates, the deals for the power, the replay and the verdict.

    ``sums_fn(payload, options, deals, pilot, strategies)`` plays a cell's question (its
    ``payload``) with ``options`` on its first ``deals`` deals (``pilot`` True: on the pilot's
    own deals, :func:`pilot_seed`) with every seat's ``strategies``, returning the question's sums
    or None when those players cannot deal the cell; a module-level function (it runs in worker
    processes).  ``profiles``: the other profiles (:func:`others`, or Profile objects);
    ``base``: every seat's spec under the default players (each cell's ``seat`` asks); ``name``:
    the analysis store's name (``results``: kept there, resumable); ``caps``: profile name ->
    most deals per profile (a costly profile's budget); ``scale``, ``fmt``: the chart's units of
    the gains in ``flips``, ``gain_min`` / ``gain_max`` (e.g. 100 for pp).  Returns one dict per
    cell, in order."""
    caps = dict(caps or {})
    every = [P.Profile(P.DEFAULT, "the default players"), *profiles]
    specs = {(p.name, c.seat): p.strategies(list(base), c.seat) for p in every for c in cells}
    tasks = [(c.payload, tuple(c.options), pilot_deals(c.deals), True, specs[(p.name, c.seat)])
             for p in every for c in cells]
    log(f"  under other players: pilot, {len(cells)} cells x {len(every)} profiles x every option x "
        f"up to {PILOT} deals")
    store = analysis_store(results, f"{name}-pilot", sums_fn, tasks=tasks)
    got = iter(run_chunks(sums_fn, tasks, [t[2] * len(t[1]) for t in tasks], n_jobs, store=store))
    pilots = {p.name: [next(got) for _ in cells] for p in every}
    yes, no = acting(pilots)
    log(f"    acting on the chart: {', '.join(yes) or 'none'}"
        + (f"; not acting (the default's numbers on every pilot deal): {', '.join(no)}" if no else ""))
    tested = [p for p in profiles if p.name in yes]
    plan = []
    for i, c in enumerate(cells):
        per = {}
        for p in tested:
            extra = set(pilot_candidates(c, pilots[p.name][i])) - set(c.contenders)
            options = tuple(o for o in c.options if o in set(c.contenders) | extra)
            per[p.name] = (options, planned_deals(c, caps.get(p.name), pilot_sd(c, pilots[p.name][i], options)))
        plan.append(per)
    tasks = [(c.payload, per[p.name][0], per[p.name][1], False, specs[(p.name, c.seat)])
             for c, per in zip(cells, plan) for p in tested]
    total = sum(t[2] * len(t[1]) for t in tasks)
    log(f"    replay: {len(cells)} cells x {len(tested)} profiles, the candidates on {total:,} option-deals")
    store = analysis_store(results, name, sums_fn, tasks=tasks)
    got = iter(run_chunks(sums_fn, tasks, [t[2] * len(t[1]) for t in tasks], n_jobs, store=store))
    rows = []
    for c, per in zip(cells, plan):
        replays = {}
        for p in tested:
            options, deals = per[p.name]
            sums = next(got)
            if sums is None or c.best not in options:
                continue
            ranking = R.rank_sums(sums, c.sign)
            replays[p.name] = {"best": options[ranking.best] if ranking.best >= 0 else None,
                               "rivals": R.rivals(list(options), sums, options.index(c.best), c.sign)}
        rows.append(cell_row(c, replays, per, scale, fmt) | {"profiles_not_acting": ", ".join(no)})
    return rows


def cell_row(cell: Cell, replays: dict, plan: dict, scale: float = 1.0, fmt: str = "{:+.0f}") -> dict:
    """The :data:`COLUMNS` of one cell from its replays (profile -> ``{"best", "rivals"}``, as
    :func:`cardsim.robust.judge` takes them) and its plan (profile -> ``(options, deals)``)."""
    v = R.judge(replays, cell.gap)
    f = lambda x: fmt.format(scale * x)  # noqa: E731
    gains = [scale * cell.gap] if cell.gap == cell.gap else []
    for r in replays.values():
        g = [x["gain"] for x in r["rivals"] if x["gain"] == x["gain"]]
        if g:
            gains.append(scale * min(g))
    added = [f"+{o} ({name})" for name, (options, _) in plan.items() for o in options if o not in cell.contenders]
    return {"robust_verdict": v["verdict"] or "", "power": v["power"],
            "best_under": ", ".join(f"{k}={b}" for k, b in v["best_under"].items()),
            "flips": "; ".join(f"{x['profile']}: {x['option']} {f(x['gain'])} [{f(x['gain_lo'])}, {f(x['gain_hi'])}]"
                               for x in v["flips"]),
            "holds": v["holds"], "flips_under": ", ".join(v["flips_under"]),
            "gain_min": float(min(gains)) if gains else np.nan, "gain_max": float(max(gains)) if gains else np.nan,
            "robust_deals": max((d for _, d in plan.values()), default=0),
            "candidates": ", ".join([*cell.contenders, *added]), "profiles_tested": ", ".join(replays)}


def summary(sums: dict, options: list[str], best: str, sign: float = 1.0, scale: float = 1.0) -> dict:
    """One profile's replay of a cell: ``sums`` of a question with the two ``options`` (``best``
    among them).  Returns ``gain`` (best minus the other option, times ``scale``, e.g. 100 for
    percentage points; ``sign`` -1 turns a counting-down score round), its 95% interval and
    ``clearly_worse`` (the interval lies wholly below 0)."""
    s = profile_summary(list(options), sums, list(options).index(best), sign)
    return {"gain": scale * s["gain"], "gain_lo": scale * s["gain_lo"], "gain_hi": scale * s["gain_hi"],
            "clearly_worse": bool(s["gain_hi"] < 0)}


def cell_columns(default_gain: float, replays: dict[str, dict], deals: int) -> dict:
    """The :data:`PAIR_COLUMNS` of one cell from the chart's own gain (default players) and each other
    profile's :func:`summary` (profile name -> summary)."""
    gains = [g for g in [default_gain, *(r["gain"] for r in replays.values())] if g == g]
    flips = [name for name, r in replays.items() if r["clearly_worse"]]
    return {"holds": not flips, "flips_under": ", ".join(flips),
            "gain_min": float(min(gains)) if gains else np.nan, "gain_max": float(max(gains)) if gains else np.nan,
            "robust_deals": int(deals)}


def with_columns(frame, rows: list[dict]):
    """A copy of ``frame`` (a DataFrame of chart rows) with the :data:`PAIR_COLUMNS` of ``rows`` (one
    :func:`cell_columns` dict per row, in order)."""
    out = frame.copy()
    for col in PAIR_COLUMNS:
        out[col] = [row[col] for row in rows]
    return out


def depends(row) -> bool:
    """Whether a chart row (a Series or a namedtuple) was replayed and depends on the players:
    False without robustness columns or where ``holds`` is missing."""
    holds = row.get("holds") if hasattr(row, "get") else getattr(row, "holds", None)
    return holds is not None and holds == holds and not bool(holds)


def undecided(row) -> bool:
    """Whether a chart row's replay was not decidable at its size (:data:`cardsim.robust.UNDECIDED`)."""
    v = row.get("robust_verdict") if hasattr(row, "get") else getattr(row, "robust_verdict", None)
    return v == R.UNDECIDED


def moves(row, tolerance: float) -> bool:
    """Whether a cell's gain moves across the profiles by more than ``tolerance`` (chart units)."""
    return bool(row["gain_max"] - row["gain_min"] > tolerance)


def range_text(row, fmt: str = "{:+.1f}") -> str:
    """``+1.0..+3.7`` (the gain's range across the profiles), or '' when it is not known."""
    if not (row["gain_min"] == row["gain_min"]):
        return ""
    return f"{fmt.format(row['gain_min'])}..{fmt.format(row['gain_max'])}"


def _names(column) -> list[str]:
    out = []
    for names in column.fillna("").astype(str):
        out += [x.strip() for x in names.split(",") if x.strip() and x.strip() not in out]
    return out


def sentence(frame, what: str, unit: str, n_profiles: int) -> str:
    """One sentence for the Answers: how many of the chart's cells hold under the other profiles,
    which profiles flip the others, and the gains as ranges.  A frame with the :data:`COLUMNS` of
    :func:`replay` says which profiles acted, which did not, and the cells not decidable at their
    size (with their power); one with the pair columns (:func:`cell_columns`) says it as before."""
    if frame is None or not len(frame) or "holds" not in frame:
        return ""
    new = "robust_verdict" in frame
    if new:
        frame = frame[frame.robust_verdict.fillna("").astype(str) != ""]
        if not len(frame):
            return ""
        holds = frame[frame.robust_verdict == R.HOLDS]
        flips = frame[frame.robust_verdict == R.DEPENDS]
        open_ = frame[frame.robust_verdict == R.UNDECIDED]
    else:
        holds = frame[frame.holds.astype(bool)]
        flips = frame[~frame.holds.astype(bool)]
        open_ = frame.iloc[:0]
    by = {}
    for names in flips.flips_under:
        for name in filter(None, (x.strip() for x in str(names).split(","))):
            by[name] = by.get(name, 0) + 1
    if new:
        tested = _names(frame.profiles_tested)
        idle = _names(frame.get("profiles_not_acting", frame.profiles_tested[:0]))
        text = (f"Replayed under the player profiles that act on it ({', '.join(tested) or 'none'}"
                + (f"; not {', '.join(idle)}, which give the default's numbers on every pilot deal" if idle else "")
                + f"), every option that could be best there against the {what}: it holds in {len(holds)} of "
                f"{len(frame)} cells (no option clearly better, power at least {R.POWER:.0%} to see one better by "
                f"the cell's own gap)")
    else:
        text = (f"Replayed under {n_profiles} other player profiles, the {what} holds in {len(holds)} of "
                f"{len(frame)} cells (never clearly beaten)")
    if len(flips):
        text += (", depends on the players in " + str(len(flips)) + " ("
                 + ", ".join(f"{k} flips {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1])) + ")")
    if len(open_):
        text += (f" and is not decidable at this size in {len(open_)} (none clearly better, but power below "
                 f"{R.POWER:.0%}: median {open_.power.median():.0%})")
    g = frame[["gain_min", "gain_max"]].dropna()
    if len(g):
        shrink = int(((g.gain_max - g.gain_min) > 0.5 * g.gain_max.abs()).sum())
        text += (f"; the best option's gain moves by more than half across the profiles in {shrink} cells "
                 f"(median range {g.gain_min.median():+.1f} to {g.gain_max.median():+.1f} {unit})")
    return text + "."
