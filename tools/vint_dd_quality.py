"""Vint strategy quality against double-dummy (DD) play (issue 12), measured with endplay's DDS.

For deals ``start .. start+count-1`` of ``seed`` (as ``cardsim simulate vint`` plays them), the
DD table of every deal (tricks per denomination and declarer, from the full 13-card hands) is
computed once and cached in ``.cache/`` (it depends on the cards only, not on the strategies);
then each line-up of strategies is simulated and its non-void deals are compared to DD:

* ``gap``: declaring side's tricks − DD tricks of the contract (denomination, declarer), tricks;
  mean and 95% interval;
* ``dd_makeable``: % of contracts with DD tricks ≥ level + 6;
* ``made``: % of contracts made;
* ``right_side``: % of deals where the declaring side is the one with more DD tricks in its
  best denomination (ties, where each side's best is equal, count as right).

Encoding (checked in tests/test_vint_dd_quality.py on a hand-made deal): cardsim seats 0..3
are clockwise like endplay's N E S W; cardsim suits S C D H = 0..3 (bits 16·s + rank, rank 0 =
deuce), denominations S C D H NT = 0..4 (docs/RULES.md §2.2); endplay's Denom order is S H D C NT.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/vint_dd_quality.py --seed 2025 --count 5000 \
        --strategies heuristic heuristic_v1
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

SUIT_ORDER_PBN = (0, 3, 2, 1)
"""cardsim suit numbers in PBN order (S H D C)."""
RANK_CHARS = "23456789TJQKA"
CACHE = Path(__file__).resolve().parent.parent / ".cache"


def hands_of(seed: int, start: int, count: int) -> np.ndarray:
    """uint64[count, 4]: the initial hands of deals start.. of ``seed``, dealt as simulate deals them."""
    from cardsim.games.vint import engine
    from cardsim.rng import check_seed, deal_key

    s = np.uint64(check_seed(seed))
    out = np.zeros((count, 4), dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    for i in range(count):
        engine.deal_cards(np.uint64(deal_key(s, np.int64(start + i))), -1, engine.BASE_DECK, deck, hands)
        out[i] = hands
    return out


def pbn(hands) -> str:
    """PBN deal string ``N:S.H.D.C ...`` of four cardsim hands (seat 0 = North, clockwise)."""
    parts = []
    for h in hands:
        h = int(h)
        suits = []
        for s in SUIT_ORDER_PBN:
            lane = (h >> (16 * s)) & 0x1FFF
            suits.append("".join(RANK_CHARS[r] for r in range(12, -1, -1) if lane >> r & 1))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def dd_tables(all_hands: np.ndarray, batch: int = 32) -> np.ndarray:
    """int8[n, 5, 4]: DD tricks by cardsim denomination (S C D H NT) and declaring seat."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom, Player

    denoms = (Denom.spades, Denom.clubs, Denom.diamonds, Denom.hearts, Denom.nt)
    out = np.zeros((len(all_hands), 5, 4), dtype=np.int8)
    for lo in range(0, len(all_hands), batch):
        deals = [Deal(pbn(h)) for h in all_hands[lo:lo + batch]]
        for k, table in enumerate(calc_all_tables(deals)):
            for d, denom in enumerate(denoms):
                for seat in range(4):
                    out[lo + k, d, seat] = table[denom, Player(seat)]
    return out


CHUNK = 250


def cached_tables(seed: int, start: int, count: int) -> np.ndarray:
    """DD tables of deals start..start+count-1, computed per block of CHUNK deals and cached in
    ``.cache/`` (a long run can be resumed; blocks are aligned on multiples of CHUNK)."""
    CACHE.mkdir(exist_ok=True)
    first = start // CHUNK * CHUNK
    parts = []
    for lo in range(first, start + count, CHUNK):
        path = CACHE / f"vint_dd_{seed}_{lo}_{CHUNK}.npy"
        if not path.exists():
            np.save(path, dd_tables(hands_of(seed, lo, CHUNK)))
        parts.append(np.load(path))
    tables = np.concatenate(parts)
    return tables[start - first:start - first + count]


def quality(rows, tables: np.ndarray) -> dict:
    """The measures above for simulated ``rows`` (engine.ROW_DTYPE) and their deals' DD ``tables``."""
    keep = ~rows["void"]
    r = rows[keep]
    t = tables[keep].astype(np.int64)
    idx = np.arange(len(r))
    decl = r["declarer"].astype(np.int64)
    den = r["denomination"].astype(np.int64)
    dd = t[idx, den, decl]
    team = decl % 2
    taken = np.where(team == 0, r["tricks_0"], r["tricks_1"]).astype(np.int64)
    gap = taken - dd
    best = t.max(axis=1)  # [n, 4]: each seat's best DD tricks over denominations
    side_best = np.stack([best[:, [0, 2]].max(1), best[:, [1, 3]].max(1)], axis=1)
    right = side_best[idx, team] >= side_best[idx, 1 - team]
    n = len(r)
    half = 1.96 * gap.std(ddof=1) / np.sqrt(n)
    return {"deals": n, "gap": gap.mean(), "gap_ci": half,
            "dd_makeable": 100 * (dd >= r["level"] + 6).mean(), "made": 100 * r["made"].mean(),
            "right_side": 100 * right.mean()}


def simulate(seed: int, start: int, count: int, strategies):
    from cardsim.games import get_game

    spec = get_game("vint")
    return spec.simulate_chunk(seed, start, count, spec.setup(strategies))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--strategies", nargs="+", default=["heuristic"],
                    help="line-ups: a strategy spec for every seat, or four specs separated by /")
    args = ap.parse_args(argv)
    tables = cached_tables(args.seed, args.start, args.count)
    print(f"seed {args.seed}, deals {args.start}..{args.start + args.count - 1}")
    print(f"{'strategies':40s} {'deals':>6s} {'tricks-DD':>16s} {'DD-makeable':>12s} {'made':>7s} {'right side':>11s}")
    for lineup in args.strategies:
        specs = lineup.split("/") if "/" in lineup else lineup
        q = quality(simulate(args.seed, args.start, args.count, specs), tables)
        print(f"{lineup:40s} {q['deals']:6d} {q['gap']:+8.3f} ± {q['gap_ci']:.3f} {q['dd_makeable']:11.1f}% "
              f"{q['made']:6.1f}% {q['right_side']:10.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
