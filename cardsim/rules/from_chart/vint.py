"""Vint's bidding charts written as a rule file (``cardsim rules from-chart vint``, docs/rules-files.md,
"Charts as rule files"): the report's opening, second-hand, overcall and response charts
(:mod:`cardsim.analysis.vint.charts`, tables ``reports/tables/vint_chart_<chart>.csv``), the
chart's best call in each cell, so that the charts can be played by every seat, compared and
checked as any other system.

A chart's cell is a seat's first call after given calls (the table's ``after``: ``-`` none, the
dealer's opening; ``P`` second hand after the dealer passed; ``1S`` an overcall; ``1H P`` a
response to partner's 1H) with a hand of a class: a band of high-card points and a shape
(balanced, a one-suiter of given length, a two-suiter, the cards held in partner's suit).  Each
cell's class is the chart's own clause text (:class:`cardsim.analysis.vint.charts.Cell`), which
is the rule-file grammar's, so every class is written exactly; its context is the auction
pattern of those calls, exactly (a rule of the dealer's opening chart holds for the dealer
only).  Two shapes are written in fewer clauses with the same hands (:func:`compact`), and cells
of one context and shape with the same best call in adjacent bands are merged into one rule (an
``hcp`` range), so that more cells fit a strategy row (4,096 numbers); where the charts do not fit,
:func:`from_args` writes those that do, in the report's order, and names the others
(:class:`TooBig` when the charts were named).

Two cells of one context may share hands (the responses to 1NT: five or more spades, and five or
more hearts, share the 5-5 hands in the majors): the file's first rule, the chart's first cell,
takes them (first match wins); the file's header names each such pair.  Hands of no cell, and
every later call, are the base strategy's (``heuristic``).
"""
from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cardsim.analysis.vint.charts import band_label, chart_cells
from cardsim.cards import cards_of
from cardsim.conditions import ConditionError, Conditions, compile as compile_conditions, hand_text, reachable
from cardsim.deal import deal_chunk
from cardsim.games import get_game
from cardsim.games.vint.rulefile import CHARTS, read_call
from cardsim.rules.compile import compile_file
from cardsim.rules.source import RuleFileError, read
from cardsim.rules.twin import holds
from cardsim.strategies import registry

TABLES = Path("reports") / "tables"
"""Where the report writes the chart tables (``vint_chart_<chart>.csv``)."""
COLUMNS = ("after", "band", "shape", "best")
"""The columns a chart table must have (the others, if present, are written into the rules' ``why``)."""


def table_path(chart: str) -> Path:
    """The report's table of ``chart`` (``opening``, ``second``, ``overcall``, ``response``)."""
    return TABLES / f"vint_chart_{chart}.csv"


class TooBig(ValueError):
    """The charts' rules take more numbers than a strategy row holds."""


@dataclass(frozen=True)
class ChartCell:
    """One row of a chart table with its class: ``chart``, ``after`` (the calls before, record
    tokens, ``()`` for none), ``band`` ``(lo, hi)`` (high-card points, hi None: no upper end),
    ``shape`` (the chart's label) and ``clause`` (its class text), ``best`` (the call), and for the
    ``why``: ``runner_up``, ``gap`` (score points a deal, NaN when absent), ``clear``."""

    chart: str
    after: tuple
    band: tuple
    shape: str
    clause: str
    best: str
    runner_up: str = ""
    gap: float = math.nan
    clear: bool | None = None

    @property
    def pattern(self) -> str:
        return " ".join(self.after)


def _definitions() -> dict:
    """(after text, band label, shape label) -> the chart's Cell, over the full and quick charts."""
    out = {}
    for cell in chart_cells(quick=False) + chart_cells(quick=True):
        out.setdefault((" ".join(cell.after) or "-", band_label(cell.band), cell.shape.name), cell)
    return out


def cells_of(frame, shown: str) -> list[ChartCell]:
    """The cells of a chart table (``frame``: a pandas frame with :data:`COLUMNS`, in the
    report's order); ``shown`` names the table in errors.  ValueError (one line) for a missing
    column, a row that is no cell of the Vint charts, or a best call that is not a Vint call.
    Rows without a best call (none measured) are left out."""
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{shown}: no column {', '.join(missing)} (a Vint chart table has after, band, shape, best)")
    known = _definitions()
    out = []
    for i, r in enumerate(frame.to_dict("records")):
        if not isinstance(r["best"], str) or not r["best"].strip():
            continue
        after = str(r["after"]).strip()
        key = (after, str(r["band"]).strip(), str(r["shape"]).strip())
        cell = known.get(key)
        if cell is None:
            raise ValueError(f"{shown}: row {i + 2}: after {key[0]!r}, band {key[1]!r}, shape {key[2]!r} is no cell "
                             f"of the Vint charts (cardsim.analysis.vint.charts.chart_cells)")
        best = r["best"].strip()
        try:
            read_call(best)
        except ValueError as exc:
            raise ValueError(f"{shown}: row {i + 2}: best {exc}") from None
        gap = r.get("gap")
        clear = r.get("clear")
        out.append(ChartCell(cell.chart, tuple(cell.after), tuple(cell.band), cell.shape.name, cell.shape.clause,
                             best, str(r.get("runner_up") or ""), float(gap) if gap == gap and gap is not None
                             else math.nan, None if clear is None or clear != clear else bool(clear)))
    return out


def _band_clause(lo: int, hi: int | None) -> str:
    return f"hcp>={lo}" if hi is None else f"hcp={lo}-{hi}"


_BALANCED = "S=2-4, C=2-4, D=2-4, H=2-4"


def compact(clause: str) -> str:
    """A chart's shape clause in fewer clauses with the same hands, so that more cells fit a
    strategy row: every suit 2-4 cards (4-4-3-2, 4-3-3-3) is ``longest=4, shortest>=2``; exactly
    five (six) cards in one suit and at most four in each other is that suit's length with
    ``shape<=5440`` (``shape<=6430``: the second-longest suit at most four).  Other clauses are
    returned as they are.  (tests/test_rules_from_chart_vint.py holds each to the original with
    the 0/1 program.)"""
    if clause == _BALANCED:
        return "longest=4, shortest>=2"
    parts = [p.strip() for p in clause.split(",")]
    if len(parts) == 4 and parts[0][:1] in "SCDH" and parts[0][1:] in ("=5", "=6") \
            and sorted(p[0] for p in parts) == sorted("SCDH") and all(p[1:] == "<=4" for p in parts[1:]):
        return f"{parts[0]}, shape<={'5440' if parts[0][1:] == '=5' else '6430'}"
    return clause


def merged(cells: list[ChartCell]) -> list[list[ChartCell]]:
    """``cells`` grouped into rules: per context and shape (in the order they first come), runs
    of adjacent bands (one's top + 1 = the next's bottom) with the same best call."""
    groups: dict = {}
    for c in cells:
        groups.setdefault((c.after, c.shape, c.clause), []).append(c)
    out = []
    for part in groups.values():
        part = sorted(part, key=lambda c: c.band[0])
        run = [part[0]]
        for c in part[1:]:
            last = run[-1]
            if c.best == last.best and last.band[1] is not None and last.band[1] + 1 == c.band[0]:
                run.append(c)
            else:
                out.append(run)
                run = [c]
        out.append(run)
    return out


def _when(run: list[ChartCell]) -> str:
    return f"{_band_clause(run[0].band[0], run[-1].band[1])}, {compact(run[0].clause)}"


def _why(run: list[ChartCell]) -> str:
    def one(c):
        lo, hi = c.band
        text = f"{lo}-{hi}" if hi is not None else f"{lo}+"
        if c.runner_up and c.gap == c.gap:
            clear = "" if c.clear is None else ", clear" if c.clear else ", not clear"
            text += f": gap {c.gap:+.0f} over the runner-up {c.runner_up}{clear}"
        return text

    c = run[0]
    return (f"{c.chart} chart, after {c.pattern or 'none'}, {c.shape}: best {c.best} with "
            + "; ".join(one(x) for x in run))


def _disjoint(a: list[ChartCell], b: list[ChartCell]) -> bool:
    """Whether the hcp ranges of two rules do not meet."""
    def hi(r):
        return math.inf if r[-1].band[1] is None else r[-1].band[1]

    return hi(a) < b[0].band[0] or hi(b) < a[0].band[0]


def overlaps(runs: list[list[ChartCell]]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, i < j, of rules (indices into ``runs``) of one context whose classes
    share hands (decided by the 0/1 program, :func:`cardsim.conditions.reachable`): rule i takes
    them."""
    out = []
    for j, b in enumerate(runs):
        for i in range(j):
            a = runs[i]
            if a[0].after != b[0].after or _disjoint(a, b):
                continue
            try:
                shared = reachable("vint", f"{_when(a)}, {_when(b)}") is not False
            except ConditionError:  # two ranges of one feature that do not meet (H=0-2 and H>=4)
                shared = False
            if shared:
                out.append((i, j))
    return out


def _test_hand(runs: list[list[ChartCell]], j: int, seed: int) -> str | None:
    """A hand of rule ``j``'s class that no earlier rule of its context takes (a [[test]]'s hand),
    or None when a few hundred dealt hands of the class hold none."""
    earlier = [_when(r) for r in runs[:j] if r[0].after == runs[j][0].after]
    dealt = deal_chunk(compile_conditions(Conditions("vint", dealer=0, classes={0: _when(runs[j])})), seed, 0, 200)
    for h in dealt.hands[:, 0]:
        hand = int(h)
        if not any(holds("vint", text, hand) for text in earlier):
            return hand_text("vint", cards_of(hand))
    return None


def rule_file(cells: list[ChartCell], source: str, base: str = "heuristic", seed: int = 0, note: str = "",
              players: str = "the default players' (heuristic)") -> str:
    """The rule file (TOML text) that makes each chart cell's best call (``cells``, from
    :func:`cells_of`) in its context, and ``base`` every other call; one [[test]] per rule (a
    hand of its class dealt with ``seed``).  ``source``: where the charts came from, and
    ``note`` (a line, optional), written in the header; ``players``: whose continuation the
    charts were measured against (:func:`players_of`).  :class:`TooBig` (a ValueError, one
    line) when the rules do not fit a strategy row."""
    if not cells:
        raise ValueError("the chart tables hold no cell with a best call")
    runs = merged(cells)
    rules = []
    for run in runs:
        c = run[0]
        rules += ["[[rule]]", f'auction = "{c.pattern}"', f'call = "{c.best}"', f'when = "{_when(run)}"',
                  f'why = "{_why(run)}"', ""]
    _fits("\n".join(['game = "vint"', ""] + rules))
    charts = ", ".join(dict.fromkeys(c.chart for c in cells))
    lines = ["# Vint's bidding charts as a rule file (cardsim rules from-chart vint, docs/rules-files.md).",
             f"# From: {source}.", *([f"# {note}"] if note else []),
             f"# Charts: {charts}; {len(cells)} cells, {len(runs)} rules (cells of one context and shape with the",
             "# same best call in adjacent bands share a rule).  A rule's auction is the chart's calls before, exactly",
             "# (the opening chart's rules hold for the dealer only); its condition is the cell's own class, band and",
             "# shape, written exactly.  The chart measured each cell's calls against",
             f"# {players} continuation; hands of no cell and every later call are the base's."]
    for i, j in overlaps(runs):
        lines.append(f"# Rules #{i + 1} and #{j + 1} share hands ({runs[i][0].shape} and {runs[j][0].shape} after "
                     f"{runs[i][0].pattern or '-'}): rule #{i + 1} takes them (first match wins).")
    lines += ["", 'game = "vint"', f'base = "{base}"', "", *rules]
    for j, run in enumerate(runs):
        hand = _test_hand(runs, j, seed + j)
        if hand is None:
            continue
        c = run[0]
        lines += ["[[test]]", f'hand = "{hand}"', f'auction = "{c.pattern}"', f'expect = "{c.best}"',
                  f'why = "rule #{j + 1}: {c.chart} chart, {_band_clause(run[0].band[0], run[-1].band[1])}, '
                  f'{c.shape}"', ""]
    return "\n".join(lines)


def _fits(text: str) -> None:
    """ValueError (one line) when ``text`` does not compile into a strategy row (too many rules)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "charts.toml"
        path.write_text(text)
        try:
            compile_file(read(path), get_game("vint").table.registry)
        except RuleFileError as exc:
            message = str(exc).partition(": ")[2] or str(exc)
            if "numbers and a strategy row holds" in message:
                numbers = message.split()[4]  # "the rules compile to N numbers and …"
                raise TooBig(f"the charts make {text.count('[[rule]]')} rules, {numbers} numbers, and a strategy row "
                             f"holds {registry.TABLE_LEN}: write fewer charts (--chart NAME, repeatable)") from None
            raise ValueError(f"the charts' rule file: {message}") from None


def players_of(tables: list[Path]) -> str:
    """Whose calls and play the chart ``tables`` were measured against, for the header: the
    ``strategies`` of the ``vint_charts.json`` beside them (analyses/vint_charts.py ``--strategy``),
    or the default players when it is absent or names the default."""
    default = "the default players' (heuristic)"
    specs = set()
    for t in tables:
        try:
            specs |= set(json.loads((Path(t).parent / "vint_charts.json").read_text()).get("strategies") or [])
        except (OSError, ValueError, AttributeError):
            return default
    if not specs or specs == {"heuristic"}:
        return default
    return f"the players' ({' / '.join(sorted(specs))} at every seat)"


def from_args(args, log=print) -> tuple[str, str]:
    """``cardsim rules from-chart vint``: the rule file's text and where the charts came from.
    ``args``: ``table`` (a list of CSV paths or None), ``chart`` (a list of chart names or None:
    every chart), ``cells`` (must be None: a 501 option), ``seed``.  ValueError (one line) for no
    table, an unreadable one, or a bad row."""
    import pandas as pd  # local: pandas is slow to import; only this function needs it

    if getattr(args, "cells", None):
        raise ValueError("--cells is 501's blind chart; Vint's charts are read from their tables (--table CSV)")
    charts = list(dict.fromkeys(args.chart or CHARTS))
    unknown = [c for c in charts if c not in CHARTS]
    if unknown:
        raise ValueError(f"--chart {unknown[0]!r}: Vint's charts are {', '.join(CHARTS)}")
    if args.table:
        tables = [Path(t) for t in args.table]
    else:
        tables = [table_path(c) for c in charts if table_path(c).exists()]
        if not tables:
            raise ValueError(f"no Vint chart table yet ({table_path(charts[0])}{' …' if len(charts) > 1 else ''}): "
                             f"make report writes them, or give --table CSV")
        absent = [c for c in charts if not table_path(c).exists()]
        if absent and args.chart:
            raise ValueError(f"no table of the {absent[0]} chart yet ({table_path(absent[0])}): make report writes it")
    cells = []
    for t in tables:
        try:
            frame = pd.read_csv(t)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{t}: cannot read the chart's table: {exc}") from None
        cells += [c for c in cells_of(frame, str(t)) if not args.chart or c.chart in charts]
    source = "the table" + ("s " if len(tables) > 1 else " ") + ", ".join(map(str, tables))
    chosen, left_out = list(dict.fromkeys(c.chart for c in cells)), []
    while True:
        note = "" if not left_out else (f"Left out, too big for one strategy row with the charts above: the "
                                        f"{', '.join(left_out)} chart{'s' if len(left_out) > 1 else ''} (write "
                                        f"{'them' if len(left_out) > 1 else 'it'} with --chart into another file).")
        try:
            text = rule_file([c for c in cells if c.chart in chosen], source, seed=args.seed, note=note,
                             players=players_of(tables))
            break
        except TooBig:
            # charts the user did not name are written while they fit, in the report's order
            if args.chart or len(chosen) == 1:
                raise
            left_out.insert(0, chosen.pop())
    if left_out:
        log(note)
    return text, source
