"""Which option is best: the one ranking of a question's options, by paired comparisons (``cardsim.ranking``).

Options may be legal on different deals (a call legal only after the others passed low, the lead of
a card a partial hand may lack), so their means over their own deals are means over different
deals and may rank them the wrong way round.  Every table, verdict and chart therefore ranks with
:func:`rank`, which compares two options only on the deals where both were legal (the rule:
docs/statistics.md, "Which option is best"):

1. **Compared pairs.**  Two options are *compared* when they were legal together on at least
   :data:`MIN_SHARED` deals (the fewest a normal interval is given for, :data:`cardsim.stats.MIN_N_NORMAL`).
2. **Not compared.**  An option legal on fewer than :data:`MIN_SHARED` deals is not ranked.  While
   two of the remaining options are not compared, the one with the most partners it is not compared
   with is set aside (ties: the one legal on fewer deals, then the later option).  The options not
   ranked are reported as *not compared*; the ranked ones are all compared with each other.
3. **Order.**  Option a *beats* b when the mean of a − b on their shared deals is above 0 (higher is
   better; with ``then``, a second outcome on the same deals decides where the first is exactly
   equal).  The ranked options are ordered by wins minus losses against the other ranked options
   (Copeland's rule); an option that beats every other is first.  Equal counts (a cycle, or exact
   ties) are ordered by the mean of the option's paired differences against the other ranked options,
   then by the second outcome's, then by option order.

Where every option is legal on every deal (30 deals or more) the paired difference of two options is
the difference of their means, so the order is that of the means (ties in option order), as before
this rule.

Works on mergeable sums (numpy only: no pandas, no engine), the same for a question's table
(:func:`cardsim.questions.table`), ``--until-clear`` (:func:`cardsim.sequential.judge`), ``--robust``
(:mod:`cardsim.robust`) and the charts' choice on half 0 of the deals (:mod:`cardsim.selection`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.stats import MIN_N_NORMAL

MIN_SHARED = MIN_N_NORMAL
"""Fewest deals with both options legal for two options to be compared (and so ranked together)."""


@dataclass(frozen=True)
class Ranking:
    """The ranking of k options.

    ``order``: the ranked options' indices, best first; ``not_compared``: the others, in option
    order; ``shared``: for each option not compared, ``(partner, deals)`` — the option it was
    legal with on too few deals and how many (partner: the option itself when it was legal on too
    few deals at all);
    ``score`` (k,) float64: wins minus losses against the other ranked options (NaN when not
    compared)."""

    order: tuple
    not_compared: tuple
    shared: dict = field(default_factory=dict)
    score: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @property
    def best(self) -> int:
        """Index of the first ranked option, -1 when none is ranked."""
        return self.order[0] if self.order else -1

    @property
    def rows(self) -> list[int]:
        """Every option in table order: the ranked ones best first, then those not compared."""
        return [*self.order, *self.not_compared]

    def position(self) -> np.ndarray:
        """Rank of each option (k,) float64: 1 for the best, NaN for an option not compared."""
        out = np.full(len(self.order) + len(self.not_compared), np.nan)
        out[list(self.order)] = np.arange(1, len(self.order) + 1)
        return out

    def first_other(self, than: int) -> int | None:
        """The first option of :attr:`rows` other than ``than`` (the runner-up when ``than`` is the best):
        the best ranked one, else the first not compared; None with one option."""
        return next((j for j in self.rows if j != than), None)

    def why(self, j: int, names) -> str:
        """Why option ``j`` is not ranked, in words (``names``: the options' names)."""
        partner, deals = self.shared[j]
        if partner == j:
            return "never legal" if deals == 0 else (f"legal on {deals:,} deal{'s' if deals != 1 else ''} only, "
                                                     f"fewer than the {MIN_SHARED} needed to rank it")
        return (f"legal together with {names[partner]} on {deals:,} deal{'s' if deals != 1 else ''}, "
                f"fewer than the {MIN_SHARED} needed to compare them")


def _antisymmetric(pair_s1, n, sign):
    """Mean of a − b per pair on the shared deals (k, k), exactly antisymmetric; NaN with no shared deal."""
    s = sign * np.asarray(pair_s1, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, (s - s.T) / 2.0 / np.where(n > 0, n, 1.0), np.nan)


def rank(legal, pair_n, pair_s1, sign: float = 1.0, then=None, minimum: int = MIN_SHARED) -> Ranking:
    """Rank k options by paired comparisons on their shared deals (this module's rule).

    ``legal`` (k,): deals where each option was legal; ``pair_n``, ``pair_s1`` (k, k): over the
    deals where both a and b were legal, their number and the sum of a's score minus b's
    (:func:`cardsim.questions.run_question`'s sums, or a half of them); ``sign``: -1.0 where lower
    scores are better; ``then``: an optional second ``pair_s1`` (k, k) on the same deals (higher
    better) that decides pairs equal on the first; ``minimum``: fewest shared deals for two options
    to be compared.  Returns a :class:`Ranking`.  Raises ValueError for mismatched shapes or a
    minimum below 1.
    """
    legal = np.asarray(legal, dtype=np.float64).ravel()
    k = legal.size
    n = np.asarray(pair_n, dtype=np.float64)
    if n.shape != (k, k) or np.shape(pair_s1) != (k, k) or (then is not None and np.shape(then) != (k, k)):
        raise ValueError(f"rank needs legal (k,) and pair sums (k, k) of the same k, got {legal.shape}, {n.shape}, "
                         f"{np.shape(pair_s1)}")
    if minimum < 1:
        raise ValueError(f"the fewest shared deals must be at least 1, got {minimum}")
    diff = _antisymmetric(pair_s1, n, sign)
    second = _antisymmetric(then, n, 1.0) if then is not None else np.zeros((k, k))
    shared = {j: (j, int(legal[j])) for j in range(k) if legal[j] < minimum}
    alive = [j for j in range(k) if legal[j] >= minimum]
    while True:
        short = {a: [b for b in alive if b != a and n[a, b] < minimum] for a in alive}
        worst = max(alive, key=lambda a: (len(short[a]), -legal[a], a), default=None)
        if worst is None or not short[worst]:
            break
        partner = min(short[worst], key=lambda b: (n[worst, b], b))
        shared[worst] = (partner, int(n[worst, partner]))
        alive.remove(worst)
    score = np.full(k, np.nan)
    if alive:
        sub = np.ix_(alive, alive)
        d, t = diff[sub], second[sub]
        wins = (d > 0) | ((d == 0) & (t > 0))
        losses = (d < 0) | ((d == 0) & (t < 0))
        score[alive] = wins.sum(axis=1) - losses.sum(axis=1)
        m = len(alive)
        off = ~np.eye(m, dtype=bool)
        margin = np.where(off, d, 0.0).sum(axis=1) / max(m - 1, 1)
        margin2 = np.where(off, t, 0.0).sum(axis=1) / max(m - 1, 1)
        idx = np.array(alive)
        keys = np.lexsort((idx, -margin2, -margin, -score[alive]))
        alive = [int(idx[i]) for i in keys]
    return Ranking(tuple(alive), tuple(sorted(shared)), shared, score)


def rank_sums(sums: dict, sign: float = 1.0, half: int | None = None, then: dict | None = None,
              minimum: int = MIN_SHARED) -> Ranking:
    """:func:`rank` of a question's mergeable sums (keys ``legal``, ``pair_n``, ``pair_s1``), or of
    one half of its deals (``half`` 0 or 1: keys ``half_legal``, ``half_pair_n``, ``half_pair_s1``);
    ``then``: the sums of a second outcome on the same deals, deciding pairs equal on the first."""
    if half is None:
        legal, n, s1 = sums["legal"], sums["pair_n"], sums["pair_s1"]
        second = None if then is None else then["pair_s1"]
    else:
        legal, n, s1 = sums["half_legal"][half], sums["half_pair_n"][half], sums["half_pair_s1"][half]
        second = None if then is None else then["half_pair_s1"][half]
    return rank(legal, n, s1, sign, second, minimum)


__all__ = ["MIN_SHARED", "Ranking", "rank", "rank_sums"]
