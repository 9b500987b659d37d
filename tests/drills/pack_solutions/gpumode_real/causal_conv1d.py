# Our own solution (ML Infra Studio) for GPU MODE's helion/causal_conv1d_py: a depthwise
# causal 1-D convolution, y[b, d, t] = bias[d] + sum_j weight[d, j] * x[b, d, t - W + 1 + j],
# with x taken as 0 before t = 0.
import torch
import torch.nn.functional as F


def custom_kernel(data):
    x, weight, bias = data
    width = weight.shape[1]
    windows = F.pad(x, (width - 1, 0)).unfold(-1, width, 1)    # [B, D, S, W]: x[t-W+1 .. t]
    return torch.einsum("bdsw,dw->bds", windows, weight) + bias[:, None]
