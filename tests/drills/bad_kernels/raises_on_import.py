"""softmax: raises while being imported."""
import triton  # noqa: F401

CONFIG = {"block": 1024}
BLOCK = CONFIG["num_warps"]


def softmax(x):
    return x
