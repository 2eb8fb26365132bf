// Kemp's out-of-core Katz & Kider: Kemp (2012) Algorithm 19 (Section 4.7).
// The distance matrix lives in (pinned) host memory; each round stages what a phase needs:
// the primary block row R (B x N) and block column C (N x B) for phases 1 and 2, then the
// rest of the matrix in partitions of whole block rows S (sized by a device-memory budget)
// for phase 3, copying each partition back before the next.  The phase kernels are Katz &
// Kider's (katz_kider.cu) with addresses into these staged pieces instead of the whole
// matrix.  Readings: Kemp stages "up to three sets of data" per phase without detail; our
// staging (row/column strips, block-row partitions) is the simplest that keeps his
// three-phase structure.  Phase 1 writes the primary block to both R and C so that the two
// strips agree when they are copied back.  Same conditional write as katz_kider.cu.
#include "common.cuh"
#include "tiles.cuh"

// R: rows r*B .. r*B+B-1 of the matrix (B x N, ld N).  C: columns r*B .. (N x B, ld B).
template <int B>
__global__ void ooc_phase1(int* R, int* C, int N, int r)
{
    __shared__ int primary[B][B];
    int ty = threadIdx.y, tx = threadIdx.x;
    primary[ty][tx] = R[ty * N + r * B + tx];
    __syncthreads();
    relax_tile<B>(primary, primary, primary, ty, tx);
    R[ty * N + r * B + tx] = primary[ty][tx];
    C[(r * B + ty) * B + tx] = primary[ty][tx];
}

template <int B>
__global__ void ooc_phase2(int* R, int* C, int N, int r)
{
    __shared__ int primary[B][B];
    __shared__ int current[B][B];
    int ty = threadIdx.y, tx = threadIdx.x;
    int b = blockIdx.x + min((int)(blockIdx.x + 1) / (r + 1), 1);
    primary[ty][tx] = R[ty * N + r * B + tx];
    int* p = blockIdx.y == 0 ? &R[ty * N + b * B + tx] : &C[(b * B + ty) * B + tx];
    current[ty][tx] = *p;
    __syncthreads();
    if (blockIdx.y == 0)
        relax_tile<B>(current, primary, current, ty, tx);
    else
        relax_tile<B>(current, current, primary, ty, tx);
    *p = current[ty][tx];
}

// S: block rows firstBlockRow .. firstBlockRow + gridDim.y - 1 of the matrix (ld N).
template <int B>
__global__ void ooc_phase3(int* S, const int* R, const int* C, int N, int r, int firstBlockRow)
{
    __shared__ int current[B][B];
    __shared__ int rowBlock[B][B];
    __shared__ int columnBlock[B][B];
    int bi = firstBlockRow + blockIdx.y;
    if (bi == r)
        return;                                   // the primary block row was phase 2's
    int ty = threadIdx.y, tx = threadIdx.x;
    int bj = blockIdx.x + min((int)(blockIdx.x + 1) / (r + 1), 1);
    int li = blockIdx.y * B + ty, j = bj * B + tx;
    current[ty][tx] = S[li * N + j];
    rowBlock[ty][tx] = C[(bi * B + ty) * B + tx];
    columnBlock[ty][tx] = R[ty * N + j];
    __syncthreads();
    int best = current[ty][tx];
    for (int k = 0; k < B; ++k)
        best = min(best, rowBlock[ty][k] + columnBlock[k][tx]);
    S[li * N + j] = best;
}

template __global__ void ooc_phase1<16>(int*, int*, int, int);
template __global__ void ooc_phase2<16>(int*, int*, int, int);
template __global__ void ooc_phase3<16>(int*, const int*, const int*, int, int, int);
template __global__ void ooc_phase1<32>(int*, int*, int, int);
template __global__ void ooc_phase2<32>(int*, int*, int, int);
template __global__ void ooc_phase3<32>(int*, const int*, const int*, int, int, int);
