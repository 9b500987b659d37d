// Int4 weight-only matmul in CUDA C++:
//   y[m, n] = sum_k x[m, k] * q[k, n] * scales[k / 128, n]
//
// Run it:  studio-drill run int4_wo_matmul path/to/this_file.cu [--bench]
//
// x: (M, K) float16 / bfloat16 (float32 checked), rows possibly padded; K % 128 == 0.
// w: uint8 (K / 2, N), often the .t() view of an (N, K / 2) buffer: byte w[j][n] holds q[2j][n]
//    in bits 0-3 and q[2j + 1][n] in bits 4-7, two's complement int4 in [-8, 7].
// scales: (K / 128, N) of x's dtype. Use the strides. Dequantize in registers (never write a
// float copy of w); M = 1..16 is a GEMV: stream the packed bytes once, 16 bytes per load.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// Sign-extend one nibble: (v ^ 8) - 8 maps 0..7 -> 0..7 and 8..15 -> -8..-1.
__device__ __forceinline__ int nibble_to_int(uint32_t byte, int high) {
  return static_cast<int>(((byte >> (4 * high)) & 0xFu) ^ 8u) - 8;
}

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void int4_wo_matmul_kernel(const T* __restrict__ x, const uint8_t* __restrict__ w,
                                      const T* __restrict__ scales, T* __restrict__ y,
                                      int64_t M, int64_t N, int64_t K, int64_t stride_xm,
                                      int64_t stride_xk, int64_t stride_wk, int64_t stride_wn,
                                      int64_t stride_sg, int64_t stride_sn) {
  // Suggested shape (decode, small M): block blockIdx.x owns a strip of output columns and
  // walks K one group (64 packed rows = 128 k) at a time. Read w along its contiguous
  // dimension (uint4 = 16 bytes = 32 nibbles per load), stage x's group in shared memory,
  // FMA each unpacked nibble against x[m, 2j] or x[m, 2j + 1] for every m into a float
  // partial sum, then add partial * scales[g, n] to the float accumulator (one multiply per
  // group, not per weight). Round to T and store y (contiguous: pitch N).
  // Large M (1000 x 3001 x 1920): matmul tiles, unpacking w as you stage it.
}

torch::Tensor int4_wo_matmul(torch::Tensor x, torch::Tensor w, torch::Tensor scales) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && scales.is_cuda(),
              "int4_wo_matmul: inputs must be CUDA tensors");
  TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && x.size(1) == 2 * w.size(0) && x.size(1) % 128 == 0,
              "int4_wo_matmul: x must be (M, K) with K % 128 == 0 and w (K / 2, N)");
  TORCH_CHECK(w.scalar_type() == torch::kByte, "int4_wo_matmul: w must be uint8");
  TORCH_CHECK(scales.dim() == 2 && scales.size(0) == x.size(1) / 128 && scales.size(1) == w.size(1) &&
              scales.scalar_type() == x.scalar_type(),
              "int4_wo_matmul: scales must be (K / 128, N) of x's dtype");
  // auto y = torch::empty({x.size(0), w.size(1)}, x.options());
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (x.scalar_type()) {
  //     case torch::kHalf: int4_wo_matmul_kernel<__half><<<blocks, 256, 0, stream>>>(
  //         reinterpret_cast<const __half*>(x.data_ptr()), w.data_ptr<uint8_t>(), ...); break;
  //     case torch::kBFloat16: ... <__nv_bfloat16> ...   case torch::kFloat: ... <float> ...
  //     default: TORCH_CHECK(false, "int4_wo_matmul: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return y;
  TORCH_CHECK(false, "int4_wo_matmul: allocate the output and launch your kernel");
}
