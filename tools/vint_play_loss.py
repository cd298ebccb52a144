"""Where the Vint declaring side loses tricks against double dummy (issue 12), by role.

For deals ``0 .. count-1`` of ``seed`` the auction is run once with the ``--auction`` strategy
at every seat (so every line-up plays the same contracts), then the play is repeated with
each (declaring side, defence) pair of card-play strategies: the declarer and his partner play
the first, the defenders the second.  Every result is compared with the contract's DD tricks
(tools/vint_dd_quality.py's cached tables, ``.cache/``), overall and split by denomination,
level and the declaring side's trump length.

``gap`` = declaring side's tricks − DD tricks (mean, 95% interval); the declaring side's loss
to a better play by itself is the change of gap between rows with the same defence.

Usage (from the worktree; the DD tables of the deals must be cached or are computed)::

    PYTHONPATH=$PWD python tools/vint_play_loss.py --seed 11 --count 3000 \
        --pairs heuristic/heuristic heuristic_v1/heuristic heuristic/heuristic_v1 --by denomination
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardsim._jit import jit  # noqa: E402
from cardsim.cards import popcount, suit_mask  # noqa: E402
from cardsim.games.vint import engine  # noqa: E402
from cardsim.games.vint.engine import deal_cards, play_tricks, run_auction  # noqa: E402
from cardsim.games.vint.rules import MAX_CALLS, NT, PASS, call_denomination, call_level, first_bid_suits  # noqa: E402
from cardsim.rng import deal_key, seed_stream  # noqa: E402

U64 = np.uint64


@jit
def play_by_role(seed, count, auction_ids, params, pair_ids, base_deck, forced, out):
    """For deal i: out[i, 0..3] = declarer, level, denomination (−1 void), the declaring side's
    trump length; out[i, 4 + p] = the declaring side's tricks with pair p of ``pair_ids``
    (int64[P, 2]: declaring side's strategy id, defence's)."""
    deck = np.empty(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    rngs = np.zeros((4, 1), dtype=np.uint64)
    calls = np.zeros(MAX_CALLS, dtype=np.int64)
    plays = np.zeros(52, dtype=np.int64)
    work_hands = np.zeros(4, dtype=np.uint64)
    trick = np.zeros(4, dtype=np.int64)
    winners = np.zeros(13, dtype=np.int64)
    bid_suits = np.zeros(4, dtype=np.int64)
    ids = np.zeros(4, dtype=np.int64)
    for i in range(count):
        key = deal_key(seed, i)
        dealer = deal_cards(key, -1, base_deck, deck, hands)
        for s in range(4):
            seed_stream(rngs[s], key, 1 + s)
        ncalls, bidder, current, _ = run_auction(dealer, hands, auction_ids, params, rngs, calls, forced)
        out[i, 0] = bidder
        if current == PASS:
            out[i, 1] = 0
            out[i, 2] = -1
            continue
        trump = call_denomination(current)
        out[i, 1] = call_level(current)
        out[i, 2] = trump
        if trump < NT:
            out[i, 3] = popcount(hands[bidder] & suit_mask(trump)) + popcount(hands[(bidder + 2) % 4] & suit_mask(trump))
        first_bid_suits(calls, ncalls, bidder, bid_suits)
        for p in range(pair_ids.shape[0]):
            for s in range(4):
                ids[s] = pair_ids[p, 0] if s % 2 == bidder % 2 else pair_ids[p, 1]
                seed_stream(rngs[s], key, 1 + s)
            play_tricks(bidder, trump, hands, ids, params, rngs, plays, work_hands, trick, winners, bid_suits)
            got = 0
            for t in range(13):
                if winners[t] % 2 == bidder % 2:
                    got += 1
            out[i, 4 + p] = got


def run(seed: int, count: int, auction: str, pairs: list[str], dd: bool = True) -> pd.DataFrame:
    """One row per declared deal: declarer, level, denomination, trump_len, dd (−1 when ``dd`` is
    false: no DD tables are needed then), and one column of declaring-side tricks per pair ``DECL/DEF``."""
    from cardsim.games import get_game
    from cardsim.rng import check_seed
    from vint_dd_quality import cached_tables

    spec = get_game("vint")
    reg = spec.registry
    setup = spec.setup([auction] * 4)
    params = setup.params.copy()
    pair_ids = np.array([[reg[n].id for n in p.split("/")] for p in pairs], dtype=np.int64)
    out = np.zeros((count, 4 + len(pairs)), dtype=np.int64)
    play_by_role(np.uint64(check_seed(seed)), count, setup.strategy_ids, params, pair_ids, engine.BASE_DECK,
                 engine.NO_FORCE.copy(), out)
    df = pd.DataFrame(out[:, :4], columns=["declarer", "level", "denomination", "trump_len"])
    for p, name in enumerate(pairs):
        df[name] = out[:, 4 + p]
    df["deal"] = np.arange(count)
    df = df[df.denomination >= 0].copy()
    if dd:
        tables = cached_tables(seed, 0, count)  # int8[n, 5 denominations, 4 seats]
        df["dd"] = tables[df.deal.to_numpy(), df.denomination.to_numpy(), df.declarer.to_numpy()].astype(np.int64)
    else:
        df["dd"] = -1
    return df


def summary(df: pd.DataFrame, pairs: list[str], by: str | None) -> pd.DataFrame:
    groups = [("all", df)] if by is None else list(df.groupby(by))
    rows = []
    for key, g in groups:
        row = {by or "group": key, "n": len(g), "dd_makeable": 100 * (g.dd >= g.level + 6).mean()}
        for p in pairs:
            gap = g[p] - g.dd
            row[p] = f"{gap.mean():+.3f}±{1.96 * gap.std(ddof=1) / np.sqrt(max(len(g), 2)):.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--auction", default="heuristic")
    ap.add_argument("--pairs", nargs="+", default=["heuristic/heuristic", "heuristic_v1/heuristic",
                                                    "heuristic/heuristic_v1", "random/heuristic"])
    ap.add_argument("--by", nargs="*", default=["denomination", "level", "trump_len"])
    ap.add_argument("--save", help="write the per-deal table (CSV) here")
    ap.add_argument("--against", help="a table saved by --save: print each pair's paired change of tricks")
    ap.add_argument("--no-dd", action="store_true",
                    help="skip the DD tables (only --save / --against are meaningful: the gaps print as tricks + 1)")
    args = ap.parse_args(argv)
    df = run(args.seed, args.count, args.auction, args.pairs, dd=not args.no_dd)
    if args.save:
        df.to_csv(args.save, index=False)
    if args.against:
        old = pd.read_csv(args.against).set_index("deal")
        both = df.set_index("deal").join(old.add_suffix("_old"), how="inner")
        same = both.denomination == both.denomination_old
        print(f"paired against {args.against}: {same.sum()} of {len(both)} deals with the same contract")
        for p in args.pairs:
            if p + "_old" in both:
                d = (both[p] - both[p + "_old"])[same]
                print(f"  {p}: {d.mean():+.4f} ± {1.96 * d.std(ddof=1) / np.sqrt(len(d)):.4f} tricks a deal "
                      f"({(d > 0).sum()} deals gain, {(d < 0).sum()} lose)")
    print(f"seed {args.seed}, deals 0..{args.count - 1}, auction {args.auction}: declaring side's tricks − DD "
          f"(pairs DECLARING/DEFENCE)")
    print(summary(df, args.pairs, None).to_string(index=False))
    for b in args.by:
        print()
        print(summary(df, args.pairs, b).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
