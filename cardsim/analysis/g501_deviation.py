"""501's blind chart as exploit parameters: does one seat gain by changing one cell? (issue 46)

The settled chart (:mod:`cardsim.analysis.g501_fixed`) is played by every seat.  Its cells are a
strategy's parameters like any other: a seat that deviates in **one** situation — the cell's blind
level one step up or down (look < 70 < 80 < … < 150, :data:`~cardsim.games.g501.strategies.CELL_LEVELS`)
or blind <-> look — while the other seats keep the chart, should gain nothing if the chart is an
equilibrium of its own family.  :func:`deviation_table` measures that gain with whole games:

* the cells tried are the ones **met most** (:func:`cell_frequencies`: every seat of every deal of
  games in which every seat plays the chart is in one cell at the start of the deal — its score,
  its closest rival's, its auction position, mapped as the engine maps them — counted, most first);
* for each deviation, the deviating seat sits at every position of the 3-seat table in turn
  (seats 0, 1, 2: so the first dealer and the seat do not confound it), and each line-up is paired
  with every seat on the chart on the same match seeds (:func:`cardsim.compare.compare_matches`);
  the **gain** is the deviating seat's share of game wins minus that seat's share when it keeps
  the chart, averaged over the three positions, in percentage points (pp);
* each position has its own match seeds (:func:`seat_seed`), so the three positions' gains are
  independent and the mean's standard error is ``sqrt(sum of their squares) / 3``;
* the **multiplicity rule** is Bonferroni over the family (every deviation tried): each interval
  is at ``1 - (1 - level) / m`` two-sided, so all ``m`` hold together with probability at least
  ``level``, and trying more cells cannot make more false "exploitable" verdicts;
* the verdict: ``exploitable`` when some deviation's simultaneous interval lies wholly above the
  tolerance (0.5 pp, issue 46), ``within 0.5 pp`` when every interval's upper end is at most the
  tolerance, else ``not decided at this size``.

Units: gains in pp of the deviating seat's game-win share (0..100 scale); ``played`` a share of
seat-deals (0..1).  Games are 3-seat games from 501 each (docs/RULES.md §1.8).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.g501_policy import chart_table, nearest_cell
from cardsim.games.g501.strategies import CELL_LEVELS, REGISTRY, cells_text

GAME = "501"
SEATS = 3
TOLERANCE_PP = 0.5
"""The issue's target: a deviation gains no more than 0.5 pp of game wins."""
LEVEL = 0.95
TOP = 8
"""Cells tried by default: the most met ones."""
FREQUENCY_MATCHES = 2_000
"""Games played to count how often each cell is met."""
ORDER = (0,) + tuple(CELL_LEVELS)
"""A cell's options in order: look (0), then the blind levels: a step up or down moves along it."""
GAMES = 20_000
"""Games per seat position in the report's table."""
QUICK_GAMES, QUICK_TOP, QUICK_FREQUENCY = 300, 2, 200
"""The quick report's games per position, cells tried and games counted for the cells' frequencies."""
COLUMNS = ["cell", "own", "lead", "position", "played", "policy", "deviation", "change", "n", "gain_pp", "se_pp",
           "lo_pp", "hi_pp", "gain_pos0_pp", "gain_pos1_pp", "gain_pos2_pp", "verdict"]
EXPLOITABLE, WITHIN, UNDECIDED = "exploitable", f"within {TOLERANCE_PP:g} pp", "not decided at this size"
RULE = ("Bonferroni over the {m} deviations tried: each interval at {each:.2%} two-sided, so all hold together "
        "at {level:.0%}")


def _option(level: int) -> str:
    return f"blind:{level}" if level else "look"


def cell_text(cell) -> str:
    """``own/lead/position`` of a cell, lead signed (``300/+50/2``)."""
    return f"{cell[0]}/{cell[1]:+d}/{cell[2]}"


def cell_frequencies(spec: str, n_matches: int = FREQUENCY_MATCHES, seed: int = 0, n_jobs: int = -1) -> pd.DataFrame:
    """How often a seat is in each chart cell at the start of a deal, in ``n_matches`` 3-seat games
    with every seat on ``spec``: columns ``own``, ``lead``, ``position``, ``count`` (seat-deals),
    ``played`` (their share, 0..1), most met first (ties: the cell order).  A seat's cell: its
    score before the deal, its closest rival's (the lowest of the others), its auction position
    ((seat - dealer - 1) mod 3), mapped by :func:`~cardsim.analysis.g501_policy.nearest_cell`."""
    import cardsim

    _, deals = cardsim.play_match(GAME, n_matches, seed=seed, strategies=[spec] * SEATS, seats=SEATS, n_jobs=n_jobs)
    scores = deals[[f"score_{s}" for s in range(SEATS)]].to_numpy(np.int64)
    dealer = deals.dealer.to_numpy(np.int64)
    counts: dict = {}
    for s in range(SEATS):
        rival = np.delete(scores, s, axis=1).min(axis=1)
        position = (s - dealer - 1) % SEATS
        for key in zip(scores[:, s], rival, position):
            cell = nearest_cell(int(key[0]), int(key[1]), int(key[2]))
            counts[cell] = counts.get(cell, 0) + 1
    table = chart_table(spec)[["own", "lead", "position"]]
    table["count"] = [counts.get((o, lead, p), 0) for o, lead, p in zip(table.own, table.lead, table.position)]
    table["played"] = table["count"] / max(1, table["count"].sum())
    return table.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)


def with_cell(spec: str, cell, level: int) -> str:
    """``spec`` (a ``chart`` strategy spec) with the cell ``(own, lead, position)`` bidding blind
    up to ``level`` (0 = look); its other parameters kept.  Raises ValueError for a cell or level
    the chart has not."""
    table = chart_table(spec)
    where = (table.own == cell[0]) & (table.lead == cell[1]) & (table.position == cell[2])
    if not where.any():
        raise ValueError(f"the chart has no cell {cell_text(cell)}")
    if level not in ORDER:
        raise ValueError(f"level must be 0 (look) or one of {', '.join(map(str, CELL_LEVELS))}, got {level!r}")
    levels = table.level.to_numpy().copy()
    levels[where.to_numpy()] = level
    digits = [ORDER.index(int(x)) for x in levels]
    name, _, rest = spec.partition(":")
    others = [p for p in rest.split(",") if p.strip() and p.partition("=")[0].strip() != "cells"]
    out = f"{name.strip()}:cells={cells_text(digits)}" + "".join("," + p.strip() for p in others)
    REGISTRY.resolve(out)
    return out


def deviations(level: int) -> list[tuple[str, int]]:
    """The deviations of a cell at ``level`` (0 look): ``(change, new level)`` — ``up`` and
    ``down`` one step along :data:`ORDER` (a step down from the lowest level is look, a step up
    from look the lowest level) and ``look`` for a blind cell whose step down is not already
    look; each new level once."""
    i = ORDER.index(int(level))
    out = []
    if i + 1 < len(ORDER):
        out.append(("up", ORDER[i + 1]))
    if i > 0:
        out.append(("down", ORDER[i - 1]))
    if i > 1:
        out.append(("look", 0))
    return out


def seat_shares(matches: pd.DataFrame) -> pd.DataFrame:
    """Every seat's share of each game's win (float64 0..1, columns ``share_0`` …): ``win_s /
    n_winners``, a game without a winner (unfinished) 1/3 each.  The measure of
    :func:`deviation_table`."""
    n = matches["n_winners"].to_numpy(dtype=np.float64)
    out = {}
    for s in range(SEATS):
        won = matches[f"win_{s}"].to_numpy(dtype=np.float64, na_value=0.0)
        out[f"share_{s}"] = np.where(n > 0, won / np.maximum(n, 1.0), 1.0 / SEATS)
    return pd.DataFrame(out, index=matches.index)


def seat_seed(seed: int, seat: int) -> int:
    """The match seed of the comparisons with the deviating seat at ``seat``."""
    import hashlib

    digest = hashlib.sha256(f"{seed}|501-deviation|{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def bonferroni_z(m: int, level: float = LEVEL) -> float:
    """The normal quantile of a two-sided interval at ``1 - (1 - level) / m``."""
    from scipy.stats import norm

    return float(norm.ppf(1 - (1 - level) / (2 * max(1, m))))


def verdict(lo: float, hi: float, tolerance: float = TOLERANCE_PP) -> str:
    """One deviation's (or the family's) verdict from its simultaneous interval (pp)."""
    if lo > tolerance:
        return EXPLOITABLE
    return WITHIN if hi <= tolerance else UNDECIDED


def deviation_table(spec: str, n_matches: int, seed: int = 0, n_jobs: int = -1, cells=None, top: int = TOP,
                    frequency_matches: int = FREQUENCY_MATCHES, level: float = LEVEL,
                    tolerance: float = TOLERANCE_PP, store=None, progress: bool = False) -> pd.DataFrame:
    """The gain of one seat deviating from the chart ``spec`` in one cell, for the cells ``cells``
    (``(own, lead, position)`` tuples; default the ``top`` most met, :func:`cell_frequencies` on
    ``frequency_matches`` games) and each of their :func:`deviations`: ``n_matches`` 3-seat games
    per seat position, paired on the same match seeds with every seat on ``spec``.

    Returns one row per deviation (:data:`COLUMNS`; ``gain_pp``, ``se_pp``, ``lo_pp``/``hi_pp``
    the Bonferroni-simultaneous interval at ``level``, ``gain_posK_pp`` the gain with the deviating
    seat at position K, ``verdict`` per row), largest gain first; ``attrs``: ``exploitability``
    (the largest gain and its interval, pp), ``verdict`` (the family's: ``exploitable`` if any row
    is, ``within 0.5 pp`` if every row is, else ``not decided at this size``), ``family`` (the
    deviations tried), ``rule`` (the multiplicity rule in words), ``order`` (how the cells were
    chosen), ``tolerance``, ``n``.  Deterministic for a seed, any ``n_jobs``; ``store``: a folder
    keeping finished chunks (resumable).  Raises ValueError / StrategyError (one line) for a spec
    that is not a chart, an unknown cell, ``n_matches`` < 1."""
    from cardsim.compare import compare_matches

    if not isinstance(n_matches, (int, np.integer)) or n_matches < 1:
        raise ValueError(f"n_matches must be a whole number of games from 1, got {n_matches!r}")
    table = chart_table(spec)
    current = {(int(o), int(lead), int(p)): int(lvl)
               for o, lead, p, lvl in zip(table.own, table.lead, table.position, table.level)}
    if cells is None:
        freq = cell_frequencies(spec, frequency_matches, seed, n_jobs)
        cells = [tuple(int(x) for x in k) for k in freq[["own", "lead", "position"]].head(top).itertuples(index=False)]
        order = (f"the {len(cells)} cells met most often at the start of a deal in {frequency_matches:,} games with "
                 "every seat on the chart, most first")
    else:
        cells = [tuple(int(x) for x in c) for c in cells]
        freq = cell_frequencies(spec, frequency_matches, seed, n_jobs)
        order = "the cells given, in the order given"
    unknown = [c for c in cells if c not in current]
    if unknown:
        raise ValueError(f"the chart has no cell {cell_text(unknown[0])} (own score / lead / position)")
    played = {(int(o), int(lead), int(p)): float(s) for o, lead, p, s in
              zip(freq.own, freq.lead, freq.position, freq.played)}
    rows, deviants = [], []
    for cell in cells:
        for change, new in deviations(current[cell]):
            deviants.append(with_cell(spec, cell, new))
            rows.append({"cell": cell_text(cell), "own": cell[0], "lead": cell[1], "position": cell[2],
                         "played": played.get(cell, 0.0), "policy": _option(current[cell]),
                         "deviation": _option(new), "change": change})
    per_seat = []
    for seat in range(SEATS):
        # one comparison per seat position, each on its own match seeds: the positions' gains are then
        # independent and the mean's standard error is exact; within one, every line-up is paired with
        # all-chart on the same seeds
        variants = {}
        for i, deviant in enumerate(deviants):
            lineup = [spec] * SEATS
            lineup[seat] = deviant
            variants[f"d{i}"] = lineup
        keep = None if store is None else Path(store) / f"seat{seat}"
        t = compare_matches(GAME, int(n_matches), [spec] * SEATS, variants, measure=seat_shares,
                            seed=seat_seed(seed, seat), seats=SEATS, n_jobs=n_jobs, store=keep, progress=progress)
        per_seat.append(t[t.measure == f"share_{seat}"].set_index("variant"))
    z = bonferroni_z(len(rows), level)
    for i, row in enumerate(rows):
        d = [t.loc[f"d{i}"] for t in per_seat]
        gain = 100 * float(np.mean([x["diff"] for x in d]))
        se = 100 * float(np.sqrt(np.sum([x["diff_se"] ** 2 for x in d]))) / SEATS
        row.update(n=int(d[0]["n"]), gain_pp=gain, se_pp=se, lo_pp=gain - z * se, hi_pp=gain + z * se,
                   **{f"gain_pos{s}_pp": 100 * float(x["diff"]) for s, x in enumerate(d)})
        row["verdict"] = verdict(row["lo_pp"], row["hi_pp"], tolerance)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out = out.sort_values("gain_pp", ascending=False, kind="stable").reset_index(drop=True)
    top_row = out.iloc[0]
    family = (EXPLOITABLE if (out.verdict == EXPLOITABLE).any() else
              WITHIN if (out.verdict == WITHIN).all() else UNDECIDED)
    out.attrs.update(exploitability={"deviation": f"{top_row.cell} {top_row.policy}->{top_row.deviation}",
                                     "gain_pp": float(top_row.gain_pp), "lo_pp": float(top_row.lo_pp),
                                     "hi_pp": float(top_row.hi_pp)},
                     verdict=family, family=len(out), n=int(n_matches), tolerance=tolerance, order=order,
                     rule=RULE.format(m=len(out), each=1 - (1 - level) / len(out), level=level))
    return out


def report_table(spec: str, n: int, seed: int, n_jobs: int, quick: bool, results) -> pd.DataFrame:
    """The report's :func:`deviation_table` of the settled chart ``spec``: :data:`GAMES` games per
    position (at most ``n``) on the :data:`TOP` cells met most, or the quick sizes; resumable in
    ``results/501-deviation-<key>`` (the key a hash of what the table depends on) unless
    ``results`` is None."""
    import hashlib

    games = min(n, QUICK_GAMES if quick else GAMES)
    top, freq = (QUICK_TOP, QUICK_FREQUENCY) if quick else (TOP, FREQUENCY_MATCHES)
    store = None
    if results is not None:
        from cardsim._jit import source_hash

        key = hashlib.sha256(f"{spec}|{games}|{top}|{freq}|{seed}|{source_hash()}".encode()).hexdigest()[:16]
        store = Path(results) / f"501-deviation-{key}"
    return deviation_table(spec, games, seed, n_jobs, top=top, frequency_matches=freq, store=store)


METHOD = ("The settled chart's situations as exploit parameters: one seat deviates from it in one situation (the "
          "cell's blind level one step up or down, look counting as the step below the lowest level, or blind to "
          "look), the other seats keep it; whole 3-seat games, the deviating seat at each position in turn, each "
          "position on its own match seeds and paired with every seat on the chart on the same seeds "
          "(cardsim.compare.compare_matches); the gain in the deviating seat's share of game wins, averaged over "
          "the positions, with intervals simultaneous over every deviation tried (Bonferroni); the cells tried are "
          "the ones met most often at the start of a deal when every seat plays the chart.")
GLOSSARY = {
    "cell / played": "(g501_fixed_deviations) the situation own/lead/position and the share of seat-deals that "
                     "start in it when every seat plays the settled chart",
    "policy / deviation / change": "the chart's option in the cell, the deviating seat's, and the step (up, down: "
                                   "one level along look < 70 < ... < 150; look: blind to look)",
    "gain_pp / se_pp / lo_pp / hi_pp": "the deviating seat's share of game wins minus its share on the chart, mean of "
                                       "the three seat positions, in pp, with its standard error and the interval "
                                       "simultaneous over all the deviations tried (Bonferroni, 95%)",
    "gain_pos0_pp …": "the same gain with the deviating seat at seat 0, 1, 2",
    "verdict (deviations)": "exploitable = the simultaneous interval lies above 0.5 pp; within 0.5 pp = its upper end "
                            "is at most 0.5 pp; else not decided at this size",
}


def sentence(table: pd.DataFrame) -> str:
    """The report's sentence on the deviation table."""
    a = table.attrs
    e = a["exploitability"]
    return (f"One seat deviating from the settled chart in one situation ({a['family']} deviations: {a['order']}; "
            f"{a['n']:,} games per seat position, paired): the largest gain is {e['gain_pp']:+.2f} pp of game wins "
            f"({e['deviation']}), simultaneous interval [{e['lo_pp']:+.2f}, {e['hi_pp']:+.2f}] ({a['rule']}); "
            f"verdict: {a['verdict']}.")
