"""Rule files: a bidding system a player writes as data (TOML), played by the ``rules`` strategy
(``--strategy rules:PATH[:name=value,...]``), docs/rules-files.md.

* :mod:`cardsim.rules.source`: reading a file, shape checks, ``FILE:LINE`` errors;
* :mod:`cardsim.rules.compile`: the game's calls, contexts and conditions checked and compiled to
  the table block of a parameter row; spec resolution;
* :mod:`cardsim.rules.kernel`: the jitted condition test every game's interpreter shares;
* :mod:`cardsim.rules.twin`: the plain-Python reading (which rule fires), the tests' reference;
* :mod:`cardsim.rules.check`: a file's own test table run through the engine, the rules that never fire;
* :mod:`cardsim.rules.explain`: which rule makes the call for a hand, and why each earlier one did not.

Each game's part (its context keys and pattern language, its calls, the jitted interpreter) is
in ``cardsim/games/<game>/rulefile.py``, named by ``GameSpec.rules_module``.
"""
from __future__ import annotations

from cardsim.rules.source import RuleFileError, read


def resolve_spec(registry, strategy, rest):
    """See :func:`cardsim.rules.compile.resolve_spec`."""
    from cardsim.rules.compile import resolve_spec as _resolve

    return _resolve(registry, strategy, rest)


def load(path, game: str, values: dict | None = None, base_values: dict | None = None):
    """The rule file at ``path`` compiled for ``game`` (:class:`cardsim.rules.compile.Compiled`)."""
    from cardsim.games import get_game
    from cardsim.rules.compile import load as _load

    return _load(path, get_game(game).registry, values, base_values)


def digests(specs) -> dict:
    """``{spec: SHA-256 (hex) of its file and every file it includes}`` for each ``rules:PATH[:…]``
    spec of ``specs`` (strategy specs as written; the others are left out): what a run's manifest
    and a chunk store key on besides the spec text, so that resuming after the file (or an
    include) was edited refuses (a dataset) or starts afresh (a store keyed by its manifest)
    instead of mixing two systems.  Raises RuleFileError for a file that cannot be read."""
    from cardsim.rules.compile import split_spec

    out = {}
    for spec in specs:
        name, _, rest = str(spec).partition(":")
        if name.strip() == "rules" and spec not in out:
            out[spec] = read(split_spec(rest)[0]).digest
    return out


__all__ = ["RuleFileError", "read", "load", "resolve_spec", "digests"]
