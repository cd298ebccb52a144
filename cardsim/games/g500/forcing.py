"""Five Hundred questions about a hand: forced choices, deals played from given hands, outcomes.

What ``cardsim evaluate 500`` forces on the evaluated seat:

* a bare call — ``P``, ``6S`` … ``10NT`` — is the seat's first call of the auction (docs/RULES.md
  §3.3: passes are final, so it is also its only pass); where a bid is not legal when the seat
  first speaks (someone bid as much or more before), the deal counts as one in which the option
  was not legal, and the seat's strategy calls instead;
* ``=CONTRACT`` (``=8H``) skips the auction: the seat declares that contract, takes the kitty
  and discards as its strategy decides, and leads (docs/RULES.md §3.4);
* ``lead:CARD/CONTRACT:DECLARER`` (``lead:AH/8H:0``; ``cardsim evaluate --contract 8H:0`` adds the
  contract to every ``lead:CARD``): the auction is skipped, seat DECLARER declares CONTRACT and
  leads CARD to the first trick.  In Five Hundred the declarer leads (docs/RULES.md §3.4), so the
  seat asking must be the declarer: a lead question is about the declarer's first card, the one
  card of the first trick the defence does not choose.  The declarer takes the kitty and
  discards as his strategy decides, except that he keeps CARD: where his strategy would put it
  away, he puts away instead the nearest card he keeps of its run of touching cards (else his
  lowest side card; ``engine.keep_lead``), so that every card of a run leaves the same hand in
  play; where he holds CARD neither dealt nor in the kitty, the deal counts as one in which the
  option was not legal.  A joker led in no-trump names a suit (docs/RULES.md §3.5): ``lead:HJ=H/8NT:0``.
  ``lead:auto`` is the same contract with the declarer's strategy's own lead.  The ``made``
  column of a lead option is the contract's made rate.

A question may also fix the calls made before the seat's first call (``auction``, from the
dealer's left; the dealer must be given).  The score of an option is the seat's side's score
change in the deal minus the other side's (points, under the run's scoring rule, docs/RULES.md §3.6);
higher is better.  ``before`` is the team scores ``[s0, s1]`` before the deal (0, 0 by default).
When asked about the game (``outcome="game"``, :func:`game_state`) the game is then played on
by the strategies to the run's ``target`` under its ``scoring`` (docs/RULES.md §3.6), the deal
passing left, and the score is the seat's side's share of the win (1 won, 0 lost; 0.5 for a
game that reaches the engine's cap of :data:`engine.MAX_MATCH_DEALS` deals); its later deals
come from the evaluated deal's key, the same for every option (``engine.given_kernel``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.cards import SUITS, CardError, suit_letters
from cardsim.games.base import OptionError, Setup
from cardsim.games.forced import F_CALL, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT, FORCE_CONTRACT, FORCE_NONE
from cardsim.games.options import option_vector, touching_groups
from cardsim.text import quote

from . import engine as E
from .chunks import start_state
from .constants import DENOMINATIONS, FULL_EFF, HJ, LJ, NT, PASS, UNMAP, bid_str, card_str, parse_card
from .constants import parse_call
from .records import record_of, rule_numbers
from .rows import ROW_DTYPE, fill_rows

LOWER_IS_BETTER = False


@dataclass(frozen=True)
class State:
    """The state a Five Hundred question starts from: the team scores ``scores`` ``(s0, s1)``
    (points), whether the outcome is the game's win (``play_out``) or the deal's points, and
    whether the scores were given (``given``: records then carry them as ``before``)."""

    scores: tuple = (0, 0)
    play_out: bool = False
    given: bool = False
    tricks: bool = False
    """The question scores the seat's side's tricks in the deal."""

    def __iter__(self):  # ``s0, s1 = state``
        return iter(self.scores)

    def __getitem__(self, i):
        return self.scores[i]


def option_call(text: str) -> int:
    """Bid number (0..24) of ``6S`` … ``10NT``, or −1 for ``P`` (case-insensitive; a suit symbol for
    the letter, ``8♥``, :func:`cardsim.cards.suit_letters`); raises OptionError."""
    try:
        return parse_call(suit_letters(text).strip())
    except CardError:
        raise OptionError(f"{quote(text)} is not a Five Hundred call (P, or 6-10 tricks and S C D H NT, "
                          "e.g. 8H)") from None


def _prefix(auction, dealer, seat) -> list[int]:
    """The calls before ``seat``'s first call (from the dealer's left), checked: legal, at most
    three (passes are final), and then it is ``seat``'s turn (docs/RULES.md §3.3)."""
    calls = _calls(auction, dealer)
    if len(calls) > 3:
        raise OptionError("at most 3 calls come before a seat's first call (passes are final)")
    turn = (dealer + 1 + len(calls)) % 4 if calls else seat
    if turn != seat:
        raise OptionError(f"after {len(calls)} call(s) from the left of dealer {dealer} it is seat {turn}'s turn, "
                          f"not seat {seat}'s")
    return calls


def _calls(auction, dealer) -> list[int]:
    """The given calls from the dealer's left, checked: each bid above the one before it, the
    auction not ended (docs/RULES.md §3.3)."""
    if not auction:
        return []
    if not all(isinstance(c, str) for c in auction):
        raise OptionError("the auction before the seat's call is a list of calls such as ['P', '7H']")
    if dealer is None:
        raise OptionError("an auction before the seat's call needs the dealer (--dealer): his left speaks first")
    calls = [option_call(c) for c in auction]
    if len(calls) > E.MAX_PREFIX:
        raise OptionError(f"at most {E.MAX_PREFIX} calls before the seat's call")
    high = PASS
    for i, call in enumerate(calls):
        if call != PASS and call <= high:
            raise OptionError(f"call {i + 1} of the auction ({auction[i]}) is not higher than the bid before it")
        high = max(high, call)
    return calls


def _lead_prefix(what, auction, dealer, call: int, declarer: int) -> list[int]:
    """The given calls of a lead question (from the dealer's left), checked: legal, and the
    auction can still end in ``declarer``'s bid ``call`` (docs/RULES.md §3.3)."""
    calls = _calls(auction, dealer)
    if not calls:
        return []
    speakers, passed, turn = [], set(), (dealer + 1) % 4
    for c in calls:  # passes are final: a seat that passed is skipped
        while turn in passed:
            turn = (turn + 1) % 4
        speakers.append(turn)
        if c == PASS:
            passed.add(turn)
        turn = (turn + 1) % 4
    bids = [(c, who) for c, who in zip(calls, speakers) if c != PASS]
    if len(passed) == 4 or bids and len(passed) == 3:
        raise OptionError(f"{what}: that auction has already ended")
    if declarer in passed:
        raise OptionError(f"{what}: seat {declarer} passed in the calls given, and passes are final: it cannot declare")
    if bids and (bids[-1][0] > call or bids[-1][0] == call and bids[-1][1] != declarer):
        raise OptionError(f"{what}: after the calls given ({' '.join(auction)}) the auction cannot end in "
                          f"{bid_str(call)} by seat {declarer}")
    return calls


def contract_by(text: str, what: str) -> tuple[int, int]:
    """``(bid number, declarer seat)`` of ``CONTRACT:SEAT`` (``8H:0``: seat 0 declares 8 hearts);
    raises OptionError."""
    call_text, colon, who = str(text).strip().partition(":")
    if not colon or who.strip() not in ("0", "1", "2", "3"):
        raise OptionError(f"{what}: {quote(text)} is not a contract and its declarer: CONTRACT:SEAT such as 8H:0 "
                          "(seat 0 declares 8 hearts)")
    call = option_call(call_text)
    if call == PASS:
        raise OptionError(f"{what}: {quote(text)}: a contract needs a bid, not a pass")
    return call, int(who)


def _lead_vector(text, card_text: str, contract: str, seat: int, auction, dealer=None) -> np.ndarray:
    """The forced vector of ``lead:CARD[=SUIT]/CONTRACT:DECLARER`` for ``seat`` (see the module's doc)."""
    what = f"option {quote(text)}"
    call, declarer = contract_by(contract, what)
    if declarer != seat:
        raise OptionError(f"{what}: seat {seat} does not lead: in Five Hundred the declarer, seat {declarer}, leads the "
                          f"first trick (docs/RULES.md §3.4); ask as seat {declarer}")
    forced = np.zeros(E.F_LEN, dtype=np.int64)
    forced[F_KIND] = FORCE_CONTRACT
    forced[F_SEAT] = declarer
    forced[F_CALL] = call
    # given calls before the contract: questions.question has the strategies' auction reach it
    prefix = _lead_prefix(what, list(auction or ()), dealer, call, declarer)
    forced[F_NPREFIX] = len(prefix)
    forced[F_PREFIX:F_PREFIX + len(prefix)] = prefix
    token, eq, named = card_text.strip().partition("=")
    if token.lower() == "auto" and not eq:
        forced[E.F_LEAD] = -1
        return forced
    card = lead_card(token)
    forced[E.F_LEAD] = card + 1
    joker = card in (LJ, HJ)
    if call % 5 == NT and joker:
        suit = suit_letters(named).strip().upper()
        if not eq or suit not in SUITS or len(suit) != 1:
            raise OptionError(f"{what}: a joker led in no-trump names the suit the others must follow "
                              f"(docs/RULES.md §3.5): lead:{token.upper()}=S, =H, =D or =C")
        forced[E.F_NAMED] = SUITS.index(suit) + 1
    elif eq:
        raise OptionError(f"{what}: a suit is named only with a joker led in no-trump (docs/RULES.md §3.5)")
    return forced


def lead_card(text: str) -> int:
    """Physical card of a lead's card token (``AH``, ``A♥``, ``10H``, ``HJ``); raises OptionError."""
    try:
        return parse_card(suit_letters(str(text)).strip())
    except CardError:
        raise OptionError(f"{quote(text)} is not a Five Hundred card (a rank 4-9 T J Q K A and a suit S H D C, or "
                          "the jokers HJ LJ: the pack has no 2s or 3s, docs/RULES.md §3.1)") from None


def is_lead(forced) -> bool:
    """Whether the forced vector is a lead option's (``lead:CARD`` or ``lead:auto``)."""
    return int(forced[E.F_LEAD]) != 0


def _effective_order(denom: int) -> dict:
    """``{physical card: lane * 16 + place}`` in the play layout of ``denom``: ``place`` counts
    the cards of the lane from the lowest by trick rank (the jack of trumps and of its colour
    moved to the bowers, the jokers on top of trumps), so that touching places are touching
    cards; in no-trump the jokers are a lane of their own (lane 4)."""
    out = {}
    for lane in range(4):
        bits = [b for b in range(16) if int(FULL_EFF[denom]) >> (16 * lane + b) & 1]
        for place, b in enumerate(bits):
            phys = int(UNMAP[denom, 16 * lane + b])
            if denom == NT and phys in (LJ, HJ):
                continue
            out[phys] = 16 * lane + place
    if denom == NT:
        out[LJ], out[HJ] = 4 * 16, 4 * 16 + 1
    return out


LEAD_GROUPING = "cards touching in the contract's trick order, the jokers and both bowers counted in the trump suit"


def lead_groups(cards, talon, contract: str, seat: int, setup) -> tuple[list[list[str]], str]:
    """``--all-leads``: the declarer's given cards and the given kitty's (``cards``, ``talon``:
    physical card indices) as leads against ``contract`` (``CONTRACT:SEAT``; the seat must
    declare it), cards touching in the contract's trick order grouped, highest first: they take
    the same trick (only tricks score, docs/RULES.md §3.6), but the strategies may play on
    differently, so ``--all-leads`` plays each and keeps a group only where it scored the same on
    every deal (:mod:`cardsim.equal_leads`); a joker in no-trump is led naming each suit in turn.
    Returns ``(candidate groups of lead tokens, how)``; raises OptionError."""
    call, _ = contract_by(contract, "--contract")
    _lead_vector(f"--contract {contract}", "auto", contract, seat, ())
    denom = call % 5
    order = _effective_order(denom)
    by_place = {order[int(c)]: int(c) for c in set(cards) | set(talon)}
    groups = [[card_str(by_place[p]) for p in g] for g in touching_groups([p for p in by_place if p < 64])]
    jokers = [card_str(by_place[p]) for p in sorted((p for p in by_place if p >= 64), reverse=True)]
    if jokers:  # no-trump: a joker lead names a suit
        groups += [[f"{j}={s}" for j in jokers] for s in SUITS]
    return groups, LEAD_GROUPING


def reach(forced) -> str:
    """A lead option's contract in words (``8H by seat 0``): what a lead question's auction must
    end in (the declarer leads, docs/RULES.md §3.4)."""
    declarer = int(forced[F_SEAT])
    return f"{bid_str(int(forced[F_CALL]))} by seat {declarer}"


def contract_reached(rows: np.ndarray, forced) -> np.ndarray:
    """bool[n]: whether each deal's auction (``rows``, :func:`play_given`'s) ended in the contract
    of the lead option ``forced``, declared by its declarer."""
    return (rows["declarer"] == int(forced[F_SEAT])) & (rows["contract"] == int(forced[F_CALL]))


LEAD_MADE = "made, for lead options: the contract's made rate (you declare and lead)"
"""What the ``made`` column measures for lead options (printed under ``cardsim evaluate``'s table)."""


def parse_option(text: str, seat: int, setup: Setup, auction=(), dealer=None) -> np.ndarray:
    """The forced vector (int64[E.F_LEN], :mod:`cardsim.games.forced`) of option ``text`` for
    ``seat``, after the calls ``auction`` (from the dealer's left); raises OptionError."""
    t = str(text).strip()
    if t.lower().startswith("lead:"):
        card_text, slash, contract = t[5:].partition("/")
        if not slash:
            raise OptionError(f"option {quote(text)} needs the contract it is led against: --contract 8H:0 (seat 0 "
                              "declares 8 hearts) or lead:CARD/8H:0")
        return _lead_vector(text, card_text, contract, seat, auction, dealer)
    return option_vector(text, seat, E.F_LEN, option_call, PASS, _prefix(list(auction or ()), dealer, seat))


def auto_options(auction, seat: int, setup: Setup, dealer=None) -> list[str]:
    """``--option auto``: every legal first call of ``seat`` after the calls ``auction``: a pass
    and every bid above the highest one (docs/RULES.md §3.3), cheapest first."""
    high = max(_prefix(list(auction or ()), dealer, seat), default=PASS)
    calls = [f"{level}{d}" for level in range(6, 11) for d in DENOMINATIONS]
    return ["P"] + [c for c in calls if option_call(c) > high]


def declares(forced: np.ndarray) -> bool:
    # ``strategy`` may pass as well as bid: like a pass, its made rate is missing
    return int(forced[F_KIND]) != FORCE_NONE and int(forced[F_CALL]) != PASS


def parse_before(before, setup: Setup) -> State:
    """Team scores before the deal, ``(s0, s1)`` (points, docs/RULES.md §3.6), from None (0, 0) or
    ``[s0, s1]``; raises OptionError (not two whole numbers, out of range, or a side already at
    the target: the game is over; :func:`cardsim.games.g500.chunks.start_state`)."""
    return State(start_state(setup, before), False, before is not None)


def game_state(state: State) -> State:
    """The same state, asked about the game's win instead of the deal's points."""
    return State(state.scores, True, state.given)


def tricks_state(state: State) -> State:
    """The same state, asked about the seat's side's tricks in the deal."""
    return State(state.scores, False, state.given, True)


def _deal_state(state: State) -> State:
    return state


OUTCOMES = {"deal": _deal_state, "game": game_state, "tricks": tricks_state}
"""What a Five Hundred question may score (``cardsim evaluate 500 --outcome NAME``): the deal's
points (``deal``), the seat's side's share of the game's win (``game``) or its tricks (``tricks``)."""
OUTCOME_MEANINGS = {"tricks": "your side's tricks in the deal (0-10)"}


def _run(start, dealt, setup, forced, state, tracing):
    scoring, target = rule_numbers(setup.rules)
    n = len(dealt.dealers)
    out = np.zeros((n, E.R_LEN), dtype=np.int64)
    traces = np.zeros((n, E.TRACE_LEN if tracing else 0), dtype=np.int64)
    play_out = bool(getattr(state, "play_out", False)) and not tracing
    shares = np.zeros((n, 2), dtype=np.float64)
    E.given_kernel(np.asarray(dealt.keys, dtype=np.uint64), np.int64(start),
                   np.asarray(dealt.dealers, dtype=np.int64),
                   np.asarray(dealt.hands, dtype=np.uint64), np.asarray(dealt.talons, dtype=np.uint64),
                   setup.strategy_ids.astype(np.int64), setup.params.astype(np.float64), scoring, target,
                   np.int64(state[0]), np.int64(state[1]), np.asarray(forced, dtype=np.int64), out, traces,
                   np.bool_(play_out), shares)
    return out, traces, shares


GIVEN_DTYPE = np.dtype(ROW_DTYPE.descr + [("win_share", "f8")])
""":func:`play_given`'s rows: the deal's row and the seat's side's share of the game's win (0 when
the question is about the deal)."""


def play_given(seed, start, dealt, setup: Setup, forced, state):
    """Rows (GIVEN_DTYPE[n]) and forced-legal flags (bool[n]) of deals ``start ..`` played from the
    deals ``dealt`` (a :class:`cardsim.deal.DealtChunk`: dealers, hands, kitties as ``talons``,
    and the keys of the strategies' streams); with ``state.play_out`` each game is played on to
    its end and ``win_share`` is the evaluated seat's side's share of the win."""
    count = len(dealt.dealers)
    out, _, shares = _run(start, dealt, setup, forced, state, False)
    rows = fill_rows(np.zeros(count, dtype=ROW_DTYPE), out, np.arange(start, start + count, dtype=np.int64))
    given = np.zeros(count, dtype=GIVEN_DTYPE)
    for name in ROW_DTYPE.names:
        given[name] = rows[name]
    given["win_share"] = shares[:, int(forced[F_SEAT]) % 2]
    return given, out[:, E.R_FORCED_OK] == 1


def agreed_calls(keys, dealers, hands, talons, setup: Setup, forced, state) -> np.ndarray:
    """How many of the given calls of ``forced`` (int64[F_LEN], ``forced[F_IMPLIED] == CHECK_CALLS``)
    the callers' strategies make, per candidate deal (int64[n]; :class:`cardsim.deal.Calls`)."""
    agreed = np.zeros(len(keys), dtype=np.int64)
    scoring, target = rule_numbers(setup.rules)
    s0, s1 = (0, 0) if state is None else (state[0], state[1])
    E.agreed_calls(np.asarray(keys, dtype=np.uint64), np.asarray(dealers, dtype=np.int64),
                   np.asarray(hands, dtype=np.uint64), setup.strategy_ids.astype(np.int64),
                   setup.params.astype(np.float64), np.int64(scoring), np.int64(target), np.int64(s0), np.int64(s1),
                   np.asarray(forced, dtype=np.int64), agreed)
    return agreed


def outcome(rows: np.ndarray, seat: int, state=None):
    """``(declared, made, score)`` per row for ``seat``'s side (score: its change minus the other's,
    or its share of the game's win when the question is about the game, ``state.play_out``)."""
    team = seat % 2
    declared = (rows["declarer"] >= 0) & (rows["declarer"] % 2 == team)
    made = declared & rows["made"]
    if getattr(state, "play_out", False):
        return declared, made, rows["win_share"].astype(np.float64)
    if getattr(state, "tricks", False):
        return declared, made, rows[f"tricks_{team}"].astype(np.float64)
    score = rows[f"delta_{team}"].astype(np.float64) - rows[f"delta_{1 - team}"].astype(np.float64)
    return declared, made, score


def trace_given(seed, deal, dealt, setup: Setup, forced, state) -> dict:
    """The docs/RECORDS.md record (with ``result``) of deal ``deal`` as :func:`play_given` plays
    it; ``dealt``: that one deal (a :class:`cardsim.deal.DealtChunk` of length 1)."""
    out, traces, _ = _run(deal, dealt, setup, forced, state, True)
    return record_of(out[0], traces[0], setup, None if tuple(state) == (0, 0) else tuple(state))
