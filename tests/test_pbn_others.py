"""PBN as other programs write it (docs/pbn.md "Files other programs write"): table sections, a `*`
after a complete play, one board per room, and the Auction example of docs/pbn.md.

Each test reads an exact PBN text.  The deal: North holds the spades, East the hearts, South the
diamonds, West the clubs, so every contract in a suit makes 13 tricks for its holder.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardsim.cli import main
from cardsim.pbn import PBNError, PBNUsageError, parse, read_deals, read_records

ROOT = Path(__file__).resolve().parent.parent

# North declares 7S, East leads; the rows are East, South, West, North (from the opening leader).
OPEN_ROOM = """\
[Event "Teams"]
[Board "1"]
[Room "Open"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Declarer "N"]
[Contract "7S"]
[Result "13"]
[Auction "N"]
7S Pass Pass Pass
Pass Pass Pass Pass
Pass Pass Pass Pass
Pass
[Play "E"]
HA DA CA S2
HK DK CK S3
HQ DQ CQ S4
HJ DJ CJ S5
HT DT CT S6
H9 D9 C9 S7
H8 D8 C8 S8
H7 D7 C7 S9
H6 D6 C6 ST
H5 D5 C5 SJ
H4 D4 C4 SQ
H3 D3 C3 SK
H2 D2 C2 SA
"""

# The same board in the other room: East declares 7H, South leads; rows South, West, North, East.
CLOSED_ROOM = """\
[Event "#"]
[Board "#"]
[Room "Closed"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "#"]
[Declarer "E"]
[Contract "7H"]
[Result "13"]
[Auction "N"]
Pass 7H Pass Pass
Pass Pass Pass Pass
Pass Pass Pass Pass
Pass Pass
[Play "S"]
DA CA SA H2
DK CK SK H3
DQ CQ SQ H4
DJ CJ SJ H5
DT CT ST H6
D9 C9 S9 H7
D8 C8 S8 H8
D7 C7 S7 H9
D6 C6 S6 HT
D5 C5 S5 HJ
D4 C4 S4 HQ
D3 C3 S3 HK
D2 C2 S2 HA
"""

OPTIMUM_RESULT_TABLE = """\
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N NT  0
N  S 13
N  H  0
N  D  0
N  C  0
S NT  0
S  S 13
S  H  0
S  D  0
S  C  0
E NT  0
E  S  0
E  H 13
E  D  0
E  C  0
W NT  0
W  S  0
W  H 13
W  D  0
W  C  0
"""

def _write(tmp_path, text, name="f.pbn"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _result(record):
    import cardsim

    r = cardsim.replay(record)
    return r["declarer"], r["contract"], r["tricks"]


# ---- tables -----------------------------------------------------------------------------------
def test_a_table_section_after_the_play(tmp_path):
    path = _write(tmp_path, OPEN_ROOM + OPTIMUM_RESULT_TABLE)
    [board] = parse(path.read_text())
    rows = board.tables["OptimumResultTable"]
    assert board.tags["OptimumResultTable"] == "Declarer;Denomination\\2R;Result\\2R"
    assert len(rows) == 20 and rows[:2] == ["N NT  0", "N  S 13"] and rows[-1] == "W  C  0"
    assert len(board.sections["Play"]) == 52  # the table's rows are not cards
    [record] = read_records(path)
    assert record["auction"] == ["7S"] + ["P"] * 12
    assert _result(record) == (0, "7S", [13, 0])


def test_tables_before_the_auction_and_with_quoted_rows(tmp_path):
    """A table between other tags (its rows end at the next tag), and a scorer's table whose rows
    hold quoted names with spaces."""
    head, rest = OPEN_ROOM.split("[Auction")
    text = (head + '[OptimumPlayTable "Position;Card\\2R;Result\\2R"]\nE  HA 13\nE  DA 13\n'
            + "[Auction" + rest
            + '[TotalScoreTable "Rank\\2R;PairId\\2R;Names\\30L;TotalScore\\5R"]\n'
              ' 1  3 "Smith - Jones"                    62.50\n'
              ' 2  1 "Brown - Green"                    55.00\n')
    path = _write(tmp_path, text)
    [board] = parse(text)
    assert board.tables == {"OptimumPlayTable": ["E  HA 13", "E  DA 13"],
                            "TotalScoreTable": ['1  3 "Smith - Jones"                    62.50',
                                                '2  1 "Brown - Green"                    55.00']}
    assert board.sections["Auction"] == ["7S"] + ["Pass"] * 12
    assert _result(read_records(path)[0]) == (0, "7S", [13, 0])


def test_a_line_after_a_tag_that_is_not_a_table_is_still_refused(tmp_path):
    path = _write(tmp_path, OPEN_ROOM.replace('[Result "13"]\n', '[Result "13"]\nN NT 0\n'))
    with pytest.raises(PBNError, match=r"f.pbn: line 10: not a tag, section or comment: 'N NT 0'"):
        read_records(path)
    path = _write(tmp_path, OPEN_ROOM.replace('[Result "13"]\n', '[Result "13"]\n[Table "x"]\nN NT 0\n'))
    with pytest.raises(PBNError, match=r"f.pbn: line 11: not a tag, section or comment: 'N NT 0'"):
        read_records(path)
    # a table's name in another case is still a table (endplay reads it so too)
    [board] = parse(OPEN_ROOM.replace('[Result "13"]\n', '[Result "13"]\n[optimumresulttable "x"]\nN NT 0\n'))
    assert board.tables == {"optimumresulttable": ["N NT 0"]}


# ---- "*" after the play -------------------------------------------------------------------------
def test_a_star_after_a_complete_play(tmp_path):
    plain = read_records(_write(tmp_path, OPEN_ROOM, "plain.pbn"))
    assert read_records(_write(tmp_path, OPEN_ROOM + "*\n", "star.pbn")) == plain
    # on the last trick's line, too
    assert read_records(_write(tmp_path, OPEN_ROOM.replace("H2 D2 C2 SA\n", "H2 D2 C2 SA *\n"), "s2.pbn")) == plain


def test_a_star_before_the_last_trick_is_a_claim(tmp_path):
    path = _write(tmp_path, OPEN_ROOM.replace("H2 D2 C2 SA\n", "*\n"))
    with pytest.raises(PBNError) as info:
        read_records(path)
    assert str(info.value) == (f"{path}: board 1 (line 1): [Play] a claim ('*'): Vint plays all 13 tricks, so the "
                               "rest cannot be replayed")


# ---- one board per room ---------------------------------------------------------------------------
def test_one_board_per_room(tmp_path, capsys):
    path = _write(tmp_path, OPEN_ROOM + "\n" + CLOSED_ROOM)
    both = read_records(path)
    assert [_result(r) for r in both] == [(0, "7S", [13, 0]), (1, "7H", [0, 13])]
    assert both[1]["hands"] == both[0]["hands"]  # [Deal "#"]: the previous board's deal
    assert [d["board"] for d in read_deals(path)] == ["1/Open", "1/Closed"]
    assert read_records(path, board="1/Closed") == [both[1]]
    assert read_records(path, board="1/open") == [both[0]]
    with pytest.raises(PBNUsageError) as info:
        read_records(path, board=1)
    assert str(info.value) == f"{path}: 2 boards are numbered 1 (lines 1, 30): name one, 1/Open or 1/Closed"
    with pytest.raises(PBNUsageError, match=r"no board 1/Lounge \(boards: 1/Open, 1/Closed\)"):
        read_records(path, board="1/Lounge")

    # the command line: --board 1 is a usage error everywhere, 1/Closed picks the board
    for argv in (["show", "--pbn", str(path), "--board", "1"],
                 ["export", "vint", "--pbn", str(path), "--board", "1"],
                 ["evaluate", "vint", "--pbn", str(path), "--board", "1", "--seat", "0", "--option", "P", "-n", "10"]):
        capsys.readouterr()
        assert main(argv) == 2, argv
        assert capsys.readouterr().err == ("cardsim: error: " + str(info.value) + "\n")
    assert main(["show", "--pbn", str(path)]) == 2
    assert capsys.readouterr().err == (f"cardsim: error: {path} holds 2 boards: name one with --board (its Board tag, "
                                       "or 1/Closed for boards that share one)\n")
    assert main(["show", "--pbn", str(path), "--board", "1/Closed"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}, board 1/Closed\n")
    assert main(["export", "vint", "--pbn", str(path), "--format", "hands"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == [f"board 1/{room} dealer 0 seat {s}" for room in ("Open", "Closed")
                                                    for s in range(4)]


def test_boards_of_one_number_without_rooms_are_named_by_order(tmp_path):
    path = _write(tmp_path, OPEN_ROOM.replace('[Room "Open"]\n', "") + "\n"
                  + CLOSED_ROOM.replace('[Room "Closed"]\n', ""))
    assert [d["board"] for d in read_deals(path)] == ["1/1", "1/2"]
    assert _result(read_records(path, board="1/2")[0]) == (1, "7H", [0, 13])
    with pytest.raises(PBNUsageError, match=r"2 boards are numbered 1 \(lines 1, 29\): name one, 1/1 or 1/2$"):
        read_deals(path, board="1")


# ---- the Auction example of docs/pbn.md ---------------------------------------------------------
def test_the_docs_auction_example():
    """docs/pbn.md's example: the Auction tag names the first caller, the calls follow clockwise
    from him, four to a line; the Declarer and Contract tags it shows are what Vint's rules make of
    those calls."""
    from cardsim.games.vint.pbn import DENOMS, DIRECTIONS, read_pbn_call
    from cardsim.games.vint.replay import run_auction

    text = (ROOT / "docs" / "pbn.md").read_text()
    [block] = re.findall(r"```pbn\n(.*?)```", text, re.S)
    [board] = parse(block)
    dealer = DIRECTIONS.index(board.tags["Dealer"])
    assert board.tags["Auction"] == board.tags["Dealer"] == "E"
    lines = block.split('[Auction "E"]\n')[1].splitlines()
    assert all(len(line.split()) == 4 for line in lines)
    calls = [read_pbn_call(t) for t in board.sections["Auction"]]
    # column k of every line is the call of the k-th player clockwise from East
    assert [(DIRECTIONS[(dealer + i) % 4], c) for i, c in enumerate(calls[:4])] == [
        ("E", "1S"), ("S", "1H"), ("W", "P"), ("N", "2C")]
    declarer, (level, denom) = run_auction(calls, dealer)  # the contract as (level, index in DENOMS)
    assert (DIRECTIONS[declarer], f"{level}{DENOMS[denom]}") == (board.tags["Declarer"], board.tags["Contract"]) == ("N", "2C")
    # The page's claim beside it: 1S then 1H is a Vint auction (hearts outrank spades in Vint) ...
    assert run_auction(["1S", "1H"] + ["P"] * 12, 0) == (1, (1, DENOMS.index("H")))
    # ... and 1H then 1S is not.
    with pytest.raises(Exception, match="not higher"):
        run_auction(["1H", "1S"] + ["P"] * 12, 0)
    assert "So `1S 1H` is a Vint auction but not a bridge one" in text.replace("\n  ", " ")


def test_a_board_named_twice_is_not_picked_silently(tmp_path):
    """[Board "1/Open"] beside [Board "1"] [Room "Open"]: both are named 1/Open, and --board 1/Open
    took the first in silence (from a tester's report)."""
    literal = OPEN_ROOM.replace('[Board "1"]\n[Room "Open"]\n', '[Board "1/Open"]\n')
    path = tmp_path / "twice.pbn"
    path.write_text(literal + "\n" + OPEN_ROOM + "\n" + OPEN_ROOM.replace('[Room "Open"]', '[Room "Closed"]'))
    second = len(literal.splitlines()) + 2  # the line where the second board starts
    with pytest.raises(PBNUsageError, match=rf"board 1/Open names 2 boards \(lines 1, {second}\): give each its own "
                                            r"Board tag"):
        read_deals(path, board="1/Open")
    assert read_deals(path, board="1/Closed")[0]["board"] == "1/Closed"
