"""How far a stronger single-dummy declaring side gets from double-dummy in Five Hundred (issue 12).

The same reference point as tools/vint_pimc.py: the declaring side (declarer and partner)
plays by perfect-information Monte Carlo (PIMC): at each of its cards with a choice it deals
the cards it has not seen at random ``--worlds`` times among the other three hands and, when
it is not the declarer, the declarer's discard (card counts right, no card of a suit a seat
has shown out of), solves each world double-dummy with cardsim's own solver
(:func:`cardsim.dd.g500.solve_eff`, the rest of the trick by minimax:
:func:`cardsim.dd.g500.mid_trick`) and plays the card with the most tricks on average (a tie goes to `heuristic`'s
card).  A no-trump joker lead is a candidate only when `heuristic` leads it (with its named
suit): the search never names a suit itself.  It ignores the auction.  The defence plays
`heuristic` (the jitted strategy called with the engine's view; with no worlds the tool
replays `heuristic`'s own records card for card, which checks that view).

Per deal ``pimc tricks − heuristic tricks`` is paired (the same contracts and discards), and
``tricks − DD`` (DD from the position after the discard, as ``cardsim quality`` solves it) is
the issue's vs_dd for each line-up.

Usage (from the repository)::

    PYTHONPATH=$PWD:$PWD/tools python tools/g500_pimc.py --seed 12 --count 300 --worlds 16 --jobs 2
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

U64 = np.uint64


def play_deal(record, worlds: int, seed: int) -> dict:
    from cardsim.cards import popcount
    from cardsim.dd import g500 as dd
    from cardsim.games.g500.constants import FULL_EFF, parse_call, parse_card
    from cardsim.games.g500.rules import card_suit, legal_moves, remap_hand, trick_winner
    from cardsim.games.g500.strategies import heuristic_play
    from cardsim.dd.g500 import mid_trick

    keys, bounds = dd.new_table()
    moves = np.zeros((42, dd.MAX_MOVES), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    res = record["result"]
    d = res["declarer"]
    bid = parse_call(res["contract"])
    denom, level = bid % 5, 6 + bid // 5
    by_seat = [sum(1 << parse_card(t) for t in hand) for hand in record["hands"]]
    discard = sum(1 << parse_card(t) for t in record["discard"])
    by_seat[d] = (by_seat[d] | sum(1 << parse_card(t) for t in record["talon"])) & ~discard
    known = U64(remap_hand(U64(discard), denom))
    h = np.array([remap_hand(U64(x), denom) for x in by_seat], dtype=np.uint64)
    dd_decl = dd.solve_eff(h.copy(), d, denom, keys, bounds, moves, stats)
    dd_decl = dd_decl if d % 2 == 0 else 10 - dd_decl
    rng = np.random.default_rng([seed, record["source"]["deal"]])
    played = U64(0)
    voids = [0, 0, 0, 0]
    won = [0, 0]
    leader = d
    for t in range(10):
        led = -1
        trick = np.zeros(4, dtype=np.int64)
        for i in range(4):
            seat = (leader + i) % 4
            kn = known if seat == d else U64(0)
            code = int(heuristic_play(np.int64(seat), U64(h[seat]), np.int64(denom), np.int64(d), np.int64(leader),
                                      trick, np.int64(i), np.int64(led), U64(played), U64(kn),
                                      np.int64(won[d % 2]), np.int64(level)))
            card, named = code & 0xFF, code >> 8
            legal = int(legal_moves(U64(h[seat]), denom, led))
            if seat % 2 == d % 2 and popcount(U64(legal)) > 1 and worlds > 0:
                cands = []
                for c in range(64):
                    if legal >> c & 1:
                        joker_lead = i == 0 and card_suit(c, denom) < 0
                        if not joker_lead or c == card:
                            cands.append((c, named if joker_lead else -1))
                total = {c: 0.0 for c, _ in cands}
                unseen = int(FULL_EFF[denom]) & ~int(h[seat]) & ~int(played) & ~int(kn)
                for _ in range(worlds):
                    world = _sample(rng, h, seat, unseen, voids, denom, 6 if seat != d else 0)
                    for c, nm in cands:
                        g = world.copy()
                        g[seat] &= ~(U64(1) << U64(c))
                        tr = trick.copy()
                        tr[i] = c
                        led2 = led if i else (nm if card_suit(c, denom) < 0 else card_suit(c, denom))
                        v = mid_trick(g, tr, i + 1, leader, led2, denom, (keys, bounds), moves, stats)
                        total[c] += v if d % 2 == 0 else (10 - t) - v
                best = max(total.values())
                ties = [c for c, _ in cands if total[c] >= best - 1e-9]
                if card not in ties:
                    card, named = ties[0], -1
            if i == 0:
                led = card_suit(card, denom)
                if led < 0:
                    led = named
            elif card_suit(card, denom) != led:
                voids[seat] |= 1 << led
            trick[i] = card
            h[seat] &= ~(U64(1) << U64(card))
            played |= U64(1) << U64(card)
        leader = (leader + trick_winner(trick, denom, led)) % 4
        won[leader % 2] += 1
    return {"deal": record["source"]["deal"], "declarer": d, "contract": res["contract"],
            "heuristic": int(res["tricks"][d % 2]), "pimc": won[d % 2], "dd": int(dd_decl), "level": level}


def _sample(rng, h, seat, unseen: int, voids, denom, pile: int) -> np.ndarray:
    """The current hands with the other seats' cards dealt afresh from ``unseen`` (their counts
    kept, none of a suit a seat showed out of); ``pile`` cards go to the declarer's discard."""
    from cardsim.games.g500.rules import card_suit
    from vint_pimc import deal_hidden

    counts = {s: int(bin(int(h[s])).count("1")) for s in range(4) if s != seat}
    counts[-1] = pile

    def may_hold(s, c):
        lane = card_suit(c, denom)
        return s < 0 or lane < 0 or not voids[s] >> lane & 1

    hands = deal_hidden(rng, [c for c in range(64) if unseen >> c & 1], counts, may_hold, 500)
    if hands is None:
        raise RuntimeError("no world fits the voids shown")
    out = h.copy()
    for s in counts:
        if s >= 0:
            out[s] = U64(sum(1 << c for c in hands[s]))
    return out


def main(argv=None) -> int:
    import cardsim
    from joblib import Parallel, delayed
    from vint_pimc import print_paired

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="CSV of the per-deal rows")
    args = ap.parse_args(argv)
    deals = list(range(args.start, args.start + args.count))
    recs = [r for r in cardsim.records("500", deals, args.seed)
            if r["result"].get("declarer") is not None and r.get("play")]
    rows = Parallel(n_jobs=args.jobs)(delayed(play_deal)(r, args.worlds, args.seed) for r in recs)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    print(f"seed {args.seed}, deals {deals[0]}..{deals[-1]}: {len(df)} declared, {args.worlds} worlds a decision")
    print_paired(df, need=df.level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
