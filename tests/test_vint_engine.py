"""Vint engine: auction edge cases, conformance on random play, round trip, dealing uniformity,
rubbers (docs/RULES.md §2); chunking and rows vs records: tests/test_conformance.py."""
import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st
from scipy.stats import chisquare

import cardsim
from cardsim.cards import card_str, parse_card
from cardsim.games import get_game
from cardsim.games.base import RecordError
from cardsim.games.vint.replay import replay
from cardsim.games.vint.rules import RANKS

VINT = get_game("vint")


def a_deal(seed=5):
    rec = cardsim.records("vint", [seed], seed=11)[0]
    return rec["hands"]


def lowest_play(hands, declarer, trump):
    """A legal play: every seat plays its lowest legal card (rank order within suit index)."""
    held = [sorted(parse_card(c, RANKS) for c in h) for h in hands]
    leader = (declarer + 1) % 4
    out = []
    for _ in range(13):
        trick = []
        for k in range(4):
            seat = (leader + k) % 4
            opts = [c for c in held[seat] if trick and c >> 4 == trick[0][1] >> 4] or held[seat]
            c = min(opts, key=lambda c: c & 15)
            held[seat].remove(c)
            trick.append((seat, c))
            out.append(card_str(c, RANKS))
        led = trick[0][1] >> 4
        leader = max(trick, key=lambda e: (200 if e[1] >> 4 == trump else 100 if e[1] >> 4 == led else 0)
                     + (e[1] & 15))[0]
    return out


def record(auction, dealer=0, declarer=None, trump=None, **extra):
    hands = a_deal()
    rec = {"game": "vint", "seats": 4, "dealer": dealer, "hands": hands, "auction": auction, "play": []}
    if declarer is not None:
        rec["play"] = lowest_play(hands, declarer, trump)
    rec.update(extra)
    return rec


def test_eight_passes_void_the_deal():
    r = replay(record(["P"] * 8))
    assert r["contract"] is None and r["declarer"] is None and r["total"] == [0, 0]


def test_seven_passes_then_a_bid_go_on():
    # dealer 2 speaks first; the 8th caller is seat 1
    r = replay(record(["P"] * 7 + ["1H"] + ["P"] * 12, dealer=2, declarer=1, trump=3))
    assert r["declarer"] == 1 and r["contract"] == "1H"


def test_eleven_passes_after_a_bid_then_a_bid_restart_the_count():
    auction = ["1S"] + ["P"] * 11 + ["2C"] + ["P"] * 12
    # dealer 0 bids 1S; the 13th call is seat 0 again (12 % 4 == 0)
    r = replay(record(auction, dealer=0, declarer=0, trump=1))
    assert r["declarer"] == 0 and r["contract"] == "2C"


def test_overbidding_oneself_and_partner_is_allowed():
    auction = ["1S", "P", "1NT", "P", "2S"] + ["P"] * 12  # seat 0, partner seat 2, then seat 0 again
    r = replay(record(auction, dealer=0, declarer=0, trump=0))
    assert r["declarer"] == 0 and r["contract"] == "2S"


def test_last_bidder_declares_not_first_to_name_the_denomination():
    auction = ["1H", "P", "2H"] + ["P"] * 12
    r = replay(record(auction, dealer=0, declarer=2, trump=3))
    assert r["declarer"] == 2


@pytest.mark.parametrize("auction,index,text", [
    (["1S", "1S"] + ["P"] * 12, 1, "not higher"),
    (["2C", "1NT"] + ["P"] * 12, 1, "not higher"),
    (["P"] * 9, 8, "after the auction ended"),
    (["1S"] + ["P"] * 11, 12, "incomplete"),
    (["1X"] + ["P"] * 12, 0, "unknown call"),
    (["8S"] + ["P"] * 12, 0, "unknown call"),
])
def test_bad_auctions_are_rejected(auction, index, text):
    with pytest.raises(RecordError) as err:
        replay(record(auction, declarer=0, trump=0))
    assert err.value.field == "auction" and err.value.index == index and text in err.value.message


def test_revoke_is_rejected_with_its_index():
    rec = record(["1NT"] + ["P"] * 12, declarer=0, trump=4)
    # seat 1 leads, seat 2 plays second: swap seat 2's first card for one of another suit
    led = rec["play"][0][1]
    second = rec["play"][1]
    assert second[1] == led  # this deal: seat 2 can follow suit in trick 1
    play = list(rec["play"])
    j = next(j for j in range(5, 52) if (j - 1) % 4 == 0 and play[j][1] != led and play[j] in rec["hands"][2])
    play[1], play[j] = play[j], play[1]
    rec["play"] = play
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.field == "play" and err.value.index == 1 and "revokes" in err.value.message


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r["hands"][0].__setitem__(0, r["hands"][1][0]), "hands"),
    (lambda r: r["hands"][0].pop(), "hands"),
    (lambda r: r["play"].__setitem__(0, "ZZ"), "play"),
    (lambda r: r["play"].pop(), "play"),
    (lambda r: r["play"].append("AS"), "play"),
    (lambda r: r.__setitem__("dealer", 4), "dealer"),
    (lambda r: r.__setitem__("dealer", "0"), "dealer"),
    (lambda r: r.__setitem__("seats", 3), "seats"),
    (lambda r: r.__setitem__("before", {"below": [600, 0], "games": [0, 0]}), "before"),
    (lambda r: r.__setitem__("rules", {"scoring": "x"}), "rules"),
    (lambda r: r.__setitem__("auction", "1S P"), "auction"),
    # docs/RECORDS.md Strictness: other games' fields, and before without below
    (lambda r: r.__setitem__("talon", []), "talon"),
    (lambda r: r.__setitem__("contract", {"abandon": True}), "contract"),
    (lambda r: r.__setitem__("discard", None), "discard"),
    (lambda r: r.__setitem__("before", {"games": [1, 0]}), "before"),
    (lambda r: r.__setitem__("seats", None), "seats"),
])
def test_malformed_records_are_rejected(mutate, field):
    rec = record(["1NT"] + ["P"] * 12, declarer=0, trump=4)
    mutate(rec)
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.field == field


def test_strictness_unknown_keys_and_nulls():
    """docs/RECORDS.md Strictness: unknown keys are rejected by name; rules, before and source given
    as null mean absent; before's games may be left out."""
    rec = record(["1NT"] + ["P"] * 12, declarer=0, trump=4)
    want = replay(rec)
    with pytest.raises(RecordError, match=r"^unknown field 'by': annotations from other programs belong in source"):
        replay(dict(rec, by="a person"))
    assert replay(dict(rec, rules=None, before=None, source=None)) == want
    assert replay(dict(rec, before={"below": [0, 0]})) == want


def test_card_not_in_hand_is_rejected():
    rec = record(["1NT"] + ["P"] * 12, declarer=0, trump=4)
    rec["play"][0] = rec["hands"][0][0]  # seat 1 leads a card of seat 0
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.index == 0 and "not in seat 1" in err.value.message


@given(seed=st.integers(0, 2**64 - 1), strategy=st.sampled_from(["random", "heuristic", "greedy"]))
def test_a_played_deal_uses_every_card_once_and_scores_13_tricks(seed, strategy):
    """Random and heuristic play on any seed: a declared deal plays 52 distinct cards in 13
    tricks, and the points below the line add up to 13 x V.  (The round trip of the records and
    rows vs records, for every game: tests/test_conformance.py.)"""
    setup = VINT.setup(strategy)
    records = VINT.play.make_records(seed, range(6), setup)
    rows = VINT.play.simulate_chunk(seed, 0, 6, setup)
    for rec, row in zip(records, rows):
        res = rec["result"]
        if res["contract"] is not None:
            assert len(rec["play"]) == 52 and len(set(rec["play"])) == 52
            assert sum(res["tricks"]) == 13
            assert sum(res["below"]) == 13 * int(row["value"])


def pattern_probabilities():
    """Exact probability of every 13-card suit pattern (sorted lengths, long first)."""
    probs = {}
    total = math.comb(52, 13)
    for lengths in itertools.product(range(14), repeat=4):
        if sum(lengths) == 13:
            key = tuple(sorted(lengths, reverse=True))
            probs[key] = probs.get(key, 0) + math.prod(math.comb(13, k) for k in lengths) / total
    return probs


def test_dealing_is_uniform_chi_square_on_hand_patterns():
    df = cardsim.simulate("vint", 25_000, seed=2026, strategies="random")
    patterns = []
    for s in range(4):
        lens = df[[f"len_{s}_{x}" for x in "SCDH"]].to_numpy()
        patterns += [tuple(sorted(row, reverse=True)) for row in lens]
    counts = pd.Series(patterns).value_counts()
    probs = pattern_probabilities()
    n = len(patterns)
    big = [k for k, v in probs.items() if v * n >= 20]
    observed = [counts.get(k, 0) for k in big] + [n - sum(counts.get(k, 0) for k in big)]
    expected = [probs[k] * n for k in big] + [n - sum(probs[k] * n for k in big)]
    assert chisquare(observed, expected).pvalue > 0.001
    # dealer and who holds the ace of spades are uniform too
    assert chisquare(np.bincount(df.dealer, minlength=4)).pvalue > 0.001


def test_greedy_example_strategy_plays_cheapest_winner():
    """The README's example strategy: each of its cards is the cheapest legal winner, else its lowest."""
    recs = cardsim.records("vint", range(20), seed=3, strategies="greedy")
    checked = 0
    for rec in recs:
        if rec["result"]["contract"] is None:
            continue
        trump = "SCDHN".index(rec["result"]["contract"][1])
        held = [set(parse_card(c, RANKS) for c in h) for h in rec["hands"]]
        leader = (rec["result"]["declarer"] + 1) % 4
        for t in range(13):
            trick = [parse_card(c, RANKS) for c in rec["play"][4 * t:4 * t + 4]]
            for k, card in enumerate(trick):
                seat = (leader + k) % 4
                legal = [c for c in held[seat] if k and c >> 4 == trick[0] >> 4] or list(held[seat])
                if k == 0:
                    expect = min(legal)
                else:
                    def power(c):
                        return (200 if c >> 4 == trump else 100 if c >> 4 == trick[0] >> 4 else 0) + (c & 15)
                    best = max(power(c) for c in trick[:k])
                    winners = [c for c in legal if power(c) > best]
                    expect = min(winners, key=power) if winners else min(legal)
                assert card == expect, (rec["play"], t, k)
                held[seat].discard(card)
                checked += 1
            powers = [(200 if c >> 4 == trump else 100 if c >> 4 == trick[0] >> 4 else 0) + (c & 15) for c in trick]
            leader = (leader + powers.index(max(powers))) % 4
    assert checked > 500


def test_rubbers_end_when_a_side_wins_two_games():
    matches, deals = cardsim.play_match("vint", 40, seed=6)
    assert len(matches) == 40
    assert ((matches.games_0 == 2) ^ (matches.games_1 == 2)).all()
    assert (matches.winner == np.where(matches.games_0 == 2, 0, 1)).all()
    assert (matches.deals == deals.groupby("rubber").size().to_numpy()).all()
    last = deals.groupby("rubber").tail(1)
    assert (last.rubber_won_by.to_numpy() == matches.winner.to_numpy()).all()
    sums = deals.groupby("rubber")[["total_0", "total_1"]].sum()
    assert (sums.total_0.to_numpy() == matches.points_0.to_numpy()).all()
    margin = np.where(matches.winner == 0, matches.points_0 - matches.points_1, matches.points_1 - matches.points_0)
    assert (margin == matches.margin).all()
    # games are won exactly on deals that say so, and dealers rotate left
    for _, g in deals.groupby("rubber"):
        assert ((g.dealer.to_numpy()[1:] - g.dealer.to_numpy()[:-1]) % 4 == 1).all()
