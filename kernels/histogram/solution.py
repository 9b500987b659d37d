"""Reference solution: histogram of values in [0, 1) into `bins` equal bins, in Triton.

counts[b] = #{i : bin(x[i]) = b}, with bin(v) = floor(float32(v) * bins) clamped to
[0, bins - 1]; int32 counts.

Bytes model: read x once (n * itemsize), write bins * 4 bytes of counts: for any n worth
timing it is a pure streaming read, and the kernel should run at the copy bandwidth. What
stands in the way is the *scatter*: n increments land on a few counters.

- **Naive atomics** (`tl.atomic_add(counts + b, 1)` per element) send n atomic operations
  to L2. With uniform data over 256 bins they are spread thinly enough to be merely slow;
  when every value falls in one bin (the contention cases) they all serialise on one
  address and the kernel runs at the atomic throughput of a single L2 slice.
- **Privatisation** (what this kernel does): each program keeps its own histogram of
  NUM_BINS = next_pow2(bins) int32 counters in registers. `tl.histogram(b, NUM_BINS,
  mask)` counts a BLOCK of bin indices at once, on chip (Triton lowers it to ballots and
  popcounts within a warp and shared memory across warps; the details vary between
  versions, but no global atomics), and the program adds it to its private copy. Programs loop over the input grid-stride, so there are only
  4-8 programs per SM and each covers many blocks. At the end each program flushes its
  histogram with **one relaxed atomic per non-empty bin**: at most grid * bins atomics
  however skewed the data, instead of n. Relaxed ordering is enough: the counts are only
  read after the kernel ends, so no other memory operation has to be ordered around them.

The output is zeroed (`torch.zeros`) before the launch because the flush adds into it.
Strided inputs are read through their stride, so no copy is made. The bin index is one
float32 multiply, a floor and a clamp done in float (so +-inf and values >= 1 clamp
cleanly before the conversion to int).
"""

import torch
import triton
import triton.language as tl

BLOCK = 2048                # elements per step of a program
PROGRAMS_PER_SM = 4
# From 2^23 values (about 8 programs an SM have a full grid of 8192-value steps) up to 256 bins:
# 8192 values a step on 8 warps, 8 programs an SM. The kernel bins about 216 G values/s with the
# launch above in every dtype, so its time is tl.histogram's work, not bytes; bigger steps and
# more programs an SM took float32 2^27 from 619.8 to 449.3 us and 2^24 from 84.8 to 63.7 on the
# H200 (torch's histc 574.9 and 81.9; bench/launch_tuning.py --what histogram, call 86, 29
# launches, 256 bins). More bins mean more flush atomics a program: those keep the launch above.
LARGE_N = 1 << 23
LARGE_MAX_BINS = 256
LARGE_LAUNCH = (8192, 8, 8)     # (BLOCK, num_warps, programs per SM)


@triton.jit
def histogram_kernel(x_ptr, counts_ptr, n, stride, bins, num_programs,
                     BLOCK: tl.constexpr, NUM_BINS: tl.constexpr):
    pid = tl.program_id(0)
    local = tl.zeros([NUM_BINS], dtype=tl.int32)
    offs = tl.arange(0, BLOCK)
    last = bins * 1.0 - 1.0                     # the last bin, as a float32
    for start in range(pid * BLOCK, n, num_programs * BLOCK):
        idx = start + offs
        mask = idx < n
        x = tl.load(x_ptr + idx.to(tl.int64) * stride, mask=mask, other=0.0,
                    eviction_policy="evict_first")
        v = tl.floor(x.to(tl.float32) * bins)
        b = tl.minimum(tl.maximum(v, 0.0), last).to(tl.int32)
        local += tl.histogram(b, NUM_BINS, mask=mask)
    bin_ids = tl.arange(0, NUM_BINS)
    tl.atomic_add(counts_ptr + bin_ids, local, mask=(bin_ids < bins) & (local != 0),
                  sem="relaxed")


def launch(n: int, bins: int) -> tuple[int, int, int]:
    """(BLOCK, num_warps, programs per SM) for n values into `bins` bins."""
    if n >= LARGE_N and bins <= LARGE_MAX_BINS:
        return LARGE_LAUNCH
    return BLOCK, 8, PROGRAMS_PER_SM


def num_programs(n: int, device: torch.device, block: int = BLOCK, per_sm: int = PROGRAMS_PER_SM) -> int:
    blocks = triton.cdiv(n, block)
    if device.type == "cuda":
        sms = torch.cuda.get_device_properties(device).multi_processor_count
        return max(1, min(blocks, sms * per_sm))
    return max(1, min(blocks, 8))          # Triton's interpreter: few programs, less overhead


def histogram(x: torch.Tensor, bins: int) -> torch.Tensor:
    """int32 counts of x's values in `bins` equal bins over [0, 1); outside values clamped."""
    assert x.ndim == 1 and bins >= 1
    n = x.numel()
    counts = torch.zeros(bins, dtype=torch.int32, device=x.device)
    if n == 0:
        return counts
    block, warps, per_sm = launch(n, bins)
    grid = num_programs(n, x.device, block, per_sm)
    histogram_kernel[(grid,)](x, counts, n, x.stride(0), bins, grid, BLOCK=block,
                              NUM_BINS=triton.next_power_of_2(bins), num_warps=warps)
    return counts


if __name__ == "__main__":
    x = torch.rand(1 << 26, device="cuda")
    for bins in (7, 256, 4096):
        ref = torch.bincount((x * bins).floor().long().clamp(0, bins - 1), minlength=bins)
        assert torch.equal(histogram(x, bins).long(), ref)
        ms = triton.testing.do_bench(lambda: histogram(x, bins))
        print(bins, f"{x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
