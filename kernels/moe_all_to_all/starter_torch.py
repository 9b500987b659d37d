"""MoE token dispatch from point-to-point messages: your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs). Use dist.send / recv / isend / irecv (or batch_isend_irecv) for the counts and the
tokens; dist.all_to_all_single and the other collectives are flagged.
Run it:  studio-drill run moe_all_to_all path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def moe_all_to_all(x: torch.Tensor, expert: torch.Tensor, num_experts: int):
    """Send every token to the rank that holds its expert; return what this rank receives.

    x: [T, d] float32 or bfloat16 tokens of this rank (T may be 0 and differs per rank);
    expert: [T] int64, the expert of each token; expert e lives on rank e // k with
    k = num_experts // world_size. Return (tokens [R, d] in x's dtype, experts [R] int64):
    the tokens routed to this rank's experts, by source rank, then by expert (stable).
    Plan: sort locally by expert, count per destination, exchange the counts, then the tokens.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("moe_all_to_all: exchange the counts, then the tokens")
