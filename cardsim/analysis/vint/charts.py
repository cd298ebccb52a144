"""Vint bidding charts: the best first call per hand class, and what a partnership's points take.

Pure pandas / matplotlib on top of the tables :func:`cardsim.questions.table` returns (one row per
option, best first: ``option, n, legal, made, made_lo, made_hi, score, score_lo, score_hi, diff,
diff_lo, diff_hi``; scores are the seat's side's points minus the other side's per deal, score
points, docs/RULES.md §2.5–§2.7).  The script ``analyses/vint_charts.py`` plays the questions; this
module defines them (hand classes, candidate calls) and turns the answers into tables, figures
and a paragraph of text generated from the numbers: the game's part of the chart pipeline
(:mod:`cardsim.analysis.chart_pipeline`).

Denominations rank S < C < D < H < NT (docs/RULES.md §2.2): spades is the cheapest suit.
"""
from __future__ import annotations

import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.plots import pyplot, save_figure
from cardsim.analysis import robustness as RB, rules_of_thumb as T
from cardsim.analysis.robustness import DEPENDS, others, sentence

from cardsim.analysis.verdicts import chart_clear
from cardsim.cards import SUITS
from cardsim.names import DENOMINATIONS
from cardsim.selection import paired, split_best
from cardsim.stats import mean_interval

MAX_OPTIONS = 12
BALANCED = "S=2-4, C=2-4, D=2-4, H=2-4"

GLOSSARY = {
    "chart / after": "which chart: opening = the dealer's first call; second = second hand after the dealer "
                     "passed; overcall = second hand after the dealer opened; response = partner (the dealer) "
                     "opened and the next hand passed.  `after` = the calls before the seat's first call",
    "band / shape": "the seat's high-card points (A 4, K 3, Q 2, J 1) and hand shape; bal = every suit 2-4 cards "
                    "(4-3-3-3 or 4-4-3-2); 5H = exactly five hearts, every other suit at most 4; 6S = exactly six "
                    "spades, the others at most 4; 6+H = six or more hearts, the others at most 4; 5-5 H+S = "
                    "at least five of each; H 0-2 / H 3 / H 4+ = cards in partner's suit; 5+H (response to 1NT) "
                    "= five or more hearts",
    "long / partner": "the suits the row's shape is long in (S spades, C clubs, D diamonds, H hearts) and partner's "
                      "denomination (a response chart); they turn the calls into words (1 of the long suit, raise)",
    "freq": "share of random deals meeting every hand class of the question (the acceptance rate)",
    "n / options": "deals played in the row (every candidate call on the same deals) and how many candidate calls",
    "best / runner_up": "the first and second call of the ranking by paired comparisons (docs/statistics.md; here "
                        "the highest and second highest mean net score, every candidate being legal on every deal "
                        "of the row) on half of the deals (even deal numbers); the other half measures the gap",
    "best_made": "share of deals in which the seat's side declared a contract after the best call and made it, "
                 "of those in which it declared (missing for a pass)",
    "best_score / runner_up_score": "mean net score of the seat's side per deal (its points minus the "
                                    "other side's, score points) after that call",
    "gap": "best minus runner-up, paired, on the half of the deals not used to choose them (odd deal numbers: "
           "no winner's curse), with its 95% interval; p_value = its one-sided p-value; clear = called clear by "
           "Benjamini-Hochberg over the chart's cells at a 2.5% false discovery rate (docs/statistics.md): a clear "
           "cell's gap interval lies above 0",
    "default / default_share": "the call the default (heuristic) strategy makes most often with hands of the "
                               "class, and the share of hands with which it makes it",
    "default_loss": "the best call's score minus that of the default's call (paired, on the held-out half of the "
                    "deals; missing when that call was not a candidate); default_p = its one-sided p-value; "
                    "default_worse = called clear by the same rule as the gap (default_p over the chart's cells)",
    "series / points": "trick table: the denomination and trump fit (H 8 = five hearts opposite three) or NT "
                       "(both hands bal), and the partnership's combined high-card points (declarer + partner)",
    "tricks": "mean tricks taken by the declaring side (from deal records at level 1), with its 95% interval; "
              "same_tricks = share of the first records whose tricks at level 7 were the same as at level 1 "
              "(1 = the default play does not depend on the level, so the tricks hold for every level)",
    "mean_points": "the combined high-card points measured in those records (records = how many)",
    "level / contract / score / diff": "vint_tricks_levels: the level forced (1-7) and the contract (3H = three "
                                       "hearts: nine tricks with hearts trumps; NT no-trump), the declaring side's "
                                       "mean net score per deal, and its paired difference to the best level's",
    "made_L": "share of deals in which the declaring side made a contract at level L (L + 6 tricks)",
    "best_level / stops_paying": "the level with the highest mean net score in that denomination; the lowest "
                                 "level above it whose score is below the best level's with the 95% paired "
                                 "interval excluding 0 (missing: no level above is clearly worse)",
    "_lo / _hi": "95% interval (Wilson for shares, normal for means)",
}


# ----------------------------------------------------------------------------- hand classes
@dataclass(frozen=True)
class Shape:
    """A hand shape as a class clause (docs/conditions.md).

    ``long``: the suits that make the shape (one or two letters, "" for balanced hands and
    support classes); ``length``: the fewest cards the shape promises in each of them.
    """

    name: str
    clause: str
    long: str = ""
    length: int = 0


def balanced() -> Shape:
    return Shape("bal", BALANCED)


def one_suiter(suit: str, lo: int, hi: int | None = None) -> Shape:
    """``lo``..``hi`` cards in ``suit`` (hi None = no upper limit), at most 4 in each other suit."""
    own = f"{suit}={lo}" if hi == lo else f"{suit}>={lo}" if hi is None else f"{suit}={lo}-{hi}"
    name = f"{lo}{suit}" if hi == lo else f"{lo}+{suit}" if hi is None else f"{lo}-{hi}{suit}"
    return Shape(name, ", ".join([own] + [f"{s}<=4" for s in SUITS if s != suit]), suit, lo)


def two_suiter(a: str, b: str) -> Shape:
    """At least five cards in each of ``a`` and ``b``."""
    return Shape(f"5-5 {a}+{b}", f"{a}>=5, {b}>=5", a + b, 5)


def five_plus(suit: str) -> Shape:
    """Five or more cards in ``suit``, nothing said of the others."""
    return Shape(f"5+{suit}", f"{suit}>=5", suit, 5)


def support(suit: str, lo: int, hi: int | None) -> Shape:
    """``lo``..``hi`` cards in partner's suit (hi None = no upper limit)."""
    if hi is None:
        return Shape(f"{suit} {lo}+", f"{suit}>={lo}")
    return Shape(f"{suit} {lo}" if lo == hi else f"{suit} {lo}-{hi}",
                 f"{suit}={lo}" if lo == hi else f"{suit}={lo}-{hi}")


def band_label(band: tuple) -> str:
    lo, hi = band
    return f"{lo}+" if hi is None else f"{lo}-{hi}"


def band_clause(band: tuple) -> str:
    lo, hi = band
    return f"hcp>={lo}" if hi is None else f"hcp={lo}-{hi}"


# ----------------------------------------------------------------------------- calls
def call_rank(call: str) -> int:
    """Order of a bid (1S = 0 … 7NT = 34, docs/RULES.md §2.2); a pass is -1."""
    if call == "P":
        return -1
    return (int(call[0]) - 1) * 5 + DENOMINATIONS.index(call[1:])


def cheapest(denom: str, above: int) -> int:
    """The lowest level at which ``denom`` outranks the bid of rank ``above`` (-1: none yet)."""
    d = DENOMINATIONS.index(denom)
    level = 1
    while (level - 1) * 5 + d <= above:
        level += 1
    return level


def candidates(after: tuple, dealer: int, seat: int, band: tuple, shape: Shape, partner: str = "") -> tuple:
    """The candidate first calls of ``seat`` after the calls ``after`` (from ``dealer``).

    Pass; the cheapest bid in each denomination the opponents have not bid (no cue bids);
    jumps in the shape's long suits (one level; two with six cards; three with seven);
    jumps in partner's denomination ``partner`` (two levels; one after 1NT); 2NT / 3NT-type jumps
    for strong hands (one level with 16+ points, two with 19+; always both when partner has
    bid a suit; after his 1NT his raises are the jumps).  Bids above level 7 are dropped; at
    most :data:`MAX_OPTIONS`, in call order.
    """
    bids = [(i, c) for i, c in enumerate(after) if c != "P"]
    above = max((call_rank(c) for _, c in bids), default=-1)
    theirs = {c[1:] for i, c in bids if (dealer + i) % 2 != seat % 2}
    out = {"P"}

    def add(level, denom):
        if level <= 7:
            out.add(f"{level}{denom}")

    for d in DENOMINATIONS:
        if d not in theirs:
            add(cheapest(d, above), d)
    for s in shape.long:
        base = cheapest(s, above)
        for extra in range(1, 2 + (shape.length >= 6) + (shape.length >= 7)):
            add(base + extra, s)
    if partner:
        base = cheapest(partner, above)
        for extra in range(1, 2 if partner == "NT" else 3):
            add(base + extra, partner)
    lo = band[0]
    nt_jumps = 0 if partner == "NT" else 2 if partner else 2 if lo >= 19 else 1 if lo >= 16 else 0
    for extra in range(1, nt_jumps + 1):
        add(cheapest("NT", above) + extra, "NT")
    calls = sorted(out, key=call_rank)
    if len(calls) > MAX_OPTIONS:
        raise ValueError(f"{len(calls)} candidates for {shape.name} after {after}: at most {MAX_OPTIONS}")
    return tuple(calls)


@dataclass(frozen=True)
class Cell:
    """One question of a chart: ``seat`` holds ``band`` × ``shape``, the calls ``after`` were made
    from ``dealer``, by the callers' strategies with hands that make them; ``others``: optional
    classes of the seats who called before, on top (text, may be "")."""

    chart: str
    after: tuple
    dealer: int
    seat: int
    band: tuple
    shape: Shape
    others: str = ""
    partner: str = ""

    @property
    def where(self) -> str:
        own = f"seat {self.seat}: {band_clause(self.band)}, {self.shape.clause}"
        return f"{self.others}; {own}" if self.others else own

    @property
    def options(self) -> tuple:
        return candidates(self.after, self.dealer, self.seat, self.band, self.shape, self.partner)

    def default_question(self) -> dict:
        """Arguments of the question in which ``seat`` calls as its strategy would (the option
        ``strategy``) after the same calls, with the same implied hands: its call is then call
        ``len(after)`` of each record."""
        return {"seat": self.seat, "options": ["strategy"], "auction": tuple(self.after)}


def rare(band: tuple, shape: Shape) -> bool:
    """Classes left out: about one hand in 2,000 or rarer (they cost too much to deal).

    Measured shares of random hands: 16-18 with a 7-card one-suiter or 5-5 in two given suits
    about 0.0006; 19-21 with 6+ cards or 5-5: 0.0009 and less; 22+ anything but balanced
    0.0006 and less.
    """
    lo = band[0]
    if lo >= 22:
        return shape.name != "bal"
    if lo >= 19:
        return shape.length >= 6 or len(shape.long) == 2
    if lo >= 16:
        return shape.length >= 7 or len(shape.long) == 2
    return False


OPENING_BANDS = [(0, 10), (11, 12), (13, 15), (16, 18), (19, 21), (22, None)]
SECOND_BANDS = [(11, 12), (13, 15), (16, 18), (19, 21), (22, None)]
OVERCALL_BANDS = [(8, 10), (11, 12), (13, 15), (16, None)]
RESPONSE_BANDS = [(0, 5), (6, 9), (10, 12), (13, 15), (16, None)]
TWO_SUITERS = [("S", "H"), ("C", "D"), ("D", "H")]


def opening_shapes() -> list[Shape]:
    shapes = [balanced()]
    for s in SUITS:
        shapes += [one_suiter(s, 5, 5), one_suiter(s, 6, 6), one_suiter(s, 7)]
    return shapes + [two_suiter(a, b) for a, b in TWO_SUITERS]


def compact_shapes(exclude: str = "") -> list[Shape]:
    """Balanced, and a 5-card and a 6+ card one-suiter in each suit but ``exclude``."""
    shapes = [balanced()]
    for s in SUITS:
        if s != exclude:
            shapes += [one_suiter(s, 5, 5), one_suiter(s, 6)]
    return shapes


def chart_cells(quick: bool = False) -> list[Cell]:
    """Every cell of the four charts (``quick``: a few per chart).  Seats: the dealer is seat 0
    for the opening, second-hand and overcall charts (the evaluated seat is 0 or 1); partner
    (seat 2) deals and opens for the response chart (the evaluated seat is 0).  The calls before
    the seat's are made by the default strategy with the hands it makes them with (the calls
    imply the callers' hands, :func:`cardsim.evaluate`), so no class is given for the callers."""
    cells = []
    if quick:
        for band in [(0, 10), (13, 15), (19, 21)]:
            for shape in [balanced(), one_suiter("H", 5, 5), one_suiter("S", 6, 6)]:
                cells.append(Cell("opening", (), 0, 0, band, shape))
        for shape in [balanced(), one_suiter("H", 5, 5)]:
            cells.append(Cell("second", ("P",), 0, 1, (13, 15), shape))
            cells.append(Cell("overcall", ("1S",), 0, 1, (13, 15), shape))
        for band in [(6, 9), (10, 12)]:
            for lo, hi in [(0, 2), (4, None)]:
                cells.append(Cell("response", ("1H", "P"), 2, 0, band, support("H", lo, hi), partner="H"))
        return cells
    for band in OPENING_BANDS:
        cells += [Cell("opening", (), 0, 0, band, s) for s in opening_shapes() if not rare(band, s)]
    for band in SECOND_BANDS:
        cells += [Cell("second", ("P",), 0, 1, band, s) for s in compact_shapes() if not rare(band, s)]
    for opening in ("1S", "1H"):
        suit = opening[1]
        shapes = [balanced()] + [one_suiter(s, 5) for s in SUITS if s != suit]
        cells += [Cell("overcall", (opening,), 0, 1, band, s) for band in OVERCALL_BANDS for s in shapes]
    for opening in ("1S", "1H"):
        suit = opening[1]
        cells += [Cell("response", (opening, "P"), 2, 0, band, support(suit, lo, hi), partner=suit)
                  for band in RESPONSE_BANDS for lo, hi in [(0, 2), (3, 3), (4, None)]]
    cells += [Cell("response", ("1NT", "P"), 2, 0, band, s, partner="NT")
              for band in RESPONSE_BANDS for s in [balanced(), five_plus("S"), five_plus("H")]]
    return cells


# ----------------------------------------------------------------------------- trick table
@dataclass(frozen=True)
class TrickCell:
    """Seat 0 declares a forced contract in ``denom`` at every level 1-7 (the auction skipped);
    seat 0 holds ``points[0]`` (a range) and five trumps, partner (seat 2) ``points[1]`` and
    ``fit - 5`` trumps (NT: both hands bal)."""

    denom: str
    fit: int
    points: tuple

    @property
    def series(self) -> str:
        return "NT" if self.denom == "NT" else f"{self.denom} {self.fit}"

    @property
    def combined(self) -> str:
        (a, b), (c, d) = self.points
        return f"{a + c}-{b + d}"

    @property
    def where(self) -> str:
        (a, b), (c, d) = self.points
        if self.denom == "NT":
            return f"seat 0: hcp={a}-{b}, {BALANCED}; seat 2: hcp={c}-{d}, {BALANCED}"
        return f"seat 0: hcp={a}-{b}, {self.denom}=5; seat 2: hcp={c}-{d}, {self.denom}={self.fit - 5}"

    @property
    def options(self) -> tuple:
        return tuple(f"={level}{self.denom}" for level in range(1, 8))


TRICK_POINTS = [((10, 11), (9, 10)), ((11, 12), (11, 12)), ((13, 14), (12, 13)), ((14, 15), (14, 15))]
"""(declarer, partner) high-card point ranges: combined 19-21, 22-24, 25-27, 28-30.  Stronger
pairs with a given split are too rare to deal by rejection (about 1 deal in 20,000)."""
TRICK_SERIES = [("S", 8), ("H", 8), ("H", 9), ("NT", 0)]
"""Spades and hearts: the cheapest and the dearest suit (docs/RULES.md §2.4); clubs and diamonds take
the same tricks with the default play and score in between."""


def trick_cells(quick: bool = False) -> list[TrickCell]:
    if quick:
        return [TrickCell(d, f, p) for d, f in [("H", 8), ("NT", 0)] for p in (TRICK_POINTS[0], TRICK_POINTS[3])]
    return [TrickCell(d, f, p) for d, f in TRICK_SERIES for p in TRICK_POINTS]


# ----------------------------------------------------------------------------- chart tables
def best_and_gap(df: pd.DataFrame, split: dict) -> dict:
    """The best and runner-up options of one cell and the gap between them.

    ``split``: :func:`cardsim.selection.split_best` of the cell's sums — the best and runner-up
    chosen on half 0 of the deals, ``gap = best - runner-up`` (score points) with its paired 95%
    interval and one-sided ``p_value`` on half 1.  ``df``: the cell's
    :func:`cardsim.questions.table` frame, from which the best's made rate and score and the
    runner-up's score are shown (all deals).  Whether the cell is clear is decided over the
    whole chart (:func:`chart_tables`)."""
    rows = df.set_index("option")
    best, runner = rows.loc[split["best"]], rows.loc[split["runner_up"]]
    # + 0.0: a zero difference prints as 0, not -0.
    return {"best": split["best"], "best_made": best["made"], "best_made_lo": best["made_lo"],
            "best_made_hi": best["made_hi"], "best_score": best["score"], "best_score_lo": best["score_lo"],
            "best_score_hi": best["score_hi"], "runner_up": split["runner_up"], "runner_up_score": runner["score"],
            "gap": split["gain"] + 0.0, "gap_lo": split["gain_lo"] + 0.0, "gap_hi": split["gain_hi"] + 0.0,
            "p_value": float(split["p_value"])}


def default_columns(calls: list[str], sums: dict, options, split: dict) -> dict:
    """The default strategy's most frequent call among ``calls`` (its own first calls with hands
    of the class), its share, and what it loses to the best option (``split["best"]``, chosen on
    half 0): paired, on half 1 of the deals (``sums``, options in the order ``options``), with
    its one-sided ``default_p``.  0 loss and ``default_p`` 1 when the default's call is the best;
    missing when it was not a candidate."""
    out = {"default": "", "default_share": np.nan, "default_loss": np.nan, "default_loss_lo": np.nan,
           "default_loss_hi": np.nan, "default_p": 1.0}
    if not calls:
        return out
    call, count = Counter(calls).most_common(1)[0]
    out.update(default=call, default_share=count / len(calls))
    options = list(options)
    if call == split["best"]:
        out.update(default_loss=0.0, default_loss_lo=0.0, default_loss_hi=0.0)
    elif call in options:
        g = paired(sums, split["best_index"], options.index(call))
        out.update(default_loss=g["mean"] + 0.0, default_loss_lo=g["lo"] + 0.0, default_loss_hi=g["hi"] + 0.0,
                   default_p=g["p_above"])
    return out


def chart_row(cell: Cell, df: pd.DataFrame, calls: list[str], sums: dict) -> dict:
    """One row of a chart table: the cell's labels, then :func:`best_and_gap` and
    :func:`default_columns`.  ``sums``: the cell's :func:`cardsim.questions.run_question` sums
    (options in the order ``cell.options``), ``df`` its table."""
    split = split_best(sums, cell.options)
    head = {"chart": cell.chart, "after": " ".join(cell.after) or "-", "band": band_label(cell.band),
            "shape": cell.shape.name, "long": cell.shape.long, "partner": cell.partner,
            "freq": df.attrs.get("acceptance", np.nan), "n": int(df.n.iloc[0]), "options": len(df)}
    return head | best_and_gap(df, split) | default_columns(calls, sums, cell.options, split)


def chart_tables(rows: list[dict]) -> dict[str, pd.DataFrame]:
    """Chart rows grouped into ``vint_chart_<chart>`` tables, in the order the rows came, with
    the verdicts decided over each chart's cells (:func:`cardsim.analysis.verdicts.chart_clear`):
    ``clear`` from ``p_value``, ``default_worse`` from ``default_p``."""
    frame = pd.DataFrame(rows)
    out = {}
    for chart in dict.fromkeys(frame.chart):
        t = frame[frame.chart == chart].drop(columns="chart").reset_index(drop=True)
        t.insert(t.columns.get_loc("p_value") + 1, "clear", chart_clear(t.p_value.to_numpy()))
        t["default_worse"] = chart_clear(t.default_p.to_numpy())
        out[f"vint_chart_{chart}"] = t
    return out


# ----------------------------------------------------------------------------- trick tables
def stops_paying(levels: pd.DataFrame) -> tuple[int, float]:
    """``(best_level, stops_paying)`` of one denomination from a frame with columns ``level``,
    ``score``, ``diff_hi`` (the paired difference to the best level's score, upper 95% bound).

    best_level = the level of the highest mean score; stops_paying = the lowest level above it
    whose interval lies below 0 (NaN when no level above is clearly worse).  The levels are
    declared with the auction skipped, so each is legal on every deal and the highest mean is the
    first row of the cell's table (:func:`cardsim.ranking.rank`), the level ``diff`` is against."""
    best = int(levels.level.iloc[int(np.argmax(levels.score.to_numpy()))])
    worse = levels[(levels.level > best) & (levels.diff_hi < 0)]
    return best, float(worse.level.min()) if len(worse) else np.nan


def level_rows(cell: TrickCell, df: pd.DataFrame) -> pd.DataFrame:
    """The per-level rows of one trick cell from its evaluate table (levels in order)."""
    t = df.assign(level=[int(o[1]) for o in df.option]).sort_values("level")
    return pd.DataFrame({"series": cell.series, "points": cell.combined, "level": t.level.to_numpy(),
                         "contract": [o[1:] for o in t.option], "n": t.n.to_numpy(), "made": t.made.to_numpy(),
                         "made_lo": t.made_lo.to_numpy(), "made_hi": t.made_hi.to_numpy(),
                         "score": t.score.to_numpy(), "score_lo": t.score_lo.to_numpy(),
                         "score_hi": t.score_hi.to_numpy(), "diff": t["diff"].to_numpy(),
                         "diff_lo": t.diff_lo.to_numpy(), "diff_hi": t.diff_hi.to_numpy()})


def trick_row(cell: TrickCell, levels: pd.DataFrame, tricks: np.ndarray, freq: float) -> dict:
    """One row of ``vint_tricks``: mean tricks of the declaring side (``tricks``: int[m] read
    from records) with a 95% interval, the made rate per level, best level, stops paying."""
    t = np.asarray(tricks, dtype=np.float64)
    mean, _, lo, hi = mean_interval(t.sum(), (t ** 2).sum(), len(t))
    best, stop = stops_paying(levels)
    row = {"series": cell.series, "points": cell.combined, "freq": freq, "n": int(levels.n.iloc[0]),
           "records": len(t), "tricks": float(mean), "tricks_lo": float(lo), "tricks_hi": float(hi)}
    row |= {f"made_{int(lv)}": m for lv, m in zip(levels.level, levels.made)}
    return row | {"best_level": best, "best_score": float(levels.score.max()), "stops_paying": stop}


# ----------------------------------------------------------------------------- the answer
def describe(call: str, long: str, partner: str) -> str:
    """A call in words relative to the hand: pass, a bid of the long suit / partner's suit, or
    the call itself."""
    if call == "P":
        return "pass"
    level, denom = call[0], call[1:]
    if partner and denom == partner:
        return f"{level}NT" if denom == "NT" else f"raise to {call}"
    if denom in long and denom != "NT":
        return f"{level} of the long suit" if len(long) == 1 else f"{level} of a long suit"
    return call


def _band_clause(rows: pd.DataFrame) -> str:
    """"<most frequent best call> with <band> (k of m shapes, c clear[; else <call> ×j, …])"."""
    words = [describe(b, lg, p) for b, lg, p in zip(rows.best, rows.long.fillna(""), rows.partner.fillna(""))]
    counts = Counter(words).most_common()
    top, k = counts[0]
    clear = int(sum(w == top and c for w, c in zip(words, rows.clear)))
    text = f"{top} with {rows.band.iloc[0]} ({k} of {len(rows)} shapes, {clear} clear"
    if len(counts) > 1:
        text += "; else " + ", ".join(f"{w} ×{j}" for w, j in counts[1:])
    return text + ")"


def chart_label(chart: str, after: str) -> str:
    """Who is speaking, in words: "Dealer", "Second hand after 1S", "Responder to partner's 1NT"."""
    bids = [c for c in str(after).split() if c not in ("P", "-")]
    if chart == "response":
        return f"Responder to partner's {bids[0]}"
    if chart == "opening" or not str(after).strip("- "):
        return "Dealer"
    return f"Second hand after {bids[0]}" if bids else "Second hand after a pass"


def _chart_sentences(chart: str, table: pd.DataFrame) -> list[str]:
    out = []
    for after, part in table.groupby("after", sort=False):
        clauses = [_band_clause(rows) for _, rows in part.groupby("band", sort=False)]
        out.append(f"{chart_label(chart, after)}: {'; '.join(clauses)}.")
    return out


def _unclear(tables: dict) -> str:
    rows = [(name, r) for name, t in tables.items() if name.startswith("vint_chart_") for _, r in t.iterrows()]
    if not rows:
        return ""
    unclear = [(n, r) for n, r in rows if not r.clear]
    text = (f"The best call is clear (its gap over the runner-up on deals not used to choose it, 2.5% false "
            f"discovery rate over each chart) in {len(rows) - len(unclear)} of {len(rows)} classes")
    if not unclear:
        return text + "."
    unclear.sort(key=lambda nr: nr[1].gap)
    shown = "; ".join(f"{_where(n, r)}: {r.best} vs {r.runner_up} ({r.gap:+.0f}, {r.gap_lo:+.0f} to "
                      f"{r.gap_hi:+.0f})" for n, r in unclear[:5])
    return text + f"; among the closest calls: {shown}."


def _where(name: str, r) -> str:
    after = "" if r.after in ("-", "") else f" after {r.after}"
    return f"{name.removeprefix('vint_chart_')}{after} {r.band} {r['shape']}"


def _default_sentence(tables: dict) -> str:
    rows = [(name, r) for name, t in tables.items() if name.startswith("vint_chart_") for _, r in t.iterrows()
            if r.default]
    if not rows:
        return ""
    differ = [(n, r) for n, r in rows if r.default != r.best]
    worse = sorted([(n, r) for n, r in differ if r.default_worse], key=lambda nr: -nr[1].default_loss)
    text = (f"The default strategy's usual call differs from the best in {len(differ)} of {len(rows)} classes, "
            f"and is clearly worse in {len(worse)}")
    if worse:
        text += "; the largest losses: " + "; ".join(
            f"{_where(n, r)}: it calls {r.default}, {r.best} gains {r.default_loss:.0f} "
            f"({r.default_loss_lo:.0f} to {r.default_loss_hi:.0f})" for n, r in worse[:4])
    return text + "."


def _trick_sentence(tricks: pd.DataFrame) -> str:
    """Mean tricks, best level and stopping level per series, at each combined-points range."""
    def listed(values, fmt):
        return "/".join("-" if np.isnan(v) else fmt.format(v) for v in values)

    groups = list(tricks.groupby("series", sort=False))
    shared = len({tuple(part.points) for _, part in groups}) == 1
    head = "The declaring side (default play)"
    if shared:
        head += ", at " + "/".join(groups[0][1].points) + " combined points"
    items = []
    for series, part in groups:
        at = "" if shared else " at " + "/".join(part.points) + " points"
        items.append(f"{series}{at}: {listed(part.tricks, '{:.1f}')} tricks, best level "
                     f"{listed(part.best_level.astype(float), '{:.0f}')}, stops paying at level "
                     f"{listed(part.stops_paying.astype(float), '{:.0f}')}")
    return f"{head} (- = no level clearly worse): " + "; ".join(items) + "."


MOVES = 0.5
"""A heat-map cell shows its gap's range across the profiles when the range is wider than this share of the gap."""


def _robust_sentence(tables: dict) -> str:
    """How many chart cells hold under the other player profiles (cardsim.analysis.robustness)."""
    frames = [t for name, t in tables.items() if name.startswith("vint_chart_") and "holds" in t]
    if not frames:
        return ""

    return sentence(pd.concat(frames, ignore_index=True), "best first call", "score points", len(others("vint")))


DETAIL_COLUMNS = ["seat", "points", "best call", "shapes", "clear", "otherwise"]
"""The columns of the "In detail" table (:func:`detail`): one row per chart, calls before and band."""


def _band_row(chart: str, after: str, rows: pd.DataFrame) -> list[str]:
    """One row of :func:`detail`'s table: what :func:`_band_clause` says, in columns."""
    words = [describe(b, lg, p) for b, lg, p in zip(rows.best, rows.long.fillna(""), rows.partner.fillna(""))]
    counts = Counter(words).most_common()
    top, k = counts[0]
    clear = int(sum(w == top and c for w, c in zip(words, rows.clear)))
    return [chart_label(chart, after), str(rows.band.iloc[0]), top, f"{k} of {len(rows)}", str(clear),
            ", ".join(f"{w} ×{j}" for w, j in counts[1:])]


def detail(tables: dict[str, pd.DataFrame]) -> dict:
    """The "In detail" part of the report as a short table and a list (the report renders them;
    :func:`answer` is the same in one paragraph): ``{"tables": [{"title", "columns", "rows"}],
    "items": [sentence, ...]}``.  The table: per chart, calls before and band, the best call most
    shapes get (in words, :func:`describe`), how many shapes get it, how many of those are clear,
    and the other best calls with how many shapes each; the items: how clear the calls are, their
    robustness, where the default strategy disagrees, the declaring side's tricks."""
    rows = []
    for name, table in tables.items():
        if name.startswith("vint_chart_") and len(table):
            chart = name.removeprefix("vint_chart_")
            for after, part in table.groupby("after", sort=False):
                rows += [_band_row(chart, after, band) for _, band in part.groupby("band", sort=False)]
    items = [s for s in (_unclear(tables), _robust_sentence(tables), _default_sentence(tables)) if s]
    if "vint_tricks" in tables and len(tables["vint_tricks"]):
        items.append(_trick_sentence(tables["vint_tricks"]))
    title = ("The best first call most shapes of a band get (shapes: how many of the band's shapes; clear: of "
             "those, how many clearly; otherwise: the other shapes' best calls)")
    return {"tables": [{"title": title, "columns": DETAIL_COLUMNS, "rows": rows}] if rows else [], "items": items}


def answer(tables: dict[str, pd.DataFrame]) -> str:
    """The answer paragraph, generated from the chart tables (``vint_chart_*``) and the trick
    table (``vint_tricks``): the best call per chart and band, how clear it is, where the
    default strategy disagrees, and what each partnership strength takes."""
    parts = []
    for name, table in tables.items():
        if name.startswith("vint_chart_") and len(table):
            parts += _chart_sentences(name.removeprefix("vint_chart_"), table)
    parts += [s for s in (_unclear(tables), _robust_sentence(tables), _default_sentence(tables)) if s]
    if "vint_tricks" in tables and len(tables["vint_tricks"]):
        parts.append(_trick_sentence(tables["vint_tricks"]))
    return " ".join(parts)


# ----------------------------------------------------------------------------- rules of thumb
SUIT_WORDS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no-trump"}
NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def shape_words(shape: str) -> str:
    """A chart's shape label in a player's words: ``bal`` -> 'a balanced hand', ``5H`` -> 'exactly
    five hearts', ``6+H`` -> 'six or more hearts', ``5-5 H+S`` -> 'five or more hearts and spades',
    ``H 0-2`` -> '0-2 hearts' (partner's suit), ``5+S`` -> 'five or more spades'."""
    shape = str(shape)
    if shape == "bal":
        return "a balanced hand"
    m = re.fullmatch(r"5-5 ([SCDH])\+([SCDH])", shape)
    if m:
        return f"five or more {SUIT_WORDS[m[1]]} and {SUIT_WORDS[m[2]]}"
    m = re.fullmatch(r"([SCDH]) (\d)(?:-(\d)|(\+))?", shape)
    if m:
        count = f"{m[2]}-{m[3]}" if m[3] else f"{m[2]}+" if m[4] else m[2]
        return f"{count} {SUIT_WORDS[m[1]]} (partner's suit)"
    m = re.fullmatch(r"(\d)(\+?)([SCDH])", shape)
    if m:
        n = NUMBER_WORDS[int(m[1])]
        return f"{n} or more {SUIT_WORDS[m[3]]}" if m[2] else f"exactly {n} {SUIT_WORDS[m[3]]}"
    return shape


def call_words(call: str) -> str:
    """``P`` -> 'pass', ``2H`` -> 'bid 2H' (the call as the charts write it)."""
    return "pass" if call == "P" else f"bid {call}"


def rules(tables: dict[str, pd.DataFrame]) -> list[dict]:
    """The rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`) from the chart tables: every
    clear cell is a candidate, and every cell whose default call is clearly worse than its best
    (the text then names the runner-up too where it is not clearly worse than the best).  Its
    number is the gain over the call the players themselves make
    where that call is clearly worse (the default strategy's usual call with the class's hands,
    ``default``: ``default_loss`` and its interval), else the gap best minus runner-up (score
    points a deal, 95% interval, on the held-out deals); worth = that gain x freq (score points per
    deal dealt: the gain times the share of deals that bring the situation).  What it settles: the
    call it beats is the default's or a profile's own best (``best_under``, where the robust replay
    wrote it), the best moved from the previous default's; ordered by
    :data:`cardsim.analysis.rules_of_thumb.RULE`, at most two of a chart and calls before
    (:func:`cardsim.analysis.rules_of_thumb.pick`)."""
    out = []
    for name, table in tables.items():
        if not name.startswith("vint_chart_"):
            continue
        chart = name.removeprefix("vint_chart_")
        for i, r in table.reset_index(drop=True).iterrows():
            default = T.call_text(r.get("default"))
            # the players' own call, where it is not the best and clearly worse, is what the rule beats
            own = bool(default and default != T.call_text(r.best) and r.get("default_loss_lo", np.nan) > 0
                       and bool(r.get("default_worse", True)))
            if not r.freq == r.freq or not (own or (bool(r.clear) and r.gap > 0)):
                continue
            who = chart_label(chart, r.after)
            text = f"{who}, {r.band} high-card points, {shape_words(r['shape'])}: {call_words(r.best)}"
            if not (bool(r.clear) and r.gap > 0):  # the best and the runner-up are not clearly apart
                text += f" (or {call_words(r.runner_up).removeprefix('bid ')}: not clearly worse)"
            bests = T.profile_bests(r.get("best_under"))
            compared, columns = ((default, ("default_loss", "default_loss_lo", "default_loss_hi")) if own
                                 else (r.runner_up, ("gap", "gap_lo", "gap_hi")))
            values = tuple(r[c] for c in columns)
            out.append(T.rule("Vint", text, name, i, columns, values,
                              "score points a deal", f"over {call_words(compared).removeprefix('bid ')}",
                              "{:+.0f}", values[0] * r.freq, "score points per deal dealt",
                              "the gain times how often the hand comes (score points per deal dealt)",
                              f"{chart} {r.after}", r, players=T.players_of(compared, default, bests),
                              moved_from=T.moved_from(r.best, bests)))
    return T.pick(out)


# ----------------------------------------------------------------------------- figures
TITLE_WIDTH = 60
"""Characters a line of a heatmap's title (:func:`heatmap` wraps it)."""


def heatmap(table: pd.DataFrame, title: str, path: Path) -> Path:
    """Shapes × bands: the best call written in each cell (``?`` = not clear), coloured by the gap
    to the runner-up (score points)."""
    plt = pyplot()
    bands = list(dict.fromkeys(table.band))
    shapes = list(dict.fromkeys(table["shape"]))
    gap = np.full((len(shapes), len(bands)), np.nan)
    # Wide enough for the title and the colour bar's label even with one band (a small run).
    fig, ax = plt.subplots(figsize=(max(1.2 * len(bands) + 2.5, 6.0), 0.4 * len(shapes) + 1.8))
    for _, r in table.iterrows():
        gap[shapes.index(r["shape"]), bands.index(r.band)] = max(r.gap, 0.0)
    vmax = max(float(np.nanpercentile(gap, 90)) if np.isfinite(gap).any() else 1.0, 1.0)
    im = ax.imshow(gap, cmap="YlGn", vmin=0, vmax=vmax, aspect="auto")
    for _, r in table.iterrows():
        i, j = shapes.index(r["shape"]), bands.index(r.band)
        # White on the darkest greens, where black would not read.
        moves = "gain_min" in r and r.gain_max - r.gain_min > MOVES * max(abs(r.gap), 1.0)
        ax.text(j, i, r.best + ("" if r.clear else "?") + RB.mark(r)
                + (f"\n{r.gain_min:+.0f}..{r.gain_max:+.0f}" if moves else ""), ha="center", va="center",
                fontsize=8 if not moves else 6,
                color="white" if gap[i, j] > 0.6 * vmax else "black")
    ax.set_xticks(range(len(bands)), bands)
    ax.set_yticks(range(len(shapes)), shapes)
    ax.set_xlabel("high-card points")
    # wrapped: a one-line title longer than the axes ran into the colour bar's label; a line
    # never starts with the "=" of "x = y" (no-break spaces: textwrap breaks at ASCII spaces only)
    lines = textwrap.wrap(title.replace(" = ", "\u00a0=\u00a0"), TITLE_WIDTH)
    ax.set_title("\n".join(lines), fontsize=10)
    fig.colorbar(im, ax=ax, label="gap to runner-up (score points)")
    fig.tight_layout()
    save_figure(fig, path, dpi=110, bbox_inches="tight")
    return path


def figures(tables: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """One heatmap per chart and calls before (``vint_chart_<chart>[_<after>].png``), and the
    tricks-vs-points curves (``vint_tricks.png``)."""
    outdir = Path(outdir)
    paths = []
    for name, table in tables.items():
        if not name.startswith("vint_chart_"):
            continue
        for after, part in table.groupby("after", sort=False):
            suffix = "" if after in ("-", "P") else "_" + str(after).replace(" ", "_")
            title = f"Vint {name.removeprefix('vint_chart_')} chart" + ("" if after == "-" else f" after {after}")
            mark = (f", {DEPENDS} = depends on the players, {RB.UNDECIDED} = not decidable under them at this size; "
                    "lo..hi = the gap's range across the player profiles where it moves by more than half"
                    if "holds" in part else "")
            paths.append(heatmap(part, title + f": best first call (? = not clear{mark})",
                                 outdir / f"{name}{suffix}.png"))
    if "vint_tricks" in tables and len(tables["vint_tricks"]):
        paths.append(trick_figure(tables["vint_tricks"], outdir / "vint_tricks.png"))
    return paths


SITUATION_WORDS = {
    "opening": "You deal and make the first call.",
    "second": "The dealer passed (P) and you speak second.",
    "overcall": "The dealer, your right-hand opponent, opened {0} and you speak next.",
    "response": "Partner dealt and opened {0}, your right-hand opponent passed (P), and you answer.",
}
HEATMAP_LEGEND = (
    "A row is your hand's shape, a column your high-card points (ace 4, king 3, queen 2, jack 1). Shapes: bal = "
    "balanced (every suit 2-4 cards); 5H = exactly five hearts and no other suit longer than four; 6S = exactly "
    "six spades and no other suit longer than four; 6+H = six or more hearts and no other suit longer than "
    "four; 5-5 H+S = five or more hearts and five or more spades; H 0-2, H 3, H 4+ = how many cards you hold in "
    "partner's suit; 5+S = five or more spades. In a cell: the best first call (P = pass; 1S = bid one "
    "spade; S spades, C clubs, D diamonds, H hearts, NT no-trump, ranked S < C < D < H < NT); ? = not clearly "
    "better than the next best call; \u2020 = depends on the players: with other players (more cautious or bolder "
    "bidders ...) another call is clearly better; \u00b0 = not decidable with them at this size (no call was seen "
    "better, but one better by the cell's own gap could have gone unseen); lo..hi = the score points a deal the call gains over the "
    "next best one, from the least to the most over the other players (shown where it moves a lot). Colour = that "
    "gain with the default players, score points a deal: the darker, the more the choice matters.")
TRICKS_LEGEND = (
    "Tricks your side takes as declarer against the high-card points you hold together (both hands; ace 4, king "
    "3, queen 2, jack 1). Lines: S 8 = spades trumps, eight between you (five and three); H 8 / H 9 = hearts "
    "trumps, eight / nine between you; NT = no-trump, both hands balanced. The dotted lines at 7 to 13 tricks are "
    "what a contract of level 1 to 7 needs (level + 6 tricks). Bars: 95% intervals.")


def legends(names) -> dict[str, str]:
    """The caption of each figure of :func:`figures` (file names ``names``) in a player's words:
    who calls in which situation, and every abbreviation of the heatmap."""
    out = {}
    for name in names:
        if name == "vint_tricks.png":
            out[name] = TRICKS_LEGEND
            continue
        parts = name.removeprefix("vint_chart_").removesuffix(".png").split("_")
        words = SITUATION_WORDS.get(parts[0])
        if words is not None:
            out[name] = words.format(parts[1] if len(parts) > 1 else "") + " " + HEATMAP_LEGEND
    return out


def trick_figure(tricks: pd.DataFrame, path: Path) -> Path:
    """Mean tricks of the declaring side against combined points, one curve per series, with
    95% intervals; dotted lines at 7 … 13 tricks (levels 1 … 7)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for series, part in tricks.groupby("series", sort=False):
        x = [sum(map(int, p.split("-"))) / 2 for p in part.points]
        ax.errorbar(x, part.tricks, yerr=[part.tricks - part.tricks_lo, part.tricks_hi - part.tricks],
                    marker="o", capsize=3, label=series)
    for t in range(7, 14):
        ax.axhline(t, color="#bbb", lw=0.6, ls=":")
    ax.set_xlabel("combined high-card points (middle of the range)")
    ax.set_ylabel("mean tricks of the declaring side")
    ax.set_title("Vint: tricks by partnership strength (default play, 95% intervals)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    return path
