"""Assemble reports/report.md and reports/index.html from the tables and figures the analysis
scripts wrote (``reports/tables/<game>.json`` lists them)."""
from __future__ import annotations

import argparse
import html
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

ORDER = ["vint", "501", "501_blind", "500"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="reports")
    args = p.parse_args(argv)
    out = Path(args.out)
    metas = [json.loads((out / "tables" / f"{g}.json").read_text())
             for g in ORDER if (out / "tables" / f"{g}.json").exists()]
    if not metas:
        print("error: no analysis tables found; run the analysis scripts first (make report)", file=sys.stderr)
        return 2
    stamp = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC"
    md = ["# cardsim report", "", f"Built {stamp} by `make report`. Every rate carries n and a 95% Wilson "
          "interval; every mean a 95% normal interval. Scores are in score points.", ""]
    body = [f"<h1>cardsim report</h1><p>Built {html.escape(stamp)} by <code>make report</code>.</p>"]
    for meta in metas:
        head = (f"{meta['deals']:,} deals, seed {meta['seed']}, strategies {', '.join(meta['strategies'])}"
                + (f", rules {meta['rules']}" if meta["rules"] else ""))
        params = "; ".join(f"{spec}: " + ", ".join(f"{k}={v:g}" for k, v in values.items())
                           for spec, values in meta.get("parameters", {}).items())
        md += [f"## {meta['title']}", "", head, ""]
        body += [f"<h2>{html.escape(meta['title'])}</h2><p>{html.escape(head)}</p>"]
        if params:
            md += [f"Strategy parameters: {params}.", ""]
            body += [f"<p>Strategy parameters: {html.escape(params)}.</p>"]
        for note in meta.get("notes", []):
            md += [f"- {note}"]
            body += [f"<p><em>{html.escape(note)}</em></p>"]
        if meta.get("glossary"):
            md += ["", "Columns:", ""] + [f"- `{k}`: {v}" for k, v in meta["glossary"].items()]
            body += ["<dl>" + "".join(f"<dt><code>{html.escape(k)}</code></dt><dd>{html.escape(v)}</dd>"
                                       for k, v in meta["glossary"].items()) + "</dl>"]
        md += [""]
        for name in meta["tables"]:
            md += [f"### {name}", "", (out / "tables" / f"{name}.md").read_text(), f"CSV: `tables/{name}.csv`", ""]
            table = pd.read_csv(out / "tables" / f"{name}.csv")
            body += [f"<h3>{html.escape(name)}</h3>", table.to_html(index=False, float_format=lambda v: f"{v:.4g}",
                                                                      na_rep="")]
        for fig in meta["figures"]:
            md += [f"![{fig}](figures/{fig})", ""]
            body += [f'<img src="figures/{html.escape(fig)}" alt="{html.escape(fig)}">']
    (out / "report.md").write_text("\n".join(md) + "\n")
    (out / "index.html").write_text("<!doctype html><meta charset='utf-8'><title>cardsim report</title>"
                                    "<style>body{font-family:sans-serif;max-width:70em;margin:auto}"
                                    "table{border-collapse:collapse;font-size:85%}td,th{border:1px solid #ccc;"
                                    "padding:2px 6px;text-align:right}</style>" + "\n".join(body))
    print(f"wrote {out / 'report.md'} and {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
