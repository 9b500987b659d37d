// Dropout in CUDA C++ with a Philox-4x32-10 mask: element e = i * N + j takes word e % 4 of
// the Philox call on counter e // 4 (Triton's tl.rand4x(seed, e // 4)[e % 4]).
//
// Run it:  studio-drill run dropout path/to/this_file.cu [--bench]
//
// x: 2-D (M, N), float32 / float16 / bfloat16, possibly strided rows or a transposed view
// (use both strides). p: 0 <= p < 1 (compare in float32); seed: 0 <= seed < 2^63.
// y: a new contiguous (M, N) tensor of x's dtype, y = x * (1 / (1 - p)) where kept, else 0.
// cuRAND's curand_uniform4 lays out its counters and converts the words differently:
// write the rounds yourself (the statement has them).
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// The four uniforms of one Philox call (tl.rand4x(seed, counter)): counter (counter, 0, 0, 0),
// key (seed_lo, seed_hi); .x .y .z .w are words 0 .. 3, for elements 4 * counter + 0 .. 3.
__device__ __forceinline__ float4 philox_uniform4(uint32_t counter, uint32_t k0, uint32_t k1) {
  uint32_t c0 = counter, c1 = 0, c2 = 0, c3 = 0;
  // 10 rounds: hi/lo of 0xD2511F53 * c0 and of 0xCD9E8D57 * c2 (__umulhi and plain *), then
  //   c0' = hi(B * c2) ^ c1 ^ k0, c1' = lo(B * c2), c2' = hi(A * c0) ^ c3 ^ k1, c3' = lo(A * c0);
  //   k0 += 0x9E3779B9, k1 += 0xBB67AE85.
  // Then each word w: int32 v = (int32_t)w; v = v < 0 ? -v - 1 : v (i.e. ~v);
  //   uniform = (float)v * 4.6566127342e-10f.
  (void)c0; (void)c1; (void)c2; (void)c3; (void)k0; (void)k1;
  return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

// T: float, __half or __nv_bfloat16 (use __half2float / __float2half_rn and the bf16 pair).
template <typename T>
__global__ void dropout_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                               int64_t stride_m, int64_t stride_n, float p, float scale,
                               uint32_t k0, uint32_t k1) {
  // Suggested shape: a grid-stride loop over counters c, each thread handling the four
  // elements e = 4c .. 4c + 3 (e < M * N < 2^31; i = e / N, j = e % N, the last group may be
  // partial): float4 r = philox_uniform4((uint32_t)c, k0, k1); element 4c + w uses word w;
  // keep = r_w >= p; y[e] = keep ? x[i * stride_m + j * stride_n] * scale : 0.
}

torch::Tensor dropout(torch::Tensor x, double p, int64_t seed) {
  TORCH_CHECK(x.is_cuda(), "dropout: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "dropout: x must be 2-D");
  TORCH_CHECK(p >= 0.0 && p < 1.0, "dropout: p must be in [0, 1)");
  TORCH_CHECK(x.numel() < (int64_t(1) << 31), "dropout: M * N must be below 2^31");
  // auto y = torch::empty({x.size(0), x.size(1)}, x.options());   // contiguous
  // uint32_t k0 = uint32_t(uint64_t(seed) & 0xFFFFFFFFu), k1 = uint32_t(uint64_t(seed) >> 32);
  // float pf = float(p), scale = float(1.0 / (1.0 - p));
  // switch (x.scalar_type()) { case torch::kFloat: dropout_kernel<float><<<...,
  //   c10::cuda::getCurrentCUDAStream()>>>(...); break; case torch::kHalf: ... <__half> ...
  //   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //   default: TORCH_CHECK(false, "dropout: unsupported dtype"); }
  // C10_CUDA_KERNEL_LAUNCH_CHECK();  then return y;
  TORCH_CHECK(false, "dropout: allocate the output and launch your kernel");
}
