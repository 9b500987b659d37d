"""Thin launcher: `python main.py` is the same as the `studio` console script."""

import sys

from studio.app import main

if __name__ == "__main__":
    sys.exit(main())
