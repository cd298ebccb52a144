"""The ``pimc`` solvers on fixed positions, before and after a change, in one run (BENCHMARKS.md,
"The pimc solve hooks on fixed positions"), and where the sampled search spends its time.

    cardsim bench pimc-record GAME [--decisions N] [--worlds W] [--seed S] -o FILE
    cardsim bench pimc-time FILE [--against REV | --best-only] [--rounds R] [--chunk K]
    cardsim bench pimc-profile GAME [--deals N] [--worlds W] [--seed S]

``pimc-record`` plays deals of GAME with ``pimc:worlds=W,early=0`` in every seat (two deals of each
seed from ``S`` on) and keeps the first ``N`` searched decisions exactly as the game's ``solve`` hook got
them (the :class:`~cardsim.strategies.pimc.Position` and its sampled worlds), pickled to FILE.

``pimc-profile`` plays N deals of GAME with ``pimc:worlds=W,early=0`` in every seat (after one
untimed deal that loads the compiled code) and prints, trick by trick, the card decisions, the calls of the
``common`` hook (first looks) and of the ``solve`` hook (batches of worlds solved exactly), and the
CPU seconds spent in :func:`cardsim.strategies.pimc.decide` and, within it, in each hook (the rest
of ``decide`` is the world sampler and the decision's Python): where a game's sampled search
spends its time.  Both search every trick (``early=0``) whatever the game's default ``early``: they
measure the search itself, and its first tricks' full hands are where the solvers' time goes.

``pimc-time`` gives those decisions to the game's ``solve`` hook in two long-lived interpreters,
this tree's and commit ``REV``'s (:func:`cardsim.bench.against.tree_at`), chunk by chunk in turn
(the order reversed every round), and reports each side's CPU seconds per decision (the sum over
the rounds and the median of the per-round ratios) and whether both returned the same values for
every decision.  Without ``--against`` only this tree is timed; ``--best-only`` times this tree's
``solve(..., best_only=True)`` (null windows) against its exact solve and checks that the answers
are the exact values' argmax sets.  A worker's process keeps its solver's state (a transposition
table kept across calls) from one chunk to the next, as a ``pimc`` seat's process does; every
worker solves the decisions in the same order.
"""
from __future__ import annotations

import dataclasses
import pickle
import statistics
import subprocess
import sys
import tempfile
import time

import cardsim
from cardsim.bench.against import tree_at, tree_env
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.strategies import pimc as pimc_strategy

_WORKER = r"""
import pickle, sys, time, hashlib
import numpy as np
from cardsim.games import get_game
game, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path, "rb") as f:
    decisions = pickle.load(f)["decisions"]
hook = get_game(game).pimc.solve
if mode == "best":
    solve = lambda position, worlds: hook(position, worlds, best_only=True)
elif mode == "argmax":  # the exact values' argmax set, as best_only gives it
    def solve(position, worlds):
        v = hook(position, worlds)
        return (v >= v.max(axis=1, keepdims=True)).astype(np.float64)
else:
    solve = hook
solve(*decisions[0])  # compile or load the solver
print("ready", flush=True)
for line in sys.stdin:
    start, count = map(int, line.split())
    digest = hashlib.sha256()
    t = time.process_time()
    for position, worlds in decisions[start:start + count]:
        values = solve(position, worlds)
        digest.update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    print(repr(time.process_time() - t), digest.hexdigest(), flush=True)
"""


def _searching_game(game: str):
    """``game``'s spec; OptionError when it has no sampled-search player (no ``pimc`` hooks)."""
    spec = get_game(game)
    if spec.pimc is None:
        raise OptionError(f"{game} has no sampled-search player (no pimc hooks): nothing to record or profile")
    return spec


def search_spec(worlds: int) -> str:
    """The spec the recorder and the profile play in every seat: ``pimc:worlds=W,early=0``, the
    search at every trick (the games' default ``early`` plays the first tricks without it)."""
    return f"pimc:worlds={worlds},early=0"


def record(game: str, decisions: int, worlds: int, seed: int) -> list:
    """The first ``decisions`` searched decisions of deals of ``game`` played with
    ``pimc:worlds=worlds,early=0`` (:func:`search_spec`) in every seat from ``seed``: a list of
    ``(position, worlds)`` as the game's ``solve`` hook received them (``worlds`` uint64[W, H]).
    The sequential rule is off while recording (:data:`cardsim.strategies.pimc.STOP`), so each
    decision's worlds come in one call, as the solvers are timed."""
    spec = _searching_game(game)
    module = sys.modules[spec.pimc.solve.__module__]
    original = module.HOOKS
    kept: list = []

    def keep(position, w):
        if len(kept) < decisions:
            kept.append((position, w.copy()))
        return original.solve(position, w)

    module.HOOKS = dataclasses.replace(original, solve=keep)
    stop, pimc_strategy.STOP = pimc_strategy.STOP, False
    try:
        k = 0
        while len(kept) < decisions:  # a few deals at a time, each batch from its own seed
            cardsim.simulate(game, 2, seed=seed + k, strategies=[search_spec(worlds)] * spec.default_seats,
                             n_jobs=1)
            k += 1
    finally:
        module.HOOKS = original
        pimc_strategy.STOP = stop
    return kept


def profile(game: str, deals: int, worlds: int, seed: int) -> list[dict]:
    """Where ``pimc:worlds=worlds,early=0`` (:func:`search_spec`) in every seat spends its CPU time
    in ``deals`` deals of ``game`` (seed ``seed``), trick by trick: a list of dicts, one a trick in which a decision was made,
    ``{"trick", "decisions", "looks", "solves", "decide", "common", "solve"}`` (card decisions,
    calls of the ``common`` hook (first looks) and of the ``solve`` hook (batches of worlds of the
    sequential rule), and CPU seconds in :func:`cardsim.strategies.pimc.decide` and in the
    game's ``common`` and ``solve`` hooks).  The trick is ``1 + cards played before the decision // seats`` (the game's default
    table).  One untimed deal first loads the compiled code.  Raises ValueError for ``deals`` or
    ``worlds`` below 1."""
    if deals < 1 or worlds < 1:
        raise ValueError(f"profile needs at least 1 deal and 1 world, got deals={deals}, worlds={worlds}")
    spec = _searching_game(game)
    seats = spec.default_seats
    strategies = [search_spec(worlds)] * seats
    cardsim.simulate(game, 1, seed=seed + 10**6, strategies=strategies, n_jobs=1)
    module = sys.modules[spec.pimc.solve.__module__]
    hooks, decide = module.HOOKS, pimc_strategy.decide
    rows: dict[int, dict] = {}
    trick = [0]

    def row(k):
        return rows.setdefault(k, {"trick": k, "decisions": 0, "looks": 0, "solves": 0, "decide": 0.0,
                                   "common": 0.0, "solve": 0.0})

    def timed(hook, name, count):
        def call(*args, **kwargs):
            start = time.process_time()
            try:
                return hook(*args, **kwargs)
            finally:
                r = row(trick[0])
                r[name] += time.process_time() - start
                r[count] += 1
        return call

    def timed_decide(hooks_, row_, state, played, seat, view, stop=None):
        trick[0] = 1 + int(played) // seats
        start = time.process_time()
        try:
            return decide(hooks_, row_, state, played, seat, view, stop)
        finally:
            r = row(trick[0])
            r["decide"] += time.process_time() - start
            r["decisions"] += 1

    replaced = {"solve": timed(hooks.solve, "solve", "solves")}
    if hooks.common is not None:
        replaced["common"] = timed(hooks.common, "common", "looks")
    module.HOOKS = dataclasses.replace(hooks, **replaced)
    pimc_strategy.decide = timed_decide
    try:
        cardsim.simulate(game, deals, seed=seed, strategies=strategies, n_jobs=1)
    finally:
        module.HOOKS = hooks
        pimc_strategy.decide = decide
    return [rows[k] for k in sorted(rows)]


def profile_table(rows: list[dict]) -> str:
    """Markdown table of :func:`profile`'s rows, with each trick's share of ``decide``'s time."""
    total = sum(r["decide"] for r in rows) or 1.0
    lines = ["| trick | decisions | `common` calls (first looks) | `solve` calls (batches of worlds) | decide (CPU s) "
             "| share | in `common` | in `solve` |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['trick']} | {r['decisions']} | {r['looks']} | {r['solves']} | {r['decide']:.3f} | "
                     f"{100 * r['decide'] / total:.0f}% | {r['common']:.3f} | {r['solve']:.3f} |")
    return "\n".join(lines)


class _Worker:
    def __init__(self, game: str, path: str, tree, mode: str = "exact"):
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, game, path, mode], env=tree_env(tree), cwd=tree,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, text=True)
        self.where = tree or "this tree"
        if self.proc.stdout.readline().strip() != "ready":
            self._fail()

    def _fail(self):
        self.proc.kill()
        self.errors.seek(0)
        raise SystemExit(f"cardsim bench pimc-time: the worker in {self.where} failed: {self.errors.read()[-1500:]}")

    def chunk(self, start: int, count: int) -> tuple[float, str]:
        self.proc.stdin.write(f"{start} {count}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().split()
        if len(line) != 2:
            self._fail()
        return float(line[0]), line[1]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def time_file(path: str, against: str | None, rounds: int, chunk: int, best_only: bool = False) -> dict:
    """Time the decisions of ``path`` (made by :func:`record`) in this tree and, with
    ``against``, in that commit's, alternately (the module docstring).  With ``best_only`` (no
    ``against``): this tree's ``solve(..., best_only=True)`` ("now") against its exact values
    ("before"), and "same" says whether the best-only answers equal the exact values' argmax sets.
    Returns ``{"game", "decisions", "now", "before", "ratio", "same"}``: CPU seconds per decision
    on each side (None for a side not measured), the median per-round ratio now/before, and
    whether every chunk's answers were identical.  Raises OptionError for a file that is not
    :func:`record`'s, RevisionError for an unknown commit."""
    with open(path, "rb") as f:
        try:
            data = pickle.load(f)
            game, n = data["game"], len(data["decisions"])
        except (pickle.UnpicklingError, EOFError, KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise OptionError(f"{path}: not a file of recorded decisions (cardsim bench pimc-record writes "
                              "them)") from None
    sides = {"now": (None, "best" if best_only else "exact")}
    if against:
        sides["before"] = (tree_at(against)[1], "exact")
    elif best_only:
        sides["before"] = (None, "argmax")
    workers = {name: _Worker(game, path, tree, mode) for name, (tree, mode) in sides.items()}
    totals = {name: 0.0 for name in sides}
    ratios, same, count = [], True, 0
    try:
        for r in range(rounds):
            order = list(sides) if r % 2 == 0 else list(sides)[::-1]
            start = (r * chunk) % max(1, n - chunk + 1) if n > chunk else 0
            k = min(chunk, n)
            got = {name: workers[name].chunk(start, k) for name in order}
            for name in sides:
                totals[name] += got[name][0]
            count += k
            if "before" in sides:
                ratios.append(got["now"][0] / got["before"][0])
                same &= got["now"][1] == got["before"][1]
    finally:
        for w in workers.values():
            w.close()
    both = "before" in sides
    return {"game": game, "decisions": count, "now": totals["now"] / count,
            "before": totals["before"] / count if both else None,
            "ratio": statistics.median(ratios) if ratios else None, "same": same if both else None}


def time_line(res: dict, against: str | None, best_only: bool) -> str:
    """The line ``pimc-time`` prints for :func:`time_file`'s result ``res``."""
    now = "best-only" if best_only else "now"
    line = f"{res['game']}: {res['decisions']} decisions a side, {now} {1000 * res['now']:.2f} ms CPU a decision"
    if res["before"] is not None:
        before = "exact" if best_only else f"before ({against})"
        line += (f", {before} {1000 * res['before']:.2f} ms; median per-round ratio "
                 f"{now}/{before.split()[0]} {res['ratio']:.3f}; "
                 f"{'argmax sets' if best_only else 'values'} {'identical' if res['same'] else 'DIFFER'}")
    return line
