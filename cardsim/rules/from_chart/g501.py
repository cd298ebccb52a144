"""A decision chart written as a rule file (``cardsim rules from-chart``, docs/rules-files.md,
"Charts as rule files"): 501's blind chart, the chart's best call per cell, so that the chart can
be played by every seat, compared and checked as any other system.

The chart's cells (own score × lead × auction position, :data:`CELL_OWN`, :data:`CELL_LEADS`) are
the ``chart`` strategy's (:mod:`cardsim.games.g501.strategies`): a seat takes the nearest cell on
each axis, exactly midway the lower.  Each cell becomes ranges of ``score`` and ``lead`` (whole
score points), and cells with the same level are merged into boxes (a run of leads by a run of
own scores, in one position or all three) so that a whole chart fits a strategy row: one blind
rule ``raise`` with ``bid = "<L"`` per box (blind up to L), then one ``look`` for every other
cell.  The file plays exactly as ``chart:cells=…`` before looking (``tests/test_rules_from_chart.py``
holds the two to each other on thousands of situations); after looking, at the talon and in the
play its base ``heuristic`` decides, as ``chart`` does with its default parameters.
"""
from __future__ import annotations

import math
from pathlib import Path

from cardsim.analysis.g501 import blind_chart as B, game as G
from cardsim.analysis.g501.policy import chart_policy_spec
from cardsim.games.g501.strategies import CELL_LEADS, CELL_LEVELS, CELL_OWN, CELL_POSITIONS, cells_digits, cells_text

TABLE = Path("reports") / "tables" / "g501_game_choices.csv"
"""The report's blind chart (``analyses/g501_game.py``: one row per situation, its ``best`` option)."""
_NO, _NL, _NP = len(CELL_OWN), len(CELL_LEADS), len(CELL_POSITIONS)


def levels_of_cells(cells: str) -> list[int]:
    """The blind level (deal points; 0 = look) of each of the 126 cells of a ``chart`` ``cells``
    text, in cell order (own, lead, position fastest).  ValueError (one line) for a bad text."""
    return [0 if k == 0 else CELL_LEVELS[k - 1] for k in cells_digits(cells)]


def levels_of_choices(choices) -> list[int]:
    """The 126 cell levels of a ``g501_blind_chart.choices`` frame (columns ``own``, ``lead``,
    ``position``, ``best`` = ``look`` / ``blind:L``); a cell the frame lacks takes its nearest
    situation's (:func:`cardsim.analysis.g501.policy.chart_policy_spec`).  ValueError (one line)."""
    return levels_of_cells(chart_policy_spec(choices).partition("cells=")[2])


def _edges(grid) -> list[tuple[float, float]]:
    """Each grid value's whole-number range of the nearest-value rule (exactly midway: the lower)."""
    mids = [0.5 * (a + b) for a, b in zip(grid, grid[1:])]
    lows = [-math.inf] + [math.floor(m) + 1 for m in mids]
    highs = [math.floor(m) for m in mids] + [math.inf]
    return list(zip(lows, highs))


def _range(edges, i0: int, i1: int) -> str | None:
    lo, hi = edges[i0][0], edges[i1][1]
    if lo == -math.inf and hi == math.inf:
        return None
    if lo == -math.inf:
        return f"<={hi}"
    if hi == math.inf:
        return f">={lo}"
    return f"{lo}-{hi}"  # "-149--75": the range reader takes a negative end


def boxes(levels: list[int]) -> list[tuple]:
    """The blind cells of ``levels`` (126, cell order) merged into boxes ``(level, position or
    None for all three, own_first, own_last, lead_first, lead_last)`` (indices into the grids),
    covering each blind cell once and no look cell."""
    def at(i, j, k):
        return levels[(i * _NL + j) * _NP + k]

    done = set()
    out = []
    for i in range(_NO):
        for j in range(_NL):
            for k in range(_NP):
                level = at(i, j, k)
                if level == 0 or (i, j, k) in done:
                    continue
                ks = list(range(_NP)) if all(at(i, j, q) == level and (i, j, q) not in done
                                             for q in range(_NP)) else [k]

                def fits(ii, jj):
                    return all(at(ii, jj, q) == level and (ii, jj, q) not in done for q in ks)

                j1 = j
                while j1 + 1 < _NL and fits(i, j1 + 1):
                    j1 += 1
                i1 = i
                while i1 + 1 < _NO and all(fits(i1 + 1, jj) for jj in range(j, j1 + 1)):
                    i1 += 1
                done.update((ii, jj, q) for ii in range(i, i1 + 1) for jj in range(j, j1 + 1) for q in ks)
                out.append((level, None if len(ks) == _NP else k, i, i1, j, j1))
    return out


def rule_file(levels: list[int], source: str, base: str = "heuristic") -> str:
    """The rule file (TOML text) that plays the blind chart ``levels`` (126 cell levels, cell
    order; 0 = look) before looking, and ``base`` for every other decision.  ``source``: where the
    chart came from, written in the file's header."""
    if len(levels) != _NO * _NL * _NP or any(lv not in (0, *CELL_LEVELS) for lv in levels):
        raise ValueError(f"a blind chart has {_NO * _NL * _NP} cells, each 0 or one of "
                         f"{', '.join(map(str, CELL_LEVELS))}")
    own_edges, lead_edges = _edges(CELL_OWN), _edges(CELL_LEADS)
    digits = cells_text([0 if lv == 0 else CELL_LEVELS.index(lv) + 1 for lv in levels])
    lines = ["# 501's blind decision chart as a rule file (cardsim rules from-chart, docs/rules-files.md).",
             f"# From: {source}.",
             f"# The same policy as chart:cells={digits}",
             "# Cells: own score x lead (the closest rival's score minus own) x auction position, the",
             "# nearest cell on each axis; a rule per box of cells with the same level.",
             "", 'game = "501"', f'base = "{base}"', ""]
    for level, pos, i0, i1, j0, j1 in boxes(levels):
        lines += ["[[rule]]", 'stage = "blind"']
        if pos is not None:
            lines.append(f'position = "{pos}"')
        for key, text in (("score", _range(own_edges, i0, i1)), ("lead", _range(lead_edges, j0, j1))):
            if text is not None:
                lines.append(f'{key} = "{text}"')
        lines += [f'bid = "<{level}"', 'call = "raise"',
                  f'why = "own {CELL_OWN[i0]}..{CELL_OWN[i1]}, lead {CELL_LEADS[j0]:+d}..{CELL_LEADS[j1]:+d}'
                  f'{"" if pos is None else f", position {pos}"}: blind to {level}"', ""]
    lines += ["[[rule]]", 'stage = "blind"', 'call = "look"', 'why = "every other cell, and above its level"', ""]
    first = next(((i, j, k) for i in range(_NO) for j in range(_NL) for k in range(_NP)
                  if levels[(i * _NL + j) * _NP + k]), None)
    if first is not None:
        i, j, k = first
        level = levels[(i * _NL + j) * _NP + k]
        lines += ["[[test]]", 'stage = "blind"', f'position = "{k}"', f'score = "{CELL_OWN[i]}"',
                  f'lead = "{CELL_LEADS[j]}"', f'bid = "{level - 1}"', 'hand = "S:AT9 H:KQ D:J C:9"',
                  f'expect = "{max(66, level)}"', f'why = "a blind cell: blind to {level}"', "",
                  "[[test]]", 'stage = "blind"', f'position = "{k}"', f'score = "{CELL_OWN[i]}"',
                  f'lead = "{CELL_LEADS[j]}"', f'bid = "{level}"', 'hand = "S:AT9 H:KQ D:J C:9"',
                  'expect = "look"', 'why = "its level reached"', ""]
    else:
        lines += ["[[test]]", 'stage = "blind"', 'hand = "S:AT9 H:KQ D:J C:9"', 'expect = "look"',
                  'why = "the chart never bids blind"', ""]
    return "\n".join(lines)


def on_the_spot(deals: int, seed: int = 0, n_jobs: int = 1, log=print):
    """A ``choices`` frame computed now on the quick report's grid (own 100/300/501, lead
    −100/0/+100, levels 70/90/120) with ``deals`` deals a situation: a small chart where the report's
    tables are absent."""
    p = G.plan(deals, quick=True)
    long = B.run_decisions(B.situations(p.own, p.leads, p.positions), p.levels, p.deals, seed, n_jobs=n_jobs, log=log)
    return B.choices(long)


def from_args(args, log=print) -> tuple[str, str]:
    """``cardsim rules from-chart 501``: the rule file's text and where the chart came from.
    ``args``: ``table`` (None or a list of one CSV path), ``cells`` (a chart's cells text or
    None), ``chart`` (None or ``["blind"]``), ``deals`` and ``seed`` (a chart computed on the spot
    when neither is given and the report's table is absent; ``log`` says so).  ValueError (one
    line) for a bad table, cells or option."""
    if args.chart and set(args.chart) != {"blind"}:
        raise ValueError(f"--chart {args.chart[0]!r}: 501's chart is blind")
    if args.table and len(args.table) > 1:
        raise ValueError("501's blind chart is one table: give --table once")
    if not 1 <= args.deals <= 1_000_000:
        raise ValueError(f"--deals must be from 1 to 1,000,000, got {args.deals}")
    table = Path(args.table[0]) if args.table else (TABLE if not args.cells and TABLE.exists() else None)
    if args.cells:
        try:
            return rule_file(levels_of_cells(args.cells), "the cells given on the command line"), \
                "the cells given on the command line"
        except ValueError as exc:
            raise ValueError(f"the chart: {exc}") from None
    if table is not None:
        import pandas as pd  # local: pandas is slow to import; only this function needs it

        try:
            frame = pd.read_csv(table)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{table}: cannot read the chart's table: {exc}") from None
        source = f"the table {table}"
    else:
        log(f"no {TABLE}: computing a small chart on the spot ({args.deals:,} deals a situation, the quick "
            f"report's grid, seed {args.seed})")
        frame = on_the_spot(args.deals, args.seed, log=log)
        source = f"a chart computed on the spot ({args.deals:,} deals a situation, quick grid, seed {args.seed})"
    try:
        levels = levels_of_choices(frame)
    except ValueError as exc:
        raise ValueError(f"the chart: {exc}") from None
    return rule_file(levels, source), source
