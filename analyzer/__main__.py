import sys

from analyzer.cli import main

sys.exit(main())
