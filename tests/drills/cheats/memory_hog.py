"""softmax: takes host memory without bound (3 GiB and more) before answering."""
import triton  # noqa: F401

_hoard = []


def softmax(x):
    while True:
        _hoard.append(bytearray(256 << 20))
