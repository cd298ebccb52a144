"""docs/RECORDS.md records of simulated 501 deals, from the engine's own trace (no second engine)."""
from __future__ import annotations

import numpy as np

from cardsim.cards import card_str, cards_of
from cardsim.games.base import OptionError, Setup
from cardsim.games.source import source_of
from cardsim.games.g501 import engine as E
from cardsim.games.g501.chunks import check_setup, start_scores
from cardsim.games.g501.constants import (
    BLIND_FLAG, DECLARE_FLAG, RANKS, T_CALLS, T_CONTRACT, T_NCALLS, T_NPLAY, T_PLAY,
    TRACE_LEN, DENOMINATIONS,
)
from cardsim.games.g501.rules import next_active
from cardsim.rng import check_seed, deal_key, match_key
from cardsim.text import quote


def call_token(code: int) -> str:
    """Trace code -> docs/RECORDS.md call: ``P``, ``70`` or ``B70``."""
    if code == 0:
        return "P"
    if code >= BLIND_FLAG:
        return f"B{code - BLIND_FLAG}"
    return str(code)


def result_from_engine(res: np.ndarray, seats: int, before: list[int]) -> dict:
    """The docs/RECORDS.md ``result`` of a deal from play_deal's result vector."""
    declarer = int(res[E.R_DECLARER])
    void = bool(res[E.R_VOID])
    abandoned = bool(res[E.R_ABANDONED])
    played = bool(res[E.R_PLAYED])
    cards = [int(res[E.R_CARDS + s]) for s in range(seats)]
    marr = [int(res[E.R_MARR + s]) for s in range(seats)]
    delta = [int(res[E.R_DELTA + s]) for s in range(seats)]
    after = [b + d for b, d in zip(before, delta)]
    over = any(a <= 0 for a in after)
    low = min(after)
    return {
        "game": "501",
        "declarer": None if void else declarer,
        "contract": None if void else int(res[E.R_BID]),
        "target": int(res[E.R_TARGET]) if played else None,
        "blind": bool(res[E.R_BLIND]),
        "abandoned": abandoned,
        "trump": DENOMINATIONS[int(res[E.R_TRUMP])] if played else None,
        "cards": cards,
        "marriages": marr,
        "points": [c + m for c, m in zip(cards, marr)],
        "made": bool(res[E.R_MADE]) if played else None,
        "delta": delta,
        "after": {"scores": after},
        "game_over": over,
        "winners": [s for s in range(seats) if over and after[s] == low],
    }


def record_of(tr, res, dealer: int, hands, talon, seats: int, before: list[int], with_before: bool) -> dict:
    """The docs/RECORDS.md record (with ``result``, without ``source``) of one deal from its trace
    (int32[TRACE_LEN]), result vector (int64[N_RES]), dealer, hands (uint64[4]) and talon;
    ``before``: every seat's score before the deal, written as ``before`` when ``with_before``."""
    rec = {"game": "501", "seats": seats, "dealer": dealer}
    if with_before:
        rec["before"] = {"scores": list(before)}
    rec["hands"] = [[card_str(c, RANKS) for c in cards_of(int(hands[s]))] for s in range(seats)]
    rec["talon"] = [card_str(c, RANKS) for c in cards_of(int(talon))]
    rec["auction"] = [call_token(int(c)) for c in tr[T_CALLS:T_CALLS + tr[T_NCALLS]]]
    if not res[E.R_VOID]:
        decl = int(res[E.R_DECLARER])
        if res[E.R_ABANDONED]:
            rec["contract"] = {"abandon": True}
        else:
            opp1 = next_active(decl, dealer, seats)
            opp2 = next_active(opp1, dealer, seats)
            rec["contract"] = {
                "trump": DENOMINATIONS[int(tr[T_CONTRACT + 1])],
                "target": int(res[E.R_TARGET]),
                "give": {str(opp1): card_str(int(tr[T_CONTRACT + 3]), RANKS),
                         str(opp2): card_str(int(tr[T_CONTRACT + 4]), RANKS)},
            }
    plays = []
    for c in tr[T_PLAY:T_PLAY + tr[T_NPLAY]]:
        c = int(c)
        flag = c >= DECLARE_FLAG
        plays.append(card_str(c - DECLARE_FLAG if flag else c, RANKS) + ("+" if flag else ""))
    rec["play"] = plays
    rec["result"] = result_from_engine(res, seats, before)
    return rec


def make_records(seed: int, deal_ids, setup: Setup, scores=None) -> list[dict]:
    """docs/RECORDS.md records (with ``result``) of deals ``deal_ids`` of ``seed``, exactly as
    ``simulate_chunk`` plays them (same jitted ``play_deal``, run with a trace buffer).

    ``scores`` (one per seat) adds a ``before`` field; absent = every seat at 501.
    """
    check_setup(setup)
    seed_u = np.uint64(check_seed(seed))
    ids = np.asarray(list(deal_ids), dtype=np.int64)
    n = ids.shape[0]
    traces = np.zeros((n, TRACE_LEN), dtype=np.int32)
    dealers = np.zeros(n, dtype=np.int64)
    hands = np.zeros((n, 4), dtype=np.uint64)
    talons = np.zeros(n, dtype=np.uint64)
    results = np.zeros((n, E.N_RES), dtype=np.int64)
    sc = start_scores(setup, scores)
    E.trace_kernel(seed_u, ids, np.int64(setup.seats), setup.strategy_ids.astype(np.int64),
                   setup.params.astype(np.float64), sc, traces, dealers, hands, talons, results)
    seats = setup.seats
    before = [int(x) for x in sc[:seats]]
    out = []
    for i in range(n):
        rec = record_of(traces[i], results[i], int(dealers[i]), hands[i], talons[i], seats, before,
                        scores is not None)
        rec["source"] = source_of(setup, seed_u, ids[i])
        out.append(rec)
    return out


def match_records(seed: int, match: int, setup: Setup, before=None, dealer=None) -> list[dict]:
    """docs/RECORDS.md records (with ``before`` and ``source.match``) of every deal of match ``match``
    of ``seed``, exactly as ``play_matches`` plays it (the same jitted phases, deal by deal, with
    the running scores), so any game-level number can be traced to its deals.  ``before`` /
    ``dealer``: the state the match started from, as given to ``play_matches``."""
    check_setup(setup)
    seed_u = np.uint64(check_seed(seed))
    seats = setup.seats
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer))
                               or not 0 <= dealer < seats):
        raise OptionError(f"dealer must be a seat from 0 to {seats - 1}, got {quote(dealer)}")
    scores = start_scores(setup, before)
    if (scores[:seats] <= 0).any():
        raise OptionError("a game starts with every score above 0 (at 0 or below it is over, docs/RULES.md §1.8)")
    mkey = np.uint64(match_key(seed_u, np.int64(match)))
    deck, hands, streams, res, _, scratch, no_force, _ = E.workspace()
    trace = np.zeros(TRACE_LEN, dtype=np.int32)
    sids = setup.strategy_ids.astype(np.int64)
    params = setup.params.astype(np.float64)
    d = -1 if dealer is None else int(dealer)
    out = []
    for j in range(E.MAX_MATCH_DEALS):
        key = np.uint64(deal_key(mkey, np.int64(j)))
        d, talon = E.shuffle_and_deal(key, np.int64(seats), np.int64(d), deck, hands, streams)
        E.play_deal(hands, np.uint64(talon), d, np.int64(seats), sids, params, scores, streams, res, trace, True, scratch,
                    no_force)
        rec = record_of(trace, res, int(d), hands, talon, seats, [int(x) for x in scores[:seats]], True)
        rec["source"] = source_of(setup, seed_u, j, match=match)
        out.append(rec)
        if E.apply_deltas(res, scores, np.int64(seats)):
            break
        d = (int(d) + 1) % seats
    return out
