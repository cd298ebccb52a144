"""501 winning-bid bands: how often each band is made, blind and not, the abandon rate and
the declarer's mean score change (docs/RULES.md §1.3-§1.7).

Units: bids and targets in deal points; score changes in score points (negative = good for
the declarer, since 501 counts down).
"""
from __future__ import annotations

import functools

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.analysis.plots import pyplot, save_figure
from cardsim.deal import ConditionError
from cardsim.questions import question, run_question, table
from cardsim.runner.store import analysis_store
from cardsim.stats import mean_interval, wilson

BAND_EDGES = [66, 70, 80, 90, 100, 110, 120, 130, 140, 160]
"""Lower edges of the winning-bid bands: 66-69, 70-79, …, 140-159, 160-220; 0 = void deal."""
KEYS = ["band", "blind"]

GLOSSARY = {
    "bid_band / blind": "the winning bid's band (card points) and whether the auction winner never looked "
                        "(blind: his result counts double, docs/RULES.md §1.3)",
    "n / share": "deals in the row / share of all deals",
    "abandon_rate": "share of those contracts the declarer abandoned after seeing the talon (docs/RULES.md §1.4)",
    "n_played / made_rate": "contracts played out / share of them in which the declarer reached his target",
    "declarer_delta": "mean change of the declarer's score per deal, abandons included (score points)",
    "played_delta": "the same over played contracts only",
    "_lo / _hi": "95% interval (Wilson for shares, normal for means)",
}
NOTES = ["501 counts down: a NEGATIVE score change is GOOD for the declarer.",
         "The default strategy bids blind only up to blind_level (72) when the current bid is at most "
         "blind_cur (70), so blind rows stop at the 70-79 band; sweep those parameters to study blind bids.",
         "The figure shows bands with at least 100 played contracts."]
LEGENDS = {
    "g501_bands.png": "How often the auction winner makes his contract, by his winning bid (in bands: 66-69, "
                      "70-79, ...): seen = he looked at his cards before winning the auction, blind = he never "
                      "looked (his result counts double); bars = 95% intervals.",
    "g501_blind.png": "What bidding blind does to your score in a deal, with 3 and with 4 players: across, the "
                      "bid up to which you go on bidding blind (a limit in points); up, your score change against "
                      "never bidding blind, points a deal. 501 counts down, so below 0 = blind pays. Position = "
                      "your turn in the auction (0 = first to speak; any = all turns together); bars = 95% "
                      "intervals.",
    "g501_blind_moment.png": "At your first call: each row is what was called before you and your turn (- = you "
                             "speak first; P = pass; 66 = a bid of 66 by a player who looked; B66 = a blind bid of "
                             "66; pos 0 = first to speak); each column blind:L = bid blind, going on blind up to L. "
                             "A cell is your score change against looking, points a deal: 501 counts down, so "
                             "below 0 (blue) = blind pays; * = its 95% interval includes 0; blank = not possible "
                             "(the bid is already above L).",
}
"""What each figure shows, in a player's words (the report's figure captions)."""


def band_of(bid: np.ndarray) -> np.ndarray:
    """Lower edge of the band of each winning bid (int64); 0 for void deals (bid 0)."""
    bid = np.asarray(bid, dtype=np.int64)
    edges = np.asarray(BAND_EDGES)
    idx = np.searchsorted(edges, bid, side="right") - 1
    return np.where(bid >= edges[0], edges[np.clip(idx, 0, None)], 0)


def band_label(lo: int) -> str:
    if lo == 0:
        return "void"
    i = BAND_EDGES.index(lo)
    hi = BAND_EDGES[i + 1] - 1 if i + 1 < len(BAND_EDGES) else 220
    return f"{lo}-{hi}"


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """Partial sums per (band, blind) of one chunk of 501 deal rows (additive columns only).

    Columns: ``deals``, ``played``, ``made``, ``abandoned``, and the sum / sum of squares of
    the declarer's score change ``ddelta`` (every contract) and ``pdelta`` (played ones).
    """
    declared = rows.declarer.notna().to_numpy()
    declarer = rows.declarer.to_numpy(np.int64, na_value=0)
    # A seat absent from the table (seat 3 of three) never declares: its missing deltas are never read.
    deltas = rows[[f"delta_{s}" for s in range(4)]].to_numpy(np.int64, na_value=0)
    idx = np.arange(len(rows))
    dd = np.where(declared, deltas[idx, declarer], 0).astype(np.float64)
    played = rows.played.to_numpy(bool)
    pd_ = np.where(played, dd, 0.0)
    # Band 0 stands for "no contract"; blind, made and abandoned do not exist there (missing -> 0).
    frame = pd.DataFrame({
        "band": band_of(rows.bid.to_numpy(np.int64, na_value=0)), "blind": rows.blind.fillna(False).to_numpy(bool),
        "deals": 1, "played": played.astype(np.int64), "made": rows.made.fillna(False).to_numpy(np.int64),
        "abandoned": rows.abandoned.fillna(False).to_numpy(np.int64),
        "ddelta": dd, "ddelta_sq": dd ** 2, "pdelta": pd_, "pdelta_sq": pd_ ** 2,
    })
    return frame.groupby(KEYS).sum()


def tables(merged: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``g501_bands``: one row per (band, blind) with n contracts, abandon rate, made rate among
    played contracts (95% Wilson intervals) and the declarer's mean score change (95% normal
    intervals); ``g501_overall``: void, blind, abandon and made rates over all deals."""
    merged = merged.sort_index()
    total = int(merged.deals.sum())
    bands = merged[merged.index.get_level_values("band") > 0]
    t = pd.DataFrame(index=bands.index)
    t.insert(0, "bid_band", [band_label(b) for b, _ in bands.index])
    t.insert(1, "blind", [bool(x) for _, x in bands.index])
    t["n"] = bands.deals.astype(np.int64)
    t["share"] = bands.deals / total
    t["abandon_rate"] = bands.abandoned / bands.deals
    t["abandon_lo"], t["abandon_hi"] = wilson(bands.abandoned, bands.deals)
    t["n_played"] = bands.played.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        t["made_rate"] = np.where(bands.played > 0, bands.made / bands.played.where(bands.played > 0, 1), np.nan)
    t["made_lo"], t["made_hi"] = wilson(bands.made, bands.played)
    mean, _, lo, hi = mean_interval(bands.ddelta, bands.ddelta_sq, bands.deals)
    t["declarer_delta"], t["delta_lo"], t["delta_hi"] = mean, lo, hi
    mean, _, lo, hi = mean_interval(bands.pdelta, bands.pdelta_sq, bands.played)
    t["played_delta"], t["played_delta_lo"], t["played_delta_hi"] = mean, lo, hi
    out = {"g501_bands": t.reset_index(drop=True)}

    void = int(merged.deals[merged.index.get_level_values("band") == 0].sum())
    contracts = int(bands.deals.sum())
    blind = int(bands.deals[bands.index.get_level_values("blind")].sum())
    aband = int(bands.abandoned.sum())
    played = int(bands.played.sum())
    made = int(bands.made.sum())
    rows = []
    for name, k, n in (("void (all passed)", void, total), ("blind contract", blind, contracts),
                       ("abandoned", aband, contracts), ("made (played contracts)", made, played)):
        lo, hi = wilson(k, n)
        rows.append({"measure": name, "n": n, "count": k, "rate": k / n if n else np.nan,
                     "lo": float(lo), "hi": float(hi)})
    out["g501_overall"] = pd.DataFrame(rows)
    return out


def figures(tabs: dict[str, pd.DataFrame], outdir: Path) -> list[Path]:
    """Made rate per winning-bid band, blind and not, with 95% intervals (bands with n >= 100)."""
    plt = pyplot()

    t = tabs["g501_bands"]
    t = t[t.n_played >= 100]
    fig, ax = plt.subplots(figsize=(8, 4))
    labels = list(dict.fromkeys(t.bid_band))  # only the bands that are drawn
    x = {lab: i for i, lab in enumerate(labels)}
    for blind, off, name in ((False, -0.12, "seen"), (True, 0.12, "blind")):
        s = t[t.blind == blind]
        if s.empty:
            continue
        xs = np.array([x[b] for b in s.bid_band]) + off
        ax.errorbar(xs, s.made_rate, yerr=[s.made_rate - s.made_lo, s.made_hi - s.made_rate],
                    fmt="o", capsize=3, label=name)
    ax.set_xticks(range(len(labels)), labels, rotation=30)
    ax.set_ylabel("made rate (played contracts)")
    ax.set_xlabel("winning bid")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("501: contracts made by winning-bid band")
    fig.tight_layout()
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / "g501_bands.png"
    save_figure(fig, path, dpi=110)
    return [path]


# ------------------------------------------------------------------ blind-policy sweep
BLIND_GLOSSARY = {
    "seats": "players at the table: 3, or 4 (the dealer sits each deal out, so seat 0 plays three deals in four "
             "and its score change counts 0 in the fourth)",
    "position": "seat 0's speaking position in the auction it may bid blind from (0 = first; any = every position)",
    "blind_level": "seat 0 keeps bidding blind (minimum raise) while the next bid is at most this (deal "
                   "points); then it looks",
    "n": "deals played under each policy (the same deals for every row)",
    "blind_won": "share of deals in which seat 0 won the auction blind",
    "delta": "seat 0's mean score change per deal (score points; 501 counts down, so negative is good)",
    "diff": "paired difference of delta against the baseline (seat 0 never blind) on the same deals: "
            "negative = the blind policy pays",
    "diff_lo / diff_hi": "95% interval of the paired difference",
    "pays": "the whole interval is below 0: the policy gains points for seat 0",
}
BLIND_NOTES = ["Baseline: seat 0 plays heuristic:blind_prob=0 (never blind); every variant sets blind_prob=1, "
               "blind_cur=blind_level-1 and the row's blind_pos and blind_level.",
               "Seats 1 and 2 play the default heuristic throughout; every variant replays the baseline's deals "
               "(common random numbers), so differences are paired.",
               "Independent deals start every seat at 501; score-dependent policies (blind_score) need matches."]


def blind_variants(levels=(66, 70, 75, 80, 90, 100), positions=(-1, 0, 1, 2)) -> dict:
    """Seat-0 strategies of the sweep: name → {0: spec}; blind whenever the gates allow."""
    out = {}
    for pos in positions:
        for lvl in levels:
            name = f"{'any' if pos < 0 else pos}:{lvl}"
            out[name] = {0: f"heuristic:blind_prob=1,blind_level={lvl},blind_cur={lvl - 1},blind_pos={pos}"}
    return out


def blind_measure(rows: pd.DataFrame) -> pd.DataFrame:
    """Per deal: seat 0's score change and whether it won the auction blind (0 when nobody won it)."""
    return pd.DataFrame({"delta": rows["delta_0"].astype(np.float64),
                         "blind_won": ((rows["declarer"] == 0) & rows["blind"]).fillna(False).astype(np.float64)})


def blind_table(compared: pd.DataFrame, seats: int | None = None) -> pd.DataFrame:
    """One row per variant from ``cardsim.compare(..., measure=blind_measure)``; with
    ``seats`` a first column says how many played (with 4 the dealer sits out: seat 0 scores
    nothing in a quarter of the deals)."""
    wide = compared.pivot(index="variant", columns="measure", values=["mean", "diff", "diff_lo", "diff_hi", "n"])
    t = pd.DataFrame({"variant": wide.index})
    t["position"] = ["never blind" if v == "baseline" else v.split(":")[0] for v in t.variant]
    t["blind_level"] = pd.array([None if v == "baseline" else int(v.split(":")[1]) for v in t.variant],
                                dtype="Int64")
    t["n"] = wide[("n", "delta")].to_numpy().astype(np.int64)
    t["blind_won"] = wide[("mean", "blind_won")].to_numpy()
    t["delta"] = wide[("mean", "delta")].to_numpy()
    t["diff"] = wide[("diff", "delta")].to_numpy()
    t["diff_lo"] = wide[("diff_lo", "delta")].to_numpy()
    t["diff_hi"] = wide[("diff_hi", "delta")].to_numpy()
    t["pays"] = t.diff_hi < 0
    order = {"never blind": -2, "any": -1}
    t["_o"] = [order.get(p, 0) if p in order else int(p) for p in t.position]
    t = t.sort_values(["_o", "blind_level"]).drop(columns=["_o", "variant"]).reset_index(drop=True)
    if seats is not None:
        t.insert(0, "seats", int(seats))
    return t


def blind_figure(table: pd.DataFrame, outdir: Path) -> list[Path]:
    """Paired difference of seat 0's score change against the blind level, one line per position
    (one panel per number of seats when the table has a ``seats`` column)."""
    plt = pyplot()

    groups = list(table.groupby("seats")) if "seats" in table else [(None, table)]
    fig, axes = plt.subplots(1, len(groups), figsize=(8 * len(groups) ** 0.75, 4.5), squeeze=False)
    for ax, (seats, part) in zip(axes[0], groups):
        for pos, g in part[part.position != "never blind"].groupby("position", sort=False):
            ax.errorbar(g.blind_level, g["diff"], yerr=[g["diff"] - g.diff_lo, g.diff_hi - g["diff"]], marker="o",
                        capsize=3, label=f"position {pos}")
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xlabel("blind up to this bid (deal points)")
        ax.set_ylabel("score change vs never blind (points/deal)")
        if seats is not None:
            ax.set_title(f"{seats} seats", fontsize=10)
        ax.legend()
    fig.suptitle("501: seat 0 bidding blind, paired with the same deals (below 0 = pays)")
    fig.tight_layout()
    path = Path(outdir) / "g501_blind.png"
    save_figure(fig, path, dpi=110)
    return [path]


# ------------------------------------------------------------ the moment of choice
MOMENT_PREFIXES = ([], ["P"], ["66"], ["B66"], ["70"], ["80"], ["P", "P"], ["P", "66"], ["66", "P"], ["P", "B66"],
                   ["66", "70"], ["B66", "B67"], ["P", "75"], ["70", "80"])
"""The calls before seat 0's first turn (3 seats): none (it speaks first), one, or two."""
MOMENT_LEVELS = (70, 80, 90, 100, 120)
MOMENT_COLUMNS = ["auction", "hands", "position", "current_bid", "option", "level", "n", "legal", "delta",
                  "delta_lo", "delta_hi", "diff", "diff_lo", "diff_hi", "pays"]
MOMENT_GLOSSARY = {
    "auction": "the calls made before seat 0's first turn (P pass, B66 a blind 66); '-' = seat 0 speaks first",
    "hands": "implied = the callers' hands are dealt so that the default players make those calls; random = the "
             "default players never make them (they bid the minimum raise), so the calls are made on any hands",
    "position / current_bid": "seat 0's auction position (the number of calls before it) and the bid it must raise",
    "option": "look = look at the hand, then the strategy bids; blind:L = bid blind (minimum raise) and go on "
              "blind while the raise is at most L, then look (only levels above the current bid are asked)",
    "delta": "seat 0's mean score change in the deal (score points; negative is good)",
    "diff (moment)": "the option's delta minus look's on the same deals (paired); negative = blind pays",
    "pays (moment)": "the whole interval of diff is below 0",
}
MOMENT_NOTES = ["g501_blind_moment asks the question at the moment of choice: the calls before seat 0's turn are "
                "given (cardsim.evaluate auction=) and the callers' hands are dealt so that the default players "
                "would make exactly those calls (hands = implied); the default players never jump, so after a jump "
                "bid (70, 75, 80) the calls are made on any hands (hands = random); everything after the choice is "
                "played by the default heuristic."]


def moment_dealer(prefix) -> int:
    """The dealer that makes seat 0 speak after ``len(prefix)`` calls (3 seats)."""
    return (-1 - len(prefix)) % 3


def current_bid(prefix) -> int:
    bids = [int(c.lstrip("Bb")) for c in prefix if c.upper() != "P"]
    return max(bids, default=0)


def moment_options(prefix, levels=MOMENT_LEVELS) -> list[str]:
    """look and blind:L for every level above the current bid."""
    return ["look"] + [f"blind:{lvl}" for lvl in levels if lvl > current_bid(prefix)]


PILOT = 20
"""Deals of the pilot that decides whether the players make a moment's calls."""


@functools.lru_cache(maxsize=None)
def calls_imply_hands(prefix: tuple) -> bool:
    """Whether the default players make the calls ``prefix`` (then the moment's deals are dealt so
    that they do), or never do (a jump bid: then the calls are made on any hands).  Decided by
    dealing the first :data:`PILOT` deals of the question with the calls implied (one deal let a call
    the players make almost never through, and the question's later deals then failed)."""
    if not prefix:
        return False
    q = moment_question(prefix, PILOT, 0, implied=True)
    try:
        q.deal(0, PILOT)
    except ConditionError:
        return False
    return True


def moment_question(prefix, n: int, seed: int, levels=MOMENT_LEVELS, implied=None):
    if implied is None:
        implied = calls_imply_hands(tuple(prefix))
    return question("501", 0, moment_options(prefix, levels), n=n, seed=seed, dealer=moment_dealer(prefix),
                    auction=list(prefix), chunk_size=max(1, min(n, 50_000)), calls_imply_hands=implied)


def moment_rows(prefix, sums: dict, levels=MOMENT_LEVELS) -> pd.DataFrame:
    """The :data:`MOMENT_COLUMNS` rows of one auction prefix from its question sums: per option its
    mean score change and the paired difference to ``look`` (over the deals where it was legal)."""
    q = moment_question(prefix, 1, 0, levels)
    t = table(q, sums).set_index("option").loc[list(q.options)]
    look = q.options.index("look")
    diff, _, lo, hi = mean_interval(sums["pair_s1"][:, look], sums["pair_s2"][:, look], sums["pair_n"][:, look])
    hands = "implied" if q.calls else "random" if prefix else "-"
    out = pd.DataFrame({"auction": " ".join(prefix) or "-", "hands": hands, "position": len(prefix),
                        "current_bid": current_bid(prefix),
                        "option": list(q.options),
                        "level": [0 if o == "look" else int(o.split(":")[1]) for o in q.options],
                        # evaluate's score is the change with its sign turned (higher is better): turned back
                        "n": t["n"].to_numpy(), "legal": t["legal"].to_numpy(), "delta": -t["score"].to_numpy(),
                        "delta_lo": -t["score_hi"].to_numpy(), "delta_hi": -t["score_lo"].to_numpy(),
                        "diff": diff, "diff_lo": lo, "diff_hi": hi})
    out.loc[look, ["diff", "diff_lo", "diff_hi"]] = 0.0
    out["pays"] = out.diff_hi < 0
    return out[MOMENT_COLUMNS]


def moment_table(n: int, seed: int, prefixes=MOMENT_PREFIXES, levels=MOMENT_LEVELS, n_jobs: int = -1,
                 results=None) -> pd.DataFrame:
    """Every prefix's options on ``n`` deals (the same deals for every option of a prefix).
    ``results``: a folder keeping each finished prefix, and the finished chunks of the one under
    way, so that the same call after an interruption resumes."""
    prefixes = [list(p) for p in prefixes]
    store = analysis_store(results, "501-moment", moment_rows, prefixes=prefixes, n=n, seed=seed, levels=list(levels))
    done = store.done() if store is not None else set()
    frames = []
    for k, p in enumerate(prefixes):
        if k in done:
            sums = store.load(k)
        else:
            chunks = None if store is None else store.path / f"prefix-{k:03d}"
            sums = run_question(moment_question(p, n, seed, levels), n_jobs, store=chunks)
            if store is not None:
                store.save(k, sums)
        frames.append(moment_rows(p, sums, levels))
    return pd.concat(frames, ignore_index=True)


def moment_figure(table: pd.DataFrame, outdir: Path) -> Path:
    """``g501_blind_moment.png``: blind to L minus look (points per deal) per auction prefix and
    level; blank where the level is not above the current bid, * where the interval includes 0."""
    plt = pyplot()

    blinds = table[table.option != "look"]
    prefixes = list(dict.fromkeys(table.auction))
    levels = sorted(blinds.level.unique())
    grid = np.full((len(prefixes), len(levels)), np.nan)
    fig, ax = plt.subplots(figsize=(1.2 * len(levels) + 3, 0.42 * len(prefixes) + 1.6))
    for r in blinds.itertuples():
        y, x = prefixes.index(r.auction), levels.index(r.level)
        grid[y, x] = r.diff
        ax.text(x, y, f"{r.diff:+.1f}{'' if r.pays or r.diff_lo > 0 else '*'}", ha="center", va="center", fontsize=8)
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(levels)), [f"blind:{v}" for v in levels])
    ax.set_yticks(range(len(prefixes)), [f"{p}  (pos {len(p.split()) if p != '-' else 0})" for p in prefixes])
    ax.set_ylabel("calls before seat 0's turn")
    fig.colorbar(im, ax=ax, label="score change vs look (points/deal; negative = blind pays)")
    ax.set_title("501 at the moment of choice: blind to L vs look, paired (* = interval includes 0)", fontsize=10)
    fig.tight_layout()
    path = Path(outdir) / "g501_blind_moment.png"
    save_figure(fig, path, dpi=110)
    return path
