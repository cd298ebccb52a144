"""How fast a rule file plays against the base strategy, per core (docs/rules-files.md; issue 48's
target: at least 50% of ``heuristic``'s rate).

    python -m cardsim.rules.bench examples/systems/vint-natural.toml [--deals 20000] [--rounds 5]

Both setups play the same deals (same seed and deal numbers) in this process, every seat the
rule file or every seat its base, taking turns chunk by chunk so that both meet the same load
on a shared machine; each rate is the best of its rounds.  Prints one line.
"""
from __future__ import annotations

import argparse
import sys
import time

from cardsim.games import get_game
from cardsim.rules.compile import load


def rates(path: str, deals: int = 20_000, rounds: int = 5, seed: int = 1) -> tuple[str, float, float]:
    """``(game, rule-file deals/s, base deals/s)`` on one core, best of ``rounds`` alternating
    chunks of ``deals`` deals."""
    from cardsim.rules.source import read

    game = read(path).game
    spec = get_game(game)
    compiled = load(path, spec.registry)
    rules = spec.setup(f"rules:{path}")
    base = spec.setup(compiled.file.base)
    for setup in (rules, base):  # compile outside the timing
        spec.simulate_chunk(seed, 0, 100, setup)
    best = {"rules": 0.0, "base": 0.0}
    for r in range(rounds):
        for name, setup in (("rules", rules), ("base", base)) if r % 2 == 0 else (("base", base), ("rules", rules)):
            t = time.perf_counter()
            spec.simulate_chunk(seed, r * deals, deals, setup)
            best[name] = max(best[name], deals / (time.perf_counter() - t))
    return game, best["rules"], best["base"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardsim.rules.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("path")
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    game, r, b = rates(args.path, args.deals, args.rounds)
    print(f"{game}: {args.path} {r:,.0f} deals/s, its base {b:,.0f} deals/s, one core, best of {args.rounds} "
          f"alternating chunks of {args.deals:,}: {r / b:.0%} of the base (target 50%: "
          f"{'meets' if r >= 0.5 * b else 'misses'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
