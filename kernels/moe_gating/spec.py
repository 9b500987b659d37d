"""MoE top-k gating drill: inputs, exact/float64 reference, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [T, E]: router logits of T
tokens over E experts, in the case's dtype and layout. Extra keys: k (experts per token,
default 2), renormalize (default true: the k weights are divided by their sum, Mixtral's
way; false: the plain softmax probabilities, DeepSeek-V2/Qwen2-MoE's default), hot (an
expert id: its logits get +20, so every token picks it first).

fill: randn | ties (values on a grid of 0.5: many equal logits in a row, exact in every
dtype) | any fill of studio.drills.harness.inputs.draw.

The answer is one float32 vector of 3*T*k + 2*E + 1 values (spec.layout_of):
  weights [T*k]     the k gate weights of each token, token-major, best expert first
  ids     [T*k]     the expert ids, same order (ties between equal logits: lower id first)
  counts  [E]       tokens routed to each expert (the histogram of ids)
  offsets [E + 1]   exclusive prefix sum of counts (offsets[E] = T*k)
  perm    [T*k]     the slots s = t*k + j sorted by expert, ascending s within an expert:
                    perm[offsets[e]:offsets[e+1]] are the slots routed to expert e
All integers are exact in float32 (below 2^24).
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, place


def layout_of(T, E, k):
    """Start of each part in the output vector."""
    n = T * k
    return {"weights": 0, "ids": n, "counts": 2 * n, "offsets": 2 * n + E, "perm": 2 * n + 2 * E + 1,
            "total": 3 * n + 2 * E + 1}


def make_inputs(case, gen, device):
    T, E = case["shape"]
    k = int(case.get("k", 2))
    if not 1 <= k <= E:
        raise ValueError(f"case {case.get('name')}: k = {k} must be in [1, E = {E}]")
    fill = case.get("fill", "randn")
    if fill == "ties":
        logits = torch.round(2.0 * torch.randn(T, E, generator=gen)) / 2.0
    else:
        logits = draw([T, E], fill, gen)
    if "hot" in case:
        logits[:, int(case["hot"])] += 20.0
    logits = place(logits, dtype_of(case["dtype"]), device, case.get("layout", "contiguous"))
    return logits, k, bool(case.get("renormalize", True))


def reference(logits, k, renormalize):
    """softmax in float64; the top k by logit, ties to the lower expert id (a stable
    descending sort); counts, offsets and the stable expert-major order of the slots."""
    T, E = logits.shape
    x = logits.to(torch.float64)
    probs = torch.softmax(x, dim=-1)
    order = torch.sort(x, dim=-1, descending=True, stable=True).indices[:, :k]
    weights = torch.gather(probs, 1, order)
    if renormalize:
        weights = weights / weights.sum(dim=-1, keepdim=True)
    ids = order.reshape(-1)
    counts = torch.bincount(ids, minlength=E)
    offsets = torch.zeros(E + 1, dtype=torch.int64, device=logits.device)
    offsets[1:] = torch.cumsum(counts, 0)
    perm = torch.sort(ids, stable=True).indices
    return torch.cat([weights.reshape(-1), ids.double(), counts.double(), offsets.double(), perm.double()])


def baseline(logits, k, renormalize):
    """What a PyTorch MoE layer runs: softmax, topk, bincount, cumsum, a stable argsort."""
    probs = torch.softmax(logits.float(), dim=-1)
    weights, ids = torch.topk(probs, k, dim=-1)
    if renormalize:
        weights = weights / weights.sum(dim=-1, keepdim=True)
    flat = ids.reshape(-1)
    counts = torch.bincount(flat, minlength=logits.shape[1])
    offsets = torch.cumsum(counts, 0)
    perm = torch.argsort(flat, stable=True)
    return weights, ids, counts, offsets, perm


def output_dtype(logits, k, renormalize):
    return torch.float32


def bytes_moved(case):
    """Read the logits once; write the float32 answer (3*T*k + 2*E + 1 values)."""
    T, E = case["shape"]
    k = int(case.get("k", 2))
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return T * E * itemsize + 4 * layout_of(T, E, k)["total"]


def flops(case):
    """softmax (~5 per logit) and a k-step selection over each row (~2 per logit per step)."""
    T, E = case["shape"]
    return (5 + 2 * int(case.get("k", 2))) * T * E
