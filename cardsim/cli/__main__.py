"""``python -m cardsim.cli ...``: the same command line as the ``cardsim`` script."""

import sys

from cardsim.cli import process_main

sys.exit(process_main())
