"""The converters from the engines' raw codes to typed pandas columns: nullable integers and
booleans (``<NA>`` where a value does not exist on a deal) and ordered categoricals in a game's
order.  :mod:`cardsim.frames`, :mod:`cardsim.dd` and the games' frame hooks
(:class:`cardsim.games.base.FrameHooks`, ``cardsim/games/<game>/frames.py``) build their columns
with them; this module sits below the games, so a game's hooks need nothing above it.

Every converter takes a ``missing`` mask (bool ndarray[n]) and returns an array of n values.
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def nullable_int(values, missing) -> pd.api.extensions.ExtensionArray:
    """``values`` (int8/int16/… ndarray[n]) as a pandas ``Int8``/``Int16``/… array of the same width, ``<NA>`` where ``missing`` (bool[n])."""
    values = np.ascontiguousarray(values)
    return pd.arrays.IntegerArray(values, np.ascontiguousarray(missing, dtype=bool))


def nullable_uint(values, missing) -> pd.api.extensions.ExtensionArray:
    """``values`` (ndarray[n], e.g. uint64 card bit sets) as a pandas ``UInt64`` array, ``<NA>``
    where ``missing``."""
    return pd.arrays.IntegerArray(np.ascontiguousarray(values, dtype=np.uint64),
                                  np.ascontiguousarray(missing, dtype=bool))


def nullable_bool(values, missing) -> pd.api.extensions.ExtensionArray:
    """``values`` (bool ndarray[n]) as a pandas ``boolean`` array, ``<NA>`` where ``missing``."""
    return pd.arrays.BooleanArray(np.ascontiguousarray(values, dtype=bool), np.ascontiguousarray(missing, dtype=bool))


def ordered_categorical(codes, categories, missing) -> pd.Categorical:
    """Codes (index into ``categories``, e.g. :data:`cardsim.names.DENOMINATIONS`) as an ordered categorical in the
    categories' order, ``<NA>`` where ``missing``."""
    codes = np.where(missing, -1, np.asarray(codes, dtype=np.int64))
    return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(list(categories), ordered=True))
