// Our own solution, in LeetGPU's CUDA form, of its public challenge easy/1_vector_add
// (C = A + B, float32, N elements): used to check LeetGPU clones on a GPU (bench/packs_gpu.sh).
#include <cuda_runtime.h>

__global__ void add4(const float4* a, const float4* b, float4* c, long n4) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

__global__ void add1(const float* a, const float* b, float* c, long start, long n) {
  long i = start + blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const bool aligned = ((reinterpret_cast<unsigned long>(A) | reinterpret_cast<unsigned long>(B) |
                         reinterpret_cast<unsigned long>(C)) & 15) == 0;
  long n4 = aligned ? N / 4 : 0;
  if (n4) add4<<<(int)((n4 + 255) / 256 < 4096 ? (n4 + 255) / 256 : 4096), 256>>>(
      reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B), reinterpret_cast<float4*>(C), n4);
  long rest = N - 4 * n4;
  if (rest) add1<<<(int)((rest + 255) / 256), 256>>>(A, B, C, 4 * n4, N);
  cudaDeviceSynchronize();
}
