"""Implied calls dealt from a rule file's conditions (docs/rules-files.md, "Implied calls"): a
rule-file caller's hand is dealt from the condition of the rules giving its call, then the whole
auction is tested, and the deals kept have the distribution plain rejection's have."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from scipy import stats

import cardsim
from cardsim.cli import main as cli_main
from cardsim.conditions import Conditions, compile as compile_conditions, parse_class
from cardsim.deal import ConditionError
from cardsim.games import get_game
from cardsim.games.base import OptionError
from cardsim.games.vint.rulefile import given_calls, read_call
from cardsim.questions import manifest, question
from cardsim.rules.implied import call_class, hull, rule_file

from test_implied_calls import vint_hcp, vint_spades

# Every opening hand meets a rule (the last has no condition), so the base never opens: the hands
# that open 1NT are those of rule 2 that rule 1 does not take (the auction test removes them).
COVERED = '''game = "vint"
base = "heuristic"

[[rule]]
auction = "opening"
call = "1H"
when = "hcp>=12, H>=5"

[[rule]]
auction = "opening"
call = "1NT"
when = "hcp=15-17"

[[rule]]
auction = "opening"
call = "1C"
when = "hcp=12-14, C>=4"

[[rule]]
auction = "opening"
call = "1C"
when = "hcp=18-21, balanced"

[[rule]]
auction = "opening"
call = "P"
'''

# The same without the last rule: the base strategy opens the hands no rule takes.
UNCOVERED = COVERED[:COVERED.rindex("[[rule]]")]


def _file(tmp_path, text, name="sys.toml"):
    path = tmp_path / name
    path.write_text(text)
    return f"rules:{path}"


def _class(spec, calls, call):
    vint = get_game("vint")
    seat, situation, made, _ = given_calls([read_call(c) for c in calls] + [read_call(call)], 0)[-1]
    return call_class(rule_file(spec, vint.table.registry), situation, made, seat)


def test_the_class_is_the_condition_of_the_rule_giving_the_call(tmp_path):
    spec = _file(tmp_path, COVERED)
    one = _class(spec, [], "1NT")
    assert one.cls.text("vint") == "hcp=15-17" and "rule #2" in one.how and not one.never
    # two rules give 1C: the hull of their conditions (hcp 12-21; C>=4 and balanced are not shared)
    both = _class(spec, [], "1C")
    assert both.cls.text("vint") == "hcp=12-21" and "rule #3" in both.how and "rule #4" in both.how
    # third hand: "opening" holds after two passes too
    assert _class(spec, ["P", "P"], "1H").cls.text("vint") == "hcp>=12, H>=5"
    # the catch-all pass has no condition: dealt at random
    assert _class(spec, [], "P").cls is None
    # no rule gives 2C and every hand meets one: the file never opens 2C
    assert _class(spec, [], "2C").never
    # after an opening no rule applies: the base calls
    assert _class(spec, ["1S"], "P").cls is None


def test_without_a_rule_for_every_hand_the_base_may_call_so_rejection_decides(tmp_path):
    spec = _file(tmp_path, UNCOVERED)
    got = _class(spec, [], "1NT")
    assert got.cls is None and not got.never and "base strategy" in got.how


def test_a_rule_whose_bid_is_illegal_there_hands_its_hands_to_the_base(tmp_path):
    text = ('game = "vint"\n[[rule]]\nauction = "bid"\ncall = "1D"\nwhen = "D>=6"\n'
            '[[rule]]\nauction = "bid"\ncall = "P"\n')
    spec = _file(tmp_path, text)
    assert _class(spec, [], "P").cls is None  # an empty auction does not match "bid"
    after = _class(spec, ["1H"], "P")  # 1D is illegal over 1H: the base calls with six diamonds
    assert after.cls is None and "illegal" in after.how
    legal = _class(spec, ["1S"], "1D")  # over 1S it is legal, and the last rule takes every other hand
    assert legal.cls.text("vint") == "D>=6"


def test_hull_widens_shared_ranges_and_keeps_shared_cards():
    a, b = parse_class("vint", "hcp=12-14, H>=5, has AS KS"), parse_class("vint", "hcp=16-18, S<=3, has AS")
    assert hull("vint", [a, b]).text("vint") == "hcp=12-18, has AS"


def _deals(q, n):
    return q.deal(0, n)


def _table(samples, cells):
    table = np.array([[np.sum(s == k) for k in cells] for s in samples])
    return table[:, table.sum(axis=0) > 0]


def test_deals_kept_have_plain_rejections_distribution(tmp_path):
    # seat 0 opens 1NT with its file (a condition rule 1 shadows: 15-17 without five hearts), seat 1
    # passes with heuristic; partner's question.  The kept deals of both samplers are compared.
    spec = _file(tmp_path, COVERED)
    kw = dict(game="vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10, seed=3,
              strategies={0: spec})
    fast, plain = question(**kw), question(**kw, deal_from_rules=False)
    assert fast.dealing is not None and plain.dealing is None
    assert fast.dealing.text == "seat 0: hcp=15-17"
    n = 3000
    a, b = _deals(fast, n), _deals(plain, n)
    hearts = lambda h: sum(1 for c in range(64) if int(h) >> c & 1 and c // 16 == 3)  # noqa: E731
    for seat, feature, cells in ((0, vint_hcp, range(15, 18)), (0, vint_spades, range(14)),
                                 (0, hearts, range(5)), (2, vint_hcp, range(38)), (1, vint_hcp, range(38))):
        x, y = (np.array([feature(h) for h in d.hands[:, seat]]) for d in (a, b))
        assert stats.chi2_contingency(_table((x, y), cells))[1] > 0.001, (seat, feature)
    hcp0 = np.array([vint_hcp(h) for h in a.hands[:, 0]])
    assert set(hcp0) == {15, 16, 17} and max(hearts(h) for h in a.hands[:, 0]) <= 4  # rule 1 shadows 5 hearts
    # the test can fail: a class narrower than the rule's (15-16) is told apart at once
    narrow = dataclasses.replace(fast, dealing=compile_conditions(Conditions("vint", dealer=0,
                                                                             classes={0: "hcp=15-16"})))
    z = np.array([vint_hcp(h) for h in narrow.deal(0, n).hands[:, 0]])
    y = np.array([vint_hcp(h) for h in b.hands[:, 0]])
    assert stats.chi2_contingency(_table((z, y), range(15, 18)))[1] < 1e-6
    # both keep the same share of random deals (acceptance: kept / attempts, the attempts counted alike)
    p = b.acceptance  # per deal the attempts are geometric: relative sd sqrt((1 - p) / n) each
    assert abs(a.acceptance - p) < 5 * p * np.sqrt(2 * (1 - p) / n)
    # fewer auctions tested: the cheap class rejects most deals before any strategy is asked
    assert a.tested.sum() * 3 < b.tested.sum()


def test_the_hull_keeps_the_distribution_of_two_rules(tmp_path):
    spec = _file(tmp_path, COVERED)
    kw = dict(game="vint", seat=1, dealer=0, auction=["1C"], options=["P"], n=10, seed=4, strategies={0: spec})
    fast, plain = question(**kw), question(**kw, deal_from_rules=False)
    assert fast.dealing.text == "seat 0: hcp=12-21"
    a, b = _deals(fast, 2000), _deals(plain, 2000)
    x, y = (np.array([vint_hcp(h) for h in d.hands[:, 0]]) for d in (a, b))
    assert stats.chi2_contingency(_table((x, y), range(12, 22)))[1] > 0.001
    assert not np.isin(x, [15, 16, 17]).any()  # 1NT (rule 2) shadows the 1C rules there


def test_the_same_deals_for_any_chunking_and_jobs(tmp_path):
    spec = _file(tmp_path, COVERED)
    kw = dict(game="vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P", "3NT"], seed=9,
              strategies={0: spec})
    q = question(**kw, n=300)
    whole = q.deal(0, 300)
    parts = [q.deal(0, 120), q.deal(120, 180)]
    assert np.array_equal(whole.hands, np.concatenate([p.hands for p in parts]))
    assert np.array_equal(whole.keys, np.concatenate([p.keys for p in parts]))
    one = cardsim.evaluate(**kw, n=300, chunk_size=300, n_jobs=1)
    split = cardsim.evaluate(**kw, n=300, chunk_size=70, n_jobs=2)
    assert one.equals(split)
    assert one.attrs["calls_dealt"][0]["class"] == "hcp=15-17" and one.attrs["calls_dealt"][0]["seat"] == 0


def test_calls_the_file_never_makes_are_refused_at_once(tmp_path):
    spec = _file(tmp_path, COVERED)
    with pytest.raises(OptionError, match=r"never made: seat 0 .* never calls 2C there"):
        question("vint", seat=1, dealer=0, auction=["2C"], options=["P"], n=10, strategies={0: spec})
    # the rule's condition against the question's own class: no hand can do both
    with pytest.raises(ConditionError, match="never made with these conditions"):
        question("vint", seat=1, dealer=0, auction=["1NT"], options=["P"], n=10, strategies={0: spec},
                 where="seat 0: hcp<=12")


def test_the_header_and_json_say_how_the_hands_were_dealt(tmp_path, capsys):
    spec = _file(tmp_path, COVERED)
    args = ["evaluate", "vint", "--seat", "2", "--dealer", "0", "--auction", "1NT P", "--option", "P",
            "--option", "3NT", "-n", "200", "--jobs", "1", "--strategy", f"0={spec}"]
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert "seat 0's 1NT: hand dealt from the condition of rule #2" in out and "hcp=15-17; then" in out
    assert "rules' conditions below" in out
    assert cli_main(args + ["--format", "json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["calls_dealt"] == [{"seat": 0, "call": "1NT", "class": "hcp=15-17",
                                     "how": facts["calls_dealt"][0]["how"]}]
    # the manifest (what keys the question's stores) says the same, the fallback included
    covered = question("vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10, strategies={0: spec})
    assert manifest(covered)["dealt_under"] == "seat 0: hcp=15-17"
    uncovered = _file(tmp_path, UNCOVERED, "uncovered.toml")
    fallback = manifest(question("vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10,
                                 strategies={0: uncovered}))
    assert "dealt_under" not in fallback and fallback["calls_dealt"][0]["class"] is None
    assert "some hands meet none" in fallback["calls_dealt"][0]["how"]
    assert cli_main(args[:-1] + [f"0={uncovered}"]) == 0
    out = capsys.readouterr().out
    assert "seat 0's 1NT: hand dealt at random, the auction tested (plain rejection): some hands meet none" in out
    # no rule-file caller: nothing said, the plain header as before
    assert cli_main(args[:-2]) == 0
    assert "hand dealt" not in capsys.readouterr().out


def test_five_hundred_given_calls_follow_the_auction_order():
    from cardsim.games.g500.constants import PASS
    from cardsim.games.g500.rulefile import given_calls as g500_calls, read_call as g500_call

    calls = [g500_call(t) for t in ("7H", "P", "8S", "P", "9C")]
    got = g500_calls(calls, 3)  # seat 0 speaks first; seats 1 and 3 pass and are skipped after
    assert [s for s, _, _, _ in got] == [0, 1, 2, 3, 0]
    assert got[4][1] == (0, g500_call("8S"), 2) and got[1][1] == (1, g500_call("7H"), 0)
    assert got[0][1] == (0, PASS, -1)


G500 = '''game = "500"

[[rule]]
standing = "none"
call = "7H"
when = "trumps_H>=6"

[[rule]]
standing = "none"
call = "6H"
when = "trumps_H>=4, jokers>=1"

[[rule]]
standing = "none"
call = "P"
'''


def test_five_hundred_openings_are_dealt_from_their_rules(tmp_path):
    from cardsim.conditions import features_of

    spec = _file(tmp_path, G500)
    # dealer 3: seat 0 speaks first and opens 6H with its file (7H shadows six trumps)
    kw = dict(game="500", seat=1, dealer=3, auction=["6H"], options=["P"], n=10, seed=2, strategies={0: spec})
    fast, plain = question(**kw), question(**kw, deal_from_rules=False)
    assert fast.dealing.text == "seat 0: jokers>=1, trumps_H>=4"
    fs = features_of("500")
    a, b = fast.deal(0, 2000), plain.deal(0, 2000)
    for seat, name, cells in ((0, "trumps_H", range(4, 6)), (0, "jokers", range(1, 3)), (0, "hcp", range(60)),
                              (2, "trumps_H", range(11))):
        x, y = (np.array([fs.value(name, h) for h in d.hands[:, seat]]) for d in (a, b))
        assert stats.chi2_contingency(_table((x, y), cells))[1] > 0.001, (seat, name)
    assert a.tested.sum() * 2 < b.tested.sum()


def test_the_complete_example_checks_plays_and_deals_its_openings_from_its_rules(tmp_path, capsys):
    from pathlib import Path

    systems = Path(__file__).resolve().parents[1] / "examples" / "systems"
    complete, natural = systems / "vint-complete.toml", systems / "vint-natural.toml"
    assert cli_main(["rules", "check", str(complete)]) == 0
    assert "11 tests: 11 passed, 0 failed" in capsys.readouterr().out
    kw = dict(game="vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10)
    q = question(**kw, strategies=f"rules:{complete}")
    assert q.dealing.text == "seat 0: hcp=15-17, S<=4, H<=4, balanced"
    # the natural system leaves 11 points and 22 or more to its base: dealt at random
    plain = question(**kw, strategies=f"rules:{natural}")
    assert plain.dealing is None and "some hands meet none" in plain.sampler[0].how
    # with open_low = 14 the complete file leaves 12-13 points to its base too: the 0/1 program sees it
    assert question(**kw, strategies=f"rules:{complete}:open_low=14").dealing is None
    rows = cardsim.simulate("vint", 300, seed=1, strategies=f"rules:{complete}", n_jobs=1)
    assert len(rows) == 300 and rows.opening_level.notna().any()


G501 = '''game = "501"

[[rule]]
stage = "blind"
call = "look"

[[rule]]
stage = "looked"
bid = "none"
call = "raise"
when = "hcp>=32"

[[rule]]
stage = "looked"
call = "pass"
'''


def test_501_given_calls_name_the_look_and_the_bid_after_it():
    from cardsim.games.g501.constants import BLIND_FLAG, LOOK
    from cardsim.games.g501.rulefile import BLIND, LOOKED, PASS, given_calls as g501_calls

    # dealer 2 of 3: seat 0 bids blind 66, seat 1 looks and bids 70, seat 2 looks and passes? (a pass
    # of a seat that has not looked says nothing), seat 0 looks and bids 80, seat 1 passes after looking
    got = g501_calls([66 + BLIND_FLAG, 70, 0, 80, 0], 2, 3, [400, 300, 501, 0])
    assert [(s, sit[0], call, sees) for s, sit, call, sees in got] == [
        (0, BLIND, 66, False), (1, BLIND, LOOK, False), (1, LOOKED, 70, True), (0, BLIND, LOOK, False),
        (0, LOOKED, 80, True), (1, LOOKED, PASS, True)]
    # seat 0's bid after looking: position 0, score 400, the closest rival 300, bid 70, seat 0 alone bid blind
    assert got[4][1] == (LOOKED, 0, 400, 300, 70, False, False, 3, 0)
    assert got[2][1] == (LOOKED, 1, 300, 400, 66, True, False, 3, 0)  # seat 1 saw seat 0's blind bid


def test_501_bids_after_looking_are_dealt_from_their_rules(tmp_path):
    from cardsim.conditions import features_of

    spec = _file(tmp_path, G501)
    # dealer 0: seat 1 speaks first, looks (its blind rule) and opens 66 with 32 card points or more
    kw = dict(game="501", seat=2, dealer=0, auction=["66"], options=["look"], n=10, seed=2, strategies={1: spec})
    fast, plain = question(**kw), question(**kw, deal_from_rules=False)
    assert fast.dealing.text == "seat 1: points>=32"
    assert [n["how"].startswith("the condition of rule #2") for n in
            (cardsim.questions.calls_dealt(fast) or [])] == [True]
    fs = features_of("501")
    a, b = fast.deal(0, 2000), plain.deal(0, 2000)
    for seat, name, cells in ((1, "points", range(32, 80)), (1, "S", range(8)), (2, "points", range(80))):
        x, y = (np.array([fs.value(name, h) for h in d.hands[:, seat]]) for d in (a, b))
        assert stats.chi2_contingency(_table((x, y), cells))[1] > 0.001, (seat, name)
    assert a.tested.sum() * 1.5 < b.tested.sum()
    # a blind bid of this file is never made: its blind rule looks
    with pytest.raises(OptionError, match="never made: seat 1"):
        question(**dict(kw, auction=["B66"]))


def test_records_of_the_question_say_how_the_callers_were_dealt(tmp_path):
    from cardsim.questions import records

    spec = _file(tmp_path, COVERED)
    q = question("vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10, seed=3, strategies={0: spec})
    rec = records(q, [0])[0]
    assert rec["auction"][:2] == ["1NT", "P"] and 15 <= vint_hcp(q.deal(0, 1).hands[0, 0]) <= 17
    assert rec["source"]["dealt_under"] == "seat 0: hcp=15-17"
    assert isinstance(cardsim.replay(rec), dict)  # replay takes it as any question's record
    plain = question("vint", seat=2, dealer=0, auction=["1NT", "P"], options=["P"], n=10, seed=3,
                     strategies={0: spec}, deal_from_rules=False)
    assert "dealt_under" not in records(plain, [0])[0]["source"]
