"""``python -m analyses SCRIPT [ARGS]``: run ``analyses/SCRIPT.py`` as ``python -m analyses.SCRIPT``
would (what ``make report`` calls).  ``python -m analyses --list``: every analysis (script, table)
in the report's order (analyses/analyses.txt).

Importing a script is most of its start-up (pandas, numba: about a second), and a Ctrl-C then
would end in a traceback the script's own handler (``common.entry``) cannot catch, since it is
not yet defined: it is caught here, with one line.
"""
from __future__ import annotations

import importlib.util
import runpy
import sys


def main() -> int:
    if sys.argv[1:] == ["--list"]:
        from analyses import ANALYSES

        for a in ANALYSES:  # the report's order
            print(f"{a.script}\t{a.table}")
        return 0
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print("usage: python -m analyses SCRIPT [ARGS]  (a module of analyses/, e.g. vint_contracts)\n"
              "       python -m analyses --list  (every analysis script and its table, in the report's order)",
              file=sys.stderr)
        return 2
    name = f"analyses.{sys.argv[1]}"
    if importlib.util.find_spec(name) is None:
        print(f"error: no analysis script {sys.argv[1]!r} in analyses/", file=sys.stderr)
        return 2
    sys.argv = [name] + sys.argv[2:]
    try:
        runpy.run_module(name, run_name="__main__", alter_sys=True)  # the script exits by itself
    except KeyboardInterrupt:
        print("interrupted while starting (nothing was run)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
