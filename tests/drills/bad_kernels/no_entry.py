"""softmax: defines the wrong function name."""
import triton  # noqa: F401


def soft_max(x):
    return x
