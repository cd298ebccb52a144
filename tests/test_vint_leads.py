"""Vint lead questions (issue 31, item 1): ``lead:CARD`` options, ``--contract``, ``--all-leads``."""
import json

import numpy as np
import pytest

import cardsim
from cardsim import questions as E
from cardsim.cards import card_str
from cardsim.cli import main
from cardsim.cli.evaluate import lead_groups
from cardsim.conditions import Conditions
from cardsim.games.base import OptionError
from cardsim.games.vint import engine, forcing

# A whole deal: seat 2 declares, seat 3 (its left) leads.
HANDS = {0: "S:T98 H:J97 D:JT8 C:QJ98", 1: "S:543 H:T652 D:764 C:743",
         2: "S:AK6 H:AQ3 D:AKQ2 C:AK5", 3: "S:QJ72 H:K84 D:953 C:T62"}
LEADER = HANDS[3]


def fixed(options, n=3, seed=7, outcome="tricks"):
    return E.question("vint", 3, options, n=n, seed=seed, outcome=outcome,
                      conditions=Conditions("vint", dealer=0, hands=HANDS))


def test_a_lead_option_plays_the_forced_card_first_and_as_the_record_shows():
    q = fixed(["lead:QS/3NT:2", "lead:4H/3NT:2"])
    for j, card in enumerate(["QS", "4H"]):
        dealt = q.deal(0, q.run.n)
        rows, ok = forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[j], q.before)
        assert ok.all() and (rows["declarer"] == 2).all() and (rows["level"] == 3).all()
        for i in range(q.run.n):
            rec = E.records(q, [i], option=j)[0]
            assert rec["play"][0] == card
            assert rec["hands"][3] and card in rec["hands"][3]
            assert rec["auction"][-1] == "P" and "3NT" in rec["auction"]
            # the trace plays the same deal as the rows: the same tricks
            assert rec["result"]["tricks"] == [int(rows["tricks_0"][i]), int(rows["tricks_1"][i])]
            assert cardsim.replay(rec) == rec["result"]  # the slow twin agrees with the forced play


def test_the_lead_is_read_from_the_forced_vector_only():
    f = forcing.parse_option("lead:QS/3NT:2", 3, None)
    assert f[engine.F_LEAD] == 0 * 16 + 10 + 1  # QS = spades (0) * 16 + rank Q (10), plus 1
    assert forcing.declares(f) and forcing.is_lead(f)
    assert not forcing.is_lead(engine.NO_FORCE)
    g = forcing.parse_option("=3NT:2", 3, None)
    assert g[engine.F_LEAD] == 0 and g[1] == 2  # another seat's contract, no lead forced


def test_tricks_outcome_and_set_rate():
    q = fixed(["lead:QS/3NT:2"], n=2)
    dealt = q.deal(0, 2)
    rows, ok = forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    declared, made, score = forcing.outcome(rows, 3, q.before)
    assert declared.all()
    np.testing.assert_array_equal(made, ~rows["made"])  # made = set, for a lead option
    np.testing.assert_array_equal(score, rows["tricks_1"])
    assert (rows["tricks_0"] + rows["tricks_1"] == 13).all()


def test_a_lead_not_held_is_not_legal_where_the_hand_is_dealt():
    # seat 3 given only its spades: the 4H is dealt to it in some deals only
    q = E.question("vint", 3, ["lead:4H/3NT:2", "lead:QS/3NT:2"], n=60, seed=3, hand="S:QJ72", outcome="tricks")
    df = E.run_question(q, 1)
    legal = E.table(q, df).set_index("option")["legal"]
    assert legal["lead:QS/3NT:2"] == 1.0
    assert 0.0 < legal["lead:4H/3NT:2"] < 1.0


def test_lead_groups():
    from cardsim.conditions import parse_hand
    groups = lead_groups(parse_hand("vint", "S:QJ72 H:AK84 D:T93 C:KJ32"))
    names = sorted(" ".join(card_str(c, "23456789TJQKA") for c in g) for g in groups)
    # touching cards of a suit together, the top one led; small cards that do not touch stay apart
    assert names == ["2S", "3C 2C", "3D", "4H", "7S", "8H", "AH KH", "JC", "KC", "QS JS", "TD 9D"]


@pytest.mark.parametrize("argv, words", [
    (["--contract", "3NT:2", "--hand", LEADER, "--option", "lead:AS"], "does not hold AS"),
    (["--contract", "3NT:1", "--option", "lead:QS"], "does not lead"),
    (["--contract", "3NT:3", "--option", "lead:QS"], "declares, so it does not lead"),
    (["--option", "lead:QS"], "needs the contract"),
    (["--contract", "3NT:2", "--all-leads"], "--all-leads (lead:best) needs the seat's hand"),
    (["--contract", "3NT", "--option", "lead:QS"], "CONTRACT:SEAT"),
    (["--contract", "3NT:2", "--option", "lead:ZZ"], "not a Vint card"),
    # a lead question takes the auction (tests/test_lead_auction.py), but not one past its contract
    (["--auction", "4S", "--dealer", "2", "--contract", "3NT:2", "--option", "lead:QS"],
     "after the calls given (4S) the auction cannot end in 3NT by seat 2"),
    (["--auction", "3NT", "--dealer", "0", "--contract", "3NT:2", "--option", "lead:QS"],
     "after the calls given (3NT) the auction cannot end in 3NT by seat 2"),
    (["--auction", "P", "--dealer", "3", "--contract", "3NT:2", "--option", "lead:QS", "--calls-on-random-hands"],
     "leave out --auction"),
    (["--option", "lead:QS/3NT:2", "--option", "lead:QS/4S:2"], "need a question each"),
])
def test_errors_are_one_line(capsys, argv, words):
    assert main(["evaluate", "vint", "--seat", "3", "-n", "10", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_all_leads_cli(capsys):
    assert main(["evaluate", "vint", "--seat", "3", "--contract", "4H:2", "--hand", LEADER, "--all-leads",
                 "-n", "40", "--jobs", "1", "--format", "json", "--outcome", "tricks"]) == 0
    rows = json.loads(capsys.readouterr().out)["options"]
    by = {r["option"]: r for r in rows}
    assert set(by) == {f"lead:{c}/4H:2" for c in ("QS", "7S", "2S", "KH", "8H", "4H", "9D", "5D", "3D", "TC", "6C",
                                                  "2C")}
    assert by["lead:QS/4H:2"]["stands_for"] == "QS JS" and by["lead:3D/4H:2"]["stands_for"] == "3D"
    assert all(r["legal"] == 1.0 for r in rows)


def test_table_says_what_made_measures(capsys):
    assert main(["evaluate", "vint", "--seat", "3", "--contract", "3NT:2", "--hand", LEADER, "--option", "lead:QS",
                 "--option", "lead:4H", "-n", "20", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "lead:QS/3NT:2" in out and "the contract's set rate" in out


def test_leads_of_touching_cards_give_identical_results():
    # Q J of spades, the rest of the deal dealt: the strategies play on the same way after either
    q = E.question("vint", 3, ["lead:QS/3NT:2", "lead:JS/3NT:2"], n=200, seed=11, hand=LEADER, outcome="tricks")
    dealt = q.deal(0, 200)
    rows = [forcing.play_given(q.run.seed, 0, dealt, q.run.setup, f, q.before)[0] for f in q.forced]
    np.testing.assert_array_equal(rows[0]["tricks_1"], rows[1]["tricks_1"])
    np.testing.assert_array_equal(rows[0]["total_1"], rows[1]["total_1"])


def test_another_seats_contract_option():
    # =3NT:2: partner declares (seat 0 asks); the made rate is its side's, as for =3NT
    q = E.question("vint", 0, ["=3NT:2", "=3NT"], n=20, seed=2)
    dealt = q.deal(0, 20)
    rows, ok = forcing.play_given(q.run.seed, 0, dealt, q.run.setup, q.forced[0], q.before)
    assert ok.all() and (rows["declarer"] == 2).all()
    assert forcing.declares(q.forced[0])


def test_lead_best_is_every_lead_ranked(capsys):
    """``--option lead:best`` asks the question of ``--all-leads``: the same table, best lead first."""
    from cardsim.cli import main

    argv = ["evaluate", "vint", "--seat", "3", "--contract", "3NT:2", "--hand", "S:QJ72 H:K84 D:953 C:T62",
            "-n", "60", "--seed", "4", "--outcome", "tricks"]
    assert main(argv + ["--all-leads"]) == 0
    every = capsys.readouterr().out
    assert main(argv + ["--option", "lead:best"]) == 0
    assert capsys.readouterr().out == every
    assert main(argv[:6] + ["--option", "lead:best", "-n", "10"]) == 2
    assert "(lead:best) needs the seat's hand" in capsys.readouterr().err


def test_a_void_given_in_the_hand_refuses_a_lead_of_that_suit(capsys):
    """``D:-`` says the leader has no diamond: a diamond lead is refused in one line, not answered
    as an option that is never legal."""
    assert main(["evaluate", "vint", "--seat", "3", "--contract", "4H:2", "--hand", "S:QJ D:-",
                 "--option", "lead:KD", "-n", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert "holds no D (D:-), so it cannot lead KD" in err and "\n" not in err


def test_every_hand_of_a_pbn_board_gives_the_leader_his_hand(tmp_path, capsys):
    """``--pbn-hands all``: the seat's hand is the board's, so a card it does not hold is refused
    and ``--all-leads`` asks its cards."""
    from cardsim.pbn import read_deals

    path = tmp_path / "d.pbn"
    assert main(["export", "vint", "--seed", "7", "-n", "1", "-o", str(path)]) == 0
    hands = read_deals(path)[0]["hands"]
    hand, other = hands[1], hands[2][0]
    base = ["evaluate", "vint", "--pbn", str(path), "--board", "1", "--pbn-hands", "all", "--seat", "1",
            "--contract", "2C:0", "-n", "4"]
    capsys.readouterr()
    assert main([*base, "--option", f"lead:{other}"]) == 2
    assert f"does not hold {other}" in capsys.readouterr().err
    assert main([*base, "--all-leads", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["options"]
    led = {c for r in rows for c in r["stands_for"].split()}
    assert led == set(hand)
