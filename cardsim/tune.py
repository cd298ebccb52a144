"""Self-play tuning of a strategy's parameters: best-response iteration by coordinates.

The population plays the current point θ in every seat.  For each tunable parameter in turn
(registry order, or the order given), one side deviates one step below and one step above θ on
that parameter (:meth:`cardsim.deviation.Arena.gains`: whole matches, paired on the same match
seeds); when the better deviation gains *clearly* — its lower bound above 0 under the
multiplicity rule :func:`cardsim.exploit.exploit` uses for the same family of deviations — the
population moves there.  A sweep over all the parameters without a move ends at a candidate
equilibrium, which :func:`cardsim.exploit.exploit` then checks (single steps and random pairs of
parameters); a clear gain it finds is a move too, and the search goes on.  Stop rules:

* ``equilibrium``: a sweep without a move and an exploit check without a clear gain;
* ``cycle``: a move to a point the population held before (the points from that one on are the
  cycle, reported as the answer);
* ``budget``: the next measurement would pass the budget of matches.

Every measurement has its own seed, drawn from ``(seed, step)``, so a run is reproducible for a
seed and the same for any number of jobs; with ``store`` each finished measurement is kept
(atomically, as a chunk of a :class:`cardsim.runner.store.ChunkStore`), so the same call after an
interruption (even ``kill -9``) replays the kept steps and goes on to the same result.
docs/tune.md gives the method, the stop rules and why not SPSA.
"""
from __future__ import annotations

import dataclasses
import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim._jit import source_hash
from cardsim._version import __version__
from cardsim.deviation import arena as make_arena
from cardsim.exploit import DEFAULT_PAIRS, adjusted_z, default_matches, deviations, exploit, rule_text
from cardsim.games.base import OptionError
from cardsim.runner.files import OutputError, release_folder, transform_id
from cardsim.runner.pool import progress_bar, show_progress
from cardsim.runner.run import check_run_seed
from cardsim.runner.store import ChunkStore
from cardsim.text import quote

DEFAULT_SWEEPS = 30
"""The default budget: this many sweeps' worth of single-parameter deviations (two a parameter),
at ``n_matches`` each; most runs end long before (docs/tune.md)."""

TRAJECTORY_COLUMNS = ("step", "sweep", "kind", "param", "from_value", "value", "gain", "se", "lo", "hi", "moved",
                      "point")
"""The columns of :attr:`TuneResult.trajectory`, one row per deviation measured."""

def _value(x: float) -> float:
    v = float(f"{float(x):.12g}")  # as Tunable.moves rounds
    return 0.0 if v == 0 else v  # no -0.0


def _key(point: dict) -> tuple:
    return tuple(sorted((k, _value(v)) for k, v in point.items()))


def measurement_seed(seed: int, step: int) -> int:
    """The match seed of measurement ``step`` of a run with seed ``seed`` (0 .. 2**64-1): two
    32-bit words of numpy's SeedSequence of ``(seed, step)``, so that measurements are
    independent of each other and the same whatever ran before."""
    lo, hi = np.random.SeedSequence([int(seed), int(step)]).generate_state(2, np.uint32)
    return int(lo) | (int(hi) << 32)


@dataclass(frozen=True)
class Axis:
    """One parameter of the search: its range ``lo .. hi`` and ``step`` (a value a player notices)."""

    name: str
    lo: float
    hi: float
    step: float

    def neighbours(self, value: float) -> list[float]:
        """The values one step below and above ``value`` that lie in the range."""
        eps = 1e-9 * max(1.0, abs(self.step))
        return [_value(v) for v in (value - self.step, value + self.step) if self.lo - eps <= v <= self.hi + eps]


@dataclass
class TuneResult:
    """What :func:`tune` found.

    ``point``: the final point (parameter -> value); ``spec``: its strategy spec; ``start``: the
    point it started from; ``ended``: ``"equilibrium"`` | ``"cycle"`` | ``"budget"``; ``cycle``:
    the points of the cycle (the first repeated), else None; ``trajectory``: one row per
    deviation measured (:data:`TRAJECTORY_COLUMNS`: ``kind`` "step" for a coordinate step,
    "exploit" for the best deviation of an exploit check; ``gain``/``se``/``lo``/``hi`` in the
    objective's unit, ``lo``/``hi`` at the family's critical value ``z``; ``point`` the
    population's point after that step); ``exploit``: the table of the last exploit check
    (None if none ran); ``used``: matches spent (``n_matches`` per deviation measured).
    """

    game: str
    strategy: str
    objective: object
    start: dict
    point: dict
    spec: str
    ended: str
    cycle: list | None
    trajectory: pd.DataFrame
    exploit: pd.DataFrame | None
    n_matches: int
    budget: int
    used: int
    seed: int
    z: float
    rule: str
    axes: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The whole result as JSON-ready data (``--format json``)."""
        o = self.objective
        trajectory = self.trajectory.astype(object).where(self.trajectory.notna(), None).to_dict(orient="records")
        out = {"game": self.game, "strategy": self.strategy,
               "objective": {"name": o.name, "doc": o.doc, "unit": o.unit, "tolerance": o.tolerance},
               "start": self.start, "point": self.point, "spec": self.spec, "ended": self.ended, "cycle": self.cycle,
               "n_matches": self.n_matches, "budget": self.budget, "used": self.used, "seed": self.seed,
               "z": self.z, "rule": self.rule,
               "params": {a.name: {"lo": a.lo, "hi": a.hi, "step": a.step} for a in self.axes.values()},
               "trajectory": trajectory, "exploit": None}
        if self.exploit is not None:
            table = self.exploit
            out["exploit"] = {"rows": table.astype(object).where(table.notna(), None).to_dict(orient="records"),
                              "attrs": _plain(table.attrs)}
        return json_ready(out)


def json_ready(value):
    """``value`` with numpy scalars as Python numbers and NaN as None (JSON has no NaN)."""
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _plain(attrs: dict) -> dict:
    out = {}
    for k, v in attrs.items():
        if hasattr(v, "name") and hasattr(v, "unit") and hasattr(v, "tolerance"):  # an Objective
            v = {"name": v.name, "doc": v.doc, "unit": v.unit, "tolerance": v.tolerance}
        out[k] = v
    return json_ready(out)


# ---------------------------------------------------------------- checking the request
def parse_params(text: str | None):
    """``--params`` text: ``a,b`` or ``a=LO:HI,b`` (a narrower range than the registry's) →
    ``{name: (lo, hi) | None}`` in the order given, or None for all; raises OptionError."""
    if text is None:
        return None
    out = {}
    for item in (x.strip() for x in text.split(",")):
        if not item:
            raise OptionError(f"--params {quote(text)}: an empty name (write a,b or a=LO:HI,b)")
        name, eq, rng = item.partition("=")
        name = name.strip()
        if name in out:
            raise OptionError(f"--params: {quote(name)} given twice")
        if not eq:
            out[name] = None
            continue
        lo, colon, hi = rng.partition(":")
        try:
            out[name] = (float(lo), float(hi))
        except ValueError:
            raise OptionError(f"--params {quote(item)}: a range is written name=LO:HI with two numbers") from None
        if not colon or not all(math.isfinite(x) for x in out[name]) or out[name][0] > out[name][1]:
            raise OptionError(f"--params {quote(item)}: a range is written name=LO:HI with LO <= HI")
    return out


def search_axes(arena, params, start: dict) -> dict:
    """The axes of the search (name -> :class:`Axis`, in the order given) for ``params`` (None:
    every tunable parameter; a list of names; or a dict name -> ``(lo, hi)`` / None, a range
    within the registry's), checked against the arena's tunables and the start point.  Raises
    StrategyError for a name that is not a parameter of the strategy or not a tunable one,
    OptionError for a range outside the registry's or a start outside the range (one line)."""
    tunables = arena.tunables
    if params is None:
        params = {name: None for name in tunables}
    elif isinstance(params, str):
        params = parse_params(params)
    elif not isinstance(params, dict):
        params = {name: None for name in params}
    if not params:
        raise OptionError("no parameters to tune: name at least one tunable parameter")
    axes = {}
    for name, rng in params.items():
        if name not in tunables:
            raise arena.not_tunable(name)
        t = tunables[name]
        lo, hi = (t.lo, t.hi) if rng is None else (float(rng[0]), float(rng[1]))
        if lo < t.lo or hi > t.hi or lo > hi:
            raise OptionError(f"the range {lo:g}:{hi:g} of {quote(name)} is not inside the registry's "
                              f"{t.lo:g}:{t.hi:g}")
        if not lo <= start[name] <= hi:
            raise OptionError(f"the start {name}={start[name]:g} is outside the range {lo:g}:{hi:g} of "
                              f"{quote(name)} (give another value in the strategy spec or a wider range)")
        axes[name] = Axis(name, lo, hi, float(t.step))
    return axes


def check_sizes(n_matches, budget) -> None:
    """OptionError (one line) unless ``n_matches`` and ``budget`` are None or whole numbers above 0."""
    for what, v in (("the number of matches a deviation (-n)", n_matches), ("the budget", budget)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0):
            raise OptionError(f"{what} must be a whole number above 0, got {quote(v)}")


# ---------------------------------------------------------------- the search
class _Steps:
    """The run's measurements, kept in ``store`` (a ChunkStore: one pickle a finished step, written
    atomically) when one is given; a kept step is read back, after checking that it measured the
    same deviations."""

    def __init__(self, store, manifest: dict):
        self.store = None
        self.done = set()
        if store is not None:
            self.store = ChunkStore(store, manifest)
            self.done = self.store.done()

    def scratch(self, step: int):
        """A folder for the unfinished measurement ``step`` (its arena chunks), or None."""
        return None if self.store is None else self.store.path / f"step-{step:06d}"

    def get(self, step: int, what: dict):
        if self.store is None or step not in self.done:
            return None
        kept = self.store.load(step)
        if kept.get("what") != what:
            raise OutputError(f"{self.store.path} holds a different tuning run at step {step}; choose another "
                              "store or remove it")
        return kept["result"]

    def put(self, step: int, what: dict, result) -> None:
        if self.store is not None:
            self.store.save(step, {"what": what, "result": result})
            shutil.rmtree(self.scratch(step), ignore_errors=True)

    def close(self):
        if self.store is not None:
            release_folder(self.store.path)


def family_size(axes: dict, pairs: int) -> int:
    """The deviations of an exploit check of ``axes`` with ``pairs`` pairs when no parameter is at
    an end of its range: the largest family exploit tries, whose critical value every step uses."""
    k = len(axes)
    return 2 * k + min(int(pairs), 4 * k * (k - 1) // 2)


def tune(game: str | None, strategy: str | None = None, params=None, objective: str | None = None,
         budget: int | None = None, n_matches: int | None = None, seed: int = 0, n_jobs: int = -1, store=None,
         progress=False, arena=None, pairs: int | None = None, level: float = 0.95, echo=None) -> TuneResult:
    """Best-response iteration by coordinates from the point of ``strategy`` (a spec: its given
    values, the others the registry's defaults; None: ``"heuristic"``, or the arena's own), in
    self-play (module docstring, docs/tune.md).

    ``params``: the parameters to move (None: all the strategy's tunables; a list of names; a dict
    name -> ``(lo, hi)`` narrowing the registry's range, or None; or the ``--params`` text
    ``"a,b=LO:HI"``); ``objective``: a name of :func:`cardsim.deviation.objectives` (None: the
    game's default); ``n_matches``: matches per deviation (None: exploit's default for the
    objective); ``budget``: matches in all, counted ``n_matches`` per deviation measured (None:
    :data:`DEFAULT_SWEEPS` sweeps' worth); ``pairs`` (None: exploit's default), ``level``: of the
    exploit checks, whose family's Bonferroni critical value every step uses too; ``store``: a
    folder keeping the finished measurements (the same call resumes); ``arena``: play in this
    arena (e.g. :func:`cardsim.standin.arena`) instead of :func:`cardsim.deviation.arena` of
    ``game``, ``strategy``, ``objective``; ``echo``: a function given each trajectory line (text)
    as it is measured; ``progress``: a tqdm bar over the budget (None: when standard error is a
    terminal).  The result is the same for any ``n_jobs``.

    Returns a :class:`TuneResult`.  Raises StrategyError / OptionError (one line) for an unknown
    game, strategy, objective or parameter, a parameter that is not tunable, a range or start
    outside the registry's, ``n_matches`` or ``budget`` <= 0; OutputError for a store that cannot
    be written or holds another run.
    """
    check_sizes(n_matches, budget)
    if not isinstance(level, (int, float)) or not 0 < level < 1:
        raise OptionError(f"level must be between 0 and 1 (e.g. 0.95), got {quote(level)}")
    pairs = DEFAULT_PAIRS if pairs is None else pairs
    if isinstance(pairs, bool) or not isinstance(pairs, (int, np.integer)) or pairs < 0:
        raise OptionError(f"pairs must be a whole number >= 0, got {quote(pairs)}")
    seed = check_run_seed(seed)
    if arena is None:
        if game is None:
            raise OptionError("tune needs a game or an arena")
        strategy = "heuristic" if strategy is None else strategy
        arena = make_arena(game, strategy, objective)
    elif objective not in (None, arena.objective.name):
        raise OptionError(f"the arena's objective is {quote(arena.objective.name)}, not {quote(objective)}")
    strategy = arena.strategy if strategy is None else strategy
    start = {k: _value(v) for k, v in arena.point(strategy).items()}
    axes = search_axes(arena, params, start)
    n = int(n_matches or default_matches(arena))
    budget = int(budget or DEFAULT_SWEEPS * 2 * len(axes) * n)
    family = family_size(axes, pairs)
    z, rule = adjusted_z(level, family), rule_text(level, family)
    manifest = {"kind": "tune", "game": arena.game, "strategy": strategy, "start": start,
                "objective": arena.objective.name, "params": {a.name: [a.lo, a.hi, a.step] for a in axes.values()},
                "n_matches": n, "seed": seed, "pairs": int(pairs), "level": level}
    if store is not None:
        manifest.update(source=source_hash(), code=transform_id(tune), cardsim=__version__)
    steps = _Steps(store, manifest)
    try:
        return _search(arena, strategy, start, axes, n, budget, seed, n_jobs, steps, progress, int(pairs), level, z,
                       rule, echo)
    finally:
        steps.close()


def _search(arena, strategy, start, axes, n, budget, seed, n_jobs, steps, progress, pairs, level, z, rule, echo):
    theta = dict(start)
    history = [_key(theta)]
    points = [dict(theta)]
    rows: list[dict] = []
    used = 0
    step = 0
    sweep = 0
    ended = None
    cycle = None
    last_exploit = None
    bar = progress_bar(budget, "match", progress)
    say = _sayer(echo, show_progress(progress))

    def move(new: dict) -> bool:
        """Move the population to ``new``; True when it held that point before (a cycle)."""
        nonlocal theta, cycle
        theta = {k: _value(v) for k, v in new.items()}
        key = _key(theta)
        if key in history:
            cycle = points[history.index(key):]
            return True
        history.append(key)
        points.append(dict(theta))
        return False

    with bar:
        while ended is None:
            moved_in_sweep = False
            for name, axis in axes.items():
                values = axis.neighbours(theta[name])
                if not values:
                    continue
                if used + n * len(values) > budget:
                    ended = "budget"
                    break
                deviants = [dict(theta, **{name: v}) for v in values]
                what = {"kind": "step", "baseline": theta, "deviants": deviants}
                table = steps.get(step, what)
                if table is None:
                    table = arena.gains(theta, deviants, n, measurement_seed(seed, step), n_jobs=n_jobs,
                                        store=steps.scratch(step), progress=False)
                    steps.put(step, what, table)
                used += n * len(values)
                bar.update(n * len(values))
                gains = table["gain"].to_numpy(np.float64)
                ses = table["se"].to_numpy(np.float64)
                clear = gains - z * ses > 0
                best = int(np.argmax(np.where(clear, gains, -np.inf))) if clear.any() else None
                before = theta[name]
                cycled = False
                if best is not None:
                    cycled = move(deviants[best])
                    moved_in_sweep = True
                for i, v in enumerate(values):
                    rows.append(_row(step, sweep, "step", name, before, v, gains[i], ses[i], z, i == best, theta))
                    say(rows[-1], arena)
                step += 1
                if cycled:
                    ended = "cycle"
                    break
            if ended is None and not moved_in_sweep:
                ended, last_exploit, used, step = _check(arena, theta, axes, n, budget, used, step, seed, n_jobs,
                                                         steps, pairs, level, sweep, rows, move, bar, say)
            sweep += 1
    trajectory = pd.DataFrame(rows, columns=list(TRAJECTORY_COLUMNS))
    return TuneResult(game=arena.game, strategy=strategy, objective=arena.objective, start=start,
                      point=dict(theta), spec=arena.spec(theta), ended=ended, cycle=cycle, trajectory=trajectory,
                      exploit=last_exploit, n_matches=n, budget=budget, used=used, seed=seed, z=z, rule=rule,
                      axes=axes)


def _check(arena, theta, axes, n, budget, used, step, seed, n_jobs, steps, pairs, level, sweep, rows, move, bar,
           say):
    """The exploit check of a sweep without a move: ``(ended or None, exploit table, used, step)``.
    A clear gain (inside the search's ranges) moves the population (``move``) and the search goes
    on; none ends it at an equilibrium."""
    k = len(deviations(arena, theta, list(axes), pairs, 0))
    if used + n * k > budget:
        return "budget", None, used, step
    what = {"kind": "exploit", "baseline": theta}
    table = steps.get(step, what)
    if table is None:
        # The arena re-made at θ: exploit's deviants name only the parameters they change, and an
        # arena fills the others in from its own strategy (the start), not from the point checked.
        here = dataclasses.replace(arena, strategy=arena.spec(theta))
        table = exploit(strategy=here.strategy, n_matches=n, seed=measurement_seed(seed, step), n_jobs=n_jobs,
                        store=steps.scratch(step), params=list(axes), pairs=pairs, level=level, progress=False,
                        arena=here)
        steps.put(step, what, table)
    used += n * len(table)
    bar.update(n * len(table))
    this, step = step, step + 1
    news = [{k: _value(v) for k, v in arena.point(s).items()} for s in table["spec"]]
    inside = np.array([all(a.lo - 1e-9 <= new[k] <= a.hi + 1e-9 for k, a in axes.items()) for new in news])
    clear = table["clear"].to_numpy(bool) & inside
    if not clear.any():
        best = int(np.argmax(table["gain"].to_numpy(np.float64)))
        rows.append(_exploit_row(this, sweep, table.iloc[best], theta, news[best], False, theta))
        say(rows[-1], arena)
        return "equilibrium", table, used, step
    # A single step before a pair: a pair's gain is often one parameter's alone, and moving its
    # partner with it would drag a parameter that gains nothing.
    single = clear & ~table["param"].astype(str).str.contains("+", regex=False).to_numpy()
    pick = single if single.any() else clear
    best = int(np.argmax(np.where(pick, table["gain"].to_numpy(np.float64), -np.inf)))
    before = dict(theta)
    cycled = move(news[best])
    rows.append(_exploit_row(this, sweep, table.iloc[best], before, news[best], True, news[best]))
    say(rows[-1], arena)
    return ("cycle" if cycled else None), table, used, step


def _row(step, sweep, kind, param, before, value, gain, se, z, moved, point) -> dict:
    return {"step": step, "sweep": sweep, "kind": kind, "param": param, "from_value": before, "value": value,
            "gain": float(gain), "se": float(se), "lo": float(gain - z * se), "hi": float(gain + z * se),
            "moved": bool(moved), "point": dict(point)}


def _exploit_row(step, sweep, row, theta, new, moved, point) -> dict:
    """A trajectory row for exploit's deviation ``row`` from ``theta`` to ``new`` (a pair's values
    written ``a/b``, as exploit writes them)."""
    names = str(row["param"]).split("+")
    before = theta[names[0]] if len(names) == 1 else "/".join(f"{theta[k]:g}" for k in names)
    value = new[names[0]] if len(names) == 1 else "/".join(f"{new[k]:g}" for k in names)
    return {"step": step, "sweep": sweep, "kind": "exploit", "param": str(row["param"]), "from_value": before,
            "value": value, "gain": float(row["gain"]), "se": float(row["se"]), "lo": float(row["lo"]),
            "hi": float(row["hi"]), "moved": bool(moved), "point": dict(point)}


# ---------------------------------------------------------------- text
def gain_text(x: float, unit: str) -> str:
    """A gain for people: percentage points of a share (``+0.35 pp``), else the unit's number (``+515.1``)."""
    return f"{100 * x:+.2f} pp" if "share" in unit else f"{x:+,.1f}"


def step_line(row: dict, objective) -> str:
    """One trajectory row as text: ``step   3 (sweep 0) aggression 0 -> 0.25: +515.1 [+470.2, +560.0]  moved``."""
    unit = objective.unit
    frm, to = row["from_value"], row["value"]
    frm = f"{frm:g}" if isinstance(frm, float) else frm
    to = f"{to:g}" if isinstance(to, float) else to
    what = "exploit check, best: " if row["kind"] == "exploit" else ""
    verdict = "moved" if row["moved"] else "clear" if row["lo"] > 0 else ""
    return (f"step {row['step']:>3} (sweep {row['sweep']}) {what}{row['param']} {frm} -> {to}: "
            f"{gain_text(row['gain'], unit)} [{gain_text(row['lo'], unit)}, {gain_text(row['hi'], unit)}]"
            f"{'  ' + verdict if verdict else ''}")


def _sayer(echo, bar_shown: bool):
    """``say(row, arena)``: the row's line to ``echo`` (above the progress bar when one is shown)."""
    if echo is None:
        return lambda row, arena: None

    def say(row, arena):
        line = step_line(row, arena.objective)
        if bar_shown:
            from tqdm import tqdm  # local: tqdm is slow to import; only a progress bar needs it

            with tqdm.external_write_mode():
                echo(line)
        else:
            echo(line)

    return say


def point_text(point: dict) -> str:
    """``a=1,b=0.25``: a point as the parameter part of a spec."""
    return ",".join(f"{k}={v:g}" for k, v in point.items())


def trajectory_csv(result: TuneResult) -> str:
    """The trajectory as CSV, the point as its parameter text (``a=1,b=0.25``)."""
    t = result.trajectory.copy()
    t["point"] = [point_text(p) for p in t["point"]]
    return t.to_csv(index=False)


def summary(result: TuneResult) -> list[str]:
    """The end of the text output: how the search ended, the final point (and the cycle), the last
    exploit check."""
    o = result.objective
    tol = gain_text(o.tolerance, o.unit).lstrip("+")
    lines = ["",
             f"{result.game} {result.strategy}: ended: {result.ended}, after {result.used:,} of {result.budget:,} "
             f"matches ({result.n_matches:,} a deviation, seed {result.seed})",
             f"objective {o.name}: {o.doc}; {o.unit}, tolerance {tol}",
             f"a step moves when its gain is clear: lower bound above 0, {result.rule}",
             f"start: {point_text(result.start)}",
             f"point: {result.spec}"]
    changed = [f"{k} {result.start[k]:g} -> {v:g}" for k, v in result.point.items() if result.start[k] != v]
    lines.append("moved: " + ("; ".join(changed) if changed else "nothing"))
    if result.cycle is not None:
        lines.append(f"cycle of {len(result.cycle)} points (the last move returned to the first):")
        lines += [f"    {point_text(p)}" for p in result.cycle]
    if result.exploit is not None:
        a = result.exploit.attrs
        e = a["exploitability"]
        lines.append(f"exploit check ({a['family']} deviations, pairs included): largest gain "
                     f"{gain_text(e['gain'], o.unit)} ({e['param']} = {e['value']}) "
                     f"[{gain_text(e['lo'], o.unit)}, {gain_text(e['hi'], o.unit)}]; {a['verdict']}; detects "
                     f"{gain_text(a['detectable'], o.unit).lstrip('+')} with probability 0.8")
    return lines
