// Prefix sum in CUDA C++: y[i, j] = x[i, 0] + ... + x[i, j], each row scanned (see the statement).
//
// Run it:  studio-drill run prefix_sum path/to/this_file.cu [--bench]
//
// x: 2-D (M, N), float32 / float16 / bfloat16, N from 1 to 100003, possibly strided rows or a
// transposed view: use both strides. y is a new contiguous (M, N) tensor of x's dtype.
// Suggested: one block per row, the row walked in tiles of blockDim.x * ITEMS elements.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void prefix_sum_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                                  int64_t stride_xm, int64_t stride_xn) {
  // Suggested shape: block blockIdx.x owns row i and a float32 carry (0 at the start).
  // For each tile: every thread scans its ITEMS consecutive elements sequentially in float32,
  // the block scans the per-thread totals (__shfl_up_sync inside each warp, then the warp
  // totals through shared memory), each thread adds carry + the exclusive prefix of the
  // threads before it to its elements and stores them (rounded once to T; y's row pitch is N),
  // then the carry grows by the tile total (__syncthreads before shared memory is reused).
}

torch::Tensor prefix_sum(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "prefix_sum: x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "prefix_sum: x must be 2-D");
  // auto y = torch::empty({x.size(0), x.size(1)}, x.options());  // not empty_like: it keeps
  //                                                              // a transposed view's strides
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (x.scalar_type()) {
  //     case torch::kFloat:
  //       prefix_sum_kernel<float><<<M, 256, 0, stream>>>(x.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "prefix_sum: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return y;
  TORCH_CHECK(false, "prefix_sum: allocate the output and launch your kernel");
}
