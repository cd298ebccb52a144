"""Python entry points of the 501 engine: numpy rows from the jitted kernels."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import OptionError, Setup, as_list, grow_until_fits
from cardsim.games.g501 import engine as E
from cardsim.games.g501.constants import START_SCORE
from cardsim.rng import check_seed
from cardsim.text import quote


def check_setup(setup: Setup):
    """Raise OptionError unless the table has 3 or 4 seats (docs/RULES.md §1.1)."""
    if setup.seats not in (3, 4):
        raise OptionError(f"501 is played with 3 or 4 seats, not {setup.seats}")


def start_scores(setup: Setup, scores) -> np.ndarray:
    """Every seat's score before the deal as int64[4] (seat 3 is 0 with 3 seats): 501 each unless
    ``scores`` lists one per seat; raises OptionError for a wrong count."""
    out = np.zeros(4, dtype=np.int64)
    if scores is None:
        out[: setup.seats] = START_SCORE
    else:
        scores = as_list(scores, "before (one score per seat)")
        if len(scores) != setup.seats:
            raise OptionError(f"scores must list one score per seat ({setup.seats})")
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and abs(v) <= 100_000
                   for v in scores):
            raise OptionError("scores must be whole numbers from -100,000 to 100,000")
        out[: setup.seats] = scores
    return out


def simulate_chunk(seed: int, start: int, count: int, setup: Setup, scores=None) -> np.ndarray:
    """Play deals ``start .. start+count-1`` of ``seed`` independently; returns ``ROW_DTYPE`` rows.

    Every seat starts from 501 unless ``scores`` (one int per seat) is given; the scores only
    matter to score-dependent blind policies (docs/RULES.md §1.3).  Raises OptionError.
    """
    check_setup(setup)
    seed = np.uint64(check_seed(seed))
    rows = np.zeros(int(count), dtype=E.ROW_DTYPE)
    E.simulate_kernel(seed, np.int64(start), np.int64(count), np.int64(setup.seats), setup.strategy_ids.astype(np.int64),
                      setup.params.astype(np.float64), start_scores(setup, scores), rows)
    return rows


def deal_chunk(seed: int, start: int, count: int) -> int:
    """Dealing only for ``count`` deals (3 seats): dealer draw, shuffle, hands; returns a checksum."""
    return int(E.deal_kernel(np.uint64(check_seed(seed)), np.int64(start), np.int64(count), np.int64(3)))


def play_matches(seed: int, start: int, count: int, setup: Setup, before=None, dealer=None):
    """Whole games to the end (docs/RULES.md §1.8) for matches ``start .. start+count-1``.

    Returns ``(match_rows, deal_rows)``: ``MATCH_DTYPE`` and ``MATCH_DEAL_DTYPE`` arrays.  Every
    game starts from ``before`` (one score per seat; None: 501 each) with ``dealer`` dealing
    first (None: drawn at random by the match), then the deal passes left after every deal (void
    deals included).  Match m's randomness depends on (seed, m) only.  Raises OptionError.
    """
    check_setup(setup)
    first = -1
    if dealer is not None:
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < setup.seats:
            raise OptionError(f"dealer must be a seat from 0 to {setup.seats - 1}, got {quote(dealer)}")
        first = int(dealer)
    scores = start_scores(setup, before)
    if (scores[: setup.seats] <= 0).any():
        raise OptionError("a game starts with every score above 0 (at 0 or below it is over, docs/RULES.md §1.8)")
    seed = np.uint64(check_seed(seed))
    sids = setup.strategy_ids.astype(np.int64)
    params = setup.params.astype(np.float64)

    def run(capacity):
        match_rows = np.zeros(int(count), dtype=E.MATCH_DTYPE)
        deal_rows = np.zeros(capacity, dtype=E.MATCH_DEAL_DTYPE)
        nd = E.match_kernel(seed, np.int64(start), np.int64(count), np.int64(setup.seats), sids, params,
                            scores, np.int64(first), match_rows, deal_rows)
        return nd, (match_rows, deal_rows[:nd])

    # a match lasts 12-15 deals on average, so most chunks fit the first time
    return grow_until_fits(run, max(16, 24 * int(count)))
