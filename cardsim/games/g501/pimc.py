"""501's hooks for the sampled-search player (:mod:`cardsim.strategies.pimc`), and its glue.

The seat's view is exactly the one ``heuristic`` gets (:func:`cardsim.games.g501.dispatch.choose_card`):
its hand, its legal cards, the trick so far, the led card, the trump, the cards played, whether
it is the declarer, whether it has won a trick, the declarer's place in this trick's order, its
seat, the declarer's seat and the public record ``seen`` (the cards each seat played and the
suits it showed out of).

Players.  Three players are active (at four seats the dealer sits out, and the view does not say
which seat deals).  The search numbers them by play order from the seat: the seat is player 0,
the next to play after it player 1, the one after player 2.  That order needs no seat numbers:
with ``n`` cards on the trick the seat is ``n``-th in it, so the trick's leader is player
``-n mod 3`` and the declarer player ``(decl_pos - n) mod 3``.  The seats are needed only to
read each hidden player's record in ``seen``: a defender's other defender is every row but its
own and the declarer's (the dealer sitting out has an empty row); the declarer places the two
defenders by seat number clockwise once both have played (after the first trick always), and in
the first trick by their card on the table (one who has not played yet has an empty record).

Hidden holders: players 1 and 2, each with 8 cards less the tricks completed, one less if it has
played to this trick; each may hold any unseen card but those of a suit it has shown out of (its
``seen`` void lanes: the led suit when it did not follow, and the trump too when it then played
a side card).  With ``auction=0`` (the default) **the talon is left out**: it is public (docs/RULES.md
§1.4: a defender knows that its unplayed cards are with the declarer, except the one he may have
given the other defender), but it is not in the play view ``heuristic`` gets.

With ``auction=1`` the worlds read the public record the engine passes (:func:`.dispatch.choose_card`'s
``auction``) and what the seat alone knows (its dealt hand; the declarer his gifts):

* **Seen cards placed** (:func:`position`): the declarer's two gifts, each with the opponent he gave
  it to; for a defender, every unseen talon card is with the declarer except at most one, the
  card he gave the other defender (a talon card that defender played is that card: the rest are
  with the declarer).  Nothing else: which card the declarer gave the other defender is unknown
  (each of its eight cards alike a priori), and the declarer's choice of trump, target and gifts
  is not read.
* **The calls** (:func:`auction_made`, the test of :func:`cardsim.strategies.pimc.sample_auction_worlds`):
  each world's dealt hands (the hands now, the cards played given back, the gifts taken back and
  the talon taken out of the declarer's ten) must make every call of the auction and the same
  looks (docs/RULES.md §1.3), as the seats' strategies make them with the world's own streams.
  Where too few worlds pass, the worlds match the play and the placed cards only.
  Not where the calls were not the strategies' own (a question's forced contract or call).

Values: the declarer's double-dummy deal points from the current position on (this trick's cards
and his effective marriages, docs/RULES.md §1.5-§1.7) after each legal card, by
:func:`cardsim.games.g501.solver.solve_cards` (one jitted call a decision, all worlds and cards, one
transposition table per process, kept across decisions and deals: its entries are exact positions,
so the values do not depend on what it holds), negated for a defender.  The points he already has
are left out: they are the same for every card.  Marriage state, not all in a defender's view:

* whether the declarer has won a trick: his own ``won_any`` for the declarer; for a defender,
  no before the first trick is complete, yes when he leads this trick, no when he does not lead
  the second trick (the first one's winner leads it), else **assumed yes** (who won the earlier
  tricks is not in the view);
* his pending marriage points (declared before he won a trick): a K or Q the declarer led to
  this trick while he has not won a trick is taken as declared in the worlds where he holds its
  partner (both ``heuristic`` and ``pimc`` declare such a lead); a declaration on an earlier
  trick that he has not yet made count (possible only on the first lead of a deal he has won no
  trick of) is **left out**: it is not in the view.

Declarations: leading a K or Q of a marriage the seat holds, ``pimc`` declares it (+
``DECLARE_FLAG``), declarer or defender: a declared marriage only adds to its player's deal
points (a defender's counts if he wins a trick, docs/RULES.md §1.6), and the search assumes the
declarer declares; when the chosen card is the heuristic's card, the heuristic's code is played
unchanged (with or without its declaration).
"""
from __future__ import annotations

import warnings

import numpy as np
from numba import objmode
from numba.core.errors import NumbaWarning

from cardsim._jit import jit
from cardsim.strategies import pimc as _pimc

from cardsim.cards import cards_of, popcount
from cardsim.games.forced import CHECK_CALLS, F_IMPLIED, F_NPREFIX, F_PREFIX
from cardsim.rng import mix64

from .constants import DECK_MASK, DECLARE_FLAG, RK, RQ, SEEN_CARDS, SEEN_VOIDS
from .rules import can_declare, marriage_value, next_active
from .strategies import PIMC_STRATEGY, heuristic_play

# The glue below runs Python in object mode; numba warns that such code holds the GIL although
# the kernels are nogil.  That is intended: a PIMC decision is milliseconds of solving.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel execution",
                        category=NumbaWarning)

U64 = np.uint64
HAND = 8
"""Cards a hand holds when play starts (docs/RULES.md §1.4)."""
VIEW = ("hand", "legal", "trick", "led", "trump", "played", "is_declarer", "won_any", "decl_pos", "seat",
        "declarer", "seen")
"""The view :func:`position` takes: ``heuristic_play``'s arguments, in its order (then its code)."""

_SCRATCH: list = []
"""This process's transposition table (:data:`cardsim.games.g501.solver.PIMC_TT_BITS`) and scratch
(:func:`solver_scratch`), made on first use."""
_SOLVER: list = []
_AUCTION_KERNEL: list = []
"""The engine's auction kernel (:func:`.engine.auction_made`), handed down by the engine as it
loads (:func:`use_auction_kernel`): the engine imports the dispatch, which imports this module."""


def use_auction_kernel(kernel) -> None:
    """Give :func:`auction_made` the kernel that runs the auction of given hands,
    :func:`.engine.auction_made` (``kernel(keys uint64[W], dealer, hands uint64[W, 4], seats, sids,
    params, scores, forced, looked, made bool[W])``); the engine calls it once as it loads."""
    _AUCTION_KERNEL[:] = [kernel]


def _solver():
    """:mod:`cardsim.games.g501.solver`, imported at the first search: importing it compiles (or loads) its
    search, about 30 s cold, which a run without ``pimc`` seats should not pay.  Kept in
    :data:`_SOLVER` (an import statement at every call cost a tenth of a decision's Python)."""
    if not _SOLVER:
        from cardsim.games.g501 import solver as g501  # local: importing it compiles (or loads) the search

        _SOLVER.append(g501)
    return _SOLVER[0]


def solver_scratch():
    """``[keys, bounds, moves, stats]``: this process's transposition table for the search
    (:func:`cardsim.games.g501.solver.new_table` of ``PIMC_TT_BITS``, kept across decisions and
    deals), the ``moves`` scratch (int64 :data:`~cardsim.games.g501.solver.MOVES_SHAPE`) and the
    node counter (int64[1]); made, and the solver imported, on first use."""
    if not _SCRATCH:
        dd = _solver()
        _SCRATCH.extend((*dd.new_table(dd.PIMC_TT_BITS), np.zeros(dd.MOVES_SHAPE, dtype=np.int64), np.zeros(1, dtype=np.int64)))
    return _SCRATCH


def _defender_records(seat: int, declarer: int, n: int, led: int, seen) -> dict[int, tuple[int, int]]:
    """The declarer's view: ``{player: (cards played, void lanes)}`` of the two defenders (players
    1 and 2 in play order after him; see the module docstring)."""
    known = [s for s in range(seen.shape[1]) if s != seat and int(seen[SEEN_CARDS, s])]
    rec = {s: (int(seen[SEEN_CARDS, s]), int(seen[SEEN_VOIDS, s])) for s in known}
    if len(known) == 2:
        first, second = sorted(known, key=lambda s: (s - seat) % 4)  # clockwise from the seat
        return {1: rec[first], 2: rec[second]}
    out = {1: (0, 0), 2: (0, 0)}
    for s in known:  # first trick: it played to this trick, first (led) or second
        place = 0 if n > 0 and rec[s][0] >> led & 1 else 1
        out[(place - n) % 3] = rec[s]
    return out


def position(view) -> _pimc.Position:
    """The :class:`~cardsim.strategies.pimc.Position` of a 501 card decision from the seat's view
    ``(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer,
    seen, code[, record])``: ``heuristic_play``'s arguments (:data:`VIEW`, :mod:`.dispatch`), its
    ``code`` (card index, + DECLARE_FLAG when it declares) and, with ``auction=1``, the public
    record of the auction and the talon (:func:`.dispatch.choose_card`'s ``auction``; None: not
    read).  Hidden holders: players 1 and 2 (the two other active players in play order after the
    seat).  ``context``: ``(hand uint64[3] template, trick int64[n], leader, decl, trump, won,
    pending, lead_marriage, code)`` for :func:`solve` and :func:`card`; ``auction``: see
    :func:`auction_context` (the seen cards it places are also taken out of ``allowed``)."""
    hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer, seen, code = view[:13]
    record = view[13] if len(view) > 13 else None
    hand, legal, trick, played = int(hand), int(legal), int(trick), int(played)
    led, trump, decl_pos, seat, declarer, code = int(led), int(trump), int(decl_pos), int(seat), int(declarer), int(code)
    is_declarer = bool(is_declarer)
    n = trick.bit_count()
    done = (played.bit_count() - n) // 3  # tricks completed
    leader = -n % 3
    decl = (decl_pos - n) % 3
    if is_declarer:
        records = _defender_records(seat, declarer, n, led, seen)
    else:
        other = 0, 0
        for s in range(seen.shape[1]):
            if s != seat and s != declarer:
                other = other[0] | int(seen[SEEN_CARDS, s]), other[1] | int(seen[SEEN_VOIDS, s])
        records = {decl: (int(seen[SEEN_CARDS, declarer]), int(seen[SEEN_VOIDS, declarer])), 3 - decl: other}
    counts = np.array([HAND - done - ((p + n) % 3 < n) for p in (1, 2)], dtype=np.int64)
    allowed = np.array([int(DECK_MASK) & ~records[p][1] for p in (1, 2)], dtype=np.uint64)
    if is_declarer:
        won = int(bool(won_any))
    else:
        won = int(done > 0 and (decl == leader or done >= 2))
    # The declarer's lead of this trick (a defender's view), declared when he holds its partner.
    lead_marriage = -1
    if not is_declarer and n > 0 and decl == leader and not won and (led & 15) in (RK, RQ):
        partner = led ^ (RK ^ RQ)  # the K's Q or the Q's K: ranks RK and RQ differ in these bits
        if not (hand | played) >> partner & 1:
            lead_marriage = partner
    cards = [led] + [c for c in cards_of(trick) if c != led] if n else []
    templ = np.zeros(3, dtype=np.uint64)
    templ[0] = U64(hand)
    unseen = int(DECK_MASK) & ~hand & ~played
    context = None
    if record is not None and int(record[0]):
        context = auction_context(record, hand, seat, declarer, is_declarer, unseen, seen, allowed)
    return _pimc.Position(
        legal=np.array(cards_of(legal), dtype=np.int64), unseen=unseen, counts=counts,
        allowed=allowed, lead=n == 0, declaring=is_declarer, fallback=code % DECLARE_FLAG, trick=done,
        context=(templ, np.array(cards, dtype=np.int64), leader, decl, trump, won, lead_marriage, code),
        auction=context)


def auction_context(record, hand: int, seat: int, declarer: int, is_declarer: bool, unseen: int, seen,
                    allowed: np.ndarray):
    """``Position.auction`` for :func:`auction_made` from the public ``record`` (:func:`.dispatch.choose_card`'s
    ``auction``, readable), placing the seen cards in ``allowed`` (uint64[2], changed in place):
    the declarer's gifts with their receivers; a defender's unseen talon cards away from the other
    defender once he has played a talon card (the one he was given).  Returns ``(dealer, seats,
    forced int64[F_PREFIX + ncalls] the whole auction as a CHECK_CALLS prefix, sids, params, scores,
    looked, dealt uint64[4] (the seat's own dealt hand, 0 elsewhere), holders [seat of player 1,
    of player 2], played uint64[2] each holder's played cards, talon, gifts (g1, g2) for the
    declarer or (the seat's gift, the other defender's if known, else -1) for a defender, the
    declarer's holder index (-1: the seat)``)."""
    (_readable, dealer, seats, sids, params, scores, calls, ncalls, looked, talon, own, gift1,
     gift2) = record
    dealer, seats, ncalls, talon, own = int(dealer), int(seats), int(ncalls), int(talon), int(own)
    holders = [int(next_active(np.int64(seat), np.int64(dealer), np.int64(seats)))]
    holders.append(int(next_active(np.int64(holders[0]), np.int64(dealer), np.int64(seats))))
    played = np.array([int(seen[SEEN_CARDS, s]) for s in holders], dtype=np.uint64)
    mine = hand | int(seen[SEEN_CARDS, seat])  # the seat's eight cards of the play
    if is_declarer:
        gifts = (int(gift1), int(gift2))  # to player 1 (his left: the first opponent) and player 2
        for h in (0, 1):
            if unseen >> gifts[h] & 1:
                allowed[1 - h] &= U64(~(1 << gifts[h]) & (2**64 - 1))
        d = -1
    else:
        d = holders.index(int(declarer))
        given = mine & ~own  # the card the declarer gave this seat
        other = int(played[1 - d]) & talon  # a talon card the other defender played: his gift
        if other:
            allowed[1 - d] &= U64(~talon & (2**64 - 1))
        gifts = (given.bit_length() - 1, other.bit_length() - 1 if other else -1)
    forced = np.zeros(F_PREFIX + ncalls, dtype=np.int64)
    forced[F_NPREFIX], forced[F_IMPLIED] = ncalls, CHECK_CALLS
    forced[F_PREFIX:] = calls[:ncalls]
    dealt = np.zeros(4, dtype=np.uint64)
    dealt[seat] = U64(own)
    return (dealer, seats, forced, np.array(sids, dtype=np.int64), np.array(params, dtype=np.float64),
            np.array(scores, dtype=np.int64), int(looked), dealt, holders, played, talon, gifts, d)


_GIFT_SALT = U64(0x5851F42D4C957F2D)


@jit
def dealt_hands(worlds, keys, dealt, holders, played, talon, gift_a, gift_b, d, out):
    """The dealt hands of each world (into ``out`` uint64[W, 4]; returns bool[W], the worlds kept):
    ``worlds`` uint64[W, 2] the holders' cards now, ``keys`` uint64[W] the worlds' keys, the rest
    from :func:`auction_context`.  Each holder's eight cards of the play are its cards now and
    those it played.  Declarer's view (``d`` -1): each opponent's dealt hand is its eight less
    the gift it got (``gift_a`` to player 1, ``gift_b`` to player 2).  A defender's (``d`` the
    declarer's holder): the other defender's gift is ``gift_b`` when known, else the one talon
    card he holds (a world where he holds two is dropped) or, holding none, one of his eight
    drawn uniformly; since a world with a talon card there has one possible gift where one
    without has eight, it is kept with probability 1/8 (every dealt deal consistent with the
    seat's knowledge then equally likely).  The declarer's dealt hand is his ten (his eight,
    both gifts) less the talon; a world where his ten lack a talon card is dropped."""
    n = worlds.shape[0]
    kept = np.ones(n, dtype=np.bool_)
    for w in range(n):
        for s in range(4):
            out[w, s] = dealt[s]
        eight0 = worlds[w, 0] | played[0]
        eight1 = worlds[w, 1] | played[1]
        if d < 0:
            out[w, holders[0]] = eight0 & ~(U64(1) << U64(gift_a))
            out[w, holders[1]] = eight1 & ~(U64(1) << U64(gift_b))
            continue
        eight_d = eight0 if d == 0 else eight1
        eight_b = eight1 if d == 0 else eight0
        b_seat = holders[1 - d]
        u = mix64(keys[w] ^ _GIFT_SALT)
        if gift_b >= 0:
            gb = U64(1) << U64(gift_b)
        else:
            mine = eight_b & talon
            k = popcount(mine)
            if k >= 2 or (k == 1 and (u & U64(7)) != U64(0)):
                kept[w] = False
                continue
            if k == 1:
                gb = mine
            else:
                j = np.int64((u >> U64(3)) % U64(popcount(eight_b)))
                m = eight_b
                for _ in range(j):
                    m &= m - U64(1)
                gb = m & (~m + U64(1))
        ten = eight_d | gb | (U64(1) << U64(gift_a))
        if (talon & ~ten) != U64(0):
            kept[w] = False
            continue
        out[w, holders[d]] = ten & ~talon
        out[w, b_seat] = eight_b & ~gb
    return kept


def auction_made(position: _pimc.Position, worlds: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """bool[W]: whether each world (uint64[W, 2], players 1 and 2 now) is one the seat's knowledge
    allows (:func:`dealt_hands`) and in which the seats' strategies, dealt its hands, make the whole
    auction with the same looks, world ``w``'s seat streams seeded from ``keys[w]`` (uint64[W]) as a
    deal's are (the ``Hooks.auction`` of 501, :func:`.engine.auction_made`)."""
    (made_kernel,) = _AUCTION_KERNEL
    dealer, seats, forced, sids, params, scores, looked, dealt, holders, played, talon, gifts, d = position.auction
    keys = np.asarray(keys, dtype=np.uint64)
    hands = np.zeros((len(worlds), 4), dtype=np.uint64)
    kept = dealt_hands(np.ascontiguousarray(worlds, dtype=np.uint64), keys, dealt, np.array(holders, dtype=np.int64),
                       played, U64(talon), np.int64(gifts[0]), np.int64(gifts[1]), np.int64(d), hands)
    out = np.zeros(len(worlds), dtype=np.bool_)
    if kept.any():
        made = np.zeros(int(kept.sum()), dtype=np.bool_)
        made_kernel(keys[kept], np.int64(dealer), hands[kept], np.int64(seats), sids, params, scores, forced,
                    np.int64(looked), made)
        out[kept] = made
    return out


def kernel_args(position: _pimc.Position, worlds: np.ndarray) -> tuple:
    """The arguments of :mod:`cardsim.games.g501.solver`'s per-world kernels for ``position`` in ``worlds``
    (uint64[W, 2], players 1 and 2), the output array excluded."""
    templ, cards, leader, decl, trump, won, lead_marriage, _code = position.context
    w = len(worlds)
    hands = np.empty((w, 3), dtype=np.uint64)
    hands[:, 0] = templ[0]
    hands[:, 1:] = worlds
    pending = np.zeros(w, dtype=np.int64)
    if lead_marriage >= 0:
        held = (hands[:, decl] >> U64(lead_marriage)) & U64(1)
        pending[held.astype(bool)] = int(marriage_value(lead_marriage >> 4, trump))
    keys, bounds, moves, stats = solver_scratch()
    return (hands, np.int64(0), position.legal, np.int64(leader), np.int64(decl), np.int64(trump), np.int64(won),
            pending, cards, keys, bounds, moves, stats)


def solve(position: _pimc.Position, worlds: np.ndarray, best_only: bool = False) -> np.ndarray:
    """float64[W, L]: the declarer's double-dummy points to come after each legal card in each
    world (``worlds`` uint64[W, 2], players 1 and 2), negated for a defender (the module
    docstring).  With ``best_only``: 1.0 where the card reaches the world's best value for the
    seat, else 0.0 (:func:`cardsim.games.g501.solver.best_cards`, null-window searches)."""
    out = np.zeros((len(worlds), len(position.legal)), dtype=np.int64)
    kernel = _solver().best_cards if best_only else _solver().solve_cards
    kernel(*kernel_args(position, worlds), out)
    values = out.astype(np.float64)
    return values if position.declaring or best_only else -values


def common(position: _pimc.Position, worlds: np.ndarray) -> np.ndarray:
    """bool[L]: the legal cards that reach the best value for the seat in every one of ``worlds``
    (uint64[W, 2]), none when no card does: the intersection of :func:`solve`'s ``best_only``
    rows, by :func:`cardsim.games.g501.solver.common_best` (null windows, stopping at the first world
    that leaves no common card)."""
    out = np.zeros(len(position.legal), dtype=np.int64)
    _solver().common_best(*kernel_args(position, worlds), out)
    return out.astype(bool)


def card(position: _pimc.Position, chosen: int) -> int:
    """The engine's code for the ``chosen`` card: the heuristic's own code when it chose the same
    card; else the card, + DECLARE_FLAG when it is a lead of a K or Q of a marriage the seat holds
    (the module docstring)."""
    templ, cards, *_rest, code = position.context
    if chosen == code % DECLARE_FLAG:
        return code
    if len(cards) == 0 and can_declare(templ[0], np.int64(chosen)):
        return chosen + DECLARE_FLAG
    return chosen


HOOKS = _pimc.Hooks(position=position, solve=solve, strategy=PIMC_STRATEGY, card=card, unit=10.0, common=common,
                    auction=auction_made)
"""501's hooks for :func:`cardsim.strategies.pimc.decide`."""


_AUCTION = PIMC_STRATEGY.param_index("auction")


def decide_card(row, state, hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer,
                seen, code, record=None) -> int:
    """The sampled search's card (int, a card index, + DECLARE_FLAG to declare a marriage) for the
    view :func:`pimc_card` gets (:data:`VIEW`, then the heuristic's ``code``), run in object mode:
    ``row`` the seat's parameters (float64[N_PARAMS]), ``state`` its stream's word (the worlds'
    seed), ``record`` the public auction and talon (None: not read) (docs/RULES.md §1.5-§1.6)."""
    return _pimc.decide(HOOKS, row, int(state), int(played).bit_count(), int(seat),
                        (hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer,
                         seen.copy(), code, record))


@jit
def pimc_card(row, rng, hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer,
              seen, auction):
    """The ``pimc`` strategy's card (docs/RULES.md §1.5-§1.6): the heuristic's code when the search
    does not apply, else the sampled search's (:mod:`cardsim.strategies.pimc`), a card index +
    DECLARE_FLAG to declare a marriage (int64).  ``row``: the seat's parameters (float64[N_PARAMS]);
    ``rng``: its stream (uint64[1], read, not advanced); the rest is ``heuristic_play``'s view
    (:func:`.dispatch.choose_card`), and ``auction`` the public record of the auction and the talon
    with what the seat alone knows of the deal, read when ``row``'s ``auction`` parameter is 1."""
    code = heuristic_play(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer,
                          seen)
    state = rng[0]
    readable, dealer, seats, sids, params, scores, calls, ncalls, looked, talon, own, gift1, gift2 = auction
    with objmode(out="int64"):
        record = (readable, dealer, seats, sids, params, scores, calls, ncalls, looked, talon, own, gift1, gift2)
        out = decide_card(row, state, hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat,
                          declarer, seen, code, record if row[_AUCTION] == 1 else None)
    return out
