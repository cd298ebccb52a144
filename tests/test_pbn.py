"""PBN export and import (cardsim/pbn.py, cardsim/games/vint/pbn.py, docs/pbn.md).

The files cardsim writes are read back with endplay's PBN parser (a bridge library kept by others)
and checked field by field against the records; PBN read back by cardsim gives the same records.
"""
from __future__ import annotations

import copy

import pytest

import cardsim
from cardsim.cli import main
from cardsim.pbn import PBNError, parse, read_deals, read_records, write

endplay_pbn = pytest.importorskip("endplay.parsers.pbn")

DIRS = "NESW"
DENOM = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": "NT"}
RANK = {"RA": "A", "RK": "K", "RQ": "Q", "RJ": "J", "RT": "T"}


def _card(c) -> str:
    """An endplay Card as a record's card token ("AS")."""
    return RANK.get(c.rank.name, c.rank.name[1:]) + DENOM[c.suit.name]


def _call(b) -> str:
    if hasattr(b, "level"):
        return f"{b.level}{DENOM[b.denom.name]}"
    assert b.penalty.name == "passed", b  # Vint has no doubles: every other call is a pass
    return "P"


@pytest.fixture(scope="module")
def records():
    # 200 deals of two seeds (100 each), written once for every test of the module.
    return cardsim.records("vint", range(100), seed=7) + cardsim.records("vint", range(100), seed=2026)


@pytest.fixture(scope="module")
def pbn_file(records, tmp_path_factory):
    path = tmp_path_factory.mktemp("pbn") / "deals.pbn"
    path.write_text(write(records, "vint", "test"))
    return path


def test_endplay_reads_every_field(records, pbn_file):
    with open(pbn_file) as f:
        boards = endplay_pbn.load(f)
    assert len(boards) == len(records) == 200
    voids = 0
    for number, (board, rec) in enumerate(zip(boards, records), 1):
        res = rec["result"]
        assert board.board_num == number
        assert board.dealer.name[0].upper() == DIRS[rec["dealer"]]
        for seat in range(4):
            hand = getattr(board.deal, {0: "north", 1: "east", 2: "south", 3: "west"}[seat])
            assert sorted(_card(c) for c in hand) == sorted(c.upper() for c in rec["hands"][seat])
        assert [_call(b) for b in board.auction] == [c.upper() for c in rec["auction"]]
        assert board.info["Scoring"] == "Vint"
        assert board.info["VintTotal"] == "{} {}".format(*res["total"])
        if res["contract"] is None:
            voids += 1
            assert not board.play
            continue
        contract = board.contract
        assert f"{contract.level}{DENOM[contract.denom.name]}" == res["contract"]
        assert contract.penalty.name == "passed"  # undoubled
        assert DIRS.index(contract.declarer.name[0].upper()) == res["declarer"]
        declarer_tricks = res["tricks"][res["declarer"] % 2]
        assert contract.result == declarer_tricks - 6 - contract.level
        assert [_card(c) for c in board.play] == [c.upper() for c in rec["play"]]
    assert voids < 200


def test_round_trip_through_cardsim(records, pbn_file):
    back = read_records(pbn_file)
    assert len(back) == 200
    for rec, got in zip(records, back):
        assert got["dealer"] == rec["dealer"]
        assert [sorted(h) for h in got["hands"]] == [sorted(h) for h in rec["hands"]]
        assert got["auction"] == rec["auction"]
        assert got["play"] == rec["play"]
        assert cardsim.replay(got) == rec["result"]
    deals = read_deals(pbn_file, board=17)
    assert len(deals) == 1 and deals[0]["board"] == "17"
    assert [sorted(h) for h in deals[0]["hands"]] == [sorted(h) for h in records[16]["hands"]]


def test_a_file_endplay_wrote(pbn_file, tmp_path):
    """Import from another program: endplay re-writes the boards with its own PBN writer, and
    cardsim reads that file to the same records as its own."""
    with open(pbn_file) as f:
        boards = endplay_pbn.load(f)
    theirs = tmp_path / "endplay.pbn"
    theirs.write_text(endplay_pbn.dumps(boards))
    assert read_records(theirs) == read_records(pbn_file)


def test_before_is_kept(records):
    rec = copy.deepcopy(records[0])
    rec["before"] = {"below": [120, 40], "games": [1, 0]}
    rec["result"] = cardsim.replay(rec)
    text = write([rec], "vint")
    assert '[VintBelow "120 40"]' in text and '[VintGames "1 0"]' in text
    [board] = parse(text)
    from cardsim.games.vint.pbn import to_record

    assert to_record(board)["before"] == rec["before"]


# ---- errors: one line, naming the board and the tag ------------------------------------------
def _board(pbn_file, n=1):
    text = pbn_file.read_text()
    blocks = text.split("\n\n")
    return blocks[n]  # blocks[0] is the header and comment


def _bad(tmp_path, pbn_file, edit, match, n=1):
    block = edit(_board(pbn_file, n))
    path = tmp_path / "bad.pbn"
    path.write_text("% PBN 2.1\n\n" + block + "\n")
    with pytest.raises(PBNError, match=match) as info:
        read_records(path)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_bad_boards(tmp_path, pbn_file):
    import re

    msg = _bad(tmp_path, pbn_file,
               lambda b: re.sub(r'(\[Deal "N:)([^ ]*)', lambda m: m.group(1) + "AKQJ...", b),
               r"board 1 \(line \d+\): \[Deal\] .*(twice|has 4 cards)")
    # a 4-card dummy: the display of bridge's dummy after 9 tricks
    path = tmp_path / "dummy.pbn"
    path.write_text('[Board "3"]\n[Deal "N:AKQJ... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n')
    with pytest.raises(PBNError, match=r"board 3 .*\[Deal\] hand N has 4 cards"):
        read_deals(path)
    _bad(tmp_path, pbn_file, lambda b: re.sub(r'\[Deal "N:', '[Deal "Q:', b), r"\[Deal\] .*direction")
    _bad(tmp_path, pbn_file, lambda b: re.sub(r'\[Deal "N:(\S+) ', r'[Deal "N:\1.x ', b), r"\[Deal\]")
    _bad(tmp_path, pbn_file, lambda b: re.sub(r'\[Contract "(\w+)"\]', r'[Contract "\1X"]', b),
         r"\[Contract\] .*doubled")
    _bad(tmp_path, pbn_file, lambda b: b.replace('[Vulnerable "None"]', '[Vulnerable "NS"]'),
         r"\[Vulnerable\] .*no vulnerability")
    _bad(tmp_path, pbn_file, lambda b: b.replace("Pass", "X", 1), r"\[Auction\] .*no doubles")
    # A bridge auction that ends after three passes is not a Vint auction.
    bridge = ('[Board "5"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
              '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
              '[Declarer "N"]\n[Contract "7S"]\n[Result "13"]\n[Auction "N"]\n7S Pass Pass Pass\n')
    path = tmp_path / "bridge.pbn"
    path.write_text(bridge)
    with pytest.raises(PBNError, match=r"board 5 .*\[Auction\] .*incomplete"):
        read_records(path)
    assert read_deals(path)[0]["hands"][0][0] == "AS"
    with pytest.raises(PBNError, match=r"no board 9 \(boards: 5\)"):
        read_deals(path, board=9)
    # The bridge ranking is not Vint's: 1H then 1S is not higher in Vint (S < C < D < H < NT).
    path.write_text(bridge.replace("7S Pass Pass Pass", "1H 1S"))
    with pytest.raises(PBNError, match=r"\[Auction\] .*not higher"):
        read_records(path)
    # A claim, and an opening leader who is not left of the declarer.
    _bad(tmp_path, pbn_file, lambda b: b.split("[Play")[0] + '[Play "' + b.split('[Play "')[1][0] + '"]\n*\n',
         r"\[Play\] .*claim")
    # Two cards of the first trick swapped between columns: each is played by a seat that does
    # not hold it (in bridge, as if declarer played dummy's card from his own hand).
    def swap(b):
        head, play = b.split('[Play "')
        lines = play.split("\n")
        c = lines[1].split()
        lines[1] = " ".join([c[1], c[0], *c[2:]])
        return head + '[Play "' + "\n".join(lines)
    _bad(tmp_path, pbn_file, swap, r"board 1 .*\[Play\] play\[0\]")
    _bad(tmp_path, pbn_file, lambda b: re.sub(r'\[Play "(\w)"\]', lambda m: f'[Play "{DIRS[(DIRS.index(m.group(1)) + 1) % 4]}"]', b),
         r"\[Play\] .*opening leader")


def test_not_pbn(tmp_path):
    path = tmp_path / "x.pbn"
    path.write_text('[Board "1"]\nhello world\n')
    with pytest.raises(PBNError, match=r"x.pbn: line 2: not a tag, section or comment"):
        read_deals(path)
    path.write_text('% only a comment\n')
    with pytest.raises(PBNError, match=r"x.pbn: no boards"):
        read_deals(path)
    path.write_text('[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543X"]\n')
    with pytest.raises(PBNError, match=r"board 1 .*\[Deal\] hand W: 'X' is not a rank"):
        read_deals(path)


def test_not_a_bridge_deal():
    with pytest.raises(PBNError, match="501 deals are not bridge deals"):
        write([], "501")
    with pytest.raises(PBNError, match="500 deals are not bridge deals"):
        read_deals("x.pbn", "500")


def test_cli(tmp_path, capsys):
    out = tmp_path / "d.pbn"
    assert main(["export", "vint", "--seed", "3", "-n", "4", "-o", str(out)]) == 0
    assert out.read_text().count('[Board "') == 4
    assert main(["export", "vint", "--pbn", str(out), "-o", str(tmp_path / "r.jsonl")]) == 0
    assert main(["replay", str(tmp_path / "r.jsonl")]) == 0
    capsys.readouterr()
    assert main(["export", "vint", "--pbn", str(out), "--board", "2", "--format", "hands"]) == 0
    assert capsys.readouterr().out.count("board 2 ") == 4
    # from records, then the errors
    rec = tmp_path / "r.jsonl"
    assert main(["export", "vint", "--records", str(rec)]) == 0
    assert capsys.readouterr().out.startswith("% PBN 2.1")
    # A record as another program may write it: no result, lower case, "10" for T.
    import json

    first = json.loads(rec.read_text().splitlines()[0])
    other = dict(first, hands=[[c.lower().replace("t", "10") for c in h] for h in first["hands"]],
                 play=[c.lower().replace("t", "10") for c in first["play"]], auction=[c.lower() for c in first["auction"]])
    rec2 = tmp_path / "other.jsonl"
    rec2.write_text(json.dumps(other) + "\n")
    assert main(["export", "vint", "--records", str(rec2)]) == 0
    assert capsys.readouterr().out.split('[Board "1"]')[1] == out.read_text().split('[Board "1"]')[1].split("\n\n")[0] + "\n"
    for argv, want in ((["export", "501", "-n", "3"], "not bridge deals"),
                       (["export", "500", "-n", "3"], "not bridge deals"),
                       (["export", "vint", "-n", "0"], "-n"),
                       (["export", "vint", "-n", "3", "-o", "/proc/nope/x.pbn"], "x.pbn"),
                       (["export", "vint", "--pbn", str(out), "--board", "99"], "no board 99")):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own one-line usage error
            code = exc.code
        err = capsys.readouterr().err
        assert code in (1, 2) and want in err and err.count("\n") == 1, (argv, err)


def test_given_hands_for_evaluate(pbn_file, records, capsys):
    from cardsim.pbn import conditions, hand_text

    cond = conditions(pbn_file, 3)
    assert cond.dealer == records[2]["dealer"]
    assert cond.hands == {s: hand_text(records[2]["hands"][s]) for s in range(4)}
    assert set(conditions(pbn_file, 3, seats_given=[1]).hands) == {1}
    df = cardsim.evaluate("vint", seat=1, options=["P", "7NT"], n=20, seed=1, conditions=cond, n_jobs=1)
    assert set(df["option"]) == {"P", "7NT"} and (df["n"] == 20).all()
    for argv, want in ((["--pbn", str(pbn_file), "--hand", "S:A"], "leave out --hand"),
                       (["--board", "3"], "go with --pbn"),
                       (["--pbn", str(pbn_file)], "holds 200 boards"),
                       (["--pbn", str(pbn_file), "--board", "x"], "no board x")):
        try:
            code = main(["evaluate", "vint", "--option", "P", "-n", "10", *argv])
        except SystemExit as exc:
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and want in err and err.count("\n") == 1, (argv, err)


def test_complete_auction(tmp_path, capsys):
    """A bridge board (three passes end its auction) replays as Vint only with complete_auction."""
    ranks = "AKQJT98765432"
    play = "\n".join(f"H{ranks[t]} D{ranks[t]} C{ranks[t]} S{ranks[12 - t]}" for t in range(13))
    text = ('[Board "5"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
            '[Declarer "N"]\n[Contract "7S"]\n[Result "13"]\n[Auction "N"]\n7S! Pass Pass Pass\n'
            '[Play "E"]\n' + play + "\n")
    path = tmp_path / "bridge.pbn"
    path.write_text(text)
    with pytest.raises(PBNError, match="incomplete.*three passes, --complete-auction adds the passes Vint needs"):
        read_records(path)
    [rec] = read_records(path, complete_auction=True)
    assert rec["auction"] == ["7S"] + ["P"] * 12
    result = cardsim.replay(rec)
    assert (result["declarer"], result["contract"], result["tricks"]) == (0, "7S", [13, 0])
    path.write_text(text.replace("7S! Pass Pass Pass", "7S AP"))
    assert read_records(path, complete_auction=True) == [rec]
    assert main(["export", "vint", "--pbn", str(path), "--complete-auction"]) == 0
    assert '"auction":["7S"' in capsys.readouterr().out


def test_show_reads_a_board(records, pbn_file, tmp_path, capsys):
    """``cardsim show --pbn FILE --board K`` prints the board as the record it reads to (the same
    text as ``show --record`` of that record); a file of one board needs no --board."""
    import json

    from cardsim.games import get_game

    capsys.readouterr()
    assert main(["show", "--pbn", str(pbn_file), "--board", "3"]) == 0
    out = capsys.readouterr().out
    assert out == f"{pbn_file}, board 3\n" + get_game("vint").play.show(records[2]) + "\n"
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(records[4]) + "\n")
    single = tmp_path / "one.pbn"
    assert main(["export", "vint", "--records", str(one), "-o", str(single)]) == 0
    capsys.readouterr()
    assert main(["show", "--pbn", str(single)]) == 0
    assert get_game("vint").play.show(records[4]) in capsys.readouterr().out


@pytest.mark.parametrize("argv, code, message", [
    (["--board", "999"], 2, "no board 999"),
    ([], 2, "name one with --board"),
    (["--board", "1", "--seed", "4"], 2, "--seed cannot go with --pbn"),
    (["--board", "1", "--record", "x.jsonl"], 2, "--record cannot go with --pbn"),
    (["501", "--board", "1"], 2, "not bridge deals"),
])
def test_show_pbn_errors_are_one_line(pbn_file, capsys, argv, code, message):
    game = [a for a in argv if a == "501"]
    rest = [a for a in argv if a != "501"]
    capsys.readouterr()
    assert main(["show", *game, "--pbn", str(pbn_file), *rest]) == code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_show_pbn_board_without_play_is_rejected(tmp_path, capsys):
    path = tmp_path / "deal.pbn"
    path.write_text('[Event "x"]\n[Board "7"]\n[Dealer "N"]\n'
                    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n')
    capsys.readouterr()
    assert main(["show", "--pbn", str(path)]) == 1
    err = capsys.readouterr().err
    assert "board 7" in err and "Auction" in err and err.count("\n") == 1
    assert main(["show", "vint", "--board", "7"]) == 2
    assert "--board and --complete-auction go with --pbn" in capsys.readouterr().err


def test_evaluate_rejects_a_board_the_rules_refuse_as_data(tmp_path, capsys):
    """A 4-card hand (bridge's dummy) is rejected data, exit code 1, in evaluate as in show and export."""
    path = tmp_path / "dummy.pbn"
    path.write_text('[Board "3"]\n[Deal "N:AKQJ... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n')
    for hands in ("seat", "all"):
        capsys.readouterr()
        assert main(["evaluate", "vint", "--pbn", str(path), "--board", "3", "--pbn-hands", hands, "--seat", "1",
                     "--option", "P", "-n", "10"]) == 1
        err = capsys.readouterr().err
        assert "hand N has 4 cards" in err and err.count("\n") == 1
