"""The slow twin of the rule interpreter: a plain-Python reading of a rule file that says which
rule fires for a hand and a situation, independent of the compiled arrays (the game's pattern
read as a regular expression, each feature counted card by card from the feature table).
The tests hold the jitted interpreter to it on thousands of random hands and auctions.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import cards_of
from cardsim.conditions import features_of, parse_class
from cardsim.holding import KIND_FIRST, term_value
from cardsim.rules.compile import context_values, glue, substitute
from cardsim.rules.source import RuleFile


def feature_value(terms, hand: int) -> int:
    """A feature's value on ``hand`` (Python int bit set): for each term ``(mask, shift, weight)``,
    ``weight`` times the cards ``c`` of ``mask`` held together with card ``c + shift``; a term
    whose ``shift`` names a kind of :mod:`cardsim.holding` (``balanced``, stoppers, losers …) is
    that kind's value (:func:`cardsim.holding.term_value`, itself held to a plain-Python twin by
    tests/test_system_features.py): counted card by card it would read as 0."""
    held = set(cards_of(hand))
    total = 0
    for m, s, w in terms:
        if int(s) >= KIND_FIRST:
            total += int(term_value(np.uint64(hand), np.uint64(int(m)), np.uint64(int(s)), np.int64(w)))
        else:
            total += w * sum(1 for c in cards_of(int(m)) if c in held and c + int(s) in held)
    return total


def holds(game: str, text: str, hand: int) -> bool:
    """Whether ``hand`` (Python int) meets the condition ``text`` (the --where grammar)."""
    if not text.strip():
        return True
    ranges, required, excluded = parse_class(game, text).resolved(game)
    fs = features_of(game)
    for name, (lo, hi) in ranges.items():
        v = feature_value(fs.features[name], hand)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            return False
    held = set(cards_of(hand))
    return all(c in held for c in required) and not any(c in held for c in excluded)


def fires(file: RuleFile, values: dict, hand: int, situation) -> tuple[int, int] | None:
    """``(rule index, call)`` of the first rule of ``file`` whose context holds in ``situation``
    (the game's: Vint, the calls so far) and whose condition holds for ``hand`` (Python int),
    under parameter ``values`` (every declared parameter); ``(index, None)`` when that rule's call
    is illegal there (the base calls), None when no rule holds."""
    g = glue(file.game)
    # a game may read more cards than the hand (501's talon) and make a rule's call concrete
    # (501's raise): optional parts of its rulefile module
    seen = g.decision_hand(hand, situation) if hasattr(g, "decision_hand") else hand
    for i, entry in enumerate(file.rules):
        if not g.context_holds(context_values(entry, values), situation):
            continue
        if not holds(file.game, substitute(entry, "when", values), seen):
            continue
        call = g.read_call(entry.values["call"])
        if hasattr(g, "concrete"):
            call = g.concrete(call, situation)
        return (i, call) if g.legal(call, situation) else (i, None)
    return None
