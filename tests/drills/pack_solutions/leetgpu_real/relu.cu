// Our own solution, in LeetGPU's CUDA form, of its public challenge easy/21_relu
// (output = max(input, 0), float32, N elements): used by bench/packs_gpu.sh.
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
  int blocks = (N + 255) / 256;
  relu<<<blocks < 8192 ? blocks : 8192, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
