"""Vint's bidding charts iterated to a fixed point: the charts measured against players who bid
by the charts themselves, until no cell's best call changes (docs/rules-files.md, "Iterating
Vint's charts to a fixed point").

Round 0's chart is the report's (``cardsim rules from-chart vint`` on its tables, default
``reports/tables``), written ``OUT/chart_0.toml``.  Round k (1, 2, …) measures the same cells with
``rules:OUT/chart_{k-1}.toml`` at every seat (``analyses/vint_charts.py --strategy``: the calls
before a cell and the hands they imply, the other seats' calls, the continuation), writes its
tables under ``OUT/round_k/tables`` and its chart ``OUT/chart_k.toml`` (``from-chart`` on those
tables), and prints how many cells' best calls changed.  It stops at a **fixed point** (a round
changes no cell: the chart is the best reply, cell by cell, to players who all bid by it), at a
**cycle** (a round's best calls are an earlier round's), or after ``--rounds``.  The robust replay
under other player profiles and the trick table are left out (the iteration needs the best calls
only); every round plays the same seed.  Each round's cells are kept under ``--results`` (their
store keyed by the chart file's digest), so an interrupted iteration resumes.

    python -m analyses vint_iterate --quick --rounds 4 --out iterate [--tables reports/tables]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

CHART_TABLES = ("opening", "second", "overcall", "response")
"""The chart tables a round writes (``vint_chart_<chart>.csv``), the charts of ``from-chart vint``."""


@dataclass(frozen=True)
class Round:
    """One round: ``index`` (1, 2, …), ``changed`` (cells whose best call differs from the chart
    played, a cell charted in one and not the other counted), ``cells`` (cells in either),
    ``played`` (the rule file every seat played) and ``chart`` (the rule file written from the
    round's tables)."""

    index: int
    changed: int
    cells: int
    played: Path
    chart: Path


def best_calls(tables: list[Path]) -> dict:
    """``{(after, band, shape): best}`` for every charted cell of the chart tables ``tables``
    (CSV, as :func:`cardsim.rules.from_chart.vint.cells_of` reads them).  ValueError (one line)
    for a table that is no Vint chart."""
    import pandas as pd

    from cardsim.analysis.vint.charts import band_label
    from cardsim.rules.from_chart.vint import cells_of

    out = {}
    for t in tables:
        for c in cells_of(pd.read_csv(t), str(t)):
            out[(c.pattern or "-", band_label(c.band), c.shape)] = c.best
    return out


def changed(before: dict, after: dict) -> int:
    """Cells whose best call differs between two :func:`best_calls` (a cell in one only counts)."""
    return sum(before.get(k) != after.get(k) for k in set(before) | set(after))


def verdict(history: list[dict]) -> str | None:
    """How the iteration ends after the best calls ``history`` (round 0's first, the latest last):
    ``"fixed point after R rounds"`` when the latest equals the one before, ``"cycle of length L:
    round R's best calls are round J's"`` when it equals an earlier one, None to go on."""
    last, r = history[-1], len(history) - 1
    for j in range(r - 1, -1, -1):
        if history[j] == last:
            if j == r - 1:
                return f"fixed point after {r} round{'s' if r > 1 else ''}"
            return f"cycle of length {r - j}: round {r}'s best calls are round {j}'s"
    return None


def _tables(folder: Path) -> list[Path]:
    return [folder / f"vint_chart_{c}.csv" for c in CHART_TABLES if (folder / f"vint_chart_{c}.csv").exists()]


def _write_chart(tables: list[Path], path: Path, seed: int) -> None:
    from cardsim.rules.from_chart.vint import from_args

    text, _ = from_args(argparse.Namespace(table=[str(t) for t in tables], chart=None, cells=None, seed=seed),
                        log=lambda m: print(m, file=sys.stderr))
    path.write_text(text)


def iterate(start: Path, out: Path, rounds: int, n: int, seed: int = 2026, jobs: int = 1, results=None,
            log=print) -> tuple[list[Round], str]:
    """Iterate the charts whose tables are in the folder ``start`` (``vint_chart_<chart>.csv``)
    for at most ``rounds`` rounds of ``n`` deals a cell (``seed``, ``jobs`` worker processes;
    ``results``: where finished cells are kept, None: nowhere), writing under ``out``.  Returns
    the rounds and the end (:func:`verdict`, or ``"no fixed point in R rounds"``).  Only the cells
    the start charts hold are measured.  ValueError (one line) for no chart table in ``start``, a
    table that is no Vint chart, or ``rounds`` below 1."""
    from analyses.vint_charts import build
    from cardsim.analysis.vint import charts as vc

    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {rounds}")
    tables = _tables(Path(start))
    if not tables:
        raise ValueError(f"no Vint chart table in {start} (vint_chart_opening.csv …): make report writes them")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    history = [best_calls(tables)]
    known = {}  # the charts' cells by their table's row (from-chart's reading: the full chart's first)
    for c in vc.chart_cells(quick=False) + vc.chart_cells(quick=True):
        known.setdefault((" ".join(c.after) or "-", vc.band_label(c.band), c.shape.name), c)
    cells = [cell for key, cell in known.items() if key in history[0]]
    played = out / "chart_0.toml"
    _write_chart(tables, played, seed)
    log(f"round 0: {len(history[0])} cells from {', '.join(map(str, tables))} -> {played}")
    done = []
    for k in range(1, rounds + 1):
        folder = out / f"round_{k}"
        args = argparse.Namespace(n=n, seed=seed, jobs=jobs, results=results, out=str(folder), quick=True,
                                  profiles=None, strategy=f"rules:{played.resolve()}")
        build(args, cells, [], robust=False)
        history.append(best_calls(_tables(folder / "tables")))
        chart = out / f"chart_{k}.toml"
        _write_chart(_tables(folder / "tables"), chart, seed)
        done.append(Round(k, changed(history[-2], history[-1]), len(set(history[-2]) | set(history[-1])),
                          played, chart))
        log(f"round {k}: {done[-1].changed} of {done[-1].cells} cells changed (every seat on {played.name}) "
            f"-> {chart}")
        end = verdict(history)
        if end:
            return done, end
        played = chart
    return done, f"no fixed point in {rounds} round{'s' if rounds > 1 else ''}"


def main(argv=None) -> int:
    from analyses.vint_charts import MAX_PER_CLASS

    p = argparse.ArgumentParser(description="Iterate Vint's bidding charts to a fixed point (every seat bids by "
                                            "the chart the previous round found)")
    p.add_argument("--tables", default="reports/tables", help="the start charts' folder (vint_chart_<chart>.csv; "
                                                               "default reports/tables, make report's)")
    p.add_argument("--out", default="reports/iterate", help="where the rounds' tables and chart_K.toml go")
    p.add_argument("--rounds", type=int, default=5, help="at most this many rounds (default 5)")
    p.add_argument("--n", type=int, default=MAX_PER_CLASS, help="deals a cell, at most (capped as the charts cap it)")
    p.add_argument("--quick", action="store_true", help="at most 2,000 deals a cell (the quick report's)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=-1)
    p.add_argument("--results", default="results", help="where finished cells are kept (resumable)")
    args = p.parse_args(argv)
    if args.n <= 0:
        print(f"error: --n must be a positive number of deals, got {args.n}", file=sys.stderr)
        return 2
    n = min(args.n, 2_000 if args.quick else MAX_PER_CLASS)
    try:
        done, end = iterate(Path(args.tables), Path(args.out), args.rounds, n, args.seed, args.jobs, args.results)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{end}; cells changed per round: {', '.join(str(r.changed) for r in done)}; last chart: "
          f"{done[-1].chart}")
    return 0


if __name__ == "__main__":
    from analyses.common import entry

    sys.exit(entry(main))
