"""What ``cardsim bench`` runs (also ``python -m cardsim.bench`` and ``make bench``), from its parsed
options (:mod:`cardsim.cli.bench` builds the parser).

Without a tool: every section of BENCHMARKS.md measured in turn (engine rates, end to end, dealing
under conditions, when workers pay, sampled-search play, the targets before and after), printed
and, with ``--out``, written to the file keeping its hand-made notes; ``--only SECTION`` measures
one and replaces only that section of the file; ``--strategies`` times strategy specs alternately
instead.  A tool (``dd``, ``pimc-record``, ``pimc-time``, ``pimc-profile``, ``rules``) prints its
own lines.  Bad options raise OptionError before anything is measured (one line, exit code 2).
"""
from __future__ import annotations

import os
import pickle
import sys

from cardsim.bench import against, conditions, crossover, dd, end_to_end, engine, pimc, pimc_hooks, rules, targets
from cardsim.bench.common import progress
from cardsim.bench.markdown import replace_section, write_keeping_notes
from cardsim.games import GAME_NAMES
from cardsim.games.base import OptionError
from cardsim.runner.files import OutputError, check_output_file

SECTIONS = ("conditions", "end-to-end", "crossover", "pimc", "targets")
"""The sections ``--only`` measures alone (the engine table heads the file and comes with a whole run)."""
AGAINST_SECTIONS = (None, "pimc", "targets")
"""What ``--against`` measures a before column for: the whole run, ``--only pimc``, ``--only targets``."""


def run(args) -> int:
    """Run ``cardsim bench`` as ``args`` (the parsed options) ask; returns the exit code.  Raises
    OptionError for options that do not go together, an unwritable ``--out`` or an unknown
    ``--against`` commit, before measuring."""
    if args.tool is not None:
        before = getattr(args, "options_before_tool", [])
        if before:
            raise OptionError(f"{', '.join('--' + d.replace('_', '-') for d in before)} before {args.tool}: the "
                              f"options of the whole run do not apply to a tool (its own follow its name: "
                              f"cardsim bench {args.tool} --help)")
        return TOOLS[args.tool](args)
    games = args.games or list(GAME_NAMES)
    if args.strategies:
        extra = [name for name, given in (("--only", args.only), ("--against", args.against), ("--out", args.out))
                 if given]
        if extra:
            raise OptionError(f"--strategies times strategy specs of this tree and prints one line a game: "
                              f"leave out {', '.join(extra)}")
        for game in games:
            rates = engine.alternating_rates(game, args.strategies, args.deals, args.rounds)
            print(engine.alternating_line(game, rates, args.deals, args.rounds), flush=True)
        return 0
    if args.against and args.only not in AGAINST_SECTIONS:
        raise OptionError(f"--against measures a before column for the whole run, --only pimc and --only targets, "
                          f"not --only {args.only}")
    if args.out and args.only == "pimc" and args.against:
        raise OptionError("--only pimc --against prints its before/after table and writes no file: leave out --out")
    if args.out:
        try:
            check_output_file(args.out)  # now, not after minutes of measuring
        except OutputError as exc:
            raise OptionError(f"--out: {exc}") from None
    if args.against:
        try:
            against.tree_at(args.against)  # now, not after minutes of measuring
        except against.RevisionError as exc:
            raise OptionError(str(exc)) from None
    cores = os.cpu_count() or 1
    if args.only is None:
        return _whole_run(games, args.deals, cores, args.out, args.against)
    sections = _ONLY[args.only](games, args, cores)
    print("".join(text for _, text in sections))
    if args.out:
        for heading, text in sections:
            replace_section(args.out, heading, text)
    return 0


def _whole_run(games, deals: int, cores: int, out: str | None, rev: str | None) -> int:
    results = []
    for game in games:
        print(f"measuring {game} …", file=sys.stderr)
        results.append(engine.measure(game, deals, cores))
    command = "make bench" if out else "cardsim bench"
    text = engine.table(results, deals, cores, command)
    e2e = [end_to_end.measure_end_to_end(r["game"], deals, cores) for r in results]
    text += end_to_end.end_to_end_table(e2e, deals)
    text += conditions.conditions_table([conditions.measure_conditions(game, deals) for game in games])
    text += crossover.crossover_table([crossover.measure_crossover(game, cores) for game in games], command)
    text += pimc.pimc_table([row for game in games for row in pimc.measure_pimc(game)], command)
    text += targets.targets_table(targets.measure_targets(games, rev, e2e, progress=progress),
                                  command + (f" AGAINST={rev}" if rev else ""))
    print(text)
    if out:
        write_keeping_notes(out, text)
    return 0


def _only_conditions(games, args, cores):
    text = conditions.conditions_table([conditions.measure_conditions(game, args.deals) for game in games])
    return [(conditions.CONDITIONS_HEADING, text)]


def _only_end_to_end(games, args, cores):
    results = []
    for game in games:
        print(f"measuring {game} end to end …", file=sys.stderr)
        results.append(end_to_end.measure_end_to_end(game, args.deals, cores))
    return [(end_to_end.E2E_HEADING, end_to_end.end_to_end_table(results, args.deals))]


def _only_crossover(games, args, cores):
    command = "python -m cardsim.bench --only crossover" + (f" --out {args.out}" if args.out else "")
    results = []
    for game in games:
        print(f"measuring {game} …", file=sys.stderr)
        results.append(crossover.measure_crossover(game, cores))
    return [(crossover.CROSSOVER_HEADING, crossover.crossover_table(results, command))]


def _only_pimc(games, args, cores):
    if args.against:
        command = f"python -m cardsim.bench --only pimc --against {args.against} --rounds {args.rounds}"
        rows = []
        for game in games:
            for worlds in (8, 32):
                rows.append({"game": game, "worlds": worlds, **against.pimc_rates(
                    game, args.against, worlds, deals=pimc.pimc_against_deals(game), rounds=args.rounds,
                    progress=progress)})
        return [(None, pimc.pimc_against_table(rows, command))]  # printed only (--out refused above)
    command = "python -m cardsim.bench --only pimc" + (f" --out {args.out}" if args.out else "")
    rows = []
    for game in games:
        print(f"measuring pimc in {game} …", file=sys.stderr)
        rows += pimc.measure_pimc(game)
    return [(pimc.PIMC_HEADING, pimc.pimc_table(rows, command))]


def _only_targets(games, args, cores):
    command = "python -m cardsim.bench --only targets" + (f" --against {args.against}" if args.against else "")
    # The end-to-end targets (simulate -o, the in-memory frame) are judged on this run's own
    # measurement, so that section is measured again with them.
    e2e = []
    for game in games:
        print(f"measuring {game} end to end …", file=sys.stderr)
        e2e.append(end_to_end.measure_end_to_end(game, args.deals, cores))
    measured = targets.measure_targets(games, args.against, e2e, progress=progress)
    return [(end_to_end.E2E_HEADING, end_to_end.end_to_end_table(e2e, args.deals)),
            (targets.TARGETS_HEADING, targets.targets_table(measured, command))]


_ONLY = {"conditions": _only_conditions, "end-to-end": _only_end_to_end, "crossover": _only_crossover,
         "pimc": _only_pimc, "targets": _only_targets}


# ------------------------------------------------------------------------------ the tools
def _dd(args) -> int:
    for line in dd.lines(args.games or dd.benchmarked_games(), args.seed, args.deals):
        print(line, flush=True)
    return 0


def _pimc_record(args) -> int:
    kept = pimc_hooks.record(args.game, args.decisions, args.worlds, args.seed)
    with open(args.out, "wb") as f:
        pickle.dump({"game": args.game, "worlds": args.worlds, "seed": args.seed, "decisions": kept}, f)
    spec = pimc_hooks.search_spec(args.worlds)
    print(f"{len(kept)} decisions of {args.game} ({spec}, seed {args.seed}) -> {args.out}")
    return 0


def _pimc_time(args) -> int:
    if args.best_only and args.against:
        raise OptionError("--best-only compares two modes of this tree: leave out --against")
    if args.against:
        try:
            against.tree_at(args.against)
        except against.RevisionError as exc:
            raise OptionError(str(exc)) from None
    res = pimc_hooks.time_file(args.file, args.against, args.rounds, args.chunk, args.best_only)
    print(pimc_hooks.time_line(res, args.against, args.best_only))
    return 0


def _pimc_profile(args) -> int:
    print(pimc_hooks.profile_table(pimc_hooks.profile(args.game, args.deals, args.worlds, args.seed)))
    return 0


def _rules(args) -> int:
    if args.implied is None:
        print(rules.rates_line(args.path, args.deals, args.rounds))
    else:
        for line in rules.implied_lines(args.path, args.implied, args.dealer, args.seat, args.deals, args.rounds):
            print(line)
    return 0


TOOLS = {"dd": _dd, "pimc-record": _pimc_record, "pimc-time": _pimc_time, "pimc-profile": _pimc_profile,
         "rules": _rules}
"""``cardsim bench TOOL``: each tool's runner (the parser's subcommands)."""
