"""Cross-entropy drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [rows, vocab]. logits
come from the shared generators (huge values, -inf entries, strided rows, transposed
views); target is int64 (rows,), with about one row in five set to ignore_index (the
case's `ignore_index`, default -100). The answer is the per-row loss in float32.
"""

import torch

from studio.drills.harness.inputs import case_tensor

DEFAULT_IGNORE = -100


def make_inputs(case, gen, device):
    logits = case_tensor(case, gen, device)
    rows, vocab = case["shape"]
    ignore_index = int(case.get("ignore_index", DEFAULT_IGNORE))
    target = torch.randint(0, vocab, (rows,), generator=gen)
    if case.get("fill") == "neg_inf":   # aim at finite logits: an infinite loss teaches nothing
        finite = torch.isfinite(logits.float().cpu())
        target = torch.tensor([int(torch.nonzero(finite[i])[0]) for i in range(rows)])
    if rows > 1:
        target[torch.rand(rows, generator=gen) < 0.2] = ignore_index
    return logits, target.to(device), ignore_index


def reference(logits, target, ignore_index):
    """loss_i = logsumexp(logits_i) - logits_i[target_i]; 0 where target_i == ignore_index."""
    x = logits.to(torch.float64)
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    loss = torch.logsumexp(x, dim=1) - x.gather(1, safe[:, None])[:, 0]
    return torch.where(keep, loss, torch.zeros_like(loss))


def baseline(logits, target, ignore_index):
    return torch.nn.functional.cross_entropy(logits.float(), target, ignore_index=ignore_index,
                                             reduction="none")


def output_dtype(logits, target, ignore_index):
    return torch.float32


def bytes_moved(case):
    """Read the logits once (rows*vocab*itemsize), read int64 targets, write fp32 losses."""
    rows, vocab = case["shape"]
    itemsize = torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
    return rows * vocab * itemsize + rows * 8 + rows * 4


def flops(case):
    """max, subtract, exp, add per logit: 4 * rows * vocab (the per-row tail is noise)."""
    rows, vocab = case["shape"]
    return 4 * rows * vocab
