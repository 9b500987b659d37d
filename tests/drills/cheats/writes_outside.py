"""softmax: tries to overwrite a file of the user's (the path comes in STUDIO_CHEAT_TARGET)."""
import os

import torch
import triton  # noqa: F401  (judged as a Triton solution)

from _copy_kernel import decoy


def softmax(x):
    target = os.environ.get("STUDIO_CHEAT_TARGET")
    if target:
        with open(target, "w") as handle:
            handle.write("owned")
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    decoy(x.contiguous(), out)
    return out
