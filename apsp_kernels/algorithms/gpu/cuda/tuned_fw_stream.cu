// tuned_fw_stream: the one-k-per-launch Floyd-Warshall (Kemp Alg. 4 on the GPU, as in Hochberg's and
// seed 001's naive kernels) written for the H100 today (the tuned line's target 4: "the honest ceiling
// of one-k-per-launch designs").  NOT a paper kernel: faithful=False in the registry.
// One launch per pivot k, in place: D(i, j) = min(D(i, j), D(i, k) + D(k, j)).  Each thread updates 4
// consecutive cells of one row with one 16-byte load and one 16-byte store (int4; rows padded to a
// multiple of 4 columns with isolated vertices), so a warp moves 512 contiguous bytes each way; D(i, k)
// is one broadcast load per thread and row k (read by every row) comes from L2.  Each update reads and
// writes its cell once: 8 bytes an update, the copy's traffic, so updates/s <= copy bandwidth / 8.
// Blocks of 256 threads: blockIdx.x is the row (no 65535 limit on n), blockIdx.y the 1024-column chunk.
// Readings: row k is skipped (D(k, j) = min(D(k, j), D(k, k) + D(k, j)) changes nothing when D(k, k)
// = 0, and a negative cycle still shows on the diagonal: the rows of its other vertices are updated).
// The cell D(i, k) itself is stored back unchanged (D(k, k) = 0) by the thread whose 4 cells hold it,
// while the other threads of row i read it: the value they read is the same either way.
// The add-min is __viaddmin_s32 (SASS VIADDMNMX on sm_90), plain int32 adds under the project's INF
// convention (common.cuh).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(256)
tfs_step(int* D, int N, int k)
{
    const int i = blockIdx.x;
    const int c4 = blockIdx.y * blockDim.x + threadIdx.x;      // int4 index within the row
    if (i == k || c4 * 4 >= N)
        return;
    const size_t ld = (size_t)N;
    const int dik = D[(size_t)i * ld + k];
    const int4 rk = reinterpret_cast<const int4*>(D + (size_t)k * ld)[c4];
    int4* p = reinterpret_cast<int4*>(D + (size_t)i * ld) + c4;
    int4 v = *p;
    v.x = __viaddmin_s32(dik, rk.x, v.x);
    v.y = __viaddmin_s32(dik, rk.y, v.y);
    v.z = __viaddmin_s32(dik, rk.z, v.z);
    v.w = __viaddmin_s32(dik, rk.w, v.w);
    *p = v;
}
