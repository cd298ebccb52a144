"""Facts about 501 that generic tools and reports ask its spec for (:class:`cardsim.games.base.GameFacts`)."""
from cardsim.games.base import GameFacts, MatchStart
from cardsim.games.g501.constants import START_SCORE

FACTS = GameFacts(
    title="501",
    partnerships=False,
    analysis="cardsim.analysis.g501",
    bench_condition="points>=50, marriages>=1",
    pimc_deals=40,
    quality_deals=2000,
    deal_seconds=3.7e-6,
    deals_per_match=13.9,
)


def remaining(before) -> float:
    """The share of a whole game's deals left from the scores ``before``: the lowest over 501
    (at least one deal's worth is counted by the caller)."""
    return min(before) / START_SCORE


MATCH_START = MatchStart(("before", "dealer"), remaining)
"""A 501 game may start from given scores (``before``, one per seat) and a given first dealer."""
