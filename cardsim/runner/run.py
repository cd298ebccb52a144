"""A run and its deals in memory: validating a run's arguments (:func:`make_run`), playing its
chunks into one array per column (:func:`simulate_columns`, :func:`simulate`) and whole matches
(:func:`play_matches`).

Deal ``i`` of a run is always deal ``i`` of its seed, whatever the chunk size, the number of
workers or the machines (DESIGN.md property 1).
"""
from __future__ import annotations

import functools
import mmap
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from cardsim._jit import source_hash
from cardsim._version import __version__
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError, Setup, as_list
from cardsim.rng import check_seed
from cardsim.rules import digests
from cardsim.runner.files import DEFAULT_CHUNK
from cardsim.runner.pool import (check_jobs, choose_jobs, deal_seconds, default_jobs, match_seconds, on_dask,
                                 run_tasks, using)
from cardsim.runner.store import ChunkStore, run_chunks
from cardsim.strategies.registry import StrategyError
from cardsim.text import quote

# pandas (and cardsim.frames, which is built on it) is imported by the functions that make frames:
# a worker that plays chunks into a dataset or the shared columns never needs it, and importing
# it is a fifth of such a worker's start.
if TYPE_CHECKING:
    import pandas as pd

MAX_DEALS = 10**12
"""Most deals (or matches) one run may hold: deal numbers stay far inside int64."""
MAX_CHUNKS = 1_000_000
"""Most chunks one run may have (part files are numbered with six digits)."""
FORMAT_VERSION = 2
MEMORY_SHARE = 0.8
"""In-memory runs may fill at most this share of the memory available when they start."""


@dataclass(frozen=True)
class Run:
    """What a run is: the game, its set-up, the seed and the deal range."""

    setup: Setup
    seed: int
    n: int
    chunk_size: int = DEFAULT_CHUNK

    def chunks(self) -> list[tuple[int, int, int]]:
        """``(chunk number, first deal, number of deals)`` for every chunk."""
        return [(k, s, min(self.chunk_size, self.n - s)) for k, s in enumerate(range(0, self.n, self.chunk_size))]

    def manifest(self) -> dict:
        s = self.setup
        out = {"format": FORMAT_VERSION, "cardsim": __version__, "source": source_hash(), "game": s.game, "seed": self.seed, "n_deals": self.n,
               "chunk_size": self.chunk_size, "seats": s.seats, "strategies": list(s.specs),
               "rules": {k: v for k, v in s.rules.items()}}
        files = digests(s.specs)
        if files:  # a rule file's content, not only its name: an edit between two halves of a run is seen
            out["rule_files"] = files
        return out


def check_count(n, what="n") -> int:
    """A whole number from 1 to MAX_DEALS; raises OptionError otherwise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 < n <= MAX_DEALS:
        raise OptionError(f"{what} must be a whole number from 1 to {MAX_DEALS:,}, got {quote(n)}")
    return int(n)


def make_run(game, n, seed=0, strategies=None, seats=None, rules=None, chunk_size=DEFAULT_CHUNK,
             what="the number of deals") -> Run:
    """Validate the arguments of a run (raising OptionError / StrategyError) and build it."""
    spec = get_game(game)
    n = check_count(n, what)
    chunk_size = check_count(chunk_size, "chunk_size")
    if -(-n // chunk_size) > MAX_CHUNKS:
        # evaluate and quality have no --chunk-size: the bound on the deals is the advice every command can take
        raise OptionError(f"{n:,} deals in chunks of {chunk_size:,} make more than {MAX_CHUNKS:,} chunks: at most "
                          f"{MAX_CHUNKS * chunk_size:,} deals in chunks of that size (a larger chunk size, where the "
                          f"command takes one, allows more)")
    if seats is not None and (isinstance(seats, bool) or not isinstance(seats, (int, np.integer))):
        raise OptionError(f"seats must be a whole number, got {quote(seats)}")
    if strategies is not None and not isinstance(strategies, (str, list, tuple, dict)):
        raise StrategyError(f"strategies must be a spec, a list of specs or {{seat: spec}}, got {quote(strategies)}")
    return Run(spec.setup(strategies, seats, rules), check_run_seed(seed), n, chunk_size)


def records(game, deal_ids, seed=0, strategies=None, seats=None, rules=None) -> list[dict]:
    """Deal records (docs/RECORDS.md, with ``result``) of deals ``deal_ids`` of ``seed``, as
    :func:`simulate` plays them with the same ``strategies`` / ``seats`` / ``rules``: a list of
    dicts, hands as card tokens.  Raises OptionError for a deal number that is not a whole
    number from 0 to 10**12 - 1, StrategyError for a bad strategy."""
    spec = get_game(game)
    ids = as_list(deal_ids, "deal_ids (deal numbers)")
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < MAX_DEALS:
            raise OptionError(f"deal numbers must be whole numbers from 0 to {MAX_DEALS - 1:,}, got {quote(i)}")
    run = make_run(game, max(1, len(ids)), seed, strategies, seats, rules)
    return spec.play.make_records(run.seed, ids, run.setup)


def match_records(game, match, seed=0, strategies=None, seats=None, rules=None, before=None, dealer=None) -> list[dict]:
    """Deal records (docs/RECORDS.md, each with ``before`` and ``source.match``) of every deal of match
    ``match`` of ``seed``, as ``play_match`` plays it (same ``before`` / ``dealer``): any
    game-level number traced to its deals.  Raises OptionError for a game without them."""
    spec = get_game(game)
    if spec.matches is None or spec.matches.records is None:
        raise OptionError(f"{spec.name} has no match records yet (501 and Vint have)")
    if isinstance(match, bool) or not isinstance(match, (int, np.integer)) or not 0 <= match < MAX_DEALS:
        raise OptionError(f"match numbers are whole numbers from 0 to {MAX_DEALS - 1:,}, got {quote(match)}")
    run = make_run(game, 1, seed, strategies, seats, rules)
    return spec.matches.records(run.seed, int(match), run.setup, before=before, dealer=dealer)


def check_run_seed(seed) -> int:
    """A run seed (a whole number from 0 to 2**64-1) as int; OptionError otherwise."""
    try:
        return check_seed(seed)
    except ValueError as exc:
        raise OptionError(str(exc)) from None


def deal_jobs(deals: int, game: str, n_jobs: int, chunk_size: int | None = None, cores: int | None = None) -> int:
    """Worker processes a run of ``deals`` deals of ``game`` in chunks of ``chunk_size`` (default
    :data:`DEFAULT_CHUNK`) gets for ``n_jobs`` (:func:`choose_jobs`; 1: this process)."""
    chunk_size = chunk_size or DEFAULT_CHUNK
    sizes = [min(chunk_size, deals - s) for s in range(0, deals, chunk_size)]
    return choose_jobs(n_jobs, sizes, deal_seconds(game, deals), cores)


def play_chunk(setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
    """Worker: deals ``start`` to ``start + count - 1`` of run seed ``seed`` played under ``setup``
    by its game's ``simulate_chunk``: one row per deal, the game's ``row_dtype`` (structured
    numpy array of length ``count``).  A pure function of its arguments (DESIGN.md property 1)."""
    return get_game(setup.game).play.simulate_chunk(seed, start, count, setup)


def run_seconds(run: Run, todo=None) -> float:
    """Estimated one-core seconds of the chunks ``todo`` (default all) of ``run`` (:func:`deal_seconds`)."""
    todo = run.chunks() if todo is None else todo
    return deal_seconds(run.setup.game, sum(c for _, _, c in todo))


def iter_chunks(run: Run, todo=None, n_jobs: int = 1, progress: bool = False):
    """Yield ``(chunk number, rows)`` for the chunks in ``todo`` (default all), in order.

    Rows travel back through the parent here: for small runs and tests.  Large runs write
    datasets (:func:`simulate_to_dataset`) or use :func:`simulate`."""
    todo = run.chunks() if todo is None else todo
    results = run_tasks(play_chunk, [(run.setup, run.seed, s, c) for _, s, c in todo],
                        [c for _, _, c in todo], n_jobs, progress, seconds=run_seconds(run, todo))
    for (k, _, _), rows in zip(todo, results):
        yield k, rows


TRANSPOSE_BYTES = 1 << 16
"""Bytes of rows per block when splitting rows into columns: a block stays in cache while its
fields are copied out (field by field over a whole chunk is ten times slower); 64 kB (about 500
rows of Vint or Five Hundred) measured best of 32 kB to 256 kB."""


@functools.lru_cache(maxsize=None)
def field_runs(dtype: np.dtype) -> tuple[tuple[np.dtype, tuple[str, ...]], ...]:
    """The fields of structured ``dtype`` in runs of adjacent fields of one type: ``((type,
    names), ...)`` in field order (Vint's 63 fields make 8 runs)."""
    runs = []
    for name in dtype.names:
        t, at = dtype.fields[name][:2]
        last = runs[-1] if runs else None
        if last and last[0] == t and last[1] + t.itemsize * len(last[2]) == at:
            last[2].append(name)
        else:
            runs.append((t, at, [name]))
    return tuple((t, tuple(names)) for t, _, names in runs)


def _stacked(columns: list[np.ndarray], offset: int, n: int) -> np.ndarray | None:
    """``columns`` (1-D arrays of one type, ``len(columns)`` > 1) seen as one ``(k, n)`` array of
    their elements ``offset .. offset+n-1`` when they lie at equal steps in memory (the rows of
    one 2-D array, or a shared file's 64-aligned columns), else None."""
    first = columns[0]
    if not all(c.flags.c_contiguous and c.flags.writeable and c.dtype == first.dtype and len(c) >= offset + n
               for c in columns):
        return None
    at = [c.__array_interface__["data"][0] for c in columns]
    step = at[1] - at[0]
    if step < n * first.itemsize or any(b - a != step for a, b in zip(at, at[1:])):
        return None
    return np.lib.stride_tricks.as_strided(first[offset:], shape=(len(columns), n), strides=(step, first.itemsize))


def fill_columns(columns: dict, offset: int, rows: np.ndarray) -> None:
    """Copy structured ``rows`` into ``columns[name][offset:offset + len(rows)]``.

    Each run of adjacent fields of one type (:func:`field_runs`) is copied in one transposing
    copy a block of rows when its columns lie at equal steps in memory (:func:`column_buffers`,
    a shared file's layout), else field by field: a Vint chunk of 100,000 deals takes about 5.6 ms
    of CPU instead of 7.6 (Five Hundred 6.1 instead of 8.8)."""
    n = len(rows)
    copies = []
    for t, names in field_runs(rows.dtype):
        dest = _stacked([columns[name] for name in names], offset, n) if len(names) > 1 else None
        if dest is None:
            copies += [(columns[name][offset:offset + n], rows[name]) for name in names]
        else:
            source = rows[names[0]]
            copies.append((dest, np.lib.stride_tricks.as_strided(source, shape=(len(names), n),
                                                                 strides=(t.itemsize, source.strides[0]))))
    block = max(64, TRANSPOSE_BYTES // rows.dtype.itemsize)
    for s in range(0, n, block):
        for dest, source in copies:
            dest[..., s:s + block] = source[..., s:s + block]


def column_buffers(dtype: np.dtype, n: int) -> dict:
    """``{name: empty ndarray[n]}`` for the fields of ``dtype``, each run of adjacent fields of one
    type (:func:`field_runs`) the rows of one 2-D array, which :func:`fill_columns` fills in one
    copy per run."""
    columns = {}
    for t, names in field_runs(dtype):
        block = np.empty((len(names), n), t)
        columns.update(zip(names, block))
    return columns


def rows_frame(rows: np.ndarray) -> pd.DataFrame:
    """``pandas.DataFrame(rows)`` for structured ``rows``, about ten times faster: the fields
    are split into columns in cache-sized blocks and pandas keeps the arrays as they are."""
    import pandas as pd  # local: pandas: a worker playing chunks never builds a frame

    columns = column_buffers(rows.dtype, len(rows))
    fill_columns(columns, 0, rows)
    return pd.DataFrame(columns, copy=False)


def _layout(dtype: np.dtype, n: int) -> tuple[dict, int]:
    """Byte offsets of one contiguous column per field of ``dtype`` for ``n`` rows, 64-aligned."""
    offsets, at = {}, 0
    for name in dtype.names:
        offsets[name] = at
        at += -(-dtype[name].itemsize * n // 64) * 64
    return offsets, max(at, 64)


def _columns_over(buffer, dtype: np.dtype, n: int, offsets: dict, first: int = 0, count: int | None = None) -> dict:
    count = n - first if count is None else count
    return {name: np.frombuffer(buffer, dtype[name], count, offsets[name] + first * dtype[name].itemsize)
            for name in dtype.names}


def _fill_shared(path: str, size: int, dtype: np.dtype, n: int, setup: Setup, seed: int, start: int,
                 count: int) -> int:
    """Worker: play deals ``start..start+count-1`` into the shared column file ``path``."""
    rows = play_chunk(setup, seed, start, count)
    offsets, _ = _layout(dtype, n)
    with open(path, "r+b") as f, mmap.mmap(f.fileno(), size) as mm:
        columns = _columns_over(mm, dtype, n, offsets, start, count)
        fill_columns(columns, 0, rows)
        del columns  # the views must go before the mapping closes
    return count


def _shared_dir() -> str | None:
    """A memory-backed folder worker processes can share (Linux /dev/shm), or None."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _drop_orphaned_row_files(shared: str) -> None:
    """Shared row files of runs killed (kill -9) before they could remove them: memory-backed,
    so they would hold their memory until the machine restarts."""
    import psutil  # local: psutil is slow to import; only this function needs it

    for p in Path(shared).glob("cardsim-rows-*"):
        try:
            pid = int(p.name.split("-")[2])
        except (IndexError, ValueError):
            continue
        if not psutil.pid_exists(pid):
            p.unlink(missing_ok=True)


def memory_cap(game: str) -> int:
    """Most deals of ``game`` an in-memory run may hold now (:data:`MEMORY_SHARE` of the
    available memory, at the row size of the game)."""
    import psutil  # local: psutil is slow to import; only this function needs it

    return max(1, int(psutil.virtual_memory().available * MEMORY_SHARE) // get_game(game).play.row_dtype.itemsize)


def simulate_columns(run: Run, n_jobs=-1, progress=False) -> dict:
    """Every deal of ``run`` as one contiguous array per row field (``{name: ndarray[n]}``).

    Local worker processes fill one memory-backed shared file in place (nothing is pickled
    back); one job fills the arrays directly; on a dask cluster the rows come back per chunk."""
    dtype = get_game(run.setup.game).play.row_dtype
    offsets, size = _layout(dtype, run.n)
    chunks = run.chunks()
    shared = _shared_dir()
    if not on_dask():
        n_jobs = default_jobs(n_jobs, [c for _, _, c in chunks], run_seconds(run))  # decided once, here
    parallel_local = not on_dask() and n_jobs > 1
    if parallel_local and shared and shutil.disk_usage(shared).free > size * 1.05:
        _drop_orphaned_row_files(shared)
        fd, path = tempfile.mkstemp(dir=shared, prefix=f"cardsim-rows-{os.getpid()}-")
        try:
            os.ftruncate(fd, size)
            mm = mmap.mmap(fd, size)
            tasks = [(path, size, dtype, run.n, run.setup, run.seed, s, c) for _, s, c in chunks]
            for _ in run_tasks(_fill_shared, tasks, [c for _, _, c in chunks], n_jobs, progress):
                pass
        finally:
            os.close(fd)
            os.unlink(path)  # the mapping keeps the memory until the last column is dropped
        return _columns_over(mm, dtype, run.n, offsets)
    columns = column_buffers(dtype, run.n)
    for (_, start, _), rows in zip(chunks, run_tasks(play_chunk, [(run.setup, run.seed, s, c) for _, s, c in chunks],
                                                      [c for _, _, c in chunks], n_jobs, progress)):
        fill_columns(columns, start, rows)
    return columns


def simulate(game, n_deals, seed=0, strategies=None, seats=None, rules=None, n_jobs=-1,
             chunk_size=DEFAULT_CHUNK, progress=False, compact=True, client=None) -> pd.DataFrame:
    """Simulate ``n_deals`` independent deals and return one DataFrame row per deal.

    ``strategies``: None (the game's default), one spec for all seats (``"random"``,
    ``"heuristic:aggression=1"``), a list per seat or ``{seat: spec}``.  ``rules``: rule
    options (``{"scoring": "subtract"}``).  Columns are the game's row columns as a typed frame
    (:mod:`cardsim.frames`; ``cardsim columns GAME`` lists every column, its dtype and unit): a
    value that does not exist on a deal (the declarer of a void deal, its ``made``) is ``<NA>``
    in a nullable ``Int8``/``Int16``/``boolean`` column, denominations and contracts are ordered
    categoricals; compact widths where the values fit, which pandas arithmetic can overflow
    silently — ``compact=False`` returns 64-bit integers instead.  ``df.attrs`` holds the run's
    manifest.
    ``n_jobs``: worker processes (-1 = all cores when the run pays for starting them, else this
    process, :func:`choose_jobs`; 1 = this process; N = N workers); ``client``: a
    ``distributed.Client`` to run the chunks on (or use ``joblib.parallel_config(backend="dask")``);
    the rows are the same either way.  Raises OptionError / StrategyError (both ValueError) for
    bad arguments, OptionError when the rows would not fit in memory (write a dataset instead).
    """
    import pandas as pd  # local: pandas: a worker playing chunks never builds a frame

    from cardsim import frames  # local: frames brings pandas; a worker playing chunks never builds a frame

    run = make_run(game, n_deals, seed, strategies, seats, rules, chunk_size)
    check_jobs(n_jobs)
    cap = memory_cap(game)
    if run.n > cap:
        raise OptionError(f"{run.n:,} {game} deals do not fit in memory here (at most about {cap:,}); write them "
                          "to a dataset instead (cardsim simulate -o PATH, or cardsim.runner.dataset.simulate_to_dataset)")
    with using(client):
        df = pd.DataFrame(simulate_columns(run, n_jobs, progress), copy=False)
    df = frames.deals(game, df, run.setup.seats)
    if not compact:
        df = frames.widen(df)
    df.attrs.update(run.manifest())
    return df


def play_matches(game, n_matches, seed=0, strategies=None, seats=None, rules=None, n_jobs=-1,
                 chunk_size=10_000, compact=True, before=None, dealer=None, store=None, progress=False,
                 client=None):
    """Play ``n_matches`` whole matches (Vint: rubbers).  Returns ``(matches, deals)`` typed
    DataFrames (:mod:`cardsim.frames`; ``cardsim columns GAME`` lists their columns).

    Match ``m`` depends on ``(seed, m)`` only; ``compact`` as for :func:`simulate`.  ``before``
    (501: one score per seat; Five Hundred: the two team scores; Vint: below0, below1, games0, games1) starts every match from
    that state and ``dealer`` fixes who deals
    first (default: drawn per match); games that cannot start from a state raise OptionError.
    ``store``: a folder where each finished chunk is kept, so that the same call after an
    interruption resumes (the folder is kept; remove it when done).  ``n_jobs`` and ``client``
    as for :func:`simulate`.  Raises OptionError when the game has no match mode or an argument
    is bad, OutputError when ``store`` holds another run.
    """
    run = make_run(game, n_matches, seed, strategies, seats, rules, chunk_size, what="the number of matches")
    spec = get_game(game)
    if spec.matches is None:
        raise OptionError(f"{spec.name} has no match mode")
    start = {k: v for k, v in (("before", before), ("dealer", dealer)) if v is not None}
    def from_state(g):
        return g.matches is not None and (g.matches.start_score is not None or g.matches.left is not None)

    if start and not from_state(spec):
        those = ", ".join(g for g in GAME_NAMES if from_state(get_game(g)))
        raise OptionError(f"{spec.name} matches start from a clean state here (before= and dealer= are for {those})")
    if start:
        spec.matches.play(run.seed, 0, 1, run.setup, **start)  # a bad state is an error before any worker starts
    manifest = run.manifest()
    if start:
        manifest["start"] = {k: (list(map(int, v)) if k == "before" else int(v)) for k, v in start.items()}
    chunks = run.chunks()
    chunk_store = ChunkStore(store, dict(manifest, kind="matches")) if store is not None else None
    with using(client):
        out = list(run_chunks(_match_chunk, [(run.setup, run.seed, s, c, start) for _, s, c in chunks],
                              [c for _, _, c in chunks], n_jobs, progress, chunk_store, give_back=False,
                              unit="match", seconds=match_seconds(game, run.n, before, run.setup.rules)))
    from cardsim import frames  # local: frames brings pandas; a worker playing chunks never builds a frame

    matches = frames.matches(game, np.concatenate([m for m, _ in out]), run.setup.seats)
    deals = frames.deals(game, np.concatenate([d for _, d in out]), run.setup.seats)
    if not compact:
        matches, deals = frames.widen(matches), frames.widen(deals)
    matches.attrs.update(manifest)
    deals.attrs.update(manifest)
    return matches, deals


def _match_chunk(setup, seed, start, count, kwargs=None):
    return get_game(setup.game).matches.play(seed, start, count, setup, **(kwargs or {}))
