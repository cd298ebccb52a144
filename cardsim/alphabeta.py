"""Alpha-beta pieces shared by the double-dummy solvers (:mod:`cardsim.games.g501.solver`,
:mod:`cardsim.games.g500.solver`)."""
from __future__ import annotations

from cardsim._jit import jit


@jit(inline="always")
def ab_update(maxing, v, best, alpha, beta):
    """One move's value ``v`` taken into a fail-soft alpha-beta node: ``(best, alpha, beta)``
    after it, the best value so far for the side to move (the maximiser if ``maxing``) and the
    window narrowed by it.  The caller cuts off when ``alpha >= beta``."""
    if maxing:
        if v > best:
            best = v
        if best > alpha:
            alpha = best
    else:
        if v < best:
            best = v
        if best < beta:
            beta = best
    return best, alpha, beta
