// vector_add's host function takes one tensor; the drill calls add(x, y).
#include <torch/types.h>

__global__ void add_kernel(float* out) { }

torch::Tensor add(torch::Tensor x) {
  return x;
}
