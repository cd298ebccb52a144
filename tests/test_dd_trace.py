"""The per-card double-dummy trace (issue 31, "Why"): ``cardsim.dd.card_costs`` and
``cardsim show … --dd``.

The identity every trace keeps (cardsim/dd/trace.py): the value after a card is the value before
the next one, so

    dd_value - result == sum(cost of the declaring side) - sum(cost of the defenders)

with ``dd_value`` the value before the first card and ``result`` the declaring side's result in
play; every cost is >= 0; a play choosing a cost-0 card everywhere ends at ``dd_value``."""
from __future__ import annotations

import json

import numpy as np
import pytest

import cardsim
from cardsim.cli import main
from cardsim.dd import card_costs, side_totals
from cardsim.games import register_game, unregister_game
from cardsim.games.base import OptionError


def check_identities(df):
    """The trace's invariants: costs >= 0, the chain of values, the telescoping sum."""
    assert (df.cost >= 0).all()
    assert (df.value_after.to_numpy()[:-1] == df.value_before.to_numpy()[1:]).all()
    tot = side_totals(df)
    assert df.attrs["dd_value"] - df.attrs["result"] == tot["declaring"] - tot["defending"]
    assert (df.cost == 0).sum() >= 1
    for r in df.itertuples():
        assert (r.card in r.best_cards.split()) == (r.cost == 0)


# ---------------------------------------------------------------- Vint
def vint_optimal(record, bad_at=None):
    """``record`` replayed with a DD-best card at every step (DDS through endplay), the highest
    of the best; at card ``bad_at`` the legal card worst for its player instead (if it is worse)."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    from cardsim.dd.vint import DDS_STRAIN, pbn_deal
    from cardsim.games.vint.dd import hands_of
    from cardsim.games.vint.replay import run_auction

    declarer, (_, den) = run_auction(record["auction"], record["dealer"])
    deal = Deal.from_pbn(pbn_deal(hands_of([record])[0]))
    deal.first = Player((declarer + 1) % 4)
    deal.trump = Denom(DDS_STRAIN[den])
    play = []
    for i in range(52):
        scores = list(solve_board(deal))
        pick = max if i != bad_at else min
        card = pick(scores, key=lambda x: (x[1], int(x[0].rank.value)))[0]
        play.append(card.rank.abbr + "SHDC"[int(card.suit)])
        deal.play(card)
    return {k: v for k, v in record.items() if k not in ("play", "result")} | {"play": play}


def played_vint(seed, n):
    return [r for r in cardsim.records("vint", list(range(n)), seed) if r["play"]][:4]


@pytest.fixture(scope="module")
def vint_records():
    return played_vint(11, 8)


def test_vint_trace_identities(vint_records):
    for rec in vint_records:
        df = card_costs(rec)
        assert len(df) == 52 and list(df.card) == [c.upper() for c in rec["play"]]
        assert df.attrs["unit"] == "tricks"
        dd = cardsim.dd.solve_records([rec]).iloc[0]
        assert df.attrs["dd_value"] == dd.dd_tricks
        assert df.attrs["result"] == dd.decl_tricks
        check_identities(df)


def test_vint_dd_optimal_play_costs_nothing(vint_records):
    for rec in vint_records[:2]:
        best = vint_optimal(rec)
        df = card_costs(best)
        check_identities(df)
        assert (df.cost == 0).all()
        assert df.attrs["result"] == df.attrs["dd_value"] == card_costs(rec).attrs["dd_value"]


def test_vint_a_bad_card_costs():
    rec = played_vint(11, 8)[0]
    base = card_costs(vint_optimal(rec))
    # the first card at which some legal card loses a trick: the opening lead rarely is one
    for i in range(52):
        bad = card_costs(vint_optimal(rec, bad_at=i))
        if bad.cost[i] > 0:
            break
    else:
        pytest.fail("no losing card in the whole deal")
    check_identities(bad)
    assert (bad.cost.to_numpy()[:i] == 0).all() and (bad.cost.to_numpy()[i + 1:] == 0).all()
    tot = side_totals(bad)
    loss = tot["declaring"] + tot["defending"]
    assert loss == bad.cost[i] > 0
    sign = -1 if bad.declaring[i] else 1
    assert bad.attrs["result"] == base.attrs["dd_value"] + sign * loss


# ---------------------------------------------------------------- the command and its errors
def test_show_dd_prints_the_trace(capsys):
    assert main(["show", "vint", "--seed", "1", "--deal", "1", "--dd"]) == 0
    out = capsys.readouterr().out
    assert "Double dummy, card by card" in out and "trick 13:" in out
    assert "\u22121 trick" in out or "\u22122 tricks" in out
    assert out.strip().splitlines()[-1].startswith("Cost against double dummy: seats 0+2 ")


def test_show_dd_from_a_record_file(tmp_path, capsys, vint_records):
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in vint_records) + "\n")
    assert main(["show", "--record", str(f), "--line", "2", "--dd"]) == 0
    out = capsys.readouterr().out
    tot = side_totals(card_costs(vint_records[1]))
    assert f"Cost against double dummy: " in out and f"= {tot['declaring']} - {tot['defending']}" in out


def test_show_dd_without_play_is_a_one_line_error(tmp_path, capsys):
    rec = cardsim.records("vint", [0], 1)[0]
    void = {k: v for k, v in rec.items() if k not in ("result",)} | {"auction": ["p"] * 8, "play": []}
    cardsim.replay(void)  # a valid record: everybody passed
    with pytest.raises(OptionError, match="no play"):
        card_costs(void)
    f = tmp_path / "void.jsonl"
    f.write_text(json.dumps(void) + "\n")
    assert main(["show", "--record", str(f), "--dd"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and len(cap.err.strip().splitlines()) == 1 and "no play" in cap.err


@pytest.fixture
def duel():
    register_game("duel", "toygame")
    yield
    unregister_game("duel")


def test_show_dd_for_a_game_without_solver_is_a_one_line_error(duel, capsys):
    assert main(["show", "duel", "--dd"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and len(cap.err.strip().splitlines()) == 1 and "double-dummy" in cap.err
    with pytest.raises(OptionError, match="no double-dummy trace"):
        card_costs(cardsim.records("duel", [0], 1)[0])
