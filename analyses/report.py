"""Assemble reports/report.md and reports/index.html from the tables and figures the analysis
scripts wrote (``reports/tables/<name>.json`` describes each analysis).

The report opens with **Answers**: per game at most six rules of thumb the analyses generated
from their tables (``rules_of_thumb`` in their json: each a chart row with its gain, 95% interval
and verdict under the other players, ordered by what they settle for a player, then by worth:
:data:`cardsim.analysis.rules_of_thumb.RULE`).
Under each game's heading the Answers first say how exploitable its players are (the ``sentences`` of
the section "How strong are the players behind these answers?", analyses/players.py).
Under each game's rules, when the stronger-play check was run (``make stronger``), one sentence says
whether replaying chart cells with pimc card play agrees with them, reverses any (named, with both
intervals) or could not decide.
Then one section per analysis (an analysis ``make report`` does not run, ``make stronger``, is shown
when its tables exist, else its section says how to get them): its generated answer ("In detail": the
analysis's ``detail``, short tables and a list, or its paragraph; a long paragraph as the list of its
sentences), its figures with captions that explain their marks in a player's words (``legends``), its
tables folded (``<details>``; in report.md only their CSV files are named); **Method** last.  Every table and figure carries a
caption with its n, seed, strategies and their parameters, rule options and the cardsim version.
``index.html`` is self-contained: figures are embedded as data URIs, so it opens from disk or as
an e-mail attachment.
"""
from __future__ import annotations

import argparse
import base64
import html
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from analyses import ANALYSES, REPORT
from analyses import page as PAGE
from analyses.common import entry, readable
from cardsim.analysis import robustness as RB
from cardsim.analysis import rules_of_thumb as T

ORDER = [a.table for a in ANALYSES]
"""Analyses (their tables' names) in the order of their sections, as analyses/analyses.txt lists
them (those present are shown)."""
OWN_TARGET = {a.table: a for a in ANALYSES if a.target != REPORT}
"""The analyses ``make report`` does not run (their own make target, analyses/analyses.txt): shown
when their tables exist, else a section saying how to get them (the script's ``TITLE`` and
``NOT_RUN``); marked when a file they read is newer than their tables (the script's ``STALE``)."""

METHOD = [
    "Deals. Every deal is a pure function of the run's seed and its number: a counter-based random "
    "stream shuffles the cards and drives each seat's strategy, so deal i of seed s is the same deal on "
    "any machine, chunking and number of workers. Deals asked about a hand are drawn exactly from the "
    "conditional distribution: given cards are placed and the rest dealt uniformly; hand classes are "
    "met by rejection with each deal's own stream (docs/conditions.md).",
    "Comparisons. Every option of one question (a first call, a forced contract, a blind bid) is "
    "played on the same deals with the same strategy randomness (common random numbers), so "
    "differences are paired: their intervals are those of the per-deal differences, much narrower "
    "than the intervals of the two means. Rates carry 95% Wilson intervals, means 95% normal "
    "intervals (none below 30 observations).",
    "Charts. Where a chart picks the best of several options per cell (Vint charts, the Five Hundred bid "
    "guide, the 501 blind chart), the best is chosen on the even-numbered deals and its gain measured on "
    "the odd-numbered ones, so picking does not flatter it; a cell is called clear by Benjamini-Hochberg "
    "over the chart's cells at a 2.5% false discovery rate (one-sided; docs/statistics.md).",
    "Strategies. Everything not forced is played by the default heuristic strategies (cardsim "
    "strategies GAME lists their parameters): they see only their own seat's view and are simple "
    "heuristics, not experts. Every answer is conditional on them: a better partner or better defenders "
    "can change which option is best, so read an answer as 'against players who bid and play like "
    "these strategies'. To say which answers hold, every cell of the 501 decision chart, the Vint bidding "
    "charts and the Five Hundred bid guide is replayed under the game's other player profiles that act on "
    "its chart (cardsim profiles GAME: the previous default, cautious and bold bidders and more; a profile "
    "giving the default's numbers on every pilot deal, such as a bidding-only profile on the guide's forced "
    "contracts, is left out), every option that could be best there against the cell's best, on the same deals, "
    "as many as 90% power to see a flip the size of the cell's own gap needs (at most half the cell's deals): a "
    "cell in which some option is clearly better under some profile depends on the players (marked \u2020); "
    "one in which none is holds if that power was reached, else it is not decidable at this size (\u00b0); "
    "the gain is shown as a range across the profiles (docs/profiles.md).",
]


def caption(meta: dict) -> str:
    """What a table or figure was made from: n, seed, strategies and parameters, rules, version."""
    params = "; ".join(f"{spec}: " + ", ".join(f"{k}={v:g}" for k, v in values.items())
                       for spec, values in meta.get("parameters", {}).items())
    per = meta.get("deals_unit", "deals")
    parts = [f"n = {meta['deals']:,} {per}", f"seed {meta['seed']}",
             "strategies " + ", ".join(meta["strategies"]) + (f" ({params})" if params else ""),
             rules_caption(meta),
             f"cardsim {meta.get('cardsim', '?')} (jitted sources {meta.get('source', '?')})"]
    return "; ".join(parts) + "."


def rules_caption(meta: dict) -> str:
    """The rules a table was made under, named as every answer names them: the rule options the
    analysis gives (``meta["rules"]``; a guide that scores under both scorings says so), or else
    every option in force with its default marked, and the game's section of docs/RULES.md
    (``GameSpec.rules_in_force``; "docs/RULES.md §2, no rule options" for a game without any)."""
    from cardsim.games import get_game
    from cardsim.games.base import OptionError

    given = meta.get("rules") or {}
    try:
        force = get_game(meta.get("game", "")).rules_in_force()
    except (OptionError, KeyError, ValueError):
        force = None
    if force is None:  # not a game's table (or an unknown game): only what the analysis says
        return "rules " + (", ".join(f"{k}={v}" for k, v in given.items()) if given else "default")
    if not given:
        return "rules " + force["text"]
    where = force["text"].rpartition("; ")[2] if "; " in force["text"] else force["text"]
    return "rules " + ", ".join(f"{k}={v}" for k, v in given.items()) + f"; {where}"


def _read_table(path: Path) -> pd.DataFrame:
    """A table's CSV for the page: whole-number columns stay whole numbers where some rows are
    empty (read as plain CSV they would become floats and show as 1.0, 3.0); empty cells show
    empty."""
    table = pd.read_csv(path, dtype_backend="numpy_nullable")
    for col in table.columns:
        kind = table[col].dtype.kind
        if kind == "f":
            table[col] = table[col].astype("float64")  # NaN for readable()'s fixed-point text
        elif table[col].isna().any():
            table[col] = ["" if pd.isna(v) else str(v) for v in table[col]]
    return table


def _figure_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


GAMES = [("vint_charts", "Vint"), ("vint_linescore", "Vint"), ("501_game", "501"), ("500_guide", "Five Hundred"),
         ("500_bidscore", "Five Hundred")]
"""The analyses whose rules of thumb the Answers show, in this order, under a heading per game: a
game's per-deal chart first, then its answers to the score (the game or rubber played on)."""

ANSWERS_INTRO = (
    "At most {k} rules per chart, each one cell of a chart below whose best choice is clearly best (the 95% "
    "interval of its gain lies above 0, on deals not used to pick it; 2.5% false discovery rate over the chart). "
    "Each gives its gain over the choice it names (the next best; in 501 looking, or blind where looking is best) "
    "with the 95% interval, and whether it holds when the other "
    "players bid and play differently: holds; {mark} depends (clearly beaten under the player profiles named); "
    "not replayed. {rule} At most two per situation; what each settles is said after it. The largest "
    "gains were picked, so they tend to come out a little high: the lower end of the interval is the safer number.")


STRONGER = "stronger_play"
"""The table of the section on a stronger player (analyses/stronger_play.py, ``make stronger``): its
``sentences`` (one per game: agrees / reverses / not decidable, each reversal named) close each
game's Answers."""

PLAYERS = "players"
"""The table of the section on the players behind the answers (analyses/players.py): its ``sentences``
(one per game: how exploitable the players are) open each game's Answers."""


def section_id(name: str) -> str:
    """The stable ``id`` of an analysis's section (``section-<name>``, ``name`` as in ORDER)."""
    return f"section-{name}"


SHARED_TAIL = 200
"""A figure's legend ending like an earlier one of its section by at least this many characters is
shortened in report.md to what differs (the page keeps every legend whole)."""


def short_legend(legend: str, shown: dict[str, str]) -> str:
    """``legend`` for report.md: where it ends with the same sentences (at least SHARED_TAIL
    characters) as a legend already printed in the section (``shown``: legend -> figure), only its
    own first sentences and 'The rest as in <figure>.' ('As in <figure>.' where it is the same)."""
    for earlier, fig in shown.items():
        if earlier == legend:
            return f"As in {fig}."
        k = len(os.path.commonprefix([earlier[::-1], legend[::-1]]))  # characters the two end with
        end = legend.find(". ", max(len(legend) - k - 2, 0))  # the shared part from a sentence's start
        cut = end + 1
        if end >= 0 and len(legend) - cut >= SHARED_TAIL:
            return legend[:cut].strip() + f" The rest as in {fig}."
    return legend


def game_rules(named: list[tuple[str, dict]]) -> list[tuple[str, str, list[dict]]]:
    """``(analysis name, game, rules)`` per game of :data:`GAMES` present in the report: at most
    :data:`cardsim.analysis.rules_of_thumb.MAX_RULES` rules of its meta's ``rules_of_thumb``, in the
    order of :data:`cardsim.analysis.rules_of_thumb.RULE` (what they settle, then worth)."""
    by = dict(named)
    out = []
    for name, game in GAMES:
        if name in by and "rules_of_thumb" in by[name]:
            rules = sorted(by[name]["rules_of_thumb"], key=T.rank_key)[:T.MAX_RULES]
            out.append((name, game, rules))
    return out


def _worth(r: dict) -> str:
    """`` (worth 3.76)``, or '' where the worth is the rule's own number (501: the gain itself)."""
    return "" if r["worth"] == r["value"] else f" (worth {r['worth']:.3g})"


def _settles(r: dict) -> str:
    """`` (settles: beats the call of the default players; …)``, or '' for a rule that settles none."""
    text = r.get("settles_text") or T.settles_text(r)
    return f" (settles: {text})" if text else ""


def _rule_md(r: dict) -> str:
    return f"**{r['text']}**: {r['number']}; {T.holds_text(r)}{_settles(r)}{_worth(r)}."


def _rule_html(r: dict) -> str:
    e = html.escape
    return (f"<li class='rule' data-holds='{e(r['holds'])}' data-settles='{T.settles(r)}'>"
            f"<strong>{e(r['text'])}</strong>: "
            f"<span class='number'>{e(r['number'])}</span>; <span class='holds'>{e(T.holds_text(r))}</span>"
            + (f" <span class='settles'>{e(_settles(r).strip())}</span>" if _settles(r) else "")
            + (f" <span class='worth'>{e(_worth(r).strip())}</span>" if _worth(r) else "") + "</li>")


def answers(named: list[tuple[str, dict]]) -> tuple[list[str], list[str]]:
    """The Answers section (Markdown lines, HTML parts): the rules of thumb per game."""
    groups = game_rules(named)
    md = ["## Answers", ""]
    body = ['<h2 id="answers">Answers</h2>']
    if not groups:
        md += ["No analysis in this report gives rules of thumb yet.", ""]
        return md, body + ["<p>No analysis in this report gives rules of thumb yet.</p>"]
    intro = ANSWERS_INTRO.format(k=T.MAX_RULES, mark=RB.DEPENDS,
                                 rule=T.RULE.format(order="what the rule is worth (said under each game)"))
    md += [intro, ""]
    body += [f"<p class='answers-intro'>{html.escape(intro)}</p>"]
    shown = set()
    players = dict(named).get(PLAYERS, {}).get("sentences", {})  # how exploitable each game's players are
    stronger = dict(named).get(STRONGER, {}).get("sentences", {})  # does pimc play reverse a chart cell?
    for name, game, rules in groups:
        title = dict(named)[name]["title"]
        if game not in shown:
            shown.add(game)
            md += [f"### {game}", ""]
            body += [f"<h3>{html.escape(game)}</h3>"]
            if players.get(game):
                md += [f"*How strong are the players?* {players[game]}", ""]
                body += [f"<p class='players' id='players-{html.escape(name)}'><em>How strong are the players?</em> "
                         f"{html.escape(players[game])} <a href='#{section_id(PLAYERS)}'>More</a>.</p>"]
            if stronger.get(game):
                md += [f"*Does a stronger player change the answer?* {stronger[game]}", ""]
                body += [f"<p class='stronger' id='stronger-{html.escape(name)}'><em>Does a stronger player change "
                         f"the answer?</em> {html.escape(stronger[game])} <a href='#{section_id(STRONGER)}'>More</a>."
                         "</p>"]
        body += [f"<section class='rules' id='rules-{html.escape(name)}'>"]
        if not rules:
            none = dict(named)[name].get("rules_none") or (
                "No cell of the chart is clearly best in this run (more deals narrow the intervals); see the section")
            md += [f'{none} "{title}".', ""]
            body += [f"<p>{html.escape(none)} <a href='#{section_id(name)}'>{html.escape(title)}</a>.</p></section>"]
            continue
        order = f"Ordered by what they settle, then by {rules[0]['order']}; the chart and the detail: section"
        md += [f'{order} "{title}".', ""] + [f"{i}. {_rule_md(r)}" for i, r in enumerate(rules, 1)] + [""]
        body += [f"<p class='order'>{html.escape(order)} <a href='#{section_id(name)}'>{html.escape(title)}</a>.</p>",
                 "<ol>" + "".join(_rule_html(r) for r in rules) + "</ol></section>"]
    return md, body


def _md_cell(value) -> str:
    return str(value).replace("|", "\\|")


LIST_CHARS = 600
"""An answer paragraph longer than this (and of several sentences) is shown as a list of its sentences."""


def sentences(text: str) -> list[str]:
    """``text`` cut into its sentences: after a full stop, question or exclamation mark followed by a
    space and a capital letter (or the † mark), as the analyses write them."""
    import re

    return [t for t in re.split(r"(?<=[.!?])\s+(?=[A-Z\u2020])", text.strip()) if t]


def detail(meta: dict) -> tuple[list[str], list[str]]:
    """A section's "In detail" (Markdown lines, HTML parts): its ``detail`` where the analysis gives
    one (``{"tables": [{"title", "columns", "rows"}], "items": [sentence, ...]}``: each table as a
    small Markdown / HTML table under its title, the items as a list), else its ``answer``: a list of
    its sentences when longer than :data:`LIST_CHARS`, else the paragraph; nothing for a section
    with neither."""
    d = meta.get("detail")
    if (not d or not (d.get("tables") or d.get("items"))) and len(meta.get("answer", "")) > LIST_CHARS:
        d = {"tables": [], "items": sentences(meta["answer"])}
        if len(d["items"]) < 2:
            d = None
    if not d or not (d.get("tables") or d.get("items")):
        if not meta.get("answer"):
            return [], []
        return ([f"**In detail.** {meta['answer']}", ""],
                [f"<p class='detail'><strong>In detail.</strong> {html.escape(meta['answer'])}</p>"])
    e = html.escape
    md, body = ["**In detail.**", ""], ["<div class='detail'><p><strong>In detail.</strong></p>"]
    for t in d.get("tables", []):
        md += [f"*{t['title']}*", "", "| " + " | ".join(_md_cell(c) for c in t["columns"]) + " |",
               "|" + "|".join("---" for _ in t["columns"]) + "|"]
        md += ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in t["rows"]] + [""]
        body += [f"<table class='detail-table'><caption>{e(t['title'])}</caption><thead><tr>"
                 + "".join(f"<th>{e(str(c))}</th>" for c in t["columns"]) + "</tr></thead><tbody>"
                 + "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in row) + "</tr>" for row in t["rows"])
                 + "</tbody></table>"]
    if d.get("items"):
        md += [f"- {item}" for item in d["items"]] + [""]
        body += ["<ul>" + "".join(f"<li>{e(item)}</li>" for item in d["items"]) + "</ul>"]
    return md, body + ["</div>"]


def _script(name: str):
    """The module of the analysis whose tables are named ``name`` (analyses/analyses.txt)."""
    import importlib

    return importlib.import_module(f"analyses.{OWN_TARGET[name].script}")


def not_run(name: str) -> tuple[list[str], list[str]]:
    """The section (Markdown lines, HTML parts) of an analysis with a make target of its own whose
    tables do not exist: its title and what it would show and how to get it (its ``NOT_RUN``)."""
    module = _script(name)
    return ([f"## {module.TITLE}", "", module.NOT_RUN, ""],
            [f"<h2 id='{section_id(name)}'>{html.escape(module.TITLE)}</h2>",
             f"<p class='not-run'>{html.escape(module.NOT_RUN)}</p>"])


def stale(out: Path, name: str) -> bool:
    """Whether a file the analysis ``name`` read (its INPUTs of analyses/analyses.txt under
    ``reports/``: the charts' tables) is newer than its tables: made from earlier charts."""
    made = (out / "tables" / f"{name}.json").stat().st_mtime
    inputs = [out / Path(i).relative_to("reports") for i in OWN_TARGET[name].inputs if i.startswith("reports/")]
    return any(p.exists() and p.stat().st_mtime > made for p in inputs)


def build(out: Path) -> tuple[str, str]:
    """The Markdown and HTML texts of the report from ``out/tables/*.json``.

    Order: Answers (the rules of thumb), one section per analysis (its detail in words, its figures
    with captions that explain their marks, its tables folded in ``<details>``; report.md lists the
    tables' CSV files instead of printing them), Method last.  An analysis with a make target of its
    own (:data:`OWN_TARGET`) whose tables do not exist gets a section saying how to get them
    (:func:`not_run`); one made from charts older than the current ones says so (:func:`stale`)."""
    named = [(g, json.loads((out / "tables" / f"{g}.json").read_text()))
             for g in ORDER if (out / "tables" / f"{g}.json").exists()]
    metas = [m for _, m in named]
    if not metas:
        raise FileNotFoundError("no analysis tables found; run the analysis scripts first (make report)")
    missing = [g for g in ORDER if g in OWN_TARGET and g not in dict(named)]
    stamp = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC"
    intro = (f"Built {stamp} by make report. Answers first: a few rules of thumb per game, each with its 95% "
             "interval; then a section per analysis: what it found in detail, its charts, and its full tables "
             "(folded on the page; CSV files beside it); Method last. In the tables every rate carries n and a 95% "
             "Wilson interval and every mean a 95% normal interval. Scores are in score points.")
    md = ["# cardsim report", "", intro, ""]
    data = PAGE.page_data(metas, out)  # the "Your hand" panels' cells (analyses/page.py)
    body = ["<h1>cardsim report</h1>", f"<p>{html.escape(intro)}</p>"]
    a_md, a_body = answers(named)
    md += a_md
    body += a_body
    for name, meta in named:
        for absent in [g for g in missing if ORDER.index(g) < ORDER.index(name)]:
            missing.remove(absent)
            a_md, a_body = not_run(absent)
            md += a_md
            body += a_body
        cap = caption(meta)
        md += [f"## {meta['title']}", ""]
        body += [f"<h2 id='{section_id(name)}'>{html.escape(meta['title'])}</h2>"]
        if name in OWN_TARGET and stale(out, name):
            note = _script(name).STALE
            md += [f"*{note}*", ""]
            body += [f"<p class='stale'><em>{html.escape(note)}</em></p>"]
        d_md, d_body = detail(meta)
        md += d_md
        body += d_body
        md += [cap, ""]
        body += [f"<p class='caption'>{html.escape(cap)}</p>"]
        body += PAGE.section(meta, out, data)  # the game's 'Your hand' panel and grids
        legends = meta.get("legends", {})
        shown: dict[str, str] = {}
        for fig in meta["figures"]:
            legend = legends.get(fig, "")
            short = short_legend(legend, shown)
            shown.setdefault(legend, fig)
            md += [f"![{fig}](figures/{fig})", "", f"*{fig}: {short + ' ' if short else ''}{cap}*", ""]
            body += [f'<figure><img src="{_figure_uri(out / "figures" / fig)}" alt="{html.escape(fig)}">'
                     f"<figcaption>{f'<span class=legend>{html.escape(legend)}</span> ' if legend else ''}"
                     f"{html.escape(fig)}: {html.escape(cap)}</figcaption></figure>"]
        # the tables: listed as CSV in report.md, folded on the page (open without JavaScript)
        md += ["Tables (CSV, every row): " + "; ".join(
            f"`tables/{t}.csv`" + (f" ({meta['table_titles'][t]})" if t in meta.get("table_titles", {}) else "")
            for t in meta["tables"] + meta.get("csv_only", [])) + ".", ""]
        if meta.get("notes") or meta.get("glossary"):
            # folded where Markdown renders HTML (GitHub, most viewers); plain text elsewhere
            md += ["<details><summary>Notes and what the CSV columns mean</summary>", ""]
            md += [f"- {note}" for note in meta.get("notes", [])]
            if meta.get("glossary"):
                md += ["", "Columns:", ""] + [f"- `{k}`: {v}" for k, v in meta["glossary"].items()]
            md += ["", "</details>", ""]
        n = len(meta["tables"])
        fold = [f"<details class='tables' id='tables-{html.escape(name)}'><summary>{n} table{'' if n == 1 else 's'}"
                ", notes and what the columns mean</summary>"]
        for note in meta.get("notes", []):
            fold += [f"<p><em>{html.escape(note)}</em></p>"]
        if meta.get("glossary"):
            fold += ["<dl>" + "".join(f"<dt><code>{html.escape(k)}</code></dt><dd>{html.escape(v)}</dd>"
                                      for k, v in meta["glossary"].items()) + "</dl>"]
        for t in meta["tables"]:
            # A table may carry a title for people (``table_titles``); its name stays in the caption.
            heading = meta.get("table_titles", {}).get(t, t)
            table = _read_table(out / "tables" / f"{t}.csv")
            fold += [f"<h3>{html.escape(heading)}</h3>", readable(table).to_html(index=False, na_rep="", border=0),
                     f"<p class='caption'>{html.escape(t)}: {html.escape(cap)}</p>"]
        for t in meta.get("csv_only", []):
            fold += [f"<p>Full table <code>{html.escape(t)}</code> (every row): CSV "
                     f"<code>tables/{html.escape(t)}.csv</code> beside this page.</p>"]
        body += fold + ["</details>"]
    for absent in missing:
        a_md, a_body = not_run(absent)
        md += a_md
        body += a_body
    md += ["## Method", ""]
    body += ['<h2 id="method">Method</h2>']
    for para in METHOD + [m["method"] if m["method"].startswith(m["title"]) else f"{m['title']}: {m['method']}"
                          for m in metas if m.get("method")]:
        md += [para, ""]
        body += [f"<p>{html.escape(para)}</p>"]
    page = ("<!doctype html><html lang='en'><meta charset='utf-8'>" + PAGE.head() + "<title>cardsim report</title>"
            "<style>body{font-family:sans-serif;max-width:72em;margin:auto;padding:0 1em;line-height:1.4}"
            "table{border-collapse:collapse;font-size:85%;margin:.5em 0;display:block;max-width:100%;overflow-x:auto}"
            "td,th{border:1px solid #ccc;white-space:nowrap;"
            "padding:2px 6px;text-align:right}.caption,figcaption{color:#555;font-size:85%}"
            "figcaption .legend{color:#222;display:block;margin-bottom:.2em}"
            "img{max-width:100%}.detail{background:#f4f7fb;padding:.5em .8em;border-left:4px solid #4a78b0}"
            ".detail p{margin:.2em 0}.detail ul{margin:.3em 0;padding-left:1.4em}.detail li{margin:.2em 0}"
            "table.detail-table{display:table;background:#fff}table.detail-table caption{text-align:left;"
            "color:#444;font-size:90%;padding:.2em 0}table.detail-table td,table.detail-table th{text-align:left}"
            ".rules .settles{color:#2a6a2a;font-size:85%}"
            ".rules ol{padding-left:1.6em}.rules li{margin:.3em 0}.rules .order,.answers-intro{color:#444}"
            ".rules .worth{color:#777;font-size:85%}.rules li[data-holds=depends] .holds{color:#a33}"
            "details.tables{margin:.8em 0;border-top:1px solid #ddd}details.tables>summary{cursor:pointer;"
            "padding:.4em 0;color:#345}"
            "</style><body>" + "\n".join(body) + PAGE.tail(data) + "</body></html>")
    return "\n".join(md) + "\n", page


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="reports")
    args = p.parse_args(argv)
    out = Path(args.out)
    try:
        md, page = build(out)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (out / "report.md").write_text(md)
    (out / "index.html").write_text(page)
    print(f"wrote {out / 'report.md'} and {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(entry(main))
