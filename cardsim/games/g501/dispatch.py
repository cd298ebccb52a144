"""501 strategy dispatch: which strategy function makes each decision (DESIGN.md §4).

One jitted function per decision, each ``if strategy == HEURISTIC … elif strategy == RANDOM …``
over the strategy functions of :mod:`cardsim.games.g501.strategies`, ending with the
``UNHANDLED`` raise: an id with no branch stops the run with a StrategyError naming the game,
seat and decision, it never plays as another strategy.  Adding a strategy: its functions in
``strategies``, a registry line there, one branch in each function below.

Every dispatch function is ``choose_<decision>(strategy, params, streams, seat, view...)`` as in
every game (``docs/adding-a-game.md``); the four common arguments:

* ``strategy`` (int64): the seat's strategy id (``Strategy.id`` in ``strategies.REGISTRY``);
* ``params`` (float64[seats, N_PARAMS]): every seat's parameter row; row ``seat`` is this seat's;
* ``seat`` (int64): the deciding seat (0..3);
* ``streams`` (uint64[5, 1]): the deal's streams; row ``1 + seat`` is this seat's (row 0 is
  the shuffle's, never touched here).

followed by the seat's view of that decision (nothing else: never another seat's hand):

* ``choose_blind(strategy, params, streams, seat, position, score, rival, cur_bid, seats) -> int64``
  before looking (docs/RULES.md §1.3): ``LOOK`` (-1), pass (0) or a blind bid (> cur_bid).
  ``position``: 0..2 in the auction order; ``score``: the seat's score before the deal;
  ``rival``: the lowest score before the deal of the other seats of the table (the closest
  rival, 501 counts down; at 4 seats the dealer sitting out counts: scores are public);
  ``cur_bid``: the highest bid so far (0 before any bid); ``seats``: 3 or 4 at the table.
* ``choose_call(strategy, params, streams, seat, hand, position, score, rival, cur_bid, others_blind,
  memo, seats) -> int64`` after looking (§1.3): pass (0) or a bid.  ``hand``: uint64, 7 cards;
  ``others_blind``: bool, another seat has bid blind in this deal (blind bids are public);
  ``memo``: float64[4, 2], zeroed at the start of each deal, row ``seat`` the strategy's own
  cache.
* ``choose_contract(strategy, params, streams, seat, hand, bid, blind, talon, out) -> None``
  the declarer after the talon (§1.4).  ``hand``: uint64, his 10 cards (talon included);
  ``bid``: his winning bid; ``blind``: bool; ``talon``: uint64, the exposed 3 cards.  Fills
  ``out`` (int64[5]): ``[abandon 0/1, trump 0..3 or NT 4, target, card given to the first
  opponent clockwise, card given to the second]``, entries 1-4 zero when abandoning.
  ``choose_contract_in(…, talon, trump, out)``: the same with the trump forced by a question
  (the gifts and target chosen for that trump; never abandoning).
* ``choose_card(strategy, params, streams, seat, hand, legal, trick, led, trump, played, is_declarer,
  won_any, decl_pos, declarer, seen, auction) -> int64`` a card (§1.5, §1.6): an index from ``legal``,
  plus ``DECLARE_FLAG`` to declare a marriage when leading.  ``hand``/``legal``/``played``:
  uint64 bit sets (played = every card played so far in the deal, this trick's included);
  ``trick``: uint64 bit set of the cards already played to this trick (0 when leading);
  ``led``: the trick's first card (-1 when leading); ``trump``: 0..3 or NT (4);
  ``is_declarer``/``won_any``: bools (won_any = the seat has won a trick this deal);
  ``decl_pos``: the declarer's place in this trick's order (0 = he leads it, 1, 2);
  ``declarer``: the declarer's seat; ``seen``: uint64[2, 4], the public record of the play by
  seat (everyone sees who plays each card, §1.5): ``seen[SEEN_CARDS, s]`` the cards seat ``s``
  has played this deal, ``seen[SEEN_VOIDS, s]`` the whole suits (6-bit lanes) it has shown it
  holds none of (constants.SEEN_CARDS / SEEN_VOIDS; read-only, the engine's own array).
  ``auction``: read only by ``pimc:auction=1`` (:func:`.pimc.pimc_card`): the tuple ``(readable
  int64, dealer, seats, sids int64[seats], params, scores int64[4], calls int64[MAX_CALLS],
  ncalls, looked int64, talon uint64, own uint64, gift1 int64, gift2 int64)`` — whether the
  calls were the strategies' own (0 under a forced contract or call), every seat's strategy
  (public in this model: the worlds replay their calls), the scores before the deal, the calls
  (trace codes), which seats looked (bit ``s``), the exposed talon (§1.4); and what the seat
  alone knows: its dealt hand ``own`` and, for the declarer, the cards he gave the first and the
  second opponent (-1 for a defender).  :func:`unread_auction` makes one for direct calls.

The heuristic family (heuristic, chart, pimc's contract and its heuristic cards) breaks its ties
between suits by the seat's own random order of the suits (:mod:`cardsim.suit_order`, drawn from
the seat's stream word, which it reads without advancing): the contract sees its ten cards
relabelled by it and is mapped back; the card play takes the order and uses it wherever equal
cards of several suits tie (strategies._first_by_label).  A tie (gifts of equal use, equal
estimates, the lowest card of equal value) falls to each suit equally often, so a hand symmetric
between two suits plays alike in either.
heuristic_v1 and heuristic_v2 keep the identity order (ties to the lowest suit index) so that old
results stay reproducible; random draws uniformly already.

Apart from the tables, ``memo``, ``out`` and ``seen``, views are scalars and bit sets: every
array passed to an inlined function costs an atomic reference-count increment and decrement per
call, and in the per-card loop those dominated the engine's time (keep new views array-free;
``seen`` is one array the engine keeps for the whole chunk, never built per trick).
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.games.g501.constants import LOOK, MAX_CALLS
from cardsim.games.g501.pimc import pimc_card
from cardsim.games.g501.rulekernel import (
    ABANDON, NO_RULE, base_of, rules_abandon, rules_blind, rules_contract, rules_declare, rules_looked,
)
from cardsim.games.g501.strategies import (
    CHART, HEURISTIC, HEURISTIC_V1, HEURISTIC_V2, HEURISTIC_V5, HEURISTIC_V7, HEURISTIC_V8, HEURISTIC_V9, PIMC, RANDOM,
    RULES,
    chart_blind, chart_contract, chart_contract_in, chart_open,
    heuristic_blind, heuristic_contract, heuristic_contract_in, heuristic_open, heuristic_play_v1,
    heuristic_play_voids, heuristic_play_voids_v5, heuristic_play_voids_v7, heuristic_play_voids_v8,
    heuristic_play_voids_v9, random_blind, random_contract, random_open, random_play, view_voids,
)
from cardsim.strategies.unhandled import unhandled
from cardsim.suit_order import IDENTITY, card_from_label, cards_to_label, from_label, order_of, to_label

U64 = np.uint64


@jit(inline="always")
def seat_order(strategy, word):
    """The suit order (cardsim.suit_order) a strategy of the heuristic family decides through: the
    seat's own, drawn from its stream word ``word``, so that no suit wins a tie by its label; the
    identity for heuristic_v1 and heuristic_v2, which keep their old play (ties to the lowest suit
    index) so that old results stay reproducible.  The engine draws it once a deal for the play
    (:func:`choose_card_voids`); the other decisions draw it from ``streams``: the same word after
    the auction, for the heuristic family draws nothing from it there."""
    if strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2:
        return IDENTITY
    return order_of(word)


@jit(inline="always")
def _contract_from_label(out, order):
    """``out`` (int64[5]) of a contract decided on relabelled cards, back in the real suits."""
    if out[0] == 0:
        out[1] = from_label(out[1], order)
        out[3] = card_from_label(out[3], order)
        out[4] = card_from_label(out[4], order)


@jit(inline="always")
def choose_blind(strategy, params, streams, seat, position, score, rival, cur_bid, seats):
    """The seat's call before looking: LOOK, pass or a blind bid (docs/RULES.md §1.3).  A ``rules``
    seat calls as its file's first blind rule that holds (:func:`.rulekernel.rules_blind`), else
    as its base strategy, whose id the row holds."""
    if strategy == RULES:
        call = rules_blind(params[seat], position, score, rival, cur_bid, seats)
        if call != NO_RULE:
            return call
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V5 or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2
            or strategy == PIMC or strategy == HEURISTIC_V7 or strategy == HEURISTIC_V8 or strategy == HEURISTIC_V9):
        return heuristic_blind(params[seat], streams[1 + seat], position, score, cur_bid)
    elif strategy == CHART:
        return chart_blind(params[seat], position, score, rival, cur_bid)
    elif strategy == RANDOM:
        return random_blind(params[seat], streams[1 + seat], cur_bid)
    unhandled("blind", strategy, seat)
    return np.int64(LOOK)  # not reached: unhandled raised


@jit(inline="always")
def choose_call(strategy, params, streams, seat, hand, position, score, rival, cur_bid, others_blind, memo, seats):
    """The seat's call after looking at ``hand``: pass or a bid (docs/RULES.md §1.3); a ``rules``
    seat as its file's first rule after looking that holds (:func:`.rulekernel.rules_looked`), else
    as its base strategy."""
    if strategy == RULES:
        call = rules_looked(params[seat], hand, position, score, rival, cur_bid, others_blind, seats)
        if call != NO_RULE:
            return call
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V5 or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2
            or strategy == PIMC or strategy == HEURISTIC_V7 or strategy == HEURISTIC_V8 or strategy == HEURISTIC_V9):
        return heuristic_open(params[seat], hand, cur_bid, memo[seat], rival, others_blind)
    elif strategy == CHART:
        return chart_open(params[seat], hand, cur_bid, memo[seat], rival, others_blind)
    elif strategy == RANDOM:
        return random_open(params[seat], streams[1 + seat], cur_bid)
    unhandled("call", strategy, seat)
    return np.int64(0)  # not reached


@jit
def choose_contract(strategy, params, streams, seat, hand, bid, blind, talon, out):
    """The declarer's abandon or contract and gifts into ``out`` (int64[5]), docs/RULES.md §1.4.  A
    ``rules`` seat abandons or declares as its file's first talon rule that holds
    (:func:`.rulekernel.rules_contract`; a declare's trump and gifts are heuristic's, in the seat's
    suit order), else decides as its base strategy."""
    params, streams, out = borrowed(params), borrowed(streams), borrowed(out)
    if strategy == RULES:
        p = rules_contract(params[seat], hand, bid, blind)
        if p >= 0:
            if np.int64(params[seat, p + 1]) == ABANDON:
                rules_abandon(out)
                return
            order = seat_order(HEURISTIC, streams[1 + seat, 0])
            rules_declare(params[seat], p, cards_to_label(hand, order), bid, out)
            _contract_from_label(out, order)
            return
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V5 or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2
            or strategy == PIMC or strategy == HEURISTIC_V7 or strategy == HEURISTIC_V8 or strategy == HEURISTIC_V9):
        order = seat_order(strategy, streams[1 + seat, 0])
        heuristic_contract(params[seat], cards_to_label(hand, order), bid, out)
        _contract_from_label(out, order)
        return
    elif strategy == CHART:
        order = seat_order(strategy, streams[1 + seat, 0])
        chart_contract(params[seat], cards_to_label(hand, order), bid, out)
        _contract_from_label(out, order)
        return
    elif strategy == RANDOM:
        random_contract(params[seat], streams[1 + seat], hand, bid, out)
        return
    unhandled("contract", strategy, seat)


@jit
def choose_contract_in(strategy, params, streams, seat, hand, bid, blind, talon, trump, out):
    """:func:`choose_contract` when a question forces the ``trump`` (0..3, NT 4): the declarer's
    gifts and target chosen for that trump, not for the trump he would have chosen (a hand
    symmetric between two suits would otherwise play better in one of them); the engine then
    imposes the forced trump and target.  The random strategy's choice does not depend on the
    trump: its own :func:`choose_contract` draw.  A ``rules`` seat as its base strategy (a forced
    contract is never abandoned, and its target is the base's)."""
    params, streams, out = borrowed(params), borrowed(streams), borrowed(out)
    if strategy == RULES:
        strategy = base_of(params[seat])
    if (strategy == HEURISTIC or strategy == HEURISTIC_V5 or strategy == HEURISTIC_V1 or strategy == HEURISTIC_V2
            or strategy == PIMC or strategy == HEURISTIC_V7 or strategy == HEURISTIC_V8 or strategy == HEURISTIC_V9):
        order = seat_order(strategy, streams[1 + seat, 0])
        heuristic_contract_in(params[seat], cards_to_label(hand, order), bid, to_label(trump, order), out)
        _contract_from_label(out, order)
        return
    elif strategy == CHART:
        order = seat_order(strategy, streams[1 + seat, 0])
        chart_contract_in(params[seat], cards_to_label(hand, order), bid, to_label(trump, order), out)
        _contract_from_label(out, order)
        return
    elif strategy == RANDOM:
        random_contract(params[seat], streams[1 + seat], hand, bid, out)
        return
    unhandled("contract", strategy, seat)


def unread_auction(params):
    """An ``auction`` record for :func:`choose_card` outside a deal (tests, direct calls): no calls,
    marked not readable, so a ``pimc`` seat's worlds match the play only.  ``params``:
    float64[seats, N_PARAMS], every seat's row."""
    params = np.asarray(params, dtype=np.float64)
    return (np.int64(0), np.int64(0), np.int64(params.shape[0]), np.zeros(params.shape[0], dtype=np.int64), params,
            np.zeros(4, dtype=np.int64), np.zeros(MAX_CALLS, dtype=np.int64), np.int64(0), np.int64(0), U64(0), U64(0),
            np.int64(-1), np.int64(-1))


@jit(inline="always")
def choose_card(strategy, params, streams, seat, hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos,
                declarer, seen, auction):
    """The seat's card from ``legal`` (+ DECLARE_FLAG to declare a marriage), docs/RULES.md §1.5-§1.6."""
    if (strategy == HEURISTIC or strategy == CHART or strategy == HEURISTIC_V2 or strategy == HEURISTIC_V5
            or strategy == HEURISTIC_V7 or strategy == HEURISTIC_V8 or strategy == HEURISTIC_V9):
        dvoid, pvoid = view_voids(seat, declarer, is_declarer, seen)
        return choose_card_voids(strategy, seat_order(strategy, streams[1 + seat, 0]), hand, legal, trick, led, trump,
                                 played, is_declarer, won_any, decl_pos, dvoid, pvoid)
    return choose_card_rest(strategy, params, streams, seat, hand, legal, trick, led, trump, played, is_declarer,
                            won_any, decl_pos, declarer, seen, auction)


@jit(inline="always")
def choose_card_rest(strategy, params, streams, seat, hand, legal, trick, led, trump, played, is_declarer, won_any,
                     decl_pos, declarer, seen, auction):
    """:func:`choose_card` for the strategies that :func:`choose_card_voids` does not handle (the
    engine asks it after choose_card_voids, so that the default play is compiled into the card loop
    once)."""
    if strategy == HEURISTIC_V1:
        return heuristic_play_v1(hand, legal, trick, led, trump, played, is_declarer, won_any)
    elif strategy == RANDOM:
        return random_play(params[seat], streams[1 + seat], hand, legal, led)
    elif strategy == PIMC:
        return pimc_card(params[seat], streams[1 + seat], hand, legal, trick, led, trump, played, is_declarer, won_any,
                         decl_pos, seat, declarer, seen, auction)
    unhandled("card", strategy, seat)
    return np.int64(0)  # not reached


@jit(inline="always")
def play_id(strategy, params, seat):
    """The strategy id that plays the cards of a seat of ``strategy``: a ``rules`` seat's base
    (its row's named entries are the base's parameters), any other strategy itself."""
    if strategy == RULES:
        return base_of(params[seat])
    return strategy


NOT_HERE = np.int64(-1)
"""What :func:`choose_card_voids` returns for a strategy that needs the whole view (:func:`choose_card`)."""


@jit(inline="always")
def choose_card_voids(strategy, order, hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                      pvoid):
    """The card of a strategy that reads no more of the view than scalars and the voids shown
    (``dvoid``: the declarer's, ``pvoid``: the other defender's SEEN_VOIDS lanes; for the declarer
    the two defenders', either order), the same card as :func:`choose_card` gives; NOT_HERE for the other strategies, which
    the engine then asks through :func:`choose_card_rest`.  No array argument: the engine calls it for
    every card, and each array passed to an inlined function costs two atomic reference-count
    updates a call (about a fifth of the deal's time when all the view went through ``choose_card``).
    ``order``: the seat's :func:`seat_order`, which the engine draws once a deal."""
    if strategy == HEURISTIC or strategy == CHART:
        return heuristic_play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                                    pvoid, order)
    if strategy == HEURISTIC_V9:
        # the card play before the fourth rules found with pimc, kept so that its results reproduce
        return heuristic_play_voids_v9(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                                       pvoid, order)
    if strategy == HEURISTIC_V8:
        # the card play before the declarer's marriage-keeping last-hand winner, kept so that its results reproduce
        return heuristic_play_voids_v8(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                                       pvoid, order)
    if strategy == HEURISTIC_V7:
        # the first card-play rules found with pimc (heuristic_v6 too), kept so that its results reproduce
        return heuristic_play_voids_v7(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                                       pvoid, order)
    if strategy == HEURISTIC_V5 or strategy == HEURISTIC_V2:
        # the card play before those rules, kept so that their results reproduce
        return heuristic_play_voids_v5(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid,
                                       pvoid, order)
    return NOT_HERE
