"""``cardsim rules check FILE``: read a rule file, check every call and condition against its game,
and run its own test table (docs/rules-files.md, "Testing a system"); ``cardsim rules explain FILE
--hand … [--auction …]``: which rule makes the call and why each earlier one did not
(docs/rules-files.md, "Explaining a call"); ``cardsim rules from-chart vint|501``: the report's
Vint opening and response charts or 501's blind chart written as a rule file (docs/rules-files.md,
"Charts as rule files"; :mod:`cardsim.rules.from_chart`).

Exit codes of ``check``: 0 every test passes and every rule can fire, 1 a test fails or a rule never fires
(shadowed by an earlier one, or a condition no hand meets), 2 the file cannot be played (one line
naming ``FILE:LINE``).  ``explain``: 0, or 2 for a bad file, hand or auction (one line).  The parser part imports nothing heavy; :func:`run` imports what it needs.
"""
from __future__ import annotations

import sys
from pathlib import Path

from cardsim.cli.common import UsageError
from cardsim.games import game_names, get_game

NAME = "rules"


def add_parser(sub) -> None:
    p = sub.add_parser("rules", help="check a rule file (a bidding system as data) and run its test table, "
                                             "or explain the call it makes for a hand")
    what = p.add_subparsers(dest="rules_command", required=True)
    c = what.add_parser("check", help="parse and validate a rule file, run its [[test]] table")
    c.add_argument("path", metavar="FILE", help="the rule file (TOML, docs/rules-files.md)")
    c.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter the file declares in [params] (or base.NAME), as in rules:FILE:NAME=VALUE")
    c.add_argument("--deals", type=int, default=0, metavar="N",
                   help="also play N deals with the file at every seat and count the calls its rules made and "
                        "those where a rule held but its call was illegal (the base called)")
    c.add_argument("--seed", type=int, default=0)
    f = what.add_parser("from-chart", help="write a report's decision chart as a rule file (Vint's opening and "
                                           "response charts, 501's blind chart)")
    f.add_argument("game", help="the chart's game: vint (its opening, second-hand, overcall and response charts) "
                                "or 501 (its blind chart)")
    f.add_argument("--chart", action="append", default=None, metavar="NAME",
                   help="write this chart only (repeatable): vint opening, second, overcall, response; 501 blind")
    src = f.add_mutually_exclusive_group()
    src.add_argument("--table", action="append", default=None, metavar="CSV",
                     help="a chart's table (Vint: repeatable, default every reports/tables/vint_chart_<chart>.csv "
                          "there is; 501: once, default reports/tables/g501_game_choices.csv when it exists, else a "
                          "small chart computed on the spot)")
    src.add_argument("--cells", metavar="TEXT", help="501: the chart as a chart strategy's cells (126 digits)")
    f.add_argument("--deals", type=int, default=200, metavar="N",
                   help="501: deals a situation when the chart is computed on the spot (default 200)")
    f.add_argument("--seed", type=int, default=0, help="501: the chart computed on the spot; Vint: the test hands")
    f.add_argument("-o", "--output", metavar="FILE", help="write the rule file here (default: print it)")

    e = what.add_parser("explain", help="which rule makes the call for a hand, and why each earlier rule did not")
    e.add_argument("path", metavar="FILE", help="the rule file (TOML, docs/rules-files.md)")
    e.add_argument("--hand", required=True, metavar="HAND",
                   help='the whole hand, as in a [[test]]: "S:AK4 H:Q73 D:QJ42 C:K86"')
    e.add_argument("--auction", default=None, metavar="CALLS",
                   help='the situation before the call, as in a [[test]]: Vint the calls so far ("P 1NT P", '
                        'default: none), Five Hundred the standing bid ("partner 7H", default: none)')
    e.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter the file declares in [params] (or base.NAME), as in rules:FILE:NAME=VALUE")


def _params(args):
    from cardsim.rules.compile import split_spec  # local: --help imports every command module

    for item in args.param:
        if "=" not in item or ":" in item or "," in item:
            raise UsageError(f"--param {item!r}: write NAME=VALUE (one parameter each)")
    return split_spec(f"{args.path}:{','.join(args.param)}" if args.param else args.path)[1:]


def explain(args) -> int:
    from cardsim.rules.compile import glue, load  # local: --help imports every command module
    from cardsim.rules.explain import explain as walk  # local: --help imports every command module
    from cardsim.rules.explain import read_hand, read_situation  # local: --help imports every command module
    from cardsim.rules.source import read  # local: --help imports every command module

    values, base_values = _params(args)
    file = read(args.path)
    compiled = load(args.path, get_game(file.game).table.registry, values, base_values)
    g = glue(file.game)
    try:
        hand = read_hand(file.game, args.hand)
        situation = read_situation(g, args.auction)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    result = walk(compiled, hand, situation)
    for step in result.steps:
        print(step.text())
    if result.rule is None:
        print(f"no rule holds: the base strategy ({file.base}) calls {result.call}")
    elif result.by_base:
        print(f"the base strategy ({file.base}) calls {result.call} (rule #{result.rule + 1}'s call is illegal here)")
    else:
        print(f"call: {result.call}, rule #{result.rule + 1} ({file.rules[result.rule].where()})")
    return 0


def run(args) -> int:
    if args.rules_command == "explain":
        return explain(args)
    if args.rules_command == "from-chart":
        return from_chart(args)
    from cardsim.rules.check import fallbacks, never_fire, run_tests  # local: --help imports every command module
    from cardsim.rules.compile import load  # local: --help imports every command module
    from cardsim.rules.source import read  # local: --help imports every command module

    values, base_values = _params(args)
    file = read(args.path)
    compiled = load(args.path, get_game(file.game).table.registry, values, base_values)
    params = ", ".join(f"{k}={v:g}" for k, v in compiled.values.items()) or "none"
    print(f"{file.path}: {file.game}, {len(file.rules)} rules, base {file.base}, parameters {params}; "
          f"every call and condition checked")
    idle = never_fire(compiled)
    for entry, reason in idle:
        print(f"  {entry.where()}: rule #{entry.index + 1} never fires: {reason}")
    outcomes = run_tests(compiled)
    for o in outcomes:
        by = "the base" if o.rule is None else f"rule #{o.rule + 1} (line {file.rules[o.rule].line})"
        verdict = "ok" if o.passed else f"FAILED: expected {o.expected}"
        print(f"  {o.entry.where()}: test #{o.entry.index + 1}: {o.got} from {by}: {verdict}")
    failed = sum(not o.passed for o in outcomes)
    print(f"{len(outcomes)} tests: {len(outcomes) - failed} passed, {failed} failed" if outcomes
          else "no [[test]] in the file")
    if idle:
        print(f"{len(idle)} rule{'s' if len(idle) > 1 else ''} never fire{'' if len(idle) > 1 else 's'}")
    if args.deals < 0 or args.deals > 1_000_000:
        raise UsageError(f"--deals must be from 0 to 1,000,000, got {args.deals}")
    if args.deals:
        spec = f"rules:{args.path}" + (f":{','.join(args.param)}" if args.param else "")
        total, by_rules, illegal = fallbacks(spec, file.game, args.deals, args.seed)
        print(f"{args.deals:,} deals (seed {args.seed}), the file at every seat: {total:,} calls, {by_rules:,} made "
              f"by its rules, {sum(illegal.values()):,} where a rule held but its call was illegal (the base "
              f"called)" + "".join(f"; rule #{i + 1} (line {file.rules[i].line}): {k:,}"
                                   for i, k in sorted(illegal.items())))
    return 1 if failed or idle else 0


def from_chart(args) -> int:
    """``cardsim rules from-chart GAME``: the chart's best call per cell as a rule file, written by
    the game's writer (:func:`cardsim.rules.from_chart.writer`: :mod:`cardsim.rules.from_chart.g501`
    for 501, :mod:`cardsim.rules.from_chart.vint` for Vint); says where the chart came from."""
    from cardsim.rules.compile import glue  # local: --help imports every command module
    from cardsim.rules.from_chart import writer as chart_writer  # local: --help imports every command module

    try:
        spec = get_game(args.game)
    except (KeyError, ValueError) as exc:
        raise UsageError(str(exc.args[0] if exc.args else exc)) from None
    g = glue(spec.name) if spec.modules.offers("rules") else None
    if not getattr(g, "CHARTS", ()):  # the game's rulefile names the charts it can write
        with_charts = [n for n in game_names() if get_game(n).modules.offers("rules") and getattr(glue(n), "CHARTS", ())]
        raise UsageError(f"from-chart: {spec.name} has no chart to write as a rule file (games with charts: "
                         f"{', '.join(with_charts)})")
    writer = chart_writer(spec.name)
    if writer is None:  # charts named without a writer: a game's error, caught by its conformance check
        raise UsageError(f"from-chart: {spec.name} has no writer of its charts (cardsim/rules/from_chart/)")
    try:
        text, source = writer.from_args(args, log=lambda m: print(m, file=sys.stderr))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        try:
            Path(args.output).write_text(text)
        except OSError as exc:
            raise UsageError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
        n = text.count("[[rule]]")
        print(f"{args.output}: {n} rules from {source}; check it with cardsim rules check {args.output}")
    else:
        print(text, end="")
    return 0
