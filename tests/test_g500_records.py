"""Five Hundred records: round trip under the rule options, conformance, hand-built deals, bad records
(the contract every game keeps: tests/test_conformance.py)."""
import copy
import json

import numpy as np
import pytest

from cardsim.games import get_game
from cardsim.games.base import RecordError
from cardsim.games.g500 import engine as E
from cardsim.games.g500 import replay as slow
from cardsim.games.g500.constants import FULL_DECK

SPEC = get_game("500")


@pytest.fixture(scope="module")
def random_records():
    return SPEC.play.make_records(12, range(150), SPEC.setup("random", rules=["scoring=subtract"]))


# ---------------------------------------------------------------- round trip under the rule options
# The default rules' round trip, chunking and rows vs records: tests/test_conformance.py.
def test_round_trip_subtract_scoring(random_records):
    for r in random_records:
        assert slow.replay(json.loads(json.dumps(r))) == r["result"]


def test_round_trip_mixed_and_before():
    setup = SPEC.setup(["heuristic", "random", "heuristic:margin=-1,jump=0", "random"],
                       rules={"scoring": "subtract", "target": "500"})
    recs = SPEC.play.make_records(5, range(100), setup, scores=[300, 450])
    assert any(r["result"]["game_over"] for r in recs)
    for r in recs:
        assert r["before"] == {"scores": [300, 450]}
        assert SPEC.play.replay(json.loads(json.dumps(r))) == r["result"]


def test_both_scorings_in_rows():
    rows = SPEC.play.simulate_chunk(3, 0, 400, SPEC.setup(rules=["scoring=subtract"]))
    assert (rows["delta_0"] == rows["subtract_0"]).all() and (rows["delta_1"] == rows["subtract_1"]).all()
    played = rows["contract"] >= 0
    q = rows["quebec_0"] + rows["quebec_1"]
    assert (q[played] == rows["value"][played]).all()
    assert (q[~played] == 0).all()


# ---------------------------------------------------------------- conformance
@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_conformance(spec):
    setup = SPEC.setup(spec)
    res = np.zeros((2000, E.R_LEN), dtype=np.int64)
    E.simulate_kernel(np.uint64(4), 0, 2000, setup.strategy_ids, setup.params, 0, 1000, res)
    # the kernel raises if a strategy makes an illegal move: reaching here means none did
    hands = res[:, E.R_HAND0:E.R_HAND0 + 4].view(np.uint64)
    kitty = res[:, E.R_KITTY].view(np.uint64)
    for i in range(2000):
        union = 0
        for p in range(4):
            assert bin(int(hands[i, p])).count("1") == 10
            assert union & int(hands[i, p]) == 0
            union |= int(hands[i, p])
        assert bin(int(kitty[i])).count("1") == 6 and union & int(kitty[i]) == 0
        assert union | int(kitty[i]) == int(FULL_DECK), "cards conserved"
        if res[i, E.R_BID] >= 0:
            assert res[i, E.R_TRICKS0] + res[i, E.R_TRICKS1] == 10
            assert bin(int(res[i, E.R_DISCARD])).count("1") == 6
        else:
            assert res[i, E.R_TRICKS0] + res[i, E.R_TRICKS1] == 0
    rows = SPEC.play.simulate_chunk(4, 0, 2000, setup)
    played = rows["contract"] >= 0
    assert (rows["decl_tricks"][played] >= 0).all()
    assert ((rows["decl_tricks"] >= rows["level"]) == rows["made"])[played].all()
    assert (rows["jokers_0"] + rows["jokers_1"] + rows["jokers_2"] + rows["jokers_3"] + rows["kitty_jokers"] == 2).all()
    for x in "SCDH":
        tot = sum(rows[f"len_{p}_{x}"].astype(int) for p in range(4)) + rows[f"kitty_len_{x}"]
        assert (tot == 11).all()


def test_records_conserve_cards(random_records):
    for r in random_records:
        all_cards = [c for h in r["hands"] for c in h] + r["talon"]
        assert len(set(all_cards)) == 46
        if r["result"]["contract"]:
            played = [c.split("=")[0] for c in r["play"]]
            assert len(played) == 40 and not set(played) & set(r["discard"])
            assert set(played) | set(r["discard"]) == set(all_cards)


# ---------------------------------------------------------------- matches
def test_matches():
    setup = SPEC.setup(rules=["target=500"])
    m, d = SPEC.matches.play(8, 0, 30, setup)
    assert m.dtype == SPEC.matches.dtype and len(m) == 30
    assert set(m["winner"]) <= {0, 1}
    assert d.shape[0] == m["deals"].sum()
    for row in m:
        deals = d[d["match"] == row["match"]]  # numbered in the match, the deal passing left: test_conformance
        assert deals["dealer"][0] == row["first_dealer"]
        s = np.array([deals["delta_0"].sum(), deals["delta_1"].sum()])
        assert (s == [row["score_0"], row["score_1"]]).all()
        assert max(row["score_0"], row["score_1"]) >= 500
        assert (deals["winner"][:-1] == -1).all() and deals["winner"][-1] == row["winner"]
        assert (deals["before_0"][1:] == np.cumsum(deals["delta_0"])[:-1]).all()


def test_matches_random_throw_ins_rotate_dealer():
    m, d = SPEC.matches.play(2, 0, 5, SPEC.setup("random"))
    assert len(m) == 5 and (m["thrown_in"] > 0).any()
    for row in m:
        deals = d[d["match"] == row["match"]]
        assert ((np.diff(deals["dealer"].astype(int)) % 4) == 1).all()
        assert (deals["declarer"] == -1).sum() == row["thrown_in"]


# ---------------------------------------------------------------- hand-built records
HANDS = [
    ["HJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H"],
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"],
    ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C"],
    ["AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"],
]
KITTY = ["7H", "6H", "5H", "4H", "4S", "4C"]


def base_record(auction, dealer=3, **extra):
    r = {"game": "500", "seats": 4, "dealer": dealer, "hands": copy.deepcopy(HANDS), "talon": list(KITTY),
         "auction": list(auction)}
    r.update(extra)
    return r


def play_out(record, prefix=()):
    """Complete ``record["play"]`` after ``prefix`` with the first legal card (slow twin rules)."""
    auction_rec = dict(record, play=[])
    r = copy.deepcopy(record)
    trump, declarer = None, None
    # find contract by replaying the auction only
    try:
        slow.replay(auction_rec)
    except RecordError as e:
        if "not finished" not in e.message:
            raise
    seat = (r["dealer"] + 1) % 4
    passed, high = set(), None
    for tok in r["auction"]:
        while seat in passed:
            seat = (seat + 1) % 4
        c = slow.read_call(tok, 0)
        if c is None:
            passed.add(seat)
        else:
            high, declarer = c, seat
        seat = (seat + 1) % 4
    trump = high[1]
    held = [[slow.parse_card(t, "h", 0) for t in h] for h in r["hands"]]
    held[declarer] += [slow.parse_card(t, "t", 0) for t in r["talon"]]
    for t in r["discard"]:
        held[declarer].remove(slow.parse_card(t, "d", 0))
    play = list(prefix)
    leader, k = declarer, 0
    for t in range(10):
        trick, led = [], None
        for j in range(4):
            s = (leader + j) % 4
            if k < len(prefix):
                tok = prefix[k]
                card = slow.parse_card(tok.split("=")[0], "p", k)
                named = tok.split("=")[1] if "=" in tok else None
            else:
                if j == 0:
                    card = held[s][0]
                    named = "S" if slow.suit_of(card, trump) is None else None
                else:
                    follow = [c for c in held[s] if slow.suit_of(c, trump) == led]
                    card = (follow or held[s])[0]
                    named = None
                play.append(slow.card_name(card) + (f"={named}" if named else ""))
            if j == 0:
                led = slow.suit_of(card, trump) or named
            held[s].remove(card)
            trick.append((s, card))
            k += 1
        leader = max(trick, key=lambda sc: slow.power(sc[1], trump, led))[0]
    r["play"] = play
    return r


def test_all_pass_thrown_in():
    r = base_record(["P", "P", "P", "P"], before={"scores": [120, 40]})
    res = slow.replay(r)
    assert res == {"game": "500", "declarer": None, "contract": None, "value": 0, "tricks": [0, 0],
                   "made": None, "delta": [0, 0], "game_over": False, "winner": None,
                   "after": {"scores": [120, 40]}}
    assert "thrown in" in SPEC.play.show(r)
    with pytest.raises(RecordError, match="thrown in"):
        slow.replay(dict(r, play=["AS"]))


def test_engine_throw_in_record():
    recs = SPEC.play.make_records(1, range(60), SPEC.setup("random"))
    thrown = [r for r in recs if r["result"]["contract"] is None]
    assert thrown, "random bidding passes out some deals"
    for r in thrown:
        assert r["auction"] == ["P"] * 4 and r["play"] == [] and "discard" not in r


def test_declarer_makes_ten_hearts():
    # dealer 3: seat 0 speaks first and bids 10H; everyone passes
    r = base_record(["10H", "P", "P", "P"], discard=["4S", "4C", "9H", "8H", "7H", "6H"])
    r = play_out(r)
    res = slow.replay(r)
    assert res["declarer"] == 0 and res["contract"] == "10H" and res["value"] == 500
    assert res["tricks"] == [10, 0] and res["made"] is True and res["delta"] == [500, 0]
    assert res["game_over"] is False and res["after"] == {"scores": [500, 0]}
    res = slow.replay(dict(r, rules={"target": 500}))
    assert res["game_over"] is True and res["winner"] == 0
    assert "won by" in SPEC.play.show(r)


def test_left_bower_led_record():
    # hearts trumps; seat 0 leads the left bower J♦; seat 3 holds diamonds but no trumps
    r = base_record(["6H", "P", "P", "P"], discard=["4S", "4C", "9H", "8H", "7H", "6H"])
    prefix = ["JD", "AS", "AC", "AD"]  # nobody holds a trump: anything goes, J♦ wins
    r = play_out(r, prefix)
    res = slow.replay(r)
    assert res["tricks"][0] >= 1
    # seat 1 given a trump must follow the left bower
    bad = copy.deepcopy(r)
    bad["hands"][1][9] = "5H"
    bad["talon"][2] = "5S"
    bad["discard"] = ["4S", "4C", "9H", "8H", "7H", "6H"]
    bad["play"] = ["JD", "AS"] + bad["play"][2:]
    with pytest.raises(RecordError, match="revoke") as exc:
        slow.replay(bad)
    assert exc.value.field == "play" and exc.value.index == 1 and exc.value.rule == "docs/RULES.md §3.5"


def test_no_trump_jokers_record():
    # seat 0 in 6NT leads HJ naming spades: seat 1 must follow spades
    r = base_record(["6NT", "P", "P", "P"], discard=["4S", "4C", "9H", "8H", "7H", "6H"])
    r = play_out(r, ["HJ=S", "AS", "5C", "4D"])
    assert slow.replay(r)["contract"] == "6NT"
    bad = copy.deepcopy(r)
    bad["hands"][1][9] = "4C"  # seat 1 swaps 5S for the kitty's 4C
    bad["talon"][5] = "5S"
    bad["discard"] = ["4S", "5S", "9H", "8H", "7H", "6H"]
    bad["play"] = ["HJ=S", "4C"] + r["play"][2:]
    with pytest.raises(RecordError, match="must follow S") as exc:
        slow.replay(bad)
    assert exc.value.index == 1
    # a joker led in no-trump must name a suit; only then
    with pytest.raises(RecordError, match="name a suit"):
        slow.replay(dict(r, play=["HJ"] + r["play"][1:]))
    with pytest.raises(RecordError, match="names a suit"):
        slow.replay(dict(r, play=["HJ=S", "AS=S"] + r["play"][2:]))
    # engine records use the token too
    recs = SPEC.play.make_records(21, range(300), SPEC.setup("random"))
    led = [p for rec in recs for p in rec["play"] if "=" in p]
    assert len(led) >= 10 and {p[:2] for p in led} == {"HJ", "LJ"}
    assert set(led) <= {f"{j}={s}" for j in ("HJ", "LJ") for s in "SCDH"}


def test_no_trump_joker_cannot_be_played_holding_led_suit_record():
    hands = copy.deepcopy(HANDS)
    # seat 1 gets the low joker instead of 5S
    hands[1][9] = "LJ"
    hands[0][1] = "5S"
    r = base_record(["6NT", "P", "P", "P"], discard=["4S", "4C", "9H", "8H", "7H", "6H"])
    r["hands"] = hands
    with pytest.raises(RecordError, match="revoke"):
        slow.replay(play_out(r, ["5S", "LJ"]))


def test_subtract_both_cross():
    r = base_record(["10H", "P", "P", "P"], discard=["4S", "4C", "9H", "8H", "7H", "6H"],
                    rules={"scoring": "subtract", "target": 1000}, before={"scores": [600, 990]})
    r = play_out(r)
    res = slow.replay(r)
    assert res["delta"] == [500, 0] and res["winner"] == 0


# ---------------------------------------------------------------- bad records
def good():
    return play_out(base_record(["6H", "7H", "P", "8NT", "P", "P"],
                                discard=["4S", "4C", "7H", "6H", "5H", "4H"]))


@pytest.mark.parametrize("mutate, field, index", [
    (lambda r: r.update(game="vint"), "game", None),
    (lambda r: r.update(seats=3), "seats", None),
    (lambda r: r.update(dealer=4), "dealer", None),
    (lambda r: r.update(dealer="0"), "dealer", None),
    (lambda r: r.update(rules={"scoring": "bridge"}), "rules", None),
    (lambda r: r.update(rules={"targett": 10}), "rules", None),
    (lambda r: r.update(rules={"target": True}), "rules", None),
    (lambda r: r.update(before={"scores": [0]}), "before", None),
    (lambda r: r.update(before={"scores": [1000, 0]}), "before", None),
    (lambda r: r["hands"][0].append("4D"), "hands", 0),
    (lambda r: r["hands"][0].__setitem__(0, "2S"), "hands", 0),
    (lambda r: r["hands"][0].__setitem__(0, "AS"), "hands", None),
    (lambda r: r.update(hands=r["hands"][:3]), "hands", None),
    (lambda r: r.update(talon=r["talon"][:5]), "talon", None),
    (lambda r: r["auction"].__setitem__(1, "6S"), "auction", 1),
    (lambda r: r["auction"].append("P"), "auction", 6),
    (lambda r: r["auction"].pop(), "auction", 5),
    (lambda r: r["auction"].__setitem__(0, "6X"), "auction", 0),
    (lambda r: r.update(discard=r["discard"][:5]), "discard", None),
    (lambda r: r["discard"].__setitem__(0, "AS"), "discard", 0),
    (lambda r: r["play"].pop(), "play", 39),
    (lambda r: r["play"].append("AS"), "play", 40),
    (lambda r: r["play"].__setitem__(0, "AS"), "play", 0),
    (lambda r: r["play"].__setitem__(3, r["play"][2]), "play", 3),
    (lambda r: r.update(play="AS"), "play", None),
    # docs/RECORDS.md Strictness: 501's contract is no Five Hundred field, even one that agrees
    (lambda r: r.update(contract={"trump": "NT", "target": 8, "give": {}}), "contract", None),
    (lambda r: r.update(contract=None), "contract", None),
])
def test_bad_records_rejected(mutate, field, index):
    r = good()
    assert slow.replay(r)["contract"] == "8NT"
    mutate(r)
    with pytest.raises(RecordError) as exc:
        slow.replay(r)
    assert (exc.value.field, exc.value.index) == (field, index)
    assert str(exc.value).startswith(field if index is None else f"{field}[{index}]: ")


def test_bad_bid_not_higher_message():
    r = good()
    r["auction"][3] = "7H"
    with pytest.raises(RecordError) as exc:
        slow.replay(r)
    assert exc.value.index == 3 and exc.value.rule == "docs/RULES.md §3.3" and "not worth more" in exc.value.message



def test_a_discard_listing_a_card_twice_says_so():
    r = good()
    r["discard"][1] = r["discard"][0]
    with pytest.raises(RecordError) as exc:
        slow.replay(r)
    assert (exc.value.field, exc.value.index, exc.value.rule) == ("discard", 1, "docs/RULES.md §3.4")
    assert exc.value.message == f"discard {r['discard'][0]} is listed twice"

@pytest.mark.parametrize("value", ["1.5", "abc", "0", "30001"])
def test_target_rule_rejects_non_whole_or_out_of_range_values_in_one_message(value):
    from cardsim.games.base import OptionError

    with pytest.raises(OptionError, match=rf"^rule option target='{value}': target must be a whole number from 1 to 30000$"):
        get_game("500").parse_rules([f"target={value}"])
    assert get_game("500").parse_rules(["target=500"])["target"] == 500


def test_unknown_keys_rejected_and_null_means_absent():
    """docs/RECORDS.md Strictness: an unknown key is an error (annotations go in source); rules,
    before and source given as null mean absent; a thrown-in deal has no discard, not even []."""
    r = good()
    want = slow.replay(r)
    with pytest.raises(RecordError, match=r"^unknown field 'note': annotations from other programs belong in "
                                          r"source \(docs/RECORDS.md Strictness\)$"):
        slow.replay(dict(r, note="x"))
    assert slow.replay(dict(r, rules=None, before=None, source=None)) == want
    thrown = base_record(["P", "P", "P", "P"])
    assert slow.replay(thrown)["contract"] is None
    for discard in ([], None):
        with pytest.raises(RecordError, match="thrown in") as exc:
            slow.replay(dict(thrown, discard=discard))
        assert exc.value.field == "discard"
