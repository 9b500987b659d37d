// Flash-decoding in CUDA C++ (split-KV decode attention, GQA): one query token per sequence,
//   out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b
// over the first cache_seqlens[b] tokens of k_cache[b], v_cache[b].
//
// Run it:  studio-drill run flash_decoding path/to/this_file.cu [--bench]
//
// q: [B, Hq, D], float16 / bfloat16 (float32 checked), D = 64 or 128, rows may be strided.
// k_cache, v_cache: [B, Lmax, Hkv, D] of q's dtype (flash_attn_with_kvcache's layout); D is
// contiguous, every other stride arbitrary (head-major views, a combined K/V buffer). Query
// head h reads KV head h / (Hq / Hkv). cache_seqlens: [B] int32, each in [1, Lmax]; the slots
// after a sequence's length may hold NaN: never read them.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T, int HEAD_DIM>
__global__ void split_kv_kernel(const T* __restrict__ q, const T* __restrict__ k_cache,
                                const T* __restrict__ v_cache,
                                const int* __restrict__ cache_seqlens,
                                float* __restrict__ lse, float* __restrict__ part,
                                int64_t Hkv, int64_t group, int64_t split_len, int64_t num_splits,
                                float scale, int64_t stride_qb, int64_t stride_qh,
                                int64_t stride_kb, int64_t stride_kt, int64_t stride_kh,
                                int64_t stride_vb, int64_t stride_vt, int64_t stride_vh) {
  // Suggested shape: grid (B * Hkv, num_splits); block blockIdx.x = (sequence b, KV head kvh)
  // serves all `group` query heads of that KV head (each K/V row read from memory once) over
  // the tokens [blockIdx.y * split_len, min((blockIdx.y + 1) * split_len, cache_seqlens[b])).
  // Stage the group's q rows in shared memory. Warps take tokens; the row base is
  // k_cache + b * stride_kb + t * stride_kt + kvh * stride_kh; lanes read the D elements
  // with 16-byte loads (uint4), dot with each q row, keep a running max / sum / accumulator
  // per head in float32 (online softmax), then combine the warps through shared memory.
  // Per query head, write the split's partial output acc / l to part[(b*Hq + h) * num_splits
  // + split][0..D) and its log-sum-exp m + log(l) to lse[...]. A split that starts past
  // cache_seqlens[b] has no tokens: write nothing.
}

__global__ void combine_kernel(const float* __restrict__ lse, const float* __restrict__ part,
                               const int* __restrict__ cache_seqlens, void* out, int64_t Hq,
                               int64_t head_dim, int64_t split_len, int64_t num_splits) {
  // Suggested shape: one block per (sequence, query head). Over the splits that held tokens,
  // cdiv(cache_seqlens[b], split_len) of them: M = max lse_i, w_i = expf(lse_i - M),
  // out = sum_i w_i * part_i / sum_i w_i, stored in q's dtype (template it like the kernel
  // above, or pass the element type).
}

torch::Tensor flash_decoding(torch::Tensor q, torch::Tensor k_cache, torch::Tensor v_cache,
                             torch::Tensor cache_seqlens) {
  TORCH_CHECK(q.is_cuda() && k_cache.is_cuda() && v_cache.is_cuda() && cache_seqlens.is_cuda(),
              "flash_decoding: inputs must be CUDA tensors");
  TORCH_CHECK(q.dim() == 3 && k_cache.dim() == 4 && k_cache.sizes() == v_cache.sizes(),
              "flash_decoding: q must be [B, Hq, D], k/v_cache [B, Lmax, Hkv, D]");
  TORCH_CHECK(q.size(0) == k_cache.size(0) && q.size(2) == k_cache.size(3) &&
                  q.size(1) % k_cache.size(2) == 0,
              "flash_decoding: batch or head dims differ, or Hq is not a multiple of Hkv");
  TORCH_CHECK(q.scalar_type() == k_cache.scalar_type() && q.scalar_type() == v_cache.scalar_type(),
              "flash_decoding: q and the caches must share a dtype");
  TORCH_CHECK(cache_seqlens.scalar_type() == torch::kInt, "flash_decoding: cache_seqlens must be int32");
  TORCH_CHECK(q.size(2) == 64 || q.size(2) == 128, "flash_decoding: head_dim must be 64 or 128");
  TORCH_CHECK(q.stride(2) == 1 && k_cache.stride(3) == 1 && v_cache.stride(3) == 1,
              "flash_decoding: the head dim must be contiguous");
  // auto out = torch::empty({q.size(0), q.size(1), q.size(2)}, q.options());   // contiguous
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // Pick num_splits from the SM count and Lmax = k_cache.size(1) (never cache_seqlens on the
  // host: that waits for the GPU), e.g. about 4 blocks per SM:
  //   int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;  (ATen/cuda/CUDAContext.h)
  // auto opts = q.options().dtype(torch::kFloat);
  // auto lse = torch::empty({q.size(0) * q.size(1), num_splits}, opts);
  // auto part = torch::empty({q.size(0) * q.size(1), num_splits, q.size(2)}, opts);
  // One instantiation per (dtype, D) (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16), e.g. bf16 with D = 128:
  //   split_kv_kernel<__nv_bfloat16, 128><<<dim3(B * Hkv, num_splits), 128, 0, stream>>>(
  //       reinterpret_cast<const __nv_bfloat16*>(q.data_ptr()), ...);
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();
  //   combine_kernel<<<B * Hq, 128, 0, stream>>>(...);   C10_CUDA_KERNEL_LAUNCH_CHECK();
  //   then return out;
  TORCH_CHECK(false, "flash_decoding: allocate the output and launch your kernel");
}
