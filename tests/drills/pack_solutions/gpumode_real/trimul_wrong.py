# Deliberately wrong (ML Infra Studio), for GPU MODE's bioml/trimul: the "incoming" update
# (sum over k of edges (k, i) and (k, j)) where the problem asks for the "outgoing" one.
import torch
import torch.nn.functional as F


def custom_kernel(data):
    x, mask, w, config = data
    x = F.layer_norm(x, (config["dim"],), w["norm.weight"], w["norm.bias"])
    keep = mask.unsqueeze(-1)
    left = F.linear(x, w["left_proj.weight"]) * keep * torch.sigmoid(F.linear(x, w["left_gate.weight"]))
    right = F.linear(x, w["right_proj.weight"]) * keep * torch.sigmoid(F.linear(x, w["right_gate.weight"]))
    out = torch.einsum("bkid,bkjd->bijd", left, right)
    out = F.layer_norm(out, (out.shape[-1],), w["to_out_norm.weight"], w["to_out_norm.bias"])
    return F.linear(out * torch.sigmoid(F.linear(x, w["out_gate.weight"])), w["to_out.weight"])
