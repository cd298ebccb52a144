"""501: when does a blind bid pay off?  Seat 0's blind policy swept over position and level,
each variant paired with a never-blind baseline on the same deals."""
import json
import sys
from pathlib import Path

from analyses.common import parse_args, write_tables
from cardsim.analysis import g501
from cardsim.compare import compare

TITLE = "501: when does a blind bid pay off?"


def main(argv=None) -> int:
    args = parse_args(TITLE, argv)
    variants = g501.blind_variants()
    compared = compare("501", args.n, {0: "heuristic:blind_prob=0"}, variants, g501.blind_measure,
                       seed=args.seed, n_jobs=args.jobs)
    table = g501.blind_table(compared)
    out = Path(args.out)
    write_tables({"g501_blind": table}, out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    figures = g501.blind_figure(table, out / "figures")
    meta = {"game": "501", "title": TITLE, "deals": args.n, "seed": args.seed, "source": compared.attrs["source"],
            "cardsim": compared.attrs["cardsim"],
            "strategies": ["seat 0: heuristic with the blind policy of each row", "seats 1, 2: heuristic"],
            "parameters": {}, "rules": {}, "tables": ["g501_blind"], "figures": [p.name for p in figures],
            "glossary": g501.BLIND_GLOSSARY, "notes": g501.BLIND_NOTES}
    (out / "tables" / "501_blind.json").write_text(json.dumps(meta, indent=1))
    print(f"{TITLE}: {args.n:,} deals x {len(variants) + 1} variants -> g501_blind.csv, g501_blind.md, g501_blind.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
