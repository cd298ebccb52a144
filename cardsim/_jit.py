"""The one house decorator for jitted code (DESIGN.md, "One house decorator").

Every kernel is compiled with the same options so that they live in one place:
``cache=True`` (compiled code is reused across runs and joblib workers), ``nogil=True``
(threads may run kernels side by side) and ``error_model="numpy"`` (no Python exception
checks on integer division in hot loops).

numba's on-disk cache checks only the modification time of the file that defines a kernel,
so a cached engine would keep running an old strategy after an edit in another module.  The
cache therefore lives in a directory named after a hash of the *jitted* sources: every module
that defines jitted code, and every cardsim module those import (constants, the strategy
registry), found by reading their import statements.  An edit there starts a fresh cache; an
edit to plain-Python modules (CLI, runner, pandas analyses, report) keeps the compiled kernels
and the results keyed on the same hash.  ``$NUMBA_CACHE_DIR`` (if set) is the parent of that
directory, else ``~/.cache/cardsim``; ``make clean-cache`` removes old ones.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba.core import cgutils
from numba.extending import intrinsic

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def _imported_modules(path: Path, root: Path, tree: ast.Module) -> set[Path]:
    """The cardsim source files that the module at ``path`` imports (statically)."""
    package = path.parent.relative_to(root.parent).parts  # e.g. ("cardsim", "games", "vint")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [(n.name.split("."), []) for n in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            targets = [(base + (node.module.split(".") if node.module else []), [n.name for n in node.names])]
        else:
            continue
        for parts, names in targets:
            if not parts or parts[0] != "cardsim":
                continue
            where = root.parent.joinpath(*parts)
            submodules = [where / f"{name}.py" for name in names if (where / f"{name}.py").is_file()]
            out.update(submodules)
            # The package's own code counts only when a name comes from it, not a submodule.
            if len(submodules) < len(names) or not names:
                out.update(c for c in (where.with_suffix(".py"), where / "__init__.py") if c.is_file())
    return out


@functools.cache
def jitted_sources() -> tuple[Path, ...]:
    """Every module with jitted code and every cardsim module those import, transitively."""
    root = Path(__file__).parent
    trees = {p: ast.parse(p.read_text(), str(p)) for p in root.rglob("*.py")}
    todo = [p for p, tree in trees.items() if p.name == "_jit.py" or any(
        isinstance(n, ast.ImportFrom) and n.module and n.module.endswith("_jit") and any(a.name == "jit" for a in n.names)
        for n in ast.walk(tree))]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for dep in _imported_modules(path, root, trees[path]) - seen:
            seen.add(dep)
            todo.append(dep)
    return tuple(sorted(seen))


def _hash_sources() -> str:
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in jitted_sources():
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_parent() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "cardsim"))


def _memo_path() -> Path:
    """Where :func:`source_hash` remembers its value for this exact state of the source files
    (each file's name, size and modification time): parsing every module to find the jitted
    ones costs about a second at every start-up, stat-ing them a millisecond."""
    root = Path(__file__).parent
    key = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        key.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return _cache_parent() / "source-hashes" / key.hexdigest()[:24]


@functools.cache
def source_hash() -> str:
    """16 hex digits naming this version of the jitted sources (:func:`jitted_sources`): the
    compiled-code cache and every run manifest are keyed on it."""
    memo = _memo_path()
    try:
        value = memo.read_text().strip()
        if len(value) == 16 and all(c in "0123456789abcdef" for c in value):
            return value
    except OSError:
        pass
    value = _hash_sources()
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=memo.parent)
        with os.fdopen(fd, "w") as f:
            f.write(value)
        os.replace(tmp, memo)
    except OSError:
        pass  # a read-only cache: compute it each time
    return value


def cache_dir() -> Path:
    """Where this version of the sources keeps its compiled kernels."""
    return _cache_parent() / f"numba-{numba.__version__}-{source_hash()}"


def _set_cache_dir() -> None:
    path = cache_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(tempfile.gettempdir()) / "cardsim-numba" / path.name
        path.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(path)


_set_cache_dir()


def jit(func=None, **overrides):
    """``numba.njit`` with the house options; usable bare (``@jit``) or called (``@jit(inline="always")``)."""
    options = {**_OPTIONS, **overrides}
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)


@intrinsic
def borrowed(typingctx, array):
    """A view of ``array`` (any numba array type; same shape, dtype and data) that numba does not
    reference-count: its meminfo is null, so the increments and decrements numba places around
    every inlined call that takes it compile to nothing.

    The engines' per-deal loops rebind their array arguments to borrowed views: there numba
    otherwise counted references at every call and card, an atomic increment and decrement per
    array per decision (about a fifth of a Vint deal's time; BENCHMARKS.md, "Where the time
    goes").  Borrow only a function's own arguments: its caller holds the arrays for the whole
    call.  A borrowed view of a local array may outlive it (numba frees an array after the last
    use of its variable), and a borrowed view must never be returned or stored.
    """
    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen
