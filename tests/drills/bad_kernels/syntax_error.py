"""softmax: does not parse."""
import triton  # noqa: F401


def softmax(x)
    return x
