"""501's blind chart as exploit parameters: does one seat gain by changing one cell?

The settled chart (:mod:`cardsim.analysis.g501.fixed`) is played by every seat.  Its cells are a
strategy's parameters like any other: a seat that deviates in **one** situation — the cell's blind
level one step up or down (look < 70 < 80 < … < 150, :data:`~cardsim.games.g501.strategies.CELL_LEVELS`)
or blind <-> look — while the other seats keep the chart, should gain nothing if the chart is an
equilibrium of its own family.  :func:`deviation_table` measures that gain with whole games:

* the cells tried are the ones **met most** (:func:`cell_frequencies`: every seat of every deal of
  games in which every seat plays the chart is in one cell at the start of the deal — its score,
  its closest rival's, its auction position, mapped as the engine maps them — counted, most first);
* the cells are an arena's parameters (:class:`ChartArena`: cell ``own/lead/position`` -> its
  digit 0..6 of the ``cells`` table, 0 look, k blind to the k-th level), so the measurement is
  ``cardsim exploit``'s (:func:`cardsim.exploit.exploit` with ``arena=``): whole games through
  :func:`cardsim.deviation.deviation_gains` — the deviating seat at every position in turn, each
  line-up paired with every seat on the chart on the same match seeds, over 3- and 4-seat tables
  (the game's default objective) — and the **gain** is the deviating seat's share of game wins
  minus its share when it keeps the chart, in percentage points (pp);
* the **multiplicity rule** is exploit's: Bonferroni over the family (every deviation tried),
  each interval at ``1 - (1 - level) / m`` two-sided, so all ``m`` hold together with probability
  at least ``level`` and trying more cells cannot make more false "exploitable" verdicts;
* the verdict is exploit's: ``exploitable`` when some deviation's simultaneous interval lies
  wholly above 0, ``within tolerance`` (0.5 pp, the objective's tolerance) when every interval's upper end is at
  most 0.5 pp, else ``not decided at this size``; ``exceeds`` marks a row whose interval lies
  wholly above 0.5 pp.

Units: gains in pp of the deviating seat's game-win share (0..100 scale); ``played`` a share of
seat-deals (0..1).  Games are 3-seat games from 501 each (docs/RULES.md §1.8).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import cardsim
from cardsim._jit import source_hash
from cardsim.analysis.g501.policy import chart_table, nearest_cell
from cardsim.deviation import deviation_gains, objective_of
from cardsim.exploit import exploit
from cardsim.games.g501.strategies import CELL_LEVELS, REGISTRY, cells_text
from cardsim.strategies.registry import StrategyError, Tunable

GAME = "501"
SEATS = 3
TOLERANCE_PP = 0.5
"""The equilibrium target (docs/exploit.md): a deviation gains no more than 0.5 pp of game wins (the objective's tolerance)."""
LEVEL = 0.95
TOP = 6
"""Cells tried by the report: the most met ones."""
FREQUENCY_MATCHES = 2_000
"""Games played to count how often each cell is met."""
ORDER = (0,) + tuple(CELL_LEVELS)
"""A cell's options in order, indexed by its digit: look (0), then the blind levels."""
GAMES = 10_000
"""Games per line-up and table in the report's table."""
QUICK_GAMES, QUICK_TOP, QUICK_FREQUENCY = 300, 2, 200
"""The quick report's games, cells tried and games counted for the cells' frequencies."""
COLUMNS = ["cell", "own", "lead", "position", "played", "policy", "deviation", "change", "n", "gain_pp", "se_pp",
           "lo_pp", "hi_pp", "gain_3_pp", "gain_4_pp", "clear", "exceeds"]


def _option(level: int) -> str:
    return f"blind:{level}" if level else "look"


def cell_text(cell) -> str:
    """``own/lead/position`` of a cell, lead signed (``300/+50/2``): its parameter name."""
    return f"{cell[0]}/{cell[1]:+d}/{cell[2]}"


def _cells(spec: str) -> dict:
    """Cell ``(own, lead, position)`` -> its level (0 look) in the chart ``spec``."""
    table = chart_table(spec)
    return {(int(o), int(lead), int(p)): int(lvl)
            for o, lead, p, lvl in zip(table.own, table.lead, table.position, table.level)}


def cell_frequencies(spec: str, n_matches: int = FREQUENCY_MATCHES, seed: int = 0, n_jobs: int = -1) -> pd.DataFrame:
    """How often a seat is in each chart cell at the start of a deal, in ``n_matches`` 3-seat games
    with every seat on ``spec``: columns ``own``, ``lead``, ``position``, ``count`` (seat-deals),
    ``played`` (their share, 0..1), most met first (ties: the cell order).  A seat's cell: its
    score before the deal, its closest rival's (the lowest of the others), its auction position
    ((seat - dealer - 1) mod 3), mapped by :func:`~cardsim.analysis.g501.policy.nearest_cell`."""
    _, deals = cardsim.play_match(GAME, n_matches, seed=seed, strategies=[spec] * SEATS, seats=SEATS, n_jobs=n_jobs)
    scores = deals[[f"score_{s}" for s in range(SEATS)]].to_numpy(np.int64)
    dealer = deals.dealer.to_numpy(np.int64)
    counts: dict = {}
    for s in range(SEATS):
        rival = np.delete(scores, s, axis=1).min(axis=1)
        position = (s - dealer - 1) % SEATS
        for key in zip(scores[:, s], rival, position):
            cell = nearest_cell(int(key[0]), int(key[1]), int(key[2]))
            counts[cell] = counts.get(cell, 0) + 1
    table = chart_table(spec)[["own", "lead", "position"]]
    table["count"] = [counts.get((o, lead, p), 0) for o, lead, p in zip(table.own, table.lead, table.position)]
    table["played"] = table["count"] / max(1, table["count"].sum())
    return table.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)


def with_cell(spec: str, cell, level: int) -> str:
    """``spec`` (a ``chart`` strategy spec) with the cell ``(own, lead, position)`` bidding blind
    up to ``level`` (0 = look); its other parameters kept.  Raises ValueError for a cell or level
    the chart has not."""
    return with_cells(spec, {tuple(cell): level})


def with_cells(spec: str, changes: dict) -> str:
    """``spec`` with each cell of ``changes`` (cell -> level, 0 look) changed."""
    levels = _cells(spec)
    for cell, level in changes.items():
        if cell not in levels:
            raise ValueError(f"the chart has no cell {cell_text(cell)}")
        if level not in ORDER:
            raise ValueError(f"level must be 0 (look) or one of {', '.join(map(str, CELL_LEVELS))}, got {level!r}")
        levels[cell] = level
    name, _, rest = spec.partition(":")
    others = [p.strip() for p in rest.split(",") if p.strip() and p.partition("=")[0].strip() != "cells"]
    out = f"{name.strip()}:cells={cells_text([ORDER.index(v) for v in levels.values()])}"
    out += "".join("," + p for p in others)
    REGISTRY.resolve(out)
    return out


def deviations(level: int) -> list[tuple[str, int]]:
    """The deviations of a cell at ``level`` (0 look): ``(change, new level)`` — ``down`` and
    ``up`` one step along :data:`ORDER` (a step down from the lowest level is look, a step up from
    look the lowest level) and ``look`` for a blind cell whose step down is not already look."""
    i = ORDER.index(int(level))
    out = []
    if i > 0:
        out.append(("down", ORDER[i - 1]))
    if i + 1 < len(ORDER):
        out.append(("up", ORDER[i + 1]))
    if i > 1:
        out.append(("look", 0))
    return out


@dataclass(frozen=True)
class CellTunable(Tunable):
    """A chart cell as a tunable parameter: its digit (0 look, k blind to the k-th level), moved one
    step down or up, and to 0 (look) from a blind level above the lowest: :func:`deviations`."""

    def moves(self, value: float) -> list[float]:
        return sorted(float(ORDER.index(new)) for _, new in deviations(ORDER[int(value)]))


@dataclass
class ChartArena:
    """The ``chart`` strategy's cells as an arena (:class:`cardsim.deviation.Arena`'s interface, for
    :func:`cardsim.exploit.exploit`): parameter ``own/lead/position`` = the cell's digit 0..6;
    ``strategy``: the chart spec whose other cells and parameters every point keeps."""

    strategy: str
    game: str = GAME
    objective: object = None
    tunables: dict = field(default_factory=dict)
    last: pd.DataFrame | None = None
    """The last :meth:`gains` table (its per-table columns ``gain_3`` / ``gain_4``)."""

    def __post_init__(self):
        cells = _cells(self.strategy)  # a spec that is not a chart is a StrategyError here
        self.objective = objective_of(GAME, None)
        self.tunables = {cell_text(c): CellTunable(cell_text(c), 0, len(ORDER) - 1, 1, "int") for c in cells}
        self._cell = {cell_text(c): c for c in cells}

    def point(self, spec: str) -> dict[str, float]:
        """The digits of every cell of the chart ``spec``."""
        return {cell_text(c): float(ORDER.index(v)) for c, v in _cells(spec).items()}

    def spec(self, point: dict) -> str:
        """The arena's chart with the cells of ``point`` (name -> digit) changed."""
        for name in point:
            if name not in self.tunables:
                raise self.not_tunable(name)
        return with_cells(self.strategy, {self._cell[k]: ORDER[int(v)] for k, v in point.items()})

    def not_tunable(self, name: str) -> StrategyError:
        return StrategyError(f"the chart has no cell {name!r} (cells are own/lead/position, e.g. 501/+0/0)")

    def gains(self, baseline: dict, deviants: list[dict], n_matches: int, seed: int, n_jobs=-1, store=None,
              progress=False) -> pd.DataFrame:
        base = self.point(self.strategy)
        self.last = deviation_gains(GAME, self.spec(dict(base, **baseline)),
                                    [self.spec(dict(base, **d)) for d in deviants],
                               n_matches, objective=self.objective.name, seed=seed, n_jobs=n_jobs, store=store,
                               progress=progress)
        return self.last


def deviation_table(spec: str, n_matches: int, seed: int = 0, n_jobs: int = -1, cells=None, top: int = TOP,
                    frequency_matches: int = FREQUENCY_MATCHES, level: float = LEVEL, store=None,
                    progress: bool = False) -> pd.DataFrame:
    """The gain of one seat deviating from the chart ``spec`` in one cell, for the cells ``cells``
    (``(own, lead, position)`` tuples; default the ``top`` most met, :func:`cell_frequencies` on
    ``frequency_matches`` games) and each of their :func:`deviations`: :func:`cardsim.exploit.exploit`
    on the :class:`ChartArena` of ``spec`` (``n_matches`` games per line-up and table, no pairs).

    Returns one row per deviation (:data:`COLUMNS`), the cells in the order tried and each cell's
    deviations by their new level (look first): ``played`` (the cell's share of seat-deals), ``policy`` and
    ``deviation`` (``look`` / ``blind:L``), ``change`` (down, up, look), ``n``, ``gain_pp``,
    ``se_pp``, ``lo_pp``/``hi_pp`` (the Bonferroni-simultaneous interval at ``level``), ``gain_3_pp``
    / ``gain_4_pp`` (the 3- and 4-seat tables), ``clear`` (``lo_pp`` > 0), ``exceeds`` (``lo_pp`` >
    0.5).  ``attrs``: exploit's (``exploitability``, ``verdict``, ``family``, ``rule``,
    ``detectable``, ``tolerance`` …), ``order`` (how the cells were chosen) and ``target``
    (:func:`target`: whether every gain is within 0.5 pp).  Deterministic for a
    seed, any ``n_jobs``; ``store``: a folder (resumable).  Raises ValueError / StrategyError /
    OptionError (one line) for a spec that is not a chart, an unknown cell, ``n_matches`` < 1."""
    arena = ChartArena(spec)
    current = _cells(spec)
    freq = cell_frequencies(spec, frequency_matches, seed, n_jobs)
    if cells is None:
        cells = [tuple(int(x) for x in k) for k in freq[["own", "lead", "position"]].head(top).itertuples(index=False)]
        order = (f"the {len(cells)} cells met most often at the start of a deal in {frequency_matches:,} games with "
                 "every seat on the chart, most first")
    else:
        cells = [tuple(int(x) for x in c) for c in cells]
        order = "the cells given, in the order given"
    unknown = [c for c in cells if c not in current]
    if unknown:
        raise ValueError(f"the chart has no cell {cell_text(unknown[0])} (own score / lead / position)")
    played = {(int(o), int(lead), int(p)): float(s) for o, lead, p, s in
              zip(freq.own, freq.lead, freq.position, freq.played)}
    t = exploit(strategy=spec, arena=arena, n_matches=n_matches, seed=seed, n_jobs=n_jobs, store=store,
                params=[cell_text(c) for c in cells], pairs=0, level=level, progress=progress)
    z = float((t.hi - t.gain).iloc[0] / t.se.iloc[0]) if t.se.iloc[0] > 0 else np.nan
    rows = []
    by_name = {cell_text(c): c for c in cells}
    for r in t.itertuples():
        cell = by_name[r.param]
        new = ORDER[int(float(r.value))]
        change = dict((lvl, ch) for ch, lvl in deviations(current[cell]))[new]
        rows.append({"cell": r.param, "own": cell[0], "lead": cell[1], "position": cell[2],
                     "played": played.get(cell, 0.0), "policy": _option(current[cell]), "deviation": _option(new),
                     "change": change, "n": int(t.attrs["n"]), "gain_pp": 100 * r.gain, "se_pp": 100 * r.se,
                     "lo_pp": 100 * r.lo, "hi_pp": 100 * r.hi, "clear": bool(r.clear),
                     "exceeds": bool(100 * r.lo > TOLERANCE_PP)})
    out = pd.DataFrame(rows)
    measured = arena.last  # deviation_gains' table behind exploit's, rows in the same order: the tables' gains
    for seats in ("3", "4"):
        column = f"gain_{seats}"
        out[f"{column}_pp"] = 100 * measured[column].to_numpy() if column in measured else np.nan
    rank = {cell_text(c): i for i, c in enumerate(cells)}
    out = out.assign(_o=[rank[c] for c in out.cell]).sort_values("_o", kind="stable").drop(columns="_o")
    out = out[COLUMNS].reset_index(drop=True)
    out.attrs.update({k: v for k, v in t.attrs.items()}, order=order, z=z, target=target(out))
    return out


def target(table: pd.DataFrame, tolerance: float = TOLERANCE_PP) -> str:
    """The equilibrium target for a deviation table (pp columns): ``met`` when every deviation's
    simultaneous upper end is at most ``tolerance`` (no deviation gains more than 0.5 pp, at the
    family's level), ``missed`` when some lower end is above it, else ``not decided at this size``.
    Exploit's ``verdict`` asks another question: whether any gain is clearly above 0."""
    if (table.lo_pp > tolerance).any():
        return "missed"
    return "met" if (table.hi_pp <= tolerance).all() else "not decided at this size"


def report_table(spec: str, n: int, seed: int, n_jobs: int, quick: bool, results) -> pd.DataFrame:
    """The report's :func:`deviation_table` of the settled chart ``spec``: :data:`GAMES` games per
    position (at most ``n``) on the :data:`TOP` cells met most, or the quick sizes; resumable in
    ``results/501-deviation-<key>`` (the key a hash of what the table depends on) unless
    ``results`` is None."""
    games = min(n, QUICK_GAMES if quick else GAMES)
    top, freq = (QUICK_TOP, QUICK_FREQUENCY) if quick else (TOP, FREQUENCY_MATCHES)
    store = None
    if results is not None:
        key = hashlib.sha256(f"{spec}|{games}|{top}|{freq}|{seed}|{source_hash()}".encode()).hexdigest()[:16]
        store = Path(results) / f"501-deviation-{key}"
    return deviation_table(spec, games, seed, n_jobs, top=top, frequency_matches=freq, store=store)


METHOD = ("The settled chart's situations as exploit parameters: one seat deviates from it in one situation (the "
          "cell's blind level one step up or down, look counting as the step below the lowest level, or blind to "
          "look), the other seats keep it; cardsim exploit's measurement (cardsim.exploit with the chart's cells as "
          "the arena's parameters): whole games, the deviating seat at each position in turn of 3- and 4-seat "
          "tables, each line-up paired with every seat on the chart on the same match seeds; the gain in the "
          "deviating seat's share of game wins, with intervals simultaneous over every deviation tried "
          "(Bonferroni); the cells tried are the ones met most often at the start of a deal when every seat plays "
          "the chart.")
GLOSSARY = {
    "cell / played": "(g501_fixed_deviations) the situation own/lead/position and the share of seat-deals that "
                     "start in it when every seat plays the settled chart",
    "policy / deviation / change": "the chart's option in the cell, the deviating seat's, and the step (down, up: "
                                   "one level along look < 70 < ... < 150; look: blind to look)",
    "gain_pp / se_pp / lo_pp / hi_pp": "the deviating seat's share of game wins minus its share on the chart (mean "
                                       "over its seat positions and the 3- and 4-seat tables), in pp, with its standard "
                                       "error and the interval simultaneous over all the deviations tried "
                                       "(Bonferroni, 95%); gain_3_pp / gain_4_pp: each table's",
    "clear / exceeds": "the simultaneous interval lies above 0 / above 0.5 pp (the exploit tolerance)",
}


def sentence(table: pd.DataFrame, chart: str = "the settled chart") -> str:
    """The report's sentence on the deviation table: the largest gain, its interval, the rule, the
    power, exploit's verdict and the equilibrium target.  ``chart``: what the table's chart is (the
    settled chart, or the last round's when the fixed point did not settle)."""
    a = table.attrs
    e = a["exploitability"]
    return (f"One seat deviating from {chart} in one situation ({a['family']} deviations: {a['order']}; "
            f"{a['n']:,} games per line-up and table, paired): the largest gain is {100 * e['gain']:+.2f} pp of game "
            f"wins ({e['param']} to {ORDER[int(float(e['value']))] or 'look'}), simultaneous interval "
            f"[{100 * e['lo']:+.2f}, {100 * e['hi']:+.2f}] ({a['rule']}); a gain of {100 * a['detectable']:.2f} pp "
            f"would be found with probability 0.8; exploit's verdict: {a['verdict']} (a gain clearly above 0 "
            f"{'exists' if (table.lo_pp > 0).any() else 'was not found'}); the target of no gain above "
            f"{100 * a['tolerance']:.2g} pp: {a['target']}.")
