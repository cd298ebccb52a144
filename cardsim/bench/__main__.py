"""``python -m cardsim.bench``: the same command as ``cardsim bench`` (what ``make bench`` runs)."""
import sys

from cardsim.cli import main

if __name__ == "__main__":  # not when a worker process imports its parent's main module
    sys.exit(main(["bench", *sys.argv[1:]]))
