"""How far a stronger single-dummy defence gets from double-dummy in 501 (issue 12).

The reference point of tools/vint_pimc.py and tools/g500_pimc.py for 501: the two defenders
play by perfect-information Monte Carlo (PIMC).  At each of a defender's cards with a choice
(the first seven tricks) it deals the cards it has not seen at random ``--worlds`` times
between the declarer and the other defender (card counts right, no card of a suit a player has
shown out of, at most one unplayed talon card with the other defender: the talon is public and
went to the declarer, who gave one card to each defender, docs/RULES.md §1.4), solves each
world double-dummy with cardsim's own solver (the rest of the trick by minimax, then
:func:`cardsim.dd.g501.search_from`: :func:`cardsim.dd.g501.mid_trick`) and plays the card that
leaves the declarer the fewest deal points on average (a tie goes to `heuristic`'s card, with
its marriage declaration).  It ignores the auction and what the declarer's contract says about
his hand.  The declarer plays `heuristic` (the jitted strategy called with the engine's view;
with no worlds the tool replays `heuristic`'s own records card for card, which checks that
view).  ``--only`` searches at one kind of decision and ``--tricks`` (e.g. ``6-7``) in some
tricks only, playing `heuristic` at the others.

Per deal ``pimc points − heuristic points`` (the declarer's deal points: card points won +
effective marriages, docs/RULES.md §1.7) is paired (the same contracts and gifts), and
``points − DD`` is the issue's vs_dd for each line-up.

Usage (from the repository)::

    PYTHONPATH=$PWD:$PWD/tools python tools/g501_pimc.py --seed 12 --count 200 --worlds 12 --jobs 2
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

U64 = np.uint64
KINDS = ("lead", "2nd decl led", "3rd decl led", "2nd def led", "3rd def led")


def _kind(k: int, leader: int, decl: int) -> str:
    if k == 0:
        return "lead"
    return ("2nd" if k == 1 else "3rd") + (" decl led" if leader == decl else " def led")


def play_deal(record, hands, decl: int, trump: int, worlds: int, seed: int, only: str | None,
              log: list | None = None, tricks: tuple[int, int] = (1, 7)) -> dict:
    """Play one declared deal (``hands`` uint64[3] by place from the first leader, the declarer's
    place ``decl``, ``trump`` 0..4) with the defenders searching as the module says; a row of the
    declarer's deal points (``heuristic`` from the record, ``pimc`` here, ``dd``) and the number
    of changed decisions by kind.  ``log``, when a list, gets one tuple per changed decision."""
    from cardsim.cards import RANKS_501, parse_card, popcount
    from cardsim.dd import g501 as dd
    from cardsim.games.g501.constants import DECK_MASK, DECLARE_FLAG, NT, SEEN_CARDS, SEEN_VOIDS
    from cardsim.games.g501.rules import can_declare, legal_plays, trick_best
    from cardsim.games.g501.strategies import heuristic_play
    from cardsim.dd.g501 import declare, mid_trick, take

    keys, bounds = dd.new_table()
    moves = np.zeros(dd.MOVES_SHAPE, dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    h = hands.copy()
    dd_points = int(dd.search_from(h.copy(), 0, decl, trump, 0, 0, -1, 9999, keys, bounds, moves, stats))
    talon = sum(1 << parse_card(t, RANKS_501) for t in record["talon"])
    rng = np.random.default_rng([seed, record["source"]["deal"]])
    seen = np.zeros((2, 4), dtype=np.uint64)
    lane = U64(0x3F)
    played = U64(0)
    won_any = [False, False, False]
    got = pending = 0
    leader = 0
    changed = {k: 0 for k in KINDS}
    for t in range(8):
        trick = U64(0)
        cards: list[int] = []
        lead = -1
        for k in range(3):
            p = (leader + k) % 3
            legal = legal_plays(U64(h[p]), -1 if k == 0 else lead >> 4, trump)
            code = int(heuristic_play(U64(h[p]), U64(legal), U64(trick), np.int64(lead), np.int64(trump),
                                      U64(played), p == decl, won_any[p], np.int64((decl - leader) % 3),
                                      np.int64(p), np.int64(decl), seen))
            declares = code >= DECLARE_FLAG
            card = code - DECLARE_FLAG if declares else code
            kind = _kind(k, leader, decl)
            if (p != decl and t < 7 and worlds > 0 and popcount(U64(legal)) > 1
                    and (only is None or only == kind) and tricks[0] <= t + 1 <= tricks[1]):
                q = 3 - p - decl
                unseen = int(DECK_MASK) & ~int(h[p]) & ~int(played)
                talon_q = 0 if int(seen[SEEN_CARDS, q]) & talon else 1
                cands = [c for c in range(64) if int(legal) >> c & 1]
                total = dict.fromkeys(cands, 0.0)
                for _ in range(worlds):
                    g = _sample(rng, h, p, decl, q, unseen, seen, talon & unseen, talon_q)
                    for c in cands:
                        gg = g.copy()
                        gg[p] &= ~(U64(1) << U64(c))
                        total[c] += mid_trick(gg, leader, decl, trump, int(won_any[decl]), pending, got,
                                              cards + [c], (keys, bounds), moves, stats)
                best = min(total.values())
                ties = [c for c in cands if total[c] <= best + 1e-9]
                if card not in ties:
                    if log is not None:
                        log.append((record["source"]["deal"], t + 1, kind, trump, int(h[p]), int(legal), cards[:],
                                    card, ties[0], total[card] / worlds - best / worlds, int(played)))
                    card, declares = ties[0], False
                    changed[kind] += 1
            if declares:
                assert k == 0 and can_declare(U64(h[p]), card)
                if p == decl:
                    got, pending = declare(got, pending, won_any[decl], card >> 4, trump)
            b = U64(1) << U64(card)
            h[p] &= ~b
            played |= b
            trick |= b
            cards.append(card)
            seen[SEEN_CARDS, p] |= b
            if k == 0:
                lead = card
            elif card >> 4 != lead >> 4:
                seen[SEEN_VOIDS, p] |= lane << U64(16 * (lead >> 4))
                if trump != NT and card >> 4 != trump:
                    seen[SEEN_VOIDS, p] |= lane << U64(16 * trump)
        best_card = trick_best(trick, lead >> 4, trump)
        winner = (leader + cards.index(best_card)) % 3
        won_any[winner] = True
        if winner == decl:
            got, pending = take(got, pending, trick)
        leader = winner
    res = record["result"]
    return {"deal": record["source"]["deal"], "trump": trump, "heuristic": int(res["points"][res["declarer"]]),
            "pimc": got, "dd": dd_points, **{f"changed {k}": v for k, v in changed.items()}}


def _sample(rng, h, p: int, decl: int, q: int, unseen: int, seen, talon_left: int, talon_q: int) -> np.ndarray:
    """The hands with the declarer's and the other defender's cards dealt afresh from ``unseen``:
    their counts kept, none of a suit a player showed out of, at most ``talon_q`` of the unplayed
    talon cards ``talon_left`` with the other defender."""
    from cardsim.games.g501.constants import SEEN_VOIDS
    from vint_pimc import deal_hidden

    void = {s: int(seen[SEEN_VOIDS, s]) for s in (decl, q)}
    hands = deal_hidden(rng, [c for c in range(64) if unseen >> c & 1],
                        {decl: int(h[decl]).bit_count(), q: int(h[q]).bit_count()},
                        lambda s, c: not void[s] >> c & 1, 2000,
                        accept=lambda hs: sum(1 for c in hs[q] if talon_left >> c & 1) <= talon_q)
    if hands is None:
        raise RuntimeError("no world fits the voids shown")
    g = h.copy()
    g[decl], g[q] = (U64(sum(1 << c for c in hands[s])) for s in (decl, q))
    return g


def main(argv=None) -> int:
    import cardsim
    from cardsim.dd import positions_501
    from joblib import Parallel, delayed

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", choices=KINDS, default=None, help="search only this kind of defender's decision")
    ap.add_argument("--tricks", default="1-7", help="search only in these tricks, e.g. 6-7")
    ap.add_argument("--out", default=None, help="CSV of the per-deal rows")
    args = ap.parse_args(argv)
    deals = list(range(args.start, args.start + args.count))
    tricks = tuple(int(x) for x in args.tricks.split("-"))
    recs = cardsim.records("501", deals, args.seed, ["heuristic"] * 3)
    hands, decl, trump, played = positions_501(recs)
    rows = Parallel(n_jobs=args.jobs)(
        delayed(play_deal)(recs[i], hands[i], int(decl[i]), int(trump[i]), args.worlds, args.seed, args.only,
                           None, tricks)
        for i in np.flatnonzero(played))
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    n = len(df)
    print(f"seed {args.seed}, deals {deals[0]}..{deals[-1]}: {n} declared, {args.worlds} worlds a decision"
          + (f", searching only '{args.only}'" if args.only else "") + f", tricks {args.tricks}")
    for col in ("heuristic", "pimc"):
        x = df[col] - df.dd
        print(f"  {col:9s} defence: vs_dd {x.mean():+.2f} ± {1.96 * x.std(ddof=1) / np.sqrt(n):.2f} deal points")
    d = df.pimc - df.heuristic
    print(f"  paired pimc − heuristic: {d.mean():+.2f} ± {1.96 * d.std(ddof=1) / np.sqrt(n):.2f}")
    print("  changed decisions a deal: " + ", ".join(f"{k} {df[f'changed {k}'].mean():.2f}" for k in KINDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
