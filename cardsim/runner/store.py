"""Chunk stores: the finished chunk results of runs whose result is not a dataset (matches,
comparisons, questions, analyses), kept so that the same run resumes where it stopped and
merges the same numbers (DESIGN.md property 7).  Aggregating runs keep per-chunk partial sums
only (property 6).
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
from pathlib import Path
from typing import Callable

from cardsim._jit import source_hash
from cardsim._version import __version__
from cardsim.runner.files import (MANIFEST, OutputError, atomic_write, check_same_run, claim_folder,
                                  drop_stale_temporaries, follow_link, make_writable_folder, read_manifest,
                                  release_folder, transform_id)
from cardsim.rules import with_digests
from cardsim.runner.pool import run_tasks


def runs_dir() -> Path:
    """Where commands keep the chunks of unfinished runs that write no dataset
    (``$CARDSIM_RUNS``, else ``~/.cache/cardsim/runs``)."""
    return Path(os.environ.get("CARDSIM_RUNS") or Path.home() / ".cache" / "cardsim" / "runs")


def manifest_key(manifest: dict) -> str:
    """16 hex digits naming a run's manifest (for a store folder in :func:`runs_dir`), the contents
    of every rule file it names included (:func:`cardsim.rules.with_digests`): a store keyed by a
    spec ``rules:FILE`` is a new one once the file is edited, not the old file's results."""
    manifest = with_digests(manifest)
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
        make_writable_folder(self.path)
        mpath = self.path / MANIFEST
        # a rule file named anywhere in it is checked by its contents: an edit is another run
        manifest = json.loads(json.dumps(with_digests(manifest), default=repr))
        if mpath.exists():
            check_same_run(self.path, read_manifest(mpath, self.path), manifest)
        else:
            atomic_write(mpath, lambda p: p.write_text(json.dumps(manifest, indent=1)))
        claim_folder(self.path, self.path)
        drop_stale_temporaries(self.path)

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
        release_folder(path)
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
        claim_folder(store.path, store.path)  # held since the store was opened, unless an earlier run released it
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
        release_folder(store.path)


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
    """Raise OutputError when the file system of the store ``folder`` has less than ``need`` bytes
    free (its chunks are small: a disk this full fails at the first one)."""
    if shutil.disk_usage(folder).free < need:
        raise OutputError(f"{folder} has less than 1 MB free (it keeps the finished chunks of this run); free some "
                          "space (a run without an output keeps them in $CARDSIM_RUNS, default ~/.cache/cardsim/runs)")
