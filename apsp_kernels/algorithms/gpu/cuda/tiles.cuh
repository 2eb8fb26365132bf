// The tile loop of the blocked FW kernels (Katz & Kider, Kemp Algs. 16-18; Kemp's out-of-core
// Alg. 19 uses the same one): for each k of the B x B tile, cur(ty, tx) = min(cur(ty, tx),
// lhs(ty, k) + rhs(k, tx)), one __syncthreads per k.  A thread writes its entry only when it
// improves: in iteration k the entries of row k and column k never improve (the diagonal is 0),
// so this leaves them unchanged and removes the read-write overlap racecheck would report.
#pragma once

template <int B>
__device__ __forceinline__ void relax_tile(int (*cur)[B], int (*lhs)[B], int (*rhs)[B], int ty, int tx)
{
    for (int k = 0; k < B; ++k) {
        int cand = lhs[ty][k] + rhs[k][tx];
        if (cand < cur[ty][tx])
            cur[ty][tx] = cand;
        __syncthreads();
    }
}
