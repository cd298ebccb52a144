"""Validate and score Vint deal records in plain Python (docs/RECORDS.md, docs/RULES.md §2).

This is the slow twin of the jitted engine: written from the rules, sharing none of its code
beyond card parsing, so that simulate → records → replay checks one against the other.
"""
from __future__ import annotations

from cardsim.cards import CardError, SUITS, parse_card
from cardsim.games.base import RecordError
from cardsim.games import get_game, loadable_specs
from cardsim.games.fields import check_fields
from cardsim.games.source import check_source
from cardsim.text import quote

from .rules import DENOMINATIONS, PASS, RANKS, call_denomination, call_level
from .rules import parse_call
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


def read_call(token, index):
    """``"P"`` → None; ``"3C"`` → (3, 1).  Raises RecordError.

    Exact grammar (docs/RECORDS.md, Calls), read by the game's one call parser
    (:func:`.rules.parse_call`): ``P``, or a level ``1``..``7`` then ``S C D H NT``; either case,
    nothing else.
    """
    try:
        call = parse_call(token)
    except CardError as exc:
        raise RecordError(str(exc), "auction", index, "docs/RECORDS.md Calls") from None
    if call == PASS:
        return None
    return int(call_level(call)), int(call_denomination(call))


def call_token(call) -> str:
    return "P" if call is None else f"{call[0]}{DENOMINATIONS[call[1]]}"


def _card(token, field, index):
    try:
        return parse_card(token, RANKS)
    except CardError as exc:
        raise RecordError(str(exc), field, index, "docs/RECORDS.md Cards") from None


def _int(value, what, field):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be an integer, got {quote(value)}", field)
    return value


def parse_hands(record):
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError("hands must be a list of 4 hands", "hands", None, "docs/RULES.md §2.1")
    seen = {}
    out = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 13:
            raise RecordError(f"seat {seat} must hold 13 cards", "hands", seat, "docs/RULES.md §2.1")
        cards = set()
        for token in hand:
            c = _card(token, "hands", seat)
            if c in seen:
                raise RecordError(f"card {token} dealt twice (seats {seen[c]} and {seat})", "hands", seat,
                                  "docs/RULES.md §2.1")
            seen[c] = seat
            cards.add(c)
        out.append(cards)
    return out


def parse_before(record):
    before = record.get("before")
    if before is None:
        return [0, 0], [0, 0]
    if not isinstance(before, dict) or set(before) - {"below", "games"} or "below" not in before:
        # games may be left out (no game won yet); below may not (docs/RECORDS.md Strictness)
        raise RecordError('before must be {"below": [b0, b1], "games": [g0, g1]} (games may be left out)', "before",
                          None, "docs/RECORDS.md")
    below = before["below"]
    games = before.get("games", [0, 0])
    for name, pair in (("below", below), ("games", games)):
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError(f"before.{name} must be a list of two integers", "before")
        for v in pair:
            _int(v, f"before.{name}", "before")
            if v < 0:
                raise RecordError(f"before.{name} cannot be negative", "before")
    if max(below) >= 500:
        raise RecordError("a side at 500 or more below the line has already won that game", "before", None,
                          "docs/RULES.md §2.7")
    if max(games) >= 2:
        raise RecordError("the rubber is already over (a side has won two games)", "before", None, "docs/RULES.md §2.7")
    return list(below), list(games)


def run_auction(auction, dealer):
    """Check the calls of docs/RULES.md §2.2; returns (declarer, (level, denomination)) or (None, None)."""
    if not isinstance(auction, list):
        raise RecordError("auction must be a list of calls", "auction")
    current = None
    declarer = None
    passes = 0
    for i, token in enumerate(auction):
        seat = (dealer + i) % 4
        call = read_call(token, i)
        if call is None:
            passes += 1
        else:
            if current is not None and call <= current:
                raise RecordError(f"{call_token(call)} by seat {seat} is not higher than {call_token(current)}",
                                  "auction", i, "docs/RULES.md §2.2")
            current, declarer, passes = call, seat, 0
        ended = (current is None and passes == 8) or (current is not None and passes == 12)
        if ended and i != len(auction) - 1:
            raise RecordError("call after the auction ended", "auction", i + 1, "docs/RULES.md §2.2")
        if ended:
            return declarer, current
    need = 8 - passes if current is None else 12 - passes
    raise RecordError(f"auction incomplete: {need} more consecutive passes needed to end it", "auction",
                      len(auction), "docs/RULES.md §2.2")


def play_tricks(play, hands, declarer, trump):
    """Check the 52 cards of docs/RULES.md §2.3; returns the seat winning each trick, in order."""
    if not isinstance(play, list):
        raise RecordError("play must be a list of cards", "play")
    held = [set(h) for h in hands]
    leader = (declarer + 1) % 4
    winners = []
    for t in range(13):
        trick = []
        for k in range(4):
            i = 4 * t + k
            if i >= len(play):
                raise RecordError(f"play incomplete: {len(play)} cards of 52", "play", len(play), "docs/RULES.md §2.3")
            seat = (leader + k) % 4
            c = _card(play[i], "play", i)
            if c not in held[seat]:
                raise RecordError(f"{play[i]} is not in seat {seat}'s hand", "play", i, "docs/RULES.md §2.3")
            if trick:
                led = trick[0][1] >> 4
                if c >> 4 != led and any(x >> 4 == led for x in held[seat]):
                    raise RecordError(f"seat {seat} revokes: plays {play[i]} holding {SUIT_NAMES[SUITS[led]]}",
                                      "play", i, "docs/RULES.md §2.3 follow suit")
            held[seat].discard(c)
            trick.append((seat, c))
        led = trick[0][1] >> 4

        def power(entry):
            c = entry[1]
            if trump < 4 and c >> 4 == trump:
                return 200 + (c & 15)
            return 100 + (c & 15) if c >> 4 == led else 0

        leader = max(trick, key=power)[0]
        winners.append(leader)
    if len(play) > 52:
        raise RecordError("cards played after the 13th trick", "play", 52, "docs/RULES.md §2.3")
    return winners


def score(level, denomination, declarer, winners, hands, below, games):
    """The result pieces of docs/RULES.md §2.4–§2.7 for a played deal."""
    v = 4 + 2 * denomination + 10 * (level - 1)
    dteam = declarer % 2
    tricks = [0, 0]
    deal_below = [0, 0]
    running = list(below)
    game_won_by, crossing = None, None
    for t, seat in enumerate(winners):
        team = seat % 2
        tricks[team] += 1
        deal_below[team] += v
        running[team] += v
        if game_won_by is None and running[team] >= 500:
            game_won_by, crossing = team, t + 1
    zero = lambda: [0, 0]  # noqa: E731
    slam, bid_slam, honours, aces, penalty, game = zero(), zero(), zero(), zero(), zero(), zero()
    for team in (0, 1):
        slam[team] = {12: 500, 13: 1000}.get(tricks[team], 0)
    if level == 6 and tricks[dteam] >= 12:
        bid_slam[dteam] = 3000
    if level == 7 and tricks[dteam] == 13:
        bid_slam[dteam] = 5000
    team_cards = [hands[0] | hands[2], hands[1] | hands[3]]
    if denomination < 4:
        for team in (0, 1):
            held = sum(1 for c in team_cards[team] if c >> 4 == denomination and (c & 15) >= RANKS.index("T"))
            honours[team] = {3: 20, 4: 30, 5: 40}.get(held, 0) * v
    ace = RANKS.index("A")
    held_aces = [sum(1 for c in team_cards[team] if c & 15 == ace) for team in (0, 1)]
    if held_aces[0] != held_aces[1]:
        team = 0 if held_aces[0] > held_aces[1] else 1
        aces[team] = 10 * v * held_aces[team]
    else:
        aces[0 if tricks[0] > tricks[1] else 1] = 20 * v
    short = level + 6 - tricks[dteam]
    if short > 0:
        penalty[1 - dteam] = 500 * level * short + {6: 3000, 7: 5000}.get(level, 0)
    after_games = list(games)
    rubber_won_by = None
    if game_won_by is not None:
        after_games[game_won_by] += 1
        if after_games[game_won_by] == 2:
            game[game_won_by] = 1000
            rubber_won_by = game_won_by
        else:
            game[game_won_by] = 500
        after_below = [0, 0]
    else:
        after_below = running
    above = [slam[t] + bid_slam[t] + honours[t] + aces[t] + penalty[t] + game[t] for t in (0, 1)]
    return {
        "game": "vint",
        "declarer": declarer,
        "contract": f"{level}{DENOMINATIONS[denomination]}",
        "tricks": tricks,
        "below": deal_below,
        "above": above,
        "bonuses": {"slam": slam, "bid_slam": bid_slam, "honours": honours, "aces": aces,
                    "penalty": penalty, "game": game},
        "total": [deal_below[t] + above[t] for t in (0, 1)],
        "game_won_by": game_won_by,
        "crossing_trick": crossing,
        "rubber_won_by": rubber_won_by,
        "after": {"below": after_below, "games": after_games},
    }


def void_result(below, games):
    zero = [0, 0]
    return {
        "game": "vint", "declarer": None, "contract": None, "tricks": list(zero), "below": list(zero),
        "above": list(zero),
        "bonuses": {k: list(zero) for k in ("slam", "bid_slam", "honours", "aces", "penalty", "game")},
        "total": list(zero), "game_won_by": None, "crossing_trick": None, "rubber_won_by": None,
        "after": {"below": list(below), "games": list(games)},
    }


def replay(record) -> dict:
    """Validate one Vint record and return its ``result`` (docs/RECORDS.md); raises RecordError."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("game") != "vint":
        raise RecordError(f"not a Vint record: game {quote(record.get('game'))}", "game")
    check_fields(record, get_game("vint"), loadable_specs())
    seats = record.get("seats", 4)
    if type(seats) is not int or seats != 4:
        raise RecordError(f"Vint is played by 4 seats, not {quote(seats)}", "seats", None, "docs/RULES.md §2.1")
    dealer = _int(record.get("dealer"), "dealer", "dealer")
    if not 0 <= dealer < 4:
        raise RecordError(f"dealer must be a seat 0..3, got {dealer}", "dealer")
    rules = record.get("rules")
    if rules not in (None, {}):
        raise RecordError(f"Vint has no rule options, got {quote(rules)}", "rules")
    check_source(record)
    below, games = parse_before(record)
    hands = parse_hands(record)
    declarer, contract = run_auction(record.get("auction"), dealer)
    play = record.get("play", [])
    if not isinstance(play, list):
        raise RecordError("play must be a list of cards", "play")
    if contract is None:
        if play:
            raise RecordError("cards played in a void deal", "play", 0, "docs/RULES.md §2.2")
        return void_result(below, games)
    level, denomination = contract
    winners = play_tricks(play, hands, declarer, denomination)
    return score(level, denomination, declarer, winners, hands, below, games)
