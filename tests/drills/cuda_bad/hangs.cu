// vector_add whose kernel never returns: it spins on the clock for ~10^10 years. (An empty
// `while (flag) {}` may be removed by the compiler: C++ lets it assume loops terminate.)
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>

__global__ void add_kernel(const float* x, const float* y, float* out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const long long start = clock64();
  while (clock64() - start >= 0) { }   // clock64 is a volatile read: the loop stays
  if (i < n) out[i] = x[i] + y[i];
}

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  auto xc = x.contiguous().to(torch::kFloat32), yc = y.contiguous().to(torch::kFloat32);
  auto out = torch::empty_like(xc);
  const int64_t n = xc.numel();
  add_kernel<<<(n + 255) / 256, 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), yc.data_ptr<float>(), out.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out.to(x.scalar_type());
}
