"""501's double-dummy hooks (:class:`cardsim.games.base.DDHooks`, used by :mod:`cardsim.dd`,
``cardsim dd``, :mod:`cardsim.bench.dd` and :mod:`cardsim.analysis.quality`).

What is solved (docs/RULES.md §1.5-§1.7): :mod:`cardsim.games.g501.solver`, the declarer's maximum deal
points (card points + effective marriages) from the hands after the talon and the gifts, the
contract's trump, the first active player left of the dealer leading.
"""
from __future__ import annotations

import time

import numpy as np

from cardsim.cards import RANKS_501, card_str, parse_card
from cardsim.games.base import DDColumns, DDHooks, OptionError
from cardsim.games.dd_tools import solve_played, table_row as _row, token_bits as _bits
from cardsim.names import DENOMINATIONS
from cardsim.rng import check_seed

from . import engine as E
from . import rules
from .chunks import check_setup, start_scores
from .constants import T_CONTRACT, TRACE_LEN
from .rules import next_active

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
        trump[i] = DENOMINATIONS.index(c["trump"])
        played[i] = True
    return hands, decl, trump, played


def _solver():
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    return solver.solve_batch, solver.new_table


def frame(records, every_denomination):
    """DD columns of replayed 501 records (:data:`COLUMNS_DOC`)."""
    hands, decl, trump, played = positions(records)
    res = [r["result"] for r in records]
    declarer = np.array([x["declarer"] if p else -1 for x, p in zip(res, played)], dtype=np.int8)
    target = np.array([x["target"] or 0 if p else 0 for x, p in zip(res, played)], dtype=np.int16)
    points = np.array([x["points"][x["declarer"]] if p else 0 for x, p in zip(res, played)], dtype=np.int16)
    return _columns(hands, decl, trump, played, declarer, target, points, every_denomination)


def engine_positions(seed, deal_ids, setup):
    """Play-start positions of independent deals ``deal_ids`` of ``seed`` as the engine plays them
    with ``setup``, from its trace (card bit sets: the hands, the talon and the two gifts) rather
    than from records: ``(hands, decl, trump, played)`` as :func:`positions`, then the declarer's
    seat (int8, -1 when not played), the target (int16) and his deal points in play (int16)."""
    check_setup(setup)
    ids = np.asarray(list(deal_ids), dtype=np.int64)
    n, seats = len(ids), setup.seats
    traces = np.zeros((n, TRACE_LEN), dtype=np.int32)
    dealers = np.zeros(n, dtype=np.int64)
    dealt = np.zeros((n, 4), dtype=np.uint64)
    talons = np.zeros(n, dtype=np.uint64)
    results = np.zeros((n, E.N_RES), dtype=np.int64)
    # the kernel make_records runs (the same play as simulate_chunk), its trace read as bits
    E.trace_kernel(np.uint64(check_seed(seed)), ids, np.int64(seats), setup.strategy_ids.astype(np.int64),
                   setup.params.astype(np.float64), start_scores(setup, None), traces, dealers, dealt, talons,
                   results)
    hands = np.zeros((n, 3), dtype=np.uint64)
    decl = np.zeros(n, dtype=np.int64)
    trump = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=bool)
    declarer = np.full(n, -1, dtype=np.int8)
    target = np.zeros(n, dtype=np.int16)
    points = np.zeros(n, dtype=np.int16)
    for i in range(n):
        res, tr = results[i], traces[i]
        if res[E.R_VOID] or res[E.R_ABANDONED]:
            continue
        dealer, d = int(dealers[i]), int(res[E.R_DECLARER])
        by_seat = [int(dealt[i, s]) for s in range(seats)]
        by_seat[d] |= int(talons[i])
        opp1 = next_active(d, dealer, seats)
        opp2 = next_active(opp1, dealer, seats)
        for seat, card in ((opp1, tr[T_CONTRACT + 3]), (opp2, tr[T_CONTRACT + 4])):
            b = 1 << int(card)
            by_seat[d] &= ~b
            by_seat[int(seat)] |= b
        order = [(dealer + 1 + k) % seats for k in range(3)]
        hands[i] = [by_seat[s] for s in order]
        decl[i] = order.index(d)
        trump[i] = int(tr[T_CONTRACT + 1])
        played[i] = True
        declarer[i] = d
        target[i] = res[E.R_TARGET]
        points[i] = res[E.R_CARDS + d] + res[E.R_MARR + d]
    return hands, decl, trump, played, declarer, target, points


def deals(seed, deal_ids, setup, every_denomination, play):
    """DD columns of deals ``deal_ids`` of ``seed`` as the engine plays them with ``setup``, from
    the engine's card bit sets (:func:`engine_positions`, its own trace kernel: no records, and
    no rows, so ``play`` goes unused)."""
    return _columns(*engine_positions(seed, deal_ids, setup), every_denomination)


def _columns(hands, decl, trump, played, declarer, target, points, every_denomination) -> DDColumns:
    """The DD columns of positions (:func:`positions`), the declarer's seat, the target and his
    deal points in play."""
    n = len(played)

    def solve(trumps):
        return solve_played("501", _solver(), hands, decl, trumps, played).astype(np.int16)

    cols = {
        "declarer": declarer,
        "trump": np.where(played, trump, -1).astype(np.int8),
        "target": target,
        "points": points,
        "dd_points": solve(trump),
    }
    cols["dd_made"] = played & (cols["dd_points"] >= cols["target"])
    if every_denomination:
        for t in range(5):
            cols[f"dd_points_{DENOMINATIONS[t]}"] = solve(np.full(n, t))
    return DDColumns(cols, played)


def describe(record, row) -> str:
    """``cardsim dd``'s text for one 501 record and its DD row (solved with every_denomination)."""
    import pandas as pd  # local: pandas, which a worker playing chunks never loads

    if pd.isna(row.declarer):
        return "no play: every player passed or the declarer abandoned"
    lines = ["The declarer's double-dummy deal points (card points + effective marriages, docs/RULES.md "
             "§1.5-§1.7)",
             "from the hands after the talon and the gifts, the first active seat left of the dealer "
             "leading, by trump:",
             _row("trump", DENOMINATIONS, 5),
             _row("points", [int(row[f"dd_points_{d}"]) for d in DENOMINATIONS], 5),
             f"contract: trump {row.trump}, target {row.target}, by seat {row.declarer}: "
             f"DD {row.dd_points} points ({'reaches' if row.dd_made else 'short of'} the target); "
             f"played: {row.points} points, {'made' if row.points >= row.target else 'failed'}"]
    return "\n".join(lines)


def bench(seed: int, n: int, setup, play) -> str:
    """The DD benchmark's line: the played deals of ``0 .. n-1`` of ``seed`` with ``setup`` (from
    :func:`engine_positions`; ``play`` goes unused) solved once (first deal untimed, the table
    starting empty)."""
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    h, d, t, played = engine_positions(seed, range(n), setup)[:4]
    h, d, t = h[played], d[played], t[played]
    out = np.zeros(len(h), dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    solver.solve_batch(h[:1], d[:1], t[:1], *solver.new_table(), out[:1], stats)
    keys, bounds = solver.new_table()
    stats[:] = 0
    start = time.perf_counter()
    solver.solve_batch(h, d, t, keys, bounds, out, stats)
    ms = (time.perf_counter() - start) / max(len(h), 1) * 1000
    return f"501: {ms:.2f} ms per deal ({len(h)} played deals, {stats[0] / len(h):,.0f} nodes per deal)"


def quality(names, seed, ids, rows, solve, play) -> list:
    """Per strategy in ``names``: the declarer's deal points in play against DD on deals ``ids``
    (the talon changes hands with the auction: one solve per deal and strategy).  The band and
    the level are taken from the target (its lower ten); ``solve(name)`` is the DD frame."""
    frames = []
    for name in names:
        df = solve(name)
        played = df.declarer.notna().to_numpy()
        den, level = df.trump.cat.codes.to_numpy(), df.target.to_numpy(np.int64, na_value=0) // 10 * 10
        got, dd, need = (df[c].to_numpy(np.int64, na_value=0) for c in ("points", "dd_points", "target"))
        frames.append(rows(name, ids, played, den, level, need, got, dd, got >= need, dd >= need))
    return frames


def card_values(record) -> dict:
    """The double-dummy trace of a replayed 501 record's play (the ``card_values`` hook of
    :class:`cardsim.games.base.DDHooks`): the value is the declarer's deal points, those already
    scored (cards won, marriages counted) + his DD points to come.  Before every card
    :func:`cardsim.games.g501.solver.solve_cards` gives the points to come after each legal card of the
    player on turn, the cards already on the trick included (the declarer declaring whenever he
    leads a K or Q of a marriage, as the solver assumes); a K or Q the declarer leads *without*
    declaring its marriage is valued by :func:`cardsim.games.g501.solver.mid_trick` without the marriage
    (its cost then includes the marriage given up).  Best cards of a declaring lead carry ``+``."""
    from . import solver  # local: the solver's numba modules; a process that only plays never loads them

    c = record.get("contract")
    if not c or c.get("abandon") or not record.get("play"):
        raise OptionError("the deal has no play to trace (every player passed or the declarer abandoned)")
    hands, decl, trump, _played = (x[0] for x in positions([record]))
    h = np.array(hands, dtype=np.uint64)
    decl, trump = int(decl), int(trump)
    seats, dealer = record["seats"], record["dealer"]
    order = [(dealer + 1 + k) % seats for k in range(3)]
    keys, bounds = solver.new_table()
    moves = np.zeros(solver.MOVES_SHAPE, dtype=np.int64)
    stats = np.zeros(1, dtype=np.int64)
    out = {k: [] for k in ("trick", "seat", "card", "declaring", "value_before", "value_after", "best")}
    got, won, pending = 0, 0, 0
    leader = 0
    trick = []
    for i, token in enumerate(record["play"]):
        token = str(token)
        declared = token.endswith("+")
        card = parse_card(token.rstrip("+"), RANKS_501)
        p = (leader + len(trick)) % 3
        led = -1 if not trick else trick[0] >> 4
        legal = [x for x in range(64) if int(rules.legal_plays(h[p], led, trump)) >> x & 1]
        vals = np.zeros((1, len(legal)), dtype=np.int64)
        solver.solve_cards(h[None, :].copy(), np.int64(p), np.array(legal, dtype=np.int64), np.int64(leader),
                      np.int64(decl), np.int64(trump), np.int64(won), np.array([pending], dtype=np.int64),
                      np.array(trick, dtype=np.int64), keys, bounds, moves, stats, vals)
        values = {x: got + int(v) for x, v in zip(legal, vals[0])}
        pick = max if p == decl else min
        before = pick(values.values())
        declares = [not trick and p == decl and bool(rules.can_declare(h[p], x)) for x in legal]
        names = {x: card_str(x, RANKS_501) + ("+" if d else "") for x, d in zip(legal, declares)}
        if card not in values:
            raise AssertionError(f"card {i} ({token}) is not a legal card of player {p}")
        # the state after the card: the declaration, the hand, and at the trick's end its winner
        if declared and p == decl:
            got, pending = solver.declare(got, pending, won, card >> 4, trump)
        h[p] &= ~np.uint64(1 << card)
        trick.append(card)
        after = values[card]
        if names[card].endswith("+") and not declared:
            after = solver.mid_trick(h, leader, decl, trump, won, pending, got, trick, (keys, bounds), moves, stats)
        if len(trick) == 3:
            bits = sum(1 << x for x in trick)
            best_card = int(rules.trick_winner(np.uint64(bits), trick[0] >> 4, trump))
            w = (leader + trick.index(best_card)) % 3
            if w == decl:
                (got, pending), won = solver.take(got, pending, bits), 1
            leader, trick = w, []
        out["trick"].append(i // 3 + 1)
        out["seat"].append(order[p])
        out["card"].append(card_str(card, RANKS_501) + ("+" if declared else ""))
        out["declaring"].append(p == decl)
        out["value_before"].append(before)
        out["value_after"].append(int(after))
        out["best"].append(" ".join(names[x] for x in sorted(legal, reverse=True) if values[x] == before))
    if got != record["result"]["points"][order[decl]]:
        raise AssertionError(f"the trace counts {got} points for the declarer, the record "
                             f"{record['result']['points'][order[decl]]}")
    out["sides"] = (f"seat {order[decl]} (the declarer)", "the defenders")
    return out


DD = DDHooks(frame, COLUMNS_DOC, bench=bench, quality=quality, unit="deal points", describe=describe, deals=deals,
             card_values=card_values)
