"""A Five Hundred record for people: hands, kitty, auction, discard, tricks, score."""
from __future__ import annotations

from cardsim.games.g500.constants import hand_str, parse_card
from cardsim.games.g500.replay import parse_card as slow_card, power, replay, suit_of

SEAT_NAMES = ("N(0)", "E(1)", "S(2)", "W(3)")


def _hand(tokens) -> str:
    h = 0
    for t in tokens:
        h |= 1 << parse_card(t)
    return hand_str(h)


def show(record: dict) -> str:
    """Text picture of one record; validates it first (raises RecordError like replay)."""
    result = replay(record)
    dealer = record["dealer"]
    rules = record.get("rules") or {}
    lines = [f"Five Hundred  dealer {SEAT_NAMES[dealer]}  scoring {rules.get('scoring', 'quebec')}"
             f"  target {rules.get('target', 1000)}  (teams: 0 = seats 0+2, 1 = seats 1+3)"]
    before = (record.get("before") or {}).get("scores", [0, 0])
    lines.append(f"scores before: team 0 {before[0]}, team 1 {before[1]}")  # "-900 - 0" read as a sum
    for s in range(4):
        lines.append(f"  {SEAT_NAMES[s]:5} {_hand(record['hands'][s])}")
    lines.append(f"  kitty {_hand(record['talon'])}")
    calls = []
    seat = (dealer + 1) % 4
    passed = set()
    for tok in record["auction"]:
        while seat in passed:
            seat = (seat + 1) % 4
        if tok.strip().upper() == "P":
            passed.add(seat)
        calls.append(f"{SEAT_NAMES[seat]} {tok.upper()}")
        seat = (seat + 1) % 4
    lines.append("auction: " + ", ".join(calls))
    if result["contract"] is None:
        lines.append("all passed: thrown in, no score; the deal passes left")
        return "\n".join(lines)
    decl = result["declarer"]
    lines.append(f"contract {result['contract']} ({result['value']}) by {SEAT_NAMES[decl]}")
    lines.append(f"discard: {' '.join(record['discard'])}")
    play = record["play"]
    trump = result["contract"].lstrip("0123456789")
    leader = decl
    for t in range(10):
        cards = play[4 * t:4 * t + 4]
        first = cards[0].split("=")
        led = suit_of(slow_card(first[0], "play", 4 * t), trump)
        if led is None:
            led = first[1].upper()
        seats = [(leader + j) % 4 for j in range(4)]
        powers = [power(slow_card(c.split("=")[0], "play", 0), trump, led) for c in cards]
        w = seats[powers.index(max(powers))]
        shown = " ".join(f"{'>' if j == 0 else ' '}{SEAT_NAMES[s]} {c:5}" for j, (s, c) in enumerate(zip(seats, cards)))
        lines.append(f"  trick {t + 1:2}: {shown}  won by {SEAT_NAMES[w]}")
        leader = w
    lines.append(f"tricks: team 0 {result['tricks'][0]}, team 1 {result['tricks'][1]}; "
                 f"{'made' if result['made'] else 'failed'}")
    lines.append(f"delta: {result['delta'][0]:+d} / {result['delta'][1]:+d}; scores after: "
                 f"{result['after']['scores'][0]} - {result['after']['scores'][1]}"
                 + (f"; team {result['winner']} wins the game" if result["game_over"] else ""))
    return "\n".join(lines)
