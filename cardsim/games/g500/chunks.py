"""Python entry points of the Five Hundred engine: numpy rows from the jitted kernels, and the rule
options' parsers."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import OptionError, Setup, as_list, grow_until_fits
from cardsim.games.g500 import engine as E
from cardsim.games.g500.constants import SCORINGS
from cardsim.games.g500.records import check_setup, rule_numbers
from cardsim.games.g500.rows import MATCH_DEAL_DTYPE, MATCH_DTYPE, ROW_DTYPE, fill_rows
from cardsim.rng import check_seed
from cardsim.text import quote

MAX_DEALS = E.MAX_MATCH_DEALS
"""Deal cap per match (a match that has not ended by then gets winner -1)."""
MAX_SCORE = 100_000
"""Largest team score (either sign) a game may start from."""


def start_state(setup: Setup, before) -> tuple[int, int]:
    """Team scores before a deal, ``(s0, s1)`` (points, docs/RULES.md §3.6), from None (0, 0) or
    ``[s0, s1]`` (team 0 = seats 0 and 2); raises OptionError in one line: not two whole numbers,
    out of range, below 0 under quebec scoring (a side only gains, docs/RULES.md §3.6), or a side
    already at the run's target (the game is over)."""
    if before is None:
        return (0, 0)
    values = as_list(before, "before (the two teams' scores)")
    if len(values) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        raise OptionError("Five Hundred's state before a deal is s0,s1: the two teams' scores (whole numbers)")
    if not all(-MAX_SCORE <= v <= MAX_SCORE for v in values):
        raise OptionError(f"team scores must be from {-MAX_SCORE:,} to {MAX_SCORE:,}")
    _, target = rule_numbers(setup.rules)
    if setup.rules.get("scoring", "quebec") == "quebec" and min(values) < 0:
        # Under quebec scoring a side only ever gains (the defenders score a failed bid, §3.6).
        raise OptionError(f"team scores start at 0 and only grow under quebec scoring: {values[0]},{values[1]} cannot "
                          "occur (negative scores need --rule scoring=subtract)")
    if max(values) >= target:
        # A side at the target has won (§3.6): no deal follows, and replay refuses such a record.
        raise OptionError(f"a side already has the target {target}: the game is over before this deal")
    return int(values[0]), int(values[1])


def match_left(before, rules=None) -> float:
    """The share of a new game's deals still to play from the team scores ``before`` (for the
    pool's time estimate): the leading side's distance to the target over the target."""
    target = int((rules or {}).get("target", 1000))
    return max(0.05, min(1.0, (target - max(int(v) for v in before)) / target))


def parse_scoring(text: str) -> str:
    t = text.strip().lower()
    if t not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}")
    return t


def parse_target(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = 0  # '1.5', 'abc': the message below, not int()'s "invalid literal for int() with base 10"
    if not 0 < v <= 30000:
        raise ValueError("target must be a whole number from 1 to 30000")
    return v


def _kernel_args(setup: Setup):
    check_setup(setup)
    scoring, target = rule_numbers(setup.rules)
    return setup.strategy_ids.astype(np.int64), setup.params.astype(np.float64), scoring, target


def simulate_chunk(seed: int, start: int, count: int, setup: Setup) -> np.ndarray:
    """Independent deals ``start .. start+count-1`` of ``seed``: ROW_DTYPE[count].

    Each deal starts a match (scores 0-0), so ``winner`` is set only when one deal reaches the
    target.  Raises OptionError / ValueError for a bad setup or seed.
    """
    seed_u = np.uint64(check_seed(seed))
    ids, params, scoring, target = _kernel_args(setup)
    res = np.zeros((count, E.R_LEN), dtype=np.int64)
    E.simulate_kernel(seed_u, np.int64(start), np.int64(count), ids, params, scoring, target, res)
    rows = np.zeros(count, dtype=ROW_DTYPE)
    return fill_rows(rows, res, np.arange(start, start + count, dtype=np.int64))


def deal_chunk(seed: int, start: int, count: int) -> int:
    """Dealing only (the benchmark baseline); returns a checksum."""
    return int(E.deal_kernel(np.uint64(check_seed(seed)), np.int64(start), np.int64(count)))


def play_matches(seed: int, start: int, count: int, setup: Setup, before=None, dealer=None):
    """Whole games to the target (docs/RULES.md §3.6), matches ``start .. start+count-1`` of ``seed``.

    Every game starts from the team scores ``before`` (``[s0, s1]``; None: 0-0, :func:`start_state`)
    with seat ``dealer`` dealing first (None: drawn per match), and the deal passes left after
    every deal (thrown-in deals included).  Returns ``(MATCH_DTYPE[count], MATCH_DEAL_DTYPE[deals])``.
    Raises OptionError for a bad state or dealer.
    """
    seed_u = np.uint64(check_seed(seed))
    ids, params, scoring, target = _kernel_args(setup)
    s0, s1 = start_state(setup, before)
    first = -1
    if dealer is not None:
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < 4:
            raise OptionError(f"dealer must be a seat from 0 to 3, got {quote(dealer)}")
        first = int(dealer)

    def run(capacity):
        matches = np.zeros(count, dtype=MATCH_DTYPE)
        res = np.zeros((capacity, E.R_LEN), dtype=np.int64)
        deal_match = np.zeros(capacity, dtype=np.int64)
        deal_index = np.zeros(capacity, dtype=np.int64)
        n = E.match_from(seed_u, np.int64(start), np.int64(count), ids, params, scoring, target,
                         np.int64(MAX_DEALS), matches, res, deal_match, deal_index, np.int64(s0), np.int64(s1),
                         np.int64(first))
        return n, (n, matches, res, deal_match, deal_index)

    n, matches, res, deal_match, deal_index = grow_until_fits(run, max(64, 16 * count))
    res = res[:n]
    drows = np.zeros(n, dtype=MATCH_DEAL_DTYPE)
    fill_rows(drows, res, deal_index[:n])
    drows["match"] = deal_match[:n]
    drows["before_0"] = res[:, E.R_BEFORE0]
    drows["before_1"] = res[:, E.R_BEFORE1]
    return matches, drows
