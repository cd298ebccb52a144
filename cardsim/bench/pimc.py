"""Sampled-search play: the ``pimc`` strategy's deals, searched decisions and worlds solved per
second on one core, for each side that searches (BENCHMARKS.md, "Sampled-search play"), and the
table of ``--only pimc --against REV`` (:func:`cardsim.bench.against.pimc_rates`)."""
from __future__ import annotations

import platform
import time
from datetime import datetime, timezone

import cardsim
from cardsim.bench.common import SEED
from cardsim.games import get_game
from cardsim.strategies.pimc import COUNTERS, early_default

PIMC_HEADING = "## Sampled-search play (`pimc`)"
PIMC_SIDES = {1: "declaring side", 2: "defence", 0: "all seats"}


def measure_pimc(game: str, n: int | None = None, worlds=(8, 32)) -> list[dict]:
    """Rates of the ``pimc`` strategy on one core (this process; DDS may use a second thread
    for Vint): for each of ``worlds`` and each side that searches (:data:`PIMC_SIDES`, every seat
    playing ``pimc:worlds=W,side=S``), complete deals per second, searched decisions per second
    and worlds solved per second, over ``n`` deals (default the spec's ``facts.pimc_deals``:
    searching costs milliseconds a decision, DDS for Vint a second) after one deal of
    warm-up."""
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
             "card decision with a choice; the other decisions play `heuristic`) with the game's other defaults ("
             + ", ".join(f"{g} `{e}`" for g, e in _early_defaults(rows).items()) + "), one process.",
             "", "| game | worlds | searching | deals | deals/s | searched decisions/s | worlds solved/s |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['worlds']} | {r['who']} | {r['deals']} | {r['deals_per_s']:.3g} | "
                     f"{r['decisions_per_s']:.3g} | {r['worlds_per_s']:,.0f} |")
    return "\n".join(lines) + "\n"


def _early_defaults(rows) -> dict:
    """``{game: its pimc's default early play}`` (``"early=4"``, :func:`cardsim.strategies.pimc.early_default`)
    for the games of ``rows``: plain ``pimc`` plays those first tricks by the heuristic's card, so
    the table says which search it measured."""
    games = dict.fromkeys(r["game"] for r in rows)
    return {g: early_default(get_game(g).table.registry["pimc"]) for g in games}


def pimc_against_deals(game: str) -> int:
    """Deals a round in ``--only pimc --against``: half the game's sampled-search benchmark
    (``facts.pimc_deals``), a few seconds of search for each side."""
    return max(1, get_game(game).facts.pimc_deals // 2)


def pimc_against_table(rows, command: str) -> str:
    """Markdown rows of :func:`cardsim.bench.against.pimc_rates` results (``rows``: dicts with
    ``game``, ``worlds`` and its keys): every seat ``pimc``, deals per CPU second, before and
    now, and the median of the per-round ratios."""
    lines = [f"`{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: every seat "
             "`pimc:worlds=W`, both trees on one core taking turns (deals per CPU second, all threads), each tree "
             "with its own defaults (now: " + ", ".join(f"{g} `{e}`" for g, e in _early_defaults(rows).items())
             + ").", "",
             "| game | worlds | deals a round | rounds | before (best round) | now (best round) | now/before (median of rounds) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['worlds']} | {r['deals']} | {len(r['after'])} | "
                     f"{max(r['before']):.3g} | {max(r['after']):.3g} | {r['ratio']:.2f}× |")
    return "\n".join(lines) + "\n"


