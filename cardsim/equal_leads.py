"""Which leads of a hand were really equal in a question: ``cardsim evaluate --all-leads``.

Cards that touch in rank (Vint's K Q J of a suit, Five Hundred's run in the contract's trick
order) take the same trick when led, but the strategies read the card led: partner's play after a
K lead need not be its play after a Q lead (Vint: from KQJ72 against 3NT the Q lost 0.3 tricks
against the K).  So ``--all-leads`` plays every card, and a group of touching cards is shown as one
row only where its cards scored the same on every deal played (legal on the same deals, every
paired difference 0): proven equal on the question's deals, not assumed.  A group whose cards
differ is split into the classes that were equal.

Works on the mergeable sums of :func:`cardsim.questions.run_question` (``legal``, ``pair_n``,
``pair_s2``), so no per-deal score is kept.
"""
from __future__ import annotations


def equal_on_every_deal(sums: dict, a: int, b: int) -> bool:
    """Whether options ``a`` and ``b`` (indices into the question's options) were legal on the same
    deals and scored the same on each: both legal counts equal the deals where both were legal, and
    the sum of squared per-deal differences is exactly 0 (scores are whole points or exact shares,
    so a single differing deal makes it positive)."""
    legal, both = sums["legal"], sums["pair_n"]
    return bool(legal[a] == legal[b] == both[a, b] and sums["pair_s2"][a, b] == 0.0)


def split_groups(groups: list[list[int]], sums: dict) -> list[list[int]]:
    """``groups`` (lists of option indices, the candidate groups, each in the order given) split
    into classes of options equal on every deal (:func:`equal_on_every_deal`; an equivalence, so
    each option joins the first class whose first option it equals).  Classes keep the order of
    their first option; returns a list of lists of option indices."""
    out = []
    for group in groups:
        classes: list[list[int]] = []
        for j in group:
            for c in classes:
                if equal_on_every_deal(sums, c[0], j):
                    c.append(j)
                    break
            else:
                classes.append([j])
        out.extend(classes)
    return out


def regroup(candidates: dict, options: list, sums: dict) -> tuple[dict, dict, set]:
    """The lead groups that held on the deals.

    ``candidates``: ``{(card, ...): (option, ...)}``, each candidate group's card tokens in order
    to the option string of each card (options of ``options``, the question's options in order);
    ``sums``: the question's merged sums.  Returns ``(groups, split, hidden)``: ``groups`` maps the
    option shown for each class (its first card's) to the card tokens it stands for; ``split`` maps
    each candidate group whose cards were not all equal (its cards joined by spaces) to its classes
    (lists of card tokens); ``hidden`` is the set of options a class's first option stands for
    (their rows say nothing more: they scored the same on every deal)."""
    index = {o: j for j, o in enumerate(options)}
    groups, split, hidden = {}, {}, set()
    for cards, opts in candidates.items():
        idx = [index[o] for o in opts]
        card_of = dict(zip(idx, cards))
        classes = split_groups([idx], sums)
        for c in classes:
            groups[options[c[0]]] = [card_of[j] for j in c]
            hidden.update(options[j] for j in c[1:])
        if len(classes) > 1:
            split[" ".join(cards)] = [[card_of[j] for j in c] for c in classes]
    return groups, split, hidden


__all__ = ["equal_on_every_deal", "split_groups", "regroup"]
