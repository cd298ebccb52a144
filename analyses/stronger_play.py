"""Does a stronger player change the answer?  Chart cells replayed with ``pimc`` card play on every
seat until each one's verdict decides (``make stronger``: too slow for the report's budget; the
report shows this section when its tables exist and says how to get them when not).

Reads the charts the other analyses wrote (``--out``/tables: vint_charts.json, 500_guide.json,
501_game.json and their CSV tables), picks per game the cells of :mod:`analyses.stronger_rule`
(the rule, the looks, the verdict), and asks each cell's best against its runner-up with the chart
module's own question builder (the one its replay under other profiles uses), once with
``heuristic`` and once with ``pimc:worlds=W`` on every seat, in looks of doubling size: a cell
stops at the first look where its pimc interval excludes 0 or is narrower than the chart's gap,
or at the cap.  The deals of a cell come in pieces of ``PIECE`` deals, each a question of its own
seed (the first piece: the chart's own seed, so its first deals), so a later look only adds
deals.  Writes one table per game and ``stronger_play.json``.  A game without a ``pimc`` strategy
gets the heuristic gaps and the verdict ``not available``.  ``--results``: each finished piece is
kept there, so an interrupted run resumes, with the same result for any ``--jobs``.  Each game's
cells, looks, worlds and units are its module ``analyses/<module>_stronger.py``
(:func:`game_part`); this module never names a game.

    python -m analyses.stronger_play --seed 2026 --jobs -1 --results results --out reports [--quick]
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

import pandas as pd

from cardsim._version import __version__
from analyses import game_script, stronger_rule as R
from analyses.common import entry, script_main, write_tables
from cardsim.analysis import stronger as S
from cardsim.games import GAME_NAMES, get_game
from cardsim.runner.run import make_run
from cardsim.runner.store import analysis_store, run_chunks

TITLE = "Does a stronger player change the answer?"
TARGET = "make stronger"
QUICK_CELLS = 2
"""Cells per game of ``--quick`` (``make stronger QUICK=1``)."""
QUICK_PIECES = 1
"""Looks of ``--quick``: one piece per cell (its game's ``PIECE`` deals: no decision expected)."""
NOT_RUN = (f"This check is not in this report: it replays {R.CELLS} chart cells per game with the sampled-search "
           "player pimc playing every seat's cards until each verdict decides, too slow for the report's budget "
           f"(README, `{TARGET}`). Run `{TARGET}` (after the charts; resumable) and then `make report` again: its verdicts "
           "(agrees, reverses, not decidable at this size) appear here and in the Answers.")
"""What the report says in this section's place when the check has not been run (analyses/report.py)."""
STALE = (f"These results were made from earlier charts than the ones above (their tables changed since): run "
         f"`{TARGET}` again to check the current cells.")
"""What the report says above the section when a chart it read is newer than its tables."""


def game_part(game: str):
    """The module of ``game``'s cells, ``analyses/<module>_stronger.py`` (``vint_stronger``):
    ``FIRST`` deals of a cell's first look and ``CAP`` its most (multiples of ``PIECE``, the deals
    of one task), ``WORLDS`` of its pimc, ``COST`` (a pimc deal against a heuristic one, for
    scheduling), ``SCALE`` and ``UNITS`` of its gaps, ``NOTE`` (after its deals in the notes),
    ``cells(tables, k) -> (seed, cells)``, ``parts(cell, piece) -> [(kind, args, deals)]`` (the
    questions of one piece) and ``sums(args, strategies)``; None for a game without one."""
    return game_script(game, "stronger")


def section_games() -> list[str]:
    """The games the section asks about: those with a cells module, in the registry's order."""
    return [g for g in GAME_NAMES if game_part(g) is not None]


def piece_seed(seed: int, piece: int) -> int:
    """The seed of a cell's ``piece``-th piece of deals: the chart's own ``seed`` for the first
    (the chart's first deals), a hash of both for the others (deals independent of the chart's)."""
    if piece == 0:
        return int(seed)
    return int.from_bytes(hashlib.sha256(f"{seed}|stronger|{piece}".encode()).digest()[:8], "little") >> 1


def _title(game: str) -> str:
    return get_game(game).facts.title


def _read(tables: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(tables / f"{name}.csv")


def _meta(tables: Path, name: str) -> dict | None:
    path = tables / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


# ---------------------------------------------------------------- the cells of each chart
# Each game's cells(tables, k) returns (seed, cells): a cell is {"cell": label, "options": the
# question's options, "best", "other", "chart_gap", "chart_lo", "chart_hi" (the chart's gap best minus
# runner-up and its 95% interval, in the game's units), "worth", and what its parts(cell, piece) needs}.
def cell_sums(kind: str, args: tuple, strategies: list) -> dict | None:
    """The question sums of one part of a cell with every seat's ``strategies``: the chart
    module's own replay builder, the ``sums`` of the game ``kind``'s cells module (Vint
    analyses.vint_charts.robust_sums, None when the callers cannot be dealt; Five Hundred one
    stratum; 501 look and one blind level)."""
    return game_part(kind).sums(args, strategies)


def _merge(parts: list) -> dict | None:
    parts = [p for p in parts if p is not None]
    return {key: sum(p[key] for p in parts) for key in parts[0]} if parts else None


def plan(tables: Path, quick: bool) -> dict[str, dict]:
    """Per game: seed, the looks (deals) and their pieces, the interval level, worlds, whether pimc
    is registered and the chosen cells."""
    out = {}
    for game in section_games():
        part = game_part(game)
        first, cap = (part.PIECE * QUICK_PIECES,) * 2 if quick else (part.FIRST, part.CAP)
        looks = R.looks(first, cap)
        seed, cells = part.cells(tables, QUICK_CELLS if quick else R.CELLS)
        out[game] = {"seed": seed, "looks": looks, "pieces": [-(-n // part.PIECE) for n in looks],
                     "level": R.level(len(looks)), "worlds": part.WORLDS, "pimc": S.available(game), "cells": cells}
    return out


def _row(game: str, g: dict, cell: dict, h: dict | None, p: dict | None, looked: int) -> dict:
    """One cell's row of its game's table (:data:`COLUMNS`) from its merged sums under heuristic
    (``h``) and pimc (``p``) after ``looked`` looks."""
    part = game_part(game)
    o = list(cell["options"])
    b, r = o.index(cell["best"]), o.index(cell["other"])
    hi_ = R.interval(h, b, r, g["level"], part.SCALE)
    pi_ = R.interval(p, b, r, g["level"], part.SCALE)
    if g["pimc"]:
        verdict, why = R.verdict(pi_["lo"], pi_["hi"], cell["chart_gap"], pi_["n"])
    else:
        verdict, why = R.NOT_AVAILABLE, ""
    return {"cell": cell["cell"], "best": cell["best"], "runner_up": cell["other"], "worth": cell["worth"],
            "chart_gap": cell["chart_gap"], "chart_lo": cell["chart_lo"], "chart_hi": cell["chart_hi"],
            "n": pi_["n"] if g["pimc"] else hi_["n"], "looks": looked,
            "heuristic_gap": hi_["mean"], "heuristic_lo": hi_["lo"], "heuristic_hi": hi_["hi"],
            "pimc_gap": pi_["mean"], "pimc_lo": pi_["lo"], "pimc_hi": pi_["hi"],
            "power": R.power(pi_["sd"], pi_["n"], cell["chart_gap"], g["level"]), "verdict": verdict,
            "decided_by": why}


COLUMNS = ["cell", "best", "runner_up", "worth", "chart_gap", "chart_lo", "chart_hi", "n", "looks", "heuristic_gap",
           "heuristic_lo", "heuristic_hi", "pimc_gap", "pimc_lo", "pimc_hi", "power", "verdict", "decided_by"]
"""The columns of one game's table (gaps in the chart's units, best minus runner-up)."""


def replay(games: dict, results, jobs: int, log=print) -> dict:
    """Play every chosen cell look by look: ``{(game, cell index): row}`` (:func:`_row`).  A cell
    takes part in a look while no earlier look decided it (:func:`analyses.stronger_rule.decides`);
    each look is one batch of pieces over every cell still open (``jobs`` workers), kept in
    ``results`` (``stronger-look<k>-…``), so the same call resumes and gives the same rows for any
    ``jobs``."""
    sums = {(game, i): {"heuristic": [], "pimc": []} for game, g in games.items() for i in range(len(g["cells"]))}
    looked = {key: 0 for key in sums}
    open_ = set(sums)
    rows = {}
    for k in range(max((len(g["looks"]) for g in games.values()), default=0)):
        tasks, sizes, slots = [], [], []
        for game, g in games.items():
            if k >= len(g["looks"]):
                continue
            part = game_part(game)
            spec = get_game(game)
            who = [("heuristic", [spec.table.default_strategy] * spec.default_seats)]
            if g["pimc"]:
                who.append(("pimc", [S.pimc_spec(g["worlds"])] * spec.default_seats))
            since = g["pieces"][k - 1] if k else 0
            for i, cell in enumerate(g["cells"]):
                if (game, i) not in open_:
                    continue
                for piece in range(since, g["pieces"][k]):
                    for name, strategies in who:
                        for kind, qargs, n in part.parts(cell, piece):
                            tasks.append((kind, qargs, strategies))
                            sizes.append(n * (part.COST if name == "pimc" else 1))
                            slots.append((game, i, name))
        if not tasks:
            break
        log(f"  look {k + 1}: {len({s[:2] for s in slots})} cells open, {len(tasks)} questions", flush=True)
        store = analysis_store(results, f"stronger-look{k + 1}", cell_sums, tasks=tasks)
        for (game, i, name), s in zip(slots, run_chunks(cell_sums, tasks, sizes, jobs, store=store)):
            sums[(game, i)][name].append(s)
        for game, g in games.items():
            for i, cell in enumerate(g["cells"]):
                key = (game, i)
                if key not in open_ or k >= len(g["looks"]):
                    continue
                looked[key] = k + 1
                row = _row(game, g, cell, _merge(sums[key]["heuristic"]), _merge(sums[key]["pimc"]), k + 1)
                rows[key] = row
                decided = R.decides(row["pimc_lo"], row["pimc_hi"], cell["chart_gap"]) is not None
                if not g["pimc"] or row["n"] == 0 or decided:
                    open_.discard(key)
    return rows


def _early_note(game: str) -> str:
    """What the game's plain ``pimc`` plays without searching, for the notes: its registered default
    ``early`` (the first tricks by the heuristic's card) and, where the declaring side's count is its
    own, ``early_declaring``; empty where it searches every trick."""
    early, own = S.early_counts(game)

    def first(k):
        return "first trick" if k == 1 else f"first {k} tricks"

    if own != early:
        return (f" (the game's default {S.default_early(game)}: heuristic's cards to the defence's {first(early)}"
                + (f" and the declaring side's {first(own)})" if own else ")"))
    return f" (the game's default early={early}: heuristic's cards to the {first(early)})" if early else ""


def run(args) -> Path:
    started = time.time()
    out = Path(args.out)
    games = plan(out / "tables", args.quick)
    for game, g in games.items():
        print(f"  {_title(game)}: {len(g['cells'])} cells, looks at {', '.join(map(str, g['looks']))} deals"
              + (f", pimc:worlds={g['worlds']} on every seat" if g["pimc"] else ": no pimc strategy (not available)"),
              flush=True)
    rows = replay(games, args.results, args.jobs)
    tabs, notes, sentences = {}, [], {}
    for game, g in games.items():
        part = game_part(game)
        table = pd.DataFrame([rows[(game, i)] for i in range(len(g["cells"])) if (game, i) in rows], columns=COLUMNS)
        tabs[f"stronger_play_{game}"] = table
        sentences[_title(game)] = R.sentence(_title(game), table)
        notes.append(f"{_title(game)}: " + (
            f"pimc:worlds={g['worlds']}{_early_note(game)} on every seat; looks at "
            f"{', '.join(map(str, g['looks']))} deals per cell"
            + part.NOTE + f", every interval at {100 * g['level']:.2f}%" if g["pimc"]
            else "no pimc strategy registered: not available") + f"; gaps in {part.UNITS}.")
    seconds = time.time() - started
    written = write_tables(tabs, out)
    method = (f"{TITLE} Per game the cells chosen by a fixed rule ({R.RULE}) are asked again, best against "
              "runner-up on the same deals (the chart's own question builder; the first deals are the chart's own, "
              "later ones fresh), with the sampled-search player pimc playing the cards on every seat, the asking "
              "seat too (it bids, takes the talon and discards like heuristic), and with heuristic on the same deals. "
              "A cell is played in looks of doubling size and stops at the first look where its pimc interval "
              "(best minus runner-up, paired) excludes 0 or is narrower than the chart's own gap, or at the cap; "
              f"every interval is at level 1 - {R.ERROR:g}/looks (Bonferroni over the planned looks), so a cell's "
              f"chance of ever calling a wrong sign is at most {R.ERROR:g}. Verdict: agrees (the pimc interval lies "
              "above 0, or is narrower than the chart's gap and so rules out a reversal that large), reverses (the "
              "pimc interval lies below 0: only then), or not decidable at this size (the cap came first). Power: "
              "the chance that the last look would have shown a reversal as large as the chart's gap. "
              + " ".join(notes))
    specs = sorted({f"{game} " + (S.pimc_spec(g["worlds"]) if g["pimc"] else "heuristic only")
                    for game, g in games.items()})
    answer = " ".join(s for s in sentences.values() if s) or "No chart cell was replayed with pimc card play."
    meta = {"game": "all", "title": TITLE, "deals": max((g["looks"][-1] for g in games.values()), default=0),
            "deals_unit": "deals per cell at most (" + ", ".join(f"{_title(k)} {g['looks'][-1]}"
                                                               for k, g in games.items())
                          + "; 501: games played to their end; Five Hundred: rounded up to a whole number per stratum "
                            "of the class)",
            "seed": next((g["seed"] for g in games.values() if g["cells"]), args.seed),
            "source": make_run("vint", 1).manifest()["source"], "cardsim": __version__,
            "strategies": ["heuristic"] + specs, "parameters": {}, "rules": {},
            "tables": list(tabs), "figures": [], "seconds": round(seconds, 1),
            "glossary": GLOSSARY, "notes": [method.removeprefix(TITLE + " ")], "sentences": sentences,
            "answer": answer, "method": method}
    path = out / "tables" / "stronger_play.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"{TITLE} {sum(len(g['cells']) for g in games.values())} cells in {seconds:.0f} s -> "
          f"{', '.join(p.name for p in written)}, {path.name}", flush=True)
    return path


GLOSSARY = {
    "cell / best / runner_up": "the chart cell and its two options as the chart names them (the best and the "
                               "runner-up; 501: the best and look, or look and the best blind level)",
    "worth": "what the cell was chosen by: how often the hand comes times the chart's gap (501: the gap)",
    "chart_gap / chart_lo / chart_hi": "the chart's own gap best minus runner-up (its held-out deals) and 95% interval",
    "n / looks": "deals compared (both options on the same deals) and looks taken",
    "heuristic_gap": "best minus runner-up with heuristic on every seat on these deals, paired, with its interval at "
                     "the look's level",
    "pimc_gap": "the same with pimc card play on every seat",
    "power": "the chance that the last look would have shown a reversal as large as the chart's gap as 'reverses'",
    "verdict": "agrees: the pimc interval lies above 0, or is narrower than the chart's gap (no reversal that large); "
               "reverses: it lies below 0; not decidable at this size: the cap came first; not available: the game "
               "has no pimc yet",
    "decided_by": "why the cell stopped: interval excludes 0, interval narrower than the chart's gap, or cap reached",
}


def main(argv=None) -> int:
    return script_main(TITLE, run, argv)


if __name__ == "__main__":
    sys.exit(entry(main))
