"""How fast a rule file plays against the base strategy, per core (docs/rules-files.md; the
target: at least 50% of ``heuristic``'s rate), and how fast its implied calls are dealt.

    cardsim bench rules examples/systems/vint-natural.toml [--deals 20000] [--rounds 5]
    cardsim bench rules examples/systems/vint-complete.toml --implied "1NT P" --dealer 0 --seat 2

Both setups play the same deals (same seed and deal numbers) in this process, every seat the
rule file or every seat its base, taking turns chunk by chunk so that both meet the same load
on a shared machine; each rate is the best of its rounds.  Prints one line.

With ``--implied CALLS``: a question of ``--seat`` after the given calls from ``--dealer``, every
seat the rule file, its deals dealt two ways (:mod:`cardsim.rules.implied`): the callers' hands
from their rules' conditions, then the auction tested, and plain rejection (the auction tested on
hands dealt at random); the two take turns chunk by chunk on the same deal numbers, one core.
Prints per way the deals kept per second (best of its rounds), the share of random deals kept
(both the same in expectation) and the auctions tested per deal kept.
"""
from __future__ import annotations

import time

from cardsim.games import get_game
from cardsim.questions import calls_dealt, question
from cardsim.rules.compile import load
from cardsim.rules.source import read


def rates(path: str, deals: int = 20_000, rounds: int = 5, seed: int = 1) -> tuple[str, float, float]:
    """``(game, rule-file deals/s, base deals/s)`` on one core, best of ``rounds`` alternating
    chunks of ``deals`` deals."""
    game = read(path).game
    spec = get_game(game)
    compiled = load(path, spec.table.registry)
    rules = spec.setup(f"rules:{path}")
    base = spec.setup(compiled.file.base)
    for setup in (rules, base):  # compile outside the timing
        spec.play.simulate_chunk(seed, 0, 100, setup)
    best = {"rules": 0.0, "base": 0.0}
    for r in range(rounds):
        for name, setup in (("rules", rules), ("base", base)) if r % 2 == 0 else (("base", base), ("rules", rules)):
            t = time.perf_counter()
            spec.play.simulate_chunk(seed, r * deals, deals, setup)
            best[name] = max(best[name], deals / (time.perf_counter() - t))
    return game, best["rules"], best["base"]


def implied_rates(path: str, auction: str, dealer: int, seat: int, deals: int = 2_000, rounds: int = 4,
                  seed: int = 1) -> dict:
    """``{"rules": {...}, "plain": {...}}``: for each way of dealing a question's implied calls
    (the file at every seat; the module docstring), ``rate`` the best deals
    kept per second (one core), ``acceptance`` the deals kept per deal dealt at random, ``tested``
    the auctions tested per deal kept, over every round; plus ``"how"``: the question's notes
    (:func:`cardsim.questions.calls_dealt`)."""
    game = read(path).game
    kw = dict(game=game, seat=seat, options=["P"], n=deals * rounds, seed=seed, dealer=dealer,
              auction=auction.split(), strategies=f"rules:{path}")
    ways = {"rules": question(**kw), "plain": question(**kw, deal_from_rules=False)}
    for q in ways.values():  # loads the compiled dealer and auction outside the timing
        q.deal(deals * rounds, 20)
    out = {name: {"rate": 0.0, "kept": 0, "attempts": 0, "tested": 0} for name in ways}
    for r in range(rounds):
        order = list(ways.items()) if r % 2 == 0 else list(ways.items())[::-1]
        for name, q in order:
            t = time.perf_counter()
            dealt = q.deal(r * deals, deals)
            seconds = time.perf_counter() - t
            o = out[name]
            o["rate"] = max(o["rate"], deals / seconds)
            o["kept"] += deals
            o["attempts"] += int(dealt.attempts.sum())
            o["tested"] += int(dealt.tested.sum())
    for o in out.values():
        o["acceptance"] = o["kept"] / o["attempts"]
        o["tested"] = o["tested"] / o["kept"]
    out["how"] = calls_dealt(ways["rules"])
    return out


def rates_line(path: str, deals: int, rounds: int) -> str:
    """The line of ``cardsim bench rules FILE``: :func:`rates` against the target (50% of the base)."""
    game, r, b = rates(path, deals, rounds)
    return (f"{game}: {path} {r:,.0f} deals/s, its base {b:,.0f} deals/s, one core, best of {rounds} "
            f"alternating chunks of {deals:,}: {r / b:.0%} of the base (target 50%: "
            f"{'meets' if r >= 0.5 * b else 'misses'})")


def implied_lines(path: str, auction: str, dealer: int, seat: int, deals: int, rounds: int) -> list[str]:
    """The lines of ``cardsim bench rules FILE --implied CALLS``: how each caller's call is dealt,
    then :func:`implied_rates` for each way and the speed-up."""
    got = implied_rates(path, auction, dealer, seat, deals, rounds)
    lines = [f"seat {note['seat']}'s {note['call']}: {note['how']}" for note in got["how"] or []]
    narrowed = any(n["class"] is not None for n in got["how"] or [])
    first = "from the rules' conditions" if narrowed else "no rule's condition applies: dealt at random too"
    for name, words in (("rules", first), ("plain", "plain rejection")):
        o = got[name]
        lines.append(f"{name}: {o['rate']:,.0f} deals kept/s ({words}; best of {rounds} alternating chunks of "
                     f"{deals:,}, one core), {o['acceptance']:.4f} of random deals kept, {o['tested']:.2f} "
                     f"auctions tested per deal kept")
    lines.append(f"speed-up: {got['rules']['rate'] / got['plain']['rate']:.1f}x")
    return lines
