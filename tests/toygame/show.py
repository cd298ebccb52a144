"""A Duel deal for people."""
from __future__ import annotations

from .replay import replay


def show(record) -> str:
    result = replay(record)
    lines = [f"Duel, dealer seat {record['dealer']}"]
    lines += [f"seat {s}: {' '.join(h)}" for s, h in enumerate(record["hands"])]
    play = record["play"]
    lines += [f"trick {t + 1}: {play[2 * t]} {play[2 * t + 1]}" for t in range(4)]
    lines.append(f"tricks {result['tricks'][0]}-{result['tricks'][1]}")
    return "\n".join(lines)
