"""The slow twin: validate a 501 deal record (docs/RECORDS.md) and score it, in plain Python.

Independent of the jitted engine (no bit sets, no numba): cards are ``(rank, suit)`` string
pairs, every rule of docs/RULES.md §1 is re-implemented here from the text.  ``replay`` raises
:class:`RecordError` for anything wrong and nothing else, whatever JSON it is given.
"""
from __future__ import annotations

from cardsim.cards import SUITS
from cardsim.games.base import RecordError
from cardsim.games import get_game, loadable_specs
from cardsim.games.fields import check_fields
from cardsim.games.source import check_source
from cardsim.text import quote

RANK_ORDER = "9JQKTA"          # trick rank, low to high (docs/RULES.md §1.1)
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
TRUMPS = (*SUITS, "NT")
MIN_BID, MAX_BID = 66, 220
START = 501
DECK = {r + s for r in RANK_ORDER for s in SUITS}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _upper_ascii(token: str) -> str:
    """``token`` in upper case, or ``""`` (no token) when it is not ASCII: ``str.upper`` maps some
    other letters onto ASCII ones (``'ſ'`` -> ``'S'``), which the grammar does not allow."""
    return token.upper() if token.isascii() else ""


def card_token(token, field, index=None, rule="docs/RECORDS.md, Cards") -> str:
    """Normalise a card token (``AS``, ``10d``) to ``"AS"``/``"TD"``.

    Exact grammar: a rank of ``A K Q J T 9`` (or ``10``) then a suit of ``S H D C``, either
    case, nothing else.
    """
    if not isinstance(token, str):
        raise RecordError(f"card must be a string, got {quote(token)}", field, index, rule)
    t = _upper_ascii(token)
    if t.startswith("10"):
        t = "T" + t[2:]
    if t not in DECK:
        raise RecordError(f"unknown card {quote(token)} (501 has A K Q J 10 9 in S H D C)", field, index, rule)
    return t


def seat_order(dealer: int, seats: int) -> list[int]:
    """Active seats from the dealer's left (the 4-seat dealer sits out), docs/RULES.md §1.1-§1.3."""
    return [(dealer + 1 + i) % seats for i in range(3)]


def beats_card(card: str, best: str, trump: str) -> bool:
    """Whether the card token ``card`` beats ``best``, the trick's best so far (docs/RULES.md §1.5)."""
    if card[1] == best[1]:
        return RANK_ORDER.index(card[0]) > RANK_ORDER.index(best[0])
    return card[1] == trump


def parse_call(tok, index):
    """``"P"`` -> (None, False); ``"70"`` -> (70, False); ``"B70"`` -> (70, True).

    Exact grammar: ``P``, or a whole number written in ASCII digits without sign, blank or
    leading zero, optionally after one ``B`` (blind); ``P`` and ``B`` in either case.
    """
    if not isinstance(tok, str):
        raise RecordError(f"call must be a string, got {quote(tok)}", "auction", index, "docs/RECORDS.md, Calls")
    t = _upper_ascii(tok)
    if t == "P":
        return None, False
    blind = t.startswith("B")
    digits = t[1:] if blind else t
    if not (digits and "123456789".find(digits[0]) >= 0 and all("0123456789".find(d) >= 0 for d in digits)):
        raise RecordError(f"unknown call {quote(tok)} (P, a bid such as 70, or a blind bid such as B70)",
                          "auction", index, "docs/RECORDS.md, Calls")
    if len(digits) > len(str(MAX_BID)):  # int() of thousands of digits would itself fail
        raise RecordError(f"a bid of {len(digits)} digits is out of range: bids are {MIN_BID}..{MAX_BID}",
                          "auction", index, "docs/RULES.md §1.3")
    return int(digits), blind


def _check_header(record):
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    if record.get("game") != "501":
        raise RecordError(f"game must be \"501\", got {quote(record.get('game'))}", "game")
    check_fields(record, get_game("501"), loadable_specs())
    seats = record.get("seats")
    if not _is_int(seats) or seats not in (3, 4):
        raise RecordError(f"501 is played with 3 or 4 seats, got {quote(seats)}", "seats", None, "docs/RULES.md §1.1")
    dealer = record.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer < seats:
        raise RecordError(f"dealer must be a seat 0..{seats - 1}, got {quote(dealer)}", "dealer")
    rules = record.get("rules")
    if rules is not None and (not isinstance(rules, dict) or rules):
        raise RecordError(f"501 has no rule options, got {quote(rules)}", "rules")
    check_source(record)
    before = record.get("before")
    if before is None:
        scores = [START] * seats
    else:
        if not isinstance(before, dict) or set(before) != {"scores"}:
            raise RecordError('before must be {"scores": [one score per seat]}', "before")
        scores = before["scores"]
        if not isinstance(scores, list) or len(scores) != seats or not all(_is_int(x) for x in scores):
            raise RecordError(f"before.scores must list {seats} integers, got {quote(scores)}", "before")
        if any(x <= 0 for x in scores):
            raise RecordError("a score at or below 0 means the game is already over", "before", None, "docs/RULES.md §1.8")
        scores = list(scores)
    return seats, dealer, scores


def _check_cards(record, seats, dealer):
    hands_in = record.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != seats:
        raise RecordError(f"hands must be a list of {seats} lists of cards", "hands")
    hands = []
    seen = set()
    active = seat_order(dealer, seats)
    for s, h in enumerate(hands_in):
        if not isinstance(h, list):
            raise RecordError(f"hand of seat {s} must be a list of cards", "hands", s)
        want = 7 if s in active else 0
        if len(h) != want:
            why = "the 4-seat dealer sits out and gets no cards" if want == 0 else "every active player gets 7 cards"
            raise RecordError(f"seat {s} holds {len(h)} cards; {why}", "hands", s, "docs/RULES.md §1.2")
        cards = [card_token(c, "hands", s) for c in h]
        for c in cards:
            if c in seen:
                raise RecordError(f"card {c} appears twice", "hands", s, "docs/RULES.md §1.1")
            seen.add(c)
        hands.append(cards)
    talon_in = record.get("talon")
    if not isinstance(talon_in, list) or len(talon_in) != 3:
        raise RecordError("talon must be a list of 3 cards", "talon", None, "docs/RULES.md §1.2")
    talon = [card_token(c, "talon", i) for i, c in enumerate(talon_in)]
    for i, c in enumerate(talon):
        if c in seen:
            raise RecordError(f"card {c} appears twice", "talon", i, "docs/RULES.md §1.1")
        seen.add(c)
    return hands, talon


def _auction(record, seats, dealer):
    """Replay the calls (docs/RULES.md §1.3). Returns (declarer or None, bid, blind)."""
    calls = record.get("auction")
    if not isinstance(calls, list):
        raise RecordError("auction must be a list of calls", "auction")
    order = seat_order(dealer, seats)
    passed = [False] * 3
    looked = [False] * 3
    cur, bidder, bidder_blind = 0, None, False
    turn = 0
    i = 0
    while True:
        if sum(passed) == 3 or (bidder is not None and sum(passed) == 2):
            break
        pos = turn % 3
        turn += 1
        if passed[pos]:
            continue
        if i >= len(calls):
            raise RecordError(f"the auction is not over: seat {order[pos]} must still call", "auction", i, "docs/RULES.md §1.3")
        bid, blind = parse_call(calls[i], i)
        seat = order[pos]
        if bid is None:
            passed[pos] = True
        else:
            if bid < MIN_BID or bid > MAX_BID:
                raise RecordError(f"bid {bid} out of range: bids are {MIN_BID}..{MAX_BID}", "auction", i, "docs/RULES.md §1.3")
            if bid <= cur:
                raise RecordError(f"bid {bid} is not higher than the current bid {cur}", "auction", i, "docs/RULES.md §1.3")
            if blind and looked[pos]:
                raise RecordError(f"seat {seat} bid blind after looking at his hand", "auction", i, "docs/RULES.md §1.3")
            if not blind:
                looked[pos] = True
            cur, bidder, bidder_blind = bid, seat, blind
        i += 1
    if i != len(calls):
        raise RecordError("call after the end of the auction", "auction", i, "docs/RULES.md §1.3")
    return bidder, cur, bidder_blind


def _contract(record, decl, bid, hand10, opponents):
    c = record.get("contract")
    if not isinstance(c, dict):
        raise RecordError("the auction has a winner: contract must be an object", "contract", None, "docs/RULES.md §1.4")
    if "abandon" in c:
        if set(c) != {"abandon"} or c["abandon"] is not True:  # 1 == True, but 1 is not true
            raise RecordError('an abandoned contract is written {"abandon": true} and nothing else', "contract", None, "docs/RULES.md §1.4")
        return None
    if set(c) != {"trump", "target", "give"}:
        raise RecordError('contract must be {"abandon": true} or have exactly trump, target, give', "contract", None, "docs/RECORDS.md")
    trump = c["trump"]
    if not isinstance(trump, str) or _upper_ascii(trump) not in TRUMPS:
        raise RecordError(f"trump must be S, H, D, C or NT, got {quote(trump)}", "contract", None,
                          "docs/RULES.md §1.4")
    trump = _upper_ascii(trump)
    target = c["target"]
    if not _is_int(target) or not bid <= target <= MAX_BID:
        raise RecordError(f"target must be a whole number from the bid {bid} to {MAX_BID}, got {quote(target)}",
                          "contract", None, "docs/RULES.md §1.4")
    give = c["give"]
    want = {str(s) for s in opponents}
    if not isinstance(give, dict) or not all(isinstance(k, str) for k in give) or set(give) != want:
        raise RecordError(f"give must map each opponent seat {sorted(str(s) for s in opponents)} to one card", "contract", None, "docs/RULES.md §1.4")
    gifts = {}
    for s in opponents:
        card = card_token(give[str(s)], "contract")
        if card not in hand10:
            raise RecordError(f"declarer gives {card}, which he does not hold", "contract", None, "docs/RULES.md §1.4")
        if card in gifts.values():
            raise RecordError(f"declarer gives {card} twice", "contract", None, "docs/RULES.md §1.4")
        gifts[s] = card
    return trump, target, gifts


def _play(record, seats, dealer, hands, trump):
    """Play the eight tricks (docs/RULES.md §1.5, §1.6). Returns (cards won, marriages declared, tricks won)."""
    plays = record.get("play")
    if not isinstance(plays, list):
        raise RecordError("play must be a list of cards", "play")
    order = seat_order(dealer, seats)
    nxt = {order[i]: order[(i + 1) % 3] for i in range(3)}
    won = [0] * seats
    tricks = [0] * seats
    marr = [0] * seats
    leader = order[0]
    i = 0
    for t in range(8):
        trick = []
        seat = leader
        for k in range(3):
            if i >= len(plays):
                raise RecordError(f"the deal is not over: {len(plays)} cards played, 24 needed", "play", i, "docs/RULES.md §1.5")
            tok = plays[i]
            declare = isinstance(tok, str) and tok.endswith("+")
            card = card_token(tok[:-1] if declare else tok, "play", i)
            hand = hands[seat]
            if card not in hand:
                raise RecordError(f"seat {seat} does not hold {card}", "play", i, "docs/RULES.md §1.5")
            if k > 0:
                led = trick[0][1]
                if card[1] != led:
                    if any(c[1] == led for c in hand):
                        raise RecordError(f"seat {seat} must follow suit {led} (revoke)", "play", i, "docs/RULES.md §1.5")
                    if trump != "NT" and card[1] != trump and any(c[1] == trump for c in hand):
                        raise RecordError(f"seat {seat} cannot follow {led} and must play a trump", "play", i, "docs/RULES.md §1.5")
            if declare:
                if k != 0:
                    raise RecordError("a marriage is declared only by the player leading a trick", "play", i, "docs/RULES.md §1.6")
                if card[0] not in "KQ":
                    raise RecordError(f"a marriage is declared by leading its K or Q, not {card}", "play", i, "docs/RULES.md §1.6")
                if not ("K" + card[1] in hand and "Q" + card[1] in hand):
                    raise RecordError(f"seat {seat} does not hold both K and Q of {card[1]}", "play", i, "docs/RULES.md §1.6")
                marr[seat] += 40 if card[1] == trump else 20
            hand.remove(card)
            trick.append(card)
            i += 1
            seat = nxt[seat]
        best = 0
        for j in (1, 2):
            if beats_card(trick[j], trick[best], trump):
                best = j
        winner = leader
        for _ in range(best):
            winner = nxt[winner]
        won[winner] += sum(POINTS[c[0]] for c in trick)
        tricks[winner] += 1
        leader = winner
    if i != len(plays):
        raise RecordError("card played after the eighth trick", "play", i, "docs/RULES.md §1.5")
    return won, marr, tricks


def replay(record) -> dict:
    """Validate a 501 deal record against docs/RULES.md §1 and return its ``result`` (docs/RECORDS.md).

    Raises :class:`RecordError` (field, index, rule) for anything wrong; ``result`` on input
    is ignored.
    """
    seats, dealer, before = _check_header(record)
    hands, talon = _check_cards(record, seats, dealer)
    decl, bid, blind = _auction(record, seats, dealer)
    cards = [0] * seats
    marr = [0] * seats
    delta = [0] * seats
    trump = target = made = None
    abandoned = False
    play = record.get("play", [])
    if decl is None:
        if "contract" in record:
            raise RecordError("everyone passed: the deal has no contract", "contract", None, "docs/RULES.md §1.3")
        if play != []:
            raise RecordError("everyone passed: the deal is not played", "play", 0, "docs/RULES.md §1.3")
    else:
        order = seat_order(dealer, seats)
        opponents = [s for s in order if s != decl]
        hand10 = hands[decl] + talon
        c = _contract(record, decl, bid, hand10, opponents)
        mult = 2 if blind else 1
        if c is None:
            abandoned = True
            if play != []:
                raise RecordError("an abandoned deal is not played", "play", 0, "docs/RULES.md §1.4")
            delta[decl] = mult * bid
            for s in opponents:
                delta[s] = -25
        else:
            trump, target, gifts = c
            live = [list(h) for h in hands]
            live[decl] = [x for x in hand10 if x not in gifts.values()]
            for s, card in gifts.items():
                live[s].append(card)
            suit_trump = {"S": "S", "H": "H", "D": "D", "C": "C"}.get(trump, "NT")
            cards, declared, tricks = _play(record, seats, dealer, live, suit_trump)
            marr = [declared[s] if tricks[s] > 0 else 0 for s in range(seats)]
            pts = cards[decl] + marr[decl]
            made = pts >= target
            delta[decl] = mult * (-target if made else target)
            for s in opponents:
                delta[s] = -(cards[s] + marr[s])
    after = [b + d for b, d in zip(before, delta)]
    over = any(a <= 0 for a in after)
    low = min(after)
    return {
        "game": "501",
        "declarer": decl,
        "contract": bid if decl is not None else None,
        "target": target,
        "blind": bool(blind) if decl is not None else False,
        "abandoned": abandoned,
        "trump": trump,
        "cards": cards,
        "marriages": marr,
        "points": [a + b for a, b in zip(cards, marr)],
        "made": made,
        "delta": delta,
        "after": {"scores": after},
        "game_over": over,
        "winners": [s for s in range(seats) if over and after[s] == low],
    }
