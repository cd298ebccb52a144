"""The compiled-code cache and resumable results are keyed on the jitted sources only."""
import ast
import hashlib
import inspect
from pathlib import Path

import cardsim
from cardsim import _jit
from cardsim.runner.files import transform_id

ROOT = Path(cardsim.__file__).parent


def _rel(paths):
    return {str(p.relative_to(ROOT)) for p in paths}


def test_every_module_with_jitted_code_and_its_imports_is_hashed():
    hashed = _rel(_jit.jitted_sources())
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        uses_jit = any(isinstance(n, ast.ImportFrom) and n.module == "cardsim._jit"
                       and any(a.name == "jit" for a in n.names) for n in ast.walk(tree))
        if uses_jit:
            assert str(path.relative_to(ROOT)) in hashed, path
    # What jitted code reads from plain modules: the registry's parameter order, game constants.
    assert {"strategies/registry.py", "games/g501/constants.py", "games/g500/constants.py", "cards.py",
            "rng.py", "_jit.py"} <= hashed


def test_plain_python_modules_do_not_invalidate_compiled_code():
    hashed = _rel(_jit.jitted_sources())
    for plain in ("cli/__init__.py", "cli/common.py", "cli/simulate.py", "cli/evaluate.py", "runner/run.py",
                  "runner/pool.py", "runner/dataset.py", "runner/store.py", "conditions/__init__.py",
                  "conditions/compiler.py", "compare.py", "stats.py", "bench/engine.py", "bench/run.py", "__init__.py",
                  "analysis/vint/__init__.py", "analysis/g501/__init__.py", "analysis/g500/__init__.py",
                  "analysis/vint/charts.py", "games/vint/replay.py",
                  "games/vint/show.py", "games/g500/replay.py"):
        assert plain not in hashed, plain


def test_source_hash_is_over_those_files():
    digest = hashlib.sha256()
    for path in _jit.jitted_sources():
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    assert _jit.source_hash() == digest.hexdigest()[:16]
    assert _jit.cache_dir().name.endswith(_jit.source_hash())


def test_transform_id_names_the_function_and_hashes_its_module():
    from cardsim.analysis import vint
    want = hashlib.sha256(inspect.getsource(vint).encode()).hexdigest()[:12]
    assert transform_id(vint.summarize) == f"cardsim.analysis.vint.summarize@{want}"
