"""Question sums (cardsim.questions.run_question's keys) built from given per-deal scores, for
testing the chart rules without playing deals."""
import numpy as np

from cardsim.questions import half_sums


def sums_of(scores, legal=None, start=0) -> dict:
    """The sums of ``scores`` (float[k, n]: option by deal, deal numbers ``start`` ..), every option
    legal on every deal unless ``legal`` (bool[k, n]) says otherwise."""
    scores = np.asarray(scores, dtype=np.float64)
    k, n = scores.shape
    legal = np.ones((k, n), dtype=bool) if legal is None else np.asarray(legal, dtype=bool)
    x = np.where(legal, scores, 0.0)
    o = legal.astype(np.float64)
    pair_n = o @ o.T
    cross, sq = x @ o.T, (x * x) @ o.T
    return {"deals": n, "attempts": float(n), "tested": float(n), "legal": o.sum(axis=1),
            "declared": o.sum(axis=1), "made": o.sum(axis=1) / 2, "s1": x.sum(axis=1), "s2": (x * x).sum(axis=1),
            "pair_n": pair_n, "pair_s1": cross - cross.T, "pair_s2": sq + sq.T - 2 * (x @ x.T),
            **half_sums(start, list(legal), list(scores))}


def planted(k: int, n: int, best: int, gap: float, rng, sd: float = 1.0, shared: float = 1.0) -> np.ndarray:
    """Per-deal scores of ``k`` options on ``n`` deals: a deal effect common to every option
    (sd ``shared``, as common random numbers give) plus independent noise (sd ``sd``); option
    ``best`` is better by ``gap`` (0: all options equal)."""
    scores = rng.normal(0.0, shared, size=(1, n)) + rng.normal(0.0, sd, size=(k, n))
    scores[best] += gap
    return scores
