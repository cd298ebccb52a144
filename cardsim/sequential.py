"""Stop when the answer is clear: a group-sequential choice of the best option (``cardsim.sequential``).

``cardsim evaluate --until-clear`` plays a question's options in rounds of doubling size and,
after each round (a *look*), asks whether some option is separated from every other option.  It stops at the first look where it is, or at the last planned look.

The method (docs/statistics.md, "Stopping when the answer is clear"): the looks are planned
before the first deal — ``first``, ``2·first``, ``4·first`` … deals, the last one at the maximum
(:func:`schedule`), so their number ``K`` is fixed in advance — and the error rate ``error`` is
split equally over the ``K`` looks and the ``k − 1`` comparisons of a look (Bonferroni alpha
spending).  At each look every paired difference *option − other* gets a two-sided normal
interval at level ``1 − error / (K (k − 1))``; an option is *clearly best* when every one of its
k − 1 intervals lies above 0 (:func:`judge`).  Whatever the data, the rounds played or the look at which the procedure stops, the
chance that it ever calls an option clearly best while another option is at least as good is at
most ``error`` (the union bound over the ``K`` looks and, at each look, over the ``k − 1``
comparisons with a truly best option; proof in the document).  The intervals are the normal
(CLT) intervals of :func:`cardsim.stats.mean_interval`, so the guarantee is asymptotic in the
deals of the first look, as every interval of the tables is.

Everything here works on mergeable sums (per option and per pair of options, as
:func:`cardsim.questions.run_question` returns them), so the same code judges a real question
and a synthetic stream of outcomes (:func:`sums_of`); no pandas, no engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.games.base import OptionError
from cardsim.ranking import rank_sums
from cardsim.stats import mean_interval
from cardsim.text import quote

FIRST = 2_000
"""Deals of the first look.  Large enough for the normal intervals at the small error rates a
look uses (0.05 / (K (k − 1)), often below 0.1%); each later look doubles it."""
MAX_DEALS = 1_000_000
"""Default most deals of a ``--until-clear`` run."""
ERROR = 0.05
"""Default error rate: the chance of calling a wrong option clearly best."""


MIN_ERROR = 1e-6
"""Smallest error rate taken: below it a look's intervals (error / (looks × (options − 1))) are so
wide that no run could stop, and the printed guarantee would be a number no one can read."""


def check_error(error) -> float:
    """``error`` as a float in [:data:`MIN_ERROR`, 0.5]; OptionError (one line) otherwise."""
    if isinstance(error, bool) or not isinstance(error, (int, float, np.integer, np.floating)) \
            or not MIN_ERROR <= float(error) <= 0.5:
        raise OptionError(f"the error rate must be a number from {MIN_ERROR:g} to 0.5 (e.g. 0.05), got {quote(error)}")
    return float(error)


def schedule(max_deals: int, first: int = FIRST) -> tuple[int, ...]:
    """The planned looks: the deals played by each, ``first · 2^j`` while below ``max_deals``,
    then ``max_deals`` (a tuple of increasing ints, the last ``max_deals``; ``(max_deals,)`` when
    ``max_deals <= first``).  Fixed by the two numbers alone, before any deal is played: that is
    what makes the split of the error over the looks valid."""
    for value, what in ((max_deals, "the most deals"), (first, "the deals of the first look")):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise OptionError(f"{what} must be a whole number from 1, got {quote(value)}")
    looks = []
    n = int(first)
    while n < max_deals:
        looks.append(n)
        n *= 2
    looks.append(int(max_deals))
    return tuple(looks)


def comparison_error(error: float, looks: int, options: int) -> float:
    """The two-sided error of each interval of one look: ``error / (looks · (options − 1))``."""
    if options < 2:
        raise OptionError("stopping when the answer is clear needs at least two options to compare")
    return error / (looks * (options - 1))


@dataclass(frozen=True)
class Look:
    """One look: ``deals`` played so far; ``best`` the index of the clearly best option, else of the
    first of :func:`cardsim.ranking.rank` (-1 when no option is ranked); ``clear`` whether every other
    option's difference from ``best`` is separated;
    ``lower``, ``upper`` (k,) float64 the interval of *best minus option* at the look's level
    (score units; NaN for the best itself and where fewer than 30 deals had both options legal)."""

    deals: int
    best: int
    clear: bool
    lower: np.ndarray
    upper: np.ndarray


def judge(sums: dict, level_error: float, sign: float = 1.0) -> Look:
    """Is the best option separated from every other in ``sums``?

    ``sums``: mergeable sums with ``deals`` (int), ``legal``, ``s1`` (k,) and ``pair_n``,
    ``pair_s1``, ``pair_s2`` (k, k): ``pair_*[a, b]`` over the deals where both a and b were legal,
    of a's score minus b's (:func:`sums_of`, :func:`cardsim.questions.run_question`).
    ``level_error``: two-sided error of each interval (:func:`comparison_error`); ``sign``: -1 when
    lower scores are better (the ranking and the differences are then turned round).  The best
    option is clear when, for every other option, the interval of the paired difference lies
    above 0; every option is tried, since options legal on different deals (``--option auto``)
    may rank one way by their means and the other way on the deals they share.  At most one option
    can be clear (its intervals against the others lie above 0, theirs against it below), and the
    split of the error holds whichever is tried: a wrong call of X needs X's interval against a
    truly best option to miss, one of the k − 1 comparisons with it that the split counts.  When
    none is clear, ``best`` is the first of :func:`cardsim.ranking.rank` (the answer's table's
    first row).  A clearly best option is that one too: its paired differences to every other
    are above 0, on at least 30 shared deals each, so it beats every other option.
    """
    legal = np.asarray(sums["legal"], dtype=np.float64)
    k = len(legal)
    ranking = rank_sums(sums, sign)
    _, _, lo, hi = mean_interval(sign * np.asarray(sums["pair_s1"], dtype=np.float64),
                                 np.asarray(sums["pair_s2"], dtype=np.float64),
                                 np.asarray(sums["pair_n"], dtype=np.float64), level=1.0 - level_error)
    lo, hi = np.array(lo, dtype=np.float64).reshape(k, k), np.array(hi, dtype=np.float64).reshape(k, k)
    np.fill_diagonal(lo, np.nan)
    np.fill_diagonal(hi, np.nan)
    # NaN (too few deals with both legal) is never "above 0": such an option blocks the verdict.
    separated = [a for a in range(k) if k > 1 and np.all(np.delete(lo[a], a) > 0.0)]
    best = separated[0] if separated else ranking.best
    if best < 0:  # no option legal on enough deals to be ranked
        nan = np.full(k, np.nan)
        return Look(int(sums["deals"]), -1, False, nan, nan)
    return Look(int(sums["deals"]), best, bool(separated), lo[best].copy(), hi[best].copy())


@dataclass(frozen=True)
class Sequential:
    """The outcome of :func:`until_clear`: ``planned`` the looks' deal counts (:func:`schedule`),
    ``error`` the stated error rate, ``level_error`` each interval's two-sided error, ``looks`` the
    looks taken (the last one decides)."""

    planned: tuple
    error: float
    level_error: float
    looks: list = field(default_factory=list)

    @property
    def deals(self) -> int:
        """Deals played."""
        return self.looks[-1].deals

    @property
    def clear(self) -> bool:
        return self.looks[-1].clear

    @property
    def best(self) -> int:
        """Index of the clearly best option, or -1 when none is."""
        return self.looks[-1].best if self.clear else -1

    def guarantee(self) -> str:
        """The guarantee in words."""
        return (f"the chance that this procedure calls a wrong option clearly best is at most {_percent(self.error)}, "
                f"whatever the round it stops at (each of the {len(self.planned)} planned looks compares the best "
                f"option with each other one by a {_percent(1 - self.level_error)} interval: Bonferroni over the "
                f"looks and the comparisons)")

    def to_dict(self, options=None) -> dict:
        """Plain data (for JSON): deals, clear, best (its name when ``options`` are given), error,
        the planned and taken looks."""
        best = self.best
        return {"deals": self.deals, "clear": self.clear,
                "best": (options[best] if options is not None else best) if best >= 0 else None,
                "error": self.error, "interval_level": 1 - self.level_error, "looks_planned": list(self.planned),
                "looks_taken": [look.deals for look in self.looks], "guarantee": self.guarantee()}


def until_clear(play, options: int, max_deals: int = MAX_DEALS, error: float = ERROR, first: int = FIRST,
                sign: float = 1.0, merge=None):
    """Play rounds until the best option is clear or ``max_deals`` are played.

    ``play(start, stop)``: plays deals ``start .. stop-1`` and returns a list of mergeable sum
    dicts (the keys of :func:`judge`); ``options``: how many options (k >= 2); ``merge(parts)``:
    sums a list of such dicts (default: key by key, in order).  Round ``r`` plays the deals
    between looks ``r − 1`` and ``r`` of :func:`schedule`, so no deal is played twice and the
    sums at a look are those of a fixed run of that many deals.  Returns ``(sums, Sequential)``:
    the merged sums of every deal played and the looks taken.  Raises OptionError for a bad
    ``error``, ``max_deals``, ``first`` or fewer than two options.
    """
    error = check_error(error)
    planned = schedule(max_deals, first)
    level = comparison_error(error, len(planned), options)
    merge = merge or _merge
    result = Sequential(planned, error, level)
    parts = []
    start = 0
    for stop in planned:
        parts.extend(play(start, stop))
        start = stop
        sums = merge(parts)
        result.looks.append(judge(sums, level, sign))
        if result.looks[-1].clear:
            break
    return sums, result


def _percent(x: float) -> str:
    return f"{100 * x:.4g}%"


def _merge(parts: list) -> dict:
    return {key: sum(p[key] for p in parts) for key in parts[0]}


def sums_of(scores, legal=None) -> dict:
    """The sums :func:`judge` reads, of per-deal outcomes: ``scores`` (n, k) float64 (deal by
    option, score units), ``legal`` (n, k) bool (default: all legal; scores of illegal entries are
    ignored).  For synthetic streams and tests; a question's sums come from its chunks."""
    scores = np.asarray(scores, dtype=np.float64)
    ok = np.ones(scores.shape, dtype=bool) if legal is None else np.asarray(legal, dtype=bool)
    o = ok.astype(np.float64)
    x = np.where(ok, scores, 0.0)
    cross, sq = x.T @ o, (x * x).T @ o  # [a, b]: a's scores (squared) summed over the deals b is legal
    return {"deals": scores.shape[0], "legal": o.sum(axis=0), "s1": x.sum(axis=0), "pair_n": o.T @ o,
            "pair_s1": cross - cross.T, "pair_s2": sq + sq.T - 2.0 * (x.T @ x)}


__all__ = ["until_clear", "judge", "schedule", "comparison_error", "check_error", "sums_of", "Look", "Sequential",
           "FIRST", "MAX_DEALS", "ERROR"]
