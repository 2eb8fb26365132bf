// Hochberg's explorations (seed 002, Sec. 2.4) of his naive FW kernel (fw.c), each ONE change from the
// faithful kernel in hochberg_naive.cu, which stays as published.  Not one of Kemp's numbered algorithms.
//  * hochberg_rows_step: his kernel, token for token (tests/test_hochberg_kernels.py checks that), for
//    one build: with -DHOCHBERG_NO_SYNC it lacks the __syncthreads() (Exploration 2), and a thread other
//    than thread 0 may read the shared trkc before thread 0 has written it, i.e. whatever an earlier
//    block on that SM, or an earlier launch, left in that shared word.  (With the barrier, the
//    launchers run hochberg_naive.cu's kernel itself.)
//  * hochberg_cols_step: thread blocks are segments of a COLUMN (Exploration 4, his Fig. 1.5 right):
//    the (k, j) entry is shared, the (i, k) and (i, j) reads are strided by Na (not coalesced).
//  * hochberg_rows_step_next: his kernel plus the matrix of next vertices (Exploration 8): when k
//    improves (i, j), the first step from i towards j becomes the first step from i towards k.
// The layout explorations (Na = N, Na a multiple of 64, cudaMallocPitch; Exploration 3 and fwHelpers.h)
// change no kernel: the launcher passes another Na (row stride in ints) to hochberg_naive.cu's kernel.
// Deviation from his code, as in hochberg_naive.cu: INF is our APSP_INF instead of INT_MAX.
#include "common.cuh"

extern "C" __global__ void hochberg_rows_step(int k, int* devArray, int Na, int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's column
    if (col >= N)
        return;
    int arrayIndex = Na * blockIdx.y + col;
    __shared__ int trkc;                                 // this row, k-th column
    if (threadIdx.x == 0)
        trkc = devArray[Na * blockIdx.y + k];
#ifndef HOCHBERG_NO_SYNC
    __syncthreads();
#endif
    if (trkc == APSP_INF)
        return;
    int tckr = devArray[k * Na + col];                   // this column, k-th row
    if (tckr == APSP_INF)
        return;
    int betterMaybe = trkc + tckr;
    if (betterMaybe < devArray[arrayIndex])
        devArray[arrayIndex] = betterMaybe;
}

// Blocks of 256 threads down a column: blockIdx.y is the column, blockIdx.x * 256 + threadIdx.x the row.
extern "C" __global__ void hochberg_cols_step(int k, int* devArray, int Na, int N)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's row
    if (row >= N)
        return;
    int arrayIndex = Na * row + blockIdx.y;
    __shared__ int tckr;                                 // k-th row, this column
    if (threadIdx.x == 0)
        tckr = devArray[k * Na + blockIdx.y];
    __syncthreads();
    if (tckr == APSP_INF)
        return;
    int trkc = devArray[Na * row + k];                   // this row, k-th column
    if (trkc == APSP_INF)
        return;
    int betterMaybe = trkc + tckr;
    if (betterMaybe < devArray[arrayIndex])
        devArray[arrayIndex] = betterMaybe;
}

// nextHop[i * Na + j]: the vertex to step to from i on a shortest path to j (j itself for an edge, i on
// the diagonal, -1 for no path).  (i, k) is only written by this launch if d[k][k] < 0, a negative
// cycle (refused afterwards), so the read of nextHop[i][k] needs no more care than his read of d[i][k].
extern "C" __global__ void hochberg_rows_step_next(int k, int* devArray, int* nextHop, int Na, int N)
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
    if (betterMaybe < devArray[arrayIndex]) {
        devArray[arrayIndex] = betterMaybe;
        nextHop[arrayIndex] = nextHop[Na * blockIdx.y + k];
    }
}
