"""501's blind chart as a policy, played until it stops changing (issue 32).

The decision chart (:mod:`cardsim.analysis.g501_game`) says where a blind first call beats
looking *against the default players*, who bid blind by a fixed rule of their own.  Here a
chart becomes the players' rule: every seat takes its blind decision from a **policy** — per
chart cell, blind up to a level, or look (:mod:`cardsim.analysis.g501_policy`, the ``chart``
strategy) — the chart is computed again with every seat on that policy, and the policy follows
the chart's *clear* verdicts:

* round 0 is the chart against the default players; its policy: blind up to the best level
  where the verdict is "blind to …", else look;
* round ``r`` computes the chart with every seat (the studied player's later deals included) on
  the policy of round ``r - 1``; a cell's policy changes only where the new verdict clearly
  contradicts it (a look cell whose verdict is "blind to …" turns blind; a blind cell whose
  verdict is "look" turns look); a blind cell clearly blind again takes the new best level; a
  cell with no clear answer keeps its policy — its verdict shows no evidence against it, and
  letting chance verdicts near the chart's threshold flip the policy would make it chase its own
  noise;
* it stops when no cell's policy changes between blind and look (a **fixed point**: every seat
  follows the policy and no cell of the chart clearly says otherwise), when a round repeats an
  earlier round's policy (a cycle: reported with its period), or after ``max_rounds`` rounds.

Every round plays the same situations with the same seeds (common random numbers across
rounds), so a cell moves because the players changed, not because the deals did.  The answer at
a fixed point reads "blind here even against players who do the same".
"""
from __future__ import annotations

import time

import pandas as pd

from cardsim.analysis import g501_game as G

MAX_ROUNDS = 2
"""Rounds after round 0 at most.  Each costs a whole decision chart, and more as the policy turns
blind: when every seat bids blind by the chart a game lasts about 96 deals instead of 14 (the
third round of the full report ran over 7 minutes), which the 30-minute report cannot afford."""
SHARE = 0.25
"""The share of the chart's deals per situation that each round plays."""
METHOD = ("The chart as a fixed point: a policy (per chart cell: blind up to a level, or look; the nearest chart "
          "cell for other scores) is played by every seat and the chart computed again, on "
          f"{int(SHARE * 100)}% of the chart's deals per situation and the same seeds each round; the policy starts "
          "from the chart against the default players (blind where the verdict is 'blind to ...') and a cell's "
          "policy changes only where a round's verdict clearly contradicts it, until no cell changes between "
          f"blind and look (a fixed point), a round repeats an earlier policy (a cycle) or {MAX_ROUNDS} rounds "
          "have been played.")
GLOSSARY = {
    "round": "(g501_fixed_rounds) 0 = the chart against the default players; r = the chart with every seat playing "
             "the policy of round r-1 (g501_fixed_chart: the last round's chart, with the policy played in it)",
    "blind_cells / look_cells / unclear_cells": "situations whose verdict is blind / look / no clear answer that round",
    "policy_blind": "situations in which the round's policy (after its update) bids blind",
    "moved / moved_cells": "situations whose policy changed between blind and look after the round, as "
                           "own/lead/position: from->to",
}
ROUND_COLUMNS = ["round", "blind_cells", "look_cells", "unclear_cells", "policy_blind", "moved", "moved_cells",
                 "policy"]


def kind(verdict: str) -> str:
    """A verdict's kind: ``blind``, ``look`` or ``unclear``."""
    if verdict.startswith("blind"):
        return "blind"
    return "look" if verdict == G.LOOK else "unclear"


def first_policy(choice: pd.DataFrame) -> dict:
    """Round 0's policy from the chart against the default players: cell ``(own, lead, position)``
    -> blind level (the best level where the verdict is "blind to …") or 0 (look)."""
    return {(r.own, r.lead, r.position): _level(r.best) if kind(r.verdict) == "blind" else 0
            for r in choice.itertuples()}


def update(policy: dict, choice: pd.DataFrame) -> dict:
    """The next policy: ``policy`` changed only where ``choice`` (the chart under it) clearly
    contradicts it; a cell clearly blind again takes its new best level."""
    out = dict(policy)
    for r in choice.itertuples():
        key, k = (r.own, r.lead, r.position), kind(r.verdict)
        if k == "blind":
            out[key] = _level(r.best)
        elif k == "look":
            out[key] = 0
    return out


def _level(option: str) -> int:
    return 0 if option == G.LOOK else int(option.split(":")[1])


def policy_frame(policy: dict) -> pd.DataFrame:
    """A policy as a frame of ``own, lead, position, best`` (``blind:L`` or ``look``); an auction
    position the policy has no cell in is played looking."""
    frame = pd.DataFrame([{"own": k[0], "lead": k[1], "position": k[2],
                           "best": f"blind:{lvl}" if lvl else G.LOOK} for k, lvl in policy.items()])
    missing = [p for p in G.POSITIONS if p not in set(frame.position)]
    extra = pd.DataFrame({"own": [G.OWN[0]] * len(missing), "lead": [0] * len(missing), "position": missing,
                          "best": [G.LOOK] * len(missing)})
    return pd.concat([frame, extra], ignore_index=True) if missing else frame


def policy_spec(policy: dict) -> str:
    """The strategy spec of every seat that plays ``policy`` (:func:`first_policy`, :func:`update`)."""
    from cardsim.analysis.g501_policy import chart_policy_spec

    return chart_policy_spec(policy_frame(policy))


def _kinds(choice: pd.DataFrame) -> dict:
    return {(r.own, r.lead, r.position): kind(r.verdict) for r in choice.itertuples()}


def _counts(kinds: dict) -> dict:
    values = list(kinds.values())
    return {"blind_cells": values.count("blind"), "look_cells": values.count("look"),
            "unclear_cells": values.count("unclear")}


def iterate(sits, levels, deals: int, seed: int, start: pd.DataFrame, n_jobs: int = -1,
            max_rounds: int = MAX_ROUNDS, log=print, results=None) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Iterate from ``start`` (round 0's :func:`cardsim.analysis.g501_game.choices`) with
    ``deals`` deals per situation per round.  Returns ``(choice, rounds, status)``: the last
    round's choices with a ``policy`` column (the option every seat played there: ``blind:L`` or
    ``look``), one row per round (:data:`ROUND_COLUMNS`: the verdict kinds' counts, the cells the
    updated policy bids blind in, how many cells' policy changed and which — ``own/lead/position:
    from->to`` — and the policy spec played that round), and ``status``: ``"fixed point after R
    rounds"``, ``"cycle of period P"`` or ``"not settled after R rounds"``."""
    sits = list(sits)
    choice = start
    policy = first_policy(start)
    played = {k: G.LOOK for k in policy}  # round 0: the default players' own blind rule
    history = [_blind_cells(policy)]
    rounds = [{"round": 0, **_counts(_kinds(start)), "policy_blind": sum(v > 0 for v in policy.values()),
               "moved": 0, "moved_cells": "", "policy": "default players"}]
    status = f"not settled after {max_rounds} rounds"
    for r in range(1, max_rounds + 1):
        started = time.time()
        spec = policy_spec(policy)
        played = {k: f"blind:{v}" if v else G.LOOK for k, v in policy.items()}
        log(f"  fixed point, round {r}: every seat plays the policy of round {r - 1} "
            f"(blind in {sum(v > 0 for v in policy.values())} cells)")
        long = G.run_decisions(sits, levels, deals, seed, n_jobs, strategies=[spec] * 3, log=lambda s: None,
                               results=results)
        choice = G.choices(long)
        new = update(policy, choice)
        moved = [f"{k[0]}/{k[1]:+d}/{k[2]}: {_name(policy[k])}->{_name(new[k])}" for k in new
                 if (new[k] > 0) != (policy[k] > 0)]
        rounds.append({"round": r, **_counts(_kinds(choice)), "policy_blind": sum(v > 0 for v in new.values()),
                       "moved": len(moved), "moved_cells": "; ".join(moved), "policy": spec})
        log(f"    {len(moved)} cells changed between blind and look ({time.time() - started:.0f} s)")
        policy = new
        if not moved:
            status = f"fixed point after {r} round{'s' if r > 1 else ''}"
            break
        cells = _blind_cells(new)
        if cells in history:
            status = f"cycle of period {len(history) - history.index(cells)}"
            break
        history.append(cells)
    choice = choice.assign(policy=[played.get((o, lead, p), G.LOOK) for o, lead, p in
                                   zip(choice.own, choice.lead, choice.position)])
    return choice, pd.DataFrame(rounds, columns=ROUND_COLUMNS), status


def _name(level: int) -> str:
    return "blind" if level > 0 else "look"


def _blind_cells(policy: dict) -> frozenset:
    return frozenset(k for k, v in policy.items() if v > 0)


def legend(status: str, rounds: pd.DataFrame, deals: int, chart_legend: str) -> str:
    """The fixed-point chart's caption: what was run — the rounds played after round 0, the deals
    per situation in each (``deals``) — and "recomputed until it no longer changed" only where it
    did (``status`` from :func:`iterate`: a fixed point); a cycle or the round cap says so, the
    chart shown being the last round's.  ``chart_legend``: the chart's own marks, appended."""
    played = len(rounds) - 1
    runs = (f"recomputed with every player on it, {played} round{'s' if played != 1 else ''} after the chart against "
            f"the default players, {deals:,} deals per situation a round")
    if status.startswith("fixed"):
        what = f"{runs}, until it no longer changed ({status})"
    elif status.startswith("cycle"):
        what = f"{runs}; it did not settle: a round repeated an earlier policy ({status}), the last round shown"
    else:
        what = f"{runs}; it did not settle ({status}: the most rounds the report plays), the last round shown"
    return f"The same chart when every player at the table follows it: {what}. " + chart_legend


def sentence(rounds: pd.DataFrame, status: str, choice: pd.DataFrame) -> str:
    """The Answers' sentence on the fixed point."""
    last = rounds.iloc[-1]
    first = rounds.iloc[0]
    moved = ", ".join(f"{int(x.moved)} in round {int(x.round)}" for x in rounds.iloc[1:].itertuples())
    settled = status.startswith("fixed")
    text = ("Played as a policy by every seat and recomputed, the blind chart reaches a " + status if settled else
            "Played as a policy by every seat and recomputed, the blind chart does not settle: " + status)
    text += (f" (cells changed between blind and look: {moved or 'none'}). ")
    if settled:
        text += (f"At the fixed point every seat bids blind in {int(last.policy_blind)} of {len(choice)} situations "
                 f"(round 0 against the default players: {int(first.policy_blind)}) and no cell's verdict clearly "
                 f"says otherwise: blind is clearly best in {int(last.blind_cells)} of them even against players who "
                 f"do the same.")
    else:
        text += (f"In the last round the policy bids blind in {int(last.policy_blind)} of {len(choice)} situations "
                 f"(round 0: {int(first.policy_blind)}), and blind is clearly best in {int(last.blind_cells)}.")
    return text
