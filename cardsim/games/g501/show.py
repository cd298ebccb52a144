"""A 501 deal for people: hands, talon, auction, contract, tricks (leader marked, winner), score."""
from __future__ import annotations

from cardsim.games.base import RecordError
from cardsim.games.g501.replay import POINTS, RANK_ORDER, card_token, seat_order, beats_card, replay

_SUIT_SHOW = "HDCS"


def _hand(cards) -> str:
    parts = []
    for s in _SUIT_SHOW:
        rs = sorted((c[0] for c in cards if c[1] == s), key=RANK_ORDER.index, reverse=True)
        parts.append(s + " " + ("".join(rs) or "-"))
    return "  ".join(parts)


def show(record) -> str:
    """Text rendering of a 501 record (validated by :func:`replay` first; raises RecordError)."""
    result = replay(record)
    seats, dealer = record["seats"], record["dealer"]
    lines = [f"501, {seats} seats, dealer {dealer}" + (" (sits out)" if seats == 4 else "")]
    before = (record.get("before") or {}).get("scores", [501] * seats)
    for s in range(seats):
        cards = [card_token(c, "hands") for c in record["hands"][s]]
        pts = sum(POINTS[c[0]] for c in cards)
        lines.append(f"  seat {s} [{before[s]:>4}]  {_hand(cards) if cards else '(sits out)'}  ({pts} pts)")
    talon = [card_token(c, "talon") for c in record["talon"]]
    lines.append(f"  talon  {' '.join(talon)}  ({sum(POINTS[c[0]] for c in talon)} pts)")
    order = seat_order(dealer, seats)
    calls, turn, passed, i = record["auction"], 0, [False] * 3, 0
    shown = []
    while i < len(calls):
        pos = turn % 3
        turn += 1
        if passed[pos]:
            continue
        tok = calls[i].strip().upper()
        if tok in ("P", "PASS"):
            passed[pos] = True
        shown.append(f"{order[pos]}:{tok}")
        i += 1
    lines.append("  auction " + (" ".join(shown) or "-"))
    if result["declarer"] is None:
        lines.append("  all passed: void deal")
    else:
        d = result["declarer"]
        blind = " blind" if result["blind"] else ""
        if result["abandoned"]:
            lines.append(f"  seat {d} wins at {result['contract']}{blind} and abandons")
        else:
            give = record["contract"]["give"]
            gifts = ", ".join(f"{card_token(v, 'contract')} to {k}" for k, v in sorted(give.items()))
            lines.append(f"  seat {d} wins at {result['contract']}{blind}; trump {result['trump']}, "
                         f"target {result['target']}; gives {gifts}")
            trump = result["trump"]
            nxt = {order[j]: order[(j + 1) % 3] for j in range(3)}
            leader = order[0]
            plays = record["play"]
            for t in range(8):
                trick = plays[3 * t:3 * t + 3]
                cards = [card_token(c.strip().rstrip("+"), "play") for c in trick]
                best = 0
                for j in (1, 2):
                    if beats_card(cards[j], cards[best], trump):
                        best = j
                seats_ = [leader, nxt[leader], nxt[nxt[leader]]]
                txt = "  ".join(f"{'>' if j == 0 else ' '}{seats_[j]}:{trick[j].strip().upper():<3}" for j in range(3))
                winner = seats_[best]
                lines.append(f"  trick {t + 1}: {txt}  -> {winner} ({sum(POINTS[c[0]] for c in cards)})")
                leader = winner
    lines.append("  cards    " + " ".join(f"{x:>5}" for x in result["cards"]))
    lines.append("  marriages" + " ".join(f"{x:>5}" for x in result["marriages"]))
    lines.append("  delta    " + " ".join(f"{x:>+5}" for x in result["delta"]))
    lines.append("  scores   " + " ".join(f"{x:>5}" for x in result["after"]["scores"]))
    if result["made"] is not None:
        lines.append(f"  contract {'made' if result['made'] else 'failed'}")
    if result["game_over"]:
        lines.append(f"  game over; winner(s): {', '.join(map(str, result['winners']))}")
    return "\n".join(lines)


__all__ = ["show", "RecordError"]
