// Katz & Kider (2008) blocked Floyd-Warshall in shared memory: Kemp (2012) Algorithms 16-18,
// itself Venkataraman et al.'s blocked FW (Kemp Algorithm 8) mapped onto CUDA blocks.
// Faithful: rounds of three kernels on a B x B tiling (B = 16 as published, 32 as an option):
// phase 1 the primary (self-dependent) block with one CUDA block; phase 2 its row and column
// on a (nb-1, 2) grid, blockIdx.y choosing row or column and the "skip primary block" index
// arithmetic of Kemp's Fig. 4.2, x' = x + min((x + 1) / (r + 1), 1); phase 3 every remaining
// block on an (nb-1, nb-1) grid with the same skip in x and y (Fig. 4.3), three B x B arrays
// in shared memory (current, row, column).  One __syncthreads per k in phases 1 and 2.
// Readings: a thread writes its entry only when it improves.  In iteration k the entries of
// row k and column k of a tile never improve (the diagonal is 0), so this leaves the values
// unchanged and removes the read-write overlap on them that racecheck would report.
// The matrix is padded to a multiple of B with isolated vertices (Kemp: "|V| may be padded").
#include "common.cuh"
#include "tiles.cuh"

template <int B>
__global__ void kk_phase1(int* G, int n, int r)
{
    __shared__ int primary[B][B];
    int ty = threadIdx.y, tx = threadIdx.x;
    int i = r * B + ty, j = r * B + tx;
    primary[ty][tx] = G[i * n + j];
    __syncthreads();
    relax_tile<B>(primary, primary, primary, ty, tx);
    G[i * n + j] = primary[ty][tx];
}

template <int B>
__global__ void kk_phase2(int* G, int n, int r)
{
    __shared__ int primary[B][B];
    __shared__ int current[B][B];
    int ty = threadIdx.y, tx = threadIdx.x;
    int skip = min((int)(blockIdx.x + 1) / (r + 1), 1);        // Kemp Fig. 4.2
    int b = blockIdx.x + skip;
    int bi = blockIdx.y == 0 ? r : b;                          // y == 0: the primary's row
    int bj = blockIdx.y == 0 ? b : r;                          // y == 1: its column
    int i = bi * B + ty, j = bj * B + tx;
    primary[ty][tx] = G[(r * B + ty) * n + r * B + tx];
    current[ty][tx] = G[i * n + j];
    __syncthreads();
    if (blockIdx.y == 0)
        relax_tile<B>(current, primary, current, ty, tx);     // D(i,j) = min(D(i,j), P(i,k) + D(k,j))
    else
        relax_tile<B>(current, current, primary, ty, tx);     // D(i,j) = min(D(i,j), D(i,k) + P(k,j))
    G[i * n + j] = current[ty][tx];
}

template <int B>
__global__ void kk_phase3(int* G, int n, int r)
{
    __shared__ int current[B][B];
    __shared__ int rowBlock[B][B];
    __shared__ int columnBlock[B][B];
    int ty = threadIdx.y, tx = threadIdx.x;
    int bj = blockIdx.x + min((int)(blockIdx.x + 1) / (r + 1), 1);   // Fig. 4.2
    int bi = blockIdx.y + min((int)(blockIdx.y + 1) / (r + 1), 1);   // Fig. 4.3
    int i = bi * B + ty, j = bj * B + tx;
    current[ty][tx] = G[i * n + j];
    rowBlock[ty][tx] = G[i * n + r * B + tx];              // (bi, r): same block row, k columns
    columnBlock[ty][tx] = G[(r * B + ty) * n + j];         // (r, bj): k rows, same block column
    __syncthreads();
    int best = current[ty][tx];
    for (int k = 0; k < B; ++k)
        best = min(best, rowBlock[ty][k] + columnBlock[k][tx]);
    G[i * n + j] = best;
}

template __global__ void kk_phase1<16>(int*, int, int);
template __global__ void kk_phase2<16>(int*, int, int);
template __global__ void kk_phase3<16>(int*, int, int);
template __global__ void kk_phase1<32>(int*, int, int);
template __global__ void kk_phase2<32>(int*, int, int);
template __global__ void kk_phase3<32>(int*, int, int);
