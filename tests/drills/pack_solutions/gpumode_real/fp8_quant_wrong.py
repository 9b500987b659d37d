# Deliberately wrong (ML Infra Studio), for GPU MODE's helion/fp8_quant_py: the quantized
# values are right, but the scales written out are the group maxima, not max / 448 (one of
# the two outputs is off).
import torch


def custom_kernel(data):
    x, x_q, x_s = data
    tokens, hidden = x.shape
    groups = x.view(tokens, x_s.shape[1], -1)
    absmax = groups.abs().amax(dim=-1).clamp_min(1e-10)
    x_q.copy_((groups / (absmax / 448.0)[..., None]).clamp(-448.0, 448.0).view(tokens, hidden))
    x_s.copy_(absmax)
    return x_q, x_s
