// vector_add with a typo: `idx` is not declared (line 9), and a missing semicolon (line 16).
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>

__global__ void add_kernel(const float* x, const float* y, float* out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[idx] = x[i] + y[i];
}

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  auto out = torch::empty_like(x);
  const int64_t n = x.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), n)
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
