"""The words of the report's 501 section: its answer, rules of thumb, glossary, notes, method and
figure legends, every number read from the tables (:mod:`cardsim.analysis.g501.game`: the
equity tables of :mod:`cardsim.analysis.g501.equity`, the blind chart of
:mod:`cardsim.analysis.g501.blind_chart`).

Units as in the tables: scores in score points (501 counts down), win probabilities as shares
0..1 (printed in percent), gains in percentage points (pp) of game-win probability.
"""
from __future__ import annotations

import re

import pandas as pd

from cardsim.analysis import rules_of_thumb as T
from cardsim.analysis.g501.blind_chart import GAME, best_blind_rows
from cardsim.analysis.robustness import others, sentence
from cardsim.analysis.verdicts import LOOK, NO_CLEAR


# ---------------------------------------------------------------- the answer
def _pp(x: float) -> str:
    return f"{x:+.1f} pp"


def _ci(lo: float, hi: float) -> str:
    return f"[{lo:+.1f}, {hi:+.1f}]"


def _where(r) -> str:
    return f"at {r.own} against two opponents at {r.opp} (position {r.position})"


def _summary_sentence(c: pd.DataFrame) -> str:
    blind = c.verdict.str.startswith("blind")
    look = c.verdict == LOOK
    unclear = c.verdict == NO_CLEAR
    return (f"Over {len(c)} situations (own score × lead over both opponents × auction position), bidding blind "
            f"at the first turn clearly raises the game-win probability over looking in {int(blind.sum())}, "
            f"looking is clearly better in {int(look.sum())}, and {int(unclear.sum())} give no clear answer "
            "(not called clear: the best option is chosen on half of the deals and its gain over looking measured "
            "on the other half, at a 2.5% false discovery rate over the chart).")


def _level(option: str) -> int:
    return int(option.split(":")[1])


def _ends(levels: str) -> tuple[int, int]:
    """The lowest and highest level of a :func:`levels_text` text."""
    found = [int(x) for x in re.findall(r"\d+", levels)]
    return min(found), max(found)


def _blind_text(levels: str, best: int) -> str:
    """``blind to 120``, or ``blind to 90-120 (best level 120)`` when other levels are as good."""
    return f"blind to {levels}" + ("" if levels == str(best) else f" (best level {best})")


def _situation(c: pd.DataFrame, r) -> pd.Series:
    return c[(c.own == r.own) & (c.lead == r.lead) & (c.position == r.position)].iloc[0]


def _largest_sentence(c: pd.DataFrame) -> str:
    r = c.loc[c.gain_pp.idxmax()]
    if r.gain_pp <= 0:
        return "No blind level beats looking in any situation."
    return (f"Blind pays most {_where(r)}: {_blind_text(r.levels_as_good, _level(r.best))} adds {_pp(r.gain_pp)} "
            f"{_ci(r.gain_lo, r.gain_hi)} of game-win probability (looking wins {100 * r.win_look:.1f}%).")


def hurts_sentence(long: pd.DataFrame, c: pd.DataFrame) -> str:
    """Where blind hurts: the situations in which every blind level is clearly worse than
    looking (the chart's verdict ``look``; named by the levels as good as the best blind level),
    else the most harmful (level, situation) pair (its gain over looking on all the deals, on
    its own).  ``long``: the blind chart's long table (one row per situation and option, gains in
    percentage points of games won); ``c``: its choices (one row per situation, ``verdict``).
    Returns one sentence (str) for the report's answer."""
    blinds = long[long.option != LOOK]
    keys = ["own", "lead", "position"]
    every = c[keys].assign(every=(c.verdict == LOOK).to_numpy())
    best = best_blind_rows(long).merge(every, on=keys)
    hurt = best[best.every]
    if len(hurt):
        worst = hurt.loc[hurt.gain_pp.idxmin()]
        name = _blind_text(_situation(c, worst).levels_as_good, int(worst.level))
        return (f"Every blind level is clearly worse than looking in {len(hurt)} situation(s); the worst is "
                f"{_where(worst)}, where even {name} costs {_pp(worst.gain_pp)} "
                f"{_ci(worst.gain_lo, worst.gain_hi)}.")
    worst = blinds.loc[blinds.gain_pp.idxmin()]
    if worst.gain_hi < 0:
        there = _situation(best, worst)
        good = _situation(c, worst).levels_as_good
        lo, hi = _ends(good)
        how = "when bid too high" if worst.level > hi else ("when bid too low" if worst.level < lo else
                                                             "at some levels")
        return (f"Blind hurts only {how}: the largest loss is {worst.option} {_where(worst)}, "
                f"{_pp(worst.gain_pp)} {_ci(worst.gain_lo, worst.gain_hi)}; there the best is "
                f"{_blind_text(good, int(there.level))}, {_pp(there.gain_pp)} {_ci(there.gain_lo, there.gain_hi)} "
                "over looking.")
    return "No blind level is clearly worse than looking in any situation studied."


def _lead_text(lead: int) -> str:
    return "level" if lead == 0 else (f"{lead} ahead" if lead > 0 else f"{-lead} behind")


def _lead_sentence(c: pd.DataFrame) -> str:
    """The verdicts by lead over the opponents (every own score and position together)."""
    parts = []
    for lead, g in c.groupby("lead", sort=True):
        blind = int(g.verdict.str.startswith("blind").sum())
        look = int((g.verdict == LOOK).sum())
        counts = f"blind clearly better in {blind} of {len(g)}" + (f", looking in {look}" if look else "")
        parts.append(f"{_lead_text(lead)}: {counts}, gains {g.gain_pp.min():+.1f} to {g.gain_pp.max():+.1f} pp")
    return "By lead over both opponents: " + "; ".join(parts) + "."


def _levels_sentence(c: pd.DataFrame) -> str:
    """How high to go: per own score, the most frequent range of levels as good as the best where
    blind is clearly better, and how often one level alone is best."""
    blind = c[c.verdict.str.startswith("blind")]
    if blind.empty:
        return ""
    parts = []
    for own, g in blind.groupby("own", sort=True):
        counts = g.levels_as_good.value_counts()
        parts.append(f"at {own}: blind to {counts.index[0]} ({counts.iloc[0]} of {len(g)})")
    alone = int((blind.levels_as_good == blind.best.map(lambda b: str(_level(b)))).sum())
    return ("Where blind pays, the levels as good as the best one (not clearly worse on the same deals) are most "
            "often, by own score, " + "; ".join(parts) + f". One level alone is best in {alone} of {len(blind)} "
            "such situations; elsewhere the chart names every level as good as the best.")


def _position_sentence(c: pd.DataFrame) -> str:
    parts = [f"{p} {g.gain_pp.median():+.1f} pp" for p, g in c.groupby("position", sort=True)]
    return "Median gain of the best option over looking by auction position (0 = first speaker): " + \
        ", ".join(parts) + "."


def _equity_sentence(eq: pd.DataFrame) -> str:
    """The seat advantage at the start and what a lead is worth from the middle of the grid."""
    grid = sorted(eq.own.unique())
    top = grid[-1]
    parts = []
    even = eq[(eq.own == top) & (eq.best == top) & (eq.other == top)]
    if len(even):
        e = even.iloc[0]
        pos = ", ".join(f"{100 * e[f'p_pos{p}']:.1f}% [{100 * e[f'p_pos{p}_lo']:.1f}, {100 * e[f'p_pos{p}_hi']:.1f}]"
                        for p in range(3))
        parts.append(f"From {int(top)} each, the players speaking first, second and last in the first deal win "
                     f"{pos} of games.")
    mid = grid[len(grid) // 2]
    cells = []
    for opp in grid:
        row = eq[(eq.own == mid) & (eq.best == opp) & (eq.other == opp)]
        if len(row) and opp != mid:
            r = row.iloc[0]
            cells.append(f"{100 * r.p_win:.1f}% {_lead_text(int(opp - mid))} (both at {int(opp)})")
    if cells:
        parts.append(f"At {int(mid)}, level with both opponents, a player wins 1 game in 3; " + ", ".join(cells) + ".")
    return " ".join(parts)


def _policy_sentence(c: pd.DataFrame, policy: dict | None) -> str:
    """How the default heuristic's own blind policy compares with the chart."""
    if not policy:
        return ""
    prob, level, cur = policy["blind_prob"], policy["blind_level"], policy["blind_cur"]
    text = (f"The default heuristic bids blind with probability {prob:g} when the bid is at most {cur:g}, "
            f"up to {level:g}")
    blind = c[c.verdict.str.startswith("blind")]
    if len(blind) <= len(c) / 2:
        return text + "."
    high = sum(_ends(g)[0] > level for g in blind.levels_as_good)
    verdicts = []
    if prob < 0.5:
        verdicts.append(f"too rarely (blind is clearly better in {len(blind)} of {len(c)} situations)")
    if high:
        verdicts.append(f"too low (every level as good as the best is above {level:g} in {high} of those)")
    return text + (": against these numbers it bids blind " + " and ".join(verdicts) if verdicts else "") + "."


def _robust_sentence(c: pd.DataFrame) -> str:
    """Which verdicts hold under the other player profiles, which depend on them, and how far the
    gains of blind over looking move (ranges), for the situations where blind is clearly best."""
    if "holds" not in c:
        return ""
    text = sentence(c, "best choice", "pp", len(others(GAME)))
    blind = c[c.verdict.str.startswith("blind") & c.gain_min.notna()]
    if len(blind):
        small = blind[blind.gain_min < 0.25 * blind.gain_max]
        text += (f" Where blind is clearly best, its gain over looking falls below a quarter of its highest value "
                 f"under some profile in {len(small)} of {len(blind)} situations; across all of them the smallest "
                 f"gain ranges from {blind.gain_min.min():+.1f} to {blind.gain_min.max():+.1f} pp.")
    return text


def answer(tabs: dict[str, pd.DataFrame], policy: dict | None = None) -> str:
    """The answer paragraph, every number read from the tables of :func:`tables` (``policy``: the
    default heuristic's blind parameters, for the last sentence): :func:`answer_parts` in one paragraph."""
    return " ".join(answer_parts(tabs, policy))


def answer_parts(tabs: dict[str, pd.DataFrame], policy: dict | None = None) -> list[str]:
    """The answer's sentences (each a short paragraph of its own: the report lists them)."""
    c, long = tabs["g501_game_choices"], tabs["g501_game_decisions"]
    parts = [_summary_sentence(c), _largest_sentence(c), hurts_sentence(long, c), _lead_sentence(c),
             _levels_sentence(c), _position_sentence(c), _robust_sentence(c),
             _equity_sentence(tabs["g501_game_equity_long"]), _policy_sentence(c, policy)]
    return [p for p in parts if p]


# ---------------------------------------------------------------- rules of thumb
SPEAKING = {0: "speaking first", 1: "speaking second", 2: "speaking last"}


def _situation_words(r) -> str:
    lead = "level with them" if r.lead == 0 else (f"{r.lead} ahead" if r.lead > 0 else f"{-r.lead} behind")
    return (f"At {r.own}, both opponents at {r.opp} ({lead}), "
            f"{SPEAKING.get(int(r.position), f'position {r.position}')}")


def rules(tabs: dict[str, pd.DataFrame]) -> list[dict]:
    """The rules of thumb (:mod:`cardsim.analysis.rules_of_thumb`) from the decision chart: every
    situation with a clear verdict is a candidate.  'blind to L-H': its number is the best blind
    level's gain over looking (``g501_game_choices``: gain_pp, held-out deals); 'look': looking's
    gain over the best blind level (``g501_game_decisions``, that level's row: minus its held-out
    gain over looking).  Worth = the gain in game-win chance (pp); how often a score situation
    comes is not measured, so it is not weighted.  What a rule settles
    (:data:`cardsim.analysis.rules_of_thumb.RULE`): the profiles whose own best is the option it
    beats and the previous default's best, where the robust replay wrote them (``best_under``).
    The best of each own score first."""
    c = tabs["g501_game_choices"].reset_index(drop=True)
    long = tabs["g501_game_decisions"].reset_index(drop=True)
    best_rows = {(r.own, r.lead, r.position): r for _, r in best_blind_rows(long).iterrows()}
    unit, order = "pp of game-win chance", "the gain in the chance of winning the game (percentage points)"
    out = []
    for i, r in c.iterrows():
        where = _situation_words(r)
        bests = T.profile_bests(r.get("best_under"))  # each profile's own best option (the robust replay's)
        if str(r.verdict).startswith("blind") and r.gain_pp > 0:
            text = f"{where}: bid blind at your first turn, going on blind up to {r.levels_as_good}"
            out.append(T.rule("501", text, "g501_game_choices", i, ("gain_pp", "gain_lo", "gain_hi"),
                              (r.gain_pp, r.gain_lo, r.gain_hi), unit, "over looking", "{:+.1f}", r.gain_pp,
                              "pp of game-win chance", order, f"own {r.own}", r,
                              players=T.players_of(LOOK, None, bests), moved_from=T.moved_from(r.best, bests)))
        elif r.verdict == LOOK and (r.own, r.lead, r.position) in best_rows:
            b = best_rows[(r.own, r.lead, r.position)]
            if not b.gain_half1_pp < 0:
                continue
            text = f"{where}: look at your cards before you bid"
            out.append(T.rule("501", text, "g501_game_decisions", int(b.name),
                              ("gain_half1_pp", "gain_half1_lo", "gain_half1_hi"),
                              (b.gain_half1_pp, b.gain_half1_lo, b.gain_half1_hi), unit,
                              f"over blind up to {int(b.level)}", "{:+.1f}", -b.gain_half1_pp,
                              "pp of game-win chance", order, f"own {r.own}", r, sign=-1.0,
                              robust_at=("g501_game_choices", i),
                              players=T.players_of(f"blind:{int(b.level)}", None, bests),
                              moved_from=T.moved_from(LOOK, bests)))
    return T.pick(out)


# ---------------------------------------------------------------- figure legends
CHART_LEGEND = (
    "Whether to bid blind at your first turn of a deal, for the chance of winning the game (3 players). A row is "
    "your score (501 counts down: lower is better), a column the lead: the opponents' score minus yours, both "
    "opponents at the same score (+100 = you are 100 ahead, -100 = 100 behind); a panel is your turn in the "
    "auction (position 0 = first to speak, left of the dealer; 2 = last, the dealer). In a cell: B90-120 = bid "
    "blind at your first turn and go on blind while the bid is at most a limit anywhere from 90 to 120 (those "
    "limits do about as well); look = look at your cards first; the number = how many percentage points (pp) of "
    "game-win chance the best limit adds over looking; ? on hatched grey = no clear answer; lo..hi = that gain "
    "from the least to the most over the other players (more cautious or bolder bidders ...); \u2020 = depends on "
    "the players: with some of them another choice is clearly better; \u00b0 = not decidable with them at this "
    "size. Colour = the best limit.")
LEGENDS = {
    "g501_game_chart.png": CHART_LEGEND,
    # the run's own caption replaces this one (fixed.legend: its rounds, deals and whether it settled)
    "g501_fixed_chart.png": "The same chart when every player at the table follows it (recomputed with every player "
                            "on it; the run's caption says how many rounds, on how many deals, and whether it "
                            "settled). " + CHART_LEGEND,
    "g501_game_equity.png": "Your chance (%) of winning the game with 3 players from a score state: a row is your "
                            "score, a column the better opponent's score (501 counts down: lower is better); left, "
                            "the other opponent at the same score as the better one; right, the other opponent at "
                            "the highest score of the grid. Averaged over who deals first and over the seating.",
}
"""What each figure shows, in a player's words (the report's figure captions)."""


# ---------------------------------------------------------------- glossary, notes, method
GLOSSARY = {
    "own / best / other": "the player's score and the opponents' scores, best (lowest) first (score points; 501 "
                          "counts down, the lowest score wins when someone reaches 0)",
    "other 300, others 300/501": "the equity tables' columns: the other opponent's (or, with 4 seats, the other two "
                                 "opponents') score; cells: the player's game-win probability (%)",
    "p_win / lo / hi": "probability of winning the game (a tie shares the win), averaged over the first dealer and "
                       "over the seatings of the opponents, with its 95% Wilson interval",
    "p_pos0 …": "the same by the player's auction position in the first deal (0 speaks first; with 4 seats 3 = "
                "deals and sits out)",
    "lead / opp": "the decision chart's situation: both opponents are at opp = own + lead (lead > 0: the player is "
                  "ahead)",
    "position": "the player's turn in this deal's auction (0 = first speaker, left of the dealer)",
    "best": "look, or blind:L = bid blind (the minimum raise) at the first turn and go on blind while the raise is "
            "at most L, then look",
    "gain_pp / gain_lo / gain_hi": "game-win probability of the best option minus that of looking, paired on the "
                                   "same deals, in percentage points, with its 95% interval; in the chart and "
                                   "choices the best option is chosen on the even-numbered deals (rank_half0: "
                                   "paired comparisons) and its gain measured on the odd-numbered ones "
                                   "(gain_half1_pp: no winner's curse)",
    "verdict / p_value": "'blind to L-H' when a blind level is best and its gain over looking is clearly above 0, "
                         "naming the levels as good as the best (levels_as_good); 'look' when looking is best and "
                         "every blind level's gain is clearly below 0 (p_value: the largest of theirs); otherwise "
                         "'no clear answer'. Clearly = called clear by Benjamini-Hochberg over the chart's "
                         "situations at a 2.5% false discovery rate on the one-sided p_value (docs/statistics.md)",
    "clear_levels": "(choices CSV) the blind levels whose gain over looking has its 95% interval above 0 over all "
                    "the deals, each level on its own (no correction for testing several)",
    "levels_as_good": "(choices CSV) the blind levels as good as the best blind level: not clearly worse, i.e. the "
                      "95% interval of their win minus the best level's, paired on the same deals, does not lie "
                      "wholly below 0 (each level tested on its own, no correction for testing several) and, where "
                      "the best level clearly beats looking, whose own gain over looking is clearly above 0; 'L-H' = "
                      "every level played from L to H, a clearly worse level in between splits it ('70, 120')",
    "position 0 / 1 / 2": "the decision chart's cells: the verdict and the best level's gain ('blind to 90-120: "
                          "+2.9 pp', 'look'); '?' marks no clear answer, followed by the better-looking option "
                          "('? look', or '? blind:70-90 +0.3 pp' with the best level's gain over looking)",
    "next_level / gain_vs_next_pp / _lo / _hi": "(choices CSV) the runner-up blind level (next in the ranking) and "
                                                "the best level's win minus it, paired, in pp with its 95% interval",
    "diff_best_pp / _lo / _hi": "(decisions CSV) the option's win minus the best blind level's, paired on the same "
                                "deals, in pp with its 95% interval",
    "win / win_lo / win_hi": "(decisions CSV) the player's mean share of the game's win after the option",
    "legal / made": "(decisions CSV) share of deals the option could be taken; made rate of the contracts the player "
                    "declared",
}
NOTES = [
    "Game-win probabilities: every game is played to its end by the default heuristic strategies for all "
    "players; the player studied is seat 0, and only its first call of one deal is forced.",
    "Decision situations put both opponents at the same score (own score + lead), so the best opponent is well "
    "defined; other spreads of the opponents are in the equity tables, not the chart.",
    "Equity: each rotation class of a score state is played once with every first dealer and read from every "
    "chair; a row pools its seatings and dealers with equal weight. Games ended unfinished (cap of 5,000 deals) "
    "are counted as won by nobody (column unfinished of g501_game_states).",
]


def notes(tabs: dict[str, pd.DataFrame]) -> list[str]:
    """:data:`NOTES` and what the numbers say about the blind options' legality and unfinished games."""
    long, states = tabs["g501_game_decisions"], tabs["g501_game_states"]
    blinds = long[long.option != LOOK]
    legal = ("in every deal of every situation" if (blinds.legal == 1).all() else
             f"in {100 * blinds.legal.min():.1f}% to {100 * blinds.legal.max():.1f}% of the deals of a situation")
    unfinished = int(states.unfinished.sum())
    return NOTES + [f"A blind option is compared with looking over the deals where it was legal: here {legal} (the "
                    "current bid at the player's first turn was below the level).",
                    f"{unfinished:,} of {int(states.games.sum()):,} equity games ended unfinished."]


METHOD = ("501 in the game: the match-equity tables play whole games (cardsim.play_match) from every score "
          "state of a grid, one state per rotation of the table and once with each first dealer, and read every "
          "seat's share of the win (exact ties share). The decision chart plays, for each situation (own score, "
          "lead over both opponents, auction position), the first call look and blind up to each level on the same "
          "deals with the same strategy randomness; each deal's game is played on to its end (cardsim.evaluate "
          "with outcome='game'), so the gain in game-win probability over looking is a paired difference with a "
          "95% interval. The best option is chosen on the even-numbered deals and its gain over looking measured on "
          "the odd-numbered ones (no winner's curse); a cell's verdict is clear at a 2.5% false discovery rate over "
          "the chart's situations (Benjamini-Hochberg); the best blind level is compared the same way with every other level, and the chart names "
          "every level not clearly worse than it (and, where the best clearly pays, clearly paying too).")
