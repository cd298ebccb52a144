"""The ``cardsim`` command's entry point.

A Ctrl-C while :mod:`cardsim.cli` is imported would end in a traceback that ``cardsim.cli.main``
cannot catch: it is caught here, outside the package, with the same one-line message style.
"""
from __future__ import annotations

import sys


def main() -> int:
    try:
        from cardsim.cli import process_main
    except KeyboardInterrupt:
        print("cardsim: interrupted while starting (nothing was run)", file=sys.stderr)
        return 130
    return process_main()


if __name__ == "__main__":
    sys.exit(main())
