"""`python -m bench.live ...` from the repository's root (see the package's docstring)."""

import sys

from bench.live.run import main

sys.exit(main())
