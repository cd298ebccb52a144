"""A stand-in arena whose equilibrium is known exactly: the test bed of ``exploit`` and ``tune``.

The stand-in is a symmetric two-sided game over a point of six parameters ``x, y, z, u, v, w``
(:data:`REGISTRY`'s strategy ``standin``).  A side playing point ``a`` against a population playing
point ``b`` wins each match with probability

    p(a; b) = clip(0.5 + φ(b) − φ(a), 0, 1),   φ(q) = Σ_j CURVATURE[j] · (q_j − EQUILIBRIUM[j])²

so p(b; b) = 0.5, p(a; b) + p(b; a) = 1 (a constant-sum game), and against the population at
:data:`EQUILIBRIUM` every deviation loses (φ(a) > 0) except moves of ``u``, ``v`` and ``w``, which do
nothing (CURVATURE 0: parameters without effect, as real strategies have some; the null case of a
test, with gain exactly 0).  The
registered default sits at the equilibrium except for ``x``, the **planted** exploitable parameter:
it is 0.3, four steps below its equilibrium 0.5, so a deviation one step up (0.35) gains
2 · (0.2² − 0.15²) = 0.035 of the match share and one step down loses 0.045.

Matches are drawn from the counter-based generator of :mod:`cardsim.rng` (SplitMix64 of the seed
and the match number, the same keys as :func:`cardsim.rng.match_key`), computed on numpy arrays:
millions of matches a second, the same for any chunking or number of jobs.  Each match has a
uniform ``r`` from the match key's stream 0 (the baseline's match is won when r < 0.5) and, per
deviant, two more, ``c`` and ``f``, from streams numbered by a hash of the deviant's spec (so two
deviants diverge from the baseline independently, as real line-ups do).  The deviant's match is
*paired*: it uses the baseline's uniform r when the deviant is the baseline or when c < PAIRING,
else its fresh uniform f, and is won when that uniform < p.  The gain of a match is the deviant's win minus
the baseline's (−1, 0 or 1), its mean p − 0.5 exactly; a deviant equal to the baseline gains 0 in
every match.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from cardsim.deviation import Arena, Objective, mean_se
from cardsim.games.base import OptionError
from cardsim.rng import GOLDEN, MATCH_SALT, MIX1, MIX2, SEAT_SALT
from cardsim.runner.files import transform_id
from cardsim.runner.run import check_count, check_run_seed
from cardsim.runner.store import ChunkStore, run_chunks
from cardsim.strategies.registry import Registry

GAME = "standin"
"""The stand-in's name (not a game of :mod:`cardsim.games`)."""

REGISTRY = Registry(GAME)
STANDIN = REGISTRY.add(
    "standin", 0, {"x": 0.3, "y": 0.4, "z": 2.0, "u": 0.0, "v": 0.0, "w": 0.0},
    "the stand-in player (cardsim.standin): wins with probability 0.5 + φ(population) − φ(own point)",
    {"x": "the planted parameter: equilibrium 0.5, default 0.3 (exploitable upwards)",
     "y": "equilibrium 0.4 (at the default)", "z": "equilibrium 2 (at the default), flat: curvature 0.05",
     "u": "no effect on the match (a null parameter)", "v": "no effect on the match (a null parameter)",
     "w": "no effect on the match (a null parameter)"},
    {"x": (0, 1), "y": (0, 1), "z": (0, 4), "u": (-1, 1), "v": (-1, 1), "w": (-1, 1)},
    tunables={"x": (0, 1, 0.05), "y": (0, 1, 0.05), "z": (0, 4, 0.25), "u": (-1, 1, 0.1), "v": (-1, 1, 0.1),
              "w": (-1, 1, 0.1)},
)
EQUILIBRIUM = {"x": 0.5, "y": 0.4, "z": 2.0, "u": 0.0, "v": 0.0, "w": 0.0}
"""The exact equilibrium (``u``, ``v``, ``w`` may be anything there: they have no effect)."""
CURVATURE = {"x": 2.0, "y": 1.0, "z": 0.05, "u": 0.0, "v": 0.0, "w": 0.0}
"""φ's weight per parameter (share of matches per unit²)."""
PAIRING = 0.5
"""Probability that a deviant's match uses the baseline's uniform (the rest is independent)."""
CHUNK = 250_000
"""Matches a task: a few tenths of a second."""

OBJECTIVE = Objective("win", "share of matches won by the deviating side minus 0.5 (paired on the match seeds)",
                      "share of matches won (0..1)", 0.005, "win", matches=200_000, game=GAME)


def _mix64(z: np.ndarray) -> np.ndarray:
    """:func:`cardsim.rng.mix64` on a uint64 array (arithmetic wraps modulo 2**64, as there)."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


def match_keys(seed: int, start: int, count: int) -> np.ndarray:
    """uint64[count]: :func:`cardsim.rng.match_key` of ``seed`` and matches ``start .. start+count-1``."""
    with np.errstate(over="ignore"):
        m = np.arange(start, start + count, dtype=np.uint64)
        head = _mix64(np.array([np.uint64(seed) + GOLDEN], dtype=np.uint64))
        deal = _mix64(head ^ (m * GOLDEN + np.uint64(1)))
        return _mix64(deal ^ MATCH_SALT)


def uniforms(keys: np.ndarray, index: int) -> np.ndarray:
    """float64[len(keys)] in [0, 1): the first :func:`cardsim.rng.uniform` of stream ``index`` of each key."""
    with np.errstate(over="ignore"):
        state = _mix64(keys ^ (np.uint64(index + 1) * SEAT_SALT))
        return (_mix64(state + GOLDEN) >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def phi(point: dict) -> float:
    """φ of a point (name -> value; missing names at the equilibrium)."""
    return float(sum(CURVATURE[k] * (float(point.get(k, EQUILIBRIUM[k])) - EQUILIBRIUM[k]) ** 2 for k in CURVATURE))


def win_probability(deviant: dict, population: dict) -> float:
    """p(deviant; population): the exact chance a side at ``deviant`` wins a match against ``population``."""
    return float(np.clip(0.5 + phi(population) - phi(deviant), 0.0, 1.0))


def _point(spec: str) -> dict:
    strategy, vec = REGISTRY.resolve(spec)
    return {name: float(vec[strategy.param_index(name)]) for name in strategy.params}


def _streams(spec: str) -> int:
    """The first of the two stream numbers of a deviant's own draws: from a hash of its spec
    (stable across processes and versions, unlike Python's ``hash``); never 0, the baseline's."""
    return 1 + 2 * (int.from_bytes(hashlib.sha256(spec.encode()).digest()[:4], "little") >> 1)


def _sums(baseline: str, deviants: list[str], seed: int, start: int, count: int) -> np.ndarray:
    """One chunk: float64[deviants, 3] of (n, Σg, Σg²) of the per-match gain."""
    keys = match_keys(seed, start, count)
    r = uniforms(keys, 0)
    base_won = (r < 0.5).astype(np.float64)
    b = _point(baseline)
    out = np.zeros((len(deviants), 3))
    for i, d in enumerate(deviants):
        a = _point(d)
        if a == b:
            draw = r
        else:
            first = _streams(d)
            c, f = uniforms(keys, first), uniforms(keys, first + 1)
            draw = np.where(c < PAIRING, r, f)
        g = (draw < win_probability(a, b)).astype(np.float64) - base_won
        out[i] = count, g.sum(), (g * g).sum()
    return out


class StandinArena(Arena):
    """The :class:`~cardsim.deviation.Arena` of the stand-in: the same points and specs, gains
    drawn from :func:`win_probability` (module docstring) instead of played matches."""

    def gains(self, baseline: dict, deviants: list[dict], n_matches: int, seed: int, n_jobs=-1, store=None,
              progress=False) -> pd.DataFrame:
        """The table of :func:`cardsim.deviation.deviation_gains` (``deviant``, ``objective``, ``n``,
        ``gain``, ``se``) for the stand-in; deterministic for a seed, the same for any ``n_jobs``,
        resumable with ``store``.  Raises OptionError / StrategyError for bad arguments."""
        if not isinstance(deviants, (list, tuple)) or not deviants:
            raise OptionError("deviants must be a non-empty list of points")
        n = check_count(n_matches, "the number of matches")
        seed = check_run_seed(seed)
        base = self.spec(baseline)
        specs = [self.spec(d) for d in deviants]
        keep = None
        if store is not None:
            keep = ChunkStore(store, {"kind": "standin_gains", "baseline": base, "deviants": specs, "seed": seed,
                                      "n": n, "chunk_size": CHUNK, "code": transform_id(_sums)})
        starts = list(range(0, n, CHUNK))
        total = np.zeros((len(specs), 3))
        for part in run_chunks(_sums, [(base, specs, seed, s, min(CHUNK, n - s)) for s in starts],
                               [min(CHUNK, n - s) * len(specs) for s in starts], n_jobs, progress, keep,
                               unit="match", seconds=1e-7 * n * len(specs)):
            total += part
        mean, se = mean_se(total)
        out = pd.DataFrame({"deviant": specs, "objective": self.objective.name, "n": total[:, 0].astype(np.int64),
                            "gain": mean, "se": se})
        out.attrs.update({"game": GAME, "baseline": base, "objective": self.objective, "seed": seed})
        return out


def arena(strategy: str = "standin", objective: str | None = None) -> StandinArena:
    """The stand-in's arena starting at ``strategy`` (``"standin"``: the planted default;
    ``"standin:x=0.5"``: the equilibrium).  Its one objective is ``win``; OptionError for another,
    StrategyError for a bad spec."""
    if objective not in (None, OBJECTIVE.name):
        raise OptionError(f"the stand-in has no objective {objective!r} (objectives: {OBJECTIVE.name})")
    base, _ = REGISTRY.resolve(strategy)
    _, _, rest = strategy.partition(":")
    fixed = [i.strip() for i in rest.split(",") if i.strip() and i.partition("=")[0].strip() not in base.tunables]
    out = StandinArena(GAME, strategy, OBJECTIVE, dict(base.tunables), REGISTRY, fixed)
    out.point(strategy)
    return out
