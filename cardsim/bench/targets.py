"""Every speed target of ``make bench``, each with "meets" or "misses", measured now and, with
``--against REV``, in that commit too (BENCHMARKS.md, "Targets, before and after")."""
from __future__ import annotations

import os
from datetime import datetime, timezone

from cardsim.bench import against as ba
from cardsim.bench.end_to_end import DATASET_TARGET, MEMORY_TARGET, STARTUP_TARGET

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
    long-lived interpreters (:func:`cardsim.bench.against.engine_rates`), start-up, ``--help``
    and cold compiles in each tree.  ``e2e``: :func:`cardsim.bench.end_to_end.measure_end_to_end`
    results to judge the end-to-end ratios (measured now only).  Raises RevisionError (``against``
    names no commit)."""
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
                "`cardsim.bench.against`): each side's best chunk, and the verdict on the median of the "
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


