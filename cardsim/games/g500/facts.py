"""Facts about Five Hundred that generic tools and reports ask its spec for (:class:`cardsim.games.base.GameFacts`)."""
from cardsim.games.base import GameFacts

FACTS = GameFacts(
    title="Five Hundred",
    partnerships=True,
    analysis="cardsim.analysis.g500",
    bench_condition="trumps_H>=6, bowers_H>=1",
    pimc_deals=40,
    quality_deals=2000,
)
