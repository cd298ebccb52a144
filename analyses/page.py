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
Each game's part (its cells, context chooser, grids, the words of a cell) is its module
``analyses/<module>_page.py`` (:func:`game_page`); this module never names a game.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import pandas as pd

from analyses import game_script
from cardsim.analysis import package_name
from cardsim.games import GAME_NAMES, get_game

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "form-action 'none'; base-uri 'none'")
"""Nothing may be fetched: images are data URIs, style and script are inline."""


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
            "gain_min": _num(getattr(r, "gain_min", None)), "gain_max": _num(getattr(r, "gain_max", None)),
            "robust_verdict": _str(getattr(r, "robust_verdict", "")), "power": _num(getattr(r, "power", None))}


# ---------------------------------------------------------------- per-game parts
def game_page(game: str):
    """The module of ``game``'s part of the page, ``analyses/<package>_page.py`` (``vint_page``,
    ``g500_page``; found by :func:`analyses.game_script`): ``DEALS`` (the most deals its suggested ``--until-clear`` command plays),
    ``HINT`` (how to type a hand), ``UNIT`` and ``GAP_FORMAT`` (a cell's gap in words),
    ``in_section(tables)`` (whether an analysis with these tables gets the game's panel),
    ``data(out)`` (its cells, or None), ``context_html(data, testid)``, ``grids(data)``,
    and, where a cell reads otherwise than "best option, clear or not" (:func:`best_words`,
    :func:`verdict_words`, :func:`cell_label` here), its own functions of those names.  Raises
    ModuleNotFoundError for a game without one."""
    module = game_script(game, "page")
    if module is None:
        raise ModuleNotFoundError(f"no module named 'analyses.{package_name(game)}_page'")
    return module


def _title(game: str) -> str:
    return get_game(game).facts.title


def section_game(meta: dict) -> str | None:
    """The game whose panel goes in the section of ``meta`` (an analysis's JSON), or None."""
    tables = set(meta.get("tables", [])) | set(meta.get("csv_only", []))
    for game in GAME_NAMES:
        if game_page(game).in_section(tables):
            return game
    return None


def page_data(metas: list[dict], out: Path) -> dict:
    """``{game: data}`` of the games whose chart section is in the report."""
    games = [g for g in (section_game(m) for m in metas) if g]
    data = {}
    for g in games:
        d = game_page(g).data(Path(out))
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
    return game_page(game).context_html(data, f'data-testid="context-{game}"')


def panel(game: str, data: dict) -> str:
    """The "Your hand" panel of ``game`` (its fields carry ``data-testid`` hooks, docs/report-page.md)."""
    f = lambda name: f'data-testid="{name}-{game}"'  # noqa: E731
    fields = [("class", "Your class"), ("best", "Best"), ("runner-up", "Runner-up"), ("gap", "Gap (best − runner-up)"),
              ("made", "Made rate"), ("n", "Deals (n)"), ("clear", "Clear?"), ("holds", "Under other players")]
    dl = "".join(f"<dt>{label}</dt><dd {f(k)}></dd>" for k, label in fields)
    hint = game_page(game).HINT
    return (f'<section class="yourhand" id="yourhand-{game}" {f("panel")} data-game="{game}" '
            f'aria-label="Your hand: {_title(game)}">'
            f"<h3>Your hand ({_title(game)})</h3>"
            "<noscript><p>This panel needs JavaScript; the tables below show every class.</p></noscript>"
            '<div class="js-only">'
            f'<label class="handlabel">Your cards <input type="text" {f("hand")} name="hand" autocomplete="off" '
            f'autocapitalize="characters" spellcheck="false" placeholder="{html.escape(hint)}"></label>'
            f'<p class="hint">{html.escape(hint)}; or tap the cards:</p>'
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
    parts = game_page(game).grids(data)
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


def best_words(c: dict) -> str:
    """A cell's best option in words (a game's page module may say it otherwise)."""
    return str(c["best"])


def verdict_words(c: dict) -> str:
    """Whether a cell's answer is clear, in words."""
    return "clear" if c.get("clear") else "not clear"


def cell_label(c: dict) -> tuple[str, bool]:
    """A grid cell's text and whether its answer is sure (clear)."""
    return str(c["best"]), bool(c.get("clear"))


def detail_text(c: dict, game: str) -> str:
    """A cell's details in words (the grid's hover text)."""
    part = game_page(game)
    unit, spec = part.UNIT, part.GAP_FORMAT
    best = getattr(part, "best_words", best_words)(c)
    text = [f"best {best}" + (f", runner-up {c['runner_up']}" if c.get("runner_up") not in (None, "") else "")]
    if c.get("gap") is not None:
        text.append(f"gap {_fmt(c['gap'], spec)} {unit} (95% {_fmt(c['gap_lo'], spec)} to {_fmt(c['gap_hi'], spec)})")
    if c.get("made") is not None:
        text.append(f"made {100 * c['made']:.0f}%")
    if c.get("n") is not None:
        text.append(f"n = {c['n']:,}")
    text.append(getattr(part, "verdict_words", verdict_words)(c))
    holds, power = c.get("holds"), c.get("power")
    power = f", power {power:.0%}" if power is not None else ""
    text.append(f"holds under other players{power}" if holds else
                f"depends on the players ({c.get('flips')})" if holds is False else
                f"not decidable under other players at this size{power}"
                if c.get("robust_verdict") == "not decidable at this size" else "not replayed under other players")
    return "; ".join(text)


def _grid_td(c: dict, game: str, where: str) -> str:
    d = html.escape(f"{where}: {detail_text(c, game)}")
    label, sure = getattr(game_page(game), "cell_label", cell_label)(c)
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
