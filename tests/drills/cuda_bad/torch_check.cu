// vector_add that refuses every input with a TORCH_CHECK of its own (line 7).
#include <torch/types.h>

__global__ void add_kernel(float* out) { }

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  TORCH_CHECK(x.dim() == 7, "add: expected a 7-D tensor, got ", x.dim(), "-D");
  return x;
}
