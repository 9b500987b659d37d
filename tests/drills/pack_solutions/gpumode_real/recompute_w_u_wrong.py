# Deliberately wrong (ML Infra Studio), for GPU MODE's helion/gated_deltanet_recompute_w_u_py:
# u is right; w leaves out the gate exp(g) (one of the two outputs is off).
import torch


def custom_kernel(data):
    k, v, beta, A, g = data
    B, T, H, _ = k.shape
    C = A.shape[-1]

    def chunks(t):
        return t.float().reshape(B, T // C, C, H, -1).transpose(2, 3)

    def back(t):
        return t.transpose(2, 3).reshape(B, T, H, -1)

    a, b = chunks(A), chunks(beta.unsqueeze(-1))
    return back(a @ (chunks(k) * b)), back(a @ (chunks(v) * b))
