"""Deviation gains: what one side gains by changing its strategy while the others keep theirs.

A **deviation** is a strategy spec played by one side against a baseline spec played by everybody
else; its **gain** is the deviating side's value of an objective minus the baseline's, over whole
matches, paired on the same match seeds (the same deals until the plays diverge):

* partnership games (Vint, Five Hundred; the spec's ``facts.partnerships``): one partnership plays
  the deviant, the other the baseline, in both seatings, as :func:`cardsim.match_compare.match_compare`
  pairs them; per match the gain is half the difference of team 0's value with the deviant in seats
  0 and 2 and with it in seats 1 and 3 (the deviating side's value minus the even value);
* seat games (501): one seat plays the deviant and the others the baseline, the deviating seat at
  every position in turn, each line-up paired with the all-baseline table on the same seeds; per match
  the gain is the mean over positions of the seat's value minus its value with the baseline there.

An objective (:class:`Objective`, declared per game in its spec's ``facts.objectives``, the default
first) says what is measured (``win``: the share of the match's win, 0..1; ``margin``: the side's
points minus the other side's) and over which tables (Five Hundred: quebec and subtract scoring;
501: 3 and 4 seats), the gain being the mean over the tables.  Every table plays the same ``n``
match numbers; the per-match gains of all tables are combined before the mean and its standard
error are taken, so the interval is that of independent matches.

Runs are chunked (:data:`CHUNK` matches a task) through :func:`cardsim.runner.store.run_chunks`:
chunk sums are added in chunk order, so a result is the same for any ``n_jobs`` and after a resume
from ``store`` (a folder keeping each finished chunk).

The :class:`Arena` is the view that ``cardsim exploit`` and ``cardsim tune`` work on: a strategy's
tunable parameters as a point (name -> value), the spec of a point, and the gains of deviant points.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardsim import frames
from cardsim.games import get_game
from cardsim.games.base import GainObjective, OptionError
from cardsim.match_compare import seatings, team0_measures
from cardsim.rules.compile import split_spec
from cardsim.rules.source import read
from cardsim.runner.files import transform_id
from cardsim.runner.pool import match_seconds
from cardsim.runner.run import make_run
from cardsim.runner.store import ChunkStore, run_chunks
from cardsim.stats import mean_interval
from cardsim.strategies.registry import Registry, Strategy, StrategyError, Tunable, number_text
from cardsim.text import quote

CHUNK = 1000
"""Matches of every line-up per task: small enough that an interrupted run loses little and two
cores share a family of deviations evenly, large enough that a task's overhead is small."""


@dataclass(frozen=True)
class Objective(GainObjective):
    """What a deviation gain measures, in :attr:`unit`: a game's declared
    :class:`cardsim.games.base.GainObjective` (``name``, ``doc``, ``unit``, ``tolerance`` — the gain
    that counts as not worth having: Vint points 25.0, win shares 0.005 —, ``measure``, ``tables``,
    ``beside``, ``matches``) with the ``game`` it belongs to."""

    game: str = ""

    def columns(self) -> list[str]:
        """The columns :func:`deviation_gains` adds beside ``gain`` (per table, then ``beside``)."""
        per_table = [f"gain_{label}" for label, _, _ in self.tables] if len(self.tables) > 1 else []
        return per_table + [name for name, _ in self.beside]


def objectives(game: str) -> dict[str, Objective]:
    """The objectives of ``game`` (name -> :class:`Objective`), the default first.  Raises
    OptionError for a game that declares none (its spec's ``facts.objectives``)."""
    spec = get_game(game)
    declared: tuple[GainObjective, ...] = spec.facts.objectives if spec.facts is not None else ()
    if not declared:
        raise OptionError(f"{spec.name} declares no objectives for deviation gains")
    return {o.name: Objective(o.name, o.doc, o.unit, float(o.tolerance), o.measure, tuple(o.tables), tuple(o.beside),
                              int(o.matches), game=spec.name) for o in declared}


def objective_of(game: str, name: str | None) -> Objective:
    """The objective ``name`` of ``game`` (None: its default); OptionError naming the known ones."""
    known = objectives(game)
    if name is None:
        return next(iter(known.values()))
    if name not in known:
        raise OptionError(f"{get_game(game).name} has no objective {quote(name)} (objectives: {', '.join(known)})")
    return known[name]


# ------------------------------------------------------------------------------ line-ups and values
def _lineups(partnerships: bool, seats: int, baseline: str, deviants: list[str]) -> list[list[str]]:
    """Every line-up a chunk plays, in a fixed order: partnership games, per deviant, the deviant in
    seats 0 and 2 then in seats 1 and 3 (:func:`cardsim.match_compare.seatings`); seat games the
    all-baseline table first, then per deviant the deviant at seat 0, 1, ... in turn."""
    if partnerships:
        return [lineup for d in deviants for lineup in seatings(d, baseline)]
    out = [[baseline] * seats]
    for d in deviants:
        out += [[d if s == seat else baseline for s in range(seats)] for seat in range(seats)]
    return out


def _seat_values(game: str, rows, seats: int, measure: str) -> np.ndarray:
    """float64[matches, seats]: each seat's share of each match's win (1/seats when nobody won).
    Only ``win`` is defined for a seat game (OptionError otherwise)."""
    if measure != "win":
        raise OptionError(f"a seat game's deviation gain measures the win share, not {quote(measure)}")
    df = frames.matches(game, rows, seats)
    won = np.stack([df[f"win_{s}"].to_numpy(np.float64, na_value=0.0) for s in range(seats)], axis=1)
    n = won.sum(1, keepdims=True)
    return np.where(n > 0, won / np.maximum(n, 1.0), 1.0 / seats)


def _team0_values(game: str, rows, seats: int, measures: list[str]) -> dict:
    """``{measure: float64[matches]}``: team 0's value of each measure (its win share, its points minus
    the other team's)."""
    t = team0_measures(frames.matches(game, rows, seats))
    return {m: t[m].to_numpy(np.float64) for m in measures}


def _gain_sums(game: str, partnerships: bool, tables: list, measures: list[str], baseline: str,
               deviants: list[str], seed: int, start: int, count: int) -> np.ndarray:
    """One chunk: float64[deviants, tables + 1, measures, 3] of (n, Σg, Σg²) of the per-match gain
    ``g`` per table and for the mean over the tables (the last table index), per measure."""
    spec = get_game(game)
    out = np.zeros((len(deviants), len(tables) + 1, len(measures), 3))
    per_match = np.zeros((len(deviants), len(tables), len(measures), count))
    for t, (seats, setups) in enumerate(tables):
        values = []
        for setup in setups:
            rows, _ = spec.matches.play(seed, start, count, setup)
            if partnerships:
                v = _team0_values(game, rows, seats, measures)
                values.append(np.stack([v[m] for m in measures]))  # [measures, count]
            else:
                values.append(np.stack([_seat_values(game, rows, seats, m) for m in measures]))  # [m, count, seats]
        for d in range(len(deviants)):
            if partnerships:
                first, swapped = values[2 * d], values[2 * d + 1]
                per_match[d, t] = (first - swapped) / 2.0
            else:
                base = values[0]
                own = [values[1 + d * seats + s][:, :, s] - base[:, :, s] for s in range(seats)]
                per_match[d, t] = np.mean(own, axis=0)
    mean = per_match.mean(axis=1)
    for k, g in enumerate([per_match[:, t] for t in range(len(tables))] + [mean]):
        out[:, k, :, 0] = count
        out[:, k, :, 1] = g.sum(-1)
        out[:, k, :, 2] = (g * g).sum(-1)
    return out


def _measures(objective: Objective) -> list[str]:
    """The measures a run needs: the objective's, then those of its ``beside`` columns."""
    out = [objective.measure]
    for _, m in objective.beside:
        if m not in out:
            out.append(m)
    return out


def check_specs(game: str, baseline, deviants) -> list[str]:
    """The deviants as a list of spec strings, every spec resolved (StrategyError for a bad one,
    OptionError for an empty list or a non-string)."""
    spec = get_game(game)
    if isinstance(deviants, str) or not isinstance(deviants, (list, tuple)) or not deviants:
        raise OptionError("deviants must be a non-empty list of strategy specs")
    for s in [baseline, *deviants]:
        if not isinstance(s, str):
            raise StrategyError(f"a strategy spec must be a string NAME[:param=value,...], got {quote(s)}")
        spec.table.registry.resolve(s)
    return list(deviants)


def deviation_gains(game: str, baseline: str, deviants: list[str], n_matches: int, *, objective: str | None = None,
                    seed: int = 0, n_jobs: int = -1, store=None, progress: bool = False,
                    chunk_size: int = CHUNK) -> pd.DataFrame:
    """The gain of each deviant spec against ``baseline`` over ``n_matches`` whole matches per
    line-up and table (module docstring), paired on the same match seeds.

    Returns one row per deviant, in order: ``deviant`` (str), ``objective`` (its name), ``n``
    (matches per seating / position and table, int64), ``gain`` and ``se`` (float64, in the
    objective's unit: the deviating side's value minus the baseline's, and its standard error over
    matches), then the objective's :meth:`Objective.columns` (float64: ``gain_<table>`` per table
    when there are several, and ``beside`` measures: Vint ``win_gain`` / ``points_gain``).
    ``attrs`` hold ``game``, ``baseline``, ``objective`` (the :class:`Objective`), ``seed``, and
    ``se_<column>`` for each beside column.  A deviant equal to the baseline gains exactly 0.

    ``n_jobs``: workers (-1 = all cores; the result is the same for any); ``store``: a folder
    keeping each finished chunk, so the same call resumes after an interruption (OutputError when it
    holds another run); ``progress``: a progress bar.  Raises OptionError (bad count, seed,
    objective, a game without matches or objectives) and StrategyError (a bad spec) in one line.
    """
    obj = objective_of(game, objective)
    deviants = check_specs(game, baseline, deviants)
    spec = get_game(game)
    if spec.matches is None:
        raise OptionError(f"{spec.name} has no match mode")
    partnerships = bool(spec.facts.partnerships)
    measures = _measures(obj)
    tables, runs = [], []
    for _, seats, rules in obj.tables:
        seats = spec.default_seats if seats is None else seats
        lineups = _lineups(partnerships, seats, baseline, deviants)
        table_runs = [make_run(game, n_matches, seed, lineup, seats, rules, chunk_size, what="the number of matches")
                      for lineup in lineups]
        tables.append((seats, [r.setup for r in table_runs]))
        runs.append(table_runs[0])
    run = runs[0]
    keep = None
    if store is not None:
        manifest = dict(run.manifest(), kind="deviation_gains", baseline=baseline, deviants=deviants,
                        objective=obj.name, tables=[[label, r.setup.seats, dict(r.setup.rules)]
                                                    for (label, _, _), r in zip(obj.tables, runs)],
                        measures=measures, code=transform_id(_gain_sums))
        keep = ChunkStore(store, manifest)
    chunks = run.chunks()
    plays = sum(len(setups) for _, setups in tables)
    total = np.zeros((len(deviants), len(tables) + 1, len(measures), 3))
    seconds = sum(match_seconds(game, run.n * len(setups), None, setups[0].rules) for _, setups in tables)
    for part in run_chunks(_gain_sums, [(game, partnerships, tables, measures, baseline, deviants, run.seed, start,
                                         count) for _, start, count in chunks],
                           [count * plays for _, _, count in chunks], n_jobs, progress, keep, unit="match",
                           seconds=seconds):
        total += part  # in chunk order: the same float sums however the run was split or resumed
    return _gain_table(total, obj, deviants, measures, baseline, game, run.seed)


def mean_se(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error of the mean (:func:`cardsim.stats.mean_interval`), each float64 of
    ``sums``' shape without its last axis, from ``sums`` holding (n, Σg, Σg²) along the last axis
    (a gain's count, sum and sum of squares)."""
    n, s, s2 = np.moveaxis(sums, -1, 0)
    mean, se, _, _ = mean_interval(s, s2, n)
    return mean, se


def _gain_table(total, obj: Objective, deviants, measures, baseline, game, seed) -> pd.DataFrame:
    mean, se = mean_se(total)  # [deviants, tables + 1, measures]
    main = measures.index(obj.measure)
    out = pd.DataFrame({"deviant": list(deviants), "objective": obj.name,
                        "n": total[:, -1, main, 0].astype(np.int64),
                        "gain": mean[:, -1, main], "se": se[:, -1, main]})
    attrs = {}
    if len(obj.tables) > 1:
        for t, (label, _, _) in enumerate(obj.tables):
            out[f"gain_{label}"] = mean[:, t, main]
            attrs[f"se_gain_{label}"] = se[:, t, main].tolist()
    for column, m in obj.beside:
        out[column] = mean[:, -1, measures.index(m)]
        attrs[f"se_{column}"] = se[:, -1, measures.index(m)].tolist()
    out.attrs.update({"game": game, "baseline": baseline, "objective": obj, "seed": seed, **attrs})
    return out


# -------------------------------------------------------------------------------------- arenas
@dataclass
class Arena:
    """A strategy's tunable parameters as points, and the gains of deviant points against a
    baseline point: what ``cardsim exploit`` and ``cardsim tune`` work on (never a game directly).

    ``game``, ``strategy`` (the spec the arena was made from: its name and any non-tunable values
    given, kept in every spec of a point), ``objective`` (:class:`Objective`), ``tunables`` (name ->
    :class:`~cardsim.strategies.registry.Tunable`, parameter order), ``registry`` (the game's)."""

    game: str
    strategy: str
    objective: Objective
    tunables: dict
    registry: Registry
    _fixed: list = field(default_factory=list)

    @property
    def base(self) -> Strategy:
        """The strategy (the registry's) whose parameters the points are."""
        return self.registry[self.strategy.partition(":")[0].strip()]

    def point(self, spec: str) -> dict[str, float]:
        """The tunable values of ``spec`` (its strategy must be the arena's; defaults filled in),
        ``{name: float}`` in parameter order.  Raises StrategyError for another strategy, a bad
        spec or a value outside a tunable's range."""
        strategy, vec = self.registry.resolve(spec)
        if strategy.name != self.base.name:
            raise StrategyError(f"{quote(spec)} is not a spec of {quote(self.base.name)}")
        out = {name: float(vec[strategy.param_index(name)]) for name in self.tunables}
        for name, value in out.items():
            self.tunables[name].check(value, strategy.name)
        return out

    def spec(self, point: dict) -> str:
        """The spec text of ``point`` (name -> value; missing names keep the arena's values): the
        strategy's name, its non-tunable values as given, then every tunable value that differs
        from the registered default (``"heuristic:aggression=0.25"``).  Raises StrategyError for a
        name that is not tunable or a value outside its range."""
        values = self.point(self.strategy)
        for name, value in point.items():
            if name not in self.tunables:
                raise self.not_tunable(name)
            self.tunables[name].check(float(value), self.base.name)
            values[name] = float(value)
        items = list(self._fixed) + [f"{name}={number_text(v)}" for name, v in values.items()
                                     if v != self.base.params[name]]
        return self.base.name + (":" + ",".join(items) if items else "")

    def not_tunable(self, name: str) -> StrategyError:
        """The error for a parameter ``name`` that is unknown or not tunable (the tunables listed)."""
        if name in self.base.params or (self.base.table is not None and name == self.base.table.name):
            return StrategyError(f"parameter {quote(name)} of {quote(self.base.name)} is not tunable (tunable: "
                                 f"{', '.join(self.tunables)})")
        return StrategyError(f"strategy {quote(self.base.name)} has no parameter {quote(name)} (tunable: "
                             f"{', '.join(self.tunables)})")

    def gains(self, baseline: dict, deviants: list[dict], n_matches: int, seed: int, n_jobs=-1, store=None,
              progress=False) -> pd.DataFrame:
        """:func:`deviation_gains` of the deviant points against the baseline point (each a dict
        name -> value, as :meth:`spec` takes): one row per deviant, in order."""
        if not isinstance(deviants, (list, tuple)) or not deviants:
            raise OptionError("deviants must be a non-empty list of points")
        return deviation_gains(self.game, self.spec(baseline), [self.spec(d) for d in deviants], n_matches,
                               objective=self.objective.name, seed=seed, n_jobs=n_jobs, store=store,
                               progress=progress)


@dataclass
class FileArena(Arena):
    """The :class:`Arena` of a rule file (``rules:PATH[:name=value,...]``, docs/rules-files.md):
    its tunables are the file's parameters declared with a range (``nt_low = {value = 15, range =
    [12, 18], step = 1}``); a point's spec sets them after the path, and every deviation is the
    file compiled again with its values (the parameters are put into the conditions at compile
    time).  ``path``: the file as the spec names it; ``defaults``: the file's own values."""

    path: str = ""
    defaults: dict = field(default_factory=dict)

    def point(self, spec: str) -> dict[str, float]:
        strategy, _ = self.registry.resolve(spec)  # the file compiled with these values: any error here
        path, values, _ = split_spec(spec.partition(":")[2]) if strategy.name == self.base.name else ("", {}, {})
        if path != self.path:
            raise StrategyError(f"{quote(spec)} is not a spec of the rule file {quote(self.path)}")
        out = {name: float(values.get(name, self.defaults[name])) for name in self.tunables}
        for name, value in out.items():
            self.tunables[name].check(value, f"rules:{self.path}")
        return out

    def spec(self, point: dict) -> str:
        values = self.point(self.strategy)
        for name, value in point.items():
            if name not in self.tunables:
                raise self.not_tunable(name)
            self.tunables[name].check(float(value), f"rules:{self.path}")
            values[name] = float(value)
        items = list(self._fixed) + [f"{name}={number_text(v)}" for name, v in values.items()
                                     if v != self.defaults[name]]
        return f"rules:{self.path}" + (":" + ",".join(items) if items else "")

    def not_tunable(self, name: str) -> StrategyError:
        tunable = ", ".join(self.tunables)
        if name in self.defaults:
            return StrategyError(f"parameter {quote(name)} of {quote(self.path)} is not tunable (tunable: {tunable}; "
                                 f"write name = {{value = V, range = [LO, HI], step = S}} in its [params])")
        return StrategyError(f"rule file {quote(self.path)} has no parameter {quote(name)} (tunable: {tunable})")


def _file_arena(spec, obj, strategy: str, base: Strategy) -> FileArena:
    path, values, base_values = split_spec(strategy.partition(":")[2])
    file = read(path)
    if not file.tunables:
        raise StrategyError(f"rule file {quote(path)} has no tunable parameters (declare one in its [params] as "
                            f"name = {{value = V, range = [LO, HI], step = S}}, docs/rules-files.md)")
    tunables = {name: Tunable(name, *span) for name, span in file.tunables.items()}
    fixed = [f"{k}={number_text(v)}" for k, v in values.items() if k not in tunables]
    fixed += [f"base.{k}={number_text(v)}" for k, v in base_values.items()]
    out = FileArena(spec.name, strategy, obj, tunables, spec.table.registry, fixed, path, dict(file.params))
    out.point(strategy)  # a value outside a tunable's range is an error here
    return out


def arena(game: str, strategy: str = "heuristic", objective: str | None = None) -> Arena:
    """The :class:`Arena` of ``strategy`` (a spec: ``"heuristic"``, ``"heuristic:aggression=0.25"``
    whose tunable values are the arena's starting point) in ``game`` for ``objective`` (None: the
    game's default).  Raises StrategyError for an unknown strategy, a strategy without tunable
    parameters or a value outside a tunable's range, OptionError for an unknown objective."""
    spec = get_game(game)
    obj = objective_of(game, objective)
    if not isinstance(strategy, str):
        raise StrategyError(f"a strategy spec must be a string NAME[:param=value,...], got {quote(strategy)}")
    base, _ = spec.table.registry.resolve(strategy)
    if base.file:
        return _file_arena(spec, obj, strategy, base)
    if not base.tunables:
        tunable = [s.name for s in spec.table.registry.strategies() if s.tunables]
        raise StrategyError(f"strategy {quote(base.name)} of {spec.name} has no tunable parameters (strategies "
                            f"with some: {', '.join(tunable)})")
    _, _, rest = strategy.partition(":")
    fixed = [item.strip() for item in rest.split(",")
             if item.strip() and item.partition("=")[0].strip() not in base.tunables]
    out = Arena(spec.name, strategy, obj, dict(base.tunables), spec.table.registry, fixed)
    out.point(strategy)  # a value outside a tunable's range is an error here
    return out
