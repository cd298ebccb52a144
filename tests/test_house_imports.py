"""House rules on imports, checked over the syntax trees of ``cardsim/``:

* **No import cycles** among cardsim's modules, module-level and function-local imports both: a
  function-local import only moves a cycle from import time to the first call, it does not take
  it away.  A piece two modules share goes down into a module both import.
* **A function-local import of a cardsim module says why**, on its line: ``# local: REASON``.
  Imports are local only where start-up time needs it (``cardsim --help`` imports every command
  module, so a command imports the runner, numba's kernels and pandas inside ``run``; a worker
  that plays chunks never builds a frame); everywhere else they are at module level.

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

KNOWN = ("cardsim/games/", "cardsim/dd/")
"""The exception set, for now: the game packages and the DD machinery still import each other
(``games/<game>/dd.py`` reads ``cardsim.dd``'s frames and ``played_rows`` while ``cardsim.dd`` asks
the games' hooks; ``games/vint/chunks → forcing → records → chunks``).  The solvers themselves
already live in the games (``games/<game>/solver.py``).  A cycle is tolerated only when every
module in it is under these folders, and their local imports need no reason.  Taking the games'
upward imports out removes the set; this entry goes with it."""

LOCAL_DEBT: dict[str, str] = {
    "cardsim/profiling.py": "the profiler beside the benchmarks; its local imports not yet explained",
    "cardsim/cli/bench.py": "the bench command (one parser for cardsim/bench/); its local imports not yet explained",
}
"""``{file: why}``: files whose function-local imports of cardsim modules do not say why yet.
Each entry is a debt: the test fails when a listed file has none left (so the list shrinks)."""

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


def cycles(graph, known=lambda module: False) -> list[list[str]]:
    """Every module's shortest import cycle, each once (turned to start at its smallest module),
    leaving out those whose modules are all ``known``."""
    found = set()
    for module in sorted(graph):
        cycle = _shortest_cycle(graph, module)
        if cycle and not all(known(m) for m in cycle):
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


def _sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p.relative_to(ROOT).as_posix()): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


def _file(module: str, is_package: bool) -> str:
    return module.replace(".", "/") + ("/__init__.py" if is_package else ".py")


def _known(module: str) -> bool:
    return (module.replace(".", "/") + "/").startswith(KNOWN)


def test_cardsim_has_no_import_cycles():
    found = cycles(import_graph(_sources()), _known)
    assert not found, ("import cycles (move what both modules need down into a module both import; a "
                       "function-local import does not break a cycle):\n"
                       + "\n".join(" → ".join(c + c[:1]) for c in found))


def test_the_known_set_still_holds_a_cycle():
    assert any(all(_known(m) for m in c) for c in cycles(import_graph(_sources()))), (
        f"no import cycle left inside {KNOWN}: drop KNOWN's cycle exception")


def test_function_local_imports_of_cardsim_say_why():
    sources = _sources()
    found = []
    for module, (source, is_package) in sources.items():
        rel = _file(module, is_package)
        if _known(module) or rel in LOCAL_DEBT:
            continue
        found += [f"{rel}:{line}" for line in unexplained(source, module, is_package, sources)]
    assert not found, ("function-local imports of cardsim modules without a reason: move them to the top of "
                       "the module, or say on the line why start-up needs them local (# local: REASON):\n"
                       + "\n".join(found))


def test_the_local_debt_list_holds_only_files_that_still_need_it():
    sources = _sources()
    stale = []
    for rel in LOCAL_DEBT:
        module, is_package = module_name(rel), rel.endswith("__init__.py")
        if module not in sources or not unexplained(sources[module][0], module, is_package, sources):
            stale.append(rel)
    assert not stale, f"no unexplained local import left in {stale}: take them off LOCAL_DEBT"


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


def test_known_cycles_are_left_out_only_when_every_module_in_them_is_known():
    graph = {"cardsim.games.g501.dd": {"cardsim.dd.g501"}, "cardsim.dd.g501": {"cardsim.games.g501.dd"},
             "cardsim.frames": {"cardsim.games.vint.frames"}, "cardsim.games.vint.frames": {"cardsim.frames"}}
    assert cycles(graph, _known) == [["cardsim.frames", "cardsim.games.vint.frames"]]


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
