"""``cardsim compare GAME A B``: two strategies on the same deals (or whole matches), paired.

Built on :func:`cardsim.compare.compare` (deals) and :func:`cardsim.compare.compare_matches`
(matches).  Partnership games (the spec's ``facts.partnerships``: Vint, Five Hundred) play duplicate:
every deal or match twice on the same cards, A's partnership in seats 0+2 against B's, then the
partnerships exchanged; A − B is the mean over the two seatings of A's side's value minus B's side's
(the ``margin`` of :func:`cardsim.match_compare.match_compare`).  Seat games (501) put A in seat 0
and B in every other seat, paired with B in seat 0 on the same deals or match seeds; the dealer
(a match's first dealer) is drawn per deal, so seat 0 takes every position equally often.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import sys

import numpy as np

from cardsim.cli.common import (UsageError, add_execution_options, parse_game, parse_ints, parse_output_or_stdout,
                                parse_path, parse_positive, parse_seed)
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError

NAME = "compare"

LEVEL = 0.95
"""The intervals' confidence level."""
DEAL_CHUNK = 100_000
MATCH_CHUNK = 10_000
"""Deals / matches of each line-up per chunk (tests make them small to have several chunks)."""
DEFAULT_DEALS = 100_000
DEFAULT_MATCHES = 10_000
DEAL_POINTS = ("total", "delta")
"""The deal-row columns of each side's score in a deal, ``NAME_0``/``NAME_1``..., the first name the
rows have (Vint ``total``: above + below the line; Five Hundred and 501 ``delta``: the score change)."""

EPILOG = """Partnership games (vint, 500) play duplicate: each deal (or match) twice on the same cards, A's
partnership in seats 0+2 against B's, then in seats 1+3; A - B is A's side's value minus B's, the
mean of the two seatings.  501 puts A in seat 0 and B in every other seat, paired with B in seat 0
on the same deals (the dealer is drawn per deal, so seat 0 sits at every position).  Units: a deal,
each side's score points in it (501: the seat's score change turned round, points toward 0); a
match (--matches), the share of matches won and, in Vint and Five Hundred, the side's final points
minus the other's (Vint's rubber points first, as its exploit objective).  The verdict reads the
95% interval of A - B: A better, B better, or not decided at this size.  A and B may be any
strategy spec (cardsim strategies GAME); the same spec twice is a null comparison, exactly 0.
docs/compare.md."""


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="two strategies on the same deals or matches, seats exchanged, with the "
                                       "paired 95%% interval (docs/compare.md)",
                       description="Play strategy A against strategy B on the same deals (or whole matches with "
                                   "--matches), the seats exchanged, and print the paired difference A - B with "
                                   "its 95% interval and a verdict.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", type=parse_game, help=" | ".join(GAME_NAMES))
    p.add_argument("a", metavar="A", help="strategy A: NAME[:p=v,...] (any spec cardsim strategies GAME accepts)")
    p.add_argument("b", metavar="B", help="strategy B, compared with A")
    p.add_argument("--matches", action="store_true", help="whole matches (rubbers, games) instead of deals")
    p.add_argument("-n", type=parse_positive, dest="n", metavar="N",
                   help=f"deals (default {DEFAULT_DEALS:,}) or, with --matches, matches (default "
                        f"{DEFAULT_MATCHES:,}) per seating")
    p.add_argument("--seed", type=parse_seed, default=0, help="run seed, 0 to 2**64-1 (default 0)")
    p.add_argument("--seats", type=parse_positive, help="number of seats (501: 3 or 4; default the game's)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="rule option (repeatable)")
    p.add_argument("--before", help="with --matches: the state every match starts from (as play_match's "
                                    "before: 501 scores by seat, Five Hundred team scores, Vint below-line points "
                                    "and games by team)")
    p.add_argument("--dealer", type=int, help="with --matches: the first dealer's seat (default: drawn per match)")
    p.add_argument("--store", type=parse_path, metavar="DIR",
                   help="keep finished chunks in this folder (kept afterwards; the same command reads them)")
    p.add_argument("-o", "--output", "--out", type=parse_output_or_stdout, metavar="FILE",
                   help="write the result here (default, or -: standard output)")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text", help="output format")
    add_execution_options(p)


def run(args) -> int:
    from cardsim.runner.files import atomic_write, check_output_file  # local: --help imports every command module
    from cardsim.runner.pool import cluster  # local: --help imports every command module
    from cardsim.runner.store import ChunkStore, manifest_key, runs_dir  # local: --help imports every command module

    if not args.matches:
        for given, option in ((args.before, "--before"), (args.dealer, "--dealer")):
            if given is not None:
                raise UsageError(f"{option} sets the state a match starts from: it needs --matches")
    out = check_output_file(args.output) if args.output else None  # before any deal is played
    store = args.store
    if store is None:  # kept in the runs folder until the result is written: an interrupted run resumes
        from cardsim._jit import source_hash  # local: --help imports every command module
        from cardsim.runner.files import transform_id  # local: --help imports every command module

        # the code's version in the key: a store left by other code is not this run's (it would be refused)
        identity = {"command": "compare", "source": source_hash(), "code": transform_id(compare_strategies),
                    "game": args.game, "a": args.a, "b": args.b, "matches": args.matches, "n": args.n,
                    "seed": args.seed, "seats": args.seats, "rules": args.rule, "before": args.before,
                    "dealer": args.dealer}
        store = runs_dir() / f"compare-{manifest_key(identity)}"
    with cluster(args.scheduler):
        result = compare_strategies(args.game, args.a, args.b, n=args.n, matches=args.matches, seed=args.seed,
                                    seats=args.seats, rules=args.rule, before=parse_ints(args.before, "--before"),
                                    dealer=args.dealer, n_jobs=args.jobs, store=store, progress=args.progress)
    text = render(result, args.format)
    if out is None:
        sys.stdout.write(text)
    else:
        atomic_write(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    if args.store is None:
        ChunkStore.discard(store)
    return 0


# ------------------------------------------------------------------------------- the comparison
def _pair(frame, names) -> tuple[str, str]:
    """The first ``NAME_0``/``NAME_1`` pair of ``names`` that ``frame`` has."""
    return next((f"{n}_0", f"{n}_1") for n in names if f"{n}_0" in frame)


def team_deal_points(deals):
    """Per deal (float64 columns): each team's score points, ``points_0``/``points_1``, and team 0's
    minus team 1's, ``points_net`` (partnership games)."""
    import pandas as pd  # local: --help imports every command module

    p0, p1 = _pair(deals, DEAL_POINTS)
    x0, x1 = deals[p0].to_numpy(np.float64), deals[p1].to_numpy(np.float64)
    return pd.DataFrame({"points_0": x0, "points_1": x1, "points_net": x0 - x1})


def team_match_values(matches):
    """Per match (float64 columns): each team's share of the win (``win_0``/``win_1``, ½ each for a
    match without a winner) and its final points (``margin_0``/``margin_1``), each with team 0's
    minus team 1's (``win_net``, ``margin_net``)."""
    import pandas as pd  # local: --help imports every command module

    from cardsim.compare import win_share  # local: --help imports every command module
    from cardsim.match_compare import POINT_COLUMNS  # local: --help imports every command module

    w0 = win_share(matches).to_numpy()
    p0, p1 = _pair(matches, POINT_COLUMNS)
    x0, x1 = matches[p0].to_numpy(np.float64), matches[p1].to_numpy(np.float64)
    return pd.DataFrame({"win_0": w0, "win_1": 1.0 - w0, "win_net": 2.0 * w0 - 1.0,
                         "margin_0": x0, "margin_1": x1, "margin_net": x0 - x1})


def seat_deal_points(deals):
    """Per deal: seat 0's score change (``points``, float64 score points; seat games)."""
    import pandas as pd  # local: --help imports every command module

    p0, _ = _pair(deals, DEAL_POINTS)
    return pd.DataFrame({"points": deals[p0].to_numpy(np.float64)})


def seat_match_values(matches):
    """Per match: seat 0's share of the win (``win``, float64 0..1; seat games)."""
    import pandas as pd  # local: --help imports every command module

    from cardsim.compare import win_share  # local: --help imports every command module

    return pd.DataFrame({"win": win_share(matches).to_numpy()})


def _units(spec, matches: bool) -> list[tuple[str, str, str]]:
    """``(column, name, unit)`` of each row, the one the verdict reads first: a deal's points; a
    match's measures named and ordered as the game's objectives (``facts.objectives``: Vint's
    rubber points first, Five Hundred's and 501's games won)."""
    if not matches:
        return [("points", "points", "score points a deal")]
    out = []
    for objective in (spec.facts.objectives if spec.facts is not None else ()):
        if objective.measure not in (m for m, _, _ in out):
            out.append((objective.measure, objective.name, objective.unit.replace(" (0..1)", "")))
    if not any(m == "win" for m, _, _ in out):
        out.append(("win", "win", "share of matches won"))
    if spec.facts is not None and spec.facts.partnerships and "margin" not in (m for m, _, _ in out):
        out.append(("margin", "points", "score points a match"))
    return out


def same_player(game: str, a: str, b: str, seats=None, rules=None) -> bool:
    """Whether specs ``a`` and ``b`` give the same set-up (:class:`cardsim.games.base.Setup`: strategy
    ids, parameter values and every other field but the specs as written), so that the engine plays
    them alike and the comparison is a null one."""
    from cardsim.runner.run import make_run  # local: --help imports every command module

    sa, sb = (make_run(game, 1, 0, s, seats, rules).setup for s in (a, b))
    for field in dataclasses.fields(sa):
        x, y = getattr(sa, field.name), getattr(sb, field.name)
        if field.name != "specs" and not (np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y):
            return False
    return True


def compare_strategies(game: str, a: str, b: str, *, n=None, matches=False, seed=0, seats=None, rules=None,
                       before=None, dealer=None, n_jobs=-1, store=None, progress=False) -> dict:
    """A against B (module docstring): ``n`` deals (default :data:`DEFAULT_DEALS`) or, with
    ``matches``, ``n`` whole matches (default :data:`DEFAULT_MATCHES`) per seating.

    Returns a dict: ``game``, ``title``, ``a``, ``b``, ``mode`` (``"deals"``/``"matches"``), ``n``,
    ``seed``, ``seats``, ``partnerships`` (bool), ``rules``, ``before``, ``dealer``, ``level``, ``seating`` (words),
    ``same_player`` (bool), ``lower_turned`` (the deal score counts down and was turned round), and
    ``measures``: one dict per measure, the verdict's first: ``measure``, ``unit``, ``n`` (per
    seating), ``a`` and ``b`` (A's and B's value in that unit: partnerships each side's, the mean of
    the seatings; 501 seat 0's with A there and with B there), ``diff`` = a − b (paired), ``se``,
    ``lo``/``hi`` (normal interval at :data:`LEVEL`) and ``verdict``.  Shares are 0..1.  Raises
    OptionError / StrategyError (bad game, spec, rule, state, fewer than 30 deals or matches) in one
    line; OutputError when ``store`` holds another run.  Scores as docs/RULES.md §1.7 (501), §2.7
    (Vint), §3.6 (Five Hundred).
    """
    from cardsim.compare import compare, compare_matches  # local: --help imports every command module
    from cardsim.runner.run import make_run  # local: --help imports every command module
    from cardsim.stats import MIN_N_NORMAL  # local: --help imports every command module

    spec = get_game(game)
    facts = spec.facts
    for name, s in (("A", a), ("B", b)):
        if not isinstance(s, str) or not s.strip():
            raise OptionError(f"strategy {name} is empty: give a spec NAME[:param=value,...]")
    title = facts.title if facts is not None else spec.name
    if matches and spec.matches is None:
        raise OptionError(f"{title} has no match mode")
    n = n if n is not None else (DEFAULT_MATCHES if matches else DEFAULT_DEALS)
    if n < MIN_N_NORMAL:
        what = "matches" if matches else "deals"
        raise OptionError(f"-n {n}: a paired interval needs at least {MIN_N_NORMAL} {what} per seating "
                          "(cardsim.stats gives no normal interval below that)")
    k = spec.default_seats if seats is None else seats
    partnerships = bool(facts is not None and facts.partnerships)
    setup = make_run(game, 1, seed, b, seats, rules).setup  # a bad spec, count of seats or rule: one line here
    make_run(game, 1, seed, a, seats, rules)
    if partnerships:
        first, swapped = [a, b] * (k // 2), [b, a] * (k // 2)
        baseline, variants = swapped, {"first": first}
        measure = team_match_values if matches else team_deal_points
        seating = "A's partnership in seats 0+2, then in seats 1+3"
    else:
        baseline, variants = [b] * k, {"A": [a] + [b] * (k - 1)}
        measure = seat_match_values if matches else seat_deal_points
        seating = f"A in seat 0 and B in the other {k - 1}, paired with B in seat 0"
    if matches:
        table = compare_matches(game, n, baseline, variants, measure, seed=seed, seats=seats, rules=rules,
                                before=before, dealer=dealer, n_jobs=n_jobs, chunk_size=MATCH_CHUNK, level=LEVEL,
                                store=store, progress=progress)
    else:
        table = compare(game, n, baseline, variants, measure, seed=seed, seats=seats, rules=rules, n_jobs=n_jobs,
                        chunk_size=DEAL_CHUNK, level=LEVEL, store=store, progress=progress)
    lower = False
    if not matches:
        low = spec.forcing.lower_is_better if spec.forcing is not None else False
        lower = bool(low(spec.forcing.parse_before(None, setup)) if callable(low) else low)
    by = table.set_index(["variant", "measure"])
    rows = []
    for measure_name, label, unit in _units(spec, matches):
        if partnerships:
            mean = by["mean"]  # "first": A in seats 0+2; "baseline": A in seats 1+3
            va = (mean[("first", f"{measure_name}_0")] + mean[("baseline", f"{measure_name}_1")]) / 2
            vb = (mean[("first", f"{measure_name}_1")] + mean[("baseline", f"{measure_name}_0")]) / 2
            r = by.loc[("first", f"{measure_name}_net")]
            # team 0's net with A there minus with B there is twice A's side's value minus B's
            diff, se, lo, hi = r["diff"] / 2, r.diff_se / 2, r.diff_lo / 2, r.diff_hi / 2
        else:
            va, vb = float(by.loc[("A", measure_name), "mean"]), float(by.loc[("baseline", measure_name), "mean"])
            r = by.loc[("A", measure_name)]
            diff, se, lo, hi = r["diff"], r.diff_se, r.diff_lo, r.diff_hi
        if lower:  # a score that counts down (501's) is turned round, so that above 0 is better in every game
            va, vb, diff, lo, hi = -va, -vb, -diff, -hi, -lo
            unit = "score points toward 0 a deal (the score change turned round: the score counts down)"
        rows.append({"measure": label, "unit": unit, "n": int(r.n), "a": float(va), "b": float(vb),
                     "diff": float(diff), "se": float(se), "lo": float(lo), "hi": float(hi)})
    # said only where the run bears it out: a set-up the engine reads beyond these fields cannot fake it
    same = same_player(game, a, b, seats, rules) and all(r["diff"] == 0 and r["se"] == 0 for r in rows)
    for row in rows:
        row["verdict"] = verdict_text(row, same)
    return {"game": spec.name, "title": title, "a": a, "b": b, "mode": "matches" if matches else "deals",
            "n": rows[0]["n"], "seed": int(table.attrs.get("seed", seed)), "seats": k,
            "partnerships": partnerships, "rules": dict(setup.rules), "before": before, "dealer": dealer,
            "level": LEVEL, "seating": seating, "same_player": same, "lower_turned": lower, "measures": rows}


def verdict_text(row: dict, same: bool) -> str:
    """What the interval of A − B shows, as the table's verdict column says it: ``row``'s ``lo``
    and ``hi`` (the interval's ends, in the measure's unit) both above 0 → "A better", both below
    → "B better", else "not decided at this size"; ``same`` (A and B one player) → "no
    difference: ..." whatever the interval."""
    if same:
        return "no difference: A and B are the same player (a null comparison)"
    if row["lo"] > 0:
        return "A better"
    if row["hi"] < 0:
        return "B better"
    return "not decided at this size"


# ------------------------------------------------------------------------------------- output
def _share(row: dict) -> bool:
    return row["unit"].startswith("share")


def _value(row: dict, v: float, signed: bool = False) -> str:
    if _share(row):
        return f"{100 * v:+.2f} pp" if signed else f"{100 * v:.2f}%"
    return f"{v:+,.1f}" if signed else f"{v:,.1f}"


def describe(result: dict) -> str:
    """The text report: what was compared, the unit, the size, A's and B's values, A − B with its
    interval, and the verdict on the first measure."""
    r = result
    what = "deals" if r["mode"] == "deals" else "matches"
    lines = [f"{r['title']}: A = {r['a']}  against  B = {r['b']}",
             f"{r['n']:,} {what} per seating, the same {'deals' if what == 'deals' else 'match seeds'} for both: "
             f"{r['seating']}; seed {r['seed']}" + (f", {r['seats']} seats" if not r["partnerships"] else "")]
    if r["rules"]:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in r["rules"].items()))
    if r["before"] is not None:
        lines.append(f"every match starts from {r['before']}" + (f", seat {r['dealer']} dealing" if r["dealer"] is
                                                                  not None else ""))
    if r["same_player"]:
        lines.append("note: A and B are the same player; every difference is 0 by construction (a null comparison)")
    lines.append("")
    head = ("measure", "A", "B", "A - B", f"{100 * r['level']:g}% interval", "verdict")
    table = [head]
    for row in r["measures"]:
        table.append((row["measure"], _value(row, row["a"]),
                      _value(row, row["b"]), _value(row, row["diff"], True),
                      f"[{_value(row, row['lo'], True)}, {_value(row, row['hi'], True)}]", row["verdict"]))
    widths = [max(len(t[i]) for t in table) for i in range(len(head))]
    for t in table:
        lines.append("  ".join(c.ljust(w) if i in (0, 5) else c.rjust(w)
                               for i, (c, w) in enumerate(zip(t, widths))).rstrip())
    lines.append("")
    for row in r["measures"]:
        lines.append(f"{row['measure']}: {row['unit']}; {_whose(r, row)}")
    lines.append(_sentence(r))
    return "\n".join(lines) + "\n"


def _whose(r: dict, row: dict) -> str:
    """What the A and B columns of ``row`` are."""
    if r["partnerships"]:
        what = "share of the win (1/2 each for a match without a winner)" if _share(row) else "points"
        return f"A, B: each partnership's {what}, the mean of the two seatings; A - B paired"
    what = "share of the win (shared by tied winners)" if _share(row) else "value"
    return f"A, B: seat 0's {what} with A there and with B there; A - B paired"


def _sentence(r: dict) -> str:
    """The verdict of the first measure in words."""
    row = r["measures"][0]
    interval = f"[{_value(row, row['lo'], True)}, {_value(row, row['hi'], True)}]"
    said = (f"A - B = {_value(row, row['diff'], True)} ({row['unit'].split(' (')[0]}), "
            f"{100 * r['level']:g}% interval {interval}, {r['n']:,} {r['mode']} per seating")
    if r["same_player"]:
        return f"verdict: {row['verdict']}"
    if row["verdict"] == "not decided at this size":
        return f"verdict: not decided at this size: {said}; the interval holds 0 (four times as many halve its width)"
    return f"verdict: {row['verdict']}: {said}; the interval excludes 0"


def render(result: dict, fmt: str) -> str:
    """The result as ``text`` (:func:`describe`), ``json`` (the dict, one line) or ``csv`` (one line per
    measure: measure, unit, n, a, b, diff, se, lo, hi, verdict)."""
    if fmt == "json":
        return json.dumps(result, ensure_ascii=False) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        fields = ("measure", "unit", "n", "a", "b", "diff", "se", "lo", "hi", "verdict")
        writer = csv.DictWriter(buffer, fields, lineterminator="\n")
        writer.writeheader()
        for row in result["measures"]:
            writer.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in row.items() if k in fields})
        return buffer.getvalue()
    return describe(result)
