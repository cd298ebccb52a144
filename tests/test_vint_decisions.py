"""Vint's per-decision timing (cardsim/games/vint/decisions.py, ``python -m cardsim.profiling vint
--decisions``, issue 27): the views it collects are the strategy's (replayed, they give the deals'
calls and cards), the counts add up, and bad input is a one-line error."""
import numpy as np
import pytest

from cardsim import profiling
from cardsim.games import get_game
from cardsim.games.vint import decisions as D

VINT = get_game("vint")


@pytest.fixture(scope="module")
def views():
    return D.collect(VINT.setup(), 300, seed=4)


def test_views_replay_to_the_deals_choices(views):
    rows = D.time_decisions(views, repeats=2)  # raises if a replayed call or card differs
    assert [r["decision"] for r in rows] == ["bid evaluation", "lead", "card to a trick"]
    bids, leads, follows = (r["per_deal"] for r in rows)
    # Each played deal has 13 leads and 39 cards to a trick; void deals have neither.
    assert leads * 3 == pytest.approx(follows)
    assert 9 < leads < 13
    # Bid evaluations: the calls that reach the bid, fewer than all the calls made.
    assert 3 < bids < views["calls"] / views["deals"]
    assert all(r["ns"] > 0 and r["ns_per_deal"] == pytest.approx(r["ns"] * r["per_deal"]) for r in rows)


def test_a_wrong_view_is_caught(views):
    hand, others, played, ints = views["lead"]
    ints = ints.copy()
    ints[:, 7] = (ints[:, 7] + 1) % 64  # every lead's recorded card changed
    with pytest.raises(RuntimeError, match="lead: .* replayed decisions differ"):
        D.time_decisions({**views, "lead": (hand, others, played, ints)}, repeats=1)


def test_only_the_default_play_and_positive_deals():
    with pytest.raises(ValueError, match="not random"):
        D.collect(VINT.setup(["random"] * 4), 10)
    with pytest.raises(ValueError, match="positive"):
        D.collect(VINT.setup(), 0)


def test_profiling_prints_the_table(capsys):
    assert profiling.main(["vint", "--decisions", "--deals", "1e3"]) == 0
    out = capsys.readouterr().out
    assert "ns on one core" in out and "bid evaluation" in out and "card to a trick" in out
    shares = [float(line.split()[-1].rstrip("%")) for line in out.splitlines()
              if line.strip().startswith(("bid", "lead", "card"))]
    assert len(shares) == 3 and all(0 < s < 100 for s in shares) and sum(shares) < 100


@pytest.mark.parametrize("argv, message", [(["501", "--decisions"], "no per-decision timing for 501 (only for vint)"),
                                           (["bridge", "--decisions"], "unknown game 'bridge'"),
                                           (["vint", "--decisions", "--deals", "0"], "must be a whole number from 1"),
                                           (["vint", "--decisions", "--deals", "999"], "at least 1,000"),
                                           (["vint", "--decisions", "--strategy", " heuristic_v1"],
                                            "not heuristic_v1 (covers"),
                                           (["vint", "--decisions", "--strategy", "greedy"], "not greedy")])
def test_profiling_decisions_bad_input(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        profiling.main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and len(err.splitlines()) == 1


def test_a_sample_of_void_deals_only_has_no_play_to_time():
    # Nobody bids with aggression −13: every deal is void, so there is no lead and no card.
    views = D.collect(VINT.setup(["heuristic:aggression=-13"] * 4), 30)
    rows = {r["decision"]: r for r in D.time_decisions(views, repeats=1)}
    assert rows["lead"]["per_deal"] == 0 and rows["card to a trick"]["per_deal"] == 0
    assert rows["bid evaluation"]["per_deal"] > 0
