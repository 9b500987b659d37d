"""softmax: kills its own process with os._exit (no cleanup, no report)."""
import os

import triton  # noqa: F401


def softmax(x):
    os._exit(7)
