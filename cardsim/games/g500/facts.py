"""Facts about Five Hundred that generic tools and reports ask its spec for (:class:`cardsim.games.base.GameFacts`)."""
from cardsim.games.base import ContractBands, GainObjective, GameFacts

FACTS = GameFacts(
    title="Five Hundred",
    partnerships=True,
    bench_condition="trumps_H>=6, bowers_H>=1",
    pimc_deals=40,
    quality_deals=2000,
    objectives=(
        GainObjective("win", "share of games won by the deviating partnership minus 0.5 (both seatings), the "
                      "mean of quebec and subtract scoring (docs/RULES.md §3.6)", "share of games won (0..1)",
                      0.005, "win", (("quebec", None, {"scoring": "quebec"}),
                                     ("subtract", None, {"scoring": "subtract"})), matches=30_000),
        GainObjective("points", "final score of the deviating partnership minus the other's (both seatings), "
                      "the mean of quebec and subtract scoring", "score points a game", 25.0, "margin",
                      (("quebec", None, {"scoring": "quebec"}), ("subtract", None, {"scoring": "subtract"})),
                      matches=30_000),
    ),
    # 6-7 the common contracts, 8-10 the high ones where the bidder counts on partner and kitty.
    contract_bands=ContractBands(((6, 7), (8, 10)), "level"),
)
