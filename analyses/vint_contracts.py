"""Vint: how often each contract is reached and made, and its mean score (default strategies)."""
import sys

from analyses.common import main_for

if __name__ == "__main__":
    sys.exit(main_for("vint", "Vint contracts"))
