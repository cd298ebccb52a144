"""Python entry points of the Five Hundred engine: numpy rows from the jitted kernels, and the rule
options' parsers."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import Setup, grow_until_fits
from cardsim.games.g500 import engine as E
from cardsim.games.g500.constants import SCORINGS
from cardsim.games.g500.records import check_setup, rule_numbers
from cardsim.games.g500.rows import MATCH_DEAL_DTYPE, MATCH_DTYPE, ROW_DTYPE, fill_rows
from cardsim.rng import check_seed

MAX_DEALS = 2000
"""Deal cap per match (a match that has not ended by then gets winner -1)."""


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


def play_matches(seed: int, start: int, count: int, setup: Setup):
    """Whole games to the target (docs/RULES.md §3.6), matches ``start .. start+count-1`` of ``seed``.

    The first dealer is drawn per match and the deal passes left after every deal (thrown-in
    deals included).  Returns ``(MATCH_DTYPE[count], MATCH_DEAL_DTYPE[deals])``.
    """
    seed_u = np.uint64(check_seed(seed))
    ids, params, scoring, target = _kernel_args(setup)

    def run(capacity):
        matches = np.zeros(count, dtype=MATCH_DTYPE)
        res = np.zeros((capacity, E.R_LEN), dtype=np.int64)
        deal_match = np.zeros(capacity, dtype=np.int64)
        deal_index = np.zeros(capacity, dtype=np.int64)
        n = E.match_kernel(seed_u, np.int64(start), np.int64(count), ids, params, scoring, target,
                           np.int64(MAX_DEALS), matches, res, deal_match, deal_index)
        return n, (n, matches, res, deal_match, deal_index)

    n, matches, res, deal_match, deal_index = grow_until_fits(run, max(64, 16 * count))
    res = res[:n]
    drows = np.zeros(n, dtype=MATCH_DEAL_DTYPE)
    fill_rows(drows, res, deal_index[:n])
    drows["match"] = deal_match[:n]
    drows["before_0"] = res[:, E.R_BEFORE0]
    drows["before_1"] = res[:, E.R_BEFORE1]
    return matches, drows
