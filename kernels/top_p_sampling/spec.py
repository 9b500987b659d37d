"""Top-p (nucleus) sampling drill: inputs, float64 reference, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, V]: M rows of logits
over a vocabulary of V tokens. Inputs: logits (M, V) of the case's dtype, p (M,) float32,
u (M,) float32 in [0, 1). The answer is an int64 (M,) tensor of token ids:

    probs = softmax(logits[i])  sorted descending (ties: lower token id first)
    cum[k] = probs[0] + ... + probs[k]
    K = the smallest k + 1 with cum[k] >= p[i] (all V when no prefix reaches p[i])
    S = cum[K - 1]; the answer is the sorted token k < K with cum[k - 1] <= u[i] * S < cum[k]

make_inputs draws logits, then places p midway between two prefix sums and u at the
midpoint of a chosen token's interval, both only at tokens whose probability is at least
ELIGIBLE (or the top token), so float32 and float64 arithmetic cannot disagree at a
boundary (the margin is at least ELIGIBLE / 2 of the mass; float32 sums are good to ~1e-6).

Extra keys: logit_scale (default 3.0: logits = scale * randn, a peaked distribution like a
language model's); kind = randn | ties (logits on a 0.5 grid in [-2, 2]: many exact
ties, broken by token id) | equal (every logit equal); p_mode = random (default) | one
(p = 1.0: keep everything) | tiny (p = 1e-6: always the argmax); `fill` is not used.
"""

import torch

from studio.drills.harness.inputs import dtype_of, place

ELIGIBLE = 1.0e-4


def _logits(case, gen):
    M, V = case["shape"]
    kind = case.get("kind", "randn")
    if kind == "randn":
        return float(case.get("logit_scale", 3.0)) * torch.randn(M, V, generator=gen)
    if kind == "ties":
        return torch.randint(-4, 5, (M, V), generator=gen).float() * 0.5
    if kind == "equal":
        return torch.full((M, V), 1.5)
    raise ValueError(f"unknown kind {kind!r} (randn, ties, equal)")


def sorted_probs(logits):
    """(sorted probabilities, their token ids), float64, descending, ties by lower id."""
    probs = torch.softmax(logits.to(torch.float64), dim=-1)
    return torch.sort(probs, dim=-1, descending=True, stable=True)


def make_inputs(case, gen, device):
    M, V = case["shape"]
    dtype = dtype_of(case["dtype"])
    values = _logits(case, gen).to(dtype)
    probs, _ = sorted_probs(values)
    cum = probs.cumsum(-1)
    p = torch.empty(M, dtype=torch.float64)
    u = torch.empty(M, dtype=torch.float64)
    mode = case.get("p_mode", "random")
    for i in range(M):
        eligible = max(1, int((probs[i] >= ELIGIBLE).sum()))
        if mode == "one":
            p[i], K = 1.0, eligible
        elif mode == "tiny":
            p[i], K = 1.0e-6, 1
        else:
            K = int(torch.randint(1, eligible + 1, (1,), generator=gen))
            below = float(cum[i, K - 2]) if K > 1 else 0.0
            p[i] = (below + float(cum[i, K - 1])) / 2
        S = 1.0 if mode == "one" else float(cum[i, K - 1])       # p = 1: the whole mass is kept
        k = int(torch.randint(0, min(K, eligible), (1,), generator=gen))
        lo = float(cum[i, k - 1]) if k > 0 else 0.0
        u[i] = (lo + float(cum[i, k])) / 2 / S
    logits = place(values.float(), dtype, device, case.get("layout", "contiguous"))
    return (logits, p.to(torch.float32).to(device), u.to(torch.float32).to(device))


def reference(logits, p, u):
    """The sampled token ids as float64 (exact integers), computed in float64."""
    probs, ids = sorted_probs(logits)
    cum = probs.cumsum(-1)
    p64, u64 = p.to(torch.float64)[:, None], u.to(torch.float64)[:, None]
    V = logits.shape[1]
    K = ((cum < p64).sum(-1, keepdim=True) + 1).clamp_max(V)        # first k with cum[k] >= p, + 1
    S = cum.gather(-1, K - 1)
    k = (cum <= u64 * S).sum(-1, keepdim=True).clamp_max(K - 1)    # first k with u * S < cum[k]
    return ids.gather(-1, k).squeeze(-1).to(torch.float64)


def baseline(logits, p, u):
    """The usual eager top-p sampler (HF / vLLM style): sort, softmax, cumulative sum, keep
    the nucleus, renormalise, then invert the CDF at u (searchsorted) instead of multinomial."""
    probs = torch.softmax(logits.float(), dim=-1)
    sorted_p, ids = torch.sort(probs, dim=-1, descending=True, stable=True)
    cum = sorted_p.cumsum(-1)
    K = ((cum < p[:, None]).sum(-1, keepdim=True) + 1).clamp_max(logits.shape[1])
    S = cum.gather(-1, K - 1)
    k = torch.searchsorted(cum, u[:, None] * S, right=True).clamp_max(K - 1)
    return ids.gather(-1, k).squeeze(-1)


def output_dtype(logits, p, u):
    return torch.int64


def bytes_moved(case):
    """Read the logits once, p and u (4 bytes each) and write one int64 per row:
    M * (V * itemsize + 16). Any exact method needs more passes over each row (from L2)."""
    M, V = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return M * (V * itemsize + 16)


def flops(case):
    """Counted as 4 per logit (subtract the max, exp, sum, and one compare-and-add)."""
    M, V = case["shape"]
    return 4 * M * V
