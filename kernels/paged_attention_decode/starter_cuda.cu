// Paged-attention decode in CUDA C++ (vLLM style, GQA): one query token per sequence,
//   out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b
// over the first context_lens[b] tokens of sequence b, read through its block table.
//
// Run it:  studio-drill run paged_attention_decode path/to/this_file.cu [--bench]
//
// q: [B, Hq, D], float16 / bfloat16 (float32 checked), D = 64 or 128, rows may be strided.
// k_cache, v_cache: [num_blocks, block_size, Hkv, D] of q's dtype (any block stride; D is
// contiguous); query head h reads KV head h / (Hq / Hkv). block_table: [B, max_blocks] int32:
// token t of sequence b is in block block_table[b][t / block_size], slot t % block_size;
// entries past a sequence's last block are garbage and slots past its last token are stale
// (they may hold NaN): read neither. context_lens: [B] int32, each >= 1.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T, int HEAD_DIM>
__global__ void paged_decode_kernel(const T* __restrict__ q, const T* __restrict__ k_cache,
                                    const T* __restrict__ v_cache,
                                    const int* __restrict__ block_table,
                                    const int* __restrict__ context_lens, T* __restrict__ out,
                                    int64_t Hkv, int64_t group, int64_t block_size, float scale,
                                    int64_t stride_qb, int64_t stride_qh,
                                    int64_t stride_kb, int64_t stride_ks, int64_t stride_kh,
                                    int64_t stride_vb, int64_t stride_vs, int64_t stride_vh,
                                    int64_t stride_tb) {
  // Suggested shape: one block per (sequence b, KV head kvh) = blockIdx.x, serving all `group`
  // query heads of that KV head, so each K/V row is read from memory once. Stage the group's
  // q rows in shared memory. Warps take tokens t < context_lens[b] (never further): the row
  // base is k_cache + block_table[b * stride_tb + t / block_size] * stride_kb
  // + (t % block_size) * stride_ks + kvh * stride_kh; lanes read the D elements with 16-byte
  // loads (uint4), dot with each q row, keep a running max / sum / accumulator per head in
  // float32 (online softmax, as in flash attention), then combine the warps through shared
  // memory and store acc / l to out (contiguous [B, Hq, D]). For long contexts at small
  // batch, add a grid dimension over context partitions and a second kernel that merges the
  // partitions' (max, sum, acc) with their exp(max - global max) weights (flash-decoding).
}

torch::Tensor paged_attention_decode(torch::Tensor q, torch::Tensor k_cache, torch::Tensor v_cache,
                                     torch::Tensor block_table, torch::Tensor context_lens) {
  TORCH_CHECK(q.is_cuda() && k_cache.is_cuda() && v_cache.is_cuda() && block_table.is_cuda() &&
                  context_lens.is_cuda(),
              "paged_attention_decode: inputs must be CUDA tensors");
  TORCH_CHECK(q.dim() == 3 && k_cache.dim() == 4 && k_cache.sizes() == v_cache.sizes(),
              "paged_attention_decode: q must be [B, Hq, D], k/v_cache [num_blocks, block_size, Hkv, D]");
  TORCH_CHECK(q.size(2) == k_cache.size(3) && q.size(1) % k_cache.size(2) == 0,
              "paged_attention_decode: head dims differ or Hq is not a multiple of Hkv");
  TORCH_CHECK(q.scalar_type() == k_cache.scalar_type() && q.scalar_type() == v_cache.scalar_type(),
              "paged_attention_decode: q and the caches must share a dtype");
  TORCH_CHECK(block_table.scalar_type() == torch::kInt && context_lens.scalar_type() == torch::kInt,
              "paged_attention_decode: block_table and context_lens must be int32");
  TORCH_CHECK(q.size(2) == 64 || q.size(2) == 128, "paged_attention_decode: head_dim must be 64 or 128");
  TORCH_CHECK(q.stride(2) == 1 && k_cache.stride(3) == 1 && v_cache.stride(3) == 1 &&
                  block_table.stride(1) == 1,
              "paged_attention_decode: the head dim and the table's rows must be contiguous");
  // auto out = torch::empty({q.size(0), q.size(1), q.size(2)}, q.options());   // contiguous
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // float scale = 1.0f / sqrtf((float)q.size(2));   int64_t group = q.size(1) / k_cache.size(2);
  // One instantiation per (dtype, D) (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16), e.g. bf16 with D = 128:
  //   paged_decode_kernel<__nv_bfloat16, 128><<<q.size(0) * k_cache.size(2), 128, 0, stream>>>(
  //       reinterpret_cast<const __nv_bfloat16*>(q.data_ptr()), ...,
  //       block_table.data_ptr<int>(), context_lens.data_ptr<int>(), ...);
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return out;
  TORCH_CHECK(false, "paged_attention_decode: allocate the output and launch your kernel");
}
