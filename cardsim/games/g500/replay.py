"""Replay of Five Hundred records: the plain-Python slow twin of the engine (docs/RULES.md §3).

Nothing here uses the bit layout or the remap tables of the engine: cards are
``(rank, suit)`` pairs, suits and ranks are computed from the rule text, so the round trip
``replay(record) == record["result"]`` checks the engine against an independent reading of
the rules.  Every problem raises :class:`RecordError` (never anything else).

The phases follow docs/RULES.md: :func:`check_record` (the record's header, rule options and
match state, §3.6), :func:`parse_hands` (the deal, §3.2), :func:`run_auction` (§3.3),
:func:`take_kitty` (kitty and discard, §3.4), :func:`play_tricks` (§3.5) and :func:`score`
(§3.6), as in Vint's slow twin (:mod:`cardsim.games.vint.replay`).
"""
from __future__ import annotations

from cardsim.cards import SUITS, CardError
from cardsim.games.base import RecordError
from cardsim.games import get_game, loadable_specs
from cardsim.games.fields import check_fields
from cardsim.games.g500.constants import DENOMINATIONS, PASS, bid_denom, bid_tricks
from cardsim.games.g500.constants import parse_call
from cardsim.games.source import check_source
from cardsim.text import quote

RANKS = "456789TJQKA"
JOKERS = ("LJ", "HJ")
R31 = "docs/RULES.md §3.1"
R32 = "docs/RULES.md §3.2"
R33 = "docs/RULES.md §3.3"
R34 = "docs/RULES.md §3.4"
R35 = "docs/RULES.md §3.5"
R36 = "docs/RULES.md §3.6"
KNOWN_RULES = {"scoring": ("quebec", "subtract"), "target": None}


# ---------------------------------------------------------------- tokens (docs/RECORDS.md)
def upper_ascii(token: str) -> str:
    """``token`` in upper case, or ``""`` (no token) when it is not ASCII: ``str.upper`` maps some
    other letters onto ASCII ones (``'ſ'`` -> ``'S'``), which the grammar does not allow."""
    return token.upper() if token.isascii() else ""


def parse_card(token, field, index):
    """A card as ``"HJ"``, ``"LJ"`` or ``(rank letter, suit letter)``; RecordError otherwise.

    Exact grammar: ``HJ``, ``LJ``, or a rank of ``A K Q J T 9 8 7 6 5 4`` (or ``10``) then a
    suit of ``S H D C``; either case, nothing else.
    """
    if not isinstance(token, str):
        raise RecordError(f"card must be a string, got {quote(token)}", field, index, R31)
    t = upper_ascii(token)
    if t in JOKERS:
        return t
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or RANKS.find(t[0]) < 0 or SUITS.find(t[1]) < 0:
        raise RecordError(f"unknown card {quote(token)}", field, index, R31)
    return (t[0], t[1])


def parse_play(token, index):
    """A played card and the suit it names: ``(card, None)`` or, for ``HJ=H``, ``("HJ", "H")``.

    Only the grammar is checked here (exactly one of ``S H D C`` after one ``=``); whether
    the card may name a suit is :func:`play_tricks`' business.
    """
    if not isinstance(token, str) or "=" not in token:
        return parse_card(token, "play", index), None
    written, _, named = token.partition("=")
    named = upper_ascii(named)
    if len(named) != 1 or SUITS.find(named) < 0:
        raise RecordError(f"unknown card {quote(token)}: a joker led in no-trump names exactly one of S H D C "
                          "(HJ=H)", "play", index, R35)
    return parse_card(written, "play", index), named


def card_name(card) -> str:
    return card if isinstance(card, str) else card[0] + card[1]


def read_call(token, index):
    """``None`` for a pass, else ``(tricks, denomination)``.

    Exact grammar, read by the game's one call parser (:func:`.constants.parse_call`): ``P``,
    or ``6``..``10`` then ``S C D H NT``; either case, nothing else.
    """
    try:
        bid = parse_call(token)
    except CardError as exc:
        raise RecordError(str(exc), "auction", index, R33) from None
    if bid == PASS:
        return None
    return bid_tricks(bid), DENOMINATIONS[bid_denom(bid)]


def bid_value(bid) -> int:
    """The bid table of docs/RULES.md §3.3 (♠ 40, ♣ 60, ♦ 80, ♥ 100, NT 120 at six; +100 a trick)."""
    tricks, den = bid
    return {"S": 40, "C": 60, "D": 80, "H": 100, "NT": 120}[den] + 100 * (tricks - 6)


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------- ranking (docs/RULES.md §3.1)
SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}


def suit_of(card, trump):
    """Suit a card belongs to for following suit; ``None`` for a joker in no-trump."""
    if card in JOKERS:
        return trump if trump != "NT" else None
    rank, suit = card
    if trump != "NT" and rank == "J" and suit == SAME_COLOUR[trump]:
        return trump  # the left bower
    return suit


def power(card, trump, led):
    """Trick-taking power: jokers, then trumps, then the led suit; -1 cannot win."""
    if card == "HJ":
        return 1001
    if card == "LJ":
        return 1000
    rank, suit = card
    s = suit_of(card, trump)
    if trump != "NT" and s == trump:
        if rank == "J":
            return 600 if suit == trump else 599  # right bower, left bower
        return 500 + RANKS.index(rank)
    if s == led:
        return RANKS.index(rank)
    return -1


# ---------------------------------------------------------------- the record (docs/RECORDS.md, docs/RULES.md §3.6)
def parse_rules(record):
    """``(scoring, target)`` of the record's rule options (docs/RULES.md §3.6); defaults when absent."""
    rules = record.get("rules", {})
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise RecordError("rules must be an object", "rules", None, R36)
    scoring = rules.get("scoring", "quebec")
    target = rules.get("target", 1000)
    for key in rules:
        if key not in KNOWN_RULES:
            raise RecordError(f"unknown rule option {quote(key)} (known: scoring, target)", "rules", None, R36)
    if scoring not in ("quebec", "subtract"):
        raise RecordError(f"scoring must be 'quebec' or 'subtract', got {quote(scoring)}", "rules", None, R36)
    if not is_int(target) or target <= 0:
        raise RecordError(f"target must be a positive integer, got {quote(target)}", "rules", None, R36)
    return scoring, target


def parse_before(record, target):
    """The teams' scores before the deal, ``[team0, team1]``; ``[0, 0]`` when absent."""
    before = record.get("before")
    if before is None:
        return [0, 0]
    if not isinstance(before, dict) or set(before) != {"scores"}:
        raise RecordError('before must be {"scores": [team0, team1]}', "before", None, R36)
    scores = before["scores"]
    if not isinstance(scores, list) or len(scores) != 2 or not all(is_int(x) for x in scores):
        raise RecordError("before.scores must be a list of two integers", "before", None, R36)
    if max(scores) >= target:
        raise RecordError(f"a side already has the target {target}: the game is over", "before", None, R36)
    return list(scores)


def check_record(record):
    """The header of a record: ``(dealer, scoring, target, before)``; RecordError otherwise."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("game") != "500":
        raise RecordError(f"game must be '500', got {quote(record.get('game'))}", "game")
    check_fields(record, get_game("500"), loadable_specs())
    seats = record.get("seats", 4)
    if not is_int(seats) or seats != 4:
        raise RecordError(f"Five Hundred has 4 seats, got {quote(seats)}", "seats", None, R31)
    dealer = record.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < 4:
        raise RecordError(f"dealer must be a seat 0..3, got {quote(dealer)}", "dealer", None, R32)
    scoring, target = parse_rules(record)
    before = parse_before(record, target)
    check_source(record)
    return dealer, scoring, target, before


def card_list(lst, field, size, rule):
    """The ``size`` cards of list field ``field`` (``talon``, ``discard``)."""
    if not isinstance(lst, list):
        raise RecordError(f"{field} must be a list of cards", field, None, rule)
    cards = [parse_card(t, field, i) for i, t in enumerate(lst)]
    if len(cards) != size:
        raise RecordError(f"{field} must hold {size} cards, not {len(cards)}", field, None, rule)
    return cards


# ---------------------------------------------------------------- phases of a deal
def parse_hands(record):
    """The deal (docs/RULES.md §3.2): ``(hands, kitty)``, 4 × 10 cards and 6, no card twice."""
    hands_in = record.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != 4:
        raise RecordError("hands must be a list of 4 hands", "hands", None, R32)
    hands = []
    for s, h in enumerate(hands_in):
        if not isinstance(h, list):
            raise RecordError(f"hand of seat {s} must be a list of cards", "hands", s, R32)
        cards = [parse_card(t, "hands", s) for t in h]
        if len(cards) != 10:
            raise RecordError(f"seat {s} must be dealt 10 cards, not {len(cards)}", "hands", s, R32)
        hands.append(cards)
    kitty = card_list(record.get("talon"), "talon", 6, R32)
    seen = set()
    for card in [c for h in hands for c in h] + kitty:
        if card in seen:
            raise RecordError(f"card {card_name(card)} dealt twice", "hands", None, R31)
        seen.add(card)
    return hands, kitty


def run_auction(auction, dealer):
    """The calls of docs/RULES.md §3.3: ``(declarer, (tricks, denomination))``, or ``(None, None)``
    when all four pass."""
    if not isinstance(auction, list):
        raise RecordError("auction must be a list of calls", "auction", None, R33)
    passed = set()
    high = None
    high_seat = None
    seat = (dealer + 1) % 4
    over = False
    for i, tok in enumerate(auction):
        if over:
            raise RecordError("call after the auction ended", "auction", i, R33)
        while seat in passed:
            seat = (seat + 1) % 4
        call = read_call(tok, i)
        if call is None:
            passed.add(seat)
        else:
            if high is not None and bid_value(call) <= bid_value(high):
                raise RecordError(f"bid {tok} is not worth more than {high[0]}{high[1]}", "auction", i, R33)
            high, high_seat = call, seat
        seat = (seat + 1) % 4
        over = len(passed) == 4 or (len(passed) == 3 and high is not None)
    if not over:
        raise RecordError("auction not finished", "auction", len(auction), R33)
    return high_seat, high


def take_kitty(record, hands, kitty, declarer):
    """docs/RULES.md §3.4: the hands in play after the declarer takes the kitty and discards six."""
    discard = card_list(record.get("discard"), "discard", 6, R34)
    held = [list(h) for h in hands]
    held[declarer] = held[declarer] + kitty
    for i, card in enumerate(discard):
        if card in discard[:i]:
            raise RecordError(f"discard {card_name(card)} is listed twice", "discard", i, R34)
        if card not in held[declarer]:
            raise RecordError(f"discard {card_name(card)} is not in the declarer's hand and kitty",
                              "discard", i, R34)
        held[declarer].remove(card)
    return held


def lead_suit(card, named, trump, index):
    """The suit a led card asks for: its own, or in no-trump the one a joker names."""
    led = suit_of(card, trump)
    if led is None:
        if named is None:
            raise RecordError("a joker led in no-trump must name a suit (HJ=H)", "play", index, R35)
        return named
    return led


def play_tricks(play, held, declarer, trump):
    """The ten tricks of docs/RULES.md §3.5 (the declarer leads first): tricks won ``[team0, team1]``."""
    if not isinstance(play, list):
        raise RecordError("play must be a list of cards", "play", None, R35)
    held = [list(h) for h in held]
    tricks = [0, 0]
    leader = declarer
    k = 0
    for t in range(10):
        trick = []
        led = None
        for j in range(4):
            seat = (leader + j) % 4
            if k >= len(play):
                raise RecordError(f"deal not finished: {len(play)} cards played, 40 needed", "play", k, R35)
            card, named = parse_play(play[k], k)
            if card not in held[seat]:
                raise RecordError(f"{card_name(card)} is not in seat {seat}'s hand", "play", k, R35)
            if named is not None and not (j == 0 and trump == "NT" and card in JOKERS):
                raise RecordError("only a joker led in no-trump names a suit", "play", k, R35)
            if j == 0:
                led = lead_suit(card, named, trump, k)
            else:
                mine = suit_of(card, trump)
                if mine != led and any(suit_of(c, trump) == led for c in held[seat]):
                    raise RecordError(f"revoke: seat {seat} must follow {led} and played {card_name(card)}",
                                      "play", k, R35)
            held[seat].remove(card)
            trick.append((seat, card))
            k += 1
        leader = max(trick, key=lambda sc: power(sc[1], trump, led))[0]
        tricks[leader % 2] += 1
    if k < len(play):
        raise RecordError("card played after the deal ended", "play", k, R35)
    return tricks


def score(bid, declarer, tricks, scoring, target, before):
    """The ``result`` of a played deal (docs/RULES.md §3.6)."""
    value = bid_value(bid)
    dteam = declarer % 2
    made = tricks[dteam] >= bid[0]
    delta = [0, 0]
    if scoring == "quebec":
        if made:
            delta[dteam] = value
        else:
            delta[1 - dteam] = value
    else:
        delta[dteam] = value if made else -value
        delta[1 - dteam] = 10 * tricks[1 - dteam]
    after = [before[0] + delta[0], before[1] + delta[1]]
    crossed = [after[0] >= target, after[1] >= target]
    if crossed[0] and crossed[1]:
        winner = dteam if made else 1 - dteam
    elif crossed[0]:
        winner = 0
    elif crossed[1]:
        winner = 1
    else:
        winner = None
    return {"game": "500", "declarer": declarer, "contract": f"{bid[0]}{bid[1]}", "value": value,
            "tricks": tricks, "made": made, "delta": delta, "game_over": winner is not None, "winner": winner,
            "after": {"scores": after}}


def thrown_in(record, play, before):
    """The ``result`` of a deal all four passed (docs/RULES.md §3.3): nothing played, nothing scored."""
    if play:
        raise RecordError("cards played after an all-pass auction (thrown in)", "play", 0, R33)
    if "discard" in record:  # even [] or null: such a record has no discard (docs/RECORDS.md), as 501's no contract
        raise RecordError("discard after an all-pass auction (thrown in)", "discard", None, R33)
    return {"game": "500", "declarer": None, "contract": None, "value": 0, "tricks": [0, 0], "made": None,
            "delta": [0, 0], "game_over": False, "winner": None, "after": {"scores": list(before)}}


def replay(record) -> dict:
    """Validate a Five Hundred record and return its ``result`` (docs/RECORDS.md).

    Raises RecordError (field, index, rule) for any breach of docs/RECORDS.md or docs/RULES.md §3.
    """
    dealer, scoring, target, before = check_record(record)
    hands, kitty = parse_hands(record)
    declarer, bid = run_auction(record.get("auction"), dealer)
    play = record.get("play", [])
    if not isinstance(play, list):
        raise RecordError("play must be a list of cards", "play", None, R35)
    if bid is None:
        return thrown_in(record, play, before)
    held = take_kitty(record, hands, kitty, declarer)
    tricks = play_tricks(play, held, declarer, bid[1])
    return score(bid, declarer, tricks, scoring, target, before)
