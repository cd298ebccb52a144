"""Facts about Vint that generic tools and reports ask its spec for (:class:`cardsim.games.base.GameFacts`)."""
from cardsim.games.base import ContractBands, GainObjective, GameFacts

FACTS = GameFacts(
    title="Vint",
    partnerships=True,
    bench_condition="hcp=15-17, H>=5",
    # searching with DDS costs about a second a decision: a few deals per measurement
    pimc_deals=4,
    # DDS solves the whole table at about 0.05-0.1 s a deal and strategy: the slow game of the section
    quality_deals=600,
    objectives=(
        GainObjective("points", "points a rubber, the deviating partnership's total minus the other's (both "
                      "seatings; docs/RULES.md §2.7)", "score points a rubber", 25.0, "margin",
                      beside=(("win_gain", "win"),), matches=100_000),
        GainObjective("win", "share of rubbers won by the deviating partnership minus 0.5 (both seatings)",
                      "share of rubbers won (0..1)", 0.005, "win", beside=(("points_gain", "margin"),),
                      matches=40_000),
    ),
    # Part scores, games (4-5: 3NT-5D decide the game) and slams (6-7) apart (docs/RULES.md §2.4-§2.5).
    contract_bands=ContractBands(((1, 3), (4, 5), (6, 7)), "level"),
)
