"""``cardsim evaluate``: every option of one seat played on the same deals, dealt under given cards and
hand classes; in rounds until one option is clearly best (``--until-clear``), or under every player
profile (``--robust``).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import argparse
import json
import sys

from cardsim.cli.common import (UsageError, add_execution_options, add_setup_options, parse_error_rate, parse_game,
                                parse_ints, parse_nonnegative, parse_output_path, parse_path, parse_positive,
                                parse_strategies)
from cardsim.cli.export import pbn_given
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError

NAME = "evaluate"

EVALUATE_EPILOG = """options:
  any   auto              every first call of the seat: in Vint and 500 a pass and every legal bid;
                          in 501 look, pass and blind up to 66, 70, 80, ... 150 (those still possible)
  vint  P | 1S..7NT       the seat's first call (where illegal, the deal counts as not legal)
        =CONTRACT         the seat declares it, the auction skipped (=3NT, =7S)
        =CONTRACT:SEAT    that seat declares it, the auction skipped (=3NT:2)
        lead:CARD         the seat's opening lead against the --contract 3NT:2 (lead:QS; the seat must
                          be on the declarer's left); also lead:CARD/CONTRACT:SEAT (lead:QS/3NT:2)
  500   P | 6S..10NT      the seat's first bid or pass
        =CONTRACT         the seat declares it, the auction skipped (=8H)
        lead:CARD         the declarer's first lead against the --contract 8H:0 (the declarer leads:
                          the seat must declare); a joker led in no-trump names a suit (lead:HJ=S)
  501   blind:L           bid blind, up to L, at the seat's first turn (blind:80)
        look | pass       look at the hand (then the strategy bids) | pass at the first turn
        =L  | =L!         the seat won the auction at L, having looked | blind
        =L/TRUMP[/TARGET] also forces the trump (S H D C NT) and the target (=100!/H/120)
        lead:CARD         the first lead against the --contract BID[!]/TRUMP[/TARGET]:SEAT (100/H:2);
                          the dealer's left leads, whoever declared: give --dealer, the seat's right
  any   lead:auto         beside lead:CARD: the same contract, the seat's strategy leading
        lead:best         every lead of the --hand, ranked, best first (the same as --all-leads)

--auction, the calls before the seat's first call (needs --dealer; spaces or commas between calls):
  vint  from the dealer:        P | 1S..7NT             --dealer 2 --seat 0 --auction "1NT P"
  500   from the dealer's left: P | 6S..10NT            --dealer 0 --seat 3 --auction "6S P"
  501   from the dealer's left: P | 70 | B70 (blind, also blind:70)
                                                        --dealer 0 --seat 0 --auction "B66 P"
Lead questions (lead:CARD with --contract) deal the declaring side hands with which the strategies'
auction ends in the contract (501: the declarer keeping it, with its trump and target); --auction
gives calls that auction starts with (--dealer 2 --auction "1NT P" --contract 3NT:2), and
--calls-on-random-hands deals the declaring side at random, the auction skipped (the header says which).
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
gains toward 0 in the deal).  With --outcome game (501, Five Hundred) it is the seat's (side's)
share of the game's win after the game is played on by the strategies from --before (Five
Hundred: to the target under the run's scoring, the same later deals for every option).  Vint
with --outcome game: the side's share of the rubber's win (1 or 0; 1/2 for a rubber stopped
unfinished at 5000 deals), with --outcome margin its points minus the other side's from the deal
to the rubber's end, the rubber played on by the strategies from --before
below0,below1,games0,games1 (the later deals the same for every option).
diff: the option minus the best option, paired (negative = worse).
rank: the order of the table, by paired comparisons: an option ranks above another that it beats
on the deals where both were legal, by wins minus losses over all the others (docs/statistics.md);
empty for an option legal on fewer than 30 deals, or together with another on fewer than 30 (not
compared, listed last).

examples:
  cardsim evaluate vint --seat 0 --dealer 0 --hand "S:AKT86 H:KQ42 C:K832" \\
                   --option P --option 1S --option 1H --option 1NT -n 200000 --seed 1
  cardsim evaluate vint --seat 0 --hand "S:AKQJT98765432" --option =7S --option =7NT -n 2000
  cardsim evaluate vint --seat 3 --contract 3NT:2 --hand "S:QJ72 H:K84 D:953 C:T62" \
                   --option lead:QS --option lead:4H --option lead:auto --outcome tricks -n 20000
  cardsim evaluate vint --seat 3 --contract 4H:2 --hand "S:QJ72 H:K84 D:953 C:T62" --all-leads
  cardsim evaluate 501 --seat 1 --dealer 0 --contract 100/H:2 --hand "S:T9 H:9 D:KJ C:Q9" --all-leads \
                   --outcome points
  cardsim evaluate 500 --seat 0 --contract 8H:0 --hand "HJ JD AH KH QH 9H 7H AS KC 5D" --all-leads \
                   --outcome tricks
  cardsim evaluate 500 --seat 0 --where "jokers=2, trumps_H>=5" --option =8H --option =9H
  cardsim evaluate 501 --seat 1 --option blind:80 --option look --before 501,250,320
  cardsim evaluate 500 --seat 0 --where "jokers=2, trumps_H>=5" --option =8H --option =9H \\
                   --before 480,300 --outcome game
  cardsim evaluate vint --seat 0 --option =2H --option =4H --before 380,300,1,0 --outcome game -n 2000
  cardsim evaluate vint --seat 0 --dealer 0 --hand "S:AKT86 H:KQ42 C:K832" \\
                   --option P --option 1S --option 1NT --until-clear --max-deals 500000
"""
SLOW_DEALING = 600.0
"""Seconds of dealing alone beyond which ``evaluate`` warns before it starts."""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "evaluate", help="ask about a hand: play each option of one seat on the same deals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play every --option of --seat on the same deals, dealt under the given cards and\n"
                    "classes, and print per option (best first): n, the share of deals where it was legal,\n"
                    "the made rate with a 95% Wilson interval, the mean score with a 95% interval, and the\n"
                    "paired difference to the best option with its 95% interval.",
        epilog=EVALUATE_EPILOG)
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("--seat", type=parse_nonnegative, default=0, help="the seat that takes the options (default 0)")
    p.add_argument("--option", action="append", metavar="OPTION",
                   help="an option of the seat (repeatable; see below)")
    p.add_argument("--contract", metavar="CONTRACT:SEAT",
                   help="the contract the seat's lead:CARD options are led against, and its declarer, reached by "
                        "the strategies' auction (Vint 3NT:2, 500 8H:0, 501 100/H:2; see below); the seat must lead "
                        "the first trick: in Vint the declarer's left, in 500 the declarer, in 501 the dealer's left "
                        "(give --dealer)")
    p.add_argument("--all-leads", action="store_true",
                   help="with --contract and --hand: every card of the given hand (and, for a declarer, of the given "
                        "talon or kitty) as a lead:CARD option, every card played; cards that may be equal (Vint: of "
                        "a suit touching in rank; 500: touching in the contract's trick order; 501: none) shown as one "
                        "row, the top card's, only where they scored the same on every deal (the strategies read the "
                        "card led), else split; the groups listed under the table (column stands_for in csv and json)")
    p.add_argument("-n", "--deals", type=parse_positive,
                   help="deals (default 100000; with --until-clear see --max-deals)")
    p.add_argument("--until-clear", action="store_true",
                   help="play in rounds of doubling size (2000, 4000, ... deals) and stop as soon as the best option "
                        "is separated from every other at the --error rate, or at --max-deals (then: no option is "
                        "clearly best); valid under this optional stopping (see below)")
    p.add_argument("--max-deals", type=parse_positive, metavar="N",
                   help="with --until-clear: the most deals (default 1000000; -n is for a fixed number of deals and "
                        "is not taken with --until-clear)")
    p.add_argument("--error", type=parse_error_rate, metavar="RATE",
                   help="with --until-clear: the chance of calling a wrong option clearly best, from 0.000001 to "
                        "0.5 (default 0.05)")
    p.add_argument("--hand", help='the seat\'s given cards, e.g. "S:AKT86 H:KQ42 C:K832" (some or all); '
                                  '"D:-" says it has no diamonds')
    p.add_argument("--where", help='hand classes, e.g. "hcp=15-17, H>=5; seat 2: hcp>=10" (docs/conditions.md)')
    p.add_argument("--talon", help="given talon (501) or kitty (500) cards")
    p.add_argument("--pbn", type=parse_path, metavar="FILE",
                   help="take the seat's hand and the dealer from a PBN board (docs/pbn.md); with --pbn-hands all, "
                        "every seat's hand (the deal fixed)")
    p.add_argument("--board", help="with --pbn: the board (its Board tag; 1/Closed for one of the boards one per room that share a number, docs/pbn.md); may be left out for a file of one board")
    p.add_argument("--pbn-hands", choices=("seat", "all"), default="seat",
                   help="with --pbn: give the seat's hand only (default) or all four hands")
    p.add_argument("--dealer", type=parse_nonnegative, help="the dealer's seat (default: drawn per deal)")
    p.add_argument("--auction", help="calls made before the seat's first call (or, in a lead question, that the "
                                     "auction reaching --contract starts with), in order: in Vint from the "
                                     "dealer, in 501 and 500 from the dealer's left (needs --dealer; see below)")
    p.add_argument("--calls-on-random-hands", action="store_true",
                   help="make the --auction calls whatever the callers hold (by default a deal is kept only if the "
                        "callers' strategies would make exactly those calls with their hands); in a lead question "
                        "without --auction: deal the declaring side at random, the contract declared whatever it "
                        "holds (by default its hands are those with which the strategies bid the contract)")
    p.add_argument("--before", help="match state before the deal: 501 scores by seat (501,250,320); "
                                    "Vint below0,below1[,games0,games1]; 500 team scores s0,s1")
    # No choices= here: each game offers its own outcomes (forcing.outcome_states()); the question
    # checks the name with a one-line error (exit 2), and the parser imports no game.
    p.add_argument("--outcome", default="deal", metavar="{deal,game,margin,tricks,points}",
                   help="score the deal (default); game: the seat's (side's) share of the win of the game (501, "
                        "500) or rubber (Vint) played on by the strategies; margin (Vint): the side's points minus "
                        "the other side's to the rubber's end; tricks (Vint, 500): the side's tricks in the deal; "
                        "points (501): the seat's card points won plus effective marriages")
    add_setup_options(p)
    p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    p.add_argument("--records", type=parse_output_path, help="write the first deals' records, every option, here")
    p.add_argument("--records-limit", type=parse_positive, help="deals with records (default 100)")
    p.add_argument("--robust", action="store_true",
                   help="replay the question under every player profile of the game (cardsim profiles GAME) on "
                        "the same deals and say whether the best option holds")
    p.add_argument("--profile", action="append", metavar="NAME",
                   help="with --robust: replay under this profile only (repeatable; default is always included)")
    p.add_argument("--profiles-file", type=parse_path, metavar="FILE",
                   help="with --robust: more profiles from a TOML or JSON file (docs/profiles.md)")
    add_execution_options(p)


def run(args) -> int:
    import pandas as pd  # local: --help imports every command module

    from cardsim import questions as E  # local: --help imports every command module
    from cardsim.runner.files import check_output_file  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module

    if args.until_clear:
        if args.deals is not None:
            raise UsageError("-n fixes the number of deals; --until-clear chooses it: give the most deals with "
                             "--max-deals N instead")
        if args.robust:
            raise UsageError("--until-clear and --robust do not go together yet: ask with one of them")
    elif args.max_deals is not None or args.error is not None:
        raise UsageError("--max-deals and --error go with --until-clear")
    from cardsim import sequential as S  # local: --help imports every command module

    if args.until_clear and args.error is not None:
        S.check_error(args.error)  # before the question is built and dealt

    deals = (args.max_deals or S.MAX_DEALS) if args.until_clear else (args.deals or 100_000)

    given = pbn_given(args)  # --pbn: the board's hand(s) and dealer (sets args.hand / args.dealer)
    groups, grouping = _lead_options(args, given)  # --contract, --all-leads: the lead options (sets args.option)

    def ask(specs, n=deals):
        return E.question(args.game, args.seat, args.option, n, args.seed, args.hand, args.where,
                          args.talon, args.dealer, parse_ints(args.before, "--before"), specs, args.seats, args.rule,
                          conditions=given,
                          auction=args.auction or (), outcome=args.outcome,
                          calls_imply_hands=not args.calls_on_random_hands)

    q = ask(parse_strategies(args.strategy))
    if args.records_limit and not args.records:
        raise UsageError("--records-limit needs --records FILE")
    if args.calls_on_random_hands and not args.auction and not any(_is_lead(o) for o in q.options):
        raise UsageError("--calls-on-random-hands goes with --auction (it says how the given calls are made) or "
                         "with lead options (the declaring side dealt at random)")
    if args.records:
        check_output_file(args.records)  # unwritable output is an error before the run, not after
    if (args.profile or args.profiles_file) and not args.robust:
        raise UsageError("--profile and --profiles-file go with --robust")
    if args.until_clear and len(q.options) < 2:
        raise UsageError("--until-clear compares options: give at least two --option (or --option auto)")
    _warn_if_dealing_is_slow(q, args)
    pilot = None
    if groups and (args.until_clear or args.robust):
        # Two leads equal on every deal can never be told apart: the rounds could not stop, and a
        # robust verdict would name the twin as runner-up.  The groups are proven on the first
        # round's deals (the question's strategies), then one card a class is played.
        pilot = min(S.FIRST, deals)
        with cluster(args.scheduler):
            sums = E.run_question(ask(parse_strategies(args.strategy), pilot), args.jobs)
        groups, split, hidden = _regroup(groups, list(q.options), sums)
        args.option = [o for o in args.option if o.strip() not in hidden]
        q = ask(parse_strategies(args.strategy))
    if args.robust:
        return _evaluate_robust(E, q, ask, args, (groups, split, grouping, pilot) if groups else None)
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
    if groups and pilot is None:
        groups, split, hidden = _regroup(groups, list(q.options), sums)
    if groups:
        df = _shown(df, groups, split, hidden)
    if args.records:
        E.write_records(q, args.records, args.records_limit or 100)
    if args.format == "csv" and result is not None:
        # the verdict in columns: a CSV reader has no lines under the table
        verdict = df.attrs["until_clear"]
        sys.stdout.write(df.assign(clearly_best=(df["option"] == verdict["best"]) & bool(verdict["clear"]),
                                   deals_used=verdict["deals"], error=verdict["error"]).to_csv(index=False))
    elif args.format == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif args.format == "json":
        sys.stdout.write(json.dumps(answer_json(df), ensure_ascii=False) + "\n")
    else:
        a = df.attrs
        kept = "conditions and calls together" if a["calls"] or a["reach"] else "the conditions"
        print(f"{a['game']} seat {a['seat']}, {a['deals']:,} deals, seed {a['seed']}; conditions: "
              f"{a['conditions']} (acceptance {a['acceptance']:.4g}: the share of random deals that meet {kept}); "
              f"strategies {', '.join(a['strategies'])}")
        print(f"{deal_state(a)}; rules: {a['rules_text']}")
        side = E.declaring_side(q, a["calls_acceptance"])  # a lead question: how the declaring side was dealt
        if side:
            print(side)
        if a["calls"] and not a["reach"]:  # (with a contract reached, the declaring side's line names them)
            among = "the deals that meet the conditions" if q.dealing is None else \
                "the deals dealt under the conditions and the rules' conditions below"
            print(f"calls given: {' '.join(a['calls'])}, made by the callers' strategies: a deal is kept only if they "
                  f"would make them ({a['calls_acceptance']:.4g} of {among} do)")
        elif args.auction and not a["reach"]:
            print(f"calls given: {args.auction}, made whatever the callers hold (--calls-on-random-hands)")
        for line in calls_dealt_lines(a.get("calls_dealt")):
            print(line)
        # rates to 4 decimals; scores to 1 (to 4 when the score is a share of the game's win)
        score_digits = 4 if a["outcome"] == "game" else 1
        digits = {c: 4 for c in ("legal", "made", "made_lo", "made_hi")}
        digits.update({c: score_digits for c in ("score", "score_lo", "score_hi", "diff", "diff_lo", "diff_hi",
                                                  "clear_lo", "clear_hi")})
        shown = df.assign(rank=["" if pd.isna(v) else str(v) for v in df["rank"]])  # not compared: no rank
        print(shown.to_string(index=False, na_rep="", formatters={c: (lambda v, d=d: "" if v != v else f"{v:.{d}f}")
                                                                    for c, d in digits.items()}))
        print(f"score: {a['score_meaning']}; diff: paired, the option minus the best option on the deals where "
              f"both were legal (negative = worse for you)")
        if df["rank"].isna().all():
            print("rank: none, too few deals to compare the options (30 deals with both options legal are needed "
                  "for a pair; more with -n): the table is in option order")
        else:
            print("rank: by paired comparisons, each pair of options on the deals where both were legal "
                  "(docs/statistics.md)")
            for option, why in a["not_compared"].items():
                print(f"not compared: {option}, {why}: listed last, not ranked")
        if any(_is_lead(o) for o in df["option"]) and q.spec.forcing.lead_made:
            print(q.spec.forcing.lead_made)
        if groups:
            _print_groups(groups, split, grouping, pilot)
        if result is not None:
            _print_until_clear(a["until_clear"], q.run.n)
    return 0


def calls_dealt_lines(notes) -> list[str]:
    """The header's lines on how a rule-file caller's hands were dealt (``attrs["calls_dealt"]``,
    :func:`cardsim.questions.calls_dealt`): dealt from its rules' conditions, the auction then
    tested (the same deals' distribution as plain rejection, docs/rules-files.md), or at random."""
    out = []
    for n in notes or []:
        who = f"seat {n['seat']}'s {n['call']}" if n["seat"] is not None else "rule-file callers"
        if n["class"] is not None:
            out.append(f"  {who}: hand dealt from {n['how']}; then the whole auction tested")
        else:
            out.append(f"  {who}: hand dealt at random, the auction tested (plain rejection): {n['how']}")
    return out


def deal_state(a: dict) -> str:
    """The dealer and the match state an answer was asked at, in words, from its ``attrs``: with
    the rules, what besides the conditions makes the same command give the same answer."""
    dealer = "dealer: drawn per deal" if a.get("dealer") is None else f"dealer: seat {a['dealer']}"
    before = a.get("before")
    return dealer + ("; before: " + ",".join(map(str, before)) if before is not None else "; before: a new game")


def answer_json(df) -> dict:
    """``evaluate --format json``: ``{"game", "seat", "deals", "seed", "dealer" (null: drawn per deal),
    "before" (the match state given, or null), "conditions", "acceptance", "calls",
    "calls_acceptance", "calls_dealt" (how each rule-file caller's hand was dealt, or null), "reach"
    (a lead question's contract the declaring side's hands reach, or null), "strategies", "rules"
    ({option: value}, defaults included),
    "rules_text", "outcome", "score_meaning", "not_compared" ({option: why it is not ranked}),
    "options": [rows, best first]}``, plus
    ``"until_clear"`` (the verdict) and ``"lead_groups"`` when asked; missing numbers as null."""
    from cardsim.question_table import answer_facts  # local: --help imports every command module

    out = answer_facts(df.attrs)
    out["options"] = json.loads(df.to_json(orient="records", double_precision=6))
    for extra in ("until_clear", "lead_groups", "lead_groups_split"):
        if extra in df.attrs:
            out[extra] = df.attrs[extra]
    return out


GROUPED_WHEN = "every card played, a group kept only where its cards scored the same on every deal"


def _regroup(candidates: dict, options: list, sums: dict):
    """:func:`cardsim.equal_leads.regroup` (imported here: the parser imports nothing heavy)."""
    from cardsim.equal_leads import regroup  # local: --help imports every command module

    return regroup(candidates, options, sums)


def _print_groups(groups: dict, split: dict, grouping: str, pilot: int | None) -> None:
    """The lines under an ``--all-leads`` table: the classes of equal leads (each row stands for
    its cards), on how many deals they were proven equal, and the touching cards split."""
    grouped = "; ".join(f"{o} for {' '.join(cards)}" for o, cards in groups.items() if len(cards) > 1)
    when = GROUPED_WHEN if pilot is None else GROUPED_WHEN.replace("every deal", f"each of the first "
                                                                         f"{pilot:,} deals (the first round)")
    print(f"leads grouped ({grouping}; {when}): {grouped}" if grouped else f"leads grouped: none ({grouping}; {when})")
    if split:
        print("touching but not equal here (split): " + "; ".join(
            f"{cards} as {' | '.join(' '.join(c) for c in classes)}" for cards, classes in split.items()))


def _shown(df, groups: dict, split: dict, hidden: set):
    """``--all-leads``: the table with one row per class of equal leads (the ``hidden`` options
    dropped) and the column ``stands_for``; the classes in ``df.attrs`` (``lead_groups``,
    ``lead_groups_split``)."""
    attrs = dict(df.attrs)
    df = df[~df["option"].isin(hidden)].reset_index(drop=True)
    # A class is one row: its rank counts the classes above it, not the hidden cards (the rows
    # are in rank order, the options not compared last without one).
    ranked = df["rank"].notna()
    df.loc[ranked, "rank"] = range(1, int(ranked.sum()) + 1)
    df.attrs.update(attrs, lead_groups=groups, lead_groups_split=split)
    df.insert(1, "stands_for", [" ".join(groups.get(o, [])) for o in df["option"]])
    return df


def _is_lead(option) -> bool:
    return str(option).strip().lower().startswith("lead:")


def _lead_options(args, given=None) -> tuple[dict, str]:
    """Expand ``--contract`` and ``--all-leads`` into ``args.option`` (``lead:CARD/CONTRACT``);
    check each lead's card against a whole given hand and the suits it is given void in (and the
    given talon or kitty, which a declarer takes).  The seat's hand is ``--hand``, or its hand in
    ``given`` (``--pbn-hands all``: every hand of a board).  Returns ``({(card, ...): (option of
    each card, ...)}, how they were grouped)`` for ``--all-leads`` (empty otherwise): the candidate
    groups of the game's ``forcing.lead_groups``, every card an option; :mod:`cardsim.equal_leads`
    keeps a group together only where its cards scored the same on every deal.  Raises
    UsageError (one line)."""
    from cardsim.conditions import ConditionError, features_of, layout_of  # local: --help imports every command module
    from cardsim.conditions.grammar import parse_given  # local: --help imports every command module
    from cardsim.hand_grammar import suit_cards  # local: --help imports every command module

    hand_text = args.hand if given is None else given.hands.get(args.seat)

    best = [o for o in (args.option or []) if o.strip().lower() == "lead:best"]
    if best:
        # lead:best asks every lead of the hand and ranks them: the same question as --all-leads,
        # whose table already puts the best lead first with each lead's difference to it.
        args.option = [o for o in args.option if o not in best]
        args.all_leads = True
    if args.all_leads and not args.contract:
        raise UsageError("--all-leads needs the contract the leads are against: --contract CONTRACT:SEAT (3NT:2)")
    if args.all_leads and not hand_text:
        raise UsageError("--all-leads (lead:best) needs the seat's hand (--hand or --pbn): its cards are the leads")
    if not args.option and not args.all_leads:
        raise UsageError("give at least one --option (or --all-leads with --contract and --hand)")
    options = list(args.option or [])
    if args.contract and not options and not args.all_leads:
        raise UsageError("--contract goes with lead:CARD options or --all-leads")
    spec = get_game(args.game)
    try:
        hand, voids = parse_given(args.game, hand_text) if hand_text else ([], ())
        talon = parse_given(args.game, args.talon)[0] if args.talon else []
    except ConditionError:
        hand, voids, talon = [], (), []  # the question reports a bad hand itself
    groups, note = {}, ""
    if args.all_leads:
        if spec.forcing is None or spec.forcing.lead_groups is None:
            raise UsageError(f"{spec.name} has no lead questions: --all-leads (lead:best) is not offered")
        try:
            found, note = spec.forcing.lead_groups(hand, talon, args.contract.strip(), args.seat, None)
        except OptionError as exc:
            raise UsageError(str(exc)) from None
        for group in found:
            groups[tuple(group)] = tuple("lead:" + c for c in group)
        # every card is played: a group is shown as one row only where it proves equal (equal_leads)
        options += [o for opts in groups.values() for o in opts if o not in options]
    if args.contract:
        if any(_is_lead(o) and "/" in o for o in options):
            raise UsageError("give the contract once: --contract, or lead:CARD/CONTRACT:SEAT in the options")
        if not any(_is_lead(o) for o in options):
            raise UsageError("--contract goes with lead:CARD options or --all-leads")
        options = [f"{o.strip()}/{args.contract.strip()}" if _is_lead(o) else o for o in options]
        groups = {cards: tuple(f"{o}/{args.contract.strip()}" for o in opts) for cards, opts in groups.items()}
    try:
        features = features_of(args.game)
        size = int(layout_of(args.game, args.seats).sizes[:, args.seat].max()) if args.seat < 4 else 0
    except (ConditionError, IndexError):
        features, size = None, 0  # the question reports a bad seat count or seat itself
    whole = size > 0 and len(hand) == size  # the seat's whole hand is given
    for o in options:
        if _is_lead(o) and (whole or voids) and features is not None:
            # the card token ends at "/" (the contract) or "=" (a suit named with a joker, Five Hundred)
            token = o.strip()[5:].partition("/")[0].partition("=")[0]
            try:
                card = features.parse_card(token.strip())
            except ValueError:
                continue  # the game's option parser says what is wrong with it (or it is lead:auto)
            if card in hand or card in talon:
                continue
            void = [v for v in voids if suit_cards(features, v) >> card & 1]
            if whole or void:
                why = (f"holds no {void[0]} ({void[0]}:-), so it cannot lead" if void and not whole
                       else "does not hold")
                raise UsageError(f"option {o}: seat {args.seat} {why} {features.card_str(card)} "
                                 f"(its hand: {hand_text}" + (f"; the talon or kitty: {args.talon})" if talon else ")"))
    args.option = options
    return groups, note


def lead_groups(cards) -> list[list[int]]:
    """Vint's grouping of a hand's leads (:func:`cardsim.games.options.touching_groups`): cards of
    a suit touching in rank, the highest led."""
    from cardsim.games.options import touching_groups  # local: --help imports every command module

    return touching_groups(cards)


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


def _evaluate_robust(E, q, ask, args, leads=None) -> int:
    """``evaluate --robust``: the question under every profile (cardsim.robust), then the verdict;
    ``ask(specs)`` builds the command's question with every seat's strategy specs; ``leads``:
    ``--all-leads``' proven groups ``(groups, split, how grouped, deals they were proven on)``, or
    None."""
    from cardsim.runner.files import check_output_file  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module

    pairs = E.robust_questions(q, ask, args.profile or True, args.profiles_file)
    if args.records:
        check_output_file(args.records)
    with cluster(args.scheduler):
        answer = E.robust(pairs, args.jobs, args.progress, store=E.default_store)
    if args.records:
        E.write_records(q, args.records, args.records_limit or 100)
    a = answer.tables["default"].attrs
    if args.format == "json":
        out = answer.to_dict()
        if leads:
            out["lead_groups"], out["lead_groups_split"] = leads[0], leads[1]
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    elif args.format == "csv":
        frame = answer.frame()
        if leads:
            frame.insert(2, "stands_for", [" ".join(leads[0].get(o, [])) for o in frame["option"]])
        sys.stdout.write(frame.to_csv(index=False))
    else:
        # Calls that imply hands (given calls, a contract reached) keep each deal only where that
        # profile's players would make them: the random streams are the same, the kept deals not.
        same = ("the same random streams under every profile, each deal kept only where that profile's players "
                "make the calls or reach the contract, so the deals differ between profiles" if q.implies
                else "the same deals and strategy randomness under every profile")
        print(f"{a['game']} seat {a['seat']}, {a['deals']:,} deals per profile ({same}), seed {a['seed']}; "
              f"conditions: {a['conditions']}")
        print(f"{deal_state(a)}; rules: {a['rules_text']}")
        side = E.declaring_side(q, a["calls_acceptance"])
        if side:
            print(side.replace("declaring side:", "declaring side (the default players' auction shown; each "
                                                   "profile's own players reach it under that profile):", 1)
                  if a["reach"] else side)
        for line in calls_dealt_lines(a.get("calls_dealt")):  # the default players'; a profile's own may differ
            print(line)
        print(f"score: {a['score_meaning']}")
        print(answer.text(digits=4 if a["outcome"] == "game" else 1))
        if any(_is_lead(o) for o in q.options) and q.spec.forcing.lead_made:
            print(q.spec.forcing.lead_made)
        if leads:
            _print_groups(*leads)
    return 0


def _warn_if_dealing_is_slow(q, args) -> None:
    """A rare class deals for hours before the first chunk (and its progress) finishes: say so."""
    from cardsim.deal import dealing_seconds  # local: --help imports every command module
    from cardsim.runner.pool import local_jobs  # local: --help imports every command module

    if q.compiled.n_constraints == 0 and not q.implies:
        return  # nothing to reject: dealing costs next to nothing
    cores = local_jobs(args.jobs, len(q.run.chunks())) if args.scheduler is None else 1
    seconds = dealing_seconds(q.dealt_under, q.run.seed, q.run.n, calls=q.calls_test()) / cores
    if seconds > SLOW_DEALING:
        span = f"{seconds / 3600:,.1f} hours" if seconds >= 3600 else f"{seconds / 60:,.0f} minutes"
        print(f"cardsim: warning: the conditions are rare; dealing {q.run.n:,} deals alone will take about {span} "
              f"on {cores} worker{'s' if cores > 1 else ''} " + (
                  "if it needs the most deals (--until-clear stops sooner when the answer is clear; fewer with "
                  "--max-deals, or a wider class)" if args.until_clear else "(fewer deals with -n, or a wider class)"),
              file=sys.stderr)
