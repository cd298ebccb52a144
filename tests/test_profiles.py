"""Player profiles and robust answers (issue 32): cardsim.profiles, cardsim.robust, evaluate --robust."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cardsim import profiles as P
from cardsim import robust as R
from cardsim.cli import main
from cardsim.questions import evaluate

Q501 = dict(seat=0, options=["look", "blind:80", "blind:100"], n=600, seed=3, before=[300, 300, 300], dealer=2,
            n_jobs=1)


@pytest.mark.parametrize("game, names", [("vint", {"previous", "heuristic_v1", "cautious", "bold"}),
                                         ("500", {"previous", "heuristic_v1", "cautious", "bold", "flat"}),
                                         ("501", {"previous", "heuristic_v1", "cautious", "bold", "contest", "score"})])
def test_builtin_profiles_are_listed_default_first(game, names):
    chosen = P.select(game)
    assert chosen[0].name == P.DEFAULT and chosen[0].seats == {}
    assert names <= {p.name for p in chosen}


# The parameter bold and cautious move, and by how much (the profiles' docs say what it costs).
STEPS = {"vint": ("aggression", 0.5), "500": ("margin", -0.5), "501": ("margin", -15.0)}


@pytest.mark.parametrize("game", ["vint", "500", "501"])
def test_bold_and_cautious_are_the_default_moved_one_way_and_the_other(game):
    # Centred on the default's own value: a retuned default must move them too.
    from cardsim.games import get_game
    param, step = STEPS[game]
    default = get_game(game).table.registry["heuristic"].params[param]
    profiles = P.builtin(game)
    for name, sign in (("bold", 1), ("cautious", -1)):
        assert profiles[name].seats == {"others": f"heuristic:{param}={default + sign * step:g}"}, name
    previous = {"vint": "heuristic_v4", "500": "heuristic_v4", "501": "heuristic_v3"}[game]
    assert profiles["previous"].seats == {"others": previous}


def test_relations_and_precedence():
    p = P.Profile("x", seats={"others": "A", "opponents": "B", "left": "C"})
    # seat 1 asks at a 4-seat table: partner 3, opponents 0 and 2, left 2, right 0
    assert p.strategies(["d"] * 4, 1) == ["B", "d", "C", "A"]
    assert P.Profile("y", seats={"partner": "Q"}).strategies(["d"] * 4, 0) == ["d", "d", "Q", "d"]
    # 501: three seats, no partner; right of seat 0 is seat 2
    assert P.Profile("z", seats={"others": "A", "right": "R"}).strategies(["d"] * 3, 0) == ["d", "A", "R"]


def test_profile_file_errors_name_the_profile(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('[wild]\nopponents = "heuristic:margin=999"\n')
    with pytest.raises(P.ProfileError, match=r"profile 'wild' .*margin"):
        P.load("501", bad)
    bad.write_text('[x]\npartner = "heuristic"\n')
    with pytest.raises(P.ProfileError, match="no partners"):
        P.load("501", bad)
    bad.write_text('[x]\nnorth = "heuristic"\n')
    with pytest.raises(P.ProfileError, match="unknown seat key 'north'"):
        P.load("vint", bad)
    js = tmp_path / "p.json"
    js.write_text('{"calm": {"doc": "calm", "others": "heuristic:aggression=-2"}}')
    assert P.load("vint", js)["calm"].seats == {"others": "heuristic:aggression=-2"}
    with pytest.raises(P.ProfileError, match="unknown vint profile 'nope'"):
        P.select("vint", ["nope"])


def test_robust_default_equals_plain_evaluate():
    plain = evaluate("501", **Q501)
    r = evaluate("501", **Q501, profiles=True)
    pd.testing.assert_frame_equal(r.tables["default"], plain)
    assert r.verdict["best"] == plain.option.iloc[0]


def test_a_profile_equal_to_the_default_does_not_act():
    """A profile that changes nothing the question reads is no evidence that the answer holds (issue 46)."""
    same = P.Profile("same", "the default by another name", {"others": "heuristic"})
    r = evaluate("501", **Q501, profiles=[same])
    assert list(r.tables) == ["default", "same"]
    a, b = r.tables["default"], r.tables["same"]
    np.testing.assert_array_equal(a.score.to_numpy(), b.score.to_numpy())  # same deals, same randomness
    v = r.verdict
    assert v["not_acting"] == ["same"] and v["tested"] == [] and v["flips_under"] == []
    assert v["verdict"] is None and v["holds"] is None
    assert "no other profile acts on this question" in r.text() and "not acting" in r.text()


def _sums(k, pair_mean, pair_sd, n=400, means=None):
    """Question-like sums with option 0..k-1 means ``means`` and every pairwise difference a - b of
    mean pair_mean[a, b] and standard deviation pair_sd (synthetic, exact moments)."""
    means = np.asarray(means if means is not None else np.zeros(k), dtype=float)
    pair_mean = np.asarray(pair_mean, dtype=float)
    return {"legal": np.full(k, float(n)), "s1": means * n, "s2": (means ** 2 + 1.0) * n,
            "pair_n": np.full((k, k), float(n)), "pair_s1": pair_mean * n,
            "pair_s2": (pair_mean ** 2 + pair_sd ** 2 * (n - 1) / n) * n}


def test_clearly_worse_at_its_boundary():
    # option 0 is the default's best; under this profile option 1 is better by d with sd 10 over 400
    # deals: se = 0.5, the 95% interval's upper end is -d + 0.98: below 0 iff d > 0.98
    z = 1.959963984540054
    for d, worse in ((z * 0.5 + 0.01, True), (z * 0.5 - 0.01, False)):
        pm = np.array([[0.0, -d], [d, 0.0]])
        s = R.profile_summary(["a", "b"], _sums(2, pm, 10.0, means=[0.0, d]), 0, 1.0)
        assert s["best"] == "b" and s["clearly_worse"] is worse
        assert s["gain"] == pytest.approx(-d) and s["gain_hi"] == pytest.approx(-d + z * 0.5)
    se = 10.0 / np.sqrt(400)
    default = {"best": "a", "gain": 3.0, "gain_se": se, "runner_up": "b", "rivals": [
        {"option": "b", "gain": 3.0, "gain_lo": 3 - z * se, "gain_hi": 3 + z * se, "se": se, "n": 400,
         "clearly_better": False}]}
    flipped = {"best": "b", "gain": -1.0, "gain_se": se, "runner_up": "b", "rivals": [
        {"option": "b", "gain": -1.0, "gain_lo": -1 - z * se, "gain_hi": -1 + z * se, "se": se, "n": 400,
         "clearly_better": True}]}
    v = R.verdict({"default": default, "p": flipped}, "a")
    assert (v["verdict"], v["holds"], v["flips_under"], v["gain_min"], v["gain_max"]) == (R.DEPENDS, False, ["p"],
                                                                                         -1.0, 3.0)
    assert v["best_under"] == {"default": "a", "p": "b"} and v["flip"] == 3.0
    assert v["deals_for_power"] == R.deals_for_power(3.0, 10.0)  # from the default's spread: sd 10


def test_gain_over_look_and_sign_of_a_counting_down_score():
    pm = np.array([[0.0, -4.0], [4.0, 0.0]])  # option 1 scores 4 more on the game's own (down) scale
    s = R.profile_summary(["look", "blind:80"], _sums(2, pm, 10.0, means=[0.0, 4.0]), 1, -1.0)
    assert s["best"] == "look" and s["gain_look"] == pytest.approx(-4.0) and s["clearly_worse"]


def test_cli_robust_json_and_bad_profile(capsys, tmp_path):
    args = ["evaluate", "501", "--option", "look", "--option", "blind:80", "--before", "300,300,300", "--dealer", "2",
            "-n", "300", "--jobs", "1", "--robust", "--profile", "bold", "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["profiles"]) == ["default", "bold"]
    assert set(out["verdict"]) >= {"best", "verdict", "holds", "power", "flip", "deals_for_power", "flips_under",
                                   "best_under", "tested", "not_acting", "gain_min", "gain_max"}
    assert out["tested"].startswith("every option (2) under 1 other profile (bold)") and out["verdict_text"]
    assert {"best", "gain", "gain_lo", "gain_hi", "options"} <= set(out["profiles"]["bold"])
    assert [o["option"] for o in out["profiles"]["default"]["options"]][0] == out["verdict"]["best"]
    assert main(args[:-4] + ["--profile", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown 501 profile 'nobody'" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("[x\n")
    assert main(args[:-4] + ["--profiles-file", str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    assert main([a for a in args if a != "--robust"]) == 2  # --profile without --robust
    assert "go with --robust" in capsys.readouterr().err


def test_cli_profiles_lists_them(capsys):
    assert main(["profiles", "vint"]) == 0
    out = capsys.readouterr().out
    assert "bold:" in out and "others = heuristic:aggression=1" in out
