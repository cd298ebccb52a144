"""Implied calls dealt from a rule file's conditions (docs/rules-files.md, "Implied calls").

A question whose given calls are implied (``cardsim evaluate --auction``) keeps a deal only when
the callers' strategies make those calls with its hands: rejection on the calls
(:func:`cardsim.deal.deal_chunk`).  When a caller's strategy is a rule file, the hands with which
the file makes a call in a given auction can often be named before any deal is played:

* the rules whose context holds in that auction are known, in order, and so is the legality of
  their calls there;
* if every hand meets one of those rules (a last rule with no condition, or the conditions'
  0/1 program proves it: :func:`cardsim.conditions.reachable`) and no rule whose call is
  illegal there can fire, the base strategy never calls in that auction;
* then every hand with which the file makes the call meets a condition of a rule giving that
  call there, so it lies in the *hull* of those conditions (the clauses they share, each range
  widened to cover them all; one rule: its own condition).

Dealing that seat's hand under the hull (the conditioned dealer, rejection on the class alone,
cheap) and then testing the whole auction as before keeps exactly the deals plain rejection keeps,
with the same distribution: the accepted event lies inside the hull, and every deal inside it
has the probability it has under plain rejection, conditioned on the hull.  The auction test
still decides (an earlier rule may shadow the one giving the call), so the hull need not be exact.

Where the rules do not allow it — no rule giving the call has a condition, the hull has no
clause, the base strategy calls some hands there, a rule's illegal call may fire, or the game's
rule files do not say how its given calls are made — the seat's hand is dealt at random and
rejection alone decides, and :attr:`Implied.how` says why.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from cardsim.conditions import ConditionError, HandClass, compile as compile_conditions, parse_class, reachable
from cardsim.conditions.grammar import features_of, layout_of
from cardsim.games.base import OptionError
from cardsim.rules.compile import Compiled, context_values, glue, load, split_spec


@dataclass(frozen=True)
class Implied:
    """How one given call's hand is dealt.

    ``seat``: the caller; ``call``: the call in words (``1NT``); ``cls``: the class the caller's
    hand is dealt from (a :class:`~cardsim.conditions.HandClass`), or None for plain rejection;
    ``how``: in words, which rules gave the class, or why there is none; ``never``: True when the
    file provably never makes the call there (every hand meets a rule with another legal call).
    """

    seat: int
    call: str
    cls: HandClass | None
    how: str
    never: bool = False


def rule_file(spec: str, registry) -> Compiled | None:
    """The compiled rule file of a strategy spec ``rules:PATH[:…]`` (None for any other spec)."""
    name, _, rest = str(spec).partition(":")
    if name.strip() != "rules":
        return None
    path, values, base_values = split_spec(rest)
    return load(path, registry, values, base_values)


def _named(entry, i: int) -> str:
    return f"rule #{i + 1} ({entry.where()})"


def hull(game: str, classes: list[HandClass]) -> HandClass:
    """The smallest class of range clauses and cards that holds every hand of each of ``classes``
    (:class:`HandClass`): a feature every class bounds, from the least of their lower ends to the
    most of their upper ends; the cards every class requires, and those every class excludes."""
    fs = features_of(game)
    resolved = [c.resolved(game) for c in classes]
    features = {}
    for name in fs.features:
        if not all(name in r for r, _, _ in resolved):
            continue
        los = [r[name][0] for r, _, _ in resolved]
        his = [r[name][1] for r, _, _ in resolved]
        lo = None if None in los else min(los)
        hi = None if None in his else max(his)
        if lo is not None or hi is not None:
            features[name] = (lo, hi)
    required = set.intersection(*(set(q) for _, q, _ in resolved))
    excluded = set.intersection(*(set(x) for _, _, x in resolved))
    return HandClass(features=features, required=tuple(fs.card_str(c) for c in sorted(required)),
                     excluded=tuple(fs.card_str(c) for c in sorted(excluded)))


def is_empty(game: str, cls: HandClass) -> bool:
    """Whether ``cls`` holds every hand (no clause)."""
    ranges, required, excluded = cls.resolved(game)
    return not ranges and not required and not excluded


def call_class(compiled: Compiled, situation, call: int, seat: int, hand_size: int | None = None) -> Implied:
    """How the hand of ``seat`` is dealt when the file ``compiled`` must make ``call`` (the game's
    call number) in ``situation`` (its rule files' situation: Vint the calls so far, Five Hundred
    ``(seat, standing bid, its bidder)``); ``hand_size``: the cards a hand holds (the 0/1
    program's, default the game's first table size).  See the module docstring for the rule."""
    file, values = compiled.file, compiled.values
    g = glue(file.game)
    word = g.call_text(call)
    applying = []  # (index, entry, condition text, call, legal) of the rules whose context holds, in order
    for i, entry in enumerate(file.rules):
        if not g.context_holds(context_values(entry, values), situation):
            continue
        rule_call = compiled.calls[i]
        if hasattr(g, "concrete"):
            rule_call = g.concrete(rule_call, situation)
        applying.append((i, entry, compiled.whens[i], rule_call, bool(g.legal(rule_call, situation))))
        if not compiled.whens[i].strip():
            break  # a rule without a condition takes every hand left: the ones after it never fire
    if not applying:
        return Implied(seat, word, None, f"no rule of {file.path} applies there: the base strategy calls")
    classes = [parse_class(file.game, text) if text.strip() else HandClass() for _, _, text, _, _ in applying]
    if applying[-1][2].strip():
        covered = reachable(file.game, HandClass(), classes, hand_size)
        if covered is None:
            return Implied(seat, word, None, f"the conditions' 0/1 program cannot decide whether {file.path}'s rules "
                                             f"there take every hand (the base strategy may call)")
        if covered:  # (or HiGHS ran out of its time, which proves nothing either way)
            return Implied(seat, word, None, f"some hands meet none of {file.path}'s rules there: the base strategy "
                                             f"calls with them")
    for k, (i, entry, _, rule_call, legal) in enumerate(applying):
        if not legal and reachable(file.game, classes[k], classes[:k], hand_size) is not False:
            return Implied(seat, word, None, f"{_named(entry, i)} may hold where its call {g.call_text(rule_call)} is "
                                             f"illegal: the base strategy calls")
    giving = [k for k, (_, _, _, rule_call, legal) in enumerate(applying) if legal and rule_call == call]
    if not giving:
        return Implied(seat, word, None, f"{file.path} never calls {word} there: its rules take every hand with "
                                         f"other calls", never=True)
    names = ", ".join(_named(applying[k][1], applying[k][0]) for k in giving)
    cls = hull(file.game, [classes[k] for k in giving])
    if is_empty(file.game, cls):
        why = "has no condition" if len(giving) == 1 else "have no clause in common"
        return Implied(seat, word, None, f"{names} {why}: the hand is dealt at random")
    what = "the condition of" if len(giving) == 1 else "the hull (the clauses in common, widened) of"
    return Implied(seat, word, cls, f"{what} {names}: {cls.text(file.game)}")


def intersection(game: str, classes: list[HandClass]) -> HandClass:
    """The class of the hands in every one of ``classes`` (:class:`HandClass`): each feature's
    ranges intersected, the required and the excluded cards joined.  Raises ConditionError when
    a feature's ranges leave no value."""
    fs = features_of(game)
    features, required, excluded = {}, set(), set()
    for cls in classes:
        ranges, req, exc = cls.resolved(game)
        for name, (lo, hi) in ranges.items():
            old_lo, old_hi = features.get(name, (None, None))
            lo = old_lo if lo is None else lo if old_lo is None else max(lo, old_lo)
            hi = old_hi if hi is None else hi if old_hi is None else min(hi, old_hi)
            if lo is not None and hi is not None and lo > hi:
                raise ConditionError(f"{name}: the classes together leave no value")
            features[name] = (lo, hi)
        required |= set(req)
        excluded |= set(exc)
    return HandClass(features=features, required=tuple(fs.card_str(c) for c in sorted(required)),
                     excluded=tuple(fs.card_str(c) for c in sorted(excluded)))


def dealing(spec, setup, conditions, calls, dealer: int, scores=None):
    """The conditions a question's deals are dealt under when its given ``calls`` (the game's call
    numbers, in the order made) are implied, and how each rule-file caller's hand is dealt.

    ``spec``: the game's :class:`~cardsim.games.base.GameSpec`; ``setup``: the run's (each seat's
    strategy spec); ``conditions``: the question's :class:`~cardsim.conditions.Conditions`;
    ``dealer``: the dealer's seat (−1: drawn, then nothing is named); ``scores``: every seat's score
    before the deal where a rule's context reads it (501), None for the game's start.  Returns ``(compiled,
    notes)``: ``compiled`` the :class:`cardsim.conditions.Compiled` of ``conditions`` with each
    rule-file caller's class narrowed by :func:`call_class` (None when no caller's is), ``notes``
    a tuple of :class:`Implied` (one per call of a rule-file caller; a game whose rule files
    cannot name a given call's situation gives one note, seat −1).  Raises OptionError when a
    rule file provably never makes its given call there, and ConditionError when the narrowed
    classes meet no hand with the question's conditions (the calls are then never made)."""
    calls = [int(c) for c in calls]
    files = {s: rule_file(text, spec.table.registry) for s, text in enumerate(setup.specs)}
    files = {s: f for s, f in files.items() if f is not None}
    if not calls or not files or dealer < 0:
        return None, ()
    g = glue(spec.name)
    if not hasattr(g, "given_calls"):
        return None, (Implied(-1, "", None, f"{spec.name}'s rule files do not name the situation of a given call yet: "
                                            f"the callers' hands are dealt at random"),)
    sizes = layout_of(spec.name, conditions.seats).sizes
    notes, narrowed = [], {}
    for seat, situation, call, sees_hand in g.given_calls(calls, dealer, setup.seats, scores):
        if seat not in files:
            continue
        note = call_class(files[seat], situation, call, seat, int(sizes[:, seat].max()))
        if note.never:
            raise OptionError(f"the given calls are never made: seat {seat} ({files[seat].file.path}) {note.how}")
        if sees_hand:  # a decision made before seeing the hand (501's blind calls) says nothing of it
            notes.append(note)
        if note.cls is not None:
            narrowed.setdefault(seat, []).append(note.cls)
    if not narrowed:
        return None, tuple(notes)
    classes = dict(conditions.classes)
    for seat, extra in narrowed.items():
        own = classes.get(seat)
        own = [parse_class(spec.name, own) if isinstance(own, str) else own] if own is not None else []
        try:
            classes[seat] = intersection(spec.name, own + extra)
        except ConditionError as exc:
            raise ConditionError(f"the given calls are never made with these conditions: seat {seat}'s calls need "
                                 f"its rules' conditions, and {exc}") from None
    try:
        compiled = compile_conditions(dataclasses.replace(conditions, classes=classes))
    except ConditionError as exc:
        used = "; ".join(f"seat {n.seat}'s {n.call}: {n.how}" for n in notes if n.cls is not None)
        raise ConditionError(f"the given calls are never made with these conditions ({used}): {exc}") from None
    return compiled, tuple(notes)
