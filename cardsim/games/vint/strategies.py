"""Vint strategies: the registry and the jitted strategy functions (their dispatch is
:mod:`.dispatch`).

A strategy sees only its seat's view (DESIGN.md property 3): its own hand, the line before the deal
(points below the line and games won, by team: the score is public), the auction so far,
the cards played so far, the current trick, the contract and who declared it, its own
parameter vector and its own random stream.  Parameters (float64[N_PARAMS]) are read through
the ``P_*`` constants, which are derived from the registry's parameter names.

To add a strategy: write its ``@jit`` function(s) here, register it with a new id in
``REGISTRY``, and add a branch to ``choose_call`` / ``choose_card`` in :mod:`.dispatch`
(README, "Writing a strategy").
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.cards import bits_above, highest_bit, lowest_bit, popcount, suit_mask
from cardsim.rng import choose_bit, randbelow, uniform
from cardsim.strategies.pimc import register as register_pimc
from cardsim.strategies.registry import Registry

from .rules import (ACE, CLOSING_PASSES, GAME_THRESHOLD, HONOURS_LANE, JACK, LED_SHIFT, MAX_CALL, NT, PASS, TEN, bid_call,
                    call_denomination, call_level, denominations_bid, first_denomination, high_card_points,
                    legal_plays, trick_value, trick_winner)

U64 = np.uint64

RANDOM, HEURISTIC, GREEDY, HEURISTIC_V1, PIMC, HEURISTIC_V2, HEURISTIC_V3, RULES = 0, 1, 2, 3, 4, 5, 6, 7

REGISTRY = Registry("vint")
_BIDDING = {"aggression": 0.0, "partner_points": 7.0, "partner_bid_points": 13.0, "points_per_trick": 3.0}
_BIDDING_DOCS = {
    "aggression": "tricks added to the side's estimate before choosing a level (+1 = one level higher)",
    "partner_points": "points assumed in partner's hand while he has not bid (high-card + length points)",
    "partner_bid_points": "points assumed in partner's hand once he has bid (his first bid also shows five cards)",
    "points_per_trick": "side points that make one trick (25 points at 3.0 = about 8 tricks)",
}
_BIDDING_BOUNDS = {"aggression": (-13, 13), "partner_points": (0, 40), "partner_bid_points": (0, 40),
                   "points_per_trick": (0.5, 20)}
REGISTRY.add("random", RANDOM, {"pass_probability": 0.95},
             "uniformly random legal card; passes with pass_probability, else a uniformly random higher bid",
             {"pass_probability": "probability of passing at each call (0..1)"}, {"pass_probability": (0, 1)})
_AUCTION = {"contested_points": 6.0, "nt_margin": 0.5, "misfit_share": 0.2, "honour_weight": 0.3}
_AUCTION_DOCS = {
    "contested_points": "points assumed in partner's hand while he has not bid but an opponent has",
    "nt_margin": "tricks taken off the no-trump estimate of a hand that is not sound for no-trump (no trump "
                 "suit to stop the opponents' long suit; sound: no singleton or void, at most one doubleton, "
                 "a stopper in every suit an opponent bid)",
    "misfit_share": "share of the outstanding cards of a suit assumed in partner's hand once he has bid "
                    "another suit (1/3 = no information)",
    "honour_weight": "tricks a suit gains, when choosing the denomination, per trump honour held beyond two",
}
_AUCTION_BOUNDS = {"contested_points": (0, 40), "nt_margin": (-13, 13), "misfit_share": (0, 1), "honour_weight": (0, 13)}
_SCORE = {"game_push": 0.25}
_PLAY = {"play": 7.0}
_PLAY_DOCS = {"play": "card-play version, kept so old results reproduce: 7 the default (the declarer's partner "
                      "leads no suit the declarer has shown out of for him to ruff; third to play, void, the "
                      "declaring side leaves partner's winning card when the last hand can neither follow nor "
                      "ruff; at no-trump it finesses third hand while four or more cards of the suit are unseen), "
                      "6 the play before it (heuristic_v10: the declaring side "
                      "following suit second or third to play, when the opponent still to play has shown out of "
                      "the suit, wins as cheaply as it can, third hand leaves partner's winning card), 5 the play "
                      "before that (heuristic_v9: the declaring side "
                      "in a suit contract, holding a trump, discards from its shortest side suit, not from the suit "
                      "partner bid, and third to play discards a side singleton rather than ruff partner's low "
                      "winning card), 4 (heuristic_v7, heuristic_v8: the declarer keeps "
                      "his trumps while none is unseen; at level 4 and above his partner leads trumps from two and "
                      "the declarer keeps his low trumps while two or fewer are unseen), 3 the play before it "
                      "(heuristic_v6: at no-trump the declarer's partner keeps short masters as entries and returns "
                      "the declarer's suit), 2 heuristic_v3 .. heuristic_v5's, 1 heuristic_v2's (no partner's "
                      "trump leads)"}
_PLAY_BOUNDS = {"play": (1, 7)}
_SCORE_DOCS = {
    "game_push": "tricks added to the side's estimate for a bid it would otherwise not make, when that bid's "
                 "expected tricks x V carry the side to 500 below the line (docs/RULES.md §2.7; 0 = the score "
                 "is not read, as heuristic_v3)",
}
_SCORE_BOUNDS = {"game_push": (0, 13)}
TUNABLES = {"aggression": (-3, 3, 0.25), "partner_points": (0, 20, 1), "partner_bid_points": (0, 25, 1),
            "points_per_trick": (1.5, 6, 0.25), "contested_points": (0, 20, 1), "nt_margin": (-2, 3, 0.25),
            "misfit_share": (0, 0.5, 0.05), "honour_weight": (0, 1.5, 0.1), "game_push": (0, 3, 0.25)}
"""The bidding parameters ``cardsim exploit`` / ``cardsim tune`` move: name -> (lowest,
highest, step a player would notice), declared for every strategy that bids like heuristic."""


def _tunables(params: dict) -> dict:
    return {k: v for k, v in TUNABLES.items() if k in params}


# The default players' parameters: a provisional equilibrium of the heuristic family, found by
# coordinate best-response over whole rubbers (a search by hand before `cardsim tune`: from
# heuristic_v4, one partnership deviating one parameter by one step each way against the other,
# 20,000 rubbers a seating, paired, seeds 101 on; a move when its gain exceeded 2.5 standard errors;
# it stopped after the second sweep, in which no step gained clearly).  `cardsim tune vint` replaces
# this line with its own result.  With card-play version 4 (heuristic_v7's trump play) a partnership a quarter
# trick bolder gained +28 points a rubber [+13, +43] (`cardsim exploit vint`, 100,000 rubbers a line-up), and
# at aggression 0.5 neither 0.25 nor 0.75 gains (-23 ± 5, -548 ± 8; 100,000 rubbers, seed 931): 0.5.
HEURISTIC_DEFAULTS = {"aggression": 0.5, "partner_points": 8.0, "partner_bid_points": 13.0, "points_per_trick": 3.0, "contested_points": 7.0, "nt_margin": 0.75, "misfit_share": 0.2, "honour_weight": 0.3, "game_push": 0.0}
# The values above before heuristic_v7's trump play (card-play version 4) moved aggression, frozen for the
# versions that keep them.
TUNED_BEFORE_PLAY_4 = {"aggression": 0.25, "partner_points": 8.0, "partner_bid_points": 13.0, "points_per_trick": 3.0,
                       "contested_points": 7.0, "nt_margin": 0.75, "misfit_share": 0.2, "honour_weight": 0.3,
                       "game_push": 0.0}
REGISTRY.add("heuristic", HEURISTIC, {**_BIDDING, **_AUCTION, **_SCORE, **HEURISTIC_DEFAULTS, **_PLAY},
             "bids to its estimated side tricks (high cards, shape, partner's first bid, the opponents' bids), "
             "game_push tricks more where the bid completes the game below the line (none by default); plays by "
             "the book, reading the auction (leads partner's suit, third hand high, no ruffing of sure winners); "
             "its default parameters are tuned so that no partnership gains clearly by changing one of them",
             {**_BIDDING_DOCS, **_AUCTION_DOCS, **_SCORE_DOCS, **_PLAY_DOCS},
             {**_BIDDING_BOUNDS, **_AUCTION_BOUNDS, **_SCORE_BOUNDS, **_PLAY_BOUNDS}, kinds={"play": "int"},
             tunables=TUNABLES)
REGISTRY.add_version("heuristic_v10", of="heuristic", params={**HEURISTIC_DEFAULTS, "play": 6.0},
                     doc="the default before card-play version 7 (the declarer's partner leads no suit the "
                         "declarer has shown out of, the declaring side leaves partner's winner the last hand "
                         "cannot beat, the no-trump finesse), kept so old results reproduce: today's bidding "
                         "(aggression 0.5) with card-play version 6 (play 6: the declaring side's play when the "
                         "opponent still to play has shown out of the suit)")
REGISTRY.add_version("heuristic_v9", of="heuristic", params={**HEURISTIC_DEFAULTS, "play": 5.0},
                     doc="the default before card-play version 6 (the declaring side's play when the opponent still "
                         "to play has shown out of the suit), kept so old results reproduce: today's bidding "
                         "(aggression 0.5) with card-play version 5 (play 5: the declaring side's discards)")
REGISTRY.add_version("heuristic_v8", of="heuristic", params={**HEURISTIC_DEFAULTS, "play": 4.0},
                     doc="the default before the declaring side's discards (card-play version 5), kept so old results reproduce: today's bidding "
                         "(aggression 0.5) with card-play version 4 (play 4: the declaring side discards its "
                         "lowest worthless card, not from its shortest suit)")
REGISTRY.add_version("heuristic_v7", of="heuristic", params={**TUNED_BEFORE_PLAY_4, "play": 4.0},
                     doc="the default between card-play version 4 and the bidding tuned again on it, kept so old "
                         "results reproduce: card-play version 4 with the bidding of heuristic_v6 (aggression 0.25, "
                         "a quarter trick more cautious than heuristic's)")
REGISTRY.add_version("heuristic_v6", of="heuristic", params={**TUNED_BEFORE_PLAY_4, "play": 3.0},
                     doc="the default before card-play version 4, kept so old results reproduce: heuristic's "
                         "tuned bidding with card-play version 3 (play 3: the no-trump play of the "
                         "declarer's partner)")
REGISTRY.add_version("heuristic_v5", of="heuristic", params={**TUNED_BEFORE_PLAY_4, "play": 2.0},
                     doc="the default before card-play version 3, kept so old results reproduce: heuristic's tuned "
                         "bidding with the play of heuristic_v3 and heuristic_v4 (play 2: at no-trump the declarer's "
                         "partner cashes short masters and leads his own longest suit)")
REGISTRY.add_version("heuristic_v4", of="heuristic", params={**_BIDDING, **_AUCTION, **_SCORE, "play": 2.0},
                     doc="the default of cardsim 0.1.0 before the tuned parameters, kept so old results reproduce: "
                         "heuristic's bidding with its earlier values (a quarter trick less aggressive, "
                         "7 points for a silent partner, 6 when an opponent has bid, no-trump margin 0.5) and a "
                         "quarter trick more where the bid completes the game below the line (game_push 0.25); "
                         "plays heuristic_v5's cards (play 2)")
REGISTRY.add("heuristic_v3", HEURISTIC_V3, {**_BIDDING, **_AUCTION},
             "an earlier default, kept so old results reproduce: bids like heuristic_v4 without reading the "
             "score (game_push 0), plays heuristic_v5's cards (card-play version 2)",
             {**_BIDDING_DOCS, **_AUCTION_DOCS}, {**_BIDDING_BOUNDS, **_AUCTION_BOUNDS},
             tunables=_tunables(_BIDDING | _AUCTION))
REGISTRY.add("heuristic_v2", HEURISTIC_V2, {**_BIDDING, **_AUCTION},
             "an earlier default, kept so old results reproduce: bids like heuristic_v3 (same parameters), "
             "plays heuristic's cards as they were before the declaring side's technique in high contracts",
             {**_BIDDING_DOCS, **_AUCTION_DOCS}, {**_BIDDING_BOUNDS, **_AUCTION_BOUNDS},
             tunables=_tunables(_BIDDING | _AUCTION))
REGISTRY.add("heuristic_v1", HEURISTIC_V1, dict(_BIDDING),
             "the first default heuristic (same bidding, simpler card play); kept so old runs reproduce",
             _BIDDING_DOCS, _BIDDING_BOUNDS, tunables=_tunables(_BIDDING))
REGISTRY.add("greedy", GREEDY, dict(_BIDDING),
             "bids like heuristic_v1; plays the cheapest card that wins the trick so far, else its lowest legal card",
             _BIDDING_DOCS, _BIDDING_BOUNDS, tunables=_tunables(_BIDDING))

REGISTRY.add("rules", RULES, doc="calls from a rule file: rules:PATH[:param=value,...] (docs/rules-files.md); "
             "where no rule holds, and for the card play, the file's base strategy (default heuristic)", file=True)
PIMC_DEFAULTS = {"early": 4}
"""Vint's defaults of the search's parameters (:func:`cardsim.strategies.pimc.register`): the
heuristic's cards to the first four tricks, the search from the fifth.  Over ten times faster than
searching every trick, and at 8 worlds on paired deals measured stronger with card-play version 6
as the heuristic, not measurably different in tricks with version 7 (docs/pimc.md, "A cheaper
first trick"): the first tricks' searches see the least of the hidden hands, where the sampled
worlds' flaws cost most, and take most of the time.  ``pimc:early=0`` searches every trick."""
PIMC_STRATEGY = register_pimc(REGISTRY, PIMC, REGISTRY["heuristic"], reads_auction=True, defaults=PIMC_DEFAULTS)
"""Sampled-search card play (:mod:`cardsim.strategies.pimc`, glue in :mod:`.pimc`); bids like
``heuristic`` with the same parameters, which sit at the same positions of its row."""

# Positions in the parameter vectors, from the registry's names (greedy shares heuristic's).

P_PASS_PROBABILITY = REGISTRY["random"].param_index("pass_probability")
P_AGGRESSION = REGISTRY["heuristic"].param_index("aggression")
P_PARTNER_POINTS = REGISTRY["heuristic"].param_index("partner_points")
P_PARTNER_BID_POINTS = REGISTRY["heuristic"].param_index("partner_bid_points")
P_POINTS_PER_TRICK = REGISTRY["heuristic"].param_index("points_per_trick")
P_CONTESTED_POINTS = REGISTRY["heuristic"].param_index("contested_points")
P_NT_MARGIN = REGISTRY["heuristic"].param_index("nt_margin")
P_MISFIT_SHARE = REGISTRY["heuristic"].param_index("misfit_share")
P_HONOUR_WEIGHT = REGISTRY["heuristic"].param_index("honour_weight")
P_GAME_PUSH = REGISTRY["heuristic"].param_index("game_push")
P_PLAY = REGISTRY["heuristic"].param_index("play")


# ------------------------------------------------------------------------------- bidding
@jit(inline="always")
def random_call(params, rng, current):
    """Pass with probability ``pass_probability``, else a uniformly random bid above ``current``."""
    if current >= MAX_CALL or uniform(rng) < params[P_PASS_PROBABILITY]:
        return np.int64(PASS)
    return np.int64(current + 1 + randbelow(rng, MAX_CALL - current))


NT_SOUND_MARGIN = 0.0
"""Tricks taken off the no-trump estimate of a sound no-trump hand (:func:`estimated_tricks`), in
place of ``nt_margin``: its stoppers hold the opponents' long suits."""


@jit(inline="always")
def estimated_tricks(params, hand, seat, shown):
    """Expected side tricks per denomination S C D H NT (a 5-tuple of float64) from the seat's view
    (``params``: the seat's row, float64[N_PARAMS]; ``shown``: what the auction so far showed,
    int64, :data:`.rules.SHOWN_BITS`; :func:`.rules.shown_calls` makes it from the calls).

    Side strength = own high-card points + one point per card over four in a suit + what the
    partner has shown: ``partner_bid_points`` once he has bid (his first bid also promises five
    cards in its suit), else ``contested_points`` if an opponent has bid (their strength is not
    partner's), else ``partner_points``.  Tricks = strength / ``points_per_trick``, adjusted for
    the trump fit beyond seven cards (partner holds ``misfit_share`` of the outstanding cards
    of a suit other than the one he bid) and for short suits; no-trump loses ``nt_margin``, or
    only :data:`NT_SOUND_MARGIN` with a sound no-trump hand: no singleton or void, at most one
    doubleton and a stopper (:func:`has_stopper`) in every suit an opponent bid.
    Only the partner's first bid counts as evidence, so estimates do not feed on each other and
    auctions end.
    """
    h = U64(hand)
    l0 = popcount(h & suit_mask(0))
    l1 = popcount(h & suit_mask(1))
    l2 = popcount(h & suit_mask(2))
    l3 = popcount(h & suit_mask(3))
    points = np.float64(high_card_points(hand) + max(l0 - 4, 0) + max(l1 - 4, 0) + max(l2 - 4, 0)
                        + max(l3 - 4, 0))
    short = (l0 <= 1) + (l1 <= 1) + (l2 <= 1) + (l3 <= 1)
    # The engine keeps the auction's evidence call by call (reading the calls again
    # at every turn was half of each bid's time).
    partner_denomination = first_denomination(shown, (seat + 2) & 3)
    opponent_suits = denominations_bid(shown, (seat + 1) & 3) | denominations_bid(shown, (seat + 3) & 3)
    opponent_bid = opponent_suits != 0
    if partner_denomination >= 0:
        points += params[P_PARTNER_BID_POINTS]
    elif opponent_bid:
        points += params[P_CONTESTED_POINTS]
    else:
        points += params[P_PARTNER_POINTS]
    base = points / params[P_POINTS_PER_TRICK]
    # Partner's share of the cards outside his bid suit: less than a third once he has shown five.
    share = params[P_MISFIT_SHARE] if 0 <= partner_denomination < NT else 1.0 / 3.0
    t0 = _suit_tricks(base, l0, partner_denomination == 0, short, share)
    t1 = _suit_tricks(base, l1, partner_denomination == 1, short, share)
    t2 = _suit_tricks(base, l2, partner_denomination == 2, short, share)
    t3 = _suit_tricks(base, l3, partner_denomination == 3, short, share)
    doubletons = (l0 == 2) + (l1 == 2) + (l2 == 2) + (l3 == 2)
    if short == 0 and doubletons <= 1 and stops_suits(hand, opponent_suits):
        t4 = base - 0.2 - NT_SOUND_MARGIN
    else:
        t4 = base - 0.2 - params[P_NT_MARGIN] - (0.7 if short > 0 and partner_denomination != NT else 0.0)
    return (t0, t1, t2, t3, t4)


@jit(inline="always")
def has_stopper(hand, suit):
    """``hand`` stops ``suit`` (A, K-x, Q-x-x or J-x-x-x: the honour wins a trick before the
    opponents run the suit)."""
    lane = (U64(hand) >> U64(16 * suit)) & U64(0x1FFF)
    n = popcount(lane)
    for r in range(4):
        if (lane >> U64(ACE - r)) & U64(1) and n > r:
            return True
    return False


@jit(inline="always")
def stops_suits(hand, suits):
    """``hand`` has a stopper (:func:`has_stopper`) in every suit of the bit set ``suits`` (bit 4,
    no-trump, ignored)."""
    for s in range(4):
        if (suits >> s) & 1 and not has_stopper(hand, s):
            return False
    return True


@jit(inline="always")
def _suit_tricks(base, length, partner_bid_it, short, share):
    partner_cards = 5.0 if partner_bid_it else (13.0 - length) * share
    fit = length + partner_cards
    t = base + 0.5 * (fit - 7.5)
    if fit >= 8.0:
        t += 0.5 * short
    return t


@jit(inline="always")
def _extra_honours(hand, suit):
    """Trump honours (A K Q J 10, docs/RULES.md §2.6) of ``suit`` in ``hand`` beyond two (int64)."""
    return max(popcount(U64(hand) & (HONOURS_LANE << U64(16 * suit))) - 2, 0)


@jit(inline="always")
def _speaker(i, ncalls, seat):
    """Seat that made call ``i`` when ``seat`` is to make call ``ncalls``."""
    return (seat - (ncalls - i)) & 3


@jit(inline="always")
def heuristic_call(params, hand, seat, calls, ncalls, current, current_bidder, below, games, shown):
    """Bid the cheapest legal contract in the denomination with most expected tricks
    (:func:`estimated_tricks`; suits ranked with ``honour_weight`` tricks per trump honour held
    beyond two), as long as its level is within expected tricks − 6 + ``aggression``; otherwise
    pass (docs/RULES.md §2.2).  ``params``: the seat's row, float64[N_PARAMS]; ``below``/``games``
    (int64[2] each, by team): the line before the deal, read only by the score parameters
    (:func:`heuristic_bid`); ``shown`` (int64): what ``calls[:ncalls]`` showed
    (:data:`.rules.SHOWN_BITS`, :func:`.rules.shown_calls`).

    The undertrick penalty (500 × level a trick, docs/RULES.md §2.6) dwarfs a trick's value, so the
    level cap is the stopping rule.  Never overbids its own standing bid.
    """
    if current_bidder == seat or current >= MAX_CALL:
        return np.int64(PASS)
    # Nothing has been bid since this seat last passed: its view, hence its decision, is unchanged.
    if ncalls >= 4 and calls[ncalls - 1] == PASS and calls[ncalls - 2] == PASS and calls[ncalls - 3] == PASS \
            and calls[ncalls - 4] == PASS:
        return np.int64(PASS)
    return heuristic_bid(params, hand, seat, shown, current, below)


@jit
def heuristic_bid(params, hand, seat, shown, current, below):
    """:func:`heuristic_call` once it has something to decide (out of line: one compiled copy):
    the call (int64, 0 = pass, 1..35 = bid, docs/RULES.md §2.2) of ``hand`` (uint64) for ``seat``
    over the standing bid ``current``, with the seat's row ``params`` (float64[N_PARAMS]),
    ``shown`` (int64, :func:`.rules.shown_calls`) and ``below`` (int64[2], by team).

    Reading the score (since heuristic_v4): where the plain rule passes, the bid it would make with
    ``game_push`` more tricks is made if its expected tricks × V reach the points the side lacks
    below the line (``GAME_THRESHOLD`` − ``below[side]``): the game, and the rubber, come sooner.
    ``game_push`` 0 never reads the line (heuristic_v3 and heuristic_v2 have no such parameter: 0).
    """
    # Borrowed views (cardsim._jit.borrowed) of the caller's arrays: without them every call made
    # four reference-count increments and decrements, 6–8% of a whole deal (BENCHMARKS.md).
    params, below = borrowed(params), borrowed(below)
    tricks = estimated_tricks(params, hand, seat, shown)
    w = params[P_HONOUR_WEIGHT]
    order = (tricks[0] + w * _extra_honours(hand, 0), tricks[1] + w * _extra_honours(hand, 1),
             tricks[2] + w * _extra_honours(hand, 2), tricks[3] + w * _extra_honours(hand, 3), tricks[4])
    bid = _first_biddable(tricks, order, params[P_AGGRESSION], current)
    if bid == PASS and params[P_GAME_PUSH] > 0.0 and _push_may_reach(tricks, params[P_AGGRESSION]
                                                                      + params[P_GAME_PUSH], below[seat & 1]):
        push = _first_biddable(tricks, order, params[P_AGGRESSION] + params[P_GAME_PUSH], current)
        if push != PASS:
            d = call_denomination(push)
            if tricks[d] * trick_value(call_level(push), d) >= GAME_THRESHOLD - below[seat & 1]:
                return push
    return bid


@jit(inline="always")
def _push_may_reach(tricks, aggression, below):
    """False when no bid within ``tricks`` + ``aggression`` − 6 can carry a side with ``below``
    points to the game (tricks × V ≥ GAME_THRESHOLD − below): a bound from the most tricks of any
    denomination and V ≤ 2 + 10 × level (docs/RULES.md §2.4), so a False changes no call.  Most
    passes fail it at once, which spares the second pass of :func:`_first_biddable` (that
    pass cost 4% of a Vint deal)."""
    most = max(max(max(tricks[0], tricks[1]), max(tricks[2], tricks[3])), tricks[4])
    level = min(np.int64(np.floor(most + aggression)) - 6, 7)
    return level >= 1 and most * (2 + 10 * level) >= GAME_THRESHOLD - below


@jit(inline="always")
def _first_biddable(tricks, order, aggression, current):
    """The bid (int64; PASS if none): the denominations (5-tuples of float64 indexed S C D H NT)
    are tried from the highest ``order`` down, on equal order the higher denomination first, and
    the first whose cheapest legal level over ``current`` is within ``tricks`` + ``aggression`` −
    6 (and 7) is bid at that level.  That is the biddable denomination of highest (order,
    denomination), found in one pass: most evaluations end in a pass, which would try all five."""
    best = -1
    best_level = 0
    for d in range(5):
        max_level = np.int64(np.floor(tricks[d] + aggression)) - 6
        if current == PASS:
            level = 1
        else:
            level = call_level(current) + (1 if d <= call_denomination(current) else 0)
        if level <= 7 and level <= max_level and (best < 0 or order[d] >= order[best]):
            best = d
            best_level = level
    if best < 0:
        return np.int64(PASS)
    return bid_call(best_level, best)


# ------------------------------------------------------------- bidding (heuristic_v1, greedy)
@jit(inline="always")
def estimated_tricks_v1(params, hand, seat, calls, ncalls):
    # ``params`` is the seat's row: float64[N_PARAMS]
    """heuristic_v1's estimate: expected side tricks per denomination S C D H NT (a 5-tuple of float64) from the seat's view.

    Side strength = own high-card points + one point per card over four in a suit + what the
    partner has shown: ``partner_bid_points`` once he has bid (his first bid also promises five
    cards in its suit), else ``partner_points``.  Tricks = strength / ``points_per_trick``,
    adjusted for the trump fit beyond seven cards and for short suits.  Only the partner's
    first bid counts as evidence, so estimates do not feed on each other and auctions end.
    """
    h = U64(hand)
    l0 = popcount(h & suit_mask(0))
    l1 = popcount(h & suit_mask(1))
    l2 = popcount(h & suit_mask(2))
    l3 = popcount(h & suit_mask(3))
    points = np.float64(high_card_points(hand) + max(l0 - 4, 0) + max(l1 - 4, 0) + max(l2 - 4, 0)
                        + max(l3 - 4, 0))
    short = (l0 <= 1) + (l1 <= 1) + (l2 <= 1) + (l3 <= 1)
    partner = (seat + 2) & 3
    partner_denomination = -1
    for i in range(ncalls):
        if calls[i] != PASS and _speaker(i, ncalls, seat) == partner:
            partner_denomination = call_denomination(calls[i])
            break
    if partner_denomination >= 0:
        points += params[P_PARTNER_BID_POINTS]
    else:
        points += params[P_PARTNER_POINTS]
    base = points / params[P_POINTS_PER_TRICK]
    t0 = _suit_tricks_v1(base, l0, partner_denomination == 0, short)
    t1 = _suit_tricks_v1(base, l1, partner_denomination == 1, short)
    t2 = _suit_tricks_v1(base, l2, partner_denomination == 2, short)
    t3 = _suit_tricks_v1(base, l3, partner_denomination == 3, short)
    t4 = base - 0.2 - (0.7 if short > 0 and partner_denomination != NT else 0.0)
    return (t0, t1, t2, t3, t4)


@jit(inline="always")
def _suit_tricks_v1(base, length, partner_bid_it, short):
    partner_cards = 5.0 if partner_bid_it else (13.0 - length) / 3.0
    fit = length + partner_cards
    t = base + 0.5 * (fit - 7.5)
    if fit >= 8.0:
        t += 0.5 * short
    return t


@jit
def heuristic_call_v1(params, hand, seat, calls, ncalls, current, current_bidder):
    """heuristic_v1's and greedy's bidding (the first default's, kept unchanged): bid the cheapest legal contract in the denomination with most expected tricks, as long as
    its level is within expected tricks − 6 + ``aggression``; otherwise pass.

    The undertrick penalty (500 × level a trick, docs/RULES.md §2.6) dwarfs a trick's value, so the
    level cap is the stopping rule.  Never overbids its own standing bid.
    """
    params, calls = borrowed(params), borrowed(calls)  # out of line: see heuristic_bid
    if current_bidder == seat or current >= MAX_CALL:
        return np.int64(PASS)
    # Nothing has been bid since this seat last passed: its view, hence its decision, is unchanged.
    if ncalls >= 4 and calls[ncalls - 1] == PASS and calls[ncalls - 2] == PASS and calls[ncalls - 3] == PASS \
            and calls[ncalls - 4] == PASS:
        return np.int64(PASS)
    tricks = estimated_tricks_v1(params, hand, seat, calls, ncalls)
    return _first_biddable(tricks, tricks, params[P_AGGRESSION], current)


# ------------------------------------------------------------------------------- card play
@jit(inline="always")
def _lowest_discard(hand, trump):
    """Lowest-ranked card outside trumps (the longest suit on equal rank), else lowest trump."""
    best = -1
    best_len = -1
    for s in range(4):
        if s == trump:
            continue
        cards = U64(hand) & suit_mask(s)
        if cards != U64(0):
            c = lowest_bit(cards)
            n = popcount(cards)
            if best < 0 or (c & 15) < (best & 15) or ((c & 15) == (best & 15) and n > best_len):
                best = c
                best_len = n
    if best < 0:
        return lowest_bit(hand)
    return best


@jit(inline="always")
def _longest_side_suit(hand, trump):
    """The suit other than ``trump`` (0..3, NT: any) that ``hand`` holds most cards of, the
    lowest-numbered one on equal length; −1 if ``hand`` holds only trumps."""
    best_suit = -1
    best_len = -1
    for s in range(4):
        n = popcount(U64(hand) & suit_mask(s))
        if n > 0 and s != trump and n > best_len:
            best_suit = s
            best_len = n
    return best_suit


@jit
def heuristic_lead_v1(hand, seat, declarer, trump, others):
    """heuristic_v1's lead of a trick: declarer draws trumps; cash a master card; else lead from the
    longest side suit, top of a touching honour sequence or low."""
    if trump < NT and seat == declarer:
        mine = U64(hand) & suit_mask(trump)
        theirs = U64(others) & suit_mask(trump)
        if mine != U64(0) and theirs != U64(0):
            top = highest_bit(mine)
            if top > highest_bit(theirs):
                return top
            return lowest_bit(mine)
    best = -1
    best_len = -1
    for s in range(4):
        mine = U64(hand) & suit_mask(s)
        if mine == U64(0) or (s == trump and seat != declarer):
            continue
        theirs = U64(others) & suit_mask(s)
        top = highest_bit(mine)
        if theirs == U64(0) or top > highest_bit(theirs):
            n = popcount(mine)
            if n > best_len:
                best = top
                best_len = n
    if best >= 0:
        return best
    best_suit = _longest_side_suit(hand, trump)
    if best_suit < 0:
        return highest_bit(hand)
    mine = U64(hand) & suit_mask(best_suit)
    top = highest_bit(mine)
    if (top & 15) >= TEN and (mine >> U64(top - 1)) & U64(1):
        return top
    return lowest_bit(mine)


@jit(inline="always")
def heuristic_card_v1(hand, seat, declarer, trump, leader, trick, n, played):
    """heuristic_v1's card play (the first default's), by the book: second hand low (but cover an honour), third hand high, fourth
    hand wins cheaply, never overtake a winning partner, ruff (or over-ruff) when void, discard
    the lowest side card.  ``played``: every card seen played so far (uint64)."""
    others = ~(U64(played) | U64(hand)) & U64(0xFFFFFFFFFFFFFFFF)
    others &= U64(0x1FFF1FFF1FFF1FFF)
    if n == 0:
        return heuristic_lead_v1(hand, seat, declarer, trump, others)
    led = trick[0] >> 4
    wi = trick_winner(trick, n, trump)
    w = trick[wi]
    partner_winning = ((leader + wi) & 3) == ((seat + 2) & 3)
    follow = U64(hand) & suit_mask(led)
    if follow != U64(0):
        beat = follow & bits_above(w) if (w >> 4) == led else U64(0)
        if partner_winning or beat == U64(0):
            return lowest_bit(follow)
        if n == 1:
            if (w & 15) >= JACK:
                return lowest_bit(beat)
            return lowest_bit(follow)
        if n == 3:
            return lowest_bit(beat)
        # Third hand: play the cheapest card that also beats every card still out in the suit,
        # else the highest.
        theirs = others & suit_mask(led)
        if theirs != U64(0):
            sure = beat & bits_above(highest_bit(theirs))
            if sure != U64(0):
                return lowest_bit(sure)
        return highest_bit(beat)
    if trump < NT and not partner_winning:
        trumps = U64(hand) & suit_mask(trump)
        if trumps != U64(0):
            if (w >> 4) != trump:
                return lowest_bit(trumps)
            over = trumps & bits_above(w)
            if over != U64(0):
                return lowest_bit(over)
    return _lowest_discard(hand, trump)


# ------------------------------------------------------- card play (heuristic, since heuristic_v2)
FULL_DECK = U64(0x1FFF1FFF1FFF1FFF)
"""All 52 Vint cards (13 ranks in each 16-bit suit lane)."""

PLAY_PARTNER_DRAWS = 1
"""Card-play rule flag (version 2 on): the declarer's partner with four trumps or more draws them."""
PLAY_NT_PARTNER_ENTRIES = 2
"""Card-play rule flag (version 3 on): at no-trump the declarer's partner, like the declarer, keeps a
master of a suit shorter than four cards (an entry) while an unseen card of the suit is out."""
PLAY_NT_PARTNER_RETURNS = 4
"""Card-play rule flag (version 3 on): at no-trump the declarer's partner returns a side suit the
declarer led (:func:`_return_suit`) before leading his own longest suit."""
PLAY_TRUMPS_LAST = 8
"""Card-play rule flag (version 4): the declarer cashes no master trump while no trump is unseen
(the trumps are sure tricks and the side's control; its side suits come first)."""
PLAY_HIGH_PARTNER_TRUMPS = 16
"""Card-play rule flag (version 4), contracts at level 4 and above: the declarer's partner with two
trumps or more leads one (his master, else his lowest) while five trumps or more are unseen."""
PLAY_HIGH_KEEP_LOW_TRUMPS = 32
"""Card-play rule flag (version 4), contracts at level 4 and above: the declarer leads no trump
below the master while two or fewer are unseen (they may be partner's, kept for ruffs)."""
PLAY_HIGH = PLAY_HIGH_PARTNER_TRUMPS | PLAY_HIGH_KEEP_LOW_TRUMPS
"""The rule flags that read the contract's level (:func:`with_level`)."""
PLAY_DISCARD_SHORT = 64
"""Card-play rule flag (card-play version 5, every level): the declaring side in a suit contract, holding a
trump, discards the lowest card of its shortest side suit whose top card is not a master, and
from the suit partner bid only when no other will do (:func:`_discard_short`): a void to ruff in."""
PLAY_SINGLETON_DISCARD = 128
"""Card-play rule flag (card-play version 5, every level): the declaring side third to play in a suit
contract, void in the led suit while partner wins the trick with a low card (one it would ruff,
:func:`heuristic_play`), discards instead when it holds a side singleton that is not a master
(:func:`_discard_short` then voids that suit): the trump stays for a ruff later."""
PLAY_SHOWN_OUT_THIRD = 256
"""Card-play rule flag (card-play version 6, every level): the declaring side third to play, following
suit, when the last hand has shown out of the suit: with partner winning, its lowest card, else the
cheapest card that beats the trick (:func:`heuristic_play`): the last hand can beat neither but by a
ruff, which no card of the suit prevents."""
PLAY_SHOWN_OUT_SECOND = 512
"""Card-play rule flag (card-play version 6, every level): the declaring side second to play, following
suit, when the opponent third to play has shown out of the suit: the cheapest card that beats the
trick, else its lowest (:func:`heuristic_play`): the unseen cards of the suit are partner's, so the
opponents can beat it only by a ruff."""
PLAY_NO_LONG_RUFF = 1024
"""Card-play rule flag (card-play version 7, every level): the declarer's partner leads no side suit the
declarer has shown out of for him to ruff (:func:`_ruff_suit` stays the declarer's lead for partner's
ruffs), nor, where another side suit will do, as his longest side suit: the declarer, who draws the
trumps, often holds the longer trumps, whose ruffs win few tricks they would not win anyway and shorten
the hand that must draw."""
PLAY_SAFE_WINNER = 2048
"""Card-play rule flag (card-play version 7, every level): the declaring side third to play, void in the
led suit while partner wins the trick, leaves partner's card (discards) when the last hand has shown out
of the suit and, in a suit contract, of trumps: nobody can beat it (:func:`heuristic_play`)."""
PLAY_NT_FINESSE = 4096
"""Card-play rule flag (card-play version 7, every level): at no-trump the declaring side third to play,
following partner's lead with a card that beats every unseen card of the suit and a lower one that beats
the trick, exactly one unseen card ranking between them (A-Q with the K unseen), plays the lower one (a
finesse: it wins whenever the second hand, who has played, holds the missing card) while four or more
cards of the suit are unseen (with fewer the missing card may fall under the master: the drop)."""
FINESSE_UNSEEN = 4
"""Unseen cards of the suit from which :data:`PLAY_NT_FINESSE` finesses (the paired measurement chose 4
over 5 and 6, and over finessing at any count)."""
PLAY_LEVEL_SHIFT = 32
"""The contract's level (1..7) sits in bits 32..35 of the rule flags of the declaring side's leads
(:func:`with_level`); 0 where it is not read."""
PLAY_FLAGS = (0, 0, PLAY_PARTNER_DRAWS, PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS,
              PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST | PLAY_HIGH,
              PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST | PLAY_HIGH
              | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD,
              PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST | PLAY_HIGH
              | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD | PLAY_SHOWN_OUT_THIRD | PLAY_SHOWN_OUT_SECOND,
              PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST | PLAY_HIGH
              | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD | PLAY_SHOWN_OUT_THIRD | PLAY_SHOWN_OUT_SECOND
              | PLAY_NO_LONG_RUFF | PLAY_SAFE_WINNER | PLAY_NT_FINESSE)
"""The rule flags of each card-play version (the ``play`` parameter, index 1..7): 1 heuristic_v2's
play, 2 the declarer's partner's trump draws (heuristic_v3 .. heuristic_v5), 3 the declarer's partner's
no-trump play (heuristic_v6), 4 the trump play (heuristic_v7, heuristic_v8), 5 the declaring side's discards
(heuristic_v9), 6 the declaring side's play when the opponent still to play has shown out of the suit
(heuristic_v10), 7 the declarer's partner's leads for no ruff in the long hand, the winner nobody can beat
and the no-trump finesse (heuristic's default)."""
PLAY_DEFAULT = np.int64(PLAY_FLAGS[7])
"""The rule flags of ``heuristic``'s default card play."""


@jit(inline="always")
def play_flags(version):
    """The rule flags (int64) of card-play version ``version`` (the ``play`` parameter, float64 1..7,
    :data:`PLAY_FLAGS`)."""
    if version >= 7:
        return np.int64(PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST
                        | PLAY_HIGH | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD | PLAY_SHOWN_OUT_THIRD
                        | PLAY_SHOWN_OUT_SECOND | PLAY_NO_LONG_RUFF | PLAY_SAFE_WINNER | PLAY_NT_FINESSE)
    if version >= 6:
        return np.int64(PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST
                        | PLAY_HIGH | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD | PLAY_SHOWN_OUT_THIRD
                        | PLAY_SHOWN_OUT_SECOND)
    if version >= 5:
        return np.int64(PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST
                        | PLAY_HIGH | PLAY_DISCARD_SHORT | PLAY_SINGLETON_DISCARD)
    if version >= 4:
        return np.int64(PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS | PLAY_TRUMPS_LAST
                        | PLAY_HIGH)
    if version >= 3:
        return np.int64(PLAY_PARTNER_DRAWS | PLAY_NT_PARTNER_ENTRIES | PLAY_NT_PARTNER_RETURNS)
    if version >= 2:
        return np.int64(PLAY_PARTNER_DRAWS)
    return np.int64(0)


@jit(inline="always")
def with_level(play, calls, ncalls):
    """``play`` (int64 rule flags) with the contract's level (1..7: the last bid of
    ``calls[:ncalls]``, int64, docs/RULES.md §2.2) in bits :data:`PLAY_LEVEL_SHIFT` and up, for the
    rules that read it (:data:`PLAY_HIGH`); ``play`` unchanged (no level rule fires) when
    ``calls[:ncalls]`` holds no bid."""
    # An auction ends with CLOSING_PASSES passes after its last bid (§2.2): one read, no scan.
    k = ncalls - 1 - CLOSING_PASSES
    if k >= 0 and calls[k] != PASS:
        return play | (call_level(calls[k]) << PLAY_LEVEL_SHIFT)
    for k in range(ncalls - 1, -1, -1):
        if calls[k] != PASS:
            return play | (call_level(calls[k]) << PLAY_LEVEL_SHIFT)
    return play


@jit(inline="always")
def _cheapest_equal(hand, card, played):
    """The lowest card of ``hand`` that is worth as much as ``card``: every rank between them is
    in ``hand`` or already played (e.g. Q from K-Q, J from K-J once the Q has gone)."""
    below = suit_mask(card >> 4) & ((U64(1) << U64(card)) - U64(1))
    gaps = below & ~(U64(hand) | U64(played))
    if gaps != U64(0):
        below &= ~((U64(2) << U64(highest_bit(gaps))) - U64(1))
    equal = U64(hand) & below
    if equal == U64(0):
        return card
    return lowest_bit(equal)


@jit(inline="always")
def _is_master(card, others):
    """``card`` outranks every unseen card of its suit (``others``: cards not seen, uint64)."""
    return (U64(others) & bits_above(card)) == U64(0)


@jit(inline="always")
def _suit_lead(mine, played):
    """The card to lead from ``mine`` (one suit, non-empty): top of a touching honour sequence
    (its cheapest equal card), the top of a doubleton, else the lowest."""
    top = highest_bit(mine)
    if popcount(mine) <= 2:
        return _cheapest_equal(mine, top, played)
    if (top & 15) >= TEN and (U64(mine) >> U64(top - 1)) & U64(1):
        return _cheapest_equal(mine, top, played)
    return lowest_bit(mine)


@jit(inline="always")
def _defender_suit(hand, trump, others, avoid):
    """Suit a defender leads with no master to cash and no partner's suit: the longest side suit
    that is not led away from a tenace (A-Q, K-J, or an unsupported K), with a bonus for a
    touching honour sequence and a penalty for the opponents' suits (bits of ``avoid``)."""
    best = -1
    best_score = -1000
    for s in range(4):
        mine = U64(hand) & suit_mask(s)
        if mine == U64(0) or s == trump:
            continue
        n = popcount(mine)
        lane = mine >> U64(16 * s)
        score = 2 * n
        top = highest_bit(mine) & 15
        if top >= TEN and (lane >> U64(top - 1)) & U64(1):
            score += 4
        elif n >= 2:
            a, k, q, j = (lane >> U64(12)) & U64(1), (lane >> U64(11)) & U64(1), (lane >> U64(10)) & U64(1), \
                (lane >> U64(9)) & U64(1)
            if (a and q and not k) or (k and j and not q and not a) or (k and not q and not a):
                score -= 5
        if (avoid >> s) & 1:
            score -= 6
        if score > best_score:
            best = s
            best_score = score
    return best


@jit(inline="always")
def _ruff_suit(hand, seat, declarer, trump, voids):
    """A side suit of ``hand`` that partner has shown out of (and not of trumps) while neither
    opponent has, for partner to ruff (docs/RULES.md §2.3); −1 if none.  ``voids``: bit
    4·seat + suit per suit a seat did not follow."""
    partner = (seat + 2) & 3
    if (voids >> (4 * partner + trump)) & 1:
        return -1
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    for s in range(4):
        if s == trump or (U64(hand) & suit_mask(s)) == U64(0):
            continue
        if (voids >> (4 * partner + s)) & 1 and not ((voids >> (4 * lho + s)) & 1) \
                and not ((voids >> (4 * rho + s)) & 1):
            return s
    return -1


@jit(inline="always")
def _return_suit(hand, seat, declarer, trump, voids):
    """A side suit to return (−1 if none): one partner has led (``voids`` bit LED_SHIFT + 4·partner +
    suit), else, for the declarer, one he led himself; ``hand`` holds it and neither the leader
    nor an opponent of ``seat`` has shown out of it (bits 4·seat + suit); of several, the one
    ``hand`` is shortest in (the leader's length).  The declarer's partner does not return the
    declarer's suit (it gained nothing, docs/notes/strategy-quality-journal.md)."""
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    for k in range(2):
        who = (seat + 2) & 3 if k == 0 else seat
        best = -1
        best_len = 99
        for s in range(4):
            if s == trump or not ((voids >> (LED_SHIFT + 4 * who + s)) & 1):
                continue
            if (voids >> (4 * who + s)) & 1 or (voids >> (4 * lho + s)) & 1 or (voids >> (4 * rho + s)) & 1:
                continue
            n = popcount(U64(hand) & suit_mask(s))
            if 0 < n < best_len:
                best = s
                best_len = n
        if best >= 0 or seat != declarer:
            return best
    return -1


@jit(inline="always")
def heuristic_lead(hand, seat, declarer, trump, others, played, bid_suits, voids, play):
    """Lead to a trick (docs/RULES.md §2.3): the declarer draws trumps (master, else top of a
    sequence, else low), and so does his partner holding four trumps or more (master, else low)
    while an opponent may hold one; anyone leads his partner's
    bid side suit; then cash a master card (a defender from his longest suit, the declaring side
    from its shortest; at no-trump only from four cards or more while an unseen card of the
    suit is out: a short ace is an entry; the declarer's partner cashes any master, and before
    the declarer's bid suit); then the declarer and the defenders return a side
    suit partner led, and the declarer continues one he led himself (:func:`_return_suit`);
    else a defender leads the best side suit
    (:func:`_defender_suit`), the declarer's partner holding trumps a singleton side suit, and
    the declaring side its longest side suit.  Top of a sequence, top of a doubleton, or low
    (:func:`_suit_lead`); of equal cards the cheapest.  ``voids`` (int64): bit 4·seat + suit
    per suit a seat did not follow, bit LED_SHIFT + 4·seat + suit per suit a seat led.
    ``play`` (int64): the card play's rule flags (:data:`PLAY_PARTNER_DRAWS` …, :func:`play_flags`;
    with the contract's level in bits :data:`PLAY_LEVEL_SHIFT` and up, :func:`with_level`); 0 plays
    ``heuristic_v2``'s leads.  Version 4 (since heuristic_v7): the declarer cashes no trump while none is
    unseen (:data:`PLAY_TRUMPS_LAST`); at level 4 and above the declarer's partner with two trumps
    or more leads one while five or more are unseen, before his masters, and the declarer leads no
    trump below the master while two or fewer are unseen (:data:`PLAY_HIGH`).  Version 7: the
    declarer's partner leads no suit the declarer has shown out of for him to ruff, nor as his
    longest side suit while another side suit will do (:data:`PLAY_NO_LONG_RUFF`)."""
    # The bid suits the lead reads go out of line as numbers, not as the array: an array
    # argument is seven words passed on the stack at each of a deal's 13 leads.
    return lead_with_bid_suits(hand, seat, declarer, trump, others, played, bid_suits[(seat + 2) & 3],
                               bid_suits[declarer], bid_suits[(declarer + 2) & 3], voids, play)


@jit
def lead_with_bid_suits(hand, seat, declarer, trump, others, played, partner_suit, declarer_suit,
                        declarers_partner_suit, voids, play):
    """:func:`heuristic_lead` (out of line: one compiled copy) with the first suits bid by the
    seat's partner, the declarer and the declarer's partner (int64 0..3, −1: none) in place of
    ``bid_suits``; returns the card led (int64, a card index) (docs/RULES.md §2.3)."""
    defending = (seat & 1) != (declarer & 1)
    # Version 7: a ruff in the declarer's hand (often the longer trumps) rarely wins an extra trick.
    if trump < NT and not defending and not ((play & PLAY_NO_LONG_RUFF) and seat != declarer):
        s = _ruff_suit(hand, seat, declarer, trump, voids)
        if s >= 0:
            return lowest_bit(U64(hand) & suit_mask(s))
    # Both opponents out of trumps: the unseen ones are partner's, kept for ruffs.
    opponents_out = (voids >> (4 * ((declarer + 1) & 3) + trump)) & (voids >> (4 * ((declarer + 3) & 3) + trump)) & 1
    # Version 4: in a contract at level 4 and above (bits of ``play`` set by with_level).
    high = (play & PLAY_HIGH) != 0 and ((play >> PLAY_LEVEL_SHIFT) & 15) >= 4 and trump < NT and not defending
    if trump < NT and seat == declarer and not opponents_out:
        mine = U64(hand) & suit_mask(trump)
        unseen = popcount(U64(others) & suit_mask(trump))
        if mine != U64(0) and unseen != 0:
            top = highest_bit(mine)
            if _is_master(top, others):
                return _cheapest_equal(hand, top, played)
            # The last one or two unseen trumps may well be partner's, worth more as ruffs.
            if popcount(mine) >= 3 and not (high and (play & PLAY_HIGH_KEEP_LOW_TRUMPS) and unseen <= 2):
                return _suit_lead(mine, played)
    # The declarer's partner with four trumps or more helps draw them while an opponent may hold
    # one, before cashing side winners that trump could ruff (version 2 on, docs/notes/strategy-quality-journal.md
    # "Vint: high contracts"): his master, else his lowest.
    if (play & PLAY_PARTNER_DRAWS) and trump < NT and not defending and seat != declarer and not opponents_out:
        mine = U64(hand) & suit_mask(trump)
        if popcount(mine) >= 4 and (U64(others) & suit_mask(trump)) != U64(0):
            top = highest_bit(mine)
            if _is_master(top, others):
                return _cheapest_equal(hand, top, played)
            return lowest_bit(mine)
    # The declarer's partner is rarely on lead: he cashes his masters before the declarer's bid
    # suit, and at no-trump keeps no short master as an entry (docs/notes/strategy-quality-journal.md, seventh step).
    declarers_partner = not defending and seat != declarer
    # High contracts (version 4): the partner helps draw trumps early, from two cards up, before his
    # side masters can be ruffed (found with double-dummy as oracle, docs/strategy-quality.md).
    if high and declarers_partner and (play & PLAY_HIGH_PARTNER_TRUMPS) and not opponents_out:
        mine = U64(hand) & suit_mask(trump)
        if popcount(mine) >= 2 and popcount(U64(others) & suit_mask(trump)) >= 5:
            top = highest_bit(mine)
            if _is_master(top, others):
                return _cheapest_equal(hand, top, played)
            return lowest_bit(mine)
    best = -1
    best_len = -1
    for s in range(4):
        mine = U64(hand) & suit_mask(s)
        if mine == U64(0) or (s == trump and (seat != declarer or opponents_out)):
            continue
        # No trump unseen: the declarer's trumps win whenever played; kept, they stop the side suits.
        if s == trump and (play & PLAY_TRUMPS_LAST) and (U64(others) & suit_mask(trump)) == U64(0):
            continue
        top = highest_bit(mine)
        if _is_master(top, others):
            n = popcount(mine)
            if trump == NT and n < 4 and (U64(others) & suit_mask(s)) != U64(0) and \
                    (not declarers_partner or (play & PLAY_NT_PARTNER_ENTRIES)):
                continue
            # The declaring side cashes its short suits' masters first: a long suit's master
            # keeps control of the suit its side may hold the length of.
            key = n if defending else 16 - n
            if key > best_len:
                best = top
                best_len = key
    if best >= 0 and declarers_partner:
        return _cheapest_equal(hand, best, played)
    ps = partner_suit
    if ps >= 0 and ps != trump:
        mine = U64(hand) & suit_mask(ps)
        if mine != U64(0):
            top = highest_bit(mine)
            if _is_master(top, others):
                return _cheapest_equal(hand, top, played)
            return _suit_lead(mine, played)
    if best >= 0:
        return _cheapest_equal(hand, best, played)
    # Partner led from his length (or his honours): return it.  Its masters were cashed above
    # unless kept as entries at no-trump, so no master is cashed here.
    best_suit = -1
    # At no-trump the declarer's partner helps set up the suit the declarer led (version 3 on).
    if defending or seat == declarer or ((play & PLAY_NT_PARTNER_RETURNS) and trump == NT):
        best_suit = _return_suit(hand, seat, declarer, trump, voids)
    if best_suit < 0 and defending:
        avoid = 0
        ds = declarer_suit
        if ds >= 0:
            avoid |= 1 << ds
        ds = declarers_partner_suit
        if ds >= 0:
            avoid |= 1 << ds
        best_suit = _defender_suit(hand, trump, others, avoid)
        if best_suit < 0:
            return lowest_bit(hand)
    if best_suit < 0:
        # The declarer's partner (the short trump hand) leads a singleton to ruff it later.
        if trump < NT and seat != declarer and (U64(hand) & suit_mask(trump)) != U64(0):
            for s in range(4):
                if s != trump and popcount(U64(hand) & suit_mask(s)) == 1:
                    return lowest_bit(U64(hand) & suit_mask(s))
        best_suit = _longest_side_suit(hand, trump)
        # Version 7: nor, given a choice, as his longest side suit.
        if (play & PLAY_NO_LONG_RUFF) and trump < NT and seat != declarer and best_suit >= 0 and \
                (voids >> (4 * declarer + best_suit)) & 1:
            best_len = 0
            for s in range(4):
                k = popcount(U64(hand) & suit_mask(s))
                if s != trump and k > best_len and not ((voids >> (4 * declarer + s)) & 1):
                    best_suit = s
                    best_len = k
        if best_suit < 0:
            return lowest_bit(hand)
    # One call site: every inlined copy of _suit_lead costs compile time.
    return _suit_lead(U64(hand) & suit_mask(best_suit), played)


@jit(inline="always")
def _discard(hand, trump, others):
    """Discard when void and not ruffing: the lowest card of a side suit whose lowest card is not
    a winner, shorter suits first on equal rank (keeps length where long cards may win), else
    the lowest side card, else the lowest trump."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cards = U64(hand) & suit_mask(s)
        if cards == U64(0):
            continue
        c = lowest_bit(cards)
        key = (c & 15) * 16 + popcount(cards)
        if _is_master(c, others):
            key += 1 << 20
        if key < best_key:
            best = c
            best_key = key
    if best < 0:
        return lowest_bit(hand)
    return best


@jit(inline="always")
def heuristic_card(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids):
    """Card play by the book (docs/RULES.md §2.3): second hand low (but cover an honour; the
    declaring side only with a master, and in a suit contract it takes with any master it holds),
    third hand high unless partner's card is a sure winner or an honour (J or higher) he led that
    holds the trick, fourth hand wins cheaply, never overtake or ruff a partner's sure winner
    (third hand in defence ruffs no card partner is winning with, the declaring side no honour),
    ruff (or over-ruff) when void, discard from worthless suits; of equal cards always the
    cheapest (card-play version 5: the declaring side in a suit contract, holding a
    trump, discards from its shortest side suit, :func:`_discard_short`, and third to play, void
    while partner wins with a low card, discards a side singleton rather than ruff,
    :data:`PLAY_SINGLETON_DISCARD`; version 6: the declaring side second or third to
    play, when the opponent still to play has shown out of the suit, wins as cheaply as it can, and
    third hand leaves partner's winning card, :data:`PLAY_SHOWN_OUT_THIRD`,
    :data:`PLAY_SHOWN_OUT_SECOND`; version 7, the default: third to play and void, it leaves
    partner's winning card when the last hand can neither follow nor ruff, :data:`PLAY_SAFE_WINNER`,
    and at no-trump third hand finesses while four or more cards of the suit are unseen,
    :data:`PLAY_NT_FINESSE`).  ``played``: every card
    seen played so far (uint64); ``bid_suits``: int64[4], the
    first suit (0..3) each seat bid in the auction, −1 for none; ``voids`` (int64): bit
    4·seat + suit per suit a seat has not followed, bit LED_SHIFT + 4·seat + suit per suit a seat
    has led (:func:`.engine.play_tricks`)."""
    return heuristic_play(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids, PLAY_DEFAULT,
                          trick_winner(trick, n, trump))


@jit(inline="always")
def heuristic_card_v3(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids):
    """The card play of heuristic_v3, heuristic_v4 and heuristic_v5 (``play`` 2, the default until
    heuristic_v6): :func:`heuristic_card` without version 3's no-trump rules for the declarer's partner.
    Same view as :func:`heuristic_card`."""
    return heuristic_play(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids,
                          np.int64(PLAY_PARTNER_DRAWS), trick_winner(trick, n, trump))


@jit(inline="always")
def heuristic_card_v2(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids):
    """heuristic_v2's card play (the default until heuristic_v3): :func:`heuristic_card` without the
    declarer's partner's trump leads (docs/notes/strategy-quality-journal.md, "Vint: high contracts").
    Same view as :func:`heuristic_card`."""
    return heuristic_play(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids, np.int64(0),
                          trick_winner(trick, n, trump))


@jit(inline="always")
def heuristic_play(hand, seat, declarer, trump, leader, trick, n, played, bid_suits, voids, play, winner):
    """:func:`heuristic_card`'s play, ``play`` (int64 rule flags) as in :func:`heuristic_lead`:
    0 plays :func:`heuristic_card_v2`; ``winner`` (int64): the index in ``trick[:n]`` of the
    card winning so far (:func:`.rules.trick_winner`; the engine keeps it card by card, which is faster),
    read only when following."""
    others = ~(U64(played) | U64(hand)) & FULL_DECK
    if n == 0:
        return heuristic_lead(hand, seat, declarer, trump, others, played, bid_suits, voids, play)
    led = trick[0] >> 4
    wi = winner
    w = trick[wi]
    partner_winning = ((leader + wi) & 3) == ((seat + 2) & 3)
    defending = (seat & 1) != (declarer & 1)
    # Partner's card is sure when it is the last card (fourth hand) or the master of its suit;
    # a ruff by the last hand is possible but unseen voids cannot be known.
    partner_sure = partner_winning and (n == 3 or _is_master(w, others))
    # Card-play version 7: the last hand has shown out of the suit and cannot ruff either.
    if (play & PLAY_SAFE_WINNER) and partner_winning and n == 2 and not defending and \
            (voids >> (4 * ((seat + 1) & 3) + led)) & 1 and \
            (trump == NT or (voids >> (4 * ((seat + 1) & 3) + trump)) & 1):
        partner_sure = True
    follow = U64(hand) & suit_mask(led)
    if follow != U64(0):
        beat = follow & bits_above(w) if (w >> 4) == led else U64(0)
        if partner_sure or beat == U64(0):
            return lowest_bit(follow)
        # Card-play version 6: the opponent still to play has shown out of the suit, so the trick's
        # cards of the suit are all that count against it (it can only ruff or discard).
        if (play & (PLAY_SHOWN_OUT_THIRD | PLAY_SHOWN_OUT_SECOND)) and not defending and \
                (voids >> (4 * ((seat + 1) & 3) + led)) & 1:
            if n == 2 and (play & PLAY_SHOWN_OUT_THIRD):
                if partner_winning:
                    return lowest_bit(follow)
                return lowest_bit(beat)
            if n == 1 and (play & PLAY_SHOWN_OUT_SECOND):
                return lowest_bit(beat)
        # The cards that beat the trick and every unseen card of the suit.
        theirs = others & suit_mask(led)
        sure = beat & bits_above(highest_bit(theirs)) if theirs != U64(0) else beat
        if n == 1:
            # The declaring side in a suit contract takes a master second hand: ducked, it may be
            # ruffed later, and nobody sees partner's hand to know who else can win the suit.
            if not defending and trump < NT and sure != U64(0):
                return lowest_bit(sure)
            # Cover an honour; the declaring side only with a sure winner (its honours are
            # worth more kept over the unseen ones).
            if (w & 15) >= JACK and (defending or _is_master(lowest_bit(beat), others)):
                return lowest_bit(beat)
            return lowest_bit(follow)
        if n == 3:
            return lowest_bit(beat)
        # Partner led an honour that holds the trick: likely the top of a sequence, so third hand
        # keeps his own high cards (no partner sees the other's hand in Vint).
        if partner_winning and wi == 0 and (w & 15) >= JACK:
            return lowest_bit(follow)
        # Card-play version 7: the finesse gives up no trick when the fourth hand holds the missing
        # card (the master still wins later) and gains one when the second hand does.
        if (play & PLAY_NT_FINESSE) and trump == NT and not defending and sure != U64(0) and \
                popcount(theirs) >= FINESSE_UNSEEN:
            top = lowest_bit(sure)
            under = beat & ~sure
            if under != U64(0):
                f = highest_bit(under)
                if popcount(theirs & bits_above(f) & ~bits_above(top)) == 1:
                    return _cheapest_equal(hand, f, played)
        # Third hand high: the cheapest card that beats every unseen card of the suit, else the
        # highest (its cheapest equal).
        if theirs != U64(0):
            if sure != U64(0):
                return lowest_bit(sure)
        elif partner_winning:
            return lowest_bit(follow)
        return _cheapest_equal(hand, highest_bit(beat), played)
    # Void: partner's sure winner is not ruffed, nor, third hand, one he is winning with for now:
    # the defence leaves any such card, the declaring side an honour (J or higher); measured side
    # by side, docs/notes/strategy-quality-journal.md (seventh step).
    leave = partner_sure or (n == 2 and partner_winning and (defending or (w & 15) >= JACK))
    # Card-play version 5: partner may well hold the trick; a void made now is a ruff later.
    if (play & PLAY_SINGLETON_DISCARD) and not leave and not defending and n == 2 and partner_winning and trump < NT:
        for s in range(4):
            single = U64(hand) & suit_mask(s)
            if s != trump and popcount(single) == 1 and not _is_master(highest_bit(single), others):
                leave = True
    if trump < NT and not leave:
        trumps = U64(hand) & suit_mask(trump)
        if trumps != U64(0):
            if (w >> 4) != trump:
                return lowest_bit(trumps)
            if not partner_winning:
                over = trumps & bits_above(w)
                if over != U64(0):
                    return lowest_bit(over)
    # Card-play version 5: a void made now is a ruff later; partner's suit is his length.
    if (play & PLAY_DISCARD_SHORT) and not defending and trump < NT and (U64(hand) & suit_mask(trump)) != U64(0):
        return _discard_short(hand, trump, others, bid_suits[(seat + 2) & 3])
    return _discard(hand, trump, others)


@jit(inline="always")
def _discard_short(hand, trump, others, keep):
    """The declaring side's discard in a suit contract while it holds a trump (card-play version 5,
    :data:`PLAY_DISCARD_SHORT`): the lowest card of its shortest side suit, a suit whose top card
    is a master (``others``: the unseen cards, uint64) only when every suit has one, the suit
    ``keep`` (partner's first bid suit, −1: none) only before those; of equal length the lowest
    card.  ``hand`` holds a side card or a trump; with no side card, its lowest card."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        if s == trump:
            continue
        cards = U64(hand) & suit_mask(s)
        if cards == U64(0):
            continue
        c = lowest_bit(cards)
        key = popcount(cards) * 16 + (c & 15)
        if s == keep:
            key += 1 << 10
        if _is_master(highest_bit(cards), others):
            key += 1 << 20
        if key < best_key:
            best = c
            best_key = key
    if best < 0:
        return lowest_bit(hand)
    return best


@jit(inline="always")
def random_card(rng, hand, trick, n):
    """A uniformly random legal card (``rng``: the seat's stream, uint64[1])."""
    led = -1 if n == 0 else trick[0] >> 4
    return choose_bit(rng, legal_plays(hand, led))


@jit(inline="always")
def greedy_card(hand, trump, trick, n):
    """The cheapest legal card that beats the trick so far, else the lowest legal card."""
    led = -1 if n == 0 else trick[0] >> 4
    legal = legal_plays(hand, led)
    if n == 0:
        return lowest_bit(legal)
    w = trick[trick_winner(trick, n, trump)]
    winners = legal & bits_above(w)
    if (w >> 4) != trump and trump < NT and (legal & suit_mask(led)) == U64(0):
        winners |= legal & suit_mask(trump)
    if winners != U64(0):
        return lowest_bit(winners)
    return lowest_bit(legal)
