"""Five Hundred's double-dummy hooks (:class:`cardsim.games.base.DDHooks`, used by
:mod:`cardsim.dd`, ``cardsim dd``, :mod:`cardsim.bench.dd` and :mod:`cardsim.analysis.quality`).

What is solved (docs/RULES.md §3.4-§3.5): :mod:`cardsim.games.g500.solver`, the declaring side's maximum
tricks from the hands after the kitty and the discard, the declarer leading.
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.cards import SUITS
from cardsim.games.base import DDColumns, DDHooks, OptionError
from cardsim.games.dd_tools import solve_played, table_row as _row, token_bits as _bits
from cardsim.names import DENOMINATIONS

from .constants import REMAP, UNMAP, card_str, parse_call, parse_card
from .rules import card_suit, legal_plays, remap_hand, trick_winner

COLUMNS_DOC = ("level (Int8 6..10), denomination (category S C D H NT), decl_tricks (Int8, tricks the "
               "declaring side took in play), dd_tricks (Int8, the declaring side's DD tricks for the "
               "contract), all <NA> when thrown in; with every_denomination: dd_tricks_<X> (Int8) for X in "
               "S C D H NT (the same hands after the discard, the declarer leading).")


def positions(records):
    """Play-start positions of Five Hundred records (docs/RULES.md §3.4): ``(hands uint64[n, 4]
    physical ten-card hands by seat, the declarer's after his discard; declarer int64[n];
    denomination int64[n]; played bool[n])``; thrown-in deals are zeros, ``played`` False."""
    n = len(records)
    hands = np.zeros((n, 4), dtype=np.uint64)
    decl = np.zeros(n, dtype=np.int64)
    denom = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=bool)
    for i, r in enumerate(records):
        res = r["result"]
        if res.get("declarer") is None or not r.get("discard"):
            continue
        d = res["declarer"]
        by_seat = [_bits(h, parse_card) for h in r["hands"]]
        by_seat[d] = (by_seat[d] | _bits(r["talon"], parse_card)) & ~_bits(r["discard"], parse_card)
        hands[i] = by_seat
        decl[i] = d
        denom[i] = parse_call(res["contract"]) % 5
        played[i] = True
    return hands, decl, denom, played


def _solver():
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    return solver.solve_batch, solver.new_table


def frame(records, every_denomination):
    """DD columns of replayed Five Hundred records (:data:`COLUMNS_DOC`)."""
    hands, decl, denom, played = positions(records)
    res = [r["result"] for r in records]
    level = np.array([6 + parse_call(x["contract"]) // 5 if p else 0 for x, p in zip(res, played)], dtype=np.int8)
    got = np.array([x["tricks"][x["declarer"] % 2] if p else -1 for x, p in zip(res, played)], dtype=np.int8)
    return _columns(hands, decl, denom, played, level, got, every_denomination)


def row_positions(rows):
    """Play-start positions of Five Hundred deal rows, from their card bit sets (``hand_0..3``
    as dealt, ``kitty``, ``discard``): as :func:`positions` of the same deals' records."""
    decl = rows["declarer"].astype(np.int64)
    played = (decl >= 0) & (rows["discard"] != 0)
    hands = np.stack([rows[f"hand_{s}"] for s in range(4)], axis=1).astype(np.uint64)
    idx = np.flatnonzero(played)
    d = decl[idx]
    hands[idx, d] = (hands[idx, d] | rows["kitty"][idx]) & ~rows["discard"][idx]
    hands[~played] = 0
    return (hands, np.where(played, decl, 0), np.where(played, rows["denomination"], 0).astype(np.int64), played)


def deals(seed, deal_ids, setup, every_denomination, play):
    """DD columns of deals ``deal_ids`` of ``seed`` as the engine plays them with ``setup``, from
    its rows alone (``play(seed, deal_ids, setup)``; they carry the hands, the kitty and the
    discard: no records)."""
    rows = play(seed, deal_ids, setup)
    hands, decl, denom, played = row_positions(rows)
    level = np.where(played, rows["level"], 0).astype(np.int8)
    got = np.where(played, rows["decl_tricks"], -1).astype(np.int8)
    return _columns(hands, decl, denom, played, level, got, every_denomination)


def _columns(hands, decl, denom, played, level, got, every_denomination) -> DDColumns:
    """The DD columns of positions (:func:`positions`) and the contracts' ``level`` and tricks
    taken in play ``got`` (int8[n])."""
    n = len(played)

    def solve(denoms):
        return solve_played("500", _solver(), hands, decl, denoms, played).astype(np.int8)

    cols = {
        "declarer": np.where(played, decl, -1).astype(np.int8),
        "level": level,
        "denomination": np.where(played, denom, -1).astype(np.int8),
        "decl_tricks": got,
        "dd_tricks": solve(denom),
    }
    cols["dd_made"] = played & (cols["dd_tricks"] >= cols["level"])
    if every_denomination:
        for t in range(5):
            cols[f"dd_tricks_{DENOMINATIONS[t]}"] = solve(np.full(n, t))
    return DDColumns(cols, played)


def describe(record, row) -> str:
    """``cardsim dd``'s text for one Five Hundred record and its DD row (solved with every_denomination)."""
    import pandas as pd  # local: pandas, which a worker playing chunks never loads

    if pd.isna(row.declarer):
        return "no play: the deal was thrown in"
    lines = ["The declaring side's double-dummy tricks from the hands after the kitty and the discard, "
             f"seat {row.declarer} leading (docs/RULES.md §3.5), by denomination:",
             _row("denom", DENOMINATIONS),
             _row("tricks", [int(row[f"dd_tricks_{d}"]) for d in DENOMINATIONS]),
             f"contract {record['result']['contract']} by seat {row.declarer}: DD {row.dd_tricks} tricks "
             f"(needs {row.level}: {'makeable' if row.dd_made else 'not makeable'}); "
             f"played: {row.decl_tricks} tricks, {'made' if row.decl_tricks >= row.level else 'down'}"]
    return "\n".join(lines)


def bench(seed: int, n: int, setup, play) -> str:
    """The DD benchmark's line: the played deals of ``0 .. n-1`` (rows ``play(seed, range(n),
    setup)``) solved once (first deal untimed, the table starting empty)."""
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    h, d, t, played = row_positions(play(seed, range(n), setup))
    h, d, t = h[played], d[played], t[played]
    out = np.zeros(len(h), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    solver.solve_batch(h[:1], d[:1], t[:1], *solver.new_table(12), out[:1], stats)
    keys, bounds = solver.new_table()
    stats[:] = 0
    start = time.perf_counter()
    solver.solve_batch(h, d, t, keys, bounds, out, stats)
    ms = (time.perf_counter() - start) / max(len(h), 1) * 1000
    return f"500: {ms:.2f} ms per deal ({len(h)} played deals, {stats[0] / len(h):,.0f} nodes per deal)"


def quality(names, seed, ids, rows, solve, play) -> list:
    """Per strategy in ``names``: the declaring side's tricks in play against DD on deals ``ids``
    (the kitty changes hands with the auction: one solve per deal and strategy, ``solve(name)``)."""
    frames = []
    for name in names:
        df = solve(name)
        played = df.declarer.notna().to_numpy()
        den, level = df.denomination.cat.codes.to_numpy(), df.level.to_numpy(np.int64, na_value=0)
        got, dd = (df[c].to_numpy(np.int64, na_value=0) for c in ("decl_tricks", "dd_tricks"))
        frames.append(rows(name, ids, played, den, level, level, got, dd, got >= level, dd >= level))
    return frames


def card_values(record) -> dict:
    """The double-dummy trace of a replayed Five Hundred record's play (the ``card_values`` hook
    of :class:`cardsim.games.base.DDHooks`): the value is the declaring side's tricks won so far +
    its DD tricks to come.  Before every card, each legal card of the player on turn (a no-trump
    joker led: once per suit it may name) is valued by :func:`cardsim.games.g500.solver.mid_value`, the
    cards already on the trick included."""
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    hands, decl, denom, played = (x[0] for x in positions([record]))
    if not played or not record.get("play"):
        raise OptionError("the deal has no play to trace (thrown in)")
    decl, denom = int(decl), int(denom)
    h = np.array([remap_hand(np.uint64(x), np.int64(denom)) for x in hands], dtype=np.uint64)
    keys, bounds = solver.new_table()
    moves = np.zeros((42, solver.MAX_MOVES), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    side = decl % 2
    out = {k: [] for k in ("trick", "seat", "card", "declaring", "value_before", "value_after", "best")}
    trick = np.zeros(4, dtype=np.int64)
    leader, pos, led, won = decl, 0, -1, 0

    def name(c, s):
        return card_str(int(UNMAP[denom, c])) + ("" if s < 0 else "=" + SUITS[s])

    for i, token in enumerate(record["play"]):
        written, _, named = str(token).partition("=")
        card = int(REMAP[denom, parse_card(written)])
        named = SUITS.index(named.upper()) if named else -1
        seat = (leader + pos) % 4
        left = 10 - i // 4
        legal = int(legal_plays(h[seat], np.int64(denom), np.int64(led if pos else -1)))
        values = {}
        for c in (c for c in range(64) if legal >> c & 1):
            joker_led = pos == 0 and card_suit(np.int64(c), np.int64(denom)) < 0
            for s in (range(4) if joker_led else (-1,)):
                h2 = h.copy()
                h2[seat] &= ~np.uint64(1 << c)
                trick[pos] = c
                lead = led if pos else (s if joker_led else int(card_suit(np.int64(c), np.int64(denom))))
                t0 = solver.mid_value(h2, trick, pos + 1, leader, lead, denom, keys, bounds, moves, stats)
                values[(c, s)] = won + (t0 if side == 0 else left - t0)
        ours = seat % 2 == side
        before = (max if ours else min)(values.values())
        key = (card, named)
        if key not in values:
            raise AssertionError(f"card {i} ({token}) is not a legal card of seat {seat}")
        out["trick"].append(i // 4 + 1)
        out["seat"].append(seat)
        out["card"].append(name(*key))
        out["declaring"].append(ours)
        out["value_before"].append(before)
        out["value_after"].append(values[key])
        out["best"].append(" ".join(name(*k) for k in sorted(values, reverse=True) if values[k] == before))
        # the card played: the trick goes on, or ends with its winner leading the next
        h[seat] &= ~np.uint64(1 << card)
        trick[pos] = card
        if pos == 0:
            led = named if named >= 0 else int(card_suit(np.int64(card), np.int64(denom)))
        pos += 1
        if pos == 4:
            leader = (leader + int(trick_winner(trick, np.int64(denom), np.int64(led)))) % 4
            won += leader % 2 == side
            pos, led = 0, -1
    if won != record["result"]["tricks"][side]:
        raise AssertionError(f"the trace counts {won} tricks for the declaring side, the record "
                             f"{record['result']['tricks'][side]}")
    out["sides"] = (f"seats {side}+{side + 2}", f"seats {1 - side}+{3 - side}")
    return out


DD = DDHooks(frame, COLUMNS_DOC, bench=bench, quality=quality, unit="tricks", describe=describe, deals=deals,
             card_values=card_values)
