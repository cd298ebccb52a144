"""501 and Five Hundred lead questions (issue 31, item 1): ``lead:CARD`` and ``lead:auto`` options
against a forced contract, ``--contract``, ``--all-leads``, one-line errors; Vint's ``lead:auto``."""
import json

import numpy as np
import pytest

import cardsim
from cardsim import questions as E
from cardsim.cli import main
from cardsim.conditions import Conditions, parse_hand
from cardsim.games.g500 import engine as E500, forcing as F500
from cardsim.games.g501 import engine as E501, forcing as F501
from cardsim.games.vint import forcing as FV

# ---------------------------------------------------------------- 501
# A whole 3-seat deal, dealer 0: seat 1 (the dealer's left) leads the first trick (docs/RULES.md
# §1.5).  Seat 1 holds the top four hearts; seat 0 the other two hearts; seat 2 and the talon none.
H501 = {0: "H:J9 S:KQJ C:AT", 1: "H:ATKQ S:AT9", 2: "C:KQJ9 D:ATK"}
TALON501 = "D:QJ9"


def q501(options, n=4, seed=5, outcome="points"):
    return E.question("501", 1, options, n=n, seed=seed, outcome=outcome,
                      conditions=Conditions("501", seats=3, dealer=0, hands=H501, talon=TALON501))


def rows_of(q, j, n=None):
    dealt = q.deal(0, n or q.run.n)
    return q.spec.forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[j], q.before)


def test_501_a_defenders_lead_is_played_first_and_replays():
    q = q501(["lead:AS/100/H:2", "lead:KH/100/H:2", "lead:QH/100/H:2"])
    for j, first in enumerate(["AS", "KH+", "QH+"]):  # K or Q of a held marriage: declared (+)
        rows, ok = rows_of(q, j)
        assert ok.all() and (rows["declarer"] == 2).all() and (rows["trump"] == 3).all()
        for i in range(q.run.n):
            rec = E.records(q, [i], option=j)[0]
            assert rec["play"][0] == first
            assert rec["result"]["points"][1] == int(rows["cards_1"][i] + rows["marr_1"][i])
            assert cardsim.replay(rec) == rec["result"]  # the slow twin agrees with the forced play


def test_501_marriage_lead_scores_exactly_40_in_trumps():
    # KH led with QH held, hearts trumps: the marriage is worth 40 (docs/RULES.md §1.6) and counts,
    # for seat 1 wins the trick (seat 0 must follow with a lower heart, seat 2 has no trump)
    q = q501(["lead:KH/100/H:2", "lead:AS/100/H:2", "lead:KH/100/S:2"])
    marr = [rows_of(q, j)[0]["marr_1"] for j in range(3)]
    assert (marr[0] == 40).all()
    assert (marr[2] == 20).all()  # the same lead with spades trumps: a plain marriage, 20
    declared, made, score = F501.outcome(rows_of(q, 0)[0], 1, q.before)
    assert declared.all() and (score >= 40 + 4).all()  # the marriage and at least the king's 4 points


def test_501_set_rate_and_points_outcome():
    # a target of 220 cannot be reached by seat 2 (he holds no trump): the set rate is exactly 1
    q = q501(["lead:AS/100/H/220:2"])
    rows, ok = rows_of(q, 0)
    declared, made, score = F501.outcome(rows, 1, q.before)
    assert declared.all() and made.all() and not rows["made"].any()
    np.testing.assert_array_equal(score, rows["cards_1"] + rows["marr_1"])
    assert not q.lower_is_better  # points count up


def test_501_the_declarer_leads_and_keeps_his_lead():
    # seat 1 on lead declares; whatever his strategy would give away, a forced lead of it is kept
    q = E.question("501", 1, ["lead:auto/100/H:1"], n=6, seed=2, dealer=0, outcome="points")
    given = set()
    for i in range(6):
        given |= set(E.records(q, [i], option=0)[0]["contract"]["give"].values())
    card = sorted(given)[0]
    q2 = E.question("501", 1, [f"lead:{card}/100/H:1"], n=6, seed=2, dealer=0, outcome="points")
    rows, ok = rows_of(q2, 0)
    for i in range(6):
        rec = E.records(q2, [i], option=0)[0]
        if ok[i]:
            assert rec["play"][0].rstrip("+") == card and card not in rec["contract"]["give"].values()
        assert cardsim.replay(rec) == rec["result"]
    assert ok.any()


def test_501_lead_auto_is_the_forced_contract_as_the_strategies_play_it():
    # the declaring side dealt at random: the contract forced, the auction skipped, as =100/H
    q = E.question("501", 1, ["lead:auto/100/H:2", "=100/H"], n=50, seed=4, dealer=0, calls_imply_hands=False)
    a, _ = rows_of(q, 0)
    dealt = q.deal(0, 50)
    b, _ = F501.play_given(q.run.seed, 0, dealt, q.run.setup, _declares_as(q, "=100/H", 2), q.before)
    for name in E501.ROW_DTYPE.names:
        np.testing.assert_array_equal(a[name], b[name])


def _declares_as(q, option, declarer):
    forced = F501.parse_option(option, declarer, q.run.setup, (), 0)
    return forced


def test_501_lead_vector():
    from cardsim.games.base import Setup
    setup = Setup("501", 3, np.zeros(3, dtype=np.int64), np.zeros((3, 1)), {}, ())
    f = F501.parse_option("lead:AS/100!/NT/120:2", 1, setup, (), 0)
    assert f[E501.F_LEAD] == 5 + 1 and f[E501.F_LEADER] == 1 and f[E501.F_BLIND] == 1
    assert f[E501.F_TRUMP] == 5 and f[E501.F_TARGET] == 120 and f[1] == 2 and F501.is_lead(f)
    assert not F501.is_lead(F501.parse_option("=100/H", 1, setup, (), 0))


# ---------------------------------------------------------------- Five Hundred
# A whole deal, dealer 3: seat 0 declares 10 hearts holding the ten highest trumps (HJ LJ JH JD
# AH KH QH TH 9H 8H, docs/RULES.md §3.1); the other four trumps (7H-4H) are the defenders', the
# kitty has none: every lead takes all ten tricks.
H500 = {0: "HJ LJ H:AKQJT98 D:J", 1: "H:76 S:AKQJ C:AKQJ", 2: "H:54 S:T987 C:T987",
        3: "S:654 C:654 D:AKQT"}
KITTY = "D:987654"


def q500(options, n=3, seed=9, outcome="tricks", hands=H500, kitty=KITTY):
    return E.question("500", 0, options, n=n, seed=seed, outcome=outcome,
                      conditions=Conditions("500", dealer=3, hands=hands, talon=kitty))


def test_500_top_trumps_take_every_trick_whatever_the_lead():
    q = q500(["lead:HJ/10H:0", "lead:8H/10H:0", "lead:JD/10H:0", "lead:auto/10H:0"], outcome="deal")
    for j, first in enumerate(["HJ", "8H", "JD", None]):
        rows, ok = rows_of(q, j)
        assert ok.all() and (rows["tricks_0"] == 10).all() and rows["made"].all()
        declared, made, score = F500.outcome(rows, 0, q.before)
        assert declared.all() and made.all() and (score == 500).all()  # 10 hearts: 500 (docs/RULES.md §3.3)
        for i in range(q.run.n):
            rec = E.records(q, [i], option=j)[0]
            if first:
                assert rec["play"][0] == first
            assert cardsim.replay(rec) == rec["result"]


def test_500_the_declarer_keeps_the_lead_through_the_discard():
    # 5D is a small card the heuristic discards with the kitty's diamonds; told to lead it, he keeps it
    hands = dict(H500)
    hands[0] = "HJ LJ H:AKQJT9 D:J5"
    hands[3] = "S:654 C:654 H:8 D:AKQ"
    q = q500(["lead:5D/8H:0", "lead:auto/8H:0"], hands=hands, kitty="D:T98764")
    rows, ok = rows_of(q, 0)
    assert ok.all()
    auto = E.records(q, [0], option=1)[0]
    assert "5D" in auto["discard"]  # the strategy alone would put it away
    rec = E.records(q, [0], option=0)[0]
    assert rec["play"][0] == "5D" and "5D" not in rec["discard"]
    assert cardsim.replay(rec) == rec["result"]


def test_500_lead_auto_is_the_forced_contract_as_the_strategies_play_it():
    q = E.question("500", 0, ["lead:auto/8H:0", "=8H"], n=50, seed=4, outcome="tricks", calls_imply_hands=False)
    a, ok = rows_of(q, 0)
    b, _ = rows_of(q, 1)
    assert ok.all() and F500.is_lead(q.forced[0]) and not F500.is_lead(q.forced[1])
    for name in b.dtype.names:
        np.testing.assert_array_equal(a[name], b[name])


def test_500_no_trump_joker_lead_names_a_suit():
    q = q500(["lead:HJ=C/8NT:0", "lead:LJ=S/8NT:0"])
    for j, first in enumerate(["HJ=C", "LJ=S"]):
        rec = E.records(q, [0], option=j)[0]
        assert rec["play"][0] == first and cardsim.replay(rec) == rec["result"]
    f = F500.parse_option("lead:HJ=C/8NT:0", 0, None)
    assert f[E500.F_LEAD] == 15 + 1 and f[E500.F_NAMED] == 2  # C is suit 1, plus 1


def test_500_touching_leads_give_identical_rows():
    # A K Q of trumps, the rest dealt: the strategies play on the same way after any of them
    q = E.question("500", 0, ["lead:AH/8H:0", "lead:KH/8H:0", "lead:QH/8H:0", "lead:AD/8H:0", "lead:KD/8H:0"],
                   n=300, seed=13, outcome="tricks", hand="HJ H:AKQ97 D:AKQ C:5",
                   calls_imply_hands=False)  # the strategies never stop in 8H with this hand
    rows = [rows_of(q, j)[0] for j in range(5)]
    for r in rows[1:3]:
        np.testing.assert_array_equal(r["tricks_0"], rows[0]["tricks_0"])
        np.testing.assert_array_equal(r["delta_0"], rows[0]["delta_0"])
    # a side suit's A K: the same hand in play (engine.keep_lead), yet a strategy may tell them apart
    # later (it throws the K before another suit's A, but that A before the diamond A): 1 deal in 300
    assert (rows[3]["tricks_0"] != rows[4]["tricks_0"]).sum() == 1


def test_500_lead_groups_follow_the_trump_order():
    def groups(hand, contract):
        return sorted(" ".join(g) for g in F500.lead_groups(parse_hand("500", hand), [], contract, 0, None)[0])
    # hearts trumps: HJ alone (LJ and JH elsewhere); JD is the left bower, just above AH; the
    # diamonds lose their jack: A K Q T touch
    assert groups("HJ JD AH KH QH 9H AD KD QD TD", "8H:0") == sorted(["AD KD QD TD", "HJ", "JD AH KH QH", "9H"])
    # no-trump: no bowers (JD touches QD), the jokers led naming each suit
    assert groups("HJ LJ JD QD AH 9H 7H AS KC 5D", "8NT:0") == sorted([
        "5D", "7H", "9H", "AH", "AS", "HJ=C LJ=C", "HJ=D LJ=D", "HJ=H LJ=H", "HJ=S LJ=S", "KC", "QD JD"])


# ---------------------------------------------------------------- Vint's lead:auto
def test_vint_lead_auto_is_the_forced_contract_as_the_strategies_play_it():
    q = E.question("vint", 3, ["lead:auto/3NT:2", "=3NT:2"], n=40, seed=6, outcome="tricks", calls_imply_hands=False)
    a, ok = rows_of(q, 0)
    b, _ = rows_of(q, 1)
    assert ok.all() and FV.is_lead(q.forced[0])
    for name in b.dtype.names:
        np.testing.assert_array_equal(a[name], b[name])


# ---------------------------------------------------------------- one-line errors
@pytest.mark.parametrize("game, argv, words", [
    ("501", ["--seat", "1", "--dealer", "0", "--contract", "100/H:2", "--hand", "S:AT9 H:KQ D:A C:J",
             "--option", "lead:KS"], "does not hold KS"),
    ("501", ["--seat", "1", "--dealer", "1", "--contract", "100/H:2", "--option", "lead:AS"], "seat 1 does not lead"),
    ("501", ["--seat", "1", "--contract", "100/H:2", "--option", "lead:AS"], "give the dealer, --dealer 0"),
    ("501", ["--seat", "1", "--dealer", "0", "--option", "lead:AS"], "needs the contract"),
    ("501", ["--seat", "1", "--dealer", "0", "--contract", "100:2", "--option", "lead:AS"], "BID[!]/TRUMP"),
    ("501", ["--seat", "1", "--dealer", "0", "--contract", "100/H:2", "--option", "lead:2S"], "not a 501 card"),
    ("501", ["--seat", "1", "--dealer", "0", "--contract", "100/H:2", "--all-leads"], "needs the seat's hand"),
    ("501", ["--seat", "1", "--dealer", "0", "--all-leads", "--hand", "S:A"], "needs the contract"),
    ("501", ["--seats", "4", "--seat", "2", "--dealer", "1", "--contract", "100/S:1", "--option", "lead:KH"],
     "seat 1 deals and sits out"),
    ("501", ["--seats", "4", "--seat", "3", "--dealer", "1", "--contract", "100/S:0", "--option", "lead:KH"],
     "seat 3 does not lead"),
    ("500", ["--seat", "0", "--contract", "8H:0", "--hand", "HJ JD AH KH QH 9H 7H AS KC 5D", "--option", "lead:AD"],
     "does not hold AD"),
    ("500", ["--seat", "1", "--contract", "8H:0", "--option", "lead:AS"], "seat 1 does not lead"),
    ("500", ["--seat", "0", "--option", "lead:AS"], "needs the contract"),
    ("500", ["--seat", "0", "--contract", "8H:0", "--option", "lead:2S"], "not a Five Hundred card"),
    ("500", ["--seat", "0", "--contract", "8NT:0", "--option", "lead:HJ"], "names the suit"),
    ("500", ["--seat", "0", "--contract", "8H:0", "--option", "lead:HJ=S"], "only with a joker led in no-trump"),
    ("500", ["--seat", "0", "--contract", "8H:0", "--all-leads"], "needs the seat's hand"),
    ("500", ["--seat", "1", "--contract", "8H:0", "--all-leads", "--hand", "S:A"], "seat 1 does not lead"),
    # a lead question takes the auction (tests/test_lead_auction.py), but not one its declarer passed in
    ("500", ["--seat", "0", "--auction", "P", "--dealer", "3", "--contract", "8H:0", "--option", "lead:AS"],
     "seat 0 passed in the calls given, and passes are final"),
    ("500", ["--seat", "0", "--auction", "9H", "--dealer", "0", "--contract", "8H:0", "--option", "lead:AS"],
     "after the calls given (9H) the auction cannot end in 8H by seat 0"),
    ("501", ["--seat", "1", "--dealer", "0", "--auction", "110", "--contract", "100/H:2", "--option", "lead:AS"],
     "after the calls given (110) the auction cannot end at 100 won by seat 2"),
    ("vint", ["--seat", "3", "--contract", "3NT:2", "--option", "lead:1S"], "not a Vint card"),
])
def test_errors_are_one_line(capsys, game, argv, words):
    assert main(["evaluate", game, "-n", "10", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_all_leads_cli_501_and_500(capsys):
    assert main(["evaluate", "501", "--seat", "1", "--dealer", "0", "--contract", "100/H:2", "--hand",
                 "S:T9 H:9 D:KJ C:Q9", "--all-leads", "--option", "lead:auto", "-n", "30", "--jobs", "1",
                 "--format", "json", "--outcome", "points"]) == 0
    rows = {r["option"]: r for r in json.loads(capsys.readouterr().out)["options"]}
    assert set(rows) == {f"lead:{c}/100/H:2" for c in ("TS", "9S", "9H", "KD", "JD", "QC", "9C", "auto")}
    assert rows["lead:KD/100/H:2"]["stands_for"] == "KD" and rows["lead:auto/100/H:2"]["stands_for"] == ""
    # heuristic_v4 (the default before the tuned values) bids 8H with this hand; the tuned default higher
    assert main(["evaluate", "500", "--seat", "0", "--contract", "8H:0", "--hand", "HJ JD AH KH QH 9H 7H AS KC 5D",
                 "--all-leads", "-n", "30", "--jobs", "1", "--outcome", "tricks", "--strategy", "heuristic_v4"]) == 0
    out = capsys.readouterr().out
    assert "lead:JD/8H:0 for JD AH KH QH" in out and "the contract's made rate" in out
    assert "lead:7H/8H:0" in out and "lead:HJ/8H:0" in out
