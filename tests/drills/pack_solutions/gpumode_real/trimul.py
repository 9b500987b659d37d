# Our own solution (ML Infra Studio) for GPU MODE's bioml/trimul: AlphaFold3's "outgoing"
# triangle multiplicative update, written with torch.nn.functional. For every pair (i, j)
# it sums over k the gated projections of edges (i, k) and (j, k), then normalises, gates
# and projects back to `dim`. `data` = (x [b, n, n, dim], mask [b, n, n], weights, config).
import torch
import torch.nn.functional as F


def custom_kernel(data):
    x, mask, w, config = data
    x = F.layer_norm(x, (config["dim"],), w["norm.weight"], w["norm.bias"])
    keep = mask.unsqueeze(-1)
    left = F.linear(x, w["left_proj.weight"]) * keep * torch.sigmoid(F.linear(x, w["left_gate.weight"]))
    right = F.linear(x, w["right_proj.weight"]) * keep * torch.sigmoid(F.linear(x, w["right_gate.weight"]))
    # out[b, i, j, d] = sum_k left[b, i, k, d] * right[b, j, k, d]: one batched matmul per d
    out = torch.matmul(left.permute(0, 3, 1, 2), right.permute(0, 3, 2, 1)).permute(0, 2, 3, 1)
    out = F.layer_norm(out, (out.shape[-1],), w["to_out_norm.weight"], w["to_out_norm.bias"])
    return F.linear(out * torch.sigmoid(F.linear(x, w["out_gate.weight"])), w["to_out.weight"])
