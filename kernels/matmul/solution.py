"""Reference solution: C = A @ B in Triton, fp16/bf16 in, fp32 accumulate (tl.dot).

Read like Triton's 03-matrix-multiplication tutorial. Each program computes one
BLOCK_M x BLOCK_N tile of C: it walks K in BLOCK_K steps, loading a tile of A and a tile
of B and accumulating `tl.dot` (tensor cores) into a float32 accumulator held in
registers; the tile is cast to C's dtype once, at the end.

Bytes/flops model: 2*M*N*K flops over (M*K + K*N + M*N) * itemsize bytes. For 4096^3
fp16 that is 137 GFLOP over 100 MB: ~1365 flop/byte, far above an H100's ridge point
(~990 TFLOP/s dense fp16 / 3.35 TB/s ~ 295 flop/byte), so the kernel is compute-bound and
the metric is TFLOP/s. The tiles themselves are re-read from L2: with a plain row-major
launch order, programs running together share one row of A but touch N/BLOCK_N different
tiles of B. The grouped ("super-grouping") order below launches GROUP_M rows of tiles
column by column, so the programs in flight reuse both A rows and B columns from L2.

Autotuned on the GPU over H100-friendly tiles (128x256x64 with 8 warps and 3 stages is
usually the winner at 4096^3); in Triton's interpreter a single small config is used so
the CPU checks stay quick. float32 inputs go through tl.dot's default TF32 path on the
GPU (like torch with allow_tf32), hence the drill's looser float32 tolerance.

Skinny A (M <= 64: a decode step's GEMM, e.g. 16 x 8192 x 8192). One row of tiles gives
only N / BLOCK_N programs, each walking all of K: at 1 x 4096 x 4096 that is 32-64 programs
for 132 SMs, and the autotuned kernel above took 38 us where cuBLAS takes 15 (H200,
bench/results/launch_tuning.md). The time here is reading B (M is tiny), so what matters is
bytes in flight: `matmul_skinny_kernel` uses BLOCK_M 16-64 (tl.dot's smallest is 16; the
extra rows wrap onto real ones and are never stored), deep K tiles, and when N alone gives
fewer programs than SMs it splits K too (split-K): each program sums one slice of K into a
float32 partial, and a second small kernel adds the slices in a fixed order (deterministic,
no atomics) and rounds once to C's dtype.

Products of M*N*K >= 2^30 on Hopper (sm_90, fp16/bf16) take `matmul_tma_kernel`: the same
tiles, moved by the Tensor Memory Accelerator. A host-built tensor descriptor (shape, strides,
tile shape) tells the TMA unit where each tile lives; one thread issues the copy of a whole
tile into shared memory and the tile arrives in the layout wgmma reads, with out-of-bounds rows
and columns filled with zeros (no masks, no address arithmetic in the loop). The kernel is
persistent: one program per SM walks the tiles in the grouped order. On an H200 at 4096^3 this
took 181 us where the pointer-tile kernel took 193 and cuBLAS 180 (bench/matmul_host.py,
bench/results/launch_tuning.md). At 1024^3 the winner is a different tile: cuBLAS runs one 128
x 64 tile per SM with 8 K steps in flight (Nsight Compute, call 39), where the pointer kernel's
autotuner had picked 128 x 128 tiles, 64 programs for 132 SMs. 64 x 128 tiles with 128-deep K
steps (128 programs, 4 stages) took 1024^3 from 10.3 to 9.0 us (cuBLAS 8.2) with L2 flushed,
and to cuBLAS's 5.2-5.4 us under CUDA-graph replay. Below 2^34 the kernel runs the tile
measured fastest near that size, not the autotuner's pick (see TMA_TUNED_MNK). TMA needs
16-byte aligned rows, so the path is taken only when A is row-major, B is row-major or the
transpose of a row-major weight ([N, K] read as tiles of B^T), and row strides are multiples of
8 elements; everything else takes the pointer-tile kernel.
"""

import os

import torch
import triton
import triton.language as tl

try:     # host-built TMA descriptors (Triton 3.4+); without them every product takes the pointer kernel
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:
    TensorDescriptor = None

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def _configs():
    if INTERPRET:
        return [triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4},
                              num_warps=4, num_stages=1)]
    cfg = lambda bm, bn, bk, g, w, s: triton.Config(  # noqa: E731
        {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g}, num_warps=w, num_stages=s)
    return [
        cfg(128, 256, 64, 8, 8, 3),
        cfg(256, 128, 64, 8, 8, 3),
        cfg(128, 128, 64, 8, 8, 4),
        cfg(128, 128, 64, 8, 4, 4),
        cfg(128, 64, 64, 8, 4, 4),
        cfg(64, 128, 64, 8, 4, 4),
        cfg(64, 64, 64, 8, 4, 5),
        cfg(32, 64, 32, 8, 2, 5),
    ]


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, UPCAST: tl.constexpr):
    # Grouped launch order: program ids walk down GROUP_M tile-rows before moving right.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # Rows/cols past the edge wrap around (% M, % N): every load stays in bounds without a
    # mask on the M/N edges, and only the store is masked.
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K          # the K tail is masked with zeros (0 * x adds nothing)
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        if UPCAST:  # Triton's CPU interpreter mis-multiplies bfloat16 dots; never on a GPU
            a, b = a.to(tl.float32), b.to(tl.float32)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def matmul_skinny_kernel(a_ptr, b_ptr, out_ptr, M, N, K, K_PER_SPLIT,
                         stride_am, stride_ak, stride_bk, stride_bn, stride_om, stride_on, stride_os,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         UPCAST: tl.constexpr):
    """Program (n tile, m tile, split): the product over K[split * K_PER_SPLIT, ...) of one
    tile, stored at out + split * stride_os (C itself when there is one split, else the
    float32 partials)."""
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    split = tl.program_id(2)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    k0 = split * K_PER_SPLIT
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + (k0 + offs_k)[None, :] * stride_ak
    b_ptrs = b_ptr + (k0 + offs_k)[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    k_end = tl.minimum(k0 + K_PER_SPLIT, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k0, k_end, BLOCK_K):
        k_left = k_end - k
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        if UPCAST:
            a, b = a.to(tl.float32), b.to(tl.float32)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    out_ptrs = out_ptr + split * stride_os + offs_cm[:, None] * stride_om + offs_cn[None, :] * stride_on
    tl.store(out_ptrs, acc.to(out_ptr.dtype.element_ty), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def split_sum_kernel(part_ptr, c_ptr, N, MN, stride_cm, stride_cn, SPLITS: tl.constexpr, BLOCK: tl.constexpr):
    """C = the sum of the SPLITS float32 partials (each M x N, contiguous), in split order."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in tl.static_range(SPLITS):
        acc += tl.load(part_ptr + s * MN + offs, mask=mask, other=0.0)
    tl.store(c_ptr + (offs // N) * stride_cm + (offs % N) * stride_cn, acc.to(c_ptr.dtype.element_ty), mask=mask)


def _tma_config(bm, bn, bk, warps, stages):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}, num_warps=warps,
                         num_stages=stages, pre_hook=_tma_block_shapes)


def _tma_configs():
    return [
        _tma_config(128, 256, 64, 8, 3),     # the fastest measured at 4096^3 and 8192^3 (H200)
        _tma_config(256, 128, 64, 8, 3),
        _tma_config(128, 128, 64, 8, 4),
        _tma_config(128, 128, 128, 8, 3),
        _tma_config(128, 128, 64, 4, 4),
        _tma_config(64, 128, 64, 4, 4),
        _tma_config(128, 64, 64, 4, 4),
    ]


def _tma_block_shapes(nargs):
    """Autotune pre-hook: give each descriptor the tile shape of the config about to run."""
    bm, bn, bk = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["BLOCK_K"]
    nargs["a_desc"].block_shape = [bm, bk]
    nargs["b_desc"].block_shape = [bn, bk] if nargs["B_T"] else [bk, bn]
    nargs["c_desc"].block_shape = [bm, bn]


@triton.autotune(configs=_tma_configs(), key=["M", "N", "K", "B_T", "DTYPE"])
@triton.jit
def matmul_tma_kernel(a_desc, b_desc, c_desc, M, N, K, B_T: tl.constexpr, DTYPE: tl.constexpr,
                      NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """Persistent: program p computes tiles p, p + NUM_SMS, ... in the grouped order. With B_T,
    b_desc describes the [N, K] weight whose transpose is B and its tiles are transposed in
    registers. DTYPE only keys the autotuner (fp16 and bf16 tune apart)."""
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):       # the K tail arrives zero-filled
            a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
            if B_T:
                b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K]).T
            else:
                b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))   # edges clipped


# Below 2^34 a fixed tile, not the autotuner: there a call's time under do_bench (the autotuner's
# timer) is mostly the host's launch, and call 41's autotuner picked a tile that took bf16 1024^3
# to 16.6 us (fp16's pick: 8.9); at 2048^3 the app's bench saw 28.9-30.7 us where peers.py had
# 28.3-29.2 (call 43). The tiles measured fastest on the H200: at 1024^3, 64 x 128 with 128-deep
# K steps, 4 warps, 4 stages (call 40); at 2048^3, persistent 128 x 256, 8 warps, 3 stages (call
# 34). The switch between them (2^32) lies between the two measured sizes.
TMA_SMALL_MNK = 2 ** 32
TMA_TUNED_MNK = 2 ** 34
matmul_tma_small_kernel = triton.autotune(configs=[_tma_config(64, 128, 128, 4, 4)], key=[])(matmul_tma_kernel.fn)
matmul_tma_mid_kernel = triton.autotune(configs=[_tma_config(128, 256, 64, 8, 3)], key=[])(matmul_tma_kernel.fn)
TMA_MIN_MNK = 2 ** 30         # 1024^3, the smallest product measured (H200: faster there and from 4096^3 up)
_DEVICES: dict[int, tuple[tuple[int, int], int]] = {}


def _device_facts(device) -> tuple[tuple[int, int], int]:
    """(compute capability, SM count), asked once per device."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _DEVICES:
        props = torch.cuda.get_device_properties(index)
        _DEVICES[index] = ((props.major, props.minor), props.multi_processor_count)
    return _DEVICES[index]


def tma_layout(a: torch.Tensor, b: torch.Tensor, capability: tuple[int, int]) -> str | None:
    """"kn" (B row-major) or "nk" (B the transpose of a row-major [N, K]) when the TMA kernel
    takes this product, else None. TMA reads rows that start on 16-byte boundaries: base
    pointers and row strides (in bytes) must be multiples of 16, the last stride 1. C is
    allocated here, row-major [M, N], so N must be a multiple of 8 too."""
    M, K = a.shape
    N = b.shape[1]
    if (INTERPRET or TensorDescriptor is None or capability[0] != 9 or a.dtype not in (torch.float16, torch.bfloat16)
            or M <= SKINNY_M or M * N * K < TMA_MIN_MNK or N % 8):
        return None
    item = a.element_size()
    if a.stride(1) != 1 or (a.stride(0) * item) % 16 or a.data_ptr() % 16 or b.data_ptr() % 16:
        return None
    if b.stride(1) == 1 and (b.stride(0) * item) % 16 == 0:
        return "kn"
    if b.stride(0) == 1 and (b.stride(1) * item) % 16 == 0:
        return "nk"
    return None


def _matmul_tma(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, layout: str, sms: int) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    # block shapes are placeholders here: the autotune pre-hook sets each config's
    a_desc = TensorDescriptor(a, [M, K], [a.stride(0), 1], [16, 16])
    if layout == "nk":
        b_desc = TensorDescriptor(b, [N, K], [b.stride(1), 1], [16, 16])
    else:
        b_desc = TensorDescriptor(b, [K, N], [b.stride(0), 1], [16, 16])
    c_desc = TensorDescriptor(c, [M, N], [N, 1], [16, 16])
    grid = lambda meta: (min(sms, triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"])),)  # noqa: E731
    mnk = M * N * K
    kernel = (matmul_tma_small_kernel if mnk < TMA_SMALL_MNK else matmul_tma_mid_kernel if mnk < TMA_TUNED_MNK
              else matmul_tma_kernel)
    kernel[grid](a_desc, b_desc, c_desc, M, N, K, layout == "nk", str(a.dtype).split(".")[-1], sms)
    return c


SKINNY_M = 64                 # at most this many rows: the skinny path
SMEM_BUDGET = 200 * 1024      # bytes of shared memory the pipeline's stages may take (H100/H200: 227 KB)


def _sm_count(device) -> int:
    if INTERPRET or device.type != "cuda":
        return 132
    return _device_facts(device)[1]


def skinny_launch(M: int, N: int, K: int, itemsize: int, sms: int) -> tuple[int, int, int, int, int]:
    """(BLOCK_M, BLOCK_N, BLOCK_K, splits, num_stages) for a skinny A, from the H200 sweep in
    bench/results/launch_tuning.md: 64-wide N tiles and 256-deep K tiles when N alone fills the
    SMs; else 128-wide N tiles, K split until about one program per SM (at most 8 slices,
    each at least 4 K tiles deep)."""
    if INTERPRET:
        return 16, 32, 32, (2 if K >= 64 else 1), 1
    block_m = max(16, triton.next_power_of_2(M))
    if triton.cdiv(N, 64) * triton.cdiv(M, block_m) >= 0.9 * sms:
        block_n, block_k, splits = 64, (256 if block_m == 16 and itemsize <= 2 else 128), 1
    else:
        block_n, block_k = 128, 128
        programs = triton.cdiv(N, block_n) * triton.cdiv(M, block_m)
        splits = 1
        while splits < 8 and programs * splits * 2 <= sms and K // (splits * 2) >= 4 * block_k:
            splits *= 2
    stage_bytes = (block_m * block_k + block_k * block_n) * itemsize
    stages = max(2, min(4, SMEM_BUDGET // stage_bytes))
    return block_m, block_n, block_k, splits, stages


def _matmul_skinny(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    block_m, block_n, block_k, splits, stages = skinny_launch(M, N, K, a.element_size(), _sm_count(a.device))
    k_per_split = triton.cdiv(triton.cdiv(K, splits), block_k) * block_k
    splits = triton.cdiv(K, k_per_split)          # no empty slice
    grid = (triton.cdiv(N, block_n), triton.cdiv(M, block_m), splits)
    upcast = INTERPRET and a.dtype == torch.bfloat16
    if splits == 1:
        out, so, sm, sn = c, 0, c.stride(0), c.stride(1)
    else:
        out = torch.empty((splits, M, N), dtype=torch.float32, device=a.device)
        so, sm, sn = M * N, N, 1
    matmul_skinny_kernel[grid](a, b, out, M, N, K, k_per_split, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), sm, sn, so, BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k,
                               UPCAST=upcast, num_warps=4, num_stages=stages)
    if splits > 1:
        split_sum_kernel[(triton.cdiv(M * N, 1024),)](out, c, N, M * N, c.stride(0), c.stride(1),
                                                      SPLITS=splits, BLOCK=1024, num_warps=4)
    return c


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """C = a @ b for 2-D a [M, K], b [K, N] of one dtype; any strides; returns C [M, N]."""
    assert a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0], "shape mismatch"
    assert a.dtype == b.dtype, "a and b must share a dtype"
    M, K = a.shape
    N = b.shape[1]
    # Offsets are 32-bit: fine below 2**31 elements per operand (4096^3 is 16.7M each).
    assert max(a.numel(), b.numel(), M * N) < 2**31
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    if M <= SKINNY_M:
        return _matmul_skinny(a, b, c)
    if M * N * K >= TMA_MIN_MNK and a.device.type == "cuda" and not INTERPRET:
        capability, sms = _device_facts(a.device)
        layout = tma_layout(a, b, capability)
        if layout is not None:
            return _matmul_tma(a, b, c, layout, sms)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), UPCAST=INTERPRET and a.dtype == torch.bfloat16)
    return c


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/matmul/solution.py
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(matmul(a, b), a @ b, atol=1e-1, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: matmul(a, b))
    print(f"{2 * 4096**3 / ms * 1e-9:.0f} TFLOP/s")
