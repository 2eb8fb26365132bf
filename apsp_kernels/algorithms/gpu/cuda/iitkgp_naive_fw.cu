// Naive parallel Floyd-Warshall: seed 001 (Pathak et al., IIT Kharagpur), Section 5.2, Algorithm 14.
// The adjacency matrix flattened row-major (Section 2.1: A[u, v] at E[u * |V| + v]), non-edges INF;
// one launch per k; one thread per pair (u, v) updates E in place,
//     E[u, v] = min(E[u, v], E[u, k] + E[k, v]),
// with no shared memory and no test for INF (INF + INF fits in int32: common.cuh).  The seed notes
// that reading a value another thread of the same k has already updated cannot make the result
// wrong; in iteration k row k and column k do not change anyway (E[k, k] = 0).
// It differs from Hochberg's naive kernel (hochberg_naive.cu: shared (i, k) element, early exit on
// INF, padded rows, a store only on improvement) and from Tran's (ping-pong, shared row/column).
// Readings: the thread layout is not stated; we use 2-D blocks (NAIVE_FW_TILE x NAIVE_FW_TILE from
// the launcher, x along v so that a warp reads a row segment) over the unpadded |V| x |V| matrix,
// threads outside it doing nothing.  Offsets are size_t so that |V| above 46,340 cannot overflow.
#include "common.cuh"

extern "C" __global__ void naive_fw_step(int* E, int n, int k)
{
    int u = blockIdx.y * blockDim.y + threadIdx.y;
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || v >= n)
        return;
    size_t uv = (size_t)u * n + v;
    E[uv] = min(E[uv], E[(size_t)u * n + k] + E[(size_t)k * n + v]);
}
