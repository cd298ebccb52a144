"""Reading a rule file (docs/rules-files.md): TOML text to a checked :class:`RuleFile`, every
problem a one-line :class:`RuleFileError` naming ``FILE:LINE``.

tomllib keeps no positions, so the line of a table or key is found in the raw text: the n-th
``[[rule]]`` (``[[test]]``) header, and a key at the start of a line inside it (:class:`Lines`).
A table written inline (``rule = [{...}]``) is read as well, its errors naming the line of its
key.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardsim.games import game_names, get_game
from cardsim.strategies.registry import StrategyError
from cardsim.text import path_text, quote

TOP_KEYS = ("game", "base", "include", "params", "rule", "test")
"""The keys a rule file may have at its top level."""
RULE_KEYS = ("call", "when", "why")
"""The keys every ``[[rule]]`` may have besides its game's context keys."""
TEST_KEYS = ("hand", "expect", "why")
"""The keys every ``[[test]]`` may have besides its game's context keys."""
MAX_BYTES = 1_000_000
"""A rule file is a page of text: anything larger is refused before it is parsed."""
_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class RuleFileError(StrategyError):
    """A rule file that cannot be read or played: one line, ``FILE:LINE: reason`` (a
    :class:`~cardsim.strategies.registry.StrategyError`, so every command reports it in one line
    with exit code 2)."""


@dataclass(frozen=True)
class Entry:
    """One ``[[rule]]`` or ``[[test]]`` table: its ``values`` (key -> TOML value), the file's
    ``path`` and the ``line`` of its header, and ``lines``: key -> line of that key."""

    values: dict
    path: str
    line: int
    lines: dict = field(default_factory=dict)
    index: int = 0

    def where(self, key: str | None = None) -> str:
        """``FILE:LINE`` of ``key`` (its table's header line when the key is not found)."""
        return f"{self.path}:{self.lines.get(key, self.line)}"

    def error(self, key: str | None, message: str) -> RuleFileError:
        return RuleFileError(f"{self.where(key)}: {message}")


@dataclass(frozen=True)
class RuleFile:
    """A rule file as read and checked for its shape (not yet for its game's calls and
    conditions: :mod:`cardsim.rules.compile` does that).

    ``path``: as the user wrote it (for messages); ``game``: the game's name; ``base``: the base
    strategy's spec (default ``heuristic``); ``params``: name -> default value (float), in file
    order; ``rules`` / ``tests``: :class:`Entry` lists in file order, the included files' first
    (each entry names its own file and line; ``index`` its place in the whole list); ``lines``:
    line of each top-level key and of the ``[params]`` keys (``params.NAME``); ``sources``: the
    paths of every file read (this one first, then its includes, depth first) and ``digest``: the
    SHA-256 (hex) of their contents in that order, what a run's identity keys on; ``tunables``:
    name -> ``(lo, hi, step)`` of the parameters declared with a range (``nt_low = {value = 15,
    range = [12, 18], step = 1}``), what ``cardsim exploit`` / ``tune`` move.
    """

    path: str
    game: str
    base: str
    params: dict
    rules: tuple
    tests: tuple
    lines: dict
    sources: tuple = ()
    digest: str = ""
    tunables: dict = field(default_factory=dict)

    def where(self, key: str) -> str:
        return f"{self.path}:{self.lines.get(key, 1)}"


class Lines:
    """Line numbers of tables and keys in a TOML text (1-based)."""

    _HEADER = re.compile(r"\s*\[\[?\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"\s*([A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*=")

    def __init__(self, text: str):
        self.headers = []  # (line, name, is_array)
        self.keys = []  # (line, key, index of the header it follows, -1 before any)
        for n, line in enumerate(text.splitlines(), 1):
            h = self._HEADER.match(line)
            if h and not self._KEY.match(line):
                self.headers.append((n, h.group(1).strip().strip("\"'"), line.lstrip().startswith("[[")))
                continue
            k = self._KEY.match(line)
            if k:
                self.keys.append((n, k.group(1).strip("\"'"), len(self.headers) - 1))

    def table(self, name: str, index: int = 0) -> tuple[int, dict]:
        """The header line of the ``index``-th ``[[name]]`` (or ``[name]``) table and its keys' lines,
        ``(0, {})`` when not found (an inline table)."""
        found = [i for i, (_, n, _) in enumerate(self.headers) if n == name]
        if index >= len(found):
            return 0, {}
        h = found[index]
        return self.headers[h][0], {key: line for line, key, owner in self.keys if owner == h}

    def top(self) -> dict:
        """Line of each key before the first table header."""
        return {key: line for line, key, owner in self.keys if owner == -1}


def _text(path: Path, shown: str) -> str:
    try:
        if path.is_dir():
            raise RuleFileError(f"{shown}: is a folder, not a rule file")
        raw = path.read_bytes()[:MAX_BYTES + 1]
    except FileNotFoundError:
        raise RuleFileError(f"{shown}: no such rule file") from None
    except OSError as exc:
        raise RuleFileError(f"{shown}: cannot read the rule file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise RuleFileError(f"{shown}: more than {MAX_BYTES:,} bytes: not a rule file")
    if b"\0" in raw:
        raise RuleFileError(f"{shown}:1: a binary file, not a rule file (TOML text)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise RuleFileError(f"{shown}:{line}: not UTF-8 text (byte {exc.start}): not a rule file") from None
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise RuleFileError(f"{shown}:1: empty rule file (it needs game = \"...\" and at least one [[rule]])")
    return text


def _toml(text: str, shown: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        if m:
            reason = msg[:m.start()].strip()
            return _raise(f"{shown}:{m.group(1)}: not valid TOML: {reason} (column {m.group(2)})")
        return _raise(f"{shown}:1: not valid TOML: {msg}")


def _raise(message: str):
    raise RuleFileError(message)


def _entries(data: dict, name: str, lines: Lines, shown: str, top_lines: dict, allowed: tuple) -> tuple:
    items = data.get(name, [])
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or not all(isinstance(t, dict) for t in items):
        raise RuleFileError(f"{shown}:{top_lines.get(name, 1)}: {name!r} must be tables written [[{name}]]")
    out = []
    for i, values in enumerate(items):
        line, keys = lines.table(name, i)
        entry = Entry(values, shown, line or top_lines.get(name, 1), keys, i)
        for key in values:
            if key not in allowed:
                raise entry.error(key, f"unknown key {quote(key)} in [[{name}]] #{i + 1} (known: {', '.join(allowed)})")
            if not isinstance(values[key], str):
                raise entry.error(key, f"{key} must be a string in quotes, got {quote(values[key])}")
        out.append(entry)
    return tuple(out)


def glue_keys() -> dict:
    """Game name -> its rules' context keys, for every game with rule files (each game's
    ``rulefile`` module, ``GameSpec.modules.rules``)."""
    return {g: get_game(g).modules.load("rules").CONTEXT_KEYS
            for g in game_names() if get_game(g).modules.offers("rules")}


def read(path, context_keys: dict | None = None) -> RuleFile:
    """Read and check the shape of the rule file at ``path`` (str or Path) and of the files it
    includes (``include = ["other.toml", ...]``, paths relative to the including file: their
    rules, tests and parameters come first, in the order listed, docs/rules-files.md "Including
    files").

    ``context_keys``: game name -> its context keys (``{"vint": ("auction",)}``), the keys a rule
    and a test may have besides :data:`RULE_KEYS` / :data:`TEST_KEYS`; None: every game's, from
    the games' ``rulefile`` modules.  Raises :class:`RuleFileError` (one line, ``FILE:LINE:``)
    for a missing, unreadable, binary, empty or non-TOML file, an unknown key, a value of the
    wrong type, no ``game``, a game without rule files, a parameter that is not a number, no
    rule; for an include that is missing, makes a cycle, bids for another game, has another base
    or gives a parameter another value.
    """
    if context_keys is None:
        context_keys = glue_keys()
    digest = hashlib.sha256()
    one = _read_one(Path(path), path_text(path), context_keys, None, (), digest)
    if not one.rules:
        raise RuleFileError(f"{one.path}:1: no [[rule]] in the file" + (" or the files it includes" if one.sources[1:]
                                                                         else ""))
    number = lambda entries: tuple(replace(e, index=i) for i, e in enumerate(entries))  # noqa: E731
    return replace(one, rules=number(one.rules), tests=number(one.tests), digest=digest.hexdigest())


def _read_one(path: Path, shown: str, context_keys: dict, game: str | None, stack: tuple, digest) -> RuleFile:
    """One file and, depth first, its includes (``game``: the including file's game, None at the
    top; ``stack``: the resolved paths including this one, for cycles)."""
    text = _text(path, shown)
    digest.update(f"{len(text.encode())}:".encode() + text.encode())
    data = _toml(text, shown)
    lines = Lines(text)
    top = lines.top()
    for key in ("params", "rule", "test"):
        line, _ = lines.table(key, 0)
        if line:
            top.setdefault(key, line)
    for key in data:
        if key not in TOP_KEYS:
            raise RuleFileError(f"{shown}:{top.get(key, _first_line(lines, key))}: unknown key {quote(key)} "
                                f"(known: {', '.join(TOP_KEYS)})")
    own = data.get("game")
    if own is None and game is None:
        raise RuleFileError(f"{shown}:1: no game = \"...\" line (the game the file bids for)")
    if own is not None and (not isinstance(own, str) or own.strip().lower() not in context_keys):
        raise RuleFileError(f"{shown}:{top.get('game', 1)}: game {quote(own)} has no rule files "
                            f"(games with them: {', '.join(context_keys)})")
    if own is not None and game is not None and own.strip().lower() != game:
        raise RuleFileError(f"{shown}:{top.get('game', 1)}: an included file bids for {own.strip().lower()}, the "
                            f"file including it for {game}")
    game = game or own.strip().lower()
    base = data.get("base", "heuristic")
    if not isinstance(base, str) or not base.strip():
        raise RuleFileError(f"{shown}:{top.get('base', 1)}: base must be a strategy spec in quotes, got {quote(base)}")
    params_table = data.get("params", {})
    if not isinstance(params_table, dict):
        raise RuleFileError(f"{shown}:{top.get('params', 1)}: params must be a table [params] of name = number")
    _, param_lines = lines.table("params", 0)
    params, tunables = {}, {}
    for name, value in params_table.items():
        line = param_lines.get(name, top.get("params", 1))
        if not _PARAM_NAME.match(name):
            raise RuleFileError(f"{shown}:{line}: parameter name {quote(name)} must be letters, digits and _")
        if isinstance(value, dict):
            value, tunables[name] = _tunable(name, value, f"{shown}:{line}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RuleFileError(f"{shown}:{line}: parameter {name} must be a number, got {quote(value)}")
        params[name] = float(value)
        top[f"params.{name}"] = line
    ctx = tuple(context_keys[game])
    rules = _entries(data, "rule", lines, shown, top, ctx + RULE_KEYS)
    tests = _entries(data, "test", lines, shown, top, ctx + TEST_KEYS)
    stack = stack + (path.resolve(),)
    inc_params, inc_tunables, inc_rules, inc_tests, sources = {}, {}, (), (), (str(path),)
    where = f"{shown}:{top.get('include', 1)}"
    for target, name in _includes(data, path, shown, top):
        if target.resolve() in stack:
            chain = " -> ".join([*(p.name for p in stack), target.name])
            raise RuleFileError(f"{where}: include {quote(name)} makes a cycle ({chain})")
        if not target.is_file():
            raise RuleFileError(f"{where}: include {quote(name)}: no such rule file ({path_text(target)})")
        inner = _read_one(target, path_text(target), context_keys, game, stack, digest)
        if "base" in inner.lines and inner.base != base.strip():
            raise RuleFileError(f"{inner.where('base')}: base {quote(inner.base)} differs from the including file's "
                                f"{quote(base.strip())} ({where}): one base plays a file")
        for pname, value in inner.params.items():
            if inc_params.get(pname, value) != value and pname not in params:
                raise RuleFileError(f"{inner.where('params.' + pname)}: parameter {pname} = {value:g} here and "
                                    f"{inc_params[pname]:g} in a file included before (set it in {shown})")
            inc_params[pname] = value
        inc_tunables.update(inner.tunables)
        inc_rules, inc_tests, sources = inc_rules + inner.rules, inc_tests + inner.tests, sources + inner.sources
    # the including file's own [params] set its includes' parameters
    return RuleFile(shown, game, base.strip(), {**inc_params, **params}, inc_rules + rules, inc_tests + tests, top,
                    sources, tunables={**inc_tunables, **tunables})


def _tunable(name: str, table: dict, where: str) -> tuple[float, tuple]:
    """``(value, (lo, hi, step))`` of a parameter written ``{value = V, range = [LO, HI], step = S}``;
    RuleFileError otherwise."""
    def number(v):
        return not isinstance(v, bool) and isinstance(v, (int, float))

    extra = set(table) - {"value", "range", "step"}
    rng, step, value = table.get("range"), table.get("step"), table.get("value")
    if extra or not number(value) or not (isinstance(rng, list) and len(rng) == 2 and all(map(number, rng))) \
            or not number(step):
        raise RuleFileError(f"{where}: parameter {name} with a range is written {{value = V, range = [LO, HI], "
                            f"step = S}}, got {quote(table)}")
    lo, hi, step = float(rng[0]), float(rng[1]), float(step)
    if not (step > 0 and lo < hi and lo <= value <= hi):
        raise RuleFileError(f"{where}: parameter {name}: need step > 0 and LO < HI with LO <= value <= HI, got value "
                            f"{value:g}, range [{lo:g}, {hi:g}], step {step:g}")
    return value, (lo, hi, step)


def _includes(data: dict, path: Path, shown: str, top: dict) -> list[tuple[Path, str]]:
    value = data.get("include", [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RuleFileError(f"{shown}:{top.get('include', 1)}: include must be a list of file names in quotes, "
                            f"got {quote(value)}")
    return [(path.parent / v.strip(), v.strip()) for v in value]


def _first_line(lines: Lines, key: str) -> int:
    for line, name, _ in lines.headers:
        if name == key or name.startswith(key + "."):
            return line
    return next((line for line, name, _ in lines.keys if name == key), 1)
