"""Replay fuzzers that start from VALID records and change one thing at a time.

Whatever one change is made (a card replaced or swapped between hands, a token altered, a bid
changed, a 501 target/trump/give changed, an action dropped, duplicated or swapped with the
next one, a field removed or given the wrong type), ``replay`` either returns a result or
raises RecordError naming a field of the record (and, for the action lists, the index of the
action in it); never any other exception.  ``test_mutations_reach_the_deep_checks`` counts
where the mutated records are rejected, so that the fuzzers are known to get past the first
checks into the auction and the play.
"""
import copy
import functools
import json
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cardsim
from cardsim.games import get_game
from cardsim.games.base import RecordError
from cardsim.games.vint.records import trace_record
from cardsim.rng import deal_key

GAMES = ("vint", "501", "500")
FIELDS = {
    "vint": {"game", "seats", "dealer", "rules", "before", "hands", "talon", "auction", "play", "source"},
    "501": {"game", "seats", "dealer", "rules", "before", "hands", "talon", "auction", "contract", "play", "source"},
    "500": {"game", "seats", "dealer", "rules", "before", "hands", "talon", "auction", "discard", "play", "source"},
}
RANKS = {"vint": "23456789TJQKA", "501": "9JQKTA", "500": "456789TJQKA"}
DECK = {g: [r + s for r in RANKS[g] for s in "SHDC"] + (["HJ", "LJ"] if g == "500" else []) for g in GAMES}
DENOMINATIONS = ("S", "C", "D", "H", "NT")
CALLS = {
    "vint": ["P"] + [f"{level}{d}" for level in range(1, 8) for d in DENOMINATIONS],
    "501": ["P"] + [f"{b}{n}" for n in range(60, 230, 3) for b in ("", "B")],
    "500": ["P"] + [f"{n}{d}" for n in range(6, 11) for d in DENOMINATIONS],
}
WRONG = [None, 0, 3, -1, 2.5, True, "", "x", "AS", [], [None], ["AS"], {}, {"a": 1}]
EDIT_CHARS = " 0+=B1SHNT\u017f\uff17"


# ---------------------------------------------------------------- valid records to start from
@functools.cache
def pool(game):
    """Valid records (as read back from JSON) of many kinds: strategies, seats, rules, ``before``."""
    if game == "vint":
        recs = cardsim.records("vint", range(10), seed=41)
        recs += cardsim.records("vint", range(6), seed=42, strategies="random")
        recs += cardsim.records("vint", range(4), seed=43, strategies="greedy")
        setup = get_game("vint").setup(["heuristic", "random", "greedy", "random"])
        # deal_key takes the seed as uint64, as make_records passes it: a Python int would make
        # numba compile an int64 version that later uint64 keys above 2**63 overflow
        recs += [trace_record(deal_key(np.uint64(44), i), setup, below=(420, 380), games=(1, 0)) for i in range(6)]
    elif game == "501":
        spec = get_game("501")
        recs = []
        for seats in (3, 4):
            for strategy in ("heuristic", "random"):
                recs += spec.play.make_records(51 + seats, range(8), spec.setup(strategy, seats=seats))
        recs += spec.play.make_records(55, range(6), spec.setup(seats=3), scores=[120, 30, 410])
        recs += spec.play.make_records(56, range(6), spec.setup("random", seats=4), scores=[300, 20, 501, 77])
    else:
        spec = get_game("500")
        recs = spec.play.make_records(61, range(10), spec.setup())
        recs += spec.play.make_records(62, range(10), spec.setup("random", rules=["scoring=subtract"]))
        many = spec.play.make_records(63, range(300), spec.setup("random"))
        recs += [r for r in many if any("=" in t for t in r["play"])][:10]  # no-trump deals with joker leads
        recs += spec.play.make_records(64, range(8), spec.setup(rules=["scoring=subtract", "target=500"]),
                                  scores=[-120, 430])
    recs = [json.loads(json.dumps(r)) for r in recs]
    assert all(cardsim.replay(r) == r["result"] for r in recs)
    return recs


# ---------------------------------------------------------------- one change at a time
def token_paths(rec, cards_only=False):
    """Where the tokens of a record are: ``(field, index)`` or ``("hands", seat, j)`` paths."""
    paths = [("hands", s, j) for s, hand in enumerate(rec["hands"]) for j in range(len(hand))]
    for field in ("talon", "discard", "play") + (() if cards_only else ("auction",)):
        paths += [(field, i) for i in range(len(rec.get(field, [])))]
    give = rec.get("contract", {}).get("give", {})
    paths += [("contract", "give", seat) for seat in give]
    if not cards_only and "trump" in rec.get("contract", {}):
        paths.append(("contract", "trump"))
    return paths


def list_paths(rec):
    """The record's lists of actions or cards."""
    paths = [(f,) for f in ("auction", "play", "talon", "discard") if rec.get(f)]
    return paths + [("hands", s) for s, hand in enumerate(rec["hands"]) if hand]


def get(rec, path):
    for key in path:
        rec = rec[key]
    return rec


def put(rec, path, value):
    get(rec, path[:-1])[path[-1]] = value


def replace_card(rec, rnd, game):
    path = rnd.choice(token_paths(rec, cards_only=True))
    old = get(rec, path)
    card = rnd.choice(DECK[game])
    suffix = old[2:] if path[0] == "play" and rnd.random() < 0.5 else ""  # keep a '+' or '=S'
    put(rec, path, card + suffix)


def swap_cards(rec, rnd, game):
    """Two cards of different hands (or of a hand and the talon) change places."""
    paths = [p for p in token_paths(rec, cards_only=True) if p[0] in ("hands", "talon")]
    a = rnd.choice(paths)
    b = rnd.choice([p for p in paths if p[:2] != a[:2]])
    x, y = get(rec, a), get(rec, b)
    put(rec, a, y)
    put(rec, b, x)


def alter_token(rec, rnd, game):
    path = rnd.choice(token_paths(rec))
    token = get(rec, path)
    i = rnd.randrange(len(token) + 1)
    how = rnd.randrange(5)
    if how == 0:
        token = token[:i] + rnd.choice(EDIT_CHARS) + token[i:]
    elif how == 1:
        token = token[:i] + token[i + 1:]
    elif how == 2:
        token = token.lower()
    elif how == 3:
        token = token + rnd.choice(["=S", "=", "+", "=SH"])
    else:
        token = rnd.choice(WRONG)
    put(rec, path, token)


def change_bid(rec, rnd, game):
    put(rec, ("auction", rnd.randrange(len(rec["auction"]))), rnd.choice(CALLS[game]))


def change_game_field(rec, rnd, game):
    """501: the contract's target, trump or a give; 500: a discarded card or the rules; Vint: ``before``."""
    if game == "501" and "give" in rec.get("contract", {}):
        c = rec["contract"]
        what = rnd.randrange(4)
        if what == 0:
            c["target"] = rnd.choice([c["target"] - 1, c["target"] + 5, 220, 221, rnd.randrange(300)])
        elif what == 1:
            c["trump"] = rnd.choice(["S", "H", "D", "C", "NT"])
        elif what == 2:
            seat = rnd.choice(list(c["give"]))
            c["give"][seat] = rnd.choice(DECK[game])
        else:
            seat = rnd.choice(list(c["give"]))
            c["give"][str(rnd.randrange(4))] = c["give"].pop(seat)
    elif game == "500" and rnd.random() < 0.5:
        rec["rules"] = {"scoring": rnd.choice(["quebec", "subtract", "Quebec"]),
                        "target": rnd.choice([500, 1000, 100, 0, -5, "1000"])}
    elif game == "500":
        rec["before"] = {"scores": [rnd.randrange(-600, 1100), rnd.randrange(-600, 1100)]}
    else:
        key = rnd.choice(["below", "games"]) if game == "vint" else "scores"
        n = 2 if game == "vint" else rec["seats"]
        rec["before"] = {key: [rnd.randrange(-5, 600) for _ in range(n)]}


def drop_action(rec, rnd, game):
    path = rnd.choice(list_paths(rec))
    get(rec, path).pop(rnd.randrange(len(get(rec, path))))


def duplicate_action(rec, rnd, game):
    path = rnd.choice(list_paths(rec))
    lst = get(rec, path)
    i = rnd.randrange(len(lst))
    lst.insert(i, lst[i])


def swap_adjacent(rec, rnd, game):
    paths = [p for p in list_paths(rec) if len(get(rec, p)) > 1 and p[0] in ("auction", "play", "discard")]
    lst = get(rec, rnd.choice(paths))
    i = rnd.randrange(len(lst) - 1)
    lst[i], lst[i + 1] = lst[i + 1], lst[i]


def remove_field(rec, rnd, game):
    keys = [k for k in rec if k != "result"]
    keys += ["contract." + k for k in rec.get("contract", {})]
    key = rnd.choice(keys)
    if key.startswith("contract."):
        del rec["contract"][key.split(".")[1]]
    else:
        del rec[key]


def wrong_type(rec, rnd, game):
    where = rnd.randrange(4)
    value = rnd.choice(WRONG)
    if where == 0 or (where == 3 and "contract" not in rec):
        rec[rnd.choice([k for k in rec if k != "result"] + ["before", "rules", "source"])] = value
    elif where == 1:
        rec["hands"][rnd.randrange(len(rec["hands"]))] = value
    elif where == 2:
        rec[rnd.choice(["before", "rules"])] = {rnd.choice(["scores", "below", "games", "scoring", "target"]): value}
    else:
        rec["contract"][rnd.choice(["trump", "target", "give", "abandon"])] = value


def change_dealer(rec, rnd, game):
    if rnd.random() < 0.8:
        rec["dealer"] = rnd.randrange(-1, 6)
    else:
        rec["seats"] = rnd.choice([2, 3, 4, 5])


MUTATIONS = [replace_card, swap_cards, alter_token, change_bid, change_game_field, drop_action,
             duplicate_action, swap_adjacent, remove_field, wrong_type, change_dealer]
PLAYED_ONLY = {swap_adjacent}


def mutated(game, pick, mutation, rnd):
    """A deep copy of a pool record with one mutation applied."""
    recs = pool(game)
    if mutation in PLAYED_ONLY:
        recs = [r for r in recs if r["play"]]
    rec = copy.deepcopy(recs[pick % len(recs)])
    mutation(rec, rnd, game)
    return rec


def outcome(game, rec):
    """None when ``rec`` replays to a result, else the field its RecordError names (checked)."""
    try:
        result = cardsim.replay(rec)
    except RecordError as exc:
        assert exc.field in FIELDS[game], str(exc)
        value = rec.get(exc.field)
        if exc.field in ("auction", "play") and isinstance(value, list):
            assert isinstance(exc.index, int) and 0 <= exc.index <= len(value), str(exc)
        elif exc.field in ("talon", "discard") and exc.index is not None:
            assert 0 <= exc.index < len(value), str(exc)
        elif exc.field == "hands" and exc.index is not None:
            assert 0 <= exc.index < len(value), str(exc)
        return exc.field
    assert isinstance(result, dict) and result["game"] == game
    return None


# ---------------------------------------------------------------- the fuzzers
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(0, 10**6), mutation=st.sampled_from(MUTATIONS), rnd=st.randoms(use_true_random=False))
def test_one_change_gives_a_result_or_a_record_error(game, pick, mutation, rnd):
    outcome(game, mutated(game, pick, mutation, rnd))


@pytest.mark.parametrize("game", GAMES)
def test_mutations_reach_the_deep_checks(game):
    """Of 600 mutated records, a good share must be rejected in the auction and in the play
    (past the record's header, hands and talon), and some still be accepted."""
    rnd = random.Random(7)
    fields = Counter()
    for k in range(600):
        fields[outcome(game, mutated(game, k, MUTATIONS[k % len(MUTATIONS)], rnd))] += 1
    assert fields["play"] >= 90, fields
    assert fields["auction"] >= 40, fields
    assert fields[None] >= 20, fields
    if game == "501":
        assert fields["contract"] >= 20, fields
    if game == "500":
        assert fields["discard"] >= 5, fields
