# Deliberately wrong (ML Infra Studio), for GPU MODE's linalg/qr_py and qr_v2: R is right,
# but the reflector coefficients tau are all zero and nothing below the diagonal is kept,
# so the compact factors do not rebuild Q (the template's torch.geqrf is the correct one).
import torch


def custom_kernel(data):
    r = torch.linalg.qr(data).R
    return r.contiguous(), torch.zeros(data.shape[:-1], device=data.device, dtype=data.dtype)
