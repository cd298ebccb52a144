"""End to end: what a user types against the engine.  ``simulate -o`` (a parquet dataset) and the
in-memory ``cardsim.simulate`` DataFrame against the all-core engine rate, measured in turn, and
the start-up of ``cardsim simulate GAME -n 1000`` (BENCHMARKS.md, "End to end")."""
from __future__ import annotations

import os
import shutil
import tempfile

import psutil

import cardsim
from cardsim.bench.against import command_seconds
from cardsim.bench.common import SEED, best_rate, parallel, sim_task
from cardsim.games import get_game
from cardsim.runner.dataset import simulate_to_dataset
from cardsim.runner.run import make_run

DATASET_TARGET = 0.85
"""``simulate -o`` end to end against the all-core engine rate."""
MEMORY_TARGET = 0.80
"""The in-memory ``cardsim.simulate`` DataFrame against the all-core engine rate."""
STARTUP_TARGET = 1.5
"""Seconds for ``cardsim simulate GAME -n 1000`` in a fresh interpreter, numba cache warm."""


def _startup_seconds(game: str, repeats: int = 3) -> float:
    """Wall time of ``cardsim simulate GAME -n 1000`` (best of ``repeats``; the cache is warm)."""
    return command_seconds(["simulate", game, "-n", "1000"], None, repeats)


def _cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and its live children (the joblib workers)."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.NoSuchProcess:
            pass
    return total


def measure_end_to_end(game: str, n: int, cores: int, repeats: int = 5) -> dict:
    """Deals per second of ``simulate_to_dataset`` (what ``simulate -o`` runs), of the in-memory
    ``cardsim.simulate`` and of the all-core engine (complete deals, the rows thrown away), ``n``
    deals each, and the start-up seconds.  The three are measured in turn, ``repeats`` rounds,
    best of each, so that their ratios compare runs made under the same load.  Also the CPU
    seconds a deal of each (this process and its workers, least of the rounds): their ratio is
    what the end-to-end path costs beyond the engine whatever the neighbours do, so it tells a
    loaded machine from a slow path.

    The two paths get ``cores`` workers, as the engine does: with ``n_jobs=-1`` a run too small
    to pay for starting fresh workers (:func:`cardsim.runner.pool.choose_jobs`; 1,000,000 deals on
    2 cores is) or a machine whose cores are busy plays in one process, and the ratio would
    measure that choice instead of what writing the rows costs."""
    spec = get_game(game)
    setup = spec.setup()
    chunk = max(1, n // (4 * cores))
    run = make_run(game, n, SEED)
    best = {"engine_all": 0.0, "dataset": 0.0, "memory": 0.0}
    cpu = dict.fromkeys(best, float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "deals.parquet")
        tasks = {"engine_all": lambda: parallel(cores, sim_task, n, chunk, game, setup),
                 "dataset": lambda: simulate_to_dataset(target, run, n_jobs=cores),
                 "memory": lambda: cardsim.simulate(game, n, SEED, n_jobs=cores)}
        for _ in range(repeats):
            for key, task in tasks.items():
                before = _cpu_seconds()
                best[key] = max(best[key], best_rate(task, n, 1))
                cpu[key] = min(cpu[key], (_cpu_seconds() - before) / n)
                # Removing the dataset is not part of `simulate -o` (it was timed with it until
                # 2026-12-02: some 10-40 ms a run here, where unlinking is slow).
                shutil.rmtree(target, ignore_errors=True)
    return {"game": game, **best, **{f"cpu_{k}": v for k, v in cpu.items()}, "startup": _startup_seconds(game)}


E2E_HEADING = "## End to end: what the user types against the engine"


def end_to_end_table(results, n: int) -> str:
    """Markdown section for :func:`measure_end_to_end` results."""
    lines = ["", E2E_HEADING, "",
             f"{n:,} deals per measurement, all cores; the engine (complete deals, rows thrown away), `simulate -o` "
             "and the in-memory DataFrame measured in turn, five rounds, best of each, so the ratios compare runs "
             "under the same load, each with a worker per core. `simulate -o` writes a parquet dataset (the workers write their chunk files); the in-memory "
             "DataFrame is `cardsim.simulate(game, n)`; start-up is `cardsim simulate GAME -n 1000` in a fresh "
             f"interpreter with a warm numba cache. Targets: {DATASET_TARGET:.0%}, {MEMORY_TARGET:.0%} of the engine, "
             f"start-up under {STARTUP_TARGET} s. The CPU columns give the engine's CPU time a deal over the path's "
             "(this process and its workers, least of the rounds): unlike the rates they move little with the "
             "machine's other load, and they bound what the rate ratio can reach.", "",
             "| game | engine, all cores | simulate -o | ratio | CPU ratio | in-memory DataFrame | ratio | CPU ratio "
             "| start-up -n 1000 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        d, m = r["dataset"] / r["engine_all"], r["memory"] / r["engine_all"]
        lines.append(f"| {r['game']} | {r['engine_all']:,.0f}/s | {r['dataset']:,.0f}/s | {100 * d:.0f}% "
                     f"({'meets' if d >= DATASET_TARGET else 'misses'}) | "
                     f"{100 * r['cpu_engine_all'] / r['cpu_dataset']:.0f}% | {r['memory']:,.0f}/s | {100 * m:.0f}% "
                     f"({'meets' if m >= MEMORY_TARGET else 'misses'}) | "
                     f"{100 * r['cpu_engine_all'] / r['cpu_memory']:.0f}% | {r['startup']:.2f} s "
                     f"({'meets' if r['startup'] < STARTUP_TARGET else 'misses'}) |")
    return "\n".join(lines) + "\n"


