// Vector add in CUDA C++: your solution (the warm-up drill; see the statement).
//
// Run it:  studio-drill run vector_add path/to/this_file.cu [--bench]
//
// x, y: 1-D, float32 / float16 / bfloat16, any length from 1; x and y may be strided views
// (x[::2]): use their strides. Suggested: one thread per element, 256 threads per block.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void add_kernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out,
                           int64_t n, int64_t stride_x, int64_t stride_y) {
  // Suggested shape: thread threadIdx.x of block blockIdx.x handles element
  // i = blockIdx.x * blockDim.x + threadIdx.x (in int64_t). Which i exist? Guard the loads
  // and the store. Add in float32, round once to T.
}

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  TORCH_CHECK(x.is_cuda() && y.is_cuda(), "add: x and y must be CUDA tensors");
  TORCH_CHECK(x.dim() == 1 && y.dim() == 1 && x.size(0) == y.size(0),
              "add: x and y must be 1-D of the same length");
  TORCH_CHECK(x.scalar_type() == y.scalar_type(), "add: x and y must have the same dtype");
  // auto out = torch::empty({x.size(0)}, x.options());
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (x.scalar_type()) {
  //     case torch::kFloat:
  //       add_kernel<float><<<blocks, 256, 0, stream>>>(x.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "add: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return out;
  TORCH_CHECK(false, "add: allocate the output and launch your kernel");
}
