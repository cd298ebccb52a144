"""The top-level fields of a deal record and the game each belongs to (docs/RECORDS.md, Strictness).

A record is exchanged with other programs, so replay reads it strictly: a field of another
game (``talon`` in Vint, ``contract`` outside 501, ``discard`` outside Five Hundred) is an error
rather than ignored, since an independent implementation of that game would read the record
differently; so is a key the format does not name (annotations belong in ``source``).
"""
from __future__ import annotations

from cardsim.games.base import RecordError
from cardsim.text import quote

COMMON = ("game", "seats", "dealer", "rules", "before", "hands", "auction", "play", "result", "source")
"""Fields every game's records may carry."""
OWN = {"vint": (), "501": ("talon", "contract"), "500": ("talon", "discard")}
"""The fields of one game's records besides :data:`COMMON`."""
TITLES = {"vint": "Vint", "501": "501", "500": "Five Hundred"}
RULE = "docs/RECORDS.md Strictness"


def check_fields(record: dict, game: str) -> None:
    """Raise RecordError for the first top-level key of ``record`` (a ``game`` record) that is not
    one of its fields: a field of another game (field: that key) or an unknown key (named in the
    message, at most about 100 characters of it)."""
    allowed = COMMON + OWN[game]
    for key in record:
        if key in allowed:
            continue
        owners = [TITLES[g] for g, fields in OWN.items() if key in fields]
        if owners:
            raise RecordError(f"a field of {' and '.join(owners)} records, which {TITLES[game]} records do not have",
                              key, None, RULE)
        raise RecordError(f"unknown field {quote(key)}: annotations from other programs belong in source", None,
                          None, RULE)
