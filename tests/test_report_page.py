"""The report page's "Your hand" panels (docs/report-page.md): Python's classification against the
dealer's, and the page in a real browser (Debian's chromium and chromedriver through selenium).

A tiny report is built once for the module: the three chart analyses (Vint charts, the Five
Hundred bid guide, 501 in the game) with a small n and one other player profile, then the page.
The browser tests
* classify a few thousand random hands in the page's script and in Python
  (:func:`cardsim.analysis.hand_classes.classify`) and find the same cells;
* type three hands per game, each dealt from a chart row's own class by the dealer, and read the
  answer fields against that row of the CSV table;
* check that the page asks for nothing outside the file (the network events of the DevTools
  performance log; the page's Content-Security-Policy) and that the console shows no error.

Without chromium, chromedriver or selenium the browser tests are skipped with the reason; with
``CARDSIM_REQUIRE_BROWSER=1`` (set by .ci/run) they fail instead, so CI cannot skip them silently.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cardsim.analysis import hand_classes as HC
from cardsim.conditions import Conditions, compile as compile_conditions, features_of

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CARDSIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CARDSIM_CHROMEDRIVER", "/usr/bin/chromedriver")
"""Debian's browser and driver (``apt-get install chromium chromium-driver``); the variables name others."""
REQUIRE = os.environ.get("CARDSIM_REQUIRE_BROWSER") == "1"
ANALYSES = ("vint_charts", "g500_guide", "g501_game")
N = 200
"""Deals per cell of the tiny report (the chart analyses' --n): enough for every column."""
RANDOM_HANDS = 3000


def _missing_browser() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """A tiny report with the three chart sections (index.html and the tables' CSVs)."""
    out = tmp_path_factory.mktemp("page")
    for name in ANALYSES:
        subprocess.run([sys.executable, "-m", f"analyses.{name}", "--n", str(N), "--seed", "7", "--jobs", "1",
                        "--results", str(out / "results"), "--out", str(out), "--quick", "--profiles", "bold"],
                       cwd=ROOT, check=True, capture_output=True, text=True)
    subprocess.run([sys.executable, "-m", "analyses.report", "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through selenium, never downloading anything (no Selenium Manager: the
    driver's path is given)."""
    reason = _missing_browser()
    if reason:
        if REQUIRE:
            pytest.fail(f"CARDSIM_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    # Both paths are given, so Selenium Manager is not used; were it ever, offline it downloads nothing.
    os.environ.setdefault("SE_OFFLINE", "true")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="cardsim-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,1600"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def page(browser, report):
    """The tiny report open in the browser; the logs read so far are the page load's."""
    browser.get((report / "index.html").as_uri())
    browser.execute_script("return document.readyState")
    return browser


def _tables(report: Path) -> dict:
    t = report / "tables"
    vint = pd.concat([pd.read_csv(p).assign(chart=p.stem.removeprefix("vint_chart_"))
                      for p in sorted(t.glob("vint_chart_*.csv"))], ignore_index=True)
    vint["after"] = vint["after"].fillna("-").astype(str)
    return {"vint": vint, "500": pd.read_csv(t / "g500_guide_bids.csv"),
            "501": pd.read_csv(t / "g501_game_choices.csv"), "501_dec": pd.read_csv(t / "g501_game_decisions.csv")}


def _cells(report: Path) -> dict:
    t = _tables(report)
    return {"vint": HC.vint_cells(t["vint"]), "500": HC.g500_cells(t["500"]), "501": HC.g501_cells(t["501"])}


def _random_hand(game: str, rng: random.Random) -> list[str]:
    fs = features_of(game)
    return [fs.card_str(int(c)) for c in rng.sample(list(fs.base_deck), HC.HAND_SIZE[game])]


def _dealt_hand(game: str, where: str, seed: int) -> str:
    """A hand of seat 0 dealt by the dealer under the class ``where`` (an independent source)."""
    from cardsim.deal import deal_chunk

    fs = features_of(game)
    seats = 3 if game == "501" else None
    dealt = deal_chunk(compile_conditions(Conditions(game, seats=seats, classes={0: where} if where else {})),
                       seed=seed, start=0, count=1)
    bits = int(dealt.hands[0, 0])
    return " ".join(fs.card_str(i) for i in range(64) if bits >> i & 1)


# ---------------------------------------------------------------- Python: the classes are the dealer's
def test_python_classes_agree_with_the_dealer(report):
    """in_class on each cell's class text decides exactly as the jitted dealer's constraint check
    (cardsim.deal.meets on the compiled plan) on random hands."""
    from cardsim.deal import meets

    rng = random.Random(5)
    cells = _cells(report)
    for game in ("vint", "500"):
        wheres = list(dict.fromkeys(c.where for c in cells[game]))
        for where in wheres[:12]:
            plan = compile_conditions(Conditions(game, classes={0: where})).plan
            cons, masks, shifts, weights = plan[7], plan[8], plan[9], plan[10]
            for _ in range(150):
                bits = HC.hand_bits(game, _random_hand(game, rng))
                hands = np.array([bits, 0, 0, 0], dtype=np.uint64)
                assert HC.in_class(game, bits, where) == bool(meets(hands, np.uint64(0), cons, masks, shifts, weights))


def test_full_report_cells_and_known_hands():
    """Every cell of the full report's charts is rebuilt from the analyses' definitions, and a few
    hands land where a player would look them up."""
    for game, count in (("vint", 173), ("501", 108)):
        cells = HC.studied_cells(game)
        assert len(cells) == count and len({c.key for c in cells}) == count
    assert HC.classify("vint", "S:AK86 H:KQ942 C:K83 D:2", {"chart": "opening", "after": "-"}) == \
        ["opening|-|13-15|5H"]
    assert HC.classify("vint", "S:AK86 H:KQ942 C:K83 D:2", {"chart": "response", "after": "1H P"}) == \
        ["response|1H P|13-15|H 4+"]
    # 5-5 in the majors answering 1NT: both five-card classes
    assert HC.classify("vint", "S:AK862 H:KQ942 C:K8 D:2", {"chart": "response", "after": "1NT P"}) == \
        ["response|1NT P|13-15|5+S", "response|1NT P|13-15|5+H"]
    assert HC.classify("vint", "S:AKQJT98 H:AKQJ D:A C:2",
                       {"chart": "opening", "after": "-"}) == []  # 24 points, 7-4-1-1: no class
    # Five Hundred: 7 hearts counting the jokers, 3 of the top five; in spades 3 trumps, below every class
    hand = "HJ LJ H:AKQ95 S:A C:K D:4"
    assert HC.classify("500", hand, {"trump": "H", "scoring": "quebec"}) == ["H|7|3||||quebec"]
    assert HC.classify("500", hand, {"trump": "NT", "scoring": "subtract"}) == ["NT||||2|2|subtract"]
    assert HC.classify("500", hand, {"trump": "S", "scoring": "quebec"}) == []
    # spades: AKQ95 and the high joker are 6 trumps, HJ and AS 2 of the top five, AH one side ace (the
    # main grid's cell and the side-aces sweep's); with the jack of clubs (the left bower) 7 and 3
    assert HC.classify("500", "HJ S:AKQ95 D:J H:A C:KQ", {"trump": "S", "scoring": "quebec"}) == \
        ["H|6|2||||quebec", "H|6|2|1|||quebec"]
    assert HC.classify("500", "HJ S:AKQ95 C:J H:A D:KQ", {"trump": "S", "scoring": "quebec"}) == ["H|7|3||||quebec"]
    # 501: own 290 -> 300; closest rival 310 -> lead +10 -> 0
    assert HC.classify("501", [], {"own": 290, "opponents": [310, 400], "position": 1}) == ["300|0|1"]


def test_vint_legends_explain_every_shape_and_titles_wrap(monkeypatch, tmp_path):
    """The chart legends explain 6S (exactly six) beside 5H and 6+H; a long heatmap title is
    wrapped (lines of at most vint_charts.TITLE_WIDTH characters) and stays clear of the colour bar."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cardsim.analysis.vint import charts as vc

    for name in ("vint_chart_opening.png", "vint_chart_second.png", "vint_chart_response_1H_P.png"):
        text = vc.legends([name])[name]
        assert "6S = exactly six spades" in text and "5H = exactly five hearts" in text and "6+H = six or more" in text
    assert "6S = exactly six spades" in vc.GLOSSARY["band / shape"]
    kept = []
    monkeypatch.setattr(plt, "close", kept.append)
    table = pd.DataFrame({"band": ["13-15", "13-15"], "shape": ["bal", "6S"], "gap": [20.0, 250.0],
                          "best": ["1NT", "1S"], "clear": [False, True]})
    title = ("Vint response chart after 1H P: best first call (? = not clear, \u2020 = depends on the players; "
             "lo..hi = the gap's range across the player profiles where it moves by more than half)")
    vc.heatmap(table, title, tmp_path / "t.png")
    fig = kept[0]
    ax, bar = fig.axes
    lines = ax.get_title().split("\n")
    assert len(lines) > 1 and all(len(x) <= vc.TITLE_WIDTH for x in lines)
    assert " ".join(lines).replace("\u00a0", " ") == title and not any(x.startswith("=") for x in lines)
    r = fig.canvas.get_renderer()
    t_box, bar_box = ax.title.get_window_extent(r), bar.get_tightbbox(r)
    assert t_box.x1 <= bar_box.x0 or t_box.y1 <= bar_box.y0 or bar_box.y1 <= t_box.y0
    monkeypatch.undo()
    plt.close(fig)


def _situation_cells(own, leads):
    from cardsim.analysis.g501.blind_chart import situations

    return HC.g501_cells(pd.DataFrame([{"own": s.own, "lead": s.lead, "position": s.position}
                                       for s in situations(own, leads)]))


def _state_grid():
    """Game states in play on a grid: own, the two opponents (every score above 0), position."""
    for own in range(10, 721, 30):
        for left in range(5, 721, 45):
            for extra in (0, 20, 130):
                for pos in (0, 1, 2):
                    yield own, [left, left + extra], pos


def test_501_state_maps_to_the_nearest_charted_situation():
    """A 501 state answers the charted situation of its position with the least |Δown| + |Δlead|
    measured from the state itself (lead = lower opponent minus own), ties to the lower own, then
    the lower lead: on the quick report's coarse chart (own 250, opponents 300/320 went to own 100,
    lead 0 through the full grid's own 200, lead +50) and on a grid of states; on the full report's
    chart it is the engine's cell (g501_policy.nearest_cell) wherever the chart holds that cell."""
    from cardsim.analysis.g501.blind_chart import QUICK_LEADS, QUICK_OWN
    from cardsim.analysis.g501.policy import nearest_cell

    quick = _situation_cells(QUICK_OWN, QUICK_LEADS)
    for pos in (0, 1, 2):
        assert HC.classify("501", [], {"own": 250, "opponents": [300, 320], "position": pos}, quick) == \
            [f"300|0|{pos}"]
    # exactly midway in both axes: the lower own, then the lower lead
    assert HC.classify("501", [], {"own": 200, "opponents": [250, 250], "position": 1}, quick) == ["100|0|1"]
    full = HC.studied_cells("501")
    held = {c.key for c in full}
    for cells in (quick, full):
        ctx = [(c.context["own"], c.context["lead"], c.context["position"], c.key) for c in cells]
        checked = 0
        for own, opp, pos in _state_grid():
            key = HC.classify("501", [], {"own": own, "opponents": opp, "position": pos}, cells)
            lead = min(opp) - own
            dist = {k: abs(o - own) + abs(v - lead) for o, v, p, k in ctx if p == pos}
            o, v, _ = map(int, key[0].split("|"))
            assert dist[key[0]] == min(dist.values()), (own, opp, pos, key)
            # a tie goes to the lower own score, then the lower lead
            ties = sorted((o2, v2) for o2, v2, p, k in ctx if p == pos and dist[k] == dist[key[0]])
            assert (o, v) == ties[0], (own, opp, pos, ties)
            if cells is full:
                engine = HC.g501_key(*nearest_cell(own, min(opp), pos))
                if engine in held:
                    assert key == [engine], (own, opp, pos)
                    checked += 1
        assert cells is quick or checked > 2000


def test_page_is_self_contained(report):
    text = (report / "index.html").read_text()
    assert len(text.encode()) < 5 * 2 ** 20
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
    assert not re.search(r"https?://", text.split('id="cardsim-data"')[1])  # the data and the script
    for game in ("vint", "500", "501"):
        assert f'data-testid="panel-{game}"' in text and f'data-testid="hand-{game}"' in text


# ---------------------------------------------------------------- the browser
def test_without_javascript_the_tables_and_figures_show(browser, report):
    """A second session with JavaScript off: every table and figure is there and shown; the panels
    show only their note (their fields need the script)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="cardsim-nojs-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    try:
        driver.get((report / "index.html").as_uri())
        # the tables are folded in <details> blocks, which open with a click and no script
        for summary in driver.find_elements(By.CSS_SELECTOR, "details.tables > summary"):
            summary.click()
        tables = driver.find_elements(By.CSS_SELECTOR, "table")
        imgs = driver.find_elements(By.CSS_SELECTOR, "figure img")
        assert tables and imgs and all(t.is_displayed() for t in tables[:5]) and all(i.is_displayed() for i in imgs)
        assert driver.find_elements(By.CSS_SELECTOR, '[data-testid="yourhand-nav"]') == []
        hand = driver.find_element(By.CSS_SELECTOR, '[data-testid="hand-vint"]')
        assert not hand.is_displayed()
        assert "needs JavaScript" in driver.find_element(By.CSS_SELECTOR, '[data-testid="panel-vint"]').text
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_no_console_errors_and_no_requests(page, report):
    # Every request the page makes shows in the DevTools network events; the page's own are those
    # whose document is the page: only the file itself and its data URIs may be among them.
    uri = (report / "index.html").as_uri()
    own, anywhere = [], []
    for entry in page.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            url = msg["params"]["request"]["url"]
            anywhere.append(url)
            if msg["params"].get("documentURL") == uri:
                own.append(url)
    assert uri in own and all(u.startswith(("file://", "data:")) for u in own), own
    assert not [u for u in anywhere if u.startswith(("http:", "https:", "ws:", "wss:"))]
    errors = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    assert page.execute_script("return typeof window.cardsimPage.classify") == "function"
    links = page.find_elements("css selector", '[data-testid="yourhand-nav"] a')
    assert sorted(a.get_attribute("hash") for a in links) == ["#yourhand-500", "#yourhand-501", "#yourhand-vint"]


def test_page_classifies_random_hands_as_python(page, report):
    """A few thousand random hands per game, in their contexts, classified by the page's script and by
    hand_classes.classify: the same cell keys in the same order."""
    cells = _cells(report)
    rng = random.Random(2026)
    contexts = {"vint": [{"chart": c.context["chart"], "after": c.context["after"]} for c in cells["vint"]],
                "500": [{"trump": t, "scoring": s} for t in ("S", "C", "D", "H", "NT")
                        for s in sorted({c.context["scoring"] for c in cells["500"]})]}
    contexts["vint"] = [dict(t) for t in {tuple(sorted(c.items())) for c in contexts["vint"]}]
    cases = {"vint": [], "500": [], "501": []}
    for game in ("vint", "500"):
        for i in range(RANDOM_HANDS):
            cases[game].append((" ".join(_random_hand(game, rng)), contexts[game][i % len(contexts[game])]))
        # hands from the classes themselves, so that every cell is hit, not only the common ones
        for j, c in enumerate(cells[game][:40]):
            ctx = {k: c.context[k] for k in contexts[game][0]}
            cases[game].append((_dealt_hand(game, c.where, 100 + j), ctx))
    for _ in range(1000):
        own = rng.randint(1, 720)  # a game in play: every score above 0 (above 501 after failed contracts)
        cases["501"].append((" ".join(_random_hand("501", rng)),
                             {"own": own, "opponents": [rng.randint(1, 720), rng.randint(1, 720)],
                              "position": rng.randint(0, 2)}))
    # and a grid of states, the quick chart's midway ties among them
    cases["501"] += [("", {"own": own, "opponents": opp, "position": pos}) for own, opp, pos in _state_grid()]
    hits = 0
    for game, items in cases.items():
        got = page.execute_script(
            "var game = arguments[1];"
            "return arguments[0].map(function (x) { return cardsimPage.classify(game, x[0], x[1]); });",
            [[h, c] for h, c in items], game)
        want = [HC.classify(game, h, c, cells[game]) for h, c in items]
        assert len(got) == len(want)
        for (h, c), g, w in zip(items, got, want):
            assert g == w, (game, h, c)
        hits += sum(bool(w) for w in want)
    assert hits > 500  # not only empty answers


def test_page_reads_the_hand_syntax_as_python(page):
    """The card syntax of docs/conditions.md: suit groups, 10 for T, voids, single cards, jokers,
    suit symbols, commas, any case; and errors for what Python refuses."""
    good = [("vint", "S:AKT86 H:KQ42 D:- C:K832"), ("vint", "s:ak1086, h:kq42 c:k832 2d"),
            ("vint", "\u2660:AKT86 A\u2665 10\u2666 K\u2663"), ("vint", "S: AKT86  H:KQ42"),
            ("500", "HJ LJ S:AKJ95 H:Q4 C:K8 D:4"), ("500", "hj lj 10h"), ("501", "S:AT H:KQ D:9 C:AJ")]
    bad = [("vint", "S:AKX"), ("vint", "AS AS"), ("vint", "S:- AS"), ("501", "S:8"), ("vint", "HJ"),
           ("500", "S:3"), ("vint", "ZZ")]
    for game, text in good:
        js = page.execute_script("var p = cardsimPage.parseHand(arguments[0], arguments[1]);"
                                 "return [p.errors, p.bits.toString()];", game, text)
        assert js == [[], str(HC.hand_bits(game, text))], (game, text)
    for game, text in bad:
        with pytest.raises(ValueError):
            HC.hand_bits(game, text)
        assert page.execute_script("return cardsimPage.parseHand(arguments[0], arguments[1]).errors.length",
                                   game, text) > 0, (game, text)


def _set(page, testid: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    el = page.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
    if el.tag_name == "select":
        Select(el).select_by_value(str(value))
    else:
        el.clear()
        el.send_keys(str(value))


def _field(page, name: str, game: str):
    from selenium.webdriver.common.by import By

    el = page.find_element(By.CSS_SELECTOR, f'[data-testid="{name}-{game}"]')
    return el.text, el.get_attribute("data-value")


def _num(text):
    return None if text in (None, "") else float(text)


def _check_command(cmd: str) -> None:
    """The page's command is one ``cardsim evaluate`` reads: parsed by the CLI's parser and made into
    its question (hand, options, auction, rules, state all checked) without playing it."""
    import shlex

    from cardsim import questions as E
    from cardsim.cli import attach_negative_values, build_parser
    from cardsim.cli.common import parse_ints, parse_strategies

    argv = shlex.split(cmd)
    assert argv[:2] == ["cardsim", "evaluate"]
    a = build_parser().parse_args(attach_negative_values(argv[1:]))
    # it stops when the answer is clear (cmd_evaluate's rules: no -n, at least two options)
    assert a.until_clear and a.deals is None and a.max_deals and len(a.option) >= 1
    assert len(a.option) >= 2 or a.option == ["auto"]
    E.question(a.game, a.seat, a.option, a.max_deals, a.seed, a.hand, a.where, a.talon, a.dealer,
               parse_ints(a.before, "--before"), parse_strategies(a.strategy), a.seats, a.rule, auction=a.auction or (),
               outcome=a.outcome, calls_imply_hands=not a.calls_on_random_hands)


def test_typed_hands_answer_as_the_tables_say(page, report):
    """Three hands per game, each dealt from a chart row's class, typed into the panel: its fields
    are that row's numbers."""
    t = _tables(report)
    cells = _cells(report)
    # Vint: three rows of different charts
    rows = t["vint"].drop_duplicates("chart").head(3)
    for i, r in enumerate(rows.itertuples()):
        cell = next(c for c in cells["vint"] if c.key == HC.vint_key(r.chart, r.after, r.band, r.shape))
        hand = _dealt_hand("vint", cell.where, 7 + i)
        ctx = f"{r.chart}|{r.after}"
        _set(page, "context-vint", ctx)
        _set(page, "hand-vint", hand)
        keys = page.find_element("css selector", '[data-testid="panel-vint"]').get_attribute("data-keys").split(";")
        assert cell.key in keys
        if keys[0] != cell.key:  # an overlapping class answers first: its own row is checked instead
            r = next(x for x in t["vint"].itertuples() if HC.vint_key(x.chart, x.after, x.band, x.shape) == keys[0])
        assert _field(page, "best", "vint")[0] == r.best
        assert _field(page, "runner-up", "vint")[1] == r.runner_up
        assert _num(_field(page, "gap", "vint")[1]) == pytest.approx(r.gap)
        assert _num(_field(page, "n", "vint")[1]) == r.n
        assert _field(page, "clear", "vint")[1] == str(bool(r.clear)).lower()
        made = _field(page, "made", "vint")[1]
        assert (made is None and pd.isna(r.best_made)) or _num(made) == pytest.approx(r.best_made)
        cmd = _field(page, "command", "vint")[0]
        assert cmd.startswith("cardsim evaluate vint --seat ") and "--option " + r.best in cmd
        assert '--hand "' in cmd
        _check_command(cmd)
    # Five Hundred: two heart classes and a no-trump class, both scorings
    b = t["500"]
    picks = [b[b.denom == "H"].iloc[0], b[b.denom == "H"].iloc[-1], b[b.denom == "NT"].iloc[0]]
    for i, r in enumerate(picks):
        key = HC.g500_key(r.denom, r.trumps, r.top, r.side_aces, r.jokers, r.aces, r.scoring)
        cell = next(c for c in cells["500"] if c.key == key and c.context["trump"] in ("H", "NT"))
        hand = _dealt_hand("500", cell.where, 11 + i)
        _set(page, "context-500", cell.context["trump"])
        _set(page, "scoring-500", r.scoring)
        _set(page, "hand-500", hand)
        keys = page.find_element("css selector", '[data-testid="panel-500"]').get_attribute("data-keys").split(";")
        assert key in keys
        r = b[[HC.g500_key(*x) == keys[0] for x in b[["denom", "trumps", "top", "side_aces", "jokers", "aces",
                                                          "scoring"]].itertuples(index=False)]].iloc[0]
        assert _num(_field(page, "best", "500")[1]) == r.best
        assert _num(_field(page, "gap", "500")[1]) == pytest.approx(r.margin)
        assert _num(_field(page, "n", "500")[1]) == r.deals
        assert _num(_field(page, "made", "500")[1]) == pytest.approx(r.made)
        cmd = _field(page, "command", "500")[0]
        assert f"--option =10{cell.context['trump']}" in cmd and f"--rule scoring={r.scoring}" in cmd
        _check_command(cmd)
    # 501: three situations, typed as scores (one opponent further behind: the closest rival counts)
    c = t["501"]
    for i, r in enumerate([c.iloc[0], c.iloc[len(c) // 2], c.iloc[-1]]):
        _set(page, "own-501", r.own)
        _set(page, "left-501", r.opp)
        _set(page, "right-501", r.opp + 40 * i)
        _set(page, "position-501", r.position)
        _set(page, "hand-501", _dealt_hand("501", "", 21 + i))
        assert page.find_element("css selector", '[data-testid="panel-501"]').get_attribute("data-keys") == \
            HC.g501_key(r.own, r.lead, r.position)
        assert _field(page, "best", "501")[1] == r.best
        assert _field(page, "clear", "501")[1] == r.verdict
        if r.best != "look":
            assert _num(_field(page, "gap", "501")[1]) == pytest.approx(r.gain_pp)
        dec = t["501_dec"]
        d = dec[(dec.own == r.own) & (dec.lead == r.lead) & (dec.position == r.position) & (dec.option == r.best)]
        assert _num(_field(page, "n", "501")[1]) == d.deals.iloc[0]
        cmd = _field(page, "command", "501")[0]
        assert f"--before {r.own},{r.opp},{r.opp + 40 * i}" in cmd and "--outcome game" in cmd
        _check_command(cmd)
    errors = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []


def test_a_hand_outside_every_class_says_so(page):
    # 26 points with a 6-5 shape: in no opening class of the quick charts
    _set(page, "context-vint", "opening|-")
    _set(page, "hand-vint", "S:AKQJ92 H:AKQJ3 D:A C:2")
    panel = page.find_element("css selector", '[data-testid="panel-vint"]')
    assert panel.get_attribute("data-state") == "outside"
    assert "outside every class" in _field(page, "status", "vint")[0]
    cmd = _field(page, "command", "vint")[0]
    assert cmd.startswith("cardsim evaluate vint") and "--option auto" in cmd
    _check_command(cmd)
    _set(page, "hand-vint", "S:AKQ H:AKQ")
    assert page.find_element("css selector", '[data-testid="panel-vint"]').get_attribute("data-state") == "incomplete"


def test_cards_can_be_tapped_and_tables_filtered(page):
    from selenium.webdriver.common.by import By

    _set(page, "hand-500", "")
    for card in ("HJ", "AH", "KH"):
        page.find_element(By.CSS_SELECTOR, f'[data-testid="card-500-{card}"]').click()
    assert page.find_element(By.CSS_SELECTOR, '[data-testid="hand-500"]').get_attribute("value") == "HJ H:AK"
    page.find_element(By.CSS_SELECTOR, '[data-testid="copy-500"]').click()  # copies, or selects the command
    assert [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
    boxes = page.find_elements(By.CSS_SELECTOR, "input.tablefilter")
    grid_cell = page.find_element(By.CSS_SELECTOR, "div.cellgrid [data-detail]")
    assert "n = " in grid_cell.get_attribute("title")
    if boxes:
        box = boxes[0]
        # the tables are folded: unfold the box's block as a reader would
        details = box.find_element(By.XPATH, "ancestor::details[1]")
        if details.get_attribute("open") is None:
            summary = details.find_element(By.XPATH, "./summary")
            page.execute_script("arguments[0].scrollIntoView()", summary)
            summary.click()
        page.execute_script("arguments[0].scrollIntoView()", box)
        box.send_keys("zzz-no-such-row")
        table = box.find_element(By.XPATH, "../following-sibling::table[1]")
        shown = [r for r in table.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()]
        assert shown == []
        box.clear()
        box.send_keys(" ")


def test_filter_hints_command_lines_and_nearest_501(page, report):
    """Each filter box's hint takes its examples from its own table's first row; the command breaks
    only between its arguments and reads as the plain command; a 501 state between charted cells
    says it is answered by the nearest one; a score at or below 0 gets no answer."""
    from selenium.webdriver.common.by import By

    for box in page.find_elements(By.CSS_SELECTOR, "input.tablefilter"):
        hint = box.get_attribute("placeholder")
        assert hint.startswith("Type to keep matching rows")
        table = box.find_element(By.XPATH, "../following-sibling::table[1]")
        first = page.execute_script("return Array.prototype.map.call(arguments[0].tBodies[0].rows[0].cells,"
                                    " function (c) { return c.textContent.trim(); });", table)
        for example in re.findall("\u201c(.*?)\u201d", hint):
            assert example in first, (hint, first)
    _set(page, "context-vint", "opening|-")
    _set(page, "hand-vint", "S:AKT86 H:KQ42 C:K832 D:2")  # 14 cards: refused, as evaluate refuses it
    assert "14 cards, but a hand holds 13" in _field(page, "status", "vint")[0]
    assert _field(page, "command", "vint")[0] == ""
    _set(page, "hand-vint", "S:AKT86 H:KQ42 C:K83 D:2")
    for width in (1280, 390):
        page.set_window_size(width, 1600)
        for game in ("vint", "501"):
            code = page.find_element(By.CSS_SELECTOR, f'[data-testid="command-{game}"]')
            parts = page.execute_script(
                "return Array.prototype.map.call(arguments[0].querySelectorAll('span.arg'), function (s) {"
                " return [s.textContent, s.getClientRects().length]; });", code)
            assert len(parts) > 5 and all(n == 1 for _, n in parts), (width, parts)  # no argument split
            assert page.execute_script("return arguments[0].textContent", code) == " ".join(p for p, _ in parts)
            _check_command(" ".join(p for p, _ in parts))
    page.set_window_size(1280, 1600)
    r = _tables(report)["501"].iloc[0]
    for own, left, right, nearest in ((r.own, r.opp, r.opp, False), (r.own + 17, r.opp + 3, r.opp + 90, True)):
        _set(page, "own-501", own)
        _set(page, "left-501", left)
        _set(page, "right-501", right)
        _set(page, "position-501", r.position)
        text = _field(page, "class", "501")[0]
        assert text.startswith("nearest charted situation: own ") == nearest, text
        assert f"own {r.own}, both opponents at {r.opp}" in text
    # the quick chart's nearest situation to own 250, opponents 300 and 320 (it was own 100)
    for key, value in (("own-501", 250), ("left-501", 300), ("right-501", 320), ("position-501", 0)):
        _set(page, key, value)
    assert page.find_element(By.CSS_SELECTOR, '[data-testid="panel-501"]').get_attribute("data-keys") == "300|0|0"
    assert _field(page, "class", "501")[0].startswith("nearest charted situation: own 300, both opponents at 300")
    _set(page, "own-501", 0)
    assert "above 0" in _field(page, "status", "501")[0]
    assert page.find_element(By.CSS_SELECTOR, '[data-testid="panel-501"]').get_attribute("data-keys") == ""
    assert _field(page, "command", "501")[0] == ""
    _set(page, "own-501", 300)
