// Grouped GEMM for MoE experts in CUDA C++:
//   y[offsets[e] : offsets[e+1]] = x[offsets[e] : offsets[e+1]] @ w[e]    for every expert e
// x: [M, K], w: [E, K, N] (any strides: a transposed view of [E, N, K] too), offsets: [E + 1]
// int32 on the device (offsets[0] = 0, offsets[E] = M; experts may be empty). Return a new
// [M, N] tensor of x's dtype, accumulated in float32.
//
// Run it:  studio-drill run grouped_gemm path/to/this_file.cu [--bench]
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void grouped_gemm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                                    const int* __restrict__ offsets, T* __restrict__ y,
                                    int64_t E, int64_t N, int64_t K, int64_t stride_xm,
                                    int64_t stride_xk, int64_t stride_we, int64_t stride_wk,
                                    int64_t stride_wn) {
  // Suggested shape: a fixed grid of blocks walks the list of all experts' output tiles
  // (expert e has ceil(rows_e / BM) * ceil(N / BN) tiles), block b taking tiles b, b + gridDim.x,
  // ...; a tile: stage BM x BK of x and BK x BN of w[e] in shared memory, accumulate in
  // float32 (mma.sync / wmma for tensor cores), rows masked to offsets[e + 1].
}

torch::Tensor grouped_gemm(torch::Tensor x, torch::Tensor w, torch::Tensor offsets) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && offsets.is_cuda(), "grouped_gemm: inputs must be CUDA tensors");
  TORCH_CHECK(x.dim() == 2 && w.dim() == 3 && x.size(1) == w.size(1),
              "grouped_gemm: x must be [M, K] and w [E, K, N]");
  TORCH_CHECK(offsets.scalar_type() == torch::kInt && offsets.numel() == w.size(0) + 1,
              "grouped_gemm: offsets must be [E + 1] int32");
  TORCH_CHECK(x.scalar_type() == w.scalar_type(), "grouped_gemm: x and w must share a dtype");
  // auto y = torch::empty({x.size(0), w.size(2)}, x.options());
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (reinterpret_cast the data_ptr() for __half / __nv_bfloat16),
  // a grid of ~2 blocks per SM, C10_CUDA_KERNEL_LAUNCH_CHECK(), return y.
  TORCH_CHECK(false, "grouped_gemm: allocate the output and launch your kernel");
}
