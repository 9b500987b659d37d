// SwiGLU in CUDA C++: y[i, j] = silu(g) * u = g * sigmoid(g) * u, with g = gu[i, j] and
// u = gu[i, j + H] (gu is (M, 2H): the gate half, then the up half, of each row).
//
// Run it:  studio-drill run swiglu path/to/this_file.cu [--bench]
//
// gu: 2-D (M, 2H), float32 / float16 / bfloat16, possibly strided rows or a transposed view
// (use both strides). y: a new contiguous (M, H) tensor of gu's dtype. Suggested: a 2-D grid
// of tiles, threads along the columns; g and u are two pointers into the same row.
#include <torch/types.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// T: float, __half or __nv_bfloat16. Torch builds turn off the implicit half conversions:
// use __half2float / __bfloat162float, and __float2half_rn / __float2bfloat16_rn back.
template <typename T>
__global__ void swiglu_kernel(const T* __restrict__ gu, T* __restrict__ y, int64_t M, int64_t H,
                              int64_t stride_m, int64_t stride_n) {
  // Suggested shape: column j = blockIdx.x * blockDim.x + threadIdx.x, row i = blockIdx.y (or
  // a few rows per block), guarded against M and H.
  // g = gu[i * stride_m + j * stride_n], u = gu[i * stride_m + (j + H) * stride_n], both to
  // float32; y = g / (1 + expf(-g)) * u (never expf(g) / (1 + expf(g)): inf / inf for g > 88),
  // rounded once to T and stored at y[i * H + j].
}

torch::Tensor swiglu(torch::Tensor gu) {
  TORCH_CHECK(gu.is_cuda(), "swiglu: gu must be a CUDA tensor");
  TORCH_CHECK(gu.dim() == 2 && gu.size(1) % 2 == 0, "swiglu: gu must be (M, 2H)");
  // const int64_t M = gu.size(0), H = gu.size(1) / 2;
  // auto y = torch::empty({M, H}, gu.options());  // contiguous
  // auto stream = c10::cuda::getCurrentCUDAStream();
  // dim3 grid((H + 255) / 256, M);
  // One instantiation per dtype (data_ptr<T>() knows float, at::Half, at::BFloat16 only:
  // reinterpret_cast the data_ptr() for __half / __nv_bfloat16):
  //   switch (gu.scalar_type()) {
  //     case torch::kFloat:
  //       swiglu_kernel<float><<<grid, 256, 0, stream>>>(gu.data_ptr<float>(), ...); break;
  //     case torch::kHalf: ... <__half> ...   case torch::kBFloat16: ... <__nv_bfloat16> ...
  //     default: TORCH_CHECK(false, "swiglu: unsupported dtype");
  //   }
  //   C10_CUDA_KERNEL_LAUNCH_CHECK();   then return y;
  TORCH_CHECK(false, "swiglu: allocate the output and launch your kernel");
}
