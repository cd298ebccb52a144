"""Vint deals as PBN (Portable Bridge Notation 2.1) and back: the game's part of :mod:`cardsim.pbn`.

Vint is dealt like bridge (52 cards, 13 to each of four players in two partnerships) but has no
dummy, no doubles, its own denomination order and its own end of the auction (docs/RULES.md §2).
The mapping (docs/pbn.md has the table):

* seats → directions: seat 0 = North, 1 = East, 2 = South, 3 = West (clockwise, as in
  bridge), so team 0 (seats 0 and 2) is North-South and team 1 is East-West;
* ``Dealer``: the dealer's direction; he also makes the first call, as in bridge;
* ``Auction``: every Vint call as it was made, ``Pass`` for a pass, all the passes that end
  it (8 in a void deal, 12 after the last bid) — no ``AP``: a bridge reader that stops at
  bridge's three passes still gets the contract from the ``Contract``/``Declarer`` tags;
* ``Contract``/``Declarer``: the last bid and its bidder (``Pass`` and an empty declarer in a
  void deal); never doubled;
* ``Play``: the opening leader (left of the declarer), then one line per trick in the order of
  the directions from the opening leader, whoever led the trick (PBN 2.1, the Play section);
* ``Result``: the tricks of the declarer's side (Vint scores the defenders' tricks too: they
  are 13 minus it);
* ``Vulnerable "None"`` and ``Scoring "Vint"`` (not a PBN scoring term, on purpose: no program
  should score the deal as rubber bridge);
* Vint-only facts in tags with the prefix ``Vint``, which PBN readers keep or ignore:
  ``VintBelow``/``VintGames`` (the record's ``before``: points below the line and games of
  team NS then EW), ``VintTricks`` and ``VintTotal`` (tricks and the deal's points, NS then EW;
  ignored on input, as a record's ``result`` is).

Plain Python; no numba, no pandas.
"""
from __future__ import annotations

from cardsim.games.base import RecordError
from cardsim.games.vint.replay import replay, run_auction

DIRECTIONS = "NESW"
"""Direction letter by seat."""
SUITS = "SHDC"
"""PBN's suit order inside a hand (spades first)."""
RANK_ORDER = "AKQJT98765432"
DENOMS = ("S", "C", "D", "H", "NT")
"""Vint's denominations, lowest first (docs/RULES.md §2.2) — not bridge's order."""
TAG_OF_FIELD = {"auction": "Auction", "play": "Play", "hands": "Deal", "dealer": "Dealer", "before": "VintBelow"}
"""The PBN tag that holds each record field, to name the tag in an error."""


class PBNBoardError(ValueError):
    """A board that Vint cannot take: ``tag`` names the PBN tag, the message says why."""

    def __init__(self, tag: str, message: str):
        self.tag = tag
        super().__init__(f"[{tag}] {message}")


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------
def _pbn_hand(cards) -> str:
    by_suit = {s: [] for s in SUITS}
    for card in cards:
        rank, suit = card[:-1].upper(), card[-1].upper()
        by_suit[suit].append("T" if rank == "10" else rank)
    return ".".join("".join(sorted(by_suit[s], key=RANK_ORDER.index)) for s in SUITS)


def _pbn_call(call: str) -> str:
    return "Pass" if call.upper() == "P" else call.upper()


def _pbn_card(card: str) -> str:
    rank, suit = card[:-1].upper(), card[-1].upper()
    return suit + ("T" if rank == "10" else rank)


def _winner(trick, leader, trump):
    """Seat winning ``trick`` (cards as "AS", in play order from ``leader``); trump a suit letter or None."""
    def power(card):
        suit, rank = card[-1], card[:-1]
        if trump is not None and suit == trump:
            return 200 - RANK_ORDER.index(rank)
        return 100 - RANK_ORDER.index(rank) if suit == trick[0][-1] else 0
    best = max(range(len(trick)), key=lambda k: power(trick[k]))
    return (leader + best) % 4


def board_text(record: dict, board: int, event: str, site: str = "cardsim", date: str = "????.??.??") -> str:
    """One Vint record (docs/RECORDS.md, with its ``result``) as one PBN board: tag lines, the
    Auction and Play sections, ending with a newline (boards are separated by an empty line)."""
    result = record["result"]
    dealer = record["dealer"]
    hands = record["hands"]
    lines = [f'[Event "{event}"]', f'[Site "{site}"]', f'[Date "{date}"]', f'[Board "{board}"]']
    # The player tags name cardsim's seats (PBN's players are people; ours are seats).
    lines += ['[West "seat 3"]', '[North "seat 0"]', '[East "seat 1"]', '[South "seat 2"]']
    lines.append(f'[Dealer "{DIRECTIONS[dealer]}"]')
    lines.append('[Vulnerable "None"]')
    lines.append('[Deal "N:' + " ".join(_pbn_hand(hands[s]) for s in range(4)) + '"]')
    lines.append('[Scoring "Vint"]')
    declarer = result.get("declarer")
    contract = result.get("contract")
    if contract is None:
        lines += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
    else:
        lines += [f'[Declarer "{DIRECTIONS[declarer]}"]', f'[Contract "{contract}"]',
                  f'[Result "{result["tricks"][declarer % 2]}"]']
    before = record.get("before") or {}
    if before:
        lines.append('[VintBelow "{} {}"]'.format(*before["below"]))
        lines.append('[VintGames "{} {}"]'.format(*before.get("games", [0, 0])))
    if contract is not None:
        lines.append('[VintTricks "{} {}"]'.format(*result["tricks"]))
    lines.append('[VintTotal "{} {}"]'.format(*result["total"]))
    calls = [_pbn_call(c) for c in record["auction"]]
    lines.append(f'[Auction "{DIRECTIONS[dealer]}"]')
    lines += [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
    if contract is not None:
        trump = None if contract.endswith("NT") else contract[-1]
        first = (declarer + 1) % 4
        lines.append(f'[Play "{DIRECTIONS[first]}"]')
        # Records from other programs may write "10S" and lower case (docs/RECORDS.md "Cards").
        play = [c.upper().replace("10", "T") for c in record["play"]]
        leader = first
        for t in range(13):
            trick = play[4 * t:4 * t + 4]
            row = [""] * 4
            for k, card in enumerate(trick):
                row[((leader + k) % 4 - first) % 4] = _pbn_card(card)
            lines.append(" ".join(row))
            leader = _winner(trick, leader, trump)
    return "\n".join(lines) + "\n"


COMMENT = ("{Vint (cardsim, docs/pbn.md): seat 0 = North, 1 = East, 2 = South, 3 = West; no dummy, "
           "every hand is played by its holder; denominations rank S < C < D < H < NT; the auction "
           "ends after 12 passes following the last bid (8 with no bid); no doubles; Result = tricks "
           "of the declarer's side, which also scores its opponents' tricks; Vint* tags: NS then EW}")
"""The comment written once at the head of a file of Vint boards."""


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------
def _direction(value: str, tag: str) -> int:
    v = value.strip().upper()[:1]
    if v not in DIRECTIONS or len(value.strip()) != 1:
        raise PBNBoardError(tag, f'"{value}" is not a direction (N, E, S or W)')
    return DIRECTIONS.index(v)


def parse_deal(value: str) -> list[list[str]]:
    """A PBN ``Deal`` tag value (``"N:AKQ.JT9.876.5432 ..."``) as the four hands by seat, cards as
    docs/RECORDS.md writes them (``"AS"``); raises PBNBoardError("Deal", ...) unless it is four
    hands of 13 distinct cards."""
    text = value.strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in DIRECTIONS:
        raise PBNBoardError("Deal", f'"{value[:40]}" does not start with a direction and a colon ("N:")')
    first = DIRECTIONS.index(text[0].upper())
    parts = text[2:].split()
    if len(parts) != 4:
        raise PBNBoardError("Deal", f"{len(parts)} hands given, not 4")
    hands: list[list[str]] = [[] for _ in range(4)]
    seen = set()
    for k, part in enumerate(parts):
        seat = (first + k) % 4
        if part == "-":
            raise PBNBoardError("Deal", f"hand {DIRECTIONS[seat]} is unknown ('-'): Vint needs all four hands")
        suits = part.split(".")
        if len(suits) != 4:
            raise PBNBoardError("Deal", f'hand {DIRECTIONS[seat]} "{part[:30]}" is not four suits separated by dots')
        for suit, ranks in zip(SUITS, suits):
            for r in ranks.upper():
                if r not in RANK_ORDER:
                    raise PBNBoardError("Deal", f"hand {DIRECTIONS[seat]}: '{r}' is not a rank (AKQJT98765432)")
                card = r + suit
                if card in seen:
                    raise PBNBoardError("Deal", f"{card} is dealt twice")
                seen.add(card)
                hands[seat].append(card)
    for seat in range(4):
        if len(hands[seat]) != 13:
            raise PBNBoardError("Deal", f"hand {DIRECTIONS[seat]} has {len(hands[seat])} cards: Vint deals 13 "
                                        "to each of the four players (docs/RULES.md §2.1)")
    return hands


def read_pbn_call(token: str, tag: str = "Auction") -> str:
    """One call of a PBN ``Auction`` section (``Pass``/``P``, ``1S`` .. ``7NT``, ``1N``; a ``!``/``?``
    suffix ignored) as cardsim writes it (``P``, ``1S`` .. ``7NT``).  Raises :class:`PBNBoardError`
    (naming ``tag``) for a double or redouble, ``AP`` and anything that is not a Vint call
    (docs/RULES.md §2.2)."""
    t = token.strip().upper().rstrip("!?")  # PBN's suffix annotations (1S!, 3NT?) say nothing of the call
    if t in ("PASS", "P"):
        return "P"
    if t in ("X", "XX", "DBL", "RDBL"):
        raise PBNBoardError(tag, f"'{token}': Vint has no doubles or redoubles (docs/RULES.md §2.2)")
    if t == "AP":
        raise PBNBoardError(tag, "'AP' (all pass, three passes in bridge) does not end a Vint auction: "
                                 "it ends after 12 passes following the last bid, 8 with no bid (docs/RULES.md §2.2); "
                                 "--complete-auction adds them")
    if len(t) >= 2 and t[0] in "1234567" and t[1:] in DENOMS + ("N",):
        return t[0] + ("NT" if t[1:] == "N" else t[1:])
    raise PBNBoardError(tag, f"'{token[:20]}' is not a call (Pass or 1S..7NT)")


def _card(token: str) -> str:
    t = token.strip().upper().rstrip("!?")
    if len(t) != 2 or t[0] not in SUITS or t[1] not in RANK_ORDER:
        raise PBNBoardError("Play", f"'{token[:20]}' is not a card (suit then rank, e.g. SA)")
    return t[1] + t[0]


def hands_of(board) -> tuple[int | None, list[list[str]]]:
    """``(dealer seat or None, hands by seat)`` of a parsed board (:class:`cardsim.pbn.Board`)."""
    if "Deal" not in board.tags:
        raise PBNBoardError("Deal", "missing: the board has no Deal tag")
    hands = parse_deal(board.tags["Deal"])
    dealer = _direction(board.tags["Dealer"], "Dealer") if board.tags.get("Dealer", "").strip() else None
    return dealer, hands


def _pair(board, tag):
    value = board.tags.get(tag)
    if value is None:
        return None
    try:
        pair = [int(x) for x in value.split()]
    except ValueError:
        pair = []
    if len(pair) != 2:
        raise PBNBoardError(tag, f'"{value[:30]}" is not two whole numbers (NS EW)')
    return pair


def to_record(board, complete_auction: bool = False) -> dict:
    """A parsed PBN board with its auction and play as a Vint record (docs/RECORDS.md) that
    ``cardsim replay`` accepts; raises PBNBoardError naming the tag Vint cannot take.

    ``complete_auction``: a bridge auction ends after three passes, a Vint one only after 12
    following the last bid (8 with no bid, docs/RULES.md §2.2); True appends the passes that end
    it as Vint's rules need (as if nobody had bid again), False (the default) refuses it."""
    dealer, hands = hands_of(board)
    auction_dir = board.tags.get("Auction")
    if auction_dir is None:
        raise PBNBoardError("Auction", "missing: a deal to replay needs its auction")
    first_caller = _direction(auction_dir, "Auction")
    if dealer is None:
        dealer = first_caller
    elif first_caller != dealer:
        raise PBNBoardError("Auction", f"starts with {DIRECTIONS[first_caller]}, not the dealer "
                                       f"{DIRECTIONS[dealer]}: in Vint the dealer calls first (docs/RULES.md §2.2)")
    vul = board.tags.get("Vulnerable", "None").strip()
    if vul.lower() not in ("none", "love", "-", ""):
        raise PBNBoardError("Vulnerable", f'"{vul}": Vint has no vulnerability (its scores depend on the rubber '
                                          "state, VintBelow/VintGames)")
    contract_tag = board.tags.get("Contract", "").strip().upper()
    if contract_tag.endswith("X"):
        raise PBNBoardError("Contract", f'"{board.tags["Contract"]}" is doubled: Vint has no doubles '
                                        "(docs/RULES.md §2.2)")
    auction = []
    for token in board.sections.get("Auction", []):
        if token.startswith("=") or token.startswith("$"):  # a note or a NAG on the last call
            continue
        if token in ("+", "-", "*"):
            raise PBNBoardError("Auction", f"'{token}': the auction is not given in full")
        if complete_auction and token.upper() == "AP":
            auction += ["P"] * 3  # bridge's "all pass"; the passes Vint still needs are added below
            continue
        auction.append(read_pbn_call(token))
    if complete_auction:
        auction += ["P"] * _passes_missing(auction)
    record = {"game": "vint", "seats": 4, "dealer": dealer, "hands": hands, "auction": auction, "play": []}
    below, games = _pair(board, "VintBelow"), _pair(board, "VintGames")
    if games is not None and below is None:
        raise PBNBoardError("VintGames", "given without VintBelow")
    if below is not None:
        record["before"] = {"below": below, "games": games or [0, 0]}
    try:
        declarer, contract = run_auction(auction, dealer)
    except RecordError as exc:
        hint = ""
        if not complete_auction and auction and auction[-1] == "P" and _passes_missing(auction):
            hint = "; if it ended with a bridge auction's three passes, --complete-auction adds the passes Vint needs"
        raise PBNBoardError("Auction", exc.describe() + hint) from None
    if contract is not None:
        _check_contract(board, declarer, auction)
        record["play"] = _play(board, declarer, auction, hands)
    elif board.sections.get("Play"):
        raise PBNBoardError("Play", "cards played in a void deal (8 passes)")
    try:
        replay(record)
    except RecordError as exc:
        raise PBNBoardError(TAG_OF_FIELD.get(exc.field, exc.field or "Deal"), exc.describe()) from None
    return record


def _passes_missing(auction) -> int:
    """Passes to append so that ``auction`` (calls as "P", "1S") ends by Vint's rule; 0 when it is
    not a run of passes short of that end (the replay then says what is wrong)."""
    trailing = len(auction) - len("".join("x" if c != "P" else "p" for c in auction).rstrip("p"))
    need = 12 if trailing < len(auction) else 8
    return max(0, need - trailing)


def _check_contract(board, declarer, auction):
    last = next(c for c in reversed(auction) if c != "P")
    given = board.tags.get("Contract", "").strip().upper()
    if given and given != last:
        raise PBNBoardError("Contract", f'"{given}" is not the auction\'s last bid {last} (docs/RULES.md §2.2: the '
                                        "last bid is the contract)")
    dec = board.tags.get("Declarer", "").strip()
    if dec and _direction(dec, "Declarer") != declarer:
        raise PBNBoardError("Declarer", f'"{dec}" is not the last bidder {DIRECTIONS[declarer]} '
                                        "(docs/RULES.md §2.2: the last bidder declares)")


def _play(board, declarer, auction, hands) -> list[str]:
    """The Play section as the record's card list in play order."""
    if "Play" not in board.tags:
        raise PBNBoardError("Play", "missing: a deal to replay needs its play")
    first = _direction(board.tags["Play"], "Play")
    leader_should = (declarer + 1) % 4
    if first != leader_should:
        raise PBNBoardError("Play", f"opening leader {DIRECTIONS[first]} is not left of the declarer "
                                    f"{DIRECTIONS[declarer]} (docs/RULES.md §2.3)")
    tokens = [t for t in board.sections.get("Play", []) if not (t.startswith("=") or t.startswith("$"))]
    if len(tokens) == 53 and tokens[-1] == "*":
        # PBN's "*" ends a play that stopped early; some programs also write it after the 13th
        # trick, where it says nothing more.
        tokens = tokens[:52]
    if "*" in tokens:
        raise PBNBoardError("Play", "a claim ('*'): Vint plays all 13 tricks, so the rest cannot be replayed")
    if "-" in tokens or "+" in tokens:
        raise PBNBoardError("Play", "a card not given ('-'): the play is not given in full")
    if len(tokens) != 52:
        raise PBNBoardError("Play", f"{len(tokens)} cards, not 52: Vint plays all 13 tricks (docs/RULES.md §2.3)")
    last = next(c for c in reversed(auction) if c != "P")
    trump = None if last.endswith("NT") else last[-1]
    play = []
    leader = first
    for t in range(13):
        row = [_card(x) for x in tokens[4 * t:4 * t + 4]]  # by direction from the opening leader
        trick = [row[((leader + k) % 4 - first) % 4] for k in range(4)]
        play += trick
        leader = _winner(trick, leader, trump)
    return play
