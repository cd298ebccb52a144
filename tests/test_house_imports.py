"""House rules on imports, checked over the syntax trees of ``cardsim/``:

* **No import cycles** among cardsim's modules, module-level and function-local imports both: a
  function-local import only moves a cycle from import time to the first call, it does not take
  it away.  A piece two modules share goes down into a module both import.
* **A function-local import of a cardsim module says why**, on its line: ``# local: REASON``.
  Imports are local only where start-up time needs it (``cardsim --help`` imports every command
  module, so a command imports the runner, numba's kernels and pandas inside ``run``; a worker
  that plays chunks never builds a frame); everywhere else they are at module level.
* **Imports point down the layers** (:data:`LAYERS`, the one map, bottom-up): a module imports
  only modules of its own layer or below, at module level, inside a function, or by name
  (``importlib.import_module("cardsim.…")``, and every other string that names a cardsim module,
  such as a spec's ``Modules(features=f"{__name__}.features")``: what a module names, it depends on).
  So a game package (``cardsim/games/<game>/``) reaches nothing above the games: the runner, the
  frames and ``cardsim.dd`` call it, never the other way round.

An import is an edge to the deepest module it names: ``from cardsim.runner import files`` to
``cardsim.runner.files``, ``from cardsim.games import get_game`` to ``cardsim.games``.  Importing a
submodule runs its packages' ``__init__`` first, but that is no edge of its own: a package that
re-exports its modules (``cardsim.conditions``) would otherwise make a cycle with each of them.
Imports under ``if TYPE_CHECKING:`` never run and do not count.  The tests name each cycle as
``a → b → a`` and each unexplained import as ``file:line``.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "cardsim"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("cardsim._jit", "cardsim._version", "cardsim.text", "cardsim.names", "cardsim.cards", "cardsim.rng",
              "cardsim.holding", "cardsim.suit_order", "cardsim.alphabeta", "cardsim.bounded", "cardsim.stats",
              "cardsim.ranking", "cardsim.equal_leads")),
    ("game framework", ("cardsim.deal", "cardsim.rule_kernel", "cardsim.strategies", "cardsim.hand_grammar",
                        "cardsim.typed_columns", "cardsim.games.base", "cardsim.games.forced", "cardsim.games.options",
                        "cardsim.games.fields", "cardsim.games.source", "cardsim.games.dd_tools")),
    ("games", ("cardsim.games",)),
    ("services", ("cardsim.runner", "cardsim.frames", "cardsim.dd", "cardsim.conditions", "cardsim.rules",
                  "cardsim.pbn", "cardsim.profiles")),
    ("analyses", ("cardsim", "cardsim.analysis", "cardsim.compare", "cardsim.match_compare", "cardsim.questions",
                  "cardsim.question_table", "cardsim.robust", "cardsim.selection", "cardsim.sequential",
                  "cardsim.deviation", "cardsim.exploit", "cardsim.tune", "cardsim.standin", "cardsim.bench",
                  "cardsim.rules.from_chart")),
    ("commands", ("cardsim.cli", "cardsim.__main__", "cardsim.bench.__main__", "cardsim.profiling")),
)
"""The layers of cardsim, bottom-up, each a set of module prefixes: a module belongs to the layer of
the longest prefix that names it or one of its packages (``cardsim.games.base`` is the game
framework's, ``cardsim.games.vint.engine`` the games'); a top-level name (the package
``cardsim`` itself, the API that loads the rest on first use) names only itself.  A module may import its own layer and those
below, never one above:

* **base**: cards, the generator, the jit decorator, text, statistics — nothing of a game;
* **game framework**: what a game is built from (its spec's types, dealing under conditions, the
  strategy registry, the rule kernel, the text of hands, the typed-column converters, the DD
  hooks' shared pieces);
* **games**: the registry (``cardsim.games``) and the game packages;
* **services**: what runs the games and reads their results (runner, frames, DD frames,
  conditions, rule files, PBN, profiles);
* **analyses**: the API (``cardsim``), comparisons, questions, the pandas analyses, benchmarks;
* **commands**: the command line."""

NAMED_UPWARD: dict[tuple[str, str], str] = {
    ("cardsim/strategies/registry.py", "cardsim.rules"):
        "a rules:PATH strategy loads the rule-file reader by name: a static import would put the "
        "reader and the conditions into the jitted source hash (cardsim._jit)",
}
"""``{(file, module named): why}``: modules named (never imported) by a string in a layer below
theirs, read by the layer above (``importlib.import_module`` there).  Each is a debt — the upper
layer should find its own piece — and the test fails when a listed name is gone."""

REASON = re.compile(r"#\s*local:\s*\S")
"""The mark of a function-local import kept on purpose: ``# local: `` and the reason."""


def module_name(rel: str) -> str:
    """``cardsim/runner/run.py`` → ``cardsim.runner.run``; a package's ``__init__.py`` → the package."""
    parts = list(Path(rel).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node) -> bool:
    test = node.test
    return isinstance(node, ast.If) and (getattr(test, "id", None) == "TYPE_CHECKING"
                                         or getattr(test, "attr", None) == "TYPE_CHECKING")


def imports(tree) -> list[tuple[ast.stmt, bool]]:
    """``(statement, inside a function)`` for every import statement that runs (not under
    ``if TYPE_CHECKING:``), in source order."""
    out = []

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit_one(other, local)
                continue
            visit_one(child, local)

    def visit_one(child, local):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            out.append((child, local))
        visit(child, local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return sorted(out, key=lambda x: x[0].lineno)


def targets(node, module: str, is_package: bool, modules) -> list[str]:
    """The modules of ``modules`` (names) that the import statement ``node`` in ``module``
    imports: the deepest that exists of each name it gives."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join(package + ([node.module] if node.module else []))
        names = [f"{base}.{a.name}" for a in node.names]
    out = []
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name and name not in out:
            out.append(name)
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """``{module: {module it imports}}`` over ``{module: (source, is_package)}``, module-level and
    function-local imports both; a module importing itself (a package's ``from . import x`` of a
    name it defines) is no edge."""
    graph = {}
    for module, (source, is_package) in sources.items():
        graph[module] = {t for node, _ in imports(ast.parse(source)) for t in
                         targets(node, module, is_package, sources) if t != module}
    return graph


def _shortest_cycle(graph, start) -> list[str] | None:
    """The shortest cycle through ``start`` (its modules from ``start`` on), or None."""
    came = {}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return path[::-1]
            if nxt not in came:
                came[nxt] = node
                todo.append(nxt)
    return None


def cycles(graph) -> list[list[str]]:
    """Every module's shortest import cycle, each once (turned to start at its smallest module)."""
    found = set()
    for module in sorted(graph):
        cycle = _shortest_cycle(graph, module)
        if cycle:
            i = cycle.index(min(cycle))
            found.add(tuple(cycle[i:] + cycle[:i]))
    return [list(c) for c in sorted(found)]


def unexplained(source: str, module: str, is_package: bool, modules) -> list[int]:
    """Lines of the function-local imports of ``PACKAGE``'s modules in ``source`` that carry no
    ``# local: REASON`` comment on any of their lines."""
    comments = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string
    out = []
    for node, local in imports(ast.parse(source)):
        if not local or not any(t.split(".")[0] == PACKAGE for t in targets(node, module, is_package, modules)):
            continue
        if not any(REASON.match(comments.get(line, "")) for line in range(node.lineno, node.end_lineno + 1)):
            out.append(node.lineno)
    return out


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of ``module``'s layer, None when no prefix names it."""
    best, length = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            names = module == prefix or ("." in prefix and module.startswith(prefix + "."))
            if names and len(prefix) > length:
                best, length = index, len(prefix)
    return best


def _docstrings(tree) -> set[int]:
    """``id`` of every docstring node (a string that is a module's, class's or function's first statement)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _named(node, module: str, is_package: bool) -> str | None:
    """The dotted name a string node spells: a constant, or ``f"{__name__}.x"`` (``module.x``;
    a package's ``__name__`` is the package)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        head = node.values[0]
        if (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name) and head.value.id == "__name__"
                and all(isinstance(v, ast.Constant) for v in node.values[1:])):
            return module + "".join(v.value for v in node.values[1:])
    return None


def references(source: str, module: str, is_package: bool, modules) -> list[tuple[int, str, str]]:
    """``(line, module, how)`` for every cardsim module of ``modules`` that ``source`` (the module
    ``module``) depends on: each import that runs, module-level or in a function (``how``
    ``"import"``), and each string that names one (``"by name"``: ``import_module("cardsim.x")``,
    a spec's ``Modules(features=f"{__name__}.features")``, a table of module names); docstrings do not
    count.  A name is taken as the deepest module of ``modules`` it spells whole."""
    tree = ast.parse(source)
    out = [(node.lineno, t, "import") for node, _ in imports(tree) for t in targets(node, module, is_package, modules)]
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if id(node) in skip or isinstance(node, ast.FormattedValue):
            continue
        name = _named(node, module, is_package)
        if name and name.startswith(module.split(".")[0] + ".") and name in modules:
            out.append((node.lineno, name, "by name"))
    return sorted(set(out))


def upward(sources: dict[str, tuple[str, bool]]) -> list[tuple[str, int, str, str]]:
    """``(file, line, module named, what)`` of every reference (:func:`references`) from a module
    to a module of a higher layer; ``what`` names both layers."""
    out = []
    for module, (source, is_package) in sorted(sources.items()):
        mine = layer_of(module)
        for line, target, how in references(source, module, is_package, sources):
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                out.append((_file(module, is_package), line, target,
                            f"{module} ({LAYERS[mine][0]}) {'imports' if how == 'import' else 'names'} "
                            f"{target} ({LAYERS[theirs][0]})"))
    return out


def _sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p.relative_to(ROOT).as_posix()): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


def _file(module: str, is_package: bool) -> str:
    return module.replace(".", "/") + ("/__init__.py" if is_package else ".py")


def test_cardsim_has_no_import_cycles():
    found = cycles(import_graph(_sources()))
    assert not found, ("import cycles (move what both modules need down into a module both import; a "
                       "function-local import does not break a cycle):\n"
                       + "\n".join(" → ".join(c + c[:1]) for c in found))


def test_every_cardsim_module_is_in_a_layer():
    lost = [module for module in _sources() if layer_of(module) is None]
    assert not lost, f"modules in no layer of LAYERS (add their prefix to one): {lost}"


def test_imports_point_down_the_layers():
    found = [f"{file}:{line}: {what}" for file, line, target, what in upward(_sources())
             if (file, target) not in NAMED_UPWARD]
    assert not found, ("imports of a higher layer (move what is needed down, or have the upper layer pass it "
                       "in; LAYERS in this file is the map):\n" + "\n".join(found))


def test_the_named_upward_list_holds_only_names_still_there():
    found = {(file, target) for file, _, target, _ in upward(_sources())}
    stale = [key for key in NAMED_UPWARD if key not in found]
    assert not stale, f"no longer named from below, take them off NAMED_UPWARD: {stale}"


def test_function_local_imports_of_cardsim_say_why():
    sources = _sources()
    found = []
    for module, (source, is_package) in sources.items():
        rel = _file(module, is_package)
        found += [f"{rel}:{line}" for line in unexplained(source, module, is_package, sources)]
    assert not found, ("function-local imports of cardsim modules without a reason: move them to the top of "
                       "the module, or say on the line why start-up needs them local (# local: REASON):\n"
                       + "\n".join(found))



# What the checks catch, on small made-up packages.
def _tree(**modules) -> dict[str, tuple[str, bool]]:
    return {name.replace("__", "."): (source, name in ("pkg", "pkg__sub")) for name, source in modules.items()}


def test_a_cycle_through_a_function_local_import_is_found_and_named():
    # compare ↔ match_compare before the cycle was broken: one side imported at module level,
    # the other inside a function
    graph = import_graph(_tree(pkg="", pkg__compare="def side_share():\n    from pkg.match_compare import f\n",
                               pkg__match_compare="from pkg.compare import win_share\n"))
    assert graph == {"pkg": set(), "pkg.compare": {"pkg.match_compare"}, "pkg.match_compare": {"pkg.compare"}}
    assert cycles(graph) == [["pkg.compare", "pkg.match_compare"]]


def test_a_longer_cycle_is_named_whole_and_once():
    graph = import_graph(_tree(pkg="", pkg__a="import pkg.b\n", pkg__b="from pkg import c\n",
                               pkg__c="def f():\n    from pkg.a import x\n"))
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_package_reexporting_its_modules_is_no_cycle():
    # importing pkg.sub.x runs pkg/sub/__init__ first; that is not an edge back
    graph = import_graph(_tree(pkg="", pkg__sub="from pkg.sub.x import f\nfrom . import y\n",
                               pkg__sub__x="from pkg.sub import y\n", pkg__sub__y="Y = 1\n"))
    assert graph["pkg.sub"] == {"pkg.sub.x", "pkg.sub.y"} and graph["pkg.sub.x"] == {"pkg.sub.y"}
    assert cycles(graph) == []


def test_type_checking_imports_do_not_count():
    graph = import_graph(_tree(pkg="", pkg__a="from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                             "    from pkg.b import B\nelse:\n    import json\n",
                               pkg__b="import pkg.a\n"))
    assert graph["pkg.a"] == set() and cycles(graph) == []


def test_a_local_import_of_cardsim_without_a_reason_is_caught():
    source = ('import json\n'
              'from cardsim import frames\n'
              'def f():\n'
              '    import pandas as pd\n'                                   # not cardsim's: no reason needed
              '    from cardsim.runner.run import make_run\n'                # line 5: no reason
              '    from cardsim import frames  # local: pandas, workers never build a frame\n'
              '    from cardsim.runner.store import (ChunkStore,\n'
              '                                      run_chunks)  # local: numba kernels\n'
              '    from cardsim.cards import SUITS  # noqa: F401\n'          # line 9: a comment, no reason
              '    g = lambda: __import__("x")\n'
              '    from cardsim.deal import deal_chunk  # local:\n')          # line 11: an empty reason
    modules = {"cardsim", "cardsim.frames", "cardsim.runner", "cardsim.runner.run", "cardsim.runner.store",
               "cardsim.cards", "cardsim.deal"}
    assert unexplained(source, "cardsim.x", False, modules) == [5, 9, 11]


def _layered(tree: dict[str, tuple[str, bool]]) -> list[str]:
    """:func:`upward` over a made-up package, with ``pkg.low`` below ``pkg.high``."""
    global LAYERS
    kept = LAYERS
    LAYERS = (("low", ("pkg", "pkg.low", "pkg.low2")), ("high", ("pkg.high",)))
    try:
        return [f"{file}:{line}: {what}" for file, line, _, what in upward(tree)]
    finally:
        LAYERS = kept


def test_an_upward_import_is_caught_at_module_level_and_inside_a_function():
    found = _layered(_tree(pkg="", pkg__low="import json\nfrom pkg.high import run\n",
                           pkg__low2="def f():\n    x = 1\n    from pkg import high  # local: start-up\n",
                           pkg__high="from pkg.low import x\n"))
    assert found == ["pkg/low.py:2: pkg.low (low) imports pkg.high (high)",
                     "pkg/low2.py:3: pkg.low2 (low) imports pkg.high (high)"]


def test_a_module_named_by_a_string_counts_but_a_docstring_does_not():
    found = _layered(_tree(pkg="", pkg__high="X = 1\n",
                           pkg__low='"""pkg.high"""\nimport importlib\n'
                                    'def f():\n    """pkg.high"""\n    return importlib.import_module("pkg.high")\n',
                           pkg__low2='SPEC = dict(analysis="pkg.high", message="see pkg.high")\n'))
    assert found == ["pkg/low.py:5: pkg.low (low) names pkg.high (high)",
                     "pkg/low2.py:1: pkg.low2 (low) names pkg.high (high)"]


def test_a_spec_names_its_own_modules_through_dunder_name():
    tree = _tree(pkg="", pkg__sub='SPEC = dict(features=f"{__name__}.feat", rules=f"{__name__}.high")\n',
                 pkg__sub__feat="X = 1\n", pkg__sub__high="Y = 2\n")
    assert references(tree["pkg.sub"][0], "pkg.sub", True, tree) == [(1, "pkg.sub.feat", "by name"),
                                                                    (1, "pkg.sub.high", "by name")]
    global LAYERS
    kept = LAYERS
    LAYERS = (("low", ("pkg", "pkg.sub")), ("high", ("pkg.sub.high",)))
    try:
        assert [what for *_, what in upward(tree)] == ["pkg.sub (low) names pkg.sub.high (high)"]
    finally:
        LAYERS = kept


def test_a_module_takes_the_layer_of_its_longest_prefix():
    assert LAYERS[layer_of("cardsim.games.base")][0] == "game framework"
    assert LAYERS[layer_of("cardsim.games.vint.engine")][0] == "games"
    assert LAYERS[layer_of("cardsim.games")][0] == "games"
    assert LAYERS[layer_of("cardsim")][0] == "analyses"
    assert LAYERS[layer_of("cardsim.rules.from_chart.vint")][0] == "analyses"
    assert layer_of("cardsim.nowhere") is None
