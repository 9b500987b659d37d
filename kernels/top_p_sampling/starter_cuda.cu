// Top-p (nucleus) sampling in CUDA C++: for each row i of logits (M, V), rank
// softmax(logits[i]) descending (ties: lower token id first), keep the smallest prefix
// whose mass reaches p[i] (all of it if none does), and return the kept token whose
// interval of the cumulative mass contains u[i] * (kept mass).
//
// Run it:  studio-drill run top_p_sampling path/to/this_file.cu [--bench]
//
// logits: 2-D (M, V), float32 / float16 / bfloat16, possibly strided rows or a transposed
// view (use both strides). p, u: (M,) float32. Returns a new (M,) int64 tensor of ids.
// Suggested: one block per row; a max and a sum of exp (block reductions), then find the
// cut and the sampled token by thresholds on the logits (bisection or radix select on
// order-preserving uint32 keys), not by sorting the row.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16 (use __half2float / __bfloat162float).
template <typename T>
__global__ void top_p_kernel(const T* __restrict__ logits, const float* __restrict__ p,
                             const float* __restrict__ u, int64_t* __restrict__ out, int64_t V,
                             int64_t stride_m, int64_t stride_v) {
  // row = blockIdx.x; loop j = threadIdx.x; j < V; j += blockDim.x over
  // logits[row * stride_m + j * stride_v]; ...; thread 0 writes out[row].
}

torch::Tensor top_p_sampling(torch::Tensor logits, torch::Tensor p, torch::Tensor u) {
  TORCH_CHECK(logits.is_cuda() && p.is_cuda() && u.is_cuda(), "top_p_sampling: CUDA tensors expected");
  TORCH_CHECK(logits.dim() == 2, "top_p_sampling: logits must be 2-D");
  // auto out = torch::empty({logits.size(0)}, logits.options().dtype(torch::kLong));
  // auto pc = p.contiguous(), uc = u.contiguous();
  // switch (logits.scalar_type()) { case torch::kFloat: top_p_kernel<float><<<logits.size(0), 512, 0,
  //   c10::cuda::getCurrentCUDAStream()>>>(...); break; case torch::kHalf: ... <__half> ...
  //   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //   default: TORCH_CHECK(false, "top_p_sampling: unsupported dtype"); }
  // C10_CUDA_KERNEL_LAUNCH_CHECK();  then return out;
  TORCH_CHECK(false, "top_p_sampling: allocate the output and launch your kernel");
}
