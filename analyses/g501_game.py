"""501 in the game, not only in the deal: the match-equity tables and the blind-bid decision chart
(cardsim.analysis.g501.game: cardsim.analysis.g501.equity, blind_chart and prose).

``--n`` is an upper bound on the games per equity state and first dealer (at most
E.GAMES with 3 seats, E.GAMES4 with 4) and on the deals per decision situation (at most
B.DEALS, each deal's game played to its end); ``--quick`` plays a coarser grid with a few
hundred per cell.  ``--results``: where each finished equity state and decision situation is
kept, so an interrupted run resumes.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pandas as pd

from analyses.common import chart_meta, entry, legends, script_main, strategy_parameters, write_chart_meta, write_tables
from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis.g501 import deviation as D
from cardsim.analysis.g501 import equity as E
from cardsim.analysis.g501 import fixed as F
from cardsim.analysis.g501 import game as G
from cardsim.analysis.g501 import prose as P
from cardsim.analysis import robustness as RB
from cardsim.runner.run import make_run

TITLE = "501: when does a blind bid pay off in the game?"


def run(args, plan: G.Plan | None = None) -> Path:
    """Play the equity grids and the decision situations, write the tables, figures and
    ``501_game.json``; returns its path."""
    started = time.time()
    plan = plan or G.plan(args.n, args.quick)
    profiles = RB.others(B.GAME, args.profiles)  # an unknown profile is an error before any work
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{TITLE}: equity grid {', '.join(map(str, plan.grid3))} (3 seats, {plan.games:,} games per state and "
        f"first dealer), {', '.join(map(str, plan.grid4))} (4 seats, {plan.games4:,}); decisions: own "
        f"{', '.join(map(str, plan.own))} x lead {', '.join(f'{v:+d}' for v in plan.leads)} x positions "
        f"{', '.join(map(str, plan.positions))}, {plan.deals:,} deals each, blind levels "
        f"{', '.join(map(str, plan.levels))}")
    states = [E.run_equity(plan.grid3, 3, plan.games, args.seed, args.jobs, log=log, results=args.results)]
    if plan.grid4:
        states.append(E.run_equity(plan.grid4, 4, plan.games4, args.seed, args.jobs, log=log,
                                     results=args.results))
    sits = B.situations(plan.own, plan.leads, plan.positions)
    chart_started = time.time()
    long = B.run_decisions(sits, plan.levels, plan.deals, args.seed, args.jobs, log=log, results=args.results)
    chart_seconds = time.time() - chart_started
    robust = B.run_robust(sits, long, plan.deals, args.seed, args.jobs, log=log, results=args.results,
                          profiles=profiles)
    tabs = G.tables(pd.concat(states, ignore_index=True), long, robust)
    # players=None: the game's default strategy, whatever its parameters (the chart's round 0 is played against it)
    fixed, rounds, status = F.iterate(sits, plan.levels, plan.deals, args.seed, tabs["g501_game_choices"], args.jobs,
                                      long=long, players=None, start_seconds=chart_seconds, log=log,
                                      results=args.results)
    deviation = D.report_table(rounds.attrs["policy"], args.n, args.seed, args.jobs, args.quick, args.results)
    tabs["g501_fixed_chart"] = B.chart(fixed)
    tabs["g501_fixed_rounds"] = rounds.drop(columns="policy")
    tabs["g501_fixed_choices"] = fixed
    tabs["g501_fixed_policies"] = rounds[["round", "policy"]]
    tabs["g501_fixed_deviations"] = deviation
    out = Path(args.out)
    paths = write_tables(tabs, out)
    figures = G.figures(tabs, out / "figures")
    figures.append(B.chart_figure(fixed, out / "figures", "g501_fixed_chart.png",
                                  f"501 blind chart when every player follows it ({status}; "
                                  f"{F.deals_text(rounds)} deals per situation a round)."))
    specs = make_run(B.GAME, 1, args.seed).manifest()["strategies"]
    parameters = strategy_parameters(B.GAME, specs)
    settled = D.sentence(deviation, "the settled chart" if status.startswith("fixed") else "the last round's chart")
    meta = chart_meta(
        B.GAME, TITLE, args.seed, specs, parameters=parameters, deals=plan.deals,
        deals_unit=(f"deals per decision situation, each game played to its end (the fixed-point chart: "
                    f"{F.deals_text(rounds)} a round); equity: {plan.games:,} games "
                    f"per state and first dealer (3 seats), {plan.games4:,} (4 seats)"),
        rules={}, tables=[t for t in tabs if t not in G.CSV_ONLY], csv_only=[t for t in tabs if t in G.CSV_ONLY],
        figures=[p.name for p in figures], glossary={**P.GLOSSARY, **RB.GLOSSARY, **F.GLOSSARY, **D.GLOSSARY},
        notes=P.notes(tabs),
        legends={**legends(P.LEGENDS, [p.name for p in figures]),
                 "g501_fixed_chart.png": F.legend(status, rounds, P.CHART_LEGEND)},
        rules_of_thumb=P.rules(tabs),
        answer=P.answer(tabs, parameters.get("heuristic")) + " " + F.sentence(rounds, status, fixed) + " " + settled,
        method=P.METHOD + " " + F.METHOD + " " + D.METHOD,
        # the report's "In detail": the answer's sentences as a list
        detail={"tables": [], "items": P.answer_parts(tabs, parameters.get("heuristic"))
                + [s for s in [F.sentence(rounds, status, fixed), settled] if s]})
    path = write_chart_meta(out, "501_game", meta)
    log(f"{TITLE}: done in {time.time() - started:.0f} s -> {len(paths) // 2} tables, "
        f"{', '.join(p.name for p in figures)}, {path.name}")
    return path


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
