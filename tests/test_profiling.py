"""``python -m cardsim.profiling``: the sampling profile of the jitted kernels (issue 27).  The
profile itself needs a cold compile and ``perf``, so it is exercised by hand (BENCHMARKS.md,
"Where the time goes"); here its pieces."""
import subprocess
import sys

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
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--deals: must be a whole number from 1" in err and len(err.splitlines()) == 1


def test_options_are_read_without_importing_numba():
    # The profile compiles into an empty numba cache set after the options are read: numba
    # imported while reading them (a --deals type that loads the runner) would keep the warm cache,
    # and the profile would find no compiled kernel.
    code = ("import sys; from cardsim import profiling; "
            "profiling._parser().parse_args(['vint', '--deals', '1e6', '--top', '20']); "
            "from cardsim.games import is_game; assert is_game('vint'); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_unknown_game_is_refused_before_compiling(capsys):
    with pytest.raises(SystemExit) as exc:
        profiling.main(["bridge"])
    assert exc.value.code == 2 and "unknown game 'bridge'" in capsys.readouterr().err


_ASM = """\t.text
_ZN7cardsim4vint3bidB2v1E:
\t.cfi_startproc
\tpushq\t%rbx
\tmovabsq\t$NRT_incref, %rbx
\tcallq\t*%rbx
\tcallq\t*%rbx
.LBB0_3:
\tmovabsq\t$NRT_decref, %rax
\tcallq\t*%rax
\tmovabsq\t$_ZN7cardsim4vint4leadE, %rax
\tcallq\t*%rax
\tcallq\tmemset
\tretq
.Lfunc_end0:
cfunc._ZN7cardsim4vint3bidB2v1E:
\tmovabsq\t$NRT_decref, %rax
\tcallq\t*%rax
\tretq
\t.cfi_endproc
_ZN7cardsim4vint4leadE:
\t.cfi_startproc
\tmovabsq\t$NRT_decref, %rcx
\tcallq\t*%rcx
\tcallq\tNRT_incref
\t.cfi_endproc
"""


def test_refcount_calls_counts_the_runtime_calls_of_one_function():
    # Two increments through %rbx and one decrement; the call to another kernel and memset are not
    # counted, nor the wrapper's decrement after the function's end (.Lfunc_end0).
    assert profiling.refcount_calls(_ASM, "_ZN7cardsim4vint3bidB2v1E") == 3
    assert profiling.refcount_calls(_ASM, "_ZN7cardsim4vint4leadE") == 2  # direct calls count too
    assert profiling.refcount_calls(_ASM, "_ZN7nowhereE") == 0


def test_refcounted_functions_sees_what_this_process_compiled():
    import numba
    import numpy as np

    @numba.njit
    def first(a):
        return a[0]

    @numba.njit
    def allocates(n):
        a = np.zeros(n)  # freed by a decrement at the end
        return first(a)

    @numba.njit
    def scalars_only(x, y):
        return x * y + 1

    assert allocates(3) == 0.0 and scalars_only(2, 3) == 7
    found = profiling.refcounted_functions()
    assert any(name.endswith("allocates") for name in found)
    assert not any(name.endswith("scalars_only") for name in found)
