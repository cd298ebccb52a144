"""Vint questions about a hand: forced choices, deals played from given hands, outcomes.

What ``cardsim evaluate vint`` forces on the evaluated seat (README, "Ask about a hand"):

* a bare call — ``P``, ``1S`` … ``7NT`` — is the seat's first call of the auction (docs/RULES.md
  §2.2); where it is not legal when the seat first speaks (someone bid higher before), the deal
  counts as one in which the option was not legal, and the seat's strategy calls instead;
* ``=CONTRACT`` (``=3NT``) skips the auction: the seat declares that contract, the player on
  its left leads (docs/RULES.md §2.3); ``=CONTRACT:DECLARER`` (``=3NT:2``) has another seat
  declare it;
* ``lead:CARD/CONTRACT:DECLARER`` (``lead:QS/3NT:2``; ``cardsim evaluate --contract 3NT:2`` adds
  the contract to every ``lead:CARD``): the auction is skipped, seat DECLARER declares CONTRACT,
  and the seat, which must be on the declarer's left (docs/RULES.md §2.3), leads CARD; where it
  does not hold CARD (a hand not given), the deal counts as one in which the option was not
  legal.  A lead option scores the seat's side as defenders: its ``made`` column is the
  contract's set rate (:func:`outcome`).  ``lead:auto`` is the same contract with the seat's
  strategy's own lead (how far the default player's lead is from the best card).

A question may also fix the calls made before the seat's first call (``auction``, from the
dealer, who must then be given): "second hand after a pass" is ``auction=["P"]`` with the
dealer on the seat's right; "partner opened 1NT" is ``["1NT", "P"]`` with the dealer the
seat's partner.

Everything else is played by the seats' strategies.  The score of an option is the seat's
side's net for the deal, its total (below + above, score points, docs/RULES.md §2.5–§2.7) minus the
other side's; higher is better.  A question may instead be about the rubber (:data:`OUTCOMES`):
after the deal the rubber is played on to its end by the strategies (the dealer passing left,
docs/RULES.md §2.7), the same later deals for every option (keyed by the evaluated deal's key,
``engine.CONTINUE_SALT``), and the score is the seat's side's share of the rubber's win
(``game``: 1 or 0; ½ for a rubber stopped unfinished at ``engine.MAX_RUBBER_DEALS`` deals) or its
margin (``margin``: its side's total minus the other side's, score points, from the evaluated deal
to the rubber's end; what was scored before the deal is the same for every option and not counted).
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import CardError, card_str, cards_of, parse_card, suit_letters
from cardsim.games.base import OptionError, Setup
from cardsim.games.forced import F_CALL, F_KIND, F_NPREFIX, F_PREFIX, F_SEAT, FORCE_CONTRACT, FORCE_NONE
from cardsim.games.options import option_vector, touching_groups
from cardsim.text import quote

from . import engine
from .line import State, parse_before
from .records import call_str, result_from_score
from .rules import DENOMINATIONS, MAX_CALLS, N_SCORE, PASS, RANKS, call_denomination, call_level
from .rules import parse_call

LOWER_IS_BETTER = False


def _asking(outcome: str):
    def to(state: State) -> State:
        return State(state.below, state.games, outcome)
    to.__doc__ = f"The same line, the question scoring {outcome!r}."
    return to


OUTCOMES = {"deal": _asking("deal"), "game": _asking("game"), "margin": _asking("margin"),
            "tricks": _asking("tricks")}
"""What a Vint question may score (``cardsim evaluate vint --outcome NAME``): the deal's net
(``deal``), the seat's side's share of the rubber's win (``game``), or its margin in points to the
rubber's end (``margin``), or its side's tricks in the deal (``tricks``)."""
OUTCOME_MEANINGS = {
    "game": "your side's share of the rubber's win (0-1: the rubber played on to its end by the strategies; "
            "1/2 if stopped unfinished)",
    "margin": "your side's score points minus the other side's from this deal to the rubber's end (the rubber "
              "played on by the strategies)",
    "tricks": "your side's tricks in the deal (0-13)",
}
LEAD_MADE = ("made, for lead:CARD options: the contract's set rate (the share of deals in which the declaring side "
             "fell short; you defend)")
"""What the ``made`` column measures for lead options (printed under ``cardsim evaluate``'s table)."""


def option_call(text: str) -> int:
    """Call number of ``P`` or a bid ``1S`` … ``7NT`` (case-insensitive; a suit symbol for the letter,
    ``1♠``, :func:`cardsim.cards.suit_letters`); raises OptionError."""
    try:
        return parse_call(suit_letters(text).strip())
    except CardError:
        raise OptionError(f"{quote(text)} is not a Vint call (P, or a level 1-7 and S C D H NT, e.g. 3NT)") from None


def _prefix(auction, dealer, seat) -> list[int]:
    """The calls before ``seat``'s first call, checked: a legal auction that has not ended, after
    which it is ``seat``'s turn (docs/RULES.md §2.2)."""
    calls = _calls(auction, dealer)
    turn = (dealer + len(calls)) % 4 if calls else seat
    if turn != seat:
        raise OptionError(f"after {len(calls)} call(s) from dealer {dealer} it is seat {turn}'s turn, "
                          f"not seat {seat}'s")
    return calls


def _calls(auction, dealer) -> list[int]:
    """The given calls from ``dealer``, checked: a legal auction that has not ended (docs/RULES.md
    §2.2)."""
    if not auction:
        return []
    calls = [option_call(c) if isinstance(c, str) else None for c in auction]
    if None in calls:
        raise OptionError("the auction before the seat's call is a list of calls such as ['P', '1NT']")
    if dealer is None:
        raise OptionError("an auction before the seat's call needs the dealer (--dealer): he speaks first")
    if len(calls) > engine.MAX_PREFIX:
        raise OptionError(f"at most {engine.MAX_PREFIX} calls before the seat's call")
    current, passes = PASS, 0
    for i, call in enumerate(calls):
        if call != PASS and call <= current:
            raise OptionError(f"call {i + 1} of the auction ({auction[i]}) is not higher than the bid before it")
        passes = passes + 1 if call == PASS else 0
        current = call if call != PASS else current
        if passes == (8 if current == PASS else 12):
            raise OptionError("that auction has already ended")
    return calls


def _lead_prefix(text, auction, dealer, call: int, declarer: int) -> list[int]:
    """The given calls of a lead question (from ``dealer``), checked: a legal auction that has not
    ended and can still end in ``declarer``'s bid ``call`` (docs/RULES.md §2.2)."""
    calls = _calls(auction, dealer)
    bids = [(c, (dealer + i) % 4) for i, c in enumerate(calls) if c != PASS]
    if bids and (bids[-1][0] > call or bids[-1][0] == call and bids[-1][1] != declarer):
        raise OptionError(f"option {quote(text)}: after the calls given ({' '.join(auction)}) the auction cannot end "
                          f"in {call_str(call)} by seat {declarer}")
    return calls


def contract_by(text: str) -> tuple[int, int]:
    """``(contract call, declarer seat)`` of ``CONTRACT:SEAT`` (``3NT:2``: seat 2 declares 3NT);
    raises OptionError."""
    call_text, colon, who = str(text).strip().partition(":")
    if not colon or who.strip() not in ("0", "1", "2", "3"):
        raise OptionError(f"{quote(text)} is not a contract and its declarer: CONTRACT:SEAT such as 3NT:2 "
                          "(seat 2 declares 3NT)")
    call = option_call(call_text)
    if call == PASS:
        raise OptionError(f"{quote(text)}: a contract needs a bid, not a pass")
    return call, int(who)


def lead_card(text: str) -> int:
    """Card index of a lead's card token (``QS``, ``Q♠``, ``10H``); raises OptionError."""
    try:
        return parse_card(suit_letters(str(text)).strip(), RANKS)
    except CardError:
        raise OptionError(f"{quote(text)} is not a Vint card (a rank 2-9 T J Q K A and a suit S H D C, e.g. QS)") \
            from None


def parse_option(text: str, seat: int, setup: Setup, auction=(), dealer=None) -> np.ndarray:
    """The forced vector (int64[engine.F_LEN], :mod:`cardsim.games.forced`) of option ``text``
    for ``seat``, after the calls ``auction`` (call tokens from ``dealer``); raises OptionError
    (a lead by a seat that is not the opening leader, a lead with no contract, a contract after
    given calls)."""
    t = str(text).strip()
    if t.lower().startswith("lead:"):
        card_text, slash, contract = t[5:].partition("/")
        if not slash:
            raise OptionError(f"option {quote(text)} needs the contract it is led against: --contract 3NT:2 "
                              "(seat 2 declares 3NT) or lead:CARD/3NT:2")
        auto = card_text.strip().lower() == "auto"  # lead:auto: the seat's strategy leads
        card = -2 if auto else lead_card(card_text)
        forced = _contract_vector(text, contract, seat, auction, lead=True, dealer=dealer)
        forced[engine.F_LEAD] = card + 1
        return forced
    if t.startswith("=") and ":" in t:
        return _contract_vector(text, t[1:], seat, auction, lead=False)
    return option_vector(text, seat, engine.F_LEN, option_call, PASS, _prefix(list(auction or ()), dealer, seat))


def _contract_vector(text, contract: str, seat: int, auction, lead: bool, dealer=None) -> np.ndarray:
    """The forced vector of a contract ``CONTRACT:SEAT`` with the auction skipped; for a lead,
    ``seat`` must be the declarer's left, and the calls ``auction`` (from ``dealer``) may come
    before the contract (``questions.question`` has the strategies' auction reach it)."""
    if auction and not lead:
        raise OptionError(f"option {quote(text)} skips the auction: it cannot follow given calls (--auction)")
    call, declarer = contract_by(contract)
    if lead and declarer == seat:
        raise OptionError(f"option {quote(text)}: seat {seat} declares, so it does not lead (the declarer's left, "
                          f"seat {(declarer + 1) % 4}, does)")
    if lead and (declarer + 1) % 4 != seat:
        raise OptionError(f"option {quote(text)}: seat {seat} does not lead against seat {declarer}'s contract "
                          f"(the declarer's left, seat {(declarer + 1) % 4}, leads)")
    forced = np.zeros(engine.F_LEN, dtype=np.int64)
    forced[F_KIND] = FORCE_CONTRACT
    forced[F_SEAT] = declarer
    forced[F_CALL] = call
    prefix = _lead_prefix(text, list(auction or ()), dealer, call, declarer) if lead else []
    forced[F_NPREFIX] = len(prefix)
    forced[F_PREFIX:F_PREFIX + len(prefix)] = prefix
    return forced


def reach(forced) -> str:
    """A lead option's contract in words (``3NT by seat 2``): what a lead question's auction must
    end in, the last bid and its bidder (docs/RULES.md §2.2)."""
    declarer = int(forced[F_SEAT])
    return f"{call_str(int(forced[F_CALL]))} by seat {declarer}"


def contract_reached(rows: np.ndarray, forced) -> np.ndarray:
    """bool[n]: whether each deal's auction (``rows``, :func:`play_given`'s) ended in the contract
    of the lead option ``forced``, declared by its declarer."""
    call = int(forced[F_CALL])
    return ((rows["declarer"] == int(forced[F_SEAT])) & (rows["level"] == call_level(call))
            & (rows["denomination"] == call_denomination(call)))


def is_lead(forced) -> bool:
    """Whether the forced vector is a lead option's (``lead:CARD``, or ``lead:auto``: -1, the
    leader's strategy leads)."""
    return int(forced[engine.F_LEAD]) != 0


LEAD_GROUPING = "cards of a suit touching in rank"


def lead_groups(cards, talon, contract: str, seat: int, setup) -> tuple[list[list[str]], str]:
    """``--all-leads``: the seat's given cards ``cards`` (card indices) as leads against
    ``contract`` (``CONTRACT:SEAT``, checked: the seat must lead against it), cards of a suit
    touching in rank grouped, highest first: the trick is the same whichever is led, but partner
    reads the card led (from KQJ72 against 3NT the Q lost 0.3 tricks against the K), so
    ``--all-leads`` plays each and keeps a group only where it scored the same on every deal
    (:mod:`cardsim.equal_leads`); ``talon`` is unused (Vint has none).  Returns ``(candidate
    groups of card tokens, how)``; raises OptionError."""
    _contract_vector(f"--contract {contract}", contract, seat, (), lead=True)
    return [[card_str(c, RANKS) for c in g] for g in touching_groups(cards)], LEAD_GROUPING


def auto_options(auction, seat: int, setup: Setup, dealer=None) -> list[str]:
    """``--option auto``: every legal first call of ``seat`` after the calls ``auction``: a pass
    and every bid above the last one (docs/RULES.md §2.2), cheapest first."""
    bids = [c for c in _prefix(list(auction or ()), dealer, seat) if c != PASS]
    last = max(bids, default=PASS)
    calls = [f"{level}{d}" for level in range(1, 8) for d in DENOMINATIONS]
    return ["P"] + [c for c in calls if option_call(c) > last]


def declares(forced: np.ndarray) -> bool:
    """Whether the option itself bids (a pass declares nothing: its made rate is missing)."""
    # ``strategy`` may pass as well as bid: like a pass, its made rate is missing; a lead option
    # "declares" in the sense of the table: its made column is the contract's set rate
    return is_lead(forced) or int(forced[F_KIND]) != FORCE_NONE and int(forced[F_CALL]) != PASS


GIVEN_DTYPE = np.dtype(engine.ROW_DTYPE.descr + [("rubber_won_by_0", "f8"), ("rubber_margin_0", "i8"),
                                                 ("deals_on", "i8")])
"""Rows of a question about the rubber: the deal's row, then team 0's share of the rubber's win
(1, 0, or 0.5 when stopped unfinished), team 0's total minus team 1's from the deal to the
rubber's end (score points) and the deals played on after it."""


def play_given(seed, start, dealt, setup: Setup, forced, state: State):
    """Rows (engine.ROW_DTYPE[n], or :data:`GIVEN_DTYPE` when the rubber is played on,
    ``state.play_out``) and forced-legal flags (bool[n]) of deals ``start ..`` played from the
    deals ``dealt`` (a :class:`cardsim.deal.DealtChunk`: dealers, hands, and the keys of the
    strategies' streams, which also key the rubber's later deals)."""
    count = len(dealt.dealers)
    rows = np.zeros(count, dtype=engine.ROW_DTYPE)
    ok = np.zeros(count, dtype=np.bool_)
    keys = np.asarray(dealt.keys, dtype=np.uint64)
    dealers = np.asarray(dealt.dealers, dtype=np.int64)
    hands = np.asarray(dealt.hands, dtype=np.uint64)
    forced = np.asarray(forced, dtype=np.int64)
    if not state.play_out:
        engine.play_given(keys, np.int64(start), np.int64(count), dealers, hands, setup.strategy_ids,
                          setup.params, state.below, state.games, forced, rows, ok)
        return _defended(rows, forced), ok
    res = np.zeros((count, engine.N_RU), dtype=np.int64)
    engine.given_rubber_kernel(keys, np.int64(start), np.int64(count), dealers, hands, setup.strategy_ids,
                               setup.params, state.below, state.games, forced, rows, ok, engine.BASE_DECK, res)
    out = np.zeros(count, dtype=GIVEN_DTYPE)
    for name in engine.ROW_DTYPE.names:
        out[name] = rows[name]
    winner = res[:, engine.RU_WINNER]
    out["rubber_won_by_0"] = np.where(winner < 0, 0.5, (winner == 0).astype(np.float64))
    out["rubber_margin_0"] = res[:, engine.RU_MARGIN]
    out["deals_on"] = res[:, engine.RU_DEALS]
    return _defended(out, forced), ok


def _defended(rows: np.ndarray, forced) -> np.ndarray:
    """``rows`` as they are, or for a lead option with a bool column ``defended`` (True: the
    evaluated side defends the forced contract; :func:`outcome` then counts the set rate as
    ``made``)."""
    if not is_lead(forced):
        return rows
    out = np.zeros(len(rows), dtype=np.dtype(rows.dtype.descr + [("defended", "?")]))
    for name in rows.dtype.names:
        out[name] = rows[name]
    out["defended"] = True
    return out


def agreed_calls(keys, dealers, hands, talons, setup: Setup, forced, state) -> np.ndarray:
    """How many of the given calls of ``forced`` (int64[F_LEN], ``forced[F_IMPLIED] == CHECK_CALLS``)
    the callers' strategies make, per candidate deal (int64[n]; :class:`cardsim.deal.Calls`)."""
    agreed = np.zeros(len(keys), dtype=np.int64)
    state = parse_before(None, setup) if state is None else state
    engine.agreed_calls(keys, dealers, hands, setup.strategy_ids, setup.params, np.asarray(forced, dtype=np.int64),
                        state.below, state.games, agreed)
    return agreed


def outcome(rows: np.ndarray, seat: int, state: State | None = None):
    """``(declared, made, score)`` per row for ``seat``'s side: bool, bool, float64 arrays; the
    score is the deal's net, its side's tricks (``state.outcome == "tricks"``), or the rubber's
    (its side's share of the win, or its margin in score points).  Rows of a lead option (a
    ``defended`` column, :func:`play_given`) count every played deal as declared and a contract
    set as made: the table's made column is then the set rate."""
    team = seat % 2
    if "defended" in rows.dtype.names:  # a lead option: "made" is the defenders' success, the set
        declared = rows["defended"] & (rows["declarer"] >= 0)
        made = declared & ~rows["made"]
    else:
        declared = (rows["declarer"] >= 0) & (rows["declarer"] % 2 == team)
        made = declared & rows["made"]
    kind = "deal" if state is None else state.outcome
    if kind == "tricks":
        return declared, made, rows[f"tricks_{team}"].astype(np.float64)
    if kind == "game":
        share0 = rows["rubber_won_by_0"].astype(np.float64)
        return declared, made, share0 if team == 0 else 1.0 - share0
    if kind == "margin":
        margin0 = rows["rubber_margin_0"].astype(np.float64)
        return declared, made, margin0 if team == 0 else -margin0
    mine = rows[f"total_{team}"].astype(np.float64)
    theirs = rows[f"total_{1 - team}"].astype(np.float64)
    return declared, made, mine - theirs


def trace_given(seed, deal, dealt, setup: Setup, forced, before) -> dict:
    """The docs/RECORDS.md record (with ``result``) of deal ``deal`` as :func:`play_given` plays
    it (the deal itself; a played-on rubber's later deals are not in it); ``dealt``: that one
    deal (a :class:`cardsim.deal.DealtChunk` of length 1)."""
    calls = np.zeros(MAX_CALLS, dtype=np.int64)
    plays = np.zeros(52, dtype=np.int64)
    score = np.zeros(N_SCORE, dtype=np.int64)
    info = np.zeros(engine.N_INFO, dtype=np.int64)
    below, games = before.below, before.games
    dealer = int(dealt.dealers[0])
    h = np.array(dealt.hands[0], dtype=np.uint64)
    engine.trace_given(np.uint64(dealt.keys[0]), np.int64(dealer), h, setup.strategy_ids, setup.params, below, games,
                       np.asarray(forced, dtype=np.int64), calls, plays, score, info)
    record = {"game": "vint", "seats": 4, "dealer": dealer}
    if below.any() or games.any():
        record["before"] = {"below": [int(b) for b in below], "games": [int(g) for g in games]}
    record["hands"] = [[card_str(c, RANKS) for c in reversed(cards_of(int(x)))] for x in h]
    record["auction"] = [call_str(int(c)) for c in calls[: info[engine.I_NCALLS]]]
    record["play"] = [] if info[engine.I_CONTRACT] == PASS else [card_str(int(c), RANKS) for c in plays]
    record["result"] = result_from_score(score, info, below, games)
    return record
