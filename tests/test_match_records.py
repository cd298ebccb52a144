"""Deals inside 501 matches as records: what play_match played, deal by deal (issue: trace any
game-level number to its deals)."""
import pytest

import cardsim
from cardsim.cli import main


@pytest.mark.parametrize("seats, before, dealer", [(3, None, None), (4, None, None), (3, [100, 200, 300], 1)])
def test_match_records_are_the_matches_deals(seats, before, dealer):
    matches, deals = cardsim.play_match("501", 4, seed=7, seats=seats, before=before, dealer=dealer, compact=False)
    for m in range(4):
        recs = cardsim.match_records("501", m, seed=7, seats=seats, before=before, dealer=dealer)
        rows = deals[deals.match == m]
        assert len(recs) == matches.deals[m] == len(rows)
        assert [r["source"]["match"] for r in recs] == [m] * len(recs)
        assert [r["source"]["deal"] for r in recs] == list(range(len(recs)))
        for rec, (_, row) in zip(recs, rows.iterrows()):
            assert cardsim.replay(rec) == rec["result"]
            assert rec["dealer"] == row.dealer
            assert rec["before"]["scores"] == [int(row[f"score_{s}"]) for s in range(seats)]
            assert rec["result"]["delta"] == [int(row[f"delta_{s}"]) for s in range(seats)]
        final = recs[-1]["result"]["after"]["scores"]
        assert final == [int(matches[f"final_{s}"][m]) for s in range(seats)]
        assert recs[-1]["result"]["game_over"] and not any(r["result"]["game_over"] for r in recs[:-1])


def test_show_a_deal_of_a_match_and_errors(capsys):
    assert main(["show", "501", "--seed", "7", "--match", "1", "--deal", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("seed 7, match 1, deal 2 of ") and "auction" in out
    assert main(["show", "501", "--seed", "7", "--match", "1", "--deal", "999"]) == 2
    assert "deals (0 to" in capsys.readouterr().err
    assert main(["show", "500", "--match", "0"]) == 2
    assert "no match records" in capsys.readouterr().err
    assert main(["show", "501", "--before", "1,2,3"]) == 2
    assert "go with --match" in capsys.readouterr().err


def test_matches_without_a_winner_are_reported(capsys):
    from cardsim.cli import main

    assert main(["simulate", "501", "--matches", "2", "--jobs", "1", "--strategy", "random:p_pass=1"]) == 0
    captured = capsys.readouterr()
    assert "warning: 2 of 2 matches ended without a winner" in captured.err
    assert "2 501 matches (10000 deals)" in captured.out and "0 finished" in captured.out
    assert main(["simulate", "501", "--matches", "2", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err and "; 2 finished" in captured.out
    # Vint: players who never bid would deal void deals forever; the rubber stops at the cap
    # with no winner (it used to run until memory ran out).
    assert main(["simulate", "vint", "--matches", "1", "--jobs", "1", "--strategy", "random:pass_probability=1"]) == 0
    captured = capsys.readouterr()
    assert "warning: 1 of 1 matches ended without a winner" in captured.err
    assert "1 vint matches (5000 deals)" in captured.out
