"""The answer table of a question: one row per option, best first, from the sums its deals left.

:func:`table` turns a question's merged sums (:func:`cardsim.questions.run_question`) into the
answer :func:`cardsim.evaluate` returns: each option's legal share, made rate and score with their
intervals, ranked by paired comparisons (:func:`cardsim.ranking.rank_sums`), and the question's
facts in ``attrs`` (:data:`ANSWER_FACTS` of them go into JSON answers).  It sits below both
:mod:`cardsim.questions`, which asks and plays the questions, and :mod:`cardsim.robust`, which
builds one table per player profile, so neither imports the other to make a table.  A question
here is a :class:`cardsim.questions.Question` (only its fields and properties are read).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.ranking import rank_sums
from cardsim.stats import mean_interval, wilson

COLUMNS = ["option", "rank", "n", "legal", "made", "made_lo", "made_hi", "score", "score_lo", "score_hi", "diff",
           "diff_lo", "diff_hi"]


def calls_dealt(q) -> list[dict] | None:
    """How the hands of the rule-file callers of ``q``'s implied calls were dealt, one entry per
    such call (:mod:`cardsim.rules.implied`): ``seat``, ``call``, ``class`` (the class the hand was
    dealt from before the auction was tested, or None: dealt at random, plain rejection) and
    ``how`` (in words: which rules, or why not); None when no caller of an implied call is a rule
    file."""
    if not q.sampler:
        return None
    return [{"seat": n.seat if n.seat >= 0 else None, "call": n.call or None,
             "class": None if n.cls is None else n.cls.text(q.game), "how": n.how} for n in q.sampler]


def score_meaning(q) -> str:
    """What ``score`` measures, in words, for the header of an answer (higher is always better)."""
    meanings = q.spec.forcing.outcome_meanings or {}
    if q.outcome in meanings:
        return meanings[q.outcome]
    if getattr(q.before, "play_out", False):
        return "your share of the game's win (0-1: the game played on to its end by the strategies)"
    if q.lower_is_better:
        note = ("; measured in this deal only, not the game's win: --outcome game asks about the game"
                if getattr(q.before, "given", False) else "")
        return ("score points you gain toward 0 in the deal: your score change with its sign turned, so higher is "
                f"better{note}")
    return "your side's score points minus the other side's in the deal"


def table(q, sums: dict) -> pd.DataFrame:
    """The answer: one row per option, best first (columns :data:`COLUMNS`).

    "Best first" is :func:`cardsim.ranking.rank`'s order (docs/statistics.md, "Which option is
    best"): by paired comparisons on the deals where both options were legal, not by each one's
    ``score`` on its own deals; ``rank`` is 1 for the best, and missing (``<NA>``) for an option
    legal on too few deals, alone or together with another, to be compared (listed last, in option order,
    with the reason in ``attrs["not_compared"]``: option -> words).  ``diff`` is against the
    first row.

    One sign for "better" in every game and outcome: ``score`` and ``diff`` are higher-is-better
    for the seat.  Where the game's own measure counts down (a 501 deal's score change), it is
    turned round (``attrs["sign_turned"]``), and ``attrs["score_meaning"]`` says so in words."""
    n = sums["deals"]
    sign = -1.0 if q.lower_is_better else 1.0
    mean, _, lo, hi = mean_interval(sign * sums["s1"], sums["s2"], sums["legal"])
    mlo, mhi = (np.clip(x, 0.0, 1.0) for x in wilson(sums["made"], sums["declared"]))
    with np.errstate(invalid="ignore", divide="ignore"):
        made = np.where(sums["declared"] > 0, sums["made"] / sums["declared"], np.nan)
    declares = np.array([bool(q.spec.forcing.declares(f)) for f in q.forced])
    made, mlo, mhi = (np.where(declares, x, np.nan) for x in (made, mlo, mhi))
    ranking = rank_sums(sums, sign)
    best = ranking.best
    k = len(q.options)
    if best >= 0:
        dmean, _, dlo, dhi = mean_interval(sign * sums["pair_s1"][:, best], sums["pair_s2"][:, best],
                                           sums["pair_n"][:, best])
    else:
        dmean = dlo = dhi = np.full(k, np.nan)
    df = pd.DataFrame({"option": list(q.options), "rank": pd.array(ranking.position(), dtype="Int64"),
                       "n": np.full(k, n, dtype=np.int64),
                       "legal": sums["legal"] / n, "made": made, "made_lo": mlo, "made_hi": mhi,
                       "score": mean, "score_lo": lo, "score_hi": hi, "diff": dmean, "diff_lo": dlo,
                       "diff_hi": dhi})
    if best >= 0:
        df.loc[best, ["diff", "diff_lo", "diff_hi"]] = 0.0
    df[["diff", "diff_lo", "diff_hi"]] += 0.0  # a tie prints as 0.0, not -0.0
    df = df.iloc[ranking.rows].reset_index(drop=True)
    df.attrs.update({"game": q.game, "seat": q.seat, "seed": q.run.seed, "deals": n, "conditions": q.compiled.text,
                     "acceptance": n / sums["attempts"], "calls": list(q.calls),
                     "calls_acceptance": n / sums["tested"] if q.implies else None, "reach": q.reach or None,
                     "calls_dealt": calls_dealt(q),
                     "dealer": None if q.compiled.dealer is None or q.compiled.dealer < 0 else int(q.compiled.dealer),
                     "before": None if q.before_given is None else list(q.before_given),
                     "strategies": list(q.run.setup.specs),
                     **_rules_attrs(q), "lower_is_better": False, "sign_turned": q.lower_is_better,
                     "score_meaning": score_meaning(q),
                     "outcome": q.outcome,
                     "not_compared": {q.options[j]: ranking.why(j, q.options) for j in ranking.not_compared}})
    return df


ANSWER_FACTS = ("game", "seat", "deals", "seed", "dealer", "before", "conditions", "acceptance", "calls",
                "calls_acceptance", "calls_dealt", "reach", "strategies", "rules", "rules_text", "outcome", "score_meaning",
                "not_compared")
"""The question's facts an answer gives beside its rows in JSON (``evaluate --format json``, the
robust answer's ``to_dict``), read from the table's ``attrs``."""


def answer_facts(attrs: dict) -> dict:
    """:data:`ANSWER_FACTS` from a :func:`table`'s ``attrs``, as JSON takes them (missing: None)."""
    out = {k: attrs.get(k) for k in ANSWER_FACTS}
    if out["acceptance"] is not None:
        out["acceptance"] = float(out["acceptance"])
    return out


def _rules_attrs(q) -> dict:
    """``rules`` (every rule option in force, defaults included, as JSON values) and ``rules_text``
    (them in one line, with the game's section of docs/RULES.md) for an answer's ``attrs``."""
    force = q.spec.rules_in_force(q.run.setup.rules)
    return {"rules": force["options"], "rules_text": force["text"]}
