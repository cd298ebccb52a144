"""501 constants: ranks, card points, seats, trace encoding (docs/RULES.md §1.1).

Cards follow :mod:`cardsim.cards`: ``card = suit * 16 + rank`` with ranks ``9JQKTA`` (bit 0 =
the 9, the lowest trick rank; bit 5 = the ace).  Trump codes: 0..3 = the suit index
(``S C D H``), ``NT = 4`` for no-trump, ``NO_TRUMP = -1`` where there is no contract.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import RANKS_501, SUITS

RANKS = RANKS_501
N_CARDS = 24
HAND_SIZE = 7
TALON_SIZE = 3
TRICKS = 8
MIN_BID = 66
MAX_BID = 220
"""docs/RULES.md §1.3: 120 card points + 40 + 3 × 20 in marriages."""
START_SCORE = 501
ABANDON_PENALTY = 25
NT = 4
from cardsim.names import DENOMINATIONS  # noqa: E402,F401

R9, RJ, RQ, RK, RT, RA = range(6)
RANK_POINTS = np.array([0, 2, 3, 4, 10, 11], dtype=np.int64)
"""Card points by rank index (9 J Q K 10 A), docs/RULES.md §1.1."""

LANE_POINTS = np.array(
    [sum(int(RANK_POINTS[r]) for r in range(6) if m >> r & 1) for m in range(64)], dtype=np.int64
)
"""Card points of a 6-bit suit lane (index = lane bits)."""

DECK_MASK = np.uint64(sum(1 << (s * 16 + r) for s in range(4) for r in range(6)))
"""Bit set of the 24 cards."""

MARRIAGE_LANE = np.uint64((1 << RK) | (1 << RQ))

# ---- the play view's public record of each seat (engine.play_tricks -> dispatch.choose_card)
SEEN_CARDS = 0
"""Row of ``seen`` (uint64[2, 4]): ``seen[SEEN_CARDS, s]`` = the cards seat ``s`` has played this deal."""
SEEN_VOIDS = 1
"""Row of ``seen``: ``seen[SEEN_VOIDS, s]`` = the cards of every suit seat ``s`` has shown it holds
none of (the whole 6-card lane of each such suit): the led suit when it did not follow, and the
trump too when it then played a side card (it must trump if it can, docs/RULES.md §1.5)."""

# ---- decision codes
LOOK = -1
"""A blind call that looks at the hand instead of passing or bidding (docs/RULES.md §1.3)."""

# ---- trace encoding (engine -> records), one int32 per item
# calls: 0 = pass, b = bid b, BLIND_FLAG + b = blind bid b
BLIND_FLAG = 1000
# plays: card index, + DECLARE_FLAG when the lead declares a marriage
DECLARE_FLAG = 64
# trace layout
T_NCALLS = 0        # number of calls
T_CALLS = 1         # up to MAX_CALLS calls
MAX_CALLS = 160
T_CONTRACT = T_CALLS + MAX_CALLS   # abandon(1/0), trump code, target, give card to opp 1, opp 2 (in seat order)
T_NPLAY = T_CONTRACT + 5
T_PLAY = T_NPLAY + 1
TRACE_LEN = T_PLAY + 24

__all__ = [n for n in dir() if n.isupper()] + ["RANKS", "SUITS"]
