"""Golden digests: SHA-256 of the engine's row bytes for fixed runs, per game (issue "Honest internals").

``tests/golden/<game>.json`` holds, for a fixed seed, the digest of the row array of 20,000
independent deals under every rule variant and strategy line-up below, of 200 whole matches
(match rows and their deal rows), and five full deal records.  ``tests/test_golden.py``
recomputes them; they change only through ``make golden`` (this module run as a script), and a
commit that changes them says why in its message.

The digests hash the raw numpy row arrays (``GameSpec.play.simulate_chunk`` / ``matches.play``),
the contract between the engine and pandas, so a change in what the engine plays, in a
dtype, or in a column's order changes them; a change in how pandas frames are presented does
not.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

SEED = 20261130
N_DEALS = 20_000
N_MATCHES = 200
RECORD_DEALS = (0, 1, 2, 3, 4)
GOLDEN_DIR = Path(__file__).parent / "golden"

# name -> (seats, rules, strategies) per game; default strategies unless named.
VARIANTS = {
    "vint": {
        "default": (None, None, None),
        "random": (None, None, "random"),
        "greedy": (None, None, "greedy"),
        # The default before issue 12: its digest equals the old "default" digest.
        "heuristic_v1": (None, None, "heuristic_v1"),
        # The default before issue 26 (the declaring side's technique in high contracts): its digest
        # equals the "default" digest from issue 12 until issue 26.
        "heuristic_v2": (None, None, "heuristic_v2"),
        # The default before issue 30 (bidding that reads the score): its digest equals the
        # "default" digest from issue 26 until issue 30.
        "heuristic_v3": (None, None, "heuristic_v3"),
        # The default before its parameters were tuned to an equilibrium: its simulate and match digests
        # equal the "default" ones until then (test_golden.py checks them against those).
        "heuristic_v4": (None, None, "heuristic_v4"),
        # The default before issue 47's no-trump play (the declarer's partner keeps short masters and
        # returns the declarer's suit): its digests equal the "default" ones until then.
        "heuristic_v5": (None, None, "heuristic_v5"),
        # The default before issue 47's play at level 4 and above (card-play version 3): its digests
        # equal the "default" ones until then.
        "heuristic_v6": (None, None, "heuristic_v6"),
        # The default before issue 47's discards (card-play version 4 with aggression 0.5): its digests
        # equal the "default" ones until then.
        "heuristic_v8": (None, None, "heuristic_v8"),
        # The default before card-play version 6 (card-play version 5 with aggression 0.5): its digests
        # equal the "default" ones until then.
        "heuristic_v9": (None, None, "heuristic_v9"),
        # The default before card-play version 7 (card-play version 6 with aggression 0.5): its digests
        # equal the "default" ones until then.
        "heuristic_v10": (None, None, "heuristic_v10"),
    },
    "501": {
        "3 seats": (3, None, None),
        "4 seats": (4, None, None),
        "3 seats random": (3, None, "random"),
        "4 seats random": (4, None, "random"),
        # The default before issue 12: its digests equal the old "3 seats" / "4 seats" digests.
        "3 seats heuristic_v1": (3, None, "heuristic_v1"),
        "4 seats heuristic_v1": (4, None, "heuristic_v1"),
        # The default before its ties followed the seat's random suit order: its digests equal the
        # "3 seats" / "4 seats" digests from issue 12 until then.
        "3 seats heuristic_v2": (3, None, "heuristic_v2"),
        "4 seats heuristic_v2": (4, None, "heuristic_v2"),
        # The default before its parameters were tuned to an equilibrium: its simulate and match digests
        # equal the "3 seats" / "4 seats" ones until then (test_golden.py checks them against those).
        "3 seats heuristic_v3": (3, None, "heuristic_v3"),
        "4 seats heuristic_v3": (4, None, "heuristic_v3"),
        # The default before issue 47's card play: its simulate and match digests equal the "3 seats" /
        # "4 seats" ones until then (test_golden.py checks them against those).
        "3 seats heuristic_v5": (3, None, "heuristic_v5"),
        "4 seats heuristic_v5": (4, None, "heuristic_v5"),
        # The default before issue 47's defenders' leads: its simulate and match digests equal the
        # "3 seats" / "4 seats" ones until then (test_golden.py checks them against those).
        "3 seats heuristic_v7": (3, None, "heuristic_v7"),
        "4 seats heuristic_v7": (4, None, "heuristic_v7"),
        # The default before issue 47's third card-play rules: its simulate and match digests equal the
        # "3 seats" / "4 seats" ones until then (test_golden.py checks them against those).
        "3 seats heuristic_v8": (3, None, "heuristic_v8"),
        "4 seats heuristic_v8": (4, None, "heuristic_v8"),
        # The default before issue 47's fourth card-play rules: its simulate and match digests equal the
        # "3 seats" / "4 seats" ones until then (test_golden.py checks them against those).
        "3 seats heuristic_v9": (3, None, "heuristic_v9"),
        "4 seats heuristic_v9": (4, None, "heuristic_v9"),
    },
    "500": {
        "quebec": (None, {"scoring": "quebec"}, None),
        "subtract": (None, {"scoring": "subtract"}, None),
        "quebec random": (None, {"scoring": "quebec"}, "random"),
        "subtract random": (None, {"scoring": "subtract"}, "random"),
        "subtract target 500": (None, {"scoring": "subtract", "target": 500}, None),
        # The default before issue 12: its digests equal the old "quebec" / "subtract" digests.
        "quebec heuristic_v1": (None, {"scoring": "quebec"}, "heuristic_v1"),
        "subtract heuristic_v1": (None, {"scoring": "subtract"}, "heuristic_v1"),
        # The default before issue 26 (flat allowance): its digests equal the "quebec" / "subtract"
        # digests from issue 12 until issue 26.
        "quebec heuristic_v2": (None, {"scoring": "quebec"}, "heuristic_v2"),
        "subtract heuristic_v2": (None, {"scoring": "subtract"}, "heuristic_v2"),
        # The default before issue 30 (it ignores the score): its match digests and records equal the
        # "quebec" / "subtract" / "subtract target 500" ones from issue 26 until issue 30.
        "quebec heuristic_v3": (None, {"scoring": "quebec"}, "heuristic_v3"),
        "subtract heuristic_v3": (None, {"scoring": "subtract"}, "heuristic_v3"),
        "subtract target 500 heuristic_v3": (None, {"scoring": "subtract", "target": 500}, "heuristic_v3"),
        # The default before its parameters were tuned to an equilibrium: its simulate and match digests
        # equal the "quebec" / "subtract" / "subtract target 500" ones until then (test_golden.py checks
        # them against those).
        "quebec heuristic_v4": (None, {"scoring": "quebec"}, "heuristic_v4"),
        "subtract heuristic_v4": (None, {"scoring": "subtract"}, "heuristic_v4"),
        "subtract target 500 heuristic_v4": (None, {"scoring": "subtract", "target": 500}, "heuristic_v4"),
        # The default before the declaring side's no-trump lead found with pimc: its simulate and match
        # digests equal the "quebec" / "subtract" / "subtract target 500" ones until then (test_golden.py
        # checks them against those).
        "quebec heuristic_v5": (None, {"scoring": "quebec"}, "heuristic_v5"),
        "subtract heuristic_v5": (None, {"scoring": "subtract"}, "heuristic_v5"),
        "subtract target 500 heuristic_v5": (None, {"scoring": "subtract", "target": 500}, "heuristic_v5"),
    },
}
# The match runs: one per distinct match-level rule set (500's target and scoring end games).
MATCH_VARIANTS = {
    "vint": ("default", "heuristic_v4", "heuristic_v5", "heuristic_v6", "heuristic_v8", "heuristic_v9",
             "heuristic_v10"),
    "501": ("3 seats", "4 seats", "3 seats heuristic_v3", "4 seats heuristic_v3", "3 seats heuristic_v5",
            "4 seats heuristic_v5", "3 seats heuristic_v7", "4 seats heuristic_v7",
            "3 seats heuristic_v8", "4 seats heuristic_v8", "3 seats heuristic_v9", "4 seats heuristic_v9"),
    "500": ("quebec", "subtract", "subtract target 500", "quebec heuristic_v3", "subtract heuristic_v3",
            "subtract target 500 heuristic_v3", "quebec heuristic_v4", "subtract heuristic_v4",
            "subtract target 500 heuristic_v4", "quebec heuristic_v5", "subtract heuristic_v5",
            "subtract target 500 heuristic_v5"),
}


def _digest(rows: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(str(rows.dtype.descr).encode())
    h.update(np.ascontiguousarray(rows).tobytes())
    return h.hexdigest()


def _setup(spec, variant):
    seats, rules, strategies = variant
    return spec.setup(strategies, seats, rules)


def compute(game: str) -> dict:
    """The golden document of ``game``: digests of every run and five records (a JSON-able dict)."""
    from cardsim.games import get_game

    spec = get_game(game)
    out = {"seed": SEED, "deals": N_DEALS, "matches": N_MATCHES, "simulate": {}, "play_match": {}, "records": {}}
    for name, variant in VARIANTS[game].items():
        setup = _setup(spec, variant)
        out["simulate"][name] = _digest(spec.play.simulate_chunk(SEED, 0, N_DEALS, setup))
    for name in MATCH_VARIANTS[game]:
        setup = _setup(spec, VARIANTS[game][name])
        matches, deals = spec.matches.play(SEED, 0, N_MATCHES, setup)
        out["play_match"][name] = {"matches": _digest(matches), "deals": _digest(deals),
                                   "n_deal_rows": int(len(deals))}
    for name in MATCH_VARIANTS[game]:
        setup = _setup(spec, VARIANTS[game][name])
        # One compact line a record, so that a diff of the golden file shows which deal changed.
        out["records"][name] = [json.dumps(r, sort_keys=True, separators=(",", ":"))
                                for r in spec.play.make_records(SEED, list(RECORD_DEALS), setup)]
    return out


def path_of(game: str) -> Path:
    return GOLDEN_DIR / f"{game}.json"


def load(game: str) -> dict:
    return json.loads(path_of(game).read_text())


def main(argv=None) -> int:
    from cardsim.games import GAME_NAMES

    parser = argparse.ArgumentParser(description="Recompute the golden digests (make golden).")
    parser.add_argument("games", nargs="*", default=list(GAME_NAMES), help="games to rewrite (default all)")
    parser.add_argument("--check", action="store_true", help="compare with the stored files, write nothing")
    args = parser.parse_args(argv)
    status = 0
    for game in args.games:
        doc = compute(game)
        path = path_of(game)
        if args.check:
            same = path.exists() and load(game) == json.loads(json.dumps(doc))
            print(f"{game}: {'unchanged' if same else 'DIFFERS'}")
            status |= 0 if same else 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        old = path.read_text() if path.exists() else None
        new = json.dumps(doc, indent=1, sort_keys=True) + "\n"
        path.write_text(new)
        print(f"{game}: {'unchanged' if old == new else 'written'} ({path})")
    return status


if __name__ == "__main__":
    sys.exit(main())
