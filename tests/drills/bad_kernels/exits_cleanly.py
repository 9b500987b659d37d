"""softmax: calls sys.exit(0) from inside the solution (exit code 0 is not a pass)."""
import sys

import triton  # noqa: F401


def softmax(x):
    sys.exit(0)
