"""501: when does a blind bid pay off?  Seat 0's blind policy swept over position and level,
each variant paired with a never-blind baseline on the same deals, with 3 and with 4 seats; and
the same question at the moment of choice: given the calls before seat 0's first turn, blind to
each level vs look (cardsim.evaluate), paired on the same deals.

``--n`` deals per sweep variant; the moment-of-choice table plays at most MOMENT_DEALS deals
per auction (``--quick``: QUICK_MOMENT_DEALS).
"""
import json
import sys
import time
from pathlib import Path

import pandas as pd

from analyses.common import entry, legends, script_main, write_tables
from cardsim.analysis import g501
from cardsim._jit import source_hash
from cardsim.compare import compare
from cardsim.runner.files import transform_id

TITLE = "501: when does a blind bid pay off?"
SEATS = (3, 4)
MOMENT_DEALS = 200_000
QUICK_MOMENT_DEALS = 5_000


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


def run(args) -> None:
    """The sweep (resumable: each comparison keeps its chunk sums under ``--results``), then
    the moment-of-choice table, the tables, figures and ``501_blind.json``."""
    started = time.time()
    variants = g501.blind_variants()
    tables, compared = [], None
    for seats in SEATS:
        # As for the datasets: the hashes of the jitted sources and of the measure's module are in
        # the name, so an edit to either starts afresh instead of meeting a different run.
        store = Path(args.results) / (f"501-blind-{seats}seats-n{args.n}-seed{args.seed}-{source_hash()}-"
                                      f"{transform_id(g501.blind_measure).rsplit('@', 1)[1]}")
        compared = compare("501", args.n, {0: "heuristic:blind_prob=0"}, variants, g501.blind_measure,
                           seed=args.seed, seats=seats, n_jobs=args.jobs, store=store, progress=args.progress)
        tables.append(g501.blind_table(compared, seats))
        print(f"  sweep, {seats} seats: {args.n:,} deals x {len(variants) + 1} variants, "
              f"{time.time() - started:.0f} s", flush=True)
    table = pd.concat(tables, ignore_index=True)
    moment_deals = min(args.n, QUICK_MOMENT_DEALS if args.quick else MOMENT_DEALS)
    moment = g501.moment_table(moment_deals, args.seed, n_jobs=args.jobs, results=args.results)
    print(f"  moment of choice: {len(g501.MOMENT_PREFIXES)} auctions x {moment_deals:,} deals, "
          f"{time.time() - started:.0f} s", flush=True)
    out = Path(args.out)
    write_tables({"g501_blind": table, "g501_blind_moment": moment}, out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    figures = g501.blind_figure(table, out / "figures") + [g501.moment_figure(moment, out / "figures")]
    meta = {"game": "501", "title": TITLE, "deals": args.n, "seed": args.seed, "source": compared.attrs["source"],
            "cardsim": compared.attrs["cardsim"],
            "strategies": ["seat 0: heuristic with the blind policy of each row", "the other seats: heuristic"],
            "parameters": {}, "rules": {}, "tables": ["g501_blind", "g501_blind_moment"],
            "figures": [p.name for p in figures], "glossary": {**g501.BLIND_GLOSSARY, **g501.MOMENT_GLOSSARY},
            "legends": legends(g501.LEGENDS, [p.name for p in figures]),
            "notes": g501.BLIND_NOTES + [f"g501_blind_moment: {moment_deals:,} deals per auction."] + g501.MOMENT_NOTES}
    (out / "tables" / "501_blind.json").write_text(json.dumps(meta, indent=1))
    print(f"{TITLE}: {args.n:,} deals x {len(variants) + 1} variants x {len(SEATS)} seat counts, moment of choice "
          f"{moment_deals:,} deals per auction, {time.time() - started:.0f} s -> g501_blind, g501_blind_moment "
          "(.csv, .md, .png)")


if __name__ == "__main__":
    sys.exit(entry(main))
