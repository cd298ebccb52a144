"""501 in the game, not only in the deal: who wins from a score state, and when a blind bid pays.

Two questions, both answered with the game's win (docs/RULES.md §1.8: the lowest score when someone
reaches 0 wins; exact ties share the win) rather than a deal's score change:

* **match equity** (:mod:`cardsim.analysis.g501.equity`) — each player's probability of winning
  the game from a state of scores, by playing whole games from it;
* **the blind decision** (:mod:`cardsim.analysis.g501.blind_chart`) — at its first turn of one deal,
  the player bids blind up to level ``L`` (``blind:L``) or looks (``look``), the game played on
  to its end with the same randomness for every option: the chart of the best choice per
  situation (own score, lead over both opponents, auction position).

This module holds what the report's section plays (:class:`Plan`), its tables (:func:`tables`)
and figures (:func:`figures`); the words are in :mod:`cardsim.analysis.g501.prose`.

Units: scores in score points (501 counts down); win probabilities as shares 0..1; gains in
percentage points (pp) of game-win probability.  Intervals are 95% (Wilson for win
probabilities, normal for paired gains).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from cardsim.analysis.g501 import blind_chart as B, equity as E

@dataclass(frozen=True)
class Plan:
    """What one run plays: the equity grids and games per state and first dealer, the decision
    situations and levels and deals per cell."""

    grid3: tuple
    grid4: tuple
    games: int
    games4: int
    own: tuple
    leads: tuple
    levels: tuple
    deals: int
    positions: tuple = B.POSITIONS


def plan(n: int, quick: bool = False) -> Plan:
    """The report's plan with ``n`` as an upper bound on games and deals per cell."""
    if quick:
        return Plan(E.QUICK_GRID3, E.QUICK_GRID4, min(n, E.QUICK_GAMES), min(n, E.QUICK_GAMES), B.QUICK_OWN,
                    B.QUICK_LEADS, B.QUICK_LEVELS, min(n, B.QUICK_DEALS))
    return Plan(E.GRID3, E.GRID4, min(n, E.GAMES), min(n, E.GAMES4), B.OWN, B.LEADS, B.LEVELS, min(n, B.DEALS))


def tables(states: pd.DataFrame, long: pd.DataFrame, robust: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """Every table from the states table (:func:`cardsim.analysis.g501.equity.run_equity`, both
    seat counts), the long decision frame (:func:`cardsim.analysis.g501.blind_chart.run_decisions`) and
    the robustness rows (:func:`cardsim.analysis.g501.blind_chart.run_robust`, or None)."""
    eq3 = E.equity_table(states, 3)
    choice = B.with_robust(B.choices(long), robust)
    out = {"g501_game_chart": B.chart(choice), "g501_game_equity": E.equity_wide(eq3)}
    if (states.seats == 4).any():
        out["g501_game_equity4"] = E.equity_wide(E.equity_table(states, 4))
    out["g501_game_choices"] = choice
    out["g501_game_decisions"] = long
    out["g501_game_equity_long"] = eq3
    if (states.seats == 4).any():
        out["g501_game_equity4_long"] = E.equity_table(states, 4)
    out["g501_game_states"] = states
    return out


CSV_ONLY = ["g501_game_choices", "g501_game_decisions", "g501_game_equity_long", "g501_game_equity4_long",
            "g501_game_states", "g501_fixed_choices", "g501_fixed_policies"]


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """The blind chart (``g501_game_chart.png``) and the equity heat maps (``g501_game_equity.png``)
    in ``outdir`` (created)."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    return [B.chart_figure(tabs["g501_game_choices"], outdir), E.equity_figure(tabs["g501_game_equity_long"], outdir)]
