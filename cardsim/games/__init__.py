"""The games cardsim knows, by the name used in records and on the command line.

A game is one package that exports ``SPEC`` (:class:`~cardsim.games.base.GameSpec`;
docs/adding-a-game.md).  The three built-in games are listed here; another package joins the
registry in one of two ways:

* an entry point in the group ``cardsim.games`` of an installed distribution (name = the game's
  name, value = its package), e.g. in its ``pyproject.toml``::

      [project.entry-points."cardsim.games"]
      duel = "duel_game"

  which every process sees, worker processes included;
* :func:`register_game` in this process (tests, notebooks; worker processes started later do not
  see it, so run such a game with ``n_jobs=1``).
"""
from __future__ import annotations

import functools
import importlib
import re

from cardsim.games.base import GameSpec, OptionError, RecordError
from cardsim.text import quote

_BUILT_IN = {"vint": "cardsim.games.vint", "501": "cardsim.games.g501", "500": "cardsim.games.g500"}
GAME_NAMES = tuple(_BUILT_IN)
"""The built-in games, in the order the report and listings use; :func:`game_names` adds the
registered ones."""
ENTRY_POINT_GROUP = "cardsim.games"
_REGISTERED: dict[str, str] = {}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@functools.cache
def _entry_points() -> dict[str, str]:
    """The installed games by name: entry points whose name is a valid game name and not a
    built-in one (those are left out, as a built-in game always answers to its name)."""
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)
            if _NAME.match(ep.name) and ep.name not in _BUILT_IN}


def _spec_of(name: str, package) -> GameSpec:
    """The ``SPEC`` of ``package`` as the game ``name``; raises OptionError (one line) for a
    package that does not import, has no GameSpec ``SPEC``, or defines another game."""
    if not isinstance(package, str) or not package.strip():
        raise OptionError(f"the package of game {quote(name)} must be a module name such as 'mygame', got {quote(package)}")
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise OptionError(f"game {quote(name)}: its package {quote(package)} does not import ({exc})") from None
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise OptionError(f"game {quote(name)}: package {quote(package)} has no SPEC = GameSpec(...) "
                          "(docs/adding-a-game.md)")
    if spec.name != name:
        raise OptionError(f"package {quote(package)} defines the game {quote(spec.name)}, not {quote(name)}")
    return spec


def _packages() -> dict[str, str]:
    return {**_entry_points(), **_REGISTERED, **_BUILT_IN}


def _package(key: str) -> str | None:
    # The built-in and registered games first: reading the installed distributions' entry
    # points costs about 60 ms, which a command on a built-in game should not pay.
    return _BUILT_IN.get(key) or _REGISTERED.get(key) or _entry_points().get(key)


def is_game(name) -> bool:
    """Whether ``name`` names a game (built-in, registered, or an installed entry point)."""
    return _package(str(name).strip().lower()) is not None


def game_names() -> tuple[str, ...]:
    """Every game's name: the built-in games first, then the registered ones by name."""
    return GAME_NAMES + tuple(sorted(n for n in _packages() if n not in _BUILT_IN))


def loadable_specs():
    """Every game's :class:`GameSpec` whose package loads, in :func:`game_names` order, lazily (a
    generator: nothing is imported until it is read).  A game that does not load (an installed
    entry point whose package is broken) is left out rather than raising: this is what record
    checks read to name the games a stray field belongs to, and a broken third-party game must
    not turn a bad record's RecordError into an error about that game."""
    for name in game_names():
        try:
            yield get_game(name)
        except OptionError:
            continue


def register_game(name: str, package: str) -> None:
    """Make the package ``package`` (a dotted module name exporting ``SPEC``) the game ``name``
    in this process.  Raises OptionError for a name that is not lower-case letters, digits, ``-``
    or ``_``, or that names a built-in game, or a package whose ``SPEC`` has another name."""
    key = str(name).strip().lower()
    if key in _BUILT_IN:
        raise OptionError(f"{quote(name)} is a built-in game: register another name")
    if not _NAME.match(key):
        raise OptionError(f"cannot register a game named {quote(name)}: lower-case letters, digits, - and _")
    _spec_of(key, package)
    _REGISTERED[key] = package


def unregister_game(name: str) -> None:
    """Forget a game registered with :func:`register_game` (no error when it is not registered)."""
    _REGISTERED.pop(str(name).strip().lower(), None)


def package_of(name) -> str:
    """The package of a game (``"cardsim.games.vint"``: its ``profiles.toml`` and modules);
    raises OptionError for an unknown game."""
    return _package(get_game(name).name)


def get_game(name) -> GameSpec:
    """The :class:`GameSpec` of a game by name (``"vint"``, ``"501"``, ``"500"`` or a registered
    one); raises OptionError for an unknown name."""
    key = str(name).strip().lower()
    package = _package(key)
    if package is None:
        raise OptionError(f"unknown game {quote(name)} (known: {', '.join(game_names())}; a game given to "
                          "register_game exists only in the process that registered it: run it with n_jobs=1, "
                          "or install it with an entry point)")
    if key in _BUILT_IN:
        return importlib.import_module(package).SPEC
    return _spec_of(key, package)


def replay(record: dict) -> dict:
    """Validate a record (a dict, docs/RECORDS.md) against the rules (docs/RULES.md) and return its
    ``result`` dict (declarer, contract, tricks, score changes).  Raises RecordError naming the
    field, the action's index and the rule broken."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    game = record.get("game")
    if not isinstance(game, str) or game != game.strip().lower() or not is_game(game):
        raise RecordError(f"unknown game {quote(game)} (known: {', '.join(game_names())})", "game")
    return get_game(game).play.replay(record)
