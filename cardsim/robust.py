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
``b`` — against every profile ``p`` that acts on the question:

* **acts**: a profile whose sums equal the default's exactly (every option's score on every deal
  the same: it changes nothing the question's decisions read, e.g. a bidding-only profile on a
  forced contract) does not act; it is listed in ``not_acting`` and is no evidence either way.
* **rivals** under ``p``: every option ``c`` other than ``b`` (:func:`rivals`), ``b`` minus ``c``
  paired on the deals where both were legal, with its 95% normal interval; ``c`` is **clearly
  better** than ``b`` under ``p`` when that interval lies wholly below 0.  Each comparison is at
  95% on its own (no correction for the number of options and profiles).
* **flip size** ``g``: the default players' gap, ``b`` minus their runner-up; the **power** of a
  comparison is the chance that its interval lies wholly below 0 if ``c`` were better than ``b``
  by ``g`` (:func:`power`: ``Φ(|g| / se − 1.96)``, ``se`` the comparison's standard error), and
  the answer's power is the lowest over the acting profiles and rivals.
* the verdict (:func:`judge`): **depends on the players** when some rival is clearly better under
  some profile (``flips``: the profile, the option and its gain over ``b``); else **holds** when
  the power is at least :data:`POWER` (80%); else **not decidable at this size** (a flip the
  size of the default's own gap could go unseen: :func:`deals_for_power` says how many deals a
  profile would need).  ``holds`` is True, False (depends) or None (not decidable, or nothing to
  judge); ``flips_under`` names the profiles of the flips; ``best_under`` each profile's own best
  option; ``gain_min`` / ``gain_max``: the range of ``b``'s gain over the runner-up across the
  profiles (a best that holds while its gain falls from +5 to +1 is a different answer from one
  that stays at +5).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardsim import profiles as P
from cardsim.question_table import answer_facts, table
from cardsim.ranking import rank_sums
from cardsim.stats import mean_interval
from scipy.stats import norm

LOOK = "look"
"""The option a gain over looking is measured against (501's look at the hand)."""
LEVEL = 0.95
"""Each comparison's two-sided interval level (a rival is clearly better when it lies below 0)."""
POWER = 0.80
"""The power a verdict "holds" needs: the chance of seeing a flip the size of the default's gap."""
Z_LEVEL = float(norm.ppf(0.5 + LEVEL / 2))
Z_POWER = float(norm.ppf(POWER))
HOLDS, DEPENDS, UNDECIDED = "holds", "depends on the players", "not decidable at this size"
"""The three verdicts (:func:`judge`)."""


def power(flip: float, se: float) -> float:
    """The chance that a paired comparison with standard error ``se`` (score units) calls a rival
    clearly better (95% interval of ``b`` minus it wholly below 0) when the rival is in truth
    better by ``|flip|``: ``Φ(|flip| / se − 1.96)`` (the other tail neglected).  NaN when ``flip``
    or ``se`` is NaN; 1.0 when ``se`` is 0 and ``flip`` is not."""
    flip, se = abs(float(flip)), float(se)
    if flip != flip or se != se:
        return float("nan")
    if se == 0:
        return 1.0 if flip > 0 else 0.0
    return float(norm.cdf(flip / se - Z_LEVEL))


def deals_for_power(flip: float, sd: float, target: float = POWER) -> float:
    """Deals a comparison needs to see a flip of ``|flip|`` with chance ``target``, given the
    per-deal standard deviation ``sd`` of the paired difference: ``((1.96 + z_target) sd /
    |flip|)²``, rounded up (float: inf for a zero flip, NaN when unknown)."""
    flip, sd = abs(float(flip)), float(sd)
    if flip != flip or sd != sd:
        return float("nan")
    if flip == 0:
        return float("inf")
    return float(np.ceil(((Z_LEVEL + float(norm.ppf(target))) * sd / flip) ** 2))


def rivals(options: list[str], sums: dict, best: int, sign: float = 1.0, among=None) -> list[dict]:
    """``best`` (an index into ``options``) against every other option of ``among`` (indices,
    default all): one dict per rival, in option order, with ``option``, ``gain`` (best minus the
    rival over the deals where both were legal, higher is better for the seat), ``gain_lo``,
    ``gain_hi`` (95% interval), ``se``, ``n`` (deals compared) and ``clearly_better`` (the rival:
    the interval lies wholly below 0).  A rival never legal with ``best`` has NaN numbers."""
    out = []
    for j in (range(len(options)) if among is None else among):
        if j == best:
            continue
        mean, se, lo, hi = mean_interval(sign * sums["pair_s1"][best, j], sums["pair_s2"][best, j],
                                         sums["pair_n"][best, j], LEVEL)
        out.append({"option": options[j], "gain": float(mean), "gain_lo": float(lo), "gain_hi": float(hi),
                    "se": float(se), "n": int(sums["pair_n"][best, j]), "clearly_better": bool(hi < 0)})
    return out


def same_sums(a: dict, b: dict) -> bool:
    """Whether two questions' sums are equal in every key both have (a profile that does not act)."""
    keys = set(a) & set(b)
    return bool(keys) and all(np.array_equal(np.asarray(a[k]), np.asarray(b[k])) for k in keys)


def judge(replays: dict[str, dict], flip: float) -> dict:
    """The verdict of one answer (this module's docstring) from each acting profile's replay:
    ``replays``: profile name -> ``{"best": its own best option, "rivals": [`rivals` dicts]}``
    (the default players may be among them); ``flip``: the default players' gap (best minus
    runner-up, score units).  Returns ``verdict`` (:data:`HOLDS`, :data:`DEPENDS` or
    :data:`UNDECIDED`; None when nothing was compared), ``holds`` (True / False / None),
    ``power`` (the lowest over the profiles and rivals, NaN when none), ``flips`` (one dict per
    profile with a clearly better rival: ``profile``, ``option`` (the rival clearly better by the
    most), ``gain`` / ``gain_lo`` / ``gain_hi`` (its gain over the best, > 0)), ``flips_under``
    (their profiles) and ``best_under`` (profile -> own best)."""
    powers, flips, compared = [], [], False
    for name, r in replays.items():
        better = [c for c in r["rivals"] if c["clearly_better"]]
        compared = compared or any(c["gain"] == c["gain"] for c in r["rivals"])
        powers += [power(flip, c["se"]) for c in r["rivals"]]
        if better:
            top = min(better, key=lambda c: c["gain"])
            flips.append({"profile": name, "option": top["option"], "gain": -top["gain"], "gain_lo": -top["gain_hi"],
                          "gain_hi": -top["gain_lo"]})
    powers = [p for p in powers if p == p]
    low = float(min(powers)) if powers else float("nan")
    if flips:
        verdict, holds = DEPENDS, False
    elif not compared:
        verdict, holds = None, None
    elif low >= POWER:
        verdict, holds = HOLDS, True
    else:
        verdict, holds = UNDECIDED, None
    return {"verdict": verdict, "holds": holds, "power": low, "flips": flips,
            "flips_under": [f["profile"] for f in flips], "best_under": {n: r["best"] for n, r in replays.items()}}


def _paired(sums: dict, a: int, b: int, sign: float) -> tuple[float, float, float]:
    """Mean of option ``a`` minus option ``b`` over the deals where both were legal, with its 95%
    interval, higher is better for the seat (``sign`` turns a counting-down score round)."""
    mean, _, lo, hi = mean_interval(sign * sums["pair_s1"][a, b], sums["pair_s2"][a, b], sums["pair_n"][a, b])
    return float(mean), float(lo), float(hi)


def profile_summary(options: list[str], sums: dict, best: int, sign: float) -> dict:
    """One profile's part of the verdict from its question sums: the profile's own best option,
    the default's best ``best`` (an index into ``options``) against the runner-up and (if
    ``look`` is an option) against looking, whether ``best`` is clearly worse than the
    profile's best, and ``rivals`` (:func:`rivals`: ``best`` against every other option).  Best
    and runner-up are those of the profile's ranking (:func:`cardsim.ranking.rank`, the order of
    its table): the runner-up is the first row of its table other than ``best`` (a ranked option
    if any other is ranked).  Scores, gains: the question's score units, higher is better."""
    ranking = rank_sums(sums, sign)
    own = ranking.best
    runner = ranking.first_other(best)
    out = {"best": options[own] if own >= 0 else None, "runner_up": None, "gain": np.nan, "gain_lo": np.nan,
           "gain_hi": np.nan, "gain_se": np.nan}
    if runner is not None:
        out["runner_up"] = options[runner]
        mean, se, lo, hi = mean_interval(sign * sums["pair_s1"][best, runner], sums["pair_s2"][best, runner],
                                         sums["pair_n"][best, runner], LEVEL)
        out["gain"], out["gain_se"], out["gain_lo"], out["gain_hi"] = float(mean), float(se), float(lo), float(hi)
    look = next((j for j, o in enumerate(options) if o.lower() == LOOK), None)
    if look is not None:
        out["gain_look"], out["gain_look_lo"], out["gain_look_hi"] = (
            (0.0, 0.0, 0.0) if look == best else _paired(sums, best, look, sign))
    if own == best or own < 0:
        out["worse"], out["worse_lo"], out["worse_hi"] = 0.0, 0.0, 0.0
    else:
        out["worse"], out["worse_lo"], out["worse_hi"] = _paired(sums, best, own, sign)
    out["clearly_worse"] = bool(out["worse_hi"] < 0)
    out["rivals"] = rivals(options, sums, best, sign)
    return out


def verdict(summaries: dict[str, dict], best: str | None, not_acting=(), flip: float | None = None) -> dict:
    """The verdict over the profiles' summaries (:func:`profile_summary`, ``default`` first): the
    acting profiles other than ``default`` (``not_acting``: the names of those that do not act)
    judged by :func:`judge` against the flip size ``flip`` (default: the default players' gain
    of ``best`` over their runner-up).  Returns :func:`judge`'s keys and ``best``, ``flip``,
    ``deals_for_power`` (deals a profile would need for :data:`POWER`, from the default players'
    per-deal spread of that gain), ``tested`` / ``not_acting`` (profile names), ``gain_min`` /
    ``gain_max`` (``best``'s gain over the runner-up across the default and the acting
    profiles; with ``look``, ``gain_look_min`` / ``_max``).  ``best`` None (no option ranked
    under the default players: too few deals) gives no verdict: ``verdict``, ``best`` and
    ``holds`` None, nothing flips, no gains."""
    names = list(summaries)
    default = summaries[names[0]]
    tested = [n for n in names[1:] if n not in set(not_acting)]
    empty = {"verdict": None, "holds": None, "power": np.nan, "flips": [], "flips_under": [], "best_under": {},
             "flip": np.nan, "deals_for_power": np.nan, "tested": tested, "not_acting": list(not_acting),
             "gain_min": np.nan, "gain_max": np.nan}
    if best is None:
        return {"best": None, **empty}
    flip = default["gain"] if flip is None else flip
    n = next((r["n"] for r in default.get("rivals", []) if r["option"] == default["runner_up"]), 0)
    sd = default.get("gain_se", np.nan) * np.sqrt(n) if n else np.nan
    out = {"best": best, **empty, **judge({k: summaries[k] for k in tested}, flip), "flip": float(flip),
           "deals_for_power": deals_for_power(flip, sd)}
    out["best_under"] = {k: summaries[k]["best"] for k in [names[0], *tested]}
    gains = [summaries[k]["gain"] for k in [names[0], *tested] if summaries[k]["gain"] == summaries[k]["gain"]]
    if gains:
        out["gain_min"], out["gain_max"] = float(min(gains)), float(max(gains))
    looks = [summaries[k]["gain_look"] for k in [names[0], *tested]
             if summaries[k].get("gain_look", np.nan) == summaries[k].get("gain_look", np.nan)]
    if looks:
        out["gain_look_min"], out["gain_look_max"] = float(min(looks)), float(max(looks))
    return out


@dataclass
class RobustAnswer:
    """A question's answer under every profile, and the verdict (this module's docstring).

    ``tables``: profile name -> the plain :func:`cardsim.question_table.table` frame (rows best
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
        (:data:`cardsim.question_table.ANSWER_FACTS`: game, seat, deals, seed, dealer, before, conditions,
        strategies, rules with their defaults, ...), ``"options": [...], "profiles": {NAME: {"options":
        [rows], "best", "gain", "gain_lo", "gain_hi", "rivals", "acts", ...}}, "verdict": {"best",
        "verdict", "holds", "power", "flip", "deals_for_power", "flips", "flips_under", "best_under",
        "tested", "not_acting", "gain_min", "gain_max"}, "tested": "<what was tested, in words>",
        "verdict_text": "<the verdict in words>"}`` (NaN and inf as null)."""
        def clean(v):
            if isinstance(v, dict):
                return {k: clean(x) for k, x in v.items()}
            if isinstance(v, (list, tuple)):
                return [clean(x) for x in v]
            if isinstance(v, (float, np.floating)):
                return None if v != v or v in (np.inf, -np.inf) else float(v)
            if isinstance(v, np.integer):
                return int(v)
            if isinstance(v, np.bool_):
                return bool(v)
            return v

        profiles = {}
        for p in self.profiles:
            rows = self.tables[p.name].to_dict(orient="records")
            profiles[p.name] = dict(self.summaries[p.name], options=rows, strategies=self.strategies.get(p.name, []),
                                    doc=p.doc, acts=p.name not in self.verdict["not_acting"])
        facts = answer_facts(self.tables[self.profiles[0].name].attrs)  # the default players' question
        return clean({**facts, "options": list(self.options), "profiles": profiles, "verdict": self.verdict,
                      "tested": self.tested_text().removeprefix("tested: "), "verdict_text": self.verdict_text()})

    def frame(self) -> pd.DataFrame:
        """Every profile's table in one long frame, a ``profile`` column first."""
        return pd.concat([self.tables[p.name].assign(profile=p.name) for p in self.profiles],
                         ignore_index=True)[["profile", *self.tables[self.profiles[0].name].columns]]

    def text(self, digits: int = 1) -> str:
        """The answer for people: per profile its table line by line, then what was tested and the verdict."""
        f = lambda v: "" if v != v else f"{v:+.{digits}f}"  # noqa: E731
        v = self.verdict
        lines = []
        for p in self.profiles:
            s = self.summaries[p.name]
            lines.append(f"profile {p.name}: {p.doc}" + (f" [{', '.join(self.strategies[p.name])}]"
                                                          if self.strategies.get(p.name) else ""))
            if p.name in v["not_acting"]:
                lines.append("    does not act on this question: every option's result on every deal is the "
                             "default's (not evidence either way)")
                continue
            t = self.tables[p.name]
            for r in t.itertuples():
                lines.append(f"    {r.option:>10}  score {r.score:.{digits}f} [{r.score_lo:.{digits}f}, "
                             f"{r.score_hi:.{digits}f}]  diff {f(r.diff)} [{f(r.diff_lo)}, {f(r.diff_hi)}]"
                             + ("  not compared" if pd.isna(r.rank) else ""))
            b = v["best"]
            here = s["best"] or "none ranked (too few deals)"
            if b is None:  # nothing ranked under the default players: nothing to measure a gain of
                lines.append(f"    best here: {here}")
                continue
            lines.append(f"    best here: {here}; {b} over the runner-up ({s['runner_up']}): {f(s['gain'])} "
                         f"[{f(s['gain_lo'])}, {f(s['gain_hi'])}]"
                         + (f"; over looking: {f(s['gain_look'])} [{f(s['gain_look_lo'])}, {f(s['gain_look_hi'])}]"
                            if "gain_look" in s and b.lower() != LOOK else ""))
        lines.append(self.tested_text())
        lines.append("verdict: " + self.verdict_text(digits))
        return "\n".join(lines)

    def tested_text(self) -> str:
        """What the verdict tested: the options, the acting profiles and those left out."""
        v = self.verdict
        text = (f"tested: every option ({len(self.options)}) under {len(v['tested'])} other profile"
                f"{'' if len(v['tested']) == 1 else 's'} ({', '.join(v['tested']) or 'none'}), each option against "
                f"the default's best, paired, 95% interval each")
        if v["not_acting"]:
            text += f"; not acting (the default's numbers on every deal): {', '.join(v['not_acting'])}"
        return text

    def verdict_text(self, digits: int = 1) -> str:
        """The verdict in words (:func:`judge`), its power stated."""
        f = lambda x: "" if x != x else f"{x:+.{digits}f}"  # noqa: E731
        v = self.verdict
        if v["best"] is None:
            return (f"none: no option is ranked under {self.profiles[0].name} (too few deals: 30 with both options "
                    f"legal are needed for a pair; more with -n)")
        if not v["tested"]:
            return f"none: no other profile acts on this question, so nothing tests whether {v['best']} holds"
        power = (f"power {v['power']:.0%} to see another option better than {v['best']} by {abs(v['flip']):.{digits}f} "
                 f"(the default players' gap over the runner-up)" if v["power"] == v["power"] else "power unknown")
        need = v["deals_for_power"]
        more = (f"; about {need:,.0f} deals a profile would give {POWER:.0%}" if need == need and need != np.inf
                else "")
        gain = (f"its gain over the runner-up ranges from {f(v['gain_min'])} to {f(v['gain_max'])} across the "
                f"default and the {len(v['tested'])} acting profile{'' if len(v['tested']) == 1 else 's'}")
        if "gain_look_min" in v and v["best"].lower() != LOOK:
            gain += f" (over looking: {f(v['gain_look_min'])} to {f(v['gain_look_max'])})"
        if v["verdict"] == DEPENDS:
            flips = "; ".join(f"under {x['profile']} {x['option']} is better by {f(x['gain'])} [{f(x['gain_lo'])}, "
                              f"{f(x['gain_hi'])}]" for x in v["flips"])
            return f"{v['best']} {DEPENDS}: {flips}; {gain}"
        if v["verdict"] == HOLDS:
            return (f"{v['best']} holds: no other option is clearly better under any acting profile ({power}); "
                    f"{gain}")
        if v["verdict"] == UNDECIDED:
            return (f"{v['best']} {UNDECIDED}: no other option is clearly better under any acting profile, but the "
                    f"{power}{more}; {gain}")
        return f"none: no option was compared with {v['best']} under the acting profiles (too few deals)"


def build(question_of, game: str, seat: int, base_strategies: list[str], profiles=None, path=None):
    """The questions of a robust answer: ``[(profile, question_of(strategies))]``, ``default``
    first.  ``question_of(strategies)`` builds the plain question with every seat's spec."""
    chosen = P.select(game, profiles, path)
    return [(p, question_of(p.strategies(list(base_strategies), seat))) for p in chosen]


def answer(pairs, sums_by_profile: dict) -> RobustAnswer:
    """The :class:`RobustAnswer` from the built questions (:func:`build`) and each profile's sums:
    a profile whose sums equal the default's (:func:`same_sums`) does not act."""
    profiles = [p for p, _ in pairs]
    q0 = pairs[0][1]
    options = list(q0.options)
    sign = -1.0 if q0.lower_is_better else 1.0
    tables = {p.name: table(q, sums_by_profile[p.name]) for p, q in pairs}
    best = tables[profiles[0].name].option.iloc[0]
    b = options.index(best)
    summaries = {p.name: profile_summary(options, sums_by_profile[p.name], b, sign) for p in profiles}
    still = [p.name for p in profiles[1:] if same_sums(sums_by_profile[p.name], sums_by_profile[profiles[0].name])]
    # The first row of a table that ranks nothing is only the first option: no best to judge.
    judged = best if summaries[profiles[0].name]["best"] is not None else None
    return RobustAnswer(options, tables, summaries, verdict(summaries, judged, still), profiles,
                        {p.name: list(q.run.setup.specs) for p, q in pairs})
