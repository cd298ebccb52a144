"""A rule file's own test table (``[[test]]``: a hand, a situation, the expected call) run through
the engine's decision function and checked against the slow twin (docs/rules-files.md, "Testing
a system")."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.conditions import (ConditionError, Conditions, HandClass, compile as compile_conditions, layout_of,
                                parse_class, parse_hand)
from cardsim.conditions.program import reachable
from cardsim.games import get_game
from cardsim.rules.compile import Compiled, call_of, context_values, glue, split_spec
from cardsim.rules.compile import load as load_compiled
from cardsim.rules.source import Entry, RuleFileError
from cardsim.rules.twin import fires


@dataclass(frozen=True)
class Outcome:
    """One test's result: its ``entry``, the ``expected`` and ``got`` calls (the game's tokens),
    ``rule``: the index of the rule that fired (None: the base called)."""

    entry: Entry
    expected: str
    got: str
    rule: int | None

    @property
    def passed(self) -> bool:
        return self.expected == self.got

    def text(self) -> str:
        by = "the base strategy" if self.rule is None else f"rule #{self.rule + 1}"
        return (f"{self.entry.where()}: test #{self.entry.index + 1}: expected {self.expected}, got {self.got} "
                f"from {by}")


def hand_of(game: str, entry: Entry) -> int:
    """The test's hand as a bit set (Python int); RuleFileError naming the line for a bad one."""
    if "hand" not in entry.values:
        raise entry.error(None, f"[[test]] #{entry.index + 1} has no hand = \"...\"")

    try:
        cards = parse_hand(game, entry.values["hand"])
    except ConditionError as exc:
        raise entry.error("hand", f"hand {entry.values['hand']!r}: {exc}") from None
    size = int(layout_of(game).sizes[:, :4].max())
    if len(cards) != size:
        raise entry.error("hand", f"hand {entry.values['hand']!r} has {len(cards)} cards; a test's hand is a whole "
                                  f"hand of {size}")
    return sum(1 << c for c in cards)


def run_tests(compiled: Compiled) -> list[Outcome]:
    """Every ``[[test]]`` of the compiled file, in file order: the call the ``rules`` strategy
    makes at every seat (the engine's own dispatch, base included) with the test's hand after its
    situation.  Raises RuleFileError for a test that is malformed (no hand or expected call, a
    bad hand or situation) or disagrees with the slow twin on which rule fires."""
    file = compiled.file
    g = glue(file.game)
    ids = np.full(4, g.STRATEGY_ID, dtype=np.int64)
    params = np.tile(compiled.row(), (4, 1))
    out = []
    for entry in file.tests:
        hand = hand_of(file.game, entry)
        try:
            situation = g.situation(entry.values)
        except ValueError as exc:
            message, key = exc.args[0]
            raise entry.error(key, message) from None
        bad = g.legal_situation(situation)
        if bad:
            raise entry.error(g.CONTEXT_KEYS[0], f"no auction in progress: {bad}")
        expected = g.call_text(call_of(g, entry, "expect"))
        got = g.choose(ids, params, hand, situation)
        twin = fires(file, compiled.values, hand, situation)
        rule = None if twin is None or twin[1] is None else twin[0]
        if rule is not None and twin[1] != got:
            raise RuleFileError(f"{entry.where()}: the engine called {g.call_text(got)} where rule #{rule + 1} "
                                f"says {g.call_text(twin[1])} (a bug in cardsim: please report it)")
        out.append(Outcome(entry, expected, g.call_text(got), rule))
    return out


def _covers(g, general: dict, specific: dict) -> bool:
    """Whether the context ``general`` (a rule's context words, parameters substituted) holds in
    every situation that ``specific`` holds in: the game's ``context_covers``, or (a game without
    it) the same compiled context."""
    covers = getattr(g, "context_covers", None)
    if covers is not None:
        return covers(general, specific)
    return g.compile_context(general)[0] == g.compile_context(specific)[0]


def _class(game: str, text: str):
    return parse_class(game, text) if text.strip() else HandClass()


def never_fire(compiled: Compiled) -> list[tuple[Entry, str]]:
    """The rules of ``compiled`` that can never make their call, each with the reason, decided by
    :func:`cardsim.conditions.program.reachable` (the 0/1 program of docs/conditions.md, every
    feature of the game's table included: ``balanced``, stoppers, quick tricks, losers …): a
    condition no hand meets, or a condition every hand of which an earlier rule takes whose context
    holds wherever this one's does (the same or a more general context; first match wins), alone
    or together with other such rules.  A rule the program cannot decide (a feature it does not
    model) is not reported.  In file order."""
    file = compiled.file
    g = glue(file.game)
    out = []
    words_of = [context_values(e, compiled.values) for e in file.rules]
    talon = [hasattr(g, "reads_talon") and g.reads_talon(w) for w in words_of]
    for i, (entry, text) in enumerate(zip(file.rules, compiled.whens)):
        words = words_of[i]
        cls = _class(file.game, text)
        reason = None
        if talon[i]:  # the 0/1 program speaks of a dealt hand, not of more cards (501's talon rules read ten)
            continue
        if text.strip():
            try:  # the conditions' own check first: its message names the clauses that clash
                compile_conditions(Conditions(file.game, classes={0: text}))
            except ConditionError as exc:
                reason = f"its condition never holds: {str(exc).removeprefix('seat 0: ')}"
        if reason is None and reachable(file.game, cls) is False:
            reason = f"its condition never holds: no {file.game} hand meets {text}"
        if reason is None:
            before = [j for j in range(i) if not talon[j] and _covers(g, words_of[j], words)]
            # one program with every earlier rule first: when some hand escapes them all, none of them
            # alone takes every hand, and the rule-by-rule programs (one per earlier rule: most of the
            # time of a long file) are not needed; they run to name the rule when it is shadowed
            together = (None if not before or any(not compiled.whens[j].strip() for j in before)
                        else reachable(file.game, cls, [_class(file.game, compiled.whens[j]) for j in before]))
            alone = None if together is True else next(
                (j for j in before if not compiled.whens[j].strip()
                 or reachable(file.game, cls, [_class(file.game, compiled.whens[j])]) is False), None)
            if alone is not None:
                same = g.compile_context(words_of[alone])[0] == g.compile_context(words)[0]
                context = "the same context" if same else "a context that holds wherever this one's does"
                reason = (f"rule #{alone + 1} ({file.rules[alone].where()}) has {context} and takes every hand "
                          f"this one takes")
            elif len(before) > 1 and together is False:
                named = ", ".join(f"#{j + 1}" for j in before)
                reason = (f"the rules before it whose context holds wherever this one's does ({named}) take every "
                          f"hand this one takes between them")
        if reason:
            out.append((entry, reason))
    return out


def fallbacks(spec: str, game: str, n_deals: int, seed: int = 0) -> tuple[int, int, dict]:
    """Play ``n_deals`` deals of ``seed`` with the rule-file ``spec`` (``rules:PATH[:…]``) at every
    seat and read each call back through the slow twin: ``(calls made, calls a rule made, {rule
    index: calls where it held but its call was illegal, so the base called})``."""
    from cardsim.runner.run import records  # local: the runner brings numba's kernels; cardsim --help imports this module

    path, values, base_values = split_spec(spec.partition(":")[2])
    compiled = load_compiled(path, get_game(game).table.registry, values, base_values)
    g = glue(compiled.file.game)
    total, by_rules, illegal = 0, 0, {}
    for record in records(game, list(range(n_deals)), seed=seed, strategies=spec):
        for _, hand, situation, call in g.decisions(record):
            total += 1
            twin = fires(compiled.file, compiled.values, hand, situation)
            if twin is None:
                continue
            if twin[1] is None:
                illegal[twin[0]] = illegal.get(twin[0], 0) + 1
            else:
                if twin[1] != call:
                    raise RuleFileError(f"{compiled.file.path}: the engine called {g.call_text(call)} where rule "
                                        f"#{twin[0] + 1} says {g.call_text(twin[1])} (a bug in cardsim: please report it)")
                by_rules += 1
    return total, by_rules, illegal
