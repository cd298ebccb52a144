"""A user's value inside a one-line error message: :func:`quote`.

Every message that shows a value the user gave (a hand, a class, a call, a card token of a
record, a path) shows it through :func:`quote`, so that a value of megabytes (a pasted file, a
generated string) still gives an error line a person can read.
"""
from __future__ import annotations

import codecs
import reprlib
import sys
import unicodedata

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


def path_text(path, limit: int = 300) -> str:
    """A path for a one-line message: whole up to ``limit`` characters, else its start and its end
    (the file's name) around an ellipsis, with its length, so that the reason after it (``File
    name too long``) is not cut off with the rest of a path 2,000 folders deep."""
    text = str(path)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}…{text[-(limit // 3):]} ({len(text):,} characters)"


def clip(message: str, limit: int = 1000) -> str:
    """A whole message cut to ``limit`` characters: the last resort of the command line for a
    message whose values were not quoted (argparse's own, a library's)."""
    return message if len(message) <= limit else f"{message[:limit]}… ({len(message):,} characters)"


PLAIN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
         "\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u2264": "<=", "\u2265": ">=",
         "\u2260": "!=", "\u00d7": "x", "\u00b1": "+/-", "\u2192": "->", "\u2190": "<-", "\u00b7": ".",
         "\u2248": "~", "\u221e": "inf", "\u00b2": "2", "\u00b3": "3", "\u00a0": " ", "\u2009": " ",
         "\u202f": " ", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u03a3": "sum "}
"""Plain text for the characters cardsim prints that a legacy encoding (cp1252, latin-1, ASCII)
may lack: suit symbols as their letters (cards.SUIT_SYMBOLS), the minus sign as ``-``."""
LETTERS = "cardsim-letters"
"""The codec error handler (:func:`_letters`) cardsim's command line writes its output with."""


def _letters(err: UnicodeError):
    """Encode error handler :data:`LETTERS`: a character the stream's encoding lacks becomes its
    plain form (:data:`PLAIN`), else its closest ASCII (accents dropped), else ``?``; a byte that
    was not UTF-8 in a name given to cardsim (a file name, decoded with ``surrogateescape``) is
    written back as that byte, as the system gave it."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for ch in err.object[err.start:err.end]:
        if "\udc80" <= ch <= "\udcff":
            out.append(bytes([ord(ch) - 0xDC00]))
            continue
        plain = PLAIN.get(ch)
        if plain is None:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        out.append(plain.encode("ascii", "replace"))  # the legacy encodings all extend ASCII
    return b"".join(out), err.end


def plain_output(*streams) -> None:
    """Write ``streams`` (default standard output and error) with :data:`LETTERS`: a terminal or
    file in cp1252, latin-1 or ASCII gets ``S H D C`` and ``-`` where cardsim writes ``♠ ♥ ♦ ♣``
    and ``−``, not a UnicodeEncodeError; a stream that is not a text file is left alone."""
    try:
        codecs.lookup_error(LETTERS)
    except LookupError:
        codecs.register_error(LETTERS, _letters)

    for stream in streams or (sys.stdout, sys.stderr):
        try:
            if stream.errors != LETTERS:
                stream.reconfigure(errors=LETTERS)
        except (AttributeError, ValueError, OSError):  # not a TextIOWrapper, or closed
            pass
