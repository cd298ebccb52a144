"""The interactive parts of ``reports/index.html``: a "Your hand" panel per game, the heat maps'
HTML twins with their cells' details, and filter boxes over the big tables (docs/report-page.md).

:func:`analyses.report.build` calls :func:`head` (the Content-Security-Policy that keeps every
request inside the file, the viewport and the stylesheet), :func:`section` after each analysis's
heading (the panel and grids of the three chart analyses) and :func:`tail` (the charts' cells as
JSON and the script, ``analyses/static/report.js``, both inlined).  Everything is one file: no
network, no server.  With JavaScript off the tables and figures show as before; the panel says it
needs JavaScript.

The page classifies a hand with the cells' own conditions, exported here by
:mod:`cardsim.analysis.hand_classes` (the same conditions the analysis dealt the cells with), and
the browser tests check that it agrees with :func:`cardsim.analysis.hand_classes.classify`.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import pandas as pd

from cardsim.analysis import hand_classes as HC

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "form-action 'none'; base-uri 'none'")
"""Nothing may be fetched: images are data URIs, style and script are inline."""
DEALS = {"vint": 200000, "500": 200000, "501": 20000}
"""The most deals the suggested ``cardsim evaluate --until-clear`` command may play (it stops as soon as
the best option is clear; 501 plays each deal's game to its end, so fewer)."""
NAMES = {"vint": "Vint", "500": "Five Hundred", "501": "501"}


def _num(v):
    """A JSON-safe number (None for NaN / missing)."""
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else (int(f) if f.is_integer() and abs(f) < 2 ** 53 else f)


def _bool(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, str):
        return {"true": True, "false": False}.get(v.strip().lower())
    return bool(v)


def _str(v) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def _csv(out: Path, name: str) -> pd.DataFrame | None:
    path = out / "tables" / f"{name}.csv"
    return pd.read_csv(path, keep_default_na=True) if path.exists() else None


def _robust(r) -> dict:
    return {"holds": _bool(getattr(r, "holds", None)), "flips": _str(getattr(r, "flips_under", "")),
            "gain_min": _num(getattr(r, "gain_min", None)), "gain_max": _num(getattr(r, "gain_max", None))}


# ---------------------------------------------------------------- per-game data
def vint_data(out: Path) -> dict | None:
    """Vint: the contexts (chart and calls before) and every chart row's cell with its numbers."""
    from cardsim.analysis.vint_charts import chart_label

    frames = []
    for chart in ("opening", "second", "overcall", "response"):
        t = _csv(out, f"vint_chart_{chart}")
        if t is not None and len(t):
            frames.append(t.assign(chart=chart, after=t["after"].fillna("-").astype(str)))
    if not frames:
        return None
    rows = pd.concat(frames, ignore_index=True)
    cells = HC.vint_cells(rows)
    contexts, out_cells = {}, []
    for cell, r in zip(cells, rows.itertuples(index=False)):
        ctx = f"{cell.context['chart']}|{cell.context['after']}"
        contexts.setdefault(ctx, {"id": ctx, "chart": cell.context["chart"], "after": cell.context["after"],
                                  "label": chart_label(cell.context["chart"], cell.context["after"])
                                  + ("" if cell.context["after"] == "-" else f" (calls before you: {cell.context['after']})"),
                                  "seat": cell.seat, "dealer": cell.dealer})
        out_cells.append({"key": cell.key, "ctx": ctx, "cond": HC.conditions_json("vint", cell.where),
                          "where": cell.where, "label": f"{r.band} points, {r.shape}", "band": str(r.band),
                          "shape": str(r.shape), "best": str(r.best), "runner_up": _str(r.runner_up),
                          "gap": _num(r.gap), "gap_lo": _num(r.gap_lo), "gap_hi": _num(r.gap_hi),
                          "made": _num(r.best_made), "made_lo": _num(r.best_made_lo), "made_hi": _num(r.best_made_hi),
                          "n": _num(r.n), "clear": _bool(r.clear), "options": list(cell.options), **_robust(r)})
    return {"game": "vint", "hand_size": HC.HAND_SIZE["vint"], "unit": "score points", "contexts": list(contexts.values()),
            "cells": out_cells, "deals": DEALS["vint"], **HC.features_json("vint")}


def g500_data(out: Path) -> dict | None:
    """Five Hundred: every bids row (class and scoring) with its condition in each trump suit it
    stands for; made-rate intervals from the levels table."""
    bids = _csv(out, "g500_guide_bids")
    if bids is None or not len(bids):
        return None
    levels = _csv(out, "g500_guide_levels")
    cells = HC.g500_cells(bids)
    by_key: dict = {}
    for c in cells:
        by_key.setdefault(c.key, {})[c.context["trump"]] = HC.conditions_json("500", c.where)
    out_cells = []
    for r in bids.itertuples(index=False):
        key = HC.g500_key(r.denom, r.trumps, r.top, r.side_aces, r.jokers, r.aces, r.scoring)
        made_lo = made_hi = None
        if levels is not None:
            m = levels[(levels.holding == r.holding) & (levels.denom == r.denom) & (levels.scoring == r.scoring)
                       & (levels.level == r.best)]
            if len(m):
                made_lo, made_hi = _num(m.made_lo.iloc[0]), _num(m.made_hi.iloc[0])
        runner = _num(r.runner_up)
        out_cells.append({"key": key, "conds": by_key[key], "scoring": r.scoring, "denom": r.denom,
                          "trumps": _str(r.trumps), "top": _num(r.top), "side_aces": _num(r.side_aces),
                          "jokers": _num(r.jokers), "aces": _num(r.aces), "label": str(r.holding), "best": int(r.best), "runner_up": runner,
                          "gap": _num(r.margin), "gap_lo": _num(r.margin_lo), "gap_hi": _num(r.margin_hi),
                          "made": _num(r.made), "made_lo": made_lo, "made_hi": made_hi, "n": _num(r.deals),
                          "score": _num(r.score), "clear": _bool(r.clear), "pays": _bool(r.pays), **_robust(r)})
    return {"game": "500", "hand_size": HC.HAND_SIZE["500"], "unit": "points", "scorings": list(dict.fromkeys(bids.scoring)),
            "cells": out_cells, "deals": DEALS["500"], **HC.features_json("500")}


def g501_data(out: Path) -> dict | None:
    """501: every decision cell (own score, lead, position) with its verdict; made rate and deals
    of the best option from the decisions table; the runner-up is looking when a blind level is
    best, else the best blind level (its gain over looking, turned round, is the gap)."""
    from cardsim.games.g501.strategies import CELL_LEADS, CELL_OWN

    choices = _csv(out, "g501_game_choices")
    if choices is None or not len(choices):
        return None
    dec = _csv(out, "g501_game_decisions")
    cells = HC.g501_cells(choices)
    out_cells = []
    levels = sorted(int(v) for v in dec.level.unique() if v) if dec is not None else []
    for cell, r in zip(cells, choices.itertuples(index=False)):
        g = dec[(dec.own == r.own) & (dec.lead == r.lead) & (dec.position == r.position)] if dec is not None else None
        made = n = None
        runner, gap, lo, hi = "look", _num(r.gain_pp), _num(r.gain_lo), _num(r.gain_hi)
        if g is not None and len(g):
            b = g[g.option == r.best]
            if len(b):
                made, n = _num(b.made.iloc[0]), _num(b.deals.iloc[0])
            if r.best == "look":
                blinds = g[g.option != "look"]
                if blinds.win_half0.notna().any():
                    top = blinds.loc[blinds.win_half0.idxmax()]
                    runner = str(top.option)
                    gap, lo, hi = _num(-top.gain_half1_pp), _num(-top.gain_half1_hi), _num(-top.gain_half1_lo)
        out_cells.append({"key": cell.key, "own": int(r.own), "lead": int(r.lead), "opp": int(r.opp),
                          "position": int(r.position), "dealer": cell.dealer, "best": str(r.best),
                          "verdict": str(r.verdict), "levels_as_good": _str(r.levels_as_good),
                          "runner_up": runner, "gap": gap, "gap_lo": lo, "gap_hi": hi, "made": made, "n": n,
                          "win_look": _num(r.win_look), **_robust(r)})
    return {"game": "501", "hand_size": HC.HAND_SIZE["501"], "unit": "pp of game-win probability", "cells": out_cells,
            "cell_own": list(CELL_OWN), "cell_leads": list(CELL_LEADS), "levels": levels,
            "deals": DEALS["501"], **HC.features_json("501")}


BUILDERS = {"vint": vint_data, "500": g500_data, "501": g501_data}
SECTION_TABLE = {"vint": "vint_chart_opening", "500": "g500_guide_bids", "501": "g501_game_chart"}
"""The table whose presence in an analysis's ``tables`` marks the section that gets the game's panel."""


def section_game(meta: dict) -> str | None:
    """The game whose panel goes in the section of ``meta`` (an analysis's JSON), or None."""
    tables = set(meta.get("tables", [])) | set(meta.get("csv_only", []))
    for game, name in SECTION_TABLE.items():
        if name in tables or (game == "vint" and any(t.startswith("vint_chart_") for t in tables)):
            return game
    return None


def page_data(metas: list[dict], out: Path) -> dict:
    """``{game: data}`` of the games whose chart section is in the report."""
    games = [g for g in (section_game(m) for m in metas) if g]
    data = {}
    for g in games:
        d = BUILDERS[g](Path(out))
        if d is not None:
            data[g] = d
    return data


# ---------------------------------------------------------------- HTML
def head() -> str:
    """The head's additions: CSP, viewport, the page's stylesheet."""
    return (f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<style>{(STATIC / 'report.css').read_text()}</style>")


def _context_html(game: str, data: dict) -> str:
    t = f'data-testid="context-{game}"'
    if game == "vint":
        opts = "".join(f'<option value="{html.escape(c["id"])}">{html.escape(c["label"])}</option>'
                       for c in data["contexts"])
        return f'<label>Who you are, the calls before you <select {t} name="context">{opts}</select></label>'
    if game == "500":
        suits = "".join(f'<option value="{s}">{n}</option>' for s, n in
                        (("H", "hearts ♥"), ("D", "diamonds ♦"), ("C", "clubs ♣"), ("S", "spades ♠"), ("NT", "no trumps")))
        scor = "".join(f'<option value="{s}">{s}</option>' for s in data["scorings"])
        return (f'<label>Trump suit you consider <select {t} name="trump">{suits}</select></label> '
                f'<label>Scoring <select data-testid="scoring-500" name="scoring">{scor}</select></label>')
    pos = "".join(f'<option value="{p}">{w}</option>' for p, w in
                  ((0, "0: first to speak (dealer's left)"), (1, "1: second"), (2, "2: third (the dealer)")))
    num = 'type="number" inputmode="numeric" min="1" max="1000" step="1"'
    return (f'<label>Your score <input {num} value="300" data-testid="own-501" name="own"></label> '
            f'<label>Opponent on your left <input {num} value="300" data-testid="left-501" name="left"></label> '
            f'<label>Opponent on your right <input {num} value="300" data-testid="right-501" name="right"></label> '
            f'<label>Your position <select data-testid="position-501" name="position">{pos}</select></label>')


HINTS = {"vint": "13 cards, e.g. S:AKT86 H:KQ42 D:- C:K832 (or AS KH 10D …; ♠♥♦♣ work too)",
         "500": "10 cards, e.g. HJ S:AKJ95 H:Q4 C:K8 D:4 (HJ / LJ = high / low joker)",
         "501": "7 cards (ranks A T K Q J 9), e.g. S:AT H:KQ D:9 C:AJ — optional: the chart is read before you look"}


def panel(game: str, data: dict) -> str:
    """The "Your hand" panel of ``game`` (its fields carry ``data-testid`` hooks, docs/report-page.md)."""
    f = lambda name: f'data-testid="{name}-{game}"'  # noqa: E731
    fields = [("class", "Your class"), ("best", "Best"), ("runner-up", "Runner-up"), ("gap", "Gap (best − runner-up)"),
              ("made", "Made rate"), ("n", "Deals (n)"), ("clear", "Clear?"), ("holds", "Under other players")]
    dl = "".join(f"<dt>{label}</dt><dd {f(k)}></dd>" for k, label in fields)
    return (f'<section class="yourhand" id="yourhand-{game}" {f("panel")} data-game="{game}" '
            f'aria-label="Your hand: {NAMES[game]}">'
            f"<h3>Your hand ({NAMES[game]})</h3>"
            "<noscript><p>This panel needs JavaScript; the tables below show every class.</p></noscript>"
            '<div class="js-only">'
            f'<label class="handlabel">Your cards <input type="text" {f("hand")} name="hand" autocomplete="off" '
            f'autocapitalize="characters" spellcheck="false" placeholder="{html.escape(HINTS[game])}"></label>'
            f'<p class="hint">{html.escape(HINTS[game])}; or tap the cards:</p>'
            f'<div class="cardgrid" {f("cards")}></div>'
            f'<div class="context">{_context_html(game, data)}</div>'
            f'<div class="answer-box" {f("answer")} aria-live="polite">'
            f'<p class="status" {f("status")}>Type or tap your cards.</p><dl>{dl}</dl>'
            f'<p class="others" {f("others")}></p>'
            f'<p>Ask about this very hand: <code class="cmd" {f("command")}></code> '
            f'<button type="button" class="copy" {f("copy")}>Copy</button></p></div></div></section>')


def _fmt(v, spec="{:+.0f}"):
    return "" if v is None else spec.format(v)


def grid(game: str, data: dict) -> str:
    """The heat maps' HTML twins: one grid per chart context, every cell with its details in a
    ``title`` (hover, no script needed) and in ``data-detail`` (the script shows it on tap).  Made
    of ``div`` elements with ARIA table roles, so the page's tables stay the analyses' tables."""
    parts = []
    if game == "vint":
        for ctx in data["contexts"]:
            cells = [c for c in data["cells"] if c["ctx"] == ctx["id"]]
            bands = list(dict.fromkeys(c["band"] for c in cells))
            shapes = list(dict.fromkeys(c["shape"] for c in cells))
            at = {(c["shape"], c["band"]): c for c in cells}
            rows = [["shape \\ points"] + bands]
            rows += [[s] + [(at.get((s, b)), f"{s}, {b} points") for b in bands] for s in shapes]
            parts.append(_grid_block(f"{ctx['label']}: best first call", rows, f"grid-vint-{ctx['id']}", game))
    elif game == "500":
        for scoring in data["scorings"]:
            for denom in dict.fromkeys(c["denom"] for c in data["cells"]):
                cells = [c for c in data["cells"] if c["scoring"] == scoring and c["denom"] == denom]
                name = "no trumps" if denom == "NT" else f"{denom} (standing for every suit)" if denom == "H" else denom
                if denom == "NT":
                    parts.append(_grid_block(f"{name}, {scoring} scoring: best level", _pivot(
                        cells, "jokers", "aces", "jokers \\ aces", lambda r, c: f"{r} jokers, {c} aces"),
                        f"grid-500-{denom}-{scoring}", game))
                    continue
                main = [c for c in cells if c["side_aces"] is None]
                side = [c for c in cells if c["side_aces"] is not None]
                parts.append(_grid_block(f"{name}, {scoring} scoring: best level", _pivot(
                    main, "trumps", "top", "trumps \\ top", lambda r, c: f"{r} trumps, {c} top"),
                    f"grid-500-{denom}-{scoring}", game))
                if side:
                    parts.append(_grid_block(f"{name}, {scoring} scoring, by side aces: best level", _pivot(
                        side, "label", "side_aces", "holding \\ side aces", lambda r, c: str(r), key_of=lambda c:
                        c["label"].rsplit(",", 1)[0]), f"grid-500-{denom}-{scoring}-side", game))
    else:
        for pos in sorted({c["position"] for c in data["cells"]}):
            cells = [c for c in data["cells"] if c["position"] == pos]
            owns = sorted({c["own"] for c in cells})
            leads = sorted({c["lead"] for c in cells})
            at = {(c["own"], c["lead"]): c for c in cells}
            rows = [["own \\ lead"] + [f"{v:+d}" for v in leads]]
            rows += [[str(o)] + [(at.get((o, v)), f"own {o}, lead {v:+d}") for v in leads] for o in owns]
            parts.append(_grid_block(f"Auction position {pos}: best first call", rows, f"grid-501-{pos}", game))
    return ("<details class='grids'><summary>The chart as a grid: hover or tap a cell for its n, interval and "
            "whether it holds under other players</summary>" + "".join(parts) + "</details>")


def _pivot(cells: list, row: str, col: str, corner: str, where, key_of=None) -> list:
    """Rows for :func:`_grid_block` from cells with ``row`` and ``col`` values (each in the order met;
    ``key_of``: a cell's row label instead of its ``row`` value)."""
    key_of = key_of or (lambda c: c[row])
    rows = list(dict.fromkeys(key_of(c) for c in cells))
    cols = sorted({c[col] for c in cells})
    at = {(key_of(c), c[col]): c for c in cells}
    return [[corner] + [str(v) for v in cols]] + [[str(r)] + [(at.get((r, v)), where(r, v)) for v in cols] for r in rows]


def _grid_block(title: str, rows: list, testid: str, game: str) -> str:
    """``rows``: the header row (labels), then rows of a label and ``(cell or None, where)`` pairs."""
    cols = len(rows[0])
    out = ['<div role="row" class="gr">' + "".join(f'<div role="columnheader" class="gh">{html.escape(h)}</div>'
                                                    for h in rows[0]) + "</div>"]
    for row in rows[1:]:
        cells = [f'<div role="rowheader" class="gh">{html.escape(row[0])}</div>']
        cells += [_grid_td(c, game, where) if c else '<div role="cell" class="gc"></div>' for c, where in row[1:]]
        out.append('<div role="row" class="gr">' + "".join(cells) + "</div>")
    return (f'<div class="gridwrap"><p class="gridtitle">{html.escape(title)}</p>'
            f'<div class="cellgrid" role="table" aria-label="{html.escape(title)}" data-testid="{html.escape(testid)}" '
            f'style="grid-template-columns:auto repeat({cols - 1},minmax(3.2em,auto))">{"".join(out)}</div></div>')


def detail_text(c: dict, game: str) -> str:
    """A cell's details in words (the grid's hover text)."""
    unit = {"vint": "score points", "500": "points", "501": "pp"}[game]
    best = f"blind to {c['levels_as_good']}" if game == "501" and c["best"] != "look" and c.get("levels_as_good") \
        else str(c["best"])
    text = [f"best {best}" + (f", runner-up {c['runner_up']}" if c.get("runner_up") not in (None, "") else "")]
    if c.get("gap") is not None:
        spec = "{:+.1f}" if game == "501" else "{:+.0f}"
        text.append(f"gap {_fmt(c['gap'], spec)} {unit} (95% {_fmt(c['gap_lo'], spec)} to {_fmt(c['gap_hi'], spec)})")
    if c.get("made") is not None:
        text.append(f"made {100 * c['made']:.0f}%")
    if c.get("n") is not None:
        text.append(f"n = {c['n']:,}")
    if game == "501":
        text.append(c["verdict"])
    else:
        text.append("clear" if c.get("clear") else "not clear")
    holds = c.get("holds")
    text.append("holds under other players" if holds else
                f"depends on the players ({c.get('flips')})" if holds is False else "not replayed under other players")
    return "; ".join(text)


def _grid_td(c: dict, game: str, where: str) -> str:
    d = html.escape(f"{where}: {detail_text(c, game)}")
    if game == "501":
        label = "look" if c["best"] == "look" else f"B{c['levels_as_good'] or c['best'].split(':')[1]}"
        sure = not c["verdict"].startswith("no clear")
    else:
        label = str(c["best"])
        sure = bool(c.get("clear"))
    mark = "" if sure else "?"
    dep = "\u2020" if c.get("holds") is False else ""
    return (f'<div role="cell" tabindex="0" class="gc {"sure" if sure else "unsure"}" title="{d}" data-detail="{d}" '
            f'data-key="{html.escape(c["key"])}">{html.escape(label)}{mark}{dep}</div>')


def section(meta: dict, out: Path, data: dict) -> list[str]:
    """The HTML added after an analysis's heading: its game's panel and grids, or nothing."""
    game = section_game(meta)
    if game is None or game not in data:
        return []
    return [panel(game, data[game]), grid(game, data[game])]


def tail(data: dict) -> str:
    """The chart data as JSON and the page's script, both inline (before ``</body>``)."""
    blob = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return (f'<script type="application/json" id="cardsim-data">{blob}</script>'
            f"<script>{(STATIC / 'report.js').read_text()}</script>")
