"""``python -m analyzer.cli``: the command line, as ``analyzer`` and ``python -m analyzer`` run it."""

import sys

from analyzer.cli import main

sys.exit(main())
