// tuned_frontier's kernel (the real tuned_frontier.cu) on the CPU emulation of cuda_host.h, launched as
// algorithms/gpu/tuned/frontier.py launches it: one block per source, dynamic shared memory for the two
// bitmaps.  Built by tests/test_tuned_frontier_cpu.py.  ``threads`` is a parameter (the kernel strides by
// blockDim.x): a few threads make every thread scan several bitmap words at small n.
#include "cuda_host.h"
#include "tuned_frontier.cu"

// rows x n distances, row b for sources[b]; returns the most rounds a block ran, -1 if a block reported
// a frontier left after n + 1 rounds
template <typename T>
static int emu_frontier(T* D, int n, const int* indptr, const int* indices, const T* weights, const int* sources,
                        int rows, int threads)
{
    std::vector<unsigned> smem(2 * (size_t)((n + 31) / 32));
    std::fill(smem.begin(), smem.end(), 0xa5a5a5a5u);    // poison (and each block sees the last one's bits)
    emu_dynamic_shared = smem.data();
    std::vector<int> rounds(rows, -7);
    emu_launch({(unsigned)rows, 1, 1}, {(unsigned)threads, 1, 1}, true,
               [&] { tfr_solve<T>(D, indptr, indices, weights, sources, n, rounds.data()); });
    return emu_most_rounds(rounds);
}

extern "C" int emu_tfr_int(int* D, int n, const int* indptr, const int* indices, const int* weights,
                           const int* sources, int rows, int threads)
{
    return emu_frontier<int>(D, n, indptr, indices, weights, sources, rows, threads);
}

extern "C" int emu_tfr_float(float* D, int n, const int* indptr, const int* indices, const float* weights,
                             const int* sources, int rows, int threads)
{
    return emu_frontier<float>(D, n, indptr, indices, weights, sources, rows, threads);
}
