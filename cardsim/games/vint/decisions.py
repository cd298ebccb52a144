"""Vint's decisions one by one: how many a deal makes and what each costs.

:func:`collect` plays deals with their trace kept (``engine.trace_deal``) and gathers the view of
every decision the default play makes: each bid evaluation that reaches ``heuristic_bid`` (the
shortcuts before it, a seat that has bid last or four passes since its last call, cost next to
nothing), each lead (``_lead``) and each card played to a trick (``heuristic_play``, following).
:func:`time_decisions` replays those views through the same compiled functions, each kind in a
jitted loop of its own, and checks that they give the calls and cards the deals had: the views
are the strategy's, not an approximation of them.  ``python -m cardsim.profiling vint
--decisions`` prints the table; BENCHMARKS.md records it.

Only the heuristic family's decisions (``heuristic``, the default, and ``heuristic_v3``; their
bidding and play are the functions timed) are collected: other strategies raise ValueError.
"""
from __future__ import annotations

import time

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.rng import deal_key

from . import engine
from . import strategies as S
from .rules import LED_SHIFT, MAX_CALL, PASS, beats, call_denomination, call_level, first_bid_suits, shown_after

FULL_DECK = int(S.FULL_DECK)
TIMED = ("heuristic", "heuristic_v3")
"""Strategies whose decisions are the functions timed here."""


def collect(setup, n_deals: int, seed: int = 1) -> dict:
    """The decision views of deals ``0 .. n_deals-1`` of ``seed`` played by ``setup`` (every seat
    one of :data:`TIMED`).  Returns ``{"deals": n_deals, "calls": int (every call made),
    "bid": (hand uint64[B], seat int64[B], shown int64[B], current int64[B], call int64[B]),
    "lead": (hand uint64[L], others uint64[L], played uint64[L], ints int64[L, 9]: seat, declarer,
    trump, partner's, declarer's, declarer's partner's first bid suit, voids, card led, the card
    play's rule flags), "follow": (hand uint64[F], played uint64[F], ints int64[F, 12]: seat,
    declarer, trump, leader, trick[0..2], n, voids, winner, card, rule flags), "bid_suits":
    int64[F, 4]}``.
    Raises ValueError for a seat whose strategy is not timed here or ``n_deals`` <= 0."""
    timed = {S.REGISTRY[name].id for name in TIMED}
    others = sorted({spec.split(":")[0].strip() for spec, sid in zip(setup.specs, setup.strategy_ids)
                     if int(sid) not in timed})
    if others:
        raise ValueError(f"per-decision timing: not {', '.join(others)} (covers the default play, "
                         f"{' and '.join(TIMED)})")
    if n_deals <= 0:
        raise ValueError("the number of deals must be positive")
    ids, params = setup.strategy_ids, setup.params
    hands, calls, plays, score, info, rows = engine.trace_arrays()
    zero = np.zeros(2, dtype=np.int64)
    bid, lead, follow, follow_suits = [], [], [], []
    n_calls = 0
    for d in range(n_deals):
        key = np.uint64(deal_key(np.uint64(seed), d))
        dealer = int(engine.trace_deal(key, -1, ids, params, zero, zero, engine.BASE_DECK, hands, calls, plays, score,
                                       info, rows, engine.NO_FORCE.copy()))
        nc = int(info[engine.I_NCALLS])
        n_calls += nc
        current, bidder, shown = PASS, -1, 0
        auction = calls[:nc].tolist()
        for k, call in enumerate(auction):
            seat = (dealer + k) % 4
            shortcut = bidder == seat or current >= MAX_CALL or (k >= 4 and not any(auction[k - 4:k]))
            if not shortcut:
                bid.append((int(hands[seat]), seat, shown, current, call))
            if call != PASS:
                current, bidder = call, seat
                # The rules' own functions, run as Python (py_func): no compiled call per bid or card.
                shown = int(shown_after.py_func(shown, seat, call))
        if current == PASS:
            continue
        declarer, trump = int(info[engine.I_DECLARER]), int(call_denomination(current))
        level = int(call_level(current))
        suits = np.zeros(4, dtype=np.int64)
        first_bid_suits(calls, nc, declarer, suits)
        suits = suits.tolist()
        hand = [int(h) for h in hands]
        played, voids, leader = 0, 0, (declarer + 1) & 3
        trick = [0, 0, 0, 0]
        for t in range(13):
            win = 0
            for k in range(4):
                seat = (leader + k) & 3
                card = int(plays[4 * t + k])
                flags = _flags(ids[seat], params[seat], k, seat, declarer, level)
                if k == 0:
                    lead.append((hand[seat], ~(played | hand[seat]) & FULL_DECK, played,
                                 (seat, declarer, trump, suits[(seat + 2) & 3], suits[declarer],
                                  suits[(declarer + 2) & 3], voids, card, flags)))
                    voids |= 1 << (LED_SHIFT + 4 * seat + (card >> 4))
                else:
                    follow.append((hand[seat], played, (seat, declarer, trump, leader, trick[0], trick[1], trick[2],
                                                        k, voids, win, card, flags)))
                    follow_suits.append(suits)
                    if (card >> 4) != (trick[0] >> 4):
                        voids |= 1 << (4 * seat + (trick[0] >> 4))
                hand[seat] ^= 1 << card
                played |= 1 << card
                if k > 0 and beats.py_func(card, trick[win], trump):
                    win = k
                trick[k] = card
            leader = (leader + win) & 3
    u64 = lambda xs: np.array(xs, dtype=np.uint64)  # noqa: E731
    # Shaped by width, not by the data: a sample of void deals only has no lead and no card.
    i64 = lambda xs, width: np.array(xs, dtype=np.int64).reshape(len(xs), width)  # noqa: E731
    return {"deals": n_deals, "calls": n_calls, "params": params,
            "bid": (u64([b[0] for b in bid]), *(np.array([b[i] for b in bid], dtype=np.int64) for i in range(1, 5))),
            "lead": (u64([x[0] for x in lead]), u64([x[1] for x in lead]), u64([x[2] for x in lead]),
                     i64([x[3] for x in lead], 9)),
            "follow": (u64([x[0] for x in follow]), u64([x[1] for x in follow]), i64([x[2] for x in follow], 12)),
            "bid_suits": i64(follow_suits, 4)}


def _flags(strategy, row, k, seat, declarer, level) -> int:
    """The card-play rule flags the seat's strategy plays with at this card, the contract's level
    added where the rules read it (as :func:`.dispatch.choose_card` makes them)."""
    if int(strategy) == S.HEURISTIC_V3:
        return int(S.PLAY_PARTNER_DRAWS)
    flags = int(S.play_flags.py_func(row[S.P_PLAY]))
    if flags & S.PLAY_HIGH and k == 0 and seat % 2 == declarer % 2:
        flags |= level << S.PLAY_LEVEL_SHIFT
    return flags


@jit
def _bids(row, hand, seat, shown, current, below, out):
    row, hand, seat, shown, current = borrowed(row), borrowed(hand), borrowed(seat), borrowed(shown), \
        borrowed(current)
    below, out = borrowed(below), borrowed(out)
    for i in range(hand.shape[0]):
        out[i] = S.heuristic_bid(row, hand[i], seat[i], shown[i], current[i], below)


def _bids_by_seat(params, hand, seat, shown, current, below, out):
    """:func:`_bids` a seat at a time (``hand`` … sorted by seat), each with its parameter row:
    slicing the row at every evaluation would add its own cost to the time measured."""
    starts = np.searchsorted(seat, np.arange(5))
    for s in range(4):
        a, b = starts[s], starts[s + 1]
        if b > a:
            _bids(params[s], hand[a:b], seat[a:b], shown[a:b], current[a:b], below, out[a:b])


@jit
def _leads(hand, others, played, ints, out):
    hand, others, played, ints, out = borrowed(hand), borrowed(others), borrowed(played), borrowed(ints), \
        borrowed(out)
    for i in range(hand.shape[0]):
        out[i] = S.lead_with_bid_suits(hand[i], ints[i, 0], ints[i, 1], ints[i, 2], others[i], played[i], ints[i, 3], ints[i, 4],
                         ints[i, 5], ints[i, 6], ints[i, 8])


@jit
def _follows(hand, played, ints, suits, out):
    hand, played, ints, suits, out = borrowed(hand), borrowed(played), borrowed(ints), borrowed(suits), \
        borrowed(out)
    trick = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        trick[0] = ints[i, 4]
        trick[1] = ints[i, 5]
        trick[2] = ints[i, 6]
        out[i] = S.heuristic_play(hand[i], ints[i, 0], ints[i, 1], ints[i, 2], ints[i, 3], trick, ints[i, 7],
                                  played[i], suits[i], ints[i, 8], ints[i, 11], ints[i, 9])


def time_decisions(views: dict, repeats: int = 20) -> list[dict]:
    """Replay :func:`collect`'s ``views`` ``repeats`` times (each kind in turn) and return one row
    per decision kind: ``{"decision": str, "per_deal": float (decisions a deal), "ns": float
    (nanoseconds each, the best repeat), "ns_per_deal": float}``.  Raises RuntimeError when a
    replayed decision differs from the deal's (the views would not be the strategy's)."""
    n = views["deals"]
    below = np.zeros(2, dtype=np.int64)
    order = np.argsort(views["bid"][1], kind="stable")
    hand, seat, shown, current, made = (np.ascontiguousarray(x[order]) for x in views["bid"])
    bid_out = np.zeros(len(hand), dtype=np.int64)
    lh, lo, lp, li = views["lead"]
    lead_out = np.zeros(len(lh), dtype=np.int64)
    fh, fp, fi = views["follow"]
    follow_out = np.zeros(len(fh), dtype=np.int64)
    kinds = [("bid evaluation", lambda: _bids_by_seat(views["params"], hand, seat, shown, current, below, bid_out),
              bid_out, made),
             ("lead", lambda: _leads(lh, lo, lp, li, lead_out), lead_out, li[:, 7] if len(li) else lead_out),
             ("card to a trick", lambda: _follows(fh, fp, fi, views["bid_suits"], follow_out), follow_out,
              fi[:, 10] if len(fi) else follow_out)]
    best = {name: float("inf") for name, *_ in kinds}
    for r in range(repeats):
        for name, run, out, want in kinds:
            t = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - t)
            if r == 0 and not np.array_equal(out, want):
                raise RuntimeError(f"vint {name}: {int((out != want).sum())} replayed decisions differ from the "
                                   "deals' (the collected views are not the strategy's)")
    rows = []
    for name, _, out, _ in kinds:
        count = len(out)
        rows.append({"decision": name, "per_deal": count / n, "ns": 1e9 * best[name] / max(count, 1),
                     "ns_per_deal": 1e9 * best[name] / n})
    return rows
