"""501 engine: conformance on random play, the rows' own fields, the blind policy (round trip, chunking
and rows vs records: tests/test_conformance.py)."""

import numpy as np
import pandas as pd
import pytest

from cardsim.cards import parse_card
from cardsim.games.base import OptionError, StrategyError
from cardsim.games.g501 import SPEC
from cardsim.games.g501.constants import RANKS
from cardsim.rng import deal_key, stream, randbelow, shuffle

N = 400


@pytest.fixture(scope="module", params=[(3, "random"), (3, "heuristic"), (4, "random"), (4, "heuristic")])
def run(request):
    seats, strat = request.param
    setup = SPEC.setup(strat, seats=seats)
    return setup, SPEC.play.simulate_chunk(11, 0, N, setup), SPEC.play.make_records(11, range(N), setup)


def test_rows_carry_the_contract_and_the_marriages(run):
    # The round trip and the row fields named like the result's (delta, cards, blind, ...):
    # tests/test_conformance.py; these two are named otherwise in the rows.
    setup, rows, recs = run
    for rec, row in zip(recs, rows):
        res = rec["result"]
        assert row["bid"] == (res["contract"] or 0)
        for s in range(setup.seats):
            assert row[f"marr_{s}"] == res["marriages"][s]


def test_conformance(run):
    setup, rows, recs = run
    df = pd.DataFrame(rows)
    seats = setup.seats
    played = df[df.played]
    total = sum(played[f"cards_{s}"] for s in range(4))
    assert (total == 120).all()                       # cards conserved, points add up
    assert ((df.bid == 0) | ((df.bid >= 66) & (df.bid <= 220))).all()
    assert (played.target >= played.bid).all() and (played.target <= 220).all()
    assert (df.void == (df.declarer < 0)).all()
    assert ((df.void == 1) | df.played | df.abandoned).all()
    for rec in recs:
        assert len(rec["play"]) in (0, 24)
        cards = [c for h in rec["hands"] for c in h] + rec["talon"]
        assert len(set(cards)) == 24
        if seats == 4:
            assert rec["hands"][rec["dealer"]] == []
    if seats == 4:
        for s in range(4):
            d = df[df.dealer == s]
            assert (d[f"delta_{s}"] == 0).all() and (d[f"hand_pts_{s}"] == 0).all()
    assert (df.talon_pts + sum(df[f"hand_pts_{s}"] for s in range(4)) == 120).all()


def test_deal_matches_documented_convention():
    """Dealer = randbelow(stream(key, 0), seats) drawn first, then shuffle with the same stream."""
    setup = SPEC.setup("random", seats=3)
    rec = SPEC.play.make_records(5, [17], setup)[0]
    st = stream(deal_key(np.uint64(5), 17), 0)
    dealer = randbelow(st, 3)
    deck = np.array([16 * (i // 6) + i % 6 for i in range(24)], dtype=np.int64)
    shuffle(deck, st)
    assert rec["dealer"] == dealer
    first = (dealer + 1) % 3
    assert parse_card(rec["hands"][first][0], RANKS) in deck[[0, 4, 8, 12, 15, 18, 21]]
    assert sorted(parse_card(t, RANKS) for t in rec["talon"]) == sorted(deck[[3, 7, 11]])


def test_blind_policy_parameters():
    always = SPEC.setup("heuristic:blind_level=90,blind_prob=1,blind_cur=500")
    rows = pd.DataFrame(SPEC.play.simulate_chunk(1, 0, 300, always))
    assert rows.blind_bids.gt(0).all()
    never = SPEC.setup("heuristic:blind_level=0")
    rows = pd.DataFrame(SPEC.play.simulate_chunk(1, 0, 300, never))
    assert (rows.blind_bids == 0).all() and not rows.blind.any()
    # only the first speaker (position 0) may bid blind
    first = SPEC.setup("heuristic:blind_level=90,blind_prob=1,blind_pos=0,blind_cur=500")
    recs = SPEC.play.make_records(1, range(100), first)
    for rec in recs:
        assert rec["auction"][0].startswith("B")
        assert not any(c.startswith("B") for c in rec["auction"][1:3])
    # score gate: with scores above blind_score nobody bids blind
    gated = SPEC.setup("heuristic:blind_level=90,blind_prob=1,blind_score=200")
    rows = pd.DataFrame(SPEC.play.simulate_chunk(1, 0, 200, gated))
    assert (rows.blind_bids == 0).all()
    rows = pd.DataFrame(SPEC.play.simulate_chunk(1, 0, 200, gated, scores=[150, 150, 150]))
    assert rows.blind_bids.gt(0).all() and (rows.score_0 == 150).all()


def test_blind_bids_count_past_127():
    # docs/RULES.md §1.3: bids run from 66 to 220 with raises of 1, so an auction can hold 155 blind
    # bids; the count was int8 and wrapped to negative numbers past 127
    everyone = SPEC.setup("heuristic:blind_prob=1,blind_later=1,blind_cur=10000,blind_level=10000")
    rows = pd.DataFrame(SPEC.play.simulate_chunk(1, 0, 20, everyone))
    assert rows.blind_bids.max() == 155  # 66, 67, …, 220, every one blind
    assert (rows.blind_bids >= 0).all() and (rows.blind_bids <= rows.n_calls).all()


def test_heuristic_is_sensible():
    rows = pd.DataFrame(SPEC.play.simulate_chunk(2, 0, 3000, SPEC.setup()))
    played = rows[rows.played]
    assert 0.4 < played.made.mean() < 0.95
    assert rows.void.mean() < 0.2
    # a heuristic declarer beats random defenders much more often than random declarers do
    mixed = pd.DataFrame(SPEC.play.simulate_chunk(2, 0, 2000, SPEC.setup(["heuristic", "random", "random"])))
    assert mixed.delta_0.mean() < 0


def test_setup_errors():
    with pytest.raises(OptionError, match="played with 3 or 4 seats, not 5"):
        SPEC.setup(seats=5)
    with pytest.raises(StrategyError, match="nonsense"):
        SPEC.setup("heuristic:nonsense=1")
    with pytest.raises(OptionError, match="unknown 501 rule option 'x'"):
        SPEC.parse_rules({"x": "1"})


@pytest.mark.parametrize("seats", [3, 4])
def test_matches(seats):
    setup = SPEC.setup(seats=seats)
    m, d = SPEC.matches.play(4, 0, 20, setup)
    assert len(m) == 20  # (seed, match) keying and the dealer passing left: tests/test_conformance.py
    md = pd.DataFrame(d)
    for row in m:
        deals = md[md["match"] == row["match"]]
        assert len(deals) == row["deals"] and row["finished"]
        final = [row[f"final_{s}"] for s in range(seats)]
        # scores run from 501 by the deltas; only the last deal ends the game
        run = np.full(seats, 501)
        for k, (_, dl) in enumerate(deals.iterrows()):
            assert [dl[f"score_{s}"] for s in range(seats)] == list(run)
            run = run + np.array([dl[f"delta_{s}"] for s in range(seats)])
            assert (run > 0).all() or k == len(deals) - 1
        assert list(run) == final and min(final) <= 0
        winners = [s for s in range(seats) if row[f"win_{s}"]]
        assert winners == [s for s in range(seats) if final[s] == min(final)]
        assert row["n_winners"] == len(winners)


def test_match_kernel_asks_for_room_instead_of_overflowing():
    from cardsim.games.g501 import engine as E
    setup = SPEC.setup()
    small = np.zeros(2, dtype=E.MATCH_DEAL_DTYPE)
    start = np.array([501, 501, 501, 0], dtype=np.int64)
    n = E.match_kernel(np.uint64(7), np.int64(0), np.int64(3), np.int64(3), setup.strategy_ids, setup.params,
                       start, np.int64(-1), np.zeros(3, dtype=E.MATCH_DTYPE), small)
    assert n == -1
    matches, deals = SPEC.matches.play(7, 0, 3, setup)
    assert len(deals) == matches["deals"].sum() > 2
