"""Player profiles: who sits in the seats a question does not fix (``cardsim profiles GAME``).

Every answer of :func:`cardsim.evaluate` is measured against some players in the other seats.
A profile names such a population: a mapping from seats, relative to the seat that asks, to
strategy specs (``heuristic:margin=-20``).  Each game keeps its profiles as data, in
``cardsim/games/<game>/profiles.toml``; a user adds or replaces profiles with a file of the same
form (TOML, or JSON with the same tables)::

    [bold]
    doc = "opponents who bid about 20 card points more"
    opponents = "heuristic:margin=-20"

The keys of a profile: ``doc`` (one line) and any of ``others`` (every seat but the asking one),
``opponents`` (the seats not on the asking seat's side), ``partner`` (Vint and Five Hundred: the
seat across), ``left`` (the next seat to speak and play) and ``right`` (the seat before it).  The
more specific key wins: ``left``/``right`` over ``partner``/``opponents`` over ``others``.  A seat
no key names keeps the run's strategy (the default, or ``--strategy``); the asking seat always
keeps it.  The profile ``default`` names nobody: the run as asked.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cardsim.bounded import PROFILES, InputTooLarge, read_bytes
from cardsim.games import get_game, package_of
from cardsim.games.base import OptionError
from cardsim.text import quote

RELATIONS = ("others", "opponents", "partner", "left", "right")
"""The seat keys of a profile, least specific first (a later key overrides an earlier one)."""
DEFAULT = "default"
"""The profile that changes no seat: the run's own strategies."""


class ProfileError(OptionError):
    """An unknown profile, or a profile file that cannot be read or breaks the form above."""


@dataclass(frozen=True)
class Profile:
    """One population of players: ``seats`` maps relations (:data:`RELATIONS`) to strategy specs."""

    name: str
    doc: str = ""
    seats: dict = field(default_factory=dict)
    source: str = "built in"

    def strategies(self, base: list[str], seat: int) -> list[str]:
        """The specs per seat (a list as long as ``base``) when ``seat`` asks: ``base`` (the run's
        specs, one per seat) with the seats this profile names replaced; the asking seat keeps its own."""
        n = len(base)
        out = list(base)
        members = self.members(seat, n)
        for relation in RELATIONS:
            if relation in self.seats:
                for s in members[relation]:
                    out[s] = self.seats[relation]
        return out

    @staticmethod
    def members(seat: int, seats: int) -> dict[str, list[int]]:
        """The seats each relation names at a ``seats``-seat table when ``seat`` asks."""
        others = [s for s in range(seats) if s != seat]
        partner = [(seat + 2) % seats] if seats == 4 else []
        return {"others": others, "partner": partner, "opponents": [s for s in others if s not in partner],
                "left": [(seat + 1) % seats], "right": [(seat - 1) % seats]}


def _check(game: str, name: str, table, source: str) -> Profile:
    where = f"profile {quote(name)} ({source})"
    if not isinstance(table, dict):
        raise ProfileError(f"{where}: must be a table of seat = \"strategy spec\" entries, got {quote(table)}")
    spec = get_game(game)
    seats, doc = {}, ""
    for key, value in table.items():
        if key == "doc":
            if not isinstance(value, str):
                raise ProfileError(f"{where}: doc must be a string, got {quote(value)}")
            doc = value
            continue
        if key not in RELATIONS:
            raise ProfileError(f"{where}: unknown seat key {quote(key)} (known: doc, {', '.join(RELATIONS)})")
        # only games played in two partnerships of two have a partner (across the table)
        if key == "partner" and not spec.facts.partnerships:
            raise ProfileError(f"{where}: {spec.name} has no partners (use opponents, others, left or right)")
        if not isinstance(value, str):
            raise ProfileError(f"{where}: {key} must be a strategy spec string, got {quote(value)}")
        try:
            spec.table.registry.resolve(value)
        except ValueError as exc:
            raise ProfileError(f"{where}: {key}: {exc}") from None
        seats[key] = value.strip()
    if name == DEFAULT and seats:
        raise ProfileError(f"{where}: the profile {DEFAULT!r} is the run as asked and names no seats")
    return Profile(name, doc, seats, source)


def parse(game: str, text: str, source: str, suffix: str = ".toml") -> dict[str, Profile]:
    """Profiles from a file's text (TOML, or JSON when ``suffix`` is ``.json``), checked against
    the game's strategies.  Raises :class:`ProfileError` naming the source and the profile."""
    try:
        data = json.loads(text) if suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"profile file {source}: not valid {'JSON' if suffix == '.json' else 'TOML'}: "
                           f"{str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not data:
        raise ProfileError(f"profile file {source}: holds no profiles (a table per profile: [name] ...)")
    out = {}
    for name, table in data.items():
        if not name.replace("_", "").replace("-", "").isalnum():
            raise ProfileError(f"profile file {source}: profile name {quote(name)} must be letters, digits, - or _")
        out[name] = _check(game, name, table, source)
    return out


def builtin(game: str) -> dict[str, Profile]:
    """The game's registered profiles, in their file's order (``default`` first)."""
    name = get_game(game).name
    package = package_of(name)
    source = resources.files(package).joinpath("profiles.toml")
    if not source.is_file():
        # A game without a profiles file (a new or toy game) still answers as asked.
        return parse(name, '[default]\ndoc = "the run\'s own strategies in every seat"\n', f"{name} (no profiles file)")
    return parse(name, source.read_text(), f"{package.replace('.', '/')}/profiles.toml")


def load(game: str, path) -> dict[str, Profile]:
    """The profiles of a user's file (TOML or ``.json``, UTF-8); ProfileError if it cannot be
    read or passes :data:`cardsim.bounded.PROFILES` (a line or the file)."""
    path = Path(path)
    try:
        text = read_bytes(path, PROFILES).decode("utf-8")
    except InputTooLarge as exc:
        raise ProfileError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"cannot read profile file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse(game, text, str(path), path.suffix)


def available(game: str, path=None) -> dict[str, Profile]:
    """The built-in profiles, then a file's (``path``; a file's profile replaces a built-in one of the same name)."""
    out = builtin(game)
    if path is not None:
        out.update(load(game, path))
    if DEFAULT not in out:
        out = {DEFAULT: Profile(DEFAULT, "the run's own strategies in every seat")} | out
    return out


def select(game: str, profiles=None, path=None) -> list[Profile]:
    """The profiles a robust question replays under, ``default`` always first.

    ``profiles``: None or True (every available profile), a list of names and/or
    :class:`Profile` objects.  Raises ProfileError for an unknown name (naming the known ones)."""
    known = available(game, path)
    if profiles is None or profiles is True:
        chosen = list(known.values())
    else:
        if isinstance(profiles, (str, Profile)):
            profiles = [profiles]
        if not isinstance(profiles, (list, tuple)):
            raise ProfileError(f"profiles must be True, a list of profile names or Profile objects, got {quote(profiles)}")
        chosen = []
        for p in profiles:
            if isinstance(p, Profile):
                chosen.append(_check(get_game(game).name, p.name, dict(p.seats, doc=p.doc), p.source))
            elif isinstance(p, str) and p.strip() in known:
                chosen.append(known[p.strip()])
            else:
                raise ProfileError(f"unknown {get_game(game).name} profile {quote(p)} (known: {', '.join(known)})")
    names = [p.name for p in chosen]
    for n in names:
        if names.count(n) > 1:
            raise ProfileError(f"profile {quote(n)} given more than once")
    if DEFAULT not in names:
        chosen.insert(0, known[DEFAULT])
    else:
        chosen.sort(key=lambda p: p.name != DEFAULT)
    return chosen
