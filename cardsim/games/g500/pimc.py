"""Five Hundred's hooks for the sampled-search player (:mod:`cardsim.strategies.pimc`), and its glue.

The seat's view is exactly the one ``heuristic_play`` gets (:mod:`.dispatch`): its effective
hand, the denomination, declarer, leader, the trick so far and the suit led (or named), every
card played (earlier tricks and this one), ``known`` (the declarer's own six discards, 0 for
the three other seats), the tricks won by the declaring side and the tricks bid.  Everything
is in the effective layout of the contract's denomination (:mod:`.constants`), where the
bowers and (trump contracts) the jokers sit in the trump lane and no-trump jokers in no suit,
so following suit and showing out are plain lane masks (docs/RULES.md §3.1, §3.5).

Hidden holders (:class:`~cardsim.strategies.pimc.Position` order): the three other seats, left-hand
opponent first, then the **kitty** (the cards out of play, docs/RULES.md §3.4).  Each seat holds
10 cards less the tricks completed, one less if it has played to the current trick.  The kitty
holds the declarer's six discards: for a defender or the declarer's partner they are unseen
(6 cards, any card may be there); the declarer sees them in ``known``, so for him they are not
unseen and the kitty holds 0.

What the worlds respect: every suit a seat has shown out of, in earlier tricks (``voids``, the
public record of the play, in the contract's effective lanes) and in the current trick (a card
off the led lane, so in a trump contract a bower or joker played to a trump lead is following
suit, and a no-trump joker played to a suit lead is showing out, as the rules say).  With
``auction=0`` (the default) the auction's bids are not used; with ``auction=1`` each world must
also be one in which the seats' strategies, dealt its hands, make every call of the auction
(:mod:`.pimc_auction`; the engine passes the public record, :func:`.dispatch.choose_card`'s
``auction``).  Not where the calls were not the strategies' own (a question's forced contract or
call, or calls given whatever the hands): then the worlds match the play only.

Each world is solved double-dummy with :mod:`cardsim.games.g500.solver`'s search, started in the middle
of the current trick (the search plays tricks from any position of a trick, so nothing is
replayed), for each legal move, in one jitted call per decision (:func:`.pimc_solve.solve_worlds`, imported at the first
search: importing the solver compiles it) with the
process's kept transposition table.  A no-trump joker led names a suit: each of the four
names is a move of its own (code ``card | named << 8``, the engine's), so the name with the
best mean is chosen, not a per-world best name.  The value is the seat's side's tricks from
the current trick on (tricks, not made/set: the search's objective; there is no misère in this
game, docs/RULES.md §3.3).  The game has only its four-seat partnership form.
"""
from __future__ import annotations

import warnings

import numpy as np
from numba import objmode
from numba.core.errors import NumbaWarning

from cardsim._jit import jit
from cardsim.strategies import pimc as _pimc

from .constants import FULL_EFF, NT, SUIT_MASK, TRUMP_MASK
from .pimc_auction import auction_context, auction_made
from .rules import legal_plays
from .strategies import PIMC_STRATEGY, heuristic_play

# The glue below runs Python in object mode; numba warns that such code holds the GIL although
# the kernels are nogil.  That is intended: a PIMC decision is milliseconds of solving.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel execution",
                        category=NumbaWarning)

U64 = np.uint64
KITTY = 3
"""Index of the kitty (the cards out of play) among the hidden holders."""


def position(view) -> _pimc.Position:
    """The :class:`~cardsim.strategies.pimc.Position` of a Five Hundred card decision from the seat's
    view ``(seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
    decl_tricks, contract_tricks, voids, fallback[, record])`` (:mod:`.dispatch`'s ``choose_card`` arguments,
    the effective layout, and the heuristic's code ``fallback``): a seat may not hold a suit it
    showed out of in an earlier trick (``voids``) or in this one.  ``legal`` holds engine codes: a card,
    or ``card | named << 8`` for each suit a no-trump joker lead may name.  ``record`` (``auction=1``;
    None or absent: not read): the public record of the auction and the seat's dealt hand, read
    into ``Position.auction`` (:func:`.pimc_auction.auction_context`)."""
    (seat, hand, denom, declarer, leader, trick, n, led, played, known, _decl_tricks, _contract_tricks,
     voids, fallback) = view[:14]
    record = view[14] if len(view) > 14 else None
    seat, hand, denom, declarer, leader = int(seat), int(hand), int(denom), int(declarer), int(leader)
    n, led, played, known = int(n), int(led), int(played), int(known)
    legal_bits = int(legal_plays(U64(hand), np.int64(denom), np.int64(led if n > 0 else -1)))
    codes = []
    for c in range(64):
        if legal_bits >> c & 1:
            if n == 0 and denom == NT and (1 << c) & int(TRUMP_MASK[NT]):
                codes.extend(c | named << 8 for named in range(4))
            else:
                codes.append(c)
    full = int(FULL_EFF[denom])
    completed = (played.bit_count() - n) // 4
    in_trick = {(leader + k) % 4 for k in range(n)}
    holders = [(seat + i) % 4 for i in (1, 2, 3)]
    counts = [10 - completed - (s in in_trick) for s in holders]
    allowed = [full] * 4
    for i, s in enumerate(holders):
        for suit in range(4):
            if int(voids) >> (4 * s + suit) & 1:
                allowed[i] &= ~int(SUIT_MASK[denom, suit])
    for k in range(1, n):  # who showed out of the suit led in this trick
        s = (leader + k) % 4
        if s != seat and not (1 << int(trick[k])) & int(SUIT_MASK[denom, led]):
            allowed[holders.index(s)] &= ~int(SUIT_MASK[denom, led])
    unseen = full & ~hand & ~played & ~known
    counts.append(unseen.bit_count() - sum(counts))  # the kitty: 6 unseen discards, 0 for the declarer
    return _pimc.Position(legal=np.array(sorted(codes), dtype=np.int64), unseen=unseen,
                          counts=np.array(counts, dtype=np.int64), allowed=np.array(allowed, dtype=np.uint64),
                          lead=n == 0, declaring=seat % 2 == declarer % 2, fallback=int(fallback), trick=completed,
                          context=(hand, seat, denom, leader, np.array([int(c) for c in trick[:4]], dtype=np.int64),
                                   n, led),
                          auction=None if record is None else auction_context(record, seat, int(declarer), denom))


_SCRATCH: dict = {}
_SOLVER: list = []


def _solver():
    """:mod:`.pimc_solve`, imported at the first search: importing it compiles (or loads)
    :mod:`cardsim.games.g500.solver`'s search, which a run without ``pimc`` seats should not wait for (and
    that module imports this game's package, which imports this module through the dispatch).
    Kept in :data:`_SOLVER`, with the process's table and scratch in :data:`_SCRATCH`: an import
    statement at every call cost a tenth of a 501 decision's Python."""
    if not _SOLVER:
        from cardsim.games.g500 import solver as _dd  # local: importing it compiles (or loads) the search

        from . import pimc_solve  # local: it imports the solver (above)

        # Not cardsim.dd's shared table: importing cardsim.dd (the package) from this jitted
        # module would put the plain modules it imports in the compiled code's hash.
        _SCRATCH["table"] = _dd.new_table()
        _SCRATCH["moves"] = np.zeros((42, _dd.MAX_MOVES), dtype=np.int64)
        _SCRATCH["stats"] = np.zeros(1, dtype=np.int64)
        _SOLVER.append(pimc_solve)
    return _SOLVER[0]


def _kernel_args(position: _pimc.Position, worlds: np.ndarray) -> tuple:
    """The arguments of :mod:`.pimc_solve`'s kernels for ``position`` in ``worlds`` (uint64[W, 4],
    the holders of :func:`position`), an output array excluded."""
    _solver()
    keys, bounds = _SCRATCH["table"]
    hand, seat, denom, leader, trick, n, led = position.context
    return (U64(hand), np.int64(seat), np.int64(denom), np.int64(leader), trick, np.int64(n), np.int64(led),
            np.ascontiguousarray(worlds, dtype=np.uint64), np.asarray(position.legal, dtype=np.int64), keys, bounds,
            _SCRATCH["moves"], _SCRATCH["stats"])


def solve(position: _pimc.Position, worlds: np.ndarray) -> np.ndarray:
    """float64[W, L]: the seat's side's double-dummy tricks from the current trick on, per world
    (uint64[W, 4], the holders of :func:`position`) and legal move (:func:`.pimc_solve.solve_worlds`, with the
    transposition table kept for the whole process: an entry holds a whole position, so entries
    stay valid from one decision and deal to the next)."""
    return _solver().solve_worlds(*_kernel_args(position, worlds))


def common(position: _pimc.Position, worlds: np.ndarray) -> np.ndarray:
    """bool[L]: the legal moves that reach the best value for the seat's side in every one of
    ``worlds`` (uint64[W, 4]), none when no move does: the intersection of the argmax sets of
    :func:`solve`'s rows, by :func:`.pimc_solve.common_best` (null windows, stopping at the first
    world that leaves no common move); the first look of :func:`cardsim.strategies.pimc.choose_classes`."""
    out = np.zeros(len(position.legal), dtype=np.int64)
    _solver().common_best(*_kernel_args(position, worlds), out)
    return out.astype(bool)


def classes(position: _pimc.Position) -> np.ndarray:
    """int64[L]: the legal moves' classes of touching cards (:func:`cardsim.strategies.pimc.touching_classes`)
    in the effective layout: cards of one lane (in no-trump the two jokers, played to a trick
    led by another seat) with nothing between them but the seat's own cards and cards out of
    play (completed tricks, the declarer's discards, no card).  A no-trump joker lead, a move
    per named suit, is a class of its own."""
    hand, _seat, denom, _leader, trick, n, _led = position.context
    full = int(FULL_EFF[denom])
    on_table = sum(1 << int(c) for c in trick[:n])
    dead = (full & ~position.unseen & ~hand & ~on_table) | (~full & (2**64 - 1))
    jokers = int(TRUMP_MASK[NT]) if denom == NT else 0
    legal = np.asarray(position.legal, dtype=np.int64)
    plain = np.array([not (n == 0 and (1 << (int(c) & 0xFF)) & jokers) for c in legal])
    out = np.arange(len(legal), dtype=np.int64)
    if plain.any():

        def group(c):
            return jokers if (1 << c) & jokers else int(SUIT_MASK[denom, c >> 4])

        idx = np.flatnonzero(plain)
        out[idx] = idx[_pimc.touching_classes(legal[idx], hand, dead, group)]
    return out


# The first look at three quarters of the worlds: at half of them it played 5.3% wrong cards
# (622 decisions at 16 worlds), over the stated 5%; at three quarters 2.9% (BENCHMARKS.md).
HOOKS = _pimc.Hooks(position=position, solve=solve, strategy=PIMC_STRATEGY, classes=classes, common=common,
                    look=0.75, auction=auction_made)
"""Five Hundred's hooks for :func:`cardsim.strategies.pimc.decide`."""


_AUCTION = PIMC_STRATEGY.param_index("auction")


def decide_card(row, state, seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known, decl_tricks,
                contract_tricks, voids, fallback, record=None) -> int:
    """The sampled search's move (int, an engine code) for the view :func:`pimc_card` gets, run in
    object mode: ``row`` the seat's parameters (float64[N_PARAMS]), ``state`` its stream's word
    (the worlds' seed), ``fallback`` the heuristic's code and ``record`` the public auction
    (None: the worlds match the play only; see :func:`position`) (docs/RULES.md §3.5)."""
    return _pimc.decide(HOOKS, row, int(state), int(played).bit_count(), int(seat),
                        (seat, hand, denom, declarer, leader, trick.copy(), n_in_trick, led, played, known,
                         decl_tricks, contract_tricks, voids, fallback, record))


@jit
def pimc_card(params, streams, seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
              decl_tricks, contract_tricks, voids, auction):
    """The ``pimc`` strategy's card (docs/RULES.md §3.5): the heuristic's when the search does not
    apply, else the sampled search's (:mod:`cardsim.strategies.pimc`); an engine code (``card |
    named << 8`` for a no-trump joker lead).  ``params``: float64[4, N_PARAMS], the seat's row is
    read; ``streams``: the deal's streams, row ``1 + seat`` read, not advanced; the rest is
    ``heuristic_play``'s view (:mod:`.dispatch`), ``voids``, the public record of show-outs, and
    ``auction``, the public record of the auction and the play with the dealt hands
    (:func:`.dispatch.choose_card`), read when the row's ``auction`` parameter is 1: of the
    hands, only the seat's own goes on to the search."""
    fallback = heuristic_play(seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                              decl_tricks, contract_tricks)
    row = params[seat]
    state = streams[1 + seat, 0]
    readable, dealer, ids, before0, before1, scoring, target, calls, ncalls, by_seat, hands = auction
    own = hands[seat]
    with objmode(card="int64"):
        record = (readable, dealer, ids, params, before0, before1, scoring, target, calls, ncalls, by_seat, own)
        card = decide_card(row, state, seat, hand, denom, declarer, leader, trick, n_in_trick, led, played, known,
                           decl_tricks, contract_tricks, voids, fallback, record if row[_AUCTION] == 1 else None)
    return card
