"""``cardsim bench pimc-record | pimc-time | pimc-profile`` (cardsim.bench.pimc_hooks): the ``pimc``
solve hooks timed on recorded real decisions, and where the sampled search spends its time."""
import pickle
import sys

import pytest

from cardsim.bench import pimc_hooks
from cardsim.cli import main
from cardsim.games import get_game


def test_pimc_record_keeps_real_decisions_and_pimc_time_times_them(tmp_path, capsys):
    path = tmp_path / "d.pkl"
    assert main(["bench", "pimc-record", "501", "--decisions", "6", "--worlds", "3", "--seed", "2", "-o",
                 str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"6 decisions of 501 (pimc:worlds=3,early=0, seed 2) -> {path}"
    data = pickle.loads(path.read_bytes())
    assert data["game"] == "501" and len(data["decisions"]) == 6
    position, worlds = data["decisions"][0]
    assert worlds.shape == (3, 2) and get_game("501").pimc.solve(position, worlds).shape == (3, len(position.legal))
    res = pimc_hooks.time_file(str(path), None, rounds=2, chunk=4)
    assert res["decisions"] == 8 and res["now"] > 0 and res["before"] is None
    res = pimc_hooks.time_file(str(path), None, rounds=1, chunk=6, best_only=True)
    assert res["same"] is True and res["before"] > 0  # best-only answers = the exact values' argmax sets
    assert main(["bench", "pimc-time", str(path), "--rounds", "1", "--chunk", "3", "--best-only"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("501: 3 decisions a side, best-only ") and line.endswith("argmax sets identical")


def test_pimc_time_line_says_each_side_and_whether_the_values_agree():
    res = {"game": "500", "decisions": 40, "now": 0.002, "before": 0.004, "ratio": 0.5, "same": False}
    assert pimc_hooks.time_line(res, "7f88fa3", False) == (
        "500: 40 decisions a side, now 2.00 ms CPU a decision, before (7f88fa3) 4.00 ms; median per-round ratio "
        "now/before 0.500; values DIFFER")
    alone = dict(res, before=None, ratio=None, same=None)
    assert pimc_hooks.time_line(alone, None, False) == "500: 40 decisions a side, now 2.00 ms CPU a decision"


def test_pimc_profile_counts_every_decision_by_trick(capsys):
    """Every card decision of the deals (Five Hundred: 4 seats, 10 tricks) counted in its trick,
    the hooks' time inside ``decide``'s, the hooks put back afterwards; bad input a one-line error."""
    module = sys.modules[get_game("500").pimc.solve.__module__]
    hooks = module.HOOKS
    rows = pimc_hooks.profile("500", 2, 2, 3)
    assert [r["trick"] for r in rows] == list(range(1, 11))
    assert all(r["decisions"] == 8 for r in rows)  # 2 deals x 4 seats
    assert sum(r["looks"] + r["solves"] for r in rows) > 0
    assert all(r["common"] + r["solve"] <= r["decide"] + 1e-6 for r in rows)
    assert module.HOOKS is hooks
    table = pimc_hooks.profile_table(rows)
    assert table.count("\n") == 11 and table.splitlines()[2].startswith("| 1 | 8 |")
    with pytest.raises(ValueError, match="at least 1 deal"):
        pimc_hooks.profile("500", 0, 2, 3)
    with pytest.raises(SystemExit):
        main(["bench", "pimc-profile", "nosuch"])
    err = capsys.readouterr().err
    assert "unknown game 'nosuch'" in err and len(err.strip().splitlines()) == 1
