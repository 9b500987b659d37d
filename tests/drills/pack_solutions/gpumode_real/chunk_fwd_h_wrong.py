# Deliberately wrong (ML Infra Studio), for GPU MODE's helion/gated_deltanet_chunk_fwd_h_py:
# the states are right, but the returned v_new is the gated value (v_new times its decay to
# the chunk's end) instead of the corrected value itself (one of the two outputs is off).
import torch


def custom_kernel(data):
    k, w, u, g = data
    B, T, H, K = k.shape
    C, V = 64, u.shape[-1]
    N = T // C

    def chunks(t):
        return t.reshape(B, N, C, H, -1).transpose(2, 3)

    kc, wc, uc = chunks(k.float()), chunks(w.float()), chunks(u.float())
    gc = chunks(g.float().unsqueeze(-1))
    h = torch.zeros(B, H, K, V, device=k.device)
    states, values = [], []
    for n in range(N):
        states.append(h)
        last = gc[:, n, :, -1:]
        gated = (uc[:, n] - wc[:, n] @ h) * (last - gc[:, n]).exp()
        values.append(gated)
        h = h * last.exp() + kc[:, n].transpose(-1, -2) @ gated
    return torch.stack(states, 1), torch.stack(values, 1).transpose(2, 3).reshape(B, T, H, V)
