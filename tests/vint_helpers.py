"""Helpers for the Vint tests: hands from tokens, scoring through both implementations."""
import numpy as np

from cardsim.cards import parse_card
from cardsim.games.vint import replay as py
from cardsim.games.vint import rules

R = rules.RANKS


def cards(tokens):
    return {parse_card(t, R) for t in tokens.split()}


def hand_bits(text: str) -> int:
    """A hand in suit groups (``"S:KQJ72 H:84 D:Q953 C:T"``) as a bit set of card indices."""
    out = 0
    for group in text.split():
        suit, ranks = group.split(":")
        for r in ranks:
            out |= 1 << parse_card(r + suit, R)
    return out


def score_both(level, denomination, declarer, winners, hands, below=(0, 0), games=(0, 0)):
    """Score with the jitted rules and the plain-Python twin; assert they agree; return the dict."""
    out = np.zeros(rules.N_SCORE, dtype=np.int64)
    bits = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
    rules.score_deal(level, denomination, declarer, np.array(winners, dtype=np.int64), bits,
                     np.array(below, dtype=np.int64), np.array(games, dtype=np.int64), out)
    result = py.score(level, denomination, declarer, list(winners), [set(h) for h in hands], list(below),
                      list(games))
    pair = lambda i: [int(out[i]), int(out[i + 1])]  # noqa: E731
    assert pair(rules.S_TOTAL) == result["total"]
    assert pair(rules.S_TRICKS) == result["tricks"]
    assert pair(rules.S_BELOW) == result["below"]
    for name, idx in [("slam", rules.S_SLAM), ("bid_slam", rules.S_BID_SLAM), ("honours", rules.S_HONOURS),
                      ("aces", rules.S_ACES), ("penalty", rules.S_PENALTY), ("game", rules.S_GAME)]:
        assert pair(idx) == result["bonuses"][name], name
    assert pair(rules.S_AFTER_BELOW) == result["after"]["below"]
    assert pair(rules.S_AFTER_GAMES) == result["after"]["games"]
    assert (out[rules.S_CROSSING] or None) == result["crossing_trick"]
    return result


def winners_for(team0_tricks, order="first"):
    """13 winning seats: team 0 (seat 0) wins ``team0_tricks`` of them, first or last."""
    w0 = [0] * team0_tricks
    w1 = [1] * (13 - team0_tricks)
    return w0 + w1 if order == "first" else w1 + w0
