// Reference solution: y = x.T (a new contiguous (N, M) matrix) in CUDA C++, tiled.
//
// Run it:  studio-drill run transpose kernels/transpose/solution_cuda.cu [--bench]
//
// Why it is fast. A transpose is pure data movement: bytes model 2 * M * N * itemsize
// (read x once, write y once), 0 flops, so both sides must run at the copy bandwidth. A
// naive kernel reads rows and writes columns, and the column side touches a 32-byte
// sector per element. Here a block of 32 x 8 threads moves one 64 x 64 tile:
//
// - Load: each warp reads tile rows with coalesced 128-byte accesses (float32: two
//   4-byte columns per lane, tx and tx + 32; 16-bit types: one 4-byte pair per lane), 8
//   rows per warp, all 8 loads of a thread issued before the first use.
// - The tile sits in shared memory with a row pitch of 65 elements, so reading it by
//   columns (lane = tile row) hits 32 different banks.
// - Store: each warp writes rows of y (= columns of the tile), again 128 bytes per
//   instruction, 4-byte pairs of 16-bit values when M is even.
// - Edge tiles (M or N not a multiple of 64) take a guarded element-by-element path, as do
//   misaligned or non-unit-stride inputs (any strides are honoured).
// - A column-major view (x is the .t() of a contiguous matrix, row stride 1) is already
//   x.T's memory order: it goes through a coalesced row copy instead of the tile.
//
// The copy is bit-exact: values are moved as raw 2- or 4-byte words, never converted.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cstdint>

namespace {

constexpr int kTile = 64;
constexpr int kRowsPerPass = 8;  // blockDim.y
constexpr int kPitch = kTile + 1;

// T is a raw word type of the element size: uint32_t (float32) or uint16_t (16-bit).
template <typename T>
__global__ void __launch_bounds__(32 * kRowsPerPass)
transpose_tile_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                      int64_t sx0, int64_t sx1, bool fast_ok) {
  __shared__ T tile[kTile][kPitch];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kTile;  // rows of x
  const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kTile;  // columns of x
  const bool full = fast_ok && r0 + kTile <= M && c0 + kTile <= N;

  if (full) {
    if constexpr (sizeof(T) == 4) {
      T v[kTile / kRowsPerPass][2];
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        const T* src = x + (r0 + ty + i * kRowsPerPass) * sx0 + c0;
        v[i][0] = src[tx];
        v[i][1] = src[tx + 32];
      }
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        tile[ty + i * kRowsPerPass][tx] = v[i][0];
        tile[ty + i * kRowsPerPass][tx + 32] = v[i][1];
      }
    } else {
      uint32_t v[kTile / kRowsPerPass];
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        const T* src = x + (r0 + ty + i * kRowsPerPass) * sx0 + c0;
        v[i] = reinterpret_cast<const uint32_t*>(src)[tx];
      }
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        tile[ty + i * kRowsPerPass][2 * tx] = static_cast<T>(v[i] & 0xffffu);
        tile[ty + i * kRowsPerPass][2 * tx + 1] = static_cast<T>(v[i] >> 16);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kTile / kRowsPerPass; ++i) {
      const int rr = ty + i * kRowsPerPass;
      const int64_t r = r0 + rr;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int cc = tx + 32 * h;
        const int64_t c = c0 + cc;
        if (r < M && c < N) tile[rr][cc] = x[r * sx0 + c * sx1];
      }
    }
  }
  __syncthreads();

  // y[c, r] = tile[r - r0][c - c0]: warp ty writes rows cc = ty + 8i of the output tile.
  const bool pair_store = sizeof(T) == 2 && full && (M % 2 == 0);
  if (full && (sizeof(T) == 4 || pair_store)) {
#pragma unroll
    for (int i = 0; i < kTile / kRowsPerPass; ++i) {
      const int cc = ty + i * kRowsPerPass;
      T* dst = y + (c0 + cc) * M + r0;
      if constexpr (sizeof(T) == 4) {
        dst[tx] = tile[tx][cc];
        dst[tx + 32] = tile[tx + 32][cc];
      } else {
        const uint32_t lo = tile[2 * tx][cc], hi = tile[2 * tx + 1][cc];
        reinterpret_cast<uint32_t*>(dst)[tx] = lo | (hi << 16);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kTile / kRowsPerPass; ++i) {
      const int cc = ty + i * kRowsPerPass;
      const int64_t c = c0 + cc;
      if (c >= N) continue;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int rr = tx + 32 * h;
        const int64_t r = r0 + rr;
        if (r < M) y[c * M + r] = tile[rr][cc];
      }
    }
  }
}

// x with row stride 1 (a column-major view): y[c, r] = x[r + c * sx1] is a copy of N rows
// of M elements, the source rows sx1 apart.
template <typename T>
__global__ void __launch_bounds__(256)
transpose_colmajor_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                          int64_t sx1) {
  const int64_t total = M * N;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t c = i / M, r = i - c * M;
    y[i] = x[r + c * sx1];
  }
}

template <typename T>
void launch_transpose(const torch::Tensor& x, torch::Tensor& y) {
  const int64_t M = x.size(0), N = x.size(1);
  const T* xp = reinterpret_cast<const T*>(x.data_ptr());
  T* yp = reinterpret_cast<T*>(y.data_ptr());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int64_t sx0 = x.stride(0), sx1 = x.stride(1);

  if (sx0 == 1 && sx1 != 1 && M > 1 && N > 1) {
    int64_t blocks = (M * N + 255) / 256;
    if (blocks > 65536) blocks = 65536;
    transpose_colmajor_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(xp, yp, M, N, sx1);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  // The fast path of a tile needs unit column stride, and for 16-bit types 4-byte aligned
  // row starts (pairs are read as one word).
  bool fast_ok = sx1 == 1 || N == 1;
  if (sizeof(T) == 2)
    fast_ok = fast_ok && reinterpret_cast<uintptr_t>(xp) % 4 == 0 && (sx0 % 2 == 0 || M == 1);
  const int64_t gx = (N + kTile - 1) / kTile, gy = (M + kTile - 1) / kTile;
  TORCH_CHECK(gy <= 65535, "transpose: too many rows");
  dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  dim3 block(32, kRowsPerPass);
  transpose_tile_kernel<T><<<grid, block, 0, stream>>>(xp, yp, M, N, sx0, sx1, fast_ok);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace

// transpose(x) -> x.T as a new contiguous (N, M) tensor
//   x: 2-D (M, N) CUDA tensor, float32 / float16 / bfloat16, any strides.
//   The copy is bit-exact. x is not modified.
torch::Tensor transpose(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "transpose: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "transpose: x must be 2-D");
  const auto st = x.scalar_type();
  TORCH_CHECK(st == torch::kFloat32 || st == torch::kFloat16 || st == torch::kBFloat16,
              "transpose: dtype must be float32, float16 or bfloat16");
  const c10::cuda::CUDAGuard guard(x.device());
  auto y = torch::empty({x.size(1), x.size(0)}, x.options());
  if (x.numel() == 0) return y;
  if (x.element_size() == 4) launch_transpose<uint32_t>(x, y);
  else launch_transpose<uint16_t>(x, y);
  return y;
}
