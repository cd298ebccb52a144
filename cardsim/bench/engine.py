"""Engine rates: deals per second of each game, dealing only and complete deals with the
default strategies, on one core and on all cores, and compile times (the top table of
BENCHMARKS.md); and strategy specs timed alternately on one core (``cardsim bench --strategies``).
"""
from __future__ import annotations

import platform
import tempfile
import time
from datetime import datetime, timezone

from cardsim.bench.against import compile_seconds
from cardsim.bench.common import SEED, best_rate, deal_task, parallel, sim_task
from cardsim.games import get_game
from cardsim.games.base import OptionError, as_list


def measure(game: str, n: int, cores: int) -> dict:
    """Deals per second of ``game``, ``n`` deals a measurement, best of 3 runs: dealing only and
    complete deals (default strategies) on one core (``deal_1``, ``full_1``) and on ``cores``
    joblib workers over chunks (``deal_all``, ``full_all``); and the seconds of a compile in a
    fresh interpreter with an empty numba cache (``cold``) and from that cache (``warm``)."""
    spec = get_game(game)
    setup = spec.setup()
    spec.play.deal_chunk(SEED, 0, 1000)
    spec.play.simulate_chunk(SEED, 0, 1000, setup)
    chunk = max(1, n // (4 * cores))
    parallel(cores, sim_task, 4 * cores, 1, game, setup)  # start the workers and load their caches
    parallel(cores, deal_task, 4 * cores, 1, game)
    with tempfile.TemporaryDirectory() as cache:
        cold = compile_seconds(game, None, cache=cache)
        warm = compile_seconds(game, None, cache=cache)
    return {
        "game": game,
        "deal_1": best_rate(lambda: spec.play.deal_chunk(SEED, 0, n), n),
        # In chunks, as runs are made: one 10^6-row array would add page faults no run pays.
        "full_1": best_rate(lambda: [spec.play.simulate_chunk(SEED, s, min(chunk, n - s), setup) for s in range(0, n, chunk)], n),
        "deal_all": best_rate(lambda: parallel(cores, deal_task, n, chunk, game), n),
        "full_all": best_rate(lambda: parallel(cores, sim_task, n, chunk, game, setup), n),
        "cold": cold,
        "warm": warm,
    }


def table(results, n, cores, command) -> str:
    """The top of BENCHMARKS.md: :func:`measure`'s results as a Markdown table, each game against
    the engine targets (1/20 of dealing on one core, 1,000,000 deals/s on all cores)."""
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
    specs = as_list(specs, "specs (strategy specs)")
    if len(set(specs)) != len(specs) or not specs:
        raise OptionError(f"name each strategy once, got {', '.join(map(str, specs)) or 'none'}")
    if deals < 1 or rounds < 1 or chunk < 1:
        raise OptionError("deals, rounds and chunk must be at least 1")
    spec = get_game(game)
    setups = {name: spec.setup(name) for name in specs}
    for setup in setups.values():
        spec.play.simulate_chunk(SEED, 0, 2000, setup)
    best = dict.fromkeys(specs, float("inf"))
    for _ in range(rounds):
        for name, setup in setups.items():
            start = clock()
            for s in range(0, deals, chunk):
                spec.play.simulate_chunk(SEED, s, min(chunk, deals - s), setup)
            best[name] = min(best[name], clock() - start)
    return {name: deals / max(seconds, 1e-9) for name, seconds in best.items()}


def alternating_line(game: str, rates: dict, deals: int, rounds: int) -> str:
    """One line for :func:`alternating_rates`: each rate, and each against the first spec."""
    first, base = next(iter(rates.items()))
    parts = [f"{name} {rate:,.0f}/s" + ("" if name == first else f" ({rate / base - 1:+.1%} against {first})")
             for name, rate in rates.items()]
    return (f"{game}: " + ", ".join(parts) + f" (best of {rounds} alternating rounds of {deals:,} deals, "
            "CPU time, one core)")


