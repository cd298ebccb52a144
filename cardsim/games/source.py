"""The ``source`` field of deal records (docs/RECORDS.md): where a simulated record came from.

The engine writes it (:func:`source_of`, called by every game's ``make_records``) so that
anyone can regenerate the record::

    src = record["source"]
    cardsim.records(game, [src["deal"]], seed=src["seed"], strategies=src["strategies"],
                    rules=src["rules"])[0] == record

Replay ignores its content; only a ``source`` that is neither an object nor ``null`` is an error
(:func:`check_source`).
"""
from __future__ import annotations

from cardsim._version import __version__
from cardsim.games.base import RecordError, Setup, rule_json
from cardsim.text import quote


def source_of(setup: Setup, seed, deal, match=None, extra=None) -> dict:
    """The ``source`` object of deal ``deal`` of ``seed`` played with ``setup``.

    ``{"cardsim": version, "seed": int, "deal": int, "strategies": [spec, …] (one per seat),
    "rules": {option: JSON value}}``, plus ``"match": match`` when given and the items of
    ``extra`` (an evaluation's conditions or forced option).
    """
    src = {
        "cardsim": __version__,
        "seed": int(seed),
        "deal": int(deal),
        "strategies": list(setup.specs),
        "rules": {name: rule_json(value) for name, value in setup.rules.items()},
    }
    if match is not None:
        src["match"] = int(match)
    if extra:
        src.update(extra)
    return src


def check_source(record: dict) -> None:
    """Raise RecordError (field ``source``) when a record's ``source`` is present but not an object;
    ``null`` means absent (docs/RECORDS.md Strictness), as for ``rules`` and ``before``."""
    if record.get("source") is not None and not isinstance(record["source"], dict):
        raise RecordError(f"source must be an object, got {quote(record['source'])}", "source", None, "docs/RECORDS.md")
