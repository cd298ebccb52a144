"""501's blind chart as a policy, played until it stops changing (issue 32).

The decision chart (:mod:`cardsim.analysis.g501_game`) says where a blind first call beats
looking *against the default players*, who bid blind by a fixed rule of their own.  Here the
chart itself becomes the players' rule: every seat takes its blind decision from the chart
(:mod:`cardsim.analysis.g501_policy`: bid blind up to the cell's best level where its verdict is
"blind to …", else look), the chart is computed again with every seat on that policy, and so on:

* round 0 is the chart against the default players;
* round ``r`` computes the chart with every seat (the studied player's later deals included) on
  the policy of round ``r - 1``'s chart;
* it stops when no cell's verdict *kind* changes (blind / look / no clear answer: a change of
  the best level inside "blind" is noise, not a new answer), or when a round repeats an earlier
  round's verdicts (a cycle: reported with its period), or after ``max_rounds`` rounds.

Every round plays the same situations with the same seeds (common random numbers across
rounds), so a cell moves because the players changed, not because the deals did.  The answer at
a fixed point reads "blind here even against players who do the same".
"""
from __future__ import annotations

import time

import pandas as pd

from cardsim.analysis import g501_game as G

MAX_ROUNDS = 4
"""Rounds after round 0 at most (each costs a whole decision chart)."""
SHARE = 0.5
"""The share of the chart's deals per situation that each round plays."""
METHOD = ("The chart as a fixed point: the chart is made the blind policy of every seat (blind up to a cell's best "
          "level where its verdict is 'blind to ...', else look; the nearest chart cell for other scores) and "
          f"computed again with every seat on it, on {int(SHARE * 100)}% of the chart's deals per situation and "
          f"the same seeds each round, until no cell's verdict kind (blind / look / no clear answer) changes, a "
          f"round repeats an earlier one (a cycle) or {MAX_ROUNDS} rounds have been played.")
GLOSSARY = {
    "round": "(g501_fixed_rounds) 0 = the chart against the default players; r = the chart with every seat playing "
             "round r-1's chart as its blind policy (g501_fixed_chart: the last round)",
    "blind_cells / look_cells / unclear_cells": "situations whose verdict is blind / look / no clear answer that round",
    "moved / moved_cells": "situations whose verdict kind changed from the round before, as own/lead/position: "
                           "from->to",
}
ROUND_COLUMNS = ["round", "blind_cells", "look_cells", "unclear_cells", "moved", "moved_cells", "policy"]


def kind(verdict: str) -> str:
    """A verdict's kind: ``blind``, ``look`` or ``unclear``."""
    if verdict.startswith("blind"):
        return "blind"
    return "look" if verdict == G.LOOK else "unclear"


def policy_frame(choice: pd.DataFrame) -> pd.DataFrame:
    """The policy a chart stands for: per situation ``best`` = ``blind:L`` (the best level) where the
    verdict is "blind to …", else ``look`` (an unclear cell is played safe: looking); an auction
    position the chart has no situation in is played looking."""
    best = [r.best if kind(r.verdict) == "blind" else G.LOOK for r in choice.itertuples()]
    frame = choice[["own", "lead", "position"]].assign(best=best)
    # a grid without some auction position (a small test grid) says nothing there: look
    missing = [p for p in G.POSITIONS if p not in set(frame.position)]
    extra = pd.DataFrame({"own": [G.OWN[0]] * len(missing), "lead": [0] * len(missing), "position": missing,
                          "best": [G.LOOK] * len(missing)})
    return pd.concat([frame, extra], ignore_index=True) if missing else frame


def policy_spec(choice: pd.DataFrame) -> str:
    """The strategy spec of every seat that plays ``choice`` as its blind policy."""
    from cardsim.analysis.g501_policy import chart_policy_spec

    return chart_policy_spec(policy_frame(choice))


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
    round's choices, one row per round (:data:`ROUND_COLUMNS`: the verdict kinds' counts, how many
    cells moved from the round before and which — ``own/lead/position: from->to`` — and the policy
    spec played), and ``status``: ``"fixed point after R rounds"``, ``"cycle of period P"`` or
    ``"not settled after R rounds"``."""
    sits = list(sits)
    choice = start
    kinds = _kinds(choice)
    history = [kinds]
    rounds = [{"round": 0, **_counts(kinds), "moved": 0, "moved_cells": "", "policy": "default players"}]
    status = f"not settled after {max_rounds} rounds"
    for r in range(1, max_rounds + 1):
        started = time.time()
        spec = policy_spec(choice)
        log(f"  fixed point, round {r}: every seat plays the round-{r - 1} chart")
        long = G.run_decisions(sits, levels, deals, seed, n_jobs, strategies=[spec] * 3, log=lambda s: None,
                               results=results)
        choice = G.choices(long)
        new = _kinds(choice)
        moved = [f"{k[0]}/{k[1]:+d}/{k[2]}: {kinds[k]}->{new[k]}" for k in new if new[k] != kinds.get(k)]
        rounds.append({"round": r, **_counts(new), "moved": len(moved), "moved_cells": "; ".join(moved),
                       "policy": spec})
        log(f"    {len(moved)} cells moved ({time.time() - started:.0f} s)")
        if not moved:
            status = f"fixed point after {r} round{'s' if r > 1 else ''}"
            break
        if new in history:
            status = f"cycle of period {len(history) - history.index(new)}"
            break
        history.append(new)
        kinds = new
    return choice, pd.DataFrame(rounds, columns=ROUND_COLUMNS), status


def sentence(rounds: pd.DataFrame, status: str, choice: pd.DataFrame) -> str:
    """The Answers' sentence on the fixed point."""
    last = rounds.iloc[-1]
    first = rounds.iloc[0]
    moved = ", ".join(f"{int(x.moved)} in round {int(x.round)}" for x in rounds.iloc[1:].itertuples())
    text = (f"Played as a policy by every seat and recomputed until it stops changing, the chart reaches a "
            f"{status}" if status.startswith("fixed") else
            f"Played as a policy by every seat and recomputed, the chart does not settle: {status}")
    when = ("when every player follows the chart" if status.startswith("fixed") else
            f"in the last round ({int(last['round'])})")
    text += (f" (cells moved: {moved or 'none'}); blind is clearly best in {int(last.blind_cells)} of "
             f"{len(choice)} situations {when} (against the default players: {int(first.blind_cells)}), looking "
             f"in {int(last.look_cells)} ({int(first.look_cells)}).")
    return text
