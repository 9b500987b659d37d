# A LeetGPU-style Triton solution (written for ML Infra Studio's tests) of the fixture
# challenge easy/1_scale: solve(x, y, n) writes y = 3 * x in place.
import triton
import triton.language as tl


@triton.jit
def _scale3(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, 3.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)


def solve(x, y, n):
    _scale3[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
