"""Five Hundred's part of rule files (docs/rules-files.md): the standing bid a rule applies to,
its bid, and the glue of the jitted interpreter (:mod:`.rulekernel`).

**The context** of a Five Hundred rule is ``standing``: who holds the standing bid and which bid
it is (docs/RULES.md §3.3: every bid must beat the standing one; a seat that passes is out):

* ``none``: nobody has bid yet;
* ``partner BID``, ``opponent BID``, ``someone BID``: that side (either, for ``someone``) made
  the standing bid ``BID``, a bid token (``7H``, ``6NT``) or ``*`` (any); ``partner`` alone is
  ``partner *``;
* ``any`` (the default when a rule has no ``standing``): whatever stands, or nothing.

A rule's ``call`` is ``P`` (or ``pass``) or a bid ``6S`` … ``10NT``.  A bid not above a named
standing bid is refused when the file is read; after ``*`` a bid that is not above the one
standing is illegal there, and the base strategy bids instead.
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import CardError
from cardsim.hand_grammar import parse_hand

from .constants import N_BIDS, PASS, bid_str, parse_call
from .dispatch import choose_call
from .features import FEATURES
from .rulekernel import ANY_BID, ANYONE, NO_RULE, NOBODY, OPPONENT, PARTNER, SOMEONE, base_of, rules_call  # noqa: F401
from .strategies import RULES

CONTEXT_KEYS = ("standing",)
"""A Five Hundred rule's context keys (docs/rules-files.md): the standing bid."""
STRATEGY_ID = RULES
"""The engine id of the ``rules`` strategy."""
_WHO = {"partner": PARTNER, "opponent": OPPONENT, "someone": SOMEONE}


def call_text(call) -> str:
    """The record token of a call (−1 -> ``P``, 12 -> ``8D``)."""
    return bid_str(int(call))


def read_call(text: str) -> int:
    """The call number of a rule's ``call`` (``P``/``pass`` or a bid); ValueError otherwise."""
    token = text.strip()
    if token.lower() == "pass":
        return PASS
    try:
        return parse_call(token)
    except CardError:
        raise ValueError(f"{token!r} is not a Five Hundred call (P, or a bid 6S..10NT)") from None


def _pattern(text: str) -> tuple[int, int]:
    words = text.lower().split()
    if words in (["any"], []):
        return ANYONE, ANY_BID
    if words == ["none"]:
        return NOBODY, ANY_BID
    if words[0] not in _WHO or len(words) > 2:
        raise ValueError("write none, any, or partner / opponent / someone followed by a bid or *")
    if len(words) == 1 or words[1] == "*":
        return _WHO[words[0]], ANY_BID
    try:
        bid = parse_call(words[1])
    except CardError:
        raise ValueError(f"{words[1]!r} is not a bid (6S..10NT) or *") from None
    if bid == PASS:
        raise ValueError("a standing bid is a bid, not a pass")
    return _WHO[words[0]], bid


def compile_context(values: dict) -> tuple[list[float], int, int]:
    """The compiled context of ``values`` (``who, bid``), the lowest standing bid it allows (−1:
    none) for the legality check, and its span (0: no bound).  ValueError ``(message, key)``."""
    text = values.get("standing", "any")
    try:
        who, bid = _pattern(text)
    except ValueError as exc:
        raise ValueError((f"standing {text!r}: {exc}", "standing")) from None
    least = bid if bid != ANY_BID else (PASS if who in (NOBODY, ANYONE) else 0)
    return [float(who), float(bid)], least, 0


def context_covers(general: dict, specific: dict) -> bool:
    """Whether every standing bid the ``standing`` of ``specific`` matches is matched by that of
    ``general`` (both a rule's ``values``, patterns that parse): ``any`` covers all, ``someone``
    covers ``partner`` and ``opponent``, ``*`` covers a named bid."""
    gwho, gbid = _pattern(general.get("standing", "any"))
    swho, sbid = _pattern(specific.get("standing", "any"))
    if gwho == ANYONE:
        return True
    if gwho != swho and not (gwho == SOMEONE and swho in (PARTNER, OPPONENT)):
        return False
    return gwho == NOBODY or gbid == ANY_BID or gbid == sbid


def never_legal(call: int, least: int) -> str | None:
    """Why ``call`` can never be made when the standing bid is at least ``least``, or None."""
    if call != PASS and call <= least:
        return (f"{call_text(call)} is never legal here: the standing bid is at least {call_text(least)} "
                f"(docs/RULES.md §3.3)")
    return None


# ---------------------------------------------------------------- the situation of a decision
def situation(values: dict) -> tuple[int, int, int]:
    """``(seat, high_bid, high_seat)`` of a test's ``standing`` (``none``, ``partner 7H``,
    ``opponent 6S``): seat 0 speaks, partner is seat 2, the opponent seat 1.  ValueError
    ``(message, key)`` for a pattern that is not one situation."""
    text = values.get("standing", "none")
    try:
        who, bid = _pattern(text)
    except ValueError as exc:
        raise ValueError((f"standing {text!r}: {exc}", "standing")) from None
    if who == NOBODY:
        return 0, PASS, -1
    if who in (PARTNER, OPPONENT) and bid != ANY_BID:
        return 0, bid, 2 if who == PARTNER else 1
    raise ValueError((f"standing {text!r}: a test names one situation (none, partner BID or opponent BID)",
                      "standing"))


def legal_situation(situation) -> str | None:
    """Why ``situation`` is no Five Hundred auction in progress, or None."""
    seat, bid, high_seat = situation
    if not (-1 <= bid < N_BIDS) or (bid < 0) != (high_seat < 0) or high_seat == seat:
        return "no such standing bid"
    return None


def choose(ids: np.ndarray, params: np.ndarray, hand: int, situation) -> int:
    """The bid the seat of ``situation`` makes with ``hand`` (uint64, physical) under the strategy
    ``ids``/``params`` (int64[4], float64[4, N_PARAMS]; scores 0, quebec scoring, target 500):
    the engine's own :func:`.dispatch.choose_call`, base included."""
    seat, bid, high_seat = situation
    streams = np.zeros((5, 1), dtype=np.uint64)
    streams[:, 0] = np.arange(1, 6, dtype=np.uint64)
    return int(_choose(ids[seat], params, streams, seat, np.uint64(hand), bid, high_seat, choose_call))


def _choose(strategy, params, streams, seat, hand, bid, high_seat, f):
    return f(strategy, params, streams, seat, hand, bid, high_seat, 0, 0, 0, 500)


# ---------------------------------------------------------------- the plain-Python reading (slow twin)
def context_holds(values: dict, situation) -> bool:
    """Whether the standing bid of ``situation`` ``(seat, high_bid, high_seat)`` matches the
    rule's ``standing``: plain Python, from the words."""
    seat, bid, high_seat = situation
    words = values.get("standing", "any").lower().split()
    if not words or words == ["any"]:
        return True
    if words == ["none"]:
        return high_seat < 0
    if high_seat < 0:
        return False
    side = "partner" if (high_seat - seat) % 2 == 0 else "opponent"
    if words[0] != "someone" and words[0] != side:
        return False
    return len(words) == 1 or words[1] == "*" or parse_call(words[1]) == bid


def legal(call: int, situation) -> bool:
    """Whether ``call`` may be made over ``situation``'s standing bid (docs/RULES.md §3.3)."""
    return call == PASS or call > situation[1]


def given_calls(calls, dealer: int, seats: int = 4, scores=None) -> list[tuple[int, tuple[int, int, int], int, bool]]:
    """Each call of an auction (``calls``: call numbers, from the dealer's left) as ``(seat,
    situation, call, sees_hand)``: the seat that makes it, the situation it makes it in, ``(seat,
    standing bid, its bidder)`` as :func:`context_holds` reads it, and True (``seats``/``scores``
    are not read); the player left of the dealer speaks first, a pass is final (docs/RULES.md
    §3.3).  What :mod:`cardsim.rules.implied` asks of a question's given calls."""
    high, high_seat, out, made = PASS, -1, set(), []
    seat = (int(dealer) + 1) % 4
    for call in calls:
        while seat in out:
            seat = (seat + 1) % 4
        made.append((seat, (seat, high, high_seat), int(call), True))
        if call == PASS:
            out.add(seat)
        else:
            high, high_seat = int(call), seat
        seat = (seat + 1) % 4
    return made


def decisions(record: dict):
    """Every call of a deal record (docs/RECORDS.md) as ``(seat, hand bit set, (seat, standing
    bid, its bidder), call)`` (:func:`given_calls`)."""
    for seat, situation, call, _ in given_calls([read_call(t) for t in record["auction"]], record["dealer"]):
        hand = sum(1 << c for c in parse_hand(FEATURES, " ".join(record["hands"][seat])))
        yield seat, hand, situation, call
