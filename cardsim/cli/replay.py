"""``cardsim replay``: validate and score deal records (docs/RECORDS.md).

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import json
import sys

import cardsim
from cardsim.cli.common import parse_path, read_jsonl
from cardsim.games.base import RecordError
from cardsim.text import clip

NAME = "replay"


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="validate and score deal records (docs/RECORDS.md)")
    p.add_argument("file", type=parse_path, help="JSON Lines file, or - for standard input")


def run(args) -> int:
    rejected = 0
    seen = 0
    for number, record in read_jsonl(args.file):
        seen += 1
        try:
            if isinstance(record, Exception):
                raise record
            result = cardsim.replay(record)
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
