"""Typed user frames: the engine's raw rows as tables a pandas user can trust at first sight.

The engines write compact rows (numpy structured arrays of codes: ``-1`` for "no declarer",
``0`` for "no level", ``made`` False on a deal nobody declared).
Those raw rows are what the golden digests hash and what parquet datasets store.  Every public
frame (:func:`cardsim.simulate`, :func:`cardsim.play_match`, :func:`cardsim.compare` measures,
:func:`cardsim.read_dataset`, analysis transforms) goes through :func:`deals` /
:func:`matches` here, which turn the codes into

* **missing values** (pandas nullable ``Int8`` / ``Int16`` / ``Int32``, ``boolean``,
  ``UInt64``): a column that has no value on a deal — the declarer, level, contract, ``made``
  of a void / thrown-in / all-passed deal, seat 3 of a 3-seat 501 table — is ``<NA>``, so
  ``df.made.mean()`` is the made rate of the declared contracts; counts of what happened stay
  numbers (no tricks were taken on a void deal: ``tricks_0`` is 0, as in the records);
* **ordered categoricals** in the game's order: denominations and trumps ``S < C < D < H < NT``
  (Vint docs/RULES.md §2.2, Five Hundred §3.3, 501 §1.4 trumps and no-trump), contracts ``1S < 1C <
  … < 7NT`` (Vint) and ``6S < … < 10NT`` (Five Hundred, bid-table order), so ``groupby`` and
  ``sort_values`` follow the game and tables print ``3H``.

Columns that always have a value keep their compact numpy dtypes.  :func:`dtype_table` lists
every column's frame dtype (``cardsim columns GAME`` prints it).  Typing is idempotent: a frame
that is already typed (read back from a parquet file written from a typed frame) is returned
unchanged.

Hands: :func:`hand_str` and the vectorised :func:`decode_hands` spell 64-bit hand columns as
card tokens exactly as the records do (docs/RECORDS.md, Cards: ``AS TD 9H``, jokers ``HJ LJ``),
jokers first, then hearts, diamonds, clubs, spades, high cards first; :func:`with_hands` adds
those readable columns to a frame.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Callable

import numpy as np
import pandas as pd

from cardsim.cards import SUITS
from cardsim.games import game_names, get_game, is_game
from cardsim.games.base import FrameHooks, OptionError
from cardsim.text import quote

from cardsim.names import DENOMINATIONS  # noqa: E402,F401 - frames.DENOMINATIONS, as users know it
"""Denomination / trump labels in the games' order (code = index): ♠ < ♣ < ♦ < ♥ < NT."""
_GAME_CONSTANTS = {"VINT_CONTRACTS": ("cardsim.games.vint.frames", "CONTRACTS"),
                   "G500_CONTRACTS": ("cardsim.games.g500.frames", "CONTRACTS")}
"""Names kept here for users, defined with their game's frames (``cardsim.frames.VINT_CONTRACTS``)."""


def __getattr__(name):
    if name in _GAME_CONSTANTS:
        module, attribute = _GAME_CONSTANTS[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Raw:
    """Column access to raw rows: a structured array or a DataFrame of raw codes."""

    def __init__(self, rows):
        self.rows = rows
        self.names = list(rows.dtype.names) if isinstance(rows, np.ndarray) else list(rows.columns)

    def __call__(self, name) -> np.ndarray:
        col = self.rows[name]
        return col.to_numpy() if isinstance(col, pd.Series) else np.asarray(col)


class _BySpec(Mapping):
    """``{game name: a text or table of its spec}``, read from the registry (``pick(spec)``; a
    game whose ``pick`` is None is left out): the per-game tables this module used to keep."""

    def __init__(self, pick):
        self._pick = pick

    def __getitem__(self, name):
        if not is_game(str(name)):
            raise KeyError(name)
        value = self._pick(get_game(name))
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self):
        return (name for name in game_names() if name in self)

    def __len__(self):
        return sum(1 for _ in self)

    def __contains__(self, name):
        try:
            self[name]
        except KeyError:
            return False
        return True


def _no_typing(column, seats) -> dict:
    return {}


def _frames_of(spec):
    """The game's frame hooks; a game without them keeps its raw columns as they are."""
    if spec.frames is None:
        return FrameHooks(_no_typing, _no_typing)
    return spec.frames


MISSING_DOC = _BySpec(lambda spec: spec.frames and spec.frames.missing_doc)
"""``{game: which deal columns are missing when}`` (each game's ``FrameHooks.missing_doc``)."""
MATCH_MISSING_DOC = _BySpec(lambda spec: spec.frames and spec.frames.match_missing_doc)
"""``{game: which match columns are missing when}``."""


def _seats(game: str, seats) -> int:
    return get_game(game).default_seats if seats is None else int(seats)


def _typed(game: str, rows, seats, convert: Callable, derived: dict) -> pd.DataFrame:
    if isinstance(rows, pd.DataFrame) and is_typed(rows):
        return rows
    raw = _Raw(rows)
    converted = convert(raw, _seats(game, seats))
    after = {}
    for name, follows in derived.items():
        after.setdefault(follows, []).append(name)
    columns = {}
    for name in raw.names:
        if name in derived:
            continue  # a derived column read back from a file is rebuilt from the stored codes
        columns[name] = converted[name] if name in converted else raw(name)
        for extra in after.get(name, ()):
            columns[extra] = converted[extra]
    df = pd.DataFrame(columns, copy=False)
    if isinstance(rows, pd.DataFrame):
        df.index = rows.index
        df.attrs.update(rows.attrs)
    return df


def is_typed(df: pd.DataFrame) -> bool:
    """Whether ``df`` already has frame dtypes (some column nullable or categorical)."""
    return any(isinstance(t, pd.api.extensions.ExtensionDtype) for t in df.dtypes)


def deals(game: str, rows, seats=None) -> pd.DataFrame:
    """The typed frame of raw deal rows (``spec.play.row_dtype``, a match's deal rows, or a DataFrame of
    those codes): one row per deal, dtypes as :func:`dtype_table` lists.  ``seats``: the table's
    seats (501: 3 or 4; default the game's default).  Raises KeyError for a column missing."""
    hooks = _frames_of(get_game(game))
    return _typed(game, rows, seats, hooks.deals, hooks.derived)


def matches(game: str, rows, seats=None) -> pd.DataFrame:
    """The typed frame of raw match rows (``spec.matches.dtype``)."""
    return _typed(game, rows, seats, _frames_of(get_game(game)).matches, {})


def dtype_table(game: str, what: str = "deals", seats=None) -> dict[str, str]:
    """``{column: frame dtype name}`` of a game's deal (``"deals"``), match (``"matches"``) frame or
    the deal frame of ``play_match`` (``"match_deals"``; ``{}`` for a game without one)."""
    spec = get_game(game)
    if what == "deals":
        return {k: str(v) for k, v in deals(game, np.zeros(0, spec.play.row_dtype), seats).dtypes.items()}
    if what == "match_deals":
        if spec.matches is None or spec.matches.deal_dtype is None:
            return {}
        return {k: str(v) for k, v in deals(game, np.zeros(0, spec.matches.deal_dtype), seats).dtypes.items()}
    if spec.matches is None:
        return {}
    return {k: str(v) for k, v in matches(game, np.zeros(0, spec.matches.dtype), seats).dtypes.items()}


def widen(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every integer column as 64 bits (int64, or Int64 when nullable); bool, boolean,
    categoricals and uint64 bit sets untouched."""
    wide = {}
    for c in df.columns:
        t = df[c].dtype
        if isinstance(t, pd.api.extensions.ExtensionDtype):
            if isinstance(t, pd.core.dtypes.dtypes.BaseMaskedDtype) and t.kind == "i" and t.itemsize < 8:
                wide[c] = "Int64"
        elif t.kind == "i" and t.itemsize < 8:
            wide[c] = np.int64
    return df.astype(wide)


# ------------------------------------------------------------------------------ hands
def _layout(game: str) -> list[tuple[int, str]]:
    """``(bit, token)`` of every card of ``game`` in the records' order: jokers first (HJ, LJ),
    then hearts, diamonds, clubs, spades, each high card first (cardsim.cards layout)."""
    spec = get_game(game)
    ranks = spec.play.ranks
    out = list(spec.play.jokers)
    for suit in (3, 2, 1, 0):
        out += [(16 * suit + r, ranks[r] + SUITS[suit]) for r in range(len(ranks) - 1, -1, -1)]
    return out


def decode_bits(game: str, bits) -> np.ndarray:
    """Card tokens of uint64 hand bit sets ``bits`` (any shape) as str, the cards separated by one
    blank, in the records' order (docs/RECORDS.md, Cards): ``"LJ JH 6H KD 9D"``; ``""`` for no
    card.  Vectorised: one pass over the game's cards, not over the rows."""
    bits = np.asarray(bits)
    shape = bits.shape
    h = bits.reshape(-1).astype(np.uint64)
    layout = _layout(game)
    pos = np.array([b for b, _ in layout], dtype=np.uint64)
    tok = np.frombuffer("".join(t for _, t in layout).encode(), dtype=np.uint8).reshape(-1, 2)
    held = ((h[:, None] >> pos[None, :]) & np.uint64(1)).astype(bool)
    width = 3 * max(int(held.sum(1).max(initial=0)), 1)
    text = np.full((len(h), width), ord(" "), dtype=np.uint8)
    rows, cards = np.nonzero(held)
    slot = 3 * (np.cumsum(held, axis=1)[rows, cards] - 1)
    text[rows, slot] = tok[cards, 0]
    text[rows, slot + 1] = tok[cards, 1]
    strings = text.view(f"S{width}").reshape(-1).astype(f"U{width}")
    return np.strings.rstrip(strings).astype(object).reshape(shape)


def hand_str(game: str, bits) -> str:
    """One hand bit set (uint64 or int, the game's layout, :mod:`cardsim.cards`) as record card
    tokens separated by blanks, e.g. ``cardsim.hand_str("500", df.hand_0[0])`` -> ``"LJ JH 6H KD …"``
    (docs/RECORDS.md, Cards: rank then suit, ten ``T``, jokers ``HJ``/``LJ``).  Raises
    OptionError for an unknown game, ValueError for a negative or too large number or one that
    is not whole (a float such as ``1.5``)."""
    if isinstance(bits, (bool, np.bool_)) or not isinstance(bits, (int, np.integer)):
        raise ValueError(f"a hand is a whole 64-bit set (int or uint64), got {quote(bits)}")
    value = int(bits)
    if not 0 <= value < 1 << 64:
        raise ValueError(f"a hand is a 64-bit set (0 .. 2**64-1), got {quote(bits)}")
    return str(decode_bits(game, np.array([value], dtype=np.uint64))[0])


HAND_COLUMNS = _BySpec(lambda spec: spec.frames and spec.frames.hand_columns)
"""The hand bit-set columns of each game's deal frame, by seat (or ``"kitty"``/``"discard"``)."""


def _game_of(df: pd.DataFrame, game) -> str:
    game = game if game is not None else df.attrs.get("game")
    if game is None:
        raise OptionError("the frame does not say its game (df.attrs['game']); pass game=")
    return get_game(game).name


def decode_hands(df: pd.DataFrame, seat, game=None) -> pd.Series:
    """The cards of ``seat`` (0..3, or ``"kitty"`` / ``"discard"``) in every row of a deal frame, as
    a str Series (record tokens, see :func:`decode_bits`; ``<NA>`` where the bit set is missing,
    e.g. the discard of a thrown-in deal).  ``game`` defaults to ``df.attrs["game"]``.  Raises
    OptionError for a game whose rows carry no hands (Vint, 501: use ``cardsim.records``)
    or a seat without a hand column."""
    game = _game_of(df, game)
    cols = HAND_COLUMNS.get(game)
    if cols is None:
        raise OptionError(f"{game} deal rows carry no hand bit sets; cardsim.records(game, deals, seed) has the hands")
    if seat not in cols:
        raise OptionError(f"seat must be one of {', '.join(map(str, cols))}, got {quote(seat)}")
    col = df[cols[seat]]
    missing = col.isna().to_numpy()
    bits = col.to_numpy(dtype=np.uint64, na_value=0)
    text = decode_bits(game, bits)
    text[missing] = None
    name = f"{cols[seat]}_cards" if seat in ("kitty", "discard") else f"cards_{seat}"
    return pd.Series(text, index=df.index, name=name, dtype="str")


def with_hands(df: pd.DataFrame, game=None) -> pd.DataFrame:
    """``df`` with a readable str column beside each hand bit set: ``cards_0..3`` (``hand_0..3``),
    ``kitty_cards``, ``discard_cards``.  Raises OptionError as :func:`decode_hands`."""
    game = _game_of(df, game)
    if game not in HAND_COLUMNS:
        raise OptionError(f"{game} deal rows carry no hand bit sets; cardsim.records(game, deals, seed) has the hands")
    out = df.copy()
    for seat in HAND_COLUMNS[game]:
        s = decode_hands(df, seat, game)
        out[s.name] = s
    return out


__all__ = ["deals", "matches", "dtype_table", "widen", "is_typed", "hand_str", "decode_bits",
           "decode_hands", "with_hands", "DENOMINATIONS", "VINT_CONTRACTS", "G500_CONTRACTS", "MISSING_DOC",
           "MATCH_MISSING_DOC", "HAND_COLUMNS"]
