"""Vint "the score below the line": where the line changes the best call or level, by rubber won and by points.

For a few Vint hands — a first call from the opening chart (:class:`cardsim.analysis.vint.charts.Cell`:
the dealer's class and its candidate calls, the auction then going on by the strategies) and a level
from the trick table (:class:`cardsim.analysis.vint.charts.TrickCell`: a partnership's points and fit,
every contract ``=1X`` … ``=7X`` declared with the auction skipped) — every option is played from a
handful of line states (a clean line; a part-score of 80 below; one game each; 480 below) and
judged twice on the same deals, the rubber then played on by the strategies (the same continuation
for every option, common random numbers):

* by the rubber (``outcome="game"``): the seat's side's share of the rubber's win;
* by points (``outcome="margin"``): its side's points minus the other side's from the deal to the
  rubber's end (docs/RULES.md §2.7), which is what players settle on.

Per cell (hand, state) each judge's best option is chosen on the even-numbered deals and its margin
over its runner-up measured on the odd ones (:func:`cardsim.selection.split_best_ties`: as :func:`cardsim.selection.split_best`,
equal means ordered by the other judge's); a cell is clear
by Benjamini-Hochberg over the table (:func:`cardsim.analysis.verdicts.chart_clear`).  Where the two
judges choose differently, the table gives what the rubber's best gains in rubbers (pp) over the
points' best and what it costs in points, paired on the odd deals.

Every hand has one seed for all states (:func:`task_seed`): the states differ only by the line.
Tasks (hand x state) run on all cores, each kept in the results folder so the same call resumes.
:func:`run_robust` replays each cell's best and runner-up by the rubber under the other player
profiles (docs/profiles.md).

Units: rubber shares 0..1 (``win``), gains in percentage points (``_pp``), points in score points.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.chart_pipeline import seed_of
from cardsim.analysis import robustness as RB, rules_of_thumb as T
from cardsim.analysis.vint import charts as V
from cardsim.analysis.plots import frame_cell, pyplot, save_figure
from cardsim.analysis.verdicts import chart_clear
from cardsim.games import get_game
from cardsim.questions import question, run_question, table
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.selection import half_means, paired, split_best_ties

GAME = "vint"
SEAT = 0
OUTCOMES = ("game", "margin")
STATES = (("clean", (0, 0, 0, 0)), ("part-score 80", (80, 0, 0, 0)), ("game all", (0, 0, 1, 1)),
          ("480 below", (480, 0, 0, 0)))
"""Line states: a name and ``(below0, below1, games0, games1)``, the seat's side first."""
DEALS = 6_000
QUICK_DEALS = 400
SYMBOL = {"S": "\u2660", "C": "\u2663", "D": "\u2666", "H": "\u2665", "NT": "NT"}


@dataclass(frozen=True)
class Hand:
    """One question's hand: ``label`` in words, its ``where`` (docs/conditions.md), ``options`` (first
    calls, or contracts ``=LX`` with the auction skipped), ``dealer`` (None: drawn)."""

    label: str
    where: str
    options: tuple
    dealer: int | None
    kind: str


def opening(band: tuple, shape) -> Hand:
    c = V.Cell("opening", (), 0, 0, band, shape)
    return Hand(f"dealer, {V.band_label(band)} points, {shape.name}", c.where, c.options, c.dealer, "call")


def levels(denom: str, fit: int, points: tuple) -> Hand:
    t = V.TrickCell(denom, fit, points)
    what = "no-trump, both balanced" if denom == "NT" else f"{SYMBOL[denom]} {fit}-card fit"
    return Hand(f"declaring {what}, {t.combined} points together", t.where, t.options, None, "level")


def hands(quick: bool = False) -> list[Hand]:
    """The hands asked about: the dealer's first call with 13-15 and five hearts; the level with a
    heart 8-card fit and 22-24 points together; (full) the level with a spade 8-card fit and 19-21
    together (the part-score zone, where the line matters most), in no-trump with 25-27 and with a
    heart 9-card fit and 28-30 (the slam zone)."""
    out = [opening((13, 15), V.one_suiter("H", 5, 5)), levels("H", 8, V.TRICK_POINTS[1])]
    return out if quick else out + [levels("S", 8, V.TRICK_POINTS[0]), levels("NT", 0, V.TRICK_POINTS[2]),
                                    levels("H", 9, V.TRICK_POINTS[3])]


@dataclass(frozen=True)
class Plan:
    hands: tuple
    deals: int
    states: tuple = STATES


def plan(n: int, quick: bool = False) -> Plan:
    """The report's plan with ``n`` as an upper bound on the deals per cell."""
    return Plan(tuple(hands(quick)), min(n, QUICK_DEALS if quick else DEALS))


def task_seed(seed: int, hand: Hand) -> int:
    """The seed of a hand: the same in every state (the states differ only by the line)."""
    return seed_of(GAME, seed, hand.label, hand.options)


def _question(hand: Hand, deals: int, seed: int, before, outcome: str, strategies=None, options=None):
    return question(GAME, SEAT, list(options or hand.options), n=deals, seed=seed, where=hand.where, dealer=hand.dealer,
                    before=list(before), outcome=outcome, strategies=strategies, chunk_size=max(deals, 1))


def cell_sums(hand: Hand, deals: int, seed: int, before: tuple, strategies=None) -> dict:
    """``{outcome: sums}`` of one hand and line, the same deals judged by each of :data:`OUTCOMES`."""
    return {o: run_question(_question(hand, deals, seed, before, o, strategies), n_jobs=1) for o in OUTCOMES}


def cells(p: Plan) -> list[tuple]:
    return [(h, st) for h in p.hands for st in p.states]


def run(p: Plan, seed: int, n_jobs: int = -1, strategies=None, log=print, results=None) -> dict:
    """Play every cell of ``p`` on all cores; ``results``: a folder keeping each finished cell so the
    same call resumes.  Returns ``{(hand, state): {outcome: sums}}``."""
    tasks = [(h, p.deals, task_seed(seed, h), st[1], strategies) for h, st in cells(p)]
    started = time.time()
    log(f"  Vint score below the line: {len(tasks)} cells (hand x line), {p.deals:,} deals each, judged by "
        "rubber and points")
    store = analysis_store(results, "vint-linescore", cell_sums, tasks=tasks)
    out = dict(zip(cells(p), run_chunks(cell_sums, tasks, [p.deals * 20] * len(tasks), n_jobs, store=store)))
    log(f"    {len(tasks)} cells in {time.time() - started:.0f} s")
    return out


# ---------------------------------------------------------------- tables
def option_words(option: str) -> str:
    """``=3H`` -> ``3♥``, ``1NT`` -> ``1NT``, ``P`` -> ``pass``."""
    o = option.lstrip("=")
    return "pass" if o == "P" else o[0] + SYMBOL.get(o[1:], o[1:])


LEVEL_COLUMNS = ["hand", "state", "below0", "below1", "games0", "games1", "option", "deals", "win", "win_lo", "win_hi",
                 "points", "points_lo", "points_hi", "made", "made_lo", "made_hi", "win_half0", "points_half0"]


def level_rows(cell: tuple, sums: dict) -> pd.DataFrame:
    hand, (name, before) = cell
    q = {o: _question(hand, 1, 0, before, o) for o in OUTCOMES}
    t = {o: table(q[o], sums[o]).set_index("option").loc[list(hand.options)] for o in OUTCOMES}
    g, m = t["game"], t["margin"]
    return pd.DataFrame({
        "hand": hand.label, "state": name, "below0": before[0], "below1": before[1], "games0": before[2],
        "games1": before[3], "option": [option_words(o) for o in hand.options], "deals": g["n"].to_numpy(),
        "win": g.score.to_numpy(), "win_lo": np.clip(g.score_lo.to_numpy(), 0, 1),
        "win_hi": np.clip(g.score_hi.to_numpy(), 0, 1), "points": m.score.to_numpy(),
        "points_lo": m.score_lo.to_numpy(), "points_hi": m.score_hi.to_numpy(), "made": g.made.to_numpy(),
        "made_lo": g.made_lo.to_numpy(), "made_hi": g.made_hi.to_numpy(),
        "win_half0": half_means(sums["game"])[0], "points_half0": half_means(sums["margin"])[0]})[LEVEL_COLUMNS]


BEST_COLUMNS = ["hand", "state", "below0", "below1", "games0", "games1", "deals", "best", "win", "win_lo", "win_hi",
                "runner_up", "margin_pp", "margin_lo", "margin_hi", "p_value", "clear", "points_best", "points",
                "points_lo", "points_hi", "points_runner_up", "points_gap", "points_gap_lo", "points_gap_hi",
                "points_p", "points_clear", "disagree", "gain_pp", "gain_lo", "gain_hi", "cost", "cost_lo",
                "cost_hi"]


def best_row(cell: tuple, sums: dict, lv: pd.DataFrame) -> dict:
    hand, (name, before) = cell
    opts = list(hand.options)
    g, m = split_best_ties(sums["game"], sums["margin"], opts), split_best_ties(sums["margin"], sums["game"], opts)
    b, pb = g["best_index"], m["best_index"]
    row = {"hand": hand.label, "state": name, "below0": before[0], "below1": before[1], "games0": before[2],
           "games1": before[3], "deals": int(lv.deals.iloc[0]), "best": option_words(opts[b]), "win": lv.win.iloc[b],
           "win_lo": lv.win_lo.iloc[b], "win_hi": lv.win_hi.iloc[b], "runner_up": option_words(g["runner_up"]),
           "margin_pp": 100 * g["gain"], "margin_lo": 100 * g["gain_lo"], "margin_hi": 100 * g["gain_hi"],
           "p_value": g["p_value"], "points_best": option_words(opts[pb]), "points": lv.points.iloc[pb],
           "points_lo": lv.points_lo.iloc[pb], "points_hi": lv.points_hi.iloc[pb],
           "points_runner_up": option_words(m["runner_up"]), "points_gap": m["gain"], "points_gap_lo": m["gain_lo"],
           "points_gap_hi": m["gain_hi"], "points_p": m["p_value"], "disagree": bool(b != pb)}
    if b != pb:
        gain, cost = paired(sums["game"], b, pb), paired(sums["margin"], pb, b)
        row.update(gain_pp=100 * gain["mean"], gain_lo=100 * gain["lo"], gain_hi=100 * gain["hi"],
                   cost=cost["mean"], cost_lo=cost["lo"], cost_hi=cost["hi"])
    else:
        row.update(gain_pp=0.0, gain_lo=0.0, gain_hi=0.0, cost=0.0, cost_lo=0.0, cost_hi=0.0)
    return row


def tables(merged: dict, robust=None) -> dict[str, pd.DataFrame]:
    """``vint_linescore`` (one row per hand and line: :data:`BEST_COLUMNS`), ``vint_linescore_grid``
    (hands by line: the rubber's best, ``*`` not clear, ``(points: X)`` where the points choose
    otherwise) and ``vint_linescore_levels`` (every option of every cell, CSV only).  ``robust``: a
    callable turning ``vint_linescore`` into the same with the robustness columns (:func:`run_robust`)."""
    levels_, rows = [], []
    for cell, sums in merged.items():
        lv = level_rows(cell, sums)
        levels_.append(lv)
        rows.append(best_row(cell, sums, lv))
    best = pd.DataFrame(rows)
    best["clear"] = chart_clear(best.p_value.to_numpy())
    best["points_clear"] = chart_clear(best.points_p.to_numpy())
    best = best[BEST_COLUMNS]
    if robust is not None:
        best = robust(best)
    return {"vint_linescore": best, "vint_linescore_grid": grid(best),
            "vint_linescore_levels": pd.concat(levels_, ignore_index=True)}


def cell_words(r) -> str:
    return (f"{r.best}{'' if r.clear else '*'}{RB.DEPENDS if RB.depends(r) else ''}"
            + (f" (points: {r.points_best}{'' if r.points_clear else '*'})" if r.disagree else ""))


def grid(best: pd.DataFrame) -> pd.DataFrame:
    w = best.assign(cell=[cell_words(r) for _, r in best.iterrows()])
    return w.pivot_table(index="hand", columns="state", values="cell", aggfunc="first", sort=False).reset_index()


# ---------------------------------------------------------------- answer
def _pp(x: float) -> str:
    return f"{x:+.1f}"


def _line(r) -> str:
    if r.state == "clean":
        return "on a clean line"
    return f"at {r.state} ({r.below0}-{r.below1} below, games {r.games0}-{r.games1})"


def cell_answer(r) -> str:
    """One cell of the answer, from a row ``r`` of the ``vint_linescore`` table: the hand and line,
    the best call for the rubber (its share of rubbers) and for points (points a deal), and where
    they differ what the rubber's choice wins (pp of rubbers, with its interval) and costs in
    points."""
    text = (f"{_line(r)}: {r.best} for the rubber ({100 * r.win:.0f}%{'' if r.clear else ', not clearly'}), "
            f"{r.points_best} for points ({r.points:+.0f}{'' if r.points_clear else ', not clearly'})")
    if r.disagree:
        text += (f" — {r.best} wins {_pp(r.gain_pp)} pp of rubbers [{_pp(r.gain_lo)}, {_pp(r.gain_hi)}] and costs "
                 f"{r.cost:.0f} points [{r.cost_lo:.0f}, {r.cost_hi:.0f}]")
    return text


def answer(best: pd.DataFrame) -> str:
    """The section's answers, every number read from ``vint_linescore``."""
    if best.empty:
        return ""
    n = int(best.disagree.sum())
    sure = int((best.disagree & (best.gain_lo > 0) & (best.cost_lo > 0)).sum())
    clean = best[best.state == STATES[0][0]].set_index("hand")
    away = best[(best.state != STATES[0][0]) & best.hand.isin(clean.index)]
    by_rubber = int((away.best.to_numpy() != clean.best.reindex(away.hand).to_numpy()).sum())
    by_points = int((away.points_best.to_numpy() != clean.points_best.reindex(away.hand).to_numpy()).sum())
    parts = [f"Away from a clean line the score changes the best call or level in {by_rubber} of {len(away)} "
             f"hand-and-line cells by the rubber and in {by_points} by points."] if len(away) else []
    parts += [f"Rubber won and points choose differently in {n} of {len(best)} hand-and-line cells; in {sure} both "
             "sides of the disagreement are clear (the rubber's choice wins more rubbers and the points' choice more "
             "points, 95% intervals on deals not used to choose)."]
    for hand, g in best.groupby("hand", sort=False):
        changes = g[g.best != g.best.iloc[0]]
        moved = (f"the line changes the rubber's best in {len(changes)} of {len(g) - 1} lines" if len(g) > 1 else "")
        parts.append(f"With {hand}: " + "; ".join(cell_answer(r) for _, r in g.iterrows())
                     + (f" ({moved})." if moved else "."))
    if "holds" in best:
        parts.append(RB.sentence(best[best.robust_deals > 0], "rubber's best", "pp of rubbers", len(RB.others(GAME))))
    else:
        parts.append("Not replayed under other players.")
    return " ".join(parts)


# ---------------------------------------------------------------- under other players
def _robust_sums(hand: Hand, options: tuple, deals: int, seed: int, before: tuple, strategies,
                 outcome: str = "game") -> dict:
    return run_question(_question(hand, deals, seed, before, outcome, strategies, options), n_jobs=1)


POINTS_COLUMNS = ["points_" + c for c in RB.PAIR_COLUMNS if c != "robust_deals"]
"""The robustness columns of the points' best (``points_holds`` …): its replay by points."""


def run_robust(p: Plan, best: pd.DataFrame, seed: int, n_jobs: int = -1, log=print, results=None,
               profiles=None) -> pd.DataFrame:
    """Each cell's best option by the rubber and its runner-up replayed under every other player
    profile (:mod:`cardsim.analysis.robustness`) on the cell's first deals
    (:func:`cardsim.analysis.robustness.robust_deals`: the same deals and strategy randomness as its own
    run), and the same for the best by points and its runner-up, judged by points.  Returns ``best``
    with the robustness columns (gains in pp of rubbers) and :data:`POINTS_COLUMNS` (gains in points)."""
    profiles = RB.others(GAME) if profiles is None else list(profiles)
    base = [get_game(GAME).table.default_strategy] * 4
    deals = RB.robust_deals(p.deals)
    pairs, tasks = [], []
    for (h, st), r in zip(cells(p), best.itertuples()):
        raw = {option_words(o): o for o in h.options}
        opts = (raw[r.best], raw[r.runner_up])
        by_points = (raw[r.points_best], raw[r.points_runner_up])
        pairs.append((opts, by_points))
        for pr in profiles:
            tasks += [(h, opts, deals, task_seed(seed, h), st[1], pr.strategies(base, SEAT), "game"),
                      (h, by_points, deals, task_seed(seed, h), st[1], pr.strategies(base, SEAT), "margin")]
    log(f"  under other players: {len(pairs)} cells x {len(profiles)} profiles "
        f"({', '.join(pr.name for pr in profiles)}) x 2 options x (rubber, points), {deals:,} deals")
    store = analysis_store(results, "vint-linescore-robust2", _robust_sums, tasks=tasks)
    sums_of = iter(run_chunks(_robust_sums, tasks, [deals * 8] * len(tasks), n_jobs, store=store))
    rows, point_rows = [], []
    for (opts, by_points), r in zip(pairs, best.itertuples()):
        game, points = {}, {}
        for pr in profiles:
            game[pr.name] = RB.summary(next(sums_of), list(opts), opts[0], scale=100.0)
            points[pr.name] = RB.summary(next(sums_of), list(by_points), by_points[0])
        rows.append(RB.cell_columns(float(r.margin_pp), game, deals))
        point_rows.append(RB.cell_columns(float(r.points_gap), points, deals))
    out = RB.with_columns(best, rows)
    for col in POINTS_COLUMNS:
        out[col] = [row[col[len("points_"):]] for row in point_rows]
    return out


def points_verdict_row(r) -> dict:
    """The robustness of a row's best by points in the shape :mod:`cardsim.analysis.rules_of_thumb`
    reads (``holds``, ``flips_under``, ``gain_min``, ``gain_max``, ``robust_deals``); ``{}`` (not
    replayed) without :data:`POINTS_COLUMNS`."""
    get = r.get if hasattr(r, "get") else lambda k, d=None: getattr(r, k, d)
    if get("points_holds", None) is None:
        return {}
    return {c: get(f"points_{c}") for c in RB.PAIR_COLUMNS if c != "robust_deals"} | {"robust_deals": get("robust_deals")}


# ---------------------------------------------------------------- rules of thumb
RULES_NONE = ("In this run no line clearly changes a hand's best call or level by points from the clean line's (more "
              "deals narrow the intervals); see the section")
"""The Answers' words where :func:`rules` finds none (the report adds the section's title)."""


def rules(best: pd.DataFrame) -> list[dict]:
    """Rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`), by points (what players settle on):
    each cell away from a clean line whose best by points is clear and differs from the same hand's
    best on a clean line — where the score below the line changes the call or level.  Its number:
    the points' gain over the runner-up per deal (score points, 95% interval, on deals not used to
    choose); worth = that gain; the verdict from the points' replay under the other profiles."""
    out = []
    best = best.reset_index(drop=True)
    clean = {r.hand: r.points_best for r in best.itertuples() if r.state == STATES[0][0]}
    for i, r in best.iterrows():
        if r.state == STATES[0][0] or not (r.points_clear and r.points_gap_lo > 0):
            continue
        if clean.get(r.hand) in (None, r.points_best):
            continue
        text = f"{r.hand[0].upper()}{r.hand[1:]}, {_line(r)}: {r.points_best} (on a clean line {clean[r.hand]})"
        out.append(T.rule("Vint", text, "vint_linescore", i, ("points_gap", "points_gap_lo", "points_gap_hi"),
                          (r.points_gap, r.points_gap_lo, r.points_gap_hi), "points",
                          f"over {r.points_runner_up}", "{:+.0f}", r.points_gap, "score points per deal",
                          "the gain in points per deal", r.hand, points_verdict_row(r),
                          holds_prefix="points_"))
    return T.pick(out)


# ---------------------------------------------------------------- figure
LEGENDS = {
    "vint_linescore.png": (
        "The call or level by the line, for a few hands (rows) and lines (columns: points below the line and "
        "games won, your side's first). In a cell: the choice that wins the most rubbers (the rubber played on to "
        "its end) and that share; * = the next best is not clearly worse; \u2020 = another kind of player makes "
        "the next best clearly better; a black frame and 'points: X' = judged by points to the rubber's end, X is "
        "best instead."),
}


def figures(best: pd.DataFrame, outdir: Path, name: str = "vint_linescore.png") -> list[Path]:
    plt = pyplot()

    if best.empty:
        return []
    hands_ = list(dict.fromkeys(best.hand))
    states = list(dict.fromkeys(best.state))
    fig, ax = plt.subplots(figsize=(2.3 * len(states) + 3.5, 0.9 * len(hands_) + 1.6))
    values = np.full((len(hands_), len(states)), np.nan)
    for _, r in best.iterrows():
        y, x = hands_.index(r.hand), states.index(r.state)
        values[y, x] = r.win
        mark = ("" if r.clear else "*") + (RB.DEPENDS if RB.depends(r) else "")
        text = f"{r.best}{mark}\n{100 * r.win:.0f}%" + (f"\npoints: {r.points_best}" if r.disagree else "")
        ax.text(x, y, text, ha="center", va="center", fontsize=8)
        if r.disagree:
            frame_cell(ax, x, y)
    ax.imshow(values, cmap="Blues", vmin=0, vmax=1.4, aspect="auto")
    ax.set_xticks(range(len(states)), [f"{s}\n{r.below0}-{r.below1}, games {r.games0}-{r.games1}"
                                       for s, r in best.groupby("state", sort=False).first().iterrows()], fontsize=8)
    ax.set_yticks(range(len(hands_)), [h.replace(", ", ",\n", 1) for h in hands_], fontsize=8)
    ax.set_title("Vint: the choice that wins the most rubbers, by the line (shade: that share)", fontsize=10)
    fig.tight_layout()
    return [save_figure(fig, Path(outdir) / name)]


GLOSSARY = {
    "hand": "the seat's hand: a dealer's class and its first call (the auction then goes on by the strategies), or a "
            "partnership's points and fit and the level declared with the auction skipped (the trick table's cells)",
    "state, below0, below1, games0, games1": "the line before the deal: points below it and games won, the seat's side "
                                             "first (docs/RULES.md §2.7)",
    "best / win": "the option with the highest share of rubbers won on the even-numbered deals, and that share "
                  "(all deals, 95% interval)",
    "runner_up / margin_pp": "the second option by rubbers on the even deals; best minus it in pp of rubbers on the "
                             "odd deals (paired, 95% interval); p_value one-sided; clear = Benjamini-Hochberg over the "
                             "table at 2.5%",
    "points_best / points": "the option with the highest mean points to the rubber's end (the side's minus the other "
                            "side's, from this deal on), and that mean with its 95% interval",
    "points_runner_up / points_gap": "the same for points: the runner-up and the gap in points (odd deals), "
                                     "points_p, points_clear",
    "disagree": "rubber and points choose different options",
    "gain_pp / cost": "where they disagree: the rubber's choice minus the points' choice in pp of rubbers, and the "
                      "points' choice minus the rubber's in points (odd deals, paired, 95% intervals)",
    "points_holds / points_flips_under": "the same replay for the best by points against its runner-up, judged by "
                                         "points (points_gain_min / points_gain_max: the gap's range in points)",
    "_lo / _hi": "95% interval (normal; a share's clipped to 0..1)",
}
NOTES = [
    "After the deal the rubber is played on by the default strategies, the same continuation for every option "
    "(common random numbers); they do not read the line.",
    "Below the line every trick counts (both sides, made or failed, docs/RULES.md §2.5), at a value that grows with "
    "the contract's level: a high contract carries a side over 500 sooner even when it fails, which is why the "
    "rubber and the points can choose differently.",
]
METHOD = ("Vint score below the line: for a few hands (a dealer's first call; a partnership's level declared with "
          "the auction skipped) every option is played from four lines (clean, a part-score of 80 below, one game "
          "each, 480 below), the rubber played on by the strategies, and judged by the side's share of rubbers won "
          "and by its points to the rubber's end on the same deals. Each judge's best is chosen on the even-numbered "
          "deals and compared on the odd ones (paired, 95% intervals); clear by Benjamini-Hochberg over the cells. "
          "The best and runner-up by the rubber, and by points, are replayed under the other player profiles on the "
          "first quarter of the deals (at least 100). The Answers' rules for Vint's line are by points (what players "
          "settle on): the cells where the line changes the best call or level from the clean line's.")
