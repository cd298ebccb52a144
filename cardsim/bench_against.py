"""Before and after: this tree's engine against another commit's, measured alternately in one run.

``cardsim bench --against REV`` (and ``make bench AGAINST=REV``): the commit ``REV`` of this
repository is unpacked once into a cache folder (``git archive``; its numba cache kept beside it,
so only the first comparison compiles it), and each measurement runs in a fresh interpreter
whose ``cardsim`` is either that tree or this one.  The processes of the two sides alternate
(before, after, before, …), so that both meet the same neighbours on a shared machine, and each
side keeps its best: the least-disturbed run is the closest to what the code costs.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

SEED = 12345

_ENGINE = r"""
import json, sys, time
from cardsim.games import get_game
game, deals, runs, chunk, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
spec = get_game(game)
setup = spec.setup()
spec.simulate_chunk(seed, 0, 2000, setup)
spec.deal_chunk(seed, 0, 2000)
def best(play):
    least = float("inf")
    for _ in range(runs):
        t = time.process_time()
        for s in range(0, deals, chunk):
            play(s, min(chunk, deals - s))
        least = min(least, time.process_time() - t)
    return deals / least
full = best(lambda s, c: spec.simulate_chunk(seed, s, c, setup))
deal = best(lambda s, c: spec.deal_chunk(seed, s, c))
print(json.dumps({"full_1": full, "deal_1": deal}))
"""

_COMPILE = r"""
import time
t = time.perf_counter()
from cardsim.games import get_game
g = get_game(%r)
g.simulate_chunk(1, 0, 10, g.setup())
g.deal_chunk(1, 0, 10)
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


def _env(tree: Path | None, cache: str | None = None) -> dict:
    """The environment of an interpreter whose ``cardsim`` is ``tree`` (None: this one) and whose
    numba cache is ``cache`` (None: the other tree's own, beside it; this tree's usual one)."""
    # This tree: the folder holding this cardsim package (no git needed to measure it alone).
    env = dict(os.environ, PYTHONPATH=str(tree or Path(__file__).resolve().parents[1]))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    elif tree is not None:
        env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
    return env


def _run(argv: list[str], tree: Path | None, cache: str | None = None) -> str:
    """The last line ``python ARGV`` prints in a fresh interpreter (:func:`_env`)."""
    out = subprocess.run([sys.executable, *argv], env=_env(tree, cache), cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"measuring in {tree or 'this tree'} failed:\n{out.stderr[-2000:]}")
    return out.stdout.strip().splitlines()[-1]


def engine_rates(game: str, rev: str | None, deals: int = 300_000, runs: int = 4, processes: int = 3,
                 chunk: int = 50_000, progress=None, after: Path | None = None) -> dict:
    """Complete deals and dealing only per CPU second on one core (``simulate_chunk`` /
    ``deal_chunk``, the default strategies, deals ``0 .. deals-1`` of seed 12345 in chunks of
    ``chunk``), for commit ``rev`` ("before"; or a folder holding a cardsim tree; None: no
    before) and this tree ("after"; ``after``: another folder): ``processes`` fresh interpreters
    a side, alternating, each the best of ``runs`` runs; the best process a side kept.  Returns
    ``{"before": {"full_1": …, "deal_1": …} or None, "after": {…}, "sha": …}`` (deals per
    second).  Raises RevisionError."""
    sides = [("after", after)]
    sha = None
    if rev is not None:
        sha, tree = (rev, Path(rev)) if Path(rev).is_dir() else tree_at(rev)
        sides.insert(0, ("before", tree))
    best = {side: {"full_1": 0.0, "deal_1": 0.0} for side, _ in sides}
    args = [game, str(deals), str(runs), str(chunk), str(SEED)]
    for i in range(processes):
        for side, where in sides:
            if progress:
                progress(f"{game}: {side} ({sha[:7] if side == 'before' else 'this tree'}), process {i + 1} of "
                         f"{processes}")
            got = json.loads(_run(["-c", _ENGINE, *args], where))
            for key in ("full_1", "deal_1"):
                best[side][key] = max(best[side][key], got[key])
    return {"before": best.get("before"), "after": best["after"], "sha": sha}


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
    cmd, env = [sys.executable, "-m", "cardsim", *argv], _env(tree)
    subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best
