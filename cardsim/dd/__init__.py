"""Double-dummy (DD) results: what each deal is worth with every hand open (issue 12).

Entry points (all return one row per deal; columns are documented in :data:`COLUMNS_DOC`):

* :func:`solve_deals` ``(game, deal_ids, seed=0, strategies=None, seats=None, rules=None,
  every_denomination=False)``: the deals ``simulate`` plays (same seed, strategies, rules);
* :func:`add_dd` ``(df, game, seed=0, ...)``: a ``simulate`` frame with the DD columns joined
  on ``deal`` (DD costs far more than playing: sample first, e.g. ``df.sample(2000)``);
* :func:`solve_records` ``(records, every_denomination=False)``: docs/RECORDS.md records (replayed
  first, so anyone's records work).

What is solved, per game (the position play starts from, the contract the engine played):

* Vint (docs/RULES.md §2.3): DDS through endplay, the whole 4 × 5 table from the 13-card hands
  (:mod:`cardsim.dd.vint`); ``dd_tricks`` is the declaring side's for the contract.
* 501 (docs/RULES.md §1.5-§1.7): :mod:`cardsim.dd.g501`, the declarer's maximum deal points (card
  points + effective marriages) from the hands after the talon and the gifts, the contract's
  trump, the first active player left of the dealer leading.
* Five Hundred (docs/RULES.md §3.4-§3.5): :mod:`cardsim.dd.g500`, the declaring side's maximum
  tricks from the hands after the kitty and the discard, the declarer leading.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardsim.games import get_game
from cardsim.games.base import OptionError, RecordError
from cardsim.text import quote

# pandas is imported where a frame is made: the jitted solvers (cardsim.dd.g501, which the 501
# engine imports) load this package in every process that plays, most of which build no frame.
if TYPE_CHECKING:
    import pandas as pd

DENOMS = ("S", "C", "D", "H", "NT")
"""Denomination / trump letters by index (all three games number them S C D H NT = 0..4)."""

COLUMNS_DOC = {
    "common": "deal (Int64, the deal number; <NA> when the record has no source), declarer (Int8 seat; "
              "<NA> when the deal was not played: void, thrown in, all passed or abandoned), dd_made "
              "(boolean: the DD result reaches the contract; <NA> when not played).  As in every cardsim "
              "frame (cardsim.frames), a value that does not exist on a deal is <NA>, never -1, and "
              "denominations / trumps are ordered categoricals S < C < D < H < NT.",
    "vint": "level (Int8 1..7), denomination (category S C D H NT), decl_tricks (Int8, tricks the "
            "declaring side took in play), dd_tricks (Int8, the declaring side's DD tricks for the "
            "contract), all <NA> when nobody bid; with every_denomination: dd_<seat>_<denom> (int8, 20 "
            "columns, the whole table, every deal: DD tricks of the side of declarer <seat> 0..3 in "
            "<denom> S C D H NT, the player left of <seat> leading).",
    "501": "trump (category S C D H NT), target (Int16, points), points (Int16, the declarer's "
           "deal points in play: cards + effective marriages), dd_points (Int16, his DD deal points "
           "for the contract's trump), all <NA> when not played; with every_denomination: dd_points_<X> "
           "(Int16) for X in S C D H NT (the same hands after the gifts, trump X).",
    "500": "level (Int8 6..10), denomination (category S C D H NT), decl_tricks (Int8, tricks the "
           "declaring side took in play), dd_tricks (Int8, the declaring side's DD tricks for the "
           "contract), all <NA> when thrown in; with every_denomination: dd_tricks_<X> (Int8) for X in "
           "S C D H NT (the same hands after the discard, the declarer leading).",
}


def _typed(cols: dict, played: np.ndarray, always=()) -> pd.DataFrame:
    """The user frame of raw DD columns (codes as the solvers give them): ``deal`` Int64 (<NA>
    below 0), ``denomination`` / ``trump`` ordered categoricals, ``dd_made`` boolean, every other
    column nullable of its own width, <NA> where the deal was not ``played``; columns named in
    ``always`` have a value on every deal and keep their numpy dtype."""
    from cardsim.frames import DENOMINATIONS, nullable_bool, nullable_int, ordered_categorical

    out = {}
    for name, values in cols.items():
        values = np.asarray(values)
        if name in always:
            out[name] = values
        elif name == "deal":
            out[name] = nullable_int(values.astype(np.int64), values < 0)
        elif name in ("denomination", "trump"):
            out[name] = ordered_categorical(values, DENOMINATIONS, ~played)
        elif name == "dd_made":
            out[name] = nullable_bool(values, ~played)
        else:
            out[name] = nullable_int(values, ~played | (values < 0))
    import pandas as pd

    return pd.DataFrame(out)


_TABLES: dict = {}


def _table(game: str):
    """The game's transposition table, allocated once per process and kept across calls (an
    entry holds a whole position, so entries stay valid from one deal to the next)."""
    if game not in _TABLES:
        if game == "501":
            from cardsim.dd import g501
            _TABLES[game] = g501.new_table()
        else:
            from cardsim.dd import g500
            _TABLES[game] = g500.new_table()
    return _TABLES[game]


def _solve_played(game, solve_batch, hands, decl, denoms, played) -> np.ndarray:
    """DD results (int64[n]) of the played positions with ``solve_batch`` (the game's numba
    batch solver) and the game's kept transposition table; -1 where ``played`` is False."""
    keys, bounds = _table(game)
    out = np.full(len(played), -1, dtype=np.int64)
    idx = np.flatnonzero(played)
    got = np.zeros(len(idx), dtype=np.int64)
    solve_batch(hands[idx], decl[idx], np.asarray(denoms)[idx].astype(np.int64), keys, bounds, got,
                np.zeros(1, dtype=np.int64))
    out[idx] = got
    return out


# ---------------------------------------------------------------- positions from records
def _deal_id(record) -> int:
    src = record.get("source")
    if isinstance(src, dict) and isinstance(src.get("deal"), int):
        return src["deal"]
    return -1


def _bits(tokens, parse) -> int:
    h = 0
    for t in tokens:
        h |= 1 << parse(t)
    return h


def _vint_frame(records, every_denomination) -> pd.DataFrame:
    from cardsim.cards import VINT_RANKS, parse_card
    from cardsim.dd.vint import dd_tables

    n = len(records)
    hands = np.zeros((n, 4), dtype=np.uint64)
    cols = {k: np.full(n, -1, dtype=np.int8) for k in ("declarer", "level", "denomination", "decl_tricks", "dd_tricks")}
    for i, r in enumerate(records):
        for s in range(4):
            hands[i, s] = _bits(r["hands"][s], lambda t: parse_card(t, VINT_RANKS))
        res = r["result"]
        if res["declarer"] is not None:
            d = res["declarer"]
            cols["declarer"][i] = d
            cols["level"][i] = int(res["contract"][0])
            cols["denomination"][i] = DENOMS.index(res["contract"][1:])
            cols["decl_tricks"][i] = res["tricks"][d % 2]
    played = cols["declarer"] >= 0
    tables = dd_tables(hands, None if every_denomination else np.where(played, cols["denomination"], -1))
    idx = np.flatnonzero(played)
    cols["dd_tricks"][idx] = tables[idx, cols["declarer"][idx], cols["denomination"][idx]]
    cols["dd_made"] = played & (cols["dd_tricks"] >= cols["level"] + 6)
    raw = {"deal": np.array([_deal_id(r) for r in records], dtype=np.int64), **cols}
    table = {}
    if every_denomination:
        table = {f"dd_{s}_{DENOMS[d]}": tables[:, s, d] for s in range(4) for d in range(5)}
    return _typed({**raw, **table}, played, always=tuple(table))


def positions_501(records):
    """Play-start positions of 501 records (docs/RULES.md §1.4-§1.5).

    Returns ``(hands uint64[n, 3], decl int64[n], trump int64[n], played bool[n])``: the hands
    after the talon and the gifts by player in play order (player 0 = the first active seat
    left of the dealer, who leads), the declarer's player number, the trump (0..3, 4 = NT).
    Rows of deals not played (all passed, abandoned) are zeros with ``played`` False."""
    from cardsim.cards import RANKS_501, parse_card

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


def _501_frame(records, every_denomination) -> pd.DataFrame:
    from cardsim.dd import g501

    hands, decl, trump, played = positions_501(records)
    n = len(records)

    def solve(trumps):
        return _solve_played("501", g501.solve_batch, hands, decl, trumps, played).astype(np.int16)

    res = [r["result"] for r in records]
    cols = {
        "deal": np.array([_deal_id(r) for r in records], dtype=np.int64),
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
    return _typed(cols, played)


def positions_500(records):
    """Play-start positions of Five Hundred records (docs/RULES.md §3.4): ``(hands uint64[n, 4]
    physical ten-card hands by seat, the declarer's after his discard; declarer int64[n];
    denomination int64[n]; played bool[n])``; thrown-in deals are zeros, ``played`` False."""
    from cardsim.games.g500.constants import parse_call, parse_card

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


def _500_frame(records, every_denomination) -> pd.DataFrame:
    from cardsim.dd import g500

    hands, decl, denom, played = positions_500(records)
    n = len(records)

    def solve(denoms):
        return _solve_played("500", g500.solve_batch, hands, decl, denoms, played).astype(np.int8)

    res = [r["result"] for r in records]
    from cardsim.games.g500.constants import parse_call

    level = np.array([6 + parse_call(x["contract"]) // 5 if p else 0 for x, p in zip(res, played)], dtype=np.int8)
    cols = {
        "deal": np.array([_deal_id(r) for r in records], dtype=np.int64),
        "declarer": np.where(played, decl, -1).astype(np.int8),
        "level": level,
        "denomination": np.where(played, denom, -1).astype(np.int8),
        "decl_tricks": np.array([x["tricks"][x["declarer"] % 2] if p else -1 for x, p in zip(res, played)],
                                dtype=np.int8),
        "dd_tricks": solve(denom),
    }
    cols["dd_made"] = played & (cols["dd_tricks"] >= cols["level"])
    if every_denomination:
        for t in range(5):
            cols[f"dd_tricks_{DENOMS[t]}"] = solve(np.full(n, t))
    return _typed(cols, played)


# ---------------------------------------------------------------- public API
def solve_records(records, every_denomination: bool = False) -> pd.DataFrame:
    """DD columns (:data:`COLUMNS_DOC`) of docs/RECORDS.md records of one game, one row each in order.

    Each record is replayed first (docs/RULES.md checks; its ``result`` recomputed), so records
    written by anyone work; raises :class:`RecordError` for a bad one, :class:`OptionError`
    for records of several games.  ``every_denomination`` adds the DD result in each of the five
    denominations (Vint: the whole 4 × 5 table), five times the work.
    """
    import cardsim

    records = list(records)
    if not records:
        raise OptionError("no records to solve")
    checked = []
    for i, r in enumerate(records):
        try:
            result = cardsim.replay(r)
        except RecordError as exc:
            raise RecordError(f"record {i}: {exc.describe()}") from None
        checked.append({**r, "result": result})
    games = {r["game"] for r in checked}
    if len(games) != 1:
        raise OptionError(f"records of one game at a time, got {', '.join(sorted(games))}")
    game = games.pop()
    if game == "vint":
        return _vint_frame(checked, every_denomination)
    if game == "501":
        return _501_frame(checked, every_denomination)
    return _500_frame(checked, every_denomination)


def solve_deals(game, deal_ids, seed=0, strategies=None, seats=None, rules=None,
                every_denomination: bool = False) -> pd.DataFrame:
    """DD columns (:data:`COLUMNS_DOC`) of deals ``deal_ids`` of ``seed`` as ``simulate`` plays
    them with the same strategies, seats and rules; one row per deal id, in order."""
    import cardsim

    spec = get_game(game)
    records = cardsim.records(spec.name, deal_ids, seed, strategies, seats, rules)
    if not records:
        raise OptionError("no deals to solve")
    if spec.name == "vint":
        return _vint_frame(records, every_denomination)
    if spec.name == "501":
        return _501_frame(records, every_denomination)
    return _500_frame(records, every_denomination)


def _check_run_of(df: pd.DataFrame, game: str, seed) -> None:
    """Refuse a frame whose manifest (``df.attrs``, kept by ``simulate`` and ``read_dataset``)
    names another game or seed, or a play_match frame: its deal numbers would be solved as
    other deals, silently."""
    if "rubber" in df.columns or "match" in df.columns:
        raise OptionError("add_dd takes simulate frames; a play_match frame numbers its deals within "
                          "matches: solve them with solve_records(cardsim.match_records(game, m, seed=...))")
    for key, given in (("game", game), ("seed", seed)):
        held = df.attrs.get(key)
        if held is not None and str(held) != str(given):
            raise OptionError(f"the frame was simulated with {key}={quote(held)}, not {quote(given)}; "
                              f"pass {key}={quote(held)}")


def add_dd(df: pd.DataFrame, game, seed=0, strategies=None, seats=None, rules=None,
           every_denomination: bool = False) -> pd.DataFrame:
    """``df`` (a ``simulate`` frame of ``game`` and ``seed``, or a sample of one, with its
    ``deal`` column) with the DD columns ``dd_*`` of its deals joined on ``deal``; pass the
    strategies, seats and rules ``df`` was simulated with.  Returns a new frame, ``df``'s index
    kept."""
    if "deal" not in df.columns:
        raise OptionError("add_dd needs the frame's deal column")
    _check_run_of(df, get_game(game).name, seed)
    dd = solve_deals(game, [int(d) for d in df["deal"]], seed, strategies, seats, rules, every_denomination)
    extra = dd[[c for c in dd.columns if c.startswith("dd_")]]
    out = df.copy()
    for c in extra.columns:
        out[c] = extra[c].array  # positional, dtype kept (to_numpy would make nullable columns object)
    return out


__all__ = ["solve_deals", "solve_records", "add_dd", "positions_501", "positions_500", "COLUMNS_DOC", "DENOMS"]
