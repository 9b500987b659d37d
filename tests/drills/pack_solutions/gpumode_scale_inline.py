# A GPU MODE-style CUDA submission (written for ML Infra Studio's tests) of the fixture
# problem practice/scale_py: custom_kernel(data) with data = (x, out), compiled with load_inline.
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>

__global__ void scale3(const float* x, float* out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3.0f * x[i];
}

torch::Tensor scale3_into(torch::Tensor x, torch::Tensor out) {
  long n = x.numel();
  scale3<<<(n + 255) / 256, 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
"""

module = load_inline("fixture_scale3", cpp_sources="torch::Tensor scale3_into(torch::Tensor x, torch::Tensor out);",
                     cuda_sources=CUDA_SRC, functions=["scale3_into"])


def custom_kernel(data):
    x, out = data
    return module.scale3_into(x, out)
