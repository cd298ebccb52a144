"""Hand classes: ranges of a game's hand features and cards required or excluded, per seat
(:class:`HandClass`), read from text by :func:`parse_classes` / :func:`parse_class`."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from cardsim.conditions.grammar import cards_given, features_of, game_name
from cardsim.deal import ConditionError, FeatureSet
from cardsim.hand_grammar import card_index, no_voids, parse_text
from cardsim.holding import SHAPE
from cardsim.text import quote


Range = tuple  # (lo | None, hi | None)


def _as_range(value, label: str) -> Range:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value), int(value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool)) for v in value):
        lo, hi = (None if v is None else int(v) for v in value)
        if lo is not None and hi is not None and lo > hi:
            raise ConditionError(f"{label}: the range {lo}-{hi} is empty (min > max)")
        return lo, hi
    raise ConditionError(f"{label}: a range is a whole number or (min, max) with None for no limit, got {quote(value)}")


def _intersect(a: Range, b: Range, label: str) -> Range:
    lo = a[0] if b[0] is None else b[0] if a[0] is None else max(a[0], b[0])
    hi = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    if lo is not None and hi is not None and lo > hi:
        raise ConditionError(f"{label}: the clauses leave no value (min {lo} > max {hi})")
    return lo, hi


def clause_text(name: str, r: Range, fs: FeatureSet | None = None) -> str:
    """The range ``r`` (low, high; None for open) of the feature or suit ``name`` as a class text
    writes it (``hcp>=12``, ``hcp=12-14``); with the game's features ``fs``, a yes/no
    feature is written alone (``balanced`` / ``not balanced``), a shape as its pattern
    (``shape=4-4-3-2``) and a feature counted in parts in its unit (``quick_tricks>=1.5``)."""
    lo, hi = r
    if fs is not None and name in fs.features:
        if fs.is_flag(name) and lo == hi and lo in (0, 1):
            return name if lo else f"not {name}"
        if _is_shape(fs, name) and lo == hi and lo is not None and lo >= 0:
            return f"{name}={'-'.join(str(n) for n in _pattern_of(lo))}"
        scale = fs.scales.get(name, 1)
        if scale != 1:
            lo, hi = (None if v is None else _number_text(Fraction(v, scale)) for v in (lo, hi))
    if lo is not None and hi is not None:
        return f"{name}={lo}" if lo == hi else f"{name}={lo}-{hi}"
    if lo is not None:
        return f"{name}>={lo}"
    return f"{name}<={hi}" if hi is not None else ""


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def value_text(fs: FeatureSet, name: str, value: int) -> str:
    """A stored value of the feature ``name`` as a class text writes it (``quick_tricks`` 3 -> ``1.5``)."""
    return _number_text(Fraction(value, fs.scales.get(name, 1)))


def _is_shape(fs: FeatureSet, name: str) -> bool:
    return all(int(s) == SHAPE for _, s, _ in fs.features[name])


def _pattern_of(code: int) -> list[int]:
    """The lengths, longest first, of a shape number (4432 -> [4, 4, 3, 2]; 10111 -> [10, 1, 1, 1])."""
    return [code // 1000, code // 100 % 10, code // 10 % 10, code % 10]


def _stored(fs: FeatureSet, name: str, value: Fraction, text: str, label: str) -> Fraction:
    """``value`` as written, in the feature's stored unit (``quick_tricks`` 1.5 -> 3); raises for a
    part of a unit the feature does not count (``hcp>=12.5``, ``quick_tricks>=1.25``)."""
    scale = fs.scales.get(name, 1)
    stored = value * scale
    if stored.denominator != 1:
        unit = "whole numbers" if scale == 1 else f"multiples of {_number_text(Fraction(1, scale))}"
        raise ConditionError(f"{label}: {quote(text)}: {name} takes {unit}")
    return stored


def _clause_range(fs: FeatureSet, canon: str, clause, label: str) -> Range:
    """``(lo, hi)`` in the stored unit of a compare, between, pattern or flag clause."""
    kind, text = clause[0], clause[-1]
    if kind == "flag":
        if not fs.is_flag(canon):
            raise ConditionError(f"{label}: {quote(text)}: {canon} is not a yes/no feature; write a range "
                                 f"({canon}>=1, {canon}=0)")
        return (1, 1) if clause[2] else (0, 0)
    if kind == "pattern":
        lengths = sorted((int(_stored(fs, canon, v, text, label)) for v in clause[2]), reverse=True)
        if not _is_shape(fs, canon):
            raise ConditionError(f"{label}: {quote(text)}: only a shape feature takes a pattern A-B-C-D")
        if lengths[0] > 13 or lengths[1] > 9:  # beyond any 13-card hand, and past the number's digits
            raise ConditionError(f"{label}: {quote(text)}: not the shape of a 13-card hand")
        code = lengths[0] * 1000 + lengths[1] * 100 + lengths[2] * 10 + lengths[3]
        return code, code
    if kind == "between":
        return int(_stored(fs, canon, clause[2], text, label)), int(_stored(fs, canon, clause[3], text, label))
    op, value = clause[2], _stored(fs, canon, clause[3], text, label)
    return {">=": (int(value), None), ">": (int(value) + 1, None), "<=": (None, int(value)),
            "<": (None, int(value) - 1)}[op]


@dataclass(frozen=True)
class HandClass:
    """A class of hands for one seat.  Every range is a whole number (exact) or ``(min, max)``
    with ``None`` for no limit; ``None`` for the field means unconstrained.

    ``hcp``: the game's high-card count (Vint 4-3-2-1; 501 card points; Five Hundred the
    strength count of :mod:`cardsim.games.g500.features`); ``lengths``: ``{"H": (5, 13)}``;
    ``aces``; ``jokers`` (500); ``bowers`` / ``trumps``: ``{"H": 2}`` per prospective trump suit
    (500); ``marriages`` (501); ``required`` / ``excluded``: card tokens or indices;
    ``features``: any other feature by name (``{"kings": (2, None), "honours_H": 3}``), in its
    stored whole unit: a yes/no feature 1 or 0 (``{"balanced": 1}``), ``quick_tricks`` in half
    tricks (``(3, None)`` is the text's ``quick_tricks>=1.5``), ``shape`` as the number 4432.
    """

    hcp: Any = None
    lengths: dict = field(default_factory=dict)
    aces: Any = None
    jokers: Any = None
    bowers: dict = field(default_factory=dict)
    trumps: dict = field(default_factory=dict)
    marriages: Any = None
    required: tuple = ()
    excluded: tuple = ()
    features: dict = field(default_factory=dict)

    def named_ranges(self) -> list[tuple[str, Any]]:
        """(feature name as written, range as written) of every constrained feature."""
        out = [(name, getattr(self, name)) for name in ("hcp", "aces", "jokers", "marriages")
               if getattr(self, name) is not None]
        for label, table in (("", self.lengths), ("bowers_", self.bowers), ("trumps_", self.trumps),
                             ("", self.features)):
            if not isinstance(table, dict):
                raise ConditionError(f"HandClass: lengths, bowers, trumps and features are dicts, got {quote(table)}")
            out += [(f"{label}{key}", value) for key, value in table.items() if value is not None]
        return out

    def resolved(self, game) -> tuple[dict, list[int], list[int]]:
        """``({canonical feature: (lo, hi)}, required card indices, excluded card indices)``;
        raises ConditionError for a feature the game does not have or an empty range."""
        fs = features_of(game)
        ranges: dict = {}
        for name, value in self.named_ranges():
            canon = fs.canonical(str(name))
            if canon is None:
                raise ConditionError(f"unknown {fs.game} feature {quote(name)} ({_known(fs)})")
            r = _as_range(value, name)
            ranges[canon] = _intersect(ranges[canon], r, canon) if canon in ranges else r
        return ranges, cards_given(game, self.required), cards_given(game, self.excluded)

    def text(self, game) -> str:
        """The class in the text syntax (:func:`parse_class` reads it back to an equal class)."""
        fs = features_of(game)
        ranges, required, excluded = self.resolved(game)
        parts = [clause_text(name, ranges[name], fs) for name in fs.features if name in ranges]
        parts = [p for p in parts if p]
        if required:
            parts.append("has " + " ".join(fs.card_str(c) for c in required))
        if excluded:
            parts.append("not " + " ".join(fs.card_str(c) for c in excluded))
        return ", ".join(parts) or "any hand"


def _class_of(game, clauses, label: str) -> HandClass:
    fs = features_of(game)
    ranges: dict = {}
    required: list[int] = []
    excluded: list[int] = []
    for clause in clauses:
        if clause[0] not in ("has", "not"):
            name, text = clause[1], clause[-1]
            canon = fs.canonical(name.replace("-", "_"))  # semi-balanced, as players write it
            if canon is None:
                raise ConditionError(f"{label}: unknown {fs.game} feature {quote(name, 30)} in {quote(text, 30)} "
                                     f"({_known(fs)})")
            lo, hi = _clause_range(fs, canon, clause, label)
            if lo is not None and hi is not None and lo > hi:
                raise ConditionError(f"{label}: {quote(text)} is empty (min > max)")
            ranges[canon] = _intersect(ranges[canon], (lo, hi), f"{label}: {canon}") if canon in ranges else (lo, hi)
        else:
            try:
                cards = [card_index(fs, t) for t in no_voids(clause[1], f"'{clause[0]}' clause")]
            except ConditionError as exc:
                raise ConditionError(f"{label}: {exc}") from None
            (required if clause[0] == "has" else excluded).extend(cards)
    return HandClass(features=ranges, required=tuple(fs.card_str(c) for c in required),
                     excluded=tuple(fs.card_str(c) for c in excluded))


def parse_classes(game, text, seat: int | None = None) -> dict[int, HandClass]:
    """Hand classes by seat from a class string (module docstring); scopes without ``seat N:``
    apply to ``seat``.  Raises :class:`ConditionError` for bad syntax, an unknown feature, an
    unknown card, an empty range, a scope without a seat when ``seat`` is None, or a seat
    written in two scopes."""
    game = game_name(game)
    out: dict[int, HandClass] = {}
    for scope_seat, clauses in parse_text(text, "classes", "class"):
        who = seat if scope_seat is None else scope_seat
        if who is None:
            raise ConditionError(f"class {quote(text)}: say which seat it is for ('seat N: ...')")
        if who in out:
            raise ConditionError(f"class {quote(text)}: seat {who} has two scopes; join them with commas")
        out[who] = _class_of(game, clauses, f"seat {who}")
    return out


def parse_class(game, text) -> HandClass:
    """One hand class from comma-separated clauses (no ``seat N:`` scope)."""
    parsed = parse_text(text, "classes", "class")
    if len(parsed) != 1 or parsed[0][0] is not None:
        raise ConditionError(f"class {quote(text)}: one class without 'seat N:' scopes was expected")
    return _class_of(game, parsed[0][1], "class")

def _known(fs) -> str:
    """The known features for an error line: all of them when few, else the first ones and where
    the rest are listed (an error stays one short line)."""
    names = list(fs.features)
    if len(names) <= 12:
        return "known: " + ", ".join(names)
    return f"known: {', '.join(names[:10])} … {len(names)} in all, docs/conditions.md"
