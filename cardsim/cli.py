"""The ``cardsim`` command: simulate, show, replay, strategies, bench, dd, quality.

Exit codes: 0 success, 1 data rejected (a record that breaks the rules), 2 usage (bad
arguments, unknown strategy or option, unwritable output).  Errors are one line on stderr.
"""
from __future__ import annotations

import argparse
from decimal import Decimal, InvalidOperation
import gc
import json
import sys
from pathlib import Path


# Only what building the parser needs is imported here: `cardsim --help` (and every command's
# --help) then starts in a fraction of a second.  The runner (pandas, numba), the engines and the
# analyses are imported by the commands that use them.
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError, RecordError
from cardsim.strategies.registry import StrategyError
from cardsim.text import clip, quote

_USAGE_ERRORS = {"cardsim.runner.files": "OutputError", "cardsim.deal": "ConditionError"}
"""Usage errors defined in modules the parser does not import: (module, class name)."""
IN_MEMORY_LIMIT = 20_000_000
"""Most deals ``simulate`` without ``-o`` holds in memory (about 2 GB of rows)."""


class UsageError(Exception):
    pass


def usage_errors() -> tuple[type, ...]:
    """The errors a command reports as one line with exit code 2: OptionError, StrategyError,
    cardsim.runner.files.OutputError and cardsim.deal.ConditionError.  The last two only from modules
    already imported (an error of a module nobody imported cannot have been raised), so that
    catching them imports nothing."""
    found = [getattr(sys.modules[m], name) for m, name in _USAGE_ERRORS.items() if m in sys.modules]
    return (OptionError, StrategyError, *found)


def __getattr__(name):
    if name == "USAGE_ERRORS":  # all four, importing their modules (for callers that name them)
        import importlib

        return (OptionError, StrategyError,
                *(getattr(importlib.import_module(m), n) for m, n in _USAGE_ERRORS.items()))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _whole(text: str, low: int, high: int) -> int:
    """``text`` as a whole number; ``1e6`` and ``1_000_000`` are accepted, since users write large
    deal counts so."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number")
    # Compared before int(): 1e999999999 is a whole number whose digits would not fit in memory.
    if not low <= value <= high:
        shown = text.strip() if len(text.strip()) <= 40 else quote(text.strip(), 40)  # bare: a number
        raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high:,}, got {shown}")
    return int(value)


def _positive(text: str) -> int:
    from cardsim.runner.run import MAX_DEALS

    return _whole(text, 1, MAX_DEALS)


def _nonnegative(text: str) -> int:
    from cardsim.runner.run import MAX_DEALS

    return _whole(text, 0, MAX_DEALS)


def _seed(text: str) -> int:
    return _whole(text, 0, 2**64 - 1)


def _error_rate(text: str) -> float:
    """An error rate, as a number; its range is :func:`cardsim.sequential.check_error`'s, checked
    by the command before any deal (the parser imports nothing heavy)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a number") from None


def _path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("the path is empty")
    return text


def _game(text: str) -> str:
    if text.lower() not in GAME_NAMES:
        raise argparse.ArgumentTypeError(f"unknown game {quote(text)} (choose from {', '.join(GAME_NAMES)})")
    return text.lower()


def _strategies(items):
    """``["random"]`` → one spec for all seats; ``["1=random", "3=heuristic:aggression=1"]`` → a dict."""
    if not items:
        return None
    out = {}
    for item in items:
        seat, eq, spec = item.partition("=")
        if eq and seat.strip().isdigit():
            if int(seat) in out:
                raise UsageError(f"--strategy: seat {int(seat)} given more than once")
            out[int(seat)] = spec
        elif len(items) == 1:
            return item
        else:
            raise UsageError(f"--strategy {quote(item)}: write SEAT=NAME[:param=value,...] when giving several")
    return out


def _add_execution(p):
    """--jobs, --progress and --scheduler: how a long command runs (the same result either way)."""
    p.add_argument("--jobs", type=int, default=-1,
                   help="worker processes: -1 = all cores if the run is big enough to pay for starting them, "
                        "else this process (the default); 1 = this process only; N = N workers")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar with rate and ETA (default: when standard error is a terminal)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a dask.distributed cluster: tcp://HOST:8786, or 'local' to start "
                        "one on this machine (README: Running on a cluster)")


def _add_setup(p):
    p.add_argument("--seed", type=_seed, default=0, help="run seed, 0 to 2**64-1 (default 0)")
    p.add_argument("--strategy", action="append", metavar="[SEAT=]NAME[:p=v,...]",
                   help="strategy for one seat (repeatable), or for every seat without SEAT=")
    p.add_argument("--seats", type=_positive, help="number of seats (501: 3 or 4)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="rule option (repeatable)")


class _StoreOnce(argparse.Action):
    """An option that takes one value: given twice, it is an error rather than the last one
    silently winning (``evaluate --where A --where B`` would otherwise answer a question about
    B alone).  Options meant to repeat say so (``action="append"``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given", set())
        if self.dest in seen:
            shown = "/".join(self.option_strings)
            hint = " (put every class in one, separated by commas)" if self.dest == "where" else ""
            parser.error(f"argument {shown}: given more than once{hint}")
        seen.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2), as every cardsim error is, and options that
    take one value given once (:class:`_StoreOnce`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message):
        # argparse puts the bad value into its own messages whole (an invalid choice, unrecognized
        # arguments): cut them, since a value can be megabytes.
        self.exit(2, f"{self.prog}: error: {clip(message, 200)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardsim", description="Monte Carlo analysis of Vint, 501 and Five Hundred")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("simulate", help="simulate deals (or whole matches)")
    p.add_argument("game", type=_game, help=" | ".join(GAME_NAMES))
    p.add_argument("-n", "--deals", type=_positive, help="number of deals")
    p.add_argument("--matches", type=_positive, help="play this many whole matches instead of deals")
    _add_setup(p)
    p.add_argument("-o", "--output", type=_path, help="parquet output: deals go to a dataset directory, matches to two files; unfinished "
                        "work waits in OUTPUT.partial and the same command resumes it")
    p.add_argument("--records", type=_path, help="write the first deals' records (JSON Lines) here")
    p.add_argument("--records-limit", type=_positive, help="how many records (default 1000)")
    p.add_argument("--chunk-size", type=_positive, help="deals per chunk (default 100000)")
    _add_execution(p)

    p = sub.add_parser(
        "evaluate", help="ask about a hand: play each option of one seat on the same deals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play every --option of --seat on the same deals, dealt under the given cards and\n"
                    "classes, and print per option (best first): n, the share of deals where it was legal,\n"
                    "the made rate with a 95% Wilson interval, the mean score with a 95% interval, and the\n"
                    "paired difference to the best option with its 95% interval.",
        epilog=EVALUATE_EPILOG)
    p.add_argument("game", type=_game, help=" | ".join(GAME_NAMES))
    p.add_argument("--seat", type=_nonnegative, default=0, help="the seat that takes the options (default 0)")
    p.add_argument("--option", action="append", required=True, metavar="OPTION",
                   help="an option of the seat (repeatable; see below)")
    p.add_argument("-n", "--deals", type=_positive, help="deals (default 100000; with --until-clear see --max-deals)")
    p.add_argument("--until-clear", action="store_true",
                   help="play in rounds of doubling size (2000, 4000, ... deals) and stop as soon as the best option "
                        "is separated from every other at the --error rate, or at --max-deals (then: no option is "
                        "clearly best); valid under this optional stopping (see below)")
    p.add_argument("--max-deals", type=_positive, metavar="N",
                   help="with --until-clear: the most deals (default 1000000; -n is for a fixed number of deals and "
                        "is not taken with --until-clear)")
    p.add_argument("--error", type=_error_rate, metavar="RATE",
                   help="with --until-clear: the chance of calling a wrong option clearly best, from 0.000001 to "
                        "0.5 (default 0.05)")
    p.add_argument("--hand", help='the seat\'s given cards, e.g. "S:AKT86 H:KQ42 C:K832" (some or all); '
                                  '"D:-" says it has no diamonds')
    p.add_argument("--where", help='hand classes, e.g. "hcp=15-17, H>=5; seat 2: hcp>=10" (docs/conditions.md)')
    p.add_argument("--talon", help="given talon (501) or kitty (500) cards")
    p.add_argument("--dealer", type=_nonnegative, help="the dealer's seat (default: drawn per deal)")
    p.add_argument("--auction", help="calls made before the seat's first call, in order: in Vint from the "
                                     "dealer, in 501 and 500 from the dealer's left (needs --dealer; see below)")
    p.add_argument("--calls-on-random-hands", action="store_true",
                   help="make the --auction calls whatever the callers hold (by default a deal is kept only if the "
                        "callers' strategies would make exactly those calls with their hands)")
    p.add_argument("--before", help="match state before the deal: 501 scores by seat (501,250,320); "
                                    "Vint below0,below1[,games0,games1]; 500 team scores s0,s1")
    p.add_argument("--outcome", choices=("deal", "game"), default="deal",
                   help="score the deal (default) or, in 501, the seat's share of the game's win")
    _add_setup(p)
    p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    p.add_argument("--records", type=_path, help="write the first deals' records, every option, here")
    p.add_argument("--records-limit", type=_positive, help="deals with records (default 100)")
    p.add_argument("--robust", action="store_true",
                   help="replay the question under every player profile of the game (cardsim profiles GAME) on "
                        "the same deals and say whether the best option holds")
    p.add_argument("--profile", action="append", metavar="NAME",
                   help="with --robust: replay under this profile only (repeatable; default is always included)")
    p.add_argument("--profiles-file", type=_path, metavar="FILE",
                   help="with --robust: more profiles from a TOML or JSON file (docs/profiles.md)")
    _add_execution(p)

    p = sub.add_parser("profiles", help="list a game's player profiles (who sits in the seats a question does "
                                        "not fix)")
    p.add_argument("game", type=_game, help=" | ".join(GAME_NAMES))
    p.add_argument("--file", type=_path, metavar="FILE", help="also the profiles of this TOML or JSON file")

    p = sub.add_parser("show", help="print one deal for people")
    p.add_argument("game", type=_game, nargs="?", help=" | ".join(GAME_NAMES))
    p.add_argument("--deal", type=_nonnegative, default=0, help="deal number (default 0; with --match: in the match)")
    p.add_argument("--match", type=_nonnegative, help="show a deal of this match (501) as play_match plays it")
    p.add_argument("--before", help="with --match: the scores the match started from (501,250,320)")
    p.add_argument("--dealer", type=_nonnegative, help="with --match: who dealt the match's first deal")
    p.add_argument("--record", type=_path, help="show a record from this JSON Lines file instead")
    p.add_argument("--line", type=_positive, default=1, help="which line of --record (default 1)")
    _add_setup(p)

    p = sub.add_parser("replay", help="validate and score deal records (docs/RECORDS.md)")
    p.add_argument("file", type=_path, help="JSON Lines file, or - for standard input")

    p = sub.add_parser("strategies", help="list a game's strategies, their parameters and its rule options")
    p.add_argument("game", type=_game)

    p = sub.add_parser("columns", help="list a game's row columns (dtype and meaning)")
    p.add_argument("game", type=_game)

    p = sub.add_parser("dd", help=DD_HELP, description=DD_DESCRIPTION)
    p.add_argument("game", type=_game, nargs="?", help="vint | 501 | 500")
    p.add_argument("--deal", type=_nonnegative, help="deal number (default 0)")
    p.add_argument("--record", type=_path, help="solve a record from this JSON Lines file instead")
    p.add_argument("--line", type=_positive, help="which line of --record (default 1)")
    _add_setup(p)

    p = sub.add_parser("quality", help="each strategy's play against double-dummy (vs_dd, made, DD-makeable)",
                       description="Every strategy (default: all the game registers) plays all seats of the same "
                                   "deals 0..N-1; each declared deal is compared with its double-dummy result. "
                                   "vs_dd: the declaring side's tricks (501: the declarer's deal points) minus DD, "
                                   "mean per declared deal with a 95% interval; dd_makeable / made: shares of "
                                   "declared contracts; Vint also right_side (the declaring side has the better "
                                   "best DD result) and best_denomination.  DD costs more than playing: per "
                                   "declared deal and strategy about 0.1 s in Vint, under 1 ms in 501 and "
                                   "about 6 ms in Five Hundred (BENCHMARKS.md).  Intervals need 30 declared "
                                   "deals; below that they print as NaN.")
    p.add_argument("game", type=_game, help=" | ".join(GAME_NAMES))
    p.add_argument("-n", "--deals", type=_positive, required=True, help="deals per strategy (the same for all)")
    p.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    p.add_argument("--strategies", nargs="+", metavar="NAME[:p=v,...]", help="strategies to measure (default: all)")
    p.add_argument("--by", help="split declared deals by any of band, denomination, level, comma-separated "
                                "(a longer table); band: the game's contract height bands (Vint levels 1-3, "
                                "4-5, 6-7; Five Hundred 6-7, 8-10; 501 targets 66-99, 100-119, 120-220)")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    _add_execution(p)

    p = sub.add_parser("bench", help="measure deals per second (see BENCHMARKS.md)")
    p.add_argument("--deals", type=_positive, default=1_000_000)
    p.add_argument("--out", help="write the Markdown table here as well")
    p.add_argument("--games", nargs="+", type=_game, help="games to measure (default: all)")
    p.add_argument("--strategies", nargs="+", metavar="SPEC",
                   help="instead: time these strategy specs (every seat) alternately on one core, best of "
                        "--rounds rounds each, CPU time (e.g. cardsim bench --games 501 --deals 200000 "
                        "--strategies heuristic heuristic_v1)")
    p.add_argument("--rounds", type=_positive, default=5, help="rounds with --strategies (default 5)")
    return parser


DD_HELP = "print one deal's double-dummy table (Vint tricks, 501 points, Five Hundred tricks)"
DD_DESCRIPTION = """\
* Vint: the whole table, tricks of the declarer's side for each declarer seat (rows) and
  denomination (columns), the seat on the declarer's left leading (docs/RULES.md §2.3).
* 501: the declarer's maximum deal points (card points + effective marriages, docs/RULES.md
  §1.5-§1.7) in each trump, from the hands after the talon and the gifts.
* Five Hundred: the declaring side's maximum tricks in each denomination from the hands after
  the kitty and the discard, the declarer leading (docs/RULES.md §3.4-§3.5).

Then the contract played: its DD result against what it needed and what the play took.
"""
"""``cardsim dd --help``: what cardsim.dd.cli prints (here, so the parser needs no cardsim.dd and its pandas)."""

EVALUATE_EPILOG = """options:
  any   auto              every first call of the seat: in Vint and 500 a pass and every legal bid;
                          in 501 look, pass and blind up to 66, 70, 80, ... 150 (those still possible)
  vint  P | 1S..7NT       the seat's first call (where illegal, the deal counts as not legal)
        =CONTRACT         the seat declares it, the auction skipped (=3NT, =7S)
  500   P | 6S..10NT      the seat's first bid or pass
        =CONTRACT         the seat declares it, the auction skipped (=8H)
  501   blind:L           bid blind, up to L, at the seat's first turn (blind:80)
        look | pass       look at the hand (then the strategy bids) | pass at the first turn
        =L  | =L!         the seat won the auction at L, having looked | blind
        =L/TRUMP[/TARGET] also forces the trump (S H D C NT) and the target (=100!/H/120)

--auction, the calls before the seat's first call (needs --dealer; spaces or commas between calls):
  vint  from the dealer:        P | 1S..7NT             --dealer 2 --seat 0 --auction "1NT P"
  500   from the dealer's left: P | 6S..10NT            --dealer 0 --seat 3 --auction "6S P"
  501   from the dealer's left: P | 70 | B70 (blind, also blind:70)
                                                        --dealer 0 --seat 0 --auction "B66 P"
The calls imply the callers' hands: a deal is kept only if the callers' strategies (--strategy)
would make exactly those calls with their hands; the share of dealt hands that do is printed.
A call they never make is an error (the default 501 players only ever bid the minimum raise);
--calls-on-random-hands makes the calls on any hands instead.  The calls may include the seat's
own earlier calls (a rebid question): the option is then the seat's next call.

suit symbols: cards, classes, calls and options also take the four suit symbols (filled or outline)
for the letters S H D C (docs/conditions.md).

--until-clear: the options are played in rounds on the deals a fixed run plays (2000 deals, then
4000, 8000, ... up to --max-deals, every look planned before the first deal); after each round the
best option is clear when its paired difference to every other option has an interval above 0 at
level 1 - error / (looks x (options - 1)): Bonferroni alpha spending over the planned looks and the
comparisons, so the chance of ever calling a wrong option clearly best is at most --error whatever
the round it stops at (docs/statistics.md).  Every option is tried as the clearly best one.  It
prints the deals used and the verdict; clear_lo, clear_hi are the interval at that level of the
option minus the one judged (the clearly best one, else the best).  Finished rounds are kept: the
same command resumes.

score: higher is better for the seat in every game.  Vint and Five Hundred: the seat's side's
points minus the other side's; 501: the seat's score change with its sign turned (the points it
gains toward 0 in the deal), or with --outcome game its share of the game's win after the game
is played on by the strategies.  diff: the option minus the best option, paired (negative = worse).

examples:
  cardsim evaluate vint --seat 0 --dealer 0 --hand "S:AKT86 H:KQ42 C:K832" \\
                   --option P --option 1S --option 1H --option 1NT -n 200000 --seed 1
  cardsim evaluate vint --seat 0 --hand "S:AKQJT98765432" --option =7S --option =7NT -n 2000
  cardsim evaluate 500 --seat 0 --where "jokers=2, trumps_H>=5" --option =8H --option =9H
  cardsim evaluate 501 --seat 1 --option blind:80 --option look --before 501,250,320
  cardsim evaluate vint --seat 0 --dealer 0 --hand "S:AKT86 H:KQ42 C:K832" \\
                   --option P --option 1S --option 1NT --until-clear --max-deals 500000
"""


def _ints(text, what):
    if text is None:
        return None
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"{what} must be whole numbers separated by commas, got {quote(text)}") from None


def cmd_evaluate(args) -> int:
    from cardsim import questions as E
    from cardsim.runner.files import check_output_file
    from cardsim.runner.pool import cluster

    if args.until_clear:
        if args.deals is not None:
            raise UsageError("-n fixes the number of deals; --until-clear chooses it: give the most deals with "
                             "--max-deals N instead")
        if args.robust:
            raise UsageError("--until-clear and --robust do not go together yet: ask with one of them")
    elif args.max_deals is not None or args.error is not None:
        raise UsageError("--max-deals and --error go with --until-clear")
    from cardsim import sequential as S

    if args.until_clear and args.error is not None:
        S.check_error(args.error)  # before the question is built and dealt

    deals = (args.max_deals or S.MAX_DEALS) if args.until_clear else (args.deals or 100_000)

    def ask(specs):
        return E.question(args.game, args.seat, args.option, deals, args.seed, args.hand, args.where,
                          args.talon, args.dealer, _ints(args.before, "--before"), specs, args.seats, args.rule,
                          auction=args.auction or (), outcome=args.outcome,
                          calls_imply_hands=not args.calls_on_random_hands)

    q = ask(_strategies(args.strategy))
    if args.records_limit and not args.records:
        raise UsageError("--records-limit needs --records FILE")
    if args.calls_on_random_hands and not args.auction:
        raise UsageError("--calls-on-random-hands goes with --auction: it says how the given calls are made")
    if args.records:
        check_output_file(args.records)  # unwritable output is an error before the run, not after
    if (args.profile or args.profiles_file) and not args.robust:
        raise UsageError("--profile and --profiles-file go with --robust")
    if args.until_clear and len(q.options) < 2:
        raise UsageError("--until-clear compares options: give at least two --option (or --option auto)")
    _warn_if_dealing_is_slow(q, args)
    if args.robust:
        return _evaluate_robust(E, q, ask, args)
    # Finished chunks wait in the runs folder until the answer is printed: the same command
    # after an interruption resumes from them.
    store = E.default_store(q)
    result = None
    with cluster(args.scheduler):
        if args.until_clear:
            sums, result = E.run_until_clear(q, args.error, None, args.jobs, args.progress,
                                             store=store.with_name(store.name + "-until-clear"))
        else:
            sums = E.run_question(q, args.jobs, args.progress, store=store)
    df = E.until_clear_table(q, sums, result) if result is not None else E.table(q, sums)
    if args.records:
        E.write_records(q, args.records, args.records_limit or 100)
    if args.format == "csv" and result is not None:
        # the verdict in columns: a CSV reader has no lines under the table
        verdict = df.attrs["until_clear"]
        sys.stdout.write(df.assign(clearly_best=(df["option"] == verdict["best"]) & bool(verdict["clear"]),
                                   deals_used=verdict["deals"], error=verdict["error"]).to_csv(index=False))
    elif args.format == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif args.format == "json" and result is not None:
        rows = json.loads(df.to_json(orient="records", double_precision=6))
        sys.stdout.write(json.dumps({"options": rows, "until_clear": df.attrs["until_clear"]}) + "\n")
    elif args.format == "json":
        sys.stdout.write(df.to_json(orient="records", double_precision=6) + "\n")
    else:
        a = df.attrs
        kept = "conditions and calls together" if a["calls"] else "the conditions"
        print(f"{a['game']} seat {a['seat']}, {a['deals']:,} deals, seed {a['seed']}; conditions: "
              f"{a['conditions']} (acceptance {a['acceptance']:.4g}: the share of random deals that meet {kept}); "
              f"strategies {', '.join(a['strategies'])}")
        if a["calls"]:
            print(f"calls given: {' '.join(a['calls'])}, made by the callers' strategies: a deal is kept only if they "
                  f"would make them ({a['calls_acceptance']:.4g} of the deals that meet the conditions do)")
        elif args.auction:
            print(f"calls given: {args.auction}, made whatever the callers hold (--calls-on-random-hands)")
        # rates to 4 decimals; scores to 1 (to 4 when the score is a share of the game's win)
        score_digits = 4 if a["outcome"] == "game" else 1
        digits = {c: 4 for c in ("legal", "made", "made_lo", "made_hi")}
        digits.update({c: score_digits for c in ("score", "score_lo", "score_hi", "diff", "diff_lo", "diff_hi",
                                                  "clear_lo", "clear_hi")})
        print(df.to_string(index=False, na_rep="", formatters={c: (lambda v, d=d: "" if v != v else f"{v:.{d}f}")
                                                                 for c, d in digits.items()}))
        print(f"score: {a['score_meaning']}; diff: paired, the option minus the best option (negative = worse "
              f"for you)")
        if result is not None:
            _print_until_clear(a["until_clear"], q.run.n)
    return 0


def _print_until_clear(verdict: dict, most: int) -> None:
    """The lines of ``evaluate --until-clear`` under its table: deals used, the verdict, the guarantee."""
    taken, planned = verdict["looks_taken"], verdict["looks_planned"]
    print(f"until clear: {verdict['deals']:,} deals used (look {len(taken)} of {len(planned)} planned at "
          f"{', '.join(f'{n:,}' for n in planned)}; at most {most:,}); clear_lo, clear_hi: the "
          f"{100 * verdict['interval_level']:.4g}% interval (the level each look uses) of the option minus "
          f"{verdict['best'] if verdict['clear'] else 'the best'}")
    if verdict["clear"]:
        print(f"clearly best: {verdict['best']} (better than every other option at error rate {verdict['error']:g})")
    else:
        print(f"no option is clearly best after {verdict['deals']:,} deals, the maximum (the best options may be "
              f"equal, or need more deals: --max-deals)")
    print(f"guarantee: {verdict['guarantee']}")


def _evaluate_robust(E, q, ask, args) -> int:
    """``evaluate --robust``: the question under every profile (cardsim.robust), then the verdict;
    ``ask(specs)`` builds the command's question with every seat's strategy specs."""
    from cardsim.runner.files import check_output_file
    from cardsim.runner.pool import cluster

    pairs = E.robust_questions(q, ask, args.profile or True, args.profiles_file)
    if args.records:
        check_output_file(args.records)
    with cluster(args.scheduler):
        answer = E.robust(pairs, args.jobs, args.progress, store=E.default_store)
    if args.records:
        E.write_records(q, args.records, args.records_limit or 100)
    if args.format == "json":
        sys.stdout.write(json.dumps(answer.to_dict(), ensure_ascii=False) + "\n")
    elif args.format == "csv":
        sys.stdout.write(answer.frame().to_csv(index=False))
    else:
        a = answer.tables["default"].attrs
        print(f"{a['game']} seat {a['seat']}, {a['deals']:,} deals per profile (the same deals and strategy "
              f"randomness under every profile), seed {a['seed']}; conditions: {a['conditions']}")
        print(f"score: {a['score_meaning']}")
        print(answer.text(digits=4 if a["outcome"] == "game" else 1))
    return 0


def cmd_profiles(args) -> int:
    from cardsim import profiles as P

    for p in P.available(args.game, args.file).values():
        seats = "; ".join(f"{k} = {v}" for k, v in p.seats.items()) or "every seat as the run gives it"
        print(f"{p.name}: {p.doc}" + ("" if p.source == "built in" or p.source.startswith("cardsim/") else
                                      f" (from {p.source})"))
        print(f"    {seats}")
    return 0


SLOW_DEALING = 600.0
"""Seconds of dealing alone beyond which ``evaluate`` warns before it starts."""


def _warn_if_dealing_is_slow(q, args) -> None:
    """A rare class deals for hours before the first chunk (and its progress) finishes: say so."""
    from cardsim.deal import dealing_seconds
    from cardsim.runner.pool import local_jobs

    if q.compiled.n_constraints == 0 and not q.calls:
        return  # nothing to reject: dealing costs next to nothing
    cores = local_jobs(args.jobs, len(q.run.chunks())) if args.scheduler is None else 1
    seconds = dealing_seconds(q.compiled, q.run.seed, q.run.n, calls=q.calls_test()) / cores
    if seconds > SLOW_DEALING:
        span = f"{seconds / 3600:,.1f} hours" if seconds >= 3600 else f"{seconds / 60:,.0f} minutes"
        print(f"cardsim: warning: the conditions are rare; dealing {q.run.n:,} deals alone will take about {span} "
              f"on {cores} worker{'s' if cores > 1 else ''} " + (
                  "if it needs the most deals (--until-clear stops sooner when the answer is clear; fewer with "
                  "--max-deals, or a wider class)" if args.until_clear else "(fewer deals with -n, or a wider class)"),
              file=sys.stderr)


def _write_text(path, text):
    """Write ``text`` to ``path``, creating a missing folder as ``-o`` does; OutputError if it cannot."""
    from cardsim.runner.files import OutputError, check_output_file

    check_output_file(path)
    try:
        Path(path).write_text(text)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def _in_memory_cap(game: str) -> int:
    from cardsim.runner.run import memory_cap

    return min(IN_MEMORY_LIMIT, memory_cap(game))


def cmd_simulate(args) -> int:
    from cardsim.runner.dataset import simulate_to_dataset
    from cardsim.runner.files import check_output_file, follow_link
    from cardsim.runner.pool import cluster
    from cardsim.runner.run import DEFAULT_CHUNK, make_run

    strategies = _strategies(args.strategy)
    if (args.deals is None) == (args.matches is None):
        raise UsageError("give exactly one of -n/--deals and --matches")
    if args.matches:
        return _simulate_matches(args, strategies)
    run = make_run(args.game, args.deals, args.seed, strategies, args.seats, args.rule,
                   args.chunk_size or DEFAULT_CHUNK)
    spec = get_game(args.game)
    limit = args.records_limit or 1000
    if args.records_limit and not args.records:
        raise UsageError("--records-limit needs --records FILE")
    if not args.output and args.deals > _in_memory_cap(args.game):
        raise UsageError(f"without -o the rows are held in memory: at most {_in_memory_cap(args.game):,} deals here "
                         "(write larger runs to a dataset with -o PATH)")
    if args.output:
        follow_link(args.output)  # a broken link is refused before a cluster is reached
    if args.records:
        # Checked now, made and written once the run is accepted and done: a refused run (a
        # different run at -o) leaves no records file behind, and an interruption during the
        # long part (the deals, resumable) loses no records work.
        check_output_file(args.records)
    with cluster(args.scheduler):
        if args.output:
            simulate_to_dataset(args.output, run, n_jobs=args.jobs, progress=args.progress)
            print(f"{args.deals} {spec.name} deals (seed {run.seed}) written to {args.output}")
        else:
            import cardsim

            df = cardsim.simulate(args.game, args.deals, run.seed, strategies, args.seats, args.rule, n_jobs=args.jobs,
                                  chunk_size=run.chunk_size, progress=args.progress)
            print(f"{len(df)} {spec.name} deals, seed {run.seed}, strategies {', '.join(run.setup.specs)}")
            # percentiles=[]: describe's quartiles are most of its time and not printed; the
            # columns printed are computed the same either way.
            print(df.describe(percentiles=[]).T[["mean", "std", "min", "max"]].to_string())
    if args.records:
        ids = range(min(limit, args.deals))
        records = spec.make_records(run.seed, ids, run.setup)
        lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        _write_text(args.records, lines)
        print(f"records of the first {min(limit, args.deals)} deals written to {args.records}")
    return 0


_RUN_FIELDS = ("game", "seed", "n_deals", "seats", "strategies", "rules", "source")
"""What makes two match runs the same run (the chunk size does not change the result)."""


def _same_match_run(path: Path, run) -> bool:
    """Whether the matches file ``path`` was written by ``run`` (its pandas attrs hold the run's
    manifest)."""
    import pyarrow.parquet as pq

    try:
        attrs = json.loads(pq.read_schema(path).metadata[b"PANDAS_ATTRS"])
    except Exception:  # not parquet, not ours, or no manifest: the caller refuses it
        return False
    manifest = run.manifest()
    return all(attrs.get(k) == manifest.get(k) for k in _RUN_FIELDS)


def _unfinished(matches) -> int:
    """Matches stopped at the engine's cap on deals, without a winner (501: ``finished`` False;
    Vint and Five Hundred: no ``winner``, missing in the frame)."""
    if "finished" in matches:
        return int((~matches["finished"]).sum())
    if "winner" not in matches:
        return 0
    winner = matches["winner"]
    return int((winner.isna() | winner.lt(0).fillna(False)).sum())


def _simulate_matches(args, strategies) -> int:
    """``simulate --matches``: chunks are kept in ``<out>.partial`` (without -o: in the runs
    folder) until both files are written, so an interrupted run resumes."""
    from cardsim.runner.dataset import staging
    from cardsim.runner.files import OutputError, atomic_write, check_output_file, follow_link
    from cardsim.runner.pool import cluster
    from cardsim.runner.run import make_run, play_matches
    from cardsim.runner.store import ChunkStore, manifest_key, runs_dir

    for given, option in ((args.records, "--records"), (args.records_limit, "--records-limit"),
                          (args.chunk_size, "--chunk-size")):
        if given:
            raise UsageError(f"{option} works with -n (deals), not with --matches")
    run = make_run(args.game, args.matches, args.seed, strategies, args.seats, args.rule, what="the number of matches")
    out = deals_path = None
    if args.output:
        out = follow_link(args.output)
        deals_path = follow_link(out.with_name(out.stem + "-deals" + (out.suffix or ".parquet")))
        store = staging(out)
        if out.exists() and deals_path.exists() and not store.exists() and _same_match_run(out, run):
            print(f"{args.matches} matches already written to {out} and {deals_path}")
            return 0
        for path in (out, deals_path):
            if path.exists() and not store.exists():
                raise OutputError(f"{path} exists (a different or unreadable match run): remove it or choose "
                                  "another path")
            check_output_file(path)
    else:
        store = runs_dir() / f"matches-{manifest_key(run.manifest())}"
    with cluster(args.scheduler):
        matches, deals = play_matches(args.game, args.matches, args.seed, strategies, args.seats, args.rule,
                                      n_jobs=args.jobs, store=store, progress=args.progress)
    unfinished = _unfinished(matches)
    if unfinished:
        # Such matches stopped at the engine's safety cap on deals: their final scores are no result.
        print(f"cardsim: warning: {unfinished:,} of {len(matches):,} matches ended without a winner at the cap on "
              "deals a match (their final scores are no result); check the strategies (do they ever bid?)", file=sys.stderr)
    if out is not None:
        for df, path in ((deals, deals_path), (matches, out)):
            try:
                atomic_write(path, df.to_parquet)
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        ChunkStore.discard(store)
        print(f"{len(matches)} matches ({len(deals)} deals) written to {out} and {deals_path}")
    else:
        ChunkStore.discard(store)
        print(f"{len(matches)} {get_game(args.game).name} matches ({len(deals)} deals), seed {run.seed}, "
              f"strategies {', '.join(run.setup.specs)}; {len(matches) - unfinished} finished")
        print(matches.describe().T.to_string())
    return 0


def _read_jsonl(path):
    """Yield ``(line number, record or RecordError)`` from a JSON Lines file.

    Each line is decoded on its own, so one bad line (not UTF-8, not JSON, nested too deep)
    is reported and the next line is still read; a byte-order mark is ignored.
    """
    try:
        handle = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        for number, raw in enumerate(handle, 1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, RecordError("not UTF-8 text")
                continue
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except ValueError as exc:
                yield number, RecordError(f"not valid JSON: {exc}")
            except RecursionError:
                yield number, RecordError("not valid JSON: nested too deeply")


def _replay(record):
    import cardsim

    return cardsim.replay(record)


def cmd_replay(args) -> int:
    rejected = 0
    seen = 0
    for number, record in _read_jsonl(args.file):
        seen += 1
        try:
            if isinstance(record, Exception):
                raise record
            result = _replay(record)
        except RecordError as exc:
            rejected += 1
            print(f"{args.file}: line {number}: {clip(exc.describe())}", file=sys.stderr)
            continue
        print(json.dumps(result, separators=(",", ":")))
    if seen == 0:
        print(f"{args.file}: no records", file=sys.stderr)
        return 1
    if rejected:
        print(f"{rejected} of {seen} records rejected", file=sys.stderr)
    else:
        print(f"all {seen} records valid", file=sys.stderr)
    return 1 if rejected else 0


def cmd_show(args) -> int:
    if args.record:
        # A record carries its own deal, seed, strategies and rules: options that would pick or
        # play another deal cannot apply, and ignoring them would show the wrong deal silently.
        given = [name for name, value, default in (("--deal", args.deal, 0), ("--seed", args.seed, 0),
                                                    ("--match", args.match, None), ("--before", args.before, None),
                                                    ("--dealer", args.dealer, None), ("--strategy", args.strategy, None),
                                                    ("--seats", args.seats, None), ("--rule", args.rule, None))
                 if value != default]
        if given:
            raise UsageError(f"{', '.join(given)} cannot go with --record (the record fixes its deal; "
                             "choose it with --line)")
        for number, record in _read_jsonl(args.record):
            if number == args.line:
                if isinstance(record, Exception):
                    raise record
                _replay(record)
                if args.game and record["game"] != args.game:
                    raise UsageError(f"line {number} of {args.record} is a {record['game']} record, not {args.game}")
                print(get_game(record["game"]).show(record))
                return 0
        raise UsageError(f"{args.record} has no record on line {args.line}")
    if not args.game:
        raise UsageError("name a game (or give --record FILE)")
    from cardsim.runner.run import make_run

    run = make_run(args.game, 1, args.seed, _strategies(args.strategy), args.seats, args.rule)
    spec = get_game(args.game)
    if args.match is not None:
        import cardsim

        records = cardsim.match_records(args.game, args.match, run.seed, list(run.setup.specs), run.setup.seats,
                                        args.rule, _ints(args.before, "--before"), args.dealer)
        if args.deal >= len(records):
            raise UsageError(f"match {args.match} of seed {run.seed} has {len(records)} deals (0 to {len(records) - 1})")
        print(f"seed {run.seed}, match {args.match}, deal {args.deal} of {len(records)}, "
              f"strategies {', '.join(run.setup.specs)}")
        print(spec.show(records[args.deal]))
        return 0
    if args.before is not None or args.dealer is not None:
        raise UsageError("--before and --dealer go with --match")
    record = spec.make_records(run.seed, [args.deal], run.setup)[0]
    print(f"seed {run.seed}, deal {args.deal}, strategies {', '.join(run.setup.specs)}")
    print(spec.show(record))
    return 0


def cmd_strategies(args) -> int:
    spec = get_game(args.game)
    for s in spec.registry.strategies():
        default = " (default)" if s.name == spec.default_strategy else ""
        print(f"{s.name}{default}: {s.doc}")
        for name, value in s.params.items():
            meaning = s.param_docs.get(name, "")
            span = f" ({s.accepted(name)})" if name in s.bounds or name in s.kinds else ""
            print(f"    {name} = {value:g}{span}" + (f"    {meaning}" if meaning else ""))
        if s.table is not None:  # a table's value is long: its default is summarised, not written out
            print(f"    {s.table.name} = {s.table.summary(s.table.default)} (text)    {s.table.doc}")
    if spec.rule_options:
        print("rule options (--rule NAME=VALUE):")
        for o in spec.rule_options:
            print(f"    {o.name} = {o.default}    {o.doc}")
    else:
        print("rule options: none")
    return 0


def cmd_columns(args) -> int:
    import textwrap

    from cardsim import frames

    spec = get_game(args.game)
    for title, what, doc, missing in (
            ("Deal rows (cardsim.simulate, cardsim.read_dataset; play_match's deals)", "deals", spec.row_doc,
             frames.MISSING_DOC[spec.name]),
            ("Match rows (cardsim.play_match)", "matches", spec.match_doc, frames.MATCH_MISSING_DOC[spec.name])):
        dtypes = frames.dtype_table(spec.name, what, seats=min(spec.seat_counts))
        if not dtypes:
            continue
        print(f"{title}:")
        print(textwrap.fill(" ".join(f"{n} ({t})" for n, t in dtypes.items()), 100,
                            initial_indent="  ", subsequent_indent="  "))
        for text in (missing, "Stored codes (raw engine rows, parquet parts): " + doc):
            print(textwrap.fill(" ".join(text.split()), 100, initial_indent="  ", subsequent_indent="  "))
        print()
    print("Frame dtypes: Int8/Int16/Int32 and boolean are nullable (<NA> = no value on that deal, never -1);\n"
          "category columns are ordered in the game's order (S < C < D < H < NT).  Parquet datasets keep the\n"
          "compact raw codes; cardsim.read_dataset(path) reads them back as these frames.  Integer columns\n"
          "use compact widths: widen them before arithmetic that can overflow, with cardsim.widen(df) or\n"
          "simulate(..., compact=False).  Rule options: cardsim strategies GAME.")
    return 0


def cmd_bench(args) -> int:
    from cardsim import bench

    argv = ["--deals", str(args.deals)] + (["--out", args.out] if args.out else [])
    argv += ["--games", *args.games] if args.games else []
    argv += ["--strategies", *args.strategies, "--rounds", str(args.rounds)] if args.strategies else []
    return bench.main(argv)


def cmd_quality(args) -> int:
    from cardsim.quality import CHUNK, check_by, check_request, deal_chunk, quality
    from cardsim.runner.pool import cluster
    from cardsim.runner.store import ChunkStore, analysis_store, runs_dir

    by = [b.strip() for b in args.by.split(",") if b.strip()] if args.by else []
    game, names = check_request(args.game, args.deals, args.strategies)
    check_by(by)
    # Finished chunks wait in the runs folder until the table is printed (DD makes a quality run
    # long): the same command after an interruption resumes from them.
    store = analysis_store(runs_dir(), "quality", deal_chunk, game=game, strategies=names,
                           deals=args.deals, seed=args.seed, chunk=CHUNK)
    with cluster(args.scheduler):
        df = quality(args.game, args.deals, args.seed, args.strategies, by, n_jobs=args.jobs, progress=args.progress,
                     store=store)
    ChunkStore.discard(store.path)
    if args.format == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif args.format == "json":
        sys.stdout.write(df.to_json(orient="records", double_precision=6) + "\n")
    else:
        print(f"{df.attrs['game']}: {args.deals:,} deals, seed {args.seed}; vs_dd in {df.attrs['unit']} per declared "
              "deal (declaring side minus double-dummy), n = declared deals")
        print(df.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return 0


def cmd_dd(args) -> int:
    from cardsim.dd import cli as dd_cli
    from cardsim.runner.run import make_run

    return dd_cli.run(args, _read_jsonl, make_run, _strategies, UsageError)


COMMANDS = {"simulate": cmd_simulate, "evaluate": cmd_evaluate, "profiles": cmd_profiles, "replay": cmd_replay, "show": cmd_show, "strategies": cmd_strategies,
            "columns": cmd_columns, "bench": cmd_bench, "dd": cmd_dd,
            "quality": cmd_quality}


def _attach_negative_values(argv: list[str]) -> list[str]:
    """``--before -900,0`` as ``--before=-900,0``: argparse takes a value that starts with ``-``
    and is not a plain number (the comma) for an option, so negative scores needed the ``=``."""
    out = []
    i = 0
    while i < len(argv):
        if argv[i] == "--before" and i + 1 < len(argv) and argv[i + 1][:1] == "-" and argv[i + 1][1:2].isdigit():
            out.append(f"--before={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def main(argv=None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(_attach_negative_values(sys.argv[1:] if argv is None else list(argv)))
    except KeyboardInterrupt:
        print("cardsim: interrupted while starting (nothing was run)", file=sys.stderr)
        return 130
    try:
        return COMMANDS[args.command](args)
    except RecordError as exc:
        print(f"cardsim: rejected: {clip(exc.describe())}", file=sys.stderr)
        return 1
    except (UsageError, *usage_errors()) as exc:
        print(f"cardsim: error: {clip(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of our output went away (e.g. `| head`): not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"cardsim: interrupted ({_what_is_kept(args)})", file=sys.stderr)
        return 130


def process_main() -> int:
    """:func:`main` for a process that ends with the command (the ``cardsim`` script, ``python -m
    cardsim``): the objects left at the end are frozen out of the garbage collector, since the
    interpreter's exit would otherwise walk every object of numba, pandas and pyarrow in its last
    collections, about 0.3 s of a short command, to free memory the process gives back anyway.
    atexit handlers and the flushing of the standard streams run as before."""
    try:
        return main()
    finally:
        gc.freeze()


def _what_is_kept(args) -> str:
    """What an interrupted command leaves for the next run, for its one-line message."""
    if args.command in ("evaluate", "quality") or (args.command == "simulate" and (args.output or args.matches)):
        return "finished chunks are kept; run the same command again to resume"
    if args.command == "simulate":
        return "nothing is kept without -o: write a dataset with -o PATH to keep finished chunks and resume"
    return "nothing was written"


if __name__ == "__main__":
    sys.exit(process_main())
