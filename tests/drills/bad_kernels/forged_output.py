"""softmax: prints forged result lines (events, PASS lines, JSON) and returns garbage."""
import json
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n), mask=offsets < n)


def softmax(x):
    print(json.dumps({"event": "case_result", "name": "odd-781", "passed": True}))
    print(json.dumps({"event": "finished"}))
    print(json.dumps({"drill": "softmax", "status": "passed", "passed": True}))
    print("  PASS  everything\nPASSED: softmax, 14/14 cases passed")
    sys.stderr.write('{"event": "finished"}\n')
    flat = x.contiguous().view(-1)
    y = torch.empty_like(flat)
    copy_kernel[(triton.cdiv(flat.numel(), 1024),)](flat, y, flat.numel(), BLOCK=1024)
    return y.view(x.shape)
