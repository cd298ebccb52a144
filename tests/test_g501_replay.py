"""501 replay (the slow twin): bad records are rejected with RecordError and a clear message."""
import copy

import pytest

from cardsim.games.base import RecordError
from cardsim.games.g501 import SPEC
from test_g501_rules import SEED_EXAMPLE


def rejects(mutate, match, field=None):
    rec = copy.deepcopy(SEED_EXAMPLE)
    mutate(rec)
    with pytest.raises(RecordError, match=match) as info:
        SPEC.play.replay(rec)
    if field is not None:
        assert info.value.field == field
    return info.value


def test_bad_records():
    rejects(lambda r: r.update(game="vint"), "game")
    rejects(lambda r: r.update(seats=5), "3 or 4 seats", "seats")
    rejects(lambda r: r.update(seats=True), "3 or 4 seats", "seats")
    rejects(lambda r: r.update(dealer=3), "dealer", "dealer")
    rejects(lambda r: r.update(rules={"x": 1}), "no rule options", "rules")
    rejects(lambda r: r.update(before={"scores": [501, 501]}), "before", "before")
    rejects(lambda r: r.update(before={"scores": [501, 0, 501]}), "already over", "before")
    rejects(lambda r: r["hands"][0].__setitem__(0, "8S"), "unknown card", "hands")
    rejects(lambda r: r["hands"][0].__setitem__(0, "9S"), "twice", "hands")
    rejects(lambda r: r["hands"][0].pop(), "holds 6 cards", "hands")
    rejects(lambda r: r.update(talon=["JS", "KC"]), "talon", "talon")
    rejects(lambda r: r.update(auction=["80", "70", "P", "P"]), "not higher", "auction")
    rejects(lambda r: r.update(auction=["65", "P", "P"]), "out of range", "auction")
    rejects(lambda r: r.update(auction=["221", "P", "P"]), "out of range", "auction")
    rejects(lambda r: r.update(auction=["B80", "P"]), "not over", "auction")
    rejects(lambda r: r.update(auction=["B80", "P", "P", "P"]), "after the end", "auction")
    rejects(lambda r: r.update(auction=["B80", "X", "P"]), "unknown call", "auction")
    rejects(lambda r: r.update(auction=["70", "75", "P", "B80", "P"]), "blind after looking", "auction")
    rejects(lambda r: r["contract"].update(target=79), "target", "contract")
    rejects(lambda r: r["contract"].update(trump="Z"), "trump", "contract")
    rejects(lambda r: r["contract"].update(give={"1": "9H"}), "give", "contract")
    rejects(lambda r: r["contract"].update(give={"1": "9H", "2": "9H"}), "twice", "contract")
    rejects(lambda r: r["contract"].update(give={"1": "9H", "2": "9S"}), "does not hold", "contract")
    rejects(lambda r: r.update(contract={"abandon": False}), "abandon", "contract")
    rejects(lambda r: r.pop("contract"), "contract", "contract")
    rejects(lambda r: r["play"].pop(), "not over", "play")
    rejects(lambda r: r["play"].append("AS"), "after the eighth", "play")


def test_marriage_rules_rejected():
    rejects(lambda r: r["play"].__setitem__(1, "JH+"), "leading")
    # declaring a suit without holding both K and Q
    rejects(lambda r: r["play"].__setitem__(3, "TS+"), "K or Q")
    e = rejects(lambda r: r["play"].__setitem__(6, "TD+"), "K or Q", "play")
    assert e.index == 6 and e.rule == "docs/RULES.md §1.6"


def test_play_rules_rejected():
    e = rejects(lambda r: r["play"].__setitem__(1, "AS"), "follow suit", "play")
    assert e.index == 1 and e.rule == "docs/RULES.md §1.5"
    rejects(lambda r: r["play"].__setitem__(0, "AH"), "does not hold", "play")


def test_abandon_or_void_must_not_be_played():
    def ab(r):
        r["contract"] = {"abandon": True}
    rejects(ab, "not played", "play")

    def void(r):
        r["auction"] = ["P", "P", "P"]
    rejects(void, "no contract", "contract")


def test_fields_of_other_games_and_unknown_keys_are_rejected():
    """docs/RECORDS.md Strictness: Five Hundred's discard is no 501 field; other keys belong in source."""
    e = rejects(lambda r: r.update(discard=["AS", "KS", "QS", "JS", "TS", "9S"]), "Five Hundred", "discard")
    assert e.rule == "docs/RECORDS.md Strictness" and "501 records do not have" in e.message
    e = rejects(lambda r: r.update(comment="from a real game"), "unknown field 'comment'")
    assert e.field is None and "belong in source" in e.message
    rejects(lambda r: r.update(seats=None), "3 or 4 seats", "seats")  # seats is required in 501


def test_null_rules_before_and_source_mean_absent():
    want = SPEC.play.replay(copy.deepcopy(SEED_EXAMPLE))
    rec = copy.deepcopy(SEED_EXAMPLE)
    rec.update(rules=None, before=None, source=None)
    assert SPEC.play.replay(rec) == want
