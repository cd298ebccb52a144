"""Vint bidding charts: for each hand class the first call with the highest expected net score
(opening, second hand, overcall, response), and what a partnership's points take.

Every cell is a :func:`cardsim.questions.question`: the candidate calls played on the same deals
dealt under the cell's hand classes, everything else by the default strategies.  Only the public
API is used (cardsim.questions, cardsim.stats through cardsim.analysis.vint.charts).

    python -m analyses.vint_charts --n 20000 --seed 2026 --jobs -1 --out reports [--quick] [--strategy SPEC]

``--strategy SPEC`` (default ``heuristic``) seats SPEC at every seat: the other seats' calls, the
calls that imply the callers' hands, the continuation, the default-call reading and the robust
replay's base are SPEC's, so a chart written as a rule file (``cardsim rules from-chart vint``) is
measured against itself (analyses/vint_iterate.py iterates that to a fixed point).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyses.common import parse_args as common_parse_args
from analyses.common import chart_meta, entry, strategy_of, write_chart_meta, write_tables
from cardsim.analysis import robustness as RB
from cardsim.analysis.vint import charts as vc
from cardsim.analysis.chart_pipeline import play, replay_rows
from cardsim.deal import ConditionError
from cardsim.games import get_game
from cardsim.questions import question, records, run_question, table
from cardsim.runner.files import OutputError, transform_id
from cardsim.runner.pool import cluster
from cardsim.strategies.registry import StrategyError

TITLE = "Vint bidding charts"
PILOT = 100
"""Deals of the pilot run that measures a cell's acceptance rate before its deal count is set."""
CANDIDATES_PER_DEAL = 100
"""A cell draws at most n × this many candidate deals: rarer classes get fewer deals (the
table's n says how many)."""
MIN_DEALS = 500
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
LEVEL_CHECK = 40
"""Deals of each trick cell whose tricks at level 7 are compared with those at level 1."""

NOTES = [
    "Method: each row is one question of `cardsim evaluate`: the candidate first calls of the seat are played "
    "on the same deals (common random numbers), dealt under the row's hand classes; every other call and "
    "every card is the default strategy's (heuristic on all seats). The best call has the highest mean net "
    "score of the seat's side; the gap to the runner-up is paired over the same deals.",
    "The calls before the seat's first call are fixed, and they imply the hands that made them: a deal is kept "
    "only if the default strategy, holding the callers' hands, would make exactly those calls (an exact "
    "conditional under the default players, by rejection: `cardsim evaluate --auction`), instead of the proxy "
    "classes used before (a pass hcp<=11, an opening 12-18 points and five cards). Overcalls are charted after "
    "1S (the cheapest suit: every other suit can still be bid at the 1 level) and after 1H (the highest suit: "
    "new suits need the 2 level). Responses are charted after 1S, 1H and 1NT.",
    "Candidates: pass; the cheapest bid in each denomination the opponents have not named; jumps of one level "
    "in the long suit (two with 6 cards, three with 7+); raises of partner's suit by one and two levels "
    "beyond the cheapest (3NT after 1NT); 2NT/3NT-type jumps with 16+ (one level) or 19+ points (two), "
    "and both after partner bid a suit. The best call is the best among these candidates only.",
    "Classes rarer than about 1 hand in 2,000 are left out; a class accepted by fewer than 1 random deal in "
    f"{CANDIDATES_PER_DEAL} gets fewer deals than the others (n per row), measured by a {PILOT}-deal pilot.",
    "Honest selection (docs/statistics.md): the best call and the runner-up are chosen on the deals with even "
    "numbers and the gap between them (and the default's loss) is measured on the odd ones, so picking the best "
    "of up to 12 candidates does not flatter it. `clear` and `default_worse`: Benjamini-Hochberg over each "
    "chart's cells at a 2.5% false discovery rate (one-sided; a clear cell's 95% gap interval lies above 0), "
    "so of the cells a chart calls clear, at most 2.5% are expected to be chance.",
    "The default strategy's call (`default`) is read from deal records of the same class and calls in which the "
    "seat calls by its strategy (the option `strategy`).",
    "Trick table: seat 0 declares a forced contract at each level 1-7 (the auction skipped; the left-hand "
    "opponent leads) holding five trumps, partner three (fit 8) or four (fit 9); NT: both hands bal. Made rates "
    "and scores per level are over all n deals; mean tricks (and mean_points, the measured combined points) "
    "are read from the deal records of the first deals at level 1; same_tricks checks on the first "
    f"{LEVEL_CHECK} that level 7 takes the same tricks (the default play does not look at the level).",
]


MAX_PER_CLASS = 20_000


def parse_args(argv=None) -> argparse.Namespace:
    """The common analysis arguments (analyses.common.parse_args); ``--n`` is deals per hand
    class, capped at MAX_PER_CLASS (2,000 with ``--quick``): make report passes the deals of
    its other analyses (10^6), and a class needs far fewer."""
    args = common_parse_args(TITLE, argv)
    try:
        RB.others("vint", args.profiles)  # an unknown profile is an error before any work
        args.strategy = strategy_of(args, "vint")  # so is a spec that cannot play Vint
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    args.n = min(args.n, 2_000 if args.quick else MAX_PER_CLASS)
    return args


def deals_for(acceptance: float, n: int) -> int:
    """Deals for a cell whose classes accept ``acceptance`` of random deals: ``n``, or fewer so
    that at most ``n × CANDIDATES_PER_DEAL`` candidates are drawn (never below MIN_DEALS)."""
    return int(min(n, max(min(n, MIN_DEALS), acceptance * CANDIDATES_PER_DEAL * n)))


def _every_seat(strategy: str | None):
    return None if strategy is None else [strategy] * 4


def _ask(cell, options, n, seed, strategy=None):
    return question("vint", cell.seat if hasattr(cell, "seat") else 0, list(options), n=n, seed=seed,
                    where=cell.where, dealer=getattr(cell, "dealer", None), auction=getattr(cell, "after", ()),
                    strategies=_every_seat(strategy))


def _planned(cell, options, n, seed, strategy=None) -> tuple[int, float]:
    pilot = _ask(cell, options[:1], min(PILOT, n), seed, strategy)
    acceptance = table(pilot, run_question(pilot, n_jobs=1)).attrs["acceptance"]
    return deals_for(acceptance, n), acceptance


def run_chart_cell(cell: vc.Cell, n: int, seed: int, n_records: int, strategy: str | None = None) -> dict | None:
    """The chart row of one cell: its question, then records of the seat's strategy's calls
    (``strategy`` at every seat; None: the default).  None when those players never make the
    cell's calls before (a rule file whose rules do not open 1H has no response to 1H to chart)."""
    try:
        deals, _ = _planned(cell, cell.options, n, seed, strategy)
        q = _ask(cell, cell.options, deals, seed, strategy)
    except (ConditionError, StrategyError):  # the spec itself was checked before any work (parse_args)
        return None
    sums = run_question(q, n_jobs=1)
    df = table(q, sums)
    d = cell.default_question()
    dq = question("vint", d["seat"], d["options"], n=n_records, seed=seed, where=cell.where, dealer=cell.dealer,
                  auction=d["auction"], strategies=_every_seat(strategy))
    calls = [r["auction"][len(cell.after)] for r in records(dq, range(n_records), option=0)]
    row = vc.chart_row(cell, df, calls, sums)
    if row["runner_up"] is not None:  # what the replay under other players needs (taken off in run_robust)
        row["robust_view"] = RB.default_view(sums, cell.options, row["best"], row["runner_up"], row["runner_up"])
    return row


def robust_sums(cell: vc.Cell, options: tuple, deals: int, seed: int, strategies: list) -> dict | None:
    """Sums of ``options`` on the cell's first ``deals`` deals with every seat's ``strategies`` (a
    player profile); None when the profile's callers make the cell's calls too rarely to deal them."""
    q = question("vint", cell.seat, list(options), n=deals, seed=seed, where=cell.where, dealer=cell.dealer,
                 auction=cell.after, strategies=strategies)
    try:
        return run_question(q, n_jobs=1)
    except ConditionError:
        return None


def run_robust(args, cells: list, rows: list[dict]) -> None:
    """Each chart row replayed under the player profiles that act on it, every option that could be
    best there against the chart's best (cardsim.analysis.robustness.replay): adds its columns to
    ``rows`` in place."""
    profiles = RB.others("vint", getattr(args, "profiles", None))
    base = [getattr(args, "strategy", None) or get_game("vint").table.default_strategy] * 4
    rcells = [None if row.get("robust_view") is None else  # no runner-up: nothing to replay, no columns
              RB.Cell(((cell, args.seed),), tuple(cell.options), row["best"], row["gap"], row["robust_view"]["sd"],
                      row["robust_view"]["contenders"], int(row["n"]), seat=cell.seat)
              for cell, row in zip(cells, rows)]
    out = replay_rows(rcells, profiles, robust_cell_sums, base, {}, name="vint-robust", n_jobs=args.jobs,
                      results=args.results, log=lambda s: print(s, flush=True))
    for row, cols in zip(rows, out):
        row.pop("robust_view", None)
        row.update(cols)


def robust_cell_sums(payload, options, deals, pilot, strategies):
    """:func:`robust_sums` in the form cardsim.analysis.robustness.replay calls (``payload``: the
    cell and the chart's seed; ``pilot``: the pilot's own deals)."""
    (cell, seed), = payload
    return robust_sums(cell, options, deals, RB.pilot_seed(seed) if pilot else seed, strategies)


def _points(hand) -> int:
    return sum(HCP.get(card[0], 0) for card in hand)


def run_trick_cell(cell: vc.TrickCell, n: int, seed: int, n_records: int,
                   strategy: str | None = None) -> tuple[pd.DataFrame, dict]:
    """Per-level rows and the trick-table row of one cell (tricks read from records at level 1;
    ``strategy`` plays every seat's cards, None: the default)."""
    deals, _ = _planned(cell, cell.options, n, seed, strategy)
    q = _ask(cell, cell.options, deals, seed, strategy)
    df = table(q, run_question(q, n_jobs=1))
    levels = vc.level_rows(cell, df)
    recs = records(q, range(min(2 * n_records, deals)), option=0)
    tricks = np.array([r["result"]["tricks"][0] for r in recs])
    row = vc.trick_row(cell, levels, tricks, df.attrs["acceptance"])
    top = records(q, range(min(LEVEL_CHECK, deals)), option=6)
    row["same_tricks"] = float(np.mean([r["result"]["tricks"][0] == t for r, t in zip(top, tricks)]))
    row["mean_points"] = float(np.mean([_points(r["hands"][0]) + _points(r["hands"][2]) for r in recs]))
    return levels, row


def _work(kind, cell, n, seed, n_records, strategy=None):
    start = time.perf_counter()
    run = run_chart_cell if kind == "chart" else run_trick_cell
    return run(cell, n, seed, n_records, strategy), time.perf_counter() - start


def build(args, cells, tcells, robust: bool = True) -> Path:
    """Play every cell with ``args.strategy`` (absent or None: the default, ``heuristic``) at every
    seat, write the tables, figures and ``out/tables/vint_charts.json``; returns its path.
    ``robust`` False leaves out the replay under the other player profiles (its columns)."""
    t0 = time.perf_counter()
    strategy = getattr(args, "strategy", None) or get_game("vint").table.default_strategy
    n_records = max(40, min(100, args.n // 200))
    tasks = [("chart", c) for c in cells] + [("tricks", c) for c in tcells]
    print(f"{TITLE}: {len(cells)} chart classes + {len(tcells)} trick cells, up to {args.n:,} deals each, "
          f"{strategy} at every seat", flush=True)
    rows, level_frames, trick_rows, charted = [], [], [], []
    # The spec is part of each task, so the store's key (with a rule file's digest) changes with the players:
    # a resumed run never mixes two players' cells.
    work = [(kind, cell, args.n, args.seed, n_records, strategy) for kind, cell in tasks]
    # Each finished cell is kept under --results, so an interrupted run resumes where it stopped.
    results = play(_work, work, [args.n] * len(work), args.jobs, name="vint-charts", results=args.results,
                   identity={"work": work, "cells_code": transform_id(vc.chart_row)})
    for k, ((kind, cell), (out, seconds)) in enumerate(zip(tasks, results), 1):
        if kind == "chart" and out is None:
            label = (f"{cell.chart} {' '.join(cell.after)} {vc.band_label(cell.band)} {cell.shape.name}: left out "
                     f"({strategy} never makes the calls before it)")
        elif kind == "chart":
            rows.append(out)
            charted.append(cell)
            label = f"{cell.chart} {' '.join(cell.after)} {vc.band_label(cell.band)} {cell.shape.name}: {out['best']}"
        else:
            level_frames.append(out[0])
            trick_rows.append(out[1])
            label = f"tricks {cell.series} {cell.combined}: {out[1]['tricks']:.2f} tricks"
        print(f"[{k}/{len(tasks)} {time.perf_counter() - t0:5.0f}s] {label} ({seconds:.1f}s)", flush=True)
    if rows and robust:
        run_robust(args, charted, rows)
    for row in rows:
        row.pop("robust_view", None)
    tabs = vc.chart_tables(rows) if rows else {}
    if trick_rows:
        tabs["vint_tricks"] = pd.DataFrame(trick_rows)
        tabs["vint_tricks_levels"] = pd.concat(level_frames, ignore_index=True)
    out = Path(args.out)
    written = write_tables(tabs, out)
    fdir = out / "figures"
    fdir.mkdir(parents=True, exist_ok=True)
    figs = vc.figures(tabs, fdir)
    notes = NOTES if strategy == get_game("vint").table.default_strategy else [
        f"Players: {strategy} at every seat (--strategy), where the notes below say the default strategy or "
        f"heuristic: the other seats' calls, the calls before a cell and the hands they imply, the continuation "
        f"and each seat's own call (`default`)."] + NOTES
    meta = chart_meta("vint", TITLE, args.seed, [strategy] * 4, deals=args.n, deals_unit="deals per class (at most)",
                      rules={}, tables=list(tabs), figures=[p.name for p in figs],
                      glossary={**vc.GLOSSARY, **RB.GLOSSARY}, notes=notes, legends=vc.legends([p.name for p in figs]),
                      rules_of_thumb=vc.rules(tabs), answer=vc.answer(tabs),
                      method=NOTES[0] + " " + NOTES[1] + " " + NOTES[-1],
                      # the report's "In detail": a short table and a list (the answer's content)
                      detail=vc.detail(tabs))
    path = write_chart_meta(out, "vint_charts", meta, ensure_ascii=True)
    print(f"{TITLE}: {len(tasks)} questions in {time.perf_counter() - t0:.0f}s -> "
          f"{', '.join(p.name for p in written + figs)}", flush=True)
    return path


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        with cluster(args.scheduler):
            build(args, vc.chart_cells(args.quick), vc.trick_cells(args.quick))
    except (ValueError, OutputError) as exc:  # OptionError, StrategyError, ConditionError: one-line messages
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(entry(main))
