"""cardsim.analysis.quality (cardsim.quality) and ``cardsim quality``: strategies against double-dummy on the same deals."""
import json
import re

import numpy as np
import pytest

from cardsim.cli import main
from cardsim.games.base import OptionError
from cardsim.analysis.quality import SUMMARY_COLUMNS, deal_rows, quality, strategy_names, summarize
from cardsim.strategies.registry import StrategyError


@pytest.fixture(scope="module")
def vint_rows():
    return deal_rows("vint", 60, seed=4)


def test_every_registered_strategy_random_first():
    assert strategy_names("vint")[0] == "random" and {"heuristic", "greedy"} <= set(strategy_names("vint"))
    assert strategy_names("500") == ["random", "heuristic", "heuristic_v5", "heuristic_v4", "heuristic_v3",
                                     "heuristic_v2", "heuristic_v1"]


def test_vint_same_deals_and_random_is_the_floor(vint_rows):
    names = strategy_names("vint")
    assert list(vint_rows.strategy.unique()) == names
    for name in names:
        assert list(vint_rows[vint_rows.strategy == name].deal) == list(range(60))
    t = summarize(vint_rows).set_index("strategy")
    assert list(t.columns) == SUMMARY_COLUMNS[1:]
    assert (t.deals == 60).all() and (t.n <= 60).all() and t.loc["heuristic", "n"] >= 30
    # random bids at random: its contracts are rarely DD-makeable and rarely made.  Its vs_dd is NOT
    # below the heuristic's: random defenders give away as many tricks as random declarers lose
    # (vs_dd counts both sides' errors), so the floor shows in the rates, not in vs_dd.
    assert t.loc["random", "dd_makeable"] < t.loc["heuristic", "dd_makeable"] - 0.3
    assert t.loc["random", "made"] < t.loc["heuristic", "made"] - 0.3
    assert -2.5 < t.loc["heuristic", "vs_dd"] < 0.5 and t.loc["heuristic", "vs_dd_hi"] < 0.3
    assert t.loc["heuristic", "right_side"] > 0.7
    # made can exceed DD-makeable only through the defenders' errors: not by much for the heuristic.
    assert t.loc["heuristic", "made"] <= t.loc["heuristic", "dd_makeable"] + 0.1
    given = t.dropna(subset=["vs_dd_lo"])  # fewer than 30 declared deals (random here) get no interval
    assert len(given) >= 3 and (given.vs_dd_lo <= given.vs_dd).all() and (given.vs_dd <= given.vs_dd_hi).all()


def test_vint_rows_are_consistent_with_dd_and_contract(vint_rows):
    dec = vint_rows[vint_rows.declared]
    assert (dec.made == (dec.result >= dec.level + 6)).all()
    assert (dec.dd_makeable == (dec.dd >= dec.level + 6)).all()
    assert dec.dd.between(0, 13).all() and dec.level.between(1, 7).all()
    assert not vint_rows[~vint_rows.declared].made.any()


def test_by_denomination_and_level_adds_up(vint_rows):
    by = summarize(vint_rows, ("denomination", "level"))
    assert set(by.denomination) <= {"S", "C", "D", "H", "NT"}
    total = summarize(vint_rows).set_index("strategy").n
    assert by.groupby("strategy", sort=False).n.sum().to_dict() == total.to_dict()


@pytest.mark.parametrize("game, values, labels", [
    ("vint", [1, 3, 4, 5, 6, 7], ["1-3", "1-3", "4-5", "4-5", "6-7", "6-7"]),
    ("500", [6, 7, 8, 10], ["6-7", "6-7", "8-10", "8-10"]),
    ("501", [66, 99, 100, 119, 120, 220], ["66-99", "66-99", "100-119", "100-119", "120-220", "120-220"]),
])
def test_contract_bands_at_their_edges(game, values, labels):
    from cardsim.games import get_game

    bands = get_game(game).facts.contract_bands
    got = bands.of(values)
    assert list(got) == labels and got.ordered and list(got.categories) == list(dict.fromkeys(labels))
    # An undeclared deal has no band; a declared value outside every band is a bug, said in one line.
    assert bands.of([values[0], 0], [True, False]).isna().tolist() == [False, True]
    with pytest.raises(ValueError, match=f"outside the bands {', '.join(dict.fromkeys(labels))}"):
        bands.of([values[-1] + 1])
    with pytest.raises(ValueError, match="ascending and adjacent"):
        type(bands)(((1, 3), (5, 7)), "level")


def test_by_band_counts_every_declared_deal_once(vint_rows):
    by = summarize(vint_rows, ["band"])
    assert set(by.band) <= {"1-3", "4-5", "6-7"} and list(by.band.cat.categories) == ["1-3", "4-5", "6-7"]
    total = summarize(vint_rows).set_index("strategy").n
    assert by.groupby("strategy", sort=False).n.sum().to_dict() == total.to_dict()
    heur = by[by.strategy == "heuristic"]
    assert list(heur.band) == sorted(heur.band)  # in band order
    lev = vint_rows[vint_rows.declared & (vint_rows.strategy == "heuristic")].level
    assert heur.set_index("band").n.to_dict() == {
        b: int(((lev >= lo) & (lev <= hi)).sum()) for b, (lo, hi) in zip(["1-3", "4-5", "6-7"], [(1, 3), (4, 5), (6, 7)])
        if ((lev >= lo) & (lev <= hi)).any()}


def test_501_quality_by_band_and_denomination_sums_to_the_total():
    whole = quality("501", 60, seed=5, strategies=["heuristic"])
    by = quality("501", 60, seed=5, strategies=["heuristic"], by=["band", "denomination"])
    assert by.n.sum() == whole.n.iloc[0] > 30
    assert set(by.band) <= {"66-99", "100-119", "120-220"} and len(set(by.band)) >= 2
    assert (by.made.between(0, 1)).all() and list(by.columns[:3]) == ["strategy", "band", "denomination"]


def test_500_heuristic_beats_random():
    t = quality("500", 30, seed=2).set_index("strategy")
    assert list(t.index) == ["random", "heuristic", "heuristic_v5", "heuristic_v4", "heuristic_v3", "heuristic_v2",
                             "heuristic_v1"]
    assert t.loc["random", "dd_makeable"] < t.loc["heuristic", "dd_makeable"]
    assert np.isnan(t.loc["heuristic", "right_side"])


def test_errors_are_one_line():
    with pytest.raises(OptionError, match="positive whole number"):
        quality("vint", 0)
    with pytest.raises(StrategyError, match="unknown vint strategy 'nope'"):
        quality("vint", 5, strategies=["nope"])
    with pytest.raises(OptionError, match="by takes band, denomination, level"):
        quality("vint", 5, by=["suit"])
    # Named twice, a strategy's deals would count twice in its row; a column twice breaks the grouping.
    with pytest.raises(OptionError, match="heuristic named more than once"):
        quality("vint", 3, strategies=["heuristic", "heuristic"])
    with pytest.raises(OptionError, match="level given more than once"):
        quality("vint", 3, by=["level", "level"])


def test_cli_json_keys(capsys):
    assert main(["quality", "vint", "-n", "40", "--seed", "3", "--format", "json", "--jobs", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["strategy"] for r in rows] == strategy_names("vint")
    for r in rows:
        assert {"strategy", "n", "vs_dd", "vs_dd_lo", "vs_dd_hi", "dd_makeable", "made"} <= set(r)
        assert r["deals"] == 40 and 0 <= r["made"] <= 1


@pytest.mark.parametrize("argv, message", [
    (["quality", "vint", "-n", "0"], "must be a whole number from 1"),
    (["quality", "bridge", "-n", "5"], "unknown game 'bridge'"),
    (["quality", "vint", "-n", "5", "--strategies", "nope"], "unknown vint strategy 'nope'"),
    (["quality", "vint", "-n", "5", "--by", "suit"], "by takes band, denomination, level"),
    (["quality", "501", "-n", "5", "--by", "band,trump"], "by takes band, denomination, level (comma-separated), got 'trump'"),
])
def test_cli_errors(argv, message, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_wilson_bounds_are_exact_at_the_ends():
    from cardsim.stats import wilson

    lo, hi = wilson([0, 7, 12], [12, 12, 12])
    assert lo[0] == 0.0 and hi[2] == 1.0
    assert 0.0 < lo[1] < 7 / 12 < hi[1] < 1.0 and hi[0] < 1.0 and lo[2] > 0.0


def test_level_filter_keeps_the_contracts_of_those_levels_only(vint_rows):
    """``--level 4-7`` (issue 47): n, vs_dd and made of the contracts at level 4 and above only,
    equal to the same figures computed by hand from the per-deal rows."""
    from cardsim.analysis.quality import check_levels

    assert check_levels("vint", "4-7") == (4, 7) and check_levels("vint", " 4 ") == (4, 4)
    assert check_levels("vint", (2, 3)) == (2, 3) and check_levels("501", "100-119") == (100, 119)
    t = summarize(vint_rows, levels=(2, 7)).set_index("strategy")
    heur = vint_rows[(vint_rows.strategy == "heuristic") & vint_rows.declared]
    high = heur[heur.level >= 2]
    assert 0 < len(high) < len(heur)   # the filter drops some contracts of these deals and keeps others
    assert t.loc["heuristic", "n"] == len(high) and t.loc["heuristic", "deals"] == 60
    assert t.loc["heuristic", "vs_dd"] == pytest.approx((high.result - high.dd).mean())
    assert t.loc["heuristic", "made"] == pytest.approx(high.made.mean())
    by = summarize(vint_rows, ["level"], levels=(2, 2))
    assert set(by.level) == {2} and by[by.strategy == "heuristic"].n.iloc[0] == (heur.level == 2).sum()
    # 501's heights are targets: the filter reads the target, not the level column's tens.
    rows501 = deal_rows("501", 40, seed=5, strategies=["heuristic"])
    dec = rows501[rows501.declared]
    cut = int(dec.height.median())
    got = summarize(rows501, levels=(cut, 220)).n.iloc[0]
    assert got == (dec.height >= cut).sum() and 0 < got < len(dec)


@pytest.mark.parametrize("levels, message", [
    ("4-x", "level takes a level or a range LOW-HIGH of whole numbers (e.g. 6-7), got '4-x'"),
    ("7-4", "level range 7-4 runs backwards: write 4-7"),
    ("8-9", "vint contracts have levels 1-7: level 8-9 holds none"),
    ((4, 5, 6), "level takes a level or a pair (low, high) of whole numbers"),
])
def test_level_filter_errors(levels, message):
    with pytest.raises(OptionError, match=re.escape(message)):
        quality("vint", 3, levels=levels)


@pytest.mark.parametrize("argv, message", [
    (["quality", "vint", "-n", "5", "--level", "four"], "got 'four'"),
    (["quality", "vint", "-n", "5", "--level", "0"], "vint contracts have levels 1-7: level 0-0 holds none"),
    (["quality", "501", "-n", "5", "--level", "10"], "501 contracts have targets 66-220: level 10-10 holds none"),
])
def test_level_filter_cli_errors(argv, message, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
