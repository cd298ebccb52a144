"""Lead questions after an auction (issue "Right answers to every question").

A lead question against ``--contract 3NT:2`` used to deal the declaring side random hands (3NT then
went down most of the time, a 501 100-bid almost always) and refused ``--auction``.  Now the
declaring side is dealt hands with which the strategies' auction ends in the contract (after the
given calls, implied as everywhere), and the header says how it was dealt."""
import json

import numpy as np
import pytest

import cardsim
from cardsim import questions as E
from cardsim.cli import main
from cardsim.conditions import Conditions
from cardsim.games.forced import F_KIND, FORCE_CONTRACT, FORCE_REACHED

KQJ72 = "S:KQJ72 H:853 D:T64 C:93"
WEAK501 = "S:T9 H:9 D:KJ C:Q9"
TRUMPS500 = "HJ JD AH KH QH 9H 7H AS KC 5D"


def _declarer_made(game, seat, options, hand, n, imply, **kw):
    """The declarer's made rate of the first option's contract (a lead option's ``made`` is the
    defenders' set rate in Vint and where the seat defends in 501) and the question."""
    df = E.evaluate(game, seat, options, n=n, seed=3, hand=hand, n_jobs=1, calls_imply_hands=imply, **kw)
    return float(df["made"].iloc[0]), df


def test_vint_3nt_is_made_at_a_plausible_rate_when_the_declaring_side_bid_it():
    """The exact input: KQJ72 against 3NT by seat 2.  Random declaring hands: 3NT made about a third
    of the time; hands with which the strategies bid 3NT: about seven in ten (600 deals: 0.30 and
    0.70; heuristic_v4, the default before the tuned values, a quarter trick less bold, bid it with
    stronger hands: 0.31 and 0.82 on 2,000 deals)."""
    set_random, before = _declarer_made("vint", 3, ["lead:KS/3NT:2"], KQJ72, 600, False)
    set_reached, after = _declarer_made("vint", 3, ["lead:KS/3NT:2"], KQJ72, 600, True)
    assert 1 - set_random < 0.45 and 1 - set_reached > 0.6
    assert before.attrs["reach"] is None and after.attrs["reach"] == "3NT by seat 2"
    assert 0 < after.attrs["calls_acceptance"] < 0.02  # about 1 deal in 200 has the strategies bid it


def test_vint_every_deal_is_the_strategies_auction_to_the_contract_and_replays():
    q = E.question("vint", 3, ["lead:KS/3NT:2", "lead:QS/3NT:2"], n=20, seed=3, hand=KQJ72)
    assert [int(f[F_KIND]) for f in q.forced] == [FORCE_REACHED, FORCE_REACHED]
    for rec in E.records(q, range(20), option=1):
        assert rec["source"]["contract_reached"] == "3NT by seat 2"
        bids = [(i, c) for i, c in enumerate(rec["auction"]) if c != "P"]
        assert bids[-1][1] == "3NT" and (rec["dealer"] + bids[-1][0]) % 4 == 2
        assert len(bids) >= 1 and rec["play"][0] == "QS"
        assert cardsim.replay(rec) == rec["result"]


def test_vint_lead_auto_is_the_strategies_own_deal():
    # lead:auto on deals dealt to reach 3NT: the strategies' auction and play, nothing forced
    q = E.question("vint", 3, ["lead:auto/3NT:2", "strategy"], n=60, seed=3, hand=KQJ72, outcome="tricks")
    dealt = q.deal(0, 60)
    a, ok = q.spec.forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    b, _ = q.spec.forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[1], q.before)
    assert ok.all() and (a["declarer"] == 2).all() and (a["level"] == 3).all()
    for name in b.dtype.names:
        np.testing.assert_array_equal(a[name], b[name])


def test_vint_auction_accepted_on_a_lead_question(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    assert main(["evaluate", "vint", "--seat", "3", "--dealer", "2", "--auction", "1NT P", "--contract", "3NT:2",
                 "--hand", KQJ72, "--option", "lead:KS", "-n", "60", "--jobs", "1", "--records", str(path),
                 "--records-limit", "5"]) == 0
    out = capsys.readouterr().out
    assert ("declaring side: dealt hands with which the strategies' auction after the calls given (1NT P) ends in "
            "3NT by seat 2: a deal is kept only if it does") in out
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        assert rec["auction"][:2] == ["1NT", "P"] and rec["source"]["auction_given"] == ["1NT", "P"]
        assert [c for c in rec["auction"] if c != "P"][-1] == "3NT"


def test_the_header_says_how_the_declaring_side_was_dealt(capsys):
    base = ["evaluate", "vint", "--seat", "3", "--contract", "3NT:2", "--hand", KQJ72, "--option", "lead:KS",
            "-n", "30", "--jobs", "1"]
    assert main(base) == 0
    assert "declaring side: dealt hands with which the strategies' auction ends in 3NT by seat 2" in \
        capsys.readouterr().out
    assert main(base + ["--calls-on-random-hands"]) == 0
    assert ("declaring side: dealt at random (--calls-on-random-hands); 3NT by seat 2 declared whatever it holds, "
            "the auction skipped") in capsys.readouterr().out


def test_a_whole_given_deal_keeps_the_contract_forced():
    hands = {0: "S:T98 H:J97 D:JT8 C:QJ98", 1: "S:543 H:T652 D:764 C:743",
             2: "S:AK6 H:AQ3 D:AKQ2 C:AK5", 3: "S:QJ72 H:K84 D:953 C:T62"}
    q = E.question("vint", 3, ["lead:QS/3NT:2"], n=3, seed=7, conditions=Conditions("vint", dealer=0, hands=hands))
    assert int(q.forced[0][F_KIND]) == FORCE_CONTRACT and q.reach == ""
    assert E.declaring_side(q) == "declaring side: every hand given; 3NT by seat 2 declared, the auction skipped"


def test_501_100_bid_is_made_at_a_plausible_rate(capsys):
    """A 501 100-bid in hearts by seat 2, the weak leader seat 1: random declarer hands made it 29%
    of the time, hands with which the strategies win at 100 and declare hearts 78% (2,000 deals)."""
    # heuristic_v4 (blind with probability 0.6): the default bids blind at every first turn, so no seat passes it
    v4 = ["heuristic_v4"] * 3
    set_random, _ = _declarer_made("501", 1, ["lead:auto/100/H:2"], WEAK501, 400, False, dealer=0, strategies=v4)
    set_reached, df = _declarer_made("501", 1, ["lead:auto/100/H:2"], WEAK501, 400, True, dealer=0, strategies=v4)
    assert 1 - set_random < 0.4 and 1 - set_reached > 0.65
    assert df.attrs["reach"] == "100/H by seat 2"
    q = E.question("501", 1, ["lead:auto/100/H:2"], n=30, seed=3, hand=WEAK501, dealer=0, auction=["P"], strategies=v4)
    rows, ok = q.spec.forcing.play_given(q.run.seed, 0, q.deal(0, 30), q.run.setup, q.forced[0], q.before)
    assert ok.all() and (rows["declarer"] == 2).all() and (rows["bid"] == 100).all()
    assert (rows["trump"] == 3).all() and not rows["blind"].any() and rows["played"].all()
    assert main(["evaluate", "501", "--seat", "1", "--dealer", "0", "--auction", "P", "--contract", "100/H:2",
                 "--hand", WEAK501, "--option", "lead:TS", "-n", "20", "--jobs", "1", "--strategy", "heuristic_v4"]) == 0
    assert ("declaring side: dealt hands with which the strategies' auction after the calls given (P) ends in "
            "100/H by seat 2") in capsys.readouterr().out


def test_501_the_declarer_who_leads_keeps_his_lead_when_the_contract_is_reached():
    # seat 1 leads and declares: his forced lead stays in his hand through the exchange
    q = E.question("501", 1, ["lead:9S/66/S:1", "lead:auto/66/S:1"], n=30, seed=2, dealer=0, hand="S:AKQT9 H:A D:A",
                   strategies=["heuristic_v4"] * 3)  # the default's auction never ends at 66 (it bids blind to 87)
    rows, ok = q.spec.forcing.play_given(q.run.seed, 0, q.deal(0, 30), q.run.setup, q.forced[0], q.before)
    assert ok.all() and q.reach == "66/S by seat 1"
    for rec in E.records(q, range(10), option=0):
        assert rec["play"][0] == "9S" and "9S" not in rec["contract"]["give"].values()
        assert cardsim.replay(rec) == rec["result"]


def test_500_lead_question_takes_the_auction(capsys):
    # heuristic_v4 (the default before the tuned values) bids 8H with TRUMPS500; the bolder tuned
    # default bids higher with it
    made, df = _declarer_made("500", 0, ["lead:auto/8H:0"], TRUMPS500, 300, True, strategies="heuristic_v4")
    assert df.attrs["reach"] == "8H by seat 0" and made > 0.8
    assert main(["evaluate", "500", "--seat", "0", "--dealer", "2", "--auction", "P", "--contract", "8H:0",
                 "--hand", TRUMPS500, "--option", "lead:AS", "-n", "20", "--jobs", "1",
                 "--strategy", "heuristic_v4"]) == 0
    assert ("declaring side: dealt hands with which the strategies' auction after the calls given (P) ends in "
            "8H by seat 0") in capsys.readouterr().out


@pytest.mark.parametrize("game, argv, words", [
    ("500", ["--seat", "0", "--contract", "9H:0", "--hand", "HJ H:AKQ97 D:AKQ C:5", "--option", "lead:AH"],
     "the strategies' auction ended in 9H by seat 0 in 0 of the"),
    ("vint", ["--seat", "3", "--option", "lead:KS/3NT:2", "--option", "lead:KS/4S:2"], "need a question each"),
    # a call judged on deals whose auction reaches the lead's contract (from a tester's report)
    ("vint", ["--seat", "3", "--contract", "4H:2", "--hand", "S:QJ72 H:K84 D:953 C:T62", "--option", "lead:QS",
              "--option", "1S"], "lead options and call or contract options in one question"),
])
def test_errors_are_one_line(capsys, game, argv, words):
    assert main(["evaluate", game, "-n", "10", "--jobs", "1", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err
