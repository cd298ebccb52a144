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
import json
import shlex
from pathlib import Path
from collections.abc import Mapping
from typing import Callable

import numpy as np
import pandas as pd

from cardsim.cards import SUITS
from cardsim.games import game_names, get_game, is_game
from cardsim.games.base import FrameHooks, OptionError
from cardsim.runner.files import DEFAULT_CHUNK, part_damage, read_manifest_file
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


# ------------------------------------------------------------------------------ datasets
STAGING = ".partial"
"""The suffix of an unfinished run's folder (``cardsim.runner.dataset.staging``)."""


def _check_complete(path: Path, manifest: dict, n_rows: int) -> None:
    """A finished dataset holds every deal of its manifest; fewer rows mean a part file was lost
    (deleted, not copied), which must not pass for a smaller sample.  An unfinished
    ``PATH.partial`` directory, read on purpose, may hold fewer."""
    expected = manifest.get("n_deals")
    if expected is not None and n_rows != expected and not path.name.endswith(STAGING):
        raise OptionError(f"{path} holds {n_rows:,} of the {expected:,} deals of its manifest: a part file is "
                          "missing; run the same simulate command again to rewrite it")


def read_part(path: Path, part: Path, manifest: dict) -> pd.DataFrame:
    """One part file of the dataset ``path`` as stored (no typing), checked against the size and
    CRC-32 its finished manifest records (``manifest["parts"]``); OptionError naming the part
    and the command that rewrites it when it is truncated, garbled or not parquet (never
    pyarrow's own error)."""
    import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it

    recorded = manifest.get("parts")
    try:
        k = int(part.stem.split("-")[1])
        expected = recorded[k] if isinstance(recorded, list) else None
    except (IndexError, ValueError):
        expected = None
    why = part_damage(part, expected) if expected is not None else None
    if why is None:
        try:
            return pd.read_parquet(part)
        except (pa.ArrowException, OSError) as exc:
            why = f"it is not readable parquet: {' '.join(str(exc).split())[:120]}"
    output = path.with_name(path.name[:-len(STAGING)]) if path.name.endswith(STAGING) else path
    command = resume_command(manifest, output)
    how = f"run `{command}` to rewrite its chunk" if command else "run the command that made it again"
    raise OptionError(f"{part} is damaged ({why}); {how}")


def resume_command(manifest: dict, output: Path) -> str | None:
    """The ``cardsim simulate`` command that made (and resumes) the run of ``manifest`` into
    ``output``, options at their defaults left out; None when no command makes it (an analysis'
    aggregates, matches started from a given state, a manifest that names no known game)."""
    try:
        spec = get_game(manifest["game"])
        n, seed = int(manifest["n_deals"]), int(manifest.get("seed", 0))
        specs, seats = list(manifest["strategies"]), int(manifest["seats"])
        rules = dict(manifest.get("rules") or {})
        chunk = int(manifest.get("chunk_size", DEFAULT_CHUNK))
    except (KeyError, TypeError, ValueError, OptionError):
        return None
    matches = manifest.get("kind") == "matches"
    if "transform" in manifest or "start" in manifest or (matches and chunk != 10_000):
        return None
    words = ["cardsim", "simulate", spec.name, "--matches" if matches else "-n", str(n)]
    if seed:
        words += ["--seed", str(seed)]
    if seats != spec.default_seats:
        words += ["--seats", str(seats)]
    if len(set(specs)) == 1:
        if specs[0] != spec.table.default_strategy:
            words += ["--strategy", specs[0]]
    else:
        words += [w for s, one in enumerate(specs) if one != spec.table.default_strategy
                  for w in ("--strategy", f"{s}={one}")]
    defaults = json.loads(json.dumps({k: v for k, v in spec.parse_rules(None).items()}, default=str))
    words += [w for k, v in rules.items() if defaults.get(k) != v for w in ("--rule", f"{k}={v}")]
    if not matches and chunk != DEFAULT_CHUNK:
        words += ["--chunk-size", str(chunk)]
    return " ".join(shlex.quote(w) for w in words + ["-o", str(output)])


def _how_to_finish(folder: Path) -> str:
    """What an unfinished run's ``.partial`` folder holds and the command that finishes it."""
    output = folder.with_name(folder.name[:-len(STAGING)])
    manifest = read_manifest_file(folder / "_manifest.json") or {}
    command = resume_command(manifest, output)
    done = len(list(folder.glob("part-*.parquet"))) + len(list(folder.glob("chunk-*.pkl")))
    try:
        of = f" of {-(-int(manifest['n_deals']) // int(manifest['chunk_size'])):,}"
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        of = ""
    how = f"`{command}`" if command else "the command or call that started it"
    return f"{done:,}{of} chunks written; run {how} again to finish it"


def read_dataset(path, columns=None, partial: bool = False) -> pd.DataFrame:
    """The deals of a dataset written by ``cardsim simulate -o PATH`` (or ``runner.simulate_to_dataset``)
    as the same typed frame :func:`cardsim.simulate` returns (``df.attrs``: the run's manifest), or
    a plain parquet file written from a typed frame (``cardsim simulate --matches`` files) as it is.
    ``columns``: the columns to return (typed like the rest: the whole rows are read, since a
    missing value depends on several stored columns).

    An unfinished run (interrupted, or still running) lives in ``PATH.partial``: reading it, or
    ``PATH`` while only ``PATH.partial`` exists, raises OptionError naming the command that
    finishes it, unless ``partial=True`` asks for the deals of its finished chunks (fewer than
    the run's, in chunk order; ``df.attrs`` lacks ``complete``).  Raises OptionError for a
    dataset of aggregates (a transform's output), without a manifest naming its game, finished
    but missing a part file, an unfinished match run (its chunks are not deal rows), or a file
    that is not parquet, or a part file that is truncated or garbled (its size or CRC-32 differs
    from the one its manifest records, or pyarrow cannot read it: the message names the part and
    the ``cardsim simulate`` command that rewrites it); KeyError for an unknown column,
    FileNotFoundError when nothing is there."""
    path = Path(path)
    staged = path.with_name(path.name + STAGING)
    if not path.name.endswith(STAGING) and not path.exists() and staged.is_dir():
        path = staged  # the run was not finished: its folder is all there is
    if path.name.endswith(STAGING) and path.is_dir() and not partial:
        raise OptionError(f"{path} is an unfinished run ({_how_to_finish(path)}), or read the deals of its "
                          "finished chunks with read_dataset(path, partial=True)")
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such dataset")
    if path.is_file():
        import pyarrow as pa  # local: pyarrow is slow to import; only this function needs it

        try:
            return pd.read_parquet(path, columns=columns)
        except (pa.ArrowInvalid, OSError) as exc:
            raise OptionError(f"{path} is not a parquet file ({str(exc).splitlines()[0]})") from None

    manifest = read_manifest_file(path / "_manifest.json")
    if manifest is None:  # missing, not a JSON object, or too large to be one of ours (256 MiB)
        raise OptionError(f"{path} has no readable _manifest.json: not a cardsim dataset")
    if "transform" in manifest:
        raise OptionError(f"{path} holds aggregates ({manifest['transform']}), not deal rows")
    if manifest.get("kind") == "matches":
        raise OptionError(f"{path} holds the chunks of an unfinished match run, not deal rows "
                          f"({_how_to_finish(path)})")
    parts = sorted(path.glob("part-*.parquet"))
    if not parts:
        raise OptionError(f"{path} holds no finished chunk yet")
    raw = pd.concat([read_part(path, p, manifest) for p in parts], ignore_index=True)
    _check_complete(path, manifest, len(raw))
    df = deals(manifest["game"], raw, manifest.get("seats"))
    if columns is not None:
        df = df[list(columns)]
    df.attrs.update(manifest)
    return df


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


__all__ = ["deals", "matches", "dtype_table", "widen", "read_dataset", "is_typed", "hand_str", "decode_bits",
           "decode_hands", "with_hands", "DENOMINATIONS", "VINT_CONTRACTS", "G500_CONTRACTS", "MISSING_DOC",
           "MATCH_MISSING_DOC", "HAND_COLUMNS"]
