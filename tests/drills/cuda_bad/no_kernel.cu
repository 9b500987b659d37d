// vector_add with no kernel of its own: torch's elementwise add does the work.
#include <torch/torch.h>

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  return at::add(x, y);
}
