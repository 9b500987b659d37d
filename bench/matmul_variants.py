"""Matmul written with TMA tensor descriptors, tiled and persistent, for bench/launch_tuning.py (#21).

The matmul solution reaches 0.95-1.03x cuBLAS from 2048^3 up but 0.81x at 1024^3 (0.67x under
CUDA-graph replay, 8.0 against 5.4 us on the H200), and no fixed tile or split-K of its kernel
was more than 3% ahead there (call 24). Its loads are pointer tiles; Hopper's cuBLAS kernels move
tiles with TMA. These two kernels do the same product with host-built tensor descriptors
(triton.tools.tensor_descriptor.TensorDescriptor): `tma_matmul_kernel`, one output tile a
program in the grouped order, and `tma_persistent_kernel`, one program an SM walking the tiles
(Triton's 09-persistent-matmul tutorial's shape, without its Blackwell-only parts). Only a
measurement tool: contiguous A (M, K) and B (K, N), K a multiple of 8.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _tile(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    group = GROUP_M * num_pid_n
    first_m = (tile_id // group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    return first_m + (tile_id % group) % size_m, (tile_id % group) // size_m


@triton.jit
def tma_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def tma_persistent_kernel(a_desc, b_desc, c_desc, M, N, K, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    persistent_tiles(a_desc, b_desc, c_desc, M, N, K, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)


@triton.jit
def persistent_tiles(a_desc, b_desc, c_desc, M, N, K, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """This program's tiles (program_id, + NUM_SMS, ...) in the grouped order, through the
    descriptors (host-built here; device-built in bench/matmul_host.py)."""
    num_pid_m, num_pid_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile_id in range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        pid_m, pid_n = _tile(tile_id, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, k_tiles):
            a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
            b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


def _descriptors(a, b, c, bm, bn, bk):
    from triton.tools.tensor_descriptor import TensorDescriptor

    return (TensorDescriptor(a, list(a.shape), list(a.stride()), [bm, bk]),
            TensorDescriptor(b, list(b.shape), list(b.stride()), [bk, bn]),
            TensorDescriptor(c, list(c.shape), list(c.stride()), [bm, bn]))


def _alloc(size: int, alignment: int, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


def tma(bm, bn, bk, warps, stages, persistent=False):
    """fn(a, b) -> c through one of the kernels above at a fixed tile."""
    def run(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=a.dtype, device=a.device)
        descs = _descriptors(a, b, c, bm, bn, bk)
        tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
        if persistent:
            sms = torch.cuda.get_device_properties(a.device).multi_processor_count
            tma_persistent_kernel[(min(sms, tiles),)](*descs, M, N, K, NUM_SMS=min(sms, tiles), BLOCK_M=bm,
                                                      BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=warps,
                                                      num_stages=stages)
        else:
            tma_matmul_kernel[(tiles,)](*descs, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                                        num_warps=warps, num_stages=stages)
        return c
    return run


TILES = [(128, 128, 64, 8, 3), (128, 128, 64, 8, 4), (128, 64, 64, 4, 4), (64, 128, 64, 4, 4),
         (128, 256, 64, 8, 3), (128, 64, 128, 8, 3), (64, 64, 64, 4, 4)]
# Call 39 (Nsight Compute at 1024^3): cuBLAS runs 128 x 64 tiles (128 CTAs, one per SM) with an
# 8-deep pipeline of 64-wide K steps; the solution's autotuner had picked 128 x 128 (64 CTAs).
# Tiles that give every SM one and keep 6-8 K steps in flight (call 40):
DEEP_TILES = [(128, 64, 64, 4, 6), (128, 64, 64, 4, 8), (128, 64, 64, 8, 8), (64, 128, 64, 4, 6),
              (64, 128, 64, 4, 8), (64, 128, 64, 8, 8), (128, 64, 128, 4, 4), (64, 128, 128, 4, 4)]


def variants():
    triton.set_allocator(_alloc)        # device-side descriptors need scratch; host ones do not, harmless
    out = []
    for persistent in (False, True):
        for bm, bn, bk, warps, stages in TILES:
            out.append((f"tma{' persistent' if persistent else ''} bm={bm} bn={bn} bk={bk} w={warps} s={stages}",
                        tma(bm, bn, bk, warps, stages, persistent)))
    for bm, bn, bk, warps, stages in DEEP_TILES:
        out.append((f"tma deep bm={bm} bn={bn} bk={bk} w={warps} s={stages}", tma(bm, bn, bk, warps, stages)))
    return out
