"""501 strategies: the registry and each strategy's jitted decision functions (DESIGN.md §3-4).

A strategy sees only its seat's view: its own hand (once it has looked), the auction so far
(who bid blind is public), its position, every seat's score (public), the exposed talon, the
cards played so far, what it won.  Each strategy is one jitted function per decision
(``random_blind``, ``heuristic_play`` …) reading its parameters (the float64[N_PARAMS] row of
its seat) through the ``P_*`` constants below; :mod:`cardsim.games.g501.dispatch` picks the
function by strategy id (the integers ``RANDOM`` … ``PIMC``).  The ``chart`` strategy also reads the row's table block
(``registry.TABLE_START``: one blind level per cell of the decision chart, set by its ``cells``
text).

Adding a strategy: an id, its functions here, a ``REGISTRY.add`` line, a branch in each
dispatch function.  Decision codes: ``LOOK`` (-1) / pass (0) / bid (> 0) in the auction; a card index,
plus ``DECLARE_FLAG`` to declare a marriage on a lead, in play; the contract's ``out`` layout
is in :func:`cardsim.games.g501.dispatch.choose_contract`.
"""
from __future__ import annotations

import numpy as np

from cardsim._jit import borrowed, jit
from cardsim.cards import highest_bit, lowest_bit, popcount
from cardsim.games.g501.constants import (
    DECK_MASK, DECLARE_FLAG, LOOK, MAX_BID, MIN_BID, NT, RA, RANK_POINTS, RK, RQ, RT, SEEN_VOIDS,
)
from cardsim.games.g501.rules import beats, can_declare, hand_points, marriage_suits, trick_winner
from cardsim.rng import choose_bit, randbelow, uniform
from cardsim.strategies.pimc import register as register_pimc
from cardsim.strategies.registry import TABLE_START, Registry, Table
from cardsim.suit_order import IDENTITY, card_from_label, cards_to_label, from_label

U64 = np.uint64

REGISTRY = Registry("501")
RANDOM, HEURISTIC, HEURISTIC_V1, CHART, PIMC, HEURISTIC_V2 = 0, 1, 2, 3, 4, 5
"""The strategy ids (``Strategy.id``), which the dispatch branches on (``RULES`` = 6 and
``HEURISTIC_V5`` = 7, ``HEURISTIC_V7`` = 8, ``HEURISTIC_V8`` = 9, ``HEURISTIC_V9`` = 10 below)."""
REGISTRY.add(
    "random", RANDOM,
    {"p_pass": 0.5, "max_raise": 10.0, "p_blind": 0.2, "p_abandon": 0.1, "p_declare": 0.5},
    "Random legal baseline: pass with p_pass else raise by 1..max_raise; blind with p_blind; "
    "abandon with p_abandon; random trump/target/gifts; uniform legal cards.",
    {"p_pass": "probability of passing at each call (0..1)",
     "max_raise": "a bid raises the current bid by 1..max_raise card points, uniformly",
     "p_blind": "probability of bidding blind while not yet looked (0..1)",
     "p_abandon": "probability of abandoning after the talon (0..1)",
     "p_declare": "probability of declaring a marriage when able (0..1)"},
    {"p_pass": (0, 1), "max_raise": (1, 154), "p_blind": (0, 1), "p_abandon": (0, 1), "p_declare": (0, 1)},
    {"max_raise": "int"},
)
_HEURISTIC_PARAMS = (
    {"margin": 0.0, "abandon": 10.0, "target_margin": 12.0, "blind_level": 72.0, "blind_pos": -1.0,
     "blind_score": 501.0, "blind_cur": 70.0, "blind_prob": 0.15, "contest": 0.0, "press": 0.0,
     "press_score": 0.0, "blind_later": 1.0},
    "Estimates its deal points and bids up to estimate - margin (+ contest once another seat has bid "
    "blind in the deal, + press while its closest rival's score is <= press_score); abandons when the "
    "estimate with the talon is below bid - abandon; target = max(bid, estimate - target_margin); blind "
    "policy: with probability blind_prob, when in auction position blind_pos (-1 any; 0 first speaker), "
    "score <= blind_score and current bid <= blind_cur, bid blind (minimum raise) up to blind_level; "
    "after the first speaker the probability is blind_prob x blind_later.",
    {"margin": "card points kept in hand: bids while the next bid <= estimated deal points - margin",
     "abandon": "abandons when the estimate with the talon is below the bid by more than this (card points)",
     "target_margin": "target = max(bid, estimated deal points - target_margin) (card points)",
     "blind_level": "highest bid it makes blind (deal points, docs/RULES.md §1.3)",
     "blind_pos": "auction position in which it may bid blind (0 = first speaker, 1, 2; -1 = any)",
     "blind_score": "bids blind only while its own score is <= this (501 = always)",
     "blind_cur": "bids blind only while the current bid is <= this (before any bid counts as 0)",
     "blind_prob": "probability of taking a blind chance when all the gates above hold (0..1)",
     "blind_later": "the blind probability in auction positions after the first speaker, as a share of "
                    "blind_prob (0..1; 1 = the same, 0 = only the first speaker bids blind): a mixture "
                    "between blind_pos -1 and 0, whose best responses cycle (docs/tune.md)",
     "contest": "card points added to its bidding limit (estimate - margin) once another seat has bid blind in "
                "this deal, whether or not that seat has looked since (contests a blind bid; 0 = as if none)",
     "press": "card points added to its bidding limit while its closest rival's score is <= press_score (plays "
              "the score); added to contest when both hold",
     "press_score": "score points: press applies while the lowest score of the other seats of the table (the "
                    "closest rival, 501 counts down; at 4 seats the dealer sitting out counts) is <= this; "
                    "0 = never in a game in play"},
    {"margin": (-220, 220), "abandon": (-220, 220), "target_margin": (-220, 220), "blind_level": (0, 10000),
     "blind_pos": (-1, 2), "blind_score": (-100000, 100000), "blind_cur": (0, 10000), "blind_prob": (0, 1),
     "contest": (-220, 220), "press": (-220, 220), "press_score": (-100000, 100000),
     "blind_later": (0, 1)},
    {"blind_level": "int", "blind_pos": "int", "blind_score": "int", "blind_cur": "int", "press_score": "int"},
)
TUNABLES = {"margin": (-60, 60, 5), "abandon": (-40, 60, 5), "target_margin": (-20, 60, 4),
            "blind_level": (0, 150, 1), "blind_pos": (-1, 2, 1), "blind_score": (-500, 501, 50),
            "blind_cur": (0, 150, 10), "blind_prob": (0, 1, 0.05), "contest": (-40, 60, 5), "press": (-40, 60, 5),
            "press_score": (0, 501, 50), "blind_later": (0, 1, 0.1)}
"""The bidding parameters ``cardsim exploit`` / ``cardsim tune`` move: name -> (lowest,
highest, step a player would notice), declared for heuristic and every strategy that bids like it."""
# The default players' parameters: an empirical equilibrium of the heuristic family over whole games
# (docs/tune.md, "501").  Coordinate best response from heuristic_v3 (one seat deviating one
# step each way at every position of 3- and 4-seat tables, 20,000 games a table, paired) took
# target_margin 12 -> 28, margin 0 -> -5, abandon 10 -> 15 and blind_prob up a step a sweep to 1; there
# the blind decision is a war of the last word: with every seat bidding blind up to a level L, one seat
# going to L + 1 gains 5.0 pp at L = 82, 3.3 at 84, 1.2 at 86 and loses at 87 and 88 (-0.4, -1.7), while
# stopping lower loses (blind_level scan, 20,000 games a table): L = 87.  With heuristic_v7's declarer play
# (who gains more from a blind contract) the war moved up: at L = 88 going to 89 gains +0.60 pp,
# at L = 90 stopping at 88 or 89 gains +0.84/+0.76, and at L = 89 every step of 1 or 2 either way loses
# (-0.14 to -0.70 pp, ±0.11): L = 89; there `abandon` 20 gains a little (+0.08 pp at 40,000 games a table),
# and at 20 neither 15 nor 25 gains (-0.07, -0.01 pp ± 0.01): abandon 20.  With the defenders' trump leads
# (the default's card play after heuristic_v7: a stronger defence takes from a blind contract) it moved back down: at
# 89 stopping at 88 gains +2.42 pp, at 88 stopping at 87 +1.05, at 86 going to 87 +0.94, and at 87 every
# step of 1 or 2 either way loses (-0.62 to -1.21 pp, ±0.11): L = 87.  With the declarer's last-hand winner
# that keeps his marriage (the default's play after heuristic_v8) it moved up again: at 88 going to 89 gains
# +0.40 pp (±0.11), to 90 +0.34; at 89 stopping at 88 gains +0.12 (±0.11, not clear) and 87, 90, 91 lose
# (-0.59, -0.61, -0.63): L = 89.  There `cardsim exploit 501 -n 40000` found target_margin 24 a clear gain
# (+0.29 pp [+0.22, +0.36]); at 24 neither 20 nor 28 gains (+0.04 ± 0.04, -0.24 ± 0.03 pp) nor blind 88 or 90
# (+0.01 ± 0.11, -0.53 ± 0.11; 20,000 games a table, seed 924): target_margin 24.  Beside it the gate on later
# auction positions (blind_pos -1 <-> 0) cycled as a pure choice; blind_later mixes it: a seat gains
# by moving it up against a population at 0.7 or 0.85 (+0.53, +0.80 pp a step of 0.1) and down against
# one at 1 (+0.46 pp): 0.95.  With every seat bidding blind, contest and margin act alike (+0.39 pp for
# either at contest 5): contest 0.  `cardsim exploit 501` here (40,000 games a table): within
# tolerance, no deviation gains (every upper end at most +0.05 pp; blind_level 88 -0.20 [-0.44, +0.05]).
# With the fourth card-play rules (the declarer's master before his marriage, the defenders' master trump) the
# values stay: at 89 no step gains (88 -0.01, 87 -0.90, 90 -0.45, 91 -0.51 pp, +-0.11; seed 789), and
# `cardsim exploit 501 -n 10000` is not decided (largest blind_level 88 +0.15 pp [-0.34, +0.65]).
HEURISTIC_DEFAULTS = {"margin": -5.0, "abandon": 20.0, "target_margin": 24.0, "blind_level": 89.0, "blind_pos": -1.0, "blind_score": 501.0, "blind_cur": 90.0, "blind_prob": 1.0, "contest": 0.0, "press": 0.0, "press_score": 0.0, "blind_later": 0.95}
REGISTRY.add("heuristic", HEURISTIC, dict(_HEURISTIC_PARAMS[0], **HEURISTIC_DEFAULTS),
             _HEURISTIC_PARAMS[1] + " Its default parameters are an empirical equilibrium of them (docs/tune.md): "
             "it bids blind whenever the gates allow, up to 89, after the first speaker with probability 0.95. "
             "Its card play is heuristic_v9's with the declarer's master of a marriage's suit cashed before he "
             "declares it and the defenders' master trump led first (docs/strategy-quality.md, \"How heuristic plays\").",
             *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
HEURISTIC_V9 = 10
"""heuristic_v9's id: heuristic's bidding and talon with the card play before the fourth card-play rules (PLAY_RULES_V9)."""
# heuristic_v9's values are frozen here (the default's when the fourth card-play rules came), as heuristic_v8's.
HEURISTIC_V9_PARAMS = {"margin": -5.0, "abandon": 20.0, "target_margin": 24.0, "blind_level": 89.0, "blind_pos": -1.0,
                       "blind_score": 501.0, "blind_cur": 90.0, "blind_prob": 1.0, "contest": 0.0, "press": 0.0,
                       "press_score": 0.0, "blind_later": 0.95}
REGISTRY.add("heuristic_v9", HEURISTIC_V9, dict(_HEURISTIC_PARAMS[0], **HEURISTIC_V9_PARAMS),
             "The default until the fourth card-play rules found with pimc, kept so that old results stay reproducible: "
             "heuristic's parameters then (blind up to 89, abandon 20, target_margin 24), bidding, blind bids and talon, "
             "with the first three card-play rounds found with pimc (heuristic_v8's, and the declarer's last-hand winner "
             "that keeps his marriage).", *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
HEURISTIC_V8 = 9
"""heuristic_v8's id: heuristic's bidding and talon with the card play before the declarer's marriage-keeping last-hand winner (PLAY_RULES_V8)."""
# heuristic_v8's values are frozen here (the default's when the declarer's last-hand rule came), as heuristic_v7's.
HEURISTIC_V8_PARAMS = {"margin": -5.0, "abandon": 20.0, "target_margin": 28.0, "blind_level": 87.0, "blind_pos": -1.0,
                       "blind_score": 501.0, "blind_cur": 90.0, "blind_prob": 1.0, "contest": 0.0, "press": 0.0,
                       "press_score": 0.0, "blind_later": 0.95}
REGISTRY.add("heuristic_v8", HEURISTIC_V8, dict(_HEURISTIC_PARAMS[0], **HEURISTIC_V8_PARAMS),
             "The default until the declarer's last-hand winner kept his marriage, kept so that old results stay reproducible: "
             "heuristic's parameters then (blind up to 87, abandon 20), bidding, blind bids and talon, with the "
             "first and second card-play rules found with pimc (heuristic_v7's, and the defenders' trump leads and the declarer's low ruff "
             "second to play).", *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
HEURISTIC_V7 = 8
"""heuristic_v7's id: heuristic's bidding and talon with its card play (PLAY_RULES_V7)."""
# heuristic_v7's values are frozen here (the default's when the defenders' leads changed), as heuristic_v5's.
HEURISTIC_V7_PARAMS = {"margin": -5.0, "abandon": 20.0, "target_margin": 28.0, "blind_level": 89.0, "blind_pos": -1.0,
                       "blind_score": 501.0, "blind_cur": 90.0, "blind_prob": 1.0, "contest": 0.0, "press": 0.0,
                       "press_score": 0.0, "blind_later": 0.95}
REGISTRY.add("heuristic_v7", HEURISTIC_V7, dict(_HEURISTIC_PARAMS[0], **HEURISTIC_V7_PARAMS),
             "The default until the defenders' trump leads (and the declarer's low ruff "
             "second to play), kept so that old results stay reproducible: "
             "heuristic's parameters then (blind up to 89, abandon 20), bidding, blind bids and talon, with the first "
             "card-play rules found with pimc as oracle (the declarer keeps his marriage, wins last with his lowest "
             "winner, declares with a winning K).",
             *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
# heuristic_v5's values are frozen here: they were the default's when the card play changed, and must not follow
# HEURISTIC_DEFAULTS when the blind war is re-tuned on the new play.
HEURISTIC_V5_PARAMS = {"margin": -5.0, "abandon": 15.0, "target_margin": 28.0, "blind_level": 87.0, "blind_pos": -1.0,
                       "blind_score": 501.0, "blind_cur": 90.0, "blind_prob": 1.0, "contest": 0.0, "press": 0.0,
                       "press_score": 0.0, "blind_later": 0.95}
REGISTRY.add_version(
    "heuristic_v6", of="heuristic_v7", params=dict(HEURISTIC_V5_PARAMS),
    doc="The default from the first card-play rules found with pimc until the blind war was re-tuned on them, kept so that its results "
        "stay reproducible: heuristic_v7's bidding, talon and card play, bidding blind up to 87 (the equilibrium of the "
        "earlier card play); against it a seat gains about 1.6 pp of game wins by going to 88 (docs/tune.md).")
HEURISTIC_V5 = 7
"""heuristic_v5's id: heuristic's bidding and talon with the card play of heuristic_v2 .. heuristic_v5."""
REGISTRY.add("heuristic_v5", HEURISTIC_V5, dict(_HEURISTIC_PARAMS[0], **HEURISTIC_V5_PARAMS),
             "The default until heuristic_v6's card play, kept so that old results stay reproducible: heuristic's "
             "parameters and bidding, blind bids and talon, with heuristic_v2's card play (and its later "
             "defenders' rules); heuristic_v3 and heuristic_v4 are versions of it.",
             *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
REGISTRY.add_version(
    "heuristic_v3", of="heuristic_v5", params=_HEURISTIC_PARAMS[0],
    doc="The default of cardsim 0.1.0 before the tuned parameters, kept so that old results stay reproducible: "
        "heuristic's bidding, blind bids, talon and play with its earlier values (margin 0, abandon 10, "
        "target_margin 12, blind up to 72 with probability 0.15 while the current bid is <= 70, no contest or "
        "press) and heuristic_v5's card play.")
REGISTRY.add_version(
    "heuristic_v4", of="heuristic_v5",
    params={"margin": -5.0, "abandon": 15.0, "target_margin": 28.0, "blind_level": 82.0, "blind_pos": -1.0,
            "blind_score": 501.0, "blind_cur": 80.0, "blind_prob": 0.6, "contest": 5.0, "press": 0.0,
            "press_score": 0.0, "blind_later": 1.0},
    doc="The first tuned default (the best-response search's sweep 8, before the blind bids settled), kept so that "
        "its results stay reproducible: blind with probability 0.6 up to 81 at any position, contest 5; a seat "
        "gains 0.92 pp of game wins by bidding blind more often against it (docs/tune.md); heuristic_v5's card "
        "play.")
REGISTRY.add(
    "heuristic_v1", HEURISTIC_V1, _HEURISTIC_PARAMS[0],
    "The first default, kept so that old results stay reproducible: bids, declares and "
    "gives like heuristic; plays its old cards.", *_HEURISTIC_PARAMS[2:], tunables=TUNABLES)
REGISTRY.add(
    "heuristic_v2", HEURISTIC_V2, _HEURISTIC_PARAMS[0],
    "The default until its ties were broken by the seat's random suit order (cardsim.suit_order), kept so "
    "that old results stay reproducible: heuristic with equal choices (gifts, trumps, cards) going to the "
    "lowest suit index, so a hand symmetric between two suits plays better in one.", *_HEURISTIC_PARAMS[2:],
    tunables=TUNABLES)

# ---- the chart strategy's table: one blind level per situation of the report's blind
# decision chart (cardsim.analysis.g501.blind_chart: OWN x LEADS x POSITIONS, levels LEVELS; the test
# suite checks that these are the same).  Cell order: own score, then lead, then position
# (fastest): cell = (i_own * len(CELL_LEADS) + i_lead) * len(CELL_POSITIONS) + position.
CELL_OWN = (50, 100, 200, 300, 400, 501)
"""Own score (score points before the deal) of each row of cells."""
CELL_LEADS = (-200, -100, -50, 0, 50, 100, 200)
"""Lead: the closest rival's score minus own score (score points; + = ahead, 501 counts down)."""
CELL_POSITIONS = (0, 1, 2)
"""Auction position (0 = first speaker, the dealer's left)."""
CELL_LEVELS = (70, 80, 90, 100, 120, 150)
"""Blind levels: digit k (1..6) of ``cells`` bids blind up to CELL_LEVELS[k - 1]; 0 looks."""
N_CELLS = len(CELL_OWN) * len(CELL_LEADS) * len(CELL_POSITIONS)
_PER_OWN = len(CELL_LEADS) * len(CELL_POSITIONS)


def cells_text(digits) -> str:
    """The canonical ``cells`` text of ``digits`` (N_CELLS whole numbers 0..6 in cell order): one
    group of 21 digits per own score (CELL_OWN order), groups joined by '/'."""
    d = "".join(str(int(x)) for x in digits)
    return "/".join(d[i:i + _PER_OWN] for i in range(0, len(d), _PER_OWN))


def cells_digits(text: str) -> list[int]:
    """The N_CELLS digits (0 look, k blind to CELL_LEVELS[k - 1]) of a ``cells`` text: 126
    digits 0-6 in cell order, either together or as 6 groups of 21 joined by '/' (one group per
    own score).  Raises ValueError (one line) otherwise."""
    t = str(text).strip()
    groups = t.split("/")
    if len(groups) > 1 and (len(groups) != len(CELL_OWN) or any(len(g) != _PER_OWN for g in groups)):
        raise ValueError(f"'/' splits the cells into {len(CELL_OWN)} groups of {_PER_OWN} digits (one per own "
                         f"score), got groups of {', '.join(str(len(g)) for g in groups)}")
    digits = "".join(groups)
    bad = sorted({c for c in digits if c not in "0123456"})
    if bad or len(digits) != N_CELLS:
        what = f"the characters {''.join(bad)!r}" if bad else f"{len(digits)} digits"
        raise ValueError(f"must be {N_CELLS} digits 0-6 (0 look, k blind to the k-th of "
                         f"{'/'.join(map(str, CELL_LEVELS))}; own x lead x position order), got {what}")
    return [int(c) for c in digits]


def parse_cells(text: str) -> np.ndarray:
    """The table block of a ``cells`` text: float64[N_CELLS], the blind level of each cell (0 =
    look).  Raises ValueError (one line)."""
    return np.array([0.0 if k == 0 else float(CELL_LEVELS[k - 1]) for k in cells_digits(text)])


def _cells_summary(text: str) -> str:
    n = sum(k > 0 for k in cells_digits(text))
    return "all look" if n == 0 else f"{n} of {N_CELLS} cells blind"


ALL_LOOK = cells_text([0] * N_CELLS)
"""The ``cells`` text of a chart that never bids blind (the chart strategy's default)."""

REGISTRY.add(
    "chart", CHART,
    {name: REGISTRY["heuristic"].params[name] for name in ("margin", "abandon", "target_margin", "contest",
                                                           "press", "press_score")},
    "heuristic with its blind decision read from a decision chart: before looking, bid blind (minimum "
    "raise) while it is <= the level of the nearest chart cell (own score x lead x auction position), "
    "else look; bids after looking, talon and cards as heuristic.",
    {name: _HEURISTIC_PARAMS[2][name] for name in ("margin", "abandon", "target_margin", "contest", "press",
                                                    "press_score")},
    {name: _HEURISTIC_PARAMS[3][name] for name in ("margin", "abandon", "target_margin", "contest", "press",
                                                    "press_score")},
    {"press_score": "int"},
    tunables={name: TUNABLES[name] for name in ("margin", "abandon", "target_margin", "contest", "press",
                                                "press_score")},
    table=Table(
        "cells", parse_cells, ALL_LOOK,
        f"the chart: {N_CELLS} digits, one per cell in the order own score {'/'.join(map(str, CELL_OWN))} x lead "
        f"{'/'.join(f'{v:+d}' for v in CELL_LEADS)} x position 0/1/2 (fastest); 0 = look, k = blind up to the "
        f"k-th of {'/'.join(map(str, CELL_LEVELS))}; '/' may split them into one group of {_PER_OWN} per own "
        "score.  Lead = the closest rival's score (lowest of the other seats) minus own; a state takes the "
        "nearest cell on each axis, a tie (exactly midway) the lower grid value",
        _cells_summary),
)

PIMC_DEFAULTS = {"early": 1}
"""501's defaults of the search's parameters (:func:`cardsim.strategies.pimc.register`): the
heuristic's cards to the first trick, the search from the second.  Measured not weaker than
searching every trick at 8 worlds, on paired deals, and about three times faster (docs/pimc.md,
"A cheaper first trick"): the first trick's full hands cost most of the search's time.
``pimc:early=0`` searches every trick."""
PIMC_STRATEGY = register_pimc(REGISTRY, PIMC, REGISTRY["heuristic"], reads_auction=True, defaults=PIMC_DEFAULTS)
"""Sampled-search card play (:mod:`cardsim.strategies.pimc`, glue in :mod:`.pimc`); bids and takes
the talon like ``heuristic`` with the same parameters, which sit at the same positions of its row."""
RULES = 6
REGISTRY.add("rules", RULES, doc="calls from a rule file: rules:PATH[:param=value,...] (docs/rules-files.md): blind "
             "calls, calls after looking, abandon or declare with a target; where no rule holds, the talon's trump "
             "and gifts and the card play, the file's base strategy (default heuristic)", file=True)

# Parameter positions, by name: ``P_<PARAM>`` heuristic's (and heuristic_v1's and pimc's, the same
# positions), ``P_CHART_<PARAM>`` chart's, ``P_RANDOM_<PARAM>`` random's; tests check them against the registry.
P_RANDOM_PASS = REGISTRY["random"].param_index("p_pass")
P_RANDOM_MAX_RAISE = REGISTRY["random"].param_index("max_raise")
P_RANDOM_BLIND = REGISTRY["random"].param_index("p_blind")
P_RANDOM_ABANDON = REGISTRY["random"].param_index("p_abandon")
P_RANDOM_DECLARE = REGISTRY["random"].param_index("p_declare")
P_MARGIN = REGISTRY["heuristic"].param_index("margin")
P_ABANDON = REGISTRY["heuristic"].param_index("abandon")
P_TARGET_MARGIN = REGISTRY["heuristic"].param_index("target_margin")
P_BLIND_LEVEL = REGISTRY["heuristic"].param_index("blind_level")
P_BLIND_POS = REGISTRY["heuristic"].param_index("blind_pos")
P_BLIND_SCORE = REGISTRY["heuristic"].param_index("blind_score")
P_BLIND_CUR = REGISTRY["heuristic"].param_index("blind_cur")
P_BLIND_PROB = REGISTRY["heuristic"].param_index("blind_prob")
P_BLIND_LATER = REGISTRY["heuristic"].param_index("blind_later")
P_CONTEST = REGISTRY["heuristic"].param_index("contest")
P_PRESS = REGISTRY["heuristic"].param_index("press")
P_PRESS_SCORE = REGISTRY["heuristic"].param_index("press_score")
P_CHART_MARGIN = REGISTRY["chart"].param_index("margin")
P_CHART_ABANDON = REGISTRY["chart"].param_index("abandon")
P_CHART_TARGET_MARGIN = REGISTRY["chart"].param_index("target_margin")
P_CHART_CONTEST = REGISTRY["chart"].param_index("contest")
P_CHART_PRESS = REGISTRY["chart"].param_index("press")
P_CHART_PRESS_SCORE = REGISTRY["chart"].param_index("press_score")

# ------------------------------------------------------------------ hand evaluation
_LANE6 = U64(63)


@jit(inline="always")
def _lane(hand, s):
    return np.int64((U64(hand) >> U64(16 * s)) & _LANE6)


def _lane_tables():
    """Per 6-bit lane: expected tricks and the points of the cards that win them, for the
    trump suit, a side suit of a suit contract, and a suit in no-trump; marriage value."""
    pts = [0, 2, 3, 4, 10, 11]
    tabs = np.zeros((7, 64), dtype=np.float64)
    for ln in range(64):
        n = bin(ln).count("1")
        top = 0
        r = 5
        while r >= 0 and ln >> r & 1:
            top += 1
            r -= 1
        ten_guard = 1 if (top == 0 and n >= 2 and ln >> RT & 1) else 0
        w_tr = top + 0.65 * max(0, n - top - 1) + (0.6 if n >= 4 else 0.0) + 0.5 * ten_guard
        w_sd = min(top, 2, n) + 0.4 * ten_guard
        w_nt = min(top, 3, n) + 0.4 * ten_guard
        for col, w in ((0, w_tr), (2, w_sd), (4, w_nt)):
            tabs[col, ln] = w
            k, own = 0, 0
            for r in range(5, -1, -1):
                if k < int(w + 0.5) and ln >> r & 1:
                    own += pts[r]
                    k += 1
            tabs[col + 1, ln] = own
        tabs[6, ln] = 20.0 if (ln >> RK & 1 and ln >> RQ & 1) else 0.0
    return tabs


_TABS = _lane_tables()
TR_W, TR_OWN, SD_W, SD_OWN, NT_W, NT_OWN, MAR = (_TABS[i].copy() for i in range(7))


@jit
def estimate(hand, trump):
    """Expected deal points (card points + marriages) of a hand played with ``trump`` (float).

    Table-driven per suit lane: top-sequence winners (side suits at most two rounds in a
    suit contract, three in no-trump, long trumps as extra tricks, ruffs with voids), each
    expected trick credited with its winning card and two average unseen cards, plus 0.8
    of the marriages held (a trump marriage counts 40).
    """
    n_cards = popcount(hand)
    hp = hand_points(hand)
    unseen_avg = (120.0 - hp) / (24.0 - n_cards)
    tricks = 0.0
    own = 0.0
    marr = 0.0
    voids = 0
    for s in range(4):
        ln = _lane(hand, s)
        if s == trump:
            tricks += TR_W[ln]
            own += TR_OWN[ln]
            marr += 2.0 * MAR[ln]
        elif trump == NT:
            tricks += NT_W[ln]
            own += NT_OWN[ln]
            marr += MAR[ln]
        else:
            tricks += SD_W[ln]
            own += SD_OWN[ln]
            marr += MAR[ln]
            if ln == 0:
                voids += 1
    if trump != NT:
        nt_ = popcount(U64(_lane(hand, trump)))
        tricks += min(voids, max(0, nt_ - 2)) * 0.6
    if tricks > 8.0:
        tricks = 8.0
    return own + tricks * 2.0 * unseen_avg + 0.8 * marr + 0.15 * (hp - own)


@jit
def best_trump(hand):
    """``(trump, estimate)`` maximising :func:`estimate` over the four suits and no-trump (same
    formula, computed in one pass over the lanes)."""
    n_cards = popcount(hand)
    hp = hand_points(hand)
    ua2 = 2.0 * (120.0 - hp) / (24.0 - n_cards)
    l0 = _lane(hand, 0)
    l1 = _lane(hand, 1)
    l2 = _lane(hand, 2)
    l3 = _lane(hand, 3)
    sw = SD_W[l0] + SD_W[l1] + SD_W[l2] + SD_W[l3]
    so = SD_OWN[l0] + SD_OWN[l1] + SD_OWN[l2] + SD_OWN[l3]
    mar = MAR[l0] + MAR[l1] + MAR[l2] + MAR[l3]
    voids = (l0 == 0) + (l1 == 0) + (l2 == 0) + (l3 == 0)
    tricks = min(8.0, NT_W[l0] + NT_W[l1] + NT_W[l2] + NT_W[l3])
    own = NT_OWN[l0] + NT_OWN[l1] + NT_OWN[l2] + NT_OWN[l3]
    best = own + tricks * ua2 + 0.8 * mar + 0.15 * (hp - own)
    bt = NT
    for t in range(4):
        lt = l0 if t == 0 else (l1 if t == 1 else (l2 if t == 2 else l3))
        tricks = sw - SD_W[lt] + TR_W[lt]
        v = voids - (1 if lt == 0 else 0)
        tricks += min(v, max(0, popcount(U64(lt)) - 2)) * 0.6
        tricks = min(8.0, tricks)
        own = so - SD_OWN[lt] + TR_OWN[lt]
        e = own + tricks * ua2 + 0.8 * (mar + MAR[lt]) + 0.15 * (hp - own)
        if e > best:
            best = e
            bt = t
    return bt, best


@jit
def best_estimate7(hand):
    """Auction estimate: the best contract for the 7 cards plus half the expected talon value."""
    hp = hand_points(hand)
    return best_trump(hand)[1] + 0.5 * 3.0 * (120.0 - hp) / 17.0


@jit
def _usefulness(hand, card, trump):
    s = card >> 4
    r = card & 15
    u = RANK_POINTS[r] * 1.0
    if s == trump:
        u += 40.0
    if r == RA:
        u += 20.0
    ln = _lane(hand, s)
    if (r == RK or r == RQ) and (ln >> RK) & 1 and (ln >> RQ) & 1:
        u += 25.0
    if r == RT and (ln >> RA) & 1:
        u += 10.0
    if popcount(U64(ln)) == 1 and s != trump:
        u -= 2.0  # giving a singleton leaves a void to ruff
    return u


@jit
def choose_gifts(hand, trump):
    """The two least useful cards of a 10-card hand for ``trump`` (card indices, lower first)."""
    c1 = -1
    c2 = -1
    u1 = 1e9
    u2 = 1e9
    h = U64(hand)
    while h:
        c = lowest_bit(h)
        h &= h - U64(1)
        u = _usefulness(hand, c, trump)
        if u < u1:
            c2 = c1
            u2 = u1
            c1 = c
            u1 = u
        elif u < u2:
            c2 = c
            u2 = u
    return c1, c2


_RANK_ROW = U64(0x0001000100010001)
"""The bits of rank 0 (the 9) of the four suits: ``_RANK_ROW << r`` = every card of rank r."""


@jit(inline="always")
def _first_by_label(m, order):
    """The card of ``m`` (non-empty: cards of one rank) whose suit comes first in the seat's suit
    ``order`` (cardsim.suit_order): a tie between suits goes to no suit by its name."""
    if m & (m - U64(1)) == U64(0):
        return lowest_bit(m)
    return card_from_label(lowest_bit(cards_to_label(m, order)), order)


@jit(inline="always")
def _highest_label_suit(suits, order):
    """The suit of the 4-bit set ``suits`` (non-empty) that comes last in the seat's suit ``order``."""
    for t in range(3, -1, -1):
        s = from_label(t, order)
        if (suits >> s) & 1:
            return s
    return np.int64(-1)  # not reached: suits holds one


@jit(inline="always")
def _lowest_value(cards, trump, order):
    """The card of least value in ``cards``: fewest points, trumps last, lowest rank (-1 when
    empty).  Points rise with the rank, so it is the lowest rank held outside trumps, of those
    the first suit in the seat's suit ``order`` (:func:`_first_by_label`), else the lowest trump."""
    h = U64(cards)
    if h == U64(0):
        return np.int64(-1)
    side = h
    if trump >= 0 and trump < NT:
        side = h & ~(U64(0xFFFF) << U64(16 * trump))
    if side == U64(0):
        return lowest_bit(h)
    for r in range(6):
        m = side & (_RANK_ROW << U64(r))
        if m != U64(0):
            return _first_by_label(m, order)
    return np.int64(-1)  # not reached: side holds a card


@jit(inline="always")
def _most_points(cards, order):
    """The card of non-empty ``cards`` worth most card points: points rise with the rank, so a card
    of the highest rank held, of those the first suit in the seat's suit ``order`` (-1 when empty)."""
    h = U64(cards)
    for k in range(6):
        m = h & (_RANK_ROW << U64(5 - k))
        if m != U64(0):
            return _first_by_label(m, order)
    return np.int64(-1)


@jit(inline="always")
def _above(cards):
    """The places (bits of the 6-bit suit lanes) below some card of ``cards`` of their suit: a
    shift by 1..5 stays in the lane or falls into the 10 unused bits under it, cut off by
    DECK_MASK."""
    x = U64(cards)
    return ((x >> U64(1)) | (x >> U64(2)) | (x >> U64(3)) | (x >> U64(4)) | (x >> U64(5))) & DECK_MASK


@jit(inline="always")
def _masters(hand, unseen):
    """Cards of ``hand`` that no unseen card of their suit can beat: the top card of each suit
    held, when no card of ``unseen`` of its suit is above it (bit operations on all suits at
    once)."""
    h = U64(hand) & DECK_MASK
    return h & ~_above(h) & ~_above(unseen)


# ---- the card-play rules since heuristic_v6 (found with pimc as oracle), each a bit of the ``rules`` argument of
# the play functions: heuristic plays PLAY_RULES, heuristic_v8 PLAY_RULES_V8, heuristic_v7 (and v6) PLAY_RULES_V7,
# heuristic_v5 (and v2, v3, v4) 0, their play unchanged
KEEP_MARRIAGE = 1
"""The declarer gives away (follows low, discards, ruffs) no K or Q of a marriage he holds while another card
does (a ruff with the queen of K-Q-10 of trumps cost him the 40 he would declare on his next lead)."""
KING_DECLARES = 2
"""A marriage is declared by leading its K when no unseen card beats the K (it wins the trick), else its Q."""
DECL_LAST_LOW = 4
"""The declarer last to play wins a trick of the led suit with his lowest winner of that suit (not the one worth
most): the trick is his either way, and the higher card wins a later trick by itself."""
DECL_SECOND_LOW_RUFF = 8
"""The declarer second to play, ruffing, ruffs with his lowest trump (of the cards he may give away) when no
defender has shown out of the led suit while he may hold a trump: the third hand must follow and cannot
overruff, so a master trump spent there wins nothing more (it ruffed with a master trump first before)."""
DEF_TRUMP_LEAD = 16
"""A defender on lead in a suit contract, while trumps are out and he holds one, leads his lowest trump (before
cashing side masters): each round takes a trump from the declarer, who then ruffs fewer of the defenders'
side masters and points."""
DECL_LAST_KEEPS = 32
"""With DECL_LAST_LOW: the declarer last to play wins with his lowest winner of the led suit that is no K or Q of a
marriage he holds, where another winner is (last on a trump lead with Q-K-10 of trumps he won with the Q, the
lowest winner, and lost the 40 of the marriage he would declare on his next lead)."""
DECL_TOP_BEFORE_MARRIAGE = 64
"""The declarer about to declare a marriage whose K is not a master (an unseen A or 10 of its suit beats it) first
leads his master of that suit (its A, or its 10 with the A gone): it wins the trick, so he leads again and declares,
with the K once it is the master; declared with the Q, the marriage gave the lead and the 10 or the A to the
defenders (with K-Q-A of trumps he led the Q where pimc cashes the A)."""
DEF_MASTER_TRUMP_LEAD = 128
"""With DEF_TRUMP_LEAD: a defender holding a master trump leads it (his highest) rather than his lowest trump; the
lowest trump lets the declarer win cheaply with a trump that the master would have drawn."""
PLAY_RULES_V7 = np.int64(KEEP_MARRIAGE | KING_DECLARES | DECL_LAST_LOW)
"""heuristic_v7's rules (and heuristic_v6's)."""
PLAY_RULES_V8 = np.int64(KEEP_MARRIAGE | KING_DECLARES | DECL_LAST_LOW | DECL_SECOND_LOW_RUFF | DEF_TRUMP_LEAD)
"""heuristic_v8's rules (the defenders' trump leads and the declarer's low ruff added)."""
PLAY_RULES_V9 = np.int64(KEEP_MARRIAGE | KING_DECLARES | DECL_LAST_LOW | DECL_SECOND_LOW_RUFF | DEF_TRUMP_LEAD
                         | DECL_LAST_KEEPS)
"""heuristic_v9's rules (the declarer's marriage-keeping last-hand winner added)."""
PLAY_RULES = np.int64(KEEP_MARRIAGE | KING_DECLARES | DECL_LAST_LOW | DECL_SECOND_LOW_RUFF | DEF_TRUMP_LEAD
                      | DECL_LAST_KEEPS | DECL_TOP_BEFORE_MARRIAGE | DEF_MASTER_TRUMP_LEAD)
"""The rules heuristic plays (docs/strategy-quality.md, "How heuristic plays")."""


@jit(inline="always")
def _marriage_cards(hand):
    """The K and Q of every suit whose K and Q are both in ``hand``: a marriage its holder may still
    declare (docs/RULES.md §1.6: once either is played, it can no longer be)."""
    h = U64(hand)
    both = (h >> U64(RK)) & (h >> U64(RQ)) & _RANK_ROW
    return (both << U64(RK)) | (both << U64(RQ))


@jit(inline="always")
def _spare(cards, hand):
    """``cards`` without the K and Q of the marriages held in ``hand`` (:func:`_marriage_cards`),
    unless that leaves none: a card to give away should not break a marriage worth 20 or 40."""
    m = U64(cards) & ~_marriage_cards(hand)
    if m == U64(0):
        return U64(cards)
    return m


# ------------------------------------------------------------------ contract output
@jit(inline="always")
def _abandon(out):
    """``out`` (int64[5]) for an abandoned contract (docs/RULES.md §1.4)."""
    out[0] = 1
    out[1] = 0
    out[2] = 0
    out[3] = 0
    out[4] = 0


@jit(inline="always")
def _declare(out, trump, target, gift1, gift2):
    """``out`` (int64[5]) for a declared contract: trump, target, the cards given to the first
    and the second opponent clockwise (docs/RULES.md §1.4)."""
    out[0] = 0
    out[1] = trump
    out[2] = target
    out[3] = gift1
    out[4] = gift2


# ------------------------------------------------------------------ random (id 0)
@jit(inline="always")
def random_open(p, rng, cur_bid):
    """Pass with probability ``p_pass``, else raise the current bid by 1..max_raise (capped at
    MAX_BID; pass when no bid is left)."""
    if uniform(rng) < p[P_RANDOM_PASS]:
        return 0
    lo = max(MIN_BID, cur_bid + 1)
    if lo > MAX_BID:
        return 0
    b = lo + randbelow(rng, max(1, int(p[P_RANDOM_MAX_RAISE])))
    return min(b, MAX_BID)


@jit(inline="always")
def random_blind(p, rng, cur_bid):
    """With probability ``p_blind`` a random call (as :func:`random_open`) made blind, else LOOK."""
    if uniform(rng) >= p[P_RANDOM_BLIND]:
        return LOOK
    return random_open(p, rng, cur_bid)


@jit
def random_contract(p, rng, hand, bid, out):
    """Abandon with probability ``p_abandon``; else a uniform trump (or NT), a target of bid +
    0..max_raise (capped at MAX_BID) and two uniform cards of ``hand`` (uint64, 10 cards) to give."""
    p, rng, out = borrowed(p), borrowed(rng), borrowed(out)
    if uniform(rng) < p[P_RANDOM_ABANDON]:
        _abandon(out)
        return
    trump = randbelow(rng, 5)
    target = min(MAX_BID, bid + randbelow(rng, max(1, int(p[P_RANDOM_MAX_RAISE])) + 1))
    g1 = choose_bit(rng, hand)
    g2 = choose_bit(rng, U64(hand) & ~(U64(1) << U64(g1)))
    _declare(out, trump, target, g1, g2)


@jit(inline="always")
def random_play(p, rng, hand, legal, led):
    """A uniform card of ``legal``; a lead (``led`` < 0) of a K or Q of a held marriage declares
    it with probability ``p_declare``."""
    c = choose_bit(rng, legal)
    if led < 0 and can_declare(hand, c) and uniform(rng) < p[P_RANDOM_DECLARE]:
        return c + DECLARE_FLAG
    return c


# ------------------------------------------------------------------ heuristic (id 1)
@jit(inline="always")
def heuristic_blind(p, rng, position, score, cur_bid):
    """The blind policy: bid the minimum raise blind when it is <= blind_level, the auction
    position is blind_pos (-1 any), ``score`` <= blind_score and ``cur_bid`` <= blind_cur, with
    probability blind_prob (x blind_later after the first speaker; a draw from ``rng`` only when
    the probability is strictly between 0 and 1); else LOOK."""
    nxt = max(MIN_BID, cur_bid + 1)
    pos = p[P_BLIND_POS]
    prob = p[P_BLIND_PROB]
    if position > 0:
        # blind_later = 1 keeps prob bit for bit, so the earlier versions' deals do not move.
        prob = prob * p[P_BLIND_LATER]
    if (nxt <= p[P_BLIND_LEVEL] and nxt <= MAX_BID and (pos < 0 or int(pos) == position)
            and score <= p[P_BLIND_SCORE] and cur_bid <= p[P_BLIND_CUR]):
        if prob >= 1.0 or (prob > 0.0 and uniform(rng) < prob):
            return nxt
    return LOOK


@jit(inline="always")
def _bid_to(hand, cur_bid, memo, margin, bonus):
    """Bid the minimum raise while it is <= the auction estimate (:func:`best_estimate7`) -
    ``margin`` + ``bonus`` (card points), else pass.  ``memo`` (float64[2]: estimate, computed
    flag) caches the estimate for the deal."""
    if memo[1] == 0.0:
        memo[0] = best_estimate7(hand)
        memo[1] = 1.0
    limit = memo[0] - margin
    if bonus != 0.0:
        limit += bonus
    nxt = max(MIN_BID, cur_bid + 1)
    if nxt <= limit and nxt <= MAX_BID:
        return nxt
    return 0


@jit(inline="always")
def _bonus(contest, press, press_score, rival, others_blind):
    """Card points added to the bidding limit: ``contest`` once another seat has bid blind in the
    deal (``others_blind``), plus ``press`` while the closest rival's score ``rival`` is <=
    ``press_score``."""
    bonus = 0.0
    if others_blind:
        bonus += contest
    if rival <= press_score:
        bonus += press
    return bonus


@jit(inline="always")
def heuristic_open(p, hand, cur_bid, memo, rival, others_blind):
    """Bid the minimum raise while it is <= the auction estimate (:func:`best_estimate7`) -
    margin (+ contest when ``others_blind``: another seat has bid blind in this deal; + press
    when ``rival``, the lowest score of the other seats, is <= press_score), else pass.
    ``memo`` (float64[2]: estimate, computed flag) caches the estimate for the deal."""
    bonus = _bonus(p[P_CONTEST], p[P_PRESS], p[P_PRESS_SCORE], rival, others_blind)
    return _bid_to(hand, cur_bid, memo, p[P_MARGIN], bonus)


@jit(inline="always")
def _contract(hand, bid, abandon, target_margin, out):
    """Trump chosen on the 10 cards (``hand``, uint64), then the two gifts, then the estimate of
    the 8 kept: abandon below bid - ``abandon``, else target = max(bid, estimate - ``target_margin``)."""
    bt, _ = best_trump(hand)
    g1, g2 = choose_gifts(hand, bt)
    best = estimate(U64(hand) & ~(U64(1) << U64(g1)) & ~(U64(1) << U64(g2)), bt)
    if best < bid - abandon:
        _abandon(out)
        return
    target = min(MAX_BID, max(bid, int(best - target_margin)))
    _declare(out, bt, target, g1, g2)


@jit(inline="always")
def _contract_in(hand, bid, trump, target_margin, out):
    """The contract in a given ``trump`` (a question forcing it): the two gifts chosen for that
    trump, target = max(bid, estimate of the 8 kept in it - ``target_margin``); never abandons
    (a forced contract is played)."""
    g1, g2 = choose_gifts(hand, trump)
    best = estimate(U64(hand) & ~(U64(1) << U64(g1)) & ~(U64(1) << U64(g2)), trump)
    _declare(out, trump, min(MAX_BID, max(bid, int(best - target_margin))), g1, g2)


@jit
def heuristic_contract_in(p, hand, bid, trump, out):
    """:func:`heuristic_contract` with the trump given: its gifts and target for ``trump``."""
    p, out = borrowed(p), borrowed(out)
    _contract_in(hand, bid, trump, p[P_TARGET_MARGIN], out)


@jit
def heuristic_contract(p, hand, bid, out):
    """Trump chosen on the 10 cards (``hand``, uint64), then the two gifts, then the estimate of
    the 8 kept: abandon below bid - abandon, else target = max(bid, estimate - target_margin)."""
    p, out = borrowed(p), borrowed(out)
    _contract(hand, bid, p[P_ABANDON], p[P_TARGET_MARGIN], out)


# ------------------------------------------------------------------ chart (id 3)
_CELL_OWN = np.array(CELL_OWN, dtype=np.float64)
_CELL_LEADS = np.array(CELL_LEADS, dtype=np.float64)


@jit(inline="always")
def _nearest(grid, x):
    """Index of the value of ``grid`` (float64, increasing) nearest to ``x``; exactly midway, the
    lower one."""
    i = 0
    while i + 1 < grid.shape[0] and x > 0.5 * (grid[i] + grid[i + 1]):
        i += 1
    return i


@jit
def chart_cell(score, rival, position):
    """The chart cell (0..N_CELLS-1) of a seat at ``score`` whose closest rival (the lowest score
    of the other seats) is at ``rival``, in auction ``position`` (0..2): the nearest own score of
    CELL_OWN and the nearest lead (``rival - score``) of CELL_LEADS, ties to the lower."""
    i = _nearest(_CELL_OWN, score)
    j = _nearest(_CELL_LEADS, rival - score)
    return (i * _CELL_LEADS.shape[0] + j) * 3 + position


@jit(inline="always")
def chart_blind(p, position, score, rival, cur_bid):
    """Bid the minimum raise blind while it is <= the level of the seat's chart cell
    (:func:`chart_cell`, read from the table block), else LOOK (a level 0 cell always looks).
    Deterministic: no draw from the seat's stream."""
    level = p[TABLE_START + chart_cell(score, rival, position)]
    nxt = max(MIN_BID, cur_bid + 1)
    if nxt <= level and nxt <= MAX_BID:
        return nxt
    return LOOK


@jit(inline="always")
def chart_open(p, hand, cur_bid, memo, rival, others_blind):
    """:func:`heuristic_open` with the chart's own margin, contest and press parameters."""
    bonus = _bonus(p[P_CHART_CONTEST], p[P_CHART_PRESS], p[P_CHART_PRESS_SCORE], rival, others_blind)
    return _bid_to(hand, cur_bid, memo, p[P_CHART_MARGIN], bonus)


@jit
def chart_contract(p, hand, bid, out):
    """:func:`heuristic_contract` with the chart's own abandon and target_margin parameters."""
    p, out = borrowed(p), borrowed(out)
    _contract(hand, bid, p[P_CHART_ABANDON], p[P_CHART_TARGET_MARGIN], out)


@jit
def chart_contract_in(p, hand, bid, trump, out):
    """:func:`chart_contract` with the trump given: its gifts and target for ``trump``."""
    p, out = borrowed(p), borrowed(out)
    _contract_in(hand, bid, trump, p[P_CHART_TARGET_MARGIN], out)


@jit(inline="always")
def _smear(legal, unseen, trump, order):
    """The card to throw on a co-defender's winning trick: the one worth most card points that is
    not a master of its suit and not a trump (it would fall to the declarer later), else the
    least valuable card."""
    h = legal & ~_masters(legal, unseen)
    if trump != NT:
        h &= ~(U64(0xFFFF) << U64(16 * trump))
    if h != U64(0):
        return _most_points(h, order)
    return _lowest_value(legal, trump, order)


@jit(inline="always")
def _lanes(suit):
    """The 6-bit lane of ``suit`` as a card bit set."""
    return _LANE6 << U64(16 * suit)


@jit(inline="always")
def _trumps(cards, trump):
    """The trumps of ``cards`` (none in no-trump)."""
    if trump == NT:
        return U64(0)
    return U64(cards) & _lanes(trump)


@jit(inline="always")
def _unbeatable(w, rivals, rival_voids, trump):
    """Whether the trick's winner ``w`` is safe from a player who may hold only ``rivals`` (bit
    set) and has shown ``rival_voids`` (SEEN_VOIDS lanes): no higher card of its suit, and in a
    suit contract no trump to ruff with when he may be void in the suit (a void player must
    trump, docs/RULES.md §1.5)."""
    s = w >> 4
    higher = (U64(rivals) >> U64(16 * s)) & _LANE6 & ~((U64(2) << U64(w & 15)) - U64(1))
    if higher != U64(0) and (U64(rival_voids) & _lanes(s)) == U64(0):
        return False
    if trump == NT or s == trump:
        return True
    return _trumps(rivals, trump) == U64(0) or (U64(rival_voids) & _lanes(trump)) != U64(0)


@jit(inline="always")
def _ruffs(voids, suit, trump, unseen):
    """Whether a player who has shown ``voids`` is void in ``suit`` and may still hold a trump
    (in ``unseen``): then he must trump it (docs/RULES.md §1.5)."""
    if trump == NT or suit == trump or (U64(voids) & _lanes(suit)) == U64(0):
        return False
    return (U64(voids) & _lanes(trump)) == U64(0) and _trumps(unseen, trump) != U64(0)


@jit(inline="always")
def _partner_voids(seat, declarer, seen):
    """The voids shown by the other defender: every row of ``seen`` but the seat's own and the
    declarer's (the sitting-out dealer's row of a 4-seat game stays 0)."""
    v = U64(0)
    for s in range(4):
        if s != seat and s != declarer:
            v |= seen[SEEN_VOIDS, s]
    return v


@jit(inline="always")
def view_voids(seat, declarer, is_declarer, seen):
    """``(dvoid, pvoid)`` of the play functions from the public record ``seen`` (uint64[2, 4]): for a defender
    the declarer's shown voids and the other defender's (:func:`_partner_voids`); for the declarer the two
    defenders' (the lower seat's first; the sitting-out 4-seat dealer's row is 0 and adds nothing): uint64 bit
    sets in the SEEN_VOIDS lanes (docs/RULES.md §1.5: who showed out is public)."""
    if not is_declarer:
        return seen[SEEN_VOIDS, declarer], _partner_voids(seat, declarer, seen)
    a = U64(0)
    b = U64(0)
    first = True
    for s in range(4):
        if s != declarer and seen[SEEN_VOIDS, s] != U64(0):
            if first:
                a = seen[SEEN_VOIDS, s]
                first = False
            else:
                b |= seen[SEEN_VOIDS, s]
    return a, b


@jit(inline="always")
def _beaters(legal, w, trump):
    """The cards of ``legal`` that beat the trick's current winner ``w`` (rules.beats, as bit
    sets): the higher cards of its suit, and every trump when ``w`` is not one."""
    ws = w >> 4
    winners = U64(legal) & (_LANE6 << U64(16 * ws)) & ~((U64(2) << U64(w)) - U64(1))
    if trump != NT and ws != trump:
        winners |= U64(legal) & (U64(0xFFFF) << U64(16 * trump))
    return winners


@jit(inline="always")
def _take_last(winners, led_suit, trump, order, spare):
    """Last to play and able to win: the winning card worth most, the smallest trump when ruffing
    (:func:`_lowest_ruff`: of ``spare``, the cards it may give away, where one wins)."""
    side = winners
    if trump != NT and led_suit != trump:
        side = winners & ~(U64(0xFFFF) << U64(16 * trump))
    if side != U64(0):
        return _most_points(side, order)
    return _lowest_ruff(winners, spare)


@jit(inline="always")
def _lowest_ruff(winners, spare):
    """The lowest card of ``winners`` (trumps ruffing: one suit) that is in ``spare``, else the lowest."""
    keep = U64(winners) & U64(spare)
    if keep != U64(0):
        return lowest_bit(keep)
    return lowest_bit(winners)


@jit(inline="always")
def _best_cash(side, unseen, order):
    """The side master to cash: the one worth most card points, of the suits equal in that the
    one with most cards unseen (the least likely to be ruffed)."""
    best = -1
    most = -1
    h = cards_to_label(side, order)  # in the seat's suit order: equal ones go to no suit by its name
    while h:
        c = card_from_label(lowest_bit(h), order)
        h &= h - U64(1)
        k = RANK_POINTS[c & 15] * 10 + popcount((U64(unseen) >> U64(16 * (c >> 4))) & _LANE6)
        if k > most:
            most = k
            best = c
    return best


@jit(inline="always")
def _defender_lead(hand, trump, unseen, dvoid, pvoid, masters, order, rules):
    """A defender's lead without a marriage to declare (docs/RULES.md §1.5), from what the play
    showed (``dvoid``/``pvoid``: the declarer's and the other defender's SEEN_VOIDS):

    * with ``rules`` DEF_TRUMP_LEAD, in a suit contract while trumps are out: its lowest trump (with
      DEF_MASTER_TRUMP_LEAD its highest master trump where it holds one);
    * cash a side master (:func:`_best_cash`);
    * in a suit contract with trumps out: the least valuable card of a suit the other defender
      has shown out of while he may hold a trump (he must ruff) and the declarer has not; else
      its master trump;
    * in no-trump, the least valuable card of a suit the declarer has shown out of (he can only
      discard);
    * else the least valuable card.
    ``masters``: :func:`_masters` of the hand (the caller has them)."""
    trumps_out = trump != NT and _trumps(unseen, trump) != U64(0)
    if trumps_out and rules & DEF_TRUMP_LEAD and _trumps(hand, trump) != U64(0):
        if rules & DEF_MASTER_TRUMP_LEAD and (masters & _lanes(trump)) != U64(0):
            return highest_bit(masters & _lanes(trump))
        return lowest_bit(_trumps(hand, trump))
    side = masters & ~_lanes(trump) if trump != NT else masters
    if side != U64(0):
        return _best_cash(side, unseen, order)
    if trumps_out:
        to_ruff = U64(pvoid) & ~U64(dvoid) & ~_lanes(trump) & U64(hand)
        if to_ruff != U64(0) and (U64(pvoid) & _lanes(trump)) == U64(0):
            return _lowest_value(to_ruff, trump, order)
        tm = masters & _lanes(trump)
        if tm != U64(0):
            return highest_bit(tm)
    if trump == NT:
        into_void = U64(hand) & U64(dvoid)
        if into_void != U64(0):
            return _lowest_value(into_void, trump, order)
    return _lowest_value(hand, trump, order)


@jit(inline="always")
def _ruffed(voids, trump, unseen):
    """The side-suit lanes a player who has shown ``voids`` must ruff (docs/RULES.md §1.5): those he is void in while
    he may still hold a trump (not shown out of trumps, some trump in ``unseen``); none in no-trump."""
    if trump == NT or (U64(voids) & _lanes(trump)) != U64(0) or _trumps(unseen, trump) == U64(0):
        return U64(0)
    return U64(voids) & ~_lanes(trump) & DECK_MASK


@jit(inline="always")
def _may_marry(unseen):
    """Whether some suit has both its K and Q in ``unseen`` (neither held nor played): the
    declarer may hold that marriage (docs/RULES.md §1.6)."""
    u = U64(unseen)
    return (u >> U64(RK)) & (u >> U64(RQ)) & _RANK_ROW != U64(0)


@jit(inline="always")
def _lead(hand, trump, unseen, is_declarer, won_any, dvoid, pvoid, order, rules):
    """Leading: declare a marriage when it can count (a defender only once the declarer cannot
    hold one, :func:`_may_marry`: leading the Q gives the lead away, most often to the declarer,
    who then declares his own, worth as much or more), with its K when no unseen card beats it
    and ``rules`` has KING_DECLARES, else its Q (the declarer, with DECL_TOP_BEFORE_MARRIAGE, first leads his
    master of that suit above the K that does not win); else the declarer cashes masters (trumps first
    while trumps are out) or leads the card of least value; a defender leads as
    :func:`_defender_lead`."""
    ms = marriage_suits(hand)
    masters = _masters(hand, unseen)
    if ms != 0 and (is_declarer or not _may_marry(unseen)):
        if won_any or masters != U64(0) or popcount(hand) > 3:
            s = trump if (trump != NT and (ms >> trump) & 1) else _highest_label_suit(ms, order)
            king_wins = _masters(U64(1) << U64(16 * s + RK), unseen) != U64(0)
            if is_declarer and rules & DECL_TOP_BEFORE_MARRIAGE and not king_wins:
                top = masters & _lanes(s) & ~_marriage_cards(hand)
                if top != U64(0):
                    return highest_bit(top)  # it wins the trick: he leads again and declares then
            if rules & KING_DECLARES and king_wins:
                return 16 * s + RK + DECLARE_FLAG  # no unseen card beats the king: it wins the trick it declares
            return 16 * s + RQ + DECLARE_FLAG
    if not is_declarer:
        return _defender_lead(hand, trump, unseen, dvoid, pvoid, masters, order, rules)
    if masters != U64(0):
        tm = U64(0)
        if trump != NT:
            tm = masters & _lanes(trump)
            if tm != U64(0) and _trumps(unseen, trump) != U64(0):
                return highest_bit(tm)
        side = masters & ~tm
        if side != U64(0):
            return _most_points(side, order)
    return _lowest_value(hand, trump, order)


@jit(inline="always")
def _defend(legal, trick, led, trump, unseen, decl_pos, dvoid, pvoid, order):
    """A defender following (docs/RULES.md §1.5); returns -1 where the common rules of
    :func:`heuristic_play` decide.  ``dvoid``/``pvoid``: the declarer's and the other
    defender's shown voids (SEEN_VOIDS lanes)."""
    led_suit = led >> 4
    w = trick_winner(trick, led_suit, trump)
    if popcount(trick) == 2:
        decl_card = led if decl_pos == 0 else lowest_bit(U64(trick) & ~(U64(1) << U64(led)))
        if w != decl_card:
            return _smear(legal, unseen, trump, order)
        return -1
    if decl_pos == 2:
        # the other defender led; the declarer plays last
        if _unbeatable(w, unseen, dvoid, trump):
            return _smear(legal, unseen, trump, order)
        if _ruffs(dvoid, led_suit, trump, unseen):
            # he must ruff: only a trump above every trump out wins, else give the least
            mine = _beaters(legal, w, trump) & _masters(_trumps(legal, trump), unseen)
            if mine != U64(0):
                return lowest_bit(mine)
            return _lowest_value(legal, trump, order)
        return -1
    # the declarer led; the other defender plays last
    if _ruffs(pvoid, led_suit, trump, unseen) and _beaters(legal, w, trump) == U64(0):
        return _smear(legal, unseen, trump, order)
    return -1


@jit(inline="always")
def _last_two(c0, c1, c2, h0, h1, h2, trump, dpos):
    """The declarer's card points from the last two tricks (docs/RULES.md §1.5): ``c0..c2`` the
    seventh trick's cards by place in it (0 led), ``h0..h2`` each place's one card left (uint64
    bit sets) for the eighth, which the seventh's winner leads; ``dpos`` the declarer's place."""
    t7 = (U64(1) << U64(c0)) | (U64(1) << U64(c1)) | (U64(1) << U64(c2))
    b = trick_winner(t7, c0 >> 4, trump)
    w = 0 if b == c0 else (1 if b == c1 else 2)
    pts = hand_points(t7) if w == dpos else 0
    r0 = lowest_bit(U64(h0))
    r1 = lowest_bit(U64(h1))
    lead8 = r0 if w == 0 else (r1 if w == 1 else lowest_bit(U64(h2)))
    t8 = U64(h0) | U64(h1) | U64(h2)
    b8 = trick_winner(t8, lead8 >> 4, trump)
    if (0 if b8 == r0 else (1 if b8 == r1 else 2)) == dpos:
        pts += hand_points(t8)
    return pts


@jit
def last_in_seventh(legal, trick, led, trump, unseen, decl_pos, dvoid, pvoid, card):
    """A defender's card last to play to the seventh trick, both its cards legal (docs/RULES.md
    §1.5): the other two players hold one card each, the two ``unseen`` cards; each of the (at
    most two) ways they may lie, no card of a suit its holder has shown out of (``dvoid`` /
    ``pvoid``), is played out open-handed, and the card that leaves the declarer the fewest card
    points over them is played: ``card`` (the rules' choice) unless the other is strictly better.
    Marriages are not counted: none can be declared after the seventh lead, and one the declarer
    declared before winning a trick (it counts once he wins one, §1.6) is left out.  ``legal``,
    ``trick``, ``unseen``, ``dvoid``, ``pvoid``: uint64 bit sets; returns the card index (int64).

    Why only last to play: sampled double-dummy defence (now `pimc:side=2`) took 0.6 deal points
    a deal from the declarer in the seventh trick; this exact form, cheap, takes 0.22 of them;
    the same search for every defender's card of the seventh trick took 0.56 but slowed 501 play
    by a tenth (docs/notes/strategy-quality-journal.md, "Fourth pass")."""
    c1 = lowest_bit(U64(trick) & ~(U64(1) << U64(led)))
    x = lowest_bit(U64(unseen))
    y = highest_bit(U64(unseen))
    a = lowest_bit(legal)
    z = highest_bit(legal)
    tot = 0  # the declarer's points with a minus those with z, summed over the worlds
    for j in range(2):
        d = x if j == 0 else y
        p = y if j == 0 else x
        if (dvoid >> U64(d)) & U64(1) or (pvoid >> U64(p)) & U64(1):
            continue
        hd = U64(1) << U64(d)
        hp = U64(1) << U64(p)
        h0 = hd if decl_pos == 0 else hp
        h1 = hp if decl_pos == 0 else hd
        tot += _last_two(led, c1, a, h0, h1, U64(1) << U64(z), trump, decl_pos)
        tot -= _last_two(led, c1, z, h0, h1, U64(1) << U64(a), trump, decl_pos)
    if tot < 0:
        return a
    if tot > 0:
        return z
    return card


@jit(inline="always")
def heuristic_play(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, seat, declarer, seen):
    """The default card play (docs/RULES.md §1.5-§1.6) from the seat's view with the
    public record ``seen`` (uint64[2, 4]): :func:`heuristic_play_voids` with the voids it reads
    from it (the declarer's, and the other defender's: every other row, the sitting-out 4-seat
    dealer's stays 0), ties between equal cards of several suits going to the lowest suit index
    (``suit_order.IDENTITY``): the view and card that pimc searches from.  The dispatch gives
    heuristic and chart their seat's suit order through :func:`heuristic_play_voids`."""
    dvoid, pvoid = view_voids(seat, declarer, is_declarer, seen)
    return heuristic_play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid,
                                IDENTITY)


@jit(inline="always")
def heuristic_play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order):
    """:func:`heuristic_play` with the part of ``seen`` it reads passed as bit sets: ``dvoid`` the
    declarer's shown voids, ``pvoid`` the other defender's (SEEN_VOIDS lanes; for the declarer the two
    defenders', either order: :func:`view_voids`), and ``order`` the seat's suit order (cardsim.suit_order, int64), which breaks every
    tie between equal cards of several suits (:func:`_first_by_label`). Scalars only: the engine's
    per-card call passes no array (an array argument costs two atomic reference-count updates a
    call). :func:`heuristic_card` with all its rules (PLAY_RULES), except that a defender last to play to the
    seventh trick with two legal cards plays the one :func:`last_in_seventh` finds better."""
    return _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       PLAY_RULES)


@jit(inline="always")
def heuristic_play_voids_v9(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid,
                            order):
    """heuristic_v9's card play (the default until the fourth card-play rules): the first three rounds of rules found
    with pimc (PLAY_RULES_V9), unchanged, so that old results reproduce."""
    return _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       PLAY_RULES_V9)


@jit(inline="always")
def heuristic_play_voids_v8(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid,
                            order):
    """heuristic_v8's card play (the default until the declarer's marriage-keeping last-hand winner): the first and second rules found with pimc
    (PLAY_RULES_V8), unchanged, so that old results reproduce."""
    return _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       PLAY_RULES_V8)


@jit(inline="always")
def heuristic_play_voids_v7(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid,
                            order):
    """heuristic_v7's card play (the default until the defenders' trump leads): the first rules found with
    pimc (PLAY_RULES_V7), unchanged, so that old results reproduce."""
    return _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       PLAY_RULES_V7)


@jit(inline="always")
def heuristic_play_voids_v5(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid,
                            order):
    """heuristic_v5's card play (the default until heuristic_v6; heuristic_v2, v3 and v4 play it too):
    :func:`heuristic_play_voids` without the rules found with pimc, unchanged, so that old results reproduce."""
    return _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       np.int64(0))


@jit(inline="always")
def _play_voids(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order, rules):
    c = heuristic_card(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                       rules)
    if not is_declarer and popcount(hand) == 2 and popcount(trick) == 2 and popcount(legal) == 2:
        unseen = DECK_MASK & ~U64(played) & ~U64(hand)
        if popcount(unseen) == 2:  # always in a deal; a made-up position may leave more unseen
            return last_in_seventh(legal, trick, led, trump, unseen, decl_pos, dvoid, pvoid, c)
    return c


@jit
def heuristic_card(hand, legal, trick, led, trump, played, is_declarer, won_any, decl_pos, dvoid, pvoid, order,
                   rules):
    """The default card play since heuristic_v2 (docs/RULES.md §1.5-§1.6).  ``hand``/``legal``/``trick``/
    ``played``: uint64 bit sets; ``led``: the led card (-1 leading); ``trump`` 0..3 or NT;
    ``decl_pos``: the declarer's place in this trick (0 leads); ``dvoid``/``pvoid``: the suits
    (SEEN_VOIDS lanes) the declarer and the other defender have shown out of (0 for the
    declarer: the two defenders'); ``order``: the seat's suit order, for ties between suits; ``rules``: the
    rules found with pimc it plays (bits KEEP_MARRIAGE, KING_DECLARES, DECL_LAST_LOW, DECL_SECOND_LOW_RUFF, DEF_TRUMP_LEAD,
    DECL_LAST_KEEPS, DECL_TOP_BEFORE_MARRIAGE, DEF_MASTER_TRUMP_LEAD; 0 = heuristic_v5's play, PLAY_RULES_V7
    heuristic_v7's, PLAY_RULES_V8 heuristic_v8's, PLAY_RULES_V9 heuristic_v9's).
    Returns a card index (+ DECLARE_FLAG to declare a marriage).

    Leading: :func:`_lead`.  Following, a defender (:func:`_defend`) knows from ``decl_pos``
    whether the declarer or the other defender holds the trick and from the voids which suits
    each has shown out of: last to play on the other defender's winning card, and second to
    play on the other defender's card that the declarer cannot beat (:func:`_unbeatable`), it
    smears points (:func:`_smear`); second to play on the other defender's lead when the
    declarer must ruff it, it keeps its points (or overruffs with a master trump); second to
    play after the declarer's lead when it cannot win and the other defender must ruff, it
    smears; second to play after the declarer's lead otherwise it wins with its most valuable
    winner, as if last.  Otherwise (as heuristic_v1): the least valuable card when it cannot
    win; last to play, the winning card worth most (the smallest trump when ruffing); second,
    a master of the winners, else the smallest ruff, else the least valuable card.  The
    ``rules``: the declarer gives away no K or Q of a marriage he holds while another card does
    (KEEP_MARRIAGE), and last to play wins a trick of the led suit with his lowest winner of it
    (DECL_LAST_LOW), of those no K or Q of a marriage he holds while another wins (DECL_LAST_KEEPS); a marriage
    whose K wins the trick is declared with the K (KING_DECLARES); second to play
    and ruffing, the declarer ruffs low when no defender has shown out of the led suit (DECL_SECOND_LOW_RUFF); a
    defender on lead in a suit contract leads his lowest trump while trumps are out (DEF_TRUMP_LEAD), his master
    trump where he holds one (DEF_MASTER_TRUMP_LEAD); the declarer about to declare a marriage whose K does not win
    first cashes his master of its suit (DECL_TOP_BEFORE_MARRIAGE)."""
    unseen = DECK_MASK & ~U64(played) & ~U64(hand)
    if led < 0:
        return _lead(hand, trump, unseen, is_declarer, won_any, dvoid, pvoid, order, rules)
    # the declarer's cards to give away: without his marriage cards where the rules keep them
    spare = U64(legal)
    if is_declarer and rules & KEEP_MARRIAGE:
        spare = _spare(legal, hand)
    if not is_declarer:
        c = _defend(legal, trick, led, trump, unseen, decl_pos, dvoid, pvoid, order)
        if c >= 0:
            return c
    led_suit = led >> 4
    w = trick_winner(trick, led_suit, trump)
    last = popcount(trick) == 2
    winners = _beaters(legal, w, trump)
    if winners == U64(0):
        return _lowest_value(spare, trump, order)
    if last or (not is_declarer and decl_pos == 0):
        if is_declarer and rules & DECL_LAST_LOW and (winners & _lanes(led_suit)) != U64(0):
            # the trick is his whatever he wins it with: the lowest winner keeps the higher ones,
            # which win later tricks by themselves
            if rules & DECL_LAST_KEEPS:
                return lowest_bit(_spare(winners & _lanes(led_suit), hand))
            return lowest_bit(winners & _lanes(led_suit))
        # only the other defender plays after a defender who follows the declarer's lead
        return _take_last(winners, led_suit, trump, order, spare)
    # second to play: win only with a card the third player cannot beat in the led suit
    ruffing = trump != NT and led_suit != trump and (winners >> U64(16 * trump)) & _LANE6 != U64(0)
    if (ruffing and is_declarer and rules & DECL_SECOND_LOW_RUFF
            and ((_ruffed(dvoid, trump, unseen) | _ruffed(pvoid, trump, unseen)) & _lanes(led_suit)) == U64(0)):
        return _lowest_ruff(winners, spare)
    masters = _masters(winners, unseen) & winners
    if masters != U64(0):
        return highest_bit(masters)
    if ruffing:
        return _lowest_ruff(winners, spare)
    return _lowest_value(spare, trump, order)


# ------------------------------------------------------------------ heuristic_v1 (id 2)
@jit
def heuristic_play_v1(hand, legal, trick, led, trump, played, is_declarer, won_any):
    """heuristic_v1's card play (the first default), unchanged.  Leading: declare a marriage when it can count, else cash masters (a declarer draws trumps
    first), else the card of least value.  Following: the least valuable card when it cannot
    win; last to play, the winning card worth most (the smallest trump when ruffing); second,
    a master of the winners, else the smallest ruff, else the least valuable card."""
    unseen = DECK_MASK & ~U64(played) & ~U64(hand)
    if led < 0:
        ms = marriage_suits(hand)
        masters = _masters(hand, unseen)
        if ms != 0:
            if won_any or masters != U64(0) or popcount(hand) > 3:
                s = trump if (trump != NT and (ms >> trump) & 1) else highest_bit(U64(ms))
                return 16 * s + RQ + DECLARE_FLAG
        if masters != U64(0):
            tm = U64(0)
            if trump != NT:
                tm = masters & (U64(0xFFFF) << U64(16 * trump))
                if is_declarer and tm != U64(0) and (unseen >> U64(16 * trump)) & _LANE6 != U64(0):
                    return highest_bit(tm)
            side = masters & ~tm
            if side != U64(0):
                return _most_points(side, IDENTITY)
        return _lowest_value(hand, trump, IDENTITY)
    # following: find the current winner
    led_suit = led >> 4
    w = trick_winner(trick, led_suit, trump)
    winners = U64(0)
    h = U64(legal)
    while h:
        c = lowest_bit(h)
        h &= h - U64(1)
        if beats(c, w, trump):
            winners |= U64(1) << U64(c)
    if winners == U64(0):
        return _lowest_value(legal, trump, IDENTITY)
    if popcount(trick) == 2:
        # last to play: the winning card worth most, but spend the smallest trump when ruffing
        side = winners
        if trump != NT and led_suit != trump:
            side = winners & ~(U64(0xFFFF) << U64(16 * trump))
        if side != U64(0):
            return _most_points(side, IDENTITY)
        return lowest_bit(winners)
    # second to play: win only with a card the third player cannot beat in the led suit
    masters = _masters(winners, unseen) & winners
    if masters != U64(0):
        return highest_bit(masters)
    if trump != NT and led_suit != trump and (winners >> U64(16 * trump)) & _LANE6 != U64(0):
        return lowest_bit(winners)
    return _lowest_value(legal, trump, IDENTITY)
