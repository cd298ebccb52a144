"""A user's value inside a one-line error message: :func:`quote`.

Every message that shows a value the user gave (a hand, a class, a call, a card token of a
record, a path) shows it through :func:`quote`, so that a value of megabytes (a pasted file, a
generated string) still gives an error line a person can read.
"""
from __future__ import annotations

import reprlib

LIMIT = 100
"""Characters of a value a message shows at most (about: the ellipsis and quote mark come on top)."""

_SHORT = reprlib.Repr()
# Containers (a record's list of a million cards) are abbreviated while being rendered, not after:
# their whole repr is never built.
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict, _SHORT.maxset = 3, 8, 8, 8, 8
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = LIMIT + 2
_CONTAINERS = (list, tuple, dict, set, frozenset)


def quote(value, limit: int = LIMIT) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters.

    A longer value is cut with an ellipsis and followed by its size: ``'XXXX…' (1,000,000
    characters)`` for a string, ``[1, 2, ...] (list of 20,000 items)`` for a container.  Only the
    shown part is rendered (a huge string or list is not made into a repr first).  Never raises.
    """
    try:
        if isinstance(value, str):
            text = repr(value[:limit + 1])
            size = f"{len(value):,} characters" if len(value) > limit or len(text) > limit + 2 else ""
        else:
            text = _SHORT.repr(value)
            many = isinstance(value, _CONTAINERS) and len(value) > _SHORT.maxlist
            size = f"{type(value).__name__} of {len(value):,} items" if many else ""
    except Exception:  # an int of more digits than Python prints, a repr that fails
        text, size = f"<{type(value).__name__}>", ""
    if len(text) > limit + 2 or (size and isinstance(value, str)):
        text = text[:limit] + "…" + (text[0] if isinstance(value, str) else "")
    return f"{text} ({size})" if size else text


def clip(message: str, limit: int = 1000) -> str:
    """A whole message cut to ``limit`` characters: the last resort of the command line for a
    message whose values were not quoted (argparse's own, a library's)."""
    return message if len(message) <= limit else f"{message[:limit]}… ({len(message):,} characters)"
