"""One pipeline under the chart analyses: cells → questions → robust replay → tables → answers → figures.

A chart is a grid of cells, each cell one question (:func:`cardsim.questions.question`: the cell's
options played on the same deals, everything else by the players' strategies): the Vint bidding
charts (:mod:`cardsim.analysis.vint.charts`: a hand class and the calls before it), the Five
Hundred bid guide (:mod:`cardsim.analysis.g500.guide`: a holding and a scoring) and the 501 blind
chart (:mod:`cardsim.analysis.g501.blind_chart`: a score situation).  The steps, what a game's chart
supplies for each and what this module does with it:

* **cells** — the game's cell class and its grid (the report's and ``--quick``'s).
* **questions** — a module-level function playing one task (a cell, or a stratum of one) and
  returning its question sums; :func:`play` runs every task in worker processes, each finished
  task kept under the results folder so that a run resumes, and :func:`task_seed` gives each
  task its own seed from the run's seed and the task's key.
* **robust replay** — per chart row, a :class:`cardsim.analysis.robustness.Cell` (the best
  option, its gap and the options that could become best; None where nothing can be replayed)
  and the sums function the replay calls; :func:`replay_rows` replays the cells under the other
  player profiles and gives every row its robustness columns (a blank row where there was no
  cell).
* **tables** — the game's rows → tables, each chart's verdicts decided over its own cells
  (:func:`cardsim.analysis.verdicts.chart_clear`).
* **answers** — the game's ``answer`` (one paragraph), its "In detail" part, its rules of thumb
  (:mod:`cardsim.analysis.rules_of_thumb`) and its fixed prose (glossary, notes, method, figure
  legends; 501's in :mod:`cardsim.analysis.g501.prose`): the text the report prints, every
  number read from the tables.
* **figures** — the game's figures, drawn with :func:`cardsim.analysis.plots.pyplot` (matplotlib without a display).

The analysis scripts (``analyses/vint_charts.py``, ``g500_guide.py``, ``g501_game.py``) call the
steps in this order and write the tables, figures and the section's JSON
(``analyses.common.chart_meta``); docs/DESIGN.md "The chart pipeline".
"""
from __future__ import annotations

import hashlib
from typing import Callable

from cardsim.analysis import robustness as RB
from cardsim.runner.store import analysis_store, run_chunks


def seed_of(*parts) -> int:
    """An independent seed (int, 0 .. 2**63 - 1) named by ``parts``: the first 8 bytes of SHA-256
    of the parts' text (``str``) joined by ``|``, little-endian, halved.  The analyses name their
    tasks' seeds with it (:func:`task_seed`, and modules whose names put the game first)."""
    digest = hashlib.sha256("|".join(str(k) for k in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def task_seed(seed: int, *key) -> int:
    """An independent seed (int, 0 .. 2**63 - 1) for one task of a chart: :func:`seed_of`
    ``(seed, *key)``.  The same key gives the same deals in every run and under every option,
    scoring and player profile (paired)."""
    return seed_of(seed, *key)


def play(fn: Callable, tasks: list[tuple], sizes: list[int], n_jobs: int = -1, *, name: str, results=None,
         unit: str = "deal", identity: dict | None = None):
    """An iterator of ``fn(*task)`` for every task, in task order (each as it is done), run in
    ``n_jobs`` worker processes (``sizes``: each task's deals or games, for the progress and the scheduling).
    ``results``: the folder keeping each finished task (``results/<name>-<key>``,
    :func:`cardsim.runner.store.analysis_store`), so that the same call after an interruption
    resumes; the key hashes ``identity`` (default ``{"tasks": tasks}``: everything the results
    depend on) and ``fn``'s module source.  None: nothing kept."""
    store = analysis_store(results, name, fn, **(identity if identity is not None else {"tasks": tasks}))
    return run_chunks(fn, tasks, sizes, n_jobs, store=store, unit=unit)


def replay_rows(cells: list, profiles: list, sums_fn: Callable, base: list[str], blank: dict, **replay) -> list[dict]:
    """The robustness columns of every chart row: ``cells[i]`` is row i's
    :class:`cardsim.analysis.robustness.Cell`, or None where the row has nothing to replay (no
    runner-up, no legal alternative), which gets a copy of ``blank``.  The cells are replayed
    together (:func:`cardsim.analysis.robustness.replay` with ``profiles``, ``sums_fn``, ``base``
    and the keyword arguments ``replay``: ``name``, ``n_jobs``, ``results``, ``log``, ``caps``,
    ``scale``, ``fmt``).  Returns one dict per row, in order."""
    out = iter(RB.replay([c for c in cells if c is not None], profiles, sums_fn, base, **replay))
    return [next(out) if c is not None else dict(blank) for c in cells]

