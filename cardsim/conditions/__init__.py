"""Conditions on a deal: given cards and hand classes, their text syntax, their compilation.

Players ask "what should I bid with THIS hand?".  A :class:`Conditions` names, for one game:

* **given cards**: some or all cards of any seat, and in 501 and Five Hundred of the talon /
  kitty; the other cards are dealt uniformly from the rest (the exact conditional
  distribution);
* **hand classes** (:class:`HandClass`) per seat: ranges of the game's hand features
  (high-card points, suit lengths, aces, jokers, bowers, trumps, marriages, and what bidding
  systems use: stoppers, controls, quick tricks, losers, balanced, shape … listed by
  ``cardsim.games.<game>.features``) and cards required or excluded.  A deal is kept only
  when every seat is in its class (rejection, :mod:`cardsim.deal`), so the acceptance rate
  (accepted / attempts) is the probability of the classes given the given cards.

:func:`compile` checks the conditions (raising :class:`ConditionError`, one line, for anything
malformed or impossible on its face) and makes the arrays the jitted dealer takes
(:class:`Compiled`, its ``plan``); :func:`cardsim.deal.deal_chunk` deals with them.

Text syntax (docs/conditions.md; parsed by a lark grammar, never ``eval``)
---------------------------------------------------------------------------
A **hand** is a list of suit groups and single cards, separated by spaces (or commas)::

    S:AKT86 H:KQ42 C:K832        suit letter S H D C, a colon, ranks high to low or in any order
    S:A1086 D:-                  "10" is accepted for T; "D:-" says the hand has no diamonds (a void)
    AS KH 10D                    single cards, rank then suit
    HJ LJ S:AK                   Five Hundred's jokers: HJ (high) and LJ (low)
    ♠:AKT86 A♥ 10♦               suit symbols ♠ ♥ ♦ ♣ (and ♤ ♡ ♢ ♧) for the letters, anywhere

Ranks are the game's: Vint ``AKQJT98765432``, 501 ``ATKQJ9``, Five Hundred ``AKQJT987654``;
case does not matter.  A void (``D:-``) is a class clause of its holder, the suit's length 0
(``D=0``), so no card of that suit is dealt to it; giving cards of a void suit is an error.  A
suit is the physical one of the hand syntax: in Five Hundred ``H:-`` means no heart, the jack
of hearts included, and says nothing of the jokers or the jack of diamonds, which belong to
no suit until a trump is named (docs/RULES.md §3.1; ``trumps_H=0`` asks for no prospective
heart trump).

A **class** is a list of clauses separated by commas; ``;`` separates seat scopes, each
optionally opened by ``seat N:`` (a scope without one applies to the default seat given to
:func:`parse_classes`)::

    hcp=15-17, H>=5, S<=3          a range, at least, at most (also > and <)
    aces=1-2, jokers=2             an exact value or a range
    trumps_H>=5, bowers_H=2        Five Hundred, per prospective trump suit
    marriages>=1                   501
    has AS KH, not QS              cards required / excluded (same card syntax as a hand)
    seat 0: hcp>=12; seat 2: hcp<=6, S>=4
    balanced, not stopper_S        a yes/no feature alone (=1) or after not (=0)
    shape=4-4-3-2                  a shape, lengths in any order (Vint)
    quick_tricks>=1.5              halves where a feature counts them (FeatureSet.scales)

Feature names are case-insensitive (``h>=5`` = ``H>=5``); clauses on the same feature
intersect (``hcp>=12, hcp<=14`` = ``hcp=12-14``).

The package is four modules, one per layer: :mod:`cardsim.conditions.grammar` (the text syntax,
card tokens, the game's features and deal layout), :mod:`cardsim.conditions.classes` (hand
classes), :mod:`cardsim.conditions.program` (the 0/1 program that decides whether a class, or a
class after others, holds any hand: :func:`reachable`) and :mod:`cardsim.conditions.compiler`
(conditions and their compilation).  The names
below are the public surface (docs/conditions.md); import them from ``cardsim.conditions``.
"""
from cardsim.conditions.classes import HandClass, Range, parse_class, parse_classes
from cardsim.conditions.compiler import Compiled, Conditions, compile, hand_size_error
from cardsim.conditions.grammar import (cards_given, features_of, game_name, hand_text, layout_of, parse_given,
                                        parse_hand)
from cardsim.conditions.program import reachable
from cardsim.deal import ConditionError

__all__ = ["ConditionError", "HandClass", "Conditions", "Compiled", "compile", "parse_hand", "parse_class",
           "parse_classes", "hand_text", "cards_given", "features_of", "layout_of", "reachable"]
