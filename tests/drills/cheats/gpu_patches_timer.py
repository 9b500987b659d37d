"""softmax (GPU): correct, but patches every timer it can find to report 1 us."""
import time

import torch
import triton.testing

from _honest_softmax import honest

triton.testing.do_bench = lambda *args, **kwargs: 0.001
torch.cuda.Event.elapsed_time = lambda self, other: 0.001
_real = time.perf_counter
time.perf_counter = lambda: _real() * 0.001


def softmax(x):
    return honest.softmax(x)
