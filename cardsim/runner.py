"""Running many deals: fixed-size chunks, joblib workers, a resumable parquet dataset.

Deal ``i`` of a run is always deal ``i`` of its seed, whatever the chunk size or number of
workers (DESIGN.md property 1).  Chunks are written atomically, one parquet file each, beside
a ``_manifest.json`` that fixes what the run is; a run that is interrupted resumes where it
stopped and ends with the same data (property 7).  Aggregating runs keep per-chunk partial
sums only (property 6).
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from tqdm import tqdm

from cardsim import __version__
from cardsim import frames
from cardsim._jit import source_hash
from cardsim.games import get_game
from cardsim.games.base import OptionError, Setup
from cardsim.rng import check_seed
from cardsim.strategies.registry import StrategyError

DEFAULT_CHUNK = 100_000
MAX_DEALS = 10**12
"""Most deals (or matches) one run may hold: deal numbers stay far inside int64."""
MAX_CHUNKS = 1_000_000
"""Most chunks one run may have (part files are numbered with six digits)."""
MANIFEST = "_manifest.json"
FORMAT_VERSION = 2


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
        raise OptionError(f"{what} must be a whole number from 1 to {MAX_DEALS:,}, got {n!r}")
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
        raise OptionError(f"seats must be a whole number, got {seats!r}")
    if strategies is not None and not isinstance(strategies, (str, list, tuple, dict)):
        raise StrategyError(f"strategies must be a spec, a list of specs or {{seat: spec}}, got {strategies!r}")
    try:
        seed = check_seed(seed)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    return Run(spec.setup(strategies, seats, rules), seed, n, chunk_size)


def _simulate_chunk(setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
    return get_game(setup.game).simulate_chunk(seed, start, count, setup)


def workers(n_jobs: int, n_tasks: int) -> Parallel:
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise OptionError(f"n_jobs must be a non-zero whole number (-1 = all cores), got {n_jobs!r}")
    return Parallel(n_jobs=min(n_jobs if n_jobs > 0 else os.cpu_count() or 1, n_tasks) or 1,
                    return_as="generator")


def iter_chunks(run: Run, todo=None, n_jobs: int = 1, progress: bool = False):
    """Yield ``(chunk number, rows)`` for the chunks in ``todo`` (default all), in order."""
    todo = run.chunks() if todo is None else todo
    if not todo:
        return
    results = workers(n_jobs, len(todo))(
        delayed(_simulate_chunk)(run.setup, run.seed, start, count) for _, start, count in todo)
    bar = tqdm(total=sum(c for _, _, c in todo), unit="deal", disable=not progress, unit_scale=True)
    for (k, _, count), rows in zip(todo, results):
        bar.update(count)
        yield k, rows
    bar.close()


widen = frames.widen


def simulate(game, n_deals, seed=0, strategies=None, seats=None, rules=None, n_jobs=1,
             chunk_size=DEFAULT_CHUNK, progress=False, compact=True) -> pd.DataFrame:
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
    Raises OptionError / StrategyError (both ValueError) for bad arguments.
    """
    run = make_run(game, n_deals, seed, strategies, seats, rules, chunk_size)
    parts = [rows for _, rows in iter_chunks(run, n_jobs=n_jobs, progress=progress)]
    df = frames.deals(game, np.concatenate(parts), run.setup.seats)
    if not compact:
        df = widen(df)
    df.attrs.update(run.manifest())
    return df


# ------------------------------------------------------------------------------- datasets
def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
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


def prepare_dataset(path, manifest: dict) -> set[int]:
    """Create (or reopen) a dataset directory; returns the chunk numbers already there.

    Raises OutputError when the path cannot be written or holds a different run.
    """
    path = Path(path)
    try:
        if path.exists() and not path.is_dir():
            raise OutputError(f"{path} exists and is not a dataset directory")
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    mpath = path / MANIFEST
    if mpath.exists():
        try:
            old = json.loads(mpath.read_text())
        except (OSError, ValueError):
            raise OutputError(f"{mpath} is unreadable; remove {path} to start again") from None
        differ = sorted(k for k in set(old) | set(manifest) if k != "complete" and old.get(k) != manifest.get(k))
        if differ:
            raise OutputError(f"{path} holds a different run (it differs in {', '.join(differ)}; see {MANIFEST}); "
                              "choose another path or remove it")
    else:
        _atomic_write(mpath, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    return {int(p.stem.split("-")[1]) for p in path.glob("part-*.parquet")}


def part_path(path, k: int) -> Path:
    return Path(path) / f"part-{k:06d}.parquet"


def transform_id(transform) -> str:
    """``module.name@hash``: a chunk transform and a hash of its module's source, so that stored
    aggregates are reused exactly while the code that made them is unchanged."""
    import hashlib
    import inspect

    source = inspect.getsource(inspect.getmodule(transform))
    return f"{transform.__module__}.{transform.__qualname__}@{hashlib.sha256(source.encode()).hexdigest()[:12]}"


def simulate_to_dataset(path, run: Run, n_jobs=1, progress=False, transform=None) -> Path:
    """Write a run as a parquet dataset directory, resuming an interrupted one.

    Each chunk becomes ``part-NNNNNN.parquet``: the raw row codes (compact; ``cardsim.read_dataset``
    reads them back as the typed frame), or ``transform(typed frame of the chunk)`` if given, e.g.
    an analysis' partial aggregates.  ``pandas.read_parquet(path)`` reads it back.
    Raises OutputError.
    """
    manifest = run.manifest()
    if transform is not None:
        manifest["transform"] = transform_id(transform)
    done = prepare_dataset(path, manifest)
    todo = [c for c in run.chunks() if c[0] not in done]
    for k, rows in iter_chunks(run, todo, n_jobs=n_jobs, progress=progress):
        df = pd.DataFrame(rows)
        if transform is not None:
            df = transform(frames.deals(run.setup.game, rows, run.setup.seats))
        _atomic_write(part_path(path, k), lambda p: df.to_parquet(p, index=transform is not None))
    manifest["complete"] = True
    _atomic_write(Path(path) / MANIFEST, lambda p: p.write_text(json.dumps(manifest, indent=1)))
    return Path(path)


def read_parts(path) -> list[pd.DataFrame]:
    """Every chunk file of a dataset, in chunk order."""
    return [pd.read_parquet(p) for p in sorted(Path(path).glob("part-*.parquet"))]


# ------------------------------------------------------------------------------- matches
def play_matches(game, n_matches, seed=0, strategies=None, seats=None, rules=None, n_jobs=1,
                 chunk_size=10_000, compact=True, before=None, dealer=None):
    """Play ``n_matches`` whole matches (Vint: rubbers).  Returns ``(matches, deals)`` typed
    DataFrames (:mod:`cardsim.frames`; ``cardsim columns GAME`` lists their columns).

    Match ``m`` depends on ``(seed, m)`` only; ``compact`` as for :func:`simulate`.  ``before``
    (501: one score per seat) starts every match from that state and ``dealer`` fixes who deals
    first (default: drawn per match); games that cannot start from a state raise OptionError.
    Raises OptionError when the game has no match mode or an argument is bad.
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
    out = workers(n_jobs, len(run.chunks()))(
        delayed(_match_chunk)(run.setup, run.seed, start_, count, start) for _, start_, count in run.chunks())
    out = list(out)
    matches = frames.matches(game, np.concatenate([m for m, _ in out]), run.setup.seats)
    deals = frames.deals(game, np.concatenate([d for _, d in out]), run.setup.seats)
    if not compact:
        matches, deals = widen(matches), widen(deals)
    manifest = run.manifest()
    if start:
        manifest["start"] = {k: (list(map(int, v)) if k == "before" else int(v)) for k, v in start.items()}
    matches.attrs.update(manifest)
    deals.attrs.update(manifest)
    return matches, deals


def _match_chunk(setup, seed, start, count, kwargs=None):
    return get_game(setup.game).play_matches(seed, start, count, setup, **(kwargs or {}))
