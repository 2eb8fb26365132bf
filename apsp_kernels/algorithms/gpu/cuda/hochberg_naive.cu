// Naive CUDA Floyd-Warshall: R. Hochberg, "Dynamic Programming with CUDA, Part I" (2012), fw.c.
// Not one of Kemp's numbered algorithms; the naive per-k kernel his Algorithm 12 refines.
// Faithful: one launch per k, 1x256 thread blocks over row segments (grid = ceil(N/256) x N),
// the (i, k) element read once per block into shared memory, rows padded to Na (a multiple
// of 32), in-place update of one matrix, early exit on infinite operands.
// Deviation: INF is our APSP_INF instead of INT_MAX (same role; see graph.py).
#include "common.cuh"

extern "C" __global__ void hochberg_fw_step(int k, int* devArray, int Na, int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's column
    if (col >= N)
        return;
    int arrayIndex = Na * blockIdx.y + col;
    __shared__ int trkc;                                 // this row, k-th column
    if (threadIdx.x == 0)
        trkc = devArray[Na * blockIdx.y + k];
    __syncthreads();
    if (trkc == APSP_INF)
        return;
    int tckr = devArray[k * Na + col];                   // this column, k-th row
    if (tckr == APSP_INF)
        return;
    int betterMaybe = trkc + tckr;
    if (betterMaybe < devArray[arrayIndex])
        devArray[arrayIndex] = betterMaybe;
}
