"""``make bench``: deals per second for every game, as ratios measured in one run.

For each game: dealing only (the baseline) and complete deals with the default strategies,
on one core and on all cores (joblib workers over chunks), plus compile time cold (empty
numba cache) and from cache, each measured in a fresh interpreter; then end to end, what a
user gets against that all-core engine rate: ``simulate -o`` (a parquet dataset), the
in-memory ``cardsim.simulate`` DataFrame, and the start-up of ``cardsim simulate GAME -n 1000``.
Writes a Markdown table (``--out``) with the command and the machine.

``--strategies A B``: instead, strategy specs timed alternately on one core
(:func:`alternating_rates`).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

from joblib import Parallel, delayed

from cardsim.games import GAME_NAMES, get_game

SEED = 12345


def _deal_task(game, start, count):
    return get_game(game).deal_chunk(SEED, start, count)


def _sim_task(game, setup, start, count):
    return len(get_game(game).simulate_chunk(SEED, start, count, setup))


def _rate(fn, n, repeats=3) -> float:
    """Deals per second of ``fn`` (which plays ``n`` deals): the best of ``repeats`` runs, since
    on a shared machine the slower runs measure the neighbours."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def _parallel(n_jobs, task, n, chunk, *args):
    Parallel(n_jobs=n_jobs)(delayed(task)(*args, s, min(chunk, n - s)) for s in range(0, n, chunk))


def _compile_seconds(game: str, cache_dir: str) -> float:
    from cardsim.bench_against import compile_seconds

    return compile_seconds(game, None, cache=cache_dir)


def measure(game: str, n: int, cores: int) -> dict:
    spec = get_game(game)
    setup = spec.setup()
    spec.deal_chunk(SEED, 0, 1000)
    spec.simulate_chunk(SEED, 0, 1000, setup)
    chunk = max(1, n // (4 * cores))
    _parallel(cores, _sim_task, 4 * cores, 1, game, setup)  # start the workers and load their caches
    _parallel(cores, _deal_task, 4 * cores, 1, game)
    with tempfile.TemporaryDirectory() as cache:
        cold = _compile_seconds(game, cache)
        warm = _compile_seconds(game, cache)
    return {
        "game": game,
        "deal_1": _rate(lambda: spec.deal_chunk(SEED, 0, n), n),
        # In chunks, as runs are made: one 10^6-row array would add page faults no run pays.
        "full_1": _rate(lambda: [spec.simulate_chunk(SEED, s, min(chunk, n - s), setup) for s in range(0, n, chunk)], n),
        "deal_all": _rate(lambda: _parallel(cores, _deal_task, n, chunk, game), n),
        "full_all": _rate(lambda: _parallel(cores, _sim_task, n, chunk, game, setup), n),
        "cold": cold,
        "warm": warm,
    }


def table(results, n, cores, command) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Produced by `{command}` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"{platform.machine()}, {cores} cores, Python {platform.python_version()}; {n:,} deals per measurement, "
        "default strategies for complete deals, seed 12345; each rate is the best of 3 runs.",
        "",
        "| game | dealing only, 1 core | complete deals, 1 core | ratio | dealing only, all cores | "
        "complete deals, all cores | ratio | compile cold | compile from cache |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['game']} | {r['deal_1']:,.0f}/s | {r['full_1']:,.0f}/s | 1/{r['deal_1'] / r['full_1']:.1f} | "
            f"{r['deal_all']:,.0f}/s | {r['full_all']:,.0f}/s | 1/{r['deal_all'] / r['full_all']:.1f} | "
            f"{r['cold']:.1f} s | {r['warm']:.1f} s |")
    lines += ["", "Ratios are dealing-only rate / complete-deal rate on the same cores. All-cores rates include "
              "handing chunks to joblib (loky) workers; dealing alone is too quick for that overhead to pay.", "",
              "Against the targets (complete deals with the default strategies: at least 1/20 of the dealing-only "
              "rate on one core, and 1,000,000 deals/s on all cores of a 2-core machine):", ""]
    for r in results:
        ratio_ok = r["full_1"] * 20 >= r["deal_1"]
        lines.append(f"- {r['game']}: 1/{r['deal_1'] / r['full_1']:.1f} of dealing on one core "
                     f"({'meets' if ratio_ok else 'misses'} 1/20); {r['full_all']:,.0f} complete deals/s on "
                     f"{cores} cores = {100 * r['full_all'] / 1e6:.0f}% of 1,000,000/s.")
    lines += ["", "Compile cold = first use with an empty numba cache (fresh interpreter); from cache = a later "
              "first use. Timings vary by about ±15% from run to run on this shared machine."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- dealing under conditions
PREDICATE_TARGET = 2_000_000
"""Candidate deals per second per core that dealing under conditions must reach."""
FIXED_TARGET = 0.80
"""Deals with a given hand, played out, against unconditioned complete deals (same run)."""


def measure_conditions(game: str, n: int) -> dict:
    """Dealing under the game's benchmark class of seat 0 (its spec's ``facts.bench_condition``)
    on one core (cardsim.deal).

    ``candidates_1``: candidate deals per second of the whole rejection loop (dealer draw,
    shuffle, deal, class test), about ``n`` candidates per run; ``predicate_1``: class tests per
    second alone, on ``min(n, 10**6)`` dealt hands; ``acceptance``: accepted / candidates.
    """
    from cardsim.conditions import Conditions, compile
    from cardsim.deal import count_meeting, deal_chunk

    condition = get_game(game).facts.bench_condition
    compiled = compile(Conditions(game, classes={0: condition}))
    acceptance = deal_chunk(compiled, SEED, 0, 2000).acceptance
    played = _fixed_hand_rates(game, min(n, 200_000))
    deals = max(1, int(n * acceptance))
    attempts = int(deal_chunk(compiled, SEED, 0, deals).attempts.sum())
    free = deal_chunk(compile(Conditions(game)), SEED, 0, min(n, 1_000_000))
    count_meeting(free.hands[:10], free.talons[:10], compiled.plan)
    return {
        "game": game,
        "class": condition,
        "acceptance": acceptance,
        "candidates_1": _rate(lambda: deal_chunk(compiled, SEED, 0, deals), attempts),
        "predicate_1": _rate(lambda: count_meeting(free.hands, free.talons, compiled.plan), len(free.hands)),
        **played,
    }


def _fixed_hand_rates(game: str, n: int) -> dict:
    """Complete deals per second on one core with seat 0's whole hand given (dealt under the
    condition, then played by the game's ``forcing.play_given`` with nothing forced) and, in the
    same run, unconditioned (``simulate_chunk``); empty when the game has no forcing yet."""
    from cardsim.conditions import Conditions, compile
    from cardsim.deal import deal_chunk

    spec = get_game(game)
    if spec.forcing is None:
        return {}
    setup = spec.setup()
    first = spec.make_records(SEED, [0], setup)[0]
    compiled = compile(Conditions(game, seats=setup.seats, hands={0: first["hands"][0]}))
    state = spec.forcing.parse_before(None, setup)
    chunk = 20_000

    def fixed():
        for s in range(0, n, chunk):
            c = min(chunk, n - s)
            d = deal_chunk(compiled, SEED, s, c)
            spec.forcing.play_given(SEED, s, d, setup, spec.forcing.no_force, state)

    def free():
        for s in range(0, n, chunk):
            spec.simulate_chunk(SEED, s, min(chunk, n - s), setup)

    fixed()
    free()
    return {"fixed_1": _rate(fixed, n), "free_1": _rate(free, n)}


def conditions_table(results) -> str:
    """Markdown section for :func:`measure_conditions` results."""
    lines = ["", "## Dealing under conditions", "",
             "Seat 0 must be in the class; rejection sampling from each deal's own stream (cardsim.deal). "
             f"Target: {PREDICATE_TARGET:,} candidate deals/s on one core.", "",
             "| game | class of seat 0 | acceptance | class predicate: candidate deals/s, 1 core | "
             "predicate alone, 1 core | seat 0's hand given: complete deals/s, 1 core | unconditioned, same run |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        played = "n/a | n/a"
        if "fixed_1" in r:
            ratio = r["fixed_1"] / r["free_1"]
            played = (f"{r['fixed_1']:,.0f}/s ({100 * ratio:.0f}%: {'meets' if ratio >= FIXED_TARGET else 'misses'} "
                      f"{100 * FIXED_TARGET:.0f}%) | {r['free_1']:,.0f}/s")
        lines.append(f"| {r['game']} | `{r['class']}` | {r['acceptance']:.4f} | {r['candidates_1']:,.0f}/s "
                     f"({'meets' if r['candidates_1'] >= PREDICATE_TARGET else 'misses'}) | "
                     f"{r['predicate_1']:,.0f}/s | {played} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- end to end
DATASET_TARGET = 0.85
"""``simulate -o`` end to end against the all-core engine rate."""
MEMORY_TARGET = 0.80
"""The in-memory ``cardsim.simulate`` DataFrame against the all-core engine rate."""
STARTUP_TARGET = 1.5
"""Seconds for ``cardsim simulate GAME -n 1000`` in a fresh interpreter, numba cache warm."""


def _startup_seconds(game: str, repeats: int = 3) -> float:
    """Wall time of ``cardsim simulate GAME -n 1000`` (best of ``repeats``; the cache is warm)."""
    from cardsim.bench_against import command_seconds

    return command_seconds(["simulate", game, "-n", "1000"], None, repeats)


def _cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and its live children (the joblib workers)."""
    import psutil

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
    import shutil

    import cardsim
    from cardsim.runner.dataset import simulate_to_dataset
    from cardsim.runner.run import make_run

    spec = get_game(game)
    setup = spec.setup()
    chunk = max(1, n // (4 * cores))
    run = make_run(game, n, SEED)
    best = {"engine_all": 0.0, "dataset": 0.0, "memory": 0.0}
    cpu = dict.fromkeys(best, float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "deals.parquet")
        tasks = {"engine_all": lambda: _parallel(cores, _sim_task, n, chunk, game, setup),
                 "dataset": lambda: simulate_to_dataset(target, run, n_jobs=cores),
                 "memory": lambda: cardsim.simulate(game, n, SEED, n_jobs=cores)}
        for _ in range(repeats):
            for key, task in tasks.items():
                before = _cpu_seconds()
                best[key] = max(best[key], _rate(task, n, 1))
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


# ------------------------------------------------------------------ when workers pay
CROSSOVER_DEALS = (20_000, 200_000, 1_000_000)
"""The run sizes :func:`measure_crossover` times."""
CROSSOVER_HEADING = "## When the default starts workers"


def _busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy since boot (all processes)."""
    import psutil

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
    import shutil

    from cardsim.runner.run import deal_jobs

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
            "threshold": _worker_threshold(game, cores)}


def _worker_threshold(game: str, cores: int, cap: int = 10**9) -> int | None:
    """The least number of deals from which :func:`cardsim.runner.run.deal_jobs` (n_jobs -1) starts
    workers (it grows with the run), or None below ``cap``."""
    from cardsim.runner.run import deal_jobs

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
    from cardsim.games import GAME_NAMES, get_game
    from cardsim.runner.pool import WORKER_START_SECONDS

    cores = results[0]["cores"]
    others = ", ".join(f"{r['game']} {r['others']:.2f}" for r in results)
    costs = ", ".join(f"{g} {get_game(g).deal_seconds * 1e6:.1f} µs" for g in GAME_NAMES)
    lines = ["", CROSSOVER_HEADING, "",
             f"Produced by `{command}` on {results[0]['when']}, {cores} cores. Wall time "
             "of `cardsim simulate GAME -n N -o X` as a user types it (a fresh interpreter each time, numba cache "
             f"warm) with `--jobs 1` (this process) and with `--jobs {cores}` (a worker process per core), the two "
             f"alternated, best of {results[0]['repeats']} rounds. The machine is shared: on average the other "
             f"processes kept this many of its {cores} cores busy while each game was measured: {others}.", "",
             f"The default (`--jobs -1`) starts workers only when the wall time they save (one-core work: {costs} "
             "a deal, each game's `GameSpec.deal_seconds`; less the busiest worker's share) exceeds what starting them "
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


PIMC_HEADING = "## Sampled-search play (`pimc`)"
PIMC_SIDES = {1: "declaring side", 2: "defence", 0: "all seats"}


def measure_pimc(game: str, n: int | None = None, worlds=(8, 32)) -> list[dict]:
    """Rates of the ``pimc`` strategy on one core (this process; DDS may use a second thread
    for Vint): for each of ``worlds`` and each side that searches (:data:`PIMC_SIDES`, every seat
    playing ``pimc:worlds=W,side=S``), complete deals per second, searched decisions per second
    and worlds solved per second, over ``n`` deals (default the spec's ``facts.pimc_deals``:
    searching costs milliseconds a decision, DDS for Vint a second) after one deal of
    warm-up."""
    import cardsim
    from cardsim.strategies.pimc import COUNTERS

    n = n or get_game(game).facts.pimc_deals
    seats = get_game(game).default_seats
    cardsim.simulate(game, 1, seed=SEED, strategies=["pimc:worlds=2"] * seats, n_jobs=1)  # compile
    rows = []
    for w in worlds:
        for side, who in PIMC_SIDES.items():
            searched, solved = COUNTERS.searched, COUNTERS.worlds
            start = time.perf_counter()
            cardsim.simulate(game, n, seed=SEED, strategies=[f"pimc:worlds={w},side={side}"] * seats, n_jobs=1)
            seconds = time.perf_counter() - start
            rows.append({"game": game, "worlds": w, "who": who, "deals": n, "deals_per_s": n / seconds,
                         "decisions_per_s": (COUNTERS.searched - searched) / seconds,
                         "worlds_per_s": (COUNTERS.worlds - solved) / seconds})
    return rows


def pimc_table(rows, command: str) -> str:
    """The Markdown section of :func:`measure_pimc`'s rows."""
    lines = ["", PIMC_HEADING, "",
             f"`{command}`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}"
             ": every seat plays `pimc:worlds=W,side=S` (the search at the declaring side's, the defence's or every "
             "card decision with a choice; the other decisions play `heuristic`), one process.",
             "", "| game | worlds | searching | deals | deals/s | searched decisions/s | worlds solved/s |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['worlds']} | {r['who']} | {r['deals']} | {r['deals_per_s']:.3g} | "
                     f"{r['decisions_per_s']:.3g} | {r['worlds_per_s']:,.0f} |")
    return "\n".join(lines) + "\n"


def pimc_against_deals(game: str) -> int:
    """Deals a round in ``--only pimc --against``: half the game's sampled-search benchmark
    (``facts.pimc_deals``), a few seconds of search for each side."""
    return max(1, get_game(game).facts.pimc_deals // 2)


def pimc_against_table(rows, command: str) -> str:
    """Markdown rows of :func:`cardsim.bench_against.pimc_rates` results (``rows``: dicts with
    ``game``, ``worlds`` and its keys): every seat ``pimc``, deals per CPU second, before and
    now, and the median of the per-round ratios."""
    lines = [f"`{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: every seat "
             "`pimc:worlds=W`, both trees on one core taking turns (deals per CPU second, all threads).", "",
             "| game | worlds | deals a round | rounds | before (best round) | now (best round) | now/before (median of rounds) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['worlds']} | {r['deals']} | {len(r['after'])} | "
                     f"{max(r['before']):.3g} | {max(r['after']):.3g} | {r['ratio']:.2f}× |")
    return "\n".join(lines) + "\n"


def replace_section(path: str, heading: str, text: str) -> None:
    """Put the section ``text`` (starting with a blank line and ``heading``) into the Markdown
    file ``path`` in place of its old section of that heading, else before :data:`NOTES_MARKER`,
    else at the end."""
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    if heading in old:
        start = old.index(heading)
        ends = [e for e in (old.find("\n## ", start + len(heading)), old.find(NOTES_MARKER, start)) if e >= 0]
        before, after = old[:start], old[min(ends):] if ends else ""
    elif NOTES_MARKER in old:
        before, after = old[:old.index(NOTES_MARKER)], old[old.index(NOTES_MARKER):]
    else:
        before, after = old, ""
    new = (before.rstrip("\n") + "\n" if before.strip() else "") + text
    if after.strip():
        new += "\n" + after.lstrip("\n")
    with open(path, "w") as f:
        f.write(new)


# ------------------------------------------------------------------ two strategies, alternating
def alternating_rates(game: str, specs, deals: int = 200_000, rounds: int = 5, chunk: int = 50_000,
                      clock=time.process_time) -> dict:
    """Deals per CPU second of each strategy spec in ``specs`` (the spec in every seat, the game's
    default seats and rules), ``{spec: rate}``: deals ``0 .. deals-1`` played by ``simulate_chunk``
    in this process (one core), each spec timed in turn, ``rounds`` rounds, the best round of each
    kept.  Alternating puts old and new under the same load on a shared machine, and CPU time
    (``clock``) moves far less with the neighbours than wall time; the first 2,000 deals of each
    are played untimed first (compiling or loading the kernels).  What is asked of a new
    default: its per-core rate within 10% of the previous one's, measured so.  Raises
    OptionError (a spec named twice, fewer than one deal or round) or StrategyError."""
    from cardsim.games.base import OptionError, as_list

    specs = as_list(specs, "specs (strategy specs)")
    if len(set(specs)) != len(specs) or not specs:
        raise OptionError(f"name each strategy once, got {', '.join(map(str, specs)) or 'none'}")
    if deals < 1 or rounds < 1 or chunk < 1:
        raise OptionError("deals, rounds and chunk must be at least 1")
    spec = get_game(game)
    setups = {name: spec.setup(name) for name in specs}
    for setup in setups.values():
        spec.simulate_chunk(SEED, 0, 2000, setup)
    best = dict.fromkeys(specs, float("inf"))
    for _ in range(rounds):
        for name, setup in setups.items():
            start = clock()
            for s in range(0, deals, chunk):
                spec.simulate_chunk(SEED, s, min(chunk, deals - s), setup)
            best[name] = min(best[name], clock() - start)
    return {name: deals / max(seconds, 1e-9) for name, seconds in best.items()}


def alternating_line(game: str, rates: dict, deals: int, rounds: int) -> str:
    """One line for :func:`alternating_rates`: each rate, and each against the first spec."""
    first, base = next(iter(rates.items()))
    parts = [f"{name} {rate:,.0f}/s" + ("" if name == first else f" ({rate / base - 1:+.1%} against {first})")
             for name, rate in rates.items()]
    return (f"{game}: " + ", ".join(parts) + f" (best of {rounds} alternating rounds of {deals:,} deals, "
            "CPU time, one core)")


# ------------------------------------------------------------------ targets, before and after
TARGETS_HEADING = "## Targets, before and after"
DEAL_RATIO_TARGET = 20
"""Complete deals at least 1/20 of the dealing-only rate on one core."""
HELP_TARGET = 0.5
"""Seconds for ``cardsim --help``."""
COMPILE_TARGET = 40.0
"""Seconds for a cold compile of a game on one core."""


def measure_targets(games, against: str | None, e2e=None, progress=None) -> dict:
    """Every speed target of ``make bench`` for ``games``, measured now and, with ``against``
    (a commit), in that commit too: the per-core engine rates alternately, chunk by chunk, in two
    long-lived interpreters (:func:`cardsim.bench_against.engine_rates`), start-up, ``--help``
    and cold compiles in each tree.  ``e2e``: :func:`measure_end_to_end` results to judge the end-to-end ratios
    (measured now only).  Raises RevisionError (``against`` names no commit)."""
    from cardsim import bench_against as ba

    sha = None
    rows = []
    e2e = {r["game"]: r for r in (e2e or [])}
    for game in games:
        row = {"game": game}
        if against:
            rates = ba.engine_rates(game, against, progress=progress)
            sha = rates["sha"]
            row["engine"] = (rates["before"]["full_1"], rates["after"]["full_1"])
            row["paired"] = rates["paired"]["full_1"]
            row["deal_ratio"] = (rates["before"]["deal_1"] / rates["before"]["full_1"],
                                 rates["after"]["deal_1"] / rates["after"]["full_1"])
        else:
            rates = ba.engine_rates(game, None, rounds=8, progress=progress)
            row["engine"] = (None, rates["after"]["full_1"])
            row["deal_ratio"] = (None, rates["after"]["deal_1"] / rates["after"]["full_1"])
        argv = ["simulate", game, "-n", "1000"]
        row["startup"] = (ba.command_seconds(argv, against) if against else None, ba.command_seconds(argv, None))
        row["compile"] = (ba.compile_seconds(game, against) if against else None, ba.compile_seconds(game, None))
        if game in e2e:
            row["dataset"] = e2e[game]["dataset"] / e2e[game]["engine_all"]
            row["memory"] = e2e[game]["memory"] / e2e[game]["engine_all"]
        rows.append(row)
    help_seconds = (ba.command_seconds(["--help"], against) if against else None, ba.command_seconds(["--help"], None))
    return {"rows": rows, "help": help_seconds, "sha": sha, "against": against}


def targets_table(result, command: str) -> str:
    """The Markdown section of :func:`measure_targets`: one line a target and game, with
    "meets" or "misses"."""
    sha = result["sha"]
    before = f"before (`{sha[:7]}`)" if sha else "before"
    lines = ["", TARGETS_HEADING, "",
             f"`{command}`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores. "
             + (f"Before = commit {sha[:12]} (`--against {result['against']}`), measured in the same run: "
                "the per-core engine rates in two long-lived interpreters, one a tree, playing the same chunk "
                "of 50,000 deals in turn (the order reversed every round, 24 rounds, CPU time, "
                "`cardsim.bench_against`): each side's best chunk, and the verdict on the median of the "
                "per-round ratios now/before (in brackets); start-up, `--help` (best of 3, warm cache) and "
                "cold compiles (empty cache) in each tree."
                if sha else "No `--against COMMIT`: the before column is empty and the engine target is not judged."),
             "", f"| target | game | {before} | now | verdict |", "|---|---|---:|---:|---|"]

    def verdict(ok):
        return "—" if ok is None else ("meets" if ok else "misses")

    for r in result["rows"]:
        b, a = r["engine"]
        # The paired ratio when measured (engine_rates), else the best rates' ratio.
        now_over_before = None if b is None else r.get("paired", a / b)
        ok = None if now_over_before is None else now_over_before >= 1.0
        ratio = "" if now_over_before is None else f" ({now_over_before:.2f}×)"
        lines.append(f"| complete deals per second, one core, default play (≥ before) | {r['game']} | "
                     f"{'' if b is None else f'{b:,.0f}/s'} | {a:,.0f}/s{ratio} | {verdict(ok)} |")
        b, a = r["deal_ratio"]
        lines.append(f"| complete deals against dealing only, one core (≥ 1/{DEAL_RATIO_TARGET}) | {r['game']} | "
                     f"{'' if b is None else f'1/{b:.1f}'} | 1/{a:.1f} | {verdict(a <= DEAL_RATIO_TARGET)} |")
        if "dataset" in r:
            lines.append(f"| `simulate -o` against the engine, all cores (≥ {DATASET_TARGET:.0%}) | {r['game']} | | "
                         f"{r['dataset']:.0%} | {verdict(r['dataset'] >= DATASET_TARGET)} |")
            lines.append(f"| in-memory DataFrame against the engine, all cores (≥ {MEMORY_TARGET:.0%}) | "
                         f"{r['game']} | | {r['memory']:.0%} | {verdict(r['memory'] >= MEMORY_TARGET)} |")
        b, a = r["startup"]
        lines.append(f"| start-up, `cardsim simulate {r['game']} -n 1000` (< {STARTUP_TARGET} s) | {r['game']} | "
                     f"{'' if b is None else f'{b:.2f} s'} | {a:.2f} s | {verdict(a < STARTUP_TARGET)} |")
        b, a = r["compile"]
        lines.append(f"| cold compile, one process (< {COMPILE_TARGET:.0f} s) | {r['game']} | "
                     f"{'' if b is None else f'{b:.1f} s'} | {a:.1f} s | {verdict(a < COMPILE_TARGET)} |")
    b, a = result["help"]
    lines.append(f"| `cardsim --help` (< {HELP_TARGET} s) | all | {'' if b is None else f'{b:.2f} s'} | {a:.2f} s | "
                 f"{verdict(a < HELP_TARGET)} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="cardsim bench", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals per measurement")
    parser.add_argument("--games", nargs="*", default=list(GAME_NAMES))
    parser.add_argument("--out", help="also write the table to this Markdown file")
    parser.add_argument("--against", metavar="COMMIT",
                        help="also measure the targets in this commit of the repository (the before column: "
                             "engine rates chunk by chunk in two interpreters taking turns, start-up, --help, "
                             "cold compiles)")
    parser.add_argument("--only", choices=["crossover", "pimc", "targets"],
                        help="measure one section only (crossover: wall time of simulate -o with --jobs 1 and with "
                             "all cores at a few sizes; pimc: the sampled-search player's rates; targets: every "
                             "target, before and after, with the end-to-end section they are judged on); with --out, only "
                             "that section of the file is replaced")
    parser.add_argument("--strategies", nargs="+", metavar="SPEC",
                        help="instead: time these strategy specs (every seat) alternately on one core, the "
                             "best of --rounds rounds each (CPU time; e.g. a new default against the old)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds with --strategies and with --only pimc --against (default 5)")
    args = parser.parse_args(argv)
    if args.deals <= 0:
        parser.error("--deals must be positive")
    if args.strategies:
        from cardsim.games.base import OptionError, StrategyError

        for game in args.games:
            try:
                rates = alternating_rates(game, args.strategies, args.deals, args.rounds)
            except (OptionError, StrategyError) as exc:
                print(f"cardsim bench: error: {exc}", file=sys.stderr)  # one line, no usage text
                return 2
            print(alternating_line(game, rates, args.deals, args.rounds), flush=True)
        return 0
    if args.out:
        from cardsim.runner.files import OutputError, check_output_file

        try:
            check_output_file(args.out)  # now, not after minutes of measuring
        except OutputError as exc:
            parser.error(f"--out: {exc}")
    cores = os.cpu_count() or 1
    if args.against:
        from cardsim.bench_against import RevisionError, tree_at

        try:
            tree_at(args.against)  # now, not after minutes of measuring
        except RevisionError as exc:
            parser.error(str(exc))
    if args.only == "crossover":
        command = "python -m cardsim.bench --only crossover" + (f" --out {args.out}" if args.out else "")
        results = []
        for game in args.games:
            print(f"measuring {game} …", file=sys.stderr)
            results.append(measure_crossover(game, cores))
        text = crossover_table(results, command)
        print(text)
        if args.out:
            replace_section(args.out, CROSSOVER_HEADING, text)
        return 0
    if args.only == "targets":
        command = "python -m cardsim.bench --only targets" + (f" --against {args.against}" if args.against else "")
        # The end-to-end targets (simulate -o, the in-memory frame) are judged on this run's own
        # measurement, so the section is measured again with them.
        e2e = []
        for game in args.games:
            print(f"measuring {game} end to end …", file=sys.stderr)
            e2e.append(measure_end_to_end(game, args.deals, cores))
        e2e_text = end_to_end_table(e2e, args.deals)
        text = targets_table(measure_targets(args.games, args.against, e2e, progress=_progress), command)
        print(e2e_text + text)
        if args.out:
            replace_section(args.out, E2E_HEADING, e2e_text)
            replace_section(args.out, TARGETS_HEADING, text)
        return 0
    if args.only == "pimc" and args.against:
        from cardsim.bench_against import pimc_rates

        command = f"python -m cardsim.bench --only pimc --against {args.against} --rounds {args.rounds}"
        rows = []
        for game in args.games:
            for worlds in (8, 32):
                rows.append({"game": game, "worlds": worlds, **pimc_rates(
                    game, args.against, worlds, deals=pimc_against_deals(game), rounds=args.rounds,
                    progress=_progress)})
        print(pimc_against_table(rows, command))
        return 0
    if args.only == "pimc":
        command = "python -m cardsim.bench --only pimc" + (f" --out {args.out}" if args.out else "")
        rows = []
        for game in args.games:
            print(f"measuring pimc in {game} …", file=sys.stderr)
            rows += measure_pimc(game)
        text = pimc_table(rows, command)
        print(text)
        if args.out:
            replace_section(args.out, PIMC_HEADING, text)
        return 0
    results = []
    for game in args.games:
        print(f"measuring {game} …", file=sys.stderr)
        results.append(measure(game, args.deals, cores))
    command = "make bench" if args.out else "cardsim bench"
    text = table(results, args.deals, cores, command)
    e2e = [measure_end_to_end(r["game"], args.deals, cores) for r in results]
    text += end_to_end_table(e2e, args.deals)
    text += conditions_table([measure_conditions(game, args.deals) for game in args.games])
    text += crossover_table([measure_crossover(game, cores) for game in args.games], command)
    text += pimc_table([row for game in args.games for row in measure_pimc(game)], command)
    text += targets_table(measure_targets(args.games, args.against, e2e, progress=_progress),
                          command + (f" AGAINST={args.against}" if args.against else ""))
    print(text)
    if args.out:
        write_keeping_notes(args.out, text)
    return 0


def _progress(message: str) -> None:
    print(f"  {message}", file=sys.stderr, flush=True)


NOTES_MARKER = "<!-- Measured by hand below this line: make bench keeps it. -->"


def write_keeping_notes(path: str, text: str) -> None:
    """Write the measured ``text`` to ``path``, keeping whatever follows :data:`NOTES_MARKER`
    in the old file (hand-made measurements: before/after comparisons, long runs)."""
    notes = ""
    try:
        with open(path) as f:
            old = f.read()
        if NOTES_MARKER in old:
            notes = "\n" + old[old.index(NOTES_MARKER):]
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text + notes)


if __name__ == "__main__":
    sys.exit(main())
