"""Duel's double-dummy solver: the most tricks the first leader's seat takes with both seats
playing their best, every card seen (a plain minimax; four tricks)."""
from __future__ import annotations

from functools import cache

from .rules import N_TRICKS


def _bits(h):
    return [c for c in range(64) if h >> c & 1]


@cache
def _best(leader_hand: int, follower_hand: int) -> int:
    """Most tricks the leader takes from here (both hands as int bit sets)."""
    if leader_hand == 0:
        return 0
    best = 0
    for lead in _bits(leader_hand):
        same = [c for c in _bits(follower_hand) if c // 16 == lead // 16]
        worst = N_TRICKS
        for follow in same or _bits(follower_hand):
            rest_l, rest_f = leader_hand & ~(1 << lead), follower_hand & ~(1 << follow)
            if follow // 16 == lead // 16 and follow > lead:  # the follower wins and leads
                got = _cards(rest_l) - _best(rest_f, rest_l)
            else:
                got = 1 + _best(rest_l, rest_f)
            worst = min(worst, got)
        best = max(best, worst)
    return best


def _cards(h: int) -> int:
    return bin(h).count("1")


def solve(hands, leader: int) -> int:
    """Tricks (0..4) seat ``leader`` takes double-dummy from ``hands`` (two uint64 bit sets)."""
    return _best(int(hands[leader]), int(hands[1 - leader]))


COLUMNS_DOC = ("leader (Int8, the first leader's seat), lead_tricks (Int8, the tricks he took in play), "
               "dd_tricks (Int8, his double-dummy tricks from the deal).")


def _columns(hands, leaders, got):
    import numpy as np

    from cardsim.games.base import DDColumns

    dd = np.array([solve(h, int(s)) for h, s in zip(hands, leaders)], dtype=np.int8)
    played = np.ones(len(leaders), dtype=bool)
    return DDColumns({"leader": np.asarray(leaders, dtype=np.int8), "lead_tricks": np.asarray(got, dtype=np.int8),
                      "dd_tricks": dd}, played)


def frame(records, every_denomination):
    """DD columns (:data:`COLUMNS_DOC`) of replayed Duel records (Duel has one denomination)."""
    from cardsim.games.dd_tools import token_bits

    from .features import FEATURES

    hands = [[token_bits(h, FEATURES.parse_card) for h in r["hands"]] for r in records]
    leaders = [(r["dealer"] + 1) % 2 for r in records]
    got = [r["result"]["tricks"][s] for r, s in zip(records, leaders)]
    return _columns(hands, leaders, got)


def deals(seed, deal_ids, setup, every_denomination, play):
    """The same columns for independent deals as the engine plays them (rows ``play(seed,
    deal_ids, setup)``): hands from its dealing."""
    import numpy as np

    from cardsim.rng import deal_key, seed_streams

    from . import engine

    rows = play(seed, deal_ids, setup)
    hands = np.zeros((len(deal_ids), 2), dtype=np.uint64)
    streams = np.zeros((engine.N_STREAMS, 1), dtype=np.uint64)
    deck = np.zeros(8, dtype=np.int64)
    for k, i in enumerate(deal_ids):
        seed_streams(streams, np.uint64(deal_key(np.uint64(seed), np.int64(i))))
        engine.deal_cards(streams, np.int64(-1), deck, hands[k])
    leaders = (rows["dealer"].astype(np.int64) + 1) % 2
    got = np.where(leaders == 0, rows["tricks_0"], rows["tricks_1"])
    return _columns([[int(x) for x in h] for h in hands], leaders, got)


def describe(record, row) -> str:
    return (f"seat {row.leader} leads: double-dummy {row.dd_tricks} tricks of 4; "
            f"played: {row.lead_tricks}")
