"""Sampled-search card play (perfect-information Monte Carlo, "PIMC"): one player for every game.

At each of its card decisions with a choice, the ``pimc`` strategy

1. deals the cards its seat has not seen at random, ``worlds`` times, among the hidden holders
   (the other seats, and in Five Hundred the cards out of play): each holder gets exactly the
   number of cards it holds now, and no card it cannot hold (a suit it has shown out of, and
   what else the game's hooks know from the seat's view), every consistent layout equally
   likely (:func:`sample_worlds`, rejection from uniform deals);
2. solves every world double-dummy from the current position for each of its legal cards (the
   game's solver, through its :class:`Hooks`: DDS for Vint, :mod:`cardsim.games.g501.solver` and
   :mod:`cardsim.games.g500.solver` for the others), in the game's unit for its own side (Vint and Five
   Hundred: tricks; 501: the declarer's deal points, negated for a defender);
3. plays the card with the best **mean** over the worlds.  A tie goes to the card the seat's
   base strategy (the game's ``heuristic`` with the same parameters) would play, if it is among
   the best, else to the lowest card index.

Step 2 solves less than every card in every world: one card of each class of touching cards
(exact, :func:`touching_classes`), a first look at which cards are best in each of half the worlds
where the game's hooks can say (:func:`choose_classes`, null-window searches: a card best in all
of them is played) and the worlds in batches until the choice is sure (:func:`sequential`; the
two approximate: at most 5% of the searched decisions play another card than all the worlds
would, measured in tests/test_pimc_stop.py).

Why the mean and not a vote (the card that is best in most worlds): the mean is the expected
double-dummy value, the quantity the seat wants to maximise; a vote ignores by how much a card
wins or loses, so a card that is best by one trick in 60% of the worlds and three tricks worse
in the rest would win the vote and lose on average.  Where every world agrees (one card is
best in each of them) the mean agrees too, so that card (or an equally good one) is played.

What it uses of the auction: with ``auction=1`` (games whose hooks have ``auction``: Vint, Five
Hundred, and 501, whose worlds then also place the talon and the gifts the seat has seen) each
world must be one in which the seats' strategies make the calls made (:func:`sample_auction_worlds`:
rejection, falling back to the play-only worlds where too few pass in the budget); otherwise
nothing beyond what the game's hooks say, every world consistent with the play as likely as any
other.  Like every PIMC player it also assumes that it will know everything
from the next card on ("strategy fusion"), which overrates lines that need a later guess.

The seat's view only (DESIGN.md property 3): the jitted glue of each game passes this module
exactly the arguments its ``heuristic`` gets, never another seat's hand; the random worlds come
from a key made of the seat's own strategy stream (a pure function of seed, deal and seat),
the strategy's ``stream`` parameter and the number of cards played so far, so a decision is
reproducible for a seed whatever the chunking and the number of jobs.

Parameters (besides the base heuristic's, which the bidding and the talon / kitty play use):

* ``worlds``: worlds sampled a decision (1..256);
* ``stream``: the seed stream of the sampler (0..2³¹−1): another value samples other worlds;
* ``search``: which decisions search: 0 every card, 1 leads only, 2 follows only (elsewhere
  the base heuristic's card);
* ``side``: whose decisions search: 0 every seat, 1 the declaring side only, 2 the defence only;
* ``early``, ``early_worlds``: the first ``early`` tricks of the play (0 none) are
  played with the base heuristic's card (``early_worlds`` 0) or searched on ``early_worlds``
  worlds instead of ``worlds`` (a cheaper play where the full hands make the search costly);
  the default of ``early`` is the game's (:func:`register`'s ``defaults``; docs/pimc.md):
  Vint 4 (not measurably weaker than the full search, stronger with an earlier heuristic),
  501 1 and Five Hundred 3 with ``early_declaring`` 2 (each not measurably weaker), each in a
  fraction of its time; ``early=0`` is the full search in every game;
* ``early_declaring``: the first tricks the declaring side plays that cheaper way, in place of
  ``early`` when ``early`` is not 0 (-1, the default but in Five Hundred: ``early`` for every
  seat): the heuristic's early cards cost the declaring side more than the defence
  (:func:`early_tricks`);
* ``auction`` (only where the game's hooks read the auction): 1 deals the worlds consistently
  with the calls too.

The engine calls :func:`decide` (through numba's object mode: a few microseconds per decision
against milliseconds of solving) with a game's :class:`Hooks`; a game opts in by building its
hooks and registering the strategy with :func:`register`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import sqrt
from typing import Any, Callable

import numpy as np

from cardsim._jit import jit
from cardsim.rng import mix64, shuffle, uniform
from cardsim.strategies.registry import Registry, Strategy

U64 = np.uint64

PARAMS = {"worlds": 16.0, "stream": 0.0, "search": 0.0, "side": 0.0, "early": 0.0, "early_worlds": 0.0,
          "early_declaring": -1.0}
"""The sampled search's own parameters and their defaults (appended to the base heuristic's); a
game's registration may replace some of them (:func:`register`'s ``defaults``)."""
PARAM_DOCS = {
    "worlds": "worlds (random layouts of the unseen cards) solved double-dummy at each decision",
    "stream": "seed stream of the world sampler: another value samples other worlds",
    "search": "decisions searched: 0 every card, 1 leads only, 2 follows only (elsewhere the heuristic's card)",
    "side": "seats that search: 0 every seat, 1 the declaring side only, 2 the defence only",
    "early": "the first `early` tricks of the play (0 none: the full search) are played the cheaper early way "
             "(early_worlds): the full hands' searches cost most of the time; the default is the game's",
    "early_worlds": "worlds searched at a decision of the first `early` tricks, in place of `worlds`; 0 plays "
                    "the heuristic's card there",
    "early_declaring": "the first tricks the declaring side plays the cheaper early way, in place of `early` "
                       "when `early` is not 0 (-1: `early`); the defence keeps `early`",
}
BOUNDS = {"worlds": (1, 256), "stream": (0, 2**31 - 1), "search": (0, 2), "side": (0, 2), "early": (0, 13),
          "early_worlds": (0, 256), "early_declaring": (-1, 13), "auction": (0, 1)}
KINDS = {"worlds": "int", "stream": "int", "search": "int", "side": "int", "early": "int", "early_worlds": "int",
         "early_declaring": "int", "auction": "int"}
AUCTION_PARAMS = {"auction": 0.0}
"""The parameter of the games whose hooks read the auction (:func:`sample_auction_worlds`): 0 off
(the worlds match the play only), 1 on."""
AUCTION_DOC = ("1: each world is dealt so that the seats' strategies would have made the calls made (rejection, "
               "each world with its own strategy streams); where fewer than `worlds` of AUCTION_BUDGET x worlds "
               "candidates pass, the worlds match the play only")
AUCTION_BUDGET = 256
"""Candidate worlds tried per world asked before the auction sampler falls back (see
:func:`sample_auction_worlds`)."""
SEARCH_ALL, SEARCH_LEADS, SEARCH_FOLLOWS = 0, 1, 2
SIDE_ALL, SIDE_DECLARING, SIDE_DEFENDING = 0, 1, 2
TRIES = 32
"""Uniform deals tried per world before the sampler counts the consistent layouts instead (see
:func:`sample_worlds`)."""
_PIMC_SALT = U64(0x3C6EF372FE94F82B)
_BATCH_SALT = U64(0xBB67AE8584CAA73B)
_WORLD_SALT = U64(0x9B05688C2B3E6C1F)


def register(registry: Registry, id: int, base: Strategy, reads_auction: bool = False,
             defaults: dict | None = None) -> Strategy:
    """Register ``pimc`` (dispatch id ``id``) in a game's ``registry``: the parameters of the
    ``base`` strategy (the game's ``heuristic``, whose bidding and card fallback it keeps) at the
    same positions of the row, then :data:`PARAMS`, then :data:`AUCTION_PARAMS` when the game's
    hooks can read the auction (``reads_auction``: its :class:`Hooks` has ``auction``); the
    base's tunable parameters are its tunables (its bidding is the base's).

    ``defaults``: the game's own defaults of the search's parameters (name -> value, names from
    :data:`PARAMS` / :data:`AUCTION_PARAMS`), replacing :data:`PARAMS`' values: what the search
    costs and gains differs by game (in Vint the heuristic's first four tricks and the search
    after them were not measurably weaker than the search at every trick, at a tenth of its
    time; in 501 the first trick costs most of the time), so plain ``pimc`` is each game's
    cheapest play measured not weaker, and a spec still sets any value (``pimc:early=0``, the
    full search).  Raises ValueError for a name
    that is not one of those parameters or a value outside its :data:`BOUNDS` / :data:`KINDS`.
    Returns the :class:`Strategy`."""
    own = {**PARAMS, **(AUCTION_PARAMS if reads_auction else {})}
    unknown = sorted(set(defaults or {}) - set(own))
    if unknown:
        raise ValueError(f"pimc defaults for {registry.game}: {', '.join(map(repr, unknown))} "
                         f"not among the search's parameters ({', '.join(own)})")
    own.update({key: float(value) for key, value in (defaults or {}).items()})  # bounds checked by Registry.add
    docs = {**PARAM_DOCS, **({"auction": AUCTION_DOC} if reads_auction else {})}
    return registry.add(
        "pimc", id, {**base.params, **own},
        "sampled-search card play (PIMC): at each card, deals the unseen cards `worlds` times consistently "
        "with the play so far" + (" (and with auction=1, with the calls made)" if reads_auction else "")
        + ", solves each world double-dummy and plays the card with the best mean; bids "
        "and handles the talon/kitty like heuristic (same parameters)",
        {**base.param_docs, **docs}, {**base.bounds, **{k: BOUNDS[k] for k in own}},
        {**base.kinds, **{k: KINDS[k] for k in own}}, search=True,
        tunables=base.tunables)


@dataclass
class Position:
    """A seat's card decision, as the sampler and the solver need it (built by a game's hooks
    from the seat's view alone).

    * ``legal``: int64[L], the legal cards (card indices, ascending);
    * ``unseen``: int, bit set of the cards the seat has not seen (to be dealt);
    * ``counts``: int64[H], how many of them each hidden holder has now (sum = popcount(unseen));
    * ``allowed``: uint64[H], bit set of the cards each holder may hold;
    * ``lead``: the seat leads the trick (else it follows);
    * ``declaring``: the seat is on the declaring side;
    * ``fallback``: the base heuristic's card (the tie-break), a card index 0..63;
    * ``context``: whatever the game's ``solve`` needs besides the worlds (the seat's hand,
      trump, the trick so far ...), opaque here;
    * ``auction``: what the game's ``Hooks.auction`` needs to replay the calls in a world (the
      calls, the dealer, the seats' strategies, the line, who played which card: all public),
      opaque here; None where the auction cannot be read (not asked for, or calls that the
      strategies did not make: a forced contract or call);
    * ``trick``: the number of tricks completed before the decision (public).
    """

    legal: np.ndarray
    unseen: int
    counts: np.ndarray
    allowed: np.ndarray
    lead: bool
    declaring: bool
    fallback: int
    context: Any = None
    auction: Any = None
    trick: int = 0
    """Tricks completed before this decision (0 at the first trick): what ``early`` reads."""


@dataclass(frozen=True)
class Hooks:
    """What one game supplies to the sampled search.

    * ``position(view) -> Position``: from the seat's view (a tuple of the arguments the game's
      glue passes, the same its ``heuristic`` sees);
    * ``solve(position, worlds) -> float64[W, L]``: ``worlds`` uint64[W, H] (each row one card
      bit set per hidden holder, in ``position.counts``' order); entry ``[w, j]`` is the
      double-dummy value, for the seat's own side, of playing ``position.legal[j]`` now in world
      ``w`` (higher is better for the seat);
    * ``card(position, chosen) -> int``: the code the engine expects for the chosen legal card
      (a game may add a flag, e.g. 501's marriage declaration, kept in ``position.context``);
      default the card itself;
    * ``strategy``: the registered ``pimc`` strategy (its parameter positions);
    * ``classes(position) -> int64[L]``: optional, for each legal card the index (into ``legal``)
      of the highest card of its class of **equivalent** cards, cards that have the same
      double-dummy value in every world the seat may face (touching cards of one suit: see
      :func:`touching_classes`); only one card of a class is solved.  Default: every card its own;
    * ``unit``: the smallest difference of value between two cards that matters, in the
      solver's unit (a trick; 501: card points), the floor of the sequential rule's spread
      (:func:`sequential`).
    * ``auction(position, worlds, keys) -> bool[W]``: whether the seats' strategies, dealt the
      hands of each world (uint64[W, H] as for ``solve``, with the cards each seat has played
      given back), would have made the calls made, world ``w``'s strategy streams seeded from
      ``keys[w]`` (uint64[W]); a game may also drop there, from ``keys[w]``, worlds that what the
      seat has seen rules out or makes less likely (501: the talon's cards, the gifts);
      None: the game's worlds do not read the auction.
    * ``common(position, worlds) -> bool[L]``: optional, the legal cards that reach the best
      value for the seat in every one of ``worlds`` (uint64[W, H]), none when no card does (the
      intersection of the worlds' argmax sets, asked by null-window searches): the first look of
      :func:`choose_classes`.  None: the decision solves exact values only;
    * ``look``: the share of the worlds that first look asks (:func:`first_look`).
    """

    position: Callable
    solve: Callable
    strategy: Strategy
    card: Callable | None = None
    classes: Callable | None = None
    unit: float = 1.0
    auction: Callable | None = None
    common: Callable | None = None
    look: float = 0.5
    """The share of the worlds the first look asks (:func:`first_look`, at least 6): the game's
    measured choice against the stated error."""


@dataclass
class Counters:
    """Per-process tallies (for ``make bench`` and tests): decisions searched, worlds solved,
    decisions not searched (one legal card, or not the seat's kind of decision), decisions whose
    legal cards were all equivalent (no search), decisions stopped before their last world."""

    searched: int = 0
    worlds: int = 0
    forced: int = 0
    equivalent: int = 0
    stopped: int = 0
    read: int = 0
    """Searched decisions whose worlds were asked to read the auction (``auction=1`` and an
    auction the strategies made)."""
    fell_back: int = 0
    """Of those, the decisions whose worlds match the play only: too few accepted in the budget."""
    tried: int = 0
    accepted: int = 0
    """Candidate worlds tested against the calls, and accepted, over the decisions that read it."""
    common: int = 0
    """Searched decisions settled by the first look (:func:`choose_classes`): a card best in
    each of its worlds."""
    early: int = 0
    """Decisions with a choice in the first ``early`` tricks: played with the heuristic's card
    (``early_worlds=0``) or searched on ``early_worlds`` worlds (then counted in ``searched`` too)."""


COUNTERS = Counters()


def decision_key(state: int, stream: int, played: int, seat: int) -> int:
    """The sampler's key (uint64 as int) of one decision: the seat's strategy stream state
    ``state``, the ``stream`` parameter, the number of cards ``played`` so far and the ``seat``."""
    return int(mix64(mix64(U64(state) ^ _PIMC_SALT) ^ U64(stream * 1_000_003 + played * 7 + seat + 1)))


@jit
def _layout_counts(type_n, type_mask, counts, strides, size, fact):
    """float64[T + 1, size]: entry ``[t, s]`` is the number of ways to deal the cards of types
    ``t ..`` to the holders so that holder ``h`` gets exactly ``(s // strides[h]) % (counts[h] + 1)``
    of them (each card to a holder its type allows).  Built type by type from the last, each type
    holder by holder: ``F[j, s]`` sums, over the ways to put ``j`` of the type's cards with the
    holders so far, the product of ``1/k!`` times the count of the rest.  ``fact``: float64[65],
    ``fact[k] = k!``."""
    n_types = type_n.shape[0]
    h_count = counts.shape[0]
    table = np.zeros((n_types + 1, size))
    table[n_types, 0] = 1.0
    for t in range(n_types - 1, -1, -1):
        n = type_n[t]
        f = np.zeros((n + 1, size))
        f[0, :] = table[t + 1, :]
        for h in range(h_count):
            if not (type_mask[t] >> h) & 1:
                continue
            g = np.zeros((n + 1, size))
            for s in range(size):
                cap = (s // strides[h]) % (counts[h] + 1)
                for j in range(n + 1):
                    acc = 0.0
                    for k in range(min(j, cap) + 1):
                        acc += f[j - k, s - k * strides[h]] / fact[k]
                    g[j, s] = acc
            f = g
        table[t, :] = f[n, :] * fact[n]
    return table


@jit
def sample_worlds(key, unseen, counts, allowed, n_worlds):
    """``n_worlds`` random layouts of the ``unseen`` cards (uint64 bit set) among the holders,
    each uniform over the layouts consistent with what the seat saw.

    ``counts`` int64[H] cards per holder now, ``allowed`` uint64[H] the cards each may hold.
    Returns (uint64[n_worlds, H] hands, int64 worlds drawn by counting).  A world is first a
    uniform deal of the unseen cards in those counts, redrawn until every holder holds only
    allowed cards (uniform over the consistent layouts).  After :data:`TRIES` misfits (a holder
    void in a suit of which many cards are unseen) the layouts are counted exactly instead
    (:func:`_layout_counts`, cards grouped by which holders may hold them) and the world is drawn
    type by type in proportion to the number of completions: uniform too.  When no layout fits
    (never, for a seat's view of a legal deal) every world is all zero.
    """
    h_count = counts.shape[0]
    cards = np.empty(64, dtype=np.int64)
    m = 0
    for c in range(64):
        if (U64(unseen) >> U64(c)) & U64(1):
            cards[m] = c
            m += 1
    out = np.zeros((n_worlds, h_count), dtype=np.uint64)
    state = np.empty(1, dtype=np.uint64)
    state[0] = U64(key)
    counted = 0
    table = np.zeros((1, 1))
    type_n = np.zeros(0, dtype=np.int64)
    type_mask = np.zeros(0, dtype=np.int64)
    type_cards = np.zeros((0, 64), dtype=np.int64)
    strides = np.ones(h_count, dtype=np.int64)
    size = 1
    for h in range(h_count):
        strides[h] = size
        size *= counts[h] + 1
    fact = np.ones(65)
    for i in range(1, 65):
        fact[i] = fact[i - 1] * i
    for w in range(n_worlds):
        done = False
        for _ in range(TRIES):
            shuffle(cards[:m], state)
            ok = True
            k = 0
            for s in range(h_count):
                hand = U64(0)
                for _i in range(counts[s]):
                    hand |= U64(1) << U64(cards[k])
                    k += 1
                if hand & ~allowed[s]:
                    ok = False
                    break
                out[w, s] = hand
            if ok:
                done = True
                break
        if done:
            continue
        if counted == 0:  # count the layouts once per decision
            masks = np.zeros(m, dtype=np.int64)
            for i in range(m):
                for s in range(h_count):
                    if (allowed[s] >> U64(cards[i])) & U64(1):
                        masks[i] |= 1 << s
            kinds = np.unique(masks)
            type_n = np.zeros(kinds.shape[0], dtype=np.int64)
            type_mask = kinds.copy()
            type_cards = np.zeros((kinds.shape[0], 64), dtype=np.int64)
            for i in range(m):
                for t in range(kinds.shape[0]):
                    if kinds[t] == masks[i]:
                        type_cards[t, type_n[t]] = cards[i]
                        type_n[t] += 1
            table = _layout_counts(type_n, type_mask, counts, strides, size, fact)
        counted += 1
        full = 0
        for h in range(h_count):
            full += counts[h] * strides[h]
        if table[0, full] <= 0.0:
            for s in range(h_count):
                out[w, s] = U64(0)
            continue
        for s in range(h_count):
            out[w, s] = U64(0)
        caps = counts.copy()
        split = np.zeros(h_count, dtype=np.int64)
        for t in range(type_n.shape[0]):
            n = type_n[t]
            here = 0
            for h in range(h_count):
                here += caps[h] * strides[h]
            target = uniform(state) * table[t, here]
            # Every split of the type's n cards over its holders (an odometer over the holders),
            # weighted by n!/prod(k!) times the completions of the rest.
            chosen = np.zeros(h_count, dtype=np.int64)
            split[:] = 0
            acc = 0.0
            while True:
                total = 0
                fits = True
                for h in range(h_count):
                    total += split[h]
                    if split[h] > caps[h]:
                        fits = False
                if fits and total == n:
                    rest = here
                    weight = fact[n]
                    for h in range(h_count):
                        rest -= split[h] * strides[h]
                        weight /= fact[split[h]]
                    weight *= table[t + 1, rest]
                    if weight > 0.0:
                        chosen[:] = split
                        acc += weight
                        if acc > target:
                            break
                h = 0  # next split: the odometer over the type's holders, each 0..min(n, caps)
                while h < h_count:
                    if (type_mask[t] >> h) & 1 and split[h] < min(n, caps[h]):
                        split[h] += 1
                        break
                    split[h] = 0
                    h += 1
                if h == h_count:
                    break
            shuffle(type_cards[t, :n], state)
            k = 0
            for h in range(h_count):
                for _i in range(chosen[h]):
                    out[w, h] |= U64(1) << U64(type_cards[t, k])
                    k += 1
                caps[h] -= chosen[h]
    return out, counted


@jit
def batch_key(key, batch):
    """The key (uint64) of candidate batch ``batch`` (int, from 1) of a decision's ``key``."""
    return mix64(U64(key) ^ (U64(batch) * _BATCH_SALT))


@jit
def world_keys(key, size):
    """uint64[size]: the key of each candidate world of a batch ``key`` (uint64), which seeds the
    seats' strategy streams when the world's auction is replayed: every world its own stream."""
    out = np.empty(size, dtype=np.uint64)
    for j in range(size):
        out[j] = mix64(U64(key) ^ (U64(j + 1) * _WORLD_SALT))
    return out


def sample_auction_worlds(key: int, position: Position, n: int, made: Callable,
                          budget: int = AUCTION_BUDGET) -> tuple[np.ndarray, int, int, bool]:
    """``n`` worlds of ``position`` dealt consistently with the play so far AND with the calls
    made, as the seats' strategies make them (the implied-calls rule of :mod:`cardsim.deal`,
    applied to the unseen cards).

    Candidates are drawn by :func:`sample_worlds` (uniform over the layouts consistent with the
    play), in batches of ``max(8 n, 64)`` each with its own key, and each is kept if
    ``made(position, worlds, keys)`` (the game's ``Hooks.auction``: the strategies, dealt the
    world's hands with the cards played given back, make every call of the auction, each world's
    strategy streams seeded from its own key, :func:`world_keys`).  Rejection, so the kept worlds
    are independent draws from the exact conditional distribution of the hidden hands given the
    play and the calls (under the model that the seats play the strategies they play).  The
    first ``n`` kept are used.  Where fewer than ``n`` pass among ``budget * n`` candidates, the
    worlds are those :func:`sample_worlds` gives with ``key`` (the play only: the same worlds as
    with the auction not read).

    ``key``: the decision's key (:func:`decision_key`); returns (uint64[n, H] worlds, candidates
    tried, candidates accepted, whether it fell back).
    """
    counts = np.asarray(position.counts, dtype=np.int64)
    allowed = np.asarray(position.allowed, dtype=np.uint64)
    total = int(budget) * int(n)
    kept, tried, accepted, batch = [], 0, 0, 0
    while tried < total and accepted < n:
        size = min(total - tried, max(8 * int(n), 64))
        batch += 1
        bkey = U64(batch_key(U64(key), np.int64(batch)))
        cands, _ = sample_worlds(bkey, U64(position.unseen), counts, allowed, np.int64(size))
        ok = np.asarray(made(position, cands, world_keys(bkey, np.int64(size))), dtype=bool)
        kept.append(cands[ok])
        tried += size
        accepted += int(ok.sum())
    if accepted >= n:
        return np.concatenate(kept)[:n], tried, accepted, False
    worlds, _ = sample_worlds(U64(key), U64(position.unseen), counts, allowed, np.int64(n))
    return worlds, tried, accepted, True


def decision_worlds(hooks: Hooks, position: Position, row: np.ndarray, key: int, counts: np.ndarray,
                    n: int) -> np.ndarray:
    """The ``n`` worlds a decision at ``position`` searches (uint64[n, H] hands, as
    :func:`sample_worlds` returns them), drawn from the key ``key``: read from the auction where
    the ``pimc`` parameters ``row`` ask (``auction=1``) and the game's ``hooks`` and the position
    allow it (:func:`sample_auction_worlds`, counted in :data:`COUNTERS`), else the play-only
    worlds of :func:`sample_worlds` for the holders' card ``counts``."""
    strategy = hooks.strategy
    if ("auction" in strategy.params and int(row[strategy.param_index("auction")]) == 1
            and hooks.auction is not None and position.auction is not None):
        worlds, tried, accepted, fell_back = sample_auction_worlds(key, position, n, hooks.auction)
        COUNTERS.read += 1
        COUNTERS.fell_back += int(fell_back)
        COUNTERS.tried += tried
        COUNTERS.accepted += accepted
        return worlds
    worlds, _exact = sample_worlds(U64(key), U64(position.unseen), counts,
                                   np.asarray(position.allowed, dtype=np.uint64), np.int64(n))
    return worlds


def searches(position: Position, row: np.ndarray, strategy: Strategy) -> bool:
    """Whether the ``pimc`` parameters ``row`` (float64[N_PARAMS]) search at ``position``."""
    search = int(row[strategy.param_index("search")])
    side = int(row[strategy.param_index("side")])
    if search == SEARCH_LEADS and not position.lead or search == SEARCH_FOLLOWS and position.lead:
        return False
    if side == SIDE_DECLARING and not position.declaring or side == SIDE_DEFENDING and position.declaring:
        return False
    return True


def early_counts(early: int, early_declaring: int) -> tuple[int, int]:
    """The first tricks played the cheaper early way by the defence and by the declaring side,
    for the ``pimc`` parameters ``early`` and ``early_declaring``: the declaring side's own count
    where it is not -1 and ``early`` is not 0, else ``early`` (``early=0`` is the full search for
    every seat, whatever a game's default ``early_declaring``)."""
    return early, (early_declaring if early > 0 and early_declaring >= 0 else early)


def early_tricks(position: Position, row: np.ndarray, strategy: Strategy) -> int:
    """How many first tricks of the play the seat at ``position`` plays the cheaper early way
    (:func:`decide`), by the ``pimc`` parameters ``row`` (float64[N_PARAMS]): the declaring
    side's count (``Position.declaring``) or the defence's, as :func:`early_counts` gives them.
    Why a count per side: in Five Hundred the heuristic's cards in the first three tricks lose
    the declaring side most of what they lose (BENCHMARKS.md, "Five Hundred's early tricks: where
    the heuristic loses")."""
    defence, declaring = early_counts(int(row[strategy.param_index("early")]),
                                      int(row[strategy.param_index("early_declaring")]))
    return declaring if position.declaring else defence


def default_early_counts(strategy: Strategy) -> tuple[int, int]:
    """A registered ``pimc`` strategy's default :func:`early_counts` (defence, declaring side)."""
    return early_counts(int(strategy.params["early"]), int(strategy.params["early_declaring"]))


def early_default(strategy: Strategy) -> str:
    """A registered ``pimc`` strategy's default early play as spec parameters, for captions and
    notes: ``"early=4"``, ``"early=3,early_declaring=2"`` where the declaring side's count is its
    own, ``"early=0"`` for the full search (:func:`early_counts`)."""
    defence, declaring = default_early_counts(strategy)
    return f"early={defence}" + (f",early_declaring={declaring}" if declaring != defence else "")


STOP = True
"""Whether the engine's decisions use the sequential rule (False: every world solved, the slow
path; a switch for measurements and tests, not a strategy parameter)."""
STOP_Z = 2.5
"""The sequential rule's threshold (:func:`sequential`): a card is surely worse than the leader
when its predicted standardised deficit over all the worlds is at least this."""


def touching_classes(legal: np.ndarray, hand: int, dead: int, group) -> np.ndarray:
    """int64[L]: for each card of ``legal`` (int64[L], ascending card indices, all in ``hand``)
    the index of the highest legal card it touches: two cards of one ranking ``group`` (``group(c)``,
    the bit set of the cards ranked against ``c``, higher bit = higher card) touch when every
    card of the group between them is in ``hand`` or ``dead`` (out of play in every world: played
    in a completed trick, or no card of the deck).  Touching cards win and lose the same tricks
    against every other card in play, so they have the same double-dummy value in a game whose
    value counts tricks (not in one that counts card points)."""
    out = np.arange(len(legal), dtype=np.int64)
    index = {int(c): j for j, c in enumerate(legal)}
    filled = int(hand) | int(dead)
    for j in range(len(legal) - 1, -1, -1):
        c = int(legal[j])
        g = int(group(c))
        above = g & ~((2 << c) - 1)  # the group's cards above c
        gap = above & ~filled
        # The next card above c in the group that is not filled: everything below it is.
        limit = (gap & -gap) if gap else (1 << 64)
        mine = above & int(hand) & (limit - 1)
        if mine:
            top = mine.bit_length() - 1
            if top in index:
                out[j] = out[index[top]]
    return out


def sequential(values: np.ndarray, total: int, unit: float, z: float = STOP_Z) -> tuple[bool, np.ndarray]:
    """The sequential rule over worlds: after the first ``n`` of ``total`` worlds, is the choice
    among the columns of ``values`` (float64[n, K], each world's value of each candidate card)
    settled, and which candidates are surely worse than the leader?  Returns ``(settled,
    worse)``, ``worse`` bool[K].

    The leader is a card with the best mean.  For each other card ``j`` the paired differences
    ``d = leader - j`` over the ``n`` worlds predict the sum over all ``total`` worlds: its mean
    ``total * mean(d)``, its variance ``s² * total * (total - n) / n`` (the ``total - n`` worlds to
    come, each with the spread ``s`` of the seen ones, plus the uncertainty of their mean), ``s``
    the sample standard deviation floored at ``unit``.  Card ``j`` is surely worse when the
    predicted sum is at least ``z`` standard deviations above 0:
    ``mean(d) * sqrt(n * total / (total - n)) / max(s, unit) >= z``; it is tied when ``d`` is 0
    in every world seen, at least 4 of them (and a quarter of ``total``).  The choice is settled when every other card is surely worse or tied
    (the tie is then broken as at the end, :func:`choose`).  Its error, the share of decisions
    whose card differs from the one all ``total`` worlds give, is measured in tests/test_pimc_stop.py
    and BENCHMARKS.md."""
    n, k = values.shape
    if k == 1 or n >= total:
        return True, np.zeros(k, dtype=bool)
    mean = values.mean(axis=0)
    lead = int(np.argmax(mean))
    d = values[:, lead:lead + 1] - values
    spread = d.std(axis=0, ddof=1) if n > 1 else np.zeros(k)
    score = d.mean(axis=0) * sqrt(n * total / (total - n)) / np.maximum(spread, unit)
    worse = score >= z
    # A tie seen in only two or three worlds is too often broken later (measured: twice the
    # wrong cards of waiting for four, for a few more worlds solved).
    tied = (d == 0).all(axis=0) & (n >= max(4, total // 4))
    return bool((worse | tied).all()), worse


def batch_size(total: int) -> int:
    """Worlds solved between two looks of the sequential rule: 2, or an eighth of ``total``."""
    return max(2, total // 8)


def choose(values: np.ndarray, legal: np.ndarray, fallback: int) -> int:
    """The card with the best mean of ``values`` (float64[W, L], the seat's side's DD value of
    each legal card in each world): ``fallback`` if it is among the best (within 1e-9), else the
    lowest such card."""
    mean = values.mean(axis=0)
    best = mean.max()
    ties = legal[mean >= best - 1e-9]
    return int(fallback) if int(fallback) in ties.tolist() else int(ties[0])


def settle(solve: Callable, total: int, k: int, unit: float, stop: bool = True):
    """The sequential loop of one decision over ``total`` worlds and ``k`` candidate cards:
    ``solve(cols, lo, hi)`` gives float64[hi - lo, len(cols)], the values of candidates ``cols``
    (int64 indices) in worlds ``lo .. hi - 1``.  Solves the worlds in batches of
    :func:`batch_size` (all at once when not ``stop``) until :func:`sequential` settles the
    choice, the candidates surely worse than the leader left out of the next batches.  Returns
    ``(values float64[total, k], alive int64[K'] the candidates left, done)``: rows ``0 ..
    done - 1`` of the ``alive`` columns are solved (the rest is 0)."""
    values = np.zeros((total, k), dtype=np.float64)
    alive = np.arange(k)
    done = 0
    step = batch_size(total) if stop else total
    while True:
        upto = min(total, done + step)
        values[done:upto, alive] = np.asarray(solve(alive, done, upto), dtype=np.float64)
        done = upto
        if done == total:
            break
        settled, worse = sequential(values[:done, alive], total, unit)
        if settled:
            COUNTERS.stopped += 1
            break
        alive = alive[~worse]
    return values, alive, done


def first_look(total: int, share: float = 0.5) -> int:
    """Worlds the first look of :func:`choose_classes` asks of ``total``: ``share`` of them (501
    half, Five Hundred three quarters: :attr:`Hooks.look`), at least 6.  Measured on 782 decisions
    of real 501 play (tests/test_pimc_stop.py's recording, seed 7), against the card of all the
    worlds: 4 of 8 worlds played 6.5% wrong cards, 6 of 8 1.5%; 4 of 16 9.7%, 8 of 16 3.1%; on 622
    decisions of Five Hundred (seed 8) 8 of 16 5.3%, 12 of 16 2.9%."""
    return min(total, max(6, int(total * share)))


def choose_classes(solve: Callable, common: Callable | None, total: int, k: int, unit: float,
                   stop: bool = True, look: float = 0.5) -> tuple[np.ndarray, int]:
    """The candidates with the best mean of one decision over ``total`` worlds and ``k``
    candidate cards: ``(int64 indices of the best candidates, worlds the choice was made on)``.

    With ``stop`` and a ``common(upto)`` (bool[k]: the candidates that reach the best value in
    each of worlds ``0 .. upto - 1``, :attr:`Hooks.common`), the first look: when some
    candidates are best in every one of the first :func:`first_look` worlds (``look``: their
    share), they are the
    answer (no exact value solved).  Approximate where those are fewer than ``total``: the
    later worlds might have moved the mean (its error with the sequential rule's is measured,
    tests/test_pimc_stop.py); over all the worlds it is exact (a card best in every world has
    the largest mean, and only those cards do).  Otherwise :func:`settle` with ``solve`` (its
    signature there) and the candidates of the best mean."""
    if stop and common is not None:
        upto = first_look(total, look)
        first = np.asarray(common(upto), dtype=bool)
        if first.any():
            COUNTERS.common += 1
            COUNTERS.stopped += int(upto < total)
            return np.flatnonzero(first), upto
    values, alive, done = settle(solve, total, k, unit, stop)
    mean = values[:done, alive].mean(axis=0)
    return alive[mean >= mean.max() - 1e-9], done


def decide(hooks: Hooks, row: np.ndarray, state: int, played: int, seat: int, view: tuple,
           stop: bool | None = None) -> int:
    """The ``pimc`` card of one decision (the module docstring), as the engine's code for it.

    ``row``: the seat's parameter row (float64[N_PARAMS]); ``state``: its strategy stream's
    state (uint64, read, not advanced); ``played``: cards played so far in the deal (the
    decision's number); ``view``: the game's view tuple for ``hooks.position``.  ``stop``: use
    the sequential rule (:func:`sequential`); False solves every world (the slow path); None
    (the engine's calls) reads :data:`STOP`.

    The same worlds as the slow path, three savings: one card per class of equivalent cards is
    solved (``hooks.classes``; the choice is the slow path's exactly); where the game has
    ``hooks.common``, a first look plays a card best in each of the first :func:`first_look`
    worlds (:func:`choose_classes`); else the worlds are solved in batches (:func:`batch_size`)
    until the sequential rule settles the choice, cards surely worse than the leader dropped
    from the next batches (the last two approximate: their error is measured).

    In the first ``early`` tricks (``Position.trick`` below the row's ``early``; for the
    declaring side ``early_declaring`` where it is not -1: :func:`early_tricks`) the decision
    plays the heuristic's card (``early_worlds`` 0) or searches ``early_worlds`` worlds in
    place of ``worlds``: a cheaper play, not the same one (its strength is measured against the
    full search in BENCHMARKS.md, "A cheaper first trick").
    """
    position = hooks.position(view)
    legal = np.asarray(position.legal, dtype=np.int64)
    strategy = hooks.strategy
    card_of = hooks.card or (lambda _position, chosen: chosen)
    if len(legal) == 1 or not searches(position, row, strategy):
        COUNTERS.forced += 1
        return int(card_of(position, int(position.fallback)))
    n = int(row[strategy.param_index("worlds")])
    if position.trick < early_tricks(position, row, strategy):
        # The first tricks' full hands cost most of a deal's search (BENCHMARKS.md, "A cheaper first
        # trick"): there the seat plays the heuristic's card, or searches fewer worlds.
        COUNTERS.early += 1
        n = int(row[strategy.param_index("early_worlds")])
        if n == 0:
            return int(card_of(position, int(position.fallback)))
    classes = (np.asarray(hooks.classes(position), dtype=np.int64) if hooks.classes is not None
               else np.arange(len(legal), dtype=np.int64))
    reps = np.unique(classes)
    if len(reps) == 1:  # every card ties in every world: the slow path plays the fallback
        COUNTERS.equivalent += 1
        return int(card_of(position, int(position.fallback)))
    key = decision_key(int(state), int(row[strategy.param_index("stream")]), played, seat)
    counts = np.asarray(position.counts, dtype=np.int64)
    worlds = decision_worlds(hooks, position, row, key, counts, n)
    worlds = worlds[worlds.any(axis=1) | (counts.sum() == 0)]
    total = len(worlds)
    if total == 0:  # no layout fits what the seat saw: cannot happen in a legal deal
        return int(card_of(position, int(position.fallback)))

    def solve(cols, lo, hi):
        return hooks.solve(replace(position, legal=legal[reps[cols]]), worlds[lo:hi])

    def common(upto):
        return hooks.common(replace(position, legal=legal[reps]), worlds[:upto])

    best, done = choose_classes(solve, common if hooks.common is not None else None, total, len(reps), hooks.unit,
                                STOP if stop is None else stop, hooks.look)
    COUNTERS.searched += 1
    COUNTERS.worlds += done
    best = set(reps[best].tolist())
    ties = [c for c, k in zip(legal.tolist(), classes.tolist()) if k in best]  # as the slow path's ties
    chosen = int(position.fallback) if int(position.fallback) in ties else ties[0]
    return int(card_of(position, chosen))
