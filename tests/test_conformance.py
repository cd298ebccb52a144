"""One conformance suite for every game: ``check_game(spec)`` holds a game to the contract of
docs/adding-a-game.md, asking only its :class:`~cardsim.games.base.GameSpec`.

It runs on every game of the registry (``cardsim.games.game_names()``: the built-in games, an
installed entry point, and the toy game Duel registered here from its own package
``tests/toygame``), so a fourth game gets it without a line here:

* ``round_trip``: every strategy that plays without a search or a file, alone and mixed at the
  table, at every seat count: ``replay(record) == record["result"]`` after a trip through JSON;
* ``chunking``: the rows of deals ``a .. b`` are the same bytes in any chunking, numbered by the
  deal, and depend on the seed; ``cardsim.simulate`` gives the same frame for any chunk size and
  number of worker processes;
* ``rows_vs_records``: every row field named like an item of the record's result (``tricks_0``
  for ``tricks[0]``, ``declarer``, ``slam_1`` for ``bonuses.slam[1]``) holds its value (−1 or 0
  where the result has none), and records of any subset of the deals, in any order, are those
  deals' records;
* ``illegal_play``: a played card the seat does not hold, a missing or an extra card, and a
  revoke (one seat's two cards swapped) are refused with a one-line RecordError naming ``play``
  and an index no earlier than the change, never another exception;
* ``dd`` (a game with ``dd`` hooks): the double-dummy frame solved from the engine's rows equals
  the one solved from the deals' records;
* ``matches`` (a game with ``matches`` hooks): match ``m`` depends on ``(seed, m)`` only, its deal
  rows are its deals with the dealer passing left, and its ``matches.records`` (where the game has
  them) replay to those rows, each deal starting from the state the previous one left;
* ``pimc`` (a game with ``pimc`` hooks): the sampled search really searches, bids (and takes a
  talon or kitty) as ``heuristic`` does, every card it plays replays as legal to the rows'
  result, and its rows are the same in any chunking and jobs;
* ``modules``: every module the spec names (``spec.modules``) loads and has what its readers
  call, the hand features lay out every seat count, and a game whose rule files have charts names
  their writer.

Sizes are small (tens of deals): the suite is about the contract, not about statistics.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.analysis import game_module
from cardsim.games import game_names, get_game, register_game, unregister_game
from cardsim.games.base import MODULE_KINDS, GameSpec, RecordError
from cardsim.rules.from_chart import writer as chart_writer

HERE = Path(__file__).parent
SEED = 20_261_206
DEALS = 40
"""Deals per strategy line-up and seat count in the record checks."""
TOY_GAMES = {"duel": "toygame"}
"""Games kept in tests/ (name: package), registered here in this process only."""


# ---------------------------------------------------------------- helpers
def _strategies(spec: GameSpec) -> list[str]:
    """The registered strategies that play without a search or a rule file (the default first)."""
    names = [s.name for s in spec.table.registry.strategies() if not s.search and not s.file]
    return [spec.table.default_strategy] + [n for n in names if n != spec.table.default_strategy]


def _line_ups(spec: GameSpec, seats: int) -> list:
    """Each plain strategy at every seat, and one table of them mixed (seat s plays the s-th)."""
    names = _strategies(spec)
    mixed = [names[(s + 1) % len(names)] for s in range(seats)]
    return names + [mixed]


def _json(record: dict) -> dict:
    return json.loads(json.dumps(record))


def result_items(result: dict) -> dict:
    """``{row field name: value}`` of the items of a record's ``result`` a row may carry: a whole
    number, bool or null under its own name, a list's entries as ``name_0``, ``name_1`` …, and
    the lists inside an object (Vint's ``bonuses``) under their own names.  ``game`` and
    ``after`` (the match state) are left out; so are strings (contracts, trumps), which rows
    keep as codes."""
    out = {}

    def add(key, value):
        if value is None or isinstance(value, (bool, int)):
            out[key] = value
        elif isinstance(value, list) and all(isinstance(v, (bool, int)) for v in value):
            out.update({f"{key}_{i}": v for i, v in enumerate(value)})

    for key, value in result.items():
        if key in ("game", "after"):
            continue
        if isinstance(value, dict):
            for inner, v in value.items():
                add(inner, v)
        else:
            add(key, value)
    return out


def assert_row_is_record(row: np.void, record: dict) -> int:
    """Assert that ``row`` (one engine row) carries ``record``'s dealer and result; returns how
    many result items it compared.  A row field named like a result item holds its value; a
    result item that is null (no declarer, no crossing trick) is −1 or 0 in the row."""
    names = row.dtype.names
    assert int(row["dealer"]) == record["dealer"], (int(row["deal"]), "dealer")
    compared = 0
    for name, value in result_items(record["result"]).items():
        if name not in names:
            continue
        got = row[name].item()
        if value is None:
            assert got in (-1, 0), (int(row["deal"]), name, got, value)
        else:
            assert got == value, (int(row["deal"]), name, got, value)
        compared += 1
    return compared


def _owners(record: dict) -> dict:
    """``{card token: seat}`` of the dealt hands (a talon's or kitty's cards have no owner)."""
    return {card: seat for seat, hand in enumerate(record["hands"]) for card in hand}


def _refused(spec: GameSpec, record: dict, first: int) -> RecordError | None:
    """Replay ``record``: None when it is accepted, else its RecordError, checked to name
    ``play`` at an index no earlier than ``first`` in one line."""
    try:
        spec.play.replay(record)
    except RecordError as exc:
        assert exc.field == "play" and isinstance(exc.index, int) and exc.index >= first, str(exc)
        assert "\n" not in str(exc)
        return exc
    return None


# ---------------------------------------------------------------- the checks
def check_round_trip(spec: GameSpec, n_jobs: int = 2) -> None:
    """Records replay to the engine's result, for every plain strategy and seat count."""
    for seats in spec.table.seat_counts:
        for line_up in _line_ups(spec, seats):
            setup = spec.setup(line_up, seats)
            records = spec.play.make_records(SEED, range(DEALS), setup)
            assert len(records) == DEALS
            for deal, record in enumerate(records):
                record = _json(record)
                assert record["game"] == spec.name and len(record["hands"]) == seats
                assert spec.play.replay(record) == record["result"], (seats, line_up, deal)
                assert cardsim.replay(record) == record["result"]


def check_chunking(spec: GameSpec, n_jobs: int = 2) -> None:
    """The same rows for any chunking, seed by seed; the runner's frame for any chunk size and jobs."""
    for seats in spec.table.seat_counts:
        for strategy in ("random", spec.table.default_strategy):
            setup = spec.setup(strategy, seats)
            whole = spec.play.simulate_chunk(SEED, 100, 120, setup)
            assert whole.dtype == spec.play.row_dtype and whole.dtype.names[:2] == ("deal", "dealer")
            parts = [spec.play.simulate_chunk(SEED, start, count, setup) for start, count in ((100, 7), (107, 80), (187, 33))]
            assert whole.tobytes() == np.concatenate(parts).tobytes(), (seats, strategy)
            assert (whole["deal"] == np.arange(100, 220)).all()
            assert spec.play.simulate_chunk(SEED, 100, 120, setup).tobytes() == whole.tobytes()
            assert spec.play.simulate_chunk(SEED + 1, 100, 120, setup).tobytes() != whole.tobytes()
            assert ((whole["dealer"] >= 0) & (whole["dealer"] < seats)).all()
    assert spec.play.deal_chunk(SEED, 0, 200) == spec.play.deal_chunk(SEED, 0, 200)
    assert spec.play.deal_chunk(SEED, 0, 200) != spec.play.deal_chunk(SEED + 1, 0, 200)
    one = cardsim.simulate(spec.name, 500, seed=SEED, chunk_size=500, n_jobs=1)
    many = cardsim.simulate(spec.name, 500, seed=SEED, chunk_size=137, n_jobs=n_jobs)
    pd.testing.assert_frame_equal(one, many)
    assert (one["deal"].to_numpy() == np.arange(500)).all()


def check_rows_vs_records(spec: GameSpec, n_jobs: int = 2) -> None:
    """Rows and records of the same deals agree; records of a subset are those deals' records."""
    for seats in spec.table.seat_counts:
        for line_up in ("random", spec.table.default_strategy):
            setup = spec.setup(line_up, seats)
            rows = spec.play.simulate_chunk(SEED, 0, DEALS, setup)
            records = spec.play.make_records(SEED, range(DEALS), setup)
            compared = [assert_row_is_record(row, record) for row, record in zip(rows, records)]
            assert min(compared) >= 2, (f"{spec.name}: its rows share no more than {min(compared)} field names "
                                        "with its records' results (docs/adding-a-game.md)")
            subset = [DEALS - 1, 3, 3, 17]
            assert spec.play.make_records(SEED, subset, setup) == [records[i] for i in subset]
    frame = cardsim.simulate(spec.name, DEALS, seed=SEED, n_jobs=1)
    records = cardsim.records(spec.name, [DEALS - 1, 5], seed=SEED)
    assert [r["dealer"] for r in records] == [int(frame["dealer"].iloc[i]) for i in (DEALS - 1, 5)]


def check_illegal_play(spec: GameSpec, n_jobs: int = 2) -> None:
    """Cards not held, missing or extra, and revokes are refused, naming the play and its index."""
    played = [r for r in spec.play.make_records(SEED, range(DEALS), spec.setup("random")) if len(r["play"]) >= 4]
    assert played, f"{spec.name}: no deal of {DEALS} was played out"
    revokes = 0
    for record in played[:6]:
        play = record["play"]
        # the leader's card, played again by the next seat: a card that seat does not hold
        assert _refused(spec, {**record, "play": [play[0], play[0]] + play[2:]}, 1) is not None
        assert _refused(spec, {**record, "play": play[:-1]}, 0) is not None
        assert _refused(spec, {**record, "play": play + [play[-1]]}, 0) is not None
        # one seat's cards swapped: either another legal play or refused, never before the swap
        owners = _owners(record)
        seat = owners.get(play[1][:2])
        for j in range(2, len(play)):
            if seat is None or owners.get(play[j][:2]) != seat:
                continue
            swapped = list(play)
            swapped[1], swapped[j] = play[j], play[1]
            exc = _refused(spec, {**record, "play": swapped}, 1)
            revokes += exc is not None and exc.index == 1 and exc.rule is not None
    assert revokes >= 1, f"{spec.name}: no swapped card was refused where it was played (a revoke)"


def check_dd(spec: GameSpec, n_jobs: int = 2) -> None:
    """Double-dummy from the engine's rows equals double-dummy from the deals' records."""
    from cardsim.dd import solve_deals, solve_records

    ids = [9, 0, 1, 2]  # out of order: the frame keeps the order asked
    for seats in spec.table.seat_counts:
        records = cardsim.records(spec.name, ids, SEED, None, seats)
        from_rows = solve_deals(spec.name, ids, SEED, seats=seats, every_denomination=True)
        pd.testing.assert_frame_equal(from_rows, solve_records(records, every_denomination=True))
        assert list(from_rows["deal"]) == ids


def check_matches(spec: GameSpec, n_jobs: int = 2) -> None:
    """Whole matches: keyed by (seed, match), the dealer passing left, records replaying to the rows."""
    n = 6
    for seats in spec.table.seat_counts:
        setup = spec.setup(None, seats)
        matches, deals = spec.matches.play(SEED, 0, n, setup)
        key = spec.matches.dtype.names[0]
        assert matches.dtype == spec.matches.dtype and len(matches) == n
        assert (matches[key] == np.arange(n)).all()
        if spec.matches.deal_dtype is not None:
            assert deals.dtype == spec.matches.deal_dtype
        assert len(deals) == matches["deals"].sum()
        for m in range(n):
            rows = deals[deals[key] == m]
            assert len(rows) == matches["deals"][m] and (rows["deal"] == np.arange(len(rows))).all()
            assert ((np.diff(rows["dealer"].astype(np.int64)) % seats) == 1).all(), "the deal passes left"
        later, later_deals = spec.matches.play(SEED, 2, n - 2, setup)
        assert later.tobytes() == matches[2:].tobytes()
        assert later_deals.tobytes() == deals[deals[key] >= 2].tobytes()
        if spec.matches.records is None:
            continue
        for m in (0, n - 1):
            records = spec.matches.records(SEED, m, setup)
            rows = deals[deals[key] == m]
            assert len(records) == len(rows)
            for k, (record, row) in enumerate(zip(records, rows)):
                record = _json(record)
                assert spec.play.replay(record) == record["result"], (seats, m, k)
                assert assert_row_is_record(row, record) >= 2
                if k:
                    assert record["before"] == records[k - 1]["result"]["after"], (seats, m, k)


def check_pimc(spec: GameSpec, n_jobs: int = 2) -> None:
    """The sampled search searches, plays legal cards to the rows' result, for any chunks and jobs."""
    from cardsim.strategies.pimc import COUNTERS

    searching = f"{spec.pimc.strategy.name}:worlds=2,side=1"  # the declaring side searches: half the cost
    before = COUNTERS.searched
    records = cardsim.records(spec.name, range(4), SEED, searching)
    assert COUNTERS.searched > before, f"{spec.name}'s {searching} made no searched decision in 4 deals"
    rows = spec.play.simulate_chunk(SEED, 0, 4, spec.setup(searching))
    # it bids and handles a talon or kitty as heuristic does: only the play may differ
    plain = cardsim.records(spec.name, range(4), SEED, "heuristic")
    for record, row, base in zip(records, rows, plain):
        assert cardsim.replay(_json(record)) == record["result"]
        assert_row_is_record(row, record)
        ours = {k: v for k, v in record.items() if k not in ("play", "result", "source")}
        assert ours == {k: v for k, v in base.items() if k not in ("play", "result", "source")}
    a = cardsim.simulate(spec.name, 4, seed=SEED, strategies=searching, chunk_size=3, n_jobs=1)
    b = cardsim.simulate(spec.name, 4, seed=SEED, strategies=searching, chunk_size=2, n_jobs=n_jobs)
    pd.testing.assert_frame_equal(a, b)


MODULE_NEEDS = {
    "features": ("FEATURES", "layout"), "pbn": ("board_text", "hands_of", "to_record", "COMMENT"),
    "rules": ("CONTEXT_KEYS", "STRATEGY_ID"), "decisions": ("collect", "time_decisions"),
}
"""``{kind: names}``: what the readers of each kind of named module call (docs/adding-a-game.md)."""

FOUND_NEEDS = {"analysis": ("summarize", "tables", "figures"), "chart writer": ("from_args",)}
"""``{part: names}``: what the readers of the game's parts found above the games call: its analysis
package (:func:`cardsim.analysis.game_module`) and its rule files' chart writer
(:func:`cardsim.rules.from_chart.writer`)."""


def found_parts(spec: GameSpec) -> dict:
    """``{part: module or None}`` of :data:`FOUND_NEEDS`, as the analysis and rules layers find them."""
    return {"analysis": game_module(spec.name), "chart writer": chart_writer(spec.name)}


def check_modules(spec: GameSpec, n_jobs: int = 2, found: dict | None = None) -> None:
    """The named modules load and have what their readers call; so do the parts found from the
    game (``found``: :func:`found_parts`, looked up when None), and a chart writer exists exactly
    where the game's rule files have charts."""
    assert set(MODULE_NEEDS) == set(MODULE_KINDS)
    for kind in MODULE_KINDS:
        if not spec.modules.offers(kind):
            continue
        module = spec.modules.load(kind)
        missing = [name for name in MODULE_NEEDS[kind] if not hasattr(module, name)]
        assert not missing, f"{spec.name}'s {kind} module {module.__name__} lacks {', '.join(missing)}"
    found = found_parts(spec) if found is None else found
    for part, module in found.items():
        missing = [name for name in FOUND_NEEDS[part] if module is not None and not hasattr(module, name)]
        assert not missing, f"{spec.name}'s {part} {module.__name__} lacks {', '.join(missing)}"
    if spec.modules.offers("features"):
        for seats in spec.table.seat_counts:
            layout = spec.modules.load("features").layout(seats)
            assert (layout.game, layout.seats) == (spec.name, seats)
    charts = getattr(spec.modules.load("rules"), "CHARTS", ()) if spec.modules.offers("rules") else ()
    assert bool(charts) == (found["chart writer"] is not None), f"{spec.name}: charts {charts} and their writer"


CHECKS = {
    "round_trip": (None, check_round_trip),
    "chunking": (None, check_chunking),
    "rows_vs_records": (None, check_rows_vs_records),
    "illegal_play": (None, check_illegal_play),
    "dd": ("dd", check_dd),
    "matches": ("matches", check_matches),
    "pimc": ("pimc", check_pimc),
    "modules": (None, check_modules),
}
"""``{name: (the spec hook it needs or None, check)}``."""


def offered(spec: GameSpec, name: str) -> bool:
    """Whether the game offers what check ``name`` tests (its spec has the hook)."""
    hook = CHECKS[name][0]
    return hook is None or getattr(spec, hook) is not None


def check_game(spec: GameSpec, n_jobs: int = 2) -> list[str]:
    """Run every check the game's spec offers; returns their names.  ``n_jobs``: worker processes
    of the jobs-independence checks (1 for a game given to ``register_game``, which worker
    processes do not see).  Raises AssertionError at the first break of the contract."""
    done = []
    for name, (_, check) in CHECKS.items():
        if offered(spec, name):
            check(spec, n_jobs)
            done.append(name)
    return done


# ---------------------------------------------------------------- the suite
GAMES = tuple(game_names()) + tuple(g for g in TOY_GAMES if g not in game_names())


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    """``(spec, n_jobs)`` of each game; a toy game is registered from its package for the module."""
    name = request.param
    if name not in TOY_GAMES:
        yield get_game(name), 2
        return
    sys.path.insert(0, str(HERE))
    register_game(name, TOY_GAMES[name])
    try:
        yield get_game(name), 1
    finally:
        unregister_game(name)
        sys.path.remove(str(HERE))


@pytest.mark.parametrize("check", list(CHECKS))
def test_conformance(game, check):
    spec, n_jobs = game
    if not offered(spec, check):
        pytest.skip(f"{spec.name} has no {CHECKS[check][0]}")
    CHECKS[check][1](spec, n_jobs)


def test_a_broken_game_fails_the_suite(game):
    """The checks can fail: a slow twin that reports one more result item, rows that name another
    dealer, and named modules that do not fit are caught."""
    spec, _ = game
    lying = dataclasses.replace(spec, play=dataclasses.replace(
        spec.play, replay=lambda record: {**spec.play.replay(record), "extra": 0}))
    with pytest.raises(AssertionError):
        check_round_trip(lying)

    def shifted(seed, start, count, setup):
        rows = spec.play.simulate_chunk(seed, start, count, setup)
        rows["dealer"] = (rows["dealer"] + 1) % setup.seats
        return rows

    with pytest.raises(AssertionError, match="dealer"):
        check_rows_vs_records(dataclasses.replace(spec, play=dataclasses.replace(spec.play, simulate_chunk=shifted)))

    # an analysis package without what its readers call; a chart writer without charts, or missing
    found = found_parts(spec)
    with pytest.raises(AssertionError, match="lacks summarize"):
        check_modules(spec, found={**found, "analysis": json})
    other = None if found["chart writer"] is not None else chart_writer("501")
    with pytest.raises(AssertionError, match="their writer"):
        check_modules(spec, found={**found, "chart writer": other})


def test_check_game_runs_each_check_the_spec_offers(game):
    spec, n_jobs = game
    if spec.name not in TOY_GAMES:
        pytest.skip("a built-in game runs check by check in test_conformance (the same work)")
    assert check_game(spec, n_jobs) == ["round_trip", "chunking", "rows_vs_records", "illegal_play", "dd", "modules"]
    assert not offered(spec, "matches") and not offered(spec, "pimc")
