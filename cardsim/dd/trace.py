"""What each card of a played deal cost against double dummy (the report's "Why").

:func:`card_costs` ``(record)`` replays a docs/RECORDS.md record and asks its game's
``dd.card_values`` hook (:class:`cardsim.games.base.DDHooks`) for the double-dummy value of the
position before and after every card; :func:`side_totals` sums the costs by side and
:func:`format_trace` writes the trace for people (``cardsim show … --dd``).

The value is the declaring side's (Vint, Five Hundred: tricks already won + DD tricks to come;
501: the declarer's deal points, cards won + effective marriages + DD points to come).  A card's
cost is what it lost for its player's side: ``value_before - value_after`` for a card of the
declaring side, ``value_after - value_before`` for a defender's; 0 for a DD-best card, never
negative (checked).  Since the value after one card is the value before the next, the costs
telescope::

    value_before[first card] - result in play == sum(cost of the declaring side) - sum(cost of the defenders)

where the result in play is the last ``value_after`` (the declaring side's tricks or points).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cardsim.games import get_game, replay
from cardsim.games.base import OptionError, RecordError

if TYPE_CHECKING:
    import pandas as pd

COLUMNS_DOC = ("trick (int16, 1-based), seat (int8, the player's seat), card (str, its token), declaring "
               "(bool, the player is on the declaring side), value_before / value_after (int16, the double-dummy "
               "value of the position before / after the card for the declaring side, in the game's unit: "
               "tricks already won + DD tricks to come (Vint, Five Hundred), or the declarer's deal points "
               "already scored + DD points to come (501)), cost (int16, what the card cost its player's side "
               "in that unit: value_before - value_after for the declaring side, value_after - value_before "
               "for the defenders; 0 for a DD-best card, never negative), best_cards (str, the tokens of the "
               "cards with the best DD value for the player, space-separated).  attrs: unit, sides (names "
               "of the declaring side and the defenders), dd_value (the value before the first card), "
               "result (the last value_after: the declaring side's result in play).")
"""The columns of :func:`card_costs` for people."""


def card_costs(record) -> pd.DataFrame:
    """The per-card double-dummy trace of a docs/RECORDS.md record with play, one row per card
    in play order (:data:`COLUMNS_DOC`).

    The record is replayed first (docs/RULES.md checks).  Raises :class:`RecordError` for an
    invalid record, :class:`OptionError` for a game without a per-card DD trace or a record
    without play (a void, thrown-in, all-passed or abandoned deal)."""
    import numpy as np
    import pandas as pd

    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    result = replay(record)
    spec = get_game(record["game"])
    hooks = spec.dd
    if hooks is None or hooks.card_values is None:
        raise OptionError(f"{spec.name} has no double-dummy trace of the play (no card_values hook)")
    got = hooks.card_values({**record, "result": result})
    n = len(got["card"])
    df = pd.DataFrame({
        "trick": np.asarray(got["trick"], dtype=np.int16).reshape(n),
        "seat": np.asarray(got["seat"], dtype=np.int8).reshape(n),
        "card": pd.array(list(got["card"]), dtype=object),
        "declaring": np.asarray(got["declaring"], dtype=bool).reshape(n),
        "value_before": np.asarray(got["value_before"], dtype=np.int16).reshape(n),
        "value_after": np.asarray(got["value_after"], dtype=np.int16).reshape(n),
    })
    diff = (df.value_before.astype(np.int64) - df.value_after.astype(np.int64)).to_numpy()
    cost = np.where(df.declaring.to_numpy(), diff, -diff)
    if (cost < 0).any():
        i = int(np.flatnonzero(cost < 0)[0])
        raise AssertionError(f"card {i} ({df.card[i]}) gains {-cost[i]} {hooks.unit} over the position's "
                             "double-dummy value: the solver and the trace disagree")
    df.insert(6, "cost", cost.astype(np.int16))
    df["best_cards"] = list(got["best"])
    df.attrs.update(unit=hooks.unit, sides=tuple(got["sides"]),
                    dd_value=int(df.value_before.iloc[0]) if n else None,
                    result=int(df.value_after.iloc[-1]) if n else None)
    return df


def side_totals(df: pd.DataFrame) -> dict:
    """``{"declaring": total cost, "defending": total cost}`` (ints, in ``df.attrs['unit']``) of a
    :func:`card_costs` frame."""
    dec = df.declaring.to_numpy()
    cost = df.cost.to_numpy().astype(int)
    return {"declaring": int(cost[dec].sum()), "defending": int(cost[~dec].sum())}


def _count(n: int, unit: str) -> str:
    """``1 trick`` / ``2 tricks`` / ``10 deal points``."""
    return f"{n} {unit[:-1] if n == 1 and unit.endswith('s') else unit}"


def _amount(n: int, unit: str) -> str:
    """``−1 trick`` / ``−2 tricks`` / ``−10 deal points`` (a cost shown as a loss)."""
    return "\u2212" + _count(n, unit)


def format_trace(df: pd.DataFrame) -> str:
    """The trace for people: one line per trick, each card as ``seat:card`` followed by the DD
    value after it and, when it cost something, the loss (``−1 trick``); then the totals by side."""
    unit = df.attrs.get("unit", "")
    decl_name, def_name = df.attrs.get("sides", ("the declaring side", "the defenders"))
    lines = [f"Double dummy, card by card: after each card the {unit} of {decl_name} (won so far + DD to come), "
             f"and what the card cost its side; before the first card: {df.attrs.get('dd_value')}"]
    for t, trick in df.groupby("trick", sort=True):
        parts = []
        for r in trick.itertuples():
            mark = f" ({_amount(int(r.cost), unit)}; best {r.best_cards})" if r.cost else ""
            parts.append(f"{r.seat}:{r.card} {r.value_after}{mark}")
        lines.append(f"  trick {int(t):2d}: " + ", ".join(parts))
    tot = side_totals(df)
    lines.append(f"Cost against double dummy: {decl_name} {_count(tot['declaring'], unit)}, "
                 f"{def_name} {_count(tot['defending'], unit)}; "
                 f"DD {df.attrs.get('dd_value')} - played {df.attrs.get('result')} = "
                 f"{tot['declaring']} - {tot['defending']}")
    return "\n".join(lines)


__all__ = ["card_costs", "side_totals", "format_trace", "COLUMNS_DOC"]
