"""Where a deal's time goes: a sampling profile of the jitted kernels, by compiled function.

``python -m cardsim.profiling vint --decisions [--deals N]`` times each kind of decision instead
(:mod:`cardsim.games.vint.decisions`): how many a deal makes, nanoseconds each, and their share
of a deal on one core.

``python -m cardsim.profiling GAME [--deals N] [--strategy SPEC]`` compiles the game's engine in
this process (a fresh, temporary numba cache: a cold compile, 40-90 s), writes a perf map
(``/tmp/perf-PID.map``: every compiled function's address, so that Linux ``perf`` can name
jitted code), then plays ``N`` deals on one core while ``perf record`` samples the process, and
prints each function's share of the samples, then the functions whose machine code still calls
numba's reference counting (:func:`refcounted_functions`).  Decision functions compiled out of line
(a strategy's bid, lead, …) show under their own names; what is inlined shows under its caller
(the engine's per-deal function).  Needs ``perf`` (Debian: linux-perf) and
``kernel.perf_event_paranoid`` ≤ 2; says so in one line otherwise.

This is how BENCHMARKS.md's "Where the time goes" was measured: it showed that numba's
reference counting of arrays (``NRT_incref`` / ``NRT_decref``) took a third of a deal's time
before the engines borrowed their arrays (:func:`cardsim._jit.borrowed`).
"""
from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Neither imports numba: its cache folder is set in main() before the first kernel is loaded.
from cardsim.cli.common import Parser, parse_whole
from cardsim.games import game_names, get_game, is_game


def _perf_map(path: str) -> int:
    """Write every compiled numba function's address range to ``path`` (perf's map format);
    returns how many.  Only functions compiled in this process have their code at hand."""
    from numba.core.registry import CPUDispatcher

    symbols = {}
    for obj in gc.get_objects():
        if isinstance(obj, CPUDispatcher):
            for compiled in obj.overloads.values():
                library = compiled.library
                module = getattr(library, "_final_module", None)
                if module is None:
                    continue
                for function in module.functions:
                    if function.is_declaration:
                        continue
                    try:
                        address = library.get_pointer_to_function(function.name)
                    except Exception:  # a function the library does not export
                        continue
                    if address:
                        symbols[address] = function.name
    addresses = sorted(symbols)
    with open(path, "w") as f:
        for i, address in enumerate(addresses):
            size = addresses[i + 1] - address if i + 1 < len(addresses) else 4096
            f.write(f"{address:x} {min(size, 1 << 20):x} {symbols[address]}\n")
    return len(addresses)


_LABEL = re.compile(r"^(\S+):\s*$", re.M)
_LOAD = re.compile(r"^\s*movabsq\s+\$(\w+),\s*%(\w+)")
_CALL = re.compile(r"^\s*callq\s+(?:\*%(\w+)|(\w+))")


def refcount_calls(asm: str, function: str) -> int:
    """Calls to ``NRT_incref`` / ``NRT_decref`` in the machine code of ``function`` (its mangled
    name) within ``asm``, a library's assembly (x86-64, AT&T syntax as LLVM prints it; numba
    calls the runtime through an address loaded into a register).

    Such calls are cheap in themselves (a null check where the array is a borrowed view) and
    perf books almost nothing to them, but every one spills the caller's registers: in Vint's
    out-of-line bid they cost 6–8% of a deal (BENCHMARKS.md).  Hence this count."""
    labels = [(m.start(), m.group(1)) for m in _LABEL.finditer(asm)]
    starts = [i for i, (_, name) in enumerate(labels) if name == function]
    if not starts:
        return 0
    begin = labels[starts[0]][0]
    # The function ends where LLVM marks its end (.Lfunc_endN) or the next function begins; its
    # own local labels (.LBB0_3) lie inside it, and numba's code has no .cfi_endproc to go by.
    end = next((at for at, name in labels[starts[0] + 1:]
                if name.startswith(".Lfunc_end") or not name.startswith(".")), len(asm))
    loaded, count = {}, 0
    for line in asm[begin:end].splitlines():
        m = _LOAD.match(line)
        if m:
            loaded[m.group(2)] = m.group(1)
            continue
        m = _CALL.match(line)
        if m:
            target = loaded.get(m.group(1)) if m.group(1) else m.group(2)
            count += target in ("NRT_incref", "NRT_decref")
    return count


def refcounted_functions() -> dict[str, int]:
    """``{function: calls}`` for every function compiled in this process whose own machine code
    calls the reference counting (:func:`refcount_calls`); functions loaded from a cache are not
    seen."""
    import warnings

    from numba.core.registry import CPUDispatcher

    found = {}
    for obj in gc.get_objects():
        if isinstance(obj, CPUDispatcher):
            for compiled in obj.overloads.values():
                with warnings.catch_warnings():
                    # Code loaded from a cache has no assembly to read: numba warns and returns
                    # text without it, where nothing is counted.
                    warnings.simplefilter("ignore")
                    try:
                        asm = compiled.library.get_asm_str()
                    except Exception:
                        continue
                n = refcount_calls(asm, compiled.fndesc.mangled_name)
                if n:
                    name = short_name(compiled.fndesc.mangled_name)
                    found[name] = found.get(name, 0) + n
    return found


def short_name(symbol: str) -> str:
    """``cardsim.games.vint.engine.run_deal`` from numba's mangled name (else the name as is)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group(0)
        n = int(digits)
        parts.append(rest[len(digits):len(digits) + n])
        rest = rest[len(digits) + n:]
    return ".".join(parts) or symbol


MAX_DEALS = 10**9
"""The most deals ``--deals`` takes (a sample of a billion deals is hours of profiling)."""


def _deals(text: str) -> int:
    """``--deals``: a whole number from 1 to :data:`MAX_DEALS`, written as in every cardsim command
    (``1e6`` too).  Not cli.common's ``parse_positive``: its bound comes from the runner, which imports
    numba, and numba must not be imported before the profile sets its empty cache."""
    return parse_whole(text, 1, MAX_DEALS)


MIN_DECISION_DEALS = 1000
"""The fewest deals ``--decisions`` replays: with fewer, a kind of decision is too few calls for
its time to be the decisions' (``--deals 1`` gave a bid 350% of a deal)."""


def _decisions(parser, args, deals: int) -> int:
    """``--decisions``: the game's decisions module's table (``GameSpec.modules.decisions``; Vint's is
    :mod:`cardsim.games.vint.decisions`), on one core, beside the deal's own time on that core (the warm
    numba cache: no cold compile)."""
    if deals < MIN_DECISION_DEALS:
        parser.error(f"--deals: at least {MIN_DECISION_DEALS:,} with --decisions (fewer decisions are timed as "
                     "mostly the cost of calling the loop)")
    if not get_game(args.game).modules.offers("decisions"):
        timed = [name for name in game_names() if get_game(name).modules.offers("decisions")]
        parser.error(f"--decisions: no per-decision timing for {args.game} (only for {', '.join(timed)})")
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})  # one core: the deal's time is per core
    try:
        return _decisions_table(parser, args, deals)
    finally:
        if pinned:
            os.sched_setaffinity(0, cores)


def _decisions_table(parser, args, deals: int) -> int:
    spec = get_game(args.game)
    decisions = spec.modules.load("decisions")
    try:
        setup = spec.setup([args.strategy] * spec.default_seats if args.strategy else None)
        views = decisions.collect(setup, deals)
    except ValueError as exc:
        parser.error(str(exc))
    rows = decisions.time_decisions(views)
    spec.play.simulate_chunk(1, 0, 2000, setup)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        spec.play.simulate_chunk(1, 0, 100_000, setup)
        best = min(best, time.process_time() - start)
    deal_ns = 1e9 * best / 100_000
    print(f"{args.game}: a deal takes {deal_ns:,.0f} ns on one core ({1e9 / deal_ns:,.0f} deals/s, best of 5 × 100,000); "
          f"the decisions of {deals:,} deals (seed 1), replayed through the compiled functions:")
    print(f"  {'decision':<16} {'a deal':>7} {'ns each':>8} {'ns a deal':>10} {'share':>6}")
    for r in rows:
        print(f"  {r['decision']:<16} {r['per_deal']:7.2f} {r['ns']:8.1f} {r['ns_per_deal']:10.0f} "
              f"{100 * r['ns_per_deal'] / deal_ns:5.1f}%")
    print(f"  (a deal dealt, void deals included, which have no play; calls made a deal: {views['calls'] / deals:.2f}; "
          "the rest of a deal is the engine's own loops, dealing and scoring)")
    return 0


def _parser():
    # cardsim's parser: one-line errors, and deal counts written as 1e6 accepted, as in every command.
    parser = Parser(prog="python -m cardsim.profiling", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=_deals, help="deals played while sampling (default 600,000; with --decisions "
                                                   "the deals whose decisions are replayed, default 20,000)")
    parser.add_argument("--strategy", help="strategy spec for every seat (default: the game's defaults)")
    parser.add_argument("--top", type=_deals, default=15, help="functions to list (default 15)")
    parser.add_argument("--decisions", action="store_true",
                        help="time each kind of decision instead (Vint's default play, heuristic or heuristic_v3: "
                             "bid evaluations, leads, cards to a trick), replaying the views of 20,000 deals (or "
                             "--deals); counts are a deal dealt, void deals included; no perf needed")
    return parser


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not is_game(args.game):
        parser.error(f"unknown game {args.game!r}: choose from {', '.join(game_names())}")
    if args.decisions:
        return _decisions(parser, args, args.deals or 20_000)
    args.deals = args.deals or 600_000
    if shutil.which("perf") is None:
        print("cardsim profiling: error: perf is not installed (Debian: apt-get install linux-perf)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="cardsim-profile-")
    # Compiled here, not loaded from a cache, so that the code's addresses are known (read when
    # cardsim._jit is first imported: a fresh interpreter).
    os.environ["NUMBA_CACHE_DIR"] = cache
    spec = get_game(args.game)
    setup = spec.setup([args.strategy] * spec.default_seats if args.strategy else None)
    print(f"compiling {args.game} (a cold compile) …", file=sys.stderr)
    spec.play.simulate_chunk(1, 0, 2000, setup)
    map_path = f"/tmp/perf-{os.getpid()}.map"
    count = _perf_map(map_path)
    if count == 0:
        print("cardsim profiling: error: no kernel was compiled in this process (run it as "
              "python -m cardsim.profiling in a fresh interpreter)", file=sys.stderr)
        return 2
    counted = refcounted_functions()  # before the freeze: frozen objects are out of gc's sight
    gc.collect()
    gc.freeze()  # the heap walk above would otherwise make the sampled collections expensive
    data = os.path.join(cache, "perf.data")
    recorder = subprocess.Popen(["perf", "record", "-F", "1999", "-p", str(os.getpid()), "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)
    start = time.process_time()
    for s in range(0, args.deals, 50_000):
        spec.play.simulate_chunk(1, s, min(50_000, args.deals - s), setup)
    seconds = time.process_time() - start
    recorder.send_signal(2)
    _, err = recorder.communicate()
    if recorder.returncode not in (0, -2, 130) or not os.path.exists(data):
        print(f"cardsim profiling: error: perf record failed: {err.decode().strip().splitlines()[-1:]}",
              file=sys.stderr)
        return 2
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym", "--stdio"],
                            capture_output=True, text=True).stdout
    print(f"{args.game}: {args.deals:,} deals in {seconds:.2f} CPU s = {args.deals / seconds:,.0f} deals/s on one "
          f"core; {count} compiled functions mapped; share of the samples:")
    shown = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m and shown < args.top:
            print(f"  {float(m.group(1)):5.1f}%  {short_name(m.group(2))}")
            shown += 1
    print("reference-count calls left in the compiled code (a kernel that allocates its scratch counts "
          "once a chunk; one on a per-deal path counts at every call, BENCHMARKS.md):"
          + ("" if counted else " none"))
    for name, n in sorted(counted.items(), key=lambda item: -item[1]):
        print(f"  {n:4d}  {name}")
    os.remove(map_path)
    shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
