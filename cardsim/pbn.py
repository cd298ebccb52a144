"""PBN (Portable Bridge Notation 2.1) files: deals other programs can read, and deals read from them.

A game that is dealt as a bridge deal (four hands of 13 cards) names its mapping module in its
spec (``GameSpec.modules.pbn``, :class:`cardsim.games.base.Modules`); the module gives ``board_text(record,
board, event)``, ``COMMENT``, ``hands_of(board)``, ``to_record(board)`` and raises its
``PBNBoardError(tag, message)``.  Only Vint is such a game today (docs/pbn.md); asking another
game is :class:`PBNError` "not a bridge deal".

API:

* :func:`write` — records (docs/RECORDS.md, with ``result``) → the text of a PBN file;
* :func:`parse` — PBN text → :class:`Board` (tags, the Auction/Play sections' tokens, the rows of
  table sections such as OptimumResultTable, and a name for ``--board``);
* :func:`read_deals` — a PBN file → given hands per board (for ``evaluate``);
* :func:`read_records` — a PBN file → records that ``cardsim replay`` accepts.

Errors are :class:`PBNError` with a one-line message naming the board and the tag.  A file is
read within :data:`cardsim.bounded.PBN` (a line 1 MiB, the file 16 MiB).
Plain Python, no numba or pandas: importing it is cheap.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardsim.bounded import PBN as PBN_LIMITS
from cardsim.bounded import InputTooLarge, read_bytes
from cardsim.conditions import Conditions
from cardsim.games import get_game
from cardsim.text import quote

__all__ = ["PBNError", "PBNUsageError", "Board", "parse", "write", "header", "boards", "read_deals", "read_records",
           "conditions", "one_deal", "hand_text", "mapping"]


class PBNError(ValueError):
    """A PBN file or board cardsim cannot use, or a game that has no PBN form (one line)."""


class PBNUsageError(PBNError):
    """Not the file's content but the question: a game without a PBN form, a file that cannot be
    read, a board the file does not hold (the command line's exit code 2, not 1)."""


@dataclass
class Board:
    """One board of a PBN file: ``tags`` (name → value, as written), ``sections`` (``"Auction"``
    and ``"Play"`` → their tokens in order), ``tables`` (a table section's tag, e.g.
    ``"OptimumResultTable"`` → its rows, one string per line; PBN 2.1 §5), ``line`` (the file line
    of its first tag) and ``name`` (how ``--board`` and messages name it, set by :func:`parse`:
    its Board tag, or with a room or a number when several boards share the tag)."""
    tags: dict = field(default_factory=dict)
    sections: dict = field(default_factory=dict)
    line: int = 0
    tables: dict = field(default_factory=dict)
    name: str = ""

    @property
    def label(self) -> str:
        """The Board tag as written ("?" if none)."""
        return self.tags.get("Board", "").strip() or "?"


_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\](.*)$')
_SECTIONS = ("Auction", "Play")


def _is_table(tag: str) -> bool:
    """A table section's tag (PBN 2.1 §5: ActionTable, OptimumResultTable, ScoreTable, TotalScoreTable
    ...): its value names the columns and its rows follow on the next lines.  Any case, as endplay
    reads them; a tag named only "Table" is not one."""
    return tag.lower().endswith("table") and tag.lower() != "table"


def mapping(game: str):
    """The game's PBN mapping module; PBNError for a game whose deals are not bridge deals."""
    spec = get_game(game)
    if not spec.modules.offers("pbn"):
        raise PBNUsageError(f"{spec.name} deals are not bridge deals (PBN holds four hands of 13 cards from 52): "
                       "no PBN form; PBN is offered for a game dealt as bridge (docs/pbn.md)")
    return spec.modules.load("pbn")


def header(game: str) -> str:
    """The head of a PBN 2.1 file of ``game``'s deals: the version, and the mapping in a comment."""
    return "% PBN 2.1\n% EXPORT\n" + mapping(game).COMMENT + "\n"


def boards(records, game: str, event: str = "cardsim", first: int = 1) -> str:
    """``records`` (docs/RECORDS.md records with their ``result``, all of ``game``) as PBN boards
    numbered from ``first``, each after an empty line: what follows :func:`header` in a file."""
    module = mapping(game)
    return "".join("\n" + module.board_text(record, number, event) for number, record in enumerate(records, first))


def write(records, game: str, event: str = "cardsim") -> str:
    """The text of a PBN 2.1 file holding ``records`` (docs/RECORDS.md records with their
    ``result``, all of ``game``), boards numbered from 1 in order."""
    return header(game) + boards(records, game, event)


def _strip_comments(text: str) -> list[tuple[int, str]]:
    """Lines of ``text`` (numbered from 1) without ``{...}`` and ``;`` comments; a line that held
    only a comment or a ``%`` escape becomes ``" "``, an empty line stays ``""`` (it ends a board)."""
    out = []
    in_block = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_block:
            end = line.find("}")
            if end < 0:
                continue
            line, in_block = line[end + 1:], False
        if not in_block and line.lstrip().startswith("%"):
            out.append((number, " "))  # an escape line: neither a board break nor content
            continue
        kept = []
        i = 0
        inside_quotes = False
        while i < len(line):
            ch = line[i]
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                inside_quotes = not inside_quotes
            if not inside_quotes and ch == ";":
                break
            if not inside_quotes and ch == "{":
                end = line.find("}", i + 1)
                if end < 0:
                    in_block = True
                    break
                i = end + 1
                continue
            kept.append(ch)
            i += 1
        stripped = "".join(kept).strip()
        # " ": a line that held only a comment (not the empty line that ends a board).
        out.append((number, stripped or ("" if raw.strip() == "" else " ")))
    return out


def parse(text: str) -> list[Board]:
    """The boards of a PBN file's text (tags and Auction/Play tokens); a ``"#"`` value repeats the
    previous board's.  PBNError for a line that is neither a tag, a section line nor a comment."""
    boards: list[Board] = []
    current: Board | None = None
    section = table = None
    previous: dict = {}
    for number, line in _strip_comments(text):
        if line == "":
            # An empty line ends a board (a % line counts as nothing).
            if current is not None and current.tags:
                boards.append(current)
                previous = current.tags
                current, section, table = None, None, None
            continue
        if line == " ":
            continue  # a line that held only a comment
        m = _TAG.match(line)
        if m:
            name, value = m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            if current is None:
                current = Board(line=number)
            if value == "#":
                value = previous.get(name, "")
            if name in current.tags:  # PBN: a repeated tag is ignored, and so are its rows
                section, table = None, (None if not _is_table(name) else [])
                continue
            current.tags[name] = value
            section = name if name in _SECTIONS else None
            table = current.tables.setdefault(name, []) if _is_table(name) else None
            if section is not None:
                current.sections[section] = m.group(3).split()
            continue
        if section is not None and current is not None:
            current.sections[section] += line.split()
            continue
        if table is not None:
            table.append(line)  # a row of the table: kept as written, cardsim uses no table
            continue
        raise PBNError(f"line {number}: not a tag, section or comment: {line[:60]!r}")
    if current is not None and current.tags:
        boards.append(current)
    boards = [b for b in boards if set(b.tags) - {"Event", "Site", "Date"} or b.sections]
    _name(boards)
    return boards


def _name(boards) -> None:
    """Set each board's ``name``: its Board tag; when several boards share it (a teams match
    writes each board once per room), ``TAG/ROOM`` if their Room tags tell them apart
    (``1/Open``, ``1/Closed``), else ``TAG/K`` for the K-th of them in the file (``1/2``)."""
    by_label: dict[str, list[Board]] = {}
    for b in boards:
        by_label.setdefault(b.label, []).append(b)
    for label, same in by_label.items():
        if len(same) == 1:
            same[0].name = label
            continue
        rooms = [b.tags.get("Room", "").strip() for b in same]
        by_room = all(rooms) and len({r.lower() for r in rooms}) == len(rooms)
        for k, (b, room) in enumerate(zip(same, rooms), 1):
            b.name = f"{label}/{room if by_room else k}"


def _read(path) -> list[Board]:
    """The boards of the file at ``path``, read within :data:`cardsim.bounded.PBN` (a line or a
    file over it is PBNError, rejected data)."""
    try:
        data = read_bytes(path, PBN_LIMITS)
    except InputTooLarge as exc:
        raise PBNError(str(exc)) from None
    except OSError as exc:
        raise PBNUsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # PBN 2.1 files are ISO 8859-1
    try:
        boards = parse(text)
    except PBNError as exc:
        raise PBNError(f"{path}: {exc}") from None
    if not boards:
        raise PBNError(f"{path}: no boards")
    return boards


def _pick(boards, path, board):
    """The boards ``board`` names (all for None): the one whose :attr:`Board.name` it is (a room
    case-insensitively); PBNUsageError for a name no board has, and for a Board tag several
    boards share, naming each of them (the file does not say which one is meant)."""
    if board is None:
        return boards
    wanted = str(board).strip()
    chosen = [b for b in boards if b.name.lower() == wanted.lower()]
    if len(chosen) > 1:
        # A Board tag written as another board's room name ([Board "1/Open"] beside [Board "1"]
        # [Room "Open"]): the name does not say which one is meant.
        raise PBNUsageError(f"{path}: board {chosen[0].name} names {len(chosen)} boards (lines "
                            f"{', '.join(str(b.line) for b in chosen[:5])}{', …' if len(chosen) > 5 else ''}): "
                            f"give each its own Board tag")
    if chosen:
        return chosen
    shared = [b for b in boards if b.label == wanted]
    if shared:
        more = ", …" if len(shared) > 5 else ""
        raise PBNUsageError(f"{path}: {len(shared)} boards are numbered {wanted} (lines "
                            f"{', '.join(str(b.line) for b in shared[:5])}{more}): name one, "
                            f"{' or '.join(b.name for b in shared[:5])}{more}")
    names = [b.name for b in boards]
    shown = ", ".join(names[:5]) + (f", … ({len(names)} boards)" if len(names) > 5 else "")
    raise PBNUsageError(f"{path}: no board {wanted if len(wanted) <= 40 else quote(wanted, 40)} (boards: {shown})")


def _call(module, func, b, path):
    try:
        return func(b)
    except module.PBNBoardError as exc:
        raise PBNError(f"{path}: board {b.name} (line {b.line}): {exc}") from None


def read_deals(path, game: str = "vint", board=None) -> list[dict]:
    """The deals of a PBN file as given hands: one dict per board, ``{"board": name, "dealer":
    seat or None, "hands": [[card, ...] × 4 by seat]}`` (cards as docs/RECORDS.md writes them,
    ``"AS"``; seats by the game's mapping, Vint: N=0 E=1 S=2 W=3).  ``board`` picks one board
    by its name (:attr:`Board.name`: the Board tag, ``1/Closed`` for boards sharing one; PBNUsageError
    for a tag several boards share).  PBNError (one line, naming board and tag) for a board the
    game cannot take."""
    module = mapping(game)
    out = []
    for b in _pick(_read(path), path, board):
        dealer, hands = _call(module, module.hands_of, b, path)
        out.append({"board": b.name, "dealer": dealer, "hands": hands})
    return out


def read_records(path, game: str = "vint", board=None, complete_auction: bool = False) -> list[dict]:
    """The deals of a PBN file with their auction and play as docs/RECORDS.md records that
    ``cardsim replay`` accepts (each is checked by the game's replay); PBNError naming the board and
    the tag for the first board the game's rules do not allow.  ``complete_auction``: append the
    passes that end an auction by the game's rule (a bridge auction ends after three passes, a Vint
    one after twelve) instead of refusing it.  ``board`` picks one board as in :func:`read_deals`."""
    module = mapping(game)

    def convert(b):
        return module.to_record(b, complete_auction=complete_auction)

    return [_call(module, convert, b, path) for b in _pick(_read(path), path, board)]


def hand_text(cards) -> str:
    """Cards as ``evaluate --hand`` takes them: ``"S:AKT H:Q42 D:- C:K8"`` (suits S H D C)."""
    by = {s: "" for s in "SHDC"}
    for c in sorted(cards, key=lambda c: "AKQJT98765432".index(c[:-1].replace("10", "T"))):
        by[c[-1]] += c[:-1]
    return " ".join(f"{s}:{by[s] or '-'}" for s in "SHDC")


def one_deal(path, board=None, game: str = "vint") -> dict:
    """The one board of :func:`read_deals` that ``board`` names (:attr:`Board.name`); ``board`` may be
    left out for a file of one board.  PBNError otherwise."""
    deals = read_deals(path, game, board)
    if len(deals) != 1:
        raise PBNUsageError(f"{path} holds {len(deals)} boards: name one with --board (its Board tag, "
                            "or 1/Closed for boards that share one)")
    return deals[0]


def conditions(path, board=None, game: str = "vint", seats_given=None):
    """A PBN board as :class:`cardsim.conditions.Conditions` for :func:`cardsim.evaluate`
    (``conditions=``): the given hands of ``seats_given`` (an iterable of seats; None: all four,
    the deal fixed, so only the strategies' own random choices vary) and the board's dealer."""
    deal = one_deal(path, board, game)
    seats = range(len(deal["hands"])) if seats_given is None else list(seats_given)
    return Conditions(game, dealer=deal["dealer"], hands={int(s): hand_text(deal["hands"][s]) for s in seats})
