// Our own solution, in LeetGPU's CUDA form, of its public challenge easy/3_matrix_transpose
// (output[cols][rows] = input[rows][cols], float32): a 32x32 shared-memory tile, padded
// against bank conflicts. Used by bench/packs_gpu.sh.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols) out[(long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  dim3 block(32, 8), grid((cols + 31) / 32, (rows + 31) / 32);
  transpose_tile<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
