"""Vint's hooks for the sampled-search player (:mod:`cardsim.strategies.pimc`), and its glue.

The seat's view is the one ``heuristic`` gets (:mod:`.dispatch`): its hand, the contract, the
trick so far, the cards played and the suits each seat has shown out of (docs/RULES.md §2.3).
The hidden holders are the three other seats, left-hand opponent first; each holds 13 cards
less the tricks completed, one less if it has played to the current trick.  With ``auction=0``
(the default) the auction is not used to shape the worlds.  With ``auction=1`` each world must
also be one in which the seats' strategies, dealt its hands with the cards each seat has played
given back, make every call of the auction (:func:`auction_made`, the test of
:func:`cardsim.strategies.pimc.sample_auction_worlds`); the auction, the line, the seats'
strategies and who played which card are public (docs/RULES.md §2.2–§2.3).  Not where the calls
were not the strategies' own (a question's forced contract, forced call or calls made whatever
the hands): then the worlds match the play only.

Each world is solved by DDS (through endplay's binding) from the current position, the trick's
cards on the table, all worlds of a decision in one batched ``SolveAllBoardsBin`` call written
straight from the bit sets (:func:`cardsim.games.vint.solver.solve_positions`); DDS gives the tricks the
side to move takes from there with each card (equal cards included), which is the value for the
seat's side.
"""
from __future__ import annotations

import warnings

import numpy as np
from numba import objmode
from numba.core.errors import NumbaWarning

from cardsim._jit import jit
from cardsim.cards import SUITS, VINT_RANKS
from cardsim.games.forced import CHECK_CALLS, F_IMPLIED, F_NPREFIX, F_PREFIX
from cardsim.strategies import pimc as _pimc

from .rules import beats, legal_plays
from .solver import solve_positions
from .strategies import PIMC_STRATEGY

# The glue below runs Python in object mode; numba warns that such code holds the GIL although
# the kernels are nogil.  That is intended: a PIMC decision is milliseconds of solving.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel execution",
                        category=NumbaWarning)

U64 = np.uint64
DECK = 0x1FFF1FFF1FFF1FFF
"""The 52 Vint cards (13 ranks in each 16-bit suit lane)."""
_EP_SUIT = (0, 3, 2, 1)
"""endplay suit (spades, hearts, diamonds, clubs) -> cardsim suit (S C D H = 0..3)."""
_DDS_STRAIN = (0, 3, 2, 1, 4)
"""DDS strain of each Vint denomination S C D H NT."""
_AUCTION_KERNEL: list = []
"""The engine's auction kernel (:func:`.engine.auction_made`), handed down by the engine as it
loads (:func:`use_auction_kernel`): the engine imports the dispatch, which imports this module."""


def use_auction_kernel(kernel) -> None:
    """Give :func:`auction_made` the kernel that runs the auction of given hands,
    :func:`.engine.auction_made` (``kernel(keys uint64[W], dealer, hands uint64[W, 4], ids, params,
    forced, below, games, made bool[W])``); the engine calls it once as it loads."""
    _AUCTION_KERNEL[:] = [kernel]


def position(view) -> _pimc.Position:
    """The :class:`~cardsim.strategies.pimc.Position` of a Vint card decision from the seat's view
    ``(hand, seat, declarer, trump, leader, trick, n, played, voids, fallback[, auction])``;
    ``auction`` is the public record (:func:`.dispatch.choose_card`), read into
    ``Position.auction`` (see :func:`auction_context`)."""
    hand, seat, declarer, trump, leader, trick, n, played, voids, fallback = view[:10]
    record = view[10] if len(view) > 10 else None
    hand, played, n, seat, leader = int(hand), int(played), int(n), int(seat), int(leader)
    led = -1 if n == 0 else int(trick[0]) >> 4
    legal_bits = int(legal_plays(U64(hand), np.int64(led)))
    legal = np.array([c for c in range(64) if legal_bits >> c & 1], dtype=np.int64)
    completed = (played.bit_count() - n) // 4
    in_trick = {(leader + k) % 4 for k in range(n)}
    holders = [(seat + i) % 4 for i in (1, 2, 3)]
    counts = np.array([13 - completed - (s in in_trick) for s in holders], dtype=np.int64)
    allowed = np.zeros(3, dtype=np.uint64)
    for i, s in enumerate(holders):
        void_suits = (int(voids) >> (4 * s)) & 0xF
        allowed[i] = U64(DECK & ~sum(0xFFFF << (16 * x) for x in range(4) if void_suits >> x & 1))
    return _pimc.Position(legal=legal, unseen=DECK & ~hand & ~played, counts=counts, allowed=allowed,
                          lead=n == 0, declaring=seat % 2 == int(declarer) % 2, fallback=int(fallback),
                          trick=completed,
                          context=(hand, seat, int(trump), leader, [int(c) for c in trick[:n]], holders),
                          auction=auction_context(record, hand, seat, int(declarer), leader, trick, n, completed,
                                                  holders))


def auction_context(record, hand: int, seat: int, declarer: int, leader: int, trick, n: int, completed: int,
                    holders: list[int]):
    """``Position.auction`` for :func:`auction_made`, or None where the auction cannot be read
    (no record, or calls the strategies did not make).  From the public ``record`` (the tuple
    :func:`.dispatch.choose_card` documents): ``(dealer, forced int64[F_PREFIX + ncalls]: the
    whole auction as a CHECK_CALLS prefix, ids, params, below, games, given uint64[4]: the cards
    each seat has played, and the seat's own whole hand, holders)``."""
    if record is None:
        return None
    ids, params, calls, ncalls, dealer, below, games, readable, plays, winners = record
    if not int(readable):
        return None
    given = [0, 0, 0, 0]
    lead = (declarer + 1) % 4
    for t in range(completed):  # trick t: led by the previous trick's winner, cards in turn
        for k in range(4):
            given[(lead + k) % 4] |= 1 << int(plays[4 * t + k])
        lead = int(winners[t])
    for k in range(n):
        given[(leader + k) % 4] |= 1 << int(trick[k])
    given[seat] |= hand
    ncalls = int(ncalls)
    forced = np.zeros(F_PREFIX + ncalls, dtype=np.int64)
    forced[F_NPREFIX], forced[F_IMPLIED] = ncalls, CHECK_CALLS
    forced[F_PREFIX:] = calls[:ncalls]
    return (int(dealer), forced, np.array(ids, dtype=np.int64), np.array(params, dtype=np.float64),
            np.array(below, dtype=np.int64), np.array(games, dtype=np.int64), np.array(given, dtype=np.uint64),
            holders)


def auction_made(position: _pimc.Position, worlds: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """bool[W]: whether the seats' strategies make the whole auction with the initial hands of
    each world (uint64[W, 3], the hidden holders' cards now, in ``holders`` order; the cards each
    seat has played and the seat's own hand added back), world ``w``'s seat streams seeded from
    ``keys[w]`` (uint64[W]) as :func:`.engine.run_deal` seeds a deal's (the ``Hooks.auction`` of
    Vint)."""
    (made_kernel,) = _AUCTION_KERNEL
    dealer, forced, ids, params, below, games, given, holders = position.auction
    hands = np.tile(given, (len(worlds), 1))
    for i, s in enumerate(holders):
        hands[:, s] |= worlds[:, i]
    out = np.zeros(len(worlds), dtype=np.bool_)
    made_kernel(np.asarray(keys, dtype=np.uint64), np.int64(dealer), hands, ids, params, forced, below, games, out)
    return out


def solve(position: _pimc.Position, worlds: np.ndarray, best_only: bool = False) -> np.ndarray:
    """float64[W, L]: DDS tricks of the seat's side from the current trick on, per world and legal
    card (see the module docstring; :func:`cardsim.games.vint.solver.solve_positions`).  With
    ``best_only``: 1.0 where the card reaches the world's best value for the seat's side, else 0.0
    (DDS is asked only that, which is cheaper)."""
    hand, seat, trump, leader, trick, holders = position.context
    hands = np.zeros((len(worlds), 4), dtype=np.uint64)
    hands[:, seat] = U64(hand)
    hands[:, holders] = np.asarray(worlds, dtype=np.uint64)[:, :3]
    values = solve_positions(hands, trump, leader, trick, best_only)[:, np.asarray(position.legal, dtype=np.int64)]
    return (values >= 0).astype(np.float64) if best_only else values.astype(np.float64)


def classes(position: _pimc.Position) -> np.ndarray:
    """int64[L]: the legal cards' classes of cards with the same double-dummy value in every world
    (docs/RULES.md §2.3 play), the index of the highest card of each class:

    * touching cards (:func:`cardsim.strategies.pimc.touching_classes`): cards of one suit with
      nothing between them but the seat's own cards and cards out of play: cards of completed
      tricks, and the cards on the current trick other than the one winning it so far.  A card on
      the trick can lie between two of the seat's cards only when both lose the trick to its
      winner whatever comes next (two cards that both beat the winner have no card of the trick
      between them; the winner itself stays a gap), and after the trick it is out of play;
    * every legal card of the suits no other seat holds any card of (none unseen), other than the
      trump suit and the suit led: such a card wins when led (the others can only discard or ruff,
      alike for each) and loses when discarded, so swapping one for another changes nothing."""
    hand, _seat, trump, _leader, trick, _holders = position.context
    legal = np.asarray(position.legal, dtype=np.int64)
    on_table = sum(1 << c for c in trick)
    losing = on_table
    if trick:
        winner = trick[0]
        for c in trick[1:]:
            if beats.py_func(c, winner, trump):
                winner = c
        losing &= ~(1 << winner)
    dead = (DECK & ~position.unseen & ~hand & ~on_table) | losing | (~DECK & (2**64 - 1))
    out = _pimc.touching_classes(legal, hand, dead, lambda c: 0x1FFF << (16 * (c >> 4)))
    led = trick[0] >> 4 if trick else -1
    alone = [s for s in range(4) if s not in (trump, led) and not (position.unseen >> (16 * s)) & 0x1FFF]
    members = np.flatnonzero(np.isin(legal >> 4, alone))
    if len(members) > 1:
        out[members] = members[-1]
    return out


_AUCTION = PIMC_STRATEGY.param_index("auction")

HOOKS = _pimc.Hooks(position=position, solve=solve, strategy=PIMC_STRATEGY, classes=classes,
                    auction=auction_made)
"""Vint's hooks for :func:`cardsim.strategies.pimc.decide`."""


def decide_card(row, state, hand, seat, declarer, trump, leader, trick, n, played, voids, fallback, record) -> int:
    """The sampled search's card (int, a card index) for the view :func:`pimc_card` gets, run in
    object mode: ``row`` the seat's parameters (float64[N_PARAMS]), ``state`` its stream's word
    (the worlds' seed), ``fallback`` the heuristic's card and ``record`` the public auction (None:
    the worlds match the play only; :func:`auction_context`) (docs/RULES.md §2.3)."""
    return _pimc.decide(HOOKS, row, int(state), int(played).bit_count(), int(seat),
                        (hand, seat, declarer, trump, leader, trick.copy(), n, played, voids, fallback, record))


@jit
def pimc_card(row, rng, hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids, fallback, auction):
    """The ``pimc`` strategy's card (docs/RULES.md §2.3): ``fallback``, the heuristic's card
    (:func:`.strategies.heuristic_card`, played by the caller's one inlined copy of it), when the
    search does not apply, else the sampled search's (:mod:`cardsim.strategies.pimc`).  ``row``:
    the seat's parameters (float64[N_PARAMS]); ``rng``: its stream (uint64[1], read, not
    advanced); the rest is ``heuristic``'s view (:mod:`.dispatch`; ``bid_suits`` unused), and
    ``auction`` the public record, read when ``row``'s ``auction`` parameter is 1."""
    state = rng[0]
    ids, params, calls, ncalls, dealer, below, games, readable, plays, winners = auction
    with objmode(card="int64"):
        record = (ids, params, calls, ncalls, dealer, below, games, readable, plays, winners)
        card = decide_card(row, state, hand, seat, declarer, trump, leader, trick, n, played, voids, fallback,
                           record if row[_AUCTION] == 1 else None)
    return card
