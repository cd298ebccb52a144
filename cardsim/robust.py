"""Answers that hold: one question replayed under every player profile, and its verdict.

``cardsim evaluate … --robust`` and ``cardsim.evaluate(..., profiles=…)`` ask the same question
(same seat, options, conditions, seed) once per profile (:mod:`cardsim.profiles`), only the
other seats' strategies changed.  Deal ``i`` and every seat's strategy randomness are the same
under every profile (common random numbers: the streams are keyed by the seed and the deal
number, never by the strategies), so two profiles' answers differ only by who plays.  When the
question gives calls that imply the callers' hands, the callers' strategies decide which deals
are kept, so a profile that changes a caller changes the deals too: that is the question asked
of those players.

The **verdict** judges the default's answer — the best option under the ``default`` profile,
``b`` — against every profile ``p``:

* ``gain`` under ``p``: ``b`` minus the best of the other options under ``p`` (the runner-up; best
  and runner-up by ``p``'s ranking, :func:`cardsim.ranking.rank`: paired comparisons on the deals
  where both options were legal, the order of ``p``'s table),
  paired on the same deals, with its 95% normal interval; in a game with a ``look`` option
  (501) also ``gain_look``: ``b`` minus ``look``.
* ``b`` is **clearly worse** under ``p`` when ``p``'s best option is another one and the 95%
  interval of ``b`` minus it lies wholly below 0.
* **holds**: ``b`` is clearly worse under no profile; otherwise it **depends on the players**,
  and ``flips_under`` names the profiles.  ``gain_min`` / ``gain_max``: the range of ``b``'s
  gain over the runner-up across the profiles (a best that holds while its gain falls from +5
  to +1 is a different answer from one that stays at +5).

The verdict's power is that of one profile's deals: with ``n`` deals per profile, a difference
smaller than about twice the interval's half-width is not seen as a flip.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardsim import profiles as P
from cardsim.ranking import rank_sums
from cardsim.stats import mean_interval

LOOK = "look"
"""The option a gain over looking is measured against (501's look at the hand)."""


def _paired(sums: dict, a: int, b: int, sign: float) -> tuple[float, float, float]:
    """Mean of option ``a`` minus option ``b`` over the deals where both were legal, with its 95%
    interval, higher is better for the seat (``sign`` turns a counting-down score round)."""
    mean, _, lo, hi = mean_interval(sign * sums["pair_s1"][a, b], sums["pair_s2"][a, b], sums["pair_n"][a, b])
    return float(mean), float(lo), float(hi)


def profile_summary(options: list[str], sums: dict, best: int, sign: float) -> dict:
    """One profile's part of the verdict from its question sums: the profile's own best option,
    the default's best ``best`` (an index into ``options``) against the runner-up and (if
    ``look`` is an option) against looking, and whether ``best`` is clearly worse than the
    profile's best.  Best and runner-up are those of the profile's ranking
    (:func:`cardsim.ranking.rank`, the order of its table): the runner-up is the first row of
    its table other than ``best`` (a ranked option if any other is ranked).  Scores, gains: the question's score units, higher is better."""
    ranking = rank_sums(sums, sign)
    own = ranking.best
    runner = ranking.first_other(best)
    out = {"best": options[own] if own >= 0 else None, "runner_up": None, "gain": np.nan, "gain_lo": np.nan,
           "gain_hi": np.nan}
    if runner is not None:
        out["runner_up"] = options[runner]
        out["gain"], out["gain_lo"], out["gain_hi"] = _paired(sums, best, runner, sign)
    look = next((j for j, o in enumerate(options) if o.lower() == LOOK), None)
    if look is not None:
        out["gain_look"], out["gain_look_lo"], out["gain_look_hi"] = (
            (0.0, 0.0, 0.0) if look == best else _paired(sums, best, look, sign))
    if own == best or own < 0:
        out["worse"], out["worse_lo"], out["worse_hi"] = 0.0, 0.0, 0.0
    else:
        out["worse"], out["worse_lo"], out["worse_hi"] = _paired(sums, best, own, sign)
    out["clearly_worse"] = bool(out["worse_hi"] < 0)
    return out


def verdict(summaries: dict[str, dict], best: str | None) -> dict:
    """The verdict over the profiles' summaries (:func:`profile_summary`, ``default`` among them).
    ``best`` None (no option ranked under the default players: too few deals) gives no verdict:
    ``best`` and ``holds`` None, nothing flips, no gains."""
    if best is None:
        return {"best": None, "holds": None, "flips_under": [], "gain_min": np.nan, "gain_max": np.nan}
    gains = [s["gain"] for s in summaries.values() if s["gain"] == s["gain"]]
    out = {"best": best, "holds": not any(s["clearly_worse"] for s in summaries.values()),
           "flips_under": [name for name, s in summaries.items() if s["clearly_worse"]],
           "gain_min": float(min(gains)) if gains else np.nan, "gain_max": float(max(gains)) if gains else np.nan}
    looks = [s["gain_look"] for s in summaries.values() if s.get("gain_look", np.nan) == s.get("gain_look", np.nan)]
    if looks:
        out["gain_look_min"], out["gain_look_max"] = float(min(looks)), float(max(looks))
    return out


@dataclass
class RobustAnswer:
    """A question's answer under every profile, and the verdict (this module's docstring).

    ``tables``: profile name -> the plain :func:`cardsim.questions.table` frame (rows best
    first); ``summaries``: profile name -> :func:`profile_summary`; ``verdict``: :func:`verdict`;
    ``profiles``: the :class:`cardsim.profiles.Profile` objects in order (``default`` first);
    ``strategies``: profile name -> the spec of every seat."""

    options: list
    tables: dict
    summaries: dict
    verdict: dict
    profiles: list
    strategies: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The JSON form: the default profile's question facts
        (:data:`cardsim.questions.ANSWER_FACTS`: game, seat, deals, seed, dealer, before, conditions,
        strategies, rules with their defaults, ...), ``"options": [...], "profiles": {NAME: {"options":
        [rows], "best", "gain", "gain_lo", "gain_hi", ...}}, "verdict": {"best", "holds",
        "flips_under", "gain_min", "gain_max"}}`` (NaN as null)."""
        def clean(v):
            if isinstance(v, dict):
                return {k: clean(x) for k, x in v.items()}
            if isinstance(v, (list, tuple)):
                return [clean(x) for x in v]
            if isinstance(v, (float, np.floating)):
                return None if v != v else float(v)
            if isinstance(v, np.integer):
                return int(v)
            if isinstance(v, np.bool_):
                return bool(v)
            return v

        profiles = {}
        for p in self.profiles:
            rows = self.tables[p.name].to_dict(orient="records")
            profiles[p.name] = dict(self.summaries[p.name], options=rows, strategies=self.strategies.get(p.name, []),
                                    doc=p.doc)
        from cardsim.questions import answer_facts

        facts = answer_facts(self.tables[self.profiles[0].name].attrs)  # the default players' question
        return clean({**facts, "options": list(self.options), "profiles": profiles, "verdict": self.verdict})

    def frame(self) -> pd.DataFrame:
        """Every profile's table in one long frame, a ``profile`` column first."""
        return pd.concat([self.tables[p.name].assign(profile=p.name) for p in self.profiles],
                         ignore_index=True)[["profile", *self.tables[self.profiles[0].name].columns]]

    def text(self, digits: int = 1) -> str:
        """The answer for people: per profile its table line by line, then the verdict."""
        f = lambda v: "" if v != v else f"{v:+.{digits}f}"  # noqa: E731
        lines = []
        for p in self.profiles:
            s = self.summaries[p.name]
            lines.append(f"profile {p.name}: {p.doc}" + (f" [{', '.join(self.strategies[p.name])}]"
                                                          if self.strategies.get(p.name) else ""))
            t = self.tables[p.name]
            for r in t.itertuples():
                lines.append(f"    {r.option:>10}  score {r.score:.{digits}f} [{r.score_lo:.{digits}f}, "
                             f"{r.score_hi:.{digits}f}]  diff {f(r.diff)} [{f(r.diff_lo)}, {f(r.diff_hi)}]"
                             + ("  not compared" if pd.isna(r.rank) else ""))
            b = self.verdict["best"]
            here = s["best"] or "none ranked (too few deals)"
            if b is None:  # nothing ranked under the default players: nothing to measure a gain of
                lines.append(f"    best here: {here}")
                continue
            lines.append(f"    best here: {here}; {b} over the runner-up ({s['runner_up']}): {f(s['gain'])} "
                         f"[{f(s['gain_lo'])}, {f(s['gain_hi'])}]"
                         + (f"; over looking: {f(s['gain_look'])} [{f(s['gain_look_lo'])}, {f(s['gain_look_hi'])}]"
                            if "gain_look" in s and b.lower() != LOOK else ""))
        v = self.verdict
        n = len(self.profiles)
        gain = (f"its gain over the runner-up ranges from {f(v['gain_min'])} to {f(v['gain_max'])} across the "
                f"{n} profiles")
        if "gain_look_min" in v and v["best"] is not None and v["best"].lower() != LOOK:
            gain += f" (over looking: {f(v['gain_look_min'])} to {f(v['gain_look_max'])})"
        if v["best"] is None:
            lines.append(f"verdict: none: no option is ranked under {self.profiles[0].name} (too few deals: 30 with "
                         f"both options legal are needed for a pair; more with -n)")
        elif v["holds"]:
            lines.append(f"verdict: {v['best']} holds: it is not clearly worse than another option under any of the "
                         f"{n} profiles; {gain}")
        else:
            flips = ", ".join(f"{name} (best there: {self.summaries[name]['best']})" for name in v["flips_under"])
            lines.append(f"verdict: {v['best']} depends on the players: clearly worse under {flips}; {gain}")
        return "\n".join(lines)


def build(question_of, game: str, seat: int, base_strategies: list[str], profiles=None, path=None):
    """The questions of a robust answer: ``[(profile, question_of(strategies))]``, ``default``
    first.  ``question_of(strategies)`` builds the plain question with every seat's spec."""
    chosen = P.select(game, profiles, path)
    return [(p, question_of(p.strategies(list(base_strategies), seat))) for p in chosen]


def answer(pairs, sums_by_profile: dict) -> RobustAnswer:
    """The :class:`RobustAnswer` from the built questions (:func:`build`) and each profile's sums."""
    from cardsim.questions import table

    profiles = [p for p, _ in pairs]
    q0 = pairs[0][1]
    options = list(q0.options)
    sign = -1.0 if q0.lower_is_better else 1.0
    tables = {p.name: table(q, sums_by_profile[p.name]) for p, q in pairs}
    best = tables[profiles[0].name].option.iloc[0]
    b = options.index(best)
    summaries = {p.name: profile_summary(options, sums_by_profile[p.name], b, sign) for p in profiles}
    # The first row of a table that ranks nothing is only the first option: no best to judge.
    judged = best if summaries[profiles[0].name]["best"] is not None else None
    return RobustAnswer(options, tables, summaries, verdict(summaries, judged), profiles,
                        {p.name: list(q.run.setup.specs) for p, q in pairs})
