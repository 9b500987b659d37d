"""The bytes and flops models of the catalogue drills, checked against hand computations.

Each drill's spec.py is imported from its path (kernels/ is not a package). One case per
drill, the arithmetic written out so a reader can check it on paper.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


def load_spec(drill_id: str):
    path = KERNELS / drill_id / "spec.py"
    spec = importlib.util.spec_from_file_location(f"_bytes_model_{drill_id}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# (drill, case, bytes by hand, flops by hand)
HAND = [
    # C[4096,4096] = A[4096,4096] @ B[4096,4096], fp16: three 32 MiB matrices, 2*4096^3 flops
    ("matmul", {"shape": [4096, 4096, 4096], "dtype": "float16"},
     3 * 4096 * 4096 * 2, 2 * 4096**3),
    # A [100, 300] read, B [300, 200] read, C [100, 200] written; bf16 = 2 bytes
    ("matmul", {"shape": [100, 200, 300], "dtype": "bfloat16"},
     (30000 + 60000 + 20000) * 2, 2 * 100 * 200 * 300),
    # 1000 x 3000 fp32 read and written: 2 * 3e6 * 4 = 24 MB, no flops
    ("transpose", {"shape": [1000, 3000], "dtype": "float32"}, 24_000_000, 0),
    # 4096 x 1024 fp16 read (8 MiB) + 4096 fp16 sums written (8 KiB); one add per element
    ("row_sum", {"shape": [4096, 1024], "dtype": "float16"},
     4096 * 1024 * 2 + 4096 * 2, 4096 * 1024),
    # x and y 8192 x 8192 bf16 (128 MiB each) + bias 8192 bf16; 8 flops per element
    ("bias_gelu", {"shape": [8192, 8192], "dtype": "bfloat16"},
     2 * 8192 * 8192 * 2 + 8192 * 2, 8 * 8192 * 8192),
    # 4096 x 128256 bf16 logits (1.05 GB) + 4096 int64 targets + 4096 fp32 losses
    ("cross_entropy", {"shape": [4096, 128256], "dtype": "bfloat16"},
     4096 * 128256 * 2 + 4096 * 8 + 4096 * 4, 4 * 4096 * 128256),
    # y, dy read and dx written: 3 * 4096 * 4096 * 4 bytes (fp32) = 192 MiB
    ("softmax_backward", {"shape": [4096, 4096], "dtype": "float32"},
     201_326_592, 4 * 4096 * 4096),
    # q [4, 4096, 32, 128] bf16 read + out written (2 * 128 MiB) + cos, sin [4096, 64] fp32
    ("rope", {"shape": [4, 4096, 32, 128], "dtype": "bfloat16"},
     2 * 4 * 4096 * 32 * 128 * 2 + 2 * 4096 * 64 * 4, 3 * 4 * 4096 * 32 * 128),
    # q, k, v, o [4, 32, 4096, 64] fp16: 4 * 64 MiB; flops 4 * B*H * S^2 * D
    ("flash_attention", {"shape": [4, 32, 4096, 64], "dtype": "float16"},
     4 * 4 * 32 * 4096 * 64 * 2, 4 * 4 * 32 * 4096 * 4096 * 64),
    # the same attention, causal (fifth entry 1): same bytes, half the flops
    ("flash_attention", {"shape": [4, 16, 4096, 128, 1], "dtype": "bfloat16"},
     4 * 4 * 16 * 4096 * 128 * 2, 2 * 4 * 16 * 4096 * 4096 * 128),
    # decode: x [1, 4096] fp16 (8 KiB) + W int8 [4096, 4096] (16 MiB) + scale [4096] fp16
    # + y [1, 4096] fp16
    ("int8_wo_matmul", {"shape": [1, 4096, 4096], "dtype": "float16"},
     4096 * 2 + 4096 * 4096 + 4096 * 2 + 4096 * 2, 2 * 4096 * 4096),
    # flash decoding, Llama-3-8B (Hq 32, Hkv 8, D 128) bf16, a 32K-slot cache holding
    # 32768 + 1 + 1000 + 4096 = 37865 tokens: their K and V rows (2 * 37865 * 8 * 128 * 2),
    # not the 93207 spare slots; q and out [4, 32, 128]; 4 int32 lengths;
    # flops 4 * Hq * D per (query head, token)
    ("flash_decoding", {"shape": [4, 32, 8, 128, 32768], "dtype": "bfloat16", "lens": [32768, 1, 1000, 4096]},
     2 * 37865 * 8 * 128 * 2 + 2 * 4 * 32 * 128 * 2 + 4 * 4, 4 * 32 * 128 * 37865),
]


@pytest.mark.parametrize("drill_id, case, nbytes, nflops", HAND,
                         ids=[f"{h[0]}-{'x'.join(map(str, h[1]['shape']))}" for h in HAND])
def test_bytes_and_flops_match_hand_computation(drill_id, case, nbytes, nflops):
    spec = load_spec(drill_id)
    case = {"name": "hand", "fill": "randn", "layout": "contiguous", **case}
    assert spec.bytes_moved(case) == nbytes
    assert spec.flops(case) == nflops


def test_every_catalogue_drill_has_a_hand_checked_model():
    assert {h[0] for h in HAND} == {
        "matmul", "transpose", "row_sum", "bias_gelu", "cross_entropy", "softmax_backward",
        "rope", "flash_attention", "int8_wo_matmul", "flash_decoding"}


@pytest.mark.parametrize("drill_id, case", [
    ("matmul", {"shape": [3, 5, 7], "dtype": "float16"}),
    ("int8_wo_matmul", {"shape": [3, 5, 7], "dtype": "bfloat16"}),
    ("flash_attention", {"shape": [1, 2, 5, 16, 1], "dtype": "float32"}),
    ("rope", {"shape": [1, 3, 2, 8], "dtype": "float16", "layout": "qkv_slice"}),
    ("flash_decoding", {"shape": [2, 4, 2, 16, 5], "dtype": "bfloat16"}),   # every slot in use
])
def test_inputs_match_the_model_sizes(drill_id, case):
    """The tensors make_inputs builds have the sizes the bytes model counts."""
    spec = load_spec(drill_id)
    case = {"name": "sizes", "fill": "randn", "layout": "contiguous", **case}
    inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), "cpu")
    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    out = spec.reference(*inputs)
    read = sum(t.numel() * t.element_size() for t in tensors)   # rope: table_len == seq here
    written = out.numel() * torch.empty((), dtype=tensors[0].dtype).element_size()
    assert spec.bytes_moved(case) == read + written
