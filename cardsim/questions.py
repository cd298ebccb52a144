"""Ask about a hand: play every option of one question on the same deals (``cardsim.questions``).

A question fixes what is known of the deal — the seat's hand or part of it, cards elsewhere,
hand classes (:mod:`cardsim.conditions`), the dealer, the match state before the deal — and
lists the options the seat may take: a first call, a contract declared with the auction
skipped, 501's blind bid or look (the game's ``forcing`` module says which).  Every option is
played on the same deals with the same strategy randomness (common random numbers), so the
difference between two options is paired: its interval is that of the per-deal differences.

Deals are drawn under the conditions by :func:`cardsim.deal.deal_chunk` (deal ``i`` of a seed
is the same deal on any machine, chunking and worker count), played by the game's
``forcing.play_given``, and reduced chunk by chunk to mergeable sums, so memory does not grow
with ``n``.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import robust as R, sequential as S
from cardsim.conditions import Conditions, HandClass, compile as compile_conditions, layout_of, parse_classes
from cardsim.deal import Calls, ConditionError, DealtChunk, deal_chunk, dealing_seconds
from cardsim.games import GAME_NAMES, get_game
from cardsim.games.base import OptionError, as_list
from cardsim.games.forced import (CHECK_CALLS, F_IMPLIED, F_KIND, F_NPREFIX, F_PREFIX, FORCE_CONTRACT, FORCE_NONE,
                                  FORCE_REACHED, IMPLIED_CALLS)
from cardsim.games.source import source_of
# The answer table lives below this module (cardsim.robust makes tables too).
from cardsim.question_table import calls_dealt, table
from cardsim.rules.implied import dealing as rules_dealing
from cardsim.runner.files import atomic_write, check_output_file
from cardsim.runner.pool import deal_seconds, match_seconds, on_dask, using
from cardsim.runner.run import check_count, make_run
from cardsim.runner.store import ChunkStore, manifest_key, run_chunks, runs_dir
from cardsim.text import quote

DEFAULT_CHUNK = 20_000
MAX_OPTIONS = 40
"""Most options in one question (Vint's ``auto``: a pass and all 35 bids)."""


@dataclass(frozen=True)
class Question:
    """A question ready to play: the game, the run set-up, the compiled conditions, the options."""

    game: str
    seat: int
    run: object
    compiled: object
    options: tuple
    forced: tuple
    before: object
    calls: tuple = ()
    """The calls before the seat's turn that the deals must imply (their tokens as given), or
    ``()`` when there are none or they are made on any hands (``calls_imply_hands=False``)."""
    outcome: str = "deal"
    """What the question scores: a name of the game's ``forcing.outcome_states()``."""
    reach: str = ""
    """A lead question's contract in words (``3NT by seat 2``) when the deals are dealt so that the
    strategies' auction (after ``calls``) ends in it (``FORCE_REACHED`` options), else ``""``."""
    before_given: tuple | None = None
    """The match state as given (``before``: whole numbers), None when none was given."""
    dealing: object = None
    """The compiled conditions the deals are dealt under when a rule-file caller's hands are dealt
    from its rules' conditions (:func:`cardsim.rules.implied.dealing`), else None: ``compiled``."""
    sampler: tuple = ()
    """How each given call of a rule-file caller is implied (:class:`cardsim.rules.implied.Implied`)."""

    @property
    def dealt_under(self):
        """The compiled conditions the deals are drawn under before the calls are tested."""
        return self.compiled if self.dealing is None else self.dealing

    @property
    def spec(self):
        return get_game(self.game)

    @property
    def implies(self) -> bool:
        """Whether the deals are tested against calls (given calls, or a contract to reach)."""
        return bool(self.calls or self.reach)

    def calls_test(self):
        """The :class:`cardsim.deal.Calls` the dealer tests each deal against, or None."""
        if not self.implies:
            return None
        check = np.array(self.forced[0], dtype=np.int64)  # every option carries the same given calls
        check[F_IMPLIED] = CHECK_CALLS
        test = functools.partial(self.spec.forcing.agreed_calls, setup=self.run.setup, forced=check,
                                 state=self.before)
        if not self.reach:
            return Calls(test, tuple(self.calls))
        reached = next(f for f in self.forced if int(f[F_KIND]) == FORCE_REACHED)
        return Calls(functools.partial(_reaching, test, self.spec, self.run.setup, reached,
                                       _outcome_state(self.spec, "deal")(self.before)),
                     tuple(self.calls) + (self.reach,), end=True)

    def deal(self, start: int, count: int) -> DealtChunk:
        """Deals ``start .. start+count-1`` of the question (conditions and calls)."""
        return deal_chunk(self.dealt_under, self.run.seed, start, count, calls=self.calls_test())

    @property
    def lower_is_better(self) -> bool:
        low = self.spec.forcing.lower_is_better
        return bool(low(self.before) if callable(low) else low)


def _reaching(test, spec, setup, forced, state, keys, dealers, hands, talons) -> np.ndarray:
    """The dealer's test of a lead question whose contract is reached (int64[n]): how many of the
    given calls the callers' strategies make (``test``), plus 1 where they make them all and their
    auction then ends in the lead option ``forced``'s contract (``spec.forcing.contract_reached``
    on the deal played by the strategies under the option, scored as a deal: ``state``)."""
    agreed = np.asarray(test(keys, dealers, hands, talons), dtype=np.int64).copy()
    full = np.flatnonzero(agreed == int(forced[F_NPREFIX]))
    if full.size:
        dealt = DealtChunk(np.asarray(dealers)[full], np.asarray(hands)[full], np.asarray(talons)[full],
                           np.ones(full.size, dtype=np.int64), np.asarray(keys)[full],
                           np.zeros(full.size, dtype=np.int64))
        rows, _ = spec.forcing.play_given(0, 0, dealt, setup, forced, state)
        agreed[full] += spec.forcing.contract_reached(rows, forced).astype(np.int64)
    return agreed


def _reached_leads(spec, forced: list, calls_imply_hands: bool, cond) -> str:
    """Turn the lead options' forced contracts (``FORCE_CONTRACT``) into contracts the strategies'
    auction reaches (``FORCE_REACHED``) when calls imply hands and some hand is dealt (a deal given
    whole keeps the contract forced: nothing is left to deal); returns the contract in words, or
    ``""``.  Raises OptionError for lead options against different contracts, lead options beside
    others (the deals reach the contract), or given calls made on random hands before a lead."""
    if spec.forcing.reach is None:
        return ""
    leads = [f for f in forced if int(f[F_KIND]) == FORCE_CONTRACT and spec.forcing.is_lead(f)]
    if not leads:
        return ""
    if not calls_imply_hands:
        if any(int(f[F_NPREFIX]) > 0 for f in leads):
            raise OptionError("given calls before a lead deal the declaring side hands that make them; made on "
                              "random hands (--calls-on-random-hands) the lead is against the forced contract, the "
                              "auction skipped: leave out --auction")
        return ""
    if _all_given(cond):
        return ""  # nothing to deal: the contract stays forced
    texts = {spec.forcing.reach(f) for f in leads}
    if len(texts) > 1:
        raise OptionError(f"lead options against different contracts ({', '.join(sorted(texts))}) need a question "
                          f"each: the declaring side is dealt hands that reach one contract")
    text = texts.pop()
    if any(int(f[F_KIND]) != FORCE_NONE for f in forced if not any(f is g for g in leads)):
        # The deals are those whose auction reaches the contract: a call option (1S) would be
        # judged on them alone, a question nobody asked.
        raise OptionError(f"lead options and call or contract options in one question: the deals are dealt so that "
                          f"the auction reaches {text}, which is no question about another call; ask the others in a "
                          f"question of their own (beside leads, only 'strategy' is taken: the strategies' own play)")
    for f in leads:
        f[F_KIND] = FORCE_REACHED
    return text


def declaring_side(q: Question, acceptance=None) -> str:
    """How a lead question dealt the declaring side, in words (the header of ``cardsim evaluate``),
    or ``""`` for a question with no lead option; ``acceptance``: the share of deals meeting the
    conditions that the strategies' auction took to the contract (``calls_acceptance``)."""
    if q.spec.forcing.reach is None:
        return ""
    forced = next((f for f in q.forced if q.spec.forcing.is_lead(f)
                   and int(f[F_KIND]) in (FORCE_CONTRACT, FORCE_REACHED)), None)
    if forced is None:
        return ""
    contract = q.spec.forcing.reach(forced)
    if q.reach:
        after = f" after the calls given ({' '.join(q.calls)})" if q.calls else ""
        rate = "" if acceptance is None else f" ({acceptance:.4g} of the deals that meet the conditions do)"
        return (f"declaring side: dealt hands with which the strategies' auction{after} ends in {contract}: a deal is "
                f"kept only if it does{rate}; --calls-on-random-hands deals them at random")
    if _all_given(q.compiled):
        return f"declaring side: every hand given; {contract} declared, the auction skipped"
    return (f"declaring side: dealt at random (--calls-on-random-hands); {contract} declared whatever it holds, the "
            f"auction skipped")


def _all_given(compiled) -> bool:
    """Whether every hand of the deal is given whole in the compiled conditions (a seat that holds
    no cards, 501's dealer at four, counts as given)."""
    sizes = compiled.layout.sizes
    return all(bin(int(compiled.given[s])).count("1") >= int(sizes[:, s].max()) for s in range(compiled.seats))


def _conditions(game, seat, seats, hand, talon, where, dealer, conditions):
    if conditions is not None:
        if not isinstance(conditions, Conditions):
            raise OptionError("conditions must be a cardsim.conditions.Conditions")
        return conditions
    classes = {}
    if where is not None:
        if not isinstance(where, (str, dict)):
            raise OptionError(f"where must be a string of hand classes such as \"hcp=15-17, H>=5\" "
                              f"(docs/conditions.md), got {type(where).__name__} {quote(where)}")
        classes = parse_classes(game, where, seat) if isinstance(where, str) else dict(where)
    hands = {seat: hand} if hand is not None else {}
    if seat not in classes and not hands and (layout_of(game, seats).sizes[:, seat] == 0).any():
        # 4-seat 501: the dealer sits out; the asked seat must hold cards, so it never deals.
        classes[seat] = HandClass()
    return Conditions(game, seats=seats, dealer=dealer, hands=hands, talon=talon, classes=classes)


def question(game, seat=0, options=(), n=100_000, seed=0, hand=None, where=None, talon=None, dealer=None,
             before=None, strategies=None, seats=None, rules=None, conditions=None,
             chunk_size=DEFAULT_CHUNK, auction=(), outcome="deal", calls_imply_hands=True,
             deal_from_rules=True) -> Question:
    """Check every argument of :func:`evaluate` and build the :class:`Question`.

    ``deal_from_rules``: with implied calls, deal a rule-file caller's hand from its rules'
    conditions where they allow it (:mod:`cardsim.rules.implied`: the same deals' distribution,
    fewer auctions tested); False tests the auction on hands dealt at random (plain rejection).
    Raises OptionError / StrategyError (bad option, seat, count, strategy; given calls a rule file
    never makes) or ConditionError (bad or impossible conditions), all ValueError with one-line
    messages.
    """
    spec = get_game(game)
    if spec.forcing is None:
        raise OptionError(f"{spec.name} has no forced options yet")
    run = make_run(spec.name, n, seed, strategies, seats, rules, chunk_size)
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < run.setup.seats:
        raise OptionError(f"seat must be a whole number from 0 to {run.setup.seats - 1}, got {quote(seat)}")
    if isinstance(options, str):
        options = [options]
    options = as_list(options, "options")
    if not options:
        raise OptionError("give at least one option (e.g. --option P --option 1NT)")
    if len(options) > MAX_OPTIONS:
        raise OptionError(f"at most {MAX_OPTIONS} options in one question")
    if isinstance(auction, str):
        auction = auction.replace(",", " ").split()
    if conditions is not None and dealer is None:
        dealer = getattr(conditions, "dealer", None)
    auction = as_list(auction or (), "auction (calls)")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer))
                               or not 0 <= dealer < run.setup.seats):
        raise OptionError(f"dealer must be a seat from 0 to {run.setup.seats - 1} or None, got {quote(dealer)}")
    for o in options:
        if not isinstance(o, str):
            raise OptionError(f"an option is a string such as 'P', '1NT' or 'look', got {quote(o)}")
    if any(isinstance(o, str) and o.strip().lower() == "auto" for o in options):
        if len(options) > 1:
            raise OptionError("option auto stands for every first call of the seat: give it alone")
        options = spec.forcing.auto_options(auction, int(seat), run.setup, dealer)
    forced = [spec.forcing.parse_option(o, int(seat), run.setup, auction, dealer) for o in options]
    if not isinstance(calls_imply_hands, (bool, np.bool_)):
        raise OptionError(f"calls_imply_hands must be True or False, got {quote(calls_imply_hands)}")
    cond = _conditions(spec.name, int(seat), run.setup.seats, hand, talon, where, dealer, conditions)
    if cond.game != spec.name:
        raise OptionError(f"conditions are for {cond.game}, the question is about {spec.name}")
    compiled = compile_conditions(cond)
    reach = _reached_leads(spec, forced, bool(calls_imply_hands), compiled)
    implied = bool(calls_imply_hands) and (any(int(f[F_NPREFIX]) > 0 for f in forced) or bool(reach))
    if implied:
        for f in forced:
            f[F_IMPLIED] = IMPLIED_CALLS
    seen = {}
    for text, f in zip(options, forced):
        key = tuple(int(x) for x in f)
        if key in seen:
            raise OptionError(f"options {quote(seen[key])} and {quote(text)} are the same choice")
        seen[key] = text
    state = spec.forcing.parse_before(before, run.setup)
    state = _outcome_state(spec, outcome)(state)
    dealing, sampler = None, ()
    if implied and deal_from_rules:
        given = forced[0]  # every option carries the same given calls
        dealing, sampler = rules_dealing(spec, run.setup, cond, given[F_PREFIX:F_PREFIX + int(given[F_NPREFIX])],
                                         compiled.dealer, getattr(state, "scores", None))
    return Question(spec.name, int(seat), run, compiled, tuple(str(o).strip() for o in options), tuple(forced),
                    state, tuple(str(c).strip() for c in auction) if implied else (), outcome, reach,
                    None if before is None else tuple(int(x) for x in before), dealing, sampler)


def _outcome_state(spec, outcome):
    """The game's transform of the parsed state for ``outcome`` (its forcing's
    ``outcome_states()``); raises OptionError naming the outcomes it offers."""
    offered = spec.forcing.outcome_states()
    if isinstance(outcome, str) and outcome in offered:
        return offered[outcome]
    names = list(offered)
    words = " or ".join(f"'{o}'" for o in names) if len(names) <= 2 else \
        ", ".join(f"'{o}'" for o in names[:-1]) + f" or '{names[-1]}'"
    those = [g for g in GAME_NAMES if isinstance(outcome, str) and get_game(g).forcing is not None
             and outcome in get_game(g).forcing.outcome_states()]
    if those:
        raise OptionError(f"{spec.name} questions score {words} (outcome={quote(outcome)} is for {', '.join(those)})")
    raise OptionError(f"outcome must be {words} for {spec.name}, got {quote(outcome)}")


def chunk_sums(q: Question, start: int, count: int) -> dict:
    """Worker: the mergeable sums of deals ``start`` to ``start + count - 1`` of the question ``q``,
    each option played on every deal: ``deals``, ``attempts``, ``tested`` (floats), per option
    float64[k] ``legal``, ``declared``, ``made``, ``s1``, ``s2`` (sums of the score and its square
    over the deals where the option is legal), per pair float64[k, k] ``pair_n``, ``pair_s1``,
    ``pair_s2`` (of a's score minus b's), and :func:`half_sums`.  :func:`merge_sums` adds chunks.
    Raises ValueError when a deal dealt for a reached contract does not reach it."""
    dealt = q.deal(start, count)
    k = len(q.forced)
    legal = np.zeros(k)
    declared = np.zeros(k)
    made = np.zeros(k)
    s1 = np.zeros(k)
    s2 = np.zeros(k)
    pair_n = np.zeros((k, k))
    pair_s1 = np.zeros((k, k))
    pair_s2 = np.zeros((k, k))
    oks, scores = [], []
    for j, forced in enumerate(q.forced):
        rows, ok = q.spec.forcing.play_given(q.run.seed, start, dealt, q.run.setup, forced, q.before)
        if int(forced[F_KIND]) == FORCE_REACHED and not q.spec.forcing.contract_reached(rows, forced).all():
            miss = start + int(np.flatnonzero(~q.spec.forcing.contract_reached(rows, forced))[0])
            raise ValueError(f"{q.game} deal {miss} of seed {q.run.seed}: the strategies' auction did not end in "
                             f"{q.reach}, the contract its hands were dealt for")
        dec, mad, score = q.spec.forcing.outcome(rows, q.seat, q.before)
        legal[j] = ok.sum()
        declared[j] = (ok & dec).sum()
        made[j] = (ok & mad).sum()
        s1[j] = score[ok].sum()
        s2[j] = (score[ok] ** 2).sum()
        oks.append(ok)
        scores.append(score)
    for a in range(k):
        for b in range(k):
            both = oks[a] & oks[b]
            d = scores[a][both] - scores[b][both]
            pair_n[a, b] = both.sum()
            pair_s1[a, b] = d.sum()
            pair_s2[a, b] = (d ** 2).sum()
    return {"deals": count, "attempts": float(dealt.attempts.sum()), "tested": float(dealt.tested.sum()),
            "legal": legal, "declared": declared,
            "made": made, "s1": s1, "s2": s2, "pair_n": pair_n, "pair_s1": pair_s1, "pair_s2": pair_s2,
            **half_sums(start, oks, scores)}


def half_sums(start: int, oks: list, scores: list) -> dict:
    """For deals ``start`` .. of one chunk, ``oks`` (k bool[n]: where each option is legal) and
    ``scores`` (k float[n]): the per-option and per-pair sums again for each half of the deals
    (deal number even: half 0, odd: half 1), for choosing on one half and estimating on the other
    (:mod:`cardsim.selection`): ``half_legal``, ``half_s1``, ``half_s2`` (2, k) and
    ``half_pair_n``, ``half_pair_s1``, ``half_pair_s2`` (2, k, k), float64.  As matrix products
    (pair [a, b]: sums over the deals where both were legal of a's score minus b's), so the k^2
    pairs cost little next to playing the deals."""
    legal = np.array(oks, dtype=np.float64).reshape(len(oks), -1)
    x = np.where(legal > 0, np.array(scores, dtype=np.float64).reshape(legal.shape), 0.0)
    half = (start + np.arange(legal.shape[1])) % 2
    out = {key: [] for key in ("half_legal", "half_s1", "half_s2", "half_pair_n", "half_pair_s1", "half_pair_s2")}
    for h in (0, 1):
        o, v = legal[:, half == h], x[:, half == h]
        cross, sq = v @ o.T, (v * v) @ o.T  # [a, b]: a's scores (squared) summed over b's legal deals
        for key, value in (("half_legal", o.sum(axis=1)), ("half_s1", v.sum(axis=1)), ("half_s2", (v * v).sum(axis=1)),
                           ("half_pair_n", o @ o.T), ("half_pair_s1", cross - cross.T),
                           ("half_pair_s2", sq + sq.T - 2.0 * (v @ v.T))):
            out[key].append(value)
    return {key: np.stack(value) for key, value in out.items()}


def merge_sums(parts: list[dict]) -> dict:
    """The sums of several chunks (:func:`chunk_sums`' dicts) added key by key, as one run's."""
    # Only the keys every chunk has: a run resumed from chunks stored before the per-half sums
    # existed merges without them (cardsim.selection then says so) instead of failing here.
    keys = [key for key in parts[0] if all(key in p for p in parts[1:])]
    return {key: sum(p[key] for p in parts) for key in keys}


def evaluate(game, seat=0, options=(), n=100_000, seed=0, hand=None, where=None, talon=None, dealer=None,
             before=None, strategies=None, seats=None, rules=None, conditions=None, n_jobs=-1,
             chunk_size=DEFAULT_CHUNK, progress=False, auction=(), outcome="deal", store=None,
             client=None, calls_imply_hands=True, profiles=None, profiles_file=None):
    """Play each option of ``seat`` on the same ``n`` deals under the given conditions.

    ``hand``: the seat's given cards (``"S:AKT86 H:KQ42 C:K832"`` or card tokens); ``where``: a
    class string (``"hcp=15-17, H>=5; seat 2: hcp>=10"``, docs/conditions.md) or ``{seat:
    HandClass}``; ``talon``: given talon / kitty cards; ``conditions``: a full
    :class:`cardsim.conditions.Conditions` instead of those three; ``dealer``: a seat or None
    (drawn); ``before``: the match state as a list of whole numbers (501 scores by seat; Vint
    below0, below1[, games0, games1]; Five Hundred scores by team); ``options``: the game's
    option strings (``cardsim evaluate --help``); ``auction``: the calls made before the seat's
    first call (Vint: from the dealer; 501 and Five Hundred: from the dealer's left; the dealer
    must be given), e.g. ``["1NT", "P"]``; ``calls_imply_hands``: True (the default) keeps only
    deals in which the callers' strategies would make exactly those calls with their hands (an
    exact conditional under the strategy model, by rejection; ``df.attrs["calls_acceptance"]``
    is its rate), False makes the calls whatever the callers hold; for lead options
    (``lead:CARD/CONTRACT``) True also deals the declaring side hands with which the strategies'
    auction, after ``auction``, ends in the contract (``df.attrs["reach"]`` names it, None
    otherwise; a deal given whole keeps the contract forced), False declares the contract on random
    hands with the auction skipped (``auction`` must then be empty); ``outcome``:
    ``"deal"`` (the deal's score) or another of the game's outcomes
    (``forcing.outcome_states()``): ``"game"`` (501: the seat's share of the game's win; Five
    Hundred: its side's, to the target; Vint: its side's share of the rubber's win; the game played on by the strategies after the deal,
    its later deals the same for every option), Vint's ``"margin"`` (its side's points minus
    the other side's from the deal to the rubber's end).

    Returns one row per option, best first: ``option``; ``n`` deals; ``legal`` the share of
    deals in which the option could be taken; ``made`` the made rate of the contracts the
    seat's side declared (missing for a pass) with its 95% Wilson interval ``made_lo``,
    ``made_hi``; ``score`` the mean score of the seat, higher is better in every game (Vint, Five
    Hundred: its side's points minus the other side's; 501: its score change with the sign turned,
    the points it gains toward 0; with ``outcome="game"`` its share of the game's win) with a 95%
    normal interval; ``diff`` the paired mean difference to the best option on the deals where
    both were legal (never above 0 but by chance: positive would be better), with its 95%
    interval; ``df.attrs["score_meaning"]`` says what ``score`` measures in words.
    ``df.attrs`` holds the question (seed, conditions, acceptance rate of the conditions and
    calls, the calls and ``calls_acceptance``, strategies, rules).  Raises OptionError,
    StrategyError or ConditionError (ValueError, one-line messages).  ``n_jobs``, ``client``:
    as for :func:`cardsim.simulate`; ``store``: a folder where finished chunks wait, so that the
    same call after an interruption resumes (removed when the answer is complete).

    ``profiles``: None (the default: one answer, a DataFrame) or the player profiles to replay
    the question under (True: every profile of the game and of ``profiles_file``; or a list of
    names / :class:`cardsim.profiles.Profile`): then the result is a
    :class:`cardsim.robust.RobustAnswer` (a table per profile, on the same deals, and the
    verdict: does the default's best option hold?); ``store`` is then a folder per profile
    under it.  Raises :class:`cardsim.profiles.ProfileError` (an OptionError) for an unknown
    profile or a bad profile file.
    """
    def ask(specs):
        return question(game, seat, options, n, seed, hand, where, talon, dealer, before, specs, seats, rules,
                        conditions, chunk_size, auction, outcome, calls_imply_hands)

    q = ask(strategies)
    if profiles is None or profiles is False:
        if profiles_file is not None:
            raise OptionError("profiles_file goes with profiles= (the profiles to replay the question under)")
        return table(q, run_question(q, n_jobs, progress, store, client))
    return robust(robust_questions(q, ask, profiles, profiles_file), n_jobs, progress, store, client)


def robust_questions(q: Question, ask, profiles=True, profiles_file=None) -> list:
    """``[(profile, question)]`` of a robust answer (:mod:`cardsim.robust`): ``q`` asked again with
    each profile's strategies (``ask(specs)`` builds the question), ``default`` (``q`` itself) first."""
    pairs = R.build(ask, q.game, q.seat, list(q.run.setup.specs), profiles, profiles_file)
    return [(p, q if p.name == "default" else pq) for p, pq in pairs]


def robust(pairs: list, n_jobs=-1, progress=False, store=None, client=None):
    """Play every profile's question (:func:`robust_questions`) and return the
    :class:`cardsim.robust.RobustAnswer`.  ``store``: a folder holding one resumable store per
    profile (``store / NAME``), or a callable ``question -> store``."""
    sums = {}
    for p, pq in pairs:
        where = store(pq) if callable(store) else (None if store is None else Path(store) / p.name)
        sums[p.name] = run_question(pq, n_jobs, progress, where, client)
    return R.answer(pairs, sums)


def manifest(q: Question) -> dict:
    """What identifies the question's run (for a resumable :class:`~cardsim.runner.store.ChunkStore`)."""
    out = dict(q.run.manifest(), kind="question", seat=q.seat, conditions=q.compiled.text, options=list(q.options),
               forced=[[int(x) for x in f] for f in q.forced], before=repr(q.before))
    if q.dealing is not None:  # other deals than plain rejection's (the same distribution)
        out["dealt_under"] = q.dealing.text
    if q.sampler:  # how each rule-file caller's hand was dealt, plain rejection included
        out["calls_dealt"] = calls_dealt(q)
    return out


def default_store(q: Question):
    """The runs-folder store the ``evaluate`` command keeps a question's finished chunks in."""
    return runs_dir() / f"evaluate-{manifest_key(manifest(q))}"


DEALING_BUDGET = 0.05
"""Seconds :func:`question_seconds` may spend timing the dealing of a question with conditions."""


def question_seconds(q: Question) -> float:
    """Estimated one-core seconds of the whole question: every option played on every deal
    (:func:`cardsim.runner.pool.deal_seconds`; with ``outcome="game"`` each as a game played on from
    the scores before, :func:`cardsim.runner.pool.match_seconds`) plus dealing under the conditions
    and the calls they imply, timed on the first deals for at most :data:`DEALING_BUDGET` seconds."""
    plays = q.run.n * len(q.forced)
    if getattr(q.before, "play_out", False):
        scores = getattr(q.before, "scores", None)  # a game played to a target from these scores
        seconds = match_seconds(q.game, plays, None if scores is None else [int(s) for s in scores[:q.run.setup.seats]],
                                q.run.setup.rules)
    else:
        seconds = deal_seconds(q.game, plays)
    if q.compiled.n_constraints or q.implies:
        seconds += dealing_seconds(q.dealt_under, q.run.seed, q.run.n, budget=DEALING_BUDGET, max_deals=50,
                                   calls=q.calls_test())
    return seconds


def run_question(q: Question, n_jobs=-1, progress=False, store=None, client=None) -> dict:
    """The merged sums of every chunk of ``q`` (workers: joblib, ``n_jobs`` -1 = all cores when the
    question is big enough to pay for them, :func:`question_seconds`, or
    the dask ``client``).  ``store``: a folder keeping each finished chunk, so the same call
    after an interruption resumes; it is removed once the sums are merged.  The sums are
    merged in chunk order, so they are the same however the run was split or resumed."""
    keep = ChunkStore(store, manifest(q)) if store is not None else None
    parts = _run_range(q, 0, q.run.n, n_jobs, progress, keep, client)
    if keep is not None:
        ChunkStore.discard(keep.path)
    return merge_sums(parts)


def _range_chunks(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``(first deal, number of deals)`` of the chunks of deals ``start .. stop-1``: cut at every
    multiple of ``size`` (so a range from 0 is chunked as :meth:`Run.chunks` chunks it)."""
    cuts = [start, *range((start // size + 1) * size, stop, size), stop]
    return [(a, b - a) for a, b in zip(cuts[:-1], cuts[1:])]


def _run_range(q: Question, start: int, stop: int, n_jobs=-1, progress=False, keep=None, client=None) -> list:
    """The sums of each chunk of deals ``start .. stop-1`` of ``q``, in order (``keep``: an open
    :class:`ChunkStore` of this range, or None; discarded here if the conditions cannot be met)."""
    chunks = _range_chunks(start, stop, q.run.chunk_size)
    try:
        with using(client):
            auto = isinstance(n_jobs, (int, np.integer)) and n_jobs < 0 and not on_dask()
            # timing the dealing only when it decides; the whole question's estimate scaled to the range
            seconds = question_seconds(q) * (stop - start) / q.run.n if auto else None
            return list(run_chunks(chunk_sums, [(q, a, count) for a, count in chunks], [c for _, c in chunks],
                                   n_jobs, progress, keep, seconds=seconds))
    except ConditionError:
        # a class too rare to sample fails at the same deal on every run: nothing to resume
        if keep is not None:
            ChunkStore.discard(keep.path)
        raise


def run_until_clear(q: Question, error=None, first=None, n_jobs=-1, progress=False, store=None, client=None):
    """Play ``q`` in rounds until its best option is clearly best, or ``q.run.n`` deals are played.

    The rounds and the stopping rule are :func:`cardsim.sequential.until_clear`'s: looks at
    ``first`` (default :data:`cardsim.sequential.FIRST`), twice, four times … that many deals, the
    last at ``q.run.n``; at each look an option is clearly best when its paired difference to each
    other option has an interval above 0 at level ``1 - error / (looks · (options - 1))``
    (``error`` default 0.05; :func:`cardsim.sequential.judge`).  Round ``r`` plays deals ``[look r-1, look r)`` of the question's
    seed — the deals a fixed run of ``q.run.n`` deals plays, in order — so the sums at a look are
    those of a fixed run of that many deals.  ``store``: a folder keeping each round's finished
    chunks (one sub-folder per round), so the same call after an interruption resumes; removed
    at the end.  Returns ``(sums, result)``: the merged sums (as :func:`run_question`) of the deals
    played and the :class:`cardsim.sequential.Sequential` result.  Raises OptionError, before any
    deal, for fewer than two options or an error rate outside [1e-6, 0.5]."""
    error = S.ERROR if error is None else error
    first = S.FIRST if first is None else first

    def play(start, stop):
        keep = None
        if store is not None:
            keep = ChunkStore(Path(store) / f"deals-{start}-{stop}", dict(manifest(q), start=start, stop=stop))
        return _run_range(q, start, stop, n_jobs, progress, keep, client)

    sums, result = S.until_clear(play, len(q.options), q.run.n, error, first, -1.0 if q.lower_is_better else 1.0,
                                 merge=merge_sums)
    if store is not None:
        ChunkStore.discard(Path(store))
    return sums, result


def until_clear_table(q: Question, sums: dict, result) -> pd.DataFrame:
    """:func:`table` of the deals played by :func:`run_until_clear`, with two more columns,
    ``clear_lo`` and ``clear_hi``: the interval, at the level the stopping rule used, of the
    option minus the option it judged — the table's first row, which is the clearly best option
    when there is one (:mod:`cardsim.ranking`: a clearly best option beats every other), so it is
    ``diff``'s interval at the look's level; the judged option is clearly best when
    every other option's ``clear_hi`` is below 0 (NaN for itself; all NaN when no option is ranked); and ``df.attrs["until_clear"]``: the verdict
    (:meth:`cardsim.sequential.Sequential.to_dict`: deals, clear, best by name, error, looks,
    guarantee)."""
    df = table(q, sums)
    look = result.looks[-1]
    index = {name: j for j, name in enumerate(q.options)}
    rows = df.option.map(index).to_numpy()
    df["clear_lo"] = -look.upper[rows] + 0.0
    df["clear_hi"] = -look.lower[rows] + 0.0
    df.attrs["until_clear"] = result.to_dict(list(q.options))
    return df


def evaluate_until_clear(game, seat=0, options=(), max_deals=None, error=None, seed=0, hand=None, where=None,
                         talon=None, dealer=None, before=None, strategies=None, seats=None, rules=None,
                         conditions=None, n_jobs=-1, chunk_size=DEFAULT_CHUNK, progress=False, auction=(),
                         outcome="deal", store=None, client=None, calls_imply_hands=True, first=None):
    """:func:`evaluate`, stopping as soon as the best option is clear (``cardsim evaluate --until-clear``).

    The options are played in rounds of doubling size (``first`` deals, default 2,000, then 4,000,
    8,000 … up to ``max_deals``, default 1,000,000) on the deals a fixed run plays, and the run
    stops at the first look where an option's paired difference to every other option has an
    interval above 0, or at ``max_deals`` (:func:`run_until_clear`; docs/statistics.md,
    "Stopping when the answer is clear").  Guarantee: the chance that it calls an option clearly
    best while another is at least as good is at most ``error`` (default 0.05), whatever the
    look it stops at.  The other arguments are :func:`evaluate`'s.

    Returns :func:`evaluate`'s table over the deals played (``n``: the deals used) with
    ``clear_lo``, ``clear_hi`` (as in :func:`until_clear_table`) and
    ``df.attrs["until_clear"]``: ``deals`` used, ``clear`` (bool), ``best`` (the option's name, or
    None when none is clear at the maximum), ``error``, ``interval_level``, ``looks_planned``,
    ``looks_taken`` and ``guarantee`` (words).  Raises OptionError (fewer than two options, an
    error rate outside [1e-6, 0.5], a bad ``max_deals``), StrategyError or ConditionError
    (ValueError, one-line messages).
    """
    q = question(game, seat, options, S.MAX_DEALS if max_deals is None else max_deals, seed, hand, where, talon,
                 dealer, before, strategies, seats, rules, conditions, chunk_size, auction, outcome,
                 calls_imply_hands)
    sums, result = run_until_clear(q, error, first, n_jobs, progress, store, client)
    return until_clear_table(q, sums, result)


def records(q: Question, deal_ids, option: int | None = None) -> list[dict]:
    """docs/RECORDS.md records of deals ``deal_ids`` of the question, one per deal and option (or for
    option index ``option`` only), each with a ``source`` naming the question."""
    out = []
    for i in deal_ids:
        dealt = q.deal(int(i), 1)
        for j, forced in enumerate(q.forced):
            if option is not None and j != option:
                continue
            rec = q.spec.forcing.trace_given(q.run.seed, int(i), dealt, q.run.setup, forced, q.before)
            extra = {"seat": q.seat, "option": q.options[j], "conditions": q.compiled.text}
            n_given = int(forced[F_NPREFIX])
            if n_given:
                extra["auction_given"] = rec["auction"][:n_given]
                extra["calls_imply_hands"] = bool(q.calls)
                if q.dealing is not None:  # the callers' hands dealt from their rules' conditions
                    extra["dealt_under"] = q.dealing.text
            if q.reach and int(forced[F_KIND]) == FORCE_REACHED:
                extra["contract_reached"] = q.reach  # the declaring side dealt so that the auction ends in it
            if q.outcome != "deal":
                extra["outcome"] = q.outcome
            rec["source"] = source_of(q.run.setup, q.run.seed, int(i), extra=extra)
            out.append(rec)
    return out


def write_records(q: Question, path, limit: int) -> int:
    """Write the records of the first ``limit`` deals (every option) to ``path`` (JSON Lines), whole
    or not at all (a temporary file renamed when complete: a disk that fills leaves no truncated
    file); OutputError (one line) when it cannot be written."""
    limit = check_count(limit, "the records limit")
    recs = records(q, range(min(limit, q.run.n)))
    text = "".join(json.dumps(r) + "\n" for r in recs)
    atomic_write(check_output_file(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return len(recs)


__all__ = ["evaluate", "evaluate_until_clear", "question", "declaring_side", "run_question", "run_until_clear",
           "until_clear_table",
           "table", "records", "write_records",
           "ConditionError"]
