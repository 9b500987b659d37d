// RoPE in CUDA C++, half-rotated (rotate_half) layout: for i < D/2, q1 = q[b, s, h, i] and
// q2 = q[b, s, h, i + D/2] become q1*cos[s, i] - q2*sin[s, i] and q2*cos[s, i] + q1*sin[s, i].
//
// Run it:  studio-drill run rope path/to/this_file.cu [--bench]
//
// q: [B, S, H, D] (D even, D/2 not always a power of two), float32 / float16 / bfloat16, any
// strides (a slice of a fused QKV, a [B, H, S, D] tensor viewed as [B, S, H, D]): use all four.
// cos, sin: float32 [>= S, D/2]. Suggested: one block per (b, s), the table row reused over H.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void rope_kernel(const T* __restrict__ q, const float* __restrict__ cos_tab,
                            const float* __restrict__ sin_tab, T* __restrict__ out, int64_t S,
                            int64_t H, int64_t half, int64_t stride_qb, int64_t stride_qs,
                            int64_t stride_qh, int64_t stride_qd, int64_t stride_cs,
                            int64_t stride_ss) {
  // Suggested shape: blockIdx.x = b * S + s. Stage cos_tab[s, 0:half] and sin_tab[s, 0:half] in
  // shared memory (extern __shared__ float, 2 * half floats), __syncthreads(), then loop
  // p = threadIdx.x, p + blockDim.x, ... over the H * half pairs: h = p / half, i = p % half.
  // Rotate (q[i], q[i + half]) in float32 and write both halves of out, which is contiguous:
  // out[((b * S + s) * H + h) * 2 * half + i]. Mind the sign: the first half gets - q2 * sin.
}

torch::Tensor rope(torch::Tensor q, torch::Tensor cos, torch::Tensor sin) {
  TORCH_CHECK(q.is_cuda() && cos.is_cuda() && sin.is_cuda(), "rope: inputs must be CUDA tensors");
  TORCH_CHECK(q.dim() == 4 && q.size(3) % 2 == 0, "rope: q must be [B, S, H, D] with D even");
  TORCH_CHECK(cos.scalar_type() == torch::kFloat && sin.scalar_type() == torch::kFloat,
              "rope: cos and sin must be float32");
  TORCH_CHECK(cos.dim() == 2 && cos.size(0) >= q.size(1) && cos.size(1) == q.size(3) / 2 &&
                  sin.sizes() == cos.sizes(),
              "rope: cos and sin must be [>= S, D/2]");
  // auto out = torch::empty(q.sizes(), q.options());   // contiguous, unlike empty_like
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (q.scalar_type()) {
  //     case torch::kFloat:
  //       rope_kernel<float><<<B * S, 256, 2 * half * sizeof(float), stream>>>(
  //         q.data_ptr<float>(), cos.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "rope: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return out;
  TORCH_CHECK(false, "rope: allocate the output and launch your kernel");
}
