"""Duel's slow twin: plain Python, independent of the engine, from the rules in :mod:`.rules`'s
docstring.  ``replay(record) -> result``; raises RecordError for anything wrong, never anything else."""
from __future__ import annotations

from cardsim.games.base import RecordError
from cardsim.games.source import check_source

RULE = "tests/toygame/rules.py"
DECK = [r + s for s in "SH" for r in "JQKA"]
ORDER = "JQKA"


def _cards(value, field, size):
    if not isinstance(value, list) or len(value) != size or not all(isinstance(c, str) for c in value):
        raise RecordError(f"must be a list of {size} card tokens", field=field, rule=RULE)
    for c in value:
        if c not in DECK:
            raise RecordError(f"unknown card {c!r}", field=field, rule=RULE)
    return list(value)


def replay(record) -> dict:
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("game") != "duel":
        raise RecordError("game must be \"duel\"", field="game")
    if record.get("seats", 2) != 2 or type(record.get("seats", 2)) is not int:
        raise RecordError("Duel has 2 seats", field="seats")
    dealer = record.get("dealer")
    if type(dealer) is not int or dealer not in (0, 1):
        raise RecordError("dealer must be 0 or 1", field="dealer")
    check_source(record)
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise RecordError("two hands of four cards", field="hands", rule=RULE)
    held = [set(_cards(h, "hands", 4)) for h in hands]
    if len(held[0] | held[1]) != 8:
        raise RecordError("a card is dealt twice", field="hands", rule=RULE)
    play = record.get("play")
    if isinstance(play, list) and len(play) != 8:
        # name the action, as the real games do: the first card missing, or the first one too many
        what = "a card is missing" if len(play) < 8 else "a card after the last trick"
        raise RecordError(f"{what}: a deal plays 8 cards", field="play", index=min(len(play), 8), rule=RULE)
    play = _cards(play, "play", 8)
    leader, tricks = (dealer + 1) % 2, [0, 0]
    for t in range(4):
        lead, follow = play[2 * t], play[2 * t + 1]
        follower = 1 - leader
        for k, (seat, card) in enumerate(((leader, lead), (follower, follow))):
            if card not in held[seat]:
                raise RecordError(f"seat {seat} does not hold {card}", field="play", index=2 * t + k, rule=RULE)
        if follow[1] != lead[1] and any(c[1] == lead[1] for c in held[follower]):
            raise RecordError(f"seat {follower} must follow suit", field="play", index=2 * t + 1, rule=RULE)
        held[leader].discard(lead)
        held[follower].discard(follow)
        if follow[1] == lead[1] and ORDER.index(follow[0]) > ORDER.index(lead[0]):
            leader = follower
        tricks[leader] += 1
    winner = 0 if tricks[0] > tricks[1] else 1 if tricks[1] > tricks[0] else None
    return {"game": "duel", "tricks": tricks, "winner": winner}
