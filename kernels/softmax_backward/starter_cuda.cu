// Softmax backward in CUDA C++: dx = y * (dy - sum_j y_j * dy_j), row by row (see the statement).
//
// Run it:  studio-drill run softmax_backward path/to/this_file.cu [--bench]
//
// y, dy: 2-D (M, N), one dtype (float32 / float16 / bfloat16), possibly strided rows or
// transposed views: each has its own strides. Suggested: one block per row; the row dot
// product in float32 with warp shuffles + shared memory, then the elementwise formula.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void softmax_bwd_kernel(const T* __restrict__ y, const T* __restrict__ dy,
                                   T* __restrict__ dx, int64_t M, int64_t N,
                                   int64_t stride_ym, int64_t stride_yn,
                                   int64_t stride_dym, int64_t stride_dyn) {
  // Suggested shape: block blockIdx.x owns row i; thread t visits columns t, t + blockDim.x, ...
  // 1) dot = sum_j y[i, j] * dy[i, j], float32 partials reduced across the block
  //    (every thread needs the result: broadcast it through shared memory);
  // 2) dx[i, j] = y[i, j] * (dy[i, j] - dot), rounded once to T (dx contiguous: pitch N).
}

torch::Tensor softmax_backward(torch::Tensor y, torch::Tensor dy) {
  TORCH_CHECK(y.is_cuda() && dy.is_cuda(), "softmax_backward: y and dy must be CUDA tensors");
  TORCH_CHECK(y.dim() == 2 && y.sizes() == dy.sizes(),
              "softmax_backward: y and dy must be 2-D of the same shape");
  TORCH_CHECK(y.scalar_type() == dy.scalar_type(), "softmax_backward: y and dy must share a dtype");
  // auto dx = torch::empty({y.size(0), y.size(1)}, y.options());  // contiguous, unlike empty_like
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (y.scalar_type()) {
  //     case torch::kFloat:
  //       softmax_bwd_kernel<float><<<M, 256, 0, stream>>>(y.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "softmax_backward: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return dx;
  TORCH_CHECK(false, "softmax_backward: allocate the output and launch your kernel");
}
