"""Vint's double-dummy hooks (:class:`cardsim.games.base.DDHooks`, used by :mod:`cardsim.dd`,
``cardsim dd``, :mod:`cardsim.bench.dd` and :mod:`cardsim.analysis.quality`).

What is solved (docs/RULES.md §2.3): DDS through endplay, the whole 4 × 5 table from the 13-card
hands (:mod:`cardsim.games.vint.solver`); ``dd_tricks`` is the declaring side's for the contract.
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.cards import VINT_RANKS, card_str, cards_of, parse_card
from cardsim.games.base import DDColumns, DDHooks, OptionError
from cardsim.games.dd_tools import table_row as _row, token_bits
from cardsim.names import DENOMINATIONS
from cardsim.rng import deal_key

from . import engine
from .replay import run_auction

COLUMNS_DOC = ("level (Int8 1..7), denomination (category S C D H NT), decl_tricks (Int8, tricks the "
               "declaring side took in play), dd_tricks (Int8, the declaring side's DD tricks for the "
               "contract), all <NA> when nobody bid; with every_denomination: dd_<seat>_<denom> (int8, 20 "
               "columns, the whole table, every deal: DD tricks of the side of declarer <seat> 0..3 in "
               "<denom> S C D H NT, the player left of <seat> leading).")


def hands_of(records) -> np.ndarray:
    """The 13-card hands of Vint records: uint64[n, 4] bit sets by seat."""
    return np.array([[token_bits(h, lambda t: parse_card(t, VINT_RANKS)) for h in r["hands"]] for r in records],
                    dtype=np.uint64).reshape(len(records), 4)


def contracts(records) -> np.ndarray:
    """``(declarer, level, denomination, decl_tricks)``: int64[4, n] from Vint records (with
    ``result``); -1 when void."""
    out = np.full((4, len(records)), -1, dtype=np.int64)
    for i, r in enumerate(records):
        res = r["result"]
        if res["declarer"] is not None:
            d = res["declarer"]
            out[:, i] = d, int(res["contract"][0]), DENOMINATIONS.index(res["contract"][1:]), res["tricks"][d % 2]
    return out


def frame(records, every_denomination):
    """DD columns of replayed Vint records (:data:`COLUMNS_DOC`)."""
    return _columns(hands_of(records), *contracts(records), every_denomination)


def engine_hands(seed, deal_ids) -> np.ndarray:
    """The 13-card hands (uint64[n, 4] by seat) of independent deals ``deal_ids`` of ``seed``,
    dealt as the engine deals them (the hands do not depend on the strategies)."""
    hands = np.zeros((len(deal_ids), 4), dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    seed = np.uint64(seed)
    for k, i in enumerate(deal_ids):
        # np.int64(-1), as the engine passes it: a bare -1 would compile deal_cards once more
        engine.deal_cards(np.uint64(deal_key(seed, int(i))), np.int64(-1), engine.BASE_DECK, deck, hands[k], state)
    return hands


def row_contracts(rows) -> tuple:
    """``(declarer, level, denomination, decl_tricks)`` int64[n] each from Vint deal rows, all -1
    when void (as :func:`contracts` of the same deals' records)."""
    decl = rows["declarer"].astype(np.int64)
    void = decl < 0
    got = np.where(decl % 2 == 0, rows["tricks_0"], rows["tricks_1"])
    return tuple(np.where(void, -1, v).astype(np.int64) for v in (decl, rows["level"], rows["denomination"], got))


def deals(seed, deal_ids, setup, every_denomination, play):
    """DD columns of deals ``deal_ids`` of ``seed`` as the engine plays them with ``setup``: the
    contracts from its rows (``play(seed, deal_ids, setup)``), the hands from its dealing (no
    records)."""
    rows = play(seed, deal_ids, setup)
    return _columns(engine_hands(seed, deal_ids), *row_contracts(rows), every_denomination)


def _columns(hands, decl, level, den, got, every_denomination) -> DDColumns:
    """The DD columns of positions ``hands`` (uint64[n, 4]) and contracts (int64[n] each; declarer
    -1: void); with ``every_denomination`` the whole table, a value on every deal."""
    from .solver import dd_tables  # local: the solver's numba modules; a process that only plays never loads them

    n = len(decl)
    cols = {"declarer": decl.astype(np.int8), "level": level.astype(np.int8), "denomination": den.astype(np.int8),
            "decl_tricks": got.astype(np.int8), "dd_tricks": np.full(n, -1, dtype=np.int8)}
    played = cols["declarer"] >= 0
    tables = dd_tables(hands, None if every_denomination else np.where(played, cols["denomination"], -1))
    idx = np.flatnonzero(played)
    cols["dd_tricks"][idx] = tables[idx, cols["declarer"][idx], cols["denomination"][idx]]
    cols["dd_made"] = played & (cols["dd_tricks"] >= cols["level"] + 6)
    table = {}
    if every_denomination:
        table = {f"dd_{s}_{DENOMINATIONS[d]}": tables[:, s, d] for s in range(4) for d in range(5)}
    return DDColumns({**cols, **table}, played, always=tuple(table))


def describe(record, row) -> str:
    """``cardsim dd``'s text for one Vint record and its DD row (solved with every_denomination)."""
    import pandas as pd  # local: pandas, which a worker playing chunks never loads

    lines = ["Double-dummy tricks of the declarer's side (rows: declarer's seat, the seat on his left "
             "leads; docs/RULES.md §2.3)", _row("seat", DENOMINATIONS)]
    for s in range(4):
        lines.append(_row(f"  {s}", [int(row[f"dd_{s}_{d}"]) for d in DENOMINATIONS]))
    if pd.isna(row.declarer):
        lines.append("no contract: every player passed")
    else:
        need = int(row.level) + 6
        lines.append(f"contract {record['result']['contract']} by seat {row.declarer}: DD {row.dd_tricks} tricks "
                     f"(needs {need}: {'makeable' if row.dd_made else 'not makeable'}); "
                     f"played: {row.decl_tricks} tricks, {'made' if row.decl_tricks >= need else 'down'}")
    return "\n".join(lines)


def bench(seed: int, n: int, setup, play) -> str:
    """The DD benchmark's line: DDS whole tables of deals ``0 .. n-1`` of ``seed`` (first deal
    untimed; the hands do not depend on the strategies, so ``setup`` and ``play`` go unused)."""
    from .solver import dd_tables  # local: the solver's numba modules; a process that only plays never loads them

    hands = engine_hands(seed, range(n))
    dd_tables(hands[:1])
    t = time.perf_counter()
    dd_tables(hands)
    ms = (time.perf_counter() - t) / max(n, 1) * 1000
    return f"vint: {ms:.2f} ms per deal (whole 4 x 5 table, DDS CalcAllTables)"


def quality(names, seed, ids, rows, solve, play) -> list:
    """Per strategy in ``names``: its play on deals ``ids`` (rows ``play(name)``) against the whole
    DD table (one table per deal serves every strategy: the 13-card hands do not depend on the
    strategies, so ``solve`` goes unused), with ``right_side`` and ``best_denomination``
    (:mod:`cardsim.analysis.quality`)."""
    from .solver import dd_tables  # local: the solver's numba modules; a process that only plays never loads them

    table = dd_tables(engine_hands(seed, ids)).astype(np.int64)  # [n, declarer seat, denomination]
    side_best = np.stack([table[:, [0, 2]].max(axis=(1, 2)), table[:, [1, 3]].max(axis=(1, 2))], axis=1)
    frames = []
    for name in names:
        decl, level, den, got = row_contracts(play(name))
        played = decl >= 0
        i = np.arange(len(ids))
        d, k = np.where(played, decl, 0), np.where(played, den, 0)
        dd = table[i, d, k]
        frames.append(rows(name, ids, played, den, level, level, got, dd, got >= level + 6, dd >= level + 6,
                           right=side_best[i, d % 2] >= side_best[i, 1 - d % 2],
                           best=dd >= table[i, d].max(axis=1)))
    assert len(DENOMINATIONS) == table.shape[2]
    return frames




def card_values(record) -> dict:
    """The double-dummy trace of a replayed Vint record's play (the ``card_values`` hook of
    :class:`cardsim.games.base.DDHooks`): before every card, DDS's SolveBoard (through endplay)
    on the position as it stands, the cards already on the trick included, gives the tricks to
    come of the side on turn after each of its legal cards; the value is the declaring side's
    tricks won so far + its DD tricks to come."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    from .solver import DDS_STRAIN, pbn_deal  # local: the solver's numba modules; a process that only plays never loads them

    res = record["result"]
    if res.get("declarer") is None or not record.get("play"):
        raise OptionError("the deal has no play to trace (nobody bid)")
    declarer, (_level, denomination) = run_auction(record["auction"], record["dealer"])
    cards = [parse_card(str(t), VINT_RANKS) for t in record["play"]]
    suit_of = "SCDH"  # cardsim's suits 0..3 (cardsim.cards); endplay reads the same letters

    def ep(c):
        return Card(suit_of[c >> 4] + VINT_RANKS[c & 15])

    deal = Deal.from_pbn(pbn_deal(hands_of([record])[0]))
    deal.first = Player((declarer + 1) % 4)
    deal.trump = Denom(DDS_STRAIN[denomination])
    side = declarer % 2
    out = {k: [] for k in ("trick", "seat", "card", "declaring", "value_before", "value_after", "best")}
    won = 0  # the declaring side's tricks so far
    for i, c in enumerate(cards):
        t, k = divmod(i, 4)
        seat = (int(deal.first) + k) % 4
        left = 13 - t  # tricks to come, this one included
        ours = seat % 2 == side
        # SolveBoard's scores are the side on turn's tricks to come; the declaring side's value is
        # what it already won plus its share of the tricks to come
        scores = {}
        for card, tricks in solve_board(deal):
            token = card_str(parse_card(card.rank.abbr + "SHDC"[int(card.suit)], VINT_RANKS),
                             VINT_RANKS)
            scores[token] = won + (tricks if ours else left - tricks)
        mine = card_str(c, VINT_RANKS)
        if mine not in scores:
            raise AssertionError(f"card {i} ({mine}) is not among DDS's legal cards {sorted(scores)}")
        pick = max if ours else min
        before = pick(scores.values())
        out["trick"].append(t + 1)
        out["seat"].append(seat)
        out["card"].append(mine)
        out["declaring"].append(ours)
        out["value_before"].append(before)
        out["value_after"].append(scores[mine])
        out["best"].append(" ".join(sorted((x for x, v in scores.items() if v == before),
                                           key=lambda x: parse_card(x, VINT_RANKS), reverse=True)))
        deal.play(ep(c))
        if k == 3:
            won += int(deal.first) % 2 == side
    if won != res["tricks"][side]:
        raise AssertionError(f"the trace counts {won} tricks for the declaring side, the record {res['tricks'][side]}")
    out["sides"] = (f"seats {side}+{side + 2}", f"seats {1 - side}+{3 - side}")
    return out


def lead_values(records) -> list:
    """The ``lead_values`` hook (:class:`cardsim.games.base.DDHooks`): per replayed Vint record,
    ``{token: tricks}`` of every card of the declarer's left-hand opponent, the defenders' DD
    tricks after he leads it (:func:`cardsim.games.vint.solver.lead_values`, one DDS SolveBoard per deal);
    None for a record without play (nobody bid)."""
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    decl, _level, den, _got = contracts(records)
    played = np.flatnonzero(decl >= 0)
    out = [None] * len(records)
    if len(played) == 0:
        return out
    hands = hands_of([records[i] for i in played])
    values = solver.lead_values(hands, decl[played], den[played])
    for k, i in enumerate(played):
        leader = (int(decl[i]) + 1) % 4
        out[i] = {card_str(c, VINT_RANKS): int(values[k, c]) for c in cards_of(int(hands[k, leader]))}
    return out


DD = DDHooks(frame, COLUMNS_DOC, bench=bench, quality=quality, unit="tricks", describe=describe, deals=deals,
             card_values=card_values, lead_values=lead_values)
