// Reference solution: s[i] = sum_j x[i, j] (row reduction) in CUDA C++.
//
// Run it:  studio-drill run row_sum kernels/row_sum/solution_cuda.cu [--bench]
//
// Why it is fast. A row sum reads M*N elements and writes M: bytes model
// (M*N + M) * itemsize, one add per element, so it is deeply memory-bound and only has
// to stream x once at the copy bandwidth.
//
// - Rows with unit column stride (contiguous, strided rows): a group of G threads owns a
//   row. G is 4..32 lanes of a warp for short rows (several rows per 256-thread block, so
//   a 128-column row still gives each thread a few packs to move) and a whole block of
//   64..512 threads for long rows. Each thread reads 16-byte packs (4 floats / 8 halves)
//   when the row start is 16-byte aligned, UNROLL = 8 packs in flight before it adds them
//   up, and keeps a float32 partial; the group combines partials with warp shuffles (and
//   one shared-memory step across warps when G > 32). A misaligned row (odd row pitch)
//   uses the same kernel with scalar accesses.
// - Column-major views (x.t() of a contiguous matrix: row stride 1): a warp reads 32
//   consecutive rows of one column at a time (coalesced), 8 warps of a block split the
//   columns, and shared memory adds the 8 partials. No copy of x is made.
//
// Accumulation is in float32 (each lane adds ~N/G values, then a log2(G) tree), rounded
// to x's dtype once at the store.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

namespace {

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> __device__ __forceinline__ T from_f(float v);
template <> __device__ __forceinline__ float from_f<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

template <typename T, int W>
struct alignas(sizeof(T) * W) Pack {
  T v[W];
};

constexpr int kUnroll = 8;

// Sum of v over the G threads of a row group (result valid in every thread of the group).
// G <= 32: xor shuffles inside the warp. G > 32: G == blockDim.x, one shared-memory step.
__device__ __forceinline__ float group_sum(float v, int group, float* red) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    if (o < group) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (group <= 32) return v;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float t = lane < (group >> 5) ? red[lane] : 0.f;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
  return t;
}

// One row per group of `group` threads; W = elements per access (16 bytes, or 1 for the
// scalar path, which also honours a non-unit column stride sx1).
template <typename T, int W>
__global__ void __launch_bounds__(512)
row_sum_kernel(const T* __restrict__ x, T* __restrict__ s, int64_t M, int64_t N, int64_t sx0,
               int64_t sx1, int group) {
  __shared__ float red[32];
  const int g = threadIdx.x % group;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / group) + threadIdx.x / group;
  const bool valid = row < M;
  const T* xr = x + (valid ? row : 0) * sx0;
  float acc = 0.f;
  if (valid) {
    const int64_t npack = N / W;
    const int64_t step = static_cast<int64_t>(group) * kUnroll;
    for (int64_t p0 = g; p0 < npack; p0 += step) {
      Pack<T, W> buf[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t p = p0 + static_cast<int64_t>(u) * group;
        if (p < npack) {
          if constexpr (W == 1) buf[u].v[0] = xr[p * sx1];
          else buf[u] = *reinterpret_cast<const Pack<T, W>*>(xr + p * W);
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t p = p0 + static_cast<int64_t>(u) * group;
        if (p < npack) {
#pragma unroll
          for (int e = 0; e < W; ++e) acc += to_f(buf[u].v[e]);
        }
      }
    }
    if constexpr (W > 1) {  // the last N % W elements
      for (int64_t j = npack * W + g; j < N; j += group) acc += to_f(xr[j]);
    }
  }
  const float total = group_sum(acc, group, red);
  if (valid && g == 0) s[row] = from_f<T>(total);
}

// Column-major x (sx0 == 1): thread (tx, ty) sums rows r0 + tx over columns ty, ty + 8, ...
constexpr int kColRows = 32, kColSplit = 8;
template <typename T>
__global__ void __launch_bounds__(kColRows * kColSplit)
row_sum_colmajor_kernel(const T* __restrict__ x, T* __restrict__ s, int64_t M, int64_t N,
                        int64_t sx1) {
  __shared__ float part[kColSplit][kColRows + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kColRows + tx;
  float acc = 0.f;
  if (row < M) {
    const T* xr = x + row;
    int64_t j = ty;
    for (; j + 3 * kColSplit < N; j += 4 * kColSplit) {
      const float a = to_f(xr[j * sx1]);
      const float b = to_f(xr[(j + kColSplit) * sx1]);
      const float c = to_f(xr[(j + 2 * kColSplit) * sx1]);
      const float d = to_f(xr[(j + 3 * kColSplit) * sx1]);
      acc += (a + b) + (c + d);
    }
    for (; j < N; j += kColSplit) acc += to_f(xr[j * sx1]);
  }
  part[ty][tx] = acc;
  __syncthreads();
  if (ty == 0 && row < M) {
    float t = 0.f;
#pragma unroll
    for (int k = 0; k < kColSplit; ++k) t += part[k][tx];
    s[row] = from_f<T>(t);
  }
}

int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

template <typename T>
void launch_row_sum(const torch::Tensor& x, torch::Tensor& s) {
  const int64_t M = x.size(0), N = x.size(1);
  const T* xp = reinterpret_cast<const T*>(x.data_ptr());
  T* sp = reinterpret_cast<T*>(s.data_ptr());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int64_t sx0 = x.stride(0), sx1 = x.stride(1);

  if (sx1 != 1 && sx0 == 1 && N > 1 && M > 1) {
    dim3 block(kColRows, kColSplit);
    const int64_t blocks = (M + kColRows - 1) / kColRows;
    row_sum_colmajor_kernel<T><<<static_cast<unsigned>(blocks), block, 0, stream>>>(xp, sp, M, N, sx1);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }

  constexpr int VEC = 16 / sizeof(T);
  const bool unit = sx1 == 1 || N == 1;
  const bool vec = unit && N >= VEC && reinterpret_cast<uintptr_t>(xp) % 16 == 0 &&
                   (M == 1 || (sx0 * static_cast<int64_t>(sizeof(T))) % 16 == 0);
  const int W = vec ? VEC : 1;
  const int64_t npack = (N + W - 1) / W;
  int group, threads;
  if (npack <= 32 * kUnroll) {
    // Short rows: 4..32 lanes per row, so each lane has up to 8 packs to move.
    group = pow2_at_least((npack + kUnroll - 1) / kUnroll);
    if (group < 4) group = 4;
    if (group > 32) group = 32;
    threads = 256;
  } else {
    // Long rows: a block per row, ~8 packs per thread per sweep.
    group = pow2_at_least((npack + kUnroll - 1) / kUnroll);
    if (group > 512) group = 512;
    threads = group;
  }
  const int64_t rows_per_block = threads / group;
  const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
  const int64_t col_stride = unit ? 1 : sx1;
  if (vec) {
    row_sum_kernel<T, VEC><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        xp, sp, M, N, sx0, col_stride, group);
  } else {
    row_sum_kernel<T, 1><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        xp, sp, M, N, sx0, col_stride, group);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace

// row_sum(x) -> s with s[i] = sum_j x[i, j]
//   x: 2-D (M, N) CUDA tensor, float32 / float16 / bfloat16, any strides.
//   Returns a new (M,) tensor of x's dtype (accumulated in float32). x is not modified.
torch::Tensor row_sum(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "row_sum: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "row_sum: x must be 2-D");
  const c10::cuda::CUDAGuard guard(x.device());
  auto s = torch::empty({x.size(0)}, x.options());
  if (x.size(0) == 0) return s;  // (rows of length 0 sum to 0: the kernel handles N == 0)
  switch (x.scalar_type()) {
    case torch::kFloat32: launch_row_sum<float>(x, s); break;
    case torch::kFloat16: launch_row_sum<__half>(x, s); break;
    case torch::kBFloat16: launch_row_sum<__nv_bfloat16>(x, s); break;
    default: TORCH_CHECK(false, "row_sum: dtype must be float32, float16 or bfloat16");
  }
  return s;
}
