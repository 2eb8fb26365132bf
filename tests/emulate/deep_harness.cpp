// tuned_deep's kernel (the real tuned_deep.cu) on the CPU emulation of cuda_host.h, launched as
// algorithms/gpu/tuned/deep.py launches it: a warp per source, ``warps`` sources a block, each warp's slice
// of the dynamic shared memory.  Built by tests/test_tuned_deep_emulated.py.  The lanes of a warp run as
// fibers in a shuffled order between two __syncwarp (no lock step), and the blocks one after another in
// the order ``order`` gives (a permutation of the blocks, or null for 0, 1, ...): the kernel must not
// depend on which source runs first.
#include "cuda_host.h"
#include "tuned_deep.cu"

// rows x n distances, row r for sources[r]; returns the most rounds a warp ran, -1 if a warp reported a
// frontier left after n + 1 rounds
template <typename T>
static int emu_deep(T* D, int n, const int* indptr, const int* indices, const T* weights, const int* sources,
                    int rows, int warps, const int* order)
{
    const int words = (n + 31) / 32;
    std::vector<int> smem((size_t)warps * (2 * words + 2 * DEEP_QCAP + 2));
    std::fill(smem.begin(), smem.end(), (int)0xa5a5a5a5u);     // poison (and each block sees the last one's)
    emu_dynamic_shared = smem.data();
    std::vector<int> rounds(rows, -7);
    const int blocks = (rows + warps - 1) / warps;
    for (int i = 0; i < blocks; ++i) {
        const int b = order ? order[i] : i;
        // one block at a time, as blockIdx b of the launch's grid
        emu_launch({1, 1, 1}, {(unsigned)(32 * warps), 1, 1}, true, [&] {
            blockIdx.x = b;
            gridDim.x = blocks;
            deep_solve<T>(D, indptr, indices, weights, sources, n, rows, rounds.data());
        });
    }
    return emu_most_rounds(rounds);
}

extern "C" int emu_deep_int(int* D, int n, const int* indptr, const int* indices, const int* weights,
                            const int* sources, int rows, int warps, const int* order)
{
    return emu_deep<int>(D, n, indptr, indices, weights, sources, rows, warps, order);
}

extern "C" int emu_deep_float(float* D, int n, const int* indptr, const int* indices, const float* weights,
                              const int* sources, int rows, int warps, const int* order)
{
    return emu_deep<float>(D, n, indptr, indices, weights, sources, rows, warps, order);
}

extern "C" int emu_deep_qcap() { return DEEP_QCAP; }
extern "C" int emu_deep_max_warps() { return DEEP_MAX_WARPS; }
