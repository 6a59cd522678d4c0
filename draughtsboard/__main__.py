"""`python -m draughtsboard` is the same as the `draughtsboard` console script."""

import sys

from draughtsboard.cli import main

sys.exit(main())
