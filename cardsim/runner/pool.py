"""The worker pool: how many workers a run gets, where they run, and running tasks on them.

Chunks run on joblib workers (all cores when the run pays for starting them; ``n_jobs=1`` runs
them in this process) or on a dask.distributed cluster (:func:`cluster`, ``client=``, or
``joblib.parallel_config(backend="dask")``), with a progress bar (:func:`run_tasks`).  The
workers' number never changes the rows (DESIGN.md property 1).
"""
from __future__ import annotations

import contextlib
import heapq
import os
import signal
import sys
import threading
import time
import warnings
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError
from cardsim.text import clip, quote

if TYPE_CHECKING:
    from joblib import Parallel


def check_jobs(n_jobs) -> int:
    """``n_jobs`` as given (a non-zero whole number, -1 = all cores); raises OptionError."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise OptionError(f"n_jobs must be a non-zero whole number (-1 = all cores), got {quote(n_jobs)}")
    return int(n_jobs)


def on_dask() -> bool:
    """Whether joblib's active backend is dask (``parallel_config(backend="dask")``)."""
    if "joblib" not in sys.modules:
        return False  # nobody can have configured a backend; importing joblib costs start-up time
    from joblib.parallel import get_active_backend  # local: joblib is slow to import; only a run with workers needs it

    return "dask" in type(get_active_backend()[0]).__name__.lower()


def local_jobs(n_jobs: int, n_tasks: int, cores: int | None = None) -> int:
    """How many local worker processes ``n_jobs`` means for ``n_tasks`` tasks on ``cores`` cores
    (default: this machine's), before :func:`choose_jobs` weighs a default run (1: this process)."""
    n_jobs = check_jobs(n_jobs)
    cores = cores or os.cpu_count() or 1
    return max(1, min(n_jobs if n_jobs > 0 else cores + 1 + n_jobs, n_tasks))


WORKER_START_SECONDS = 3.0
"""What starting the local workers adds to a run's wall time on an otherwise idle machine: loky
starts a fresh interpreter per worker, which imports cardsim and loads the game's compiled
kernels before its first chunk, while the parent waits.  Measured as the wall time with
``--jobs 2`` less the time with ``--jobs 1`` plus the work the second worker takes off the
first (BENCHMARKS.md, same run as each game's ``GameSpec.play.deal_seconds``, the machine otherwise idle): 2.4 to
3.1 s for Vint and 501 at 200,000 and 1,000,000 deals (an earlier run saw 1.9 s); the high end is
taken, so that the default errs towards playing here."""
LOAD_WINDOW = 0.1
"""Seconds :func:`free_cores` watches the machine's CPU use for."""


def deal_seconds(game: str, plays: float) -> float:
    """Estimated one-core seconds of ``plays`` complete deals of ``game`` (its spec's
    ``play.deal_seconds``; a game without one counts as the slowest that has one)."""
    return plays * _per_game(game, lambda spec: spec.play.deal_seconds)


def match_seconds(game: str, matches: int, before=None, rules=None) -> float:
    """Estimated one-core seconds of ``matches`` whole matches of ``game`` (its spec's
    ``matches.deals_per_match`` deals each; a game started from the state ``before`` in proportion
    to the share of its deals left: the spec's ``matches.left(before, rules)``, else its lowest
    score out of the spec's ``matches.start_score``)."""
    deals = _per_game(game, lambda spec: spec.matches.deals_per_match if spec.matches else None)
    spec = get_game(game)
    start = spec.matches.start_score if spec.matches else None
    if before is not None and spec.matches is not None and spec.matches.left is not None:
        deals = max(1.0, deals * spec.matches.left(before, rules or {}))
    elif before is not None and start is not None:
        deals = max(1.0, deals * min(before) / start)
    return deal_seconds(game, matches * deals)


def _per_game(game: str, value) -> float:
    """``value(spec)`` of ``game``, or when it is None the largest of the built-in games' that are not."""
    own = value(get_game(game))
    if own is not None:
        return own
    return max(v for v in (value(get_game(g)) for g in GAME_NAMES) if v is not None)


def _busiest(sizes: list[int], jobs: int) -> int:
    """The largest share of ``sizes`` one of ``jobs`` workers plays when each task goes to the
    first free worker, in order (as joblib hands them out), the tasks' time taken as their size."""
    if len(sizes) > 1000:  # granularity no longer matters: an even split
        return -(-sum(sizes) // jobs)

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
    import psutil  # local: psutil is slow to import; only this function needs it

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


def workers(jobs: int) -> Parallel:
    """A joblib Parallel yielding results in task order: ``jobs`` local workers, or the dask
    cluster when joblib's backend is dask (it decides how many)."""
    from joblib import Parallel  # local: joblib is slow to import; only a run with workers needs it

    if on_dask():
        return Parallel(n_jobs=-1, return_as="generator")
    return Parallel(n_jobs=jobs, return_as="generator")


@contextlib.contextmanager
def using(client=None):
    """Run the joblib work inside on ``client`` (a ``distributed.Client``), or as configured."""
    if client is None:
        yield
        return
    from joblib import parallel_config  # local: joblib is slow to import; only a run with workers needs it

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
    import asyncio  # local: asyncio is slow to import; only a dask address check needs it
    import concurrent.futures  # local: asyncio is slow to import; only a dask address check needs it

    from distributed.comm import connect  # local: dask is slow to import; only a dask run needs it

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
        from distributed import Client, LocalCluster  # local: dask is slow to import; only a dask run needs it
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
        from joblib import parallel_config  # local: joblib is slow to import; only a run with workers needs it

        stack.enter_context(parallel_config(backend="dask", client=client))
        yield client


def show_progress(progress) -> bool:
    """``progress`` None means: a bar when standard error is a terminal."""
    return sys.stderr.isatty() if progress is None else bool(progress)


def progress_bar(total: int, unit: str, progress):
    """A tqdm bar over ``total`` items of ``unit`` (rate, ETA) when ``progress`` asks for one
    (None: when standard error is a terminal), else a stand-in that shows nothing; a context
    manager with ``update(n)``."""
    return _bar([total], unit, progress)


def _bar(sizes: list[int], unit: str, progress):
    """A tqdm progress bar over ``sizes``, or a stand-in that shows nothing when progress is off
    (so that a command printing no bar does not pay tqdm's import)."""
    if not show_progress(progress):
        return _NoBar()
    from tqdm import tqdm  # local: tqdm is slow to import; only a progress bar needs it

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


PARENT_CHECK_SECONDS = 0.5
"""How often a local worker looks whether the process that started it is still there."""
_WATCHING: list[int] = []
"""The parent this worker process watches (:func:`end_with_parent`), once it started watching."""


def watched_parent() -> int | None:
    """The process id this worker process watches (:func:`end_with_parent`), or None when it
    watches none (a run played in its own process, or a worker before its first task)."""
    return _WATCHING[0] if _WATCHING else None


def end_with_parent(parent: int) -> None:
    """In a local worker: end this process (``os._exit``) as soon as ``parent`` is no longer its
    parent, i.e. the run that started it died without stopping it (``kill -9``, an out-of-memory
    kill).  loky's workers would otherwise wait for their idle timeout (300 s) and finish the
    chunks already handed to them, writing parts nobody reads.  A daemon thread polls
    ``os.getppid()`` every :data:`PARENT_CHECK_SECONDS`; it runs while a chunk is played, the
    kernels being nogil.  (``prctl(PR_SET_PDEATHSIG)`` is not used: it fires when the parent's
    *thread* that started the worker ends, which for a reused loky pool need not be the run's
    end.)  A chunk cut short leaves a temporary file, which the next run removes.  Called in the
    process ``parent`` itself (a run played without workers), or a second time, it does nothing."""
    if _WATCHING or os.getpid() == parent:
        return
    _WATCHING.append(parent)
    if os.getppid() != parent:
        os._exit(1)  # the parent died before this worker's first task

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="cardsim-parent-watch", daemon=True).start()


def run_guarded(parent: int, fn: Callable, *args):
    """Worker: ``fn(*args)`` (its result returned, its errors raised), this process ending with
    ``parent``, the process id of the run that started it (:func:`end_with_parent`)."""
    end_with_parent(parent)
    return fn(*args)


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
    from joblib import delayed  # local: joblib is slow to import; only a run with workers needs it

    bar = _bar(sizes, unit, progress)
    with _workers_ignore_ctrl_c():
        if on_dask():  # the cluster's workers outlive this process by design
            results = workers(jobs)(delayed(fn)(*t) for t in tasks)
        else:
            results = workers(jobs)(delayed(run_guarded)(os.getpid(), fn, *t) for t in tasks)
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
