"""Vint double-dummy tables from DDS (through endplay), docs/RULES.md §2.3.

Vint is played without a dummy, but with all hands open its play is bridge's: follow suit,
the highest trump or else the highest card of the led suit wins, the player left of the
declarer leads first (docs/RULES.md §2.3).  So bridge's double-dummy table is Vint's.

Mapping (checked by tests/test_dd.py): Vint seat ``s`` (clockwise, 0..3) is DDS player
``s`` (north, east, south, west: also clockwise, and DDS's opening leader is the declarer's
left-hand opponent, as in Vint).  Vint denominations ``S C D H NT`` = 0..4
(:mod:`cardsim.games.vint.rules`) are DDS strains spades 0, clubs 3, diamonds 2, hearts 1,
no-trump 4.  Tables are always solved from the full 13-card hands (DDS's table functions are
not reliable on shorter hands).
"""
from __future__ import annotations

import numpy as np

from cardsim.cards import VINT_RANKS, cards_of

DDS_STRAIN = (0, 3, 2, 1, 4)
"""DDS strain of each Vint denomination (S C D H NT)."""
BATCH = 40
"""Deals per DDS CalcAllTables call (its limit with all five strains)."""
_PBN_SUITS = (0, 3, 2, 1)
"""PBN lists a hand's suits S H D C; these are their cardsim suit indices."""


def pbn_hand(hand: int) -> str:
    """A Vint hand (uint64 bit set, Vint layout) as PBN: ``AK.QJ2.-.T98`` suits S H D C."""
    by_suit = {s: [] for s in range(4)}
    for c in cards_of(hand):
        by_suit[c >> 4].append(c & 15)
    return ".".join("".join(VINT_RANKS[r] for r in sorted(by_suit[s], reverse=True)) for s in _PBN_SUITS)


def pbn_deal(hands) -> str:
    """The four hands (seat 0 first) as a PBN deal string ``N:... ... ... ...``."""
    return "N:" + " ".join(pbn_hand(int(h)) for h in hands)


def dd_tables(hands, denominations=None) -> np.ndarray:
    """Double-dummy tricks of every declarer seat in every denomination.

    ``hands``: uint64[n, 4] full 13-card Vint hands by seat (Vint layout of
    :mod:`cardsim.cards`).  Returns int8[n, 4, 5]: ``out[i, s, d]`` = tricks (0..13) taken by
    the side of declarer ``s`` in denomination ``d`` (0..4 = S C D H NT) with both sides
    playing double dummy, the player left of ``s`` leading (docs/RULES.md §2.3).

    ``denominations`` (int array[n], optional): solve only that denomination of each deal (a
    fifth of the work; DDS batches the deals of one denomination); the other entries are −1.
    """
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom

    hands = np.asarray(hands, dtype=np.uint64).reshape(-1, 4)
    for i, row in enumerate(hands):
        counts = [len(cards_of(int(h))) for h in row]
        if counts != [13, 13, 13, 13] or int(row[0] | row[1] | row[2] | row[3]).bit_count() != 52:
            raise ValueError(f"deal {i}: Vint double dummy needs four distinct 13-card hands, got {counts} cards")
    out = np.full((len(hands), 4, 5), -1, dtype=np.int8)
    if denominations is None:
        groups = [(np.arange(len(hands)), list(range(5)))]
    else:
        denominations = np.asarray(denominations)
        groups = [(np.flatnonzero(denominations == d), [d]) for d in range(5)]
    for rows, denoms in groups:
        exclude = [Denom(DDS_STRAIN[d]) for d in range(5) if d not in denoms]
        for start in range(0, len(rows), BATCH):
            chunk = rows[start:start + BATCH]
            tables = calc_all_tables([Deal.from_pbn(pbn_deal(hands[i])) for i in chunk], exclude=exclude)
            for k, i in enumerate(chunk):
                res = tables[k]._data.resTable
                for d in denoms:
                    for s in range(4):
                        out[i, s, d] = res[DDS_STRAIN[d]][s]
    return out


LEAD_BATCH = 200
"""Boards per DDS SolveAllBoards call (its MAXNOOFBOARDS)."""


def lead_values(hands, declarer, denominations) -> np.ndarray:
    """The defenders' double-dummy tricks after each possible opening lead.

    ``hands``: uint64[n, 4] full 13-card Vint hands by seat (Vint layout of :mod:`cardsim.cards`);
    ``declarer``: int seat(s) 0..3, one for all deals or int[n]; ``denominations``: the contract's
    denomination(s) 0..4 = S C D H NT, one or int[n].  The player left of the declarer leads
    (docs/RULES.md §2.3).  Returns int8[n, 64]: ``out[i, c]`` = the tricks (0..13) the defending
    side takes with both sides playing double dummy after the leader leads card ``c`` (cardsim
    card index ``suit * 16 + rank``), -1 for a card the leader does not hold.  A card is
    DD-best where its value equals the row's maximum.

    One DDS SolveBoard per deal (all of the leader's cards at once, equal cards expanded), in
    batches of :data:`LEAD_BATCH` through endplay's ``solve_all_boards``.  Raises ValueError for
    hands that are not four distinct 13-card hands or a seat / denomination out of range."""
    from endplay.dds import solve_all_boards
    from endplay.types import Deal, Denom, Player

    hands = np.asarray(hands, dtype=np.uint64).reshape(-1, 4)
    n = len(hands)
    declarer = np.broadcast_to(np.asarray(declarer, dtype=np.int64), (n,))
    denominations = np.broadcast_to(np.asarray(denominations, dtype=np.int64), (n,))
    if n and (declarer.min() < 0 or declarer.max() > 3 or denominations.min() < 0 or denominations.max() > 4):
        raise ValueError("declarer seats are 0..3 and denominations 0..4 (S C D H NT)")
    for i, row in enumerate(hands):
        counts = [int(h).bit_count() for h in row]
        if counts != [13, 13, 13, 13] or int(row[0] | row[1] | row[2] | row[3]).bit_count() != 52:
            raise ValueError(f"deal {i}: Vint double dummy needs four distinct 13-card hands, got {counts} cards")
    # the same deal, declarer and denomination is one position (the strategies of a quality table
    # often reach the same contract on a deal): solve each once and copy its row
    if n > 1:
        keys = np.concatenate([np.ascontiguousarray(hands).view(np.int64), declarer[:, None], denominations[:, None]], axis=1)
        _, first, back = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        if len(first) < n:
            return lead_values(hands[first], declarer[first], denominations[first])[back.reshape(-1)]
    out = np.full((n, 64), -1, dtype=np.int8)
    for start in range(0, n, LEAD_BATCH):
        deals = []
        for i in range(start, min(start + LEAD_BATCH, n)):
            deal = Deal.from_pbn(pbn_deal(hands[i]))
            deal.first = Player((int(declarer[i]) + 1) % 4)
            deal.trump = Denom(DDS_STRAIN[int(denominations[i])])
            deals.append(deal)
        for k, board in enumerate(solve_all_boards(deals)):
            fut = board._data  # DDS futureTricks: per group of equal cards, its suit, rank, equals, score
            for j in range(fut.cards):
                if fut.score[j] < 0:
                    continue
                suit = _PBN_SUITS[fut.suit[j]]  # DDS suits S H D C = cardsim 0 3 2 1
                ranks = (1 << fut.rank[j]) | fut.equals[j]  # bit r = rank r, 2..14
                for r in range(2, 15):
                    if ranks >> r & 1:
                        out[start + k, suit * 16 + r - 2] = fut.score[j]
    return out


_DEAL_INTS = 24
"""int32 words of one DDS ``deal`` (trump, first, currentTrickSuit[3], currentTrickRank[3],
remainCards[4][4]); DDS's ``boards`` and ``solvedBoards`` hold only 4-byte integers, so both are
read and written as flat int32 arrays."""
_FUT_INTS = 54
"""int32 words of one DDS ``futureTricks`` (nodes, cards, suit[13], rank[13], equals[13], score[13])."""
_SHIFT_OF_DDS_SUIT = np.array([16 * s for s in _PBN_SUITS], dtype=np.uint64)
"""Bit offset of each DDS suit (S H D C) in a Vint hand."""
_CARDS = np.arange(64, dtype=np.uint64)


def _words(struct) -> np.ndarray:
    import ctypes

    return np.ctypeslib.as_array((ctypes.c_int32 * (ctypes.sizeof(struct) // 4)).from_buffer(struct))


def solve_positions(hands, trump: int, leader: int, trick=(), best_only: bool = False) -> np.ndarray:
    """Double-dummy tricks after each card of the player to move, for ``W`` positions of one trick.

    ``hands``: uint64[W, 4] the cards each seat still holds (Vint layout of :mod:`cardsim.cards`),
    *without* the cards already played to the current trick; ``trump``: the denomination 0..4 (S
    C D H NT); ``leader``: the seat that led (or leads) this trick; ``trick``: the cards (0..3)
    played to it so far, from the leader on.  Returns int8[W, 64]: ``out[w, c]`` = the tricks the
    side to move takes from the current trick on (this trick included) with both sides playing
    double dummy after it plays card ``c`` (cardsim card index), −1 for a card it may not play.
    Play as docs/RULES.md §2.3 (bridge's, so DDS's).

    ``best_only``: ask DDS only which cards reach the best value (its ``solutions=2``, a
    null-window test of each card against the best instead of each card's exact value): those
    cards hold the best value, every other card −1.

    All positions in DDS ``SolveAllBoardsBin`` calls of up to :data:`LEAD_BATCH` boards, the
    binary deal written straight from the bit sets (no PBN text, no ``Deal`` objects): the same
    DDS search and values as building endplay ``Deal`` objects and ``solve_all_boards``.
    Raises ValueError for a trump or leader out of range or more than three cards on the trick."""
    from endplay import _dds

    hands = np.ascontiguousarray(hands, dtype=np.uint64).reshape(-1, 4)
    trick = [int(c) for c in trick]
    if not (0 <= trump <= 4 and 0 <= leader <= 3 and len(trick) <= 3):
        raise ValueError(f"trump 0..4, leader 0..3 and at most 3 cards on the trick, got {trump}, {leader}, {trick}")
    n = len(hands)
    out = np.full((n, 64), -1, dtype=np.int8)
    # DDS's hand h, suit s: the ranks as bits 2..14.
    remain = ((hands[:, :, None] >> _SHIFT_OF_DDS_SUIT[None, None, :]) & np.uint64(0x1FFF)) << np.uint64(2)
    head = np.zeros(8, dtype=np.int32)
    head[0], head[1] = DDS_STRAIN[trump], leader
    for k, c in enumerate(trick):
        head[2 + k] = _PBN_SUITS.index(c >> 4)
        head[5 + k] = (c & 15) + 2
    bop = _dds.boards()
    solved = _dds.solvedBoards()
    words, res = _words(bop), _words(solved)
    deals = words[1:1 + _DEAL_INTS * _dds.MAXNOOFBOARDS].reshape(_dds.MAXNOOFBOARDS, _DEAL_INTS)
    tail = 1 + _DEAL_INTS * _dds.MAXNOOFBOARDS
    target, solutions, mode = (words[tail + k * _dds.MAXNOOFBOARDS:tail + (k + 1) * _dds.MAXNOOFBOARDS] for k in range(3))
    target[:], mode[:] = -1, 1
    solutions[:] = 2 if best_only else 3  # 3: every card's exact value, as solve_all_boards asks
    futs = res[1:1 + _FUT_INTS * _dds.MAXNOOFBOARDS].reshape(_dds.MAXNOOFBOARDS, _FUT_INTS)
    for start in range(0, n, LEAD_BATCH):
        k = min(LEAD_BATCH, n - start)
        words[0] = k
        deals[:k, :8] = head
        deals[:k, 8:] = remain[start:start + k].reshape(k, 16).astype(np.int32)
        _dds.SolveAllBoardsBin(bop, solved)  # raises endplay's DDSError (a RuntimeError) on failure
        fut = futs[:k]
        count = fut[:, 1]
        suit, rank, equals, score = fut[:, 2:15], fut[:, 15:28], fut[:, 28:41], fut[:, 41:54]
        block = out[start:start + k]
        for j in range(13):
            ok = j < count
            # The group's ranks (bits 2..14) moved into the card's lane of a Vint hand.
            held = ((np.uint64(1) << rank[:, j].astype(np.uint64)) | equals[:, j].astype(np.uint64)) >> np.uint64(2)
            lane = _SHIFT_OF_DDS_SUIT[np.where(ok, suit[:, j], 0)]
            bits = np.where(ok, held << lane, np.uint64(0))
            hit = ((bits[:, None] >> _CARDS[None, :]) & np.uint64(1)).astype(bool)
            block[hit] = np.broadcast_to(score[:, j, None], hit.shape)[hit]
    return out
