"""``cardsim bench --strategies``: two strategies timed alternately on one core (issue 26: a new
default's per-core rate against the previous one's, under the same load; cardsim.bench.engine)."""
import itertools

import pytest

from cardsim.bench import engine
from cardsim.cli import main
from cardsim.games.base import OptionError
from cardsim.strategies.registry import StrategyError


def test_alternating_rates_keep_each_specs_best_round():
    # A clock read twice per spec and round: round times 4, 2 (first spec) and 5, 8 (second),
    # in the order the specs alternate; the best rounds are 2 s and 5 s of 1,000 deals.
    times = iter([0, 4, 10, 15, 20, 22, 30, 38])
    rates = engine.alternating_rates("501", ["heuristic", "heuristic_v1"], deals=1000, rounds=2, chunk=300,
                                    clock=lambda: next(times))
    assert rates == {"heuristic": 500.0, "heuristic_v1": 200.0}
    line = engine.alternating_line("501", rates, 1000, 2)
    assert line == ("501: heuristic 500/s, heuristic_v1 200/s (-60.0% against heuristic) (best of 2 alternating "
                    "rounds of 1,000 deals, CPU time, one core)")


def test_alternating_rates_on_the_real_clock_are_positive():
    clock = itertools.count(0.0, 0.5)
    rates = engine.alternating_rates("vint", ["heuristic", "random"], deals=600, rounds=1, chunk=250,
                                    clock=lambda: next(clock))
    assert rates == {"heuristic": 1200.0, "random": 1200.0}  # 0.5 s a round on this clock
    real = engine.alternating_rates("vint", ["heuristic"], deals=600, rounds=1)
    assert list(real) == ["heuristic"] and 0 < real["heuristic"] < 1e8


def test_alternating_errors():
    with pytest.raises(OptionError, match="name each strategy once"):
        engine.alternating_rates("vint", ["heuristic", "heuristic"])
    with pytest.raises(OptionError, match="at least 1"):
        engine.alternating_rates("vint", ["heuristic"], rounds=0)
    with pytest.raises(StrategyError, match="unknown vint strategy 'nope'"):
        engine.alternating_rates("vint", ["nope"], deals=10, rounds=1)


def test_cli_bench_strategies(capsys):
    assert main(["bench", "--games", "vint", "--deals", "500", "--rounds", "1", "--strategies", "heuristic",
                 "random"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("vint: heuristic ") and "against heuristic" in out[0]
    try:
        code = main(["bench", "--games", "vint", "--strategies", "nope"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and "unknown vint strategy 'nope'" in err and len(err.strip().splitlines()) == 1
