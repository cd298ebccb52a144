"""Duel questions about a hand: ``lead:CARD`` — the first leader leads that card — or
``strategy`` (the seat's own strategy leads).  The score of an option is the seat's tricks."""
from __future__ import annotations

import numpy as np

from cardsim.games.base import OptionError, Setup
from cardsim.games.forced import F_SEAT
from cardsim.text import quote

from . import engine
from .features import FEATURES
from .records import trace_record

LOWER_IS_BETTER = False


def parse_option(text, seat: int, setup: Setup, auction=(), dealer=None) -> np.ndarray:
    """The forced vector (int64[engine.F_LEN]; ``[engine.F_LEAD]`` the forced lead, -1 none) of
    ``lead:CARD`` or ``strategy``."""
    if auction:
        raise OptionError("Duel has no auction: give no calls")
    t = str(text).strip()
    if t.lower() == "strategy":
        return engine.NO_FORCE.copy()
    kind, colon, card = t.partition(":")
    if kind.lower() != "lead" or not colon:
        raise OptionError(f"{quote(text)} is not a Duel option (lead:CARD such as lead:AS, or strategy)")
    try:
        lead = FEATURES.parse_card(card.strip())
    except ValueError as exc:
        raise OptionError(f"option {quote(text)}: {exc}") from None
    forced = engine.NO_FORCE.copy()
    forced[F_SEAT] = seat
    forced[engine.F_LEAD] = lead
    return forced


def declares(forced) -> bool:
    return False


def parse_before(before, setup: Setup):
    if before is not None:
        raise OptionError("Duel deals have no score before them")
    return None


def play_given(seed, start, dealt, setup: Setup, forced, state):
    count = len(dealt.dealers)
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    ok = np.zeros(count, dtype=np.bool_)
    engine.play_given(np.asarray(dealt.keys, dtype=np.uint64), np.int64(start),
                      np.asarray(dealt.dealers, dtype=np.int64), np.asarray(dealt.hands, dtype=np.uint64),
                      setup.strategy_ids, setup.params, np.asarray(forced, dtype=np.int64), rows, ok)
    return rows, ok


def outcome(rows, seat: int, state=None):
    declared = np.zeros(len(rows), dtype=bool)
    return declared, declared, rows[f"tricks_{seat}"].astype(np.float64)


def trace_given(seed, deal, dealt, setup: Setup, forced, state) -> dict:
    return trace_record(int(dealt.keys[0]), setup, int(dealt.dealers[0]), np.asarray(dealt.hands[0][:2], dtype=np.uint64),
                        int(forced[engine.F_LEAD]))


def auto_options(auction, seat: int, setup: Setup, dealer=None) -> list[str]:
    return ["lead:" + FEATURES.card_str(int(c)) for c in FEATURES.base_deck]
