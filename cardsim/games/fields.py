"""The top-level fields of a deal record and the game each belongs to (docs/RECORDS.md, Strictness).

A record is exchanged with other programs, so replay reads it strictly: a field of another
game (``talon`` in Vint, ``contract`` outside 501, ``discard`` outside Five Hundred) is an error
rather than ignored, since an independent implementation of that game would read the record
differently; so is a key the format does not name (annotations belong in ``source``).
"""
from __future__ import annotations

from collections.abc import Iterable

from cardsim.games.base import GameSpec, RecordError
from cardsim.text import quote

COMMON = ("game", "seats", "dealer", "rules", "before", "hands", "auction", "play", "result", "source")
"""Fields every game's records may carry; a game's own come from its spec (``play.record_fields``)."""
RULE = "docs/RECORDS.md Strictness"


def title(spec: GameSpec) -> str:
    """The game's name for people in a message: ``facts.title`` (``"Five Hundred"``), else its name."""
    return spec.facts.title if spec.facts is not None and spec.facts.title else spec.name


def check_fields(record: dict, spec: GameSpec, games: Iterable[GameSpec]) -> None:
    """Raise RecordError for the first top-level key of ``record`` (a record of the game ``spec``)
    that is not one of its fields (:data:`COMMON` and ``spec.play.record_fields``): a field of
    other games (field: that key; the message names each game of ``games`` whose records have it,
    in their order) or an unknown key (named in the message, at most about 100 characters of it).

    ``games``: every game's spec, read only when a key is not the game's (so a generator costs
    nothing on a valid record)."""
    allowed = COMMON + tuple(spec.play.record_fields)
    for key in record:
        if key in allowed:
            continue
        owners = [title(g) for g in games if key in g.play.record_fields]
        if owners:
            raise RecordError(f"a field of {' and '.join(owners)} records, which {title(spec)} records do not have",
                              key, None, RULE)
        raise RecordError(f"unknown field {quote(key)}: annotations from other programs belong in source", None,
                          None, RULE)
