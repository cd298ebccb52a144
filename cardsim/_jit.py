"""The one house decorator for jitted code (DESIGN.md, "One house decorator").

Every kernel is compiled with the same options so that they live in one place:
``cache=True`` (compiled code is reused across runs and joblib workers), ``nogil=True``
(threads may run kernels side by side) and ``error_model="numpy"`` (no Python exception
checks on integer division in hot loops).

numba's on-disk cache checks only the modification time of the file that defines a kernel,
so a cached engine would keep running an old strategy after an edit in another module.  The
cache therefore lives in a directory named after a hash of every cardsim source file: any
edit anywhere in the package starts a fresh cache.  ``$NUMBA_CACHE_DIR`` (if set) is the
parent of that directory, else ``~/.cache/cardsim``; ``make clean-cache`` removes old ones.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def source_hash() -> str:
    """16 hex digits naming this version of every cardsim source file (also in run manifests)."""
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where this version of the sources keeps its compiled kernels."""
    parent = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "cardsim")
    return Path(parent) / f"numba-{numba.__version__}-{source_hash()}"


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
