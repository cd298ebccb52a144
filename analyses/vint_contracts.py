"""Vint: how often each contract is reached and made, and its mean score (default strategies)."""
import sys

from analyses.common import entry, main_for

if __name__ == "__main__":
    sys.exit(entry(lambda: main_for("vint", "Vint contracts")))
