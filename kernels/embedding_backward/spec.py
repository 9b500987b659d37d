"""Embedding backward drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). A case's shape is [N, V, D]: N token ids,
a vocabulary of V rows, rows of D features. `idx` is int64 (N,) with ids in [0, V),
`grad_out` is (N, D) in the case's dtype, `vocab_size` is V; the answer is the float32
(V, D) `grad_weight` with grad_weight[v] = sum of grad_out[i] over every i with idx[i] == v.

Case keys (all optional):
- ids: how the ids are drawn (default zipf, which bench points get too)
    zipf       token frequencies falling like 1 / rank^1.1 over a shuffled vocabulary (text);
    uniform    every id equally likely;
    all_equal  every id the same (one random id): N updates of one row;
    hot        half the ids one "hot" id (padding, BOS, a frequent word), the rest uniform;
    edges      ids 0 and V - 1 about a third of the time each, the rest uniform.
- empty: true makes N = 0 (the case's shape says N = 1 only because shapes are positive):
  idx is (0,), grad_out (0, D), and the answer all zeros.
- layout: grad_out's layout (contiguous, strided_rows, transposed).
- idx_layout: contiguous (default) or strided (idx is every other element of a buffer).
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, place

ZIPF_EXPONENT = 1.1


def _sizes(case):
    n, vocab, dim = case["shape"]
    return (0 if case.get("empty") else n), vocab, dim


def _ids(n, vocab, kind, gen):
    if kind == "uniform":
        return torch.randint(0, vocab, (n,), generator=gen)
    if kind == "zipf":
        if n == 0:
            return torch.zeros(0, dtype=torch.int64)
        ranks = torch.arange(1, vocab + 1, dtype=torch.float64)
        ranked = torch.multinomial(ranks.pow(-ZIPF_EXPONENT), n, replacement=True, generator=gen)
        return torch.randperm(vocab, generator=gen)[ranked]
    if kind == "all_equal":
        return torch.full((n,), int(torch.randint(0, vocab, (1,), generator=gen)), dtype=torch.int64)
    if kind == "hot":
        ids = torch.randint(0, vocab, (n,), generator=gen)
        hot = int(torch.randint(0, vocab, (1,), generator=gen))
        return torch.where(torch.rand(n, generator=gen) < 0.5, torch.full_like(ids, hot), ids)
    if kind == "edges":
        ids = torch.randint(0, vocab, (n,), generator=gen)
        pick = torch.rand(n, generator=gen)
        ids = torch.where(pick < 1 / 3, torch.zeros_like(ids), ids)
        return torch.where(pick > 2 / 3, torch.full_like(ids, vocab - 1), ids)
    raise ValueError(f"unknown ids {kind!r} for the embedding_backward drill "
                     f"(zipf, uniform, all_equal, hot, edges)")


def make_inputs(case, gen, device):
    n, vocab, dim = _sizes(case)
    ids = _ids(n, vocab, case.get("ids", "zipf"), gen)
    if case.get("idx_layout", "contiguous") == "strided":
        base = torch.zeros(2 * n, dtype=torch.int64)
        base[::2] = ids
        idx = base.to(device)[::2]
    else:
        idx = ids.to(device)
    grad_out = place(draw([n, dim], case.get("fill", "randn"), gen), dtype_of(case["dtype"]),
                     device, case.get("layout", "contiguous"))
    return idx, grad_out, vocab


def reference(idx, grad_out, vocab_size):
    """grad_weight[v] = sum of grad_out[i] over i with idx[i] == v, in float64."""
    out = torch.zeros(vocab_size, grad_out.shape[1], dtype=torch.float64, device=grad_out.device)
    return out.index_add_(0, idx, grad_out.to(torch.float64))


def baseline(idx, grad_out, vocab_size):
    # What autograd runs for F.embedding; on float32 grads so that it, too, returns the
    # float32 grad_weight (on bfloat16 grads it would return bfloat16, half the bytes).
    return torch.ops.aten.embedding_dense_backward(grad_out.float(), idx, vocab_size, -1, False)


def output_dtype(idx, grad_out, vocab_size):
    return torch.float32


def bytes_moved(case):
    """Read idx (8 N) and grad_out (N D itemsize) once, write every row of grad_weight (4 V D)."""
    n, vocab, dim = _sizes(case)
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return 8 * n + n * dim * itemsize + 4 * vocab * dim


def flops(case):
    """One add per element of grad_out."""
    n, _, dim = _sizes(case)
    return n * dim
