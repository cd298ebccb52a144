"""Why a rule file makes the call it makes: ``cardsim rules explain FILE --hand … [--auction …]``
(docs/rules-files.md, "Explaining a call").

The rules are walked in file order as the interpreter walks them (first match wins,
docs/rules-files.md): for each rule before the one that fires, whether its context did not
match the situation or which clause of its condition failed, with the hand's value of that
feature; then the rule that fires (or that none does and the base calls), and the call the
engine's own decision function makes, base included.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.conditions import ConditionError, features_of, layout_of, parse_class, parse_hand
from cardsim.conditions.classes import value_text
from cardsim.rules.compile import Compiled, glue
from cardsim.rules.source import RuleFileError
from cardsim.rules.twin import fires
from cardsim.text import quote


@dataclass(frozen=True)
class Step:
    """One rule as the walk met it: ``index`` (0-based, file order), ``where`` (``FILE:LINE``),
    ``call`` (the rule's call, the game's token), ``fired`` (its context and condition hold),
    ``reason`` (why it did not fire, or what happened when it did)."""

    index: int
    where: str
    call: str
    fired: bool
    reason: str

    def text(self) -> str:
        verdict = "fires" if self.fired else "does not fire"
        return f"{self.where}: rule #{self.index + 1} ({self.call}) {verdict}: {self.reason}"


@dataclass(frozen=True)
class Explanation:
    """``steps``: the rules up to and including the one that fires (every rule when none does);
    ``rule``: the index of the rule that fires (None: no rule holds); ``call``: the call the
    engine makes (the game's token); ``by_base``: whether the base strategy made it (no rule
    held, or the rule's call is illegal in this auction)."""

    steps: tuple
    rule: int | None
    call: str
    by_base: bool


def read_hand(game: str, text: str) -> int:
    """The whole hand ``text`` (docs/conditions.md hand syntax, ``"S:AK4 H:Q73 D:QJ42 C:K86"``) as a
    bit set; ValueError (one line) for a bad hand or one that is not a whole hand of the game."""
    try:
        cards = parse_hand(game, text)
    except ConditionError as exc:
        raise ValueError(f"--hand {quote(text)}: {exc}") from None
    size = int(layout_of(game).sizes[:, :4].max())
    if len(cards) != size:
        raise ValueError(f"--hand {quote(text)} has {len(cards)} cards; a {game} hand has {size}")
    return sum(1 << c for c in cards)


def read_situation(g, text: str | None):
    """The situation ``text`` as a test writes it (the game's first context key: a Vint auction
    ``"P 1NT P"``, a Five Hundred standing bid ``"partner 7H"``; None: a test's default, nobody has
    bid); ValueError (one line) for a bad one or an auction that cannot be in progress."""
    key = g.CONTEXT_KEYS[0]
    try:
        situation = g.situation({} if text is None else {key: text})
    except ValueError as exc:
        raise ValueError(exc.args[0][0] if isinstance(exc.args[0], tuple) else str(exc)) from None
    bad = g.legal_situation(situation)
    if bad:
        raise ValueError(f"{key} {quote(text)}: no auction in progress: {bad}")
    return situation


def clause_failed(game: str, text: str, hand: int) -> str | None:
    """The first clause of the condition ``text`` (clauses separated by commas, docs/conditions.md)
    that ``hand`` does not meet, with the hand's value of each feature it names (``hcp=15-17: hcp
    is 14``, ``has AS: AS is not held``), or None when every clause holds."""
    fs = features_of(game)
    for clause in filter(None, (c.strip() for c in text.split(","))):
        ranges, required, excluded = parse_class(game, clause).resolved(game)
        values = {name: fs.value(name, hand) for name in ranges}
        wrong = [name for name, (lo, hi) in ranges.items()
                 if (lo is not None and values[name] < lo) or (hi is not None and values[name] > hi)]
        missing = [c for c in required if not hand >> int(c) & 1]
        held = [c for c in excluded if hand >> int(c) & 1]
        if wrong or missing or held:
            said = [f"{name} is {value_text(fs, name, values[name])}" for name in wrong]
            if missing:
                said.append(f"{' '.join(fs.card_str(int(c)) for c in missing)} not held")
            if held:
                said.append(f"{' '.join(fs.card_str(int(c)) for c in held)} held")
            return f"{clause}: {', '.join(said)}"
    return None


def explain(compiled: Compiled, hand: int, situation) -> Explanation:
    """Walk the rules of ``compiled`` for ``hand`` (bit set) after ``situation`` (the game's, from
    :func:`read_situation`), as the interpreter does.  Raises RuleFileError when the engine's call
    disagrees with the rule that holds (a bug in cardsim)."""
    file = compiled.file
    g = glue(file.game)
    key = g.CONTEXT_KEYS[0]
    steps = []
    for i, (entry, when) in enumerate(zip(file.rules, compiled.whens)):
        call = g.call_text(g.read_call(entry.values["call"]))
        where = entry.where()
        if not g.context_holds(entry.values, situation):
            steps.append(Step(i, where, call, False,
                              f"its context ({key} {quote(entry.values.get(key, ''))}) does not match"))
            continue
        failed = clause_failed(file.game, when, hand) if when.strip() else None
        if failed:
            steps.append(Step(i, where, call, False, f"its condition fails at {failed}"))
            continue
        if not g.legal(g.read_call(entry.values["call"]), situation):
            steps.append(Step(i, where, call, True, f"context and condition hold, but {call} is illegal in this "
                                                    f"auction: the base strategy calls instead"))
        else:
            shown = f"condition {quote(when)} holds" if when.strip() else "no condition"
            steps.append(Step(i, where, call, True, f"its context matches and {shown}"))
        break
    ids = np.full(4, g.STRATEGY_ID, dtype=np.int64)
    got = g.choose(ids, np.tile(compiled.row(), (4, 1)), hand, situation)
    twin = fires(file, compiled.values, hand, situation)
    rule = steps[-1].index if steps and steps[-1].fired else None
    if (twin is None) != (rule is None) or (twin is not None and twin[0] != rule) or (
            twin is not None and twin[1] is not None and twin[1] != got):
        raise RuleFileError(f"{file.path}: the engine called {g.call_text(got)} where the walk says rule "
                            f"{'none' if rule is None else '#' + str(rule + 1)} (a bug in cardsim: please report it)")
    by_base = twin is None or twin[1] is None
    return Explanation(tuple(steps), rule, g.call_text(got), by_base)
