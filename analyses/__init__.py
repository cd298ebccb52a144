"""Published analyses: one script per question, each writing tables and figures under reports/.

:data:`ANALYSES` is the one list of them, read from ``analyses/analyses.txt`` (which the Makefile
reads too): the scripts, the tables they write and the order of the report's sections.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from cardsim.analysis import find_module, package_name

LIST = Path(__file__).with_name("analyses.txt")
"""The list's file: ``SCRIPT TABLE [INPUT ...]`` per line, ``#`` comments; an INPUT ``target=NAME``
names the make target of an analysis that ``make report`` does not run."""
REPORT = "report"
"""The make target of the analyses that ``make report`` runs."""


class Analysis(NamedTuple):
    script: str
    """The module ``analyses/<script>.py``."""
    table: str
    """Its tables' name: ``reports/tables/<table>.json`` and the report's section."""
    inputs: tuple[str, ...]
    """Files besides the script and cardsim's sources its tables depend on (make report)."""
    target: str = REPORT
    """The make target that runs it: :data:`REPORT`, or its own (``make stronger``) for an analysis
    too slow for the report's budget; the report shows its section when its tables exist."""


def read_list(path: Path = LIST) -> tuple[Analysis, ...]:
    """The analyses of ``path``, in the report's order."""
    out = []
    for line in path.read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            own = [w.removeprefix("target=") for w in words[2:] if w.startswith("target=")]
            out.append(Analysis(words[0], words[1], tuple(w for w in words[2:] if not w.startswith("target=")),
                                own[0] if own else REPORT))
    return tuple(out)


ANALYSES = read_list()


def game_script(game: str, part: str) -> ModuleType | None:
    """``game``'s own module ``part`` of the report's scripts, ``analyses/<package>_<part>.py``
    (``package``: :func:`cardsim.analysis.package_name`, so ``analyses/g500_page.py`` for Five
    Hundred's ``"page"``), imported; None when the game has none.  The one way the report finds a
    game's page (``"page"``) and stronger-play cells (``"stronger"``).  Raises OptionError for an
    unknown game."""
    return find_module(f"{__name__}.{package_name(game)}_{part}")
