"""``cardsim bench`` and ``python -m cardsim.bench``: one command (cardsim.cli.bench's parser,
cardsim.bench.run's runner) for the whole run, one section (``--only``), strategies alternately and
the benchmark tools; bad options are one line and exit code 2 before anything is measured."""
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import cardsim
from cardsim.bench import against, crossover, dd
from cardsim.bench.markdown import NOTES_MARKER, replace_section
from cardsim.cli import build_parser, main
from cardsim.games.base import OptionError


def _code(argv, capsys):
    """Exit code, standard output and standard error of ``cardsim ARGV`` in this process."""
    try:
        code = main(argv)
    except SystemExit as exc:  # the parser's own errors and --help
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_bench_checks_its_output_before_measuring(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = _code(["bench", "--games", "vint", "--out", str(blocker / "BENCHMARKS.md")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--out:" in err and "measuring" not in err


def test_bench_crossover_section_replaces_its_old_self_and_keeps_the_notes(tmp_path):
    from cardsim.runner.run import deal_jobs

    result = {"game": "vint", "cores": 2, "sizes": [20_000, 2_000_000], "others": 0.25, "repeats": 3, "when": "now",
              "asked": {20_000: 1, 2_000_000: 2},
              "best": {(20_000, 1): 2.0, (20_000, 2): 3.5, (2_000_000, 1): 11.0, (2_000_000, 2): 7.25},
              "default": {n: deal_jobs(n, "vint", -1, cores=2) for n in (20_000, 2_000_000)},
              "threshold": crossover.worker_threshold("vint", 2)}
    text = crossover.crossover_table([result], "python -m cardsim.bench --only crossover")
    rows = [ln for ln in text.splitlines() if ln.startswith("| vint") or ln.startswith("|  |")]
    assert rows[0] == f"| vint | 20,000 | 2.00 s | 3.50 s (one chunk: played here) | here (`--jobs 1`) | {result['threshold']:,} deals |"
    assert rows[1] == "|  | 2,000,000 | 11.00 s | 7.25 s | on 2 workers |  |"
    assert "kept this many of its 2 cores busy while each game was measured: vint 0.25" in text
    path = tmp_path / "B.md"
    path.write_text("# Benchmarks\n\n## End to end\n\nrates\n\n" + NOTES_MARKER + "\n\nhand notes\n")
    replace_section(str(path), crossover.CROSSOVER_HEADING, text)
    replace_section(str(path), crossover.CROSSOVER_HEADING, text.replace("2.00 s", "1.90 s"))
    new = path.read_text()
    assert new.count(crossover.CROSSOVER_HEADING) == 1 and "| 1.90 s |" in new and "| 2.00 s |" not in new
    assert new.index("## End to end") < new.index(crossover.CROSSOVER_HEADING) < new.index(NOTES_MARKER)
    assert new.endswith("hand notes\n") and "rates\n\n## When" in new


def test_help_lists_every_section_and_tool_with_what_it_does():
    env = dict(os.environ, COLUMNS="1000")  # one line an entry: argparse wraps at hyphens too
    out = subprocess.run([sys.executable, "-m", "cardsim.bench", "--help"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())  # argparse wraps the lines where it likes
    for section in ("conditions: dealing under", "end-to-end: simulate -o", "crossover: wall time",
                    "pimc: the sampled-search", "targets: every target"):
        assert section in text, section
    for tool in ("dd time the double-dummy solvers", "pimc-record keep the first N searched decisions",
                 "pimc-time time the solve hook", "pimc-profile where pimc in every seat",
                 "rules a rule file's rate against its base"):
        assert tool in text, tool
    # The same parser as `cardsim bench`'s: one entry point.
    same = subprocess.run([sys.executable, "-m", "cardsim", "bench", "--help"], capture_output=True, text=True,
                          env=env)
    assert same.stdout == out.stdout
    tool = subprocess.run([sys.executable, "-m", "cardsim.bench", "pimc-time", "--help"], capture_output=True,
                          text=True)
    assert tool.returncode == 0 and "--best-only" in tool.stdout and "--against COMMIT" in tool.stdout


def test_each_tool_has_its_own_defaults():
    from cardsim.bench.run import SECTIONS, TOOLS
    from cardsim.cli import bench as command

    assert tuple(command.SECTION_HELP) == SECTIONS  # the parser's --only choices are the runner's sections
    parser = build_parser()
    argvs = {"dd": [], "pimc-record": ["501", "-o", "x.pkl"], "pimc-time": ["x.pkl"], "pimc-profile": ["501"],
             "rules": ["x.toml"]}
    assert set(argvs) == set(TOOLS)
    assert all(parser.parse_args(["bench", tool, *argv]).tool == tool for tool, argv in argvs.items())
    whole = parser.parse_args(["bench"])
    assert (whole.tool, whole.deals, whole.rounds, whole.only) == (None, 1_000_000, 5, None)
    solver = parser.parse_args(["bench", "dd"])
    assert (solver.tool, solver.deals, solver.seed, solver.games) == ("dd", 200, 0, None)
    timing = parser.parse_args(["bench", "pimc-time", "f.pkl"])
    assert (timing.file, timing.rounds, timing.chunk, timing.against, timing.best_only) == ("f.pkl", 10, 20, None,
                                                                                           False)
    rule = parser.parse_args(["bench", "rules", "x.toml", "--implied", "1NT P", "--seat", "2"])
    assert (rule.path, rule.deals, rule.rounds, rule.implied, rule.dealer, rule.seat) == \
        ("x.toml", 20_000, 5, "1NT P", 0, 2)
    pimc = parser.parse_args(["bench", "--only", "pimc", "--against", "7f88fa3", "--rounds", "4", "--games", "500"])
    assert (pimc.tool, pimc.only, pimc.against, pimc.rounds, pimc.games) == (None, "pimc", "7f88fa3", 4, ["500"])


@pytest.mark.parametrize("argv, words", [
    (["--only", "engines"], "invalid choice: 'engines'"),
    (["--deals", "0"], "must be a whole number from 1"),
    (["--games", "vint", "--strategies", "heuristic", "--out", "x.md"], "leave out --out"),
    (["--strategies", "heuristic", "--against", "HEAD", "--only", "pimc"], "leave out --only, --against"),
    (["--only", "crossover", "--against", "HEAD"], "not --only crossover"),
    (["--only", "pimc", "--against", "HEAD", "--out", "x.md"], "writes no file: leave out --out"),
    (["--deals", "5", "dd"], "--deals before dd: the options of the whole run do not apply to a tool"),
    (["dd", "--games", "nosuch"], "unknown game 'nosuch'"),
    (["pimc-record", "501"], "the following arguments are required: -o/--out"),
    (["pimc-record", "501", "--decisions", "0", "-o", "x.pkl"], "must be a whole number from 1"),
    (["pimc-profile", "nosuch"], "unknown game 'nosuch'"),
    (["pimc-time", "x.pkl", "--against", "HEAD", "--best-only"], "not allowed with argument --against"),
    (["pimc-time", "no-such-file.pkl"], "no-such-file.pkl"),
    (["rules"], "the following arguments are required: FILE"),
])
def test_bad_options_are_one_line_and_exit_code_2(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written; were it, it lands here
    code, out, err = _code(["bench", *argv], capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "measuring" not in err and out == ""
    assert list(tmp_path.iterdir()) == []


def test_pimc_time_refuses_a_file_that_is_not_recorded_decisions(tmp_path, capsys):
    path = tmp_path / "notes.pkl"
    path.write_text("not a pickle")
    code, _, err = _code(["bench", "pimc-time", str(path)], capsys)
    assert code == 2 and err.strip() == f"cardsim: error: {path}: not a file of recorded decisions (cardsim bench " \
                                        "pimc-record writes them)"


def test_dd_names_the_games_without_a_solver_benchmark(monkeypatch):
    # cardsim.dd.bench_line plays the deals and hands them to the game's hook; here it only says what it was asked
    solver = types.SimpleNamespace(dd=types.SimpleNamespace(bench=lambda seed, n, setup, play: "not called here"))
    games = {"with": solver, "without": types.SimpleNamespace(dd=None)}
    monkeypatch.setattr(dd, "get_game", lambda name: games.get(name, solver))
    monkeypatch.setattr(dd, "bench_line", lambda game, seed, n: f"{game}: solved {n} of seed {seed}")
    assert list(dd.lines(["with"], 3, 7)) == ["with: solved 7 of seed 3"]
    with pytest.raises(OptionError, match=r"no double-dummy benchmark for without \(games with one: "):
        next(dd.lines(["with", "without"], 3, 7))  # refused before the first game is solved


def test_dd_tool_solves_real_positions(capsys):
    code, out, err = _code(["bench", "dd", "--games", "501", "--deals", "4", "--seed", "1"], capsys)
    assert code == 0, err
    line, = out.strip().splitlines()
    assert line.startswith("501: ") and " ms per deal (" in line and "played deals" in line


def test_the_other_tree_gets_its_own_code_and_this_one_the_folder_above_the_package(tmp_path):
    # The interpreter of this tree imports this cardsim, whatever folder the package is moved to.
    here = against.tree_env(None)
    assert Path(here["PYTHONPATH"]) == Path(cardsim.__file__).resolve().parents[1] == against.THIS_TREE
    assert (against.THIS_TREE / "cardsim" / "bench" / "against.py").is_file()
    there = against.tree_env(tmp_path)
    assert there["PYTHONPATH"] == str(tmp_path) and there["NUMBA_CACHE_DIR"] == str(tmp_path / ".numba-cache")
    assert against.tree_env(tmp_path, cache="/c")["NUMBA_CACHE_DIR"] == "/c"


def test_only_pimc_against_a_commit_plays_both_trees_for_each_game_and_worlds(monkeypatch, capsys):
    # What `python -m cardsim.bench --only pimc --against 7f88fa3 --rounds 4 --games 501` runs, the
    # two trees' interpreters stood in for: pimc_rates per game and worlds, half the game's
    # sampled-search deals a round, the rounds asked; the table printed, no file written.
    calls = []

    def rates(game, rev, worlds, deals, rounds, progress):
        calls.append((game, rev, worlds, deals, rounds))
        return {"before": [1.0] * rounds, "after": [2.0] * rounds, "ratio": 2.0, "sha": "f" * 40, "deals": deals}

    monkeypatch.setattr(against, "tree_at", lambda rev: ("f" * 40, Path("/nowhere")))
    monkeypatch.setattr(against, "pimc_rates", rates)
    code, out, err = _code(["bench", "--only", "pimc", "--against", "7f88fa3", "--rounds", "4", "--games", "501"],
                           capsys)
    assert code == 0, err
    deals = cardsim.get_game("501").facts.pimc_deals // 2
    assert calls == [("501", "7f88fa3", 8, deals, 4), ("501", "7f88fa3", 32, deals, 4)]
    assert out.startswith("`python -m cardsim.bench --only pimc --against 7f88fa3 --rounds 4`, ")
    assert f"| 501 | 8 | {deals} | 4 | 1 | 2 | 2.00× |" in out and f"| 501 | 32 | {deals} | 4 | 1 | 2 | 2.00× |" in out


def test_only_conditions_replaces_its_section_alone(monkeypatch, capsys, tmp_path):
    from cardsim.bench import conditions

    measured = {"game": "500", "class": "trumps_H>=6", "acceptance": 0.0125, "candidates_1": 3_000_000.0,
                "predicate_1": 9_000_000.0, "fixed_1": 90_000.0, "free_1": 100_000.0}
    monkeypatch.setattr(conditions, "measure_conditions", lambda game, n: dict(measured, game=game))
    path = tmp_path / "B.md"
    path.write_text("# Benchmarks\n\ntop\n\n## Dealing under conditions\n\nold rows\n\n## Targets\n\nkept\n\n"
                    + NOTES_MARKER + "\n\nhand notes\n")
    code, out, err = _code(["bench", "--only", "conditions", "--games", "500", "--deals", "1000", "--out", str(path)],
                           capsys)
    assert code == 0, err
    row = "| 500 | `trumps_H>=6` | 0.0125 | 3,000,000/s (meets) | 9,000,000/s | 90,000/s (90%: meets 80%) | 100,000/s |"
    assert row in out
    new = path.read_text()
    assert row in new and "old rows" not in new and new.count(conditions.CONDITIONS_HEADING) == 1
    assert new.startswith("# Benchmarks\n\ntop\n") and "## Targets\n\nkept\n" in new and new.endswith("hand notes\n")
