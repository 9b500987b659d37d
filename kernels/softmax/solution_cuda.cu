// Reference solution: y = softmax(x) over the last dimension of a 2-D tensor, in CUDA C++.
//
// Run it:  studio-drill run softmax kernels/softmax/solution_cuda.cu [--bench]
//
// Why it is fast. Softmax reads x once and writes y once (bytes model 2 * M * N *
// itemsize); a max, an exp and a sum per element are free next to that, so the kernel
// only has to stream x and y at the copy bandwidth and never touch x twice.
//
// - Rows of up to 32768 elements (16384 on the scalar path; every benchmarked shape):
//   `softmax_rows_kernel` keeps the whole row in registers, at most 32 float32 values per
//   thread (under the 64 registers that 1024-thread blocks allow, no spills). A group of G
//   threads owns a row: G = 1..32 lanes of a warp for short rows (several rows per
//   256-thread block) and a whole block of up to 1024 threads for long ones. Each thread
//   issues all its loads (16-byte packs: 4 floats / 8 halves, when every row start of x
//   and y is 16-byte aligned) before it uses any, converts them to float32 once, and the
//   group reduces the max and then the sum of exp with xor shuffles (plus one
//   shared-memory step across warps when G > 32). The exponentials stay in the registers
//   that held x, so the store is one multiply per element: one exp per element in all.
//   The number of packs per thread is picked so the grid still has ~128K threads when M
//   allows (a 4096 x 256 fp16 problem gets one pack per thread and a warp per row;
//   4096 x 16384 fp32 gets 8 packs per thread and 512 threads per row).
// - Longer rows: `softmax_looped_kernel`, a block per row, streams the row twice: an
//   online pass (per-thread running max and a sum rescaled when the max grows, combined
//   across the block) and the normalise-and-write pass, whose reads mostly hit L2.
// - Column-major views (x.t() of a contiguous matrix: row stride 1): a row is scattered,
//   so `softmax_colmajor_kernel` takes 32 consecutive rows per block: 16 column slices
//   read coalesced columns into online (max, sum) partials, and the write pass moves
//   32 x 32 tiles through shared memory so y (row-major) is written coalesced too. No
//   copy of x is made.
// - Any other layout (odd row pitch, N not a multiple of the pack, non-unit column
//   stride) takes the same kernels with scalar accesses that honour the strides.
//
// Numerics as the Triton solution: float32 throughout, exp(x - rowmax) as
// exp2((x - max) * log2 e), y = e * (1 / sum), one rounding to x's dtype at the store.
// -inf entries give 0 (exp2(-inf) = 0); a row that is all -inf gives NaN like torch.
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

// Pack p of a row: W == 1 is one element at column p (column stride honoured), W > 1 a
// 16-byte vector at columns p*W .. p*W + W-1 (unit column stride, aligned row).
template <typename T, int W>
__device__ __forceinline__ Pack<T, W> load_pack(const T* __restrict__ row, int64_t p,
                                                int64_t col_stride) {
  if constexpr (W == 1) {
    Pack<T, 1> r;
    r.v[0] = row[p * col_stride];
    return r;
  } else {
    return *reinterpret_cast<const Pack<T, W>*>(row + p * W);
  }
}
template <typename T, int W>
__device__ __forceinline__ void store_pack(T* __restrict__ row, int64_t p, const Pack<T, W>& v) {
  *reinterpret_cast<Pack<T, W>*>(row + p * W) = v;
}

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kNegInf = -INFINITY;
constexpr int kMaxValues = 32;       // float32 values of a row kept per thread
constexpr int kMaxGroup = 1024;      // threads per row at most (one block)
constexpr int64_t kTargetThreads = 128 * 1024;  // ~1K threads on each of the 132 SMs

// Max / sum of v over the G threads of a row group (result valid in every thread).
// G <= 32: xor shuffles inside the warp (G a power of two). G > 32: G == blockDim.x (a
// multiple of 32), one shared-memory step; `red` must not be reused by a later call.
__device__ __forceinline__ float group_max(float v, int group, float* red) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    if (o < group) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if (group <= 32) return v;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float t = lane < (group >> 5) ? red[lane] : kNegInf;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) t = fmaxf(t, __shfl_xor_sync(0xffffffffu, t, o));
  return t;
}
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

// Online softmax state: (m, s) = (running max, sum of exp(x - m)). Merging keeps a state
// that has seen only -inf at (-inf, 0) instead of computing -inf - -inf.
__device__ __forceinline__ void merge_state(float& m, float& s, float m2, float s2) {
  const float nm = fmaxf(m, m2);
  if (nm == kNegInf) return;  // both empty (s and s2 are 0)
  s = s * exp2f((m - nm) * kLog2e) + s2 * exp2f((m2 - nm) * kLog2e);
  m = nm;
}

// ---------------------------------------------------------------------------------------
// Whole row in registers: one row per group of `group` threads, ITEMS packs of W
// elements per thread (pack p = g + i * group). Requires N <= group * ITEMS * W.
template <typename T, int W, int ITEMS>
__global__ void __launch_bounds__(1024)
softmax_rows_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int N,
                    int64_t sx0, int64_t sx1, int group) {
  __shared__ float red_max[32], red_sum[32];
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
      for (int e = 0; e < W; ++e) v[i][e] = in ? to_f(buf[i].v[e]) : kNegInf;
    }
  }

  float m = kNegInf;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
#pragma unroll
    for (int e = 0; e < W; ++e) m = fmaxf(m, v[i][e]);
  m = group_max(m, group, red_max);

  // Padding slots hold -inf: exp2(-inf) = 0, so they add nothing.
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
#pragma unroll
    for (int e = 0; e < W; ++e) {
      v[i][e] = exp2f((v[i][e] - m) * kLog2e);
      s += v[i][e];
    }
  s = group_sum(s, group, red_sum);
  const float inv = 1.f / s;

  if (!valid) return;
  T* yr = y + row * N + g * W;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (g + i * group < npack) {
      Pack<T, W> out;
#pragma unroll
      for (int e = 0; e < W; ++e) out.v[e] = from_f<T>(v[i][e] * inv);
      *reinterpret_cast<Pack<T, W>*>(yr + i * group * W) = out;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rows too long for registers: a block per row, an online (max, sum) pass and a write pass.
constexpr int kLoopThreads = 512;
constexpr int kLoopUnroll = 4;

template <typename T, int W>
__global__ void __launch_bounds__(kLoopThreads)
softmax_looped_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t N, int64_t sx0,
                      int64_t sx1) {
  __shared__ float red_m[32], red_s[32];
  const int64_t row = blockIdx.x;
  const T* xr = x + row * sx0;
  T* yr = y + row * N;
  const int64_t npack = N / W;
  const int64_t step = static_cast<int64_t>(blockDim.x) * kLoopUnroll;

  float m = kNegInf, s = 0.f;
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
        float pm = kNegInf;
#pragma unroll
        for (int e = 0; e < W; ++e) pm = fmaxf(pm, to_f(buf[u].v[e]));
        const float nm = fmaxf(m, pm);
        if (nm != kNegInf) {
          float ps = 0.f;
#pragma unroll
          for (int e = 0; e < W; ++e) ps += exp2f((to_f(buf[u].v[e]) - nm) * kLog2e);
          s = s * exp2f((m - nm) * kLog2e) + ps;
          m = nm;
        }
      }
    }
  }
  // Block-wide merge of the (m, s) states.
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
    merge_state(m, s, m2, s2);
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    red_m[warp] = m;
    red_s[warp] = s;
  }
  __syncthreads();
  m = lane < static_cast<int>(blockDim.x >> 5) ? red_m[lane] : kNegInf;
  s = lane < static_cast<int>(blockDim.x >> 5) ? red_s[lane] : 0.f;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
    merge_state(m, s, m2, s2);
  }
  if (m == kNegInf) m = __int_as_float(0x7fc00000);  // an all -inf row is NaN, like torch
  const float inv = 1.f / s;

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
        Pack<T, W> out;
#pragma unroll
        for (int e = 0; e < W; ++e)
          out.v[e] = from_f<T>(exp2f((to_f(buf[u].v[e]) - m) * kLog2e) * inv);
        store_pack<T, W>(yr, p, out);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Column-major x (sx0 == 1): 32 consecutive rows per block. Thread (tx, ty) owns row
// r0 + tx and columns ty, ty + 16, ... for the statistics (coalesced: a warp reads 32
// consecutive rows of one column); the write pass stages 32 x 32 tiles in shared memory
// so each warp writes 32 consecutive columns of one row of y.
constexpr int kTileRows = 32, kSplit = 16;

template <typename T>
__global__ void __launch_bounds__(kTileRows * kSplit)
softmax_colmajor_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                        int64_t sx1) {
  __shared__ float part_m[kSplit][kTileRows + 1], part_s[kSplit][kTileRows + 1];
  __shared__ float row_m[kTileRows], row_inv[kTileRows];
  __shared__ float tile[kTileRows][kTileRows + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kTileRows;
  const int64_t row = r0 + tx;
  const bool valid = row < M;

  float m = kNegInf, s = 0.f;
  if (valid) {
    const T* xr = x + row;
    int64_t j = ty;
    for (; j + 3 * kSplit < N; j += 4 * kSplit) {
      const float a = to_f(xr[j * sx1]);
      const float b = to_f(xr[(j + kSplit) * sx1]);
      const float c = to_f(xr[(j + 2 * kSplit) * sx1]);
      const float d = to_f(xr[(j + 3 * kSplit) * sx1]);
      const float nm = fmaxf(m, fmaxf(fmaxf(a, b), fmaxf(c, d)));
      if (nm != kNegInf) {
        s = s * exp2f((m - nm) * kLog2e) +
            ((exp2f((a - nm) * kLog2e) + exp2f((b - nm) * kLog2e)) +
             (exp2f((c - nm) * kLog2e) + exp2f((d - nm) * kLog2e)));
        m = nm;
      }
    }
    for (; j < N; j += kSplit) merge_state(m, s, to_f(xr[j * sx1]), 1.f);
  }
  part_m[ty][tx] = m;
  part_s[ty][tx] = s;
  __syncthreads();
  if (ty == 0) {
    float mm = part_m[0][tx], ss = part_s[0][tx];
#pragma unroll
    for (int k = 1; k < kSplit; ++k) merge_state(mm, ss, part_m[k][tx], part_s[k][tx]);
    row_m[tx] = mm == kNegInf ? __int_as_float(0x7fc00000) : mm;  // all -inf row: NaN
    row_inv[tx] = 1.f / ss;
  }
  __syncthreads();

  const float rm = row_m[tx], rinv = row_inv[tx];
  for (int64_t c0 = 0; c0 < N; c0 += kTileRows) {
#pragma unroll
    for (int k = 0; k < kTileRows / kSplit; ++k) {
      const int c = ty + k * kSplit;
      const int64_t col = c0 + c;
      float e = 0.f;
      if (valid && col < N) e = exp2f((to_f(x[row + col * sx1]) - rm) * kLog2e) * rinv;
      tile[c][tx] = e;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileRows / kSplit; ++k) {
      const int r = ty + k * kSplit;
      const int64_t out_row = r0 + r, col = c0 + tx;
      if (out_row < M && col < N) y[out_row * N + col] = from_f<T>(tile[tx][r]);
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
// `options` (ascending). False when a row does not fit in one block's registers.
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

template <typename T, int W, int ITEMS>
void run_rows(const RowPlan& p, const T* x, T* y, int64_t M, int64_t N, int64_t sx0,
              int64_t sx1, cudaStream_t stream) {
  softmax_rows_kernel<T, W, ITEMS><<<static_cast<unsigned>(p.blocks), p.threads, 0, stream>>>(
      x, y, M, static_cast<int>(N), sx0, sx1, p.group);
}

template <typename T>
void launch_softmax(const torch::Tensor& x, torch::Tensor& y) {
  const int64_t M = x.size(0), N = x.size(1);
  const T* xp = reinterpret_cast<const T*>(x.data_ptr());
  T* yp = reinterpret_cast<T*>(y.data_ptr());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int64_t sx0 = x.stride(0), sx1 = x.stride(1);

  if (sx0 == 1 && sx1 != 1 && M > 1 && N > 1) {
    const int64_t blocks = (M + kTileRows - 1) / kTileRows;
    softmax_colmajor_kernel<T><<<static_cast<unsigned>(blocks), dim3(kTileRows, kSplit), 0, stream>>>(
        xp, yp, M, N, sx1);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }

  constexpr int VEC = 16 / static_cast<int>(sizeof(T));
  const bool unit = sx1 == 1 || N == 1;
  const int64_t col_stride = unit ? 1 : sx1;
  // 16-byte packs need every row start of x and of y (pitch N) 16-byte aligned.
  const bool vec = unit && N % VEC == 0 && reinterpret_cast<uintptr_t>(xp) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(yp) % 16 == 0 && (M == 1 || sx0 % VEC == 0);
  RowPlan plan;
  if (vec) {
    static constexpr int kVecItems[] = {1, 2, 4, 8};
    constexpr int n_options = VEC == 4 ? 4 : 3;  // at most kMaxValues floats per thread
    if (plan_rows(M, N / VEC, kVecItems, n_options, &plan)) {
      switch (plan.items) {
        case 1: run_rows<T, VEC, 1>(plan, xp, yp, M, N, sx0, 1, stream); break;
        case 2: run_rows<T, VEC, 2>(plan, xp, yp, M, N, sx0, 1, stream); break;
        case 4: run_rows<T, VEC, 4>(plan, xp, yp, M, N, sx0, 1, stream); break;
        default:
          if constexpr (VEC * 8 <= kMaxValues) run_rows<T, VEC, 8>(plan, xp, yp, M, N, sx0, 1, stream);
          break;
      }
    } else {
      softmax_looped_kernel<T, VEC><<<static_cast<unsigned>(M), kLoopThreads, 0, stream>>>(
          xp, yp, N, sx0, 1);
    }
  } else {
    static constexpr int kScalarItems[] = {2, 8, 16};  // (32 would spill: 64-bit addresses)
    if (plan_rows(M, N, kScalarItems, 3, &plan)) {
      switch (plan.items) {
        case 2: run_rows<T, 1, 2>(plan, xp, yp, M, N, sx0, col_stride, stream); break;
        case 8: run_rows<T, 1, 8>(plan, xp, yp, M, N, sx0, col_stride, stream); break;
        default: run_rows<T, 1, 16>(plan, xp, yp, M, N, sx0, col_stride, stream); break;
      }
    } else {
      softmax_looped_kernel<T, 1><<<static_cast<unsigned>(M), kLoopThreads, 0, stream>>>(
          xp, yp, N, sx0, col_stride);
    }
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace

// softmax(x) -> y with y[i, j] = exp(x[i, j] - max_k x[i, k]) / sum_k exp(x[i, k] - max_k x[i, k])
//   x: 2-D (M, N) CUDA tensor, float32 / float16 / bfloat16, any strides.
//   Returns a new contiguous (M, N) tensor of x's dtype (computed in float32). x is not
//   modified.
torch::Tensor softmax(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "softmax: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "softmax: x must be 2-D");
  const c10::cuda::CUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), x.size(1)}, x.options());
  if (x.numel() == 0) return y;
  switch (x.scalar_type()) {
    case torch::kFloat32: launch_softmax<float>(x, y); break;
    case torch::kFloat16: launch_softmax<__half>(x, y); break;
    case torch::kBFloat16: launch_softmax<__nv_bfloat16>(x, y); break;
    default: TORCH_CHECK(false, "softmax: dtype must be float32, float16 or bfloat16");
  }
  return y;
}
