"""House rule: **no private name is used across modules**, checked over the syntax trees of
``cardsim/``, ``tests/`` and ``analyses/``.

A name that starts with ``_`` belongs to the module that defines it; another module (a test
included) that needs it gets a public name with a docstring instead (docs/adding-a-game.md).  The
rule fails, naming ``file:line``, on

* ``from cardsim.m import _x`` (absolute or relative, module level or inside a function),
* ``m._x`` where ``m`` names a cardsim module (``import cardsim.m as m``, ``from cardsim import m``),
* ``setattr/getattr/hasattr/delattr(m, "_x", ...)`` (``monkeypatch.setattr`` too) on such a module,
  and ``"cardsim.m._x"`` given to ``mock.patch`` or ``monkeypatch.setattr``.

Not caught, on purpose: dunder names (``__version__``, ``__file__``), and a private *module*
(``cardsim._jit``): a module whose file name starts with ``_`` is shared inside the package by
Python's convention, and importing one names no private function or constant.  No package
``__init__`` re-export is allowed either: none is needed.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "cardsim"
FOLDERS = ("cardsim", "tests", "analyses")


PATCH_TARGET = re.compile(r"^cardsim(\.\w+)*\._[A-Za-z0-9]\w*$")
"""A dotted string naming a private attribute of a cardsim module, as ``mock.patch`` takes."""


def module_name(rel: str) -> str:
    """``cardsim/runner/run.py`` → ``cardsim.runner.run``; a package's ``__init__.py`` → the package."""
    parts = list(Path(rel).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_private(name: str) -> bool:
    """``_x`` and ``_X`` are private; ``__x__`` (a dunder) and public names are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an ``ImportFrom`` in ``module`` imports from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    package = package[:len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def private_uses(source: str, module: str, is_package: bool, modules: set[str]) -> list[tuple[int, str, str]]:
    """``(line, owner module, private name)`` for every use in ``source`` (the text of ``module``)
    of a private name of another of ``modules`` (dotted names of ``PACKAGE``'s modules), in
    source order.  Private modules themselves (a name in ``modules``) are not private names."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name → the cardsim module it names
    found = []

    def ours(name: str) -> bool:
        return name == PACKAGE or name.startswith(PACKAGE + ".")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            owner = _absolute(node, module, is_package)
            if not ours(owner):
                continue
            for alias in node.names:
                full = f"{owner}.{alias.name}"
                if full in modules:
                    bound[alias.asname or alias.name] = full
                elif is_private(alias.name) and owner != module:
                    found.append((node.lineno, owner, alias.name))

    def owner_of(expr) -> str | None:
        """The cardsim module an expression names (``m``, ``cardsim.runner.pool``), or None."""
        chain = []
        while isinstance(expr, ast.Attribute):
            chain.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name) or expr.id not in bound:
            return None
        name = ".".join([bound[expr.id], *reversed(chain)])
        return name if name in modules else None

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = owner_of(node.value)
            if owner and owner != module and f"{owner}.{node.attr}" not in modules:
                found.append((node.lineno, owner, node.attr))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("setattr", "getattr", "hasattr", "delattr") and len(node.args) >= 2:
                owner, name = owner_of(first), node.args[1]
                if (owner and owner != module and isinstance(name, ast.Constant) and isinstance(name.value, str)
                        and is_private(name.value)):
                    found.append((node.lineno, owner, name.value))
            if (called in ("patch", "setattr") and isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and PATCH_TARGET.match(first.value)):
                owner, _, name = first.value.rpartition(".")
                if owner in modules and owner != module and is_private(name):
                    found.append((node.lineno, owner, name))
    return sorted(found)


def uses_under(root: Path, folders=FOLDERS) -> list[tuple[str, int, str, str, str]]:
    """``(file, line, owner module, name, owner's file)`` of every private name used across
    modules in the ``.py`` files under ``root``'s ``folders`` (files relative to ``root``)."""
    files = {}
    for folder in folders:
        files.update({p.relative_to(root).as_posix(): p for p in sorted((root / folder).rglob("*.py"))})
    owners = {module_name(rel): rel for rel in files if rel.startswith(PACKAGE + "/")}
    out = []
    for rel, path in files.items():
        for line, owner, name in private_uses(path.read_text(encoding="utf-8"), module_name(rel),
                                              path.name == "__init__.py", set(owners)):
            out.append((rel, line, owner, name, owners.get(owner, owner.replace(".", "/") + ".py")))
    return out


def _all_uses() -> list[tuple[str, int, str, str, str]]:
    return uses_under(ROOT)



def test_no_private_name_is_used_across_modules():
    found = [f"{rel}:{line}: {owner}.{name}" for rel, line, owner, name, _ in _all_uses()]
    assert not found, ("private names used outside their module (give the name a public one, with a docstring, "
                       "in the module that owns it; or move it to its one user):\n" + "\n".join(found))



# What the rule catches, on a small made-up package.
MODULES = {"cardsim", "cardsim.pool", "cardsim.run", "cardsim._jit", "cardsim.cli", "cardsim.cli.common"}


def test_a_private_import_from_another_module_is_caught_with_its_line():
    source = ("import json\n"
              "from cardsim.pool import Pool, _bar\n"               # line 2
              "from cardsim import _jit, __version__\n"             # a private module and a dunder: allowed
              "from cardsim._jit import jit\n"                      # a public name of a private module
              "def f():\n"
              "    from cardsim.cli.common import (parse_game,\n"
              "                                    _Parser)\n"       # line 6 (the statement's first line)
              "    from .pool import _claim\n")                     # line 8: relative
    assert private_uses(source, "cardsim.run", False, MODULES) == [
        (2, "cardsim.pool", "_bar"), (6, "cardsim.cli.common", "_Parser"), (8, "cardsim.pool", "_claim")]


def test_private_attributes_of_a_module_are_caught_however_it_was_imported():
    source = ("import cardsim.pool\n"
              "import cardsim.cli.common as common\n"
              "from cardsim import run\n"
              "x = cardsim.pool._WATCHING\n"                        # line 4
              "common._game('vint')\n"                              # line 5
              "run.__name__, run.make_run, cardsim._jit\n"           # a dunder, a public name, a private module
              "def test(monkeypatch):\n"
              "    monkeypatch.setattr(run, '_simulate_chunk', None)\n"  # line 8
              "    monkeypatch.setattr('cardsim.pool._bar', None)\n"     # line 9
              "    getattr(run, 'make_run')\n"
              "    mock.patch('cardsim.pool.Pool._size')\n"             # a class's attribute: not a module's name
              "    obj = object(); obj._private\n")                 # not a module: not checked
    assert private_uses(source, "tests.test_x", False, MODULES) == [
        (4, "cardsim.pool", "_WATCHING"), (5, "cardsim.cli.common", "_game"), (8, "cardsim.run", "_simulate_chunk"),
        (9, "cardsim.pool", "_bar")]


def test_a_made_up_package_on_disk_is_walked_and_its_crossings_named(tmp_path):
    files = {"cardsim/__init__.py": "",
             "cardsim/pool.py": "_WATCHING = []\ndef _bar():\n    return _WATCHING\n",
             "cardsim/sub/__init__.py": "from cardsim.pool import _bar\n",       # a re-export: caught too
             "cardsim/sub/run.py": "from ..pool import _bar\nfrom . import helpers as h\nh._x\n",
             "cardsim/sub/helpers.py": "_x = 1\n",
             "tests/test_pool.py": "import cardsim.pool as pool\n\ndef test_it():\n    assert pool._WATCHING == []\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert sorted(uses_under(tmp_path)) == [
        ("cardsim/sub/__init__.py", 1, "cardsim.pool", "_bar", "cardsim/pool.py"),
        ("cardsim/sub/run.py", 1, "cardsim.pool", "_bar", "cardsim/pool.py"),
        ("cardsim/sub/run.py", 3, "cardsim.sub.helpers", "_x", "cardsim/sub/helpers.py"),
        ("tests/test_pool.py", 4, "cardsim.pool", "_WATCHING", "cardsim/pool.py")]


def test_a_module_using_its_own_private_names_is_fine():
    source = "import cardsim.pool as me\nfrom cardsim.pool import _bar\nme._claim\n"
    assert private_uses(source, "cardsim.pool", False, MODULES) == []
