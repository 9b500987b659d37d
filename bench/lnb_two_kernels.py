"""LayerNorm backward as torch.compile's Inductor plans it: one kernel for dx, one for dw and db.

bench/inductor_code.py on the H200 (call 66, layernorm_backward 4096 x 12288 bf16, where Inductor
was 0.87-0.92x ahead of the reference solution) showed two reduction kernels:
- dx: one row a program, 8 warps, the row walked twice in 1024-column chunks (evict_last on the
  first pass, evict_first on the second, so the second reads the row back from L2);
- dw and db: 64 columns a program on 16 warps, walking all M rows 64 at a time (192 programs at
  12288 columns), so dy and x are read from DRAM a second time.
The reference solution instead reads dy and x once and leaves float32 column partials for a
second small kernel. This file writes Inductor's plan out as Triton kernels with its launch
parameters open, so bench/layernorm_backward_tuning.py --two-kernels can time it beside the
solution's configs (checked against spec.reference like them). `run_two` returns the drill's
[dx; dweight; dbias] layout.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def lnb_dx_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, out_ptr, N_RUNTIME, stride_m,
                  BLOCK: tl.constexpr, WHOLE: tl.constexpr, STAGES: tl.constexpr,
                  N_CONST: tl.constexpr = 0, WIDE: tl.constexpr = True):
    """dx of one row: WHOLE, the row in registers (BLOCK >= N); else two passes of BLOCK-column
    chunks, the second reading the row back from L2. N_CONST > 0: the row length as a compile-time
    constant (as Inductor compiles it: masks of whole chunks fold away); WIDE: 64-bit row offsets."""
    if N_CONST > 0:
        N = N_CONST
    else:
        N = N_RUNTIME
    row = tl.program_id(0)
    if WIDE:
        row = row.to(tl.int64)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    cols = tl.arange(0, BLOCK)
    if WHOLE:
        mask = cols < N
        dy = tl.load(dy_ptr + row * stride_m + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + row * stride_m + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        xhat = (x - mean) * rstd
        g = w * dy
        c1 = tl.sum(g * xhat, axis=0) / N
        c2 = tl.sum(g, axis=0) / N
        dx = (g - c2 - xhat * c1) * rstd
        tl.store(out_ptr + row * N + cols, dx.to(out_ptr.dtype.element_ty), mask=mask)
    else:
        acc1 = tl.zeros([BLOCK], dtype=tl.float32)
        acc2 = tl.zeros([BLOCK], dtype=tl.float32)
        for start in tl.range(0, N, BLOCK, num_stages=STAGES):
            mask = start + cols < N
            dy = tl.load(dy_ptr + row * stride_m + start + cols, mask=mask, other=0.0,
                         eviction_policy="evict_last").to(tl.float32)
            x = tl.load(x_ptr + row * stride_m + start + cols, mask=mask, other=0.0,
                        eviction_policy="evict_last").to(tl.float32)
            w = tl.load(w_ptr + start + cols, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
            g = w * dy
            acc1 += g * ((x - mean) * rstd)
            acc2 += g
        c1 = tl.sum(acc1, axis=0) / N
        c2 = tl.sum(acc2, axis=0) / N
        for start in tl.range(0, N, BLOCK, num_stages=STAGES):
            mask = start + cols < N
            dy = tl.load(dy_ptr + row * stride_m + start + cols, mask=mask, other=0.0,
                         eviction_policy="evict_first").to(tl.float32)
            x = tl.load(x_ptr + row * stride_m + start + cols, mask=mask, other=0.0,
                        eviction_policy="evict_first").to(tl.float32)
            w = tl.load(w_ptr + start + cols, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
            xhat = (x - mean) * rstd
            dx = (w * dy - c2 - xhat * c1) * rstd
            tl.store(out_ptr + row * N + start + cols, dx.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def lnb_dwdb_kernel(dy_ptr, x_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, M, N, stride_m,
                    BLOCK_C: tl.constexpr, BLOCK_R: tl.constexpr, STAGES: tl.constexpr):
    """dw and db of BLOCK_C columns: every row, BLOCK_R at a time, summed in float32."""
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < N
    acc_w = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for r0 in tl.range(0, M, BLOCK_R, num_stages=STAGES):
        rows = r0 + tl.arange(0, BLOCK_R)
        rmask = rows < M
        mean = tl.load(mean_ptr + rows, mask=rmask, other=0.0)
        rstd = tl.load(rstd_ptr + rows, mask=rmask, other=0.0)
        offs = rows.to(tl.int64)[:, None] * stride_m + cols[None, :]
        mask = rmask[:, None] & cmask[None, :]
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        acc_w += dy * ((x - mean[:, None]) * rstd[:, None])
        acc_b += dy
    tl.store(dw_ptr + cols, tl.sum(acc_w, axis=0).to(dw_ptr.dtype.element_ty), mask=cmask)
    tl.store(db_ptr + cols, tl.sum(acc_b, axis=0).to(db_ptr.dtype.element_ty), mask=cmask)


def dx_pass(dy, x, weight, mean, rstd, out, dx_cfg):
    """dx into out[:M]; dx_cfg = (BLOCK or None for the whole row, num_warps, STAGES[, "const"]):
    "const" compiles N in and uses 32-bit offsets where they fit."""
    M, N = x.shape
    block, warps, stages = dx_cfg[:3]
    const = "const" in dx_cfg[3:]
    whole = block is None
    lnb_dx_kernel[(M,)](dy, x, weight, mean, rstd, out, N, x.stride(0),
                        BLOCK=triton.next_power_of_2(N) if whole else block, WHOLE=whole, STAGES=stages,
                        N_CONST=N if const else 0, WIDE=not const or (M + 2) * max(N, x.stride(0)) >= 2**31,
                        num_warps=warps)
    return out


def run_two(dy, x, weight, mean, rstd, dx_cfg=(1024, 8, 1), cols_cfg=(64, 64, 16, 1)) -> torch.Tensor:
    """[dx; dweight; dbias] as one new [M + 2, N] tensor of x's dtype, by the two kernels.
    cols_cfg = (BLOCK_C, BLOCK_R, num_warps, STAGES); the defaults are Inductor's picks."""
    assert x.ndim == 2 and x.stride(1) == 1 and dy.stride() == x.stride(), "contiguous rows, same strides"
    M, N = x.shape
    out = torch.empty((M + 2, N), dtype=x.dtype, device=x.device)
    dx_pass(dy, x, weight, mean, rstd, out, dx_cfg)
    block_c, block_r, warps, stages = cols_cfg
    lnb_dwdb_kernel[(triton.cdiv(N, block_c),)](dy, x, mean, rstd, out[M], out[M + 1], M, N, x.stride(0),
                                                BLOCK_C=block_c, BLOCK_R=block_r, STAGES=stages, num_warps=warps)
    return out


# (name, dx_cfg, cols_cfg) timed by layernorm_backward_tuning.py --two-kernels: Inductor's plan
# first, then the dx pass with the row in registers or longer chunks, and other column tiles.
PLANS = [
    ("inductor's plan", (1024, 8, 1), (64, 64, 16, 1)),
    ("dx whole row w16", (None, 16, 1), (64, 64, 16, 1)),
    ("dx whole row w32", (None, 32, 1), (64, 64, 16, 1)),
    ("dx chunks 2048 w8", (2048, 8, 1), (64, 64, 16, 1)),
    ("dx chunks 4096 w16", (4096, 16, 1), (64, 64, 16, 1)),
    ("cols 128x32 w8", (1024, 8, 1), (128, 32, 8, 1)),
    ("cols 32x128 w8", (1024, 8, 1), (32, 128, 8, 1)),
    ("cols 64x64 w8 s2", (1024, 8, 1), (64, 64, 8, 2)),
    # call 68: N compiled in and 32-bit offsets, as Inductor's kernel has them (call 67: Inductor's
    # dx launch as written above took 107 us where torch.compile's whole backward took 138)
    ("inductor's plan, N const", (1024, 8, 1, "const"), (64, 64, 16, 1)),
    ("dx chunks 2048 w8, N const", (2048, 8, 1, "const"), (64, 64, 16, 1)),
    ("dx chunks 4096 w8, N const", (4096, 8, 1, "const"), (64, 64, 16, 1)),
    ("dx whole row w16, N const", (None, 16, 1, "const"), (64, 64, 16, 1)),
]
