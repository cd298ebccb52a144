"""Time the double-dummy solvers on real play-start positions (BENCHMARKS.md, "Double-dummy").

    python -m cardsim.dd.bench [--deals N] [--seed S]

For each game (its spec's ``dd.bench`` hook, :class:`cardsim.games.base.DDHooks`): the
play-start positions of deals ``0..N-1`` of seed ``S`` as the engine plays them (default
strategies), then one timed pass of the solver over the played ones on one core (the
first deal solved before timing, so compilation is not counted; each game's table starts
empty).  Prints milliseconds per deal and search nodes per deal (501 and 500).
"""
from __future__ import annotations

import argparse


def main(argv=None) -> int:
    from cardsim.games import GAME_NAMES, get_game

    ap = argparse.ArgumentParser(prog="python -m cardsim.dd.bench")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for name in GAME_NAMES:
        hooks = get_game(name).dd
        if hooks is not None and hooks.bench is not None:
            print(hooks.bench(args.seed, args.deals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
