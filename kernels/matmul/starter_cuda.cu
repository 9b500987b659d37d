// Matrix multiply in CUDA C++: C[m, n] = sum_k A[m, k] * B[k, n], float32 accumulation.
//
// Run it:  studio-drill run matmul path/to/this_file.cu [--bench]
//
// a: (M, K), b: (K, N), one dtype: float16 / bfloat16 (float32 checked, TF32 allowed). b may be
// the .t() view of an [N, K] weight and a may have padded rows: use the strides. Any sizes (K = 1,
// 127, 1823). Suggested: shared-memory tiles per block; tensor cores once it is correct.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void matmul_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                              int64_t M, int64_t N, int64_t K, int64_t stride_am, int64_t stride_ak,
                              int64_t stride_bk, int64_t stride_bn) {
  // Suggested shape: block (blockIdx.x, blockIdx.y) computes the BM x BN tile of C at rows
  // BM * blockIdx.y, columns BN * blockIdx.x. Loop k0 = 0, BK, ... < K: stage the BM x BK tile
  // of A and the BK x BN tile of B in __shared__ memory (zeros past M, N and the K tail),
  // __syncthreads(), each thread accumulates a small register tile (say 8 x 8) in float32,
  // __syncthreads(). Store once, rounded to T, guarded against M and N (c contiguous: pitch N).
  // Then: tensor cores (nvcuda::wmma from <mma.h>: 16x16x16 half / bf16 fragments with a float
  // accumulator, or mma.sync), cp.async double buffering, tile order that keeps B in L2.
}

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda(), "matmul: a and b must be CUDA tensors");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
              "matmul: a must be (M, K) and b (K, N)");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "matmul: a and b must have the same dtype");
  // auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (a.scalar_type()) {
  //     case torch::kFloat:
  //       matmul_kernel<float><<<grid, 256, 0, stream>>>(a.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "matmul: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return c;
  TORCH_CHECK(false, "matmul: allocate the output and launch your kernel");
}
