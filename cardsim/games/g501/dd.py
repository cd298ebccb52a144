"""501's double-dummy hooks (:class:`cardsim.games.base.DDHooks`, used by :mod:`cardsim.dd`,
``cardsim dd``, :mod:`cardsim.dd.bench` and :mod:`cardsim.analysis.quality`).

What is solved (docs/RULES.md §1.5-§1.7): :mod:`cardsim.dd.g501`, the declarer's maximum deal
points (card points + effective marriages) from the hands after the talon and the gifts, the
contract's trump, the first active player left of the dealer leading.
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.games.base import DDHooks

COLUMNS_DOC = ("trump (category S C D H NT), target (Int16, points), points (Int16, the declarer's "
               "deal points in play: cards + effective marriages), dd_points (Int16, his DD deal points "
               "for the contract's trump), all <NA> when not played; with every_denomination: dd_points_<X> "
               "(Int16) for X in S C D H NT (the same hands after the gifts, trump X).")


def positions(records):
    """Play-start positions of 501 records (docs/RULES.md §1.4-§1.5).

    Returns ``(hands uint64[n, 3], decl int64[n], trump int64[n], played bool[n])``: the hands
    after the talon and the gifts by player in play order (player 0 = the first active seat
    left of the dealer, who leads), the declarer's player number, the trump (0..3, 4 = NT).
    Rows of deals not played (all passed, abandoned) are zeros with ``played`` False."""
    from cardsim.cards import RANKS_501, parse_card
    from cardsim.dd import DENOMS, token_bits as _bits

    parse = lambda t: parse_card(t, RANKS_501)  # noqa: E731
    n = len(records)
    hands = np.zeros((n, 3), dtype=np.uint64)
    decl = np.zeros(n, dtype=np.int64)
    trump = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=bool)
    for i, r in enumerate(records):
        c = r.get("contract")
        if not c or c.get("abandon"):
            continue
        seats, dealer, d = r["seats"], r["dealer"], r["result"]["declarer"]
        by_seat = [_bits(h, parse) for h in r["hands"]]
        by_seat[d] |= _bits(r["talon"], parse)
        for seat, card in c["give"].items():
            b = 1 << parse(card)
            by_seat[d] &= ~b
            by_seat[int(seat)] |= b
        order = [(dealer + 1 + k) % seats for k in range(3)]
        hands[i] = [by_seat[s] for s in order]
        decl[i] = order.index(d)
        trump[i] = DENOMS.index(c["trump"])
        played[i] = True
    return hands, decl, trump, played


def _solver():
    from cardsim.dd import g501

    return g501.solve_batch, g501.new_table


def frame(records, every_denomination):
    """DD columns of replayed 501 records (:data:`COLUMNS_DOC`)."""
    from cardsim.dd import DENOMS, deal_id, solve_played, typed_frame

    hands, decl, trump, played = positions(records)
    n = len(records)

    def solve(trumps):
        return solve_played("501", _solver(), hands, decl, trumps, played).astype(np.int16)

    res = [r["result"] for r in records]
    cols = {
        "deal": np.array([deal_id(r) for r in records], dtype=np.int64),
        "declarer": np.array([x["declarer"] if p else -1 for x, p in zip(res, played)], dtype=np.int8),
        "trump": np.where(played, trump, -1).astype(np.int8),
        "target": np.array([x["target"] or 0 if p else 0 for x, p in zip(res, played)], dtype=np.int16),
        "points": np.array([x["points"][x["declarer"]] if p else 0 for x, p in zip(res, played)], dtype=np.int16),
        "dd_points": solve(trump),
    }
    cols["dd_made"] = played & (cols["dd_points"] >= cols["target"])
    if every_denomination:
        for t in range(5):
            cols[f"dd_points_{DENOMS[t]}"] = solve(np.full(n, t))
    return typed_frame(cols, played)


def describe(record, row) -> str:
    """``cardsim dd``'s text for one 501 record and its DD row (solved with every_denomination)."""
    import pandas as pd

    from cardsim.dd import DENOMS, table_row as _row

    if pd.isna(row.declarer):
        return "no play: every player passed or the declarer abandoned"
    lines = ["The declarer's double-dummy deal points (card points + effective marriages, docs/RULES.md "
             "§1.5-§1.7)",
             "from the hands after the talon and the gifts, the first active seat left of the dealer "
             "leading, by trump:",
             _row("trump", DENOMS, 5),
             _row("points", [int(row[f"dd_points_{d}"]) for d in DENOMS], 5),
             f"contract: trump {row.trump}, target {row.target}, by seat {row.declarer}: "
             f"DD {row.dd_points} points ({'reaches' if row.dd_made else 'short of'} the target); "
             f"played: {row.points} points, {'made' if row.points >= row.target else 'failed'}"]
    return "\n".join(lines)


def bench(seed: int, n: int) -> str:
    """The DD benchmark's line: the played deals of ``0 .. n-1`` solved once (first deal untimed,
    the table starting empty)."""
    import cardsim
    from cardsim.dd import g501

    h, d, t, played = positions(cardsim.records("501", range(n), seed))
    h, d, t = h[played], d[played], t[played]
    out = np.zeros(len(h), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    g501.solve_batch(h[:1], d[:1], t[:1], *g501.new_table(), out[:1], stats)
    keys, bounds = g501.new_table()
    stats[:] = 0
    start = time.perf_counter()
    g501.solve_batch(h, d, t, keys, bounds, out, stats)
    ms = (time.perf_counter() - start) / max(len(h), 1) * 1000
    return f"501: {ms:.2f} ms per deal ({len(h)} played deals, {stats[0] / len(h):,.0f} nodes per deal)"


def quality(names, seed, ids, rows) -> list:
    """Per strategy in ``names``: the declarer's deal points in play against DD on deals ``ids``
    (the talon changes hands with the auction: one solve per deal and strategy).  The band and
    the level are taken from the target (its lower ten)."""
    from cardsim.dd import solve_deals

    frames = []
    for name in names:
        df = solve_deals("501", ids, seed, name)
        played = df.declarer.notna().to_numpy()
        den, level = df.trump.cat.codes.to_numpy(), df.target.to_numpy(np.int64, na_value=0) // 10 * 10
        got, dd, need = (df[c].to_numpy(np.int64, na_value=0) for c in ("points", "dd_points", "target"))
        frames.append(rows(name, ids, played, den, level, need, got, dd, got >= need, dd >= need))
    return frames


DD = DDHooks(frame, COLUMNS_DOC, bench=bench, quality=quality, unit="deal points", describe=describe)
