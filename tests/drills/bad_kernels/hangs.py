"""softmax: hangs (an endless loop in the wrapper)."""
import triton  # noqa: F401


def softmax(x):
    while True:
        pass
