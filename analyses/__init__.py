"""Published analyses: one script per question, each writing tables and figures under reports/.

:data:`ANALYSES` is the one list of them, read from ``analyses/analyses.txt`` (which the Makefile
reads too): the scripts, the tables they write and the order of the report's sections.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

LIST = Path(__file__).with_name("analyses.txt")
"""The list's file: ``SCRIPT TABLE [INPUT ...]`` per line, ``#`` comments."""


class Analysis(NamedTuple):
    script: str
    """The module ``analyses/<script>.py``."""
    table: str
    """Its tables' name: ``reports/tables/<table>.json`` and the report's section."""
    inputs: tuple[str, ...]
    """Files besides the script and cardsim's sources its tables depend on (make report)."""


def read_list(path: Path = LIST) -> tuple[Analysis, ...]:
    """The analyses of ``path``, in the report's order."""
    out = []
    for line in path.read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            out.append(Analysis(words[0], words[1], tuple(words[2:])))
    return tuple(out)


ANALYSES = read_list()
