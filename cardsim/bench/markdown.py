"""BENCHMARKS.md as ``make bench`` writes it: the measured sections replaced, one at a time or all
together, and the measurements made by hand below :data:`NOTES_MARKER` kept."""
from __future__ import annotations

NOTES_MARKER = "<!-- Measured by hand below this line: make bench keeps it. -->"
"""The line after which BENCHMARKS.md holds hand-made measurements, kept by every write."""


def write_keeping_notes(path: str, text: str) -> None:
    """Write the measured ``text`` to ``path``, keeping whatever follows :data:`NOTES_MARKER`
    in the old file (hand-made measurements: before/after comparisons, long runs)."""
    notes = ""
    try:
        with open(path) as f:
            old = f.read()
        if NOTES_MARKER in old:
            notes = "\n" + old[old.index(NOTES_MARKER):]
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text + notes)


def replace_section(path: str, heading: str, text: str) -> None:
    """Put the section ``text`` (starting with a blank line and ``heading``) into the Markdown
    file ``path`` in place of its old section of that heading, else before :data:`NOTES_MARKER`,
    else at the end."""
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    if heading in old:
        start = old.index(heading)
        ends = [e for e in (old.find("\n## ", start + len(heading)), old.find(NOTES_MARKER, start)) if e >= 0]
        before, after = old[:start], old[min(ends):] if ends else ""
    elif NOTES_MARKER in old:
        before, after = old[:old.index(NOTES_MARKER)], old[old.index(NOTES_MARKER):]
    else:
        before, after = old, ""
    new = (before.rstrip("\n") + "\n" if before.strip() else "") + text
    if after.strip():
        new += "\n" + after.lstrip("\n")
    with open(path, "w") as f:
        f.write(new)


