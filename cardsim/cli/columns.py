"""``cardsim columns``: a game's row columns, their dtypes and meaning.

The parser part imports nothing heavy (``cardsim --help`` builds every command's parser); what the
command needs is imported in :func:`run`.
"""
from __future__ import annotations

import textwrap

from cardsim.cli.common import parse_game
from cardsim.games import get_game

NAME = "columns"


def add_parser(sub) -> None:
    p = sub.add_parser("columns", help="list a game's row columns (dtype and meaning)")
    p.add_argument("game", type=parse_game)


def run(args) -> int:
    from cardsim import frames  # local: --help imports every command module

    spec = get_game(args.game)
    for title, what, doc, missing in (
            ("Deal rows (cardsim.simulate, cardsim.read_dataset; play_match's deals)", "deals", spec.play.row_doc,
             frames.MISSING_DOC.get(spec.name, "")),
            ("Match rows (cardsim.play_match)", "matches", spec.matches.doc if spec.matches else "",
             frames.MATCH_MISSING_DOC.get(spec.name, ""))):
        dtypes = frames.dtype_table(spec.name, what, seats=min(spec.table.seat_counts))
        if not dtypes:
            continue
        print(f"{title}:")
        print(textwrap.fill(" ".join(f"{n} ({t})" for n, t in dtypes.items()), 100,
                            initial_indent="  ", subsequent_indent="  "))
        for text in (missing, "Stored codes (raw engine rows, parquet parts): " + doc):
            print(textwrap.fill(" ".join(text.split()), 100, initial_indent="  ", subsequent_indent="  "))
        print()
    extra = {k: t for k, t in frames.dtype_table(spec.name, "match_deals", seats=min(spec.table.seat_counts)).items()
             if k not in frames.dtype_table(spec.name, "deals", seats=min(spec.table.seat_counts))}
    if extra:
        print("Deal rows of play_match: the deal rows' columns and")
        print(textwrap.fill(" ".join(f"{n} ({t})" for n, t in extra.items()), 100, initial_indent="  ",
                            subsequent_indent="  "))
        if spec.matches.deal_doc:  # extra deal columns: the game has matches
            print(textwrap.fill(spec.matches.deal_doc, 100, initial_indent="  ", subsequent_indent="  "))
        print()
    print("Frame dtypes: Int8/Int16/Int32 and boolean are nullable (<NA> = no value on that deal, never -1);\n"
          "category columns are ordered in the game's order (S < C < D < H < NT).  Parquet datasets keep the\n"
          "compact raw codes; cardsim.read_dataset(path) reads them back as these frames.  Integer columns\n"
          "use compact widths: widen them before arithmetic that can overflow, with cardsim.widen(df) or\n"
          "simulate(..., compact=False).  Rule options: cardsim strategies GAME.")
    return 0
