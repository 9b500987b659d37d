"""Reference solution: the backward of an embedding lookup, in Triton (sort, then segments).

    grad_weight[v, :] = sum of grad_out[i, :] over every i with idx[i] == v   (float32)

Bytes model: read idx (8 N bytes) and grad_out (N D itemsize) once, write all of
grad_weight (4 V D bytes), zero rows included. At real sizes the write dominates: Llama-3's
128256 x 4096 table is 2.1 GB of float32 against 64 MB of bf16 grads for 8192 tokens, so
the kernel is as fast as it writes, and the one thing not to do is write the table twice.

The two classic approaches:

- **Atomic scatter-add**: zero grad_weight (a full memset), then one program per block
  of tokens adds each grad_out row into row idx[i] with `tl.atomic_add`. No sort; but the
  table is written twice (memset, then read-modify-write of the touched rows in L2), the
  float32 sums come out in a different order on every run, and a hot id (every padding
  token, BOS, "the") makes thousands of atomics queue on the same D addresses.
- **Sort, then segmented reduction** (this file): sort the ids once (N int64: tiny next to
  the N x D grads), so the tokens of each vocabulary row form one contiguous segment of
  the sorted order. Then every output row is owned by exactly one program, which sums its
  segment in registers and stores the row once: no atomics, no memset (an empty segment
  stores zeros), deterministic.

What makes it fast:

1. `torch.sort(idx)` gives the sorted ids and `order` (where each came from), and one
   `torch.searchsorted` of 0..V gives `bounds`: row v's tokens are sorted positions
   bounds[v] .. bounds[v+1]. The grads are never permuted in memory: the kernels gather
   grad_out[order[j]] rows directly (each row slice is contiguous: 16-byte loads).
2. `_rows_kernel`, grid (V / BLOCK_V, D / BLOCK_D): one program per tile of BLOCK_V rows
   by BLOCK_D columns, 4096 float32 = 16 KB of stores (1024 columns x 4 rows at D = 4096).
   Step k gathers the k-th token of every row of the tile at once (a [BLOCK_V, BLOCK_D]
   tile, rows whose segment is shorter masked off) and adds it in float32; the tile is
   stored once. Most rows of a big vocabulary are empty: a tile of them loads its bounds,
   runs no step and stores zeros, which is the memset, fused into the same write.
3. Long segments are split. `_rows_kernel` sums at most CHUNK = 32 tokens of a row; the
   rest of a long segment (the hot id: up to all N tokens) would otherwise serialise on
   one program while the GPU idles. `_extra_kernel` runs after it over the sorted
   positions in chunks of CHUNK. Only the segment holding a chunk's first position can
   have surplus (rank >= CHUNK within its segment) inside the chunk, since a segment that
   starts later has its surplus past the chunk's end; so three scalar loads find the
   range, and a program sums it in registers (SUB = 8 gathered rows per
   load) and adds that partial to the row with one relaxed float32 `tl.atomic_add` per
   column. So a hot id costs N / CHUNK atomics per column instead of N, and only long
   segments take the atomic path (their sum is then order-dependent in the last bits;
   every other row is deterministic). Stream order puts the atomics after the stores,
   so no zeroing is needed.

Under Triton's interpreter (CPU) the row tiles are taller (32 rows), a chunk's surplus is
summed in one step and 4 programs share the chunks: the interpreter pays per program and
per executed operation, not per byte.

Offsets into grad_weight are int64: V * D passes 2^31 at 256000 x 8192.
"""

import torch
import triton
import triton.language as tl

CHUNK = 32          # the most tokens of one row _rows_kernel sums; the rest go to _extra_kernel
SUB = 8             # gathered rows loaded at once by _extra_kernel
TILE = 4096         # float32 elements of grad_weight per program (16 KB stores)


@triton.jit
def _rows_kernel(out_ptr, g_ptr, order_ptr, bounds_ptr, V, D, stride_gn, stride_gd,
                 CHUNK: tl.constexpr, BLOCK_V: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_V + tl.arange(0, BLOCK_V)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    row_mask = rows < V
    col_mask = cols < D
    lo = tl.load(bounds_ptr + rows, mask=row_mask, other=0)
    hi = tl.load(bounds_ptr + rows + 1, mask=row_mask, other=0)
    count = tl.minimum(hi - lo, CHUNK)                 # the first CHUNK tokens of each row
    first = order_ptr + lo
    col_off = cols[None, :] * stride_gd
    col_mask2 = col_mask[None, :]
    acc = tl.zeros([BLOCK_V, BLOCK_D], dtype=tl.float32)
    for k in range(0, tl.max(count, axis=0)):          # 0 trips for a tile of empty rows
        live = k < count
        src = tl.load(first + k, mask=live, other=0)
        # The 2-D mask is built at full shape: broadcasting live[:, None] into it made
        # Triton 3.6 fail to compile this load for some tiles (RemoveLayoutConversions:
        # "mask type matches ptr type", e.g. 64 x 64 float32, 32 x 128 fp16).
        live2 = ((tl.zeros([BLOCK_V, BLOCK_D], dtype=tl.int32) + k) < count[:, None]) & col_mask2
        tile = tl.load(g_ptr + (src * stride_gn)[:, None] + col_off, mask=live2, other=0.0)
        acc += tile.to(tl.float32)
    tl.store(out_ptr + rows[:, None].to(tl.int64) * D + cols[None, :], acc,
             mask=row_mask[:, None] & col_mask[None, :])


@triton.jit
def _extra_kernel(out_ptr, g_ptr, sorted_ptr, order_ptr, bounds_ptr, N, D, stride_gn,
                  stride_gd, num_programs, CHUNK: tl.constexpr, SUB: tl.constexpr,
                  BLOCK_D: tl.constexpr):
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    col_mask = cols < D
    col_off = cols[None, :] * stride_gd
    col_mask2 = col_mask[None, :]
    for a in range(tl.program_id(0) * CHUNK, N, num_programs * CHUNK):
        # Chunk a .. a + CHUNK of the sorted positions. A segment that starts inside it
        # has its surplus (positions from its start + CHUNK on) past the chunk's end, so
        # the only surplus here is that of the segment holding position a.
        row = tl.load(sorted_ptr + a)
        lo = tl.maximum(tl.load(bounds_ptr + row) + CHUNK, a)
        hi = tl.minimum(tl.load(bounds_ptr + row + 1), a + CHUNK)
        if lo < hi:
            acc = tl.zeros([BLOCK_D], dtype=tl.float32)
            for j0 in range(lo, hi, SUB):
                j = j0 + tl.arange(0, SUB)
                live = j < hi
                src = tl.load(order_ptr + j, mask=live, other=0)
                tile = tl.load(g_ptr + (src * stride_gn)[:, None] + col_off,
                               mask=live[:, None] & col_mask2, other=0.0)
                acc += tl.sum(tile.to(tl.float32), axis=0)
            tl.atomic_add(out_ptr + row * D + cols, acc, mask=col_mask, sem="relaxed")


def _block_d(d: int) -> int:
    """Columns per program: a power of two up to 1024 that wastes few masked lanes."""
    for block in (1024, 512, 256):
        if d % block == 0:
            return block
    return min(1024, triton.next_power_of_2(d))


def embedding_backward(idx: torch.Tensor, grad_out: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """float32 (V, D) grad_weight: row v is the sum of the grad_out rows whose id is v."""
    assert idx.ndim == 1 and grad_out.ndim == 2 and idx.shape[0] == grad_out.shape[0]
    n, d = grad_out.shape
    out = torch.empty((vocab_size, d), dtype=torch.float32, device=grad_out.device)
    sorted_ids, order = torch.sort(idx.contiguous())
    order = order.contiguous()
    bounds = torch.searchsorted(sorted_ids, torch.arange(vocab_size + 1, device=idx.device))
    block_d = _block_d(d)
    if grad_out.device.type == "cuda":
        block_v, sub, max_programs = max(1, TILE // block_d), SUB, 1 << 30
    else:                   # Triton's interpreter: few, wide programs (it pays per operation)
        block_v, sub, max_programs = 32, CHUNK, 4
    d_blocks = triton.cdiv(d, block_d)
    _rows_kernel[(triton.cdiv(vocab_size, block_v), d_blocks)](
        out, grad_out, order, bounds, vocab_size, d, grad_out.stride(0), grad_out.stride(1),
        CHUNK=CHUNK, BLOCK_V=block_v, BLOCK_D=block_d, num_warps=4)
    if n > CHUNK:           # no segment can be longer than CHUNK otherwise
        programs = min(triton.cdiv(n, CHUNK), max_programs)
        _extra_kernel[(programs, d_blocks)](
            out, grad_out, sorted_ids, order, bounds, n, d, grad_out.stride(0),
            grad_out.stride(1), programs, CHUNK=CHUNK, SUB=sub, BLOCK_D=block_d, num_warps=4)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    for n, vocab, dim in ((8192, 32000, 4096), (8192, 128256, 4096), (32768, 128256, 4096)):
        idx = torch.randint(0, vocab, (n,), device="cuda")
        idx[: n // 2] = 7                                   # a hot id
        g = torch.randn(n, dim, device="cuda", dtype=torch.bfloat16)
        ref = torch.ops.aten.embedding_dense_backward(g.float(), idx, vocab, -1, False)
        torch.testing.assert_close(embedding_backward(idx, g, vocab), ref, atol=2e-2, rtol=1e-4)
        ms = triton.testing.do_bench(lambda: embedding_backward(idx, g, vocab))
        ms_ref = triton.testing.do_bench(
            lambda: torch.ops.aten.embedding_dense_backward(g.float(), idx, vocab, -1, False))
        nbytes = 8 * n + 2 * n * dim + 4 * vocab * dim
        print(n, vocab, dim, f"{nbytes / ms * 1e-6:.0f} GB/s, torch {nbytes / ms_ref * 1e-6:.0f} GB/s")
