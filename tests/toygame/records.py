"""Duel's deal records (the docs/RECORDS.md common fields: game, seats, dealer, hands, play,
result, source) from the engine's trace."""
from __future__ import annotations

import numpy as np

from cardsim.cards import card_str
from cardsim.games.source import source_of
from cardsim.rng import check_seed, deal_key

from . import engine
from .rules import HAND_SIZE, N_CARDS, N_TRICKS, RANKS


def result_of(tricks) -> dict:
    """The ``result`` object: tricks per seat and the winner (None at 2-2)."""
    a, b = int(tricks[0]), int(tricks[1])
    return {"game": "duel", "tricks": [a, b], "winner": 0 if a > b else 1 if b > a else None}


def trace_record(key, setup, dealer=-1, hands=None, forced_lead=-1) -> dict:
    """The record (with ``result``) of the deal of ``key``, or of the given ``hands`` (uint64[2])
    and ``dealer`` played with the streams of ``key``."""
    deck = np.zeros(N_CARDS, dtype=np.int64)
    plays = np.zeros(2 * N_TRICKS, dtype=np.int64)
    tricks = np.zeros(2, dtype=np.int64)
    given = hands is not None
    held = np.array(hands if given else [0, 0], dtype=np.uint64)
    dealer = int(engine.trace(np.uint64(key), np.int64(dealer), given, held, setup.strategy_ids, setup.params,
                              np.int64(forced_lead), deck, plays, tricks))
    if given:
        order = [[card_str(c, RANKS) for c in range(64) if int(held[s]) >> c & 1] for s in range(2)]
    else:
        order = [[], []]
        for k in range(N_CARDS):
            order[(dealer + 1 + k) % 2].append(card_str(int(deck[k]), RANKS))
    assert all(len(h) == HAND_SIZE for h in order)
    return {"game": "duel", "seats": 2, "dealer": dealer, "hands": order,
            "play": [card_str(int(c), RANKS) for c in plays], "result": result_of(tricks)}


def make_records(seed, deal_ids, setup) -> list[dict]:
    """Records of independent deals ``deal_ids`` of ``seed``, as simulate_chunk plays them."""
    seed = np.uint64(check_seed(seed))
    return [{**trace_record(deal_key(seed, int(i)), setup), "source": source_of(setup, seed, int(i))}
            for i in deal_ids]
