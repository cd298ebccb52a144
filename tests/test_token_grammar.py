"""The token grammar of docs/RECORDS.md, exactly: cards, calls, bids, 501's marriage ``+`` and
contract fields, 500's discard and ``HJ=X``.

For every game and token kind: the valid tokens (either case, ``10`` for ``T``) replay to the
same result, and generated near misses (empty, a character added or removed, two suits,
blanks, look-alike Unicode characters such as '７' or 'ſ', signs and leading zeros, values that
are not strings) are rejected with a RecordError whose ``field`` and ``index`` point at the
token.  What is valid is decided by the regular expressions below, written from docs/RECORDS.md and
independent of the replay code.
"""
import copy
import functools
import re

import pytest

import cardsim
from cardsim.games.base import RecordError
from cardsim.games.g500 import replay as slow500
from cardsim.games.vint.replay import run_auction as vint_auction

SUIT = "[SHDCshdc]"
DENOM = "(?:[SHDCshdc]|[Nn][Tt])"
CARD = {
    "vint": f"(?:[2-9TJQKAtjqka]|10){SUIT}",
    "501": f"(?:[9TJQKAtjqka]|10){SUIT}",
    "500": f"(?:[4-9TJQKAtjqka]|10){SUIT}|[HLhl][Jj]",
}
GRAMMAR = {
    ("vint", "card"): CARD["vint"],
    ("vint", "call"): f"[Pp]|[1-7]{DENOM}",
    ("501", "card"): CARD["501"],
    ("501", "play"): f"(?:{CARD['501']})\\+?",
    ("501", "call"): "[Pp]|[Bb]?[1-9][0-9]*",
    ("501", "trump"): DENOM,
    ("501", "seat"): "[0-3]",
    ("500", "card"): CARD["500"],
    ("500", "play"): f"{CARD['500']}|[HLhl][Jj]={SUIT}",
    ("500", "call"): f"[Pp]|(?:[6-9]|10){DENOM}",
}
NOT_STRINGS = [None, 7, 7.5, True, ["AS"], {"AS": 1}]
INSERTED = " \t\n0+-_.=BSHNTJ"
# Characters some str methods treat like ASCII ones: full-width and Arabic-Indic digits count as
# digits, 'ſ'.upper() == 'S', 'ı'.upper() == 'I'.
LOOK_ALIKE = {**{c: chr(ord(c) + 0xFEE0) for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
              **{str(d): chr(0x660 + d) for d in range(10)}, "S": "\u017f", "s": "\u017f", "T": "\u0422"}


def valid(game, kind, token):
    return isinstance(token, str) and re.fullmatch(GRAMMAR[game, kind], token) is not None


def case_variants(token):
    """Spellings of ``token`` with the same meaning: either case, ``10`` for the rank ``T``."""
    out = {token, token.lower(), token.upper(), token.swapcase()}
    if token[:1] in "Tt":
        out |= {"10" + token[1:], "10" + token[1:].lower()}
    return sorted(out)


def near_misses(game, kind, token, extra=()):
    """Strings one edit away from ``token`` (and ``extra``) that the grammar does not accept."""
    out = {"", " ", token + token, *extra}
    for i in range(len(token) + 1):
        out |= {token[:i] + c + token[i:] for c in INSERTED}
    for i, c in enumerate(token):
        out.add(token[:i] + token[i + 1:])
        if c in LOOK_ALIKE:
            out.add(token[:i] + LOOK_ALIKE[c] + token[i + 1:])
    return sorted(s for s in out if not valid(game, kind, s))


# ---------------------------------------------------------------- the records the tokens sit in
@functools.cache
def base(name):
    """A valid record (with the situation ``name`` describes), found in simulated deals."""
    if name == "vint":
        recs = cardsim.records("vint", range(20), seed=3)
        return next(r for r in recs if r["play"] and any(t[0] == "T" for t in r["play"]))
    if name in ("501", "501 4 seats"):
        seats = 4 if name == "501 4 seats" else 3
        recs = cardsim.records("501", range(200), seed=5, seats=seats)
        return next(r for r in recs if "give" in r.get("contract", {}) and any("+" in t for t in r["play"]))
    recs = cardsim.records("500", range(400), seed=21, strategies="random")
    if name == "500 no-trump joker led":
        return next(r for r in recs if any("=" in t for t in r["play"]))
    if name == "500 trump joker led":
        return next(r for r in recs if r["play"] and not r["result"]["contract"].endswith("NT")
                    and any(r["play"][k] in ("HJ", "LJ") for k in range(0, 40, 4)))
    if name == "500 joker follows":
        return next(r for r in recs if r["play"] and any(r["play"][k] in ("HJ", "LJ") for k in range(40) if k % 4))
    raise KeyError(name)


def put(record, path, value):
    """A deep copy of ``record`` with ``value`` at ``path`` (a tuple of keys and list indices)."""
    rec = copy.deepcopy(record)
    node = rec
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return rec


def get(record, path):
    node = record
    for key in path:
        node = node[key]
    return node


def where(path):
    """(field, index) a RecordError must name for a bad token at ``path``."""
    if path[0] == "hands":
        return "hands", path[1]  # a hand's cards are reported by seat
    if path[0] == "contract":
        return "contract", None
    return path[0], path[1]


def check_token(name, game, kind, path, extra=()):
    """Valid spellings of the token at ``path`` replay to the same result; near misses are
    rejected at the token.  Returns the number of near misses tried."""
    record = base(name)
    token = get(record, path)
    want = cardsim.replay(record)
    for v in case_variants(token):
        assert valid(game, kind, v), v
        assert cardsim.replay(put(record, path, v)) == want, (path, v)
    bad = near_misses(game, kind, token, extra) + NOT_STRINGS
    for v in bad:
        with pytest.raises(RecordError) as exc:
            cardsim.replay(put(record, path, v))
        assert (exc.value.field, exc.value.index) == where(path), (path, v, str(exc.value))
    return len(bad)


# ---------------------------------------------------------------- cards, in every list that holds them
def card_paths(name, fields):
    rec = base(name)
    paths = []
    for field in fields:
        if field == "hands":
            paths += [("hands", s, j) for s, hand in enumerate(rec["hands"]) for j in (0, len(hand) - 1) if hand]
        else:
            paths += [(field, i) for i in (0, 1, len(rec[field]) - 1)]
    return paths


@pytest.mark.parametrize("name,game,fields", [
    ("vint", "vint", ("hands", "play")),
    ("501", "501", ("hands", "talon")),
    ("501 4 seats", "501", ("hands", "talon")),
    ("500 no-trump joker led", "500", ("hands", "talon", "discard")),
])
def test_card_tokens(name, game, fields):
    tried = sum(check_token(name, game, "card", path, extra=("ASD", "A S", "1OS", "010S", "T0S"))
                for path in card_paths(name, fields))
    assert tried > 100 * len(fields)


@pytest.mark.parametrize("game,name", [("vint", "vint"), ("501", "501"), ("500", "500 no-trump joker led")])
def test_every_card_of_the_deck_in_every_spelling(game, name):
    """All the deck's cards sit in the hands (and 501's talon, 500's kitty): each spelling of each
    card replays to the same result."""
    record = base(name)
    want = cardsim.replay(record)
    paths = [("hands", s, j) for s, hand in enumerate(record["hands"]) for j in range(len(hand))]
    paths += [("talon", i) for i in range(len(record.get("talon", [])))]
    assert len(paths) == {"vint": 52, "501": 24, "500": 46}[game]
    for path in paths:
        for v in case_variants(get(record, path)):
            assert cardsim.replay(put(record, path, v)) == want, (path, v)


def test_played_cards_and_marriages_501():
    rec = base("501")
    plus = next(k for k, t in enumerate(rec["play"]) if t.endswith("+"))
    plain = next(k for k, t in enumerate(rec["play"]) if not t.endswith("+"))
    check_token("501", "501", "play", ("play", plus), extra=("KH++", "KH +", "+KH", "K+H", "KH+ "))
    check_token("501", "501", "play", ("play", plain))
    check_token("501", "501", "play", ("play", 23))


def test_played_cards_500():
    rec = base("500 no-trump joker led")
    plain = [k for k, t in enumerate(rec["play"]) if "=" not in t][:3]
    for k in plain:
        check_token("500 no-trump joker led", "500", "play", ("play", k))


# ---------------------------------------------------------------- 500: HJ=X
def test_led_joker_in_no_trump_names_exactly_one_suit():
    rec = base("500 no-trump joker led")
    k = next(k for k, t in enumerate(rec["play"]) if "=" in t)
    token = rec["play"][k]
    joker = token[:2]
    tried = check_token("500 no-trump joker led", "500", "play", ("play", k),
                        extra=(joker + "=", joker + "=CD", joker + "=SH", joker + "==S", joker + "=NT",
                               joker + "= S", joker + " =S", joker + "=S=", joker + "=\u017f"))
    assert tried > 50
    # the joker named nothing at all
    with pytest.raises(RecordError, match="must name a suit") as exc:
        cardsim.replay(put(rec, ("play", k), joker))
    assert (exc.value.field, exc.value.index) == ("play", k)


def test_equals_sign_only_on_a_joker_led_in_no_trump():
    nt = base("500 no-trump joker led")
    lead = next(k for k in range(0, 40, 4) if "=" not in nt["play"][k])
    cases = [(nt, lead, nt["play"][lead] + "=S")]                            # on another card
    follows = base("500 joker follows")
    k = next(k for k in range(40) if k % 4 and follows["play"][k] in ("HJ", "LJ"))
    cases.append((follows, k, follows["play"][k] + "=H"))                    # on a joker not led
    trump = base("500 trump joker led")
    k = next(k for k in range(0, 40, 4) if trump["play"][k] in ("HJ", "LJ"))
    cases.append((trump, k, trump["play"][k] + "=H"))                        # in a trump contract
    for rec, k, token in cases:
        with pytest.raises(RecordError, match="only a joker led in no-trump names a suit") as exc:
            cardsim.replay(put(rec, ("play", k), token))
        assert (exc.value.field, exc.value.index) == ("play", k), token


# ---------------------------------------------------------------- calls
def test_vint_calls_in_records():
    rec = base("vint")
    for i in sorted({0, len(rec["auction"]) - 1} | {i for i, t in enumerate(rec["auction"]) if t != "P"}):
        check_token("vint", "vint", "call", ("auction", i), extra=("PASS", "pass", "0S", "8S", "1N", "1NTT", "S1"))


def test_501_calls_in_records():
    rec = base("501")
    for i in range(len(rec["auction"])):
        check_token("501", "501", "call", ("auction", i),
                    extra=("070", "+70", " 70", "7_0", "B", "BB70", "B070", "B+70", "70.0", "7e1", "\uff17\uff10"))


def test_500_calls_in_records():
    rec = base("500 no-trump joker led")
    for i in range(len(rec["auction"])):
        check_token("500 no-trump joker led", "500", "call", ("auction", i),
                    extra=("5S", "11H", "6X", "NT", "06S", "PP", "6 NT", "610NT"))


@pytest.mark.parametrize("level", range(1, 8))
def test_every_vint_bid_is_read(level):
    for den, name in enumerate(["S", "C", "D", "H", "NT"]):
        for token in case_variants(f"{level}{name}"):
            assert vint_auction([token] + ["P"] * 12, 2) == (2, (level, den))
    assert vint_auction(["p"] * 8, 0) == (None, None)


def test_every_500_bid_is_read():
    for tricks in range(6, 11):
        for name in ["S", "C", "D", "H", "NT"]:
            for token in case_variants(f"{tricks}{name}"):
                assert slow500.run_auction([token, "p", "P", "p"], 3) == (0, (tricks, name))


def test_every_501_bid_is_read():
    rec = base("501")
    for bid in range(66, 221):
        for prefix, blind in (("", False), ("B", True), ("b", True)):
            record = dict(rec, auction=[f"{prefix}{bid}", "P", "p"], contract={"abandon": True}, play=[])
            result = cardsim.replay(record)
            assert (result["contract"], result["blind"], result["abandoned"]) == (bid, blind, True)


def test_501_bids_outside_the_range_are_rejected_at_their_index():
    rec = base("501")
    for token in ["65", "B65", "221", "B221", "1000", "9" * 5000]:
        record = dict(rec, auction=["P", token, "P"], contract={"abandon": True}, play=[])
        with pytest.raises(RecordError, match="out of range") as exc:
            cardsim.replay(record)
        assert (exc.value.field, exc.value.index) == ("auction", 1)


# ---------------------------------------------------------------- 501 contract fields
@pytest.mark.parametrize("name", ["501", "501 4 seats"])
def test_501_contract_trump_and_give_cards(name):
    check_token(name, "501", "trump", ("contract", "trump"), extra=("SS", "SH", "N", "T", "NTT", "N T"))
    for seat in base(name)["contract"]["give"]:
        check_token(name, "501", "card", ("contract", "give", seat))


def test_501_contract_trump_names_every_denomination():
    recs = [r for r in cardsim.records("501", range(300), seed=8) if "trump" in r.get("contract", {})]
    for trump in ["S", "H", "D", "C", "NT"]:
        rec = next(r for r in recs if r["contract"]["trump"] == trump)
        for v in case_variants(trump):
            assert cardsim.replay(put(rec, ("contract", "trump"), v)) == rec["result"], v


@pytest.mark.parametrize("target", [True, False, "100", 100.0, None, [100], {"target": 100}])
def test_501_target_must_be_an_integer(target):
    with pytest.raises(RecordError, match="target must be a whole number") as exc:
        cardsim.replay(put(base("501"), ("contract", "target"), target))
    assert (exc.value.field, exc.value.index) == ("contract", None)


@pytest.mark.parametrize("name", ["501", "501 4 seats"])
def test_501_give_keys_are_seat_strings(name):
    rec = base(name)
    give = rec["contract"]["give"]
    for key, card in give.items():
        rest = {k: v for k, v in give.items() if k != key}
        for bad_key in near_misses("501", "seat", key) + [int(key), float(key), None, True]:
            with pytest.raises(RecordError, match="give must map each opponent seat") as exc:
                cardsim.replay(put(rec, ("contract", "give"), {**rest, bad_key: card}))
            assert (exc.value.field, exc.value.index) == ("contract", None), bad_key


@pytest.mark.parametrize("contract", [{"abandon": 1}, {"abandon": "true"}, {"abandon": False},
                                      {"abandon": True, "trump": "S"}])
def test_501_abandon_is_written_exactly(contract):
    rec = dict(base("501"), contract=contract, play=[])
    with pytest.raises(RecordError, match="abandon") as exc:
        cardsim.replay(rec)
    assert (exc.value.field, exc.value.index) == ("contract", None)
