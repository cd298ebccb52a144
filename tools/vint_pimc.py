"""How far a stronger single-dummy declaring side gets from double-dummy in Vint (issue 12).

The issue's target (the declaring side within 0.35 tricks of DD, `heuristic` everywhere) asks
how much of the declaring side's gap to DD better card play can close, when no one sees
partner's hand.  This tool measures a reference point for that: the declaring side (declarer
and partner) plays by perfect-information Monte Carlo (PIMC, as GIB did for bridge): at each
of its cards with a choice, it deals the unseen cards at random ``--worlds`` times among the
three other hands (their card counts right, no card of a suit a seat has shown out of), solves
each world double-dummy with DDS (endplay ``solve_board``) and plays the card with the most
tricks on average (a tie goes to the card `heuristic` would play, if among the best, else the
lowest).  It ignores what the auction says about the hidden hands.  The defence plays
`heuristic` (the jitted strategy, called from Python with the same view the engine gives it).

The same contracts as all-`heuristic` play (the records of ``cardsim.records``), so per deal
``pimc tricks − heuristic tricks`` is paired, and ``tricks − DD`` (DD from the full hands,
:func:`cardsim.dd.solve_records`) is the issue's vs_dd for each line-up.

Usage (from the repository)::

    PYTHONPATH=$PWD python tools/vint_pimc.py --seed 11 --count 200 --worlds 12 --jobs 2

``--only partner-lead`` (or declarer-lead, declarer-follow, partner-follow) searches at that kind
of decision alone, so its paired gain is what that kind of decision is worth
(docs/strategy-quality.md, "Where the sampled search gains").
"""
from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

EP_SUIT = {0: 0, 1: 3, 2: 2, 3: 1}
"""endplay Denom (S H D C) -> cardsim suit (S C D H = 0..3)."""


def index(tok: str) -> int:
    """cardsim card index 16·suit + rank of a Vint record token like 'TS'."""
    from cardsim.cards import VINT_RANKS, parse_card

    return parse_card(tok, VINT_RANKS)


def token(c: int) -> str:
    from cardsim.cards import VINT_RANKS, card_str

    return card_str(c, VINT_RANKS)


def bid_suits_of(auction: list[str], declarer: int) -> np.ndarray:
    """int64[4]: the first suit each seat bid (−1 none), by the engine's own rules.first_bid_suits."""
    from cardsim.games.vint.forcing import parse_call
    from cardsim.games.vint.rules import first_bid_suits

    calls = np.array([parse_call(c) for c in auction], dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    first_bid_suits(calls, np.int64(len(calls)), np.int64(declarer), out)
    return out


def deal_hidden(rng, cards, counts: dict, may_hold, tries: int, accept=None):
    """Deal ``cards`` at random to the holders of ``counts`` (holder: number of cards), each card
    to a holder with room that ``may_hold(holder, card)``, weighted by the room left; ``accept``
    (if given) vets a whole deal.  Returns {holder: set of cards}, or None after ``tries`` dead
    ends.  The PIMC tools of all three games (tools/g500_pimc.py, tools/g501_pimc.py) share it."""
    cards = list(cards)
    for _ in range(tries):
        rng.shuffle(cards)
        left = dict(counts)
        hands = {s: set() for s in counts}
        ok = True
        for c in cards:
            allowed = [s for s in counts if left[s] > 0 and may_hold(s, c)]
            if not allowed:
                ok = False
                break
            w = np.array([left[s] for s in allowed], dtype=float)
            s = allowed[rng.choice(len(allowed), p=w / w.sum())]
            hands[s].add(c)
            left[s] -= 1
        if ok and (accept is None or accept(hands)):
            return hands
    return None


def sample_world(rng, mover, hand_now, others_unseen, counts, void_of):
    """Three hidden hands (sets of card indices) for the seats other than ``mover``: ``counts``
    cards each, none of a suit the seat showed out of; None after too many dead ends."""
    return deal_hidden(rng, others_unseen, counts, lambda s, c: not void_of[s] & (1 << (c >> 4)), 200)


def dd_scores(hands_full, trump, first, plays):
    """{card index: DD tricks for the side to move} after ``plays`` from the full hands."""
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    from cardsim.dd.vint import pbn_deal as pbn

    deal = Deal(pbn([sum(1 << c for c in h) for h in hands_full]))
    deal.trump = [Denom.spades, Denom.clubs, Denom.diamonds, Denom.hearts, Denom.nt][trump]
    deal.first = Player(first)
    for c in plays:
        t = token(c)
        deal.play(t[1] + t[0])  # endplay writes the suit first
    out = {}
    for card, tricks in solve_board(deal):
        out[16 * EP_SUIT[int(card.suit)] + int(card.rank).bit_length() - 3] = tricks
    return out


def value_of(scores: dict, c: int) -> int:
    """DD value of ``c``; DDS lists one card of a run of equals: the nearest listed one above."""
    if c in scores:
        return scores[c]
    same = sorted(k for k in scores if k >> 4 == c >> 4 and k > c)
    return scores[same[0]] if same else max(scores.values())


def _decision(record, t, k, seat, declarer, trump, trick, heur, card, gain, hand, played) -> dict:
    """One declaring-side decision where PIMC left the heuristic's card: what kind of change."""
    def kind(c):
        if k == 0:
            return "lead trump" if (c >> 4) == trump else "lead side"
        led = trick[0] >> 4
        if (c >> 4) == led:
            return "follow"
        return "ruff" if (c >> 4) == trump else "discard"
    unseen_above = lambda c: sum(1 for r in range((c & 15) + 1, 13)
                                 if 16 * (c >> 4) + r not in hand and 16 * (c >> 4) + r not in played)
    return {"deal": record["source"]["deal"], "trick": t, "pos": k,
            "role": "declarer" if seat == declarer else "partner", "nt": trump == 4,
            "heur": token(heur), "pimc": token(card), "heur_kind": kind(heur), "pimc_kind": kind(card),
            "same_suit": (heur >> 4) == (card >> 4), "higher": (card & 15) > (heur & 15),
            "heur_master": unseen_above(heur) == 0, "pimc_master": unseen_above(card) == 0,
            "suit_len": sum(1 for c in hand if c >> 4 == card >> 4), "gain": gain,
            "my_trumps": sum(1 for c in hand if c >> 4 == trump),
            "unseen_trumps": 0 if trump == 4 else 13 - sum(1 for c in hand if c >> 4 == trump)
            - sum(1 for c in played if c >> 4 == trump)}


KINDS = ("declarer-lead", "partner-lead", "declarer-follow", "partner-follow")
"""The declaring side's decisions ``--only`` can restrict PIMC to (the rest play `heuristic`'s card)."""


def play_deal(record, worlds: int, seed: int, decisions: list | None = None, only: tuple = KINDS) -> dict:
    from cardsim.games.vint.rules import DENOMINATIONS, winning_index
    from cardsim.games.vint.strategies import heuristic_card

    res = record["result"]
    declarer = res["declarer"]
    contract = res["contract"]
    trump = DENOMINATIONS.index(contract[1:])
    start = [set(index(t) for t in h) for h in record["hands"]]
    hand = [set(h) for h in start]
    bid_suits = bid_suits_of(record["auction"], declarer)
    rng = np.random.default_rng([seed, record["source"]["deal"]])
    played_seq: list[int] = []
    played_by: list[set[int]] = [set(), set(), set(), set()]
    voids = 0
    void_of = [0, 0, 0, 0]
    leader = (declarer + 1) % 4
    first = leader
    got = 0
    solves = 0
    trick = np.zeros(4, dtype=np.int64)
    for t in range(13):
        for k in range(4):
            seat = (leader + k) % 4
            led = None if k == 0 else trick[0] >> 4
            legal = sorted(hand[seat]) if led is None or not any(c >> 4 == led for c in hand[seat]) else \
                sorted(c for c in hand[seat] if c >> 4 == led)
            bits = np.uint64(sum(1 << c for c in hand[seat]))
            played_bits = np.uint64(sum(1 << c for c in played_seq))
            heur = int(heuristic_card(bits, np.int64(seat), np.int64(declarer), np.int64(trump), np.int64(leader),
                                      trick, np.int64(k), played_bits, bid_suits, np.int64(voids)))
            what = ("declarer-" if seat == declarer else "partner-") + ("lead" if k == 0 else "follow")
            if seat % 2 != declarer % 2 or len(legal) == 1 or what not in only:
                card = heur
            else:
                unseen = set(range(64)) - set(c for c in range(64) if (c & 15) > 12) - hand[seat] - set(played_seq)
                counts = {s: len(hand[s]) for s in range(4) if s != seat}
                total = {c: 0.0 for c in legal}
                for _ in range(worlds):
                    w = sample_world(rng, seat, hand[seat], unseen, counts, void_of)
                    if w is None:
                        continue
                    full = [set(hand[seat]) | played_by[seat] if s == seat else w[s] | played_by[s] for s in range(4)]
                    scores = dd_scores(full, trump, first, played_seq)
                    solves += 1
                    for c in legal:
                        total[c] += value_of(scores, c)
                best = max(total.values())
                ties = [c for c in legal if total[c] >= best - 1e-9]
                card = heur if heur in ties else ties[0]
                if decisions is not None:
                    decisions.append(_decision(record, t, k, seat, declarer, trump, trick, heur, card,
                                               (total[card] - total[heur]) / max(worlds, 1), hand[seat], played_seq))
            if k == 0:
                voids |= 1 << (16 + 4 * seat + (card >> 4))
            elif (card >> 4) != led:
                voids |= 1 << (4 * seat + led)
                void_of[seat] |= 1 << led
            hand[seat].discard(card)
            played_by[seat].add(card)
            played_seq.append(card)
            trick[k] = card
        leader = (leader + int(winning_index(trick, np.int64(4), np.int64(trump)))) % 4
        if leader % 2 == declarer % 2:
            got += 1
    return {"deal": record["source"]["deal"], "declarer": declarer, "contract": contract,
            "heuristic": int(res["tricks"][declarer % 2]), "pimc": got, "solves": solves,
            "decisions": decisions}


def main(argv=None) -> int:
    import cardsim
    from joblib import Parallel, delayed

    from cardsim.dd import solve_records

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="CSV of the per-deal rows")
    ap.add_argument("--decisions", default=None,
                    help="CSV of every declaring-side card where PIMC left the heuristic's, with its kind and "
                         "PIMC's estimated gain (DD tricks averaged over the worlds)")
    ap.add_argument("--only", nargs="+", choices=KINDS, default=list(KINDS),
                    help="search only at these declaring-side decisions; elsewhere play heuristic's card")
    args = ap.parse_args(argv)
    deals = list(range(args.start, args.start + args.count))
    recs = [r for r in cardsim.records("vint", deals, args.seed) if r["result"]["declarer"] is not None]
    rows = Parallel(n_jobs=args.jobs)(delayed(play_deal)(r, args.worlds, args.seed, [] if args.decisions else None,
                                                         tuple(args.only))
                                      for r in recs)
    if args.decisions:
        pd.DataFrame([d for r in rows for d in r["decisions"]]).to_csv(args.decisions, index=False)
    df = pd.DataFrame([{k: v for k, v in r.items() if k != "decisions"} for r in rows])
    # The contract's DD tricks (DDS through cardsim.dd), in the order of the declared records.
    df["dd"] = solve_records(recs).dd_tricks.to_numpy(int)
    if args.out:
        df.to_csv(args.out, index=False)
    print(f"seed {args.seed}, deals {deals[0]}..{deals[-1]}: {len(df)} declared, {args.worlds} worlds a decision, "
          f"{df.solves.sum():,} DDS solves")
    print_paired(df, need=df.contract.str[0].astype(int) + 6)
    return 0


def print_paired(df: pd.DataFrame, need: pd.Series) -> None:
    """The lines both PIMC tools end with (tools/g500_pimc.py too): vs_dd of each line-up and the
    paired difference, means with their 95% intervals (tricks a declared deal), and the made
    rates (``need``: the tricks each contract needs)."""
    from cardsim.stats import mean_interval

    def line(x):
        mean, _, lo, hi = mean_interval(float(x.sum()), float((x * x).sum()), len(x))
        return f"{float(mean):+.3f} [{float(lo):+.3f}, {float(hi):+.3f}]"
    print(f"vs_dd, heuristic declaring side:  {line(df.heuristic - df.dd)}  made {(df.heuristic >= need).mean():.3f}")
    print(f"vs_dd, PIMC declaring side:       {line(df.pimc - df.dd)}  made {(df.pimc >= need).mean():.3f}")
    print(f"PIMC − heuristic (paired):        {line(df.pimc - df.heuristic)}")


if __name__ == "__main__":
    sys.exit(main())
