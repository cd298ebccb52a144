"""Which Vint card-play decisions lose tricks against double dummy (issue 12).

Every card of deals ``start .. start+count-1`` (seed ``seed``, all seats ``--strategy``) is
checked with DDS (endplay ``solve_board``) from the position it was played in: its cost is the
best card's DD tricks for the mover's side minus the chosen card's (0 = a DD-best card).  Costs
are summed per declared deal and split by side (declaring / defending), role (declarer, his
partner), place in the trick and kind of play (lead of a trump or a side suit, follow with a
low or winning card, ruff, discard), so the declaring side's losses can be told from the
defence's.  A mistake by one side can be undone by the other's, so costs do not add up to the
tricks − DD gap exactly.

Usage (from the worktree)::

    PYTHONPATH=$PWD python tools/vint_play_errors.py --seed 11 --count 200
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

DENOMS = "SCDHN"


def _ep_card(token: str) -> str:
    """cardsim token '9S' / 'TS' -> endplay 'S9' / 'ST'."""
    return token[-1] + token[:-1]


def deal_errors(record) -> list[dict]:
    """One row per card of ``record`` (a Vint deal record): who, where, kind and DD cost."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    res = record["result"]
    decl = res["declarer"]
    if decl is None:
        return []
    den = record["result"]["contract"][1:]
    trump_letter = {"S": "S", "C": "C", "D": "D", "H": "H", "NT": None}[den]
    pbn_hands = []
    for h in record["hands"]:
        by = {s: [] for s in "SHDC"}
        for t in h:
            by[t[-1]].append(t[:-1])
        order = "AKQJT98765432"
        pbn_hands.append(".".join("".join(sorted(by[s], key=order.index)) for s in "SHDC"))
    deal = Deal("N:" + " ".join(pbn_hands))
    deal.trump = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, None: Denom.nt}[trump_letter]
    deal.first = Player((decl + 1) % 4)
    rows = []
    trick = []
    live = [list(h) for h in record["hands"]]
    for k, tok in enumerate(record["play"]):
        mover = (int(deal.first) + len(deal.curtrick)) % 4
        scores = {(int(c.suit), int(c.rank)): t for c, t in solve_board(deal)}
        chosen = _ep_card(tok)
        c = Card(chosen)
        best = max(scores.values())
        got = scores.get((int(c.suit), int(c.rank)))
        if got is None:  # DDS listed an equal card instead: the nearest listed one above it
            same = sorted((r, t) for (s, r), t in scores.items() if s == int(c.suit) and r >= int(c.rank))
            got = same[0][1] if same else best
        pos = len(trick)
        suit = tok[-1]
        led = trick[0][-1] if trick else None
        if pos == 0:
            kind = "lead trump" if suit == trump_letter else "lead side"
        elif suit == led:
            kind = "follow"
        elif suit == trump_letter:
            kind = "ruff"
        else:
            kind = "discard"
        side = "declaring" if mover % 2 == decl % 2 else "defending"
        counts = [sum(1 for t in live[p] if t[-1] == trump_letter) for p in range(4)]
        opp_trumps = counts[(mover + 1) % 4] + counts[(mover + 3) % 4]
        role = "declarer" if mover == decl else ("partner" if side == "declaring" else "defender")
        rows.append({"deal": record["source"]["deal"], "den": den, "level": int(res["contract"][0]), "trick": k // 4,
                     "pos": pos, "side": side, "role": role, "kind": kind, "cost": best - got,
                     "opp_trumps": opp_trumps, "my_trumps": counts[mover], "partner_trumps": counts[(mover + 2) % 4]})
        live[mover].remove(tok)
        deal.play(chosen)
        trick.append(tok)
        if len(trick) == 4:
            trick = []
    return rows


def main(argv=None) -> int:
    import cardsim

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--strategy", default="heuristic")
    ap.add_argument("--out", default=None, help="CSV of every card's row")
    args = ap.parse_args(argv)
    recs = cardsim.records("vint", list(range(args.start, args.start + args.count)), args.seed, args.strategy)
    rows = [r for rec in recs for r in deal_errors(rec)]
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    n = df.deal.nunique()
    print(f"seed {args.seed}, deals {args.start}..{args.start + args.count - 1}, {args.strategy}: {n} declared; "
          f"DD tricks lost per declared deal (errors: cards with cost > 0)")
    lt = df[(df.role == "declarer") & (df.kind == "lead trump")]
    print(lt.groupby(["opp_trumps"]).cost.agg(lost="sum", cards="size").assign(per_deal=lambda g: g.lost / n).to_string())
    print(lt.groupby(["partner_trumps"]).cost.agg(lost="sum", cards="size").assign(per_deal=lambda g: g.lost / n).to_string())
    for keys in (["side"], ["side", "role"], ["side", "kind"], ["side", "role", "pos", "kind"], ["side", "den"],
                 ["side", "level"]):
        g = df.groupby(keys).cost.agg(lost="sum", errors=lambda c: (c > 0).sum(), cards="size").reset_index()
        g["per_deal"] = g.lost / n
        print()
        print(g.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
