"""cardsim.evaluate (cardsim.questions) and `cardsim evaluate`: forced choices on deals dealt under conditions."""
import json

import numpy as np
import pytest

import cardsim
from cardsim import questions as E
from cardsim.cli import main
from cardsim.deal import ConditionError
from cardsim.games.base import OptionError
from cardsim.games.forced import F_NPREFIX
from cardsim.question_table import COLUMNS

SPADES = "S:AKQJT98765432"


def test_thirteen_spades_make_seven_spades_always_and_seven_no_trump_never():
    df = E.evaluate("vint", seat=0, hand=SPADES, options=["=7S", "=7NT"], n=400, seed=3, n_jobs=1)
    by = df.set_index("option")
    assert by.loc["=7S", "made"] == 1.0 and by.loc["=7S", "legal"] == 1.0
    # Without trumps the 13 spades never win a trick: the left-hand opponent leads another suit
    # and the declarer can only discard (docs/RULES.md §2.3).
    assert by.loc["=7NT", "made"] == 0.0
    assert list(df.option) == ["=7S", "=7NT"]  # best first
    assert by.loc["=7NT", "diff_hi"] < 0 and by.loc["=7S", "diff"] == 0


def test_seven_spades_score_is_the_bid_slam_by_hand():
    # Every deal: 13 tricks × V (V = 4 + 60 = 64) below, slam 1000 + bid slam 5000 above, five
    # trump honours 40 × V; the aces bonus depends on the other hands (docs/RULES.md §2.4-§2.6).
    recs = E.records(E.question("vint", seat=0, hand=SPADES, options=["=7S"], n=20, seed=3), range(20))
    for rec in recs:
        res = cardsim.replay(rec)
        assert res == rec["result"]
        assert res["tricks"][0] == 13 and res["below"][0] == 13 * 64
        assert res["bonuses"]["slam"][0] == 1000 and res["bonuses"]["bid_slam"][0] == 5000
        assert res["bonuses"]["honours"][0] == 40 * 64


def test_forced_contract_is_recorded_with_the_shortest_auction():
    q = E.question("vint", seat=2, options=["=3NT"], n=5, seed=8, dealer=3)
    for rec in E.records(q, range(5)):
        # dealer 3 speaks first: 3 passes before seat 2? no — seats 3, 0, 1 pass, then seat 2 bids.
        assert rec["auction"] == ["P", "P", "P", "3NT"] + ["P"] * 12
        assert rec["result"]["declarer"] == 2 and rec["result"]["contract"] == "3NT"
        assert rec["source"]["option"] == "=3NT" and rec["source"]["seat"] == 2
        assert cardsim.replay(rec) == rec["result"]


def test_forced_first_call_is_the_seats_first_call_or_not_legal():
    q = E.question("vint", seat=0, options=["P", "1S", "2H"], n=60, seed=5, dealer=1)
    seen_illegal = 0
    for rec in E.records(q, range(20)):
        option = rec["source"]["option"]
        first = rec["auction"][3]  # dealer 1: seats 1, 2, 3 speak before seat 0
        earlier = [c for c in rec["auction"][:3] if c != "P"]
        if option == "P":
            assert first == "P"
        elif not earlier:
            assert first == option
        else:
            seen_illegal += first != option
        assert cardsim.replay(rec) == rec["result"]
    df = E.evaluate("vint", seat=0, options=["P", "1S", "2H"], n=3000, seed=5, dealer=1, n_jobs=1)
    by = df.set_index("option")
    assert by.loc["P", "legal"] == 1.0
    assert 0.05 < by.loc["1S", "legal"] < 1.0 and by.loc["2H", "legal"] >= by.loc["1S", "legal"]


def test_same_question_same_table_and_one_option_alone_gives_the_same_numbers():
    kw = dict(seat=1, where="hcp=12-14, S>=5", n=600, seed=11, n_jobs=1, chunk_size=250)
    a = E.evaluate("vint", options=["P", "1S", "1NT"], **kw)
    b = E.evaluate("vint", options=["P", "1S", "1NT"], **kw)
    assert a.equals(b)
    alone = E.evaluate("vint", options=["1NT"], **{**kw, "chunk_size": 600})
    cols = ["n", "legal", "made", "made_lo", "made_hi", "score", "score_lo", "score_hi"]
    assert np.allclose(alone[cols].to_numpy(float), a.set_index("option").loc[["1NT"], cols].to_numpy(float),
                       equal_nan=True)
    # the paired difference equals the difference of the means when every deal is legal for both
    by = a.set_index("option")
    best = a.option[0]
    if by.loc["P", "legal"] == 1.0 and by.loc[best, "legal"] == 1.0:
        assert by.loc["P", "diff"] == pytest.approx(by.loc["P", "score"] - by.loc[best, "score"])


def test_class_conditions_hold_on_the_recorded_deals():
    q = E.question("vint", seat=1, where="hcp=15-17, H>=5", options=["1H"], n=30, seed=2)
    for rec in E.records(q, range(30)):
        hand = rec["hands"][1]
        hcp = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c[0], 0) for c in hand)
        assert 15 <= hcp <= 17 and sum(c[1] == "H" for c in hand) >= 5


@pytest.mark.parametrize("kw, exc, match", [
    (dict(options=[]), OptionError, "at least one option"),
    (dict(options=["8S"]), OptionError, "not a Vint call"),
    (dict(options=["=P"]), OptionError, "needs a bid"),
    (dict(options=["1S", "1s"]), OptionError, "same choice"),
    (dict(options=["P"], seat=4), OptionError, "seat must be"),
    (dict(options=["P"], n=0), OptionError, "whole number"),
    (dict(options=["P"], hand="S:AKQ S:A"), ConditionError, "twice"),
    (dict(options=["P"], hand="S:AKQJT98765432 H:A"), ConditionError, "13"),
    (dict(options=["P"], where="hcp>=38"), ConditionError, "impossible"),
    (dict(options=["P"], where="hcp=="), ConditionError, "unexpected .=. at column 5"),
    (dict(options=["P"], before=[600, 0]), OptionError, "below the line"),
])
def test_bad_questions_are_one_line_errors(kw, exc, match):
    kw = {"n": 10, **kw}
    with pytest.raises(exc, match=match) as info:
        E.question("vint", **kw)
    assert "\n" not in str(info.value)


def test_cli_evaluate_json_columns_and_errors(capsys, tmp_path):
    out = tmp_path / "ev.jsonl"
    code = main(["evaluate", "vint", "--seat", "0", "--dealer", "0", "--hand", "S:AKT86 H:KQ42 C:K832",
                 "--option", "P", "--option", "1S", "-n", "300", "--seed", "1", "--format", "json",
                 "--jobs", "1", "--records", str(out), "--records-limit", "3"])
    assert code == 0
    answer = json.loads(capsys.readouterr().out)
    rows = answer["options"]
    assert [set(r) for r in rows] == [set(COLUMNS)] * 2
    assert answer["game"] == "vint" and answer["seat"] == 0 and answer["deals"] == 300 and answer["seed"] == 1
    assert answer["rules"] == {} and answer["rules_text"] == "docs/RULES.md §2, no rule options"
    assert {r["option"] for r in rows} == {"P", "1S"}
    assert next(r for r in rows if r["option"] == "P")["made"] is None
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 6 and all(cardsim.replay(r) == r["result"] for r in recs)
    assert main(["evaluate", "vint", "--option", "9S", "-n", "10"]) == 2
    assert "not a Vint call" in capsys.readouterr().err
    assert main(["evaluate", "vint", "--option", "P", "--where", "hcp>=", "-n", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error:") and err.count("\n") == 1


def test_given_auction_before_the_seats_call():
    # Partner (seat 2, the dealer) opened 1NT, seat 3 passed: seat 0 responds.
    q = E.question("vint", seat=0, options=["P", "3NT"], n=10, seed=4, dealer=2, auction=["1NT", "P"])
    for rec in E.records(q, range(10)):
        assert rec["auction"][:3] == ["1NT", "P", rec["source"]["option"]]
        assert cardsim.replay(rec) == rec["result"]
    for kw, match in [(dict(auction=["1NT", "P"]), "needs the dealer"),
                      (dict(auction=["1NT", "1S"], dealer=2), "not higher"),
                      (dict(auction=["1NT"], dealer=2), "seat 3's turn"),
                      (dict(auction=["2NT", "P"], dealer=2, options=["2S"]), "not higher than the auction"),
                      (dict(auction=["1NT", "P"], dealer=2, options=["=3NT"]), "skips the auction")]:
        with pytest.raises(OptionError, match=match):
            E.question("vint", **{"seat": 0, "options": ["P"], "n": 10, **kw})


def test_five_hundred_top_ten_trumps_make_ten_hearts_always():
    # The ten highest hearts trumps (docs/RULES.md §3.1): the declarer leads and never loses a trick.
    df = E.evaluate("500", seat=2, hand="HJ LJ H:AKQJT98 D:J", options=["=10H", "=10NT"], n=300, seed=1,
                    n_jobs=1)
    by = df.set_index("option")
    assert by.loc["=10H", "made"] == 1.0 and by.loc["=10H", "score"] == 500.0  # quebec: +500, nothing else
    assert df.option[0] == "=10H" and by.loc["=10NT", "made"] < 1.0


def test_five_hundred_forced_options_record_and_replay():
    q = E.question("500", seat=1, options=["=8H", "P", "7S"], n=6, seed=3, dealer=0, rules={"scoring": "subtract"},
                   before=[120, -40])
    for rec in E.records(q, range(6)):
        option = rec["source"]["option"]
        # dealer 0: seat 1 speaks first (docs/RULES.md §3.3)
        assert rec["auction"][0] == {"=8H": "8H", "P": "P", "7S": "7S"}[option]
        if option == "=8H":
            assert rec["auction"] == ["8H", "P", "P", "P"] and rec["result"]["declarer"] == 1
        assert rec["before"] == {"scores": [120, -40]} and rec["rules"]["scoring"] == "subtract"
        assert cardsim.replay(rec) == rec["result"]


def test_five_hundred_bad_options():
    for kw, match in [(dict(options=["5H"]), "not a Five Hundred call"), (dict(options=["=P"]), "needs a bid"),
                      (dict(options=["7H"], auction=["8S"], dealer=3, seat=1), "not higher"),
                      (dict(options=["P"], auction=["P", "P"], dealer=0), "seat 3's turn"),
                      (dict(options=["P"], before=[1]), "s0,s1"),
                      # §3.6: at the target the game is over; replay refuses such a record too
                      (dict(options=["P"], before=[1000, 0]), "already has the target 1000"),
                      (dict(options=["P"], before=[0, 150], rules={"target": 100}), "already has the target 100")]:
        with pytest.raises(OptionError, match=match):
            E.question("500", **{"seat": 0, "n": 10, **kw})


def test_501_options_record_replay_and_follow_their_definition():
    # heuristic_v4 in the seats (blind at most to 81): the default bids blind to 87 once its option's part is over
    q = E.question("501", seat=1, options=["blind:80", "look", "pass", "=100!/H/120", "=90"], n=12, seed=3,
                   dealer=0, before=[501, 250, 320], strategies=["heuristic_v4"] * 3)
    for rec in E.records(q, range(12)):
        option = rec["source"]["option"]
        calls = rec["auction"]
        assert rec["before"] == {"scores": [501, 250, 320]}
        assert cardsim.replay(rec) == rec["result"]
        if option == "=100!/H/120":
            # dealer 0: seat 1 speaks first, wins blind at 100; the others pass (docs/RECORDS.md)
            assert calls == ["B100", "P", "P"] and rec["contract"]["trump"] == "H"
            assert rec["contract"]["target"] == 120 and rec["result"]["blind"] is True
            assert abs(rec["result"]["delta"][1]) == 240  # blind: twice the target (docs/RULES.md §1.7)
        elif option == "=90":
            assert calls == ["90", "P", "P"] and rec["result"]["blind"] is False
        elif option == "pass":
            assert calls[0] == "P"
        elif option == "blind:80":
            mine = calls[0::3]  # seat 1's calls while all three are in the auction
            assert calls[0] == "B66"
            for c in mine:
                if c.startswith("B"):
                    assert int(c[1:]) <= 80
        else:
            assert not calls[0].startswith("B")


def test_501_blind_option_not_legal_when_the_auction_is_already_higher():
    # seat 0 speaks second (dealer 1): blind up to 66 is possible only where seat 2 passed first
    df = E.evaluate("501", seat=0, options=["blind:66", "look"], n=400, seed=9, dealer=1, n_jobs=1,
                    strategies=["heuristic_v4"] * 3)  # the default always bids blind first: never legal
    by = df.set_index("option")
    assert 0.0 < by.loc["blind:66", "legal"] < 1.0 and by.loc["look", "legal"] == 1.0
    # after given calls the minimum raise is known: an option it rules out is refused at once
    for auction, option, calls, raise_ in ((["B66"], "blind:66", True, 67), (["B75"], "blind:70", False, 76)):
        with pytest.raises(OptionError, match=rf"'{option}' is never possible after the given calls: the minimum "
                                              rf"raise is {raise_}"):
            E.question("501", seat=0, options=[option, "look"], n=10, dealer=1, auction=auction,
                       calls_imply_hands=calls)


def test_501_seat_that_has_looked_bids_blind_no_more():
    # seat 1 bid 70 having looked (dealer 0: seats 1, 2, 0 speak): in the rebid it may not bid blind
    kw = dict(seat=1, dealer=0, auction=["70", "80", "90"], n=10, calls_imply_hands=False)
    with pytest.raises(OptionError, match="seat 1 has looked"):
        E.question("501", options=["blind:150"], **kw)
    assert E.question("501", options=["auto"], **kw).options == ("look", "pass")
    df = E.evaluate("501", options=["look", "pass"], seed=1, n_jobs=1, **{**kw, "n": 50})
    assert (df.legal == 1.0).all()
    q = E.question("501", options=["look"], **kw)
    for rec in E.records(q, range(3)):
        assert cardsim.replay(rec) == rec["result"]


def test_501_game_outcome_is_a_win_share_and_higher_is_better():
    df = E.evaluate("501", seat=0, options=["=150!/NT/220", "pass"], n=300, seed=2, before=[60, 400, 400],
                    outcome="game", n_jobs=1)
    by = df.set_index("option")
    # Far ahead at 60, passing almost always wins; a hopeless blind 220 in no-trump sends seat 0
    # up by 440 and usually loses the game (docs/RULES.md §1.7-§1.8).
    assert df.attrs["outcome"] == "game" and df.attrs["lower_is_better"] is False
    assert 0 <= by.loc["=150!/NT/220", "score"] < by.loc["pass", "score"] <= 1
    assert df.option[0] == "pass"


def test_one_sign_for_better_in_every_game():
    # 501 counts down: a deal's score change is turned round, so the higher score is the better one
    df = E.evaluate("501", seat=0, options=["=150!/NT/220", "pass"], n=300, seed=2, n_jobs=1)
    by = df.set_index("option")
    assert df.option[0] == "pass" and by.loc["=150!/NT/220", "score"] < -200  # a hopeless blind: about -440
    assert by.loc["=150!/NT/220", "diff"] < 0 and by.loc["=150!/NT/220", "diff_hi"] < 0
    assert df.attrs["sign_turned"] is True and df.attrs["lower_is_better"] is False
    assert "sign turned" in df.attrs["score_meaning"] and "game" not in df.attrs["score_meaning"]
    with_score = E.evaluate("501", seat=0, options=["=150!/NT/220", "pass"], n=300, seed=2, n_jobs=1,
                            before=[300, 300, 300])
    assert "this deal only, not the game's win: --outcome game" in with_score.attrs["score_meaning"]
    vint = E.evaluate("vint", seat=0, options=["=7NT", "P"], n=200, seed=2, n_jobs=1)
    assert vint.option[0] == "P" and vint.set_index("option").loc["=7NT", "diff"] < 0
    assert vint.attrs["sign_turned"] is False and "minus the other side's" in vint.attrs["score_meaning"]


def test_option_auto_asks_every_first_call():
    vint = E.question("vint", seat=1, dealer=0, auction=["1H"], options=["auto"], n=10)
    assert vint.options[:4] == ("P", "1NT", "2S", "2C") and vint.options[-1] == "7NT" and len(vint.options) == 32
    assert len(E.question("vint", seat=0, options="auto", n=10).options) == 36
    g500 = E.question("500", seat=2, dealer=0, auction=["7H"], options=["auto"], n=10)
    assert g500.options[:3] == ("P", "7NT", "8S") and len(g500.options) == 1 + 16
    g501 = E.question("501", seat=0, dealer=1, auction=["B66"], options=["auto"], n=10)
    assert g501.options == ("look", "pass", "blind:70", "blind:80", "blind:90", "blind:100", "blind:110",
                            "blind:120", "blind:130", "blind:140", "blind:150")
    assert E.question("501", seat=0, options=["AUTO"], n=10).options[2] == "blind:66"
    with pytest.raises(OptionError, match="give it alone"):
        E.question("vint", seat=0, options=["auto", "P"], n=10)
    df = E.evaluate("501", seat=0, options=["auto"], n=60, seed=1, n_jobs=1)
    assert len(df) == 12 and set(df.option) >= {"look", "pass", "blind:66", "blind:150"}


def test_501_bad_options():
    for kw, match in [(dict(options=["blind:60"]), "from 66"), (dict(options=["blind"]), "not a 501 option"),
                      (dict(options=["=90/X"]), "trump is one of"), (dict(options=["=90/H/80"]), "below the bid"),
                      (dict(options=["look"], auction=["70", "B71", "B72", "B73"], dealer=2), "cannot bid blind"),
                      (dict(options=["look"], before=[0, 300, 300]), "above 0"),
                      (dict(options=["look"], outcome="match"), "'deal', 'game' or 'points'")]:
        with pytest.raises(OptionError, match=match):
            E.question("501", **{"seat": 0, "n": 10, **kw})
    with pytest.raises(OptionError, match=r"501 questions score 'deal', 'game' or 'points' \(outcome='margin' is for vint\)"):
        E.question("501", seat=0, options=["look"], n=10, outcome="margin")


def test_501_four_seats_the_asked_seat_never_sits_out():
    with pytest.raises(OptionError, match="sits out"):
        E.question("501", seat=1, seats=4, dealer=1, options=["look"], n=10)
    q = E.question("501", seat=1, seats=4, options=["look", "pass"], n=40, seed=5)
    for rec in E.records(q, range(40)):
        assert rec["dealer"] != 1 and len(rec["hands"][1]) == 7
        assert cardsim.replay(rec) == rec["result"]
    with pytest.raises(OptionError, match="dealer must be a seat"):
        cardsim.match_records("501", 0, dealer=5)


def test_a_class_too_rare_to_sample_leaves_no_store(tmp_path):
    # the same deal fails on every run, so a kept store could never be resumed to an answer
    q = E.question("vint", options=["P"], n=10, seed=3, where="hcp>=31", chunk_size=5)
    store = tmp_path / "store"
    with pytest.raises(ConditionError, match="too rare"):
        E.run_question(q, n_jobs=1, store=store)
    assert not store.exists()


def test_a_void_in_the_hand_holds_on_every_deal_and_shows_in_the_conditions(capsys):
    q = E.question("vint", seat=0, hand="S:AKQJT D:-", options=["1S"], n=20, seed=5, dealer=0)
    assert q.compiled.text == "seat 0 given S:AKQJT; seat 0: D=0"
    for rec in E.records(q, range(20)):
        hand = rec["hands"][0]
        assert {"AS", "KS", "QS", "JS", "TS"} <= set(hand) and not [c for c in hand if c.endswith("D")]
        assert cardsim.replay(rec) == rec["result"]
    assert main(["evaluate", "vint", "--seat", "0", "--dealer", "0", "--hand", "♠:AKQJT ♦:-", "--option", "1♠",
                 "--option", "P", "-n", "40", "--seed", "5", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "conditions: seat 0 given S:AKQJT; seat 0: D=0 (acceptance " in out
    assert sorted(line.split()[0] for line in out.splitlines()[3:5]) == ["1♠", "P"]  # the options as written
    assert main(["evaluate", "vint", "--hand", "S:- AS", "--option", "P", "-n", "10"]) == 2
    assert capsys.readouterr().err == "cardsim: error: hand 'S:- AS': S:- says it has no S, yet it is given AS\n"
    with pytest.raises(ConditionError, match=r"seat 0: D:- \(no D\) contradicts D>=3"):
        E.question("vint", hand="S:AK D:-", where="D>=3", options=["P"], n=10)


def test_a_class_impossible_on_its_face_is_refused_at_once(capsys):
    with pytest.raises(ConditionError, match=r"seat 1: S<=4, honours_S>=5 is impossible"):
        E.question("vint", seat=1, where="honours_S>=5, S<=4", options=["P"], n=10)
    assert main(["evaluate", "500", "--where", "trumps_H<=2, jokers=2, bowers_H=1", "--option", "P", "-n", "10"]) == 2
    assert capsys.readouterr().err == ("cardsim: error: seat 0: jokers=2, bowers_H=1, trumps_H<=2 is impossible: no "
                                       "10-card 500 hand meets them together\n")


@pytest.mark.parametrize("game, kw, symbols, letters", [
    ("vint", dict(dealer=2, auction="1♠ P"), ["2♥", "P", "3♣"], ["2H", "P", "3C"]),
    ("vint", {}, ["=7♥", "1♦", "=1♤", "1♡"], ["=7H", "1D", "=1S", "1H"]),
    ("500", dict(dealer=0, seat=3, auction=["6♠", "P"]), ["7♥", "P"], ["7H", "P"]),
    ("500", {}, ["=9♦", "8♣"], ["=9D", "8C"]),
    ("501", {}, ["=100!/♥/120", "=90/♣", "look"], ["=100!/H/120", "=90/C", "look"]),
])
def test_suit_symbols_in_calls_options_and_classes_are_the_letters(game, kw, symbols, letters):
    kw = {"n": 10, **kw}
    a = E.question(game, options=symbols, **kw)
    b = E.question(game, options=letters, **kw)
    assert [f.tolist() for f in a.forced] == [f.tolist() for f in b.forced]
    assert a.options == tuple(symbols)  # the table shows the options as written
    where = E.question(game, options=["pass" if game == "501" else "P"], where="♥>=3, ♠<=5, has A♦", n=10)
    assert where.compiled.text == "seat 0: S<=5, H>=3, has AD"


def test_501_auction_takes_blind_bids_as_the_options_write_them(capsys):
    kw = dict(seat=0, dealer=0, options=["look", "pass"], n=10)  # seat 1 speaks first, then seat 2
    b = E.question("501", auction="B80 P", **kw)
    assert [f.tolist() for f in E.question("501", auction="blind:80 pass", **kw).forced] == \
        [f.tolist() for f in b.forced]
    assert [f.tolist() for f in E.question("501", auction=["BLIND:80", "p"], **kw).forced] == \
        [f.tolist() for f in b.forced]
    for auction, match in [("B8 P", r"call 1 of the auction \('B8'\) is not a 501 call"),
                           ("80 blind:x", r"call 2 of the auction \('blind:x'\) is not a 501 call"),
                           ("blind:300 P", r"call 1 of the auction \('blind:300'\): a bid is from 66 to 220"),
                           ("80 90 100 blind:105", r"call 4 of the auction \(blind:105\): seat 1 has looked")]:
        with pytest.raises(OptionError, match=match):
            E.question("501", auction=auction, **kw)
    assert main(["evaluate", "501", "--dealer", "0", "--auction", "70 blind:7O", "--option", "look", "-n", "5"]) == 2
    assert "call 2 of the auction ('blind:7O') is not a 501 call" in capsys.readouterr().err


def test_evaluate_help_says_from_whom_the_calls_run_with_an_example_per_game(capsys):
    with pytest.raises(SystemExit) as info:
        main(["evaluate", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    examples = {"vint": (2, 0, "1NT P"), "500": (0, 3, "6S P"), "501": (0, 0, "B66 P")}
    for game, who in (("vint", "from the dealer: "), ("500", "from the dealer's left:"),
                      ("501", "from the dealer's left:")):
        assert f"  {game:<4}  {who}" in out
        dealer, seat, calls = examples[game]
        assert f'--dealer {dealer} --seat {seat} --auction "{calls}"' in out
        option = "look" if game == "501" else "P"
        q = E.question(game, seat=seat, dealer=dealer, auction=calls, options=[option], n=5)  # the example is legal
        assert int(q.forced[0][F_NPREFIX]) == len(calls.split())  # the calls are the given prefix
        assert q.calls == tuple(calls.split()) and len(q.deal(0, 20).dealers) == 20  # the default players make them


def test_bad_dealer_and_non_text_options_are_named():
    for dealer in (-1, 9, True, "0"):
        with pytest.raises(OptionError, match="dealer must be a seat from 0 to 3 or None"):
            E.question("vint", seat=0, options=["P"], dealer=dealer, auction=["P", "P", "P", "P"][:0] or None)
    with pytest.raises(OptionError, match="an option is a string such as"):
        E.question("vint", seat=0, options=[5])


def test_records_to_a_full_disk_is_one_line(capsys):
    assert main(["evaluate", "vint", "--seat", "0", "--option", "P", "-n", "40", "--jobs", "1",
                 "--records", "/dev/full"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write" in err[0]


# ---------------------------------------------------------------- the best row is the best
# `cardsim evaluate vint --seat 0 --dealer 1 --option P --option 1S --option 1NT -n 20000 --seed 3
# --strategy heuristic_v4`: seat 0 calls last, so 1S is legal only after the others passed and 1NT
# only below a 1NT bid. 1NT has the highest mean on its own deals, but pass beats it by +56 [+37, +74]
# on the deals where both are legal; the table, --until-clear and --robust listed 1NT first
# (docs/statistics.md).  Played by the players of that measurement, the default before the tuned values.
PASS_1S_1NT = ["evaluate", "vint", "--seat", "0", "--dealer", "1", "--option", "P", "--option", "1S", "--option",
               "1NT", "--seed", "3", "--jobs", "1", "--strategy", "heuristic_v4"]


def test_the_first_row_beats_the_others_where_both_are_legal_not_the_highest_own_deal_mean():
    df = E.evaluate("vint", seat=0, dealer=1, options=["P", "1S", "1NT"], n=20_000, seed=3, n_jobs=1,
                    strategies="heuristic_v4")
    by = df.set_index("option")
    assert by.loc["1NT", "score"] > by.loc["P", "score"]  # own-deal means: 1NT above P
    assert list(df.option) == ["P", "1NT", "1S"] and df["rank"].tolist() == [1, 2, 3]
    assert by.loc["1NT", "diff"] == pytest.approx(-55.9, abs=0.05)
    assert by.loc["1NT", "diff_lo"] == pytest.approx(-74.4, abs=0.05)
    assert by.loc["1NT", "diff_hi"] == pytest.approx(-37.5, abs=0.05)
    assert (df["diff_hi"].iloc[1:] < 0).all() and df.attrs["not_compared"] == {}


def test_until_clear_lists_the_clearly_best_option_first(capsys):
    assert main(PASS_1S_1NT + ["--until-clear", "--max-deals", "20000", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["until_clear"]["clear"] and out["until_clear"]["best"] == "P"
    assert [r["option"] for r in out["options"]] == ["P", "1NT", "1S"]


def test_robust_judges_the_first_row_and_its_runner_up(capsys):
    assert main(PASS_1S_1NT + ["-n", "20000", "--robust", "--profile", "cautious", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    default = out["profiles"]["default"]
    assert out["verdict"]["best"] == "P" == default["best"] and default["runner_up"] == "1NT"
    assert default["gain"] == pytest.approx(55.9, abs=0.05) and default["gain_lo"] > 0
    assert [r["option"] for r in default["options"]][0] == "P"


def test_an_option_legal_with_another_on_too_few_deals_is_not_ranked(capsys):
    assert main(PASS_1S_1NT + ["-n", "60"]) == 0
    out = capsys.readouterr().out
    assert "not compared: 1S, legal on 14 deals only, fewer than the 30 needed to rank it" in out
    last = [line for line in out.splitlines() if line.strip().startswith("1S ")][0]
    assert last.split()[:2] == ["1S", "60"]  # no rank
    assert main(PASS_1S_1NT + ["-n", "60", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("option,rank,n,") and rows[3].startswith("1S,,60,")
    assert main(PASS_1S_1NT + ["-n", "60", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["not_compared"] == {
        "1S": "legal on 14 deals only, fewer than the 30 needed to rank it"}
    assert main(PASS_1S_1NT + ["-n", "20", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["options"]
    assert [r["option"] for r in rows] == ["P", "1S", "1NT"]  # 20 deals: nothing ranked, option order
    assert all(r["rank"] is None and r["diff"] is None for r in rows)
    assert main(PASS_1S_1NT + ["-n", "20"]) == 0
    assert "rank: none, too few deals to compare the options" in capsys.readouterr().out
    assert main(PASS_1S_1NT + ["-n", "20", "--robust", "--profile", "bold"]) == 0
    out = capsys.readouterr().out
    assert "verdict: none: no option is ranked under default" in out and " holds" not in out
    assert main(PASS_1S_1NT + ["-n", "20", "--robust", "--profile", "bold", "--format", "json"]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert verdict["best"] is None and verdict["holds"] is None and verdict["flips_under"] == []
