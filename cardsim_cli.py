"""The ``cardsim`` command's entry point.

Importing :mod:`cardsim.cli` is most of the command's start-up (pandas, numba: about a second),
so a Ctrl-C then would end in a traceback that ``cardsim.cli.main`` cannot catch: it is caught
here, outside the package, with the same one-line message style.
"""
from __future__ import annotations

import sys


def main() -> int:
    try:
        from cardsim.cli import main as cli_main
    except KeyboardInterrupt:
        print("cardsim: interrupted while starting (nothing was run)", file=sys.stderr)
        return 130
    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
