"""The section "How strong are the players behind these answers?" (analyses/players.py, issue 46):
its rows from exploit tables (on the stand-in, whose exploitable parameter is known), the chart
cells that moved under the previous default, a tiny run on a real game, and the section on the
report's page (the Answers' sentence per game; the page rendered by chromium where it is installed)."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from analyses import players as PL
from analyses import report as R
from cardsim import standin
from cardsim.analysis import rules_of_thumb as T
from cardsim.exploit import exploit

CHROMIUM = os.environ.get("CARDSIM_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def standin_table():
    """exploit on the stand-in: x (default 0.3, equilibrium 0.5) is exploitable one step up (+0.035)."""
    return exploit(arena=standin.arena(), n_matches=20_000, seed=3, n_jobs=1, pairs=2)


def test_rows_sentence_and_detail_from_an_exploit_table(standin_table):
    best = PL.best_rows(standin_table, "default")
    assert list(best.columns) == ["players", "param", "value", "gain", "lo", "hi", "clear"]
    x = best.set_index("param").loc["x"]
    # a share in percentage points: the planted gain 0.035 is 3.5 pp
    assert x.value == "0.35" and x.clear and x.lo > 0 and x.gain == pytest.approx(3.5, abs=1.0)
    assert not best.set_index("param").loc[["u", "v", "w"]].clear.any()  # null parameters
    row = PL.summary_row("Stand-in", "default", standin_table)
    assert (row["verdict"], row["best_param"], row["best_value"]) == ("exploitable", "x", "0.35")
    assert row["gain"] == pytest.approx(100 * standin_table.attrs["exploitability"]["gain"])
    assert row["unit"].startswith("pp of ") and row["tolerance"] == pytest.approx(100 * standin_table.attrs["tolerance"])
    text = PL.sentence([row, {**row, "players": "previous", "strategy": "standin:x=0.5", "verdict": "within tolerance"}])
    assert text.startswith("The default players (standin) are exploitable: the best one-step deviation found (x = 0.35) "
                           f"gains {row['gain']:+.2f} {row['unit']} [{row['lo']:+.2f}, {row['hi']:+.2f}] (tolerance "
                           f"0.50 {row['unit']}; 20,000 matches a line-up detect {row['detectable']:.2f} with "
                           "probability 0.8); the previous default (standin:x=0.5): within tolerance, ")
    assert text.endswith("].")
    assert PL.fmt(1234.5, "score points a rubber") == "+1,234" and PL.fmt(-0.0, "pp of games won") == "+0.00"
    d = PL.detail_table({"title": "Stand-in", "summary": [row], "best": [best, best.assign(players="previous")]})
    assert d["columns"][:3] == ["parameter", "default: best step", f"default: gain [interval] ({row['unit']})"]
    assert len(d["rows"]) == len(best) and d["rows"][0][0] == best.param.iloc[0]
    assert [r for r in d["rows"] if r[0] == "x"][0][2].endswith(" clear")


def _chart(tmp_path: Path, game: str, rows: list[dict]) -> Path:
    tables = tmp_path / "tables"
    tables.mkdir(exist_ok=True)
    pd.DataFrame(rows).to_csv(tables / "chart_x.csv", index=False)
    (tables / "chart.json").write_text(json.dumps({"game": game, "tables": ["chart_x"]}))
    return tables


def test_moved_cells_come_from_the_previous_profiles_best(tmp_path):
    tables = _chart(tmp_path, "vint", [
        {"after": "-", "band": "0-10", "shape": "bal", "freq": 0.2, "best": "P", "best_under": "previous: P; bold: 1NT",
         "holds": True, "robust_deals": 100},
        {"after": "-", "band": "13-15", "shape": "5H", "freq": 0.05, "best": "1H", "best_under": "previous: P",
         "holds": False, "robust_deals": 100},
        {"after": "-", "band": "19-21", "shape": "bal", "freq": 0.01, "best": "2NT", "best_under": "",
         "holds": True, "robust_deals": 0}])
    cells, counts = PL.moved(tables, "vint")
    assert cells.to_dict("records") == [{"chart": "chart_x", "cell": "- 13-15 5H", "best": "1H", "previous_best": "P"}]
    assert counts == {"chart_x": {"cells": 3, "moved": 1, "holds": 1, "depends": 1}}
    assert PL.moved_text(counts, "heuristic_v4") == ("chart_x: 1 of 3 cells' best moved from the previous default's "
                                                      "(heuristic_v4) (robust verdicts now: holds in 1, depends in 1).")
    # another game's charts are not read; a chart without best_under says the move is not measured
    assert PL.moved(tables, "501")[1] == {}
    (tmp_path / "b").mkdir()
    bare = _chart(tmp_path / "b", "vint", [{"after": "-", "band": "0-10", "best": "P"}])
    # a chart without the robust columns is not an answer replayed under the profiles
    assert PL.moved_text(PL.moved(bare, "vint")[1], None) == ("no chart of this game replayed under the player "
                                                             "profiles is in the report.")
    robust = _chart(tmp_path / "b", "vint", [{"after": "-", "band": "0-10", "best": "P", "holds": False,
                                             "robust_deals": 100}])
    assert PL.moved_text(PL.moved(robust, "vint")[1], None) == (
        "not measured (no per-profile best, best_under, of a 'previous' profile) in chart_x (robust verdicts now: "
        "holds in 0, depends in 1).")


def test_moved_reads_csv_only_charts_names_number_keys_and_skips_tied_levels(tmp_path):
    # 501's choices table is kept as CSV only; its keys are numbers; levels the chart calls as good
    # as the best are a tie, not a move (the report once said "0 moved" for 501, missing the table)
    tables = tmp_path / "tables"
    tables.mkdir()
    pd.DataFrame([
        {"own": 50, "lead": 0, "opp": 50, "position": 2, "deals": 10000, "best": "blind:120",
         "levels_as_good": "120-150", "best_under": "previous=blind:150, bold=blind:100", "holds": True,
         "robust_deals": 300},
        {"own": 50, "lead": 50, "opp": 100, "position": 1, "deals": 10000, "best": "blind:90",
         "levels_as_good": "90", "best_under": "previous=look", "holds": False, "robust_deals": 300},
        {"own": 100, "lead": 0, "opp": 100, "position": 1, "deals": 10000, "best": "blind:90",
         "levels_as_good": "70-90", "best_under": "previous=blind:120", "holds": False, "robust_deals": 300}],
    ).to_csv(tables / "choices.csv", index=False)
    (tables / "g.json").write_text(json.dumps({"game": "501", "tables": [], "csv_only": ["choices"]}))
    cells, counts = PL.moved(tables, "501")
    assert cells.to_dict("records") == [
        {"chart": "choices", "cell": "own 50 lead 50 opp 100 position 1", "best": "blind:90", "previous_best": "look"},
        {"chart": "choices", "cell": "own 100 lead 0 opp 100 position 1", "best": "blind:90",
         "previous_best": "blind:120"}]
    assert counts == {"choices": {"cells": 3, "moved": 2, "holds": 1, "depends": 2}}


def test_previous_default_is_the_previous_profiles_strategy():
    from cardsim import profiles as P

    for game in ("vint", "500", "501"):
        profile = P.available(game).get(T.PREVIOUS)
        assert PL.previous_spec(game) == (None if profile is None else profile.seats["others"])
    assert set(PL.games()) == {"vint", "500", "501"}  # every default declares tunables


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tiny players section (501 only, the quick size) and the report page built from it."""
    out = tmp_path_factory.mktemp("players")
    from analyses.common import parse_args

    args = parse_args("players", ["--seed", "5", "--jobs", "1", "--results", str(out / "results"), "--out", str(out),
                                  "--quick"])
    path = PL.run(args, only=["501"], params=["margin", "target_margin", "blind_prob"], pairs=1)
    md, page = R.build(out)
    (out / "index.html").write_text(page)
    return out, json.loads(path.read_text()), md, page


def test_a_tiny_run_writes_the_section_and_the_answers_sentence(tiny):
    out, meta, md, page = tiny
    assert meta["title"] == PL.TITLE and meta["deals"] == PL.QUICK_MATCHES
    summary = pd.read_csv(out / "tables" / "players_summary.csv")
    assert list(summary.players) == (["default", "previous"] if PL.previous_spec("501") else ["default"])
    assert set(summary.verdict) <= {"exploitable", "within tolerance", "not decided at this size"}
    best = pd.read_csv(out / "tables" / "players_501.csv")
    assert (best.lo <= best.gain).all() and (best.gain <= best.hi).all()
    assert set(best[best.players == "default"].param) == {"margin", "target_margin", "blind_prob"} | {
        p for p in best.param if "+" in p}
    assert best.param.str.contains("+", regex=False).sum() == len(summary)  # one pair per exploit table
    assert meta["sentences"] == {"501": PL.sentence(summary.to_dict("records"))}
    # the section: its heading, the exploit table in "In detail", its tables listed
    assert f"## {PL.TITLE}" in md and f"<h2 id='section-players'>" in page
    assert "| parameter | default: best step |" in md and "<table class='detail-table'>" in page
    assert "`tables/players_summary.csv`" in md


def test_the_answers_open_each_game_with_how_exploitable_its_players_are(tiny):
    out, meta, md, page = tiny
    chart = {"title": "501 chart", "rules_of_thumb": []}
    a_md, a_body = R.answers([("501_game", chart), ("players", meta)])
    assert f"*How strong are the players?* {meta['sentences']['501']}" in a_md
    assert "<p class='players' id='players-501_game'>" in "".join(a_body)


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_the_page_renders_the_section(tiny, tmp_path):
    out, meta, md, page = tiny
    profile = tmp_path / "profile"
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                          f"--user-data-dir={profile}", "--dump-dom", (out / "index.html").as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    shutil.rmtree(profile, ignore_errors=True)
    assert "id=\"section-players\"" in dom and PL.TITLE in dom
    assert dom.count("class=\"detail-table\"") == len(meta["detail"]["tables"]) >= 1


def test_the_trajectory_from_a_tuning_run():
    """The stand-in tuned from its planted default: x moves up one step at a time (0.3 -> 0.35 -> ...)."""
    from cardsim.tune import tune

    r = tune(None, "standin", arena=standin.arena(), n_matches=200_000, seed=1, n_jobs=1)
    rows = PL.trajectory_rows(r, "Stand-in")
    assert len(rows) == len(r.trajectory) and list(rows.columns[:4]) == ["game", "step", "kind", "param"]
    first = rows[rows.moved.astype(bool)].iloc[0]
    assert (first.param, first.from_value, first.value) == ("x", "0.3", "0.35")
    assert first.gain == pytest.approx(100 * r.trajectory[r.trajectory.moved].gain.iloc[0])  # pp
    assert first.point.startswith("x=0.35, y=0.4")
    text = PL.trajectory_text(r, "Stand-in")
    assert text.startswith(f"Stand-in: tuned from standin in self-play (cardsim tune, 200,000 matches a deviation, "
                           f"budget {r.budget:,} matches, {len(r.trajectory)} deviations measured): ended at "
                           f"{r.ended}; moves: x 0.3 \u2192 0.35 (+3.")
    assert text.endswith(f"; end point {r.spec}.")


def test_a_previous_default_gets_its_exploit_table_and_a_tuning_run(tmp_path, monkeypatch):
    """With a 'previous' profile (h-defaults adds them; here 501's previous default stands in as
    heuristic:target_margin=16), run_game measures both and tunes from the previous one."""
    monkeypatch.setattr(PL, "previous_spec", lambda game: "heuristic:target_margin=16")
    part = PL.run_game("501", 60, 1, 5, 1, tmp_path / "results", tmp_path, log=lambda s: None,
                       params=["margin", "target_margin"], pairs=0)
    assert [r["players"] for r in part["summary"]] == ["default", "previous"]
    assert [r["strategy"] for r in part["summary"]] == ["heuristic", "heuristic:target_margin=16"]
    assert all(set(b.param) == {"margin", "target_margin"} for b in part["best"])
    t = part["trajectory"]
    assert len(t) >= 1 and set(t.param) <= {"margin", "target_margin"} and (t.game == "501").all()
    assert part["tuned"].startswith("501: tuned from heuristic:target_margin=16 in self-play (cardsim tune, 60 matches "
                                    "a deviation, budget 240 matches,")
    detail = PL.detail_table(part)
    assert detail["columns"][1::2] == ["default: best step", "previous: best step"]
    assert part["moved_text"] == "no chart of this game replayed under the player profiles is in the report."
