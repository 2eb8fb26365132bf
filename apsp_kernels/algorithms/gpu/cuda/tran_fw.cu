// Tran (2010) CUDA Floyd-Warshall: Kemp (2012) Algorithms 12 and 13.
// Faithful: 16x16 thread blocks, one thread per matrix entry, |V| launches; per block the
// k-th row segment G[k, j..j+15] and column segment G[i..i+15, k] are staged in shared
// memory (row by the threads with threadIdx.y == 0, column by those with threadIdx.x == 0),
// and the result goes to the other matrix: G and P are used in ping-pong.
// Readings: Kemp's pseudo-code loads both from "G[threadID]", which cannot be meant; we
// follow his text (row G[k, j], column G[i, k]).  The matrix is padded to a multiple of 16
// with isolated vertices (INF, 0 on the diagonal) so that no thread is out of range;
// the padding never changes a real distance.  No INF checks, as in the paper: INF + INF
// fits in int32 (common.cuh) and values above INF/2 are mapped back to INF on the host.
#include "common.cuh"
#ifndef TRAN_B
#error "TRAN_B (Tran's tile size) is passed as a define by its launcher (dense.TRAN_TILE)"
#endif

extern "C" __global__ void tran_fw_step(const int* __restrict__ G, int* __restrict__ P, int n, int k)
{
    __shared__ int row[TRAN_B];
    __shared__ int column[TRAN_B];
    int i = blockIdx.y * TRAN_B + threadIdx.y;
    int j = blockIdx.x * TRAN_B + threadIdx.x;
    if (threadIdx.y == 0)
        row[threadIdx.x] = G[k * n + j];
    if (threadIdx.x == 0)
        column[threadIdx.y] = G[i * n + k];
    __syncthreads();
    P[i * n + j] = min(G[i * n + j], column[threadIdx.y] + row[threadIdx.x]);
}
