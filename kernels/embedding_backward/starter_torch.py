"""Embedding backward in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives: a scatter-add (index_add_) into a zeroed float32 table, or
sort the ids and sum each run (torch.sort, torch.unique_consecutive, a cumulative sum and
differences at the segment ends). F.embedding's backward ops (embedding_dense_backward and
friends) are flagged.
Run it:  studio-drill run embedding_backward path/to/this_file.py --lang torch
"""

import torch


def embedding_backward(idx: torch.Tensor, grad_out: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Return grad_weight (vocab_size, D) float32: row v = sum of grad_out[i] over i with idx[i] == v.

    idx: int64 (N,), ids in [0, vocab_size), any number of repeats, possibly strided; N may
    be 0. grad_out: (N, D) float32 / float16 / bfloat16, possibly strided or transposed.
    Sum in float32; rows no id points at are 0. Returns a new float32 tensor on grad_out's
    device. Do not modify the inputs.
    """
    raise NotImplementedError("embedding_backward: write it with torch primitives")
