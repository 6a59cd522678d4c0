"""`python -m draughtsboard` is the same as the `draughtsboard` console script."""

import sys

from draughtsboard.cli import main

if __name__ == "__main__":
    sys.exit(main())
