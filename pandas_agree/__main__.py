"""``python -m pandas_agree``: the command line."""

import sys

from .frontends.cli import main

if __name__ == "__main__":
    sys.exit(main())
