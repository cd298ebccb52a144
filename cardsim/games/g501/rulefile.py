"""501's part of rule files (docs/rules-files.md, "501 contexts"): the stage, scores, position
and bid a rule applies to, its call, and the glue of the jitted interpreter (:mod:`.rulekernel`).

**The context** of a 501 rule, each key optional:

* ``stage``: ``blind`` (the seat has not looked: its call is a blind call, and no condition on
  the hand is allowed), ``looked`` (after looking) or ``talon`` (the declarer with his ten
  cards, docs/RULES.md §1.4); by default ``blind`` for ``look``, ``talon`` for ``abandon`` and
  ``declare``, ``looked`` otherwise;
* ``position``: ``0`` (first speaker, the dealer's left), ``1``, ``2`` or ``any``;
* ``score``: the seat's own score before the deal; ``lead``: the closest rival's score minus
  the seat's (+ ahead, − behind: 501 counts down; the rival is the lowest score of the other
  seats of the table); ``bid``: the current highest bid (``none`` = 0; at the talon, the
  winning bid).  Each a range: ``N``, ``N-M``, ``<=N``, ``>=N``, ``<N``, ``>N``, ``any``;
* ``seats``: ``3``, ``4`` or ``any``;
* ``others_blind`` (``looked`` only): ``yes`` when another seat has bid blind in this deal,
  ``no``, ``any``; ``won_blind`` (``talon`` only): the declarer won the auction blind.

At the talon the declarer's view is his ten cards, the bid and whether he is blind: a talon rule
takes no ``position``, ``score``, ``lead`` or ``seats``.

**Calls**: ``look`` (blind stage), ``pass``/``P``, a bid ``66`` … ``220``, ``raise`` (the
minimum raise, max(66, current bid + 1)); at the talon ``abandon``, or ``declare`` with a
``target``: ``estimate - K`` / ``estimate + K`` (heuristic's estimate of the eight cards kept
in the trump it chooses, the way its own ``target_margin`` is read) or ``bid + K`` / ``bid``,
made a whole number within the bid and 220.  A declare's trump and gifts are heuristic's.
A bid not above the lowest current bid the context allows is refused when the file is read;
where the current bid reaches the rule's bid, the base strategy calls instead.
"""
from __future__ import annotations

import re

import numpy as np

from cardsim.deal import ConditionError
from cardsim.hand_grammar import parse_hand

from . import dispatch as D
from .constants import BLIND_FLAG, LOOK, MAX_BID, MIN_BID
from .rulekernel import (  # noqa: F401
    ABANDON, BLIND, DECLARE, LOOKED, NO_RULE, PASS, RAISE, T_BID, T_ESTIMATE, TALON, base_of,
)
from .features import FEATURES
from .strategies import RULES

CONTEXT_KEYS = ("stage", "position", "score", "lead", "bid", "seats", "others_blind", "won_blind", "target", "talon")
"""A 501 rule's context keys (docs/rules-files.md), its ``target`` and a test's ``talon``."""
STRATEGY_ID = RULES
"""The engine id of the ``rules`` strategy."""
CHARTS = ("blind",)
"""The report's charts ``cardsim rules from-chart`` writes as rule files, with the writer the spec names
(:mod:`cardsim.rules.from_chart.g501`)."""
STAGES = {"blind": BLIND, "looked": LOOKED, "talon": TALON}
_WORDS = {LOOK: "look", PASS: "pass", RAISE: "raise", ABANDON: "abandon", DECLARE: "declare"}
_FLAGS = {"yes": 1, "no": 0, "any": -1}
_OPEN = 1e9
_RANGE = re.compile(r"^(-?\d+)\s*(?:-|\.\.)\s*(-?\d+)$")
_BOUND = re.compile(r"^(<=|>=|<|>|=)?\s*(-?\d+)$")
_TARGET = re.compile(r"^(estimate|bid)\s*(?:([+-])\s*(\d+))?$")


def call_text(call) -> str:
    """The token of a call (−1 -> ``look``, 0 -> ``pass``, 80 -> ``80``, ``raise``, ``abandon``, ``declare``)."""
    call = int(call)
    return _WORDS.get(call, str(call))


def read_call(text: str) -> int:
    """The call number of a rule's ``call`` or a test's ``expect``; ValueError otherwise."""
    token = text.strip().lower()
    if token == "p":
        return PASS
    for code, word in _WORDS.items():
        if token == word:
            return code
    if token.isdigit() and MIN_BID <= int(token) <= MAX_BID:
        return int(token)
    raise ValueError(f"{text.strip()!r} is not a 501 call (look, pass, raise, a bid {MIN_BID}..{MAX_BID}, "
                     f"abandon, declare)")


def read_range(text: str, key: str) -> tuple[int, int]:
    """``(lo, hi)`` (inclusive, ±1e9 open) of a range word (``N``, ``N-M``, ``<=N``, ``>N``, ``any``;
    ``none`` = 0 for ``bid``); ValueError ``(message, key)``."""
    t = str(text).strip().lower()
    if t == "any":
        return -_OPEN, _OPEN
    if key == "bid" and t == "none":
        return 0, 0
    m = _RANGE.match(t)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise ValueError((f"{key} {text!r}: the range is empty ({lo} > {hi})", key))
        return lo, hi
    m = _BOUND.match(t)
    if not m:
        raise ValueError((f"{key} {text!r}: write N, N-M, <=N, >=N, <N, >N or any", key))
    op, n = m.group(1) or "=", int(m.group(2))
    return {"=": (n, n), "<=": (-_OPEN, n), "<": (-_OPEN, n - 1), ">=": (n, _OPEN), ">": (n + 1, _OPEN)}[op]


def _choice(values: dict, key: str, allowed: dict, default: str) -> int:
    word = str(values.get(key, default)).strip().lower()
    if word not in allowed:
        raise ValueError((f"{key} {values.get(key)!r}: write {', '.join(allowed)}", key))
    return allowed[word]


def _stage(values: dict, call: int) -> int:
    default = "blind" if call == LOOK else "talon" if call in (ABANDON, DECLARE) else "looked"
    stage = _choice(values, "stage", STAGES, default)
    if call == LOOK and stage != BLIND:
        raise ValueError(("look is a call before looking: stage = \"blind\"", "call"))
    if (call in (ABANDON, DECLARE)) != (stage == TALON):
        raise ValueError((f"{call_text(call)} is not a call at stage {values.get('stage', 'looked')} "
                          f"(abandon and declare are the talon's, the others the auction's)", "call"))
    return stage


def target_of(values: dict) -> tuple[int, int]:
    """``(kind, k)`` of a declare rule's ``target`` (``estimate - 28``, ``bid + 10``, ``bid``);
    ValueError ``(message, key)``."""
    if "target" not in values:
        raise ValueError(("a declare rule names its target: target = \"estimate - 28\" (or estimate + K, bid + K, "
                          "bid)", None))
    text = str(values.get("target", "")).strip().lower()
    m = _TARGET.match(text)
    if not m:
        raise ValueError((f"target {values.get('target')!r}: write estimate - K, estimate + K, bid + K or bid "
                          f"(K a whole number of points)", "target"))
    k = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    return (T_ESTIMATE if m.group(1) == "estimate" else T_BID), k


def compile_context(values: dict) -> tuple[list[float], int, int]:
    """The compiled context of a rule's ``values`` (layout in :mod:`.rulekernel`), the lowest
    current bid it allows (for the legality check) and its span (0).  ValueError ``(message, key)``
    for a word that does not parse or a key that the rule's stage does not see."""
    call = read_call(values["call"])
    stage = _stage(values, call)
    if "talon" in values:
        raise ValueError(("talon is a test's key (the exposed cards): a talon rule reads the ten cards in when",
                          "talon"))
    if stage == BLIND and str(values.get("when", "")).strip():
        raise ValueError(("a blind call is made before looking: no condition on the hand (when)", "when"))
    view = {BLIND: ("position", "score", "lead", "bid", "seats"),
            LOOKED: ("position", "score", "lead", "bid", "seats", "others_blind"),
            TALON: ("bid", "won_blind")}[stage]
    for key in ("position", "score", "lead", "seats", "others_blind", "won_blind"):
        if key in values and key not in view:
            raise ValueError((f"{key} is not seen at stage {[k for k, v in STAGES.items() if v == stage][0]} "
                              f"(it sees {', '.join(view)})", key))
    if "target" in values and call != DECLARE:
        raise ValueError(("only a declare rule has a target", "target"))
    kind, k = target_of(values) if call == DECLARE else (T_ESTIMATE, 0)
    position = _choice(values, "position", {"any": -1, "0": 0, "1": 1, "2": 2}, "any")
    seats = _choice(values, "seats", {"any": 0, "3": 3, "4": 4}, "any")
    score, lead, bid = (read_range(values.get(key, "any"), key) for key in ("score", "lead", "bid"))
    others = _choice(values, "others_blind", _FLAGS, "any")
    won = _choice(values, "won_blind", _FLAGS, "any")
    ctx = [stage, position, *score, *lead, *bid, seats, others, won, kind, k]
    return [float(x) for x in ctx], int(max(bid[0], 0)), 0


def reads_talon(values: dict) -> bool:
    """Whether the rule's condition reads the ten cards of the talon stage (not a dealt hand of
    seven: ``rules check`` does not ask the dealt hand's 0/1 program whether it can hold)."""
    return _stage(values, read_call(values["call"])) == TALON


def never_legal(call: int, least: int) -> str | None:
    """Why ``call`` can never be made when the current bid is at least ``least``, or None."""
    if call > 0 and call <= least:
        return f"{call} is never legal here: the current bid is at least {least} (docs/RULES.md §1.3)"
    if call == RAISE and least >= MAX_BID:
        return f"raise is never legal here: the current bid is at least {least} (docs/RULES.md §1.3)"
    return None


# ---------------------------------------------------------------- the situation of a decision
def situation(values: dict) -> tuple:
    """``(stage, position, score, rival, bid, others_blind, won_blind, seats, talon)`` of a test
    (seat 0 decides; defaults: stage looked, position 0, score 501, lead 0, bid none, others_blind
    and won_blind no, 3 seats; a talon test names its three ``talon`` cards).  ValueError
    ``(message, key)`` for a word that is not one situation."""
    stage = _choice(values, "stage", STAGES, "looked")
    one = {}
    for key, default in (("position", "0"), ("score", "501"), ("lead", "0"), ("bid", "none"), ("seats", "3")):
        lo, hi = read_range(values.get(key, default), key)
        if lo != hi:
            raise ValueError((f"{key} {values.get(key)!r}: a test names one value", key))
        one[key] = lo
    others = _choice(values, "others_blind", {"yes": 1, "no": 0}, "no")
    won = _choice(values, "won_blind", {"yes": 1, "no": 0}, "no")
    talon = 0
    if stage == TALON:
        try:
            cards = parse_hand(FEATURES, str(values.get("talon", "")))
        except ConditionError as exc:
            raise ValueError((f"talon {values.get('talon')!r}: {exc}", "talon")) from None
        if len(cards) != 3:
            raise ValueError((f"talon {values.get('talon')!r}: a talon test names the three cards of the talon",
                              "talon"))
        talon = sum(1 << c for c in cards)
    elif "talon" in values:
        raise ValueError(("talon is read only at stage talon", "talon"))
    return (stage, one["position"], one["score"], one["score"] + one["lead"], one["bid"], bool(others), bool(won),
            one["seats"], talon)


def legal_situation(situation) -> str | None:
    """Why ``situation`` is no 501 decision, or None."""
    stage, position, _, _, bid, _, _, seats, _ = situation
    if not 0 <= position <= 2 or seats not in (3, 4):
        return "position 0..2 at a table of 3 or 4 seats"
    if bid != 0 and not MIN_BID <= bid <= MAX_BID:
        return f"a bid is {MIN_BID}..{MAX_BID} (none: 0)"
    if stage == TALON and bid == 0:
        return "the declarer won the auction with a bid"
    return None


def decision_hand(hand: int, situation) -> int:
    """The cards a decision reads: the seven held, and at the talon the talon's three with them."""
    return hand | situation[8] if situation[0] == TALON else hand


def concrete(call: int, situation) -> int:
    """The call the engine makes for a rule's ``call``: ``raise`` made the minimum raise over the
    situation's bid (docs/RULES.md §1.3)."""
    return max(MIN_BID, situation[4] + 1) if call == RAISE else call


def choose(ids: np.ndarray, params: np.ndarray, hand: int, situation) -> int:
    """The call seat 0 makes with ``hand`` (uint64, 7 cards) in ``situation`` under the strategy
    ``ids``/``params`` (int64[4], float64[4, N_PARAMS]): the engine's own dispatch, base included
    (a blind call, a call after looking, or at the talon ABANDON / DECLARE)."""
    stage, position, score, rival, bid, others, won, seats, talon = situation
    streams = np.zeros((5, 1), dtype=np.uint64)
    streams[:, 0] = np.arange(1, 6, dtype=np.uint64)
    if stage == BLIND:
        return int(D.choose_blind(ids[0], params, streams, 0, position, score, rival, bid, seats))
    if stage == LOOKED:
        return int(D.choose_call(ids[0], params, streams, 0, np.uint64(hand), position, score, rival, bid, others,
                                 np.zeros((4, 2)), seats))
    out = np.zeros(5, dtype=np.int64)
    D.choose_contract(ids[0], params, streams, 0, np.uint64(hand | talon), bid, won, np.uint64(talon), out)
    return ABANDON if out[0] else DECLARE


# ---------------------------------------------------------------- the plain-Python reading (slow twin)
def context_holds(values: dict, situation) -> bool:
    """Whether the rule's context words hold in ``situation`` (see :func:`situation`): plain
    Python, from the words."""
    stage, position, score, rival, bid, others, won, seats, _ = situation
    call = read_call(values["call"])
    if _stage(values, call) != stage:
        return False
    checks = [("position", position), ("seats", seats)]
    for key, value in checks:
        word = str(values.get(key, "any")).strip().lower()
        if word != "any" and int(word) != value:
            return False
    for key, value in (("score", score), ("lead", rival - score), ("bid", bid)):
        lo, hi = read_range(values.get(key, "any"), key)
        if not lo <= value <= hi:
            return False
    for key, value in (("others_blind", others), ("won_blind", won)):
        word = str(values.get(key, "any")).strip().lower()
        if word != "any" and (word == "yes") != bool(value):
            return False
    return True


def legal(call: int, situation) -> bool:
    """Whether ``call`` (after :func:`concrete`) may be made in ``situation`` (docs/RULES.md §1.3-§1.4)."""
    stage, bid = situation[0], situation[4]
    if stage == TALON:
        return call in (ABANDON, DECLARE)
    if call == LOOK:
        return stage == BLIND
    return call == PASS or (call > bid and MIN_BID <= call <= MAX_BID)


def given_calls(calls, dealer: int, seats: int = 3, scores=None) -> list[tuple[int, tuple, int, bool]]:
    """The decisions behind a question's given calls (``calls``: trace codes from the dealer's left,
    a blind bid ``bid + BLIND_FLAG``, a pass 0; docs/RULES.md §1.3) as ``(seat, situation, call,
    sees_hand)`` (:func:`situation`'s tuple): a blind bid is the seat's blind decision (it has not
    seen its hand); a bid after looking is the look (blind) then the bid (looked) when the seat had
    not looked yet, the bid alone when it had; a pass is the looked decision of a seat that has
    looked, and left out otherwise (a pass before looking and one after are written alike).
    ``scores``: every seat's score before the deal (default 501 each).  What
    :mod:`cardsim.rules.implied` asks of a question's given calls."""
    scores = [501] * seats if scores is None else [int(x) for x in scores[:seats]]
    order = [(int(dealer) + 1 + k) % seats for k in range(seats)]
    if seats == 4:
        order = [s for s in order if s != int(dealer)]
    passed, looked, blind_seats, cur, pos, made = set(), set(), set(), 0, 0, []
    for code in (int(c) for c in calls):
        seat = order[pos % 3]
        rival = min(scores[s] for s in range(seats) if s != seat)
        base = (pos % 3, scores[seat], rival, cur)
        blind = (BLIND, *base, False, False, seats, 0)
        after = (LOOKED, *base, bool(blind_seats - {seat}), False, seats, 0)
        if code == 0:
            if seat in looked:
                made.append((seat, after, PASS, True))
            passed.add(seat)
        elif code > BLIND_FLAG:
            made.append((seat, blind, code - BLIND_FLAG, False))
            blind_seats.add(seat)
            cur = code - BLIND_FLAG
        else:
            if seat not in looked:
                made.append((seat, blind, LOOK, False))
                looked.add(seat)
            made.append((seat, after, code, True))
            cur = code
        pos += 1
        while order[pos % 3] in passed and len(passed) < 3:
            pos += 1
    return made


def decisions(record: dict):
    """The decisions of a deal record (docs/RECORDS.md) whose stage the record shows, as ``(seat,
    hand bit set, situation, call)``: every blind bid (``B80``), the look and the bid of a seat's
    first bid after looking, a pass by a seat known to have looked, and the declarer's abandon or
    declare.  A pass by a seat that may not have looked is left out (a blind pass and a pass
    after looking are written alike)."""
    seats, dealer = int(record["seats"]), int(record["dealer"])
    scores = [int(s) for s in (record.get("before") or {}).get("scores", [501] * seats)]
    order = [(dealer + k) % seats for k in range(1, seats + 1) if seats == 3 or (dealer + k) % seats != dealer][:3]
    hands = {s: sum(1 << c for c in parse_hand(FEATURES, " ".join(record["hands"][s]))) for s in order}
    looked, blind_seats, out, cur, turn = set(), set(), set(), 0, 0
    for token in record["auction"]:
        while order[turn % 3] in out:
            turn += 1
        pos = turn % 3
        seat = order[pos]
        turn += 1
        rival = min(scores[s] for s in range(seats) if s != seat)
        base = (pos, scores[seat], rival, cur)
        others = bool(blind_seats - {seat})
        t = token.strip().upper()
        if t == "P":
            if seat in looked:
                yield seat, hands[seat], (LOOKED, *base, others, False, seats, 0), PASS
            out.add(seat)
            continue
        if t.startswith("B"):
            bid = int(t[1:])
            yield seat, hands[seat], (BLIND, *base, False, False, seats, 0), bid
            blind_seats.add(seat)
        else:
            bid = int(t)
            if seat not in looked:
                yield seat, hands[seat], (BLIND, *base, False, False, seats, 0), LOOK
                looked.add(seat)
            yield seat, hands[seat], (LOOKED, *base, others, False, seats, 0), bid
        cur = bid
    result = record.get("result") or {}
    if result.get("declarer") is not None and record.get("talon"):
        declarer = int(result["declarer"])
        talon = sum(1 << c for c in parse_hand(FEATURES, " ".join(record["talon"])))
        call = ABANDON if result.get("abandoned") else DECLARE
        yield declarer, hands[declarer], (TALON, 0, 0, 0, cur, False, bool(result.get("blind")), seats, talon), call
