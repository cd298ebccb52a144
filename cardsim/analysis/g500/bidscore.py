"""Five Hundred "bid to the score": the best level for a holding by score state, judged by games won.

For a few classes of the declarer's holding before the kitty (:class:`cardsim.analysis.g500.guide.Holding`:
hearts trumps and top trumps, as in the bid guide) every contract ``=6H`` … ``=10H`` is played with
the auction skipped (as in the guide) from a handful of score states — 0-0, ahead near the target,
behind near it, both near it — under both scorings, and judged twice on the same deals:

* by the game (``outcome="game"``): the deal is played, then the game goes on to its target by
  the strategies, its later deals the same for every level (common random numbers); the score is
  the declaring side's share of the game's win;
* by the deal (``outcome="deal"``): the deal's points, the declaring side's change minus the
  defenders' (the guide's measure).

Per cell (class, scoring, target, state) the best level by the game is chosen on the even-numbered
deals and its margin over the runner-up measured on the odd ones (:func:`cardsim.selection.split_best_ties`: as
:func:`cardsim.selection.split_best`, levels winning as many games ordered by the deal's points; no
winner's curse), a cell called clear by Benjamini-Hochberg over the table's cells
(:func:`cardsim.analysis.verdicts.chart_clear`); the per-deal best is chosen the same way from the
deal's points, and where the two differ the table gives what the game's best gains in games over the
per-deal best (percentage points) and what it costs in points a deal, both on the odd deals, paired.

The classes are dealt exactly as the guide deals them (its strata, :meth:`Holding.strata`), with the
guide's seeds (:func:`cardsim.analysis.chart_pipeline.task_seed` of the class and stratum): the same
deals in every state and both scorings, so states differ only by the score.  Runs through the public question API
(:mod:`cardsim.questions`), every stratum and cell a task on all cores, each finished task kept in
the results folder (:func:`cardsim.runner.store.analysis_store`) so the same call resumes.

Units: game shares 0..1 (tables: ``win``), gains in percentage points of games won (``_pp``), deal
scores in points a deal.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.g500 import guide as G
from cardsim.analysis import rules_of_thumb as T
from cardsim.analysis import robustness as RB
from cardsim.analysis.chart_pipeline import task_seed
from cardsim.analysis.plots import frame_cell, pyplot, save_figure
from cardsim.analysis.robustness import others, sentence
from cardsim.analysis.verdicts import chart_clear
from cardsim.games import get_game
from cardsim.questions import question, run_question, table
from cardsim.runner.store import analysis_store, run_chunks
from cardsim.selection import half_means, paired, split_best_ties

GAME = G.GAME
SEAT = G.SEAT
SCORINGS = G.SCORINGS
STATES = (("0-0", 0.0, 0.0), ("ahead", 0.8, 0.2), ("behind", 0.2, 0.8), ("both near", 0.8, 0.8))
"""The score states: a name and both teams' scores as shares of the target (the declarer's team first)."""
TARGETS = (500, 1000)
"""The game's targets (docs/RULES.md §3.6); the quick plan plays to 500 only."""
DEALS = 20_000
QUICK_DEALS = 600


def holdings(quick: bool = False) -> list:
    """The classes asked about: hearts with 5 trumps and 2 of the top five (a marginal 6-7 bid), 6 trumps
    with 3 top (the guide's 8♥ hand), 7 trumps with 4 top (a 9-10 hand); ``quick``: the first two."""
    h = [G.Holding(G.GUIDE_SUIT, 5, 2), G.Holding(G.GUIDE_SUIT, 6, 3), G.Holding(G.GUIDE_SUIT, 7, 4)]
    return h[:2] if quick else h


@dataclass(frozen=True)
class Plan:
    """What one run plays: classes, states (name, share of the target for each team), scorings,
    targets and deals per class (split over its strata)."""

    holdings: tuple
    deals: int
    states: tuple = STATES
    scorings: tuple = SCORINGS
    targets: tuple = TARGETS


def plan(n: int, quick: bool = False) -> Plan:
    """The report's plan with ``n`` as an upper bound on the deals per class (``quick``: two classes,
    to 500 only, at most QUICK_DEALS)."""
    if quick:
        return Plan(tuple(holdings(True)), min(n, QUICK_DEALS), targets=TARGETS[:1])
    return Plan(tuple(holdings()), min(n, DEALS))


def scores(state: tuple, target: int) -> tuple[int, int]:
    """``(s0, s1)`` points of a :data:`STATES` entry at ``target``."""
    _, a, b = state
    return int(round(a * target)), int(round(b * target))


def cells(p: Plan) -> list[tuple]:
    """``(holding, scoring, target, state)`` of every cell of plan ``p``, in table order."""
    return [(h, sc, t, st) for h in p.holdings for sc in p.scorings for t in p.targets for st in p.states]


def _question(holding, given, deals, seed, scoring, target, before, outcome, strategies=None, options=None):
    return question(GAME, SEAT, list(options or holding.options()), n=deals, seed=seed, hand=given or None,
                    where=holding.where(), strategies=strategies, rules={"scoring": scoring, "target": target},
                    before=list(before), outcome=outcome, chunk_size=max(deals, 1))


def stratum_sums(holding, given: str, deals: int, seed: int, scoring: str, target: int, before: tuple,
                 strategies=None, options=None) -> dict:
    """One stratum of one cell: ``{"game": sums, "deal": sums}`` (:func:`cardsim.questions.run_question`)
    of the same deals judged by the game's win and by the deal's points."""
    return {o: run_question(_question(holding, given, deals, seed, scoring, target, before, o, strategies, options),
                            n_jobs=1) for o in ("game", "deal")}


def _merge(parts: list[dict]) -> dict:
    return {key: sum(p[key] for p in parts) for key in parts[0]}


def _tasks(p: Plan, seed: int, strategies=None) -> list[tuple]:
    out = []
    for h, sc, t, st in cells(p):
        strata = h.strata()
        per = -(-p.deals // len(strata))
        out += [(h, given, per, task_seed(seed, h, i), sc, t, scores(st, t), strategies)
                for i, given in enumerate(strata)]
    return out


LEVEL_COLUMNS = ["holding", "trumps", "top", "share", "scoring", "target", "state", "s0", "s1", "level", "deals",
                 "win", "win_lo", "win_hi", "made", "made_lo", "made_hi", "score", "score_lo", "score_hi",
                 "win_half0", "score_half0"]


def run(p: Plan, seed: int, n_jobs: int = -1, strategies=None, log=print, results=None) -> dict:
    """Play every cell of plan ``p`` on all cores (``n_jobs``); ``results``: a folder keeping each
    finished stratum so the same call resumes.  Returns ``{cell: {"game": sums, "deal": sums}}``
    (cells as :func:`cells` gives them), the strata merged."""
    tasks = _tasks(p, seed, strategies)
    started = time.time()
    log(f"  Five Hundred bid to the score: {len(cells(p))} cells (class x scoring x target x state), "
        f"{len(tasks)} strata, {p.deals:,} deals per class, 5 levels judged by game and deal")
    store = analysis_store(results, "500-bidscore", stratum_sums, tasks=tasks)
    out = run_chunks(stratum_sums, tasks, [t[2] * 6 for t in tasks], n_jobs, store=store)
    merged = {}
    for cell in cells(p):
        parts = [next(out) for _ in cell[0].strata()]
        merged[cell] = {o: _merge([x[o] for x in parts]) for o in ("game", "deal")}
    log(f"    {len(tasks)} strata in {time.time() - started:.0f} s")
    return merged


# ---------------------------------------------------------------- tables
def level_label(level: int) -> str:
    """A bid level of the guide's suit (:data:`cardsim.analysis.g500.guide.GUIDE_SUIT`, hearts) as
    the tables and answers write it: ``8`` → ``8♥``."""
    return f"{int(level)}{G.SYMBOL[G.GUIDE_SUIT]}"


def _level_of(option: str, denom: str) -> int:
    return int(option[1:-len(denom)])


def level_rows(cell: tuple, sums: dict, strategies=None) -> pd.DataFrame:
    """The :data:`LEVEL_COLUMNS` rows of one cell: every level's game share and deal score."""
    h, sc, t, st = cell
    s0, s1 = scores(st, t)
    qg = _question(h, h.strata()[0], 1, 0, sc, t, (s0, s1), "game", strategies)
    qd = _question(h, h.strata()[0], 1, 0, sc, t, (s0, s1), "deal", strategies)
    g, d = table(qg, sums["game"]), table(qd, sums["deal"])
    g = g.set_index("option").loc[list(qg.options)]
    d = d.set_index("option").loc[list(qd.options)]
    return pd.DataFrame({
        "holding": h.label(), "trumps": h.trumps_label, "top": h.top, "share": h.share(), "scoring": sc,
        "target": t, "state": st[0], "s0": s0, "s1": s1, "level": [_level_of(o, h.denom) for o in qg.options],
        "deals": g["n"].to_numpy(), "win": g.score.to_numpy(), "win_lo": np.clip(g.score_lo.to_numpy(), 0, 1),
        "win_hi": np.clip(g.score_hi.to_numpy(), 0, 1), "made": d.made.to_numpy(), "made_lo": d.made_lo.to_numpy(),
        "made_hi": d.made_hi.to_numpy(), "score": d.score.to_numpy(), "score_lo": d.score_lo.to_numpy(),
        "score_hi": d.score_hi.to_numpy(), "win_half0": half_means(sums["game"])[0],
        "score_half0": half_means(sums["deal"])[0]})[LEVEL_COLUMNS]


BEST_COLUMNS = ["holding", "trumps", "top", "share", "scoring", "target", "state", "s0", "s1", "deals",
                "best", "win", "win_lo", "win_hi", "runner_up", "margin_pp", "margin_lo", "margin_hi", "p_value",
                "clear", "deal_best", "deal_score", "differs", "gain_pp", "gain_lo", "gain_hi", "cost", "cost_lo",
                "cost_hi"]


def best_row(cell: tuple, sums: dict, levels: pd.DataFrame) -> dict:
    """One row of ``g500_bidscore`` (:data:`BEST_COLUMNS` but ``clear``) from a cell's sums and its
    level rows: the best level by the game and its margin over the runner-up (pp, odd deals), the
    per-deal best, and where they differ the game's best minus the per-deal best in games (pp)
    and in points a deal (``cost``: per-deal best minus game's best, what bidding to the score costs)."""
    h, sc, t, st = cell
    opts = list(h.options())
    game, deal = split_best_ties(sums["game"], sums["deal"], opts), split_best_ties(sums["deal"], sums["game"], opts)
    b, r, db = game["best_index"], game["runner_up_index"], deal["best_index"]
    lv = levels.set_index("level")
    best_level, deal_level = _level_of(opts[b], h.denom), _level_of(opts[db], h.denom)
    row = {"holding": h.label(), "trumps": h.trumps_label, "top": h.top, "share": h.share(), "scoring": sc,
           "target": t, "state": st[0], "s0": lv.s0.iloc[0], "s1": lv.s1.iloc[0], "deals": int(lv.deals.iloc[0]),
           "best": best_level, "win": lv.win[best_level], "win_lo": lv.win_lo[best_level],
           "win_hi": lv.win_hi[best_level], "runner_up": _level_of(opts[r], h.denom),
           "margin_pp": 100 * game["gain"], "margin_lo": 100 * game["gain_lo"], "margin_hi": 100 * game["gain_hi"],
           "p_value": game["p_value"], "deal_best": deal_level, "deal_score": lv.score[deal_level],
           "differs": bool(b != db)}
    if b != db:
        gain, cost = paired(sums["game"], b, db), paired(sums["deal"], db, b)
        row.update(gain_pp=100 * gain["mean"], gain_lo=100 * gain["lo"], gain_hi=100 * gain["hi"],
                   cost=cost["mean"], cost_lo=cost["lo"], cost_hi=cost["hi"])
    else:
        row.update(gain_pp=0.0, gain_lo=0.0, gain_hi=0.0, cost=0.0, cost_lo=0.0, cost_hi=0.0)
    return row


def tables(merged: dict, strategies=None, robust=None) -> dict[str, pd.DataFrame]:
    """The section's tables from :func:`run`'s sums: ``g500_bidscore`` (one row per cell:
    :data:`BEST_COLUMNS`, plus the robustness columns when ``robust`` — a callable turning that
    table into the same with them — is given), ``g500_bidscore_grid`` (class and scoring by state: the
    game's best level, ``*`` where not clear, ``(deal: 8♥)`` where the per-deal best differs) and
    ``g500_bidscore_levels`` (every level of every cell)."""
    levels, rows = [], []
    for cell, sums in merged.items():
        lv = level_rows(cell, sums, strategies)
        levels.append(lv)
        rows.append(best_row(cell, sums, lv))
    best = pd.DataFrame(rows)
    best.insert(best.columns.get_loc("p_value") + 1, "clear", chart_clear(best.p_value.to_numpy()))
    best = best[BEST_COLUMNS]
    if robust is not None:
        best = robust(best)
    return {"g500_bidscore": best, "g500_bidscore_grid": grid(best),
            "g500_bidscore_levels": pd.concat(levels, ignore_index=True)}


def cell_words(r) -> str:
    """A grid cell: the game's best level, ``*`` where it is not clearly best, the per-deal best where
    it differs."""
    text = level_label(r.best) + ("" if r.clear else "*") + (RB.DEPENDS if RB.depends(r) else "")
    return text + (f" (deal: {level_label(r.deal_best)})" if r.differs else "")


def grid(best: pd.DataFrame) -> pd.DataFrame:
    """Class, scoring and target (rows) by state (columns, by name: the scores are shares of the
    target, :data:`STATES`): :func:`cell_words` of each cell."""
    out = best.assign(cell=[cell_words(r) for _, r in best.iterrows()])
    w = out.pivot_table(index=["holding", "scoring", "target"], columns="state", values="cell", aggfunc="first",
                        sort=False)
    return w.reset_index().fillna("")


# ---------------------------------------------------------------- answer
def _pp(x: float) -> str:
    return f"{x:+.1f}"


def _state(r) -> str:
    return f"{r.s0}-{r.s1}" + ("" if r.state == "0-0" else f" ({r.state})")


def cell_answer(r) -> str:
    """One cell of the answer, from a row ``r`` of the ``g500_bidscore`` table: the game's best
    level under its scoring, its share of games, and where the deal's points choose otherwise
    what it gains in games (pp, with its interval) and costs in points a deal."""
    text = (f"{level_label(r.best)} under {r.scoring} ({100 * r.win:.0f}% of games"
            + ("" if r.clear else ", not clearly"))
    if r.differs:
        text += (f"; {_pp(r.gain_pp)} pp [{_pp(r.gain_lo)}, {_pp(r.gain_hi)}] over {level_label(r.deal_best)} for "
                 f"{r.cost:.0f} points a deal")
    return text + ")"


def answer(best: pd.DataFrame) -> str:
    """The section's answers in words, every number read from ``g500_bidscore``: a summary, then per
    class the per-deal best and, state by state, the game's best under each scoring."""
    if best.empty:
        return ""
    n_diff = int(best.differs.sum())
    n_clear = int((best.differs & (best.gain_lo > 0)).sum())
    parts = [f"Judged by games won, the best level differs from the per-deal best (the deal's points) in {n_diff} "
             f"of {len(best)} cells, and wins clearly more games in {n_clear} of them (95% interval above 0, on "
             "deals not used to choose)."]
    for (holding, t), g in best.groupby(["holding", "target"], sort=False):
        by = g.groupby("scoring", sort=False).deal_best.first()
        deal = (f"{level_label(by.iloc[0])} under {' and '.join(by.index)} alike"
                if by.nunique() == 1 and len(by) > 1 else
                " and ".join(f"{level_label(b)} under {sc}" for sc, b in by.items()))
        states = []
        for _, s in g.groupby("state", sort=False):
            r0 = s.iloc[0]
            states.append(f"at {_state(r0)} " + ", ".join(cell_answer(r) for _, r in s.iterrows()))
        parts.append(f"With {holding}, to {t} (by the deal's points {deal}): " + "; ".join(states) + ".")
    if "holds" in best:
        parts.append(sentence(best[best.robust_deals > 0], "game's best level", "pp of games", len(others(GAME))))
    else:
        parts.append("Not replayed under other players.")
    return " ".join(parts)


def rules(best: pd.DataFrame) -> list[dict]:
    """Rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`): each clear cell where the game's best
    differs from the per-deal best and wins clearly more games; its number the gain in games over
    the per-deal best (pp), worth = that gain."""
    out = []
    for i, r in best.reset_index(drop=True).iterrows():
        if not (r.differs and r.clear and r.gain_lo > 0):
            continue
        text = (f"With {r.holding}, your side at {r.s0} and theirs at {r.s1} ({r.scoring}, game to {r.target}): "
                f"bid {level_label(r.best)}")
        out.append(T.rule("Five Hundred", text, "g500_bidscore", i, ("gain_pp", "gain_lo", "gain_hi"),
                          (r.gain_pp, r.gain_lo, r.gain_hi), "pp of games", f"over {level_label(r.deal_best)}",
                          "{:+.1f}",
                          r.gain_pp, "pp of games", "the gain in games won", f"{r.holding} {r.scoring}", r))
    return T.pick(out)


# ---------------------------------------------------------------- under other players
def run_robust(p: Plan, best: pd.DataFrame, seed: int, n_jobs: int = -1, log=print, results=None,
               profiles=None) -> pd.DataFrame:
    """Each cell's best level by the game and its runner-up replayed under every other player profile
    (:mod:`cardsim.analysis.robustness`) on the first quarter of each stratum's deals (the same deals
    as the cell's own run).  Returns ``best`` with the robustness columns (gains in pp of games)."""
    profiles = RB.others(GAME) if profiles is None else list(profiles)
    base = [get_game(GAME).table.default_strategy] * 4
    plan_cells = cells(p)
    tasks, shape = [], []
    for cell, r in zip(plan_cells, best.itertuples()):
        h, sc, t, st = cell
        strata = h.strata()
        part = max(1, round(RB.SHARE * -(-p.deals // len(strata))))
        opts = (f"={int(r.best)}{h.denom}", f"={int(r.runner_up)}{h.denom}")
        shape.append((opts, len(strata), part * len(strata)))
        tasks += [(h, given, part, task_seed(seed, h, i), sc, t, scores(st, t), pr.strategies(base, SEAT), opts)
                  for pr in profiles for i, given in enumerate(strata)]
    log(f"  under other players: {len(plan_cells)} cells x {len(profiles)} profiles "
        f"({', '.join(pr.name for pr in profiles)}) x 2 levels")
    store = analysis_store(results, "500-bidscore-robust", _robust_sums, tasks=tasks)
    sums_of = iter(run_chunks(_robust_sums, tasks, [t[2] * 6 for t in tasks], n_jobs, store=store))
    rows = []
    for (opts, k, deals), r in zip(shape, best.itertuples()):
        replays = {pr.name: RB.summary(_merge([next(sums_of) for _ in range(k)]), list(opts), opts[0], scale=100.0)
                   for pr in profiles}
        rows.append(RB.cell_columns(float(r.margin_pp), replays, deals))
    return RB.with_columns(best, rows)


def _robust_sums(holding, given, deals, seed, scoring, target, before, strategies, options) -> dict:
    return run_question(_question(holding, given, deals, seed, scoring, target, before, "game", strategies,
                                  options), n_jobs=1)


# ---------------------------------------------------------------- figure
LEGENDS = {
    "g500_bidscore.png": (
        "The level to bid by the score, for a few hands before the kitty (rows: the hand and the scoring; "
        "columns: the score before the deal, your side's first; a panel per target). In a cell: the level (6 to 10 tricks, "
        "hearts standing for any suit) that wins the most games when the game is played on to its end, and "
        "that share of games; * = the next best level is not clearly worse; \u2020 = another kind of player makes "
        "the next best clearly better; a black frame and 'deal: 8' = judged by the deal's points alone, "
        "another level is best."),
}


def figures(best: pd.DataFrame, outdir: Path, name: str = "g500_bidscore.png") -> list[Path]:
    """A grid per target: rows class x scoring, columns states; colour = the game's best level."""
    plt = pyplot()

    from matplotlib.colors import BoundaryNorm, ListedColormap  # local: matplotlib is slow to import; only the figures need it

    if best.empty:
        return []
    rows = list(dict.fromkeys(zip(best.holding, best.scoring)))
    states = list(dict.fromkeys(best.state))
    cmap = ListedColormap(["#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c"])
    norm = BoundaryNorm([5.5, 6.5, 7.5, 8.5, 9.5, 10.5], cmap.N)
    targets = list(dict.fromkeys(best.target))
    fig, axes = plt.subplots(1, len(targets), figsize=(2.2 * len(states) + 3, 0.8 * len(rows) + 1.6), squeeze=False)
    for ax, t in zip(axes[0], targets):
        g = best[best.target == t]
        grid_ = np.full((len(rows), len(states)), np.nan)
        for _, r in g.iterrows():
            y, x = rows.index((r.holding, r.scoring)), states.index(r.state)
            grid_[y, x] = r.best
            text = f"{int(r.best)}{'' if r.clear else '*'}{RB.DEPENDS if RB.depends(r) else ''}"
            text += f"\n{100 * r.win:.0f}%" + (f"\ndeal: {int(r.deal_best)}" if r.differs else "")
            ax.text(x, y, text, ha="center", va="center", fontsize=8, color="white" if r.best >= 9 else "black")
            if r.differs:
                frame_cell(ax, x, y)
        ax.imshow(grid_, cmap=cmap, norm=norm, aspect="auto")
        firsts = g.groupby("state", sort=False).first()
        labels = {st: st if st == f"{r.s0}-{r.s1}" else f"{st}\n{r.s0}-{r.s1}" for st, r in firsts.iterrows()}
        ax.set_xticks(range(len(states)), [labels.get(s, s) for s in states], fontsize=8)
        ax.set_yticks(range(len(rows)), [f"{h}\n{sc}" for h, sc in rows], fontsize=8)
        ax.set_title(f"to {t}", fontsize=9)
    fig.suptitle("Five Hundred: the level that wins the most games, by the score (hearts)", fontsize=10)
    fig.tight_layout()
    return [save_figure(fig, Path(outdir) / name)]


GLOSSARY = {
    "holding": "the declarer's 10 cards before the kitty: trumps (with the jokers and the left bower) and how many "
               "of the top five trumps (HJ, LJ, right and left bower, ace) — the bid guide's classes, in hearts",
    "state, s0, s1": "the score before the deal: the declaring side's (s0) and the defenders' (s1), points; 0-0, ahead "
                     "(0.8 and 0.2 of the target: 400-100 to 500, 800-200 to 1000), behind (0.2 and 0.8), both near "
                     "(0.8 each)",
    "target": "the game's target (a side at it after a deal wins, docs/RULES.md §3.6)",
    "deals": "deals played in the cell (the same deals in every state and scoring)",
    "best": "the level (=6H … =10H, auction skipped) with the highest share of games won on the even-numbered deals",
    "win": "the declaring side's share of the games won with that level (the game played on by the strategies "
           "after the deal), 95% interval",
    "runner_up / margin_pp": "the second level on the even deals; best minus runner-up in percentage points of games "
                             "on the odd deals (paired), 95% interval; p_value one-sided; clear = Benjamini-Hochberg "
                             "over the table's cells at 2.5%",
    "deal_best / deal_score": "the best level by the deal's points alone (the bid guide's measure), chosen on the even "
                              "deals, and its mean points a deal",
    "differs": "whether the game's best and the deal's best are different levels",
    "gain_pp": "the game's best minus the deal's best, pp of games won, odd deals, paired, 95% interval (0 where "
               "they are the same)",
    "cost": "the deal's best minus the game's best in points a deal (what bidding to the score gives up in the "
            "deal), odd deals, 95% interval",
    "win_half0 / score_half0": "(levels CSV) the means on the even deals that choose the best",
    "_lo / _hi": "95% interval (normal for means and shares of games, a share's clipped to 0..1)",
}
NOTES = [
    "Each contract is forced with the auction skipped, as in the bid guide: the levels are what the declarer may "
    "contract; passing is not among them.",
    "After the deal the game is played on by the default strategies, which do not read the score: a later deal "
    "is bid on its merits. The continuation is the same for every level (common random numbers).",
    "Hearts stand for any suit in the made rates; the scores are hearts' (docs/RULES.md §3.3).",
]
METHOD = ("Five Hundred bid to the score: for a few of the bid guide's classes (dealt exactly, by its strata "
          "and seeds) every contract from 6 to 10 in hearts is played with the auction skipped from each score "
          "state (0-0, ahead, behind and both near the target) under both scorings, and judged by the declaring "
          "side's share of the game's win (the game played on by the strategies, the same continuation for "
          "every level) and by the deal's points, on the same deals. The best level by each is chosen on the "
          "even-numbered deals and compared on the odd ones (paired, 95% intervals); clear by Benjamini-Hochberg "
          "over the cells at a 2.5% false discovery rate. The best and runner-up are replayed under the other "
          "player profiles on a quarter of the deals.")
