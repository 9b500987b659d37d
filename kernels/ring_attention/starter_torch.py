"""Ring attention (context parallel): your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs). Pass the K/V blocks around the ring with dist.send / recv / isend / irecv (or
batch_isend_irecv); all_gather and the other collectives are flagged.
Run it:  studio-drill run ring_attention path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def ring_attention(q, k, v, seq_len, causal):
    """Attention of this rank's queries over the whole sequence, K/V blocks passed around a ring.

    q, k, v: [H, S_r, D] (float32 or bfloat16), this rank's chunk of the sequence:
    torch.tensor_split(x, world_size, dim=1)[rank] of the whole [H, seq_len, D] tensors, so
    chunk lengths may differ by one. causal: mask keys after the query (global positions).
    Return softmax(q @ K^T / sqrt(D)) @ V for this rank's rows, [H, S_r, D] in q's dtype.
    Plan: running max, running sum and accumulator per row; n steps: send your current K/V
    block right, receive the next from the left, merge the current one (online softmax).
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("ring_attention: pass K/V around the ring and merge with online softmax")
