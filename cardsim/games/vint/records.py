"""Vint deal records from the engine's trace (docs/RECORDS.md), and the engine's result objects."""
from __future__ import annotations

import numpy as np

from cardsim.cards import card_str
from cardsim.games.source import source_of
from cardsim.rng import check_seed, deal_key, match_key

from . import engine
from .line import start_state
from .rules import (DENOMINATIONS, PASS, RANKS, S_ABOVE, S_ACES, S_AFTER_BELOW, S_AFTER_GAMES, S_BELOW,
                    S_BID_SLAM, S_CROSSING, S_GAME, S_GAME_WON_BY, S_HONOURS, S_PENALTY, S_RUBBER_WON_BY,
                    S_SLAM, S_TOTAL, S_TRICKS, call_denomination, call_level)


def call_str(call: int) -> str:
    """Token of a call number (0 = ``"P"``, 12 = ``"3C"``)."""
    if call == PASS:
        return "P"
    return f"{call_level(call)}{DENOMINATIONS[call_denomination(call)]}"


def _pair(score, i):
    return [int(score[i]), int(score[i + 1])]


def result_from_score(score, info, below, games) -> dict:
    """The docs/RECORDS.md ``result`` of a deal from the engine's score vector and info."""
    if info[engine.I_CONTRACT] == PASS:
        zero = [0, 0]
        return {"game": "vint", "declarer": None, "contract": None, "tricks": list(zero), "below": list(zero),
                "above": list(zero),
                "bonuses": {k: list(zero) for k in ("slam", "bid_slam", "honours", "aces", "penalty", "game")},
                "total": list(zero), "game_won_by": None, "crossing_trick": None, "rubber_won_by": None,
                "after": {"below": [int(b) for b in below], "games": [int(g) for g in games]}}
    nullable = lambda v: None if v < 0 else int(v)  # noqa: E731
    return {
        "game": "vint",
        "declarer": int(info[engine.I_DECLARER]),
        "contract": call_str(int(info[engine.I_CONTRACT])),
        "tricks": _pair(score, S_TRICKS),
        "below": _pair(score, S_BELOW),
        "above": _pair(score, S_ABOVE),
        "bonuses": {"slam": _pair(score, S_SLAM), "bid_slam": _pair(score, S_BID_SLAM),
                    "honours": _pair(score, S_HONOURS), "aces": _pair(score, S_ACES),
                    "penalty": _pair(score, S_PENALTY), "game": _pair(score, S_GAME)},
        "total": _pair(score, S_TOTAL),
        "game_won_by": nullable(score[S_GAME_WON_BY]),
        "crossing_trick": int(score[S_CROSSING]) or None,
        "rubber_won_by": nullable(score[S_RUBBER_WON_BY]),
        "after": {"below": _pair(score, S_AFTER_BELOW), "games": _pair(score, S_AFTER_GAMES)},
    }


def trace_record(key, setup, dealer=-1, below=(0, 0), games=(0, 0), forced=None) -> dict:
    """Play the deal of ``key`` with tracing and return its record (with ``result``); ``forced``:
    int64[3] as for ``engine.run_deal`` (None: nothing forced)."""
    hands, calls, plays, score, info, rows = engine.trace_arrays()
    below_a = np.array(below, dtype=np.int64)
    games_a = np.array(games, dtype=np.int64)
    dealer = int(engine.trace_deal(np.uint64(key), dealer, setup.strategy_ids, setup.params, below_a, games_a,
                                   engine.BASE_DECK, hands, calls, plays, score, info, rows,
                                   engine.NO_FORCE.copy() if forced is None else forced))
    # Hands in the order the cards were dealt: re-deal the same deck to recover that order.
    deck = np.empty(52, dtype=np.int64)
    engine.deal_cards(np.uint64(key), dealer, engine.BASE_DECK, deck, np.zeros(4, dtype=np.uint64),
                      np.zeros(1, dtype=np.uint64))
    order = [[] for _ in range(4)]
    for k in range(52):
        order[(dealer + 1 + k) % 4].append(card_str(int(deck[k]), RANKS))
    record = {"game": "vint", "seats": 4, "dealer": dealer}
    if tuple(below) != (0, 0) or tuple(games) != (0, 0):
        record["before"] = {"below": [int(b) for b in below], "games": [int(g) for g in games]}
    record["hands"] = order
    record["auction"] = [call_str(int(c)) for c in calls[: info[engine.I_NCALLS]]]
    record["play"] = [] if info[engine.I_CONTRACT] == PASS else [card_str(int(c), RANKS) for c in plays]
    record["result"] = result_from_score(score, info, below, games)
    return record


def make_records(seed, deal_ids, setup) -> list[dict]:
    """docs/RECORDS.md records of independent deals ``deal_ids`` of ``seed`` (as simulate plays them)."""
    seed = np.uint64(check_seed(seed))
    return [{**trace_record(deal_key(seed, int(i)), setup), "source": source_of(setup, seed, i)} for i in deal_ids]


def match_records(seed, match, setup, before=None, dealer=None) -> list[dict]:
    """docs/RECORDS.md records (with ``before`` once the line is not clean, and ``source.match``) of
    every deal of rubber ``match`` of ``seed``, exactly as ``play_matches`` plays it (the same deal
    keys, dealers and line, deal by deal), so any rubber-level number can be traced to its deals.
    ``before`` / ``dealer``: the line and first dealer the rubber started from, as given to
    ``play_matches`` (:func:`.line.start_state`; raises OptionError the same way)."""
    below, games, first = start_state(before, dealer)
    seed = np.uint64(check_seed(seed))
    mkey = np.uint64(match_key(seed, np.int64(match)))
    below, games, d = [int(b) for b in below], [int(g) for g in games], int(first)
    out = []
    for j in range(engine.MAX_RUBBER_DEALS):
        rec = trace_record(deal_key(mkey, np.int64(j)), setup, d, below, games)
        rec["source"] = source_of(setup, seed, j, match=match)
        out.append(rec)
        result = rec["result"]
        below, games = result["after"]["below"], result["after"]["games"]
        if result["rubber_won_by"] is not None:
            break
        d = (rec["dealer"] + 1) % 4
    return out
