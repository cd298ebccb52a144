"""The line a Vint rubber stands at before a deal (docs/RULES.md §2.7): points below the line and
games won, by team, as questions, matches and records start from it.  Below the chunks, the
forcing and the records, which all read it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.games.base import OptionError, Setup, as_list
from cardsim.text import quote


@dataclass(frozen=True)
class State:
    """The line a Vint question starts from: points ``below`` the line and ``games`` won, by team
    (int64[2] each, docs/RULES.md §2.7), and what the question scores (``outcome``, a name of
    :data:`cardsim.games.vint.forcing.OUTCOMES`)."""

    below: np.ndarray
    games: np.ndarray
    outcome: str = "deal"

    @property
    def play_out(self) -> bool:
        """Whether the rubber is played on after the deal (the outcome is the rubber's)."""
        return self.outcome in ("game", "margin")

    def __repr__(self) -> str:  # manifests key resumable runs by it: plain numbers, not numpy's repr
        return (f"State(below={[int(b) for b in self.below]}, games={[int(g) for g in self.games]}, "
                f"outcome={self.outcome!r})")


def parse_before(before, setup: Setup) -> State:
    """The line before the deal (:class:`State`, scoring the deal) from ``None`` (a clean line),
    ``[b0, b1]`` or ``[b0, b1, g0, g1]`` (points below the line and games won, by team,
    docs/RULES.md §2.7).  Raises OptionError (one line)."""
    if before is None:
        return State(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64))
    values = as_list(before, "before (below0, below1[, games0, games1])")
    if len(values) not in (2, 4) or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                            for v in values):
        raise OptionError("Vint --before is below0,below1[,games0,games1]: whole numbers by team")
    below, games = values[:2], (values[2:] or [0, 0])
    if not all(0 <= b < 500 for b in below):
        raise OptionError("points below the line must be from 0 to 499 (500 wins the game)")
    if not all(0 <= g <= 1 for g in games):
        raise OptionError("games won before the deal must be 0 or 1 (two end the rubber)")
    return State(np.array(below, dtype=np.int64), np.array(games, dtype=np.int64))


def start_state(before, dealer):
    """The line a rubber starts from and its first dealer: ``(below, games, dealer)`` (int64[2],
    int64[2], int64; dealer −1: drawn per rubber) from ``before`` (None: a clean line; ``[below0,
    below1, games0, games1]`` or ``[below0, below1]``, by team, docs/RULES.md §2.7, as ``cardsim
    evaluate vint --before``) and ``dealer`` (None or a seat 0-3).  Raises OptionError in one line:
    a wrong count, points outside 0-499, games other than 0 or 1 (two end the rubber), a bad seat."""
    state = parse_before(before, None)
    first = -1
    if dealer is not None:
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < 4:
            raise OptionError(f"dealer must be a seat from 0 to 3, got {quote(dealer)}")
        first = int(dealer)
    return state.below, state.games, np.int64(first)
