# Our own solution (ML Infra Studio) for GPU MODE's helion/fp8_quant_py: per token and per
# group of `group_size` values, scale = max(|x|, 1e-10) / 448 (448 is FP8 E4M3's largest
# value) and x_q = clamp(x / scale, -448, 448). Both outputs are the buffers in `data`.
import torch


def custom_kernel(data):
    x, x_q, x_s = data
    tokens, hidden = x.shape
    groups = x.view(tokens, x_s.shape[1], -1)
    scale = groups.abs().amax(dim=-1).clamp_min(1e-10) / 448.0
    x_s.copy_(scale)
    x_q.copy_((groups / scale[..., None]).clamp(-448.0, 448.0).view(tokens, hidden))
    return x_q, x_s
