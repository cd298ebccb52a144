"""When workers pay: wall seconds of ``cardsim simulate GAME -n N -o X`` as a user types it, with
``--jobs 1`` and with a worker per core, at a few sizes, beside what the default (``--jobs -1``)
chooses and the least run from which it starts workers (BENCHMARKS.md, "When the default starts
workers")."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import psutil

from cardsim.games import GAME_NAMES, get_game
from cardsim.runner.pool import WORKER_START_SECONDS
from cardsim.runner.run import deal_jobs

CROSSOVER_DEALS = (20_000, 200_000, 1_000_000)
"""The run sizes :func:`measure_crossover` times."""
CROSSOVER_HEADING = "## When the default starts workers"


def _busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy since boot (all processes)."""
    t = psutil.cpu_times()
    return sum(getattr(t, f) for f in ("user", "nice", "system", "irq", "softirq", "steal") if hasattr(t, f))


def _own_seconds() -> float:
    """CPU seconds of this process and its finished children (the measured commands)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _command_seconds(argv: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - t


def measure_crossover(game: str, cores: int, sizes=CROSSOVER_DEALS, repeats: int = 3) -> dict:
    """Wall seconds of ``cardsim simulate GAME -n N -o X`` as a user types it (a fresh
    interpreter, warm numba cache), with ``--jobs 1`` (this process) and with ``--jobs CORES``
    (a worker per core), for each N in ``sizes``: the two alternate, ``repeats`` rounds, best of
    each, so that both meet the same neighbours.  ``others``: the cores the machine's other
    processes kept busy meanwhile, on average.  ``default``: what ``--jobs -1`` (the default)
    chooses at each N (:func:`cardsim.runner.run.deal_jobs`), ``threshold``: the least N from which
    it starts workers."""
    cli = [sys.executable, "-m", "cardsim", "simulate", game]
    subprocess.run(cli + ["-n", "1000"], check=True, capture_output=True)  # numba's cache is warm for both
    best = {(n, j): float("inf") for n in sizes for j in (1, cores)}
    started = datetime.now(timezone.utc)
    busy, own, wall = _busy_seconds(), _own_seconds(), time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "x.parquet")
        for _ in range(repeats):
            for n in sizes:
                for jobs in (1, cores):
                    shutil.rmtree(out, ignore_errors=True)  # a finished dataset would be kept, not written
                    seconds = _command_seconds(cli + ["-n", str(n), "-o", out, "--jobs", str(jobs)])
                    best[n, jobs] = min(best[n, jobs], seconds)
    wall = time.perf_counter() - wall
    others = max(0.0, (_busy_seconds() - busy) - (_own_seconds() - own)) / wall
    return {"game": game, "cores": cores, "sizes": list(sizes), "best": best, "others": others, "repeats": repeats,
            "when": f"{started:%Y-%m-%d %H:%M} UTC",
            "default": {n: deal_jobs(n, game, -1, cores=cores) for n in sizes},
            "asked": {n: deal_jobs(n, game, cores, cores=cores) for n in sizes},
            "threshold": worker_threshold(game, cores)}


def worker_threshold(game: str, cores: int, cap: int = 10**9) -> int | None:
    """The least number of deals from which :func:`cardsim.runner.run.deal_jobs` (n_jobs -1) starts
    workers (it grows with the run), or None below ``cap``."""
    if deal_jobs(cap, game, -1, cores=cores) == 1:
        return None
    lo, hi = 1, cap
    while lo < hi:
        mid = (lo + hi) // 2
        if deal_jobs(mid, game, -1, cores=cores) > 1:
            hi = mid
        else:
            lo = mid + 1
    return lo


def crossover_table(results, command: str) -> str:
    """Markdown section for :func:`measure_crossover` results."""
    cores = results[0]["cores"]
    others = ", ".join(f"{r['game']} {r['others']:.2f}" for r in results)
    costs = ", ".join(f"{g} {get_game(g).play.deal_seconds * 1e6:.1f} µs" for g in GAME_NAMES)
    lines = ["", CROSSOVER_HEADING, "",
             f"Produced by `{command}` on {results[0]['when']}, {cores} cores. Wall time "
             "of `cardsim simulate GAME -n N -o X` as a user types it (a fresh interpreter each time, numba cache "
             f"warm) with `--jobs 1` (this process) and with `--jobs {cores}` (a worker process per core), the two "
             f"alternated, best of {results[0]['repeats']} rounds. The machine is shared: on average the other "
             f"processes kept this many of its {cores} cores busy while each game was measured: {others}.", "",
             f"The default (`--jobs -1`) starts workers only when the wall time they save (one-core work: {costs} "
             "a deal, each game's `GameSpec.play.deal_seconds`; less the busiest worker's share) exceeds what starting them "
             f"costs ({WORKER_START_SECONDS} s, `WORKER_START_SECONDS`), counting only the cores other processes "
             "leave free when the run starts. The last two columns give its choice on an otherwise idle machine "
             "and the least N from which it then starts workers; on a busy machine it plays here.", "",
             f"| game | deals | `--jobs 1` | `--jobs {cores}` | default plays | default starts workers from |",
             "|---|---:|---:|---:|---|---:|"]
    for r in results:
        threshold = "never" if r["threshold"] is None else f"{r['threshold']:,} deals"
        for i, n in enumerate(r["sizes"]):
            one, many = r["best"][n, 1], r["best"][n, cores]
            alone = " (one chunk: played here)" if r["asked"][n] == 1 else ""
            choice = "here (`--jobs 1`)" if r["default"][n] == 1 else f"on {r['default'][n]} workers"
            lines.append(f"| {r['game'] if i == 0 else ''} | {n:,} | {one:.2f} s | {many:.2f} s{alone} | {choice} | "
                         f"{threshold if i == 0 else ''} |")
    return "\n".join(lines) + "\n"


