"""``make bench`` / ``cardsim bench --against COMMIT``: every speed target with "meets" or
"misses", and a before column measured in another commit of the repository (issue 27)."""
import subprocess
import sys

import pytest

from cardsim.bench import against as ba
from cardsim.bench import pimc, targets


def _result(engine, deal_ratio, startup, compile_s, help_s, sha="0123456789abcdef"):
    return {"rows": [{"game": "vint", "engine": engine, "deal_ratio": deal_ratio, "startup": startup,
                      "compile": compile_s, "dataset": 0.84, "memory": 0.93}],
            "help": help_s, "sha": sha, "against": "v1"}


def test_targets_table_judges_every_target():
    text = targets.targets_table(_result((400_000.0, 420_000.0), (21.5, 19.0), (2.0, 1.2), (80.0, 39.0),
                                       (0.9, 0.3)), "make bench AGAINST=v1")
    lines = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}
    assert "| 400,000/s | 420,000/s (1.05×) | meets |" in lines["complete deals per second, one core, default play "
                                                              "(≥ before)"]
    assert "| 1/21.5 | 1/19.0 | meets |" in lines["complete deals against dealing only, one core (≥ 1/20)"]
    assert "| | 84% | misses |" in lines["`simulate -o` against the engine, all cores (≥ 85%)"]
    assert "| | 93% | meets |" in lines["in-memory DataFrame against the engine, all cores (≥ 80%)"]
    assert "| 2.00 s | 1.20 s | meets |" in lines["start-up, `cardsim simulate vint -n 1000` (< 1.5 s)"]
    assert "| 80.0 s | 39.0 s | meets |" in lines["cold compile, one process (< 40 s)"]
    assert "| all | 0.90 s | 0.30 s | meets |" in lines["`cardsim --help` (< 0.5 s)"]
    assert "before (`0123456`)" in text


def test_targets_table_says_misses_and_leaves_before_empty_without_a_commit():
    text = targets.targets_table(_result((None, 300_000.0), (None, 22.0), (None, 1.6), (None, 41.0), (None, 0.6),
                                       sha=None), "cardsim bench")
    assert "| complete deals per second, one core, default play (≥ before) | vint |  | 300,000/s | — |" in text
    assert text.count("misses") == 5  # deal ratio, simulate -o, start-up, compile, --help
    assert "No `--against COMMIT`" in text


def test_against_an_unknown_commit_is_a_clear_error(tmp_path):
    with pytest.raises(ba.RevisionError, match="no such commit"):
        ba.tree_at("no-such-commit-anywhere", cache=tmp_path)
    out = subprocess.run([sys.executable, "-m", "cardsim.bench", "--against", "no-such-commit-anywhere"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert "no such commit" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_tree_at_unpacks_a_commit_once(tmp_path):
    sha, folder = ba.tree_at("HEAD", cache=tmp_path)
    assert len(sha) == 40 and (folder / "cardsim" / "__init__.py").is_file()
    (folder / "marker").write_text("kept")
    assert ba.tree_at("HEAD", cache=tmp_path) == (sha, folder) and (folder / "marker").exists()


def test_targets_table_judges_the_engine_on_the_paired_ratio():
    # The best chunks say 1.05x, the median of the per-round ratios 0.98x: the paired one decides.
    result = _result((400_000.0, 420_000.0), (21.5, 19.0), (2.0, 1.2), (80.0, 39.0), (0.9, 0.3))
    result["rows"][0]["paired"] = 0.98
    text = targets.targets_table(result, "make bench AGAINST=v1")
    assert "| 400,000/s | 420,000/s (0.98×) | misses |" in text


class _FakeWorker:
    """Stands for an interpreter of one side: CPU seconds from a table, every request logged."""
    log = []
    seconds_of = {}

    def __init__(self, game, where, cpu=-1):
        self.side = "before" if where is not None else "after"

    def seconds(self, what, start, count):
        _FakeWorker.log.append((self.side, what, start, count))
        return _FakeWorker.seconds_of[self.side, what, len([x for x in _FakeWorker.log if x[:2] == (self.side, what)])]

    def close(self):
        _FakeWorker.log.append((self.side, "closed", 0, 0))


def test_engine_rates_alternate_chunks_and_pair_the_rounds(monkeypatch, tmp_path):
    monkeypatch.setattr(ba, "EngineWorker", _FakeWorker)
    _FakeWorker.log = []
    # Complete deals: round 1 both sides disturbed (after 1.0 s, before 2.0 s), round 2 quiet
    # (after 0.5 s, before 0.4 s), round 3 (after 0.4 s, before 0.5 s); dealing 0.1 s a chunk.
    full = {("after", 1): 1.0, ("before", 1): 2.0, ("after", 2): 0.5, ("before", 2): 0.4,
            ("after", 3): 0.4, ("before", 3): 0.5}
    _FakeWorker.seconds_of = {**{(s, "full", k): v for (s, k), v in full.items()},
                              **{(s, "deal", k): 0.1 for s in ("after", "before") for k in (1, 2, 3)}}
    rates = ba.engine_rates("vint", str(tmp_path), deals=2000, rounds=3, chunk=1000, after=None)
    assert rates["sha"] == str(tmp_path)
    assert rates["before"] == {"full_1": 2500.0, "deal_1": 100_000.0}
    assert rates["after"] == {"full_1": 2500.0, "deal_1": 100_000.0}
    # Per round after/before: 2.0, 0.8, 1.25 -> median 1.25 (before/after would give 0.8; the
    # best chunks alone say 1.0).
    assert rates["paired"] == {"full_1": 1.25, "deal_1": 1.0}
    full_requests = [(side, start) for side, what, start, _ in _FakeWorker.log if what == "full"]
    assert full_requests == [("before", 0), ("after", 0), ("after", 1000), ("before", 1000),
                             ("before", 0), ("after", 0)]
    assert [(side, count) for side, what, _, count in _FakeWorker.log if what == "deal"][:2] == \
        [("before", 10_000), ("after", 10_000)]
    assert sorted(x[0] for x in _FakeWorker.log if x[1] == "closed") == ["after", "before"]
    _FakeWorker.log = []
    alone = ba.engine_rates("vint", None, deals=1000, rounds=1, chunk=1000)
    assert alone["before"] is None and alone["paired"] is None and alone["after"]["full_1"] > 0


def _stand_in_tree(folder, simulate_body):
    """A tree whose ``cardsim.games.get_game`` is a stand-in: the real worker runs it without
    compiling anything.  ``simulate_body``: the body of its ``simulate_chunk(seed, start, count, setup)``."""
    games = folder / "cardsim" / "games"
    games.mkdir(parents=True)
    (folder / "cardsim" / "__init__.py").write_text("")
    (games / "__init__.py").write_text(
        "import sys\n"
        "class Spec:\n"
        "    def setup(self):\n        return None\n"
        "    def simulate_chunk(self, seed, start, count, setup):\n" + simulate_body + "\n"
        "    def deal_chunk(self, seed, start, count):\n        return 0\n"
        "def get_game(name):\n    return Spec()\n")
    return folder


def test_a_worker_that_dies_is_a_clear_error(tmp_path):
    # Chunk 1000 (the second round) fails; the warm-up (start 0) and round 1 do not.
    before = _stand_in_tree(tmp_path / "before", "        if start == 1000:\n"
                                                   "            raise SystemExit('broke on chunk 1000')")
    after = _stand_in_tree(tmp_path / "after", "        sum(range(10_000))")
    with pytest.raises(RuntimeError, match="broke on chunk 1000"):
        ba.engine_rates("vint", str(before), deals=2000, rounds=3, chunk=1000, after=after)


def test_a_worker_writing_much_error_output_does_not_stop_the_run(tmp_path):
    # 200 kB of warnings a chunk: more than a pipe holds, were its error output a pipe.
    noisy = "        sys.stderr.write('w' * 200_000)\n        sys.stderr.flush()"
    before = _stand_in_tree(tmp_path / "before", noisy)
    after = _stand_in_tree(tmp_path / "after", noisy)
    rates = ba.engine_rates("vint", str(before), deals=2000, rounds=2, chunk=1000, after=after)
    assert rates["paired"]["full_1"] > 0 and rates["after"]["full_1"] > 0


def test_pimc_rates_alternate_rounds_and_pair_them(monkeypatch, tmp_path):
    monkeypatch.setattr(ba, "PimcWorker", _FakeWorker)
    _FakeWorker.log = []
    spec = "pimc:worlds=8"
    # Two deals a round: before 4.0, 2.0, 8.0 s; after 1.0, 1.0, 4.0 s -> per-round ratios 4, 2, 2.
    _FakeWorker.seconds_of = {("before", spec, 1): 4.0, ("before", spec, 2): 2.0, ("before", spec, 3): 8.0,
                              ("after", spec, 1): 1.0, ("after", spec, 2): 1.0, ("after", spec, 3): 4.0}
    rates = ba.pimc_rates("500", str(tmp_path), worlds=8, deals=2, rounds=3)
    assert rates["before"] == [0.5, 1.0, 0.25] and rates["after"] == [2.0, 2.0, 0.5]
    assert rates["ratio"] == 2.0 and rates["sha"] == str(tmp_path)
    # The same deals for both sides in a round, the order reversed every round.
    assert [(s, start) for s, what, start, _ in _FakeWorker.log if what == spec] == \
        [("before", 0), ("after", 0), ("after", 2), ("before", 2), ("before", 4), ("after", 4)]
    table = pimc.pimc_against_table([{"game": "500", "worlds": 8, **rates}], "cmd")
    assert "| 500 | 8 | 2 | 3 | 1 | 2 | 2.00× |" in table
    assert "each tree with its own defaults (now: 500 `early=3,early_declaring=2`)" in table  # which search plain pimc is
    rows = [{"game": g, "worlds": 8, "who": "all seats", "deals": 2, "deals_per_s": 1.0, "decisions_per_s": 1.0,
             "worlds_per_s": 1.0} for g in ("vint", "501", "500")]
    assert "with the game's other defaults (vint `early=4`, 501 `early=1`, 500 `early=3,early_declaring=2`)" in pimc.pimc_table(rows, "c")
