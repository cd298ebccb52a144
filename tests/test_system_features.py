"""The hand features bidding systems are written in (docs/conditions.md, "Features of bidding
systems"): balanced, semi_balanced, stoppers, controls, quick tricks, losers, shape; their
clause syntax, the dealer, and the 0/1 program that refuses impossible classes."""
from __future__ import annotations

import itertools
import shutil
import subprocess
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cardsim.conditions import ConditionError, Conditions, HandClass, compile, features_of, parse_class
from cardsim.deal import deal_chunk, meets

VINT = features_of("vint")
G500 = features_of("500")


def bits(game, hand: str) -> int:
    from cardsim.conditions import parse_hand
    return sum(1 << c for c in parse_hand(game, hand))


def values(fs, hand: str, names) -> dict:
    return {n: fs.value(n, bits(fs.game, hand)) for n in names}


NAMES = ("hcp", "controls", "stopper_S", "stopper_H", "stopper_D", "stopper_C", "stoppers", "quick_tricks",
         "losers", "balanced", "semi_balanced", "longest", "shortest", "shape")

# Values counted by hand (quick tricks in halves, as stored; shape longest first).
HANDS = {
    # AKQx: A stops, AK = 2 QT, 0 losers; Kxx: stops, Kx = ½, losers A Q; Qxx: stops, 0 QT, losers A K;
    # Jxx: a J needs three others to stop, 3 losers.  4-3-3-3 is balanced.
    "S:AKQ2 H:K32 D:Q32 C:J32": dict(hcp=15, controls=4, stopper_S=1, stopper_H=1, stopper_D=1, stopper_C=0,
                                     stoppers=3, quick_tricks=5, losers=7, balanced=1, semi_balanced=1,
                                     longest=4, shortest=3, shape=4333),
    # AK: 2 QT, 0 losers; KQ doubleton: stops (Kx), 1 QT, loses the A place only; Qxx: 2 losers;
    # AJ9876: 1 QT, losers K and Q.  6-3-2-2 is semi-balanced, not balanced.
    "S:AK H:KQ D:Q32 C:AJ9876": dict(hcp=19, controls=6, stopper_S=1, stopper_H=1, stopper_D=1, stopper_C=1,
                                     stoppers=4, quick_tricks=8, losers=5, balanced=0, semi_balanced=1,
                                     longest=6, shortest=2, shape=6322),
    # bare K: no stopper, no quick trick, 1 loser; Qx: no stopper (a Q needs two others), 2 losers;
    # Jxxx stops, 3 losers; AQxxxx: 1½ QT, loses the K place.  6-4-2-1.
    "S:K H:Q2 D:J432 C:AQ5432": dict(hcp=12, controls=3, stopper_S=0, stopper_H=0, stopper_D=1, stopper_C=1,
                                     stoppers=2, quick_tricks=3, losers=7, balanced=0, semi_balanced=0,
                                     longest=6, shortest=1, shape=6421),
    # thirteen spades: the suit has no loser; voids have none either
    "S:AKQJT98765432": dict(hcp=10, controls=3, stopper_S=1, stopper_H=0, stopper_D=0, stopper_C=0, stoppers=1,
                            quick_tricks=4, losers=0, balanced=0, semi_balanced=0, longest=13, shortest=0,
                            shape=13000),
    # no honour: 3 losers in each suit of three or more cards, the most a hand can have
    "S:5432 H:432 D:432 C:432": dict(hcp=0, controls=0, stopper_S=0, stopper_H=0, stopper_D=0, stopper_C=0,
                                     stoppers=0, quick_tricks=0, losers=12, balanced=1, semi_balanced=1,
                                     longest=4, shortest=3, shape=4333),
    # 5-4-2-2 is semi-balanced only; AQ doubleton: 1½ QT and 1 loser; Kx: ½ and 1 loser; singleton A: 1 QT, 0 losers
    "S:AQ H:K2 D:65432 C:5432": dict(hcp=9, controls=3, stopper_S=1, stopper_H=1, stopper_D=0, stopper_C=0,
                                     stoppers=2, quick_tricks=4, losers=8, balanced=0, semi_balanced=1,
                                     longest=5, shortest=2, shape=5422),
}


@pytest.mark.parametrize("hand", list(HANDS))
def test_vint_features_of_hands_counted_by_hand(hand):
    assert values(VINT, hand, NAMES) == HANDS[hand]


def test_five_hundred_features_read_the_physical_suits():
    # AK5: A stops, 2 QT; KQ: Kx stops, 1 QT; J98: a J needs three others; the jokers count in none
    hand = "HJ S:AK5 H:KQ D:J98 C:4"
    assert values(G500, hand, ("controls", "stopper_S", "stopper_H", "stopper_D", "stopper_C", "stoppers",
                               "quick_tricks")) == dict(controls=4, stopper_S=1, stopper_H=1, stopper_D=0,
                                                        stopper_C=0, stoppers=2, quick_tricks=6)
    # Jxxx stops (the jack is the physical suit's, ranked as in no-trump)
    assert G500.value("stopper_D", bits("500", "D:J987 S:AK5 H:KQ C:4")) == 1


def test_501_has_no_bridge_features():
    # 501 ranks A 10 K Q J 9 and judges hands by card points and marriages (docs/conditions.md)
    for name in ("balanced", "stoppers", "quick_tricks", "losers", "controls", "shape"):
        assert features_of("501").canonical(name) is None
    with pytest.raises(ConditionError, match="unknown 501 feature 'balanced'"):
        parse_class("501", "balanced")


# ------------------------------------------------------------ a plain-Python twin
RANK_ORDER = "23456789TJQKA"


def _holdings(hand_bits: int) -> list[str]:
    """Ranks held per suit S C D H (cardsim.cards order), high to low."""
    return ["".join(RANK_ORDER[r] for r in range(12, -1, -1) if hand_bits >> (16 * s + r) & 1) for s in range(4)]


def twin(hand_bits: int) -> dict:
    """Every system feature by the textbook definitions, written independently of cardsim.holding."""
    suits = _holdings(hand_bits)
    stop = [int("A" in h or ("K" in h and len(h) >= 2) or ("Q" in h and len(h) >= 3) or ("J" in h and len(h) >= 4))
            for h in suits]
    qt = 0
    for h in suits:
        qt += {"AK": 4, "AQ": 3, "A": 2, "KQ": 2}.get(next((t for t in ("AK", "AQ", "A", "KQ") if all(
            c in h for c in t)), ""), 0) or (1 if "K" in h and len(h) >= 2 else 0)
    losers = sum(sum(1 for place, honour in enumerate("AKQ") if place < min(len(h), 3) and honour not in h)
                 for h in suits)
    lengths = sorted((len(h) for h in suits), reverse=True)
    shape = tuple(lengths)
    balanced = shape in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))
    aces = sum(h.count("A") for h in suits)
    kings = sum(h.count("K") for h in suits)
    return dict(controls=2 * aces + kings, stopper_S=stop[0], stopper_C=stop[1], stopper_D=stop[2],
                stopper_H=stop[3], stoppers=sum(stop), quick_tricks=qt, losers=losers, balanced=int(balanced),
                semi_balanced=int(balanced or shape in ((5, 4, 2, 2), (6, 3, 2, 2))), longest=lengths[0],
                shortest=lengths[3], shape=lengths[0] * 1000 + lengths[1] * 100 + lengths[2] * 10 + lengths[3])


DECK = [16 * s + r for s in range(4) for r in range(13)]
vint_hands = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True).map(
    lambda cards: sum(1 << c for c in cards))


@settings(max_examples=400, deadline=None)
@given(vint_hands)
def test_the_jitted_features_agree_with_a_plain_python_twin(h):
    expected = twin(h)
    assert {n: VINT.value(n, h) for n in expected} == expected


@settings(max_examples=300, deadline=None)
@given(vint_hands)
def test_invariants_of_the_system_features(h):
    v = {n: VINT.value(n, h) for n in VINT.features}
    assert v["balanced"] <= v["semi_balanced"]                      # balanced => semi-balanced
    lengths = [v[s] for s in "SHDC"]
    assert v["balanced"] == (min(lengths) >= 2 and max(lengths) <= 5 and lengths.count(2) <= 1)
    assert v["semi_balanced"] == (min(lengths) >= 2 and max(lengths) <= 6)
    assert v["controls"] == 2 * v["aces"] + v["kings"]
    assert 0 <= v["losers"] <= 12 and 0 <= v["quick_tricks"] <= 16 and 0 <= v["stoppers"] <= 4
    assert v["stoppers"] == sum(v[f"stopper_{s}"] for s in "SHDC")
    assert v["longest"] == max(v[s] for s in "SHDC") and v["shortest"] == min(v[s] for s in "SHDC")
    digits = [v["shape"] // 1000, v["shape"] // 100 % 10, v["shape"] // 10 % 10, v["shape"] % 10]
    assert sum(digits) == 13 and digits == sorted((v[s] for s in "SHDC"), reverse=True)
    if v["aces"] == 4:
        assert v["stoppers"] == 4 and v["quick_tricks"] >= 8


COMPILED = compile(Conditions("vint", classes={0: "not balanced, stopper_H, quick_tricks>=1.5, losers<=8"}))


@settings(max_examples=200, deadline=None)
@given(vint_hands)
def test_the_dealers_check_agrees_with_the_features(h):
    """A compiled class accepts a hand exactly when its features are in range (cardsim.deal.meets)."""
    plan = COMPILED.plan
    hands = np.array([h, 0, 0, 0], dtype=np.uint64)
    v = twin(h)
    expected = v["balanced"] == 0 and v["stopper_H"] == 1 and v["quick_tricks"] >= 3 and v["losers"] <= 8
    assert bool(meets(hands, np.uint64(0), plan[7], plan[8], plan[9], plan[10])) == expected


# ------------------------------------------------------------ the clause syntax
@pytest.mark.parametrize("text, ranges", [
    ("balanced", {"balanced": (1, 1)}),
    ("not balanced", {"balanced": (0, 0)}),
    ("semi_balanced, not stopper_S", {"semi_balanced": (1, 1), "stopper_S": (0, 0)}),
    ("SemiBalanced", {"semi_balanced": (1, 1)}),
    ("semi-balanced, not Semi-Balanced", None),                 # both: no value left
    ("not semi-balanced, H=4-5", {"semi_balanced": (0, 0), "H": (4, 5)}),
    ("shape=2-3-4-4", {"shape": (4432, 4432)}),                 # any order
    ("shape=4432", {"shape": (4432, 4432)}),
    ("quick_tricks>=1.5", {"quick_tricks": (3, None)}),         # stored in half tricks
    ("quick_tricks>1.5", {"quick_tricks": (4, None)}),
    ("quick_tricks=1-2.5", {"quick_tricks": (2, 5)}),
    ("quick_tricks<2", {"quick_tricks": (None, 3)}),
    ("losers<=7, ltc>=6", {"losers": (6, 7)}),
    ("controls>=5, stoppers=3", {"controls": (5, None), "stoppers": (3, 3)}),
])
def test_clauses_of_the_system_features(text, ranges):
    if ranges is None:
        with pytest.raises(ConditionError, match="the clauses leave no value"):
            parse_class("vint", text)
    else:
        assert parse_class("vint", text).resolved("vint")[0] == ranges


def test_not_before_cards_still_excludes_cards():
    cls = parse_class("vint", "not AS KH, not S:QJ, not balanced")
    assert cls.excluded == ("AS", "KH", "QS", "JS") and cls.resolved("vint")[0] == {"balanced": (0, 0)}
    assert parse_class("500", "not HJ LJ").excluded == ("HJ", "LJ")


@pytest.mark.parametrize("text, shown", [
    ("balanced, not stopper_S", "not stopper_S, balanced"),     # in the feature table's order
    ("quick_tricks>=1.5, shape=3-5-2-3", "quick_tricks>=1.5, shape=5-3-3-2"),
    ("not semi_balanced, quick_tricks=2-3.5", "quick_tricks=2-3.5, not semi_balanced"),
    ("stopper_H, hcp=15-17", "hcp=15-17, stopper_H"),
])
def test_class_text_reads_back(text, shown):
    cls = parse_class("vint", text)
    assert cls.text("vint") == shown
    assert parse_class("vint", shown).resolved("vint") == cls.resolved("vint")


def test_python_ranges_are_in_the_stored_unit():
    assert HandClass(features={"quick_tricks": (3, None)}).text("vint") == "quick_tricks>=1.5"
    assert HandClass(features={"balanced": 0, "shape": 5332}).text("vint") == "not balanced, shape=5-3-3-2"


@pytest.mark.parametrize("text, message", [
    ("not hcp", "'not hcp': hcp is not a yes/no feature; write a range (hcp>=1, hcp=0)"),
    ("hcp", "'hcp': hcp is not a yes/no feature"),
    ("hcp>=12.5", "'hcp>=12.5': hcp takes whole numbers"),
    ("quick_tricks=1.25", "'quick_tricks=1.25': quick_tricks takes multiples of 0.5"),
    ("losers=4-4-3-2", "only a shape feature takes a pattern"),
    ("shape=14-0-0-0", "'shape=14-0-0-0': not the shape of a 13-card hand"),
    ("shape=10-10-0-0", "'shape=10-10-0-0': not the shape of a 13-card hand"),
    ("not balance", "unknown vint feature 'balance'"),
])
def test_bad_clauses_are_one_line_errors(text, message):
    with pytest.raises(ConditionError) as exc:
        parse_class("vint", text)
    assert message in str(exc.value) and "\n" not in str(exc.value)


# ------------------------------------------------------------ impossible classes
@pytest.mark.parametrize("game, text, culprit", [
    ("vint", "balanced, S>=6", "S>=6, balanced"),
    # four stoppers in 13 cards: at best Jxxx Qxx Qxx Qxx or Jxxx Jxxx Qxx Kx, 7 hcp
    ("vint", "stoppers=4, hcp<=6", "hcp<=6, stoppers=4"),
    # no loser: AKQ in every suit of three or more cards, A or AK in shorter ones; at best 13 spades, 10 hcp
    ("vint", "losers=0, hcp<=9", "hcp<=9, losers=0"),
    # 1½ quick tricks: at best AQ, 6 hcp
    ("vint", "quick_tricks>=1.5, hcp<=5", "hcp<=5, quick_tricks>=1.5"),
    ("vint", "shape=4-4-4-4", "shape=4-4-4-4"),                       # 16 cards
    ("vint", "shape=4-4-3-2, S=5", "S=5, shape=4-4-3-2"),
    ("vint", "not balanced, shape=4-3-3-3", "not balanced, shape=4-3-3-3"),
    ("vint", "balanced, shortest=1", "balanced, shortest=1"),
    ("vint", "stopper_S, S=0", "S=0, stopper_S"),
    ("500", "stoppers=4, hcp<=4", "hcp<=4, stoppers=4"),
])
def test_impossible_classes_are_refused(game, text, culprit):
    with pytest.raises(ConditionError) as exc:
        compile(Conditions(game, classes={0: text}))
    if culprit is not None:
        assert f"seat 0: {culprit} is impossible" in str(exc.value)


@pytest.mark.parametrize("text", ["losers=0, hcp<=10", "stoppers=4, hcp=7", "quick_tricks>=1.5, hcp=6",
                                  "semi_balanced, longest=6, H=6",
                                  "controls=12, losers>=1", "balanced, hcp=15-17", "shape=7-6-0-0, stoppers=2"])
def test_possible_classes_compile(text):
    compile(Conditions("vint", classes={0: text}))


def test_a_given_hand_is_judged_exactly():
    with pytest.raises(ConditionError, match="seat 0: not balanced is impossible: its hand can only have balanced 1"):
        compile(Conditions("vint", hands={0: "S:AK32 H:K32 D:Q32 C:J32"}, classes={0: "not balanced"}))
    with pytest.raises(ConditionError, match=r"quick_tricks>=3 is impossible: its hand can only have quick_tricks 2.5"):
        compile(Conditions("vint", hands={0: "S:AK32 H:K32 D:Q32 C:J32"}, classes={0: "quick_tricks>=3"}))
    with pytest.raises(ConditionError, match="not stopper_S is impossible"):
        compile(Conditions("vint", classes={0: "not stopper_S, has AS"}))


# ------------------------------------------------------------ the dealer
def _pattern_probability(patterns) -> float:
    """Exact share of 13-card hands whose shape is one of ``patterns``."""
    total = 0
    for lengths in itertools.product(range(14), repeat=4):
        if sum(lengths) == 13 and tuple(sorted(lengths, reverse=True)) in patterns:
            total += math.prod(math.comb(13, n) for n in lengths)
    return total / math.comb(52, 13)


def test_dealt_hands_meet_the_class_and_the_acceptance_is_the_shapes_probability():
    dealt = deal_chunk(compile(Conditions("vint", classes={0: "balanced"})), seed=3, start=0, count=3000)
    for h in dealt.hands:
        assert twin(int(h[0]))["balanced"] == 1
    p = _pattern_probability({(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)})
    assert p == pytest.approx(0.4761, abs=1e-4)
    attempts = int(dealt.attempts.sum())
    assert abs(dealt.acceptance - p) < 4 * math.sqrt(p * (1 - p) / attempts)


def test_a_system_class_for_two_seats():
    cond = Conditions("vint", classes={0: "balanced, hcp=15-17, stoppers>=3",
                                       2: "losers<=7, quick_tricks>=2, semi_balanced, not balanced"})
    dealt = deal_chunk(compile(cond), seed=11, start=0, count=300)
    for h in dealt.hands:
        north, south = twin(int(h[0])), twin(int(h[2]))
        assert north["balanced"] and north["stoppers"] >= 3 and 15 <= VINT.value("hcp", int(h[0])) <= 17
        assert south["losers"] <= 7 and south["quick_tricks"] >= 4 and south["semi_balanced"] \
            and not south["balanced"]


# ------------------------------------------------------------ the report page's script
_NODE_PAGE = r"""
const fs = require("fs");
const [data, hands, script] = process.argv.slice(2).map(p => fs.readFileSync(p, "utf8"));
global.window = {};
global.document = {getElementById: () => ({textContent: data}), querySelectorAll: () => [],
                   querySelector: () => null, documentElement: {classList: {add() {}}}};
eval(script);
const asked = JSON.parse(hands), out = {};
Object.keys(asked).forEach(g => { out[g] = asked[g].map(h => window.cardsimPage.featureValues(g, BigInt(h))); });
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_report_pages_script_computes_the_features_as_the_dealer(tmp_path):
    """analyses/static/report.js (the "Your hand" panels) repeats the kinds of cardsim.holding."""
    import json
    import random
    from pathlib import Path

    from cardsim.analysis import hand_classes as HC

    rng = random.Random(7)
    decks = {"vint": DECK, "500": [int(c) for c in G500.base_deck]}
    hands = {g: [sum(1 << c for c in rng.sample(deck, 13 if g == "vint" else 10)) for _ in range(300)]
             for g, deck in decks.items()}
    hands["vint"] += [bits("vint", h) for h in HANDS]
    (tmp_path / "data.json").write_text(json.dumps({g: HC.features_json(g) for g in decks}))
    (tmp_path / "hands.json").write_text(json.dumps({g: [str(h) for h in hs] for g, hs in hands.items()}))
    (tmp_path / "page.js").write_text(_NODE_PAGE)
    script = Path(__file__).resolve().parents[1] / "analyses" / "static" / "report.js"
    run = subprocess.run(["node", str(tmp_path / "page.js"), str(tmp_path / "data.json"), str(tmp_path / "hands.json"),
                          str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    for game, hs in hands.items():
        for h, js in zip(hs, got[game]):
            assert js == HC.feature_values(game, h), (game, h)


# ------------------------------------------------------------ everywhere a class works
def test_implied_calls_deal_from_a_system_class():
    """The implied-calls sampler: the opener's hands make the given call AND meet the class."""
    from cardsim.questions import question

    q = question("vint", seat=1, dealer=0, auction=["1S"], options=["P"], n=10, seed=5,
                 where="seat 0: not balanced, stoppers>=2, losers<=7")
    dealt = q.deal(0, 200)
    for h in dealt.hands[:, 0]:
        v = twin(int(h))
        assert not v["balanced"] and v["stoppers"] >= 2 and v["losers"] <= 7
        assert VINT.value("S", int(h)) >= 4  # the heuristic opens 1S with four spades or more
    assert 0 < dealt.acceptance < 1


def test_evaluate_and_simulate_take_system_classes(capsys):
    from cardsim.cli import main

    code = main(["evaluate", "vint", "--seat", "0", "--where", "hcp=15-17, balanced, stoppers>=3",
                 "--option", "P", "--option", "1NT", "-n", "60"])
    out, err = capsys.readouterr()
    assert code == 0 and "hcp=15-17, stoppers>=3, balanced" in out + err
    code = main(["evaluate", "vint", "--seat", "0", "--where", "balanced, S>=6", "--option", "P", "-n", "10"])
    err = capsys.readouterr().err
    assert code == 2 and "seat 0: S>=6, balanced is impossible" in err and "Traceback" not in err
    code = main(["evaluate", "vint", "--seat", "0", "--where", "not hcp", "--option", "P", "-n", "10"])
    err = capsys.readouterr().err
    assert code == 2 and "hcp is not a yes/no feature" in err and "Traceback" not in err


def test_the_programs_holding_types_tell_apart_all_the_suit_kinds_do():
    """The 0/1 program values a suit by its type (length up to 4-or-more, which of A K Q J): exact
    only if every holding of a type has the type's value, checked on all 8,192 Vint spade holdings."""
    from cardsim.conditions.program import suit_types
    from cardsim.holding import SUIT_KINDS, term_value

    mask = VINT.features["stopper_S"][0][0]
    types = suit_types(int(mask))
    honours = int(mask) & ~(int(mask) >> 4)  # A K Q J: the top four ranks
    for holding in range(1 << 13):
        n = bin(holding).count("1")
        (kind_type,) = [t for t in types if t[0] <= n <= t[1] and t[2] == holding & honours]
        for kind in SUIT_KINDS:
            value = term_value(np.uint64(holding), np.uint64(mask), np.uint64(kind), np.int64(1))
            assert value == term_value(np.uint64(kind_type[3]), np.uint64(mask), np.uint64(kind), np.int64(1))


def test_the_games_jitted_hand_features_include_them():
    """cardsim.games.<game>.features.hand_features (what jitted code such as a rule interpreter calls)."""
    from cardsim.games.g500 import features as F500
    from cardsim.games.vint import features as FV

    out = np.zeros(FV.N_FEATURES, dtype=np.int64)
    for hand, expected in HANDS.items():
        FV.hand_features(np.uint64(bits("vint", hand)), out)
        assert {n: int(out[FV.NAMES.index(n)]) for n in expected} == expected
    out = np.zeros(F500.N_FEATURES, dtype=np.int64)
    F500.hand_features(np.uint64(bits("500", "HJ S:AK5 H:KQ D:J98 C:4")), out)
    assert [int(out[F500.NAMES.index(n)]) for n in ("controls", "stoppers", "quick_tricks")] == [4, 2, 6]


# ------------------------------------------------------------ a rule after others: reachable or shadowed
@pytest.mark.parametrize("game, cls, earlier, expected", [
    ("vint", "hcp=15-17, balanced", [], True),
    ("vint", "balanced, S>=6", [], False),                                     # impossible
    ("vint", "hcp=15-17, balanced", ["hcp>=15"], False),                       # shadowed by one rule
    ("vint", "hcp=15-17, balanced", ["hcp>=16"], True),                        # 15 balanced is left
    ("vint", "hcp=15-17, balanced", ["hcp>=16", "hcp=15, semi_balanced"], False),  # balanced => semi-balanced
    ("vint", "hcp=15-17, balanced", ["hcp>=16", "hcp=15, not balanced"], True),
    ("vint", "S>=5", ["S>=5, hcp>=12", "S>=5, hcp<=11"], False),               # shadowed by two rules together
    ("vint", "S>=5", ["S>=5, hcp>=12", "S>=5, hcp<=10"], True),                # 11 points are left
    ("vint", "has AS", ["stopper_S"], False),                                  # an ace is a stopper
    # four stoppers in 13 cards leave at most 9 losers (Jxxx Jxxx Jxxx A, Jxxx Jxxx Qxx Kx) ...
    ("vint", "stoppers=4", ["balanced", "not balanced, losers<=9"], False),
    # ... and Jxxx Jxxx Jxxx A (4-4-4-1) is not balanced
    ("vint", "stoppers=4", ["balanced", "not balanced, losers<=8"], True),
    ("vint", "hcp>=10", ["not AS", "has AS"], False),
    ("vint", "not AS", ["has AS"], True),
    ("500", "jokers=2", ["hcp>=11"], False),                                   # the jokers are 6 + 5
    ("500", "jokers=2", ["hcp>=12"], True),
    ("501", "points>=50", ["points>=40"], False),
    ("501", "points>=50", ["marriages>=1"], None),                              # pairs of cards: not modelled
])
def test_reachable_decides_impossible_and_shadowed_classes(game, cls, earlier, expected):
    from cardsim.conditions import reachable

    assert reachable(game, cls, earlier) is expected


def test_reachable_takes_one_earlier_class_and_refuses_a_non_class():
    from cardsim.conditions import reachable

    assert reachable("vint", "hcp>=3", "hcp>=1") is False and reachable("vint", "hcp>=1", "hcp>=3") is True
    with pytest.raises(ConditionError, match="a class is a string or a HandClass, got int"):
        reachable("vint", 5)


def test_reachable_agrees_with_dealt_hands():
    """A class after others is reachable exactly when random hands find it, on classes where a
    random hand does so often."""
    from cardsim.conditions import reachable

    hands = [int(h[0]) for h in deal_chunk(compile(Conditions("vint")), 9, 0, 4000).hands]
    rules = ["hcp>=16, balanced", "hcp=12-15, not balanced, losers<=7", "stoppers>=3, quick_tricks>=2"]
    for cls in ["hcp=12-17, semi_balanced", "losers<=7", "stoppers>=3"]:
        found = any(parse_meets(cls, h) and not any(parse_meets(r, h) for r in rules) for h in hands)
        assert reachable("vint", cls, rules) is True and found


def parse_meets(text, h) -> bool:
    ranges, required, excluded = parse_class("vint", text).resolved("vint")
    return all((lo is None or VINT.value(n, h) >= lo) and (hi is None or VINT.value(n, h) <= hi)
               for n, (lo, hi) in ranges.items())


G500_DECK = [int(c) for c in G500.base_deck]
g500_hands = st.lists(st.sampled_from(G500_DECK), min_size=10, max_size=10, unique=True).map(
    lambda cards: sum(1 << c for c in cards))


@settings(max_examples=300, deadline=None)
@given(g500_hands)
def test_five_hundred_features_are_the_twins_on_the_physical_suits(h):
    """A Five Hundred suit (ranks 4..A at bits 0..10) read as the same Vint holding (bits 2..12),
    the jokers left out, has the twin's controls, stoppers and quick tricks."""
    jokers = (1 << 14) | (1 << 15)
    as_vint = sum(1 << (c + 2) for c in range(64) if (h & ~jokers) >> c & 1)
    expected = twin(as_vint)
    names = ("controls", "stopper_S", "stopper_H", "stopper_D", "stopper_C", "stoppers", "quick_tricks")
    assert {n: G500.value(n, h) for n in names} == {n: expected[n] for n in names}
