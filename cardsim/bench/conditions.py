"""Dealing under conditions: candidate deals per second of the rejection loop for each game's
benchmark class of seat 0, the class test alone, and complete deals with seat 0's hand given
against unconditioned ones (BENCHMARKS.md, "Dealing under conditions")."""
from __future__ import annotations

from cardsim.bench.common import SEED, best_rate
from cardsim.conditions import Conditions
from cardsim.conditions import compile as compile_conditions
from cardsim.deal import count_meeting, deal_chunk
from cardsim.games import get_game

CONDITIONS_HEADING = "## Dealing under conditions"
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
    condition = get_game(game).facts.bench_condition
    compiled = compile_conditions(Conditions(game, classes={0: condition}))
    acceptance = deal_chunk(compiled, SEED, 0, 2000).acceptance
    played = _fixed_hand_rates(game, min(n, 200_000))
    deals = max(1, int(n * acceptance))
    attempts = int(deal_chunk(compiled, SEED, 0, deals).attempts.sum())
    free = deal_chunk(compile_conditions(Conditions(game)), SEED, 0, min(n, 1_000_000))
    count_meeting(free.hands[:10], free.talons[:10], compiled.plan)
    return {
        "game": game,
        "class": condition,
        "acceptance": acceptance,
        "candidates_1": best_rate(lambda: deal_chunk(compiled, SEED, 0, deals), attempts),
        "predicate_1": best_rate(lambda: count_meeting(free.hands, free.talons, compiled.plan), len(free.hands)),
        **played,
    }


def _fixed_hand_rates(game: str, n: int) -> dict:
    """Complete deals per second on one core with seat 0's whole hand given (dealt under the
    condition, then played by the game's ``forcing.play_given`` with nothing forced) and, in the
    same run, unconditioned (``simulate_chunk``); empty when the game has no forcing yet."""
    spec = get_game(game)
    if spec.forcing is None:
        return {}
    setup = spec.setup()
    first = spec.play.make_records(SEED, [0], setup)[0]
    compiled = compile_conditions(Conditions(game, seats=setup.seats, hands={0: first["hands"][0]}))
    state = spec.forcing.parse_before(None, setup)
    chunk = 20_000

    def fixed():
        for s in range(0, n, chunk):
            c = min(chunk, n - s)
            d = deal_chunk(compiled, SEED, s, c)
            spec.forcing.play_given(SEED, s, d, setup, spec.forcing.no_force, state)

    def free():
        for s in range(0, n, chunk):
            spec.play.simulate_chunk(SEED, s, min(chunk, n - s), setup)

    fixed()
    free()
    return {"fixed_1": best_rate(fixed, n), "free_1": best_rate(free, n)}


def conditions_table(results) -> str:
    """Markdown section for :func:`measure_conditions` results."""
    lines = ["", CONDITIONS_HEADING, "",
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


