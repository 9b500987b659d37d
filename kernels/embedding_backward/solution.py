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
- **Sort, then segmented reduction** (this file): sort the ids once (N ids: tiny next to
  the N x D grads), so the tokens of each vocabulary row form one contiguous segment of
  the sorted order. Then every output row is written by exactly one program, which sums
  its segment in registers and stores the row once: no memset (an empty row gets its
  zeros from the same kernel), no atomics on the data, a fixed order of addition.

How, in three launches (N <= 8192; above, torch.sort adds its own):

1. The sort. `_rank_kernel` (N <= RANK_MAX = 8192) sorts by counting: token i goes to
   sorted position rank(i) = #{j : (idx[j], j) < (idx[i], i)}, N^2 integer comparisons
   in [16, 512] register tiles (with int32 keys each adds the sign bit of a key
   difference: no compare and select), one launch instead of the several of a library
   radix sort; the order is stable, so every run orders every segment the same way.
   Above RANK_MAX the N^2 work grows too large and `torch.sort` of the ids as int32 takes
   over (stable=True, a radix sort: int32 keys need half the digit passes of int64 ones).
   Either way the grads are never permuted in memory: rows are gathered through `order`.
2. `_bounds_kernel`: bounds[v] = the first sorted position with id >= v, a vectorised
   binary search for each v = 0..V (row v's tokens are positions bounds[v] .. bounds[v+1]),
   and it zeroes the long rows' arrival counters used in step 3.
3. `_table_kernel`, one launch with three kinds of programs (by program id):
   - **zero programs**: tiles of TILE = 8192 float32 (32 KB: 8 rows x 1024 columns at
     D = 4096) that store zeros to the rows of the tile whose segment is empty (two
     int32 bounds per row, a masked store). This is the memset, fused, minus the touched
     rows: the part of the kernel that streams at write bandwidth;
   - **row programs**: one per sorted position and column block (1024 columns). Only the
     first position of a segment of at most CHUNK = 32 tokens works: it sums the segment
     with SUB = 8 gathered rows per load (independent loads, one accumulator, no masked
     serial loop) and stores the row once; every other position loads two ids and exits;
   - **long-row programs** (a segment longer than CHUNK: the hot id, up to all N tokens),
     launched first: the segment is cut at the windows of CHUNK sorted positions into a
     head piece (from its start to the end of its window) and tail pieces (one window
     each), each at most CHUNK tokens and its own program, which stores a float32 partial
     row to a workspace (2 ceil(N / CHUNK) rows of D). Then a CTA barrier and a
     `tl.atomic_add` (acq_rel, gpu scope) on the row's counter: the last piece to arrive
     sums the partials in a fixed order (head, then tails by window; `.cg` loads) and
     stores the row. So a hot id is spread over count / CHUNK programs and still adds up
     in the same order on every run: the whole table is deterministic.
   Row and zero programs are interleaved in proportion (of the T programs after the long
   ones, R are row programs: program k is one when floor((k+1) R / T) > floor(k R / T)),
   so the gathers' reads overlap the zero stores instead of forming a read phase and then
   a write phase.

Bytes: the table once (4 V D), grad_out once (N D itemsize), idx (8 N), and small int32
arrays (sorted ids, order, bounds: O(N + V)); long rows add their partials, 4 D bytes
written and read per piece (at most 2 ceil(N / CHUNK) pieces).

Under Triton's interpreter (CPU) the same kernels run with wider tiles: a piece is summed
in one step (SUB = CHUNK) and the rank tiles are [256, 1024]: the interpreter pays per
program and per executed operation, not per byte.

Offsets into grad_weight and the workspace are int64: V * D passes 2^31 at 256000 x 8192.

Measured on an H200 (bf16 grads, zipf ids, L2 flushed; bench/peers.py, call 57): 2.6-3.1x
eager torch (a sort-based kernel, deterministic too) at every bench size; against
torch.compile, which lowers the op to a memset plus atomic adds (the order of its float32
sums changes from run to run), 1.09-1.11x at 16384 x 32000 and 32768 x 128256 tokens x
vocabulary, 0.95-0.99x at 4096 x 32000 and 8192 x 128256, and 0.90x at 8192 x 50257 x 768,
where the table is small (154 MB) and the ~15 us of sort and bounds weigh most. The sort
itself: 5-9 us of GPU time for 4096-8192 ids here, against 26-47 us for torch.sort
(call 57); the whole call spends ~84 us of host time (Python and three launches, call 58),
which stock do_bench shows at the small sizes.
"""

import torch
import triton
import triton.language as tl

CHUNK = 32          # tokens per piece: the most tokens of one row a single program sums
TILE = 8192         # float32 elements of grad_weight per zero program (32 KB of stores)
GATHER = 8192       # elements per gathered [SUB, BD] tile: SUB = 8 rows of 1024 columns
RANK_MAX = 8192     # up to this many ids _rank_kernel sorts them; above, torch.sort
WARPS = 4           # warps per _table_kernel program


@triton.jit
def _rank_kernel(idx_ptr, stride_i, sorted_ptr, order_ptr, N, V,
                 BI: tl.constexpr, BJ: tl.constexpr, KEY32: tl.constexpr):
    # Token i goes to sorted position rank(i) = #{j : (idx[j], j) < (idx[i], i)}: a stable
    # sort by counting, O(N^2) comparisons in [BI, BJ] tiles.
    i = tl.program_id(0) * BI + tl.arange(0, BI)
    live_i = i < N
    ids_i = tl.load(idx_ptr + i.to(tl.int64) * stride_i, mask=live_i, other=0)
    key_i = ids_i * N + i
    if KEY32:
        key_i = key_i.to(tl.int32)
    jj = tl.arange(0, BJ)
    # Padding ids read as V: their keys sort after every real key, so they count for none.
    nxt = tl.load(idx_ptr + jj.to(tl.int64) * stride_i, mask=jj < N, other=V)
    below = tl.zeros([BI, BJ], dtype=tl.int32)
    for j0 in range(0, N, BJ):
        ids_j = nxt
        jn = j0 + BJ + jj
        nxt = tl.load(idx_ptr + jn.to(tl.int64) * stride_i, mask=jn < N, other=V)  # prefetch
        key_j = ids_j * N + (j0 + jj)
        if KEY32:
            # key_j - key_i < 0 exactly when key_j < key_i (keys are in [0, 2^31)): adding
            # the sign bit takes fewer instructions than a compare and a select.
            diff = key_j.to(tl.int32)[None, :] - key_i[:, None]
            below += (diff.to(tl.uint32, bitcast=True) >> 31).to(tl.int32, bitcast=True)
        else:
            below += (key_j[None, :] < key_i[:, None]).to(tl.int32)
    rank = tl.sum(below, axis=1)
    tl.store(sorted_ptr + rank, ids_i.to(tl.int32), mask=live_i)
    tl.store(order_ptr + rank, i, mask=live_i)


@triton.jit
def _bounds_kernel(sorted_ptr, bounds_ptr, count_ptr, N, V, n_count, steps, BLOCK: tl.constexpr):
    # bounds[v] = first sorted position whose id is >= v (v = 0..V), by binary search; and
    # the long-row counters of _table_kernel zeroed.
    v = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    lo = tl.zeros([BLOCK], dtype=tl.int32)
    hi = lo + N
    for _ in range(steps):
        live = lo < hi
        mid = (lo + hi) >> 1
        x = tl.load(sorted_ptr + mid, mask=live, other=0)
        below = x < v
        lo = tl.where(live & below, mid + 1, lo)
        hi = tl.where(live & (x >= v), mid, hi)
    tl.store(bounds_ptr + v, lo, mask=v <= V)
    tl.store(count_ptr + v, tl.zeros([BLOCK], dtype=tl.int32), mask=v < n_count)


@triton.jit
def _gather_sum(g_ptr, order_ptr, lo, hi, stride_gn, col_off, col_mask,
                SUB: tl.constexpr, BD: tl.constexpr):
    # float32 sum of the rows grad_out[order[p]] for sorted positions p in lo .. hi, SUB
    # gathered rows per load (independent rows, one sum).
    acc = tl.zeros([BD], dtype=tl.float32)
    for p0 in range(lo, hi, SUB):
        p = p0 + tl.arange(0, SUB)
        live = p < hi
        src = tl.load(order_ptr + p, mask=live, other=0).to(tl.int64)
        tile = tl.load(g_ptr + (src * stride_gn)[:, None] + col_off[None, :],
                       mask=live[:, None] & col_mask[None, :], other=0.0)
        acc += tl.sum(tile.to(tl.float32), axis=0)
    return acc


@triton.jit
def _finish_long(out_ptr, ws_ptr, count_ptr, row, s, e, cb, cols, col_mask, n_win, D, DB,
                 C: tl.constexpr, SUB: tl.constexpr):
    # One piece of the long row (segment s .. e) has stored its partial. The last of the
    # row's pieces to arrive (per column block) sums all of them in a fixed order (head,
    # then the tails by window) and stores the row: deterministic whatever the arrival order.
    tl.debug_barrier()                   # every thread's partial stores before the release
    w0 = s // C
    w_end = (e - 1) // C + 1             # tails are windows w0 + 1 .. w_end - 1
    arrived = tl.atomic_add(count_ptr + w0 * DB + cb, 1, sem="acq_rel", scope="gpu")
    if arrived == w_end - w0 - 1:        # pieces: 1 head + (w_end - w0 - 1) tails
        acc = tl.load(ws_ptr + w0.to(tl.int64) * D + cols, mask=col_mask, other=0.0,
                      cache_modifier=".cg")
        for t0 in range(w0 + 1, w_end, SUB):
            t = t0 + tl.arange(0, SUB)
            live = t < w_end
            tile = tl.load(ws_ptr + (n_win + t).to(tl.int64)[:, None] * D + cols[None, :],
                           mask=live[:, None] & col_mask[None, :], other=0.0,
                           cache_modifier=".cg")
            acc += tl.sum(tile, axis=0)
        tl.store(out_ptr + row.to(tl.int64) * D + cols, acc, mask=col_mask)


@triton.jit
def _table_kernel(out_ptr, g_ptr, sorted_ptr, order_ptr, bounds_ptr, ws_ptr, count_ptr,
                  N, V, D, stride_gn, stride_gd, n_win, DB, n_long, n_rows, n_mix,
                  C: tl.constexpr, SUB: tl.constexpr, ZR: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    if pid < n_long:
        # Long-row pieces, first so that they finish early. Window w = sorted positions
        # w*C .. w*C + C. Task 0: the tail piece of a long segment that started before the
        # window (the window's part of it); task 1: the head piece of a long segment
        # starting inside the window (from its start to the window's end).
        cb = pid % DB
        q = pid // DB
        w = q // 2
        a = w * C
        cols = cb * BD + tl.arange(0, BD)
        col_mask = cols < D
        col_off = cols.to(tl.int64) * stride_gd
        if q % 2 == 0:
            row = tl.load(sorted_ptr + a)
            s = tl.load(bounds_ptr + row)
            e = tl.load(bounds_ptr + row + 1)
            if (s < a) & (e - s > C):
                acc = _gather_sum(g_ptr, order_ptr, a, tl.minimum(e, a + C), stride_gn,
                                  col_off, col_mask, SUB, BD)
                tl.store(ws_ptr + (n_win + w).to(tl.int64) * D + cols, acc, mask=col_mask)
                _finish_long(out_ptr, ws_ptr, count_ptr, row, s, e, cb, cols, col_mask,
                             n_win, D, DB, C, SUB)
        else:
            row = tl.load(sorted_ptr + tl.minimum(a + C, N) - 1)
            s = tl.load(bounds_ptr + row)
            e = tl.load(bounds_ptr + row + 1)
            if (s >= a) & (e - s > C):
                acc = _gather_sum(g_ptr, order_ptr, s, a + C, stride_gn, col_off, col_mask,
                                  SUB, BD)
                tl.store(ws_ptr + w.to(tl.int64) * D + cols, acc, mask=col_mask)
                _finish_long(out_ptr, ws_ptr, count_ptr, row, s, e, cb, cols, col_mask,
                             n_win, D, DB, C, SUB)
    else:
        # The rest, evenly interleaved: N * DB row programs (one per sorted position and
        # column block) and the zero programs (ZR rows x BD columns of the table each).
        m = (pid - n_long).to(tl.int64)
        k = m * n_rows // n_mix              # row programs before this one
        if (m + 1) * n_rows // n_mix > k:
            # Row program: active if position j starts a segment of at most C tokens;
            # sums it and stores the row once.
            j = (k // DB).to(tl.int32)
            cb = (k % DB).to(tl.int32)
            row = tl.load(sorted_ptr + j)
            prev = tl.load(sorted_ptr + j - 1, mask=j > 0, other=-1)
            if prev != row:
                e = tl.load(bounds_ptr + row + 1)
                if e - j <= C:
                    cols = cb * BD + tl.arange(0, BD)
                    col_mask = cols < D
                    acc = _gather_sum(g_ptr, order_ptr, j, e, stride_gn,
                                      cols.to(tl.int64) * stride_gd, col_mask, SUB, BD)
                    tl.store(out_ptr + row.to(tl.int64) * D + cols, acc, mask=col_mask)
        else:
            # Zero program: stores zeros to the rows of its tile whose segment is empty.
            z = (m - k).to(tl.int32)
            rows = (z // DB) * ZR + tl.arange(0, ZR)
            cols = (z % DB) * BD + tl.arange(0, BD)
            row_ok = rows < V
            lo = tl.load(bounds_ptr + rows, mask=row_ok, other=0)
            hi = tl.load(bounds_ptr + rows + 1, mask=row_ok, other=0)
            empty = row_ok & (lo == hi)
            tl.store(out_ptr + rows.to(tl.int64)[:, None] * D + cols[None, :],
                     tl.zeros([ZR, BD], dtype=tl.float32),
                     mask=empty[:, None] & (cols < D)[None, :])


def _sort_ids(idx: torch.Tensor, vocab_size: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(sorted ids as int32, order): order[p] is the token at sorted position p."""
    n = idx.shape[0]
    if n > RANK_MAX:
        return torch.sort(idx.to(torch.int32), stable=True)
    sorted_ids = torch.empty(max(n, 1), dtype=torch.int32, device=idx.device)
    order = torch.empty(max(n, 1), dtype=torch.int32, device=idx.device)
    if n:
        bi, bj = (16, 512) if idx.device.type == "cuda" else (256, 1024)
        _rank_kernel[(triton.cdiv(n, bi),)](
            idx, idx.stride(0), sorted_ids, order, n, vocab_size, BI=bi, BJ=bj,
            KEY32=(vocab_size + 1) * n + bj < 2**31, num_warps=4)
    return sorted_ids, order


def _bounds(sorted_ids: torch.Tensor, n: int, vocab_size: int, n_counters: int):
    """(bounds int32 (V + 1,), counters int32 zeroed): row v is sorted positions bounds[v] .. bounds[v+1]."""
    bounds = torch.empty(vocab_size + 1, dtype=torch.int32, device=sorted_ids.device)
    counters = torch.empty(max(1, n_counters), dtype=torch.int32, device=sorted_ids.device)
    block = 1024 if sorted_ids.device.type == "cuda" else 4096
    _bounds_kernel[(triton.cdiv(max(vocab_size + 1, n_counters), block),)](
        sorted_ids, bounds, counters, n, vocab_size, n_counters, n.bit_length(), BLOCK=block,
        num_warps=4)
    return bounds, counters


def embedding_backward(idx: torch.Tensor, grad_out: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """float32 (V, D) grad_weight: row v is the sum of the grad_out rows whose id is v."""
    assert idx.ndim == 1 and grad_out.ndim == 2 and idx.shape[0] == grad_out.shape[0]
    n, d = grad_out.shape
    cuda = grad_out.device.type == "cuda"
    out = torch.empty((vocab_size, d), dtype=torch.float32, device=grad_out.device)
    bd = min(1024, triton.next_power_of_2(d))     # columns per program
    db = triton.cdiv(d, bd)
    n_win = triton.cdiv(n, CHUNK)                 # windows of CHUNK sorted positions
    sorted_ids, order = _sort_ids(idx, vocab_size)
    bounds, counters = _bounds(sorted_ids, n, vocab_size, n_win * db)
    ws = torch.empty((max(1, 2 * n_win), d), dtype=torch.float32, device=grad_out.device)
    sub = min(8, max(1, GATHER // bd)) if cuda else CHUNK
    zr = max(1, TILE // bd)                       # rows per zero program
    n_long = 2 * n_win * db
    n_rows = n * db
    n_mix = n_rows + triton.cdiv(vocab_size, zr) * db
    _table_kernel[(n_long + n_mix,)](
        out, grad_out, sorted_ids, order, bounds, ws, counters, n, vocab_size, d,
        grad_out.stride(0), grad_out.stride(1), n_win, db, n_long, n_rows, n_mix,
        C=CHUNK, SUB=sub, ZR=zr, BD=bd, num_warps=WARPS)
    return out
