"""House rules, checked over the sources: generic code never branches on a game's name.

A game is its package (``cardsim/games/<module>/``) plus its spec's hooks
(``cardsim/games/base.py``); everything else asks the spec (``get_game(name).frames``,
``.dd``, ``.facts`` …).  So outside ``cardsim/games/``, the game's analysis package
(``cardsim/analysis/<module>/``) and the report's scripts named for one game
(``analyses/g500_*.py`` …) no code may

* compare with a game's name: ``game == "vint"``, ``"501" != name``, ``game in ("500", "501")``,
  ``spec.name == "500"``;
* match on it: ``case "vint":``;
* key a dict by it: ``{"vint": …, "501": …}`` (a per-game table is a hook on the spec), or
  keep a set of them (``PARTNERSHIPS = {"vint", "500"}``; ``spec.name in PARTNERSHIPS``);
* look something up by it: ``TABLE["500"]``, ``TABLE.get("vint")``.

Only code counts (the check reads the syntax tree): docstrings, comments, messages and calls
such as ``cardsim.records("vint", …)`` in a game's own example do not.  The test names each
offence as ``file:line``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardsim.games import GAME_NAMES, package_of

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("cardsim", "analyses")
"""The source trees the rules hold in (relative to the repository)."""
GAMES_DIR = "cardsim/games/"
"""Game packages and the spec's definition: game names belong here."""

NAMES = frozenset(GAME_NAMES) | {package_of(g).rsplit(".", 1)[1] for g in GAME_NAMES}
"""The game names (``vint``, ``501``, ``500``) and module names (``g501``, ``g500``)."""
GAME_FOLDERS = tuple(f"{tree}/{package_of(g).rsplit('.', 1)[1]}/" for tree in ("cardsim/games", "cardsim/analysis")
                     for g in GAME_NAMES)
"""A game's own packages, which may name it: ``cardsim/games/<module>/`` and its pandas pipelines,
``cardsim/analysis/<module>/``."""
SCRIPT_PREFIXES = tuple(sorted({package_of(g).rsplit(".", 1)[1] + "_" for g in GAME_NAMES}))
"""A report script (``analyses/``) whose file name starts with one of these (``vint_charts.py``,
``g500_guide.py``) is a game's own and may name it.  The scripts stay flat, named by prefix: a
script's name is its make target and its ``python -m analyses SCRIPT`` (analyses/analyses.txt, the
Makefile's rule per line, the report's order), which a folder per game would change."""

ALLOWED: dict[str, str] = {}
"""``{file: why}``: files whose offences are tolerated for now (empty: none is).  Each entry is a
debt: the test fails when a listed file has none left (so the list shrinks as the code is
cleaned)."""


def _is_name(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES


def _names_in(node) -> bool:
    """A game name itself, or a tuple / list / set of constants holding one."""
    if _is_name(node):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_name(e) for e in node.elts)


def _is_spec_name(node) -> bool:
    """``spec.name``, ``get_game(g).name``, ``self.spec.name`` …: a spec's name attribute."""
    if not (isinstance(node, ast.Attribute) and node.attr == "name"):
        return False
    base = node.value
    if isinstance(base, ast.Call):
        return isinstance(base.func, (ast.Name, ast.Attribute)) and getattr(base.func, "id", getattr(base.func, "attr", "")) == "get_game"
    return isinstance(base, (ast.Name, ast.Attribute)) and getattr(base, "id", getattr(base, "attr", "")).endswith("spec")


def offences(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, what)`` of every branch on a game's name in ``source`` (Python code)."""
    out = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_in(s) for s in sides):
                out.append((node.lineno, "compares with a game name"))
            elif any(_is_spec_name(s) for s in sides) and any(
                    isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                out.append((node.lineno, "compares a spec's name with a string"))
            elif _is_spec_name(node.left) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
                out.append((node.lineno, "tests a spec's name for membership"))
        elif isinstance(node, ast.match_case):
            if any(_is_name(p.value) for p in ast.walk(node.pattern) if isinstance(p, ast.MatchValue)):
                out.append((node.pattern.lineno, "matches on a game name"))
        elif isinstance(node, ast.Set) and any(_is_name(e) for e in node.elts):
            out.append((node.lineno, "a set of game names (membership per game)"))
        elif isinstance(node, ast.Dict):
            if any(k is not None and _is_name(k) for k in node.keys):
                out.append((node.lineno, "a dict keyed by game names"))
        elif isinstance(node, ast.Subscript):
            if _is_name(node.slice):
                out.append((node.lineno, "looks up by a game name"))
        elif isinstance(node, ast.Call):
            if (isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "setdefault", "pop")
                    and node.args and _is_name(node.args[0])):
                out.append((node.lineno, "looks up by a game name"))
    return sorted(out)


def _generic(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    if rel.startswith(GAMES_DIR) or rel.startswith(GAME_FOLDERS):
        return False
    return not (rel.startswith("analyses/") and path.name.startswith(SCRIPT_PREFIXES))


def _sources() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py") if _generic(p))


def test_generic_modules_do_not_branch_on_a_game_name():
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED:
            continue
        found += [f"{rel}:{line}: {what}" for line, what in offences(path.read_text(), rel)]
    assert not found, ("generic code branches on a game's name; ask the game's spec instead "
                       "(cardsim/games/base.py hooks):\n" + "\n".join(found))


def test_the_allow_list_holds_only_files_that_still_need_it():
    stale = [rel for rel in ALLOWED if not (ROOT / rel).is_file() or not offences((ROOT / rel).read_text(), rel)]
    assert not stale, f"no game-name branch left in {stale}: take them off ALLOWED"


def test_game_named_modules_and_game_packages_are_exempt():
    assert not _generic(ROOT / "cardsim/games/vint/frames.py")
    assert not _generic(ROOT / "cardsim/analysis/g500/guide.py")
    assert not _generic(ROOT / "cardsim/analysis/vint/__init__.py")
    assert not _generic(ROOT / "analyses/vint_charts.py")
    assert not _generic(ROOT / "cardsim/games/g501/solver.py")
    assert _generic(ROOT / "cardsim/frames.py") and _generic(ROOT / "analyses/quality.py")


def test_a_file_named_like_a_game_outside_its_packages_is_generic():
    """The exemption is by folder under cardsim/: a file-name prefix exempts only report scripts."""
    assert _generic(ROOT / "cardsim/analysis/vint_notes.py")
    assert _generic(ROOT / "cardsim/analysis/g500.py")
    assert _generic(ROOT / "cardsim/dd/g501.py")
    assert _generic(ROOT / "analyses/vintage.py")


# What the check catches: the forms generic modules used before the spec had hooks (e.g.
# cardsim/frames.py, cardsim/dd/__init__.py, cardsim/quality.py, cardsim/profiles.py at issue 29).
CAUGHT = {
    'if game == "vint":\n    pass\n': "compares with a game name",
    'if "501" != game:\n    pass\n': "compares with a game name",
    'x = game in ("500", "501")\n': "compares with a game name",
    'x = name not in {"vint", "500"}\n': "compares with a game name",
    'if spec.name == "500":\n    pass\n': "compares with a game name",
    'if get_game(g).name == "five":\n    pass\n': "compares a spec's name with a string",
    'match game:\n    case "vint":\n        pass\n': "matches on a game name",
    '_DEALS = {"vint": f, "501": g}\n': "a dict keyed by game names",
    'ranks = {"vint": A, "501": B, "500": C}[name]\n': "a dict keyed by game names",
    'n = HAND_SIZE["500"]\n': "looks up by a game name",
    'cols = HAND_COLUMNS.get("500")\n': "looks up by a game name",
    'x = a if g == "g501" else b\n': "compares with a game name",
    'PARTNERSHIPS = {"vint", "500"}\n': "a set of game names (membership per game)",
    'if spec.name not in PARTNERSHIPS:\n    pass\n': "tests a spec's name for membership",
}


@pytest.mark.parametrize("source,what", CAUGHT.items())
def test_the_check_catches_each_form(source, what):
    assert what in [w for _, w in offences(source)]


@pytest.mark.parametrize("source", [
    '"""Vint: ``game == "vint"`` in a docstring."""\n',
    '# if game == "vint": a comment\n',
    'records = cardsim.records("vint", range(3), 0)\n',
    'raise OptionError(f"{name} is not 501")\n',
    'if spec.name == other.name:\n    pass\n',
    'for name in GAME_NAMES:\n    hooks = get_game(name).dd\n',
])
def test_the_check_lets_code_that_does_not_branch_pass(source):
    assert offences(source) == []
