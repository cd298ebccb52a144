"""A Vint deal for people: hands, auction, tricks and score from a record (docs/RECORDS.md)."""
from __future__ import annotations

from cardsim.cards import hand_of, hand_str, parse_card

from .replay import RANKS, play_tricks, read_call, replay, run_auction

TEAM = ("seats 0+2", "seats 1+3")


def show(record: dict) -> str:
    """Readable text of a Vint record; the record is replayed first, so it must be valid."""
    result = replay(record)
    dealer = record["dealer"]
    lines = [f"Vint deal — dealer: seat {dealer}"]
    for seat, cards in enumerate(record["hands"]):
        h = hand_of(parse_card(c, RANKS) for c in cards)
        lines.append(f"  seat {seat}: {hand_str(h, RANKS)}")
    lines.append("Auction (dealer first): " + " ".join(
        "P" if read_call(c, i) is None else str(c).upper() for i, c in enumerate(record["auction"])))
    if result["contract"] is None:
        lines.append("Nobody bid: the deal is void.")
        return "\n".join(lines)
    declarer, (level, denomination) = run_auction(record["auction"], dealer)
    lines.append(f"Contract: {result['contract']} by seat {declarer} (needs {level + 6} tricks)")
    hands = [set(parse_card(c, RANKS) for c in cards) for cards in record["hands"]]
    winners = play_tricks(record["play"], hands, declarer, denomination)
    leader = (declarer + 1) % 4
    for t in range(13):
        cards = [str(c).upper() for c in record["play"][4 * t: 4 * t + 4]]
        lines.append(f"  trick {t + 1:2d}: seat {leader} leads  {' '.join(cards):<12}  won by seat {winners[t]}")
        leader = winners[t]
    lines.append(f"Tricks: {result['tricks'][0]} – {result['tricks'][1]}  "
                 f"({'made' if result['tricks'][declarer % 2] >= level + 6 else 'failed'})")
    for team in (0, 1):
        items = ", ".join(f"{k} {v[team]}" for k, v in result["bonuses"].items() if v[team])
        lines.append(f"  {TEAM[team]}: below {result['below'][team]}, above {result['above'][team]}"
                     f"{' (' + items + ')' if items else ''}, total {result['total'][team]}")
    if result["game_won_by"] is not None:
        lines.append(f"Game to {TEAM[result['game_won_by']]} at trick {result['crossing_trick']}.")
    if result["rubber_won_by"] is not None:
        lines.append(f"Rubber to {TEAM[result['rubber_won_by']]}.")
    return "\n".join(lines)
