// Int8 weight-only matmul in CUDA C++: y[m, n] = scale[n] * sum_k x[m, k] * w[k, n].
//
// Run it:  studio-drill run int8_wo_matmul path/to/this_file.cu [--bench]
//
// x: (M, K) float16 / bfloat16 (float32 checked), rows possibly padded; w: int8 (K, N), often
// the .t() view of an [N, K] weight; scale: (N,) of x's dtype. Use the strides. Dequantize in
// registers (never write a float copy of w); M = 1..16 is a GEMV: stream w once, coalesced.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void int8_wo_matmul_kernel(const T* __restrict__ x, const int8_t* __restrict__ w,
                                      const T* __restrict__ scale, T* __restrict__ y, int64_t M,
                                      int64_t N, int64_t K, int64_t stride_xm, int64_t stride_xk,
                                      int64_t stride_wk, int64_t stride_wn) {
  // Suggested shape (decode, small M): block blockIdx.x owns a strip of output columns. Read w
  // along its contiguous dimension (consecutive threads on consecutive n for a [K, N] w; on
  // consecutive k of one column for the .t() view, then reduce over k with warp shuffles),
  // convert each int8 to float and FMA it against x[m, k] for every m (stage x in shared
  // memory). Multiply the float32 sums by scale[n] once, round to T, store y (contiguous:
  // pitch N). Large M (1000 x 3000 x 1823): matmul tiles, converting w as you stage it.
}

torch::Tensor int8_wo_matmul(torch::Tensor x, torch::Tensor w, torch::Tensor scale) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && scale.is_cuda(),
              "int8_wo_matmul: inputs must be CUDA tensors");
  TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && x.size(1) == w.size(0),
              "int8_wo_matmul: x must be (M, K) and w (K, N)");
  TORCH_CHECK(w.scalar_type() == torch::kChar, "int8_wo_matmul: w must be int8");
  TORCH_CHECK(scale.numel() == w.size(1) && scale.scalar_type() == x.scalar_type(),
              "int8_wo_matmul: scale must be (N,) of x's dtype");
  // auto y = torch::empty({x.size(0), w.size(1)}, x.options());
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (x.scalar_type()) {
  //     case torch::kHalf: int8_wo_matmul_kernel<__half><<<blocks, 256, 0, stream>>>(
  //         reinterpret_cast<const __half*>(x.data_ptr()), w.data_ptr<int8_t>(), ...); break;
  //     case torch::kBFloat16: ... <__nv_bfloat16> ...   case torch::kFloat: ... <float> ...
  //     default: TORCH_CHECK(false, "int8_wo_matmul: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return y;
  TORCH_CHECK(false, "int8_wo_matmul: allocate the output and launch your kernel");
}
