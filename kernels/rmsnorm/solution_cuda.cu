// Reference solution: RMSNorm forward, y = x / sqrt(mean(x^2) + eps) * weight over the last
// dimension of a 2-D tensor, in CUDA C++.
//
// Run it:  studio-drill run rmsnorm kernels/rmsnorm/solution_cuda.cu [--bench]
//
// Why it is fast. RMSNorm reads x once, writes y once and reads weight (bytes model
// (2 * M * N + N) * itemsize); a square-sum and two multiplies per element are free next
// to that, so the kernel only has to stream x and y at the copy bandwidth and never read
// x twice.
//
// - Rows of up to 32768 elements (16384 on the scalar path; every benchmarked shape):
//   `rmsnorm_rows_kernel` keeps the whole row in registers, at most 32 float32 values per
//   thread (under the 64 registers that 1024-thread blocks allow). A group of G threads
//   owns a row: G = 1..32 lanes of a warp for short rows (several rows per 256-thread
//   block) and a whole block of up to 1024 threads for long ones. Each thread issues all
//   its loads (16-byte packs: 4 floats / 8 halves, when every row start of x and y is
//   16-byte aligned) before it uses any and converts them to float32 once; the group
//   reduces the square-sum with xor shuffles (plus one shared-memory step across warps
//   when G > 32) and scales the values it still holds. weight is read after the
//   reduction, in 16-byte packs: every row reads it, so it comes from L1/L2. Packs per
//   thread are picked so the grid still has ~128K threads when M allows (4096 x 256
//   fp16: one pack per thread, a warp per row; 4096 x 16384 fp32: 8 packs per thread,
//   512 threads per row).
// - Longer rows: `rmsnorm_looped_kernel`, a block per row, makes two passes (square-sum,
//   then scale and write); the second mostly reads L2.
// - Column-major views (x.t() of a contiguous matrix: row stride 1): a row is scattered,
//   so `rmsnorm_colmajor_kernel` takes 32 consecutive rows per block; 16 column slices
//   read coalesced columns for the square-sums, and the write pass moves 32 x 32 tiles
//   through shared memory so y (row-major) and weight are accessed coalesced too. No copy
//   of x is made.
// - Any other layout (odd row pitch, N not a multiple of the pack, non-unit column or
//   weight stride) takes the same kernels with scalar accesses that honour strides.
//
// Numerics as the Triton solution: squares and sums in float32 (an fp16 input of 300
// already squares past fp16's range), rstd = 1 / sqrt(sum(x^2) / N + eps),
// y = x * rstd * w rounded once to x's dtype.
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

// Pack p of a vector: W == 1 is one element at index p (stride honoured), W > 1 a 16-byte
// vector at p*W .. p*W + W-1 (unit stride, aligned start).
template <typename T, int W>
__device__ __forceinline__ Pack<T, W> load_pack(const T* __restrict__ base, int64_t p,
                                                int64_t stride) {
  if constexpr (W == 1) {
    Pack<T, 1> r;
    r.v[0] = base[p * stride];
    return r;
  } else {
    return *reinterpret_cast<const Pack<T, W>*>(base + p * W);
  }
}
template <typename T, int W>
__device__ __forceinline__ void store_pack(T* __restrict__ row, int64_t p, const Pack<T, W>& v) {
  *reinterpret_cast<Pack<T, W>*>(row + p * W) = v;
}

constexpr int kMaxValues = 32;       // float32 values of a row kept per thread
constexpr int kMaxGroup = 1024;      // threads per row at most (one block)
constexpr int64_t kTargetThreads = 128 * 1024;  // ~1K threads on each of the 132 SMs

// Sum of v over the G threads of a row group (result valid in every thread).
// G <= 32: xor shuffles inside the warp (G a power of two). G > 32: G == blockDim.x (a
// multiple of 32), one shared-memory step; `red` must not be reused by a later call.
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

// ---------------------------------------------------------------------------------------
// Whole row in registers: one row per group of `group` threads, ITEMS packs of W
// elements per thread (packs g, g + group, ...). Requires N <= group * ITEMS * W.
// W > 1 needs unit strides for x and weight (sx1 and sw are then 1).
template <typename T, int W, int ITEMS>
__global__ void __launch_bounds__(1024)
rmsnorm_rows_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y,
                    int64_t M, int N, int64_t sx0, int64_t sx1, int64_t sw, float eps,
                    int group) {
  __shared__ float red[32];
  const int g = threadIdx.x % group;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / group) + threadIdx.x / group;
  const bool valid = row < M;
  // This thread's packs: g, g + group, ... while below npack (none in a padding row).
  const int npack = valid ? N / W : 0;
  const T* xr = x + (valid ? row : 0) * sx0 + static_cast<int64_t>(g) * W * sx1;
  const int64_t step = static_cast<int64_t>(group) * W * sx1;

  float v[ITEMS][W];
  {
    Pack<T, W> buf[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      if (g + i * group < npack) buf[i] = *reinterpret_cast<const Pack<T, W>*>(xr + i * step);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const bool in = g + i * group < npack;
#pragma unroll
      for (int e = 0; e < W; ++e) v[i][e] = in ? to_f(buf[i].v[e]) : 0.f;
    }
  }

  float sq = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
#pragma unroll
    for (int e = 0; e < W; ++e) sq += v[i][e] * v[i][e];
  const float rstd = 1.f / sqrtf(group_sum(sq, group, red) / static_cast<float>(N) + eps);

  if (!valid) return;
  T* yr = y + row * N + g * W;
  const T* wr = w + static_cast<int64_t>(g) * W * sw;
  const int64_t wstep = static_cast<int64_t>(group) * W * sw;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (g + i * group < npack) {
      const Pack<T, W> wp = *reinterpret_cast<const Pack<T, W>*>(wr + i * wstep);
      Pack<T, W> out;
#pragma unroll
      for (int e = 0; e < W; ++e) out.v[e] = from_f<T>(v[i][e] * rstd * to_f(wp.v[e]));
      *reinterpret_cast<Pack<T, W>*>(yr + i * group * W) = out;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rows too long for registers: a block per row, two passes (square-sum, scale and write).
constexpr int kLoopThreads = 512;
constexpr int kLoopUnroll = 4;

template <typename T, int W>
__global__ void __launch_bounds__(kLoopThreads)
rmsnorm_looped_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y,
                      int64_t N, int64_t sx0, int64_t sx1, int64_t sw, float eps) {
  __shared__ float red[32];
  const int64_t row = blockIdx.x;
  const T* xr = x + row * sx0;
  T* yr = y + row * N;
  const int64_t npack = N / W;
  const int64_t step = static_cast<int64_t>(blockDim.x) * kLoopUnroll;

  float sq = 0.f;
  for (int64_t p0 = threadIdx.x; p0 < npack; p0 += step) {
    Pack<T, W> buf[kLoopUnroll];
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) {
      const int64_t p = p0 + static_cast<int64_t>(u) * blockDim.x;
      if (p < npack) buf[u] = load_pack<T, W>(xr, p, sx1);
    }
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) {
      const int64_t p = p0 + static_cast<int64_t>(u) * blockDim.x;
      if (p < npack) {
#pragma unroll
        for (int e = 0; e < W; ++e) {
          const float a = to_f(buf[u].v[e]);
          sq += a * a;
        }
      }
    }
  }
  const float rstd =
      1.f / sqrtf(group_sum(sq, blockDim.x, red) / static_cast<float>(N) + eps);

  for (int64_t p0 = threadIdx.x; p0 < npack; p0 += step) {
    Pack<T, W> buf[kLoopUnroll];
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) {
      const int64_t p = p0 + static_cast<int64_t>(u) * blockDim.x;
      if (p < npack) buf[u] = load_pack<T, W>(xr, p, sx1);
    }
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) {
      const int64_t p = p0 + static_cast<int64_t>(u) * blockDim.x;
      if (p < npack) {
        const Pack<T, W> wp = load_pack<T, W>(w, p, sw);
        Pack<T, W> out;
#pragma unroll
        for (int e = 0; e < W; ++e) out.v[e] = from_f<T>(to_f(buf[u].v[e]) * rstd * to_f(wp.v[e]));
        store_pack<T, W>(yr, p, out);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Column-major x (sx0 == 1): 32 consecutive rows per block. Thread (tx, ty) owns row
// r0 + tx and columns ty, ty + 16, ... for the square-sum (coalesced: a warp reads 32
// consecutive rows of one column); the write pass stages 32 x 32 tiles of x in shared
// memory so each warp writes 32 consecutive columns of one row of y.
constexpr int kTileRows = 32, kSplit = 16;

template <typename T>
__global__ void __launch_bounds__(kTileRows * kSplit)
rmsnorm_colmajor_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y,
                        int64_t M, int64_t N, int64_t sx1, int64_t sw, float eps) {
  __shared__ float part[kSplit][kTileRows + 1];
  __shared__ float row_rstd[kTileRows];
  __shared__ float tile[kTileRows][kTileRows + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kTileRows;
  const int64_t row = r0 + tx;
  const bool valid = row < M;
  const T* xr = x + (valid ? row : 0);

  float acc = 0.f;
  if (valid) {
    int64_t j = ty;
    for (; j + 3 * kSplit < N; j += 4 * kSplit) {
      const float a = to_f(xr[j * sx1]);
      const float c = to_f(xr[(j + kSplit) * sx1]);
      const float d = to_f(xr[(j + 2 * kSplit) * sx1]);
      const float e = to_f(xr[(j + 3 * kSplit) * sx1]);
      acc += (a * a + c * c) + (d * d + e * e);
    }
    for (; j < N; j += kSplit) {
      const float a = to_f(xr[j * sx1]);
      acc += a * a;
    }
  }
  part[ty][tx] = acc;
  __syncthreads();
  if (ty == 0) {
    float t = 0.f;
#pragma unroll
    for (int k = 0; k < kSplit; ++k) t += part[k][tx];
    row_rstd[tx] = 1.f / sqrtf(t / static_cast<float>(N) + eps);
  }
  __syncthreads();

  // Scale through a shared-memory tile; threads along tx write columns of y.
  for (int64_t c0 = 0; c0 < N; c0 += kTileRows) {
#pragma unroll
    for (int k = 0; k < kTileRows / kSplit; ++k) {
      const int c = ty + k * kSplit;
      const int64_t col = c0 + c;
      tile[c][tx] = valid && col < N ? to_f(xr[col * sx1]) : 0.f;
    }
    __syncthreads();
    const int64_t col = c0 + tx;
    if (col < N) {
      const float wc = to_f(w[col * sw]);
#pragma unroll
      for (int k = 0; k < kTileRows / kSplit; ++k) {
        const int r = ty + k * kSplit;
        const int64_t out_row = r0 + r;
        if (out_row < M) y[out_row * N + col] = from_f<T>(tile[tx][r] * row_rstd[r] * wc);
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------
int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct RowPlan {
  int items, group, threads;
  int64_t blocks;
};

// Launch shape of the register-resident kernel for rows of npack packs, ITEMS taken from
// `options` (ascending powers of two). False when a row does not fit in one block.
bool plan_rows(int64_t M, int64_t npack, const int* options, int n_options, RowPlan* plan) {
  const int imax = options[n_options - 1];
  auto cdiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  // The fattest threads (more loads in flight, cheaper reductions) that still leave about
  // kTargetThreads threads in the grid; small grids get thin threads.
  int items = 1;
  for (int it = imax; it >= 1; it >>= 1)
    if (M * cdiv(npack, it) >= kTargetThreads) {
      items = it;
      break;
    }
  while (items < imax && cdiv(npack, items) > kMaxGroup) items <<= 1;
  if (cdiv(npack, items) > kMaxGroup) return false;
  int k = 0;
  while (options[k] < items) ++k;
  items = options[k];
  const int64_t need = cdiv(npack, items);
  if (need <= 32) {
    plan->group = pow2_at_least(need);
    plan->threads = 256;
  } else {
    plan->group = static_cast<int>(cdiv(need, 32) * 32);
    plan->threads = plan->group;
  }
  plan->items = items;
  plan->blocks = cdiv(M, plan->threads / plan->group);
  return true;
}

template <typename T>
struct Args {
  const T* x;
  const T* w;
  T* y;
  int64_t M, N, sx0, sx1, sw;
  float eps;
};

template <typename T, int W, int ITEMS>
void run_rows(const RowPlan& p, const Args<T>& a, cudaStream_t stream) {
  rmsnorm_rows_kernel<T, W, ITEMS><<<static_cast<unsigned>(p.blocks), p.threads, 0, stream>>>(
      a.x, a.w, a.y, a.M, static_cast<int>(a.N), a.sx0, a.sx1, a.sw, a.eps, p.group);
}

template <typename T, int W>
void run_looped(const Args<T>& a, cudaStream_t stream) {
  rmsnorm_looped_kernel<T, W><<<static_cast<unsigned>(a.M), kLoopThreads, 0, stream>>>(
      a.x, a.w, a.y, a.N, a.sx0, a.sx1, a.sw, a.eps);
}

template <typename T>
void launch_rmsnorm(const torch::Tensor& x, const torch::Tensor& weight, double eps,
                    torch::Tensor& y) {
  Args<T> a;
  a.x = reinterpret_cast<const T*>(x.data_ptr());
  a.w = reinterpret_cast<const T*>(weight.data_ptr());
  a.y = reinterpret_cast<T*>(y.data_ptr());
  a.M = x.size(0);
  a.N = x.size(1);
  a.sx0 = x.stride(0);
  a.sx1 = x.stride(1);
  a.sw = weight.stride(0);
  a.eps = static_cast<float>(eps);
  const int64_t M = a.M, N = a.N;
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();

  if (a.sx0 == 1 && a.sx1 != 1 && M > 1 && N > 1) {
    const int64_t blocks = (M + kTileRows - 1) / kTileRows;
    rmsnorm_colmajor_kernel<T><<<static_cast<unsigned>(blocks), dim3(kTileRows, kSplit), 0, stream>>>(
        a.x, a.w, a.y, M, N, a.sx1, a.sw, a.eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }

  if (N == 1) a.sx1 = a.sw = 1;  // a single column: its stride is never applied
  constexpr int VEC = 16 / static_cast<int>(sizeof(T));
  auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  // 16-byte packs need unit strides and every row start of x and of y (pitch N), and the
  // start of weight, 16-byte aligned.
  const bool vec = a.sx1 == 1 && a.sw == 1 && N % VEC == 0 && aligned(a.x) && aligned(a.y) &&
                   aligned(a.w) && (M == 1 || a.sx0 % VEC == 0);
  RowPlan plan;
  if (vec) {
    static constexpr int kVecItems[] = {1, 2, 4, 8};
    constexpr int n_options = VEC == 4 ? 4 : 3;  // at most kMaxValues floats per thread
    if (plan_rows(M, N / VEC, kVecItems, n_options, &plan)) {
      switch (plan.items) {
        case 1: run_rows<T, VEC, 1>(plan, a, stream); break;
        case 2: run_rows<T, VEC, 2>(plan, a, stream); break;
        case 4: run_rows<T, VEC, 4>(plan, a, stream); break;
        default:
          if constexpr (VEC * 8 <= kMaxValues) run_rows<T, VEC, 8>(plan, a, stream);
          break;
      }
    } else {
      run_looped<T, VEC>(a, stream);
    }
  } else {
    static constexpr int kScalarItems[] = {2, 8, 16};  // (32 would spill: 64-bit addresses)
    if (plan_rows(M, N, kScalarItems, 3, &plan)) {
      switch (plan.items) {
        case 2: run_rows<T, 1, 2>(plan, a, stream); break;
        case 8: run_rows<T, 1, 8>(plan, a, stream); break;
        default: run_rows<T, 1, 16>(plan, a, stream); break;
      }
    } else {
      run_looped<T, 1>(a, stream);
    }
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace

// rmsnorm(x, weight, eps) -> y, RMSNorm over the last dimension:
//   y[i, j] = x[i, j] / sqrt(sum_k x[i, k]^2 / N + eps) * weight[j]
//   x: 2-D (M, N) CUDA tensor, float32 / float16 / bfloat16, any strides.
//   weight: (N,) of x's dtype, any stride.
//   Returns a new contiguous (M, N) tensor of x's dtype (computed in float32). The inputs
//   are not modified.
torch::Tensor rmsnorm(torch::Tensor x, torch::Tensor weight, double eps) {
  TORCH_CHECK(x.is_cuda(), "rmsnorm: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "rmsnorm: x must be 2-D");
  TORCH_CHECK(weight.dim() == 1 && weight.size(0) == x.size(1),
              "rmsnorm: weight must be 1-D of length x.size(1)");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type(), "rmsnorm: weight must have x's dtype");
  TORCH_CHECK(weight.device() == x.device(), "rmsnorm: weight must be on x's device");
  const c10::cuda::CUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), x.size(1)}, x.options());
  if (x.numel() == 0) return y;
  switch (x.scalar_type()) {
    case torch::kFloat32: launch_rmsnorm<float>(x, weight, eps, y); break;
    case torch::kFloat16: launch_rmsnorm<__half>(x, weight, eps, y); break;
    case torch::kBFloat16: launch_rmsnorm<__nv_bfloat16>(x, weight, eps, y); break;
    default: TORCH_CHECK(false, "rmsnorm: dtype must be float32, float16 or bfloat16");
  }
  return y;
}
