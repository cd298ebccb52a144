"""Before and after: this tree's engine against another commit's, measured alternately in one run.

``cardsim bench --against REV`` (and ``make bench AGAINST=REV``): the commit ``REV`` of this
repository is unpacked once into a cache folder (``git archive``; its numba cache kept beside it,
so only the first comparison compiles it), and each measurement runs in a fresh interpreter
whose ``cardsim`` is either that tree or this one.  The processes of the two sides alternate
(before, after, before, …), so that both meet the same neighbours on a shared machine, and each
side keeps its best: the least-disturbed run is the closest to what the code costs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import io
from pathlib import Path

SEED = 12345

_ENGINE = r"""
import json, sys, time
import cardsim
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
print(json.dumps({"full_1": full, "deal_1": deal, "where": cardsim.__file__}))
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


def _run(code: str, args: list[str], tree: Path | None) -> str:
    """Run ``code`` in a fresh interpreter whose ``cardsim`` is ``tree`` (None: this one)."""
    env = dict(os.environ)
    cwd = None
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
        cwd = tree
    else:
        env["PYTHONPATH"] = str(repository_root())
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"measuring in {tree or 'this tree'} failed:\n{out.stderr[-2000:]}")
    return out.stdout.strip().splitlines()[-1]


def engine_rates(game: str, rev: str, deals: int = 300_000, runs: int = 4, processes: int = 3,
                 chunk: int = 50_000, progress=None, after: Path | None = None) -> dict:
    """Complete deals and dealing only per CPU second on one core (``simulate_chunk`` /
    ``deal_chunk``, the default strategies, deals ``0 .. deals-1`` of seed 12345 in chunks of
    ``chunk``), for commit ``rev`` ("before") and this tree ("after"): ``processes`` fresh
    interpreters a side, alternating, each the best of ``runs`` runs; the best process a side
    kept.  Returns ``{"before": {"full_1": …, "deal_1": …}, "after": {…}, "sha": …}`` (deals per
    second).  Raises RevisionError."""
    sha, tree = (rev, Path(rev)) if Path(rev).is_dir() else tree_at(rev)
    best = {"before": {"full_1": 0.0, "deal_1": 0.0}, "after": {"full_1": 0.0, "deal_1": 0.0}}
    args = [game, str(deals), str(runs), str(chunk), str(SEED)]
    for i in range(processes):
        for side, where in (("before", tree), ("after", after)):
            if progress:
                progress(f"{game}: {side} ({sha[:7] if side == 'before' else 'this tree'}), process {i + 1} of "
                         f"{processes}")
            got = json.loads(_run(_ENGINE, args, where))
            for key in ("full_1", "deal_1"):
                best[side][key] = max(best[side][key], got[key])
    return {**best, "sha": sha}


def compile_seconds(game: str, rev: str | None) -> float:
    """Seconds of a cold compile (an empty numba cache, one interpreter: import, ten deals, ten
    dealt only) of ``game`` in commit ``rev`` (None: this tree).  Raises RevisionError."""
    import tempfile

    tree = tree_at(rev)[1] if rev else None
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree or repository_root()))
        out = subprocess.run([sys.executable, "-c", _COMPILE % game], env=env, cwd=tree, capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise RuntimeError(f"compiling {game} in {tree or 'this tree'} failed:\n{out.stderr[-2000:]}")
        return float(out.stdout.strip().splitlines()[-1])


def command_seconds(argv: list[str], rev: str | None, repeats: int = 3) -> float:
    """Least wall seconds of ``python -m cardsim ARGV`` in a fresh interpreter whose ``cardsim``
    is commit ``rev`` (None: this tree), after one untimed run that warms its numba cache.
    Raises RevisionError."""
    import time

    tree = tree_at(rev)[1] if rev else None
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
    else:
        env["PYTHONPATH"] = str(repository_root())
    cmd = [sys.executable, "-m", "cardsim", *argv]
    subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=tree, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best
