"""Chart cells under other player profiles (cardsim.analysis.robustness, issue 32)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis.g501 import blind_chart as B
from cardsim.analysis import robustness as RB

Z = 1.959963984540054


def _pair_sums(d: float, sd: float, n: int = 400) -> dict:
    """Sums of two options whose per-deal difference (option 0 minus option 1) has mean d, sd sd."""
    pm = np.array([[0.0, d], [-d, 0.0]])
    s2 = (pm ** 2 + sd ** 2 * (n - 1) / n) * n
    return {"legal": np.full(2, float(n)), "s1": np.array([d, 0.0]) * n, "s2": np.array([d * d + 1, 1.0]) * n,
            "pair_n": np.full((2, 2), float(n)), "pair_s1": pm * n, "pair_s2": s2}


def test_robust_deals():
    assert RB.robust_deals(10_000) == 2_500
    assert RB.robust_deals(200) == 100  # at least MIN_DEALS
    assert RB.robust_deals(60) == 60  # never more than the cell has


@pytest.mark.parametrize("d, worse", [(-(Z * 0.5 + 0.01), True), (-(Z * 0.5 - 0.01), False)])
def test_summary_clearly_worse_at_the_boundary(d, worse):
    # sd 10 over 400 deals: se 0.5; the best (option 0) is clearly worse iff d + Z*0.5 < 0
    s = RB.summary(_pair_sums(d, 10.0), ["a", "b"], "a", scale=100.0)
    assert s["clearly_worse"] is worse
    assert s["gain"] == pytest.approx(100 * d) and s["gain_hi"] == pytest.approx(100 * (d + Z * 0.5))


def test_summary_best_second_and_a_turned_sign():
    s = RB.summary(_pair_sums(3.0, 10.0), ["a", "b"], "b")  # b is 3 worse than a
    assert s["gain"] == pytest.approx(-3.0) and s["clearly_worse"]
    s = RB.summary(_pair_sums(3.0, 10.0), ["a", "b"], "b", sign=-1.0)  # a counting-down score: b is better
    assert s["gain"] == pytest.approx(3.0) and not s["clearly_worse"]


def test_cell_columns():
    replays = {"bold": {"gain": -1.5, "clearly_worse": True}, "cautious": {"gain": 4.0, "clearly_worse": False},
               "v1": {"gain": np.nan, "clearly_worse": False}}
    c = RB.cell_columns(2.0, replays, 250)
    assert c == {"holds": False, "flips_under": "bold", "gain_min": -1.5, "gain_max": 4.0, "robust_deals": 250}
    assert RB.cell_columns(2.0, {}, 10)["holds"] and RB.range_text({"gain_min": 1.0, "gain_max": 3.7}) == "+1.0..+3.7"


def test_sentence_counts_flips_by_profile():
    frame = pd.DataFrame({"holds": [True, False, False], "flips_under": ["", "bold", "bold, cautious"],
                          "gain_min": [1.0, -2.0, 0.5], "gain_max": [2.0, 3.0, 1.0]})
    text = RB.sentence(frame, "best call", "points", 3)
    assert "holds in 1 of 3 cells" in text and "depends on the players in 2 (bold flips 2, cautious flips 1)" in text


def test_501_robust_pair():
    g = pd.DataFrame({"option": ["look", "blind:70", "blind:90"], "level": [0, 70, 90], "win": [0.30, 0.32, 0.31]})
    assert B.robust_pair(g) == ("blind:70", 70)
    g["win"] = [0.40, 0.32, 0.35]
    assert B.robust_pair(g) == ("look", 90)  # look is best: measured against the best blind level


def test_501_replay_drops_a_profile_that_does_not_act_and_judges_one_that_does():
    """A profile playing as the default is no evidence (issue 46): it is named as not acting and
    nothing is replayed under it; a bold profile is replayed with every candidate of the cell."""
    from cardsim.profiles import Profile, select

    sit = B.Situation(300, 0, 0)
    long = B.decision_rows(sit, (70, 90), B.decision_sums(sit, (70, 90), 300, 7), 7)
    same = Profile("same", "the default by another name", {"others": "heuristic"})
    row = B.run_robust([sit], long, 300, 7, n_jobs=1, log=lambda s: None, profiles=[same]).iloc[0]
    assert row.profiles_not_acting == "same" and row.profiles_tested == "" and row.robust_verdict == ""
    bold = select("501", ["bold"])[1:]
    row = B.run_robust([sit], long, 300, 7, n_jobs=1, log=lambda s: None, profiles=bold).iloc[0]
    best, lvl = B.robust_pair(long)
    cands = row.candidates.split(", ")
    assert best in cands and "look" in cands and row.profiles_tested == "bold"
    assert row.best_under.startswith("bold=") and row.best_under[5:].split(" ")[0] in ("look", "blind:70", "blind:90")
    assert row.robust_verdict in ("holds", "depends on the players", "not decidable at this size")
    assert 0 <= row.power <= 1 and RB.MIN_DEALS <= row.robust_deals <= 300
    assert (row.robust_verdict == "depends on the players") == bool(row.flips_under == "bold") == (row.holds is False)
