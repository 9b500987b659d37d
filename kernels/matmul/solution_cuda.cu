// Reference solution: C = A @ B (fp16 / bf16 in, fp32 accumulate) in CUDA C++.
//
// Run it:  studio-drill run matmul kernels/matmul/solution_cuda.cu [--bench]
//
// Why it is fast. 2*M*N*K flops over (M*K + K*N + M*N) * itemsize bytes: at 4096^3 fp16
// that is ~1365 flop/byte, far above an H100's ridge point, so the product is
// compute-bound and the job is to keep the tensor cores fed. The fast path
// (mm_tc_kernel, fp16/bf16) is the classic Ampere-style "multistage" kernel, written out
// by hand with inline PTX:
//
// - Block tile 256 x 128 x 32, 8 warps in a 4 x 2 grid, each warp owning a 64 x 64 tile
//   of C: 4 x 8 mma.sync.m16n8k16 tiles, 128 fp32 accumulators per thread (~254
//   registers, one 256-thread block per SM). A 64 x 64 warp tile needs 8 ldmatrix.x4 per
//   32 mma, so shared-memory reads stay below the mma rate; the big block tile keeps the
//   L2 -> SM traffic at (256 + 128) * 2 bytes per k per 32K outputs.
// - Global -> shared with cp.async (16-byte chunks, .cg: L2 only, no register staging),
//   kStages = 5 buffers (120 KB of dynamic shared memory): while the warps multiply tile
//   k, tiles k+1..k+4 are on their way. Out-of-range chunks (M, N and K edges) use
//   cp.async's zero-fill (src-size 0), so edge tiles need no separate code and the K tail
//   adds zeros.
// - Shared memory is XOR-swizzled per 16-byte chunk (chunk ^ row bits), so both the
//   cp.async stores and the ldmatrix reads of 8 rows at one column hit 8 different bank
//   groups: conflict-free without padding. A is stored [m][k]; B either [k][n] (row-major
//   B, read with ldmatrix.trans) or [n][k] (B = W.t() of an nn.Linear weight W, read with
//   plain ldmatrix): both layouts run at full speed, no transposing copy.
// - Register double buffering of the fragments: the ldmatrix for k-step s+1 (including
//   the first step of the next tile, right after its barrier) is issued before the 32
//   mma of step s, so the tensor pipe does not wait on shared memory.
// - Grouped launch order (GROUP_M = 8 tile rows walked column by column) so the blocks in
//   flight share A rows and B columns in L2.
// - Epilogue: fp32 accumulators are rounded once to C's dtype, staged through (now free)
//   shared memory and written with coalesced 16-byte stores.
// - Few-tile shapes with a long K split K over blockIdx.z so more SMs stream B: fp32
//   partials go to a workspace and a small kernel adds them up and rounds.
//
// On Hopper (an sm_90a build, which the app makes on an H100/H200) the big shapes take a
// third kernel, mm_wgmma_kernel (described where it is defined): TMA loads and wgmma, the
// tensor-core path cuBLAS uses. mma.sync is Hopper's legacy path and tops out near ~72% of
// cuBLAS (Nsight Compute: tensor pipe ~74% busy at ~400 TFLOP/s).
//
// Measured on one H100 SXM (torch 2.11, cuBLAS through torch.matmul in the same run;
// bench/results/cuda_drills_gpu.md): the wgmma path at 4096^3 fp16 ~620-660 TFLOP/s =
// 0.87-0.89x cuBLAS, 8192^3 0.95-1.04x, 4096 x 11008 x 4096 0.87-0.92x; the mma.sync
// kernel alone at 4096^3 ~410-440 TFLOP/s = 0.56-0.62x. Shapes with too few 128 x 256
// tiles (1024^3: 0.3x) and the memory-bound 16 x 8192 x 8192 (split K, ~0.58x) stay on the
// mma.sync kernel.
//
// The fast path needs K-contiguous A rows and B rows or columns whose pitch and base are
// 16-byte aligned, and K % 8 == 0 (whole 16-byte chunks). Anything else (float32, odd K
// such as 127 / 781 / 1823, padded rows with an odd pitch, misaligned views) takes
// mm_tiled_kernel: a plain 64 x 64 shared-memory tiled kernel with 4 x 4 outputs per
// thread, fp32 FMA (exact float32, no TF32), any strides. Offsets are 64-bit throughout.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

// Tuning knobs (the defaults are the H100 choice). Warp tiles are always 64 x 64.
#ifndef MM_BM
#define MM_BM 256
#endif
#ifndef MM_BN
#define MM_BN 128
#endif
#ifndef MM_BK
#define MM_BK 32
#endif
#ifndef MM_STAGES
#define MM_STAGES 5
#endif
#ifndef MM_MINB
#define MM_MINB 1
#endif
#ifndef MM_H_STAGES
#define MM_H_STAGES 4
#endif
#ifndef MM_H_B_LBO
#define MM_H_B_LBO 8192
#endif
#ifndef MM_H_B_SBO
#define MM_H_B_SBO 1024
#endif
#ifndef MM_GROUP_M
#define MM_GROUP_M 8
#endif

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
// Two floats rounded and packed into 32 bits (low half = x).
template <typename T> __device__ __forceinline__ uint32_t pack2(float x, float y);
template <> __device__ __forceinline__ uint32_t pack2<__half>(float x, float y) {
  __half2 h = __floats2half2_rn(x, y);
  return *reinterpret_cast<uint32_t*>(&h);
}
template <> __device__ __forceinline__ uint32_t pack2<__nv_bfloat16>(float x, float y) {
  __nv_bfloat162 h = __floats2bfloat162_rn(x, y);
  return *reinterpret_cast<uint32_t*>(&h);
}

// ---------------------------------------------------------------------------------------
// PTX wrappers
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// 16-byte global -> shared copy; valid == false writes 16 zero bytes and reads nothing.
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
// c += a (16x16, row) * b (16x8, col), fp32 accumulate.
template <typename T>
__device__ __forceinline__ void mma16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1);
template <>
__device__ __forceinline__ void mma16816<__half>(float (&c)[4], const uint32_t (&a)[4], uint32_t b0,
                                                 uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void mma16816<__nv_bfloat16>(float (&c)[4], const uint32_t (&a)[4], uint32_t b0,
                                                        uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ---------------------------------------------------------------------------------------
// Fast path: tensor cores, 128 x 256 x BK block tile, 8 warps, multistage cp.async.
// ---------------------------------------------------------------------------------------
constexpr int kBM = MM_BM, kBN = MM_BN, kBK = MM_BK, kStages = MM_STAGES;
constexpr int kWM = 64, kWN = 64;               // warp tile
constexpr int kWarpsM = kBM / kWM, kWarpsN = kBN / kWN;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kMinBlocks = MM_MINB;
constexpr int kMT = kWM / 16, kNT = kWN / 8;     // m16 x n8 mma tiles per warp
constexpr int kKSteps = kBK / 16;
constexpr int kGroupM = MM_GROUP_M;
constexpr int kAStage = kBM * kBK;               // elements per stage
constexpr int kBStage = kBK * kBN;
constexpr int kCPitch = kBN + 8;                 // epilogue staging pitch (+16 B: no conflicts)
constexpr int kPipeBytes = kStages * (kAStage + kBStage) * 2;
constexpr int kEpiBytes = kBM * kCPitch * 2;
constexpr int kSmemBytes = kPipeBytes > kEpiBytes ? kPipeBytes : kEpiBytes;
static_assert(kBK == 32 || kBK == 64, "BK must be 32 or 64");
static_assert(kBM % kWM == 0 && kBN % kWN == 0, "whole warp tiles");
static_assert((kThreads / (kBK / 8)) % 8 == 0 && (kThreads / (kBN / 8)) % 8 == 0 && kThreads % (kBN / 8) == 0,
              "loader rows must keep the swizzle phase");

// Physical 16-byte chunk of logical chunk c in row r of a [rows][kBK] tile (k contiguous).
// 8 consecutive rows at one logical chunk land in 8 distinct 16-byte bank groups.
__device__ __forceinline__ int swz_k(int r, int c) {
  if constexpr (kBK == 64) return c ^ (r & 7);     // 128-byte rows
  else return c ^ ((r >> 1) & 3);                   // 64-byte rows: two rows per 128 bytes
}

// kBKMajor: B is given as a K-contiguous [N][K] matrix (b = W.t()), pitch ldb; otherwise
// B is N-contiguous [K][N], pitch ldb. A is K-contiguous [M][K], pitch lda. If ws is set,
// blockIdx.z owns k-tiles [z*kt_per_split, ...) and writes fp32 partials to ws[z][M][N].
template <typename T, bool kBKMajor>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
mm_tc_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, float* __restrict__ ws,
             int M, int N, int K, int64_t lda, int64_t ldb, int kt_per_split) {
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t sA = smem_u32(smem);
  const uint32_t sB = sA + kStages * kAStage * 2;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;

  // Grouped tile order: kGroupM tile rows, walked column by column.
  const int tiles_m = (M + kBM - 1) / kBM, tiles_n = (N + kBN - 1) / kBN;
  const int per_group = kGroupM * tiles_n;
  const int pid = blockIdx.x;
  const int first_m = (pid / per_group) * kGroupM;
  const int gsize = min(tiles_m - first_m, kGroupM);
  const int tm = first_m + (pid % per_group) % gsize;
  const int tn = (pid % per_group) / gsize;
  const int m0 = tm * kBM, n0 = tn * kBN;

  const int ktiles = (K + kBK - 1) / kBK;
  const int kt_begin = blockIdx.z * kt_per_split;
  const int nkt = max(min(ktiles, kt_begin + kt_per_split) - kt_begin, 0);

  // ---- loader: each thread owns fixed chunks of every stage -------------------------
  // A: [kBM][kBK], kCA chunks per row; thread -> chunk column a_c, rows a_r + i * kARows.
  constexpr int kCA = kBK / 8, kARows = kThreads / kCA, kAIters = kBM / kARows;
  const int a_c = tid % kCA, a_r = tid / kCA;
  const T* a_src = A + static_cast<int64_t>(m0 + a_r) * lda + a_c * 8;
  const int64_t a_step = static_cast<int64_t>(kARows) * lda;
  uint32_t a_rows_ok = 0;
#pragma unroll
  for (int i = 0; i < kAIters; ++i) a_rows_ok |= (m0 + a_r + i * kARows < M ? 1u : 0u) << i;
  const uint32_t a_dst = (a_r * kBK + swz_k(a_r, a_c) * 8) * 2;

  // B (row-major [K][N]): [kBK][kBN] tile, 32 chunks per row, rows b_r + i * 8.
  // B (K-major [N][K]):   [kBN][kBK] tile like A.
  constexpr int kCBr = kBN / 8, kBRowsR = kThreads / kCBr;             // row-major
  constexpr int kBRowsK = kThreads / kCA;                              // K-major
  constexpr int kBIters = kBStage / 8 / kThreads;
  int b_c, b_r;
  if constexpr (kBKMajor) { b_c = tid % kCA; b_r = tid / kCA; }
  else { b_c = tid % kCBr; b_r = tid / kCBr; }
  const T* b_src;
  int64_t b_step;
  uint32_t b_ok = 0, b_dst;
  if constexpr (kBKMajor) {
    b_src = B + static_cast<int64_t>(n0 + b_r) * ldb + b_c * 8;
    b_step = static_cast<int64_t>(kBRowsK) * ldb;
#pragma unroll
    for (int i = 0; i < kBIters; ++i) b_ok |= (n0 + b_r + i * kBRowsK < N ? 1u : 0u) << i;
    b_dst = (b_r * kBK + swz_k(b_r, b_c) * 8) * 2;
  } else {
    b_src = B + static_cast<int64_t>(b_r) * ldb + n0 + b_c * 8;
    b_step = static_cast<int64_t>(kBRowsR) * ldb;
    b_ok = n0 + b_c * 8 < N ? 1u : 0u;
    b_dst = (b_r * kBN + ((b_c ^ (b_r & 7)) * 8)) * 2;
  }

  auto load_tile = [&](int stage, int kt) {
    const int k0 = kt * kBK;
    const uint32_t as = sA + stage * (kAStage * 2);
    const bool ak = k0 + a_c * 8 < K;
#pragma unroll
    for (int i = 0; i < kAIters; ++i) {
      const bool v = ak && ((a_rows_ok >> i) & 1u);
      cp_async16(as + a_dst + i * (kARows * kBK * 2), v ? a_src + i * a_step + k0 : A, v);
    }
    const uint32_t bs = sB + stage * (kBStage * 2);
    if constexpr (kBKMajor) {
      const bool bk = k0 + b_c * 8 < K;
#pragma unroll
      for (int i = 0; i < kBIters; ++i) {
        const bool v = bk && ((b_ok >> i) & 1u);
        cp_async16(bs + b_dst + i * (kBRowsK * kBK * 2), v ? b_src + i * b_step + k0 : B, v);
      }
    } else {
      const T* src = b_src + static_cast<int64_t>(k0) * ldb;
#pragma unroll
      for (int i = 0; i < kBIters; ++i) {
        const bool v = b_ok && (k0 + b_r + i * kBRowsR < K);
        cp_async16(bs + b_dst + i * (kBRowsR * kBN * 2), v ? src + i * b_step : B, v);
      }
    }
  };

  // ---- fragments -----------------------------------------------------------------------
  uint32_t af[2][kMT][4], bfr[2][kNT / 2][4];
  auto load_frags = [&](uint32_t (&a)[kMT][4], uint32_t (&b)[kNT / 2][4], int stage, int kk) {
    const uint32_t as = sA + stage * (kAStage * 2);
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt) {
      const int row = wm * kWM + mt * 16 + (lane & 15);
      const int c = kk * 2 + (lane >> 4);
      ldsm_x4(a[mt], as + (row * kBK + swz_k(row, c) * 8) * 2);
    }
    const uint32_t bs = sB + stage * (kBStage * 2);
#pragma unroll
    for (int np = 0; np < kNT / 2; ++np) {
      if constexpr (kBKMajor) {
        const int n = wn * kWN + np * 16 + (lane & 7) + ((lane >> 4) << 3);
        const int c = kk * 2 + ((lane >> 3) & 1);
        ldsm_x4(b[np], bs + (n * kBK + swz_k(n, c) * 8) * 2);
      } else {
        const int k = kk * 16 + (lane & 7) + (((lane >> 3) & 1) << 3);
        const int c = wn * (kWN / 8) + np * 2 + (lane >> 4);
        ldsm_x4_t(b[np], bs + (k * kBN + (c ^ (k & 7)) * 8) * 2);
      }
    }
  };

  float acc[kMT][kNT][4];
#pragma unroll
  for (int i = 0; i < kMT; ++i)
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

  // ---- prologue: kStages - 1 tiles in flight ------------------------------------------
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < nkt) load_tile(s, kt_begin + s);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();

  // ---- main loop -----------------------------------------------------------------------
  int rd = 0, wr = kStages - 1;
  load_frags(af[0], bfr[0], rd, 0);
  for (int it = 0; it < nkt; ++it) {
#pragma unroll
    for (int kk = 0; kk < kKSteps; ++kk) {
      if (kk == kKSteps - 1) {
        // Tile it+1 must have landed, and every warp must be done with tile it-1's
        // buffer (refilled at kk == 0 below) before moving on.
        cp_async_wait<kStages - 2>();
        __syncthreads();
        rd = rd + 1 == kStages ? 0 : rd + 1;
      }
      // Fragments of the next k-step (the next tile's first one at the last step).
      load_frags(af[(kk + 1) & 1], bfr[(kk + 1) & 1], rd, (kk + 1) % kKSteps);
      if (kk == 0) {
        const int nxt = it + kStages - 1;
        if (nxt < nkt) load_tile(wr, kt_begin + nxt);
        cp_async_commit();  // (an empty group past the end keeps the wait counts uniform)
        wr = wr + 1 == kStages ? 0 : wr + 1;
      }
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
          mma16816<T>(acc[mt][nt], af[kk & 1][mt], bfr[kk & 1][nt >> 1][(nt & 1) * 2],
                      bfr[kk & 1][nt >> 1][(nt & 1) * 2 + 1]);
    }
  }

  // ---- epilogue ------------------------------------------------------------------------
  const int g = lane >> 2, t = lane & 3;
  if (ws != nullptr) {  // split-K partials, fp32
    float* w = ws + static_cast<int64_t>(blockIdx.z) * M * N;
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt) {
        const int col = n0 + wn * kWN + nt * 8 + t * 2;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = m0 + wm * kWM + mt * 16 + g + h * 8;
          if (row < M) {
            float* p = w + static_cast<int64_t>(row) * N + col;
            if (col < N) p[0] = acc[mt][nt][2 * h];
            if (col + 1 < N) p[1] = acc[mt][nt][2 * h + 1];
          }
        }
      }
    return;
  }

  cp_async_wait<0>();
  __syncthreads();  // all warps done with the pipeline buffers: reuse them for C
  uint32_t* sC = reinterpret_cast<uint32_t*>(smem);  // [kBM][kCPitch] halves, 2 per word
#pragma unroll
  for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt) {
      const int row = wm * kWM + mt * 16 + g, col = wn * kWN + nt * 8 + t * 2;
      sC[(row * kCPitch + col) >> 1] = pack2<T>(acc[mt][nt][0], acc[mt][nt][1]);
      sC[((row + 8) * kCPitch + col) >> 1] = pack2<T>(acc[mt][nt][2], acc[mt][nt][3]);
    }
  __syncthreads();
  const T* sCt = reinterpret_cast<const T*>(smem);
  const bool vec = (N & 7) == 0;
  constexpr int kCChunks = kBN / 8;
#pragma unroll 4
  for (int idx = tid; idx < kBM * kCChunks; idx += kThreads) {
    const int r = idx / kCChunks, c = idx % kCChunks;
    const int gr = m0 + r, gc = n0 + c * 8;
    if (gr >= M || gc >= N) continue;
    T* dst = C + static_cast<int64_t>(gr) * N + gc;
    const T* src = sCt + r * kCPitch + c * 8;
    if (vec) {
      *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
    } else {
      for (int e = 0; e < 8 && gc + e < N; ++e) dst[e] = src[e];
    }
  }
}

// Split-K: C = sum over s of ws[s], rounded once.
template <typename T>
__global__ void mm_splitk_reduce_kernel(const float* __restrict__ ws, T* __restrict__ C, int64_t MN, int splits) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < MN;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float s = 0.f;
    for (int z = 0; z < splits; ++z) s += ws[z * MN + i];
    C[i] = from_f<T>(s);
  }
}

// ---------------------------------------------------------------------------------------
// Fallback: any dtype, any strides, any K. 64 x 64 tile, 16-deep K slices, 4 x 4 per thread.
// ---------------------------------------------------------------------------------------
constexpr int kFT = 64, kFK = 16;
template <typename T>
__global__ void __launch_bounds__(256)
mm_tiled_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K,
                int64_t sam, int64_t sak, int64_t sbk, int64_t sbn) {
  __shared__ float As[kFK][kFT + 4];  // As[k][m]
  __shared__ float Bs[kFK][kFT + 4];  // Bs[k][n]
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kFT, n0 = blockIdx.x * kFT;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kFK) {
    for (int i = threadIdx.x; i < kFT * kFK; i += 256) {
      const int am = i / kFK, ak = i % kFK;   // consecutive threads walk k: coalesced for row-major A
      const int gm = m0 + am, gka = k0 + ak;
      As[ak][am] = (gm < M && gka < K) ? to_f(A[gm * sam + gka * sak]) : 0.f;
      const int bk = i / kFT, bn = i % kFT;   // consecutive threads walk n: coalesced for row-major B
      const int gkb = k0 + bk, gn = n0 + bn;
      Bs[bk][bn] = (gkb < K && gn < N) ? to_f(B[gkb * sbk + gn * sbn]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kFK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx * 4 + j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int gm = m0 + ty * 4 + i;
    if (gm >= M) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gn = n0 + tx * 4 + j;
      if (gn < N) C[static_cast<int64_t>(gm) * N + gn] = from_f<T>(acc[i][j]);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Hopper path (sm_90a builds on an H100/H200): TMA + wgmma, warp-specialised.
//
// mma.sync tops out near ~72% of cuBLAS on Hopper (see above). Hopper's own tensor-core
// instruction, wgmma, is issued by a whole warpgroup (4 warps, 128 threads) and reads its
// operands straight from shared memory through 64-bit "matrix descriptors", so no
// ldmatrix and no fragment registers; TMA (the Tensor Memory Accelerator) copies a whole
// 2-D tile from global to shared memory from one thread, swizzles it on the way in and
// fills what lies past the matrix edges with zeros. The block:
//
// - 384 threads = 3 warpgroups. Warpgroup 0 is the producer: one of its threads issues the
//   TMA copies of A's 128 x 64 tile and B's 64 x 256 tile into one of kHStages (4) shared
//   buffers, each guarded by two mbarriers: "full" (the copy engine counts the bytes in)
//   and "empty" (both consumers are done reading it). Warpgroups 1 and 2 are consumers:
//   each owns 64 rows x 256 columns of C, 128 fp32 accumulators per thread, and issues
//   four wgmma.m64n256k16 per k-tile. The producer gives back registers (setmaxnreg) so
//   the consumers can hold their accumulators without spilling.
// - Swizzle: the 128-byte swizzle that TMA applies is the one wgmma reads (16-byte chunk c
//   of row r stored at c ^ (r % 8) inside each 1024-byte block), so shared memory is read
//   without bank conflicts. A (K-major) is described as 8-row groups 1024 bytes apart; row-
//   major B ([K][N], N-major) as 64-column slabs (8 KB apart) of 8-row groups, with wgmma's
//   transpose bit set; B = W.t() (K-major) like A.
// - The consumers keep one k-tile of wgmma in flight (wait_group 1) and free the buffer
//   of the tile before it, so the producer refills while the tensor cores work.
// ---------------------------------------------------------------------------------------
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MM_SM90_DEVICE 1
#endif

constexpr int kHBM = 128, kHBN = 256, kHBK = 64, kHStages = MM_H_STAGES;
constexpr int kHThreads = 384;
constexpr int kHABytes = kHBM * kHBK * 2, kHBBytes = kHBN * kHBK * 2;
constexpr int kHStageBytes = kHABytes + kHBBytes;
constexpr int kHSmemBytes = kHStages * kHStageBytes + 1024 /* alignment */ + 2 * kHStages * 8;

#ifdef MM_SM90_DEVICE
__device__ __forceinline__ uint64_t gmma_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  uint64_t d = 0;
  d |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);
  d |= static_cast<uint64_t>((lbo & 0x3FFFF) >> 4) << 16;
  d |= static_cast<uint64_t>((sbo & 0x3FFFF) >> 4) << 32;
  d |= uint64_t{1} << 62;  // 128-byte swizzle
  return d;
}
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  } while (!done);
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* tmap, uint32_t bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n"
      ::"r"(dst), "l"(reinterpret_cast<uint64_t>(tmap)), "r"(bar), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }

template <int kTnspB>
__device__ __forceinline__ void wgmma_f16(float (&d)[128], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, %130;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "n"(kTnspB));
}
template <int kTnspB>
__device__ __forceinline__ void wgmma_bf16(float (&d)[128], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, %130;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "n"(kTnspB));
}

template <typename T, int kTnspB>
__device__ __forceinline__ void wgmma_tile(float (&d)[128], uint64_t da, uint64_t db) {
  if constexpr (std::is_same_v<T, __half>) wgmma_f16<kTnspB>(d, da, db);
  else wgmma_bf16<kTnspB>(d, da, db);
}

#endif  // MM_SM90_DEVICE

// kBKMajor as in mm_tc_kernel: B given as W.t() of a K-contiguous W [N][K].
template <typename T, bool kBKMajor>
__global__ void __launch_bounds__(kHThreads, 1)
mm_wgmma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                T* __restrict__ C, int M, int N, int K) {
#ifdef MM_SM90_DEVICE
  extern __shared__ __align__(1024) unsigned char hsmem[];
  // TMA's 128-byte swizzle repeats every 1024 bytes: align the buffers to that.
  const uint32_t raw = smem_u32(hsmem);
  const uint32_t base = (raw + 1023) & ~1023u;
  const uint32_t sA = base, sB = base + kHStages * kHABytes;
  const uint32_t full = sB + kHStages * kHBBytes, empty = full + kHStages * 8;
  const int tid = threadIdx.x, wg = tid / 128;

  const int tiles_m = (M + kHBM - 1) / kHBM, tiles_n = (N + kHBN - 1) / kHBN;
  const int per_group = kGroupM * tiles_n;
  const int pid = blockIdx.x;
  const int first_m = (pid / per_group) * kGroupM;
  const int gsize = min(tiles_m - first_m, kGroupM);
  const int m0 = (first_m + (pid % per_group) % gsize) * kHBM;
  const int n0 = ((pid % per_group) / gsize) * kHBN;
  const int ktiles = (K + kHBK - 1) / kHBK;

  if (tid == 0) {
    for (int s = 0; s < kHStages; ++s) {
      mbar_init(full + s * 8, 1);
      mbar_init(empty + s * 8, 2);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (tid == 0) {
      for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt % kHStages;
        if (kt >= kHStages) mbar_wait(empty + s * 8, ((kt / kHStages) - 1) & 1);
        const uint32_t bar = full + s * 8;
        mbar_expect_tx(bar, kHStageBytes);
        const int k0 = kt * kHBK;
        tma_load_2d(sA + s * kHABytes, &tmA, bar, k0, m0);
        if constexpr (kBKMajor) {
          tma_load_2d(sB + s * kHBBytes, &tmB, bar, k0, n0);
        } else {
#pragma unroll
          for (int j = 0; j < kHBN / 64; ++j)
            tma_load_2d(sB + s * kHBBytes + j * (64 * kHBK * 2), &tmB, bar, n0 + 64 * j, k0);
        }
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int cw = wg - 1;  // consumer 0 or 1: rows m0 + 64 * cw
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.f;

  for (int kt = 0; kt < ktiles; ++kt) {
    const int s = kt % kHStages;
    mbar_wait(full + s * 8, (kt / kHStages) & 1);
    const uint32_t a_tile = sA + s * kHABytes + cw * 64 * 128;
    const uint32_t b_tile = sB + s * kHBBytes;
#pragma unroll
    for (int i = 0; i < 128; ++i) fence_operand(d[i]);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kHBK / 16; ++kk) {
      const uint64_t da = gmma_desc(a_tile + kk * 32, 16, 1024);
      uint64_t db;
      if constexpr (kBKMajor) db = gmma_desc(b_tile + kk * 32, 16, 1024);
      else db = gmma_desc(b_tile + kk * 16 * 128, MM_H_B_LBO, MM_H_B_SBO);
      wgmma_tile<T, kBKMajor ? 0 : 1>(d, da, db);
    }
    wgmma_commit();
#pragma unroll
    for (int i = 0; i < 128; ++i) fence_operand(d[i]);
    // Keep this tile's wgmma in flight; the previous tile's are done: free its buffer.
    wgmma_wait<1>();
    if (kt > 0 && (tid % 128) == 0) mbar_arrive(empty + ((kt - 1) % kHStages) * 8);
  }
  wgmma_wait<0>();
#pragma unroll
  for (int i = 0; i < 128; ++i) fence_operand(d[i]);

  // Epilogue: accumulator (i, j) layout of m64nNk16: warp w of the warpgroup holds rows
  // 16w + lane/4 (+8); n-tile t holds columns 8t + 2*(lane%4) (+1).
  const int lane = tid & 31, w = (tid % 128) >> 5;
  const int r0 = m0 + cw * 64 + w * 16 + (lane >> 2);
#pragma unroll
  for (int t = 0; t < 32; ++t) {
    const int col = n0 + t * 8 + (lane & 3) * 2;
    if (col >= N) continue;  // N % 8 == 0 on this path, so col + 1 < N too
    if (r0 < M)
      *reinterpret_cast<uint32_t*>(C + static_cast<int64_t>(r0) * N + col) = pack2<T>(d[t * 4 + 0], d[t * 4 + 1]);
    if (r0 + 8 < M)
      *reinterpret_cast<uint32_t*>(C + static_cast<int64_t>(r0 + 8) * N + col) = pack2<T>(d[t * 4 + 2], d[t * 4 + 3]);
  }
#endif
}

__global__ void mm_sm90_probe(int* out) {
#ifdef MM_SM90_DEVICE
  *out = 1;
#else
  *out = 0;
#endif
}

// ---------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------
bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }
// A pitch is usable if it keeps every row 16-byte aligned (or there is only one row).
bool pitch_ok(int64_t pitch, int64_t rows) { return rows == 1 || pitch % 8 == 0; }

int sm_count(int dev) {
  static int cached[64] = {};
  if (dev < 0 || dev >= 64) dev = 0;
  if (cached[dev] == 0) {
    int v = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev));
    cached[dev] = v > 0 ? v : 1;
  }
  return cached[dev];
}

// ---- Hopper path, host side ------------------------------------------------------------
// cuTensorMapEncodeTiled is a driver API call; the runtime hands out its address, so the
// extension needs no link against libcuda.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  static bool tried = false;
  if (!tried) {
    tried = true;
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
#if CUDART_VERSION >= 12050
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
#else
    const cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q);
#endif
    if (e == cudaSuccess && q == cudaDriverEntryPointSuccess && p != nullptr)
      fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    else
      (void)cudaGetLastError();
  }
  return fn;
}

// A 2-D tensor map over a row-major matrix (inner x outer elements, rows `pitch` apart),
// copied in boxes of box_inner x box_outer with the 128-byte swizzle; reads past the
// edges return zeros.
template <typename T>
bool make_tensor_map(CUtensorMap* map, const void* ptr, int64_t inner, int64_t outer, int64_t pitch,
                     uint32_t box_inner, uint32_t box_outer) {
  auto encode = tensor_map_encoder();
  if (encode == nullptr) return false;
  const CUtensorMapDataType dt =
      std::is_same_v<T, __half> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  if (outer == 1) pitch = (inner + 7) / 8 * 8;  // one row: its pitch is never used
  cuuint64_t dims[2] = {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(outer)};
  cuuint64_t strides[1] = {static_cast<cuuint64_t>(pitch) * 2};
  cuuint32_t box[2] = {box_inner, box_outer};
  cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, dt, 2, const_cast<void*>(ptr), dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Was this extension built with the sm_90a kernels (and is this GPU a Hopper)? Asked once
// per device, never during CUDA-graph capture (a capture replays whatever path ran before).
bool hopper_path_built(int dev, cudaStream_t stream) {
  static int cached[64] = {};  // 0 unknown, 1 yes, 2 no
  int& c = cached[dev & 63];
  if (c != 0) return c == 1;
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capturing) != cudaSuccess || capturing != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return false;
  }
  int major = 0;
  C10_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major != 9 || tensor_map_encoder() == nullptr) { c = 2; return false; }
  if (const char* force = std::getenv("MM_PATH"); force != nullptr && std::strcmp(force, "mma") == 0) {
    c = 2;
    return false;
  }
  auto flag = torch::zeros({1}, torch::TensorOptions().dtype(torch::kInt32).device(torch::kCUDA, dev));
  mm_sm90_probe<<<1, 1, 0, stream>>>(flag.data_ptr<int>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  c = flag.item<int>() == 1 ? 1 : 2;
  return c == 1;
}

template <typename T, bool kBKMajor>
bool launch_wgmma(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, int64_t ldb) {
  const int M = static_cast<int>(a.size(0)), K = static_cast<int>(a.size(1)), N = static_cast<int>(b.size(1));
  CUtensorMap ta, tb;
  if (!make_tensor_map<T>(&ta, a.data_ptr(), K, M, a.stride(0), kHBK, kHBM)) return false;
  const bool ok = kBKMajor ? make_tensor_map<T>(&tb, b.data_ptr(), K, N, ldb, kHBK, kHBN)
                           : make_tensor_map<T>(&tb, b.data_ptr(), N, K, ldb, 64, kHBK);
  if (!ok) return false;
  const int dev = a.get_device();
  static bool attr_set[64] = {};
  if (!attr_set[dev & 63]) {
    C10_CUDA_CHECK(cudaFuncSetAttribute(mm_wgmma_kernel<T, kBKMajor>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        kHSmemBytes));
    attr_set[dev & 63] = true;
  }
  const int tiles = ((M + kHBM - 1) / kHBM) * ((N + kHBN - 1) / kHBN);
  mm_wgmma_kernel<T, kBKMajor><<<tiles, kHThreads, kHSmemBytes, c10::cuda::getCurrentCUDAStream()>>>(
      ta, tb, reinterpret_cast<T*>(c.data_ptr()), M, N, K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return true;
}

// The Hopper kernel when it pays: enough 128 x 256 tiles to fill the GPU (fewer go to the
// split-K path of mm_tc_kernel) and N a multiple of 8 (paired 4-byte stores).
template <typename T, bool kBKMajor>
bool try_wgmma(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, int64_t ldb) {
  const int64_t M = a.size(0), N = b.size(1);
  if (N % 8 != 0 || M < 64) return false;
  const int dev = a.get_device();
  const int64_t tiles = ((M + kHBM - 1) / kHBM) * ((N + kHBN - 1) / kHBN);
  if (tiles * 2 <= sm_count(dev)) return false;
  if (!hopper_path_built(dev, c10::cuda::getCurrentCUDAStream())) return false;
  return launch_wgmma<T, kBKMajor>(a, b, c, ldb);
}

template <typename T, bool kBKMajor>
void launch_tc(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, int64_t ldb) {
  const int M = static_cast<int>(a.size(0)), K = static_cast<int>(a.size(1)), N = static_cast<int>(b.size(1));
  const int dev = a.get_device();
  static bool attr_set[64] = {};
  if (!attr_set[dev & 63]) {
    C10_CUDA_CHECK(cudaFuncSetAttribute(mm_tc_kernel<T, kBKMajor>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        kSmemBytes));
    attr_set[dev & 63] = true;
  }
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int tiles = ((M + kBM - 1) / kBM) * ((N + kBN - 1) / kBN);
  const int ktiles = (K + kBK - 1) / kBK;
  const int sms = sm_count(dev);
  // Split K only when the tiles alone leave most SMs idle and each split keeps >= 8 k-tiles.
  // The fp32 workspace (splits * M * N floats, written and read back) is capped at 2^21
  // floats so its traffic stays small next to the time saved.
  int splits = 1;
  const int slots = sms * kMinBlocks;
  if (tiles * 2 <= slots) {
    const int64_t ws_cap = std::max<int64_t>(1, (int64_t{1} << 21) / (static_cast<int64_t>(M) * N));
    splits = static_cast<int>(std::min<int64_t>({slots / tiles, ktiles / 8, 16, ws_cap}));
    if (splits < 1) splits = 1;
  }
  const int per = (ktiles + splits - 1) / splits;
  splits = (ktiles + per - 1) / per;  // no empty splits
  const T* ap = reinterpret_cast<const T*>(a.data_ptr());
  const T* bp = reinterpret_cast<const T*>(b.data_ptr());
  T* cp = reinterpret_cast<T*>(c.data_ptr());
  dim3 grid(tiles, 1, splits);
  if (splits == 1) {
    mm_tc_kernel<T, kBKMajor><<<grid, kThreads, kSmemBytes, stream>>>(ap, bp, cp, nullptr, M, N, K, a.stride(0),
                                                                       ldb, per);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  auto ws = torch::empty({splits, M, N}, a.options().dtype(torch::kFloat32));
  float* wp = ws.data_ptr<float>();
  mm_tc_kernel<T, kBKMajor><<<grid, kThreads, kSmemBytes, stream>>>(ap, bp, cp, wp, M, N, K, a.stride(0), ldb, per);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const int64_t MN = static_cast<int64_t>(M) * N;
  const int64_t blocks = std::min<int64_t>((MN + 255) / 256, static_cast<int64_t>(sms) * 8);
  mm_splitk_reduce_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(wp, cp, MN, splits);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename T>
void launch_tiled(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c) {
  const int M = static_cast<int>(a.size(0)), K = static_cast<int>(a.size(1)), N = static_cast<int>(b.size(1));
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  dim3 grid((N + kFT - 1) / kFT, (M + kFT - 1) / kFT);
  mm_tiled_kernel<T><<<grid, 256, 0, stream>>>(reinterpret_cast<const T*>(a.data_ptr()),
                                               reinterpret_cast<const T*>(b.data_ptr()),
                                               reinterpret_cast<T*>(c.data_ptr()), M, N, K, a.stride(0),
                                               a.stride(1), b.stride(0), b.stride(1));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename T>
void launch_matmul(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c) {
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  if constexpr (!std::is_same_v<T, float>) {
    const bool a_ok = K % 8 == 0 && a.stride(1) == 1 && pitch_ok(a.stride(0), M) && aligned16(a.data_ptr());
    if (a_ok && aligned16(b.data_ptr())) {
      if (b.stride(1) == 1 && N % 8 == 0 && pitch_ok(b.stride(0), K)) {       // B row-major [K][N]
        if (!try_wgmma<T, false>(a, b, c, b.stride(0))) launch_tc<T, false>(a, b, c, b.stride(0));
        return;
      }
      if (b.stride(0) == 1 && pitch_ok(b.stride(1), N)) {                      // B = W.t(), W [N][K]
        if (!try_wgmma<T, true>(a, b, c, b.stride(1))) launch_tc<T, true>(a, b, c, b.stride(1));
        return;
      }
    }
  }
  launch_tiled<T>(a, b, c);
}

}  // namespace

// matmul(a, b) -> c = a @ b
//   a: (M, K), b: (K, N) CUDA tensors of one dtype (float16, bfloat16 or float32), any strides.
//   Returns a new contiguous (M, N) tensor of that dtype, accumulated in float32.
torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda(), "matmul: a and b must be CUDA tensors");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "matmul: a and b must be 2-D");
  TORCH_CHECK(a.size(1) == b.size(0), "matmul: shape mismatch (a is ", a.sizes(), ", b is ", b.sizes(), ")");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "matmul: a and b must share a dtype");
  TORCH_CHECK(a.get_device() == b.get_device(), "matmul: a and b must be on one device");
  TORCH_CHECK(a.size(0) < (int64_t{1} << 31) && a.size(1) < (int64_t{1} << 31) && b.size(1) < (int64_t{1} << 31),
              "matmul: dimensions must be below 2^31");
  const c10::cuda::CUDAGuard guard(a.device());
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  if (c.numel() == 0) return c;  // (K == 0 is fine: the fallback writes zeros)
  switch (a.scalar_type()) {
    case torch::kFloat16: launch_matmul<__half>(a, b, c); break;
    case torch::kBFloat16: launch_matmul<__nv_bfloat16>(a, b, c); break;
    case torch::kFloat32: launch_matmul<float>(a, b, c); break;
    default: TORCH_CHECK(false, "matmul: dtype must be float16, bfloat16 or float32");
  }
  return c;
}
