"""Launch shapes and kernel variants for the swiglu and matmul reference solutions (#21).

    PYTHONPATH=. python3 bench/launch_tuning.py --what swiglu,matmul --out FILE.json

bench/peers.py found, on the H200 (bench/results/peers_h200/README.md):
- swiglu at 0.87-0.92x the best peer (Liger, torch.compile) at 1024-16384 x 4096-16384: the
  solution's launch shape was a heuristic never tuned on a GPU, and sigmoid uses an
  IEEE division;
- matmul at 0.75x cuBLAS at 16x8192x8192 (a decode GEMM: with one row of tiles, 64-128
  programs walk all of K, fewer than the SMs);
- FlashAttention at 0.69-0.83x SDPA.

This times, per shape, the solution as it is against its kernels launched other ways and
against variants (swiglu: an approximate division, and the output as one flat range as Inductor
launches it, both defined here; matmul: split-K launches of
the solution's skinny kernel, and bench/matmul_variants.py's TMA kernels; attention: bench/attention_variants.py's kernel changes and SDPA
per backend; bias_gelu and row_sum: other tiles and warps, and row_sum split over several programs; the other drills in
BUILDERS: their launches, and the variants each builder's docstring names). Every variant is checked against
the drill's baseline (or the solution's own output where the baseline rounds or draws otherwise) before it is
timed; timing is the engine's (L2 flushed by a read) and
do_bench_cudagraph. Prints the best variant per shape and writes every row to --out after
each shape (a run cut short keeps what it measured).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from long_rows_tuning import load, point_inputs, time_point  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def swiglu_fast_kernel(gu_ptr, y_ptr, M, H, stride_m, stride_n, up_offset, stride_ym,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """The solution's kernel with sigmoid's division approximate (tl.fdiv, not IEEE)."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < H)[None, :]
    row_off = rows.to(tl.int64)[:, None] * stride_m
    g_ptrs = gu_ptr + row_off + cols.to(tl.int64)[None, :] * stride_n
    g = tl.load(g_ptrs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(g_ptrs + up_offset, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp2(-tl.abs(g) * 1.4426950408889634)
    r = tl.fdiv(1.0, 1.0 + e, ieee_rounding=False)
    y = g * tl.where(g >= 0, r, e * r) * u
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
             y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_flat_kernel(gu_ptr, y_ptr, total, H, stride_m, up_offset, BLOCK: tl.constexpr):
    """The output as one flat range of M * H values (Inductor's way for a pointwise op): each
    program BLOCK consecutive outputs, the row and column of each from a division by H."""
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    row, col = i // H, i % H
    g_ptrs = gu_ptr + row * stride_m + col
    g = tl.load(g_ptrs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    u = tl.load(g_ptrs + up_offset, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    y = g * tl.sigmoid(g) * u
    tl.store(y_ptr + i, y.to(y_ptr.dtype.element_ty), mask=mask)


def swiglu_variants(sol, M, H):
    def launch(kernel, block_m, block_n, warps):
        def run(gu):
            y = torch.empty((M, H), dtype=gu.dtype, device=gu.device)
            grid = (triton.cdiv(M, block_m), triton.cdiv(H, block_n))
            kernel[grid](gu, y, M, H, gu.stride(0), gu.stride(1), H * gu.stride(1), y.stride(0),
                         BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps)
            return y
        return run

    def flat(block, warps):
        def run(gu):
            assert gu.stride(1) == 1
            y = torch.empty((M, H), dtype=gu.dtype, device=gu.device)
            swiglu_flat_kernel[(triton.cdiv(M * H, block),)](gu, y, M * H, H, gu.stride(0), H, BLOCK=block,
                                                             num_warps=warps)
            return y
        return run

    def sol_flat(block, warps, fast):
        def run(gu):
            y = torch.empty((M, H), dtype=gu.dtype, device=gu.device)
            total = M * H
            sol.swiglu_flat_kernel[(triton.cdiv(total, block),)](
                gu, y, total, H=H, BLOCK=block, EVEN=total % block == 0, WIDE=2 * total >= 2**31, FAST=fast,
                num_warps=warps)
            return y
        return run

    out = [("solution as is " + str(sol.launch_shape(M, H)), sol.swiglu)]
    out += [(f"flat BLOCK={b} w={w}", flat(b, w)) for b in (1024, 2048, 4096) for w in (4, 8)]
    # the solution's own flat kernel (2^23+ outputs) at other launches, and with approximate exp2 / rcp
    # (FAST: inline PTX, GPU only; call 67 timed it as a copy of the kernel here, since moved into the solution)
    out += [(f"sol-flat BLOCK={b} w={w}", sol_flat(b, w, False))
            for b in (512, 1024, 2048) for w in (2, 4, 8) if b // (32 * w) >= 2]
    out += [(f"sol-flat-fast BLOCK={b} w={w}", sol_flat(b, w, True)) for b in (1024, 2048) for w in (4, 8)]
    for elems, block_n, warps in itertools.product((4096, 8192, 16384, 32768), (512, 1024, 2048, 4096), (4, 8, 16)):
        if block_n > triton.next_power_of_2(H) or elems < block_n:
            continue
        block_m = min(elems // block_n, triton.next_power_of_2(M))
        if block_m * block_n // (32 * warps) < 4:        # fewer than 4 elements a thread
            continue
        out.append((f"ieee bm={block_m} bn={block_n} w={warps}", launch(sol.swiglu_kernel, block_m, block_n, warps)))
        out.append((f"fast bm={block_m} bn={block_n} w={warps}", launch(swiglu_fast_kernel, block_m, block_n, warps)))
    return out


def matmul_variants(sol, M, N, K):
    """Split-K launches of the solution's skinny kernel (`matmul_skinny_kernel`: each program
    one slice of K; with more than one slice, float32 partials that `split_sum_kernel` adds).
    Call 10 timed this script's own copy of that kernel, since moved into the solution; that
    copy also ran the second kernel for a single slice."""
    def splitk(block_m, block_n, block_k, splits, warps, stages):
        k_per = triton.cdiv(triton.cdiv(K, splits), block_k) * block_k

        def run(a, b):
            c = torch.empty((M, N), dtype=a.dtype, device=a.device)
            grid = (triton.cdiv(N, block_n), triton.cdiv(M, block_m), triton.cdiv(K, k_per))
            if grid[2] == 1:
                out, so, sm, sn = c, 0, c.stride(0), c.stride(1)
            else:
                out = torch.empty((grid[2], M, N), dtype=torch.float32, device=a.device)
                so, sm, sn = M * N, N, 1
            sol.matmul_skinny_kernel[grid](a, b, out, M, N, K, k_per, a.stride(0), a.stride(1), b.stride(0),
                                           b.stride(1), sm, sn, so, BLOCK_M=block_m, BLOCK_N=block_n,
                                           BLOCK_K=block_k, UPCAST=sol.INTERPRET and a.dtype == torch.bfloat16,
                                           num_warps=warps, num_stages=stages)
            if grid[2] > 1:
                sol.split_sum_kernel[(triton.cdiv(M * N, 1024),)](out, c, N, M * N, c.stride(0), c.stride(1),
                                                                  SPLITS=grid[2], BLOCK=1024, num_warps=4)
            return c
        return run

    out = [("solution as is", sol.matmul)]
    if M > 64:
        # the tiled kernel (under the autotuner) at fixed tiles, BLOCK_K 64 and 128
        def tiled(bm, bn, bk, warps, stages):
            def run(a, b):
                c = torch.empty((M, N), dtype=a.dtype, device=a.device)
                sol.matmul_kernel.fn[(triton.cdiv(M, bm) * triton.cdiv(N, bn),)](
                    a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                    BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, UPCAST=False, num_warps=warps, num_stages=stages)
                return c
            return run
        for (bm, bn), bk, warps, stages in itertools.product(((64, 64), (64, 128), (128, 64), (128, 128)),
                                                             (64, 128), (4, 8), (3, 4)):
            if bm * bn >= 128 * 128 or warps == 4:
                out.append((f"tiled bm={bm} bn={bn} bk={bk} w={warps} s={stages}", tiled(bm, bn, bk, warps, stages)))
        # the pointer-tile kernel with 6-8 K steps in flight, one tile per SM at 1024^3 (call 40)
        for (bm, bn), warps, stages in itertools.product(((64, 128), (128, 64)), (4, 8), (6, 8)):
            out.append((f"deep tiled bm={bm} bn={bn} bk=64 w={warps} s={stages}", tiled(bm, bn, 64, warps, stages)))
        # the same product through TMA tensor descriptors, tiled and persistent (call 34)
        import matmul_variants

        out += matmul_variants.variants()
    block_m = max(16, min(64, triton.next_power_of_2(M)))
    for block_n, block_k, splits, warps, stages in itertools.product(
            (64, 128), (128, 256), (1, 2, 4, 8), (4,), (3, 4, 5)):
        out.append((f"splitk bm={block_m} bn={block_n} bk={block_k} split={splits} w={warps} s={stages}",
                    splitk(block_m, block_n, block_k, splits, warps, stages)))
    return out


def attention_variants(sol, shape):
    """The solution as it is, then bench/attention_variants.py's switch sets x tiles and SDPA
    per backend. (Call 11 timed the solution's own kernel under fixed tiles: no faster than
    its autotuner's pick; launch_tuning.md.)"""
    import attention_variants

    return [("solution as is", sol.attention)] + attention_variants.variants(shape, sol)


def bias_gelu_variants(sol, M, N):
    def launch(block_m, block_n, warps):
        def run(x, bias):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))
            sol.bias_gelu_kernel[grid](x, bias, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                       BLOCK_M=block_m, BLOCK_N=block_n, LIBDEVICE_ERF=False, FAST=True,
                                       num_warps=warps)
            return y
        return run

    def flat(block, warps):
        def run(x, bias):
            assert x.is_contiguous()
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            total = M * N
            sol.bias_gelu_flat_kernel[(triton.cdiv(total, block),)](x, bias, y, total, N=N, BLOCK=block,
                                                                   EVEN=total % block == 0, WIDE=total >= 2**31,
                                                                   FAST=x.is_cuda, num_warps=warps)
            return y
        return run

    out = [("solution as is", sol.bias_gelu)]
    # the solution's flat kernel (call 80: bias_gelu float32 was 0.96x torch.compile at 16384 x 4096 on
    # its tiles; the flat launch is now the solution's for float32 of 2^24+ values)
    out += [(f"flat BLOCK={b} w={w}", flat(b, w)) for b in (512, 1024, 2048) for w in (2, 4, 8)
            if 4 <= b // (32 * w) <= 32]
    for block_m, block_n, warps in itertools.product((1, 2, 4, 8, 16), (128, 256, 512, 1024, 2048), (1, 2, 4, 8)):
        elems = block_m * block_n
        if block_m > triton.next_power_of_2(M) or block_n > triton.next_power_of_2(N):
            continue
        if not 4 <= elems // (32 * warps) <= 64:
            continue
        out.append((f"bm={block_m} bn={block_n} w={warps} programs={triton.cdiv(M, block_m) * triton.cdiv(N, block_n)}",
                    launch(block_m, block_n, warps)))
    return out


def row_sum_variants(sol, M, N):
    def launch(block_m, block_n, warps):
        def run(x):
            s = torch.empty((M,), dtype=x.dtype, device=x.device)
            sol.row_sum_kernel[(triton.cdiv(M, block_m),)](x, s, M, N, x.stride(0), x.stride(1),
                                                           BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps)
            return s
        return run

    def split(parts, block_n, warps):
        # each row as `parts` rows of N / parts (a view), summed into float32, then the parts summed
        def run(x):
            pieces = x.view(M * parts, N // parts)
            partial = torch.empty((M * parts,), dtype=torch.float32, device=x.device)
            sol.row_sum_kernel[(M * parts,)](pieces, partial, M * parts, N // parts, pieces.stride(0),
                                             pieces.stride(1), BLOCK_M=1, BLOCK_N=block_n, num_warps=warps)
            s = torch.empty((M,), dtype=x.dtype, device=x.device)
            bm = max(1, min(64, triton.next_power_of_2(M)))
            sol.row_sum_kernel[(triton.cdiv(M, bm),)](partial.view(M, parts), s, M, parts, parts, 1,
                                                      BLOCK_M=bm, BLOCK_N=triton.next_power_of_2(parts), num_warps=4)
            return s
        return run

    out = [("solution as is " + str(sol.launch_config(M, N)), sol.row_sum)]
    for block_m, block_n, warps in itertools.product((1, 2, 4, 8, 16), (1024, 2048, 4096, 8192, 16384), (4, 8, 16, 32)):
        if block_m > triton.next_power_of_2(M) or block_n > 2 * triton.next_power_of_2(N):
            continue
        if not 4 <= block_m * block_n // (32 * warps) <= 64:
            continue
        out.append((f"bm={block_m} bn={block_n} w={warps}", launch(block_m, block_n, warps)))
    if M < 1024:
        for parts, block_n, warps in itertools.product((2, 4, 8, 16, 32), (2048, 4096, 8192), (8, 16)):
            if N % parts or N // parts < block_n // 2:
                continue
            out.append((f"split parts={parts} bn={block_n} w={warps}", split(parts, block_n, warps)))
    return out


@triton.jit
def fp8_two_pass_kernel(x_ptr, q_ptr, N, stride_m, BLOCK: tl.constexpr, HINTS: tl.constexpr,
                        STAGES: tl.constexpr, HW_CVT: tl.constexpr = False):
    """The fp8_quant solution's two-pass path with L2 hints (evict_last on the amax pass, whose
    bytes the second pass reads again; evict_first on the second) and tl.range pipelining
    (STAGES > 1: cp.async, which drops the hints). HW_CVT: clamp, then the GPU's own cast to e4m3
    (cvt.rn.satfinite on sm_89+) instead of the solution's rounding, which is written so that
    Triton's interpreter rounds like the GPU."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_m
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, N, BLOCK, num_stages=STAGES):
        mask = start + cols < N
        if HINTS:
            x = tl.load(x_row + start + cols, mask=mask, other=0.0, eviction_policy="evict_last")
        else:
            x = tl.load(x_row + start + cols, mask=mask, other=0.0)
        acc = tl.maximum(acc, tl.abs(x.to(tl.float32)))
    inv = 1.0 / tl.maximum(tl.max(acc, axis=0) / 448.0, 1.0 / (448.0 * 512.0))
    for start in tl.range(0, N, BLOCK, num_stages=STAGES):
        mask = start + cols < N
        if HINTS:
            x = tl.load(x_row + start + cols, mask=mask, other=0.0, eviction_policy="evict_first")
        else:
            x = tl.load(x_row + start + cols, mask=mask, other=0.0)
        if HW_CVT:
            q = tl.minimum(tl.maximum(x.to(tl.float32) * inv, -448.0), 448.0)
        else:
            q = _to_e4m3_grid(x.to(tl.float32) * inv)
        tl.store(q_ptr + row * N + start + cols, q.to(q_ptr.dtype.element_ty), mask=mask)


_to_e4m3_grid = None       # the solution's rounding (a jit function), set by fp8_quant_variants


def fp8_quant_variants(sol, M, N):
    """Two-pass launches at long rows (call 61: the solution's two passes read 840 MB from DRAM at
    8192 x 28672 bf16 where one pass would read 470: the second pass mostly missed L2)."""
    global _to_e4m3_grid
    _to_e4m3_grid = sol._to_e4m3_grid

    def two_pass(block, warps, hints, stages, hw_cvt=False):
        def run(x):
            q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
            fp8_two_pass_kernel[(M,)](x, q, N, x.stride(0), BLOCK=block, HINTS=hints, STAGES=stages,
                                      HW_CVT=hw_cvt, num_warps=warps)
            return q
        return run

    def one_pass(hw_cvt):
        def run(x):
            q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
            block = triton.next_power_of_2(N)
            sol.fp8_quant_kernel[(M,)](x, q, N, x.stride(0), x.stride(1), ONE_PASS=True, BLOCK=block,
                                       HW_CVT=hw_cvt, num_warps=max(1, min(16, block // 1024)))
            return q
        return run

    out = [("solution as is", sol.fp8_quant)]
    # 32 warps (call 86): float32 rows of 28672 are 112 KiB, and with 16-warp programs (up to 4 an SM)
    # the rows between a row's two passes no longer fit in L2 (call 85: 0.84x torch.compile)
    for block, warps in itertools.product((2048, 4096, 8192), (4, 8, 16, 32)):
        if not 4 <= block // (32 * warps) <= 32:
            continue
        for hints, stages in ((False, 1), (True, 1), (False, 2), (False, 3)):
            out.append((f"two-pass block={block} w={warps} hints={int(hints)} stages={stages}",
                        two_pass(block, warps, hints, stages)))
    # the GPU's own e4m3 cast (sm_89+): the solution's launches with it, and two neighbours
    if torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 9):
        for block, warps in ((4096, 16), (4096, 8), (8192, 16)):
            out.append((f"hw-cvt two-pass block={block} w={warps} hints=1 stages=1",
                        two_pass(block, warps, True, 1, True)))
        if N <= sol.MAX_BLOCK:
            # call 65 timed "hw-cvt one-pass" as a copy of the kernel; the solution now casts that
            # way on such GPUs, so its own rounding is the variant to compare against
            out.append(("own-rounding one-pass", one_pass(False)))
    return out


def cross_entropy_variants(sol, M, V):
    """Chunk, warps and tl.range pipelining of the full chunks (call 61, ncu at 4096 x 32000 bf16:
    DRAM 75% busy, 80 registers a thread, 35% of warps resident, long-scoreboard stalls)."""
    def launch(block_v, warps, stages):
        def run(logits, target, ignore_index):
            loss = torch.empty((M,), dtype=torch.float32, device=logits.device)
            align = max(1, 16 // logits.element_size())
            sol.cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), logits.stride(1),
                                           ignore_index, BLOCK_V=block_v, ALIGN=align,
                                           CONTIG=logits.stride(1) == 1, STAGES=stages, num_warps=warps)
            return loss
        return run

    out = [("solution as is", sol.cross_entropy)]
    for block_v, warps, stages in itertools.product((2048, 4096, 8192), (4, 8, 16), (1, 2, 3)):
        if 4 <= block_v // (32 * warps) <= 64:
            out.append((f"block_v={block_v} w={warps} stages={stages}", launch(block_v, warps, stages)))
    return out


def residual_rmsnorm_variants(sol, M, N):
    """Rows in registers with other (BLOCK_M, num_warps), and Liger-Kernel's fused add + RMSNorm
    (where installed). At decode sizes (M <= 256) the solution was 0.77-0.94x Liger in fp16 under
    CUDA-graph replay on the H200 (peers call 58b); Liger runs one row per program on more warps."""
    block_n = triton.next_power_of_2(N)

    def launch(block_m, warps):
        def run(x, r, w, eps):
            out = torch.empty((2, M, N), dtype=x.dtype, device=x.device)
            sol.residual_rmsnorm_rows_kernel[(triton.cdiv(M, block_m),)](
                x, r, w, out[0], out[1], M, N, x.stride(0), x.stride(1), r.stride(0), r.stride(1),
                w.stride(0), eps, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps)
            return out
        return run

    out = [("solution as is " + str(sol.launch_config(M, N, 2)), sol.residual_rmsnorm)]
    for block_m, warps in itertools.product((1, 2, 4, 8), (2, 4, 8, 16, 32)):
        if block_m > triton.next_power_of_2(M) or not 2 <= block_m * block_n // (32 * warps) <= 64:
            continue
        out.append((f"bm={block_m} w={warps} programs={triton.cdiv(M, block_m)}", launch(block_m, warps)))
    from peers import liger_peer
    liger, _ = liger_peer("residual_rmsnorm")
    if liger is not None:
        out.append(("liger-kernel", liger))
    return out


def vector_add_variants(sol, n):
    """Block and warps of the one-block-a-program add (call 85, float32: 0.85x torch.compile at 4096 and
    65536 elements, where the solution's 4096-element blocks make 1 and 16 programs)."""
    def launch(block, warps):
        def run(x, y):
            out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
            sol.add_kernel[(triton.cdiv(n, block),)](x, y, out, n, x.stride(0), y.stride(0), BLOCK=block,
                                                    num_warps=warps)
            return out
        return run

    out = [("solution as is", sol.add)]
    for block, warps in itertools.product((256, 512, 1024, 2048, 4096, 8192), (1, 2, 4, 8, 16)):
        if 4 <= block // (32 * warps) <= 32:
            out.append((f"block={block} w={warps} programs={triton.cdiv(n, block)}", launch(block, warps)))
    return out


def histogram_variants(sol, n):
    """Block, warps and programs per SM of the privatised histogram (call 85, float32: 0.92x torch's
    histc at 2^27 values, 618 against 568 us, where the solution bins 216 G values/s in every dtype:
    tl.histogram's work, not bytes, sets its time)."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 2

    def launch(block, warps, per_sm):
        def run(x, bins):
            counts = torch.zeros(bins, dtype=torch.int32, device=x.device)
            grid = max(1, min(triton.cdiv(n, block), sms * per_sm))
            sol.histogram_kernel[(grid,)](x, counts, n, x.stride(0), bins, grid, BLOCK=block,
                                          NUM_BINS=triton.next_power_of_2(bins), num_warps=warps)
            return counts
        return run

    out = [("solution as is", sol.histogram)]
    for block, warps, per_sm in itertools.product((1024, 2048, 4096, 8192), (4, 8, 16), (2, 4, 8)):
        if 2 <= block // (32 * warps) <= 32 and per_sm * warps <= 64:
            out.append((f"block={block} w={warps} per_sm={per_sm}", launch(block, warps, per_sm)))
    return out


def fused_adamw_variants(sol, n):
    """Block and warps of the one-pass AdamW kernel (call 86: 0.98-0.99x torch.compile of the update
    in plain ops from 2^24 parameters, 0.81-0.96x at 2^20 under CUDA-graph replay; the solution runs
    4096 elements a program on 8 warps)."""
    import math

    def launch(block, warps):
        def run(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay):
            out = torch.empty((3, n), dtype=torch.float32, device=param.device)
            sol.adamw_kernel[(triton.cdiv(n, block),)](
                param, grad, exp_avg, exp_avg_sq, out, n, grad.stride(0), 1.0 - lr * weight_decay, beta1,
                1.0 - beta1, beta2, 1.0 - beta2, lr / (1.0 - beta1 ** step), 1.0 / math.sqrt(1.0 - beta2 ** step),
                eps, BLOCK=block, num_warps=warps)
            return out
        return run

    out = [("solution as is", sol.fused_adamw)]
    for block, warps in itertools.product((512, 1024, 2048, 4096, 8192), (1, 2, 4, 8, 16)):
        if 4 <= block // (32 * warps) <= 32:
            out.append((f"block={block} w={warps} programs={triton.cdiv(n, block)}", launch(block, warps)))
    return out


def transpose_variants(sol, M, N):
    """Tile and warps of the tiled transpose (call 85, float32: 0.95-0.97x torch.compile at 1024 x 1024
    and 4096 x 4096; the solution runs 64 x 64 tiles on 4 warps in every dtype)."""
    def launch(bm, bn, warps):
        def run(x):
            y = torch.empty((N, M), dtype=x.dtype, device=x.device)
            sol.transpose_kernel[(triton.cdiv(M, bm), triton.cdiv(N, bn))](
                x, y, M, N, x.stride(0), x.stride(1), y.stride(0), BLOCK_M=bm, BLOCK_N=bn, num_warps=warps)
            return y
        return run

    out = [("solution as is", sol.transpose)]
    for bm, bn, warps in itertools.product((32, 64, 128), (32, 64, 128), (2, 4, 8)):
        if 4 <= bm * bn // (32 * warps) <= 64:
            out.append((f"tile={bm}x{bn} w={warps}", launch(bm, bn, warps)))
    return out


def prefix_sum_variants(sol, M, N):
    """Rows a program and warps of the whole-row scan (call 85, float32: 0.94-0.98x torch.compile at
    4096 x 256 and 4096 x 1024; the solution takes tiles of ~4096 elements on 8 warps); for rows past
    MAX_ROW, the long-row paths below."""
    block_n = triton.next_power_of_2(N)

    def launch(bm, warps):
        def run(x):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            sol.scan_rows_kernel[(triton.cdiv(M, bm),)](x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                                       BLOCK_M=bm, BLOCK_N=block_n, num_warps=warps)
            return y
        return run

    def carry(chunk, warps, stages):
        def run(x):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            sol.scan_carry_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0), BLOCK_N=chunk,
                                        num_warps=warps, num_stages=stages)
            return y
        return run

    def split(chunk, warps):
        def run(x):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            n_chunks = triton.cdiv(N, chunk)
            sums = torch.empty((M, n_chunks), dtype=torch.float32, device=x.device)
            sol.chunk_sums_kernel[(M, n_chunks)](x, sums, N, n_chunks, x.stride(0), x.stride(1), BLOCK_N=chunk,
                                                 num_warps=warps)
            sol.scan_carry_kernel[(M,)](sums, sums, n_chunks, sums.stride(0), 1, sums.stride(0),
                                        BLOCK_N=min(triton.next_power_of_2(n_chunks), 4096), num_warps=4)
            sol.scan_chunks_kernel[(M, n_chunks)](x, y, sums, N, n_chunks, x.stride(0), x.stride(1), y.stride(0),
                                                  BLOCK_N=chunk, num_warps=warps)
            return y
        return run

    if N <= sol.MAX_ROW:
        out = [("solution as is " + str(sol.rows_launch(M, N)), sol.prefix_sum)]
        for bm, warps in itertools.product((1, 2, 4, 8, 16, 32), (1, 2, 4, 8, 16)):
            if bm <= triton.next_power_of_2(M) and 2 <= bm * block_n // (32 * warps) <= 64:
                out.append((f"bm={bm} w={warps} programs={triton.cdiv(M, bm)}", launch(bm, warps)))
        return out
    # Long rows (call 85: 4096 x 16384 at 83-87% of copy bandwidth, one program a row walking
    # 4096-wide chunks on 8 warps): the carry loop's chunk, warps and pipeline stages (many rows),
    # the reduce-then-scan path and the look-back scan's chunk, warps and window (calls 93-95:
    # 64 x 262144 and 4 x 4194304 at 51-57% of copy with reduce-then-scan).
    def lookback(chunk, warps, window):
        def run(x):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            n_chunks = triton.cdiv(N, chunk)
            state = torch.zeros(M * n_chunks + 1, dtype=torch.int64, device=x.device)
            sol.lookback_scan_kernel[(M * n_chunks,)](x, y, state, N, n_chunks, M * n_chunks, x.stride(0),
                                                      x.stride(1), y.stride(0), BLOCK_N=chunk, WINDOW=window,
                                                      num_warps=warps)
            return y
        return run

    out = [(f"solution as is chunk={sol.CHUNK}", sol.prefix_sum)]
    if M >= sol.MANY_ROWS:      # one program a row walking it: hopeless for a handful of rows
        for chunk, warps, stages in itertools.product((1024, 2048, 4096, 8192), (4, 8, 16), (1, 2, 3, 4)):
            if 4 <= chunk // (32 * warps) <= 32:
                out.append((f"carry chunk={chunk} w={warps} s={stages}", carry(chunk, warps, stages)))
    for chunk, warps in itertools.product((1024, 2048, 4096, 8192), (4, 8)):
        if 4 <= chunk // (32 * warps) <= 32:
            out.append((f"split chunk={chunk} w={warps}", split(chunk, warps)))
    # the single-pass scan with decoupled look-back (x read once, one launch after a memset)
    for chunk, warps, window in itertools.product((2048, 4096, 8192, 16384), (4, 8, 16), (1, 16, 32)):
        if 4 <= chunk // (32 * warps) <= 32 and (window > 1 or chunk == 4096):
            out.append((f"lookback chunk={chunk} w={warps} window={window}", lookback(chunk, warps, window)))
    return out


@triton.jit
def dropout_int_kernel(x_ptr, y_ptr, total, threshold, scale, seed, BLOCK: tl.constexpr):
    """The solution's dropout_1d_kernel with the keep test on Philox's integer words: a word w is
    kept when tl.rand's uniform of it is >= p, which is monotone in fold(w) = w ^ (w >> 31), so
    it equals fold(w) >= threshold (dropout_threshold): no int-to-float conversion or multiply."""
    pid = tl.program_id(0)
    counters = pid * (BLOCK // 4) + tl.arange(0, BLOCK // 4)
    w0, w1, w2, w3 = tl.randint4x(seed, counters)
    w = _interleave(w0.to(tl.int32, bitcast=True), w1.to(tl.int32, bitcast=True),
                    w2.to(tl.int32, bitcast=True), w3.to(tl.int32, bitcast=True), BLOCK)
    folded = w ^ (w >> 31)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(folded >= threshold, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _interleave(r0, r1, r2, r3, BLOCK: tl.constexpr):
    return tl.reshape(tl.join(tl.join(r0, r2), tl.join(r1, r3)), [BLOCK])


def dropout_threshold(p: float) -> int:
    """The least v in [0, 2^31) with float32(float32(v) * 4.6566127342e-10) >= float32(p): tl.rand's
    uniform of a folded word v, compared as the kernel compares it (p a float32 argument)."""
    import numpy as np

    scale, target = np.float32(4.6566127342e-10), np.float32(p)
    lo, hi = 0, 2 ** 31            # the uniform of 2^31 - 1 is below 1 > p
    while lo < hi:
        mid = (lo + hi) // 2
        if np.float32(np.float32(mid) * scale) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def dropout_variants(sol, M, N):
    """Block and warps of the packed-rows dropout kernel, and the keep test on Philox's integer words
    (calls 55-85: bf16 / fp16 at 78-83% of copy bandwidth from 8192 x 4096 up, fp32 at 93-96%: the
    Philox work per element, not memory, sets the bf16 time; 4096 elements on 8 warps a program)."""
    total = M * N

    def launch(block, warps, integer):
        def run(x, p, seed):
            y = torch.empty((M, N), dtype=x.dtype, device=x.device)
            scale = 1.0 / (1.0 - p)
            if integer:
                dropout_int_kernel[(triton.cdiv(total, block),)](x, y, total, dropout_threshold(p), scale, seed,
                                                                 BLOCK=block, num_warps=warps)
            else:
                sol.dropout_1d_kernel[(triton.cdiv(total, block),)](x, y, total, p, scale, seed, BLOCK=block,
                                                                    num_warps=warps)
            return y
        return run

    out = [("solution as is", sol.dropout)]
    for block, warps, integer in itertools.product((1024, 2048, 4096, 8192, 16384), (2, 4, 8, 16), (False, True)):
        if 4 <= block // (32 * warps) <= 64:
            out.append((f"{'int ' if integer else ''}block={block} w={warps}", launch(block, warps, integer)))
    return out


def int8_wo_variants(sol, M, N, K):
    """Decode launches of the int8 weight-only matmul on W's [K, N] layout (peers, calls 58-60, H200:
    1 x 28672 x 8192 at 50% of copy bandwidth in bf16, 111.3 us, and 63% in fp16, 87.3; the split-K
    tensor-core kernel on the H100 sweep's table). The split-K kernel's tiles, warps, stages and
    dequantization (FAST: integer ops; else a conversion), and for M = 1 the CUDA-core GEMV, which
    dequantizes to float32 whatever x's dtype (the H100 timed it slower on this layout, 104 against
    97 us in fp16)."""
    out = [("solution as is", sol.int8_wo_matmul)]

    def table(t):
        return lambda x, w, s: sol.int8_wo_matmul(x, w, s, decode_table=t)

    def gemv(g):
        return lambda x, w, s: sol.int8_wo_matmul(x, w, s, gemv=g)

    for bn, bk, warps, stages, fast in itertools.product((64, 128, 256), (128, 256), (4, 8), (3, 4), (True, False)):
        if bn * bk <= 32768:
            out.append((f"splitk bn={bn} bk={bk} w={warps} s={stages} fast={fast}",
                        table({"BLOCK_N": bn, "BLOCK_K": bk, "num_warps": warps, "num_stages": stages,
                               "FAST": fast})))
    if M == 1:
        for bn, bk, split, warps in itertools.product((256, 512, 1024), (8, 16, 32), (1, 2), (4, 8)):
            if 8 <= bn * bk // (32 * warps) <= 64:
                out.append((f"gemv bn={bn} bk={bk} split={split} w={warps}", gemv((bn, bk, split, warps))))
    return out


def decode_variants(sol, name, dtype):
    """Split-KV decode attention (flash_decoding, paged_attention_decode) planned for other programs
    per SM, and in float32 with other dot precisions (call 85: float32 at 26-30% of copy bandwidth,
    its dot products in IEEE float32 on the FMA units; bf16 / fp16 paged at 8 x 32 x 8 x 128 x 8192
    at 83-85%). Module settings are set for each call and put back after it."""
    entry = getattr(sol, name)
    precisions = ("ieee", "tf32", "tf32x3") if dtype == "float32" else (sol.FP32_DOT,)

    def launch(per_sm, precision):
        def run(*args):
            saved = sol.PROGRAMS_PER_SM, getattr(sol, "FP32_PROGRAMS_PER_SM", None), sol.FP32_DOT
            sol.PROGRAMS_PER_SM, sol.FP32_DOT = per_sm, precision
            if saved[1] is not None:
                sol.FP32_PROGRAMS_PER_SM = per_sm
            try:
                return entry(*args)
            finally:
                sol.PROGRAMS_PER_SM, sol.FP32_DOT = saved[0], saved[2]
                if saved[1] is not None:
                    sol.FP32_PROGRAMS_PER_SM = saved[1]
        return run

    out = [(f"solution as is per_sm={sol.PROGRAMS_PER_SM} dot={sol.FP32_DOT}", entry)]
    for per_sm, precision in itertools.product((2, 4, 6, 8, 12, 16), precisions):
        out.append((f"per_sm={per_sm} dot={precision}", launch(per_sm, precision)))
    return out


def causal_conv1d_variants(sol, B, D, L):
    """Tile and warps of the causal depthwise conv (the solution's launch is a heuristic never tuned:
    ~4K outputs a program, 16 x 256 on 4 warps for contiguous x). In bf16 / fp16 it reads at 55-60% of
    copy bandwidth (8 x 4096 x 8192: 2564 GB/s), float32 at 78-81%: the K shifted loads of a window
    are not aligned for vector loads, so each 2-byte element is its own load (peers, calls 55-85)."""
    def launch(bd, bl, warps):
        def run(x, weight, bias, activation):
            y = torch.empty((B, D, L), dtype=x.dtype, device=x.device)
            sol.causal_conv1d_kernel[(triton.cdiv(L, bl), triton.cdiv(D, bd), B)](
                x, weight, bias, y, D, L, x.stride(0), x.stride(1), x.stride(2), weight.stride(0),
                weight.stride(1), bias.stride(0), K=weight.shape[1], ACTIVATION=bool(activation),
                BLOCK_D=bd, BLOCK_L=bl, num_warps=warps)
            return y
        return run

    def launch_vec(bd, bl, warps):
        def run(x, weight, bias, activation):
            y = torch.empty((B, D, L), dtype=x.dtype, device=x.device)
            sol.causal_conv1d_vec_kernel[(triton.cdiv(L, bl), triton.cdiv(D, bd), B)](
                x, weight, bias, y, D, L, x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
                bias.stride(0), K=weight.shape[1], ACTIVATION=bool(activation), BLOCK_D=bd, BLOCK_L=bl,
                num_warps=warps)
            return y
        return run

    out = [("solution as is " + str(sol.launch_shape(torch.empty((B, D, L), device="meta"))), sol.causal_conv1d)]
    for bd, bl, warps in itertools.product((1, 2, 4, 8, 16, 32), (128, 256, 512, 1024, 2048), (2, 4, 8)):
        if 8 <= bd * bl // (32 * warps) <= 64 and 2048 <= bd * bl <= 8192:
            out.append((f"tile={bd}x{bl} w={warps}", launch(bd, bl, warps)))
    # causal_conv1d_vec_kernel (x contiguous along L, K <= 5): time steps in groups of four, two
    # aligned loads a group instead of K misaligned ones an element
    for bd, bl, warps in itertools.product((1, 2, 4, 8, 16), (256, 512, 1024, 2048), (2, 4, 8)):
        if 8 <= bd * bl // (32 * warps) <= 64 and 2048 <= bd * bl <= 8192:
            out.append((f"vec tile={bd}x{bl} w={warps}", launch_vec(bd, bl, warps)))
    return out


SHAPES = {
    "bias_gelu": ["16x1024", "128x2048", "1x8192", "4096x8192"],
    "row_sum": ["16x8192", "4096x4096", "256x131072", "1024x32768"],
    "swiglu": ["4096x4096", "16384x1024", "1024x8192", "16384x4096", "128x4096"],
    "matmul": ["16x8192x8192", "64x8192x8192", "1x4096x4096"],
    "flash_attention": ["4x16x4096x128", "4x32x4096x64", "4x16x4096x128x1"],
    "fp8_quant": ["8192x28672", "4096x14336"],
    "cross_entropy": ["4096x32000", "4096x128256"],
    "causal_conv1d": ["8x4096x8192", "4x4096x2048"],
    "transpose": ["1024x1024", "4096x4096", "4096x16384"],
    "prefix_sum": ["4096x256", "4096x1024", "4096x16384", "64x262144", "4x4194304"],
    "dropout": ["8192x4096", "16384x8192", "65536x4096"],
    "int8_wo_matmul": ["1x28672x8192", "16x28672x8192", "1x11008x4096"],
    "flash_decoding": ["1x32x8x128x32768", "8x32x8x128x16384", "2x32x8x128x3000"],
    "paged_attention_decode": ["8x32x8x128x8192", "1x32x8x128x32768", "16x32x32x128x4096"],
    "fused_adamw": ["1048576", "4194304", "16777216", "67108864"],
    "histogram": ["16777216", "134217728"],
    "vector_add": ["4096", "65536", "1048576", "16777216"],
    "residual_rmsnorm": ["1x4096", "32x4096", "256x8192", "4096x4096", "4096x5120", "8192x8192"],
}


def _by_shape(builder):
    return lambda sol, shape, dtype: builder(sol, *shape)


# drill -> (solution module, [sizes], dtype) -> [(variant name, fn)], the solution as is first
BUILDERS = {
    **{drill: _by_shape(builder) for drill, builder in (
        ("swiglu", swiglu_variants), ("bias_gelu", bias_gelu_variants), ("row_sum", row_sum_variants),
        ("matmul", matmul_variants), ("residual_rmsnorm", residual_rmsnorm_variants),
        ("fp8_quant", fp8_quant_variants), ("cross_entropy", cross_entropy_variants),
        ("fused_adamw", fused_adamw_variants), ("transpose", transpose_variants),
        ("causal_conv1d", causal_conv1d_variants), ("prefix_sum", prefix_sum_variants),
        ("histogram", histogram_variants), ("vector_add", vector_add_variants), ("dropout", dropout_variants),
        ("int8_wo_matmul", int8_wo_variants))},
    "flash_decoding": lambda sol, shape, dtype: decode_variants(sol, "flash_decoding", dtype),
    "paged_attention_decode": lambda sol, shape, dtype: decode_variants(sol, "paged_attention_decode", dtype),
    "flash_attention": lambda sol, shape, dtype: attention_variants(sol, shape),
}

def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--what", default="swiglu,matmul")
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--rep-ms", type=float, default=20.0)
    parser.add_argument("--budget-s", type=float, default=1e9, help="stop starting shapes after this long")
    parser.add_argument("--variants", default="", help="only variants whose name holds one of these "
                        "comma-separated strings (the solution as is always runs)")
    parser.add_argument("--shapes", default="", help="only these shapes (default: the drill's list here)")
    args = parser.parse_args()
    unknown = [d for d in args.what.split(",") if d not in BUILDERS]
    if unknown:
        parser.error(f"no variants for {', '.join(unknown)} (known: {', '.join(sorted(BUILDERS))})")
    import time

    from studio.drills.harness import timing

    t0 = time.time()
    rows = []
    for drill in args.what.split(","):
        spec, sol = load(drill, "spec"), load(drill, "solution")
        for shape_s in (args.shapes.split(",") if args.shapes else SHAPES[drill]):
            if time.time() - t0 > args.budget_s:
                print(f"SKIP {drill} {shape_s}: budget", flush=True)
                continue
            shape = [int(v) for v in shape_s.split("x")]
            inputs, want = point_inputs(spec, shape, args.dtype)
            if drill == "fp8_quant":       # the same rounding as the solution: exactly its output
                want = sol.fp8_quant(*inputs).float()
            if drill == "prefix_sum" and args.dtype != "float32":   # torch's bf16 / fp16 cumsum rounds as it goes
                want = sol.prefix_sum(*inputs).float()
            if drill == "dropout":         # torch's mask is its own generator's: the solution's stream
                want = sol.dropout(*inputs).float()
            if drill == "fused_adamw":     # torch's op stepped the inputs in place: the solution's step from there
                want = sol.fused_adamw(*inputs)
            variants = BUILDERS[drill](sol, shape, args.dtype)
            if args.variants:
                keep = args.variants.split(",")
                variants = [(n, f) for n, f in variants if n.startswith("solution as is") or any(k in n for k in keep)]
            # torch's op on copies: fused_adamw's steps its inputs in place, and the variants are checked
            # against `want` from the inputs as they are (call 87 timed it on the inputs themselves)
            own = tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in inputs)
            reference = timing.quantiles(timing.time_baseline(lambda a=own: spec.baseline(*a), 10, args.rep_ms))[0] * 1e3
            del own
            print(f"SHAPE {drill} {shape_s} torch engine {reference:.1f} us", flush=True)
            time_point(f"{drill} {shape_s}", {"drill": drill, "shape": shape, "dtype": args.dtype,
                                               "torch_engine_us": reference}, variants, inputs, want, args.rep_ms,
                       rows, args.out, note=f" (torch {reference:.1f})")
            del inputs, want
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
