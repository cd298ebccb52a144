"""``python -m cardsim.profiling``: the sampling profile of the jitted kernels (issue 27).  The
profile itself needs a cold compile and ``perf``, so it is exercised by hand (BENCHMARKS.md,
"Where the time goes"); here its pieces."""
import shutil

import pytest

from cardsim import profiling


def test_short_name_reads_numbas_mangled_names():
    mangled = "_ZN7cardsim5games4vint6engine8run_dealB3v63B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEyx5Array"
    assert profiling.short_name(mangled) == "cardsim.games.vint.engine.run_deal"
    assert profiling.short_name("_ZN5numba2np8arrayobj3fooB3v24B5xE") == "numba.np.arrayobj.foo"
    assert profiling.short_name("NRT_incref") == "NRT_incref"


def test_bad_options_are_one_line_errors(capsys):
    with pytest.raises(SystemExit) as exc:
        profiling.main(["vint", "--deals", "0"])
    assert exc.value.code == 2 and "--deals must be positive" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("perf") is None, reason="perf is not installed")
def test_unknown_game_is_refused_before_compiling(capsys):
    with pytest.raises(SystemExit) as exc:
        profiling.main(["bridge"])
    assert exc.value.code == 2 and "unknown game 'bridge'" in capsys.readouterr().err
