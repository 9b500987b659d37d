// Embedding backward in CUDA C++: grad_weight[v, :] = sum of grad_out[i, :] over every i with
// idx[i] == v, summed and returned in float32 (see the statement).
//
// Run it:  studio-drill run embedding_backward path/to/this_file.cu [--bench]
//
// idx: int64 (N,), ids in [0, vocab_size), repeats (one id may be all N), possibly strided
// (use idx.stride(0)); N may be 0. grad_out: (N, D) float32 / float16 / bfloat16, possibly
// strided rows or a transposed view (use both strides). grad_weight: a new float32
// (vocab_size, D) tensor; rows no id points at are 0.
// Suggested first version: zero the output, then atomicAdd each grad_out row into its row.
// Faster: sort the ids (torch::sort is fine), find each row's segment
// (torch::searchsorted), and give each output row a block that sums its segment in
// registers and stores the row once; split a hot id's long segment over several blocks.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

// T: float, __half or __nv_bfloat16 (torch builds turn off the implicit half conversions).
// Atomic version: block b handles token b, threads stride over the D columns.
template <typename T>
__global__ void embedding_backward_kernel(const int64_t* __restrict__ idx, int64_t idx_stride,
                                          const T* __restrict__ grad_out, int64_t stride_n,
                                          int64_t stride_d, float* __restrict__ grad_weight,
                                          int64_t n, int64_t d) {
  // const int64_t i = blockIdx.x;  const int64_t row = idx[i * idx_stride];
  // for (int64_t c = threadIdx.x; c < d; c += blockDim.x)
  //   atomicAdd(&grad_weight[row * d + c], to_float(grad_out[i * stride_n + c * stride_d]));
  // (a plain += loses updates when two tokens share an id: that is the duplicates case)
}

torch::Tensor embedding_backward(torch::Tensor idx, torch::Tensor grad_out, int64_t vocab_size) {
  TORCH_CHECK(idx.is_cuda() && grad_out.is_cuda(), "embedding_backward: CUDA tensors expected");
  TORCH_CHECK(idx.dim() == 1 && grad_out.dim() == 2 && idx.size(0) == grad_out.size(0),
              "embedding_backward: idx (N,) and grad_out (N, D) expected");
  TORCH_CHECK(idx.scalar_type() == torch::kLong, "embedding_backward: idx must be int64");
  // const int64_t n = grad_out.size(0), d = grad_out.size(1);
  // auto grad_weight = torch::empty({vocab_size, d}, grad_out.options().dtype(torch::kFloat));
  // Zero it with a kernel of yours (or torch::zeros for the atomic version), then, if n > 0:
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (grad_out.scalar_type()) {
  //     case torch::kFloat:
  //       embedding_backward_kernel<float><<<n, 256, 0, stream>>>(
  //         idx.data_ptr<int64_t>(), idx.stride(0), grad_out.data_ptr<float>(),
  //         grad_out.stride(0), grad_out.stride(1), grad_weight.data_ptr<float>(), n, d); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "embedding_backward: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return grad_weight;
  TORCH_CHECK(false, "embedding_backward: allocate the output and launch your kernel");
}
