"""Where Five Hundred card play loses tricks against double-dummy (issue 12 diagnostics).

Every played deal of a run is walked trick by trick: before each trick the double-dummy value
of the declaring side (its tricks still to come, :func:`cardsim.dd.g500.solve_eff`); a trick
whose tricks won + value after differs from the value before holds an error.  Within such a
trick each card is checked (the value after a card: minimax over the rest of the trick, then
the double-dummy value of the next trick start), and the drop is charged to the card's player:
a drop for the declaring side is its error, a rise is the defence's.  Summed over a deal the
charges equal ``DD - actual``, so ``vs_dd = defence errors - declaring side errors``.

Each error is tagged by side (declarer, declarer's partner, defender), position in the trick
(lead, 2nd, 3rd, 4th), trick number, denomination and, for leads, what was led (trump, side
master, other side card, joker in no-trump).

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g500_loss.py --deals 1000 --seed 12 --strategies heuristic
    PYTHONPATH=$PWD python tools/g500_loss.py --deals 1000 --strategies heuristic heuristic_v1 heuristic heuristic_v1
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import cardsim
from cardsim._jit import jit
from cardsim.cards import lowest_bit, popcount
from cardsim.dd import g500 as dd
from cardsim.games.g500.constants import DENOMS, FULL_EFF, NT, REMAP, SUIT_MASK, TRUMP_MASK, parse_call, parse_card
from cardsim.games.g500.rules import legal_moves, remap_hand, trick_winner

U64 = np.uint64


@jit
def _after(h, trick, pos, leader, led, denom, keys, bounds, moves, stats):
    """Team 0's tricks from a mid-trick position (``trick[:pos]`` played) by minimax over the
    rest of the trick and the solver from the next trick start; counts this trick too."""
    if pos == 4:
        w = trick_winner(trick, denom, led)
        nxt = (leader + w) % 4
        won = 1 if nxt % 2 == 0 else 0
        if popcount(h[0]) == 0:
            return won
        return won + dd.solve_eff(h, nxt, denom, keys, bounds, moves, stats)
    seat = (leader + pos) % 4
    legal = legal_moves(h[seat], denom, led)
    maxing = seat % 2 == 0
    best = -1 if maxing else 99
    m = legal
    while m:
        c = lowest_bit(m)
        x = U64(1) << U64(c)
        m &= m - U64(1)
        h[seat] &= ~x
        trick[pos] = c
        v = _after(h, trick, pos + 1, leader, led, denom, keys, bounds, moves, stats)
        h[seat] |= x
        if maxing and v > best:
            best = v
        if not maxing and v < best:
            best = v
    return best


def _eff(tok, denom):
    named = -1
    if "=" in tok:
        tok, s = tok.split("=")
        named = "SCDH".index(s)
    c = parse_card(tok)
    return int(REMAP[denom, c]), named


def _lead_kind(card, hand, denom, unseen):
    hand, unseen = int(hand), int(unseen)
    b = 1 << card
    if b & int(TRUMP_MASK[denom]):
        if denom == NT:
            return "joker"
        return "trump master" if not unseen & ~((b << 1) - 1) & int(TRUMP_MASK[denom]) else "trump low"
    suit = int(SUIT_MASK[denom, card >> 4])
    above = ~((b << 1) - 1)
    if not unseen & above & suit:
        return "side master"
    return "side lowest" if not hand & suit & (b - 1) else "side other"


def analyse(records) -> pd.DataFrame:
    """One row per charged card: deal, side, role, pos, trick, denom, kind, loss (declaring
    side's tricks lost, negative = the defence's error)."""
    keys, bounds = dd.new_table()
    moves = np.zeros((42, dd.MAX_MOVES), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    rows = []
    for r in records:
        res = r["result"]
        if res.get("declarer") is None or not r.get("play"):
            continue
        d = res["declarer"]
        denom = parse_call(res["contract"]) % 5
        level = 6 + parse_call(res["contract"]) // 5
        by_seat = [sum(1 << parse_card(t) for t in hand) for hand in r["hands"]]
        by_seat[d] = (by_seat[d] | sum(1 << parse_card(t) for t in r["talon"])) & ~sum(
            1 << parse_card(t) for t in r["discard"])
        known = U64(remap_hand(U64(sum(1 << parse_card(t) for t in r["discard"])), denom))
        h = np.array([remap_hand(U64(x), denom) for x in by_seat], dtype=np.uint64)
        sign = 1 if d % 2 == 0 else -1  # team 0's value -> declaring side's
        leader = d
        played = U64(0)
        for k in range(10):
            cards = [_eff(t, denom) for t in r["play"][4 * k:4 * k + 4]]
            led = cards[0][1] if cards[0][1] >= 0 else cards[0][0] >> 4
            before = dd.solve_eff(h, leader, denom, keys, bounds, moves, stats)
            trick = np.zeros(4, dtype=np.int64)
            for p in range(4):
                trick[p] = cards[p][0]
            w = trick_winner(trick, denom, led)
            hh = h.copy()
            for p in range(4):
                hh[(leader + p) % 4] &= ~(U64(1) << U64(cards[p][0]))
            nxt = (leader + w) % 4
            after = (1 if nxt % 2 == 0 else 0) + (dd.solve_eff(hh, nxt, denom, keys, bounds, moves, stats)
                                                   if k < 9 else 0)
            if after != before:
                prev = before
                g = h.copy()
                tr = np.zeros(4, dtype=np.int64)
                for p in range(4):
                    seat = (leader + p) % 4
                    unseen = FULL_EFF[denom] & ~g[seat] & ~played & ~(U64(known) if seat == d else U64(0))
                    kind = _lead_kind(cards[p][0], g[seat], denom, unseen) if p == 0 else ""
                    if kind.startswith("trump"):
                        opp = (g[(seat + 1) % 4] | g[(seat + 3) % 4]) & TRUMP_MASK[denom]
                        kind += " opp %d" % popcount(opp)
                    g[seat] &= ~(U64(1) << U64(cards[p][0]))
                    tr[p] = cards[p][0]
                    v = _after(g, tr, p + 1, leader, led, denom, keys, bounds, moves, stats)
                    if v != prev:
                        role = "declarer" if seat == d else "partner" if seat == (d + 2) % 4 else "defender"
                        rows.append({"deal": r["source"]["deal"], "role": role, "pos": p + 1, "trick": k + 1,
                                     "denom": DENOMS[denom], "level": level, "kind": kind,
                                     "loss": sign * (prev - v)})
                    prev = v
            for p in range(4):
                played |= U64(1) << U64(cards[p][0])
            h = hh
            leader = nxt
    return pd.DataFrame(rows, columns=["deal", "role", "pos", "trick", "denom", "level", "kind", "loss"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--strategies", nargs="+", default=["heuristic"])
    args = ap.parse_args(argv)
    recs = cardsim.records("500", list(range(args.deals)), args.seed, args.strategies * (4 // len(args.strategies)))
    n = sum(1 for r in recs if r["result"].get("declarer") is not None)
    df = analyse(recs)
    print(f"{n} declared deals; tricks per declared deal (positive = declaring side's loss)")
    df["decl_side"] = df.role != "defender"
    print("net by side:", df.groupby("decl_side").loss.sum().div(n).round(3).to_dict(),
          " vs_dd =", round(-df.loss.sum() / n, 3))
    for by in (["role", "pos"], ["role", "pos", "kind"], ["decl_side", "denom"], ["decl_side", "trick"],
               ["decl_side", "level"]):
        t = df.groupby(by).loss.agg(["sum", "count"])
        t["per_deal"] = t["sum"] / n
        print(t.round(3).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
