"""How strong are the players behind these answers?

Every answer of the report is the best reply to the default players in the other seats.  Per game
this section measures how far those players are from an equilibrium of their own strategy family
(:func:`cardsim.exploit.exploit`: one side moves one tunable parameter a step either way, or a few
random pairs, on whole paired matches) for the default ``heuristic`` and for the previous default
(the strategy the game's ``previous`` player profile seats: ``cardsim profiles GAME``); shows the
tuning trajectory from the previous default (:func:`cardsim.tune.tune` with a stated budget, where
that module exists); and lists the chart cells whose best call or level moved between the two (the
charts' ``best_under`` column of the ``previous`` profile, where the robust replay wrote it), with
the charts' robust verdict counts.  Writes ``players_*`` tables and ``players.json``; the report's
Answers take one sentence per game from it (``sentences``).

    python -m analyses.players --seed 2026 --jobs -1 --results results --out reports [--quick]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyses.common import entry, script_main, write_tables
from cardsim import profiles as P
from cardsim._version import __version__
from cardsim.analysis import rules_of_thumb as T
from cardsim.games import GAME_NAMES, get_game
from cardsim.runner.run import make_run
from cardsim.strategies.registry import StrategyError

TITLE = "How strong are the players behind these answers?"
MATCHES = 2_000
"""Matches per line-up and deviation in the full report (``cardsim exploit`` plays 20,000 by
default).  Measured on 2 shared cores (load ~8), warm: one exploit table took 27 s for Vint (22
deviations x 2,000 rubbers x 2 seatings), 34 s for 501 and 22 s for Five Hundred (at 1,000: 17 s,
11 s); the section runs three tables' worth a game (default, previous, one tuning sweep).  The
power this buys is stated per table (``detectable``: the gain called exploitable with probability
0.8; at 2,000 about 290 points a rubber in Vint, 1 pp in 501, 2 pp in Five Hundred)."""
QUICK_MATCHES = 60
"""The same with ``--quick`` (make report QUICK=1): 4 s for the three games' default tables, power stated."""
TUNE_SWEEPS = 1
"""The tuning budget from the previous default: this many sweeps' worth of deviations (two a tunable
parameter) at the section's matches each (:func:`cardsim.tune.tune`'s ``budget`` is in matches)."""
QUICK_TUNE_SWEEPS = 0
"""The same with ``--quick``: no tuning run (its trajectory is the full report's)."""
PREVIOUS = T.PREVIOUS
"""The player profile whose seats play the previous default."""


def previous_spec(game: str) -> str | None:
    """The previous default's strategy spec: the ``others`` seats of the game's ``previous``
    profile (its profiles file), or None where the game has no such profile."""
    profile = P.available(game).get(PREVIOUS)
    return None if profile is None else profile.seats.get("others")


def _scale(unit: str) -> tuple[float, str]:
    """Shares are shown in percentage points; other units as they are."""
    return (100.0, "pp of " + unit.split(" (")[0].removeprefix("share of ")) if "share" in unit else (1.0, unit)


def fmt(v: float, unit: str, sign: bool = True) -> str:
    """A gain in the display unit: percentage points to 2 decimals, points whole with thousands
    separated (never 1.2e+03)."""
    spec = ("+" if sign else "") + (".2f" if unit.startswith("pp") else ",.0f")
    return format(v + 0.0, spec)


def best_rows(table: pd.DataFrame, who: str) -> pd.DataFrame:
    """Per parameter (and pair) of an exploit table, its best deviation: ``players`` (``who``),
    ``param``, ``value``, ``gain``, ``lo``, ``hi`` (the simultaneous interval), ``clear``, in the
    display unit (percentage points for shares)."""
    from cardsim.exploit import best_per_param

    scale, _ = _scale(table.attrs["unit"])
    best = best_per_param(table)
    return pd.DataFrame({"players": who, "param": best.param, "value": best.value,
                         "gain": scale * best.gain, "lo": scale * best.lo, "hi": scale * best.hi,
                         "clear": best.clear})


def summary_row(title: str, who: str, table: pd.DataFrame) -> dict:
    """One row of ``players_summary``: the exploitability and verdict of an exploit table (``title``:
    the game's name for people)."""
    a = table.attrs
    scale, unit = _scale(a["unit"])
    e = a["exploitability"]
    return {"game": title, "players": who, "strategy": a["strategy"], "verdict": a["verdict"],
            "best_param": e["param"], "best_value": e["value"], "gain": scale * e["gain"], "lo": scale * e["lo"],
            "hi": scale * e["hi"], "unit": unit, "tolerance": scale * a["tolerance"],
            "detectable": scale * a["detectable"], "family": a["family"], "matches": a["n"], "rule": a["rule"]}


def sentence(rows: list[dict]) -> str:
    """A game's sentence for the Answers: how exploitable its default players are (and the previous
    default's), from its ``players_summary`` rows (the default's first)."""
    out = []
    for r in rows:
        u = r["unit"]
        tol = f"{fmt(r['tolerance'], u, False)} {u}"
        interval = f"{fmt(r['gain'], u)} {u} [{fmt(r['lo'], u)}, {fmt(r['hi'], u)}]"
        verdict = r["verdict"] + (" (no clear gain, and not every gain's interval within the tolerance)"
                                  if r["verdict"].startswith("not decided") else "")
        if r["players"] == "default":
            out.append(f"The default players ({r['strategy']}) are {verdict}: the best one-step deviation found "
                       f"({r['best_param']} = {r['best_value']}) gains {interval} (tolerance {tol}; "
                       f"{r['matches']:,} matches a line-up detect {fmt(r['detectable'], u, False)} with probability "
                       "0.8)")
        else:
            out.append(f"the previous default ({r['strategy']}): {r['verdict']}, {interval}")
    return "; ".join(out) + "." if out else ""


# ---------------------------------------------------------------- the answers that moved
_COUNTS = {"n", "deals", "options", "freq", "share"}


def _label(row: pd.Series, columns: list[str]) -> str:
    """A chart cell in words: its text keys as they read ("1S P 10-12"), a number key with its
    column's name ("own 50"); the counts beside the key (deals, options, frequency) left out."""
    parts = []
    for c in columns:
        v = row[c]
        if c in _COUNTS or (isinstance(v, float) and v != v):
            continue
        if isinstance(v, (int, float, np.integer, np.floating)):
            parts.append(f"{c} {v:g}")
        elif T.call_text(v):
            parts.append(str(v))
    return " ".join(parts)


def _as_good(row: pd.Series, before: str) -> bool:
    """Whether the previous default's best is one of the levels the chart calls as good as its best
    (a ``levels_as_good`` column such as "70-90": 501's blind levels whose gain the paired interval
    does not separate), so its differing point estimate is a tie, not a move."""
    band = row.get("levels_as_good")
    if not isinstance(band, str) or ":" not in before or ":" not in str(row.best):
        return False
    if before.split(":")[0] != str(row.best).split(":")[0]:
        return False
    try:
        lo, _, hi = band.partition("-")
        level = float(before.split(":")[1])
        return float(lo) <= level <= float(hi or lo)
    except ValueError:
        return False


def moved(tables: Path, game: str) -> tuple[pd.DataFrame, dict]:
    """The chart cells of ``game`` whose best option differs under the previous default: every
    table of its analyses (``tables/*.json`` of the game) with ``best`` and ``best_under`` columns,
    the ``previous`` profile's entry read by :func:`cardsim.analysis.rules_of_thumb.profile_bests`.
    Returns the rows (``chart``, ``cell``, ``best``, ``previous_best``) and the counts per table
    (``cells``, ``moved``, ``holds``, ``depends``: the robust verdicts now; None where a table has
    no such column)."""
    rows, counts = [], {}
    for path in sorted(tables.glob("*.json")):
        try:
            meta = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if meta.get("game") != game or path.stem == "players":
            continue
        # a chart's choices table may be kept as CSV only (501's), and still carries best_under
        for name in dict.fromkeys(meta.get("tables", []) + meta.get("csv_only", [])):
            csv = tables / f"{name}.csv"
            if not csv.exists():
                continue
            t = pd.read_csv(csv)
            if "best" not in t:
                continue
            key = list(t.columns[:list(t.columns).index("best")])
            replayed = t[t.robust_deals > 0] if "robust_deals" in t else t.iloc[:0]
            c = {"cells": len(t), "moved": None,
                 "holds": int(replayed.holds.astype(str).str.lower().eq("true").sum()) if "holds" in t else None,
                 "depends": int(replayed.holds.astype(str).str.lower().eq("false").sum()) if "holds" in t else None}
            if "best_under" in t:
                c["moved"] = 0
                for _, r in t.iterrows():
                    before = T.moved_from(r.best, T.profile_bests(r.best_under))
                    if before and not _as_good(r, before):
                        c["moved"] += 1
                        rows.append({"chart": name, "cell": _label(r, key), "best": T.call_text(r.best),
                                     "previous_best": before})
            counts[name] = c
    return pd.DataFrame(rows, columns=["chart", "cell", "best", "previous_best"]), counts


def moved_text(counts: dict, previous: str | None) -> str:
    """The answers that moved, in words: per chart replayed under the profiles (a table with the
    robust columns), how many cells' best moved from the previous default's and the robust verdict
    counts now; the charts without a per-profile best in one clause."""
    charts = {name: c for name, c in counts.items() if c["holds"] is not None or c["moved"] is not None}
    if not charts:
        return "no chart of this game replayed under the player profiles is in the report."
    parts, unmeasured = [], []
    for name, c in charts.items():
        verdicts = f" (robust verdicts now: holds in {c['holds']}, depends in {c['depends']})" if c["holds"] is not None else ""
        if c["moved"] is None:
            unmeasured.append(f"{name}{verdicts}")
        else:
            parts.append(f"{name}: {c['moved']} of {c['cells']} cells' best moved from the previous default's "
                         f"({previous}){verdicts}")
    if unmeasured:
        parts.append("not measured (no per-profile best, best_under, of a 'previous' profile) in "
                     + "; ".join(unmeasured))
    return "; ".join(parts) + "."


# ---------------------------------------------------------------- the run
def trajectory_rows(result, title: str) -> pd.DataFrame:
    """A :class:`cardsim.tune.TuneResult`'s trajectory for the section's table: every deviation
    measured (``game``, ``step``, ``kind``, ``param``, ``from_value``, ``value``, ``gain``, ``lo``,
    ``hi`` in the display unit, ``moved``, ``point`` as its spec's text)."""
    scale, _ = _scale(result.objective.unit)
    t = result.trajectory
    return pd.DataFrame({"game": title, "step": t.step, "kind": t.kind, "param": t.param,
                         "from_value": t.from_value.astype(str), "value": t.value.astype(str),
                         "gain": scale * t.gain, "lo": scale * t.lo, "hi": scale * t.hi, "moved": t.moved,
                         "point": [", ".join(f"{k}={v:g}" for k, v in p.items()) if isinstance(p, dict) else str(p)
                                   for p in t.point]})


def trajectory_text(result, title: str) -> str:
    """The tuning run in one sentence: where it started, its budget, how it ended, its moves."""
    scale, unit = _scale(result.objective.unit)
    t = result.trajectory
    moves = t[t.moved.astype(bool)]
    text = (f"{title}: tuned from {result.strategy} in self-play (cardsim tune, {result.n_matches:,} matches a "
            f"deviation, budget {result.budget:,} matches, {len(t)} deviations measured): ended at {result.ended}")
    if result.ended == "cycle" and result.cycle:
        text += f" ({len(result.cycle)} points)"
    if moves.empty:
        return text + "; no clear move."
    return text + "; moves: " + "; ".join(
        f"{r.param} {r.from_value} \u2192 {r.value} ({fmt(scale * r.gain, unit)} {unit} [{fmt(scale * r.lo, unit)}, "
        f"{fmt(scale * r.hi, unit)}])" for r in moves.itertuples()) + f"; end point {result.spec}."


def _tune(game: str, previous: str, n: int, sweeps: int, seed: int, jobs: int, store: Path, params=None):
    """The tuning run from the previous default (``sweeps`` sweeps' worth of deviations at ``n``
    matches each, over ``params``: None for every tunable), or None for no sweeps or where
    :mod:`cardsim.tune` is not there."""
    try:
        from cardsim.tune import tune
    except ImportError:
        return None
    if sweeps <= 0:
        return None
    spec = get_game(game)
    strategy, _ = spec.table.registry.resolve(previous)
    budget = sweeps * 2 * len(params or strategy.tunables) * n
    return tune(game, strategy=previous, params=params, n_matches=n, budget=budget, seed=seed, n_jobs=jobs,
                store=store)


def run_game(game: str, n: int, sweeps: int, seed: int, jobs: int, results: Path, tables: Path, log=print,
             params=None, pairs: int | None = None):
    """The tables and facts of one game (exploit of the default and the previous default, the
    trajectory, the moved answers); ``params`` / ``pairs``: as for :func:`cardsim.exploit.exploit`
    (None: every tunable parameter, its default number of pairs)."""
    from cardsim.exploit import exploit

    title = get_game(game).facts.title
    previous = previous_spec(game)
    runs = [("default", get_game(game).table.default_strategy)]
    notes = []
    if previous is None:
        notes.append(f"{title}: no '{PREVIOUS}' player profile, so no previous default to compare.")
    else:
        runs.append(("previous", previous))
    best, summary, specs = [], [], []
    for who, spec in runs:
        started = time.time()
        try:
            more = {} if pairs is None else {"pairs": pairs}
            table = exploit(game, spec, n_matches=n, seed=seed, n_jobs=jobs, params=params,
                            store=results / "players" / f"{game}-{who}-n{n}-seed{seed}", **more)
        except StrategyError as exc:  # a previous default not registered in this version
            notes.append(f"{title}: the {who} players ({spec}) cannot be measured: {exc}")
            continue
        log(f"  {title} {who} ({spec}): {table.attrs['verdict']}, {len(table)} deviations x {n:,} matches in "
            f"{time.time() - started:.0f} s")
        best.append(best_rows(table, who))
        summary.append(summary_row(title, who, table))
        specs.append(spec)
    trajectory, tuned = None, ""
    if previous is not None and any(r["players"] == "previous" for r in summary):
        result = _tune(game, previous, n, sweeps, seed, jobs,
                       results / "players" / f"{game}-tune-n{n}-s{sweeps}-seed{seed}", params)
        if result is None:
            notes.append(f"{title}: no tuning run at this size (the full report runs {TUNE_SWEEPS} sweeps).")
        else:
            trajectory, tuned = trajectory_rows(result, title), trajectory_text(result, title)
    cells, counts = moved(tables, game)
    return {"game": game, "title": title, "previous": previous, "best": best, "summary": summary, "specs": specs,
            "trajectory": trajectory, "tuned": tuned, "moved": cells.assign(game=title),
            "moved_text": moved_text(counts, previous),
            "notes": notes}


def games() -> list[str]:
    """The games whose default strategy declares tunable parameters (what exploit moves)."""
    out = []
    for game in GAME_NAMES:
        spec = get_game(game)
        strategy, _ = spec.table.registry.resolve(spec.table.default_strategy)
        if getattr(strategy, "tunables", None):
            out.append(game)
    return out


def detail_table(part: dict) -> dict:
    """A game's exploit tables side by side for the report's "In detail": per parameter the best
    deviation and its gain [interval] for the default and for the previous default."""
    frames = {b.players.iloc[0]: b.set_index("param") for b in part["best"] if len(b)}
    params = list(dict.fromkeys(p for f in frames.values() for p in f.index))
    unit = part["summary"][0]["unit"] if part["summary"] else ""
    columns = ["parameter"]
    for who in frames:
        columns += [f"{who}: best step", f"{who}: gain [interval] ({unit})"]
    rows = []
    for p in params:
        row = [p]
        for f in frames.values():
            if p in f.index:
                r = f.loc[p]
                row += [str(r.value), f"{fmt(r.gain, unit)} [{fmt(r.lo, unit)}, {fmt(r.hi, unit)}]"
                        + (" clear" if r.clear else "")]
            else:
                row += ["", ""]
        rows.append(row)
    return {"title": f"{part['title']}: the best one-step deviation per parameter (clear = the simultaneous "
                     "interval above 0)", "columns": columns, "rows": rows}


def run(args, only: list[str] | None = None, params=None, pairs: int | None = None) -> Path:
    """The section's tables and ``players.json`` (``only``: these games; ``params`` / ``pairs``: the
    deviations tried, :func:`run_game`; the defaults are the report's)."""
    started = time.time()
    out = Path(args.out)
    tables_dir = out / "tables"
    tables_dir.mkdir(parents=True, exist_ok=True)
    n = QUICK_MATCHES if args.quick else MATCHES
    sweeps = QUICK_TUNE_SWEEPS if args.quick else TUNE_SWEEPS
    parts = [run_game(g, n, sweeps, args.seed, args.jobs, Path(args.results), tables_dir,
                      log=lambda s: print(s, flush=True), params=params, pairs=pairs) for g in (only or games())]
    tabs = {"players_summary": pd.DataFrame([r for p in parts for r in p["summary"]])}
    for p in parts:
        if p["best"]:
            tabs[f"players_{p['game']}"] = pd.concat(p["best"], ignore_index=True)
    trajectories = [p["trajectory"] for p in parts if p["trajectory"] is not None]
    if trajectories:
        tabs["players_trajectory"] = pd.concat(trajectories, ignore_index=True)
    tabs["players_moved"] = pd.concat([p["moved"] for p in parts], ignore_index=True)
    written = write_tables(tabs, out)
    sentences = {p["title"]: sentence(p["summary"]) for p in parts if p["summary"]}
    items = [f"{p['title']}: {sentence(p['summary']) or 'not measured.'} Answers that moved: {p['moved_text']}"
             for p in parts] + [p["tuned"] for p in parts if p["tuned"]]
    rule = next((r["rule"] for p in parts for r in p["summary"]), "")
    method = (f"{TITLE} Per game, cardsim.exploit on the default players and on the previous default (the "
              f"'{PREVIOUS}' profile's strategy): one side (a partnership; in 501 one seat, at every position in turn) "
              f"moves one tunable parameter one step either way, or both of a few random pairs, against the others "
              f"playing the strategy; {n:,} whole matches per line-up and deviation, paired on the same match seeds; "
              f"intervals simultaneous over each table's deviations ({rule or 'Bonferroni'}); verdict exploitable "
              "when some interval lies above 0, within tolerance when every upper end is at most the objective's "
              "tolerance, else not decided at this size (the power is stated: the gain detected with probability "
              f"0.8). The tuning trajectory is cardsim.tune from the previous default, {sweeps} sweeps' worth of "
              f"deviations at {n:,} matches each. Answers "
              "that moved: chart cells whose best under the previous default (their best_under column) differs.")
    meta = {"game": "all", "title": TITLE, "deals": n, "deals_unit": "matches per line-up and deviation",
            "seed": args.seed, "source": make_run(GAME_NAMES[0], 1).manifest()["source"], "cardsim": __version__,
            "strategies": sorted({s for p in parts for s in p["specs"]}), "parameters": {}, "rules": {},
            "tables": list(tabs), "figures": [], "glossary": GLOSSARY,
            "notes": [n_ for p in parts for n_ in p["notes"]], "sentences": sentences,
            "answer": " ".join(items), "detail": {"tables": [detail_table(p) for p in parts if p["best"]],
                                                  "items": items},
            "method": method, "seconds": round(time.time() - started, 1)}
    path = tables_dir / "players.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"{TITLE} {len(parts)} games in {time.time() - started:.0f} s -> "
          f"{', '.join(p.name for p in written)}, {path.name}", flush=True)
    return path


GLOSSARY = {
    "players / strategy": "default = the game's default strategy (heuristic); previous = the previous default, the "
                          "strategy of the 'previous' player profile (cardsim profiles GAME)",
    "param / value": "the tunable parameter moved (a+b: a pair moved together) and its best value tried "
                     "(x/y for a pair); cardsim strategies GAME lists the tunables, their ranges and steps",
    "gain / lo / hi": "what the deviating side gains over the players (the game's objective: Vint points a rubber; "
                      "Five Hundred and 501 percentage points of games won), with its simultaneous 95% interval",
    "clear": "the interval lies above 0: that deviation beats the players",
    "verdict": "exploitable (some deviation gains clearly), within tolerance (no deviation can gain more than the "
               "tolerance), not decided at this size",
    "detectable": "the gain this many matches would call exploitable with probability 0.8 (the power)",
    "chart / cell / best / previous_best": "a chart cell whose best option differs under the previous default",
}


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
