// A LeetGPU-style CUDA solution (written for ML Infra Studio's tests): extern "C" solve on
// device pointers, as the fixture challenge easy/1_scale declares it (x in, y out, n).
#include <cuda_runtime.h>

__global__ void scale3(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3.0f * x[i];
}

extern "C" void solve(const float* x, float* y, int n) {
  const int threads = 256;
  scale3<<<(n + threads - 1) / threads, threads>>>(x, y, n);
  cudaDeviceSynchronize();
}
