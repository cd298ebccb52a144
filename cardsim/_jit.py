"""The one house decorator for jitted code (DESIGN.md, "One house decorator").

Every kernel is compiled with the same options so that they live in one place:
``cache=True`` (compiled code is reused across runs and joblib workers), ``nogil=True``
(threads may run kernels side by side) and ``error_model="numpy"`` (no Python exception
checks on integer division in hot loops).
"""
from __future__ import annotations

import numba

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def jit(func=None, **overrides):
    """``numba.njit`` with the house options; usable bare (``@jit``) or called (``@jit(inline="always")``)."""
    options = {**_OPTIONS, **overrides}
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)
