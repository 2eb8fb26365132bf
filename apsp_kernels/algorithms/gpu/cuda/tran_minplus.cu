// Tran (2010) CUDA APSP by repeated min-plus squaring: Kemp (2012) Algorithms 14 and 15.
// Faithful: a tiled "matrix product" with min for + and + for x; 16x16 thread blocks, one
// output entry per thread; for each pair of tiles A (from the block's rows) and B (from its
// columns) both are staged in 16x16 shared arrays; ceil(log2(n-1)) launches, G and P in
// ping-pong.  Padding to a multiple of 16 as in tran_fw.cu; no INF checks (see there).
// Note: A[i][i] = 0, so min over m of A[i][m] + A[m][j] includes A[i][j] itself: one
// squaring doubles the number of edges a path may have.
#include "common.cuh"
#ifndef TRAN_B
#error "TRAN_B (Tran's tile size) is passed as a define by its launcher (dense.TRAN_TILE)"
#endif

extern "C" __global__ void tran_minplus_square(const int* __restrict__ G, int* __restrict__ P, int n)
{
    __shared__ int A[TRAN_B][TRAN_B];
    __shared__ int B[TRAN_B][TRAN_B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.y * TRAN_B + ty;
    int j = blockIdx.x * TRAN_B + tx;
    int minimumValue = APSP_INF;
    for (int t = 0; t < n; t += TRAN_B) {
        A[ty][tx] = G[i * n + t + tx];
        B[ty][tx] = G[(t + ty) * n + j];
        __syncthreads();
        for (int k = 0; k < TRAN_B; ++k)
            minimumValue = min(A[ty][k] + B[k][tx], minimumValue);
        __syncthreads();
    }
    P[i * n + j] = minimumValue;
}
