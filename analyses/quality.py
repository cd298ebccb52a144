"""How good are the strategies?  Every registered strategy of each game against double-dummy
(cardsim.analysis.quality): vs_dd, DD-makeable and made rates, per strategy, by denomination and level, and
for the default strategy by contract band and denomination (where the defaults lose).

Double-dummy solving dominates the cost (about 0.1 s a Vint deal for the whole table, 0.5-3 s a
501 or Five Hundred deal per strategy on a loaded 2-core machine), so ``--n`` is capped per game
(each game's ``facts.quality_deals``; ``--quick``: :data:`QUICK`).  Finished chunks are kept under ``--results``
(cardsim.runner.store.ChunkStore): an interrupted run resumes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import cardsim
from analyses.common import entry, script_main, write_tables
from cardsim.analysis import lead_quality as LQ
from cardsim.analysis import quality as Q
from cardsim.runner.files import transform_id
from cardsim.runner.run import make_run
from cardsim.runner.store import ChunkStore, manifest_key

TITLE = "How good are the strategies?"
GAMES = ("vint", "500", "501")
QUICK = 24
"""Deals per game with ``--quick`` (make report QUICK=1, the report test).  A full report plays
at most the game's ``facts.quality_deals``: each strategy's contracts are solved, Vint through
DDS at about 0.05-0.1 s a deal and strategy, so Vint is the slow game here; the numba solvers
of 501 and Five Hundred take under 1 ms and about 6 ms a deal (BENCHMARKS.md, Double-dummy)."""

GLOSSARY = {
    "deals": "deals played by the strategy (the same deals 0..n-1 for every strategy)",
    "n": "declared deals (the base of every mean and rate)",
    "vs_dd": "the declaring side's result minus the double-dummy result of the same contract, mean per declared "
             "deal (Vint, Five Hundred: tricks; 501: the declarer's deal points); both sides' errors count "
             "(the defenders' push it up)",
    "dd_makeable": "share of declared contracts the DD result reaches",
    "made": "share of declared contracts made in play",
    "right_side": "Vint: share where the declaring side's best DD tricks (any declarer of the side, any "
                  "denomination) are at least the other side's best",
    "best_denomination": "Vint: share where the contract's denomination gives the declarer his most DD tricks",
    "band": "the contract's height band (cardsim quality --by band): Vint levels 1-3, 4-5, 6-7; Five Hundred "
            "levels 6-7, 8-10; 501 targets 66-99, 100-119, 120-220 card points",
    "_lo / _hi": "95% interval bounds (normal for vs_dd, Wilson for rates)",
}


LEAD_DEALS = 2_000
"""Deals per game at most for the lead figure (one DD solve per deal and strategy: Vint about 0.06 s)."""
LEAD_GLOSSARY = {
    "dd_best": "leads table: share of the strategy's opening leads that give up no double-dummy trick (the lead's DD "
               "value for the defenders equals the best lead's), Wilson 95% interval; bridge: experts about 81%, "
               "random leads about 67%",
    "lead_cost": "leads table: what the opening lead gave up against the best lead, mean per lead (tricks)",
    "random_lead": "leads table: the share of the leader's cards that are DD-best, averaged over the same deals: the "
                   "chance that a uniformly random card is a DD-best lead (computed exactly, not played)",
    "vs_random": "leads table: dd_best minus random_lead, paired deal by deal, 95% interval: what the strategy's "
                 "choice of lead adds to a random card's",
}


def _leads(game: str, n: int, args):
    """The lead-quality table of ``game`` (cardsim.analysis.lead_quality) on ``n`` deals, resumable."""
    names = Q.strategy_names(game)
    manifest = {"analysis": "quality_leads", "game": game, "n": n, "seed": args.seed, "strategies": names,
                "chunk": LQ.CHUNK, "source": make_run(game, 1, args.seed).manifest()["source"],
                "code": transform_id(LQ.lead_chunk), "measure": transform_id(cardsim.get_game(game).dd.lead_values)}
    store = ChunkStore(Path(args.results) / f"quality-leads-{game}-{manifest_key(manifest)}", manifest)
    return LQ.summarize(LQ.deal_rows(game, n, args.seed, names, n_jobs=args.jobs, progress=args.progress, store=store))


def lead_answer(game: str, table, default: str) -> str:
    """The section's words on the opening leads of ``game`` (from its lead table)."""
    row = table[table.strategy == default].iloc[0]
    others = "; ".join(f"{r.strategy} {100 * r.dd_best:.0f}%" for r in table.itertuples() if r.strategy != default)
    title = cardsim.get_game(game).facts.title
    gain = (f" [95% {100 * row.vs_random_lo:+.0f}, {100 * row.vs_random_hi:+.0f}]"
            if row.vs_random_lo == row.vs_random_lo else "")
    return (f"Opening leads ({title}, every deal with play, each lead against double dummy): the default {default} "
            f"leads a card that gives up no double-dummy trick on {100 * row.dd_best:.0f}% of {row.n:,} leads [95% "
            f"{100 * row.dd_best_lo:.0f}-{100 * row.dd_best_hi:.0f}%], giving up {row.lead_cost:.2f} tricks a lead on "
            f"average; a card drawn at random from the leader's hand would be DD-best on {100 * row.random_lead:.0f}% "
            f"of the same deals, so its choice of lead adds {100 * row.vs_random:+.0f} percentage points{gain} "
            f"(others: {others}). In bridge the same yardstick puts expert leads near "
            f"{100 * LQ.YARDSTICK['experts']:.0f}% and random leads near {100 * LQ.YARDSTICK['random']:.0f}%.")


BAND_COLUMNS = ["strategy", "band", "denomination", "n", "vs_dd", "vs_dd_lo", "vs_dd_hi", "made"]
"""The columns of the band table: the default strategy's vs_dd with its interval and made rate."""


def _measure(game: str, n: int, args) -> tuple:
    names = Q.strategy_names(game)
    # "code": the stored chunks are deal_chunk's rows, so an edit of cardsim.analysis.quality (a new
    # column) or of the game's measurement (its dd.quality hook) starts afresh instead of merging
    # rows of two shapes.
    manifest = {"analysis": "quality", "game": game, "n": n, "seed": args.seed, "strategies": names,
                "chunk": Q.CHUNK, "source": make_run(game, 1, args.seed).manifest()["source"],
                "code": transform_id(Q.deal_chunk), "measure": transform_id(cardsim.get_game(game).dd.quality)}
    store = ChunkStore(Path(args.results) / f"quality-{game}-{manifest_key(manifest)}", manifest)
    rows = Q.deal_rows(game, n, args.seed, names, n_jobs=args.jobs, progress=args.progress, store=store)
    default = cardsim.get_game(game).table.default_strategy
    band = Q.summarize(rows[rows.strategy == default], ["band", "denomination"])[BAND_COLUMNS]
    return Q.summarize(rows), Q.summarize(rows, ["denomination", "level"]), band


def _line(game: str, row) -> str:
    unit = Q.unit(game)
    interval = (f"[{row.vs_dd_lo:+.2f}, {row.vs_dd_hi:+.2f}]" if row.vs_dd_lo == row.vs_dd_lo
                else "[no interval below 30 deals]")
    return (f"{game} {row.strategy}: vs_dd {row.vs_dd:+.2f} {unit} {interval}, "
            f"made {row.made:.2f}, DD-makeable {row.dd_makeable:.2f} (n = {row.n} declared of {row.deals})")


def method(summaries: dict, defaults: dict) -> str:
    """The Method paragraph: the default strategy's numbers of each game, which qualify every answer."""
    parts = []
    for game, table in summaries.items():
        row = table[table.strategy == defaults[game]].iloc[0]
        parts.append(_line(game, row))
    return (TITLE + " Every answer is conditional on the default strategies; measured against double-dummy "
            "(every hand open, both sides perfect) on the same deals, they score: " + "; ".join(parts) +
            ". vs_dd counts both sides' errors: below 0 the declaring side takes less than DD (declarer's errors "
            "outweigh the defenders'), above 0 the defenders give more away than the declarer loses (as in 501, "
            "one declarer against two defenders); made below DD-makeable: contracts lost in the play, above it: "
            "contracts the defence let through. See the section 'How good are the "
            "strategies?' for every strategy, random (the floor) included.")


def run(args) -> Path:
    sizes = {g: min(args.n, QUICK if args.quick else cardsim.get_game(g).facts.quality_deals) for g in GAMES}
    tabs, summaries, defaults, notes, titles = {}, {}, {}, [], {}
    figures, legends, answers = [], {}, []
    for game in GAMES:
        summary, by, band = _measure(game, sizes[game], args)
        tabs[f"quality_{game}"] = summary
        tabs[f"quality_{game}_by_contract"] = by
        tabs[f"quality_{game}_by_band"] = band
        bands = cardsim.get_game(game).facts.contract_bands
        titles[f"quality_{game}_by_band"] = (
            f"{game}: by level band and denomination ({cardsim.get_game(game).table.default_strategy}; bands of the "
            f"{bands.measure}: {', '.join(bands.labels)})")
        summaries[game] = summary
        defaults[game] = cardsim.get_game(game).table.default_strategy
        print(f"{TITLE} {game}: {sizes[game]:,} deals, {len(summary)} strategies", flush=True)
        if LQ.offered(game):
            lead_n = min(sizes[game], LEAD_DEALS)
            leads = _leads(game, lead_n, args)
            tabs[f"quality_{game}_leads"] = leads
            titles[f"quality_{game}_leads"] = f"{game}: opening leads against double dummy, per strategy"
            fig = LQ.figure(leads, Path(args.out) / "figures" / f"quality_{game}_leads.png",
                            f"{cardsim.get_game(game).facts.title}: opening leads that give up no double-dummy trick "
                            f"({lead_n:,} deals)")
            figures.append(fig.name)
            legends[fig.name] = (
                f"{cardsim.get_game(game).facts.title}: each strategy plays every seat of the same {lead_n:,} deals; "
                "blue: the share of its opening leads that give up no double-dummy trick (the defenders' DD result "
                "after the lead equals the best lead's; bar: 95% interval); grey: a card drawn at random from the "
                "leader's hand on the same deals (computed exactly from every lead's DD value). Red lines: "
                "bridge's yardstick, experts about 81% and random leads about 67%.")
            answers.append(lead_answer(game, leads, cardsim.get_game(game).table.default_strategy))
            print(f"{TITLE} {game}: opening leads on {lead_n:,} deals", flush=True)
    notes.append("Deals per game: " + ", ".join(f"{g} {n:,}" for g, n in sizes.items()) +
                 " (double-dummy solving is slow; the same deals for every strategy of a game).")
    notes.append("501: vs_dd compares the declarer's deal points in play with cardsim.dd's DD deal points; "
                 "made can exceed DD-makeable when the defenders err.")
    out = Path(args.out)
    write_tables(tabs, out)
    manifest = make_run("vint", 1, args.seed).manifest()
    meta = {"game": "all", "title": TITLE, "deals": max(sizes.values()),
            "deals_unit": "deals per game at most (" + ", ".join(f"{g}: {n:,}" for g, n in sizes.items()) + ")",
            "seed": args.seed, "source": manifest["source"], "cardsim": cardsim.__version__,
            "strategies": [f"{g}: {', '.join(t.strategy)}" for g, t in summaries.items()],
            "parameters": {}, "rules": {}, "tables": list(tabs), "table_titles": titles, "figures": figures,
            "legends": legends, "glossary": {**GLOSSARY, **(LEAD_GLOSSARY if figures else {})},
            "notes": notes, "method": method(summaries, defaults)}
    if answers:
        meta["answer"] = " ".join(answers)
    path = out / "tables" / "quality.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    return path


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
