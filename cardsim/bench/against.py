"""Before and after: this tree's engine against another commit's, measured alternately in one run.

``cardsim bench --against REV`` (and ``make bench AGAINST=REV``, ``cardsim bench pimc-time FILE
--against REV``): the commit ``REV`` of this
repository is unpacked once into a cache folder (``git archive``; its numba cache kept beside it,
so only the first comparison compiles it), and each side is measured in an interpreter whose
``cardsim`` is either that tree or this one.  The engine rates alternate chunk by chunk between
two long-lived interpreters (before, after, after, before, …), so that both meet the same
neighbours on a shared machine, and the verdict is the median of the per-round ratios: fresh
processes a quarter of a minute apart moved the ratio by ±10% on a shared host (BENCHMARKS.md),
chunks a fraction of a second apart by about ±2%.
"""
from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from cardsim.bench.common import SEED

THIS_TREE = Path(__file__).resolve().parents[2]
"""The folder holding this ``cardsim`` package (no git needed to measure this tree alone)."""

_WORKER = r"""
import os, sys, time
from cardsim.games import get_game
game, seed, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if cpu >= 0:
    os.sched_setaffinity(0, {cpu})
spec = get_game(game)
setup = spec.setup()
play = getattr(spec, "play", spec)  # an older commit's spec has the entry points at the top
play.simulate_chunk(seed, 0, 2000, setup)
play.deal_chunk(seed, 0, 2000)
print("ready", flush=True)
for line in sys.stdin:
    what, start, count = line.split()
    t = time.process_time()
    if what == "full":
        play.simulate_chunk(seed, int(start), int(count), setup)
    else:
        play.deal_chunk(seed, int(start), int(count))
    print(repr(time.process_time() - t), flush=True)
"""
DEAL_CHUNK_FACTOR = 10
"""Dealing alone is about twenty times faster than a complete deal: its chunks are this many
times larger, so that each still takes a measurable slice of CPU time."""

_COMPILE = r"""
import time
t = time.perf_counter()
from cardsim.games import get_game
g = get_game(%r)
play = getattr(g, "play", g)  # an older commit's spec has the entry points at the top
play.simulate_chunk(1, 0, 10, g.setup())
play.deal_chunk(1, 0, 10)
print(time.perf_counter() - t)
"""


class RevisionError(Exception):
    """``REV`` names no commit of this repository, or git is missing."""


def repository_root() -> Path:
    """The root of the git work tree this package was imported from.  Raises RevisionError."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True)
    except FileNotFoundError:
        raise RevisionError("git is not installed: --against needs it to unpack the other commit") from None
    if out.returncode != 0:
        raise RevisionError(f"{here} is not in a git work tree: --against compares two commits of one")
    return Path(out.stdout.strip())


def tree_at(rev: str, cache: Path | None = None) -> tuple[str, Path]:
    """``(sha, folder)``: the files of commit ``rev`` unpacked under ``cache`` (default
    ``~/.cache/cardsim/trees``), reused when already there.  Raises RevisionError."""
    root = repository_root()
    out = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=root,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RevisionError(f"--against {rev!r}: no such commit in {root}")
    sha = out.stdout.strip()
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cardsim" / "trees"
    folder = cache / sha
    if not (folder / ".unpacked").exists():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha], cwd=root, capture_output=True, check=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
        (folder / ".unpacked").touch()
    return sha, folder


def tree_env(tree: Path | None, cache: str | None = None) -> dict:
    """The environment of an interpreter whose ``cardsim`` is ``tree`` (None: this one) and whose
    numba cache is ``cache`` (None: the other tree's own, beside it; this tree's usual one).  The
    interpreter runs only the other tree's own code (its ``cardsim.games``, ``cardsim.simulate``
    and ``python -m cardsim``), never this package, so commits from before this package existed
    are measured as they are."""
    env = dict(os.environ, PYTHONPATH=str(tree or THIS_TREE))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    elif tree is not None:
        env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
    return env


def _run(argv: list[str], tree: Path | None, cache: str | None = None) -> str:
    """The last line ``python ARGV`` prints in a fresh interpreter (:func:`tree_env`)."""
    out = subprocess.run([sys.executable, *argv], env=tree_env(tree, cache), cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"measuring in {tree or 'this tree'} failed:\n{out.stderr[-2000:]}")
    return out.stdout.strip().splitlines()[-1]


class EngineWorker:
    """A long-lived interpreter whose ``cardsim`` is ``tree`` (None: this one), warmed, playing
    chunks on request (:data:`_WORKER`), on core ``cpu`` alone (−1: where the system puts it).
    Its error output goes to a file, not a pipe: a pipe nobody reads while the worker writes
    (numba's warnings during a compile) would stop both processes.  RuntimeError with the end of
    that output when the worker fails to start or dies during a chunk."""

    def __init__(self, game: str, tree: Path | None, cpu: int = -1):
        self.where = tree
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, game, str(SEED), str(cpu)], env=tree_env(tree),
                                     cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
                                     text=True)
        self._expect("ready")

    def _fail(self) -> RuntimeError:
        self.proc.kill()
        self.proc.wait()
        self.errors.seek(0)
        return RuntimeError(f"measuring in {self.where or 'this tree'} failed:\n{self.errors.read()[-2000:]}")

    def _expect(self, what: str | None = None) -> str:
        line = self.proc.stdout.readline().strip()
        if not line or (what is not None and line != what):
            raise self._fail()
        return line

    def seconds(self, what: str, start: int, count: int) -> float:
        """CPU seconds of one chunk: ``what`` is "full" (complete deals) or "deal" (dealing only)."""
        try:
            self.proc.stdin.write(f"{what} {start} {count}\n")
            self.proc.stdin.flush()
        except OSError:  # the worker has gone: say why, as when it dies during a chunk
            raise self._fail() from None
        return float(self._expect())

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:  # already gone
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.errors.close()


def engine_rates(game: str, rev: str | None, deals: int = 300_000, rounds: int = 24, chunk: int = 50_000,
                 progress=None, after: Path | None = None) -> dict:
    """Complete deals and dealing only per CPU second on one core (``simulate_chunk`` /
    ``deal_chunk``, the default strategies, seed 12345), for commit ``rev`` ("before"; or a
    folder holding a cardsim tree; None: no before) and this tree ("after"; ``after``: another
    folder).

    One long-lived, warmed interpreter a side, both on the same core; in each of ``rounds``
    rounds both play the same chunk of ``chunk`` complete deals (cycling through deals
    ``0 .. deals-1``) and the same chunk of :data:`DEAL_CHUNK_FACTOR` × ``chunk`` dealt only, one
    after the other, the order reversed every round, so both sides meet the same neighbours on
    a shared machine within a fraction of a second.  Returns ``{"before": {"full_1": …,
    "deal_1": …} or None, "after": {…}, "paired": {"full_1": …, "deal_1": …} or None, "sha": …}``:
    each side's best chunk (deals per CPU second) and the median over rounds of after's rate
    over before's in that round (the ratio the verdicts use: a disturbed round moves both sides'
    chunks, not one side's best).  Raises RevisionError; RuntimeError when a side cannot be
    measured."""
    sides = [("after", after)]
    sha = None
    if rev is not None:
        sha, tree = (rev, Path(rev)) if Path(rev).is_dir() else tree_at(rev)
        sides.insert(0, ("before", tree))
    if progress:
        progress(f"{game}: starting {' and '.join(side for side, _ in sides)} (compiles a tree's engine once)")
    workers = {}
    try:
        # Both sides on one core: each process otherwise keeps to a core of its own, and on a
        # shared host the two cores' neighbours differ (unpinned, the same two trees measured
        # 1.06 and 0.96 in two runs; pinned, within ±2%, BENCHMARKS.md).
        cpu = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else -1
        for side, where in sides:
            workers[side] = EngineWorker(game, where, cpu)
        rates = {side: {"full_1": [], "deal_1": []} for side, _ in sides}  # deals per CPU second, a chunk each
        starts = list(range(0, deals, chunk))
        for r in range(rounds):
            if progress and r % 8 == 0:
                progress(f"{game}: round {r + 1} of {rounds}")
            start = starts[r % len(starts)]
            order = sides if r % 2 == 0 else sides[::-1]
            for key, what, count in (("full_1", "full", min(chunk, deals - start)),
                                     ("deal_1", "deal", DEAL_CHUNK_FACTOR * chunk)):
                for side, _ in order:
                    rates[side][key].append(count / workers[side].seconds(what, start, count))
    finally:
        for w in workers.values():
            try:
                w.close()
            except OSError:  # one worker's trouble must not leave the other running
                pass
    best = {side: {key: max(chunks) for key, chunks in r.items()} for side, r in rates.items()}
    paired = None
    if "before" in rates:
        paired = {key: statistics.median(a / b for a, b in zip(rates["after"][key], rates["before"][key]))
                  for key in ("full_1", "deal_1")}
    return {"before": best.get("before"), "after": best["after"], "paired": paired, "sha": sha}


_PIMC_WORKER = r"""
import os, sys, time
import cardsim
from cardsim.games import get_game
game, seed, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if cpu >= 0:
    os.sched_setaffinity(0, {cpu})
seats = get_game(game).default_seats
cardsim.simulate(game, 1, seed=seed, strategies=["pimc:worlds=2"] * seats, n_jobs=1)
print("ready", flush=True)
for line in sys.stdin:
    spec, start, count = line.split()
    t = time.process_time()
    cardsim.simulate(game, int(count), seed=seed + int(start), strategies=[spec] * seats, n_jobs=1)
    print(repr(time.process_time() - t), flush=True)
"""


class PimcWorker(EngineWorker):
    """A long-lived interpreter playing deals with the same ``pimc`` spec in every seat
    (:data:`_PIMC_WORKER`): a request ``SPEC START COUNT`` plays ``COUNT`` deals of seed
    ``SEED + START``."""

    def __init__(self, game: str, tree: Path | None, cpu: int = -1):
        self.where = tree
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([sys.executable, "-c", _PIMC_WORKER, game, str(SEED), str(cpu)],
                                     env=tree_env(tree), cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, text=True)
        self._expect("ready")


def pimc_rates(game: str, rev: str, worlds: int = 8, deals: int = 2, rounds: int = 6, progress=None,
               after: Path | None = None) -> dict:
    """``pimc:worlds=W`` in every seat, deals per CPU second (all the process's threads: DDS
    solves a batch on several), commit ``rev`` (or a folder holding a cardsim tree) against this
    tree (``after``: another folder), alternately: in each of ``rounds`` rounds both play the
    same ``deals`` deals (seed ``SEED + round``), the order reversed every round, one long-lived
    interpreter a side, both on one core.  Returns ``{"before": [rates], "after": [rates],
    "ratio": median of the per-round ratios after/before, "sha": …, "deals": deals}``."""
    sha, tree = (rev, Path(rev)) if Path(rev).is_dir() else tree_at(rev)
    sides = [("before", tree), ("after", after)]
    cpu = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else -1
    workers = {}
    rates = {"before": [], "after": []}
    try:
        for side, where in sides:
            workers[side] = PimcWorker(game, where, cpu)
        for r in range(rounds):
            if progress:
                progress(f"{game} pimc:worlds={worlds}: round {r + 1} of {rounds}")
            for side, _ in (sides if r % 2 == 0 else sides[::-1]):
                rates[side].append(deals / workers[side].seconds(f"pimc:worlds={worlds}", r * deals, deals))
    finally:
        for w in workers.values():
            try:
                w.close()
            except OSError:
                pass
    ratio = statistics.median(a / b for a, b in zip(rates["after"], rates["before"]))
    return {**rates, "ratio": ratio, "sha": sha, "deals": deals}


def compile_seconds(game: str, rev: str | None, cache: str | None = None) -> float:
    """Seconds of a compile (import, ten deals, ten dealt only) of ``game`` in commit ``rev``
    (None: this tree) in a fresh interpreter whose numba cache is ``cache``: a cold compile when
    it is empty (default: a new temporary one), from the cache when it already holds the game.
    Raises RevisionError."""
    tree = tree_at(rev)[1] if rev else None
    if cache is not None:
        return float(_run(["-c", _COMPILE % game], tree, cache))
    with tempfile.TemporaryDirectory() as empty:
        return float(_run(["-c", _COMPILE % game], tree, empty))


def command_seconds(argv: list[str], rev: str | None, repeats: int = 3) -> float:
    """Least wall seconds of ``python -m cardsim ARGV`` in a fresh interpreter whose ``cardsim``
    is commit ``rev`` (None: this tree), after one untimed run that warms its numba cache.
    Raises RevisionError."""
    tree = tree_at(rev)[1] if rev else None
    cmd, env = [sys.executable, "-m", "cardsim", *argv], tree_env(tree)
    subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best
