"""softmax: crashes its process with a segmentation fault (reads address 8)."""
import ctypes

import triton  # noqa: F401


def softmax(x):
    return ctypes.c_char.from_address(8).value
