"""Facts about 501 that generic tools and reports ask its spec for (:class:`cardsim.games.base.GameFacts`)."""
from cardsim.games.base import GameFacts

FACTS = GameFacts(
    title="501",
    partnerships=False,
    analysis="cardsim.analysis.g501",
    bench_condition="points>=50, marriages>=1",
    pimc_deals=40,
    quality_deals=2000,
)
