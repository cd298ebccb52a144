"""501's blind chart as a policy, played until it stops changing.

The decision chart (:mod:`cardsim.analysis.g501.blind_chart`) says where a blind first call beats
looking *against the players in the other seats* (the strategy spec the analysis is given: the
game's default, whatever its parameters are).  Here a chart becomes the players' rule: every seat
takes its blind decision from a **policy** — per chart cell, blind up to a level, or look
(:mod:`cardsim.analysis.g501.policy`, the ``chart`` strategy, its bidding parameters those of the
given players) — the chart is computed again with every seat on that policy, and the policy
follows the chart's *clear* verdicts.  A cell's state is whether it bids blind and its **level**
(the blind level it bids to, or, for a look cell, the level it is tested against).

* round 0 is the chart against the given players; its policy: blind up to the best level where
  the verdict is "blind to …", else look (the level: the cell's best blind level);
* each later round plays only **look and the cell's level with its neighbours** in
  ``levels`` (at most 4 options, not 7), on a **schedule of deals** (:data:`SCHEDULE`):

  - *search* rounds replay only the **contested** cells, on few deals: round 1 every cell (the
    other seats changed from the given players to the policy everywhere), later search rounds
    the cells whose last verdict was unclear (its interval spans 0) or changed their policy;
  - when a search round changes no cell, a *confirmation* round replays **every** cell on the
    most deals (:data:`FINAL_SHARE` of the chart's);

* a cell's policy changes only where the new verdict clearly contradicts it (a look cell whose
  verdict is "blind to …" turns blind; a blind cell whose verdict is "look" turns look) and its
  level only where it is clearly worse than the best blind level played (paired): a cell with no
  clear answer keeps its policy, so that chance verdicts near the threshold do not make the
  policy chase its own noise.  "Clear" is Benjamini–Hochberg over the round's cells in a search
  round (the chart's rule: the policy moves quickly where it is wrong) and Holm over all the cells
  in a confirmation round (:data:`CONFIRM_METHOD`: family-wise, as ``cardsim exploit`` is);
* it ends at a **fixed point** (a confirmation round changes no cell: every seat follows the
  policy and no cell's contradiction of it is clear for the whole chart), at a **cycle** (a round starts from
  the same policy, levels, contested cells and deals as an earlier one: the rounds in between
  repeat for ever, since every round of a size plays the same seeds; reported with its period
  and the cells that alternate; search rounds alone repeating on few deals are no answer, so a
  confirmation round of every cell is played instead), at **alternating levels** (a confirmation round moves no cell
  between blind and look, and every cell whose level it moves goes back to a level the cell held
  before: the blind/look chart has settled, and the levels of those cells cycle between values
  nearly as good as each other) or after :data:`MAX_ROUNDS` rounds.

Every round plays the same situations with the same seeds (common random numbers across
rounds), so a cell moves because the players changed, not because the deals did.  The answer at
a fixed point reads "blind here even against players who do the same".
"""
from __future__ import annotations

import time

import pandas as pd

from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis.chart_pipeline import play
from cardsim.analysis.g501.deviation import cell_text
from cardsim.analysis.g501.policy import chart_policy_spec
from cardsim.analysis.verdicts import LOOK
from cardsim.games import get_game
from cardsim.games.g501.strategies import REGISTRY
from cardsim.selection import clear_cells
from cardsim.strategies.registry import StrategyError

SCHEDULE = (0.05, 0.1)
"""Shares of the chart's deals per situation that the search rounds play: round 1 the first, every
later search round the second (the chart's 10,000 give 500, then 1,000)."""
FINAL_SHARE = 0.25
"""The share of the chart's deals per situation that a confirmation round plays (2,500 of 10,000)."""
SEARCH_METHOD = "fdr_bh"
"""What calls a cell's change clear in a search round: Benjamini–Hochberg over the round's cells,
the chart's own rule (:func:`cardsim.analysis.verdicts.chart_clear`), so that the policy moves
quickly where it is wrong."""
CONFIRM_METHOD = "holm"
"""What calls a cell's change clear in a confirmation round: Holm over all the chart's cells, a
family-wise rule like ``cardsim exploit``'s.  A confirmation round asks one question of the whole
chart — does any cell clearly contradict the policy? — and asks it again every few rounds; under
Benjamini–Hochberg, which lets a share of the clear cells be chance, 108 cells near indifference kept
giving one or two changes each time (the report at blind level 87: 1+1, 1+2, 2+9, 2+6, 0+4 changes
in the confirmation rounds from the 16th on), so the policy chased its own noise and never
settled.  Under Holm a fixed point is declared only when no cell's contradiction survives the whole
family; the deviation table (:mod:`cardsim.analysis.g501.deviation`) then measures what a seat
gains from the cells left near indifference."""
MIN_DEALS = 20
"""The fewest deals a round plays per situation (the quick report's small charts)."""
MAX_ROUNDS = 48
"""Rounds after round 0 at most: a bound on the work, not on the game; rounds are cheap (contested
cells, at most 4 options, few deals: 3-9 s each at the report's size) and it ends earlier at a fixed
point, a cycle or alternating levels.  At the defaults of December 2026 (seed 2026) it reached a fixed
point after 30 rounds; 16 stopped it while the confirmation rounds still moved a few cells.  With the
declarer's and defenders' fourth card-play rules 32 were not enough (the last rounds still moved a cell
between blind and look); it ends at alternating levels after 38 rounds (blind and look settled, three
cells' levels between 90, 100 and 120)."""
CHART_PARAMS = ("margin", "abandon", "target_margin", "contest", "press", "press_score")
"""The ``chart`` strategy's bidding parameters, taken from the given players' spec."""
METHOD = ("The chart as a fixed point: a policy (per chart cell: blind up to a level, or look; the nearest chart "
          "cell for other scores; bids after looking as the given players) is played by every seat and the chart "
          "computed again with look and the cell's level and its neighbours only, the same seeds each round. "
          f"Search rounds replay the contested cells (round 1 every cell, later ones the cells whose verdict was "
          f"unclear or changed their policy) on {int(100 * SCHEDULE[0])}% then {int(100 * SCHEDULE[1])}% of the "
          f"chart's deals per situation; when a search round changes nothing a confirmation round replays every "
          f"cell on {int(100 * FINAL_SHARE)}%. A cell changes between blind and look only where a verdict clearly "
          "contradicts it and its level only where it is clearly worse than the best level played (clear: "
          "Benjamini-Hochberg over the round's cells in a search round, Holm over all the cells, family-wise, in a "
          "confirmation round); it ends at a "
          "fixed point (a confirmation round changes no cell), a cycle (a round starts where an earlier one did: "
          "its period and the cells that alternate are shown), alternating levels (a confirmation round moves no cell "
          "between blind and look and every level it moves goes back to one the cell held before: blind and look "
          f"have settled, those cells' levels cycle) or after {MAX_ROUNDS} rounds.")
GLOSSARY = {
    "round / kind": "(g501_fixed_rounds) 0 = the chart against the given players; then 'search' rounds (the "
                    "contested cells on few deals) and 'confirm' rounds (every cell on the most deals), each with "
                    "every seat playing the policy of the round before (g501_fixed_chart: each cell's latest chart, "
                    "with the policy played in it)",
    "deals / cells / seconds": "deals per situation that round, situations replayed, and the round's time (s)",
    "blind_cells / look_cells / unclear_cells": "replayed situations whose verdict is blind / look / no clear answer "
                                                "that round",
    "policy_blind": "situations in which the round's policy (after its update) bids blind",
    "moved / relevelled / moved_cells": "situations whose policy changed between blind and look after the round, "
                                        "those whose level changed, and which, as own/lead/position: from->to",
}
ROUND_COLUMNS = ["round", "kind", "deals", "cells", "blind_cells", "look_cells", "unclear_cells", "policy_blind",
                 "moved", "relevelled", "moved_cells", "seconds", "policy"]


def kind(verdict: str) -> str:
    """A verdict's kind: ``blind``, ``look`` or ``unclear``."""
    if verdict.startswith("blind"):
        return "blind"
    return "look" if verdict == LOOK else "unclear"


def _key(r) -> tuple:
    return (int(r.own), int(r.lead), int(r.position))


def _level(option: str) -> int:
    return 0 if option == LOOK else int(option.split(":")[1])


def best_levels(long: pd.DataFrame) -> dict:
    """Per cell ``(own, lead, position)`` of a decisions frame, its best blind level
    (:func:`cardsim.analysis.g501.blind_chart.best_blind`: first on half 0 of the deals)."""
    return {_key(r): int(r.level) for r in B.best_blind_rows(long).itertuples()}


def first_state(choice: pd.DataFrame, long: pd.DataFrame | None = None, levels=B.LEVELS) -> tuple[dict, dict]:
    """Round 0's state from the chart against the given players: ``(blind, level)``, per cell
    ``(own, lead, position)`` whether it bids blind (the verdict is "blind to …") and its level
    (the best blind level of ``long``, round 0's decisions; without it the best option's level
    for a blind cell, else the middle of ``levels``)."""
    best = best_levels(long) if long is not None else {}
    blind, level = {}, {}
    for r in choice.itertuples():
        k = _key(r)
        blind[k] = kind(r.verdict) == "blind"
        level[k] = _level(r.best) if blind[k] else best.get(k, levels[len(levels) // 2])
    return blind, level


def first_policy(choice: pd.DataFrame) -> dict:
    """Round 0's policy from the chart against the given players: cell ``(own, lead, position)``
    -> blind level (the best level where the verdict is "blind to …") or 0 (look)."""
    return policy_of(*first_state(choice))


def policy_of(blind: dict, level: dict) -> dict:
    """The policy of a state: cell -> its level where it bids blind, else 0 (look)."""
    return {k: level[k] if blind[k] else 0 for k in blind}


def neighbours(level: int, levels) -> tuple:
    """``level`` and the levels next to it in ``levels`` (increasing): the blind options a round
    plays for a cell.  A level not in ``levels`` takes the nearest one's place."""
    levels = sorted(int(x) for x in levels)
    i = min(range(len(levels)), key=lambda j: (abs(levels[j] - level), levels[j]))
    return tuple(levels[max(0, i - 1):i + 2])


def level_p(row) -> float:
    """One-sided p-value that a cell's level is worse than its best blind level, from the level's
    decisions row: its ``p_below_best`` (half 1 of the deals, the half that did not choose the
    best) where the row has one; else from ``diff_best_pp`` and its 95% interval ``diff_best_lo``
    .. ``diff_best_hi`` (normal; every deal, so it favours the best): 1.0 without an interval, 0.0
    for a zero-width interval below 0."""
    from scipy.stats import norm

    honest = getattr(row, "p_below_best", float("nan"))
    if honest == honest:
        return float(honest)

    diff, lo, hi = float(row.diff_best_pp), float(row.diff_best_lo), float(row.diff_best_hi)
    if not (diff == diff and lo == lo and hi == hi):
        return 1.0
    se = (hi - lo) / (2 * norm.ppf(0.975))
    if se <= 0:
        return 0.0 if diff < 0 else 1.0
    return float(norm.cdf(diff / se))


def round_kinds(choice: pd.DataFrame, method: str = SEARCH_METHOD) -> list[str]:
    """Each row's verdict kind (``blind``, ``look`` or ``unclear``) under ``method``: the chart's own
    verdicts for :data:`SEARCH_METHOD` (Benjamini–Hochberg), else the best option where
    ``method`` (a ``statsmodels`` multiple-testing method, e.g. ``"holm"``) calls the cell's
    ``p_value`` clear over all the rows, ``unclear`` elsewhere."""
    if method == SEARCH_METHOD:
        return [kind(v) for v in choice.verdict]
    sure = clear_cells(choice.p_value.to_numpy(), method=method)
    return [("look" if b == LOOK else "blind") if c else "unclear" for b, c in zip(choice.best, sure)]


def update(blind: dict, level: dict, choice: pd.DataFrame, long: pd.DataFrame,
           method: str = SEARCH_METHOD) -> tuple[dict, dict, list, set]:
    """One round's update from ``choice`` (:func:`~cardsim.analysis.g501.blind_chart.choices` of the cells
    replayed) and ``long`` (their decisions): returns the new ``(blind, level)``, the changes (text
    ``own/lead/position: from->to``, blind<->look ones first) and the **contested** cells — those
    whose verdict was unclear or whose policy or level changed.

    Rule: a clear "blind to …" turns a look cell blind, a clear "look" turns a blind cell look; a
    cell's level moves to the best blind level played only when the level is clearly worse than it
    — its :func:`level_p` called clear over the round's cells whose level is not the best, so that
    the many comparisons of a round do not move levels by chance; anything else keeps the cell.
    "Clear" is ``method`` over the round's cells (:func:`round_kinds`): Benjamini–Hochberg (the
    chart's rule) in search rounds, Holm (:data:`CONFIRM_METHOD`) in confirmation rounds."""
    new_blind, new_level = dict(blind), dict(level)
    rows = {k: g for k, g in long.groupby(["own", "lead", "position"], sort=False)}
    tops, tested = {}, {}
    for r in choice.itertuples():
        k = _key(r)
        g = rows[k]
        top = best_levels(g).get(k)
        mine = g[g.option == f"blind:{level[k]}"]
        if top is not None and top != level[k] and len(mine):
            tops[k], tested[k] = top, level_p(mine.iloc[0])
    worse = dict(zip(tested, clear_cells(list(tested.values()), method=method))) if tested else {}
    moved, relevelled, contested = [], [], set()
    for r, verdict in zip(choice.itertuples(), round_kinds(choice, method)):
        k = _key(r)
        if worse.get(k, False):
            new_level[k] = tops[k]
        if verdict != "unclear":
            new_blind[k] = verdict == "blind"
        before, after = _name(blind[k], level[k]), _name(new_blind[k], new_level[k])
        if new_blind[k] != blind[k]:
            moved.append(f"{cell_text(k)}: {before}->{after}")
        elif new_level[k] != level[k]:  # a look cell's level is the one it is tested against
            change = f"{before}->{after}" if blind[k] else f"look, tested at {level[k]}->{new_level[k]}"
            relevelled.append(f"{cell_text(k)}: {change}")
        if verdict == "unclear" or before != after or new_level[k] != level[k]:
            contested.add(k)
    return new_blind, new_level, moved + relevelled, contested


def _name(blind: bool, level: int) -> str:
    return f"blind:{level}" if blind else LOOK


def policy_frame(policy: dict) -> pd.DataFrame:
    """A policy as a frame of ``own, lead, position, best`` (``blind:L`` or ``look``); an auction
    position the policy has no cell in is played looking."""
    frame = pd.DataFrame([{"own": k[0], "lead": k[1], "position": k[2],
                           "best": f"blind:{lvl}" if lvl else LOOK} for k, lvl in policy.items()])
    missing = [p for p in B.POSITIONS if p not in set(frame.position)]
    extra = pd.DataFrame({"own": [B.OWN[0]] * len(missing), "lead": [0] * len(missing), "position": missing,
                          "best": [LOOK] * len(missing)})
    return pd.concat([frame, extra], ignore_index=True) if missing else frame


def chart_params(players: str | None) -> dict:
    """The ``chart`` strategy's bidding parameters (:data:`CHART_PARAMS`) of the players' spec
    (``None``: the game's default strategy), so that the policy bids after looking exactly as the
    players it was computed against, whatever their defaults are.  Raises StrategyError (one
    line) for a spec without those parameters."""
    spec = players or get_game(B.GAME).table.default_strategy
    strategy, vector = REGISTRY.resolve(spec)
    lacking = [p for p in CHART_PARAMS if p not in strategy.params]
    if lacking:
        raise StrategyError(f"the chart is computed against heuristic-like players; {spec!r} has no "
                            f"{', '.join(lacking)}")
    return {p: float(vector[strategy.param_index(p)]) for p in CHART_PARAMS}


def policy_spec(policy: dict, players: str | None = None) -> str:
    """The strategy spec of every seat that plays ``policy`` (cell -> level, 0 look), bidding
    after looking as ``players`` (:func:`chart_params`)."""
    return chart_policy_spec(policy_frame(policy), **chart_params(players))


def schedule(deals: int, kind_: str, search: int = 1) -> int:
    """Deals per situation of a round: a search round (``search``: its number among the search
    rounds, from 1) plays :data:`SCHEDULE` of the chart's ``deals``, a confirmation round
    :data:`FINAL_SHARE`; never fewer than :data:`MIN_DEALS` nor more than ``deals``."""
    share = FINAL_SHARE if kind_ == "confirm" else SCHEDULE[min(search, len(SCHEDULE)) - 1]
    return int(min(deals, max(MIN_DEALS, round(share * deals))))


def find_cycle(states: list) -> tuple[int, int] | None:
    """Where the last of ``states`` (each round's starting state, hashable) repeats an earlier one:
    ``(first, period)`` — the rounds from ``first`` on repeat every ``period`` — else None."""
    last = states[-1]
    for i in range(len(states) - 2, -1, -1):
        if states[i] == last:
            return i, len(states) - 1 - i
    return None


def alternating(policies: list[dict]) -> list[tuple]:
    """The cells whose policy (level, 0 look) is not the same in all of ``policies`` (the rounds
    of a cycle), in the first policy's order."""
    return [k for k in policies[0] if len({p[k] for p in policies}) > 1]


def _cells_text(cells) -> str:
    return ", ".join(cell_text(k) for k in cells)


def play_round(sits, levels, level: dict, deals: int, seed: int, spec: str, n_jobs: int = -1,
               results=None) -> pd.DataFrame:
    """The decisions (:data:`~cardsim.analysis.g501.blind_chart.DECISION_COLUMNS`) of ``sits`` with every
    seat on ``spec``, each situation playing look and blind to its level's :func:`neighbours`."""
    tasks = [(s, neighbours(level[(s.own, s.lead, s.position)], levels), deals, seed, [spec] * 3) for s in sits]
    sums_of = play(B.decision_sums, tasks, [deals] * len(tasks), n_jobs, name="501-fixed-round", results=results)
    frames = [B.decision_rows(t[0], t[1], sums, seed, t[4]) for t, sums in zip(tasks, sums_of)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=B.DECISION_COLUMNS)


def _counts(choice: pd.DataFrame) -> dict:
    kinds = [kind(v) for v in choice.verdict]
    return {"blind_cells": kinds.count("blind"), "look_cells": kinds.count("look"),
            "unclear_cells": kinds.count("unclear")}


def iterate(sits, levels, deals: int, seed: int, start: pd.DataFrame, n_jobs: int = -1, *,
            long: pd.DataFrame | None = None, players: str | None = None, max_rounds: int = MAX_ROUNDS,
            start_seconds: float = float("nan"), log=print, results=None) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Iterate from ``start`` (round 0's :func:`cardsim.analysis.g501.blind_chart.choices`, against
    ``players``: their spec, None = the game's default strategy; ``long``: round 0's decisions,
    which give a look cell its level) — ``deals``: the chart's deals per situation, of which each
    round plays its :func:`schedule`.

    Returns ``(choice, rounds, status)`` (``rounds.attrs["policy"]``: the spec of the policy after
    the last round's update — at a fixed point the settled chart): every situation's latest chart (the last round that
    replayed it: column ``round``) with a ``policy`` column (the option every seat played there:
    ``blind:L`` or ``look``); one row per round (:data:`ROUND_COLUMNS`: kind, deals, cells
    replayed, their verdicts' counts, the cells the updated policy bids blind in, the cells whose
    policy — ``moved`` — or level — ``relevelled`` — changed and which, the round's seconds
    (round 0: ``start_seconds``), the policy spec played); and ``status``: ``"fixed point after R
    rounds"``, ``"cycle of period P (cells alternating: …)"``, ``"levels alternating after R rounds: …"``
    (blind and look settled, the cells whose level went back named) or ``"not settled after R rounds"``.
    Deterministic for a seed, whatever ``n_jobs``."""
    sits = list(sits)
    by_key = {(s.own, s.lead, s.position): s for s in sits}
    blind, level = first_state(start, long, levels)
    # the chart's own columns: the robustness columns of round 0 describe other players than the policy's
    kept = [c for c in B.CHOICE_COLUMNS if c in start]
    latest = {_key(r): r._asdict() for r in start[kept].itertuples(index=False)}
    for row in latest.values():
        row["round"] = 0
    played = {k: LOOK for k in blind}  # round 0: the given players' own blind rule
    rounds = [{"round": 0, "kind": "chart", "deals": deals, "cells": len(start), **_counts(start),
               "policy_blind": sum(blind.values()), "moved": 0, "relevelled": 0, "moved_cells": "",
               "seconds": start_seconds, "policy": players or "default players"}]
    contested, kind_, search = set(blind), "search", 1
    states, policies = [], []
    held = {k: {policy_of(blind, level)[k]} for k in blind}  # each cell's policy levels so far (0 look)
    status = f"not settled after {max_rounds} rounds"
    for r in range(1, max_rounds + 1):
        n = schedule(deals, kind_, search)
        policy = policy_of(blind, level)
        states.append((kind_, tuple(sorted(policy.items())), tuple(sorted(level.items())), frozenset(contested), n))
        policies.append(policy)
        cycle = find_cycle(states)
        if cycle and all(state[0] == "search" for state in states[cycle[0]:]):
            # search rounds that repeat on few deals are no answer: the whole chart is asked instead
            kind_, contested = "confirm", set(blind)
            n = schedule(deals, kind_, search)
            states[-1] = (kind_, states[-1][1], states[-1][2], frozenset(contested), n)
            cycle = find_cycle(states)
        if cycle:
            first, period = cycle
            cells = alternating(policies[first:])
            status = (f"cycle of period {period} (cells alternating: {_cells_text(cells) or 'none, levels only'})")
            break
        started = time.time()
        spec = policy_spec(policy, players)
        cells = [by_key[k] for k in by_key if k in contested]
        log(f"  fixed point, round {r} ({kind_}): {len(cells)} situations x {n:,} deals, every seat on the policy "
            f"of round {r - 1} (blind in {sum(blind.values())} cells)")
        long_r = play_round(cells, levels, level, n, seed, spec, n_jobs, results)
        choice = B.choices(long_r)
        for k in blind:
            played[k] = _name(blind[k], level[k])
        new_blind, new_level, changes, contested = update(
            blind, level, choice, long_r, CONFIRM_METHOD if kind_ == "confirm" else SEARCH_METHOD)
        for row in choice.itertuples(index=False):
            latest[_key(row)] = {**row._asdict(), "round": r}
        moved = sum(new_blind[k] != blind[k] for k in blind)
        relevelled = sum(new_blind[k] == blind[k] and new_level[k] != level[k] for k in blind)
        seconds = time.time() - started
        rounds.append({"round": r, "kind": kind_, "deals": n, "cells": len(cells), **_counts(choice),
                       "policy_blind": sum(new_blind.values()), "moved": moved, "relevelled": relevelled,
                       "moved_cells": "; ".join(changes), "seconds": seconds, "policy": spec})
        log(f"    {moved} cells changed between blind and look, {relevelled} changed level ({seconds:.0f} s)")
        before, after = policy, policy_of(new_blind, new_level)
        back = sorted(k for k in after if after[k] != before[k])
        blind, level = new_blind, new_level
        if not changes and kind_ == "confirm":
            status = f"fixed point after {r} round{'s' if r > 1 else ''}"
            break
        if kind_ == "confirm" and not moved and back and all(after[k] in held[k] for k in back):
            status = (f"levels alternating after {r} rounds: blind and look settled; "
                      f"{len(back)} cell{'s' if len(back) > 1 else ''} went back to a level held before "
                      f"({'; '.join(f'{cell_text(k)} {before[k]}->{after[k]}' for k in back)})")
            break
        for k in back:
            held[k].add(after[k])
        if changes:  # the cells that changed are contested: a search round replays them
            kind_, search = "search", search + 1
        else:
            kind_, contested = "confirm", set(blind)
    choice = pd.DataFrame([latest[k] for k in by_key if k in latest])
    choice = choice.assign(policy=[played.get(_key(r), LOOK) for r in choice.itertuples()])
    table = pd.DataFrame(rounds, columns=ROUND_COLUMNS)
    table.attrs["policy"] = policy_spec(policy_of(blind, level), players)  # after the last round's update
    return choice, table, status


def deals_text(rounds: pd.DataFrame) -> str:
    """The deals per situation of the rounds after round 0: ``500`` or ``500 to 2,500`` (least to
    most), ``no`` without such rounds."""
    deals = sorted({int(d) for d in rounds.deals.iloc[1:]})
    if not deals:
        return "no"
    return f"{deals[0]:,}" if len(deals) == 1 else f"{deals[0]:,} to {deals[-1]:,}"


def legend(status: str, rounds: pd.DataFrame, chart_legend: str) -> str:
    """The fixed-point chart's caption: what was run — the rounds played after round 0, their
    kinds and deals per situation — and "recomputed until it no longer changed" only where it did
    (``status`` from :func:`iterate`: a fixed point); a cycle or the round budget says so, each
    cell shown from its latest round.  ``chart_legend``: the chart's own marks, appended."""
    played = len(rounds) - 1
    runs = (f"recomputed with every player on it, {played} round{'s' if played != 1 else ''} after the chart against "
            f"the given players (look and the cell's level and its neighbours; {deals_text(rounds)} deals per "
            "situation a round, the contested cells only until a round replays them all)")
    if status.startswith("fixed"):
        what = f"{runs}, until it no longer changed ({status})"
    elif status.startswith("levels alternating"):
        what = (f"{runs}; blind and look settled, the levels of a few cells did not ({status}), each cell's "
                "latest round shown")
    elif status.startswith("cycle"):
        what = (f"{runs}; it did not settle: a round started where an earlier one did ({status}), each cell's "
                "latest round shown")
    else:
        what = f"{runs}; it did not settle ({status}: the most rounds the report plays), each cell's latest round shown"
    return (f"The same chart when every player at the table follows it: {what}. A cell marked (played: …) is "
            "one whose verdict (the chart's rule) is on the other side of blind/look than what every seat plays there: "
            "its contradiction is not clear for the whole chart (Holm), so the policy kept it. " + chart_legend)


def sentence(rounds: pd.DataFrame, status: str, choice: pd.DataFrame) -> str:
    """The Answers' sentence on the fixed point."""
    last = rounds.iloc[-1]
    first = rounds.iloc[0]
    moved = ", ".join(f"{int(x.moved)}+{int(x.relevelled)} in round {int(x.round)}"
                      for x in rounds.iloc[1:].itertuples())
    settled = status.startswith("fixed")
    seconds = rounds.seconds.iloc[1:].sum()
    text = ("Played as a policy by every seat and recomputed, the blind chart reaches a " + status if settled else
            "Played as a policy by every seat and recomputed, the blind chart settles between blind and look but not "
            "in every level: " + status if status.startswith("levels alternating") else
            "Played as a policy by every seat and recomputed, the blind chart does not settle: " + status)
    text += (f" (cells that changed between blind and look + changed level: {moved or 'none'}; "
             f"{seconds:,.0f} s for the rounds after the first chart). ")
    if settled:
        text += (f"At the fixed point every seat bids blind in {int(last.policy_blind)} of {len(choice)} situations "
                 f"(round 0 against the given players: {int(first.policy_blind)}) and no cell's verdict clearly "
                 f"says otherwise: blind is clearly best in {int(last.blind_cells)} of them even against players who "
                 f"do the same.")
    elif status.startswith("levels alternating"):
        text += (f"Blind or look no longer changes in any situation (the policy bids blind in {int(last.policy_blind)} "
                 f"of {len(choice)}; round 0 against the given players: {int(first.policy_blind)}); only how high to "
                 "bid blind keeps moving, back and forth, in the cells named.")
    else:
        text += (f"In the last round the policy bids blind in {int(last.policy_blind)} of {len(choice)} situations "
                 f"(round 0: {int(first.policy_blind)}).")
    return text
