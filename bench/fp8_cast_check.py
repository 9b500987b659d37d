"""Does the GPU's own e4m3 cast round exactly like the fp8_quant solution's rounding? (#21)

    PYTHONPATH=. python3 bench/fp8_cast_check.py [--lo -12] [--hi 10]

The fp8_quant reference solution rounds to the e4m3 grid itself (`_to_e4m3_grid`: integer and
float steps, so that Triton's CPU interpreter, whose cast rounds differently, gets the GPU's
answer), then casts the exact grid value. On sm_89 and later a clamp to +-448 and
`.to(tl.float8e4nv)` is one cvt.rn.satfinite instruction. This script feeds every float32 bit
pattern whose magnitude lies in [2^lo, 2^hi) (both signs; 2^23 values a binade) through both
forms on the GPU and counts the bytes that differ (values below 2^-12 round to zero either way;
the solution never rounds a value above 448 * (1 + 2^-23)); then prints both forms' bytes for
zero, tiny and huge values, the infinities and NaN. Needs an sm_89+ GPU; exit status 1 if any
value differs in the binades (a zero of the other sign is the same value, counted apart).

On the H200 (call 65, an earlier form of this script that counted bytes and exited 1 on any,
bench/results/h200/fp8_cast_check_call65.txt): 369,098,752 values, 16,777,217 bytes differ,
every one a negative value that rounds to zero (-0 from the cast, as torch's own cast gives;
+0 from the add-and-subtract rounding). No value differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from kernels.fp8_quant.solution import _to_e4m3_grid  # noqa: E402


@triton.jit
def both_kernel(bits_ptr, grid_ptr, hw_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(bits_ptr + offs, mask=mask, other=0).to(tl.float32, bitcast=True)
    tl.store(grid_ptr + offs, _to_e4m3_grid(v).to(tl.float8e4nv), mask=mask)
    tl.store(hw_ptr + offs, tl.minimum(tl.maximum(v, -448.0), 448.0).to(tl.float8e4nv), mask=mask)


def compare(bits: torch.Tensor) -> tuple[int, int, torch.Tensor]:
    """(bytes that differ, values that differ, where the values differ) for the float32 values
    whose bit patterns are `bits`: +0 and -0 are different bytes but the same value."""
    n = bits.numel()
    a = torch.empty(n, dtype=torch.float8_e4m3fn, device=bits.device)
    b = torch.empty_like(a)
    both_kernel[(triton.cdiv(n, 4096),)](bits, a, b, n, BLOCK=4096, num_warps=8)
    value_diff = a.float() != b.float()
    return int((a.view(torch.uint8) != b.view(torch.uint8)).sum()), int(value_diff.sum()), value_diff


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lo", type=int, default=-12, help="smallest binade, 2^lo (values below round to 0)")
    parser.add_argument("--hi", type=int, default=10, help="binades below 2^hi (448 < 2^9 saturates)")
    args = parser.parse_args()
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() < (8, 9):
        print("needs an sm_89+ GPU")
        return 2
    total = zeros = checked = 0
    mantissas = torch.arange(1 << 23, dtype=torch.int32, device="cuda")
    for e in range(args.lo, args.hi):
        for sign in (0, -(1 << 31)):
            bits = mantissas | ((e + 127) << 23) | sign
            bytes_bad, bad, diff = compare(bits)
            checked += bits.numel()
            total += bad
            zeros += bytes_bad - bad
            if bad:
                first = bits[diff][:4].view(torch.float32).tolist()
                print(f"2^{e} sign {'-' if sign else '+'}: {bad} values differ, e.g. {first}")
            elif bytes_bad:
                print(f"2^{e} sign {'-' if sign else '+'}: {bytes_bad} bytes differ, only in the sign of a zero")
    # fp8_quant scales a row so that |x * inv| <= 448 (up to one rounding): these only say how the
    # two forms treat values the solution never rounds
    special = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 3e38, float("inf"), float("-inf"), float("nan")],
                           device="cuda").view(torch.int32)
    a = torch.empty(special.numel(), dtype=torch.float8_e4m3fn, device="cuda")
    b = torch.empty_like(a)
    both_kernel[(1,)](special, a, b, special.numel(), BLOCK=4096, num_warps=8)
    for v, x, y in zip(special.view(torch.float32).tolist(), a.view(torch.uint8).tolist(), b.view(torch.uint8).tolist()):
        print(f"  {v!r}: solution's rounding 0x{x:02x}, cast 0x{y:02x}")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}: "
          f"{checked} float32 values in binades 2^{args.lo}..2^{args.hi - 1}: {total} values differ "
          f"({zeros} more bytes differ only in the sign of a zero)")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
