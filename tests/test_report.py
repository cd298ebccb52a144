"""The report as make report QUICK=1 builds it: every analysis the Makefile runs, then the page.

Runs the same commands as the Makefile (read from it) into a temporary directory and parses
reports/index.html: Answers, Method, a section per analysis, every table and every figure,
figures embedded (the page links to no file).
"""
import html
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.h2, self.tables, self.imgs, self.links, self.captions = [], 0, [], [], 0
        self._tag = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._tag = tag
        if tag == "table":
            self.tables += 1
        if tag == "img":
            self.imgs.append(attrs.get("src", ""))
        if tag in ("a", "link", "script") and (attrs.get("href") or attrs.get("src")):
            self.links.append(attrs.get("href") or attrs.get("src"))
        if attrs.get("class") == "caption" or tag == "figcaption":
            self.captions += 1

    def handle_data(self, data):
        if self._tag == "h2" and data.strip():
            self.h2.append(data.strip())

    def handle_endtag(self, tag):
        self._tag = None


def _analyses():
    from analyses import ANALYSES, REPORT  # the one list: the Makefile's rules and the report's order

    return [a.script for a in ANALYSES if a.target == REPORT]  # what make report runs (not make stronger)


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    for name in _analyses():
        # one other profile is enough to put every robustness column and mark on the page (tests/test_robustness.py)
        subprocess.run([sys.executable, "-m", f"analyses.{name}", "--n", "3000", "--seed", "7", "--jobs", "1",
                        "--results", str(out / "results"), "--out", str(out), "--quick", "--profiles", "bold"],
                       cwd=ROOT, check=True, capture_output=True, text=True)
    subprocess.run([sys.executable, "-m", "analyses.report", "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True, text=True)
    return out


def test_makefile_runs_analyses():
    assert {"vint_contracts", "g501_bands", "g501_blind", "g500_contracts"} <= set(_analyses())


def test_one_list_feeds_the_makefile_and_the_report_order():
    from analyses import ANALYSES, LIST
    from analyses.report import ORDER

    makefile = (ROOT / "Makefile").read_text()
    assert f"ANALYSES_LIST := {LIST.relative_to(ROOT)}" in makefile and "$(call ANALYSE," in makefile
    assert ORDER == [a.table for a in ANALYSES]
    assert all((ROOT / "analyses" / f"{a.script}.py").exists() for a in ANALYSES)
    listed = subprocess.run([sys.executable, "-m", "analyses", "--list"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.splitlines()
    assert listed == [f"{a.script}\t{a.table}" for a in ANALYSES]


def test_every_section_table_and_figure_is_in_the_page(quick_report):
    page = _Page()
    page.feed((quick_report / "index.html").read_text())
    metas = [json.loads(p.read_text()) for p in (quick_report / "tables").glob("*.json")]
    assert page.h2[0] == "Answers" and page.h2[-1] == "Method"  # the Answers and the charts first, Method last
    assert [m["title"] for m in metas if m["title"] not in page.h2] == []
    n_tables = sum(len(m["tables"]) for m in metas)
    n_figures = sum(len(m["figures"]) for m in metas)
    n_detail = sum(len(m.get("detail", {}).get("tables", [])) for m in metas)  # the short "In detail" tables
    assert page.tables == n_tables + n_detail and len(page.imgs) == n_figures and n_figures >= 4
    assert all(src.startswith("data:image/png;base64,") and len(src) > 1000 for src in page.imgs)
    assert [link for link in page.links if not link.startswith("#")] == []  # self-contained: nothing to fetch
    assert page.captions == n_tables + n_figures + len(metas)
    md = (quick_report / "report.md").read_text()
    assert md.index("## Answers") < md.index("## " + metas[0]["title"]) < md.index("## Method")


def test_captions_state_n_seed_strategies_rules_version(quick_report):
    import cardsim
    html = (quick_report / "index.html").read_text()
    for cap in re.findall(r"<figcaption>(.*?)</figcaption>", html):
        assert re.search(r"n = [\d,]+ ", cap) and "seed 7" in cap and "strategies" in cap and "rules" in cap
        assert f"cardsim {cardsim.__version__}" in cap


def test_quality_section_and_method_cite_the_default_strategies(quick_report):
    """The strategies' quality against double-dummy is a section, and Method cites the default
    strategy's vs_dd / made / DD-makeable of each game next to the answers it qualifies."""
    md = (quick_report / "report.md").read_text()
    assert "## How good are the strategies?" in md
    method = md[md.index("## Method"):]
    for game in ("vint", "500", "501"):
        assert re.search(rf"{game} heuristic: vs_dd [+-]\d+\.\d\d (tricks|deal points) \[", method)
    assert "made " in method and "DD-makeable " in method
    for game in ("vint", "500", "501"):
        table = (quick_report / "tables" / f"quality_{game}.csv").read_text().splitlines()
        assert table[0].startswith("strategy,deals,n,vs_dd,vs_dd_lo,vs_dd_hi")
        assert [line.split(",")[0] for line in table[1:]][0] == "random"
        # issue 26: the default strategy by contract band and denomination, titled for people
        band = (quick_report / "tables" / f"quality_{game}_by_band.csv").read_text().splitlines()
        assert band[0] == "strategy,band,denomination,n,vs_dd,vs_dd_lo,vs_dd_hi,made"
        assert {line.split(",")[0] for line in band[1:]} == {"heuristic"}
        assert f"`tables/quality_{game}_by_band.csv` ({game}: by level band and denomination (heuristic; bands of the" in md


def test_analyses_launcher_catches_ctrl_c_while_a_script_imports(monkeypatch, capsys):
    # make report runs `python -m analyses SCRIPT`: a Ctrl-C during the script's imports is one line
    import runpy

    from analyses import __main__ as launcher

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runpy, "run_module", interrupted)
    monkeypatch.setattr(sys, "argv", ["analyses", "vint_contracts", "--n", "10"])
    assert launcher.main() == 130
    assert capsys.readouterr().err == "interrupted while starting (nothing was run)\n"
    monkeypatch.setattr(sys, "argv", ["analyses", "no_such_script"])
    assert launcher.main() == 2
    assert capsys.readouterr().err == "error: no analysis script 'no_such_script' in analyses/\n"


def test_each_section_opens_with_its_answer_in_detail(quick_report):
    md = (quick_report / "report.md").read_text()
    page = (quick_report / "index.html").read_text()
    from analyses import stronger_play

    # make report does not run the stronger-play check (make stronger): its section says how to get it
    assert f"## {stronger_play.TITLE}\n\n{stronger_play.NOT_RUN}\n" in md
    assert "<h2 id='section-stronger_play'>" in page
    for name in ("vint_charts", "501_game", "500_guide"):
        meta = json.loads((quick_report / "tables" / f"{name}.json").read_text())
        section = md[md.index(f"## {meta['title']}\n"):]
        assert f"<h2 id='section-{name}'>" in page
        if "detail" not in meta:
            assert section.split("\n\n")[1] == f"**In detail.** {meta['answer']}"
            continue
        # the chart sections: a short table (Vint) and a list of the answer's sentences
        assert section.split("\n\n")[1] == "**In detail.**"
        for item in meta["detail"]["items"]:
            assert f"\n- {item}\n" in section[:section.index("\n## ")]
        for t in meta["detail"]["tables"]:
            assert "| " + " | ".join(t["columns"]) + " |" in section
            assert len(t["rows"]) > 0 and all(f"| {' | '.join(row)} |" in section for row in t["rows"])
    assert any(json.loads((quick_report / "tables" / "vint_charts.json").read_text())["detail"]["tables"])
    answers = md[md.index("## Answers"):md.index("\n## ", md.index("## Answers"))]
    assert "In detail" not in answers  # the long texts left the Answers


def _rules_of(quick_report):
    from analyses.report import GAMES

    out = []
    for name, game in GAMES:
        meta = json.loads((quick_report / "tables" / f"{name}.json").read_text())
        tables = {t: pd.read_csv(quick_report / "tables" / f"{t}.csv")
                  for t in meta["tables"] + meta.get("csv_only", [])}
        out.append((name, game, meta["rules_of_thumb"], tables))
    return out


def test_answers_are_at_most_six_rules_per_game_from_the_table_rows(quick_report):
    from rules_helpers import check_rules

    from cardsim.analysis import rules_of_thumb as T

    md = (quick_report / "report.md").read_text()
    page = (quick_report / "index.html").read_text()
    answers_md = md[md.index("## Answers"):md.index("\n## ", md.index("## Answers"))]
    answers_html = page[page.index('<h2 id="answers">'):page.index("<h2 ", page.index('<h2 id="answers">') + 5)]
    at = -1
    games = _rules_of(quick_report)
    assert sum(len(rules) for _, _, rules, _ in games) > 0  # the quick report has clear cells to tell
    for name, game, rules, tables in games:
        check_rules(rules, tables, game)  # <= 6, by worth, numbers = the row's, verdict = its robustness column
        assert answers_md.index(f"### {game}\n") >= at  # the games in order: Vint, 501, Five Hundred
        at = answers_md.index(f"### {game}\n")
        group = answers_html[answers_html.index(f"id='rules-{name}'"):]
        group = group[:group.index("</section>")]
        items = re.findall(r"<li class='rule' data-holds='(\w+)' data-settles='\d'>(.*?)</li>", group)
        assert len(items) == len(rules) <= 6
        for r, (holds, item) in zip(rules, items):  # in worth order, each with its number and verdict
            assert holds == r["holds"] and html.escape(r["text"]) in item and html.escape(r["number"]) in item
            assert ("\u2020" in item) == (r["holds"] == T.DEPENDS)
            assert f"{r['text']}**: {r['number']}; {T.holds_text(r)}" in answers_md
    assert "Ordered by" in answers_md and "Vint" in answers_md


def test_report_md_reads_in_a_minute_and_the_page_folds_the_tables(quick_report):
    md = (quick_report / "report.md").read_text()
    page = (quick_report / "index.html").read_text()
    metas = [json.loads(p.read_text()) for p in (quick_report / "tables").glob("*.json")]
    # the full tables are CSV files: the only Markdown tables are the short "In detail" ones
    short = sum(len(m.get("detail", {}).get("tables", [])) for m in metas)
    assert sum(line.startswith("|---") for line in md.splitlines()) == short and "| ---" not in md
    for meta in metas:
        for t in meta["tables"]:
            assert f"`tables/{t}.csv`" in md
    # every table of the page sits in a <details> block (open without JavaScript)
    blocks = re.findall(r"<details class='tables'.*?</details>", page, flags=re.S)
    assert sum(b.count("<table") for b in blocks) + page.count("<table class='detail-table'>") == page.count("<table")
    assert sum(b.count("<table") for b in blocks) > 0 and page.count("<table class='detail-table'>") == short
    # the page's script is inline (the "Your hand" panels); nothing is loaded from elsewhere
    assert not re.search(r"<script[^>]*\bsrc=", page)


def test_every_figure_has_a_legend_in_words(quick_report):
    page = (quick_report / "index.html").read_text()
    metas = [json.loads(p.read_text()) for p in (quick_report / "tables").glob("*.json")]
    figures = [f for m in metas for f in m["figures"]]
    legends = {f: m["legends"][f] for m in metas for f in m["figures"] if f in m.get("legends", {})}
    assert set(legends) == set(figures)
    for fig, legend in legends.items():
        assert f"<span class=legend>{html.escape(legend)}</span> {html.escape(fig)}:" in page
