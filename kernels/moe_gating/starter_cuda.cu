// MoE top-k gating with token permutation in CUDA C++. For router logits [T, E]:
//   p = softmax(logits[t]); ids = the k largest logits, best first, equal logits -> lower id;
//   weights = p[ids] (divided by their sum when renormalize); counts = histogram of ids;
//   offsets = exclusive prefix of counts (E + 1 entries); perm = slots t*k + j sorted by
//   expert, ascending within an expert.
// Return one float32 vector [weights (T*k) | ids (T*k) | counts (E) | offsets (E+1) | perm (T*k)].
//
// Run it:  studio-drill run moe_gating path/to/this_file.cu [--bench]
//
// logits: [T, E] float32 / float16 / bfloat16, strides logits.stride(0), logits.stride(1).
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T_: float, __half or __nv_bfloat16. Use __half2float / __bfloat162float.
template <typename T_>
__global__ void route_kernel(const T_* __restrict__ logits, float* __restrict__ out,
                             int* __restrict__ block_counts, int64_t T, int64_t E, int64_t k,
                             int64_t stride_t, int64_t stride_e, int64_t tokens_per_block) {
  // Suggested shape: a warp per token (E <= 256: 8 logits per lane), softmax with warp
  // shuffles, k rounds of a warp arg-max (ties: lower id), weights and ids to out; count this
  // block's slots per expert in shared memory and store them to block_counts[e * blocks + b].
}

// Then: a scan over the blocks per expert (counts, and each block's start within its expert),
// and a placement kernel: offsets = exclusive scan of counts; a slot's place is
// offsets[e] + its block's start within e + its rank among the block's earlier slots of e.

torch::Tensor moe_gating(torch::Tensor logits, int64_t k, bool renormalize) {
  TORCH_CHECK(logits.is_cuda() && logits.dim() == 2, "moe_gating: logits must be a 2-D CUDA tensor");
  TORCH_CHECK(k >= 1 && k <= logits.size(1), "moe_gating: k must be in [1, E]");
  // const int64_t T = logits.size(0), E = logits.size(1), n = T * k;
  // auto out = torch::empty({3 * n + 2 * E + 1}, logits.options().dtype(torch::kFloat));
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // launch the kernels (reinterpret_cast the data_ptr() for __half / __nv_bfloat16),
  // C10_CUDA_KERNEL_LAUNCH_CHECK() after each, return out.
  TORCH_CHECK(false, "moe_gating: allocate the output and launch your kernel");
}
