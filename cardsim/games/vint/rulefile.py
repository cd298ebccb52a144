"""Vint's part of rule files (docs/rules-files.md): the auction pattern a rule applies in, its
call, and the jitted interpreter the ``rules`` strategy calls (:func:`rules_call`).

**The context** of a Vint rule is ``auction``: a pattern over the calls made so far, from the
dealer's first (docs/RULES.md §2.2), written as call tokens separated by spaces:

* ``P`` (or ``pass``) a pass; ``1S`` … ``7NT`` that bid (the record tokens, docs/RECORDS.md);
* ``*`` any one call; ``bid`` any one bid (not a pass);
* ``...`` first: any number of passes (none included) before the rest, so the pattern holds for
  every position: ``... 1NT P`` is "partner opened 1NT, the next opponent passed";
* ``opening`` alone: every call so far is a pass (an opening in any position, the same as
  ``...``); an empty pattern ``""``: nobody has called yet (the dealer's opening); ``P P``: the
  third hand's opening.

The pattern must cover the whole auction so far: after the optional passes, one token per call.
A rule's ``call`` is ``P`` or a bid.  A bid is refused when the file is read if no auction of
the pattern leaves it legal (``1NT`` after ``... 2H``, docs/RULES.md §2.2: a bid must be higher
than the standing one), and when a pattern with wildcards lets the standing bid reach it, the
rule's bid is illegal there and the base strategy makes the call instead.

**Compiled** and interpreted: :mod:`.rulekernel` (the jitted half, kept apart so that an edit
here does not invalidate the compiled engines).
"""
from __future__ import annotations

import re

import numpy as np

from cardsim.cards import CardError
from cardsim.hand_grammar import parse_hand

from .dispatch import choose_call
from .features import FEATURES
from .rulekernel import ANY_BID, ANY_CALL, base_of, rules_call  # noqa: F401 - the interpreter, here for callers
from .rules import MAX_CALL, PASS, call_denomination, call_level, parse_call, shown_calls
from .strategies import RULES

CONTEXT_KEYS = ("auction",)
"""A Vint rule's context keys (docs/rules-files.md): the auction pattern."""
STRATEGY_ID = RULES
"""The engine id of the ``rules`` strategy."""
CHARTS = ("opening", "second", "overcall", "response")
"""The report's charts ``cardsim rules from-chart`` writes as rule files (:mod:`cardsim.analysis.vint.charts`),
with the game's writer (:mod:`cardsim.rules.from_chart.vint`)."""
_DOTS = "..."
_DENOMINATIONS = ("S", "C", "D", "H", "NT")


def call_text(call: int) -> str:
    """The record token of a call number (0 -> ``P``, 12 -> ``3C``)."""
    return "P" if call == PASS else f"{call_level(call)}{_DENOMINATIONS[call_denomination(call)]}"


def read_call(text: str) -> int:
    """The call number of a rule's ``call`` (``P``/``pass`` or a bid); ValueError otherwise."""
    token = text.strip()
    if token.lower() == "pass":
        return PASS
    try:
        return parse_call(token)
    except CardError:
        raise ValueError(f"{token!r} is not a Vint call (P, or a bid 1S..7NT)") from None


def _tokens(pattern: str) -> tuple[bool, list[int]]:
    """``(dots, tokens)`` of an auction pattern; ValueError for a bad one."""
    words = pattern.split()
    if words == ["opening"]:
        return True, []
    dots = bool(words) and words[0] == _DOTS
    tokens = []
    for word in words[1:] if dots else words:
        if word == "*":
            tokens.append(ANY_CALL)
        elif word.lower() == "bid":
            tokens.append(ANY_BID)
        elif word in (_DOTS, "opening"):
            raise ValueError(f"{word!r} may only open the pattern ({'alone' if word == 'opening' else 'first'})")
        else:
            try:
                tokens.append(read_call(word))
            except ValueError:
                raise ValueError(f"{word!r} is not a pattern token (P, 1S..7NT, *, bid, or ... first)") from None
    return dots, tokens


def compile_context(values: dict) -> tuple[list[float], int, int]:
    """The compiled context of a rule's (or a test's) ``values``, the lowest standing bid its
    auctions can have (0: none), for the legality check, and its span: the pattern's tokens (an
    auction with more calls after its leading passes never matches it, :mod:`.rulekernel`).  Raises ``ValueError((message, key))``
    for a bad pattern or one no auction matches (a bid not above the standing one)."""
    pattern = values.get("auction", "")
    try:
        dots, tokens = _tokens(pattern)
    except ValueError as exc:
        raise ValueError((f"auction {pattern!r}: {exc}", "auction")) from None
    least = PASS
    for t in tokens:
        if t == ANY_BID:
            least += 1
        elif t > PASS:
            if t <= least:
                raise ValueError((f"auction {pattern!r} never happens: {call_text(t)} is not above the "
                                  f"standing bid (docs/RULES.md §2.2)", "auction"))
            least = t
    if least > MAX_CALL:
        raise ValueError((f"auction {pattern!r} never happens: too many bids", "auction"))
    return [1.0 if dots else 0.0, float(len(tokens)), *map(float, tokens)], least, len(tokens)


def _token_covers(general: int, specific: int) -> bool:
    return general == specific or general == ANY_CALL or (general == ANY_BID and specific != PASS)


def context_covers(general: dict, specific: dict) -> bool:
    """Whether every auction the pattern of ``specific`` matches is matched by that of ``general``
    (both a rule's ``values``, patterns that parse): a rule of context ``general`` placed earlier
    sees every situation of the later one (``opening`` covers ``P P``; ``... * bid`` covers
    ``1H 1S``).  Exact for these patterns: the leading passes of ``... X`` are read as the
    passes ``specific`` must then begin with."""
    gdots, gtok = _tokens(general.get("auction", ""))
    sdots, stok = _tokens(specific.get("auction", ""))
    if sdots and not gdots or len(stok) < len(gtok) or not gdots and len(stok) != len(gtok):
        return False
    head = stok[:len(stok) - len(gtok)]
    return all(t == PASS for t in head) and all(_token_covers(a, b) for a, b in zip(gtok, stok[len(head):]))


def never_legal(call: int, least: int) -> str | None:
    """Why ``call`` can never be made after an auction whose standing bid is at least ``least``,
    or None when it can."""
    if call != PASS and call <= least:
        return (f"{call_text(call)} is never legal after this auction: the standing bid is at least "
                f"{call_text(least)} (docs/RULES.md §2.2)")
    return None


# ---------------------------------------------------------------- the situation of a decision
def situation(values: dict) -> np.ndarray:
    """The calls (int64[n]) of a test's ``auction`` (record tokens separated by spaces); ValueError
    ``(message, key)`` for a bad token."""
    try:
        return np.array([read_call(w) for w in values.get("auction", "").split()], dtype=np.int64)
    except ValueError as exc:
        raise ValueError((f"auction {values.get('auction')!r}: {exc}", "auction")) from None


def legal_situation(calls: np.ndarray) -> str | None:
    """Why ``calls`` is no Vint auction in progress (a bid not above the standing one, or an
    auction already over), or None."""
    current, passes = PASS, 0
    for c in calls:
        if current == PASS and passes >= 8 or current != PASS and passes >= 12:
            return "the auction is already over (docs/RULES.md §2.2)"
        if c != PASS:
            if c <= current:
                return f"{call_text(int(c))} is not above {call_text(int(current))} (docs/RULES.md §2.2)"
            current, passes = c, 0
        else:
            passes += 1
    return None


def view(calls: np.ndarray) -> dict:
    """The view the engine gives the seat to call after ``calls`` (dealer = seat 0, no score):
    ``seat``, ``current``, ``current_bidder``, ``shown``."""
    seat = len(calls) % 4
    current, bidder = PASS, -1
    for i, c in enumerate(calls):
        if c != PASS:
            current, bidder = int(c), i % 4
    return {"seat": seat, "current": current, "current_bidder": bidder,
            "shown": int(shown_calls(calls, len(calls), seat)) if len(calls) else 0}


def choose(ids: np.ndarray, params: np.ndarray, hand: int, calls: np.ndarray) -> int:
    """The call the seat to speak after ``calls`` makes with ``hand`` (uint64) under the strategy
    ``ids``/``params`` (int64[4], float64[4, N_PARAMS]; dealer seat 0, no score below the line):
    the engine's own :func:`.dispatch.choose_call`, base included."""
    v = view(calls)
    seat = v["seat"]
    padded = np.zeros(max(len(calls), 1), dtype=np.int64)
    padded[:len(calls)] = calls
    streams = np.zeros((5, 1), dtype=np.uint64)
    streams[:, 0] = np.arange(1, 6, dtype=np.uint64)
    return int(_choose(ids[seat], params, streams, seat, np.uint64(hand), padded, len(calls), v["current"],
                       v["current_bidder"], np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), v["shown"],
                       choose_call))


def _choose(strategy, params, streams, seat, hand, calls, ncalls, current, bidder, below, games, shown, f):
    return f(strategy, params, streams, seat, hand, calls, ncalls, current, bidder, below, games, shown)


# ---------------------------------------------------------------- the plain-Python reading (slow twin)
_BID = r"[1-7](?:S|C|D|H|NT)"


def context_regex(values: dict) -> re.Pattern:
    """The auction pattern of ``values`` as a regular expression over the auction's text (record
    tokens, each followed by one space): the slow twin's own reading, independent of the
    compiled tokens."""
    words = values.get("auction", "").split()
    if words == ["opening"]:
        words = [_DOTS]
    parts = []
    for i, word in enumerate(words):
        if word == _DOTS and i == 0:
            parts.append("(?:P )*")
        elif word == "*":
            parts.append(rf"(?:P|{_BID}) ")
        elif word.lower() == "bid":
            parts.append(rf"{_BID} ")
        elif word.lower() == "pass":
            parts.append("P ")
        else:
            parts.append(re.escape(word.upper()) + " ")
    return re.compile("".join(parts) + r"\Z")


def context_holds(values: dict, calls) -> bool:
    """Whether the auction ``calls`` (call numbers) matches the rule's pattern: plain Python."""
    text = "".join(call_text(int(c)) + " " for c in calls)
    return context_regex(values).match(text) is not None


def legal(call: int, calls) -> bool:
    """Whether ``call`` may follow ``calls`` (docs/RULES.md §2.2): a pass, or a bid above every bid
    so far."""
    return call == PASS or all(call > c for c in calls)


def given_calls(calls, dealer: int, seats: int = 4, scores=None) -> list[tuple[int, np.ndarray, int, bool]]:
    """Each call of an auction (``calls``: call numbers from the dealer's first, docs/RULES.md §2.2)
    as ``(seat, situation, call, sees_hand)``: the seat that makes it, the calls before it
    (int64[i]) as :func:`context_holds` reads them, and True (every Vint call sees the hand;
    ``seats``/``scores`` are not read).  What :mod:`cardsim.rules.implied` asks of a question's
    given calls."""
    calls = [int(c) for c in calls]
    return [((int(dealer) + i) % 4, np.array(calls[:i], dtype=np.int64), c, True) for i, c in enumerate(calls)]


def decisions(record: dict):
    """Every call of a deal record (docs/RECORDS.md) as ``(seat, hand bit set, calls before it,
    call)`` (:func:`given_calls`): the auction is spoken from the dealer clockwise (docs/RULES.md §2.2)."""
    for seat, before, call, _ in given_calls([read_call(t) for t in record["auction"]], record["dealer"]):
        hand = sum(1 << c for c in parse_hand(FEATURES, " ".join(record["hands"][seat])))
        yield seat, hand, before, call
