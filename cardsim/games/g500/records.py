"""Five Hundred deal records (docs/RECORDS.md) built from the engine's traces.

The records come from the same jitted :func:`cardsim.games.g500.engine.run_deal` that fills
the rows, run with a trace buffer; nothing here replays the rules.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import cards_of
from cardsim.games.base import OptionError, Setup
from cardsim.games.g500 import engine as E
from cardsim.games.g500.constants import (
    BID_VALUES,
    HJ,
    LJ,
    N_SEATS,
    SCORINGS,
    bid_str,
    card_str,
)
from cardsim.cards import SUITS
from cardsim.games.source import source_of
from cardsim.rng import check_seed


def card_order(card: int) -> int:
    """Sort key for people: jokers first, then hearts, diamonds, clubs, spades, high first."""
    if card == HJ:
        return -2
    if card == LJ:
        return -1
    return (3 - (card >> 4)) * 16 + (15 - (card & 15))


def tokens(hand: int) -> list[str]:
    """Card tokens of a physical hand (uint64 / int), in :func:`card_order`."""
    return [card_str(c) for c in sorted(cards_of(int(hand) & ((1 << 64) - 1)), key=card_order)]


def check_setup(setup: Setup) -> None:
    if setup.seats != N_SEATS:
        raise OptionError(f"500 is played with 4 seats, not {setup.seats}")


def rule_numbers(rules: dict) -> tuple[int, int]:
    """``(scoring index, target)`` of parsed rule options."""
    return SCORINGS.index(rules.get("scoring", "quebec")), int(rules.get("target", 1000))


def result_of(res, rules: dict) -> dict:
    """The docs/RECORDS.md ``result`` object of one engine result vector."""
    before = [int(res[E.R_BEFORE0]), int(res[E.R_BEFORE1])]
    delta = [int(res[E.R_DELTA0]), int(res[E.R_DELTA1])]
    decl = int(res[E.R_DECLARER])
    winner = int(res[E.R_WINNER])
    bid = int(res[E.R_BID])
    return {
        "game": "500",
        "declarer": decl if decl >= 0 else None,
        "contract": bid_str(bid) if bid >= 0 else None,
        "value": int(BID_VALUES[bid]) if bid >= 0 else 0,
        "tricks": [int(res[E.R_TRICKS0]), int(res[E.R_TRICKS1])],
        "made": bool(res[E.R_MADE]) if bid >= 0 else None,
        "delta": delta,
        "game_over": winner >= 0,
        "winner": winner if winner >= 0 else None,
        "after": {"scores": [before[0] + delta[0], before[1] + delta[1]]},
    }


def record_of(res, tr, setup: Setup, scores=None) -> dict:
    """The docs/RECORDS.md record (with ``result``, without ``source``) of one deal from its engine
    result vector ``res`` (int64[R_LEN]) and trace ``tr`` (int64[TRACE_LEN]); ``scores``
    ([team0, team1]) adds ``before``."""
    scoring, target = rule_numbers(setup.rules)
    rec = {
        "game": "500",
        "seats": 4,
        "dealer": int(res[E.R_DEALER]),
        "rules": {"scoring": SCORINGS[scoring], "target": target},
    }
    if scores is not None:
        rec["before"] = {"scores": [int(scores[0]), int(scores[1])]}
    rec["hands"] = [tokens(np.uint64(res[E.R_HAND0 + s])) for s in range(4)]
    rec["talon"] = tokens(np.uint64(res[E.R_KITTY]))
    rec["auction"] = [bid_str(int(c)) for c in tr[E.T_CALLS:E.T_CALLS + res[E.R_NCALLS]]]
    play = []
    if res[E.R_BID] >= 0:
        rec["discard"] = tokens(np.uint64(res[E.R_DISCARD]))
        for k in range(40):
            tok = card_str(int(tr[E.T_PLAY + k]))
            if tr[E.T_NAMED + k] >= 0:
                tok += "=" + SUITS[int(tr[E.T_NAMED + k])]
            play.append(tok)
    rec["play"] = play
    rec["result"] = result_of(res, setup.rules)
    return rec


def make_records(seed: int, deal_ids, setup: Setup, scores=None) -> list[dict]:
    """docs/RECORDS.md records (with ``result``) of independent deals ``deal_ids`` of ``seed``,
    exactly as ``simulate_chunk`` plays them.  ``scores`` ([team0, team1]) adds ``before``.

    Raises OptionError for a setup that is not a 4-seat Five Hundred setup.
    """
    check_setup(setup)
    seed_u = np.uint64(check_seed(seed))
    ids = np.asarray(list(deal_ids), dtype=np.int64)
    n = ids.shape[0]
    scoring, target = rule_numbers(setup.rules)
    before = [0, 0] if scores is None else [int(scores[0]), int(scores[1])]
    out = np.zeros((n, E.R_LEN), dtype=np.int64)
    traces = np.zeros((n, E.TRACE_LEN), dtype=np.int64)
    E.trace_kernel(seed_u, ids, setup.strategy_ids.astype(np.int64), setup.params.astype(np.float64),
                   scoring, target, before[0], before[1], out, traces)
    records = []
    for i in range(n):
        rec = record_of(out[i], traces[i], setup, scores)
        rec["source"] = source_of(setup, seed_u, ids[i])
        records.append(rec)
    return records
