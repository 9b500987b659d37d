"""The launch rules of reference solutions that were tuned on a GPU (#21).

Each rule came from bench/launch_tuning.py on an H200 (bench/results/launch_tuning.md). These
check, without a GPU, that the rules still pick the launches that were measured fastest, and
that every launch they can pick is one the hardware can run (tile sizes, warps, shared memory).
"""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _solution(drill: str, monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)      # the GPU rules, not the interpreter's
    spec = importlib.util.spec_from_file_location(f"_rules_{drill}", KERNELS / drill / "solution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_matmul_skinny_launch(monkeypatch):
    mm = _solution("matmul", monkeypatch)
    assert not mm.INTERPRET
    # measured fastest on the H200 (132 SMs): N alone fills the SMs -> no split, deep K tiles
    assert mm.skinny_launch(16, 8192, 8192, 2, 132) == (16, 64, 256, 1, 4)
    # few N tiles -> K split until about one program per SM
    assert mm.skinny_launch(1, 4096, 4096, 2, 132) == (16, 128, 128, 4, 4)
    assert mm.skinny_launch(64, 8192, 8192, 2, 132) == (64, 64, 128, 1, 4)   # within 2% of the best
    for M, N, K, itemsize in itertools.product((1, 7, 16, 33, 64), (1, 70, 4096, 8192, 28672),
                                               (1, 127, 4096, 16384), (2, 4)):
        bm, bn, bk, splits, stages = mm.skinny_launch(M, N, K, itemsize, 132)
        assert bm >= 16 and bm >= min(M, 64) and bn in (64, 128) and bk in (128, 256)
        assert 1 <= splits <= 8 and (splits == 1 or K // splits >= 4 * bk)
        assert 2 <= stages <= 4
        assert stages * (bm * bk + bk * bn) * itemsize <= mm.SMEM_BUDGET or stages == 2, (M, N, K, itemsize)


def test_swiglu_launch_shape(monkeypatch):
    sw = _solution("swiglu", monkeypatch)
    # 4096 outputs over 16 warps at the large shapes (the fastest, or within 1%)
    assert sw.launch_shape(4096, 4096) == (1, 4096, 16)
    assert sw.launch_shape(16384, 1024) == (4, 1024, 16)
    assert sw.launch_shape(16384, 4096) == (1, 4096, 16)
    for M, H in itertools.product((1, 3, 16, 128, 1024, 16384), (1, 100, 512, 4096, 14336, 65536)):
        bm, bn, warps = sw.launch_shape(M, H)
        assert bm * bn <= sw.ELEMS_PER_PROGRAM and 4 <= warps <= 16
        assert bm * bn >= 32 * warps or warps == 4          # no idle threads beyond the minimum


def test_bias_gelu_launch_shape(monkeypatch):
    bg = _solution("bias_gelu", monkeypatch)
    # decode sizes spread over the SMs (two 8K-element programs were the slow case)
    assert bg.launch_shape(16, 1024, 2) == (1, 128, 1)
    assert bg.launch_shape(128, 2048, 2) == (1, 512, 4)
    assert bg.launch_shape(4096, 8192, 2) == (8, 1024, 8)       # large inputs unchanged
    assert bg.launch_shape(4096, 4096, 4) == (1, 1024, 4)       # float32 on the H200 (call 78)
    # contiguous float32 of 2^24+ values: the flat kernel, 1024 values on 8 warps (call 80)
    assert bg.FLAT_MIN == {4: 1 << 24} and bg.FLAT_LAUNCH == {4: (1024, 8)}
    ptx = _ptx_sm90(bg.bias_gelu_flat_kernel, {"x_ptr": "*fp32", "b_ptr": "*fp32", "y_ptr": "*fp32", "total": "i32"},
                    {"N": 4096, "BLOCK": 1024, "EVEN": True, "WIDE": False, "FAST": True}, 8)
    assert "rcp.approx.ftz.f32" in ptx and "ex2.approx.ftz.f32" in ptx
    for M, N, itemsize in itertools.product((1, 5, 16, 128, 4096), (1, 300, 1024, 8192), (2, 4)):
        bm, bn, warps = bg.launch_shape(M, N, itemsize)
        programs = -(-M // bm) * -(-N // bn)
        assert 1 <= warps <= 8 and (warps == 1 or bm * bn >= 4 * 32 * warps)   # 4+ elements a thread
        assert programs >= bg.MIN_PROGRAMS or (bm == 1 and bn <= 128)         # else it shrinks further


def test_row_sum_launch_config(monkeypatch):
    rs = _solution("row_sum", monkeypatch)
    assert rs.launch_config(16, 8192) == (1, 4096, 16)
    assert rs.launch_config(4096, 4096) == (1, 2048, 8)
    assert rs.launch_config(256, 131072) == (1, 8192, 32)
    assert rs.launch_config(1024, 32768) == (1, 2048, 8)
    # many rows of 2048-4095 (calls 27 and 29): two at a time in 1024-column chunks
    assert rs.launch_config(16384, 2048) == (2, 1024, 8)
    assert rs.launch_config(1024, 3000) == (2, 1024, 8)
    assert rs.launch_config(4096, 16384) == (1, 2048, 8)
    for M, N in itertools.product((1, 7, 263, 264, 4096), (1, 100, 2047, 2048, 3000, 8192, 131072)):
        bm, bn, warps = rs.launch_config(M, N)
        assert warps in (4, 8, 16, 32) and (bm * bn >= 4 * 32 * warps or bm * bn < 4096)
        if N < 2048:
            assert bn == 1 << (N - 1).bit_length()               # short rows: the whole row
        else:
            assert 1024 <= bn and bm * bn <= 8192                 # long rows: walked in chunks


def test_residual_rmsnorm_launch_config(monkeypatch):
    rr = _solution("residual_rmsnorm", monkeypatch)
    # decode batches: one row a program on 16 warps (call 60: 4 warps were 0.77x Liger in fp16)
    assert rr.launch_config(1, 4096, 2) == (1, 4096, 16)
    assert rr.launch_config(32, 4096, 2) == (1, 4096, 16)
    assert rr.launch_config(256, 8192, 2) == (1, 8192, 16)
    # prefill sizes keep the tuned table (every variant within noise of it in call 60)
    assert rr.launch_config(4096, 4096, 2) == (1, 4096, 4)
    assert rr.launch_config(8192, 8192, 2) == (1, 8192, 8)
    for M, N, itemsize in itertools.product((1, 7, 256, 257, 4096), (1, 100, 1024, 4096, 5120, 16384), (2, 4)):
        bm, bn, warps = rr.launch_config(M, N, itemsize)
        assert bn == 1 << (N - 1).bit_length() and 1 <= bm <= 16 and warps in (4, 8, 16)
        assert bm * bn >= 32 * warps or bn < 1024                # no idle threads on a long row


def test_flash_attention_tiles(monkeypatch):
    fa = _solution("flash_attention", monkeypatch)
    configs = fa._configs()
    keys = lambda kept: {(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.num_warps, c.num_stages)  # noqa: E731
                         for c in kept}
    # the tiles that were fastest on the H200 with the FMA scores (call 15) stay on offer
    assert {(128, 64, 8, 3), (128, 64, 8, 4)} <= keys(configs)
    for head_dim in (16, 32, 64, 128, 256):
        kept = fa._prune(configs, {}, HEAD_DIM=head_dim)
        assert kept and (128, 64, 8, 3) in keys(kept)
        # a 128-row tile on 4 warps spilled its 128 x 128 float32 accumulator at head_dim 128
        # (4.1x slower); below that it is a fair candidate
        assert ((128, 64, 4, 3) in keys(kept)) == (head_dim < 128), head_dim



class _OnGpu:
    """A CPU tensor that answers the questions hopper_tile asks as if it lived on cuda:0."""

    def __init__(self, t):
        import torch

        self.t, self.is_cuda, self.device = t, True, torch.device("cuda", 0)
        self.dtype, self.shape = t.dtype, t.shape

    def stride(self, dim=None):
        return self.t.stride() if dim is None else self.t.stride(dim)

    def element_size(self):
        return self.t.element_size()

    def data_ptr(self):
        return 4096            # 16-byte aligned, as a CUDA allocation is


def test_flash_attention_hopper_dispatch(monkeypatch):
    """Which inputs go to the Gluon Hopper kernels, and at which tile (calls 47-49 on the H200)."""
    import pytest
    import torch

    fa = _solution("flash_attention", monkeypatch)
    if fa.gluon is None:
        pytest.skip("this Triton has no Gluon")
    monkeypatch.setattr(fa, "_capability", lambda index: (9, 0))
    bf = lambda *shape, dtype=torch.bfloat16: _OnGpu(torch.empty(*shape, dtype=dtype))  # noqa: E731
    q = bf(2, 4, 1000, 128)
    assert fa.hopper_tile(q, q, q, False) == fa.hopper_tile(q, q, q, True) == (128, 128, 2, 0, 2)
    q = bf(2, 4, 4096, 64, dtype=torch.float16)
    assert fa.hopper_tile(q, q, q, False) == (192, 128, 3, 0, 3)       # three consumer groups
    assert fa.hopper_tile(q, q, q, True) == (64, 64, 4, 4, 0)          # one partition, 64-row tile
    for S in (1000, 1024):   # short sequences: the last 192-row tile of a head would be mostly empty
        q = bf(2, 4, S, 64)
        assert fa.hopper_tile(q, q, q, False) == fa.hopper_tile(q, q, q, True) == (64, 64, 4, 4, 0), S
    q = bf(2, 4, 1025, 64)
    assert fa.hopper_tile(q, q, q, False) == (192, 128, 3, 0, 3)
    # packed q/k/v (views of one [B, S, 3, H, D] buffer): strided rows, still TMA-addressable
    buf = torch.empty(2, 2048, 3, 4, 64, dtype=torch.bfloat16)
    q, k, v = (_OnGpu(buf[:, :, i].transpose(1, 2)) for i in range(3))
    assert fa.hopper_tile(q, k, v, False) == (192, 128, 3, 0, 3)
    # not for them: other head_dims, float32, rows TMA cannot address, other GPUs, the interpreter
    for D in (16, 32, 256):
        q = bf(1, 2, 64, D)
        assert fa.hopper_tile(q, q, q, False) is None, D
    q = bf(1, 2, 64, 64, dtype=torch.float32)
    assert fa.hopper_tile(q, q, q, False) is None
    odd = _OnGpu(torch.empty(1, 2, 64, 65, dtype=torch.bfloat16)[..., :64])   # 130-byte rows
    assert fa.hopper_tile(odd, odd, odd, False) is None
    q = bf(1, 2, 64, 64)
    for capability in ((8, 0), (10, 0), (12, 0)):
        monkeypatch.setattr(fa, "_capability", lambda index, c=capability: c)
        assert fa.hopper_tile(q, q, q, False) is None, capability
    monkeypatch.setattr(fa, "_capability", lambda index: (9, 0))
    assert fa.hopper_tile(torch.empty(1, 2, 64, 64, dtype=torch.bfloat16), *[q] * 2, False) is None  # CPU
    monkeypatch.setattr(fa, "INTERPRET", True)
    assert fa.hopper_tile(q, q, q, False) is None


def test_flash_attention_hopper_kernels_compile_for_sm90(monkeypatch):
    """Every Hopper tile compiles for sm_90: TMA copies and wgmma in the PTX, setmaxnreg in the
    warp-specialised kernel, within an H100/H200's 227 KB of shared memory."""
    import pytest

    fa = _solution("flash_attention", monkeypatch)
    if fa.gluon is None:
        pytest.skip("this Triton has no Gluon")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    assert set(fa.HOPPER_TILES) == {(128, False), (128, True), (64, False), (64, True)}
    for (D, causal), (bm, bn, stages, warps, groups) in fa.HOPPER_TILES.items():
        def desc(rows):
            return f"tensordesc<bf16[1, 1, {rows}, {D}],{fa._box_layout(rows, D, False)!r}>"

        q_rows = 64 if groups else bm
        signature = {"q_desc": desc(q_rows), "k_desc": desc(bn), "v_desc": desc(bn), "o_desc": desc(q_rows),
                     "qk_scale": "fp32", "H": "i32", "S": "i32"}
        constexprs = {"HEAD_DIM": D, "BLOCK_M": bm, "BLOCK_N": bn, "STAGES": stages, "CAUSAL": causal}
        if groups:
            kernel, options = fa.attn_fwd_hopper_ws_kernel, {"num_warps": 4, "maxnreg": 168 if groups == 2 else 128}
            constexprs.update(CONSUMERS=groups, CONSUMER_REGS=240 if groups == 2 else 160, LOADER_REGS=24)
        else:
            kernel, options = fa.attn_fwd_hopper_kernel, {"num_warps": warps}
            constexprs["num_warps"] = warps
        signature.update({name: "constexpr" for name in constexprs})
        compiled = triton.compile(GluonASTSource(kernel, signature, constexprs), target=GPUTarget("cuda", 90, 32),
                                  options=options)
        ptx = compiled.asm["ptx"]
        assert "cp.async.bulk.tensor" in ptx and "wgmma.mma_async" in ptx, (D, causal)
        assert ("setmaxnreg" in ptx) == bool(groups), (D, causal)
        assert compiled.metadata.shared <= 227 * 1024, (D, causal, compiled.metadata.shared)

def test_row_kernels_short_rows(monkeypatch):
    import torch

    # softmax, rmsnorm and layernorm share the launch table; rows of 512 two-byte values were
    # fastest as 2 rows on 1 warp on the H200 (bench/long_rows_tuning.py --short-rows, call 19)
    for drill in ("softmax", "rmsnorm", "layernorm"):
        sol = _solution(drill, monkeypatch)
        assert sol.launch_config(torch.empty(16384, 512, dtype=torch.bfloat16)) == (2, 512, 1), drill
        # rows of 8192 two-byte values: softmax on 16 warps since call 30, the norms on 8
        assert sol.launch_config(torch.empty(16384, 8192, dtype=torch.float16)) == \
            (1, 8192, 16 if drill == "softmax" else 8), drill
        for M, N, dtype in itertools.product((1, 100, 128, 129, 4096, 16384), (256, 512, 1000, 4096, 32768),
                                             (torch.bfloat16, torch.float32)):
            block_m, block_n, warps = sol.launch_config(torch.empty(M, N, dtype=dtype))
            assert block_n >= N and block_m >= 1 and warps in (1, 2, 4, 8, 16, 32), (drill, M, N, dtype)
            assert block_m * block_n // (32 * warps) <= 256, (drill, M, N, dtype)   # values a thread


def test_layernorm_few_rows(monkeypatch):
    import torch

    ln = _solution("layernorm", monkeypatch)
    launch = lambda M, N: ln.launch_config(torch.empty(M, N, dtype=torch.bfloat16))  # noqa: E731
    # weight and bias loaded first, 8 warps for rows of 4096-8192, 16 for 16384 (call 21)
    assert launch(1, 4096) == (1, 4096, 8)
    assert launch(16, 8192) == (1, 8192, 8)
    assert launch(128, 16384) == (1, 16384, 16)
    assert launch(1, 32768) == (1, 32768, 32)        # whole rows of 32768: unchanged
    assert launch(1, 2048) == (1, 2048, 8)           # below 4096: block_n / 256 warps
    assert launch(4096, 4096) == (1, 4096, 8)        # many rows: the table (8 warps since call 30)


def test_matmul_tma_layout(monkeypatch):
    import torch

    mm = _solution("matmul", monkeypatch)
    hopper = (9, 0)

    def a_b(M, N, K, dtype=torch.bfloat16, b_layout="kn", a_pad=0):
        a = torch.empty(M, K + a_pad, dtype=dtype)[:, :K]
        b = torch.empty(N, K, dtype=dtype).t() if b_layout == "nk" else torch.empty(K, N, dtype=dtype)
        return a, b

    assert mm.tma_layout(*a_b(4096, 4096, 4096), hopper) == "kn"
    assert mm.tma_layout(*a_b(2056, 8200, 1032, torch.float16, "nk"), hopper) == "nk"
    assert mm.tma_layout(*a_b(4104, 4096, 1029, a_pad=3), hopper) == "kn"      # row stride 1032: aligned
    assert mm.tma_layout(*a_b(1024, 1024, 1024), hopper) == "kn"              # where its deep tiles won
    assert mm.tma_layout(*a_b(1100, 1032, 1064, torch.float16), hopper) == "kn"
    # below 1024^3 (not measured), skinny, not Hopper, or fp32: not TMA
    assert mm.tma_layout(*a_b(1024, 1024, 1016), hopper) is None
    assert mm.tma_layout(*a_b(64, 65536, 8192), hopper) is None
    assert mm.tma_layout(*a_b(4096, 4096, 4096), (8, 0)) is None
    assert mm.tma_layout(*a_b(4096, 4096, 4096), (10, 0)) is None
    assert mm.tma_layout(*a_b(4096, 4096, 4096, torch.float32), hopper) is None
    # rows that do not start on 16-byte boundaries go to the pointer kernel
    assert mm.tma_layout(*a_b(4104, 4096, 1030, a_pad=3), hopper) is None      # A's row stride 1033
    assert mm.tma_layout(*a_b(4100, 4100, 1032), hopper) is None               # N % 8 (C's rows)
    assert mm.tma_layout(*a_b(4096, 4104, 1030, b_layout="nk"), hopper) is None  # B^T's row stride 1030
    a, b = a_b(4096, 4096, 4097)
    assert mm.tma_layout(a, b, hopper) is None                                 # A's row stride 4097
    base = torch.empty(4096 * 4096 + 1, dtype=torch.bfloat16)
    shifted = base[1:].view(4096, 4096)                                        # 2 bytes off alignment
    assert mm.tma_layout(shifted, a_b(4096, 4096, 4096)[1], hopper) is None
    assert mm.tma_layout(a_b(4096, 4096, 4096)[0], shifted, hopper) is None
    mm.TensorDescriptor = None                                                 # a Triton without TMA descriptors
    assert mm.tma_layout(*a_b(4096, 4096, 4096), hopper) is None


def test_matmul_tma_configs_compile_for_hopper(monkeypatch):
    """Every autotune config of the TMA kernel compiles for sm_90 in both layouts, moves its
    tiles with TMA, multiplies on wgmma, and fits in an H100/H200's 227 KB of shared memory."""
    import pytest

    triton = pytest.importorskip("triton")
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    mm = _solution("matmul", monkeypatch)
    kernel = mm.matmul_tma_kernel
    fixed = mm.matmul_tma_small_kernel.configs + mm.matmul_tma_mid_kernel.configs
    assert len(kernel.configs) >= 4 and len(fixed) == 2
    for b_t in (False, True):
        for cfg in kernel.configs + fixed:
            kw = cfg.kwargs
            bm, bn, bk = kw["BLOCK_M"], kw["BLOCK_N"], kw["BLOCK_K"]
            b_tile = f"{bn},{bk}" if b_t else f"{bk},{bn}"
            signature = {"a_desc": f"tensordesc<bf16[{bm},{bk}]>", "b_desc": f"tensordesc<bf16[{b_tile}]>",
                         "c_desc": f"tensordesc<bf16[{bm},{bn}]>", "M": "i32", "N": "i32", "K": "i32",
                         **{name: "constexpr" for name in ("B_T", "DTYPE", "NUM_SMS", *kw)}}
            src = ASTSource(fn=kernel.fn, signature=signature,
                            constexprs={"B_T": b_t, "DTYPE": "bfloat16", "NUM_SMS": 132, **kw})
            compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                                      options={"num_warps": cfg.num_warps, "num_stages": cfg.num_stages})
            ptx = compiled.asm["ptx"]
            assert "cp.async.bulk.tensor" in ptx and "wgmma" in ptx, (b_t, kw)
            assert compiled.metadata.shared <= 227 * 1024, (b_t, kw, compiled.metadata.shared)


def test_matmul_tma_autotunes_only_from_2_to_the_34(monkeypatch):
    """Below 2^34 the autotuner's timer (do_bench) mostly times the host's launch, and a noisy pick
    took bf16 1024^3 to 16.6 us on the H200: there the kernel runs the tile measured fastest."""
    import torch

    mm = _solution("matmul", monkeypatch)
    tiles = [(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"], c.num_warps, c.num_stages)
             for k in (mm.matmul_tma_small_kernel, mm.matmul_tma_mid_kernel) for c in k.configs]
    assert tiles == [(64, 128, 128, 4, 4), (128, 256, 64, 8, 3)]     # calls 40 and 34
    launched = []

    class Recorder:
        def __init__(self, name):
            self.name = name

        def __getitem__(self, grid):
            def run(a_desc, b_desc, c_desc, M, N, K, b_t, dtype, sms):
                launched.append((self.name, b_t, dtype, grid({"BLOCK_M": 64, "BLOCK_N": 128})))
            return run

    monkeypatch.setattr(mm, "matmul_tma_kernel", Recorder("tuned"))
    monkeypatch.setattr(mm, "matmul_tma_small_kernel", Recorder("1024^3 tile"))
    monkeypatch.setattr(mm, "matmul_tma_mid_kernel", Recorder("2048^3 tile"))
    for M, N, K, layout in ((1024, 1024, 1024, "kn"), (2048, 2048, 512, "nk"), (2048, 2048, 1024, "kn"),
                            (2048, 2048, 2048, "kn"), (4096, 4096, 1024, "kn"), (4096, 4096, 4096, "nk")):
        a = torch.empty(M, K, dtype=torch.bfloat16)
        b = torch.empty(N, K, dtype=torch.bfloat16).t() if layout == "nk" else torch.empty(K, N, dtype=torch.bfloat16)
        mm._matmul_tma(a, b, torch.empty(M, N, dtype=torch.bfloat16), layout, 132)
    assert [entry[0] for entry in launched] == ["1024^3 tile", "1024^3 tile", "2048^3 tile", "2048^3 tile",
                                                "tuned", "tuned"]
    assert [entry[1] for entry in launched] == [False, True, False, False, False, True]
    assert launched[0][2] == "bfloat16"
    assert launched[0][3] == (128,) and launched[3][3] == (132,)      # a program per tile, at most one per SM


def _ptx_sm90(kernel, signature: dict, constexprs: dict, num_warps: int) -> str:
    """PTX of a Triton kernel compiled for sm_90 (no GPU needed: Triton carries ptxas)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    signature = {**signature, **{name: "constexpr" for name in constexprs}}
    return triton.compile(ASTSource(kernel, signature, constexprs=constexprs), target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": num_warps}).asm["ptx"]


def test_fp8_quant_gpu_cast(monkeypatch):
    """fp8_quant casts with the GPU's cvt on sm_89+ (call 65: the same values as its own rounding,
    209 -> 178 us at 8192 x 28672 bf16) and keeps its own rounding for CPU tensors (the
    interpreter): the compiled kernel loses the rounding's magic constant only with HW_CVT."""
    import torch

    fp8 = _solution("fp8_quant", monkeypatch)
    assert not fp8.hw_cast(torch.empty(2, 2, dtype=torch.bfloat16))
    signature = {"x_ptr": "*bf16", "q_ptr": "*fp8e4nv", "N": "i32", "stride_m": "i32", "stride_n": "i32"}
    for one_pass in (True, False):
        for hw in (True, False):
            ptx = _ptx_sm90(fp8.fp8_quant_kernel, signature,
                            {"ONE_PASS": one_pass, "BLOCK": 8192 if one_pass else fp8.TWO_PASS_BLOCK, "HW_CVT": hw,
                             "HINTS": True},
                            8 if one_pass else fp8.TWO_PASS_WARPS)
            assert "cvt.rn.satfinite.e4m3x2.f32" in ptx
            assert ("0f4B400000" in ptx) == (not hw), (one_pass, hw)      # 1.5 * 2^23, the rounding trick


class _Launches:
    """Stands in for a Triton kernel: records the grid and keyword arguments of each launch."""

    def __init__(self):
        self.calls = []

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.calls.append((grid, kwargs))


def test_fp8_quant_float32_long_rows_take_32_warps_without_hints(monkeypatch):
    """Float32 rows past 16384 values: 8192-value chunks on 32 warps, no eviction hints (call 86:
    8192 x 28672 392.7 -> 308.4 us; torch.compile 329.5); two-byte rows keep 4096 on 16 with the
    hints, and the hints are in the PTX only when asked for."""
    import torch

    fp8 = _solution("fp8_quant", monkeypatch)
    assert fp8.TWO_PASS == {2: (4096, 16, True), 4: (8192, 32, False)}
    launches = _Launches()
    monkeypatch.setattr(fp8, "fp8_quant_kernel", launches)
    for dtype, want in ((torch.float32, (8192, 32, False)), (torch.bfloat16, (4096, 16, True)),
                        (torch.float16, (4096, 16, True))):
        fp8.fp8_quant(torch.empty(3, 20000, dtype=dtype))
        grid, kw = launches.calls[-1]
        assert grid == (3,) and not kw["ONE_PASS"] and (kw["BLOCK"], kw["num_warps"], kw["HINTS"]) == want, dtype
    fp8.fp8_quant(torch.empty(3, 16384, dtype=torch.float32))          # one pass: the row in registers
    assert launches.calls[-1][1]["ONE_PASS"] and launches.calls[-1][1]["BLOCK"] == 16384
    monkeypatch.undo()
    fp8 = _solution("fp8_quant", monkeypatch)
    signature = {"x_ptr": "*fp32", "q_ptr": "*fp8e4nv", "N": "i32", "stride_m": "i32", "stride_n": "i32"}
    for hints in (True, False):
        ptx = _ptx_sm90(fp8.fp8_quant_kernel, signature,
                        {"ONE_PASS": False, "BLOCK": 8192, "HW_CVT": True, "HINTS": hints}, 32)
        assert ("evict_last" in ptx and "evict_first" in ptx) == hints, hints


def test_layernorm_backward_float32_rows_of_8192_stay_whole(monkeypatch):
    """Float32 rows of 4097-8192 columns: whole rows on 16 warps, pipelined 3 deep, one program an
    SM (call 86: 8192 x 5120 199.8 -> 125.4 us; Liger-Kernel 166.3); longer float32 rows chunked."""
    lnb = _solution("layernorm_backward", monkeypatch)
    cfg = lnb.launch_config(8192, 5120, 132, 4)
    assert (cfg.chunked, cfg.block_m, cfg.block_n, cfg.num_warps, cfg.stages, cfg.programs_per_sm) == \
        (False, 1, 8192, 16, 3, 1)
    assert cfg.maxnreg() == 128
    assert lnb.launch_config(8192, 5120, 132, 2) == cfg                    # bf16 took it first (call 56)
    assert lnb.launch_config(4096, 12288, 132, 4).chunked
    assert not lnb.launch_config(4096, 4096, 132, 4).chunked


def test_histogram_large_inputs_take_bigger_steps_and_more_programs(monkeypatch):
    """From 2^23 values and up to 256 bins: 8192 values a step, 8 warps, 8 programs an SM (call 86:
    float32 2^27 619.8 -> 449.3 us, torch's histc 574.9); below, or with more bins, 2048 / 8 / 4."""
    import torch

    hist = _solution("histogram", monkeypatch)
    assert hist.launch(1 << 23, 256) == hist.LARGE_LAUNCH == (8192, 8, 8)
    assert hist.launch(1 << 27, 7) == (8192, 8, 8)
    assert hist.launch((1 << 23) - 1, 256) == hist.launch(1 << 24, 257) == (2048, 8, 4)
    launches = _Launches()
    monkeypatch.setattr(hist, "histogram_kernel", launches)
    monkeypatch.setattr(hist.torch.cuda, "get_device_properties", lambda device: type("P", (), {"multi_processor_count": 132}))
    assert hist.num_programs(1 << 24, torch.device("cuda"), 8192, 8) == 132 * 8
    assert hist.num_programs(1 << 16, torch.device("cuda"), 8192, 8) == 8         # fewer steps than programs
    hist.histogram(torch.empty(1 << 23), 256)                                      # a CPU tensor: 8 programs
    grid, kw = launches.calls[-1]
    assert grid == (8,) and kw["BLOCK"] == 8192 and kw["num_warps"] == 8 and kw["NUM_BINS"] == 256


def test_vector_add_launch_by_element_size(monkeypatch):
    """Float32: 1024 elements a program on 4 warps (call 86: 5.1 -> 4.3 us at 4096 elements, 48.6 ->
    47.2 at 2^24); two-byte elements 4096 on 8: two 16-byte vectors a thread and operand either way."""
    import torch

    va = _solution("vector_add", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(va, "add_kernel", launches)
    for dtype, (block, warps) in ((torch.float32, (1024, 4)), (torch.float16, (4096, 8)), (torch.bfloat16, (4096, 8))):
        x = torch.empty(1 << 20, dtype=dtype)
        va.add(x, x)
        grid, kw = launches.calls[-1]
        assert grid == ((1 << 20) // block,) and (kw["BLOCK"], kw["num_warps"]) == (block, warps), dtype
        assert block * x.element_size() // (32 * warps) == 32            # bytes a thread and operand


def test_fused_adamw_and_transpose_launches(monkeypatch):
    """fused_adamw: 1024 parameters a program on 4 warps (call 88: within 1% of the fastest of 17
    at 2^20-2^26 in float32 and bf16; 2^26 float32 452.2 -> 440.9 us). transpose: 64 x 64 tiles,
    float32 on 8 warps, two-byte on 4 (call 88: float32 1024 x 1024 6.7 -> 6.3 us)."""
    import torch

    adamw = _solution("fused_adamw", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(adamw, "adamw_kernel", launches)
    p = torch.empty(5000)
    adamw.fused_adamw(p, torch.empty(5000, dtype=torch.bfloat16), p, p, 3, 1e-3, 0.9, 0.999, 1e-8, 0.01)
    grid, kw = launches.calls[-1]
    assert grid == (5,) and (kw["BLOCK"], kw["num_warps"]) == (1024, 4)
    tr = _solution("transpose", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(tr, "transpose_kernel", launches)
    for dtype, warps in ((torch.float32, 8), (torch.bfloat16, 4), (torch.float16, 4)):
        tr.transpose(torch.empty(100, 130, dtype=dtype))
        grid, kw = launches.calls[-1]
        assert grid == (2, 3) and (kw["BLOCK_M"], kw["BLOCK_N"], kw["num_warps"]) == (64, 64, warps), dtype


def test_causal_conv1d_takes_the_vector_kernel_where_rows_run_along_l(monkeypatch):
    """x contiguous along L (padded rows too) and K <= 5: the vectorised kernel, 2 x 1024 on 4 warps
    (call 90: bf16 8 x 4096 x 8192 418.4 -> 291.8 us); channels-last x or K > 5: the shifted-load
    kernel. Compiled for sm_90 with aligned rows, the vectorised kernel loads x as vectors, in under
    half the load instructions of the other (whose K - 1 shifted taps load an element at a time)."""
    import re

    import torch

    cc = _solution("causal_conv1d", monkeypatch)
    assert cc.VEC_TILE == (2, 1024, 4) and cc.vec_launch(4096, 8192) == (2, 1024, 4)
    assert cc.vec_launch(4, 127) == (4, 128, 1) and cc.vec_launch(64, 100) == (16, 128, 4)
    vec, shifted = _Launches(), _Launches()
    monkeypatch.setattr(cc, "causal_conv1d_vec_kernel", vec)
    monkeypatch.setattr(cc, "causal_conv1d_kernel", shifted)
    w4, w7, b = torch.empty(64, 4), torch.empty(64, 7), torch.empty(64)
    cc.causal_conv1d(torch.empty(2, 64, 3000), w4, b, True)
    assert vec.calls[-1][0] == (3, 32, 2) and vec.calls[-1][1]["BLOCK_L"] == 1024
    cc.causal_conv1d(torch.empty(2, 64, 3003)[:, :, :3000], w4, b, True)           # padded rows
    assert len(vec.calls) == 2
    cc.causal_conv1d(torch.empty(2, 3000, 64).transpose(1, 2), w4, b, True)        # channels last
    cc.causal_conv1d(torch.empty(2, 64, 3000), w7, b, True)                        # K = 7
    assert len(vec.calls) == 2 and len(shifted.calls) == 2
    monkeypatch.undo()
    cc = _solution("causal_conv1d", monkeypatch)
    base = {"x_ptr": "*bf16", "w_ptr": "*bf16", "b_ptr": "*bf16", "y_ptr": "*bf16", "D": "i32", "L": "i32",
            "stride_xb": "i32", "stride_xd": "i32"}
    ce = {"K": 4, "ACTIVATION": True, "BLOCK_D": 2, "BLOCK_L": 1024}
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import triton

    def ptx(kernel, signature, aligned, **more):
        constexprs = {**ce, **more}
        signature = {**signature, **{name: "constexpr" for name in constexprs}}
        attrs = {(i,): [["tt.divisibility", 16]] for i in aligned}
        return triton.compile(ASTSource(kernel, signature, constexprs=constexprs, attrs=attrs),
                              target=GPUTarget("cuda", 90, 32), options={"num_warps": 4}).asm["ptx"]

    v = ptx(cc.causal_conv1d_vec_kernel, {**base, "stride_wd": "i32", "stride_wk": "i32", "stride_b": "i32"},
            (0, 1, 2, 3, 5, 6, 7))
    old = ptx(cc.causal_conv1d_kernel, {**base, "stride_xl": "constexpr", "stride_wd": "i32", "stride_wk": "i32",
                                         "stride_b": "i32"}, (0, 1, 2, 3, 5, 6, 7), stride_xl=1)
    loads = lambda text: len(re.findall(r"ld\.global", text))  # noqa: E731
    assert re.search(r"ld\.global[^\n]*\.v[24]", v) and 2 * loads(v) < loads(old), (loads(v), loads(old))


def test_swiglu_flat_kernel_fast_math(monkeypatch):
    """swiglu's flat kernel (2^23+ outputs) takes 2048 outputs a program on 4 warps and, compiled
    for a GPU, exp2 and the reciprocal as ex2.approx.ftz / rcp.approx.ftz (call 67: fp16 16384 x 8192
    200.6 -> 183.9 us); without FAST the reciprocal is a division."""
    sw = _solution("swiglu", monkeypatch)
    assert (sw.FLAT_MIN_OUTPUTS, sw.FLAT_BLOCK, sw.FLAT_WARPS) == (1 << 23, 2048, 4)
    assert sw.FLAT_LAUNCH[4] == (1024, 8)           # float32: 16 bytes a thread too (call 78)
    signature = {"gu_ptr": "*fp16", "y_ptr": "*fp16", "total": "i32"}
    for fast in (True, False):
        ptx = _ptx_sm90(sw.swiglu_flat_kernel, signature,
                        {"H": 8192, "BLOCK": 2048, "EVEN": True, "WIDE": False, "FAST": fast}, 4)
        assert ("rcp.approx.ftz.f32" in ptx) == fast and ("div." in ptx) == (not fast), fast


def test_layernorm_backward_separate_passes(monkeypatch):
    """Two-byte rows of more than 8192 columns take the separate dx and dweight / dbias kernels
    (call 68: 4096 x 12288 bf16 157.6 -> 142.9 us); float32 rows and shorter rows do not. The
    dweight / dbias kernel unrolls its row loop 4 times (call 74: 60 -> 56 us alone; 4096 x 12288
    bf16 135.8 us whole against torch.compile's 137.3): its compiled loop holds four tiles' loads."""
    lnb = _solution("layernorm_backward", monkeypatch)
    assert lnb.separate_passes(12288, 2) and lnb.separate_passes(8193, 2) and lnb.separate_passes(65536, 2)
    assert not lnb.separate_passes(8192, 2) and not lnb.separate_passes(5120, 2)
    assert not lnb.separate_passes(12288, 4)
    assert lnb.SEPARATE_DX == (4096, 8) and lnb.SEPARATE_COLS == (64, 64, 16, 1, 0, 4)
    chunk, warps = lnb.SEPARATE_DX
    ptx = _ptx_sm90(lnb.ln_bwd_dx_kernel, {"dy_ptr": "*bf16", "x_ptr": "*bf16", "w_ptr": "*bf16", "mean_ptr": "*fp32",
                                            "rstd_ptr": "*fp32", "out_ptr": "*bf16", "stride_dym": "i32",
                                            "stride_dyn": "i32", "stride_xm": "i32", "stride_xn": "i32",
                                            "stride_w": "i32"},
                    {"N": 12288, "BLOCK_N": chunk, "WIDE": False}, warps)
    assert "ld.global" in ptx
    block_c, block_r, warps, bands, stages, unroll = lnb.SEPARATE_COLS
    signature = {"dy_ptr": "*bf16", "x_ptr": "*bf16", "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "dw_row": "*bf16",
                 "pdw_ptr": "*fp32", "pdb_ptr": "*fp32", "M": "i32", "rows_per_split": "i32", "stride_dym": "i32",
                 "stride_dyn": "i32", "stride_xm": "i32", "stride_xn": "i32"}

    def loads(**flags) -> tuple[int, int]:
        """(dy and x loads, masked loads) in the kernel's PTX."""
        ptx = _ptx_sm90(lnb.ln_bwd_dwdb_kernel, signature,
                        {"N": 12288, "BLOCK_C": block_c, "BLOCK_R": block_r, "PARTIALS": False, "EVEN": True,
                         "WIDE": False, "STAGES": stages, "UNROLL": unroll, **flags}, warps)
        lines = [line for line in ptx.splitlines() if "ld.global" in line]
        return sum("evict_first" in line for line in lines), sum(line.lstrip().startswith("@%p") for line in lines)

    assert loads()[0] >= 3 * loads(UNROLL=1)[0] > 0
    assert loads()[1] == 0 < loads(EVEN=False)[1]          # EVEN: no load is masked


def test_layernorm_backward_dwdb_flags():
    """dwdb_pass works out the kernel's EVEN (no masks: whole tiles of rows and columns) and splits
    rows into bands with float32 partials when asked; each form against the float64 reference under
    Triton's interpreter, in a child (the interpreter must be set before Triton is imported)."""
    import subprocess
    import sys

    code = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("lnb", "kernels/layernorm_backward/solution.py")
lnb = importlib.util.module_from_spec(spec); spec.loader.exec_module(lnb)
spec2 = importlib.util.spec_from_file_location("lnbs", "kernels/layernorm_backward/spec.py")
ref = importlib.util.module_from_spec(spec2); spec2.loader.exec_module(ref)
for shape, cols in (([8, 64], (16, 4, 4, 1, 0, 4)), ([10, 70], (16, 4, 4, 3, 0, 2)), ([12, 64], (16, 2, 4, 3, 2, 1))):
    case = {"name": "t", "shape": shape, "dtype": "float32", "fill": "randn", "layout": "contiguous"}
    inputs = ref.make_inputs(case, torch.Generator().manual_seed(0), torch.device("cpu"))
    want = ref.reference(*inputs)
    got = lnb.run_separate(*inputs, dx=(32, 4), cols=cols)
    err = float((got.double() - want).abs().max())
    print(shape, cols, err)
    assert err < 1e-4, (shape, cols, err)
"""
    env = {**__import__("os").environ, "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=KERNELS.parent, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_norms_float32_launches(monkeypatch):
    """float32 rows of 4096-8192 (call 70): rmsnorm takes its two-pass kernel for many rows
    (16384 x 4096 129.6 -> 125.5 us), layernorm's fused kernel runs rows of 4096 on 16 warps
    (132.7 -> 128.9); two-byte rows keep their launches."""
    import torch

    rms = _solution("rmsnorm", monkeypatch)
    assert rms.TWO_PASS[(4096, 4)] == (2048, 16) and rms.TWO_PASS[(8192, 4)] == (4096, 16)
    assert rms.TWO_PASS[(4096, 2)] == (2048, 8) and (16384, 4) not in rms.TWO_PASS
    ln = _solution("layernorm", monkeypatch)
    assert ln.launch_config(torch.empty(4096, 4096)) == (1, 4096, 16)
    assert ln.launch_config(torch.empty(16384, 4096, dtype=torch.bfloat16)) == (1, 4096, 8)
    # layernorm's float32 rows of 4096 (from 8192 rows) and 8192 (from 1024 rows) take the two-pass
    # kernel on Inductor's launch (calls 73-74: 16384 x 4096 129.1 -> 126.0 us, 1024 x 8192 21.3 -> 19.9)
    assert ln.two_pass_launch(16384, 4096, 4) == ln.two_pass_launch(8192, 4096, 4) == (2048, 16)
    assert ln.two_pass_launch(4096, 4096, 4) is None and ln.two_pass_launch(16384, 4096, 2) is None
    assert ln.two_pass_launch(1024, 8192, 4) == ln.two_pass_launch(4096, 5000, 4) == (2048, 16)
    assert ln.two_pass_launch(512, 8192, 4) is None and ln.two_pass_launch(4096, 16384, 2) == (2048, 16)


def test_prefix_sum_many_long_rows_chunk_by_element_size(monkeypatch):
    """Many rows past 4096 values: the carry loop takes 1024-wide chunks on 4 warps for 2-byte rows
    and 8192-wide on 8 for float32 (call 92, 4096 x 16384: bf16 75.1 -> 71.7 us, fp32 143.7 -> 139.2)."""
    import torch

    ps = _solution("prefix_sum", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(ps, "scan_carry_kernel", launches)
    for dtype, want in ((torch.bfloat16, (1024, 4)), (torch.float16, (1024, 4)), (torch.float32, (8192, 8))):
        ps.prefix_sum(torch.empty(ps.MANY_ROWS, 5000, dtype=dtype))
        grid, kw = launches.calls[-1]
        assert grid == (ps.MANY_ROWS,) and (kw["BLOCK_N"], kw["num_warps"]) == want, dtype


def test_dropout_packed_rows_launch(monkeypatch):
    """The packed-rows kernel on 4 warps: 1024-element blocks for float32, 4096 for 2-byte x
    (calls 92-93, H200: float32 65536 x 4096 524.0 -> 505.0 us, bf16 305.3 -> 295.6, from 4096
    on 8 warps); small inputs one block of their size."""
    import torch

    dr = _solution("dropout", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(dr, "dropout_1d_kernel", launches)
    for dtype, n, want in ((torch.bfloat16, 1 << 20, (4096, 4)), (torch.float16, 1 << 20, (4096, 4)),
                           (torch.float32, 1 << 20, (1024, 4)), (torch.bfloat16, 2000, (2048, 4)),
                           (torch.float32, 3, (4, 4))):
        dr.dropout(torch.empty(1, n, dtype=dtype), 0.1, 7)
        grid, kw = launches.calls[-1]
        assert (kw["BLOCK"], kw["num_warps"]) == want and grid == ((n + want[0] - 1) // want[0],), (dtype, n)


@pytest.mark.parametrize("drill", ["flash_decoding", "paged_attention_decode"])
def test_decode_attention_float32_dots_are_tf32(drill, monkeypatch):
    """float32 decode attention takes TF32 dot products (call 92: IEEE float32 ran at 26-30% of copy
    bandwidth, TF32 about 3x faster); other dtypes pass tf32 too, which they ignore; flash_decoding
    plans float32 for 2 programs an SM, not 4."""
    import torch

    sol = _solution(drill, monkeypatch)
    assert sol.FP32_DOT == "tf32"
    kernel = "split_kv_kernel" if drill == "flash_decoding" else "paged_decode_kernel"
    launches = _Launches()
    monkeypatch.setattr(sol, kernel, launches)
    monkeypatch.setattr(sol, "_sm_count", lambda device: 132)
    B, Hq, Hkv, D, L = 1, 32, 8, 128, 32768
    splits = {}
    for dtype in (torch.float32, torch.bfloat16):
        q = torch.empty(B, Hq, D, dtype=dtype, device="meta")
        lens = torch.empty(B, dtype=torch.int32, device="meta")
        if drill == "flash_decoding":
            cache = torch.empty(B, L, Hkv, D, dtype=dtype, device="meta")
            monkeypatch.setattr(sol, "combine_kernel", _Launches())
            sol.flash_decoding(q, cache, cache, lens)
        else:
            cache = torch.empty(L // 16 * B, 16, Hkv, D, dtype=dtype, device="meta")
            table = torch.empty(B, L // 16, dtype=torch.int32, device="meta")
            monkeypatch.setattr(sol, "merge_splits_kernel", _Launches())
            sol.paged_attention_decode(q, cache, cache, table, lens)
        grid, kw = launches.calls[-1]
        assert kw["DOT_PRECISION"] == "tf32", dtype
        splits[dtype] = grid[1]
    if drill == "flash_decoding":
        assert splits[torch.float32] == sol.plan_splits(B * Hkv, L, 132, 2)[1] == 32
        assert splits[torch.bfloat16] == sol.plan_splits(B * Hkv, L, 132)[1] == 64
    else:
        assert splits[torch.float32] == splits[torch.bfloat16]


def test_prefix_sum_few_long_rows_float32_take_the_look_back_scan(monkeypatch):
    """Few long float32 rows: one look-back launch, 4096-wide chunks on 4 warps, a window of 16, on a
    zeroed state of a word a chunk plus the ticket (calls 94-95: 64 x 262144 54.7 -> 46.0 us); 2-byte
    rows keep reduce-then-scan's three launches; many rows the carry loop."""
    import torch

    ps = _solution("prefix_sum", monkeypatch)
    launches = {name: _Launches() for name in ("lookback_scan_kernel", "chunk_sums_kernel", "scan_carry_kernel",
                                               "scan_chunks_kernel")}
    for name, stand_in in launches.items():
        monkeypatch.setattr(ps, name, stand_in)
    ps.prefix_sum(torch.empty(4, 3 * 4096 + 1))
    (grid, kw), = launches["lookback_scan_kernel"].calls
    assert grid == (16,) and (kw["BLOCK_N"], kw["num_warps"], kw["WINDOW"]) == (4096, 4, 16)
    assert not any(launches[n].calls for n in ("chunk_sums_kernel", "scan_carry_kernel", "scan_chunks_kernel"))
    ps.prefix_sum(torch.empty(4, 3 * 4096 + 1, dtype=torch.bfloat16))
    assert len(launches["chunk_sums_kernel"].calls) == len(launches["scan_chunks_kernel"].calls) == 1
    assert len(launches["lookback_scan_kernel"].calls) == 1


@pytest.mark.parametrize("window", [1, 16])
def test_prefix_sum_look_back_compiles_to_ordered_64_bit_atomics(window, monkeypatch):
    """The look-back scan compiled for sm_90: a 64-bit atomic ticket, the flag+value words published with
    release exchanges and read back with acquire semantics (without that ordering a program could read a
    flag before the value it guards). Under the interpreter programs run one after another, so only the
    compiled code shows this."""
    ps = _solution("prefix_sum", monkeypatch)
    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "state_ptr": "*i64", "N": "i32", "n_chunks": "i32",
                 "total_chunks": "i32", "stride_xm": "i32", "stride_xn": "i32", "stride_ym": "i32"}
    ptx = _ptx_sm90(ps.lookback_scan_kernel, signature, {"BLOCK_N": 4096, "WINDOW": window}, 4)
    assert "atom.global.gpu.acq_rel.add.u64" in ptx, "no 64-bit atomic ticket"
    assert ptx.count("atom.global.gpu.release.exch.b64") == 2, "the two publications are not release-ordered"
    assert "gpu.acquire.add.u64" in ptx or "gpu.acquire.b64" in ptx, "the look-back does not read with acquire"


def test_int8_wo_decode_dequantizes_fast_in_fp16_only(monkeypatch):
    """The split-K decode kernel dequantizes by integer ops for fp16 x and by a conversion for bf16
    (call 97, H200: bf16 1 x 28672 x 8192 111.3 -> 92.7 us with the conversion; fp16 faster with the
    integer ops); an explicit decode table still decides."""
    import torch

    i8 = _solution("int8_wo_matmul", monkeypatch)
    launches = _Launches()
    monkeypatch.setattr(i8, "int8_wo_splitk_kernel", launches)
    w = torch.empty(256, 512, dtype=torch.int8)
    for dtype, fast in ((torch.float16, True), (torch.bfloat16, False), (torch.float32, False)):
        i8.int8_wo_matmul(torch.empty(4, 256, dtype=dtype), w, torch.empty(512, dtype=dtype))
        assert launches.calls[-1][1]["FAST"] is fast, dtype
    i8.int8_wo_matmul(torch.empty(4, 256, dtype=torch.bfloat16), w, torch.empty(512, dtype=torch.bfloat16),
                      decode_table={"FAST": True})
    assert launches.calls[-1][1]["FAST"] is True
