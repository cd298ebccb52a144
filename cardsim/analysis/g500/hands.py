"""Five Hundred's chart cells for :mod:`cardsim.analysis.hand_classes`: the bid guide's classes
(:mod:`cardsim.analysis.g500.guide`), their context (the trump suit considered and the scoring)
and the classification of a hand by the cells' classes."""
from __future__ import annotations

from cardsim.analysis.g500.guide import GUIDE_SUIT, Holding, SCORINGS, class_values, guide_classes
from cardsim.analysis.hand_classes import ChartCell, bad_context
from cardsim.cards import suit_letters
from cardsim.names import DENOMINATIONS

GAME = "500"
HAND_SIZE = 10
"""Cards in a hand of the charts."""
CONTEXT_KEYS = ("trump", "scoring")
"""The keys of :func:`cardsim.analysis.hand_classes.classify`'s ``context``."""
NO_CARDS = False
"""Whether a hand of no cards is a question (it is not: the guide reads the hand)."""
TRUMPS = DENOMINATIONS


def _none(v):
    return None if v is None or v != v or v == "" else v


def g500_key(denom, trumps, top, side_aces, jokers, aces, scoring) -> str:
    vals = [denom, trumps, top, side_aces, jokers, aces, scoring]
    return "|".join("" if _none(v) is None else str(int(v)) if isinstance(v, float) else str(v) for v in vals)


def g500_holding(denom: str, trumps, top, side_aces, jokers, aces):
    """The :class:`cardsim.analysis.g500.guide.Holding` of a bids row's class columns in ``denom``."""
    if denom == "NT":
        return Holding("NT", jokers=int(jokers), aces=int(aces))
    label = str(trumps)
    side = _none(side_aces)
    return Holding(denom, int(label.rstrip("+")), int(top), None if side is None else int(side), plus=label.endswith("+"))


def g500_cells(rows) -> list[ChartCell]:
    """The cells of ``g500_guide_bids`` rows, one per class, scoring and trump suit considered: a
    hearts row stands for every suit (the guide's symmetry, module docstring of cardsim.analysis.g500.guide), so it
    gives a cell for each of S C D H with the condition written in that suit (``top_S=2, …``); a
    spades row (the symmetry check) a cell for spades; a no-trump row a cell for NT."""
    out = []
    for r in rows.itertuples(index=False):
        key = g500_key(r.denom, r.trumps, r.top, r.side_aces, r.jokers, r.aces, r.scoring)
        suits = ["NT"] if r.denom == "NT" else list("SCDH") if r.denom == GUIDE_SUIT else [r.denom]
        for trump in suits:
            h = g500_holding(trump, r.trumps, r.top, r.side_aces, r.jokers, r.aces)
            out.append(ChartCell("500", key, {"trump": trump, "scoring": r.scoring}, h.where(), 0, None, (),
                                 tuple(h.options()), {"row_denom": r.denom}))
    return out


cells = g500_cells


def studied_cells() -> list[ChartCell]:
    """Every class of the full report's guide under both scorings."""
    import pandas as pd  # local: pandas is slow to import; only this function needs it

    rows = [dict(class_values(h), scoring=s) for h in guide_classes(quick=False) for s in SCORINGS]
    return g500_cells(pd.DataFrame(rows))


def check_context(context: dict, known: list[ChartCell]) -> dict:
    """The trump (any case, suit symbols) and the scoring (any case) made canonical;
    OptionError for a trump that is not S C D H NT or a scoring none of ``known`` has."""
    trump = context["trump"]
    t = suit_letters(trump).strip().upper() if isinstance(trump, str) else None
    if t not in TRUMPS:
        raise bad_context(GAME, "trump", trump, "one of S, C, D, H, NT (or ♠ ♣ ♦ ♥)")
    scorings = list(dict.fromkeys(str(c.context["scoring"]) for c in known))
    sc = context["scoring"]
    s_ = sc.strip().lower() if isinstance(sc, str) else None
    if s_ not in scorings:
        raise bad_context(GAME, "scoring", sc, f"one of {', '.join(scorings)}")
    return {"trump": t, "scoring": s_}

