"""501 questions about a hand: forced choices, deals played from given hands, outcomes.

What ``cardsim evaluate 501`` forces on the evaluated seat (docs/RULES.md §1.3-§1.4):

* ``blind:L`` — at its first turn the seat bids blind, the minimum raise, and goes on bidding
  blind at each turn while the minimum raise is at most ``L``; then it looks and its strategy
  bids.  Where even the first blind bid would exceed ``L`` (the auction is already too high),
  the option was not legal in that deal and the strategy decides;
* ``look`` — the seat looks at its hand at its first turn (its strategy then bids or passes);
* ``pass`` — the seat passes at its first turn (passes are final);
* ``=L`` / ``=L!`` — the seat won the auction at ``L``, having looked / blind (the auction is
  skipped, recorded as the shortest auction that reaches it); its strategy then takes the
  talon and abandons or declares; ``=L/TRUMP`` and ``=L/TRUMP/TARGET`` (``=100!/H/120``) also
  force the trump (S H D C NT) and the target: the contract is then played (no abandon), and
  his strategy chooses the two cards he gives, and the target unless forced, for that trump
  (``dispatch.choose_contract_in``), not for the trump it would have chosen;
* ``lead:CARD/BID[!]/TRUMP[/TARGET]:DECLARER`` (``lead:AS/100/H:2``; ``cardsim evaluate
  --contract 100/H:2`` adds the contract to every ``lead:CARD``): the auction is skipped, seat
  DECLARER won it at BID (``!``: blind) and declares TRUMP (and TARGET, else his strategy's, at
  least the bid), and the seat leads CARD to the first trick.  In 501 the first active player
  left of the dealer leads, whoever declared (docs/RULES.md §1.5): the dealer must be given and
  be the seat's right, and the seat may be the declarer (his lead from his ten cards less the two
  he gives; he never gives the card he is to lead) or a defender (his seven and the card he is
  given).  A lead of a K or Q whose partner the seat holds declares the marriage (§1.6: it can
  only add points).  Where the seat does not hold CARD when it leads, the deal counts as one in
  which the option was not legal.  ``lead:auto`` is the same contract with the seat's strategy's
  own lead.  The ``made`` column of a lead option is the contract's made rate where the seat
  declares, its set rate where it defends (:func:`outcome`).

A question may also fix the calls made before the seat's first turn (``auction``, from the
dealer's left, docs/RULES.md §1.3: ``P`` or ``pass``, a bid ``70``, a blind bid ``B70`` or
``blind:70`` as the option writes it; the dealer must be given).  ``before`` is every seat's score before the deal
(501 each by default).  The score of an option is the seat's own score change in the deal (score
points; lower is better, 501 counts down: ``questions.table`` turns it round) — or, when asked about the game
(``outcome="game"``), the seat's share of the game's win after the game is played on to its end
by the strategies (docs/RULES.md §1.8; higher is better, exact ties share).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from cardsim.cards import CardError, card_str, parse_card, suit_letters
from cardsim.games.base import OptionError, Setup
from cardsim.games.forced import (F_CALL, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT, FORCE_CONTRACT, FORCE_FIRST_CALL,
                                  FORCE_NONE)
from cardsim.text import quote

from . import engine as E
from .chunks import start_scores
from .constants import BLIND_FLAG, LOOK, MAX_BID, MIN_BID, RANKS, TRACE_LEN, DENOMINATIONS
from .records import record_of
from cardsim.games.options import STRATEGY, strategy_vector


@dataclass(frozen=True)
class State:
    """The game state a 501 question starts from: ``scores`` (int64[4], seat 3 is 0 with 3
    seats) and whether the outcome is the game's win (``play_out``) or the deal's score change."""

    scores: np.ndarray
    play_out: bool = False
    given: bool = False
    points: bool = False
    """The question scores the seat's deal points (card points won + effective marriages)."""


def _bid(text: str, what: str) -> int:
    if not re.fullmatch(r"[1-9][0-9]{1,2}", text):
        raise OptionError(f"{what}: {quote(text, 20)} is not a bid (a whole number from {MIN_BID} to {MAX_BID})")
    value = int(text)
    if not MIN_BID <= value <= MAX_BID:
        raise OptionError(f"{what}: a bid is from {MIN_BID} to {MAX_BID}, got {value}")
    return value


_CALL = re.compile(r"(b|blind:)?([1-9][0-9]{1,2})")


def _call(token, i: int) -> tuple[int, bool]:
    """``(bid, blind)`` of call ``i`` (from 0) of a given auction, ``(0, False)`` for a pass:
    ``P`` / ``pass``, ``70``, ``B70`` or ``blind:70`` (case-insensitive); raises OptionError
    quoting the call as written."""
    what = f"call {i + 1} of the auction ({quote(token)})"
    if not isinstance(token, str):
        raise OptionError(f"{what}: the auction before the seat's call is a list of calls such as "
                          f"['P', 'B70', '75']")
    t = token.strip().lower()
    if t in ("p", "pass"):
        return 0, False
    m = _CALL.fullmatch(t)
    if not m:
        raise OptionError(f"{what} is not a 501 call: P, a bid such as 70, or a blind bid B70 (also blind:70)")
    return _bid(m.group(2), what), bool(m.group(1))


def _read_prefix(auction, dealer, seat, seats, turn=True) -> tuple[list[int], set, int]:
    """Trace codes of the calls before ``seat``'s turn, checked against docs/RULES.md §1.3, the
    seats that have looked (bid without a blind mark) and the current bid (``turn`` False: the
    calls need not end at ``seat``'s turn, as before a lead)."""
    if not auction:
        return [], set(), 0
    if dealer is None:
        raise OptionError("an auction before the seat's call needs the dealer (--dealer): his left speaks first")
    if len(auction) > E.MAX_PREFIX:
        raise OptionError(f"at most {E.MAX_PREFIX} calls before the seat's call")
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    if seats == 4:
        order = [s for s in order if s != dealer]
    if seat not in order:
        raise OptionError(f"seat {seat} deals and sits out of this 4-seat deal")
    passed, looked, cur, codes, pos = set(), set(), 0, [], 0
    for i, token in enumerate(auction):
        bid, blind = _call(token, i)
        speaker = order[pos % 3]
        if not bid:
            codes.append(0)
            passed.add(speaker)
        else:
            if bid <= cur:
                raise OptionError(f"call {i + 1} of the auction ({token}) is not higher than the bid before it")
            if blind and speaker in looked:
                raise OptionError(f"call {i + 1} of the auction ({token}): seat {speaker} has looked, it cannot bid blind")
            if not blind:
                looked.add(speaker)
            cur = bid
            codes.append(bid + (BLIND_FLAG if blind else 0))
        if len(passed) == 3 or (cur and len(passed) == 2):
            raise OptionError("that auction has already ended")
        pos += 1
        while order[pos % 3] in passed:
            pos += 1
    if turn and order[pos % 3] != seat:
        raise OptionError(f"after {len(codes)} call(s) it is seat {order[pos % 3]}'s turn, not seat {seat}'s")
    return codes, looked, cur


def _prefix(auction, dealer, seat, seats) -> list[int]:
    """Trace codes of the calls before ``seat``'s turn (:func:`_read_prefix`)."""
    return _read_prefix(auction, dealer, seat, seats)[0]


_CONTRACT = re.compile(r"(\d+)(!?)/([a-z]+)(?:/(\d+))?:(\d+)")


def contract_by(text: str, what: str) -> tuple[int, bool, int, int, int]:
    """``(bid, blind, trump, target, declarer)`` of ``BID[!]/TRUMP[/TARGET]:SEAT`` (``100/H:2``:
    seat 2 won the auction at 100, having looked, and declares hearts; target 0 when not given:
    the declarer's strategy chooses it, at least the bid); trump 0..3 S C D H, 4 NT.  Raises
    OptionError."""
    m = _CONTRACT.fullmatch(suit_letters(str(text)).strip().lower())
    if not m:
        raise OptionError(f"{what}: {quote(text)} is not a 501 contract and its declarer: BID[!]/TRUMP[/TARGET]:SEAT "
                          "such as 100/H:2 (seat 2 won at 100 and declares hearts; ! for blind)")
    bid = _bid(m.group(1), what)
    trump = m.group(3).upper()
    if trump not in DENOMINATIONS:
        raise OptionError(f"{what}: the trump is one of {' '.join(DENOMINATIONS)}")
    target = 0
    if m.group(4):
        target = _bid(m.group(4), f"{what}: the target")
        if target < bid:
            raise OptionError(f"{what}: the target must not be below the bid (docs/RULES.md §1.4)")
    return bid, bool(m.group(2)), DENOMINATIONS.index(trump), target, int(m.group(5))


def first_leader(dealer: int, seats: int) -> int:
    """The seat that leads the first trick: the first active player left of the dealer
    (docs/RULES.md §1.5), whoever declared."""
    return (dealer + 1) % seats


def _lead_vector(text, card_text: str, contract: str, seat: int, setup: Setup, auction, dealer) -> np.ndarray:
    """The forced vector of ``lead:CARD/CONTRACT`` for ``seat`` (see the module's doc)."""
    what = f"option {quote(text)}"
    bid, blind, trump, target, declarer = contract_by(contract, what)
    seats = setup.seats
    if dealer is None:
        raise OptionError(f"{what}: in 501 the first player left of the dealer leads, whoever declared "
                          f"(docs/RULES.md §1.5): give the dealer, --dealer {(seat - 1) % seats} for seat {seat} "
                          f"to lead")
    leader = first_leader(dealer, seats)
    if seat != leader:
        raise OptionError(f"{what}: seat {seat} does not lead: with dealer {dealer} the first player on the dealer's "
                          f"left, seat {leader}, leads the first trick (docs/RULES.md §1.5)")
    if declarer >= seats or (seats == 4 and declarer == dealer):
        raise OptionError(f"{what}: seat {declarer} " + ("deals and sits out" if declarer < seats else
                                                         f"is not at this {seats}-seat table") + ": it cannot declare")
    forced = np.zeros(E.F_LEN, dtype=np.int64)
    forced[F_KIND] = FORCE_CONTRACT
    forced[F_SEAT] = declarer
    forced[F_CALL] = bid
    forced[E.F_BLIND] = 1 if blind else 0
    forced[E.F_TRUMP] = trump + 1
    forced[E.F_TARGET] = target
    forced[E.F_LEADER] = seat
    forced[E.F_LEAD] = -1 if card_text.strip().lower() == "auto" else lead_card(card_text) + 1
    # given calls before the contract: questions.question has the strategies' auction reach it
    prefix, looked, cur = _read_prefix(list(auction or ()), dealer, seat, seats, turn=False)
    if prefix and (cur > bid or cur == bid and _last_bidder(prefix, dealer, seats) != declarer):
        raise OptionError(f"{what}: after the calls given ({' '.join(auction)}) the auction cannot end at {bid} won "
                          f"by seat {declarer}")
    if prefix and blind and declarer in looked:
        raise OptionError(f"{what}: seat {declarer} has looked in the calls given: it cannot win the auction blind")
    forced[F_NPREFIX] = len(prefix)
    forced[F_PREFIX:F_PREFIX + len(prefix)] = prefix
    return forced


def _last_bidder(codes: list[int], dealer: int, seats: int) -> int:
    """The seat that made the last bid of the given calls (trace codes, from the dealer's left,
    a seat that passed skipped: docs/RULES.md §1.3), or -1."""
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    if seats == 4:
        order = [s for s in order if s != dealer]
    passed, pos, last = set(), 0, -1
    for code in codes:
        speaker = order[pos % 3]
        if code == 0:
            passed.add(speaker)
        else:
            last = speaker
        pos += 1
        while len(passed) < 3 and order[pos % 3] in passed:
            pos += 1
    return last


def reach(forced) -> str:
    """A lead option's contract in words (``100/H by seat 2``: the auction won at 100, ``!`` blind,
    hearts declared, and the target when given): what a lead question's auction and the
    declarer's choice of trump must end in (docs/RULES.md §1.3-§1.4)."""
    declarer = int(forced[F_SEAT])
    target = int(forced[E.F_TARGET])
    text = (f"{int(forced[F_CALL])}{'!' if forced[E.F_BLIND] else ''}/{DENOMINATIONS[int(forced[E.F_TRUMP]) - 1]}"
            + (f"/{target}" if target else ""))
    return f"{text} by seat {declarer}"


def contract_reached(rows: np.ndarray, forced) -> np.ndarray:
    """bool[n]: whether each deal (``rows``, :func:`play_given`'s) went as the lead option
    ``forced``'s contract says: its declarer won the auction at its bid (blind or not), kept the
    contract (did not abandon) and declared its trump, and its target when given."""
    ok = ((rows["declarer"] == int(forced[F_SEAT])) & (rows["bid"] == int(forced[F_CALL]))
          & (rows["blind"] == bool(forced[E.F_BLIND])) & rows["played"]
          & (rows["trump"] == int(forced[E.F_TRUMP]) - 1))
    if int(forced[E.F_TARGET]):
        ok &= rows["target"] == int(forced[E.F_TARGET])
    return ok


def lead_card(text: str) -> int:
    """Card index of a lead's card token (``AS``, ``A♠``, ``10H``); raises OptionError."""
    try:
        return parse_card(suit_letters(str(text)).strip(), RANKS)
    except CardError:
        raise OptionError(f"{quote(text)} is not a 501 card (a rank 9 J Q K T A and a suit S H D C, e.g. AS: the "
                          "pack has 24 cards, docs/RULES.md §1.1)") from None


def is_lead(forced) -> bool:
    """Whether the forced vector is a lead option's (``lead:CARD`` or ``lead:auto``)."""
    return int(forced[E.F_LEAD]) != 0


def parse_option(text: str, seat: int, setup: Setup, auction=(), dealer=None) -> np.ndarray:
    """The forced vector (int64[E.F_LEN]) of option ``text`` for ``seat``; raises OptionError."""
    if not isinstance(text, str) or not text.strip():
        raise OptionError(f"empty option {quote(text)}")
    t = suit_letters(text).strip().lower()
    if setup.seats == 4 and dealer is not None and dealer == seat:
        raise OptionError(f"seat {seat} deals this 4-seat deal and sits out: it takes no option (docs/RULES.md §1.1)")
    if t.startswith("lead:"):
        card_text, slash, contract = text.strip()[5:].partition("/")
        if not slash:
            raise OptionError(f"option {quote(text)} needs the contract it is led against: --contract 100/H:2 "
                              "(seat 2 won at 100 and declares hearts) or lead:CARD/100/H:2")
        return _lead_vector(text, card_text, contract, seat, setup, auction, dealer)
    forced = np.zeros(E.F_LEN, dtype=np.int64)
    forced[F_SEAT] = seat
    if t.startswith("="):
        if auction:
            raise OptionError(f"option {quote(text)} skips the auction: it cannot follow given calls")
        m = re.fullmatch(r"=(\d+)(!?)(?:/([a-z]+)(?:/(\d+))?)?", t)
        if not m:
            raise OptionError(f"option {quote(text)}: write =L, =L! (blind), =L/TRUMP or =L/TRUMP/TARGET, "
                              "e.g. =100!/H/120")
        bid = _bid(m.group(1), f"option {quote(text)}")
        forced[F_KIND] = FORCE_CONTRACT
        forced[F_CALL] = bid
        forced[E.F_BLIND] = 1 if m.group(2) else 0
        if m.group(3):
            trump = m.group(3).upper()
            if trump not in DENOMINATIONS:
                raise OptionError(f"option {quote(text)}: the trump is one of {' '.join(DENOMINATIONS)}")
            forced[E.F_TRUMP] = DENOMINATIONS.index(trump) + 1
        if m.group(4):
            target = _bid(m.group(4), f"option {quote(text)}: the target")
            if target < bid:
                raise OptionError(f"option {quote(text)}: the target must not be below the bid (docs/RULES.md §1.4)")
            forced[E.F_TARGET] = target
        return forced
    prefix, looked, current = _read_prefix(list(auction or ()), dealer, seat, setup.seats)
    if t == STRATEGY:
        return strategy_vector(forced, prefix)
    forced[F_KIND] = FORCE_FIRST_CALL
    forced[F_NPREFIX] = len(prefix)
    forced[F_PREFIX:F_PREFIX + len(prefix)] = prefix
    if t == "look":
        forced[F_CALL] = LOOK
    elif t == "pass":
        forced[F_CALL] = 0
    elif t.startswith("blind:"):
        forced[F_CALL] = _bid(t[6:], f"option {quote(text)}")
        if seat in looked:
            raise OptionError(f"option {quote(text)}: seat {seat} has looked (its own call in the auction), it "
                              f"cannot bid blind (docs/RULES.md §1.3)")
        if prefix and max(MIN_BID, current + 1) > forced[F_CALL]:
            raise OptionError(f"option {quote(text)} is never possible after the given calls: the minimum raise "
                              f"is {max(MIN_BID, current + 1)}")
    else:
        raise OptionError(f"{quote(text)} is not a 501 option (blind:L, look, pass, =L, =L!, =L/TRUMP[/TARGET], "
                          "lead:CARD)")
    return forced


AUTO_LEVELS = (MIN_BID,) + tuple(range(70, 151, 10))
"""The blind levels ``--option auto`` asks: the lowest bid, then 70 to 150 in steps of 10."""


def auto_options(auction, seat: int, setup: Setup, dealer=None) -> list[str]:
    """``--option auto``: look, pass, and a blind bid up to every level of :data:`AUTO_LEVELS` that
    the seat can still reach after the calls ``auction`` (the minimum raise is at most the level
    and the seat has not looked, docs/RULES.md §1.3)."""
    _, looked, current = _read_prefix(list(auction or ()), dealer, seat, setup.seats)
    if seat in looked:
        return ["look", "pass"]
    return ["look", "pass"] + [f"blind:{lvl}" for lvl in AUTO_LEVELS if max(MIN_BID, current + 1) <= lvl]


def declares(forced: np.ndarray) -> bool:
    """A pass declares nothing (its made rate is missing), nor does ``strategy``, which may pass;
    everything else may (a lead option: its made column is the contract's made or set rate)."""
    return forced[F_KIND] != FORCE_NONE and not (forced[F_KIND] == FORCE_FIRST_CALL and forced[F_CALL] == 0)


def parse_before(before, setup: Setup) -> State:
    """Every seat's score before the deal (docs/RULES.md §1.1), from None (501 each) or one per seat."""
    scores = start_scores(setup, before)
    if (scores[:setup.seats] <= 0).any():
        raise OptionError("every score must be above 0 before a deal (at 0 or below the game is over)")
    return State(scores, False, before is not None)


def game_state(state: State) -> State:
    """The same state, asked about the game's win instead of the deal's score."""
    return State(state.scores, True, state.given)


def points_state(state: State) -> State:
    """The same state, asked about the seat's deal points (card points won + effective marriages)."""
    return State(state.scores, False, state.given, True)


def _deal_state(state: State) -> State:
    return state


OUTCOMES = {"deal": _deal_state, "game": game_state, "points": points_state}
"""What a 501 question may score (``cardsim evaluate 501 --outcome NAME``): the seat's score change
in the deal (``deal``, turned round: points toward 0), its share of the game's win (``game``), or
its deal points (``points``: card points won + effective marriages)."""
OUTCOME_MEANINGS = {"points": "your card points won plus your effective marriages in the deal (higher is better)"}
LEAD_MADE = ("made, for lead options: the contract's made rate where you declare, its set rate where you defend "
             "(the share of deals in which the declarer fell short of his target)")
"""What the ``made`` column measures for lead options (printed under ``cardsim evaluate``'s table)."""


def lower_is_better(state: State) -> bool:
    return not (state.play_out or state.points)


def lead_groups(cards, talon, contract: str, seat: int, setup) -> tuple[list[list[str]], str]:
    """``--all-leads``: every given card of the seat (and of the given talon when the seat
    declares ``contract``) as its own lead, high to low by suit: no two are grouped, for every
    card has its own card points (docs/RULES.md §1.1: even touching cards give away different
    points) and a K or Q may declare a marriage.  Returns ``(groups of card tokens, how)``;
    raises OptionError."""
    declarer = contract_by(contract, "--contract")[4]
    mine = set(int(c) for c in cards) | (set(int(c) for c in talon) if declarer == seat else set())
    order = sorted(mine, key=lambda c: (c >> 4, -(c & 15)))
    return [[card_str(c, RANKS)] for c in order], ("in 501 every card has its own card points, and a K or Q may "
                                                   "declare a marriage")


GIVEN_DTYPE = np.dtype(E.ROW_DTYPE.descr + [("win_share", "f8")])


def play_given(seed, start, dealt, setup: Setup, forced, state: State):
    """Rows (ROW_DTYPE + ``win_share``, [n]) and forced-legal flags (bool[n]) of deals ``start ..``
    played from the deals ``dealt`` (a :class:`cardsim.deal.DealtChunk`: dealers, hands, talons,
    and the keys of the strategies' streams)."""
    count = len(dealt.dealers)
    rows = np.zeros(count, dtype=E.ROW_DTYPE)
    ok = np.zeros(count, dtype=np.bool_)
    shares = np.zeros((count, 4), dtype=np.float64)
    E.given_kernel(np.uint64(seed), np.int64(start), np.asarray(dealt.keys, dtype=np.uint64),
                   np.asarray(dealt.dealers, dtype=np.int64), np.asarray(dealt.hands, dtype=np.uint64),
                   np.asarray(dealt.talons, dtype=np.uint64), np.int64(setup.seats),
                   setup.strategy_ids.astype(np.int64), setup.params.astype(np.float64), state.scores,
                   np.asarray(forced, dtype=np.int64), rows, ok, state.play_out, shares)
    lead = is_lead(forced)
    out = np.zeros(count, dtype=LEAD_DTYPE if lead else GIVEN_DTYPE)
    for name in E.ROW_DTYPE.names:
        out[name] = rows[name]
    seat = int(forced[E.F_LEADER] if lead else forced[F_SEAT])  # the seat asking: a lead's is not the declarer
    out["win_share"] = shares[:, seat]
    if lead:
        out["lead"] = True
    return out, ok


LEAD_DTYPE = np.dtype(GIVEN_DTYPE.descr + [("lead", "?")])
""":func:`play_given`'s rows of a lead option: ``lead`` True (:func:`outcome` then counts the
contract's set rate where the seat defends)."""


def agreed_calls(keys, dealers, hands, talons, setup: Setup, forced, state: State) -> np.ndarray:
    """How many of the given calls of ``forced`` (int64[F_LEN], ``forced[F_IMPLIED] == CHECK_CALLS``)
    the callers' strategies make, per
    candidate deal (int64[n]; :class:`cardsim.deal.Calls`); the blind policies see the scores."""
    agreed = np.zeros(len(keys), dtype=np.int64)
    E.agreed_calls(np.asarray(keys, dtype=np.uint64), np.asarray(dealers, dtype=np.int64),
                   np.asarray(hands, dtype=np.uint64), np.int64(setup.seats), setup.strategy_ids.astype(np.int64),
                   setup.params.astype(np.float64), state.scores, np.asarray(forced, dtype=np.int64), agreed)
    return agreed


def outcome(rows: np.ndarray, seat: int, state: State):
    """``(declared, made, score)`` per row for ``seat``: its own score change (score points), its
    share of the game's win when the question is about the game (``state.play_out``), or its deal
    points (``state.points``).  Rows of a lead option (a ``lead`` column) count every played deal
    as declared and, where the seat defends, a contract set as made."""
    if "lead" in rows.dtype.names:  # a lead option: the seat declares or defends the forced contract
        declared = rows["played"].copy()
        made = declared & np.where(rows["declarer"] == seat, rows["made"], ~rows["made"])
    else:
        declared = rows["declarer"] == seat
        made = declared & rows["made"]
    if state.play_out:
        return declared, made, rows["win_share"].astype(np.float64)
    if state.points:
        return declared, made, (rows[f"cards_{seat}"] + rows[f"marr_{seat}"]).astype(np.float64)
    return declared, made, rows[f"delta_{seat}"].astype(np.float64)


def trace_given(seed, deal, dealt, setup: Setup, forced, state: State) -> dict:
    """The docs/RECORDS.md record (with ``result``) of deal ``deal`` as :func:`play_given` plays
    it (the deal itself; a played-out game's later deals are not in it); ``dealt``: that one deal
    (a :class:`cardsim.deal.DealtChunk` of length 1)."""
    trace = np.zeros(TRACE_LEN, dtype=np.int32)
    res = np.zeros(E.N_RES, dtype=np.int64)
    dealer, hands, talon = int(dealt.dealers[0]), dealt.hands[0], dealt.talons[0]
    E.trace_given(np.uint64(dealt.keys[0]), np.int64(dealer), np.asarray(hands, dtype=np.uint64),
                  np.uint64(talon), np.int64(setup.seats), setup.strategy_ids.astype(np.int64),
                  setup.params.astype(np.float64), state.scores, np.asarray(forced, dtype=np.int64), trace, res)
    before = [int(x) for x in state.scores[:setup.seats]]
    return record_of(trace, res, dealer, hands, talon, setup.seats, before, state.given)
