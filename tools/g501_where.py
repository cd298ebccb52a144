"""Where the 501 declarer's points beyond double-dummy come from: trick by trick, declarer vs defence.

For each played deal of ``seed`` (deals ``0 .. n-1``, every seat the same strategy), the
double-dummy value of the declarer's deal points (docs/RULES.md §1.5-§1.7) is solved at every
trick start: the points he has (cards won, marriages once effective) plus the best he can still
get against the best defence (:func:`cardsim.dd.g501.search_from`).  A trick's change of that
value is the points the trick's play gave away: positive = the defenders gave the declarer
points, negative = the declarer lost points.  Both sides may err in one trick, so a trick's
change is the net; the sum over the tricks is the deal's vs_dd (played minus double-dummy).

With ``--cards`` each defender's card is also scored on its own (slower): the double-dummy value
after the card played minus the value after the defender's best card, the rest of the trick
searched card by card (:func:`mid_trick`) and the tricks after by ``search_from``; the mean per
played deal by the defender's place: ``lead``, ``2nd`` / ``3rd`` after the declarer's lead
(``decl led``) or after the other defender's (``def led``).

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/g501_where.py --deals 300 --seed 12 --strategy heuristic heuristic_v1
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import cardsim
from cardsim.cards import RANKS_501, parse_card
from cardsim.dd import positions_501
from cardsim.dd import g501 as dd
from cardsim.games.g501.rules import can_declare, hand_points, legal_plays, marriage_value, trick_best


def _card(token: str) -> tuple[int, bool]:
    declares = token.endswith("+")
    return parse_card(token.rstrip("+"), RANKS_501), declares


def declare(got: int, pending: int, won: int, suit: int, trump: int) -> tuple[int, int]:
    """The declarer's ``(got, pending)`` deal points after he declares the marriage of ``suit``:
    counted at once when he has won a trick, else pending until he wins one (docs/RULES.md §1.6)."""
    value = marriage_value(suit, trump)
    return (got + value, pending) if won else (got, pending + value)


def take(got: int, pending: int, trick) -> tuple[int, int]:
    """The declarer's ``(got, pending)`` after he wins ``trick`` (uint64 bit set): its card points
    and his pending marriages (docs/RULES.md §1.6-§1.7)."""
    return got + int(hand_points(np.uint64(trick))) + pending, 0


def deal_changes(record, hands, decl, trump, table, moves, stats) -> np.ndarray:
    """float64[8]: the change of the declarer's double-dummy value in each trick of one record."""
    keys, bounds = table
    h = hands.copy()
    got, won, pending, leader = 0, 0, 0, 0
    plays = [_card(t) for t in record["play"]]
    out = np.zeros(8)
    for t in range(8):
        before = got + dd.search_from(h, leader, decl, trump, won, pending, -1, 9999, keys, bounds, moves, stats)
        trick = 0
        cards = []
        for k in range(3):
            p = (leader + k) % 3
            c, declares = plays[3 * t + k]
            if declares and p == decl:
                assert can_declare(h[p], c)
                got, pending = declare(got, pending, won, c >> 4, trump)
            h[p] &= ~np.uint64(1 << c)
            trick |= 1 << c
            cards.append(c)
        best = trick_best(np.uint64(trick), cards[0] >> 4, trump)
        winner = (leader + cards.index(best)) % 3
        if winner == decl:
            got, pending = take(got, pending, trick)
            won = 1
        leader = winner
        after = got + dd.search_from(h, leader, decl, trump, won, pending, -1, 9999, keys, bounds, moves, stats)
        out[t] = after - before
    return out


def mid_trick(h, leader, decl, trump, won, pending, got, cards, table, moves, stats) -> int:
    """The declarer's double-dummy deal points with ``cards`` (play order) on the current trick:
    the rest of the trick by plain minimax, then ``search_from``; ``got`` the points he has."""
    keys, bounds = table
    pos = len(cards)
    if pos == 3:
        trick = sum(1 << c for c in cards)
        best = trick_best(np.uint64(trick), cards[0] >> 4, trump)
        w = (leader + cards.index(best)) % 3
        if w == decl:
            (got, pending), won = take(got, pending, trick), 1
        return got + dd.search_from(h, w, decl, trump, won, pending, -1, 9999, keys, bounds, moves, stats)
    p = (leader + pos) % 3
    legal = int(legal_plays(h[p], -1 if pos == 0 else cards[0] >> 4, trump))
    values = []
    for c in (c for c in range(64) if legal >> c & 1):
        g, pe = got, pending
        if pos == 0 and p == decl and can_declare(h[p], c):  # as the solver: he always declares
            g, pe = declare(g, pe, won, c >> 4, trump)
        hh = h.copy()
        hh[p] &= ~np.uint64(1 << c)
        values.append(mid_trick(hh, leader, decl, trump, won, pe, g, cards + [c], table, moves, stats))
    return max(values) if p == decl else min(values)


def defender_cards(strategy: str, n: int, seed: int) -> tuple[pd.DataFrame, int]:
    """One row per defender's card of the first seven tricks of deals ``0 .. n-1`` (the last trick
    has no choice): ``deal``, ``trick`` (1..7), ``place`` (see the module docstring), ``loss``
    (deal points it gave the declarer); and the number of played deals."""
    records = cardsim.records("501", list(range(n)), seed, [strategy] * 3)
    hands, decls, trumps, played = positions_501(records)
    table = dd.new_table()
    moves = np.zeros(dd.MOVES_SHAPE, dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    rows = []
    for i in np.flatnonzero(played):
        h, decl, trump = hands[i].copy(), int(decls[i]), int(trumps[i])
        plays = [_card(t) for t in records[i]["play"]]
        got = won = pending = leader = 0
        for t in range(8):
            cards = []
            for k in range(3):
                p = (leader + k) % 3
                c, declares = plays[3 * t + k]
                if p != decl and t < 7:
                    args = (leader, decl, trump, won, pending, got)
                    best = mid_trick(h, *args, cards, table, moves, stats)
                    hh = h.copy()
                    hh[p] &= ~np.uint64(1 << c)
                    loss = mid_trick(hh, *args, cards + [c], table, moves, stats) - best
                    place = "lead" if k == 0 else ("2nd" if k == 1 else "3rd") + (
                        " decl led" if leader == decl else " def led")
                    rows.append((i, t + 1, place, loss))
                if declares and p == decl:
                    got, pending = declare(got, pending, won, c >> 4, trump)
                h[p] &= ~np.uint64(1 << c)
                cards.append(c)
            best = trick_best(np.uint64(sum(1 << c for c in cards)), cards[0] >> 4, trump)
            winner = (leader + cards.index(best)) % 3
            if winner == decl:
                (got, pending), won = take(got, pending, sum(1 << c for c in cards)), 1
            leader = winner
    return pd.DataFrame(rows, columns=["deal", "trick", "place", "loss"]), int(played.sum())


def changes(strategy: str, n: int, seed: int) -> pd.DataFrame:
    """One row per played deal: ``deal``, ``t0`` .. ``t7`` (the eight tricks' changes)."""
    records = cardsim.records("501", list(range(n)), seed, [strategy] * 3)
    hands, decl, trump, played = positions_501(records)
    table = dd.new_table()
    moves = np.zeros(dd.MOVES_SHAPE, dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    rows = []
    for i in np.flatnonzero(played):
        ch = deal_changes(records[i], hands[i], int(decl[i]), int(trump[i]), table, moves, stats)
        rows.append([i, *ch])
    return pd.DataFrame(rows, columns=["deal"] + [f"t{t}" for t in range(8)])


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per trick: mean change, mean of the gifts (positive parts) and of the losses (negative)."""
    x = df[[f"t{t}" for t in range(8)]].to_numpy()
    return pd.DataFrame({"trick": range(1, 9), "net": x.mean(0), "defence_gifts": np.clip(x, 0, None).mean(0),
                         "declarer_losses": np.clip(x, None, 0).mean(0)})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--strategy", nargs="+", default=["heuristic", "heuristic_v1"])
    ap.add_argument("--cards", action="store_true", help="also score each defender's card (slow)")
    args = ap.parse_args(argv)
    for name in args.strategy:
        df = changes(name, args.deals, args.seed)
        s = summary(df)
        tot = s[["net", "defence_gifts", "declarer_losses"]].sum()
        print(f"{name}: {len(df)} played deals of seed {args.seed}; vs_dd {tot.net:+.2f} = defence gifts "
              f"{tot.defence_gifts:+.2f}, declarer losses {tot.declarer_losses:+.2f} (deal points a deal)")
        print(s.to_string(index=False, float_format=lambda v: f"{v:+.2f}"))
        if args.cards:
            cards, nd = defender_cards(name, args.deals, args.seed)
            print(f"{name}: defenders' cards scored alone, deal points given per played deal "
                  f"(total {cards.loss.sum() / nd:+.2f}):")
            print((cards.groupby("place").loss.sum() / nd).to_string(float_format=lambda v: f"{v:+.2f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
