"""The game facts conditions are read against, by a game's name: its hand features, its deal
layout, and the hands of :mod:`cardsim.hand_grammar` (the text syntax of hands and hand classes)
read with the game's features: :func:`parse_hand`, :func:`parse_given`, :func:`cards_given` and
:func:`hand_text` (docs/conditions.md).
"""
from __future__ import annotations


from cardsim import hand_grammar
from cardsim.deal import ConditionError, DealLayout, FeatureSet
from cardsim.games import game_names, get_game, is_game
from cardsim.text import quote


def game_name(game) -> str:
    key = str(game).strip().lower()
    if not is_game(key):
        raise ConditionError(f"unknown game {quote(game)} (known: {', '.join(game_names())})")
    return key


def _features_module(name: str):
    """The module the spec of game ``name`` names for its hand features (``modules.features``)."""
    return get_game(name).modules.load("features")


def features_of(game) -> FeatureSet:
    """The :class:`cardsim.deal.FeatureSet` of ``game`` ("vint", "501" or "500")."""
    return _features_module(game_name(game)).FEATURES


def layout_of(game, seats: int | None = None) -> DealLayout:
    """The :class:`cardsim.deal.DealLayout` of ``game`` at ``seats`` seats (default: the game's first)."""
    name = game_name(game)
    counts = get_game(name).table.seat_counts
    seats = counts[0] if seats is None else seats
    if seats not in counts:
        raise ConditionError(f"{name} is played with {' or '.join(map(str, counts))} seats, not {quote(seats)}")
    return _features_module(name).layout(seats)


def parse_hand(game, text) -> list[int]:
    """Card indices (the game's layout) of a hand string such as ``"S:AKT86 H:KQ42 C:K832"``
    (:func:`cardsim.hand_grammar.parse_hand` with ``game``'s features).  Raises
    :class:`ConditionError` for an unknown game, bad syntax, a card the game does not have, a
    card written twice, or a card of a suit written void."""
    return hand_grammar.parse_hand(features_of(game), text)


def parse_given(game, value) -> tuple[list[int], tuple[str, ...]]:
    """``(card indices, void suit letters)`` of given cards of ``game``
    (:func:`cardsim.hand_grammar.parse_given`); raises :class:`ConditionError` as it does, and
    for an unknown game."""
    return hand_grammar.parse_given(features_of(game), value)


def cards_given(game, value) -> list[int]:
    """Card indices of given cards of ``game``: a hand string, or an iterable of card tokens or
    indices (:func:`cardsim.hand_grammar.cards_given`); raises :class:`ConditionError`."""
    return hand_grammar.cards_given(features_of(game), value)


def hand_text(game, cards) -> str:
    """A hand string of ``game``'s card indices, as :func:`parse_hand` reads it
    (:func:`cardsim.hand_grammar.hand_text`)."""
    return hand_grammar.hand_text(features_of(game), cards)
