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
in ``cardsim/games/<game>/rulefile.py``, named by ``GameSpec.modules.rules``.
"""
from __future__ import annotations

from pathlib import Path

from cardsim.games import get_game
from cardsim.rules.source import RuleFileError, read
from cardsim.strategies.registry import StrategyError


def resolve_spec(registry, strategy, rest):
    """See :func:`cardsim.rules.compile.resolve_spec`."""
    from cardsim.rules.compile import resolve_spec as _resolve  # local: a run without rule files never loads the compiler

    return _resolve(registry, strategy, rest)


def load(path, game: str, values: dict | None = None, base_values: dict | None = None):
    """The rule file at ``path`` compiled for ``game`` (:class:`cardsim.rules.compile.Compiled`)."""
    from cardsim.rules.compile import load as _load  # local: a run without rule files never loads the compiler

    return _load(path, get_game(game).table.registry, values, base_values)


def digests(specs) -> dict:
    """``{spec: SHA-256 (hex) of its file and every file it includes}`` for each ``rules:PATH[:…]``
    spec of ``specs`` (strategy specs as written; the others are left out): what a run's manifest
    and a chunk store key on besides the spec text, so that resuming after the file (or an
    include) was edited refuses (a dataset) or starts afresh (a store keyed by its manifest)
    instead of mixing two systems.  Raises RuleFileError for a file that cannot be read."""
    from cardsim.rules.compile import split_spec  # local: a run without rule files never loads the compiler

    out = {}
    for spec in specs:
        name, _, rest = str(spec).partition(":")
        if name.strip() == "rules" and spec not in out:
            out[spec] = read(split_spec(rest)[0]).digest
    return out


def specs_in(value) -> list[str]:
    """Every ``rules:PATH[:…]`` strategy spec among the strings inside ``value`` (dicts, lists and
    tuples searched through, keys too) whose file exists: what a store's identity names besides a
    run's own strategies (a tuning run's ``strategy``, an analysis's tasks).  A string that only
    looks like one (``rules: none``) names no file and is left out."""
    from cardsim.rules.compile import split_spec  # local: a run without rule files never loads the compiler

    out: list[str] = []

    def walk(v):
        if isinstance(v, str):
            name, _, rest = v.partition(":")
            if name.strip() == "rules" and v not in out:
                try:
                    if Path(split_spec(rest)[0]).is_file():
                        out.append(v)
                except (StrategyError, OSError, ValueError):
                    pass  # not a spec: whatever reads it as one says why
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, (list, tuple, set, frozenset)):
            for x in v:
                walk(x)

    walk(value)
    return out


def with_digests(manifest: dict) -> dict:
    """``manifest`` with ``rule_files`` (:func:`digests`) holding every rule-file spec found in it
    (:func:`specs_in`), beside those it already holds: a store keyed or checked by its manifest
    then tells a rule file's edited contents from the old ones, wherever the spec sits (a run's
    strategies, a tuning run's ``strategy``, an analysis's tasks).  Unchanged when it names none."""
    found = digests(specs_in({k: v for k, v in manifest.items() if k != "rule_files"}))
    if not found:
        return manifest
    held = dict(manifest.get("rule_files") or {})
    if all(held.get(k) == v for k, v in found.items()):
        return manifest
    return dict(manifest, rule_files={**held, **found})


__all__ = ["RuleFileError", "read", "load", "resolve_spec", "digests", "specs_in", "with_digests"]
