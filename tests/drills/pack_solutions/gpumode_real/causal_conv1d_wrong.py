# Deliberately wrong (ML Infra Studio), for GPU MODE's helion/causal_conv1d_py: the padding
# is put on the right, so each output looks W - 1 steps into the future (not causal).
import torch
import torch.nn.functional as F


def custom_kernel(data):
    x, weight, bias = data
    width = weight.shape[1]
    windows = F.pad(x, (0, width - 1)).unfold(-1, width, 1)    # x[t .. t+W-1]: wrong side
    return torch.einsum("bdsw,dw->bds", windows, weight) + bias[:, None]
