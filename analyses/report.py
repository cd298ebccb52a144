"""Assemble reports/report.md and reports/index.html from the tables and figures the analysis
scripts wrote (``reports/tables/<name>.json`` describes each analysis).

The report opens with **Answers** (the paragraphs the analyses generated from their numbers),
then **Method**, then one section per analysis.  Every table and figure carries a caption with
its n, seed, strategies and their parameters, rule options and the cardsim version.
``index.html`` is self-contained: figures are embedded as data URIs, so it opens from disk or as
an e-mail attachment.
"""
from __future__ import annotations

import argparse
import base64
import html
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from analyses import page as PAGE
from analyses.common import entry, readable

ORDER = ["501_game", "vint_charts", "500_guide", "stronger_play", "vint", "501", "501_blind", "500", "quality"]
"""Analyses in the order of their sections (those present are shown)."""

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
    "charts and the Five Hundred bid guide is replayed under the game's other player profiles (cardsim "
    "profiles GAME: the previous default, cautious and bold bidders and more) on the same deals: a cell "
    "whose best option is clearly beaten under some profile depends on the players (marked \u2020), and "
    "its gain is shown as a range across the profiles (docs/profiles.md).",
]


def caption(meta: dict) -> str:
    """What a table or figure was made from: n, seed, strategies and parameters, rules, version."""
    params = "; ".join(f"{spec}: " + ", ".join(f"{k}={v:g}" for k, v in values.items())
                       for spec, values in meta.get("parameters", {}).items())
    per = meta.get("deals_unit", "deals")
    parts = [f"n = {meta['deals']:,} {per}", f"seed {meta['seed']}",
             "strategies " + ", ".join(meta["strategies"]) + (f" ({params})" if params else ""),
             "rules " + (", ".join(f"{k}={v}" for k, v in meta["rules"].items()) if meta.get("rules") else "default"),
             f"cardsim {meta.get('cardsim', '?')} (jitted sources {meta.get('source', '?')})"]
    return "; ".join(parts) + "."


def _figure_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def build(out: Path) -> tuple[str, str]:
    """The Markdown and HTML texts of the report from ``out/tables/*.json``."""
    metas = [json.loads((out / "tables" / f"{g}.json").read_text())
             for g in ORDER if (out / "tables" / f"{g}.json").exists()]
    if not metas:
        raise FileNotFoundError("no analysis tables found; run the analysis scripts first (make report)")
    stamp = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC"
    intro = (f"Built {stamp} by make report. In the tables every rate carries n and a 95% Wilson interval and "
             "every mean a 95% normal interval; the Answers summarise them (a bare rate there is a point "
             "estimate, its interval is in the section's tables). Scores are in score points.")
    md = ["# cardsim report", "", intro, "", "## Answers", ""]
    data = PAGE.page_data(metas, out)  # the "Your hand" panels' cells (analyses/page.py)
    body = ["<h1>cardsim report</h1>", f"<p>{html.escape(intro)}</p>", '<h2 id="answers">Answers</h2>']
    answered = [m for m in metas if m.get("answer")]
    for meta in answered:
        # a title that is a question keeps its own mark ("…in the game?", not "…in the game?.")
        lead = meta["title"] if meta["title"].endswith(("?", "!", ".")) else meta["title"] + "."
        md += [f"**{lead}** {meta['answer']}", ""]
        body += [f"<p class='answer'><strong>{html.escape(lead)}</strong> {html.escape(meta['answer'])}</p>"]
    if not answered:
        md += ["No analysis in this report answers a question yet.", ""]
        body += ["<p>No analysis in this report answers a question yet.</p>"]
    md += ["## Method", ""]
    body += ['<h2 id="method">Method</h2>']
    for para in METHOD + [m["method"] if m["method"].startswith(m["title"]) else f"{m['title']}: {m['method']}"
                          for m in metas if m.get("method")]:
        md += [para, ""]
        body += [f"<p>{html.escape(para)}</p>"]
    for meta in metas:
        cap = caption(meta)
        md += [f"## {meta['title']}", "", cap, ""]
        body += [f"<h2>{html.escape(meta['title'])}</h2>", f"<p class='caption'>{html.escape(cap)}</p>"]
        body += PAGE.section(meta, out, data)
        for note in meta.get("notes", []):
            md += [f"- {note}"]
            body += [f"<p><em>{html.escape(note)}</em></p>"]
        if meta.get("glossary"):
            md += ["", "Columns:", ""] + [f"- `{k}`: {v}" for k, v in meta["glossary"].items()]
            body += ["<dl>" + "".join(f"<dt><code>{html.escape(k)}</code></dt><dd>{html.escape(v)}</dd>"
                                       for k, v in meta["glossary"].items()) + "</dl>"]
        md += [""]
        for name in meta["tables"]:
            # A table may carry a title for people (``table_titles``); its name stays in the caption.
            heading = meta.get("table_titles", {}).get(name, name)
            md += [f"### {heading}", "", (out / "tables" / f"{name}.md").read_text(), f"*{name}: {cap}* "
                   f"CSV: `tables/{name}.csv`", ""]
            table = pd.read_csv(out / "tables" / f"{name}.csv")
            body += [f"<h3>{html.escape(heading)}</h3>",
                     readable(table).to_html(index=False, na_rep="", border=0),
                     f"<p class='caption'>{html.escape(name)}: {html.escape(cap)}</p>"]
        for name in meta.get("csv_only", []):
            md += [f"Full table `{name}` (every row): CSV `tables/{name}.csv`.", ""]
            body += [f"<p>Full table <code>{html.escape(name)}</code> (every row): CSV "
                     f"<code>tables/{html.escape(name)}.csv</code> beside this page.</p>"]
        for fig in meta["figures"]:
            md += [f"![{fig}](figures/{fig})", "", f"*{fig}: {cap}*", ""]
            body += [f'<figure><img src="{_figure_uri(out / "figures" / fig)}" alt="{html.escape(fig)}">'
                     f"<figcaption>{html.escape(fig)}: {html.escape(cap)}</figcaption></figure>"]
    page = ("<!doctype html><html lang='en'><meta charset='utf-8'>" + PAGE.head() + "<title>cardsim report</title>"
            "<style>body{font-family:sans-serif;max-width:72em;margin:auto;padding:0 1em;line-height:1.4}"
            "table{border-collapse:collapse;font-size:85%;margin:.5em 0;display:block;max-width:100%;overflow-x:auto}"
            "td,th{border:1px solid #ccc;white-space:nowrap;"
            "padding:2px 6px;text-align:right}.caption,figcaption{color:#555;font-size:85%}"
            "img{max-width:100%}.answer{background:#f4f7fb;padding:.5em .8em;border-left:4px solid #4a78b0}"
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
