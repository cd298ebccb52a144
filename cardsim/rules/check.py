"""A rule file's own test table (``[[test]]``: a hand, a situation, the expected call) run through
the engine's decision function and checked against the slow twin (docs/rules-files.md, "Testing
a system")."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.rules.compile import Compiled, call_of, glue
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
    from cardsim.conditions import ConditionError, parse_hand

    if "hand" not in entry.values:
        raise entry.error(None, f"[[test]] #{entry.index + 1} has no hand = \"...\"")
    from cardsim.conditions import layout_of

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
