"""Running many deals: fixed-size chunks, workers, resumable chunk files.

Deal ``i`` of a run is always deal ``i`` of its seed, whatever the chunk size, the number of
workers or the machines (DESIGN.md property 1).  Chunks run on joblib workers (all cores by
default; ``n_jobs=1`` runs them in this process) or on a dask.distributed cluster (``client=``,
or ``joblib.parallel_config(backend="dask")``).  Workers write their own chunk files,
atomically, and hand back only small summaries, so rows never travel back through the parent.

A dataset is built in a staging folder ``<path>.partial`` beside a ``_manifest.json`` that
fixes what the run is, and renamed to ``<path>`` when its last chunk lands, so a reader never
mistakes an unfinished run for a whole one; running the same run again resumes where it
stopped and ends with the same data (property 7).  Runs whose result is not a dataset
(matches, comparisons, questions) keep their chunk results in a :class:`ChunkStore` and resume
the same way.  Aggregating runs keep per-chunk partial sums only (property 6).
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import pickle
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from cardsim._version import __version__
from cardsim._jit import source_hash
from cardsim.games import get_game
from cardsim.games.base import OptionError, Setup
from cardsim.rng import check_seed
from cardsim.strategies.registry import StrategyError
from cardsim.text import clip, quote

# pandas (and cardsim.frames, which is built on it) is imported by the functions that make frames:
# a worker that plays chunks into a dataset or the shared columns never needs it, and importing
# it is a fifth of such a worker's start.
if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK = 100_000
MAX_DEALS = 10**12
"""Most deals (or matches) one run may hold: deal numbers stay far inside int64."""
MAX_CHUNKS = 1_000_000
"""Most chunks one run may have (part files are numbered with six digits)."""
MANIFEST = "_manifest.json"
FORMAT_VERSION = 2
STAGING_SUFFIX = ".partial"
"""An unfinished dataset ``out`` lives in ``out.partial`` until its last chunk is written."""
MEMORY_SHARE = 0.8
"""In-memory runs may fill at most this share of the memory available when they start."""
DISK_MARGIN = 1.1
"""Free disk space asked for, as a multiple of the estimated size of what is left to write."""


class OutputError(OSError):
    """An output path that cannot be written, or a dataset made by a different run."""


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
        return {"format": FORMAT_VERSION, "cardsim": __version__, "source": source_hash(), "game": s.game, "seed": self.seed, "n_deals": self.n,
                "chunk_size": self.chunk_size, "seats": s.seats, "strategies": list(s.specs),
                "rules": {k: v for k, v in s.rules.items()}}


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
        raise OptionError(f"{n:,} deals in chunks of {chunk_size:,} make more than {MAX_CHUNKS:,} chunks; "
                          "use a larger chunk size")
    if seats is not None and (isinstance(seats, bool) or not isinstance(seats, (int, np.integer))):
        raise OptionError(f"seats must be a whole number, got {quote(seats)}")
    if strategies is not None and not isinstance(strategies, (str, list, tuple, dict)):
        raise StrategyError(f"strategies must be a spec, a list of specs or {{seat: spec}}, got {quote(strategies)}")
    return Run(spec.setup(strategies, seats, rules), check_run_seed(seed), n, chunk_size)


def check_run_seed(seed) -> int:
    """A run seed (a whole number from 0 to 2**64-1) as int; OptionError otherwise."""
    try:
        return check_seed(seed)
    except ValueError as exc:
        raise OptionError(str(exc)) from None


# ------------------------------------------------------------------------------- execution
def check_jobs(n_jobs) -> int:
    """``n_jobs`` as given (a non-zero whole number, -1 = all cores); raises OptionError."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise OptionError(f"n_jobs must be a non-zero whole number (-1 = all cores), got {quote(n_jobs)}")
    return int(n_jobs)


def on_dask() -> bool:
    """Whether joblib's active backend is dask (``parallel_config(backend="dask")``)."""
    if "joblib" not in sys.modules:
        return False  # nobody can have configured a backend; importing joblib costs start-up time
    from joblib.parallel import get_active_backend

    return "dask" in type(get_active_backend()[0]).__name__.lower()


def local_jobs(n_jobs: int, n_tasks: int, cores: int | None = None) -> int:
    """How many local worker processes ``n_jobs`` means for ``n_tasks`` tasks on ``cores`` cores
    (default: this machine's), before :func:`choose_jobs` weighs a default run (1: this process)."""
    n_jobs = check_jobs(n_jobs)
    cores = cores or os.cpu_count() or 1
    return max(1, min(n_jobs if n_jobs > 0 else cores + 1 + n_jobs, n_tasks))


DEAL_SECONDS = {"vint": 5.4e-6, "501": 3.7e-6, "500": 5.9e-6}
"""One core's seconds for one complete deal with the default strategies, written to a dataset:
the slope of the wall time of ``cardsim simulate GAME -n N -o X --jobs 1`` from 20,000 to
1,000,000 deals (``python -m cardsim.bench --only crossover``, BENCHMARKS.md "When the default
starts workers", 2026-12-02).  A game missing here counts as the slowest listed."""
DEALS_PER_MATCH = {"vint": 12.2, "501": 13.9, "500": 8.7}
"""Mean deals of a whole match (a Vint rubber, a 501 game to zero, a Five Hundred game) with the
default strategies: ``cardsim.play_match(game, 2000, seed=1)``."""
WORKER_START_SECONDS = 3.0
"""What starting the local workers adds to a run's wall time on an otherwise idle machine: loky
starts a fresh interpreter per worker, which imports cardsim and loads the game's compiled
kernels before its first chunk, while the parent waits.  Measured as the wall time with
``--jobs 2`` less the time with ``--jobs 1`` plus the work the second worker takes off the
first (BENCHMARKS.md, same run as :data:`DEAL_SECONDS`, the machine otherwise idle): 2.4 to
3.1 s for Vint and 501 at 200,000 and 1,000,000 deals (issue 25 saw 1.9 s); the high end is
taken, so that the default errs towards playing here."""
LOAD_WINDOW = 0.1
"""Seconds :func:`free_cores` watches the machine's CPU use for."""


def deal_seconds(game: str, plays: float) -> float:
    """Estimated one-core seconds of ``plays`` complete deals of ``game`` (:data:`DEAL_SECONDS`)."""
    return plays * DEAL_SECONDS.get(game, max(DEAL_SECONDS.values()))


def _busiest(sizes: list[int], jobs: int) -> int:
    """The largest share of ``sizes`` one of ``jobs`` workers plays when each task goes to the
    first free worker, in order (as joblib hands them out), the tasks' time taken as their size."""
    if len(sizes) > 1000:  # granularity no longer matters: an even split
        return -(-sum(sizes) // jobs)
    import heapq

    loads = [0] * jobs
    for size in sizes:
        heapq.heapreplace(loads, loads[0] + size)
    return max(loads)


def choose_jobs(n_jobs: int, sizes: list[int], seconds: float | None, cores: int | None = None) -> int:
    """Local worker processes for tasks of ``sizes`` (deals, or matches) whose work on one core is
    about ``seconds``; 1 means: this process, no workers started.

    ``n_jobs`` > 0 asks for that many workers: ``min(n_jobs, tasks)``.  A negative ``n_jobs`` (-1,
    the default: all cores) decides by size: the workers are started only when the wall time
    they save, ``seconds`` minus the busiest worker's share of it, exceeds
    :data:`WORKER_START_SECONDS`, what starting them costs; otherwise the run is played here, so
    that a run too small to pay for its workers is not slowed down by them.  ``seconds`` None
    (not known) counts as large.  Pure: the same arguments give the same answer, and the rows
    never depend on it.  Raises OptionError for a bad ``n_jobs``."""
    jobs = local_jobs(n_jobs, len(sizes), cores)
    if n_jobs > 0 or jobs == 1 or seconds is None:
        return jobs
    total = sum(sizes)
    saved = seconds * (1 - _busiest(list(sizes), jobs) / total) if total > 0 else 0.0
    return jobs if saved > WORKER_START_SECONDS else 1


def free_cores(cores: int | None = None, window: float = LOAD_WINDOW) -> int:
    """The cores (of ``cores``, default this machine's) that other processes leave free now: their
    busy CPU time over ``window`` seconds, all cores together, is taken off, rounded to whole
    cores; at least 1.  On a shared machine workers that must share a core with another busy
    process start slowly and play slowly, and one worker per busy core only adds to that."""
    import psutil

    cores = cores or os.cpu_count() or 1

    def busy() -> float:
        t = psutil.cpu_times()
        return sum(getattr(t, f, 0.0) for f in ("user", "nice", "system", "irq", "softirq", "steal"))

    me = psutil.Process()
    before, mine, start = busy(), sum(me.cpu_times()[:2]), time.perf_counter()
    time.sleep(window)
    others = (busy() - before - (sum(me.cpu_times()[:2]) - mine)) / (time.perf_counter() - start)
    return max(1, min(cores, round(cores - others)))


def default_jobs(n_jobs: int, sizes: list[int], seconds: float | None) -> int:
    """:func:`choose_jobs` on this machine; when a negative ``n_jobs`` would start workers, the
    cores other processes keep busy at that moment are left out (:func:`free_cores`), so that a
    big run on a loaded machine plays here rather than on workers that would wait for a core."""
    jobs = choose_jobs(n_jobs, sizes, seconds)
    if n_jobs < 0 and jobs > 1:
        jobs = choose_jobs(n_jobs, sizes, seconds, free_cores())
    return jobs


def deal_jobs(deals: int, game: str, n_jobs: int, chunk_size: int | None = None, cores: int | None = None) -> int:
    """Worker processes a run of ``deals`` deals of ``game`` in chunks of ``chunk_size`` (default
    :data:`DEFAULT_CHUNK`) gets for ``n_jobs`` (:func:`choose_jobs`; 1: this process)."""
    chunk_size = chunk_size or DEFAULT_CHUNK
    sizes = [min(chunk_size, deals - s) for s in range(0, deals, chunk_size)]
    return choose_jobs(n_jobs, sizes, deal_seconds(game, deals), cores)


def workers(jobs: int) -> Parallel:
    """A joblib Parallel yielding results in task order: ``jobs`` local workers, or the dask
    cluster when joblib's backend is dask (it decides how many)."""
    from joblib import Parallel

    if on_dask():
        return Parallel(n_jobs=-1, return_as="generator")
    return Parallel(n_jobs=jobs, return_as="generator")


@contextlib.contextmanager
def using(client=None):
    """Run the joblib work inside on ``client`` (a ``distributed.Client``), or as configured."""
    if client is None:
        yield
        return
    from joblib import parallel_config

    with parallel_config(backend="dask", client=client):
        yield


CONNECT_TIMEOUT = 10.0
"""Seconds ``--scheduler ADDRESS`` waits for a dask scheduler to answer, unless
``$CARDSIM_CONNECT_TIMEOUT`` says otherwise."""


def connect_timeout() -> float:
    """Seconds to wait for a dask scheduler: ``$CARDSIM_CONNECT_TIMEOUT`` (a number above 0), else
    :data:`CONNECT_TIMEOUT`.  Raises OptionError for a value that is not such a number."""
    text = os.environ.get("CARDSIM_CONNECT_TIMEOUT", "").strip()
    if not text:
        return CONNECT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise OptionError(f"CARDSIM_CONNECT_TIMEOUT must be a number of seconds above 0, got {quote(text)}")
    return seconds


def check_scheduler(address: str, timeout: float) -> None:
    """Raise OptionError unless a dask scheduler answers at ``address`` within ``timeout`` seconds.

    ``distributed.Client(address, timeout=...)`` bounds the connection but not the handshake
    that follows it (dask/distributed#7698 took the handshake out of the timeout on purpose):
    a server that accepts and then says nothing holds the client forever, and one that answers
    something else makes it read a frame length out of that answer (a failed allocation of
    exabytes).  So one comm is opened first with distributed's own ``connect``, handshake
    included, under one deadline, in a thread of its own (the caller may run an event loop).
    """
    import asyncio
    import concurrent.futures

    from distributed.comm import connect

    async def probe():
        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)
        await comm.close()

    pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cardsim-scheduler-probe")
    try:
        pool.submit(asyncio.run, probe()).result()
    except (asyncio.TimeoutError, TimeoutError):
        raise OptionError(f"no dask scheduler answered at {quote(address, 60)} within {timeout:g} s (nothing listens "
                          "there, or something that is not a dask scheduler; $CARDSIM_CONNECT_TIMEOUT sets the "
                          "wait)") from None
    except (Exception, MemoryError) as exc:  # refused, unreachable, an unparsable address, a non-dask answer
        reason = clip(" ".join(str(exc).split()) or type(exc).__name__, 100)
        raise OptionError(f"cannot reach a dask scheduler at {quote(address, 60)}: {reason}") from None
    finally:
        pool.shutdown(wait=False)


@contextlib.contextmanager
def cluster(address: str | None):
    """``--scheduler``: None (local joblib workers), ``"local"`` (a dask LocalCluster with one
    single-threaded worker process per core) or a scheduler address (``tcp://host:8786``).
    Inside, every chunked run of cardsim goes to that cluster.  An address where no dask
    scheduler answers within :func:`connect_timeout` seconds raises OptionError (one line)."""
    if address is None:
        yield None
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask is a dependency
        raise OptionError("--scheduler needs dask.distributed (pip install 'dask[distributed]')") from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            local = stack.enter_context(LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                                                     processes=True, dashboard_address=None))
            client = stack.enter_context(Client(local))
        else:
            timeout = connect_timeout()
            check_scheduler(address, timeout)
            try:
                client = stack.enter_context(Client(address, timeout=timeout))
            except (OSError, TimeoutError, ValueError) as exc:
                raise OptionError(f"cannot reach a dask scheduler at {quote(address, 60)}: "
                                  f"{clip(' '.join(str(exc).split()), 100)}") from None
        from joblib import parallel_config

        stack.enter_context(parallel_config(backend="dask", client=client))
        yield client


def show_progress(progress) -> bool:
    """``progress`` None means: a bar when standard error is a terminal."""
    return sys.stderr.isatty() if progress is None else bool(progress)


def _bar(sizes: list[int], unit: str, progress):
    """A tqdm progress bar over ``sizes``, or a stand-in that shows nothing when progress is off
    (so that a command printing no bar does not pay tqdm's import)."""
    if not show_progress(progress):
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=sum(sizes), unit=unit, unit_scale=True, smoothing=0.1)


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass

    def close(self):
        pass


@contextlib.contextmanager
def _workers_ignore_ctrl_c():
    """Workers started inside are born ignoring SIGINT (the disposition survives exec): Ctrl-C
    reaches the whole process group, and a worker still importing would print its own
    KeyboardInterrupt traceback.  The parent handles Ctrl-C and joblib stops the workers.  The
    window is the pool's start, not the run: a Ctrl-C within it (about 20 ms the first time) is
    lost.  Blocking it instead does not hold it: the kernel hands it to another thread (numpy's
    BLAS threads), where it is ignored."""
    if on_dask() or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def run_tasks(fn: Callable, tasks: list[tuple], sizes: Iterable[int], n_jobs=-1, progress=False,
              unit="deal", seconds: float | None = None):
    """Yield ``fn(*task)`` for every task, in task order, on the configured workers, with a
    progress bar (rate, ETA) advanced by each task's size.  ``seconds``: the estimated one-core
    work of all the tasks, by which a negative ``n_jobs`` decides whether workers are worth
    starting (:func:`choose_jobs`; None: not known, they are)."""
    sizes = list(sizes)
    if not tasks:
        return
    jobs = check_jobs(n_jobs) if on_dask() else default_jobs(n_jobs, sizes, seconds)
    if jobs == 1 and not on_dask():
        # Played here: no worker pool to start and no joblib to import, which is most of a small
        # command's start-up.
        with _bar(sizes, unit, progress) as bar:
            for size, task in zip(sizes, tasks):
                result = fn(*task)
                bar.update(size)
                yield result
        return
    from joblib import delayed

    bar = _bar(sizes, unit, progress)
    with _workers_ignore_ctrl_c():
        results = workers(jobs)(delayed(fn)(*t) for t in tasks)
    try:
        for size, result in zip(sizes, results):
            bar.update(size)
            yield result
    finally:
        # Stopped early (Ctrl-C, an error): joblib cancels the queued tasks and would warn about
        # them; the finished chunks are on disk already, so say nothing more.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results.close()
        bar.close()


def _simulate_chunk(setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
    return get_game(setup.game).simulate_chunk(seed, start, count, setup)


def run_seconds(run: Run, todo=None) -> float:
    """Estimated one-core seconds of the chunks ``todo`` (default all) of ``run`` (:func:`deal_seconds`)."""
    todo = run.chunks() if todo is None else todo
    return deal_seconds(run.setup.game, sum(c for _, _, c in todo))


def iter_chunks(run: Run, todo=None, n_jobs: int = 1, progress: bool = False):
    """Yield ``(chunk number, rows)`` for the chunks in ``todo`` (default all), in order.

    Rows travel back through the parent here: for small runs and tests.  Large runs write
    datasets (:func:`simulate_to_dataset`) or use :func:`simulate`."""
    todo = run.chunks() if todo is None else todo
    results = run_tasks(_simulate_chunk, [(run.setup, run.seed, s, c) for _, s, c in todo],
                        [c for _, _, c in todo], n_jobs, progress, seconds=run_seconds(run, todo))
    for (k, _, _), rows in zip(todo, results):
        yield k, rows


# ------------------------------------------------------------------- rows to columns, in memory
TRANSPOSE_BLOCK = 4096
"""Rows per block when splitting rows into columns: a block stays in cache while each of its
fields is copied out (field by field over a whole chunk is ten times slower).  4096 rows (about
half a megabyte of rows) copy a 100,000-deal chunk in about 7 ms of CPU, 8192 in 9-13 ms."""


def fill_columns(columns: dict, offset: int, rows: np.ndarray) -> None:
    """Copy structured ``rows`` into ``columns[name][offset:offset + len(rows)]``."""
    for s in range(0, len(rows), TRANSPOSE_BLOCK):
        block = rows[s:s + TRANSPOSE_BLOCK]
        for name in rows.dtype.names:
            columns[name][offset + s:offset + s + len(block)] = block[name]


def rows_frame(rows: np.ndarray) -> pd.DataFrame:
    """``pandas.DataFrame(rows)`` for structured ``rows``, about ten times faster: the fields
    are split into columns in cache-sized blocks and pandas keeps the arrays as they are."""
    import pandas as pd

    columns = {name: np.empty(len(rows), rows.dtype[name]) for name in rows.dtype.names}
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
    import mmap

    rows = _simulate_chunk(setup, seed, start, count)
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
    import psutil

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
    import psutil

    return max(1, int(psutil.virtual_memory().available * MEMORY_SHARE) // get_game(game).row_dtype.itemsize)


def simulate_columns(run: Run, n_jobs=-1, progress=False) -> dict:
    """Every deal of ``run`` as one contiguous array per row field (``{name: ndarray[n]}``).

    Local worker processes fill one memory-backed shared file in place (nothing is pickled
    back); one job fills the arrays directly; on a dask cluster the rows come back per chunk."""
    dtype = get_game(run.setup.game).row_dtype
    offsets, size = _layout(dtype, run.n)
    chunks = run.chunks()
    shared = _shared_dir()
    if not on_dask():
        n_jobs = default_jobs(n_jobs, [c for _, _, c in chunks], run_seconds(run))  # decided once, here
    parallel_local = not on_dask() and n_jobs > 1
    if parallel_local and shared and shutil.disk_usage(shared).free > size * 1.05:
        import mmap

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
    columns = {name: np.empty(run.n, dtype[name]) for name in dtype.names}
    for (_, start, _), rows in zip(chunks, run_tasks(_simulate_chunk, [(run.setup, run.seed, s, c) for _, s, c in chunks],
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
    import pandas as pd

    from cardsim import frames

    run = make_run(game, n_deals, seed, strategies, seats, rules, chunk_size)
    check_jobs(n_jobs)
    cap = memory_cap(game)
    if run.n > cap:
        raise OptionError(f"{run.n:,} {game} deals do not fit in memory here (at most about {cap:,}); write them "
                          "to a dataset instead (cardsim simulate -o PATH, or cardsim.runner.simulate_to_dataset)")
    with using(client):
        df = pd.DataFrame(simulate_columns(run, n_jobs, progress), copy=False)
    df = frames.deals(game, df, run.setup.seats)
    if not compact:
        df = frames.widen(df)
    df.attrs.update(run.manifest())
    return df


# ------------------------------------------------------------------------------- datasets
def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then rename it to ``path``: readers
    (and a resumed run) see the whole file or none."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    os.close(fd)
    try:
        write(Path(tmp))
        # mkstemp makes the file private; give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def staging(path) -> Path:
    """Where the unfinished dataset ``path`` lives: ``<path>.partial`` beside it."""
    path = Path(path)
    return path.with_name(path.name + STAGING_SUFFIX)


def _read_manifest(mpath: Path, folder: Path) -> dict:
    try:
        return json.loads(mpath.read_text())
    except (OSError, ValueError):
        raise OutputError(f"{mpath} is unreadable; remove {folder} to start again") from None


def _check_same_run(folder: Path, old: dict, manifest: dict) -> None:
    differ = sorted(k for k in set(old) | set(manifest) if k != "complete" and old.get(k) != manifest.get(k))
    if differ:
        raise OutputError(f"{folder} holds a different run (it differs in {', '.join(differ)}; see {MANIFEST}); "
                          "choose another path or remove it")


def _broken_link(path: Path) -> str | None:
    """Why ``path`` is a symbolic link that leads nowhere (its target missing, or links that loop),
    or None when it is not one.  Raises OutputError when the system cannot look the path up
    (a name too long, a folder it may not read)."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing there yet: the output will be made
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link that loops (it leads back to itself)"
        return f"a symbolic link to {quote(os.readlink(path))}, which does not exist"
    return None


def follow_link(path) -> Path:
    """Where the output ``path`` is written: ``path`` itself, or the target of the symbolic link
    ``path`` when that exists (a dataset is renamed into place, which cannot be done through a
    link, so it is made at the link's target; the link keeps pointing at it).  Raises
    OutputError, before any work, when ``path`` is a link that leads nowhere or cannot be looked
    up, so that nothing is played for an output that cannot be written and no ``.partial``
    folder is left beside a broken link."""
    path = Path(path)
    why = _broken_link(path)
    if why:
        raise OutputError(f"cannot write {path}: it is {why}; remove the link or choose another path")
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _writable_folder(folder: Path, target: Path | None = None) -> None:
    """Create ``folder`` (and its parents) and check that a file can be written in it; OutputError
    naming the file that stands where a folder is needed, a symbolic link that leads nowhere, or
    the system's reason (and ``target``, the file the user asked for in that folder, if given)."""
    try:
        for above in (folder, *folder.parents):
            why = _broken_link(above)
            if why:
                raise OutputError(f"cannot write {target or folder}: {above} is {why}; remove the link or choose "
                                  "another path")
            if above.exists():
                if not above.is_dir():
                    raise OutputError(f"cannot write {folder}: {above} is a file, not a folder")
                break
    except OSError as exc:
        if isinstance(exc, OutputError):
            raise
        raise OutputError(f"cannot write {target or folder}: {exc.strerror or exc}") from None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}"  # two runs may probe the same folder at once
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        if target is not None:
            raise OutputError(f"cannot write {target}: the folder {folder} does not take new files "
                              f"({exc.strerror or exc})") from None
        raise OutputError(f"cannot write {folder}: {exc.strerror or exc}") from None


_CLAIMS: dict[Path, object] = {}
"""The lock files this process holds open (:func:`_claim`), by folder."""


def _claim(folder: Path, what: Path) -> None:
    """Take ``folder`` for this process alone, for as long as it runs: an exclusive lock on
    ``folder/.lock`` (POSIX ``flock``; the system drops it when the process ends, however it
    ends).  Two runs writing the same output would remove each other's unfinished files, so the
    second one is refused: OutputError naming ``what`` (the output the user gave).  Claiming a
    folder this process already holds does nothing."""
    folder = Path(folder).resolve()
    if folder in _CLAIMS:
        return
    try:
        import fcntl
    except ImportError:  # no flock (Windows): runs are not guarded against each other
        return
    f = open(folder / ".lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise OutputError(f"another cardsim run is writing {what} now; wait for it to finish (or stop it), "
                          "then run this command again: it resumes") from None
    _CLAIMS[folder] = f


def _release(folder: Path) -> None:
    """Drop :func:`_claim`'s lock on ``folder`` (its lock file removed first, so that a finished
    output holds no trace of it)."""
    f = _CLAIMS.pop(Path(folder).resolve(), None)
    if f is not None:
        Path(f.name).unlink(missing_ok=True)
        f.close()


def _drop_stale_temporaries(folder: Path) -> None:
    """Temporary files of writers that were killed (kill -9) before they could clean up (only
    called on a folder this process has claimed: a live writer's files are not stale)."""
    for p in folder.glob(".tmp-*"):
        p.unlink(missing_ok=True)


def _lost_parts(path: Path, manifest: dict) -> bool:
    """Whether a dataset lacks a part file its manifest's chunks call for."""
    n_chunks = -(-int(manifest["n_deals"]) // int(manifest["chunk_size"]))
    return any(not part_path(path, k).exists() for k in range(n_chunks))


def prepare_dataset(path, manifest: dict) -> tuple[Path, set[int]] | None:
    """Open the staging folder of dataset ``path`` for ``manifest``: ``(folder, chunk numbers
    already written)``, or None when ``path`` already holds this run, complete.

    Raises OutputError when the path cannot be written or holds a different run.
    """
    path = Path(path)
    if path.name.endswith(STAGING_SUFFIX):
        # <name>.partial is where an unfinished run of <name> is staged: a dataset written there
        # would read as unfinished and be taken over by the next run of <name>.
        raise OutputError(f"{path}: a name ending in {STAGING_SUFFIX} is where unfinished runs are kept; "
                          f"choose another name")
    final = path / MANIFEST
    if path.exists():
        if not path.is_dir():
            raise OutputError(f"{path} exists and is not a dataset directory")
        if final.exists():
            old = _read_manifest(final, path)
            _check_same_run(path, old, manifest)
            if old.get("complete") and not _lost_parts(path, old):
                return None
            # An unfinished dataset written in place by an earlier cardsim, or a finished one that
            # lost part files (deleted, not copied): finish it in staging.
            if not staging(path).exists():
                os.replace(path, staging(path))
        elif any(path.iterdir()):
            raise OutputError(f"{path} exists and is not a cardsim dataset; choose another path or remove it")
    folder = staging(path)
    _writable_folder(folder, path)
    mpath = folder / MANIFEST
    if mpath.exists():
        _check_same_run(path, _read_manifest(mpath, folder), manifest)
    else:
        atomic_write(mpath, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    _claim(folder, path)
    _drop_stale_temporaries(folder)
    return folder, {int(p.stem.split("-")[1]) for p in folder.glob("part-*.parquet")}


def part_path(path, k: int) -> Path:
    return Path(path) / f"part-{k:06d}.parquet"


def transform_id(transform) -> str:
    """``module.name@hash``: a chunk transform and a hash of its module's source, so that stored
    aggregates are reused exactly while the code that made them is unchanged."""
    import inspect

    try:
        source = inspect.getsource(inspect.getmodule(transform))
    except (OSError, TypeError):  # typed at a prompt: no source to hash, the name must do
        source = ""
    return f"{transform.__module__}.{transform.__qualname__}@{hashlib.sha256(source.encode()).hexdigest()[:12]}"


WRITE_BATCH = 1 << 16
"""Rows a parquet column writer takes at a time (:func:`encode_rows`)."""
_COLUMNS = threading.local()
"""Each thread's column buffers for :func:`encode_rows`, kept from chunk to chunk: fresh ones
would be faulted in page by page at every chunk (about 7 ms of CPU per 100,000 Vint deals)."""


def _column_buffers(dtype: np.dtype, n: int) -> dict:
    key = (dtype, n)
    if getattr(_COLUMNS, "key", None) != key:
        _COLUMNS.key, _COLUMNS.columns = key, {name: np.empty(n, dtype[name]) for name in dtype.names}
    return _COLUMNS.columns


def encode_rows(rows: np.ndarray, sink) -> None:
    """Write structured ``rows`` as one parquet file to ``sink`` (a path or a binary file).

    Columns are written straight from the rows with pyarrow (no DataFrame in between).
    Parquet stores every integer narrower than 32 bits as 32 bits, so the encoding is what
    costs, and it competes with the engine for the same cores.  The small integers are written
    byte-stream split and LZ4-compressed: the three high bytes of an 8- or 16-bit value widened
    to 32 bits are runs LZ4 skips through, so this takes about 70% of the time of delta
    bit-packing (the encoding before, itself under half the time of dictionary plus snappy) and
    the files are a little smaller (Vint ~48 bytes a deal, 501 ~28, Five Hundred ~98).  The deal
    number stays delta-packed (consecutive numbers cost almost nothing) and the 64-bit card
    sets plain (random bits compress to nothing).  Reading byte-stream-split integers takes
    pyarrow 17 or newer (Parquet format 2.11).  ``pandas.read_parquet`` gives back the columns
    and dtypes of ``pandas.DataFrame(rows)``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = _column_buffers(rows.dtype, len(rows))
    fill_columns(columns, 0, rows)
    small = [name for name in rows.dtype.names if rows.dtype[name].kind in "iu" and rows.dtype[name].itemsize <= 4]
    encoding = {name: "BYTE_STREAM_SPLIT" for name in small}
    if "deal" in rows.dtype.names:
        encoding["deal"] = "DELTA_BINARY_PACKED"
    compression = {name: "lz4" if name in small else "none" for name in rows.dtype.names}
    # Rows have no missing values: fields marked required need no definition levels, which
    # saves about a fifth of the encoding time; readers get the same columns and dtypes.
    schema = pa.schema([pa.field(name, pa.from_numpy_dtype(rows.dtype[name]), nullable=False)
                        for name in rows.dtype.names])
    # The arrays are made over the columns' memory (booleans packed to bits, as Arrow keeps them)
    # rather than by pa.table / pa.array, which import pandas to ask whether a column is a pandas
    # object: a worker writing a dataset then starts without pandas.  The same table either way.
    arrays = [pa.Array.from_buffers(field.type, len(rows), [None, pa.py_buffer(
        np.packbits(columns[field.name], bitorder="little") if field.type == pa.bool_() else columns[field.name])])
        for field in schema]
    # Statistics (min/max per column) cost a tenth of the encoding; only the deal number's are
    # worth it, for readers that filter on deal ranges.  A chunk's column goes to the encoder in
    # one batch, not pyarrow's default 1,024 rows (6% of the encoding).
    pq.write_table(pa.Table.from_arrays(arrays, schema=schema), sink, use_dictionary=False, compression=compression,
                   column_encoding=encoding, write_statistics=["deal"], write_batch_size=WRITE_BATCH)


def _write_part(folder: Path, k: int, setup: Setup, seed: int, start: int, count: int, transform=None) -> int:
    """Worker: play one chunk and write it as ``part-k`` of ``folder``; returns its deal count."""
    rows = _simulate_chunk(setup, seed, start, count)
    if transform is None:
        atomic_write(part_path(folder, k), lambda p: encode_rows(rows, p))
    else:
        from cardsim import frames

        df = transform(frames.deals(setup.game, rows_frame(rows), setup.seats))
        atomic_write(part_path(folder, k), lambda p: df.to_parquet(p, index=True))
    return count


def estimated_bytes(run: Run, deals: int, chunks: int, sample: int = 2000) -> float:
    """Estimated parquet bytes of ``deals`` deals of ``run`` in ``chunks`` files: the first
    ``sample`` and ``2 × sample`` deals encoded, their difference the cost of a deal and the
    rest the cost of a file (its metadata)."""
    rows = _simulate_chunk(run.setup, run.seed, 0, 2 * sample)
    sizes = []
    for count in (sample, 2 * sample):
        sink = io.BytesIO()
        encode_rows(rows[:count], sink)
        sizes.append(sink.tell())
    per_deal = max(sizes[1] - sizes[0], 1) / sample
    return deals * per_deal + chunks * max(sizes[0] - sample * per_deal, 0)


def _size(nbytes: float) -> str:
    """Bytes for people: ``1.2 GB``, ``35.0 MB``, ``512 kB`` (never a ``0.0 GB`` that hides the
    numbers on a small disk)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if nbytes >= scale:
            return f"{nbytes / scale:,.1f} {unit}"
    return f"{nbytes / 1e3:,.0f} kB"


def check_disk_space(folder: Path, run: Run, todo: list[tuple[int, int, int]]) -> None:
    """Raise OutputError when ``folder`` has clearly too little room for the chunks ``todo``
    (estimated from a sample only when their raw row size does not fit already)."""
    free = shutil.disk_usage(folder).free
    deals = sum(c for _, _, c in todo)
    if deals * get_game(run.setup.game).row_dtype.itemsize * DISK_MARGIN <= free:
        return
    need = estimated_bytes(run, deals, len(todo)) * DISK_MARGIN
    if need > free:
        raise OutputError(f"{deals:,} {run.setup.game} deals need about {_size(need)} and "
                          f"{folder.resolve().parent} has {_size(free)} free; free some space, write "
                          "elsewhere or simulate fewer deals")


def simulate_to_dataset(path, run: Run, n_jobs=-1, progress=False, transform=None, client=None) -> Path:
    """Write a run as a parquet dataset directory, resuming an interrupted one.

    Each chunk becomes ``part-NNNNNN.parquet``, written by the worker that played it: the raw row
    codes (compact; ``cardsim.read_dataset`` reads them back as the typed frame), or
    ``transform(typed frame of the chunk)`` if given, e.g. an analysis' partial aggregates.  The
    run is staged in ``<path>.partial`` and renamed to ``path`` when complete, so
    ``pandas.read_parquet(path)`` reads either every deal or nothing.  On a dask cluster
    (``client``) ``path`` must be reachable from every worker.  A symbolic link at ``path`` is
    followed (the dataset is made at its target).  Raises OutputError, before any deal is
    played (unwritable path, a link that leads nowhere, too little disk space, a different run at
    ``path``).
    """
    path = follow_link(path)
    manifest = run.manifest()
    if transform is not None:
        manifest["transform"] = transform_id(transform)
    opened = prepare_dataset(path, manifest)
    if opened is None:
        return path
    folder, done = opened
    todo = [c for c in run.chunks() if c[0] not in done]
    if transform is None:
        try:
            check_disk_space(folder, run, todo)
        except OutputError:
            if not done:
                shutil.rmtree(folder, ignore_errors=True)  # leave nothing behind a run that never started
            raise
    tasks = [(folder.resolve(), k, run.setup, run.seed, s, c, transform) for k, s, c in todo]
    with using(client):
        for _ in run_tasks(_write_part, tasks, [c for _, _, c in todo], n_jobs, progress,
                           seconds=run_seconds(run, todo)):
            pass
    manifest["complete"] = True
    atomic_write(folder / MANIFEST, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    if path.exists():
        path.rmdir()  # an empty folder the user made for the output
    _release(folder)
    os.replace(folder, path)
    return path


def read_parts(path) -> list[pd.DataFrame]:
    """Every chunk file of a dataset, in chunk order."""
    import pandas as pd

    return [pd.read_parquet(p) for p in sorted(Path(path).glob("part-*.parquet"))]


# -------------------------------------------------------------------- chunk stores (resume)
def runs_dir() -> Path:
    """Where commands keep the chunks of unfinished runs that write no dataset
    (``$CARDSIM_RUNS``, else ``~/.cache/cardsim/runs``)."""
    return Path(os.environ.get("CARDSIM_RUNS") or Path.home() / ".cache" / "cardsim" / "runs")


def manifest_key(manifest: dict) -> str:
    """16 hex digits naming a run's manifest (for a store folder in :func:`runs_dir`)."""
    return hashlib.sha256(json.dumps(manifest, sort_keys=True, default=repr).encode()).hexdigest()[:16]


class ChunkStore:
    """The finished chunk results of one run, one pickle file each, written atomically.

    ``path`` holds a ``_manifest.json`` fixing the run; a store holding a different run is
    refused (OutputError).  Results are stored exactly (pickle), so a resumed run merges the
    same numbers as an uninterrupted one.
    """

    def __init__(self, path, manifest: dict):
        # Absolute: workers elsewhere (dask) need no working directory.  realpath, unlike resolve(),
        # does not raise on links that loop; follow_link refuses those with a one-line error.
        self.path = Path(os.path.realpath(follow_link(path)))
        if self.path.exists() and not (self.path / MANIFEST).exists() and any(self.path.iterdir()):
            raise OutputError(f"{self.path} exists and holds no cardsim run; choose another path or remove it")
        _writable_folder(self.path)
        mpath = self.path / MANIFEST
        manifest = json.loads(json.dumps(manifest, default=repr))
        if mpath.exists():
            _check_same_run(self.path, _read_manifest(mpath, self.path), manifest)
        else:
            atomic_write(mpath, lambda p: p.write_text(json.dumps(manifest, indent=1)))
        _claim(self.path, self.path)
        _drop_stale_temporaries(self.path)

    def chunk_path(self, k: int) -> Path:
        return self.path / f"chunk-{k:06d}.pkl"

    def done(self) -> set[int]:
        return {int(p.stem.split("-")[1]) for p in self.path.glob("chunk-*.pkl")}

    def save(self, k: int, result) -> None:
        atomic_write(self.chunk_path(k), lambda p: p.write_bytes(pickle.dumps(result, protocol=5)))

    def load(self, k: int):
        """Chunk ``k``'s result.  Raises OutputError when its file cannot be read back (chunks are
        written whole, so only a disk fault or a hand edit damages one)."""
        path = self.chunk_path(k)
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, ImportError) as exc:
            raise OutputError(f"{path} is damaged ({type(exc).__name__}: {exc}); remove that file and run the "
                              "same command again to redo its chunk") from None

    @staticmethod
    def discard(path) -> None:
        """Remove the store at ``path`` (its run's result is safely written elsewhere)."""
        _release(path)
        shutil.rmtree(path, ignore_errors=True)


def _stored_call(fn: Callable, target: Path | None, args: tuple):
    """Worker: ``fn(*args)``; with a ``target`` the result is written there atomically (large
    results: they never travel back) and None is returned."""
    result = fn(*args)
    if target is None:
        return result
    atomic_write(Path(target), lambda p: p.write_bytes(pickle.dumps(result, protocol=5)))
    return None


def run_chunks(fn: Callable, tasks: list[tuple], sizes: list[int], n_jobs=-1, progress=False, store=None,
               give_back=True, unit="deal", seconds: float | None = None):
    """Yield ``fn(*task)`` for every task, in task order; with a :class:`ChunkStore` each result
    is kept as chunk ``k`` (its index) and chunks already there are read, not run again.
    ``seconds``: the estimated one-core work of all the tasks (:func:`run_tasks`; scaled down to
    the tasks left when resuming), None when not known (a negative ``n_jobs`` then starts workers).

    ``give_back=True`` (small summaries): results come back and this process stores them, so
    the store needs to be reachable from here only.  ``give_back=False`` (rows): each worker
    writes its result to the store (which every worker must reach) and it is read back here."""
    if store is not None:
        _claim(store.path, store.path)  # held since the store was opened, unless an earlier run released it
    done = store.done() if store is not None else set()
    todo = [k for k in range(len(tasks)) if k not in done]
    if store is not None and todo:
        check_disk_space_for_store(store.path)
    workers_write = store is not None and not give_back
    if seconds is not None and done:
        seconds *= sum(sizes[k] for k in todo) / max(sum(sizes), 1)
    fresh = run_tasks(_stored_call, [(fn, store.chunk_path(k) if workers_write else None, tasks[k]) for k in todo],
                      [sizes[k] for k in todo], n_jobs, progress, unit, seconds)
    for k in range(len(tasks)):
        if k in done:
            yield store.load(k)
            continue
        result = next(fresh)
        if workers_write:
            result = store.load(k)
        elif store is not None:
            store.save(k, result)
        yield result
    if store is not None:
        # Finished: another process may take the store now (a notebook that ran play_match(store=...)
        # would otherwise keep it until it exits).
        _release(store.path)


def analysis_store(results, name: str, code: Callable, **identity) -> ChunkStore | None:
    """The :class:`ChunkStore` in which an analysis keeps its finished tasks, so that the same
    call after an interruption resumes: ``results/<name>-<key>``, the key a hash of ``identity``
    (everything the tasks' results depend on: sizes, seed, strategies), of the jitted sources and
    of ``code``'s module, so an edit to either starts afresh.  None when ``results`` is None
    (nothing is kept)."""
    if results is None:
        return None
    manifest = {"analysis": name, **identity, "source": source_hash(), "code": transform_id(code),
                "cardsim": __version__}
    return ChunkStore(Path(results) / f"{name}-{manifest_key(manifest)}", manifest)


def check_disk_space_for_store(folder: Path, need: int = 1 << 20) -> None:
    if shutil.disk_usage(folder).free < need:
        raise OutputError(f"{folder} has less than 1 MB free")


# ------------------------------------------------------------------------------- matches
def check_output_file(path) -> Path:
    """An output file that can be written, returned as the path to write (a symbolic link's
    target, :func:`follow_link`): its folder is created if missing (as for a dataset's ``-o``)
    and must accept files (checked by creating and removing a probe).  Raises OutputError before
    any work is done."""
    path = follow_link(path)
    if path.is_dir():
        raise OutputError(f"{path} is a directory")
    _writable_folder(path.parent, path)
    return path


def play_matches(game, n_matches, seed=0, strategies=None, seats=None, rules=None, n_jobs=-1,
                 chunk_size=10_000, compact=True, before=None, dealer=None, store=None, progress=False,
                 client=None):
    """Play ``n_matches`` whole matches (Vint: rubbers).  Returns ``(matches, deals)`` typed
    DataFrames (:mod:`cardsim.frames`; ``cardsim columns GAME`` lists their columns).

    Match ``m`` depends on ``(seed, m)`` only; ``compact`` as for :func:`simulate`.  ``before``
    (501: one score per seat) starts every match from that state and ``dealer`` fixes who deals
    first (default: drawn per match); games that cannot start from a state raise OptionError.
    ``store``: a folder where each finished chunk is kept, so that the same call after an
    interruption resumes (the folder is kept; remove it when done).  ``n_jobs`` and ``client``
    as for :func:`simulate`.  Raises OptionError when the game has no match mode or an argument
    is bad, OutputError when ``store`` holds another run.
    """
    run = make_run(game, n_matches, seed, strategies, seats, rules, chunk_size, what="the number of matches")
    spec = get_game(game)
    if spec.play_matches is None:
        raise OptionError(f"{spec.name} has no match mode")
    start = {k: v for k, v in (("before", before), ("dealer", dealer)) if v is not None}
    if start and spec.name != "501":
        raise OptionError(f"{spec.name} matches start from a clean state here (before= and dealer= are for 501)")
    if start:
        spec.play_matches(run.seed, 0, 1, run.setup, **start)  # a bad state is an error before any worker starts
    manifest = run.manifest()
    if start:
        manifest["start"] = {k: (list(map(int, v)) if k == "before" else int(v)) for k, v in start.items()}
    chunks = run.chunks()
    chunk_store = ChunkStore(store, dict(manifest, kind="matches")) if store is not None else None
    with using(client):
        out = list(run_chunks(_match_chunk, [(run.setup, run.seed, s, c, start) for _, s, c in chunks],
                              [c for _, _, c in chunks], n_jobs, progress, chunk_store, give_back=False,
                              unit="match", seconds=match_seconds(game, run.n, before)))
    from cardsim import frames

    matches = frames.matches(game, np.concatenate([m for m, _ in out]), run.setup.seats)
    deals = frames.deals(game, np.concatenate([d for _, d in out]), run.setup.seats)
    if not compact:
        matches, deals = frames.widen(matches), frames.widen(deals)
    matches.attrs.update(manifest)
    deals.attrs.update(manifest)
    return matches, deals


def match_seconds(game: str, matches: int, before=None) -> float:
    """Estimated one-core seconds of ``matches`` whole matches of ``game`` (:data:`DEALS_PER_MATCH`
    deals each; a 501 game started from the scores ``before`` in proportion to its lowest score)."""
    deals = DEALS_PER_MATCH.get(game, max(DEALS_PER_MATCH.values()))
    if before is not None and game == "501":
        deals = max(1.0, deals * min(before) / 501)
    return deal_seconds(game, matches * deals)


def _match_chunk(setup, seed, start, count, kwargs=None):
    return get_game(setup.game).play_matches(seed, start, count, setup, **(kwargs or {}))


def __getattr__(name):
    if name == "widen":  # cardsim.runner.widen, as before: the function is cardsim.frames.widen
        from cardsim.frames import widen

        return widen
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
