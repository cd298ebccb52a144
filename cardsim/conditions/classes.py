"""Hand classes: ranges of a game's hand features and cards required or excluded, per seat
(:class:`HandClass`), read from text by :func:`parse_classes` / :func:`parse_class`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardsim.conditions.grammar import _card, _no_voids, _parse, cards_given, features_of, game_name
from cardsim.deal import ConditionError
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


def _range_text(name: str, r: Range) -> str:
    lo, hi = r
    if lo is not None and hi is not None:
        return f"{name}={lo}" if lo == hi else f"{name}={lo}-{hi}"
    if lo is not None:
        return f"{name}>={lo}"
    return f"{name}<={hi}" if hi is not None else ""


@dataclass(frozen=True)
class HandClass:
    """A class of hands for one seat.  Every range is a whole number (exact) or ``(min, max)``
    with ``None`` for no limit; ``None`` for the field means unconstrained.

    ``hcp``: the game's high-card count (Vint 4-3-2-1; 501 card points; Five Hundred the
    strength count of :mod:`cardsim.games.g500.features`); ``lengths``: ``{"H": (5, 13)}``;
    ``aces``; ``jokers`` (500); ``bowers`` / ``trumps``: ``{"H": 2}`` per prospective trump suit
    (500); ``marriages`` (501); ``required`` / ``excluded``: card tokens or indices;
    ``features``: any other feature by name (``{"kings": (2, None), "honours_H": 3}``).
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
                raise ConditionError(f"unknown {fs.game} feature {quote(name)} (known: {', '.join(fs.features)})")
            r = _as_range(value, name)
            ranges[canon] = _intersect(ranges[canon], r, canon) if canon in ranges else r
        return ranges, cards_given(game, self.required), cards_given(game, self.excluded)

    def text(self, game) -> str:
        """The class in the text syntax (:func:`parse_class` reads it back to an equal class)."""
        fs = features_of(game)
        ranges, required, excluded = self.resolved(game)
        parts = [_range_text(name, ranges[name]) for name in fs.features if name in ranges]
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
        if clause[0] == "range":
            _, name, lo, hi, text = clause
            canon = fs.canonical(name)
            if canon is None:
                raise ConditionError(f"{label}: unknown {fs.game} feature {quote(name, 30)} in {quote(text, 30)} "
                                     f"(known: {', '.join(fs.features)})")
            if lo is not None and hi is not None and lo > hi:
                raise ConditionError(f"{label}: {quote(text)} is empty (min > max)")
            ranges[canon] = _intersect(ranges[canon], (lo, hi), f"{label}: {canon}") if canon in ranges else (lo, hi)
        else:
            try:
                cards = [_card(fs, t) for t in _no_voids(clause[1], f"'{clause[0]}' clause")]
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
    for scope_seat, clauses in _parse(text, "classes", "class"):
        who = seat if scope_seat is None else scope_seat
        if who is None:
            raise ConditionError(f"class {quote(text)}: say which seat it is for ('seat N: ...')")
        if who in out:
            raise ConditionError(f"class {quote(text)}: seat {who} has two scopes; join them with commas")
        out[who] = _class_of(game, clauses, f"seat {who}")
    return out


def parse_class(game, text) -> HandClass:
    """One hand class from comma-separated clauses (no ``seat N:`` scope)."""
    parsed = _parse(text, "classes", "class")
    if len(parsed) != 1 or parsed[0][0] is not None:
        raise ConditionError(f"class {quote(text)}: one class without 'seat N:' scopes was expected")
    return _class_of(game, parsed[0][1], "class")
