"""Double-dummy (DD) results: what each deal is worth with every hand open.

Entry points (all return one row per deal; columns are documented by :func:`columns_doc`):

* :func:`solve_deals` ``(game, deal_ids, seed=0, strategies=None, seats=None, rules=None,
  every_denomination=False)``: the deals ``simulate`` plays (same seed, strategies, rules);
* :func:`add_dd` ``(df, game, seed=0, ...)``: a ``simulate`` frame with the DD columns joined
  on ``deal`` (DD costs far more than playing: sample first, e.g. ``df.sample(2000)``);
* :func:`solve_records` ``(records, every_denomination=False)``: docs/RECORDS.md records (replayed
  first, so anyone's records work).

Per card of a played deal (:mod:`cardsim.dd.trace`): :func:`card_costs` ``(record)``, one row per
card with the DD value before and after it and what it cost (``cardsim show … --dd``).

What is solved is the game's (its spec's ``dd`` hooks, :class:`cardsim.games.base.DDHooks`, in
``cardsim/games/<game>/dd.py``): the position play starts from, the contract the engine played.
The hooks return arrays (:class:`cardsim.games.base.DDColumns`) and this package builds the
frames from them (:func:`typed_frame`, the ``deal`` column first); where a hook needs deals
played or solved, this package hands it the function (:func:`played_rows`, :func:`solve_deals`;
:func:`quality_frames`, :func:`bench_line`).  Each game's solver lives in its package
(:mod:`cardsim.games.vint.solver` through DDS, :mod:`cardsim.games.g501.solver`,
:mod:`cardsim.games.g500.solver`); the pieces the hooks share, the kept transposition tables
among them, in :mod:`cardsim.games.dd_tools`.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from cardsim.games import get_game, replay
from cardsim.games.base import DDColumns, OptionError, RecordError, as_list
from cardsim.names import DENOMINATIONS
from cardsim.text import quote

# pandas is imported where a frame is made: importing this package (cardsim bench, whose lines
# make no frame) does not load it.
if TYPE_CHECKING:
    import pandas as pd

COMMON_DOC = ("deal (Int64, the deal number; <NA> when the record has no source), declarer (Int8 seat; "
              "<NA> when the deal was not played: void, thrown in, all passed or abandoned), dd_made "
              "(boolean: the DD result reaches the contract; <NA> when not played).  As in every cardsim "
              "frame (cardsim.frames), a value that does not exist on a deal is <NA>, never -1, and "
              "denominations / trumps are ordered categoricals S < C < D < H < NT.")
"""The DD columns every game has; :func:`columns_doc` adds the game's own."""


def columns_doc(game) -> str:
    """The DD columns of ``game`` for people: :data:`COMMON_DOC`, then the game's."""
    return f"{COMMON_DOC}  {_hooks(get_game(game)).columns_doc}"


def _hooks(spec):
    if spec.dd is None:
        raise OptionError(f"{spec.name} has no double-dummy solver")
    return spec.dd


def typed_frame(cols: dict, played: np.ndarray, always=()) -> pd.DataFrame:
    """The user frame of raw DD columns (codes as the solvers give them): ``deal`` Int64 (<NA>
    below 0), ``denomination`` / ``trump`` ordered categoricals, ``dd_made`` boolean, every other
    column nullable of its own width, <NA> where the deal was not ``played``; columns named in
    ``always`` have a value on every deal and keep their numpy dtype."""
    from cardsim.typed_columns import nullable_bool, nullable_int, ordered_categorical  # local: pandas, which the processes that only play never load

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


def deal_id(record) -> int:
    """The deal number of a record (``source.deal``), -1 when it has none."""
    src = record.get("source")
    if isinstance(src, dict) and isinstance(src.get("deal"), int):
        return src["deal"]
    return -1


def _frame(deal_ids, got: DDColumns) -> pd.DataFrame:
    """The user frame of a game hook's DD columns (``frame`` / ``deals``) of deals ``deal_ids``
    (int64[n], -1: a record without a source): ``deal`` first, then the hook's columns."""
    return typed_frame({"deal": np.asarray(deal_ids, dtype=np.int64), **got.columns}, np.asarray(got.played),
                       got.always)


def _records_frame(hooks, records, every_denomination) -> pd.DataFrame:
    return _frame([deal_id(r) for r in records], hooks.frame(records, every_denomination))


# ---------------------------------------------------------------- public API
def solve_records(records, every_denomination: bool = False) -> pd.DataFrame:
    """DD columns (:func:`columns_doc`) of docs/RECORDS.md records of one game, one row each in order.

    Each record is replayed first (docs/RULES.md checks; its ``result`` recomputed), so records
    written by anyone work; raises :class:`RecordError` for a bad one, :class:`OptionError`
    for records of several games.  ``every_denomination`` adds the DD result in each of the five
    denominations (Vint: the whole 4 × 5 table), five times the work.
    """
    records = list(records)
    if not records:
        raise OptionError("no records to solve")
    checked = []
    for i, r in enumerate(records):
        try:
            result = replay(r)
        except RecordError as exc:
            raise RecordError(f"record {i}: {exc.describe()}") from None
        checked.append({**r, "result": result})
    games = {r["game"] for r in checked}
    if len(games) != 1:
        raise OptionError(f"records of one game at a time, got {', '.join(sorted(games))}")
    return _records_frame(_hooks(get_game(games.pop())), checked, every_denomination)


def solve_deals(game, deal_ids, seed=0, strategies=None, seats=None, rules=None,
                every_denomination: bool = False) -> pd.DataFrame:
    """DD columns (:func:`columns_doc`) of deals ``deal_ids`` of ``seed`` as ``simulate`` plays
    them with the same strategies, seats and rules; one row per deal id, in order.  The
    positions come from the engine's rows and card bit sets (the game's ``dd.deals`` hook), or
    from the deals' records for a game without one."""
    from cardsim.runner.run import MAX_DEALS, make_run, records as run_records  # local: the runner brings numba's kernels, which solving records needs not

    spec = get_game(game)
    hooks = _hooks(spec)
    if hooks.deals is None:
        records = run_records(spec.name, deal_ids, seed, strategies, seats, rules)
        if not records:
            raise OptionError("no deals to solve")
        return _records_frame(hooks, records, every_denomination)
    # the checks and the run of cardsim.records, without its records
    ids = as_list(deal_ids, "deal_ids (deal numbers)")
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < MAX_DEALS:
            raise OptionError(f"deal numbers must be whole numbers from 0 to {MAX_DEALS - 1:,}, got {quote(i)}")
    run = make_run(spec.name, max(1, len(ids)), seed, strategies, seats, rules)
    if not ids:
        raise OptionError("no deals to solve")
    ids = [int(i) for i in ids]
    return _frame(ids, hooks.deals(run.seed, ids, run.setup, every_denomination,
                                   functools.partial(played_rows, spec.name)))


def played_rows(game, seed, deal_ids, setup) -> np.ndarray:
    """The engine's rows (``spec.play.row_dtype``) of independent deals ``deal_ids`` of ``seed`` with
    ``setup``, in the order of ``deal_ids``: each run of consecutive numbers one chunk."""
    spec = get_game(game)
    ids = np.asarray(list(deal_ids), dtype=np.int64)
    order = np.argsort(ids, kind="stable")
    ranked = ids[order]
    runs = np.split(ranked, np.flatnonzero(np.diff(ranked) != 1) + 1) if len(ranked) else []
    rows = np.concatenate([spec.play.simulate_chunk(seed, int(r[0]), len(r), setup) for r in runs]) if runs else \
        np.zeros(0, dtype=spec.play.row_dtype)
    out = np.empty_like(rows)
    out[order] = rows
    return out


def quality_frames(game, names, seed, ids, rows) -> list:
    """Per strategy spec in ``names`` (each playing every seat): its per-deal comparison with DD on
    deals ``ids`` of ``seed``, each a frame made by ``rows``
    (:func:`cardsim.analysis.quality.comparison_rows`), from the game's ``dd.quality`` hook, which
    this gives the deals' DD frame (:func:`solve_deals`) and rows (:func:`played_rows`) of each
    strategy.  Raises OptionError for a game without that hook or a bad seed."""
    from cardsim.runner.run import check_run_seed, make_run  # local: the runner brings numba's kernels, which solving records needs not

    spec = get_game(game)
    hooks = _hooks(spec)
    if hooks.quality is None:
        raise OptionError(f"{spec.name} has no comparison of its play with double dummy")

    def solve(name):
        return solve_deals(spec.name, ids, seed, name)

    def play(name):
        run = make_run(spec.name, max(1, len(ids)), seed, name)
        return played_rows(spec.name, run.seed, ids, run.setup)

    return hooks.quality(list(names), check_run_seed(seed), ids, rows, solve, play)


def bench_line(game, seed: int, n: int) -> str:
    """The game's solver benchmark line (its ``dd.bench`` hook, :mod:`cardsim.bench.dd`) on deals
    ``0 .. n-1`` of ``seed`` as the default strategies play them.  Raises OptionError for a game
    without a solver benchmark."""
    from cardsim.runner.run import make_run  # local: the runner brings numba's kernels, which solving records needs not

    spec = get_game(game)
    hooks = _hooks(spec)
    if hooks.bench is None:
        raise OptionError(f"no double-dummy benchmark for {spec.name}")
    run = make_run(spec.name, n, seed)
    return hooks.bench(run.seed, n, run.setup, functools.partial(played_rows, spec.name))


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


def lead_values(records) -> list:
    """What every opening lead is worth against double dummy: per docs/RECORDS.md
    record with play, ``{card token: value}`` for every card the opening leader holds, the value
    the defenders' double-dummy result after that lead (Vint: their tricks, 0..13) with both
    sides playing double dummy from then on; None for a record without play (nobody bid).  A
    lead is DD-best where its value is the dict's maximum.

    Records are replayed first (docs/RULES.md checks).  Raises :class:`RecordError` for a bad
    record, :class:`OptionError` for records of several games or a game without the game's
    ``dd.lead_values`` hook (:class:`cardsim.games.base.DDHooks`).

    Example: ``cardsim.dd.lead_values(cardsim.records("vint", range(10), seed=1))``."""
    records = list(records)
    checked = []
    for i, r in enumerate(records):
        if not isinstance(r, dict):
            raise RecordError(f"record {i}: a record is a JSON object")
        try:
            checked.append({**r, "result": replay(r)})
        except RecordError as exc:
            raise RecordError(f"record {i}: {exc.describe()}") from None
    if not checked:
        return []
    games = {r["game"] for r in checked}
    if len(games) != 1:
        raise OptionError(f"records of one game at a time, got {', '.join(sorted(games))}")
    spec = get_game(games.pop())
    hooks = _hooks(spec)
    if hooks.lead_values is None:
        raise OptionError(f"{spec.name} has no double-dummy values of the opening lead (no lead_values hook)")
    return hooks.lead_values(checked)


from cardsim.dd.trace import card_costs, format_trace, side_totals  # noqa: E402 - the per-card trace

__all__ = ["lead_values", "card_costs", "side_totals", "format_trace", "solve_deals", "solve_records", "add_dd", "columns_doc",
           "typed_frame", "deal_id", "played_rows", "quality_frames", "bench_line", "COMMON_DOC"]
