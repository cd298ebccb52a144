"""501: how often each winning-bid band is made, blind and not, the abandon rate and the declarer's mean score change."""
import sys

from analyses.common import entry, main_for

if __name__ == "__main__":
    sys.exit(entry(lambda: main_for("501", "501 winning-bid bands")))
